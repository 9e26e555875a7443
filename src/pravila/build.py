"""``pravila build``: the checked content → every language's site and the search index.

The side-effecting edge of the pipeline; the parts live in ``site`` (pages)
and ``index`` (search).  Both are written beside what is being served and
switched in together at the end, so a failure anywhere leaves the previous
site and index in place, and a reader never gets the new site with the old
search or the other way round.
"""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import TYPE_CHECKING

from .checks import checked_library
from .content import Library
from .errors import BuildError

if TYPE_CHECKING:
    from .project import Project


@dataclass(frozen=True)
class BuildSummary:
    pages: int
    entries: int
    site_dir: str
    index_dir: str
    site_url: str

    def __str__(self) -> str:
        return f"built {self.pages} pages into {self.site_dir}, indexed {self.entries} entries into {self.index_dir}"


def build(project: "Project", library: Library | None = None) -> BuildSummary:
    """Check the content (the whole of ``pravila check``), then build and switch in site and index.

    Raises :class:`~pravila.errors.ContentError` when the check finds
    problems and :class:`~pravila.errors.BuildError` when something cannot
    be built or written.
    """
    from .search import publish, write_generation
    from .offline import site_strings, write_offline
    from .search.browser import prepare_browser_search, write_browser_search
    from .site import build_site_into, new_site_folder, swap_into_place

    if library is None:
        library = checked_library(project)
    build_dir = project.build_dir
    try:
        build_dir.mkdir(parents=True, exist_ok=True)
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
    return BuildSummary(pages, entries, str(project.site_dir), str(project.index_dir), project.site_url)
