"""The searcher's strategy: which terms a query's words become, and how entries are ranked.

1. Each query word (:func:`pravila.analysis.query_terms`) becomes one OR
   group (:func:`plan`): its keys in each searched language's title, alias and
   body fields, its English stem in the English names field, each with a
   boost (titles over names over bodies).  Only terms that occur count; when
   a word's own form (its lemma) occurs nowhere in a language's text, its
   loose key counts there at full weight.
2. A word none of whose keys occurs is looked up fuzzily
   (:mod:`pravila.search.fuzzy`): the index keys closest to its loose key,
   within one edit (two for words of 8 letters or more), at half weight; at
   most :data:`~pravila.search.fuzzy.MAX_FUZZY_WORDS` words of a query.  A
   word that still matches nothing is left out.
3. All groups ANDed (:func:`rank`); if that finds fewer than ``limit``
   entries, the groups ORed fill up the list, each entry's score scaled by
   the square of the share of the query's words it matched.
4. A query that *is* one of an entry's names — each word matches a different
   word of its title, English name, alias or terminology variant, and no word
   is left over — multiplies that entry's score (:data:`NAME_BONUS`), among
   the best :data:`NAME_POOL`; a variant of several words typed as the phrase
   it is gets :data:`PHRASE_BONUS`, and a word two translations use for
   different rules ranks the meaning this text gives it first.
5. Equal scores go to the entry that comes first in the library (the lower
   document number, :mod:`pravila.search.engine`).

Pure given the scorer: the same words on the same index give the same
ranking, which is what a browser twin has to reproduce.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..analysis import LOOSE, LOOSE_WEIGHT, QueryWord, fold, name_key, query_word
from ..languages import Language, script_of
from .bm25f import BM25F, Scores, Term
from .engine import ENGLISH_FIELD, TEXT_FIELDS, field
from .fuzzy import MAX_FUZZY_WORDS, Vocabulary, max_edits

__all__ = ["FIELD_BOOST", "Group", "NAME_BONUS", "NAME_POOL", "Name", "plan", "rank", "word_terms"]

FIELD_BOOST = {"title": 4.0, "alias": 2.5, "variant": 2.0, "body": 1.0, ENGLISH_FIELD: 3.0}
FUZZY_WEIGHT = 0.5
MAX_FUZZY_TERMS = 8
# A query that is one of these names: other translations' words count a little less than the text's own;
# a word shared by two rules ranks the meaning this text gives it first.
NAME_BONUS = {"title": 2.0, "en": 2.0, "alias": 1.5, "variant": 1.5, "shared-here": 2.0, "shared": 1.2}
PHRASE_BONUS = 2.0  # a variant of several words typed whole (in its words' order): another translation's name
NAME_POOL = 20  # candidates the name bonus may reorder

Name = tuple[str, tuple[frozenset[str], ...]]  # (kind, the key sets of its words: pravila.analysis.name_words)


@dataclass(frozen=True)
class Group:
    """The OR group of one query word: the terms of it that occur in the index."""

    word: str
    terms: tuple[Term, ...]
    keys: frozenset[str]


_Candidate = tuple[Term, "str | None"]  # a term, and the language whose text words it marks in snippets


def plan(words: Sequence[str], langs: Sequence[Language], english: Language, scorer: BM25F,
         vocabulary: Callable[[], Vocabulary]) -> tuple[list[Group], dict[str, set[str]]]:
    """The OR groups of a query's words, and per language the keys to mark in snippets."""
    groups = []
    marks: dict[str, set[str]] = {lang.code: set() for lang in langs}
    df = scorer.doc_frequency
    fuzzy_left = MAX_FUZZY_WORDS
    for word in words:
        latin = script_of(word) == "Latin"  # Latin words are also English rule names, searched in every language
        word_langs = [lang for lang in langs if latin or lang.script == script_of(word)]
        found_exact: list[_Candidate] = []
        found_loose: list[_Candidate] = []
        for lang in word_langs:
            here_exact, here_loose = word_terms(query_word(word, lang), df)
            found_exact += [(t, lang.code) for t in here_exact]
            found_loose += [(t, lang.code) for t in here_loose]
            if latin:
                name_term = Term(field(ENGLISH_FIELD, lang.code), name_key(word, english), FIELD_BOOST[ENGLISH_FIELD])
                if df(name_term.field, name_term.key) > 0:
                    found_loose.append((name_term, None))
        found = found_exact + found_loose
        if not found and fuzzy_left and max_edits(word):
            fuzzy_left -= 1
            found = _fuzzy(word, word_langs, latin, english, scorer, vocabulary())
        if not found:
            continue  # a word that matches nothing, not even fuzzily, does not hold the others back
        for term, mark_lang in found:
            if mark_lang:
                marks[mark_lang].add(term.key)
        groups.append(Group(word, tuple(t for t, _ in found), frozenset(t.key for t, _ in found)))
    return groups, marks


def word_terms(qw: QueryWord, df: Callable[[str, str], int]) -> tuple[list[Term], list[Term]]:
    """The terms of one query word in its language's text fields that occur: (exact, loose).

    When the word's own form was asked for (the lemmatizer knows it) and
    occurs nowhere in the language's text, its loose key is all there is and
    counts at full weight.
    """
    exact: list[Term] = []
    loose: list[Term] = []
    for name in TEXT_FIELDS:
        for key, weight in qw.keys:
            (loose if key == qw.loose else exact).append(Term(field(name, qw.lang), key, FIELD_BOOST[name] * weight))
    found_exact = [t for t in exact if df(t.field, t.key) > 0]
    found_loose = [t for t in loose if df(t.field, t.key) > 0]
    if not found_exact and qw.keys[0][0] != qw.loose:
        found_loose = [t._replace(boost=t.boost / LOOSE_WEIGHT) for t in found_loose]
    return found_exact, found_loose


