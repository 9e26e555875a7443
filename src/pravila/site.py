"""The static sites: generated Markdown → one MkDocs (Material) build per language.

Layout of a build folder::

    build/docs/<lang>/          generated Markdown (+ assets/pravila/)
    build/overrides/            Pravila's template overrides, then the project's overrides/ over them
    build/mkdocs.<lang>.yml     generated configs
    build/site/                 the static site: index.html (chooser), one folder per language

The base configuration ships in the package (``theme/mkdocs.yml``).  Each
generated config holds the base plus what differs per language, and names
the project's own ``mkdocs.yml`` (if any) as its ``INHERIT`` parent with the
keys that file sets left out, so the project's settings win; only the keys
Pravila must generate per language (:data:`OWNED`) are refused there, by
``pravila check``.

The site is built into a temporary folder next to ``site/`` and exchanged
with it in one atomic step (:func:`swap_into_place`), so a reader never sees
half a site.  MkDocs runs strict, one process per language side by side: a
broken link or anchor fails the build with the warnings in
:class:`SiteBuildError`.
"""

from __future__ import annotations

import copy
import ctypes
import errno
import importlib
import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
import threading
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Iterator

import yaml

from .calctables import as_javascript
from .content import Library, Problem
from .errors import BuildError
from .pages import LanguageSite, Translator, chooser_html, language_site, not_found_html, og_locale, share_pages

if TYPE_CHECKING:
    from .project import Project

ASSETS_PREFIX = "assets/pravila"
# The scripts every page loads, in order (the tables before the calculators
# that read them). The other scripts of static/ run elsewhere: the search
# box's worker and what it imports.
PAGE_SCRIPTS = ("calculators-tables.js", "calculators.js", "site.js", "search-box.js")
GENERATED_ASSETS = {"calculators-tables.js": as_javascript}
# Keys `pravila build` writes per language; a project's mkdocs.yml may not set them.
OWNED: tuple[tuple[str, ...], ...] = (
    ("INHERIT",), ("site_url",), ("docs_dir",), ("site_dir",), ("nav",),
    ("theme", "language"), ("theme", "custom_dir"), ("extra", "alternate"), ("extra", "pravila"),
)
# Lists the project's mkdocs.yml adds to rather than replaces.
APPENDED = ("extra_css", "extra_javascript")

log = logging.getLogger(__name__)


class SiteBuildError(BuildError):
    """MkDocs refused the generated pages; ``warnings`` lists what it said."""

    def __init__(self, lang: str, warnings: list[str]):
        self.lang = lang
        self.warnings = warnings
        details = "\n".join(f"  {w}" for w in warnings) or "  (no details)"
        super().__init__(f"the '{lang}' site did not build:\n{details}")


def package_dir(name: str) -> Traversable:
    """A folder that ships inside the package (``theme``, ``static``)."""
    return resources.files("pravila").joinpath(name)


def load_widgets() -> ModuleType | None:
    """:mod:`pravila.widgets` when it exists (errors inside it are not hidden)."""
    if importlib.util.find_spec("pravila.widgets") is None:
        return None
    return importlib.import_module("pravila.widgets")


def language_sites(project: "Project", library: Library) -> list[LanguageSite]:
    widgets = load_widgets()
    render_calculators = getattr(widgets, "calculators_page", None)
    made: dict[str, str | None] = {}

    def calculators_page(lang: str, library: Library) -> str | None:
        """Each language's calculators page, rendered once: every site also asks whether the others have one."""
        if lang not in made:
            made[lang] = render_calculators(lang, library) if render_calculators is not None else None
        return made[lang]

    return [
        language_site(
            project,
            library,
            lang,
            widget_for=getattr(widgets, "widget_for", None),
            calculators_page=calculators_page,
            widget_data=getattr(widgets, "page_data", None),
        )
        for lang in project.codes
        if library.chapters_in(lang)
    ]


# --- files -------------------------------------------------------------------


def _walk(folder: Traversable, prefix: str = "") -> Iterator[tuple[str, Traversable]]:
    for item in sorted(folder.iterdir(), key=lambda t: t.name):
        if item.name.startswith((".", "__")):
            continue
        if item.is_dir():
            yield from _walk(item, f"{prefix}{item.name}/")
        elif item.is_file():
            yield f"{prefix}{item.name}", item


