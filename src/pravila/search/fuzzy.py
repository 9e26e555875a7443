"""Fuzzy lookup: the index keys within one or two edits of a word nobody wrote that way.

The vocabulary of a *space* — a language's loose keys (without their
``~``), or one ``en_<lang>`` field's English stems — is read once per
index generation from the engine's term lists and filed by length.  A probe
is compared only with keys whose length is within ``maxdist`` of its own,
by RapidFuzz's optimal string alignment distance (Damerau–Levenshtein where
a swap of two neighbouring letters is one edit: ``kouzlo``/``kuozlo``), and
only the closest keys are kept.  The cost is bounded by the caller: how long
a word may be (:data:`MAX_FUZZY_LETTERS`), how many words of a query are
looked up (:data:`MAX_FUZZY_WORDS`).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from rapidfuzz import process
from rapidfuzz.distance import OSA, LCSseq

__all__ = ["MAX_FUZZY_LETTERS", "MAX_FUZZY_WORDS", "MIN_FUZZY_LETTERS", "Vocabulary", "max_edits"]

MIN_FUZZY_LETTERS = 5  # shorter words are too easy to mistake for others
MAX_FUZZY_LETTERS = 24  # longer "words" are no typo of a word of the rules (the longest has 19 letters, its key 16)
MAX_FUZZY_WORDS = 4  # words of one query looked up fuzzily, at most
LONG_KEY = 7  # keys of this many letters may lose two letters to meet a probe, shorter ones one


def max_edits(word: str) -> int:
    """How many edits a word may be off: one, two from 8 letters; none outside the bounds.

    >>> max_edits("kouzl"), max_edits("sesilani"), max_edits("kolo"), max_edits("x" * 30)
    (1, 2, 0, 0)
    """
    if not MIN_FUZZY_LETTERS <= len(word) <= MAX_FUZZY_LETTERS:
        return 0
    return 2 if len(word) >= 8 else 1


class Vocabulary:
    """Keys by space, filed by length, for lookups within a few edits."""

    def __init__(self, spaces: Mapping[str, Iterable[str]]):
        self._by_length: dict[str, dict[int, list[str]]] = {}
        for space, keys in spaces.items():
            table: dict[int, list[str]] = {}
            for key in sorted(set(keys)):
                table.setdefault(len(key), []).append(key)
            self._by_length[space] = table

    def near(self, space: str, probes: Iterable[str], maxdist: int) -> list[str]:
        """The keys of ``space`` closest to any probe, if within ``maxdist`` edits; in order.

        >>> v = Vocabulary({"cs": ["kouzl", "kolo", "kouzeln", "pozik"], "ru": ["умерл", "умирающ"]})
        >>> v.near("cs", ["kuozl"], 1), v.near("cs", ["kouzel"], 1), v.near("cs", ["xyzzy"], 2)
        (['kouzl'], ['kouzeln', 'kouzl'], [])
        >>> v.near("ru", ["умира"], 2)  # умерл is two edits away too, but two substitutions in a short key
        ['умирающ']
        """
        table = self._by_length.get(space, {})
        best: dict[str, int] = {}
        for probe in probes:
            for length in range(max(1, len(probe) - maxdist), len(probe) + maxdist + 1):
                keys = table.get(length)
                if not keys:
                    continue
                for key, distance, _ in process.extract(probe, keys, scorer=OSA.distance, score_cutoff=maxdist, limit=None):
                    common = LCSseq.similarity(probe, key)
                    if len(probe) - common <= maxdist and len(key) - common <= (2 if len(key) >= LONG_KEY else 1):
                        best[key] = min(distance, best.get(key, distance))
        if not best:
            return []
        closest = min(best.values())
        return sorted(k for k, d in best.items() if d == closest)
