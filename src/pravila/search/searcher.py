"""The searcher: our small search interface, and the index generation it reads.

    searcher = Searcher.for_project(project)
    result = searcher.search("прыжок", lang="ru", limit=10)
    result.to_dict()  # {"query", "lang", "total", "hits": [{"id", "lang", "title", "url", "snippet", "score"}]}

A :class:`Searcher` is opened once and shared (a server's threads call
:meth:`Searcher.search` at the same time).  Before each search it checks
whether ``index_dir`` points at a new generation (a rebuild) and opens it;
the generation it replaces stays open until the next one, for the searches
still running on it.  Only the engine's file reads are serialised (its own
lock); analysis, scoring and snippets run side by side.

Whatever the query, the answer is a result or a :class:`QueryError`; an index
that cannot be opened or read is an :class:`IndexUnavailable` (and a log
line), never another exception.  A failure stays visible to :meth:`stats`
(the API's /healthz) until a generation opens and reads again.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..analysis import name_words, query_terms
from ..content import ID_RE
from ..errors import IndexUnavailable, QueryError
from ..languages import Language
from .bm25f import BM25F
from .checks import DEFAULT_LIMIT, check_lang, check_limit, check_query
from .fuzzy import Vocabulary
from .generations import FORMAT_FILE, generation_on_disk, read_format
from .snippets import make_snippet
from .strategy import Name, plan, rank, vocabulary_spaces
from .whoosh_engine import WhooshEngine

if TYPE_CHECKING:
    from ..project import Project

__all__ = ["Hit", "IndexUnavailable", "QueryError", "SearchResult", "Searcher"]

log = logging.getLogger("pravila.search")

NAMES_MEMORY = 20_000  # entries whose analysed names are kept per generation (~1 KB each)
RETRY_SECONDS = 10.0  # a generation that failed to open is tried again after this long


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


class _Generation:
    """One open generation: its engine, scores, fuzzy vocabulary and analysed names."""

    def __init__(self, key: tuple[str, int, int], languages: Sequence[Language], english: Language):
        path = Path(key[0])
        meta = read_format(path)
        if meta is None:
            raise IndexUnavailable(f"the search index in {path} was written by another version of Pravila "
                                   f"(no {FORMAT_FILE} of this layout); rebuild it with 'pravila build'")
        self.key = key
        self.name = path.name
        self.entries = {code: int(n) for code, n in meta.get("entries", {}).items()}
        self.engine = WhooshEngine(path, meta["languages"])
        self.scorer = BM25F(self.engine)
        self._codes = [code for code in meta["languages"]]
        self._by_code = {lang.code: lang for lang in languages}
        self._english = english
        self._lock = threading.Lock()
        self._vocabulary: Vocabulary | None = None
        self._names: dict[int, list[Name]] = {}

    def vocabulary(self) -> Vocabulary:
        if self._vocabulary is None:
            vocabulary = Vocabulary(vocabulary_spaces(self.scorer, self._codes))
            with self._lock:
                self._vocabulary = vocabulary
        return self._vocabulary

    def names(self, docnum: int) -> list[Name]:
        found = self._names.get(docnum)
        if found is None:
            stored = self.engine.stored(docnum)
            lang = self._by_code.get(stored["key"].partition(":")[0])
            found = [] if lang is None else [(kind, name_words(text, lang, self._english)) for kind, text in stored["names"]]
            with self._lock:
                if len(self._names) >= NAMES_MEMORY:
                    self._names.clear()
                self._names[docnum] = found
        return found

    def close(self) -> None:
        self.engine.close()


class Searcher:
    """Searches one index folder of a project's languages; safe to share between threads."""

    def __init__(self, index_dir: Path, languages: Sequence[Language], english: Language):
        self.index_dir = Path(index_dir)
        self.languages = tuple(languages)
        self.codes = tuple(lang.code for lang in self.languages)
        self._by_code = {lang.code: lang for lang in self.languages}
        self.english = english
        self._lock = threading.Lock()  # guards switching generations only
        self._current: _Generation | None = None
        self._retired: _Generation | None = None
        self._problem: str | None = None  # why the index on disk is not being served, if it is not
        self._failed: tuple[tuple[str, int, int], float] | None = None  # (generation key, when) that failed

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

    def _generation(self) -> _Generation:
        """The generation to search, switching to a new one when the index was rebuilt."""
        with self._lock:
            key = generation_on_disk(self.index_dir)
            current = self._current
            stale = key is not None and (current is None or key != current.key)
            recently_failed = self._failed is not None and self._failed[0] == key and time.monotonic() - self._failed[1] < RETRY_SECONDS
            if stale and not recently_failed:
                assert key is not None  # stale: there is a generation on disk
                try:
                    new = _Generation(key, self.languages, self.english)
                except IndexUnavailable as e:
                    self._failed, self._problem = (key, time.monotonic()), str(e)
                    log.error("cannot switch to the search index in %s: %s", key[0], e)
                else:
                    if self._retired is not None:
                        self._retired.close()
                    self._retired, self._current = current, new
                    self._failed = self._problem = None
                    current = new
            if current is None:
                if self._problem:
                    raise IndexUnavailable(self._problem)
                raise IndexUnavailable(f"no search index in {self.index_dir}; run 'pravila build' first")
            return current

    def _broken(self, generation: _Generation, error: IndexUnavailable) -> None:
        """A read failed: stop serving that generation until the index on disk changes."""
        with self._lock:
            if self._current is generation:
                self._current = None
                self._failed, self._problem = (generation.key, float("inf")), str(error)
            if self._retired is not None and self._retired is not generation:
                self._retired.close()
            self._retired = generation

    def close(self) -> None:
        with self._lock:
            for generation in (self._current, self._retired):
                if generation is not None:
                    generation.close()
            self._current = self._retired = None

    def __enter__(self) -> "Searcher":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stats(self) -> dict[str, Any]:
        """Entries per language and the generation in use (for /healthz).

        Raises :class:`IndexUnavailable` when there is no index to search, when the
        one in use failed a read, or when a rebuilt one could not be opened (the
        previous one is still searched, but the index on disk is not).
        """
        generation = self._generation()
        with self._lock:
            if self._problem:
                raise IndexUnavailable(self._problem)
        return {"entries": {code: generation.entries.get(code, 0) for code in self.codes}, "generation": generation.name}

    # looking up entries

    def entry(self, lang: str, entry_id: str) -> dict[str, Any] | None:
        """An entry's JSON form (``serialize.entry_to_dict``), or None."""
        if lang not in self.codes or not isinstance(entry_id, str) or len(entry_id) > 100 or not ID_RE.fullmatch(entry_id):
            return None
        generation = self._generation()
        try:
            docnum = generation.engine.find(f"{lang}:{entry_id}")
            return None if docnum is None else json.loads(generation.engine.stored(docnum)["entry"])
        except IndexUnavailable as e:
            self._broken(generation, e)
            raise

    # searching

    def search(self, query: str | None, lang: str | None = "all", limit: int | str | None = DEFAULT_LIMIT) -> SearchResult:
        """Search the entries; raises :class:`QueryError` on bad input, :class:`IndexUnavailable` without an index."""
        query = check_query(query)
        lang = check_lang(lang, self.codes)
        limit = check_limit(limit)
        langs = self.langs(lang)
        words = query_terms(query, langs, self.english)
        if not words:
            return SearchResult(query, lang, 0, [])
        generation = self._generation()
        try:
            groups, marks = plan(words, langs, self.english, generation.scorer, generation.vocabulary)
            if not groups:
                return SearchResult(query, lang, 0, [])
            ranked, total = rank(generation.scorer, groups, limit, generation.names)
            found = [(json.loads(generation.engine.stored(doc)["entry"]), score) for doc, score in ranked]
        except IndexUnavailable as e:
            self._broken(generation, e)
            raise
        hits = []
        for entry, score in found:
            snippet = make_snippet(entry["text"], marks.get(entry["lang"], set()), self._by_code[entry["lang"]])
            hits.append(Hit(entry["id"], entry["lang"], entry["title"], entry["url"], snippet, round(score, 4)))
        return SearchResult(query, lang, total, hits)
