"""The project: found from the current folder, configured once with one precedence, and its errors.

Also a third language end to end from data alone (tests/fixtures/polish: the
registry's Polish record, content, a pravila.toml), and the bad set-ups a
person meets first: an unknown language folder, a reserved id, a build
folder that cannot be written — each one clear line.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, ROOT
from pravila.cli import main
from pravila.errors import ProjectError
from pravila.project import DEFAULT_SITE_URL, load_project

POLISH = Path(__file__).parent / "fixtures" / "polish"


def cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None):
    """Run ``pravila`` as from a shell in ``cwd`` (no PRAVILA_* variables unless given)."""
    old = Path.cwd()
    clean = {k: None for k in os.environ if k.startswith("PRAVILA_")}
    try:
        if cwd is not None:
            os.chdir(cwd)
        return CliRunner().invoke(main, list(args), env={**clean, **(env or {})})
    finally:
        os.chdir(old)


def one_error_line(result) -> str:
    lines = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.fixture
def mini_project(tmp_path: Path) -> Path:
    """A project folder: the small fixture as content/, no pravila.toml."""
    shutil.copytree(MINI, tmp_path / "proj" / "content")
    return tmp_path / "proj"


# --- finding the project ----------------------------------------------------------------------------


def test_found_from_a_subfolder_by_its_content_folder(mini_project: Path):
    deep = mini_project / "notes" / "deeper"
    deep.mkdir(parents=True)
    project = load_project(cwd=deep, environ={})
    assert project.root == mini_project.resolve()
    assert project.content_dir == (mini_project / "content").resolve()
    assert project.build_dir == (mini_project / "build").resolve()
    assert project.codes == ("ru", "cs")  # the registry's languages that have a folder


def test_pravila_toml_wins_over_a_nearer_content_folder(mini_project: Path):
    (mini_project / "pravila.toml").write_text('content = "content"\nlanguages = ["cs"]\n', encoding="utf-8")
    inner = mini_project / "sub"
    (inner / "content").mkdir(parents=True)
    assert load_project(cwd=inner, environ={}).root == mini_project.resolve()


def test_no_project_is_one_clear_line(tmp_path: Path):
    result = cli("check", cwd=tmp_path)
    assert result.exit_code == 1
    assert "no Pravila project" in one_error_line(result)


def test_settings_precedence_option_environment_file_default(mini_project: Path, tmp_path: Path):
    (mini_project / "pravila.toml").write_text('build = "from-file"\nsite_url = "https://file.example/rules"\n',
                                               encoding="utf-8")
    env = {"PRAVILA_BUILD_DIR": "from-env", "PRAVILA_SITE_URL": "https://env.example/"}
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    # the file over the default; relative to the project folder
    p = load_project(mini_project, environ={}, cwd=cwd)
    assert (p.build_dir, p.site_url) == ((mini_project / "from-file").resolve(), "https://file.example/rules/")
    assert p.describe("site_url") == "from pravila.toml"
    # the environment over the file; relative to where the command runs
    p = load_project(mini_project, environ=env, cwd=cwd)
    assert (p.build_dir, p.site_url) == ((cwd / "from-env").resolve(), "https://env.example/")
    # the command line over both
    p = load_project(mini_project, build=Path("opt"), site_url="https://opt.example", environ=env, cwd=cwd)
    assert (p.build_dir, p.site_url) == ((cwd / "opt").resolve(), "https://opt.example/")
    assert p.describe("site_url") == "from the command line"
    # nothing set: the defaults
    (mini_project / "pravila.toml").unlink()
    p = load_project(mini_project, environ={}, cwd=cwd)
    assert (p.build_dir, p.site_url) == ((mini_project / "build").resolve(), DEFAULT_SITE_URL)


@pytest.mark.parametrize(
    "toml, message",
    [
        ("content = [", "pravila.toml: "),
        ('colour = "red"\n', "unknown setting 'colour'"),
        ('languages = ["ru", "xx"]\n', "unknown language 'xx' in languages"),
        ('site_url = "example.org"\n', "the site URL must be an absolute http(s) address"),
        ('[language.xx]\nname = "X"\nscript = "Latin"\nstemmer = "snowball:klingon"\n', "PyStemmer has no 'klingon'"),
        ('[language.xx]\nname = "X"\nscript = "Runic"\nstemmer = "snowball:english"\n', "script must be one of"),
        ('[language.xx]\nname = "X"\nscript = "Latin"\nstemmer = "snowball:german"\nbrowser = "english"\n',
         "browser must name the twin of its stemmer 'snowball:german'"),
    ],
)
def test_a_bad_pravila_toml_is_one_clear_line(mini_project: Path, toml: str, message: str):
    (mini_project / "pravila.toml").write_text(toml, encoding="utf-8")
    result = cli("check", cwd=mini_project)
    assert result.exit_code == 1
    assert message in one_error_line(result)


def test_a_language_declared_in_pravila_toml_is_used(tmp_path: Path):
    project_dir = tmp_path / "proj"
    shutil.copytree(POLISH / "content", project_dir / "content")
    (project_dir / "content" / "pl").rename(project_dir / "content" / "pt")
    walka = project_dir / "content" / "pt" / "walka.yaml"
    walka.write_text(walka.read_text(encoding="utf-8").replace("lang: pl", "lang: pt"), encoding="utf-8")
    (project_dir / "pravila.toml").write_text(
        'languages = ["pt"]\n[language.pt]\nname = "Português"\nscript = "Latin"\nstemmer = "snowball:portuguese"\n'
        'alphabet = "a b c d e f g h i j k l m n o p q r s t u v w x y z"\n', encoding="utf-8")
    result = cli("check", cwd=project_dir)
    assert result.exit_code == 0, result.output
    project = load_project(project_dir, environ={})
    assert project.language("pt").name == "Português" and project.language("pt").stemmer == "snowball:portuguese"


# --- content folders and ids the build relies on ---------------------------------------------


def test_a_folder_for_an_unknown_language_is_a_check_problem(mini_project: Path):
    (mini_project / "content" / "xx").mkdir()
    (mini_project / "content" / "xx" / "a.yaml").write_text("chapter: {}\n", encoding="utf-8")
    result = cli("check", cwd=mini_project)
    assert result.exit_code == 1
    assert "content/xx/:0: -: unknown language 'xx' (the registry has ru, cs, en, pl; declare it under [language.xx] in pravila.toml)" in result.output


def test_a_folder_for_a_language_the_project_did_not_select_is_a_check_problem(mini_project: Path):
    (mini_project / "pravila.toml").write_text('languages = ["ru"]\n', encoding="utf-8")
    result = cli("check", cwd=mini_project)
    assert result.exit_code == 1
    assert "content/cs/:0: -: language 'cs' is not one of the project's languages (ru)" in result.output


@pytest.mark.parametrize(
    "file, old, new, message",
    [
        ("ru/mini.yaml", "  id: mini\n", "  id: search\n", "content/ru/mini.yaml:1: chapter: chapter id 'search' is reserved for a site page"),
        ("cs/mini.yaml", "  - id: casting-spells\n", "  - id: index\n", "content/cs/mini.yaml:10: index: a top-level entry cannot be called 'index'"),
    ],
)
def test_reserved_ids_are_check_problems_and_build_refuses(mini_project: Path, file: str, old: str, new: str, message: str):
    path = mini_project / "content" / file
    path.write_text(path.read_text(encoding="utf-8").replace(old, new, 1), encoding="utf-8")
    checked = cli("check", cwd=mini_project)
    assert checked.exit_code == 1 and message in checked.output
    built = cli("build", cwd=mini_project)
    assert built.exit_code == 1
    assert message in built.output
    assert "nothing was built" in one_error_line(built)
    assert not (mini_project / "build" / "site").exists()


def test_build_refuses_content_that_only_the_fidelity_check_rejects(mini_project: Path):
    path = mini_project / "content" / "ru" / "mini.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("вашего хода", "чужого хода"), encoding="utf-8")
    built = cli("build", cwd=mini_project)
    assert built.exit_code == 1
    assert "not in the source" in built.output
    assert not (mini_project / "build").exists()


def _unwritable(tmp_path: Path) -> Path:
    """A build folder this process cannot write (chmod for a user; a kernel folder for root)."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        (folder / "probe").mkdir()
    except PermissionError:
        return folder / "build"
    (folder / "probe").rmdir()  # root ignores modes: use a folder the kernel refuses
    return Path("/sys/fs/pravila-test-build")