def _fuzzy(word: str, langs: Sequence[Language], latin: bool, english: Language, scorer: BM25F,
           vocabulary: Vocabulary) -> list[_Candidate]:
    """Index terms nearest the word's loose keys, the most frequent first (at most :data:`MAX_FUZZY_TERMS`)."""
    maxdist = max_edits(word)
    df = scorer.doc_frequency
    found: dict[tuple[str, str], _Candidate] = {}
    for lang in langs:
        probes = {query_word(word, lang).loose[len(LOOSE):], fold(word)}  # the stem, and the unstemmed folded word
        near = vocabulary.near(lang.code, sorted(probes), maxdist)
        for name in TEXT_FIELDS:
            fieldname = field(name, lang.code)
            for key in near:
                if df(fieldname, LOOSE + key):
                    found[(fieldname, LOOSE + key)] = (Term(fieldname, LOOSE + key, FIELD_BOOST[name] * FUZZY_WEIGHT), lang.code)
        if latin:
            fieldname = field(ENGLISH_FIELD, lang.code)
            for key in vocabulary.near(fieldname, [name_key(word, english)], maxdist):
                found[(fieldname, key)] = (Term(fieldname, key, FIELD_BOOST[ENGLISH_FIELD] * FUZZY_WEIGHT), None)
    ranked = sorted(found.values(), key=lambda c: -df(c[0].field, c[0].key))  # stable: ties keep their order
    return ranked[:MAX_FUZZY_TERMS]


def vocabulary_spaces(scorer: BM25F, codes: Sequence[str]) -> dict[str, list[str]]:
    """What fuzzy lookup searches: each language's loose keys (without ``~``), and each English names field."""
    engine = scorer.engine
    spaces: dict[str, list[str]] = {}
    for code in codes:
        keys: set[str] = set()
        for name in TEXT_FIELDS:
            keys.update(k[len(LOOSE):] for k in engine.terms(field(name, code)) if k.startswith(LOOSE))
        spaces[code] = sorted(keys)
        spaces[field(ENGLISH_FIELD, code)] = list(engine.terms(field(ENGLISH_FIELD, code)))
    return spaces


def rank(scorer: BM25F, groups: Sequence[Group], limit: int,
         names: Callable[[int], Sequence[Name]]) -> tuple[list[tuple[int, float]], int]:
    """(document, score) of the best entries, best first, and how many entries matched."""
    maps = [scorer.group(g.terms) for g in groups]
    pool = max(limit, NAME_POOL)
    both = maps[0].matched.copy()
    for m in maps[1:]:
        both &= m.matched
    docs = np.flatnonzero(both)
    total = len(docs)
    scored = _best(docs, _sum(maps, docs), pool)
    if len(scored) < limit and len(maps) > 1:
        # Fewer than asked for: fill up with entries matching some of the words,
        # each scaled by the square of the share of the words it matched.
        count = np.zeros(scorer.doc_count, dtype=np.int32)
        for m in maps:
            count += m.matched
        some = np.flatnonzero(count > 0)
        total = len(some)
        rest = some[~both[some]]
        share = count[rest] / len(maps)
        scored += _best(rest, _sum(maps, rest) * share * share, pool)
    # A query that is one of an entry's names (title, English name, alias) puts it first.
    boosted = [(doc, score * _name_bonus(names(doc), groups)) for doc, score in scored]
    boosted.sort(key=lambda x: (-x[1], x[0]))
    return boosted[:limit], total


def _sum(maps: Sequence[Scores], docs: np.ndarray) -> np.ndarray:
    total = np.zeros(len(docs), dtype=np.float64)
    for m in maps:
        total += m.score[docs]
    return total


def _best(docs: np.ndarray, scores: np.ndarray, n: int) -> list[tuple[int, float]]:
    """The ``n`` best (document, score): highest score first, equal scores by document number."""
    if len(docs) > n:
        threshold = np.partition(scores, len(scores) - n)[len(scores) - n]
        keep = scores >= threshold  # ties at the threshold stay, then the order decides
        docs, scores = docs[keep], scores[keep]
    order = np.lexsort((docs, -scores))[:n]
    return [(int(d), float(s)) for d, s in zip(docs[order], scores[order])]


def _name_bonus(names: Sequence[Name], groups: Sequence[Group]) -> float:
    best = 1.0
    for kind, name in names:
        if len(name) == len(groups) and _covers(name, groups):
            phrase = kind == "variant" and len(name) > 1 and _in_order(name, groups)
            best = max(best, PHRASE_BONUS if phrase else NAME_BONUS[kind])
    return best


def _in_order(name: tuple[frozenset[str], ...], groups: Sequence[Group]) -> bool:
    """Whether the query's words match the name's words one by one, in the name's order (a phrase)."""
    return all(not keys.isdisjoint(g.keys) for keys, g in zip(name, groups))


def _covers(name: tuple[frozenset[str], ...], groups: Sequence[Group]) -> bool:
    """Whether each query word matches a different word of the name."""
    free = list(name)
    for g in groups:
        for i, keys in enumerate(free):
            if not keys.isdisjoint(g.keys):
                del free[i]
                break
        else:
            return False
    return True
