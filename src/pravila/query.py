"""The searcher: our small search interface, hiding Whoosh.

    searcher = Searcher.for_project(project)
    result = searcher.search("прыжок", lang="ru", limit=10)
    result.to_dict()  # {"query", "lang", "total", "hits": [{"id", "lang", "title", "url", "snippet", "score"}]}

The CLI and the HTTP API validate input with the same functions here
(:func:`check_query`, :func:`check_lang`, :func:`check_limit`), which raise
:class:`QueryError` with a message for people.

How a query is run:

1. The query becomes words (:func:`pravila.analysis.query_terms`); Whoosh
   never parses user text, so ``"``, ``(((``, ``AND``, ``*`` or
   ``field:value`` are only characters.
2. Each word becomes one OR group: its keys in each searched language's
   title, alias and body fields, its English stem in the English names
   field, each with a boost (titles over names over bodies).
3. A word none of whose keys occurs in the index is looked up fuzzily: the
   index terms within one edit (two for words of 8 letters or more) of its
   loose key.  A word that still matches nothing is left out.
4. All groups ANDed; if that finds fewer than ``limit`` entries, the groups
   ORed fill up the list, each entry's score scaled by the share of the
   query's words it matched.
5. Snippets come from the entry's text: the best window, the matching words
   (in their own forms) in ``<mark>``, everything HTML-escaped.

The searcher is opened once and reused; before each search it checks
whether ``index_dir`` now points at a new generation (a rebuild) and reopens.
"""

from __future__ import annotations

import heapq
import html
import json
import os
import re
import threading
import unicodedata
from array import array
from collections import OrderedDict
from dataclasses import asdict, dataclass, field
from math import log
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from whoosh import index as whoosh_index

from .analysis import LOOSE, LOOSE_WEIGHT, WORD_RE, fold, index_keys, name_key, name_words, query_terms, query_word
from .content import ID_RE
from .errors import IndexUnavailable, QueryError
from .index import FORMAT_FILE, TEXT_FIELDS, index_format
from .languages import Language, script_of

if TYPE_CHECKING:
    from .project import Project

__all__ = ["Hit", "IndexUnavailable", "QueryError", "SearchResult", "Searcher", "check_lang", "check_limit", "check_query"]

MAX_QUERY_CHARS = 200
DEFAULT_LIMIT = 10
MAX_LIMIT = 50

FIELD_BOOST = {"title": 4.0, "alias": 2.5, "body": 1.0, "en": 3.0}
FUZZY_WEIGHT = 0.5
MAX_FUZZY_TERMS = 8
MIN_FUZZY_LETTERS = 5  # shorter words are too easy to mistake for others
NAME_BONUS = {"title": 2.0, "en": 2.0, "alias": 1.5}
NAME_POOL = 20  # candidates the name bonus may reorder
TERM_CACHE_POSTINGS = 4_000_000  # decoded postings kept per index generation (~12 bytes each)
GROUP_CACHE_ENTRIES = 500_000  # per-word score map entries kept (~100 bytes each)
SNIPPET_CHARS = 180


# --- validation (shared by the CLI and the API) ---------------------------------


def check_query(query: str | None) -> str:
    """The query, NFC-normalized, or a :class:`QueryError` saying what is wrong.

    An empty query is allowed (it finds nothing).

    >>> check_query("  Прыжок ")
    'Прыжок'
    >>> check_query("a\\x00b")
    Traceback (most recent call last):
    pravila.errors.QueryError: the query contains a NUL character
    >>> check_query("x" * 201)
    Traceback (most recent call last):
    pravila.errors.QueryError: the query is too long: 201 characters (at most 200)
    """
    if query is None:
        return ""
    if not isinstance(query, str):
        raise QueryError("the query must be text")
    if "\x00" in query:
        raise QueryError("the query contains a NUL character")
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(f"the query is too long: {len(query)} characters (at most {MAX_QUERY_CHARS})")
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:
        raise QueryError("the query is not valid UTF-8 text") from None
    return unicodedata.normalize("NFC", query).strip()


