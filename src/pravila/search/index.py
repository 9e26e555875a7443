"""Writing the search index: the Whoosh schema, the analyzers that apply our analysis, one part per language.

A generation (:mod:`pravila.search.generations`) holds one Whoosh index per
language, ``<generation>/<lang>/`` with that language's entries, written by
one writer each — in processes of their own when the library is big — and
read as one (:mod:`pravila.search.whoosh_engine`, or Whoosh's own
``MultiReader``): document numbers run through the parts in the project's
language order, entries in library order.  Every part has the same schema:
each language's fields, analysed by its registry record (:mod:`pravila.analysis`):

==============  ===========================================  ==========
field           what                                         analyzer
==============  ===========================================  ==========
``title_<L>``   the entry's title                            language
``alias_<L>``   its aliases (the language's and English)     language
``variant_<L>`` the terms other translations use for it      language
                (``content/terms``: variants, shared words)
``body_<L>``    its plain text (``Library.text``)            language
``en_<L>``      the English rule name and the Latin-script   English
                aliases (``grapple``, ``spell save DC``)
==============  ===========================================  ==========

Stored with each entry: its key (``ru:grapple``), its names (title, English
name, aliases: a query that is one of them ranks the entry first) and its
JSON form (:func:`serialize.entry_to_dict`: what ``/api/entries`` answers,
and where a hit's title, URL and snippet text come from).  So the index is
all the API needs, and a rebuild replaces the search and the entries together.

Whoosh pickles the schema, and with it the analyzers below: they keep only
plain data (a language record), and their class paths are part of the
index format (:data:`pravila.search.generations.FORMAT`).
"""

from __future__ import annotations

import gc
import json
import os
import pickle
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from whoosh.analysis import Filter, Tokenizer
from whoosh.analysis.acore import Token
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.filedb.filestore import FileStorage

from ..analysis import WORD_RE, index_keys, is_stopword, name_key
from ..content import Entry, Library
from ..errors import BuildError
from ..languages import Language
from ..serialize import entry_to_dict
from .engine import ENGLISH_FIELD, TEXT_FIELDS, field
from .generations import new_generation, publish, write_format

if TYPE_CHECKING:
    from ..project import Project

__all__ = ["analyzer", "build_index", "document", "english_analyzer", "schema", "write_generation", "write_part_from_stdin"]

PARALLEL_FROM = 4000  # entries in all from which each language's part is written in a process of its own
BATCH = 250  # entries sent to a part's process at a time
WRITER_MB = 1024  # a writer sorts postings in memory up to this (50 000 entries of a language: ~1 GB), then spills to slow temporary files


# --- Whoosh adapters (pickled into the index: keep their names and module stable) ---------


class WordTokenizer(Tokenizer):  # type: ignore[misc]
    """Words of the NFC text (:data:`pravila.analysis.WORD_RE`), lowercased, with positions and character offsets.

    Offsets refer to the NFC text (the library's text is NFC already).
    """

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,  # type: ignore[no-untyped-def]
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        if not unicodedata.is_normalized("NFC", value):
            value = unicodedata.normalize("NFC", value)
        for pos, m in enumerate(WORD_RE.finditer(value)):
            t.text = m.group(0).lower()
            t.boost = 1.0
            t.stopped = False
            if keeporiginal:
                t.original = t.text
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar = start_char + m.start()
                t.endchar = start_char + m.end()
            yield t


class LanguageFilter(Filter):  # type: ignore[misc]
    """A filter for one language: picklable (it keeps only the language's record), remembering its answers per word."""

    MEMORY = 50_000  # words remembered per filter; the analysis functions cache too, this saves their call per token

    def __init__(self, lang: Language):
        self.lang = lang
        self._seen: dict[str, Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        return {"lang": self.lang}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.lang = state["lang"]
        self._seen = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LanguageFilter) and self.__class__ is other.__class__ and self.lang.code == other.lang.code

    def _remember(self, word: str, value: Any) -> Any:
        if len(self._seen) >= self.MEMORY:
            self._seen.clear()
        self._seen[word] = value
        return value


class StopFilter(LanguageFilter):
    """Drops the stopwords of one language (see :func:`pravila.analysis.is_stopword`)."""

    def __call__(self, tokens):  # type: ignore[no-untyped-def]
        seen, lang = self._seen, self.lang
        for t in tokens:
            stop = seen.get(t.text)
            if stop is None:
                stop = self._remember(t.text, is_stopword(t.text, lang))
            if not stop:
                yield t


