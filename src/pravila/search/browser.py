"""The search a browser runs: the same analysis, index and scores as the searcher, shipped as data.

``pravila build`` writes, into every language site, one data file per
language (``assets/pravila/search/<lang>.<hash>.json``) and a small manifest
(``assets/pravila/search/index.json``).  ``static/search-engine.js`` (the
twin of :mod:`pravila.search.strategy`, :mod:`~pravila.search.bm25f`,
:mod:`~pravila.search.fuzzy`, :mod:`~pravila.search.snippets` and the query
side of :mod:`pravila.analysis`) searches them in the site's search worker,
with the same results in the same order: ``tests/vectors/search.json``
(``scripts/search_vectors.py``) holds the Python searcher's answers, which
``tests/test_search_vectors.py`` checks in Chromium.

A language's data file holds what the engine reads from the index, read
from the index generation the build has just written:

- ``fields``: per field of the language (``title``, ``alias``, ``variant``,
  ``body``, ``en``), each entry's length and the total, and every key with its
  postings (entries as gaps, term frequencies), so the browser computes the
  BM25F contributions (:meth:`~pravila.search.bm25f.BM25F.contributions`) with
  the same arithmetic; ``idf`` gives the inverse frequency per document
  frequency, computed here (``Math.log`` need not round as C's ``log`` does);
- ``docs``: each entry's id, title, URL, plain text (for snippets) and names
  (for the name bonus), in the index's order, which is the tie order;
- ``analysis``: the language record's parts the browser needs (script,
  stemmer twin, letter folds, stopwords, derivation rules);
- ``forms``: the lemmatizer, for the words where it matters.  A word the
  table lacks is taken for its own lemma, unknown to the dictionary (its
  loose key, its derivational root and, for Czech typed with diacritics,
  the word itself are then its keys).  The table holds every word whose keys
  differ from that in a way search can see (:func:`forms_table`): the forms
  of the content's lemmas (:mod:`pravila.paradigms`), of lemmas with the
  content's derivational roots, with and without diacritics, and every word
  of the entries' text and names (snippets and names need their lemmas).

The manifest names each language's file, or says the language is searched
through ``/api/search`` (its registry record names no browser twin, or its
data would be larger than :data:`MAX_BROWSER_BYTES` gzipped), and carries the
search's constants, the English record (rule names), the content version and
build date, and the site's own strings.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import sys
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from .. import derivation
from ..analysis import (CACHE_WORDS, DERIVED, DERIVED_WEIGHT, EXACT_WEIGHT, LOOSE, LOOSE_WEIGHT, MAX_QUERY_WORDS,
                        MAX_WORD, fold, is_stopword, lemma, query_terms, query_word_from, words)
from ..languages import Language, script_of
from ..paradigms import forms_of
from .bm25f import BM25F, inverse_frequency
from .checks import MAX_QUERY_CHARS
from .engine import ENGLISH_FIELD, TEXT_FIELDS, field
from .generations import read_format
from .fuzzy import LONG_KEY, MAX_FUZZY_LETTERS, MAX_FUZZY_WORDS, MIN_FUZZY_LETTERS
from .snippets import SNIPPET_CHARS
from .strategy import FIELD_BOOST, FUZZY_WEIGHT, MAX_FUZZY_TERMS, NAME_BONUS, NAME_POOL, PHRASE_BONUS, word_terms
from .whoosh_engine import WhooshEngine

if TYPE_CHECKING:
    from ..content import Library
    from ..project import Project

__all__ = ["DATA_DIR", "FORMAT", "MAX_BROWSER_BYTES", "BrowserSearch", "Prepared", "forms_table", "language_data",
           "prepare_browser_search", "spans_of", "write_browser_search"]

FORMAT = 1
DATA_DIR = "assets/pravila/search"  # in each language site
MANIFEST = "index.json"
# A language whose data is bigger than this, gzipped, is searched through /api/search instead (when the site
# is served by `pravila serve`). Measured (benchmarks/search_box.py): the generated corpus grows by ~220 KB (ru)
# and ~145 KB (cs) per 1 000 entries, so this is about 9 000 entries a language; at 10 000 entries a language
# Chromium parses both languages' data in 0.5 s and answers in p50 1.5 ms / p95 12 ms: the limit is what a phone
# on mobile data fetches on the search box's first focus, not the speed.
MAX_BROWSER_BYTES = 2 * 2**20


@dataclass(frozen=True)
class LanguageFile:
    lang: str
    name: str  # the file name in DATA_DIR, or "" when the language is searched through the API
    raw: int
    gzipped: int
    reason: str = ""  # why the language is searched through the API


@dataclass(frozen=True)
class BrowserSearch:
    files: tuple[LanguageFile, ...]
    version: str
    built: str


# --- what the engine reads ----------------------------------------------------------------


def language_data(engine: WhooshEngine, spans: dict[str, tuple[int, int]], lang: Language, english: Language) -> dict[str, Any]:
    """One language's search data (see the module's description), read from an open generation.

    ``spans`` gives each language's first document number and number of entries (:func:`spans_of`).
    """
    offset, count = spans[lang.code]
    doc_count = engine.doc_count
    fields: dict[str, Any] = {}
    present: dict[str, set[str]] = {}
    dfs: set[int] = set()
    for name in (*TEXT_FIELDS, ENGLISH_FIELD):
        fieldname = field(name, lang.code)
        lengths, total = engine.field_lengths(fieldname)
        terms = []
        keys = list(engine.terms(fieldname))
        for key in keys:
            ids, tfs = engine.postings(fieldname, key)
            gaps = [ids[0] - offset] + [b - a for a, b in zip(ids, ids[1:])]
            freqs = [_whole(tf) for tf in tfs]
            terms.append([key, gaps] if all(f == 1 for f in freqs) else [key, gaps, freqs])
            dfs.add(len(ids))
        present[fieldname] = set(keys)
        fields[name] = {"total": total, "lengths": [_whole(n) for n in lengths[offset:offset + count]], "terms": terms}
    docs = []
    for docnum in range(offset, offset + count):
        stored = engine.stored(docnum)
        entry = json.loads(stored["entry"])
        docs.append([entry["id"], entry["title"], entry["url"], entry["text"], [list(n) for n in stored["names"]]])
    return {
        "format": FORMAT,
        "lang": lang.code,
        "offset": offset,
        "doc_count": doc_count,
        "analysis": analysis_record(lang),
        "fields": fields,
        "idf": [[df, inverse_frequency(doc_count, df)] for df in sorted(dfs)],
        "docs": docs,
        "forms": forms_table(lang, english, docs, present),
    }


def spans_of(generation: Path) -> dict[str, tuple[int, int]]:
    """Each language's (first document number, number of entries) in a generation: its parts in order."""
    meta = read_format(generation) or {}
    spans, start = {}, 0
    for code in meta.get("languages", []):
        count = int(meta.get("entries", {}).get(code, 0))
        spans[code] = (start, count)
        start += count
    return spans