def check_lang(lang: str | None, codes: Sequence[str]) -> str:
    """One of the project's language ``codes``, or ``all`` (the default).

    >>> check_lang(None, ("ru", "cs")), check_lang("cs", ("ru", "cs"))
    ('all', 'cs')
    >>> check_lang("de", ("ru", "cs"))
    Traceback (most recent call last):
    pravila.errors.QueryError: unknown language 'de' (expected ru, cs or all)
    """
    if lang is None or lang == "":
        return "all"
    if not isinstance(lang, str) or (lang != "all" and lang not in codes):
        shown = str(lang) if len(str(lang)) <= 20 else str(lang)[:20] + "…"
        raise QueryError(f"unknown language {shown!r} (expected {', '.join(codes)} or all)")
    return lang


def check_limit(limit: int | str | None) -> int:
    """A whole number of hits from 1 to ``MAX_LIMIT`` (default ``DEFAULT_LIMIT``).

    >>> check_limit(None), check_limit("5")
    (10, 5)
    >>> check_limit(0)
    Traceback (most recent call last):
    pravila.errors.QueryError: limit must be between 1 and 50, not 0
    >>> check_limit("ten")
    Traceback (most recent call last):
    pravila.errors.QueryError: limit must be a whole number between 1 and 50
    """
    if limit is None or limit == "":
        return DEFAULT_LIMIT
    if isinstance(limit, bool):
        raise QueryError(f"limit must be a whole number between 1 and {MAX_LIMIT}")
    if isinstance(limit, str):
        text = limit.strip()
        if not (text.isascii() and text.lstrip("+-").isdigit()) or len(text) > 12:
            raise QueryError(f"limit must be a whole number between 1 and {MAX_LIMIT}")
        limit = int(text)
    if not isinstance(limit, int):
        raise QueryError(f"limit must be a whole number between 1 and {MAX_LIMIT}")
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"limit must be between 1 and {MAX_LIMIT}, not {limit}")
    return limit




# --- results --------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    id: str
    lang: str
    title: str
    url: str
    snippet: str  # HTML: escaped text, matching words in <mark>
    score: float


@dataclass(frozen=True)
class SearchResult:
    query: str
    lang: str
    total: int
    hits: list[Hit] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The API's JSON form."""
        return {"query": self.query, "lang": self.lang, "total": self.total, "hits": [asdict(h) for h in self.hits]}


# --- the searcher -------------------------------------------------------------------


@dataclass
class _Group:
    """The OR group of one query word: (field, key, boost) terms that exist in the index."""

    word: str
    terms: list[tuple[str, str, float]]
    keys: frozenset[str]


_Candidate = tuple[str, str, float, "str | None"]  # field, key, boost, language whose text words it marks


class _OtherLayout(Exception):
    """An index folder without this layout's format file."""