def static_files() -> list[str]:
    """The site's own assets (``static/``), relative names."""
    return [name for name, _ in _walk(package_dir("static"))]


def _copy_tree(folder: Traversable, dest: Path) -> None:
    for name, item in _walk(folder):
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(item.read_bytes())


def write_docs(site: LanguageSite, docs_dir: Path) -> int:
    """Write one language's Markdown and assets into ``docs_dir`` (emptied first)."""
    if docs_dir.exists():
        shutil.rmtree(docs_dir)
    for page in site.pages:
        target = docs_dir / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page.markdown, encoding="utf-8", newline="\n")
    _copy_tree(package_dir("static"), docs_dir / ASSETS_PREFIX)
    for name, make in GENERATED_ASSETS.items():
        (docs_dir / ASSETS_PREFIX / name).write_text(make(), encoding="utf-8")
    return len(site.pages)


def write_overrides(project: "Project", build_dir: Path) -> Path:
    """``build/overrides``: Pravila's template overrides, the project's ``overrides/`` copied over them."""
    dest = build_dir / "overrides"
    if dest.exists():
        shutil.rmtree(dest)
    _copy_tree(package_dir("theme").joinpath("overrides"), dest)
    if project.overrides_dir is not None:
        shutil.copytree(project.overrides_dir, dest, dirs_exist_ok=True)
    return dest


# --- configuration -------------------------------------------------------------


def base_config() -> dict[str, Any]:
    """The MkDocs settings every language site shares (``theme/mkdocs.yml`` in the package)."""
    return yaml.safe_load(package_dir("theme").joinpath("mkdocs.yml").read_text(encoding="utf-8"))


class _TolerantLoader(yaml.SafeLoader):
    """Reads a project's mkdocs.yml to see which keys it sets; MkDocs' own tags become None."""


_TolerantLoader.add_multi_constructor("", lambda loader, suffix, node: None)


def project_mkdocs(project: "Project") -> tuple[dict[str, Any], list[Problem]]:
    """The keys the project's ``mkdocs.yml`` sets (values of MkDocs' own tags as None), and its problems."""
    path = project.mkdocs_file
    if path is None:
        return {}, []
    where = _rel(path, project.root)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=_TolerantLoader)  # noqa: S506 — a SafeLoader subclass
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        return {}, [Problem(where, mark.line + 1 if mark else 0, "-", f"malformed YAML: {getattr(e, 'problem', None) or e}")]
    except (OSError, UnicodeDecodeError) as e:
        return {}, [Problem(where, 0, "-", f"cannot read it: {e}")]
    if data is None:
        return {}, []
    if not isinstance(data, dict):
        return {}, [Problem(where, 1, "-", "mkdocs.yml must be a mapping of settings")]
    problems = []
    for keys in OWNED:
        if _has(data, keys):
            problems.append(Problem(where, 1, "-", f"'{'.'.join(keys)}' is set by pravila build for each language; remove it "
                                                   "(the site's address is site_url in pravila.toml or --site-url)"))
    for key in ("markdown_extensions", "plugins"):
        if isinstance(data.get(key), list):
            problems.append(Problem(where, 1, "-", f"write '{key}' as a mapping (name: options), as Pravila's base does, "
                                                   "so the two add up"))
    return data, problems


def config_problems(project: "Project") -> list[Problem]:
    """Problems of the project's ``mkdocs.yml`` (part of ``pravila check``)."""
    return project_mkdocs(project)[1]


def _has(data: Any, keys: tuple[str, ...]) -> bool:
    for key in keys:
        if not isinstance(data, dict) or key not in data:
            return False
        data = data[key]
    return True