def test_a_build_folder_that_cannot_be_written_is_one_clear_line(mini_project: Path, tmp_path: Path):
    target = _unwritable(tmp_path)
    result = cli("build", "--build-dir", str(target), cwd=mini_project)
    assert result.exit_code == 1
    line = one_error_line(result)
    assert "cannot write the build folder" in line and str(target.parent) in line


def test_a_file_where_the_build_folder_should_be_is_one_clear_line(mini_project: Path):
    (mini_project / "build").write_text("not a folder", encoding="utf-8")
    result = cli("build", cwd=mini_project)
    assert result.exit_code == 1
    assert "cannot write the build folder" in one_error_line(result)


def test_search_and_serve_without_a_build_say_to_build(mini_project: Path):
    result = cli("search", "прыжок", cwd=mini_project)
    assert result.exit_code == 1
    assert "pravila build" in one_error_line(result)


# --- a third language, from data only ------------------------------------------------------------------


@pytest.fixture(scope="module")
def polish(tmp_path_factory) -> Path:
    """The Polish fixture project copied and built (``pravila build`` run in its folder)."""
    project_dir = tmp_path_factory.mktemp("polish") / "proj"
    shutil.copytree(POLISH, project_dir)
    result = cli("build", cwd=project_dir)
    assert result.exit_code == 0, result.output
    assert "site URL: http://127.0.0.1:8765/rules/ (from pravila.toml)" in result.output
    return project_dir