class Searcher:
    """Searches one index folder of a project's languages; safe to share between threads."""

    def __init__(self, index_dir: Path, languages: Sequence[Language], english: Language):
        self.index_dir = Path(index_dir)
        self.languages = tuple(languages)
        self.codes = tuple(lang.code for lang in self.languages)
        self._by_code = {lang.code: lang for lang in self.languages}
        self.english = english
        self._lock = threading.Lock()
        self._generation: tuple[str, int, int] | None = None
        self._index = None
        self._searcher = None
        self._names: dict[int, list] = {}
        self._vocabulary: _Vocabulary | None = None
        self._scoring: _Engine | None = None

    @classmethod
    def for_project(cls, project: "Project") -> "Searcher":
        return cls(project.index_dir, project.languages, project.english)

    def langs(self, lang: str) -> tuple[Language, ...]:
        """The languages a search in ``lang`` (a code or ``all``) covers."""
        return self.languages if lang == "all" else (self._by_code[lang],)

    def has_words(self, query: str, lang: str = "all") -> bool:
        """Whether a query has anything to search for (not only punctuation or stopwords)."""
        return bool(query_terms(query, self.langs(lang), self.english))

    # opening and reopening

    def _current_generation(self) -> tuple[str, int, int] | None:
        try:
            real = os.path.realpath(self.index_dir)
            st = os.stat(real)
        except OSError:
            return None
        return (real, st.st_ino, st.st_mtime_ns)

    def _reader(self):
        """The open Whoosh searcher, reopened when the index was replaced."""
        gen = self._current_generation()
        if gen is not None and gen != self._generation:
            try:
                if index_format(Path(gen[0])) is None:
                    raise _OtherLayout(f"the search index in {self.index_dir} was written by another version of Pravila "
                                       f"(no {FORMAT_FILE} of this layout); rebuild it with 'pravila build'")
                ix = whoosh_index.open_dir(gen[0])
                searcher = ix.searcher()
            except Exception as e:  # a half-removed or foreign folder: keep what we have
                if self._searcher is None:
                    if isinstance(e, _OtherLayout):
                        raise IndexUnavailable(str(e)) from None
                    raise IndexUnavailable(f"cannot open the search index in {self.index_dir} ({type(e).__name__}); "
                                           "rebuild it with 'pravila build'") from e
            else:
                old = self._searcher
                self._index, self._searcher, self._generation = ix, searcher, gen
                self._names = {}
                self._vocabulary = None
                self._scoring = None
                if old is not None:
                    old.close()
        if self._searcher is None:
            raise IndexUnavailable(f"no search index in {self.index_dir}; run 'pravila build' first")
        return self._searcher

    def close(self) -> None:
        with self._lock:
            if self._searcher is not None:
                self._searcher.close()
            self._searcher = self._index = self._generation = None

    def __enter__(self) -> "Searcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stats(self) -> dict[str, Any]:
        """Entries per language and the generation in use (for /healthz)."""
        with self._lock:
            s = self._reader()
            counts = {lang: s.doc_frequency("lang", lang) for lang in self.codes}
            return {"entries": counts, "generation": Path(self._generation[0]).name if self._generation else None}

    # looking up entries

    def entry(self, lang: str, entry_id: str) -> dict[str, Any] | None:
        """An entry's JSON form (``serialize.entry_to_dict``), or None."""
        if lang not in self.codes or not isinstance(entry_id, str) or len(entry_id) > 100 or not ID_RE.match(entry_id):
            return None
        with self._lock:
            fields = self._reader().document(key=f"{lang}:{entry_id}")
        return json.loads(fields["entry"]) if fields else None

    # searching

    def search(self, query: str | None, lang: str | None = "all", limit: int | str | None = DEFAULT_LIMIT) -> SearchResult:
        """Search the entries; raises :class:`QueryError` on bad input."""
        query = check_query(query)
        lang = check_lang(lang, self.codes)
        limit = check_limit(limit)
        langs = self.langs(lang)
        terms = query_terms(query, langs, self.english)
        if not terms:
            return SearchResult(query, lang, 0, [])
        with self._lock:
            s = self._reader()
            groups, marks = self._groups(s.reader(), terms, langs)
            if not groups:
                return SearchResult(query, lang, 0, [])
            scored, total = self._run(s, groups, limit)
            hits = []
            for docnum, score in scored:
                stored = s.stored_fields(docnum)
                snippet = make_snippet(stored["text"], marks.get(stored["lang"], set()), self._by_code[stored["lang"]])
                hits.append(Hit(stored["id"], stored["lang"], stored["title"], stored["url"], snippet, round(score, 4)))
        return SearchResult(query, lang, total, hits)

    def _groups(self, reader, terms: list[str], langs: tuple[Language, ...]) -> tuple[list[_Group], dict[str, set[str]]]:
        groups = []
        marks: dict[str, set[str]] = {lang.code: set() for lang in langs}
        for word in terms:
            latin = script_of(word) == "Latin"  # Latin words are also English rule names, searched in every language
            word_langs = [lang for lang in langs if latin or lang.script == script_of(word)]
            exact: list[_Candidate] = []
            loose: list[_Candidate] = []
            for lang in word_langs:
                qw = query_word(word, lang)
                for name in TEXT_FIELDS:
                    for key, weight in qw.keys:
                        (loose if key == qw.loose else exact).append((f"{name}_{lang.code}", key, FIELD_BOOST[name] * weight, lang.code))
                if latin:
                    loose.append((f"en_{lang.code}", name_key(word, self.english), FIELD_BOOST["en"], None))
            df = self._engine(reader).df
            found_exact = [c for c in exact if df(c[0], c[1]) > 0]
            found_loose = [c for c in loose if df(c[0], c[1]) > 0]
            if found_loose and not found_exact:
                # The exact form occurs nowhere: the loose key is all there is, at full weight.
                found_loose = [(f, k, b / LOOSE_WEIGHT if k.startswith("~") and exact else b, m) for f, k, b, m in found_loose]
            found = found_exact + found_loose
            if not found:
                found = self._fuzzy(reader, word, word_langs, latin)
            if not found:
                continue  # a word that matches nothing, not even fuzzily, does not hold the others back
            for _, key, _, mark_lang in found:
                if mark_lang:
                    marks[mark_lang].add(key)
            groups.append(_Group(word, [(f, k, b) for f, k, b, _ in found], frozenset(k for _, k, _, _ in found)))
        return groups, marks

    def _fuzzy(self, reader, word: str, langs: list[Language], latin: bool) -> list[_Candidate]:
        """Index terms near the word's loose keys: one edit, two for words of 8 letters or more."""
        if len(word) < MIN_FUZZY_LETTERS:
            return []
        maxdist = 2 if len(word) >= 8 else 1
        if self._vocabulary is None:
            self._vocabulary = _Vocabulary(reader, self.codes)
        df = self._engine(reader).df
        found: dict[tuple[str, str], _Candidate] = {}
        for lang in langs:
            probes = {query_word(word, lang).loose, LOOSE + fold(word)}  # the stem, and the unstemmed folded word
            near = self._vocabulary.near(lang.code, probes, maxdist)
            for name in TEXT_FIELDS:
                fieldname = f"{name}_{lang.code}"
                for term in near:
                    if df(fieldname, term):
                        found[(fieldname, term)] = (fieldname, term, FIELD_BOOST[name] * FUZZY_WEIGHT, lang.code)
            if latin:
                fieldname = f"en_{lang.code}"
                for term in self._vocabulary.near(fieldname, {name_key(word, self.english)}, maxdist):
                    found[(fieldname, term)] = (fieldname, term, FIELD_BOOST["en"] * FUZZY_WEIGHT, None)
        ranked = sorted(found.values(), key=lambda t: -df(t[0], t[1]))
        return ranked[:MAX_FUZZY_TERMS]

    def _run(self, s, groups: list[_Group], limit: int) -> tuple[list[tuple[int, float]], int]:
        """(docnum, score) of the best entries, and how many entries matched."""
        engine = self._engine(s.reader())
        maps = [engine.group(tuple(g.terms)) for g in groups]
        pool = max(limit, NAME_POOL)
        ordered = sorted(maps, key=len)
        first, rest = ordered[0], ordered[1:]
        both = []
        for doc, score in first.items():
            for other in rest:
                more = other.get(doc)
                if more is None:
                    break
                score += more
            else:
                both.append((score, doc))
        total = len(both)
        best = heapq.nlargest(pool, both)
        scored = [(doc, score) for score, doc in best]
        if len(scored) < limit and len(maps) > 1:
            # Fewer than asked for: fill up with entries matching some of the words,
            # each scaled by the share of the words it matched.
            seen = {doc for doc, _ in scored}
            summed: dict[int, float] = {}
            count: dict[int, int] = {}
            for m in maps:
                for doc, score in m.items():
                    summed[doc] = summed.get(doc, 0.0) + score
                    count[doc] = count.get(doc, 0) + 1
            n = len(maps)
            partial = ((score * (count[doc] / n) ** 2, doc) for doc, score in summed.items() if doc not in seen)
            scored += [(doc, score) for score, doc in heapq.nlargest(pool, partial)]
            total = len(summed)
        # A query that is one of an entry's names (title, English name, alias) puts it first.
        boosted = [(d, score * self._name_bonus(s, d, groups)) for d, score in scored]
        boosted.sort(key=lambda x: (-x[1], x[0]))
        return boosted[:limit], total

    def _engine(self, reader) -> "_Engine":
        if self._scoring is None:
            self._scoring = _Engine(reader)
        return self._scoring

    def _name_bonus(self, s, docnum: int, groups: list[_Group]) -> float:
        names = self._names.get(docnum)
        if names is None:
            stored = s.stored_fields(docnum)
            lang = self._by_code[stored["lang"]]
            names = self._names[docnum] = [(kind, name_words(text, lang, self.english)) for kind, text in stored["names"]]
        best = 1.0
        for kind, name in names:
            if len(name) == len(groups) and _covers(name, groups):
                best = max(best, NAME_BONUS[kind])
        return best


