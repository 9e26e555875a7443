"""Precompressed copies of the site's text files, written at build time.

Next to each text file of a built site (HTML, CSS, JavaScript, JSON, SVG,
XML) of at least :data:`MIN_BYTES` go ``<name>.br`` (Brotli, quality 11) and
``<name>.gz`` (gzip, level 9), each kept only when it is smaller than the
file.  ``pravila serve`` sends one of them by ``Accept-Encoding``; nginx
(``gzip_static``/``brotli_static``) and most static hosts can send them too.
Compressing on every request instead would cost the server more than the
file itself.

Brotli is the ``brotli`` package (Google's own bindings of the reference
library); without it only ``.gz`` files are written.

Best compression is slow (Brotli 11: about 1 s per MB here), so work is
shared: a file with the same bytes as one already compressed in this build
(the languages' copies of Material's assets) or as the file at the same place
in the live site (``previous``, unchanged since the last build) gets those
copies instead of being compressed again; and a process that builds more
than once (``serve --watch``, the tests, a script building several projects)
compresses the same bytes once: :class:`Memo` keeps the latest results.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import shutil
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

try:  # pragma: no cover - exercised where the package is installed (it is a dependency)
    import brotli as _brotli
except ImportError:  # pragma: no cover
    _brotli = None

TEXT_SUFFIXES = frozenset({".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt"})
MIN_BYTES = 512  # below that, the headers cost more than compression saves
MAX_RATIO = 0.9  # keep a compressed copy only if it is at most this share of the file


def _br(data: bytes) -> bytes:
    return _brotli.compress(data, quality=11)


def _gz(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def encoders() -> dict[str, Callable[[bytes], bytes]]:
    """Suffix → compressor, best first (the order a server prefers them in)."""
    found: dict[str, Callable[[bytes], bytes]] = {}
    if _brotli is not None:
        found[".br"] = _br
    found[".gz"] = _gz
    return found


class Memo:
    """The compressed bytes of recently compressed files, by codec and digest, up to ``max_bytes``
    (least recently used dropped first).  Compression is a pure function of the bytes, so a hit
    is exactly what compressing again would give."""

    def __init__(self, max_bytes: int = 32 * 1024 * 1024):
        self.max_bytes = max_bytes
        self._packed: OrderedDict[tuple[str, bytes], bytes] = OrderedDict()
        self._size = 0

    def encode(self, suffix: str, encode: Callable[[bytes], bytes], digest: bytes, data: bytes) -> bytes:
        key = (suffix, digest)
        packed = self._packed.get(key)
        if packed is not None:
            self._packed.move_to_end(key)
            return packed
        packed = encode(data)
        self._packed[key] = packed
        self._size += len(packed)
        while self._size > self.max_bytes and self._packed:
            self._size -= len(self._packed.popitem(last=False)[1])
        return packed


# One per process: builds in one process share what they compressed.
MEMO = Memo()

# Content-Encoding of each suffix, for the server.
ENCODINGS = {".br": "br", ".gz": "gzip"}


def compressible(path: Path) -> bool:
    return path.suffix in TEXT_SUFFIXES


@dataclass
class Summary:
    files: int = 0
    compressed: int = 0  # files compressed now
    reused: int = 0  # files whose copies came from an identical file
    bytes_in: int = 0
    bytes_out: dict[str, int] = field(default_factory=dict)

    def __str__(self) -> str:
        sizes = ", ".join(f"{suffix} {n / 1024:.0f} KB" for suffix, n in self.bytes_out.items())
        return (f"precompressed {self.files} files ({self.bytes_in / 1024:.0f} KB → {sizes}); "
                f"{self.compressed} compressed, {self.reused} reused")


def precompress(site: Path, previous: Path | None = None, memo: Memo = MEMO) -> Summary:
    """Write ``.br``/``.gz`` copies next to every text file of ``site`` (a folder being built).

    ``previous`` is the live site: an unchanged file takes its copies from there.
    """
    codecs = encoders()
    summary = Summary(bytes_out={suffix: 0 for suffix in codecs})
    done: dict[bytes, dict[str, Path]] = {}  # digest of a file → its copies in this build
    for path in sorted(p for p in site.rglob("*") if p.is_file() and compressible(p)):
        data = path.read_bytes()
        if len(data) < MIN_BYTES:
            continue
        summary.files += 1
        summary.bytes_in += len(data)
        digest = hashlib.blake2b(data, digest_size=16).digest()
        copies = done.get(digest)
        if copies is None and previous is not None:
            copies = _unchanged_in(previous / path.relative_to(site), data, codecs)
        if copies is not None:
            made = {suffix: _link(source, path.with_name(path.name + suffix)) for suffix, source in copies.items()}
            summary.reused += 1
        else:
            made = {}
            for suffix, encode in codecs.items():
                packed = memo.encode(suffix, encode, digest, data)
                if len(packed) <= MAX_RATIO * len(data):
                    target = path.with_name(path.name + suffix)
                    target.write_bytes(packed)
                    made[suffix] = target
            summary.compressed += 1
        done[digest] = made
        for suffix, target in made.items():
            summary.bytes_out[suffix] += target.stat().st_size
    return summary


def _unchanged_in(old: Path, data: bytes, codecs: dict[str, Callable[[bytes], bytes]]) -> dict[str, Path] | None:
    """The copies of ``old`` when it holds exactly ``data`` and has every copy this build would make."""
    try:
        if old.stat().st_size != len(data) or old.read_bytes() != data:
            return None
    except OSError:
        return None
    copies = {suffix: old.with_name(old.name + suffix) for suffix in codecs}
    present = {suffix: p for suffix, p in copies.items() if p.is_file()}
    # A copy may be missing on purpose (it did not save enough); then recompress to be sure.
    return present if len(present) == len(copies) else None


def _link(source: Path, target: Path) -> Path:
    """``target`` with the bytes of ``source``: a hard link where possible (no bytes copied), else a copy."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    return target