class KeysFilter(LanguageFilter):
    """Replaces each word by its index keys (see :func:`pravila.analysis.index_keys`), all at the word's position."""

    def __call__(self, tokens):  # type: ignore[no-untyped-def]
        seen, lang = self._seen, self.lang
        for t in tokens:
            keys = seen.get(t.text)
            if keys is None:
                keys = self._remember(t.text, index_keys(t.text, lang))
            for key in keys:
                t.text = key
                yield t


class NameKeysFilter(LanguageFilter):
    """Replaces each word of an English name by its English stem (:func:`pravila.analysis.name_key`)."""

    def __call__(self, tokens):  # type: ignore[no-untyped-def]
        lang = self.lang
        for t in tokens:
            t.text = name_key(t.text, lang)
            yield t


def analyzer(lang: Language) -> Any:
    """The analyzer of a language's text fields: words → stopwords out → keys.

    >>> [t.text for t in analyzer(ru)("Прыжок в длину")]
    ['прыжок', '~прыжок', 'длина', '~длин']
    >>> [t.text for t in analyzer(cs)("Sesílání kouzel")]
    ['sesílání', '~sesil', '^sesil', 'kouzlo', '~kouzl']
    """
    return WordTokenizer() | StopFilter(lang) | KeysFilter(lang)


def english_analyzer(english: Language) -> Any:
    """The analyzer of the English names field.

    >>> [t.text for t in english_analyzer(en)("Escaping a Grapple")]
    ['escap', 'grappl']
    """
    return WordTokenizer() | StopFilter(english) | NameKeysFilter(english)


# --- the schema and the documents --------------------------------------------------------


def schema(languages: tuple[Language, ...], english: Language) -> Schema:
    """The schema of every part (pickled into each, analyzers included): all languages' fields, so the parts read as one."""
    fields: dict[str, Any] = {"key": ID(stored=True, unique=True), "names": STORED(), "entry": STORED()}
    for lang in languages:
        for name in TEXT_FIELDS:
            fields[field(name, lang.code)] = TEXT(analyzer=analyzer(lang), phrase=False)
        fields[field(ENGLISH_FIELD, lang.code)] = TEXT(analyzer=english_analyzer(english), phrase=False)
    return Schema(**fields)


def english_names(entry: Entry) -> str:
    """The English rule name plus the aliases written in Latin script without diacritics.

    >>> entry = lib.get("ru", "opportunity-attack")
    >>> names = english_names(entry).splitlines()
    >>> names[0] == entry.en, all(n.isascii() for n in names), len(names) > 1
    (True, True, True)
    """
    names = [entry.en] + [a for a in entry.aliases if a.isascii() and any(c.isalpha() for c in a)]
    return "\n".join(dict.fromkeys(names))


def term_names(library: Library, entry: Entry) -> list[tuple[str, str]]:
    """The terminology layer's names of an entry, as (kind, term): ``variant`` for another translation's
    word, ``shared-here`` for a shared word in the meaning this text gives it, ``shared`` for another meaning.

    >>> ("variant", "распластанность") in term_names(lib, lib.get("ru", "being-prone"))
    True
    >>> [k for k, t in term_names(lib, lib.get("cs", "casting-time")) if t == "vyvolávací"]
    ['shared-here']
    """
    terms = library.terms.get(entry.lang)
    if terms is None:
        return []
    names = [("variant", v.term) for v in terms.variants_of(entry.id)]
    for shared in terms.shared_of(entry.id):
        names.append(("shared-here" if shared.here == entry.id else "shared", shared.term))
    return names


def document(library: Library, entry: Entry) -> dict[str, Any]:
    """The fields of one entry's index document."""
    data = entry_to_dict(library, entry)
    lang = entry.lang
    variants = term_names(library, entry)
    fields = {
        "key": entry.key,
        "names": [("title", entry.title), ("en", entry.en), *(("alias", a) for a in entry.aliases), *variants],
        "entry": json.dumps(data, ensure_ascii=False, separators=(",", ":")),
        field("title", lang): entry.title,
        field("alias", lang): "\n".join(entry.aliases),
        field("variant", lang): "\n".join(dict.fromkeys(term for _, term in variants)),
        field("body", lang): data["text"],
        field(ENGLISH_FIELD, lang): english_names(entry),
    }
    return {name: value for name, value in fields.items() if value != ""}  # an empty field is no work for Whoosh