class _Engine:
    """BM25F over decoded postings, with Whoosh's formula and statistics.

    Whoosh's matcher trees cost 5-7 µs per posting per term in Python;
    decoding a posting list block by block costs about 1 µs per posting, and
    the decoded terms and per-word score maps are kept (within memory
    budgets) for the life of the index generation.  Scores are exactly what
    ``whoosh.scoring.BM25F`` gives for the same Term/Or/And query.
    """

    K1 = 1.2
    B = 0.75

    def __init__(self, reader, term_budget: int = TERM_CACHE_POSTINGS, group_budget: int = GROUP_CACHE_ENTRIES):
        self.reader = reader
        self.doc_count = reader.doc_count_all()
        self._lengths: dict[str, tuple[list[float], float]] = {}
        self._terms: OrderedDict[tuple[str, str], tuple[array, array]] = OrderedDict()
        self._df: dict[tuple[str, str], int] = {}
        self._groups: OrderedDict[tuple, dict[int, float]] = OrderedDict()
        self._term_size = self._group_size = 0
        self._term_budget, self._group_budget = term_budget, group_budget

    def _field_lengths(self, fieldname: str) -> tuple[list[float], float]:
        if fieldname not in self._lengths:
            dfl = self.reader.doc_field_length
            lengths = [dfl(d, fieldname, 1) for d in range(self.doc_count)]
            average = (self.reader.field_length(fieldname) / (self.doc_count or 1)) or 1
            self._lengths[fieldname] = (lengths, average)
        return self._lengths[fieldname]

    def df(self, fieldname: str, key: str) -> int:
        """In how many entries a term occurs (remembered: Whoosh's lookup costs ~0.1 ms)."""
        n = self._df.get((fieldname, key))
        if n is None:
            if len(self._df) > 200_000:
                self._df.clear()
            n = self._df[(fieldname, key)] = self.reader.doc_frequency(fieldname, key)
        return n

    def term(self, fieldname: str, key: str) -> tuple[array, array]:
        """Docnums and BM25 contributions (unboosted) of one term."""
        cached = self._terms.get((fieldname, key))
        if cached is not None:
            self._terms.move_to_end((fieldname, key))
            return cached
        ids, weights = array("i"), array("d")
        df = self.df(fieldname, key)
        if df:
            _decode(self.reader.postings(fieldname, key), ids, weights)
        lengths, average = self._field_lengths(fieldname)
        idf = log(self.doc_count / (df + 1)) + 1
        k1, b = self.K1, self.B
        base, per = k1 * (1 - b), k1 * b / average
        contrib = array("d", (idf * (w * (k1 + 1)) / (w + base + per * lengths[d]) for d, w in zip(ids, weights)))
        self._terms[(fieldname, key)] = (ids, contrib)
        self._term_size += len(ids)
        while self._term_size > self._term_budget and len(self._terms) > 1:
            _, (old, _) = self._terms.popitem(last=False)
            self._term_size -= len(old)
        return ids, contrib

    def group(self, terms: tuple[tuple[str, str, float], ...]) -> dict[int, float]:
        """Docnum → score of an OR group of (field, key, boost) terms."""
        cached = self._groups.get(terms)
        if cached is not None:
            self._groups.move_to_end(terms)
            return cached
        acc: dict[int, float] = {}
        get = acc.get
        for fieldname, key, boost in terms:
            ids, contrib = self.term(fieldname, key)
            for d, c in zip(ids, contrib):
                acc[d] = get(d, 0.0) + boost * c
        self._groups[terms] = acc
        self._group_size += len(acc)
        while self._group_size > self._group_budget and len(self._groups) > 1:
            _, old = self._groups.popitem(last=False)
            self._group_size -= len(old)
        return acc


