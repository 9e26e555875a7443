"""``pravila serve``: language negotiation, static files, safety, the watcher."""

from __future__ import annotations

import importlib.util
import shutil
import threading
import time
from pathlib import Path

import warnings

import pytest

with warnings.catch_warnings():  # Starlette 1.x nudges towards httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import MINI, repo_project
from pravila import server


@pytest.fixture(scope="module")
def client(built_project) -> TestClient:
    return TestClient(server.create_app(built_project))


# --- negotiation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "header, location",
    [
        ("cs-CZ,cs;q=0.9,en;q=0.8", "/cs/"),
        ("ru-RU,ru;q=0.9", "/ru/"),
        ("en-US,en;q=0.9,cs;q=0.5", "/cs/"),
        ("en;q=0.9,ru;q=0.5,cs;q=0.7", "/cs/"),
        ("CS", "/cs/"),
    ],
)
def test_root_redirects_by_accept_language(client: TestClient, header: str, location: str):
    r = client.get("/", headers={"Accept-Language": header}, follow_redirects=False)
    assert r.status_code == 302
    assert r.headers["location"] == location
    assert "Accept-Language" in r.headers["vary"]


@pytest.mark.parametrize("header", [None, "en-US,en;q=0.9", "de", "*"])
def test_root_shows_the_chooser_without_a_match(client: TestClient, header: str | None):
    headers = {"Accept-Language": header} if header else {}
    r = client.get("/", headers=headers, follow_redirects=False)
    assert r.status_code == 200
    assert "Vyberte jazyk" in r.text and "Выберите язык" in r.text
    assert r.headers["content-type"].startswith("text/html")


def test_negotiation_uses_babel():
    langs = ("ru", "cs")
    assert server.negotiate("cs-CZ", langs) == "cs"
    assert server.negotiate("ru", langs) == "ru"
    assert server.negotiate("uk-UA,en", langs) is None
    assert server.parse_accept_language("a;q=0.1, b, c;q=0.5") == ["b", "c", "a"]
    assert server.parse_accept_language("ru;q=0, cs") == ["cs"]


# --- static files ---------------------------------------------------------------------


def test_pages_and_assets_are_served(client: TestClient):
    r = client.get("/ru/combat/movement/")
    assert r.status_code == 200
    assert '<html lang="ru"' in r.text
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    css = client.get("/ru/assets/pravila/site.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    js = client.get("/cs/assets/pravila/site.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]


def test_folder_without_slash_redirects(client: TestClient):
    r = client.get("/cs", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == "/cs/"
    r = client.get("/ru/combat/actions?x=1", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == "/ru/combat/actions/?x=1"


def test_missing_pages_get_the_languages_404(client: TestClient):
    r = client.get("/ru/no/such/page/")
    assert r.status_code == 404
    assert '<html lang="ru"' in r.text
    r = client.get("/nothing-here")
    assert r.status_code == 404


def test_head_and_etag(client: TestClient):
    r = client.get("/cs/")
    etag = r.headers["etag"]
    head = client.head("/cs/")
    assert head.status_code == 200 and head.headers["etag"] == etag and head.content == b""
    again = client.get("/cs/", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_sitemap_names_this_server(client: TestClient):
    r = client.get("/ru/sitemap.xml")
    assert r.status_code == 200
    assert "<loc>http://testserver/ru/" in r.text
    assert "127.0.0.1" not in r.text


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/ru/../../pyproject.toml",
        "/ru/%2e%2e/%2e%2e/pyproject.toml",
        "/..%2f..%2fpyproject.toml",
        "/ru/..%5c..%5cpyproject.toml",
        "/.site-new-1/index.html",
        "/%00",
    ],
)
def test_nothing_outside_the_site_is_served(client: TestClient, path: str):
    r = client.get(path, follow_redirects=False)
    assert r.status_code in (404, 400), (path, r.status_code)
    assert "[project]" not in r.text


def test_symlinks_out_of_the_site_are_not_followed(tmp_path: Path):
    root = tmp_path / "site"
    (root / "ru").mkdir(parents=True)
    (root / "index.html").write_text("chooser", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    (root / "ru" / "leak.txt").symlink_to(secret)
    c = TestClient(server.create_app(repo_project(build=tmp_path), api=False))
    assert c.get("/ru/leak.txt").status_code == 404
    assert c.get("/").text == "chooser"


@pytest.mark.skipif(importlib.util.find_spec("pravila.api") is None, reason="pravila.api is not there yet")
def test_api_is_mounted(client: TestClient):
    assert client.get("/healthz").status_code == 200


# --- rebuilding (on the small fixture project: a rebuild of it takes about a second) -----------------


@pytest.fixture()
def mini_project(tmp_path: Path):
    """A writable copy of the small fixture content, as a project building into tmp_path/build."""
    dest = tmp_path / "content"
    shutil.copytree(MINI, dest)
    return repo_project(content=dest, build=tmp_path / "build")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_rebuild_swaps_in_new_content_and_keeps_the_old_on_problems(mini_project, caplog):
    assert server.rebuild(mini_project)
    page = mini_project.site_dir / "ru" / "mini" / "movement" / "index.html"
    assert "Движение" in page.read_text(encoding="utf-8")

    yaml_file = mini_project.content_dir / "ru" / "mini.yaml"
    _edit(yaml_file, "title: Мини\n", "title: Мини (правка)\n")
    assert server.rebuild(mini_project)
    assert "Мини (правка)" in page.read_text(encoding="utf-8")

    _edit(yaml_file, "  - id: movement\n", "  - id: movement\n    parent: nowhere\n")
    with caplog.at_level("ERROR", logger="pravila.server"):
        assert not server.rebuild(mini_project)
    assert "nowhere" in caplog.text
    assert "still serving the previous build" in caplog.text
    assert "Мини (правка)" in page.read_text(encoding="utf-8")


def test_readers_never_see_half_a_site(mini_project):
    assert server.rebuild(mini_project)
    c = TestClient(server.create_app(mini_project, api=False))
    statuses: list[int] = []
    done = threading.Event()

    def build_twice() -> None:
        try:
            for _ in range(2):
                server.rebuild(mini_project)
        finally:
            done.set()

    threading.Thread(target=build_twice, daemon=True).start()
    while not done.is_set():
        for path in ("/ru/mini/movement/", "/cs/", "/ru/assets/pravila/site.css"):
            statuses.append(c.get(path).status_code)
    assert len(statuses) > 10
    assert set(statuses) == {200}


def test_watch_rebuilds_on_change(mini_project):
    assert server.rebuild(mini_project)
    page = mini_project.site_dir / "cs" / "mini" / "index.html"
    watcher = server.Watcher(mini_project).start()
    try:
        time.sleep(0.5)
        _edit(mini_project.content_dir / "cs" / "mini.yaml", "  title: Mini\n", "  title: Mini (úprava)\n")
        deadline = time.monotonic() + 60
        while "Mini (úprava)" not in page.read_text(encoding="utf-8"):
            assert time.monotonic() < deadline, "the watcher did not rebuild"
            time.sleep(0.2)
    finally:
        watcher.stop()
