"""The Whoosh engine: one generation's language parts read as one index, through Whoosh's public reader API.

The only module that reads Whoosh (:mod:`pravila.search.index` writes it).
Segment files are read without memory-mapping (``supports_mmap=False``):
a file truncated or replaced under a running reader then fails a read with
an exception, which becomes :class:`~pravila.errors.IndexUnavailable`
and a log line, instead of killing the process with SIGBUS.

Whoosh's readers share file handles, so every read holds the engine's lock;
what callers do with the answers (scoring, snippets) runs outside it.
"""

from __future__ import annotations

import logging
import threading
from bisect import bisect_right
from array import array
from pathlib import Path
from typing import Any, Callable, Iterator, TypeVar

from whoosh.filedb.filestore import FileStorage

from ..errors import IndexUnavailable
from .engine import Stored

__all__ = ["WhooshEngine"]

log = logging.getLogger("pravila.search")
T = TypeVar("T")
REBUILD = "rebuild it with 'pravila build'"


class WhooshEngine:
    """The language parts of one generation (``<generation>/<lang>/``), documents numbered through them in order."""

    def __init__(self, generation: Path, languages: list[str]):
        self.generation = Path(generation)
        self._lock = threading.Lock()
        self._closed = False
        self._readers: list[Any] = []
        self._offsets: list[int] = []
        try:
            total = 0
            for code in languages:
                reader = FileStorage(str(self.generation / code), supports_mmap=False).open_index().reader()
                self._readers.append(reader)
                self._offsets.append(total)
                total += reader.doc_count_all()
            self._doc_count = total
            self._fields = set(self._readers[0].schema.names()) if self._readers else set()
        except Exception as e:  # a half-written, foreign or unreadable folder
            self.close()
            raise IndexUnavailable(f"cannot open the search index in {self.generation} ({type(e).__name__}: {e}); {REBUILD}") from e

    @property
    def doc_count(self) -> int:
        return self._doc_count

    def _read(self, what: str, read: Callable[[], T]) -> T:
        with self._lock:
            if self._closed:
                raise IndexUnavailable(f"the search index in {self.generation} was closed")
            try:
                return read()
            except Exception as e:  # a truncated, replaced or corrupt file: an answer, never a crash
                log.error("cannot read %s from the search index in %s: %s: %s", what, self.generation, type(e).__name__, e)
                raise IndexUnavailable(f"the search index in {self.generation} cannot be read ({type(e).__name__}); {REBUILD}") from e

    def _parts(self) -> Iterator[tuple[Any, int]]:
        return zip(self._readers, self._offsets)

    def doc_frequency(self, field: str, key: str) -> int:
        if field not in self._fields:
            return 0
        return self._read(f"{field}:{key}", lambda: sum(int(r.doc_frequency(field, key)) for r in self._readers))

    def postings(self, field: str, key: str) -> tuple[array, array]:
        ids, weights = array("i"), array("d")
        if field not in self._fields:
            return ids, weights

        def read() -> None:
            for reader, offset in self._parts():
                if not reader.doc_frequency(field, key):
                    continue
                matcher = reader.postings(field, key)
                while matcher.is_active():
                    ids.append(matcher.id() + offset)
                    weights.append(matcher.weight())
                    matcher.next()

        self._read(f"the postings of {field}:{key}", read)
        return ids, weights

    def field_lengths(self, field: str) -> tuple[array, float]:
        lengths = array("d", bytes(8 * self._doc_count))
        if field not in self._fields:
            return lengths, 0.0

        def read() -> float:
            total = 0.0
            for reader, offset in self._parts():
                if not reader.field_length(field):
                    continue  # another language's part: the field is empty there
                dfl = reader.doc_field_length
                for d in range(reader.doc_count_all()):
                    lengths[offset + d] = dfl(d, field, 1) or 1  # Whoosh answers None for an empty field
                total += reader.field_length(field)
            return total

        return lengths, self._read(f"the lengths of {field}", read)

    def terms(self, field: str) -> Iterator[str]:
        if field not in self._fields:
            return iter(())
        words = self._read(f"the terms of {field}", lambda: sorted({_text(t) for r in self._readers for t in r.lexicon(field)}))
        return iter(words)

    def stored(self, docnum: int) -> Stored:
        if not 0 <= docnum < self._doc_count:
            raise IndexError(f"no document {docnum}")
        n = bisect_right(self._offsets, docnum) - 1
        reader, offset = self._readers[n], self._offsets[n]
        return self._read(f"document {docnum}", lambda: dict(reader.stored_fields(docnum - offset)))

    def find(self, key: str) -> int | None:
        def read() -> int | None:
            for reader, offset in self._parts():
                if ("key", key) in reader:
                    return int(reader.first_id("key", key)) + offset
            return None

        return self._read(f"entry {key}", read)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            for reader in self._readers:
                try:
                    reader.close()
                except Exception:  # noqa: BLE001 — closing a broken reader must not hide why it broke
                    pass


def _text(term: bytes | str) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term
