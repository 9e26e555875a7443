"""``pravila build``: content → both static sites and the search index.

The side-effecting edge of the pipeline; the parts live in ``site`` (pages)
and ``index`` (search).
"""

from __future__ import annotations

from pathlib import Path

from .content import Library
from .paths import BUILD_DIR, index_dir, site_dir


def build_all(library: Library, build_dir: Path | None = None) -> str:
    """Build everything into ``build_dir``; return a one-line summary."""
    from .index import build_index
    from .site import build_site

    build_dir = Path(build_dir or BUILD_DIR)
    pages = build_site(library, build_dir)
    docs = build_index(library, index_dir(build_dir))
    return f"built {pages} pages into {site_dir(build_dir)}, indexed {docs} entries into {index_dir(build_dir)}"
