"""BM25F on an engine's postings: Whoosh's formula and statistics, computed a posting list at a time.

For a term of field ``f`` with boost ``b``, in a document ``d`` where it
occurs ``tf`` times (``N`` documents, ``df`` of them with the term)::

    idf   = log(N / (df + 1)) + 1
    score = b · idf · tf · (K1 + 1) / (tf + K1 · (1 - B + B · len_f(d) / avglen_f))
    avglen_f = total length of f / N   (1 when the field is empty)

which is ``whoosh.scoring.BM25F`` (K1 = 1.2, B = 0.75) term for term; an OR
or AND of terms scores the sum over its terms (``tests/test_search_bm25f.py``
holds us to Whoosh's own scores).  A term's unboosted scores per document
(:meth:`BM25F.contributions`) are what a browser export would ship per key.

Whoosh's matcher trees cost 5–7 µs per posting in Python; here a posting
list is read once, its scores computed with NumPy, and kept for the life of
the index generation within a memory budget (:data:`TERM_BUDGET`).  A
query word's scores over all documents (:meth:`BM25F.group`) are a dense
vector: a few array operations per term, however common the word.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from math import log
from typing import NamedTuple, Sequence

import numpy as np

from .engine import Engine

__all__ = ["BM25F", "Term", "TERM_BUDGET", "Scores", "inverse_frequency"]

# Decoded posting lists kept per index generation: 12 bytes a posting (a document
# number and a score), so 64 MB hold 5.6 million postings — every posting of an
# index of about 20 000 entries, the common terms of a much bigger one.
TERM_BUDGET = 64 * 2**20


class Term(NamedTuple):
    field: str
    key: str
    boost: float


class Scores(NamedTuple):
    """A query word's scores over all documents, and which documents it matched."""

    score: np.ndarray  # float64, one per document
    matched: np.ndarray  # bool, one per document


def inverse_frequency(doc_count: int, df: int) -> float:
    """Whoosh's idf of a term in ``df`` of ``doc_count`` documents (the browser's data ships these values).

    >>> round(inverse_frequency(87, 3), 4)
    4.0796
    """
    return log(doc_count / (df + 1)) + 1.0


class BM25F:
    """Scores of terms and OR groups of terms over one engine (one generation); safe to share between threads."""

    K1 = 1.2
    B = 0.75

    def __init__(self, engine: Engine, budget: int = TERM_BUDGET):
        self.engine = engine
        self.doc_count = engine.doc_count
        self._budget = budget
        self._lock = threading.Lock()  # guards the caches only; reading and computing happen outside it
        self._lengths: dict[str, tuple[np.ndarray, float]] = {}
        self._terms: OrderedDict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._size = 0
        self._df: dict[tuple[str, str], int] = {}

    def doc_frequency(self, field: str, key: str) -> int:
        """In how many documents a term occurs (remembered: an engine's lookup costs ~0.1 ms)."""
        n = self._df.get((field, key))
        if n is None:
            n = self.engine.doc_frequency(field, key)
            with self._lock:
                if len(self._df) >= 200_000:  # ~30 MB of short keys at most
                    self._df.clear()
                self._df[(field, key)] = n
        return n

    def _field(self, field: str) -> tuple[np.ndarray, float]:
        found = self._lengths.get(field)
        if found is None:
            lengths, total = self.engine.field_lengths(field)
            average = (total / (self.doc_count or 1)) or 1.0
            found = (np.frombuffer(lengths, dtype=np.float64), average)
            with self._lock:
                self._lengths[field] = found
        return found

    def contributions(self, field: str, key: str) -> tuple[np.ndarray, np.ndarray]:
        """The documents a term occurs in (int32, ascending) and its unboosted BM25F score in each (float64)."""
        with self._lock:
            cached = self._terms.get((field, key))
            if cached is not None:
                self._terms.move_to_end((field, key))
                return cached
        df = self.doc_frequency(field, key)
        ids_raw, tf_raw = self.engine.postings(field, key) if df else ((), ())
        ids = np.array(ids_raw, dtype=np.int32)
        tf = np.array(tf_raw, dtype=np.float64)
        lengths, average = self._field(field)
        idf = inverse_frequency(self.doc_count, df)
        k1, b = self.K1, self.B
        scores = idf * ((tf * (k1 + 1)) / (tf + k1 * ((1 - b) + b * lengths[ids] / average)))
        found = (ids, scores)
        with self._lock:
            if (field, key) not in self._terms:
                self._terms[(field, key)] = found
                self._size += ids.nbytes + scores.nbytes
                while self._size > self._budget and len(self._terms) > 1:
                    _, (old_ids, old_scores) = self._terms.popitem(last=False)
                    self._size -= old_ids.nbytes + old_scores.nbytes
        return found

    def group(self, terms: Sequence[Term]) -> Scores:
        """The scores of an OR group of boosted terms (one query word): the sum of its terms' scores."""
        score = np.zeros(self.doc_count, dtype=np.float64)
        matched = np.zeros(self.doc_count, dtype=bool)
        for field, key, boost in terms:
            ids, scores = self.contributions(field, key)
            score[ids] += boost * scores
            matched[ids] = True
        return Scores(score, matched)