def _decode(matcher, ids: array, weights: array) -> None:
    """Append a posting list's docnums and weights, a block at a time when the codec allows."""
    if all(hasattr(matcher, a) for a in ("_read_ids", "_read_weights", "_next_block", "_ids", "_weights")):
        while matcher.is_active():
            if matcher._ids is None:
                matcher._read_ids()
            if matcher._weights is None:
                matcher._read_weights()
            ids.extend(matcher._ids)
            weights.extend(matcher._weights.tolist() if isinstance(matcher._weights, array) else matcher._weights)
            matcher._next_block()
        return
    while matcher.is_active():  # any other matcher (e.g. several segments): the public, slower way
        ids.append(matcher.id())
        weights.append(matcher.weight())
        matcher.next()


class _Vocabulary:
    """The loose keys of the index, for fuzzy lookup by deletion neighbourhoods (as in SymSpell).

    Every key is filed under itself and each string made by deleting one
    letter (two, for keys of 8 letters or more); a probe looks up its own
    deletions, and candidates are confirmed with the real edit distance.
    Built once per index generation, on the first fuzzy lookup.
    """

    def __init__(self, reader, codes: tuple[str, ...]):
        self._by_deletion: dict[str, dict[str, set[str]]] = {}
        self._languages = codes
        for lang in codes:
            keys = set()
            for name in TEXT_FIELDS:
                keys.update(t for t in _lexicon(reader, f"{name}_{lang}") if t.startswith(LOOSE))
            self._by_deletion[lang] = self._file(k[1:] for k in keys)
            self._by_deletion[f"en_{lang}"] = self._file(_lexicon(reader, f"en_{lang}"))

    @staticmethod
    def _file(keys) -> dict[str, set[str]]:
        table: dict[str, set[str]] = {}
        for key in keys:
            for variant in _deletions(key, 2 if len(key) >= 7 else 1):
                table.setdefault(variant, set()).add(key)
        return table

    def near(self, space: str, probes: set[str], maxdist: int) -> set[str]:
        """Keys of ``space`` (a language, or ``en_<lang>``) within ``maxdist`` edits of a probe, closest only."""
        table = self._by_deletion.get(space, {})
        prefix = LOOSE if space in self._languages else ""
        best: dict[str, int] = {}
        for probe in probes:
            bare = probe[len(prefix):] if prefix and probe.startswith(prefix) else probe
            for variant in _deletions(bare, maxdist):
                for key in table.get(variant, ()):
                    d = _distance(bare, key, maxdist)
                    if d <= maxdist:
                        best[key] = min(d, best.get(key, d))
        if not best:
            return set()
        closest = min(best.values())
        return {prefix + k for k, d in best.items() if d == closest}


