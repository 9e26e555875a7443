"""Where things are on disk: the repository's folders and the build output."""

from __future__ import annotations

from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]
CONTENT_DIR = REPO_DIR / "content"
LOCALES_DIR = REPO_DIR / "locales"
BUILD_DIR = REPO_DIR / "build"


def site_dir(build_dir: Path) -> Path:
    """The static site: ``/index.html`` (language chooser), ``/ru/``, ``/cs/``."""
    return build_dir / "site"


def index_dir(build_dir: Path) -> Path:
    """The search index, both languages."""
    return build_dir / "index"