def _merge(base: dict[str, Any], more: dict[str, Any]) -> dict[str, Any]:
    """Mappings merged key by key (``more`` wins), anything else replaced: MkDocs' own INHERIT rule."""
    out = copy.deepcopy(base)
    for key, value in more.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _without(ours: dict[str, Any], theirs: dict[str, Any], path: tuple[str, ...] = ()) -> dict[str, Any]:
    """``ours`` minus every setting ``theirs`` sets, so the parent's (the project's) value stays."""
    out = {}
    for key, value in ours.items():
        here = (*path, key)
        if here in OWNED or key not in theirs:
            out[key] = value
        elif isinstance(value, dict) and isinstance(theirs[key], dict):
            out[key] = _without(value, theirs[key], here)
        elif key in APPENDED and isinstance(value, list) and isinstance(theirs[key], list):
            out[key] = value + [v for v in theirs[key] if v not in value]
    return out


def site_config(project: "Project", site: LanguageSite, *, docs_dir: str, site_out: str) -> dict[str, Any]:
    """The whole configuration of one language's site."""
    t = Translator(project.catalogs, site.lang)
    lang = project.language(site.lang)
    assets = static_files()
    alternate = [
        {"name": other.name, "link": f"../{other.code}/", "lang": other.code}
        for other in project.languages
        if other.code in site.languages
    ]
    ours = _merge(base_config(), {
        "site_name": site.site_name,
        "site_description": t._("The rules of Dungeons & Dragons, fifth edition, to read at the table: every rule with "
                                "its English name, its edition and its source, linked to the rules it mentions."),
        "copyright": t._("Pravila · an unofficial reference to the rules of Dungeons & Dragons 5e"),
        "site_url": f"{project.site_url}{site.lang}/",
        "docs_dir": docs_dir,
        "site_dir": site_out,
        "theme": {
            "language": lang.ui,
            "custom_dir": "overrides",
            "palette": [
                {
                    "media": "(prefers-color-scheme)",
                    "toggle": {"icon": "material/brightness-auto", "name": t._("Switch to light mode")},
                },
                {
                    "media": "(prefers-color-scheme: light)",
                    "scheme": "default",
                    "primary": "custom",
                    "accent": "custom",
                    "toggle": {"icon": "material/weather-night", "name": t._("Switch to dark mode")},
                },
                {
                    "media": "(prefers-color-scheme: dark)",
                    "scheme": "slate",
                    "primary": "custom",
                    "accent": "custom",
                    "toggle": {"icon": "material/weather-sunny", "name": t._("Switch to the system setting")},
                },
            ],
        },
        "nav": site.nav,
        "extra": {"alternate": alternate, "pravila": {
            "lang": site.lang,
            "root": project.site_url,
            "og_locale": og_locale(lang),
            "og_locales": {c: og_locale(project.language(c)) for c in site.languages},
            "strings": page_strings(t, site),
        }},
        "extra_css": [f"{ASSETS_PREFIX}/{a}" for a in assets if a.endswith(".css")],
        "extra_javascript": [f"{ASSETS_PREFIX}/{a}" for a in PAGE_SCRIPTS],
        "markdown_extensions": {
            "toc": {"permalink": True, "permalink_title": t._("Link to this rule")},
        },
        "plugins": {"search": {"lang": list(lang.lunr)}},
    })
    theirs, _ = project_mkdocs(project)
    config = _without(ours, theirs)
    if project.mkdocs_file is not None:
        config = {"INHERIT": str(project.mkdocs_file), **config}
    return config


def page_strings(t: Translator, site: LanguageSite) -> dict[str, Any]:
    """What site.js and the 404 page say, in the site's language (``extra.pravila.strings``)."""
    return {
        "open_rule": t._("Open the rule"),
        "home_page": t._("home page"),
        "language": t._("Language"),
        "link_copied": t._("Link copied"),
        "search": t._("Search"),
        "search_for": t._("Search for «%(query)s»"),
        "not_found": t._("Page not found"),
        "not_found_text": t._("There is no page at this address. The rule may have moved: search for it, or look it up "
                              "in the A–Z index."),
        "a_z": t._("A–Z index"),
        "a_z_text": t._("Every term in one list: titles, English names and the other names players use."),
        "home": t._("Home"),
        "homes": {code: f"/{code}/" for code in site.languages},
    }