def _lexicon(reader, fieldname: str):
    if fieldname not in reader.schema:
        return
    for term in reader.lexicon(fieldname):
        yield _text(term)


def _deletions(word: str, depth: int) -> set[str]:
    """The word and every string made from it by deleting up to ``depth`` letters."""
    out = {word}
    frontier = {word}
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1 :] for w in frontier if len(w) > 1 for i in range(len(w))}
        out |= frontier
    return out


def _distance(a: str, b: str, limit: int) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count one), or ``limit + 1`` when beyond it."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _covers(name: tuple[frozenset[str], ...], groups: list[_Group]) -> bool:
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


def _text(term: bytes | str) -> str:
    return term.decode("utf-8") if isinstance(term, bytes) else term


# --- snippets -----------------------------------------------------------------------


def make_snippet(text: str, keys: set[str], lang: Language, width: int = SNIPPET_CHARS) -> str:
    """A window of ``text`` around the words whose index keys are in ``keys``.

    The words are marked in their own forms; everything is HTML-escaped, so
    neither the content nor the query can inject markup.

    >>> make_snippet("Если вы совершаете прыжок в длину, <b>вы</b> покрываете…", {"прыжок"}, ru)
    'Если вы совершаете <mark>прыжок</mark> в длину, &lt;b&gt;вы&lt;/b&gt; покрываете…'
    >>> make_snippet("Slovo " * 50 + "kouzlo na konci.", {"kouzlo"}, cs, width=40)
    '…Slovo Slovo Slovo Slovo <mark>kouzlo</mark> na konci.'
    >>> make_snippet("", {"x"}, cs)
    ''
    """
    text = text.replace("\n", " ")
    if not text:
        return ""
    hits: list[tuple[int, int, str]] = []
    if keys:
        for m in WORD_RE.finditer(text):
            word = m.group(0).lower()
            if not keys.isdisjoint(index_keys(word, lang)):
                hits.append((m.start(), m.end(), word))
    start, end = _window(text, hits, width)
    out = ["…" if start > 0 else ""]
    pos = start
    for a, b, _ in hits:
        if a < start or b > end:
            continue
        out.append(html.escape(text[pos:a], quote=False))
        out.append(f"<mark>{html.escape(text[a:b], quote=False)}</mark>")
        pos = b
    out.append(html.escape(text[pos:end], quote=False))
    if end < len(text):
        out.append("…")
    return "".join(out).strip()


