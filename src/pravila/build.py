"""``pravila build``: the checked content → every language's site and the search index.

The side-effecting edge of the pipeline; the parts live in ``site`` (pages)
and ``index`` (search).  Both are written beside what is being served and
switched in together at the end, so a failure anywhere leaves the previous
site and index in place, and a reader never gets the new site with the old
search or the other way round.

One build at a time per build folder (a lock file, ``build/.build.lock``):
``pravila build`` and a ``serve --watch`` rebuild wait for each other.  A
build that was killed (``kill -9``, a power cut) leaves its half-written
``.site-new-*`` folder and index generation behind; the next build removes
them before it starts, so only the live site, the generation ``build/index``
points to and, after the switch, the one before it are ever kept.
"""

from __future__ import annotations

import logging
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .checks import checked_library
from .content import Library
from .errors import BuildError

if TYPE_CHECKING:
    from .project import Project

log = logging.getLogger("pravila.build")

LOCK_FILE = ".build.lock"
# What builds leave next to site/ and index/ while they run (see pravila.site, pravila.search.generations).
TEMPORARY = (".site-new-*", ".site-old-*", ".index.*.link")


@dataclass(frozen=True)
class BuildSummary:
    pages: int
    entries: int
    site_dir: str
    index_dir: str
    site_url: str
    compressed: str = ""

    def __str__(self) -> str:
        return f"built {self.pages} pages into {self.site_dir}, indexed {self.entries} entries into {self.index_dir}"


def build(project: "Project", library: Library | None = None) -> BuildSummary:
    """Check the content (the whole of ``pravila check``), then build and switch in site and index.

    Raises :class:`~pravila.errors.ContentError` when the check finds
    problems and :class:`~pravila.errors.BuildError` when something cannot
    be built or written.
    """
    from .compress import precompress
    from .offline import site_strings, write_offline
    from .search import publish, write_generation
    from .search.browser import prepare_browser_search, write_browser_search
    from .site import build_site_into, new_site_folder, swap_into_place

    if library is None:
        library = checked_library(project)
    build_dir = project.build_dir
    try:
        build_dir.mkdir(parents=True, exist_ok=True)
        with build_lock(build_dir):
            remove_leftovers(project)
            generation, entries = write_generation(project, library)
            out, published = None, False
            try:
                out = new_site_folder(build_dir)
                with ThreadPoolExecutor(1) as pool:  # the browser's search data is computed while MkDocs builds
                    prepared = pool.submit(prepare_browser_search, project, generation)
                    pages = build_site_into(project, library, out)
                    now = datetime.now(timezone.utc)
                    write_browser_search(project, prepared.result(), out, lambda code: site_strings(project, code, now), now=now)
                write_offline(project, out)
                compressed = precompress(out, previous=project.site_dir if project.site_dir.is_dir() else None)
                publish(generation, project.index_dir)
                published = True
                swap_into_place(out, project.site_dir)
            finally:
                if not published:  # a generation never switched in must not count as one
                    shutil.rmtree(generation, ignore_errors=True)
                if out is not None and out.exists():
                    shutil.rmtree(out, ignore_errors=True)
    except OSError as e:
        where = e.filename or build_dir
        raise BuildError(f"cannot write the build folder ({where}): {e.strerror or e}") from e
    return BuildSummary(pages, entries, str(project.site_dir), str(project.index_dir), project.site_url, str(compressed))


class build_lock:
    """An exclusive lock on a build folder for the length of a build (waits for a build under way)."""

    def __init__(self, build_dir: Path):
        self.path = build_dir / LOCK_FILE
        self.fd: int | None = None

    def __enter__(self) -> "build_lock":
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX: builds are not serialised
            return self
        fcntl.flock(self.fd, fcntl.LOCK_EX)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
            self.fd = None


def leftovers(project: "Project") -> Iterator[Path]:
    """What killed builds left: temporary site folders and links, and index generations never switched in.

    Call it holding the build lock: then no build is under way, and every
    generation but the one ``build/index`` points to is either unpublished
    or older than the current one (a reader moves on to the current one at
    its next search).
    """
    build_dir = project.build_dir
    for pattern in TEMPORARY:
        yield from sorted(build_dir.glob(pattern))
    from .search import generations_dir

    generations = generations_dir(project.index_dir)
    if not generations.is_dir():
        return
    try:
        current = Path(os.path.realpath(project.index_dir)) if project.index_dir.is_symlink() else None
    except OSError:
        current = None
    for folder in sorted(generations.iterdir()):
        if current is None or folder.resolve() != current:
            yield folder


def remove_leftovers(project: "Project") -> list[Path]:
    """Remove :func:`leftovers`; the paths removed."""
    removed = []
    for path in leftovers(project):
        if path.is_symlink() or path.is_file():
            path.unlink(missing_ok=True)
        else:
            shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    if removed:
        log.info("removed what earlier builds left: %s", ", ".join(p.name for p in removed))
    return removed