def test_a_third_language_gets_its_own_site(polish: Path):
    site = polish / "build" / "site"
    home = (site / "pl" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="pl"' in home
    assert "Skok w dal" in (site / "pl" / "walka" / "movement" / "index.html").read_text(encoding="utf-8")
    assert (site / "index.html").is_file()
    assert not (site / "pl" / "calculators").exists()  # its content has none of the calculators' rules
    assert not (site / "ru").exists()


def test_a_third_language_a_z_follows_its_alphabet(polish: Path):
    import re

    html = (polish / "build" / "site" / "pl" / "a-z" / "index.html").read_text(encoding="utf-8")
    groups = html[html.index('class="pv-az-group"'):]
    letters = re.findall(r'<h2 id="letter-\d+">(\w+)', groups)
    assert letters.index("L") + 1 == letters.index("Ł") < letters.index("M")  # Polish: Ł is a letter of its own, after L
    titles = re.findall(r'<li class="pv-az-row pv-az-row--title"><a [^>]*>([^<]+)</a>', groups)
    assert titles == ["Leżenie", "Łucznictwo", "Ruch", "Skok w dal"]


def test_a_third_language_is_searched_with_its_stemmer(polish: Path):
    result = cli("search", "skokiem", "--lang", "pl", "--json", cwd=polish)
    assert result.exit_code == 0, result.output
    hits = json.loads(result.output)["hits"]
    assert hits[0]["id"] == "long-jump" and "<mark>skok</mark>" in hits[0]["snippet"]
    assert cli("search", "skokiem", "--lang", "ru", cwd=polish).exit_code == 1  # not one of this project's languages


def test_a_third_language_through_the_api(polish: Path):
    import warnings

    from pravila.server import create_app

    with warnings.catch_warnings():  # Starlette 1.x nudges towards httpx2; httpx works the same here
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    client = TestClient(create_app(load_project(polish, environ={})))
    found = client.get("/api/search", params={"q": "łucznictwa", "lang": "pl"}).json()
    assert [h["id"] for h in found["hits"]] == ["archery"]
    entry = client.get("/api/entries/pl/long-jump").json()
    assert entry["title"] == "Skok w dal" and entry["lang"] == "pl"
    assert client.get("/api/entries/ru/long-jump").status_code == 404
    assert client.get("/healthz").json()["entries"] == {"pl": 4}
    assert client.get("/", headers={"Accept-Language": "pl-PL"}, follow_redirects=False).headers["location"] == "/pl/"


def test_unknown_language_errors_name_the_project_s_languages():
    with pytest.raises(ProjectError, match=r"unknown language 'de' \(this project has ru, cs\)"):
        load_project(ROOT, environ={}).language("de")