def _whole(value: float) -> int | float:
    return int(value) if float(value).is_integer() else float(value)


def analysis_record(lang: Language) -> dict[str, Any]:
    """What the browser needs of a language's registry record (its stemmer by the ``browser`` twin's name)."""
    return {
        "code": lang.code,
        "script": lang.script,
        "stemmer": lang.browser,
        "letter_folds": [list(pair) for pair in lang.letter_folds],
        "stopwords": sorted(lang.stopwords),
        "derivation": derivation.table(lang.derivation) if lang.derivation else None,
    }


# --- the lemmatizer, as a table --------------------------------------------------------------


def forms_table(lang: Language, english: Language, docs: list[list[Any]], present: dict[str, set[str]]) -> list[list[Any]]:
    """The words whose keys the browser could not work out alone, as ``[lemma, known, cut, endings]`` groups.

    A group's words are ``lemma`` without its last ``cut`` letters, followed
    by each of ``endings`` (separated by spaces, an empty one included: the
    words of ``прыжок`` are ``["прыжок", 2, "ка ке ки ок …"]``); ``known`` is 1 when
    the lemmatizer knows them.  A word is in the table when its lemma (or
    whether the lemmatizer knows it) differs from what the browser assumes
    without the table — the word itself, unknown — and either search would
    find other terms, or the same with other weights, in the language's index
    (:func:`pravila.search.strategy.word_terms`), or the word is one of the
    entries' text or names (snippets and the name bonus key them).  The
    browser looks a word up as typed, then with the letter folds (ё as е):
    a word that the second look-up answers right is left out.
    """
    if not lang.lemmatizer:
        return []

    def df(fieldname: str, key: str) -> int:
        return 1 if key in present.get(fieldname, ()) else 0

    own = {w.text for _, _, _, text, names in docs for w in words(text + "\n" + "\n".join(n for _, n in names))}
    own = {w for w in own if script_of(w) == lang.script}
    lemmas = {k for name in TEXT_FIELDS for k in present[field(name, lang.code)] if not k.startswith((LOOSE, DERIVED))}
    roots = {k[len(DERIVED):] for name in TEXT_FIELDS for k in present[field(name, lang.code)] if k.startswith(DERIVED)}
    candidates = set(own)
    for word in forms_of(lemmas, roots, lang):
        candidates.update((word, fold(word), lang.fold_letters(word)))
    candidates = {w for w in candidates if w and script_of(w) == lang.script and len(w) <= MAX_WORD and w.isalnum()}
    table: dict[str, tuple[str, int]] = {}
    for word in sorted(candidates):
        found = lemma(word, lang)
        guess = (lang.fold_letters(word), False)
        if found == guess:
            continue
        if word not in own:
            if is_stopword(word, lang):
                continue
            if word_terms(query_word_from(word, lang, found), df) == word_terms(query_word_from(word, lang, guess), df):
                continue
        table[word] = (found[0], int(found[1]))
    for word in sorted(candidates):  # the second look-up, with the letter folds
        folded = lang.fold_letters(word)
        if folded == word or folded not in table:
            continue
        if word in table and table[word] == table[folded]:
            del table[word]
        elif word not in table:
            found = lemma(word, lang)
            table[word] = (found[0], int(found[1]))
    groups: dict[tuple[str, int], list[str]] = {}
    for word, entry in table.items():
        groups.setdefault(entry, []).append(word)
    out = []
    for (base, known), forms in sorted(groups.items()):
        stem = os.path.commonprefix([base, *forms])
        out.append([base, known, len(base) - len(stem), " ".join(sorted(w[len(stem):] for w in forms))])
    return out


