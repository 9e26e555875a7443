"""Index generations on disk: each build writes a new folder, one atomic rename switches it in.

``build/index`` is a symbolic link to ``build/index.d/<generation>``; a
running server never sees half an index: it notices the new target and
reopens.  Each generation carries a format file (:data:`FORMAT_FILE`)
saying which layout wrote it; another value (or none) means "rebuild".
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Sequence

__all__ = ["FORMAT", "FORMAT_FILE", "generation_on_disk", "generations_dir", "new_generation", "publish", "read_format", "write_format"]

# Layout 3: one Whoosh index per language under <generation>/<lang>/, analyzers
# pickled from pravila.search.index.  Layout 2 (pravila.index, one index) must be rebuilt.
FORMAT = "pravila-index-4"
FORMAT_FILE = "pravila-format.json"


def generation_on_disk(index_dir: os.PathLike[str] | str) -> tuple[str, int, int] | None:
    """Which generation ``index_dir`` points at now (its real path, inode and mtime), or None: what a
    searcher reopens on and what a server's result cache is keyed by, so both see the same switch."""
    try:
        real = os.path.realpath(index_dir)
        st = os.stat(real)
    except OSError:
        return None
    return (real, st.st_ino, st.st_mtime_ns)


def generations_dir(index_dir: Path) -> Path:
    """Where the generations of an index live: next to it, ``<name>.d/``."""
    return index_dir.with_name(index_dir.name + ".d")


def new_generation(index_dir: Path) -> Path:
    """A new, empty generation folder (not switched in yet)."""
    generations = generations_dir(index_dir)
    generations.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(prefix=time.strftime("%Y%m%d-%H%M%S-"), dir=generations))
    os.chmod(new, 0o755)  # mkdtemp makes it private; a server may run as another user
    return new


def write_format(generation: Path, languages: Sequence[str], entries: dict[str, int]) -> None:
    """Say which layout wrote ``generation`` and which language parts it has, in order."""
    meta = {"format": FORMAT, "languages": list(languages), "entries": entries}
    (generation / FORMAT_FILE).write_text(json.dumps(meta), encoding="utf-8")


def read_format(generation: Path) -> dict[str, Any] | None:
    """What a generation says about itself (None for an index from another layout)."""
    try:
        data = json.loads((generation / FORMAT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("languages"), list):
        return None
    return data


def publish(new: Path, index_dir: Path) -> None:
    """Point ``index_dir`` at the generation ``new`` in one atomic step, then prune old generations."""
    link = index_dir.with_name(f".{index_dir.name}.{os.getpid()}.link")
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink(os.path.relpath(new, index_dir.parent), link)
    if index_dir.exists() and not index_dir.is_symlink():
        # An index folder from before generations: move it aside (not atomic, once).
        shutil.rmtree(index_dir)
    os.replace(link, index_dir)
    _prune(generations_dir(index_dir), current=new)


def _prune(generations: Path, current: Path) -> None:
    """Remove all generations but the newest two (the current and the one a server may still read)."""
    gens = sorted((p for p in generations.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime_ns)
    for old in gens[:-2]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)