# --- writing ----------------------------------------------------------------------------------


def write_generation(project: "Project", library: Library, index_dir: Path | None = None,
                     processes: int | None = None) -> tuple[Path, int]:
    """Write the index of all entries into a new generation folder; (the folder, entries indexed).

    Each language's part has a writer of its own: all in this process for a
    small library, from :data:`PARALLEL_FROM` entries (or ``processes`` > 1)
    one process per language, fed documents in batches.  Nothing is switched
    in yet: :func:`pravila.search.generations.publish` does that.
    """
    index_dir = Path(index_dir or project.index_dir)
    new = new_generation(index_dir)
    try:
        if processes is None:
            processes = (os.cpu_count() or 1) if len(library.entries) >= PARALLEL_FROM and sys.executable else 1
        parts = [(new / lang.code, library.in_lang(lang.code)) for lang in project.languages]
        recipe = (project.languages, project.english)
        if processes > 1 and len(parts) > 1:
            counts = _write_in_processes(library, parts, recipe)
        else:
            counts = [_write_part(folder, recipe, (document(library, e) for e in entries)) for folder, entries in parts]
        write_format(new, project.codes, dict(zip(project.codes, counts)))
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    return new, sum(counts)


def build_index(project: "Project", library: Library, index_dir: Path | None = None, processes: int | None = None) -> int:
    """Write the index of all entries and switch it into place; the number of entries indexed.

    ``index_dir`` (default: the project's) becomes a symbolic link to the new
    generation; the previous generation is kept (a server may still be
    reading it), older ones are removed.
    """
    index_dir = Path(index_dir or project.index_dir)
    new, count = write_generation(project, library, index_dir, processes)
    publish(new, index_dir)
    return count


Recipe = tuple[tuple[Language, ...], Language]  # the project's languages and the English record: the schema's parts


def _write_part(folder: Path, recipe: Recipe, documents: Iterable[dict[str, Any]]) -> int:
    """One part's Whoosh index from its documents, in order; the number written."""
    folder.mkdir()
    ix = FileStorage(str(folder), supports_mmap=False).create_index(schema(*recipe))
    writer = ix.writer(limitmb=WRITER_MB)
    count = 0
    try:
        for doc in documents:
            writer.add_document(**doc)
            count += 1
    except BaseException:
        writer.cancel()
        raise
    writer.commit()
    ix.close()
    return count


def write_part_from_stdin() -> None:
    """A part's process (:func:`_write_in_processes`): pickles on stdin — the folder and the recipe, then
    batches of documents, then None — and the number written on stdout."""
    gc.disable()  # a short-lived process making millions of small objects: the cycle collector only slows it
    source = sys.stdin.buffer
    folder, recipe = pickle.load(source)

    def received() -> Iterator[dict[str, Any]]:
        while (batch := pickle.load(source)) is not None:
            yield from batch

    print(_write_part(Path(folder), recipe, received()), flush=True)


def _write_in_processes(library: Library, parts: list[tuple[Path, list[Entry]]], recipe: Recipe) -> list[int]:
    """Write the parts in a Python process each, documents made here and sent round-robin, a batch at a time.

    Plain child processes (not ``multiprocessing``): nothing is forked from
    a server's threads, and no caller's main module is imported again.
    """
    command = [sys.executable, "-c", "from pravila.search.index import write_part_from_stdin; write_part_from_stdin()"]
    running: list[tuple[subprocess.Popen[bytes], list[Entry]]] = []
    try:
        for folder, entries in parts:
            proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            assert proc.stdin is not None  # stdin=PIPE
            pickle.dump((str(folder), recipe), proc.stdin)
            running.append((proc, entries))
        longest = max(len(entries) for _, entries in running)
        for start in range(0, longest, BATCH):
            for proc, entries in running:
                if start < len(entries):
                    pickle.dump([document(library, e) for e in entries[start:start + BATCH]], proc.stdin)  # type: ignore[arg-type]
        counts = []
        for (folder, _), (proc, _) in zip(parts, running):
            out, _ = proc.communicate(pickle.dumps(None))
            if proc.returncode != 0 or not out.strip().isdigit():
                raise BuildError(f"writing the search index part {folder.name} failed (exit status {proc.returncode})")
            counts.append(int(out))
        return counts
    except BrokenPipeError:
        raise BuildError("a process writing the search index ended early (its error is above)") from None
    finally:
        for proc, _ in running:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