# --- the manifest and the files --------------------------------------------------------------


def params() -> dict[str, Any]:
    """The search's constants, from the Python modules that define them (the browser reads them from here)."""
    return {
        "k1": BM25F.K1, "b": BM25F.B,
        "field_boost": FIELD_BOOST, "name_bonus": NAME_BONUS, "phrase_bonus": PHRASE_BONUS, "name_pool": NAME_POOL,
        "fuzzy_weight": FUZZY_WEIGHT, "max_fuzzy_terms": MAX_FUZZY_TERMS, "max_fuzzy_words": MAX_FUZZY_WORDS,
        "min_fuzzy_letters": MIN_FUZZY_LETTERS, "max_fuzzy_letters": MAX_FUZZY_LETTERS, "long_key": LONG_KEY,
        "exact_weight": EXACT_WEIGHT, "loose_weight": LOOSE_WEIGHT, "derived_weight": DERIVED_WEIGHT,
        "loose": LOOSE, "derived": DERIVED, "max_word": MAX_WORD, "max_query_words": MAX_QUERY_WORDS,
        "max_query_chars": MAX_QUERY_CHARS, "snippet_chars": SNIPPET_CHARS, "text_fields": list(TEXT_FIELDS),
        "english_field": ENGLISH_FIELD, "cache_words": CACHE_WORDS,
    }


