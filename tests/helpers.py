"""Small helpers the tests share: this repository as a project, and projects made from it.

``repo_project()`` is the repository itself (pravila.toml at the top);
``repo_project(content=…, build=…, site_url=…)`` the same project with
those settings overridden, as the command line would.  The environment is
never read, so a developer's PRAVILA_* variables do not change the tests.
"""

from __future__ import annotations

from pathlib import Path

from pravila.content import Library
from pravila.search import build_index
from pravila.project import Project, load_project
from pravila.search import Searcher

ROOT = Path(__file__).resolve().parents[1]
CONTENT_DIR = ROOT / "content"
LOCALES_DIR = ROOT / "locales"
MINI = Path(__file__).parent / "fixtures" / "mini"


def repo_project(*, content: Path | None = None, build: Path | None = None, site_url: str | None = None) -> Project:
    return load_project(ROOT, content=content, build=build, site_url=site_url, environ={}, cwd=ROOT)


def index_library(library: Library, folder: Path, project: Project | None = None) -> int:
    """Index a library (of the repository's languages) into ``folder``."""
    return build_index(project or repo_project(), library, folder)


def searcher(folder: Path, project: Project | None = None) -> Searcher:
    project = project or repo_project()
    return Searcher(folder, project.languages, project.english)


_ANIMATIONS_DONE = """() => Promise.race([
  Promise.all(document.getAnimations()
    .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime - a.currentTime <= 1000)
    .map((a) => a.finished.catch(() => null))),
  new Promise((done) => setTimeout(done, 2000)),
])"""


def settle(page, started_within_ms: int = 120) -> None:
    """Wait until the page's CSS transitions (header title, tooltips, the search overlay) have
    finished: a moment for those a scroll or a click starts, then their own end.  Longer
    animations (a target's 2.7 s glow, spinners) are not waited for."""
    page.wait_for_timeout(started_within_ms)
    page.evaluate(_ANIMATIONS_DONE)


def screenshot(page, path: Path) -> None:
    """A screenshot of the page as the reader sees it once it has stopped moving."""
    settle(page)
    page.screenshot(path=str(path))
