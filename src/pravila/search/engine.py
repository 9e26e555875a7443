"""The engine seam: the little the searcher needs from an index, so another engine could replace Whoosh.

An engine answers four kinds of question about one index generation,
documents numbered ``0 … doc_count - 1`` in library order (languages in the
project's order, entries in their order — ties in ranking go to the lower
number, so a browser twin can reproduce them from the same order):

- **postings** of a term (a field and a key): the documents it occurs in and
  how often (:meth:`Engine.postings`, :meth:`Engine.doc_frequency`);
- **field lengths**: each document's length in a field, and the field's
  total (:meth:`Engine.field_lengths`), for BM25F's length normalisation;
- the **term list** of a field (:meth:`Engine.terms`), for fuzzy lookup;
- **stored documents**: an entry's names and JSON (:meth:`Engine.stored`,
  :meth:`Engine.find`).

Scoring (:mod:`pravila.search.bm25f`), fuzzy lookup
(:mod:`pravila.search.fuzzy`) and the strategy
(:mod:`pravila.search.strategy`) use nothing else.  :class:`WhooshEngine
<pravila.search.whoosh_engine.WhooshEngine>` is the one we ship; SQLite
FTS5 (its ``fts5vocab`` tables give postings and term lists) could be
another.  Engines raise :class:`~pravila.errors.IndexUnavailable` when the
index cannot be read.
"""

from __future__ import annotations

from array import array
from typing import Any, Iterator, Protocol

__all__ = ["ENGLISH_FIELD", "Engine", "Stored", "TEXT_FIELDS", "field"]

Stored = dict[str, Any]  # {"key": "ru:grapple", "names": [(kind, name), …], "entry": JSON text}

# The searched fields of a language L: title_L, alias_L, variant_L (the terminology layer's words for the
# rule), body_L (its own analysis) and en_L (English names).
TEXT_FIELDS = ("title", "alias", "variant", "body")
ENGLISH_FIELD = "en"


def field(kind: str, code: str) -> str:
    """The name of a language's field.

    >>> field("title", "ru"), field(ENGLISH_FIELD, "cs")
    ('title_ru', 'en_cs')
    """
    return f"{kind}_{code}"


class Engine(Protocol):
    """One open index generation."""

    @property
    def doc_count(self) -> int:
        """How many documents, all languages together."""

    def doc_frequency(self, field: str, key: str) -> int:
        """In how many documents the term occurs (0 for a term or field the index lacks)."""

    def postings(self, field: str, key: str) -> tuple[array, array]:
        """The term's documents (``array('i')``, ascending) and its frequency in each (``array('d')``)."""

    def field_lengths(self, field: str) -> tuple[array, float]:
        """Each document's length in ``field`` (``array('d')``, one per document), and the field's total length."""

    def terms(self, field: str) -> Iterator[str]:
        """Every key of ``field``, in order."""

    def stored(self, docnum: int) -> Stored:
        """A document's stored fields."""

    def find(self, key: str) -> int | None:
        """The document of an entry key (``ru:grapple``), or None."""

    def close(self) -> None:
        """Release the files."""