@lru_cache(maxsize=1)
def combining_marks() -> str:
    """A regular expression character class of the characters Python's ``unicodedata.combining`` calls
    combining (what :func:`pravila.analysis.words` drops), as ranges of code points."""
    ranges: list[list[int]] = []
    for code in range(sys.maxunicode + 1):
        if unicodedata.combining(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "[" + "".join(f"\\u{{{a:x}}}" + (f"-\\u{{{b:x}}}" if b > a else "") for a, b in ranges) + "]"


def encode(data: dict[str, Any]) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def content_version(project: "Project") -> str:
    """A short fingerprint of the content folder's files (names and bytes)."""
    digest = hashlib.sha256()
    root = project.content_dir
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(root)).encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:10]


@dataclass(frozen=True)
class Prepared:
    """Every language's data, encoded, before it is written into the sites."""

    files: tuple[LanguageFile, ...]
    blobs: dict[str, bytes]


def prepare_browser_search(project: "Project", generation: Path, max_bytes: int = MAX_BROWSER_BYTES) -> Prepared:
    """Every language's data file from an index generation (the slow part: a second or two a language)."""
    codes = list(project.codes)
    engine = WhooshEngine(generation, codes)
    spans = spans_of(generation)
    files: list[LanguageFile] = []
    blobs: dict[str, bytes] = {}
    try:
        for lang in project.languages:
            if not lang.browser:
                files.append(LanguageFile(lang.code, "", 0, 0, "its registry record names no browser twin"))
                continue
            blob = encode(language_data(engine, spans, lang, project.english))
            gz = len(gzip.compress(blob, 9))
            if gz > max_bytes:
                files.append(LanguageFile(lang.code, "", len(blob), gz, f"its search data is {gz} bytes gzipped"))
                continue
            name = f"{lang.code}.{hashlib.sha256(blob).hexdigest()[:12]}.json"
            files.append(LanguageFile(lang.code, name, len(blob), gz))
            blobs[name] = blob
    finally:
        engine.close()
    return Prepared(tuple(files), blobs)


def write_browser_search(project: "Project", prepared: Prepared, site_dir: Path,
                         strings: Callable[[str], dict[str, str]] | None = None, *, now: datetime | None = None) -> BrowserSearch:
    """Write every language's data file and each site's manifest into the language sites under ``site_dir``,
    and empty Material's own index there (:func:`trim_material_index`).

    ``strings(lang)`` gives a site's own strings for its manifest (:func:`pravila.offline.site_strings`).
    """
    codes = list(project.codes)
    built = (now or datetime.now(timezone.utc)).replace(microsecond=0)
    result = BrowserSearch(prepared.files, content_version(project), built.isoformat())
    shared = {
        "format": FORMAT,
        "version": result.version,
        "built": result.built,
        "order": codes,
        "languages": {f.lang: {"name": project.language(f.lang).name, "data": f.name, "bytes": f.gzipped}
                      if f.name else {"name": project.language(f.lang).name, "api": True} for f in prepared.files},
        "english": analysis_record(project.english) | {"stemmer": "english"},
        "marks": combining_marks(),
        "params": params(),
    }
    for code in codes:
        if not (site_dir / code).is_dir():
            continue
        folder = site_dir / code / DATA_DIR
        folder.mkdir(parents=True, exist_ok=True)
        for name, blob in prepared.blobs.items():
            (folder / name).write_bytes(blob)
        manifest = {**shared, "site": code, "strings": strings(code) if strings else {}}
        (folder / MANIFEST).write_bytes(encode(manifest))
        trim_material_index(site_dir / code)
    return result


def trim_material_index(site: Path) -> None:
    """Material's lunr index without its documents: the box is answered by our worker, and Material's
    UI only needs the index's ``config`` to start (its lunr worker is never loaded)."""
    path = site / "search" / "search_index.json"
    if path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        path.write_text(json.dumps({"config": data.get("config", {}), "docs": []}, ensure_ascii=False), encoding="utf-8")