def write_config(project: "Project", site: LanguageSite, build_dir: Path) -> Path:
    config = site_config(project, site, docs_dir=f"docs/{site.lang}", site_out=f"site/{site.lang}")
    path = build_dir / f"mkdocs.{site.lang}.yml"
    header = "# Generated by `pravila build` — do not edit; change the project's mkdocs.yml or pravila.toml.\n"
    path.write_text(header + yaml.safe_dump(config, allow_unicode=True, sort_keys=False, width=120), encoding="utf-8")
    return path


# --- running MkDocs ----------------------------------------------------------------

_LOG_LINE = re.compile(r"^(?P<level>WARNING|ERROR)\s+-\s+(?P<message>.*)$")


def _mkdocs_process(config_file: Path, out_dir: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config_file), "--site-dir", str(out_dir)]
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", PYTHONIOENCODING="utf-8", NO_COLOR="1")
    return subprocess.Popen(
        command, cwd=config_file.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, encoding="utf-8"
    )


def run_mkdocs_all(jobs: list[tuple[Path, str, Path]]) -> None:
    """Strict MkDocs builds ``(config_file, lang, out_dir)``, all at once, each in its own process.

    Two processes side by side build both sites in about the time of one
    in-process build after the other (measured: ~1.0 s against ~1.5 s).
    Raises :class:`SiteBuildError` with MkDocs' warnings when one fails.
    """
    running = [(lang, _mkdocs_process(config_file, out_dir)) for config_file, lang, out_dir in jobs]
    failures: list[SiteBuildError] = []
    for lang, process in running:
        try:
            output, _ = process.communicate(timeout=600)
        except subprocess.TimeoutExpired:
            process.kill()
            output, _ = process.communicate()
            failures.append(SiteBuildError(lang, ["MkDocs took longer than 10 minutes"]))
            continue
        lines = output.splitlines()
        problems = [m.group("message").strip() for m in map(_LOG_LINE.match, lines) if m]
        if process.returncode != 0 or problems:
            tail = [line for line in lines if line.strip()][-5:]
            failures.append(SiteBuildError(lang, problems or tail))
    if failures:
        raise failures[0]


def run_mkdocs(config_file: Path, lang: str, out_dir: Path) -> None:
    """One strict MkDocs build into ``out_dir``."""
    run_mkdocs_all([(config_file, lang, out_dir)])


def build_site_into(project: "Project", library: Library, out: Path) -> int:
    """Generate the Markdown and build every language's site into ``out`` (a new folder).

    Returns the number of pages.  Raises :class:`SiteBuildError` when MkDocs
    finds a problem; ``out`` is then left for the caller to remove.
    """
    build_dir = project.build_dir
    sites = language_sites(project, library)
    write_overrides(project, build_dir)
    pages, jobs = 0, []
    for site in sites:
        pages += write_docs(site, build_dir / "docs" / site.lang)
        jobs.append((write_config(project, site, build_dir), site.lang, out / site.lang))
    run_mkdocs_all(jobs)
    (out / "index.html").write_text(chooser_html(project, library), encoding="utf-8")
    (out / "404.html").write_text(not_found_html(project, library), encoding="utf-8")
    for site in sites:
        for path, html in share_pages(project, library, site.lang):
            target = out / site.lang / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(html, encoding="utf-8")
    return pages


def new_site_folder(build_dir: Path) -> Path:
    """A fresh folder next to ``site/`` for a build in progress (``.site-new-…``)."""
    tmp = build_dir / f".site-new-{os.getpid()}-{threading.get_ident()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    return tmp


# --- switching a new site in ------------------------------------------------------

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``); False where unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def swap_into_place(new: Path, dest: Path) -> None:
    """Put the folder ``new`` at ``dest``; the previous ``dest`` is removed.

    Where the system can, both are exchanged atomically, so a reader (in any
    process) sees either the whole old site or the whole new one.
    """
    if dest.exists() and _exchange(new, dest):
        shutil.rmtree(new, ignore_errors=True)  # now holds the previous site
        return
    old = dest.with_name(f".site-old-{os.getpid()}-{threading.get_ident()}")
    if dest.exists():
        dest.rename(old)
    new.rename(dest)
    if old.exists():
        shutil.rmtree(old, ignore_errors=True)


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return str(path)