def _window(text: str, hits: list[tuple[int, int, str]], width: int) -> tuple[int, int]:
    """(start, end) of about ``width`` characters with the most distinct marked words, cut between words."""
    if len(text) <= width:
        return 0, len(text)
    lo = 0
    if hits:
        best = -1
        anchor = hits[0][0]
        for i, (a, _, _) in enumerate(hits):
            distinct = len({w for _, b, w in hits[i:] if b <= a + width})
            if distinct > best:
                best, anchor = distinct, a
        lo = min(max(0, anchor - width // 4), len(text) - width)  # some context before, a full window near the end
        while 0 < lo < anchor and _inside_word(text, lo):
            lo += 1
    end = lo + width
    if end >= len(text):
        return lo, len(text)
    while end > lo + width // 2 and _inside_word(text, end):
        end -= 1
    return lo, end


def _inside_word(text: str, i: int) -> bool:
    """Whether position ``i`` falls between two letters (or digits) of one word."""
    return 0 < i < len(text) and text[i - 1].isalnum() and text[i].isalnum()


def snippet_parts(snippet: str) -> list[tuple[str, bool]]:
    """A snippet's text in pieces, each with whether it is a marked word (for terminals).

    >>> snippet_parts("a <mark>прыжок</mark> &lt;b&gt;")
    [('a ', False), ('прыжок', True), (' <b>', False)]
    """
    parts = []
    for i, piece in enumerate(re.split(r"</?mark>", snippet)):
        if piece:
            parts.append((html.unescape(piece), i % 2 == 1))
    return parts
