"""The search index: its schema, the Whoosh analyzers, and writing it from the Library.

One Whoosh index holds every language of the project.  Each language has
its own text fields, analysed by that language's record
(:mod:`pravila.analysis`):

==============  ===========================================  ==========
field           what                                         analyzer
==============  ===========================================  ==========
``title_<L>``   the entry's title                            language
``alias_<L>``   its aliases (the language's and English)     language
``body_<L>``    its plain text (``Library.text``)            language
``en_<L>``      the English rule name and the Latin-script   English
                aliases (``grapple``, ``spell save DC``)
==============  ===========================================  ==========

Stored with each entry: its key (``ru:grapple``), language, id, title, URL,
plain text (for snippets), names (title, English name, aliases: a query
that is one of them ranks the entry first) and its JSON form (:func:`serialize.entry_to_dict`,
what ``/api/entries`` answers).  So the index is all the API needs, and a
rebuild replaces the search and the entries together.

The index is written into a new folder (a *generation*) and then switched
into place with one atomic rename of a symbolic link: ``build/index`` →
``build/index.d/<gen>``.  A running server never sees half an index; it
notices the new target and reopens (:class:`pravila.query.Searcher`).

Whoosh pickles the schema, and with it the analyzers below: they keep only
plain data (a language record), and their class paths are part of the
index format (:data:`FORMAT`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from whoosh import index as whoosh_index
from whoosh.analysis import Filter, Tokenizer
from whoosh.analysis.acore import Token
from whoosh.fields import ID, STORED, TEXT, Schema

from .analysis import index_keys, is_stopword, name_key, words
from .content import Entry, Library
from .languages import Language
from .serialize import entry_to_dict
from .urls import entry_url

if TYPE_CHECKING:
    from .project import Project

TEXT_FIELDS = ("title", "alias", "body")
FORMAT = "pravila-index-2"  # written next to each generation; another value means "rebuild"
FORMAT_FILE = "pravila-format.json"


# --- Whoosh adapters (pickled into the index: keep their names and module stable) ---------


class WordTokenizer(Tokenizer):  # type: ignore[misc]
    """Words of NFC text, lowercased, with positions and character offsets."""

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,  # type: ignore[no-untyped-def]
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for pos, w in enumerate(words(value)):
            t.text = w.text
            t.boost = 1.0
            t.stopped = False
            if keeporiginal:
                t.original = w.text
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar = start_char + w.start
                t.endchar = start_char + w.end
            yield t


class LanguageFilter(Filter):  # type: ignore[misc]
    """A filter for one language (picklable: it keeps only the language's record)."""

    def __init__(self, lang: Language):
        self.lang = lang

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LanguageFilter) and self.__class__ is other.__class__ and self.lang.code == other.lang.code


class StopFilter(LanguageFilter):
    """Drops the stopwords of one language (see :func:`pravila.analysis.is_stopword`)."""

    def __call__(self, tokens):  # type: ignore[no-untyped-def]
        lang = self.lang
        for t in tokens:
            if not is_stopword(t.text, lang):
                yield t


class KeysFilter(LanguageFilter):
    """Replaces each word by its index keys (see :func:`pravila.analysis.index_keys`), all at the word's position."""

    def __call__(self, tokens):  # type: ignore[no-untyped-def]
        lang = self.lang
        for t in tokens:
            for key in index_keys(t.text, lang):
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
    ['sesílání', '~sesil', 'kouzlo', '~kouzl']
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
    """The index schema (pickled into the index, analyzers included)."""
    fields: dict[str, Any] = {
        "key": ID(stored=True, unique=True),
        "lang": ID(stored=True),
        "id": STORED(),
        "title": STORED(),
        "url": STORED(),
        "text": STORED(),
        "entry": STORED(),
        "names": STORED(),
    }
    for lang in languages:
        for name in TEXT_FIELDS:
            fields[f"{name}_{lang.code}"] = TEXT(analyzer=analyzer(lang), phrase=False)
        fields[f"en_{lang.code}"] = TEXT(analyzer=english_analyzer(english), phrase=False)
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


def document(library: Library, entry: Entry) -> dict[str, Any]:
    """The fields of one entry's index document."""
    text = library.text(entry)
    lang = entry.lang
    return {
        "key": entry.key,
        "lang": lang,
        "id": entry.id,
        "title": entry.title,
        "url": entry_url(library, entry),
        "text": text,
        "entry": json.dumps(entry_to_dict(library, entry), ensure_ascii=False),
        "names": [("title", entry.title), ("en", entry.en), *(("alias", a) for a in entry.aliases)],
        f"title_{lang}": entry.title,
        f"alias_{lang}": "\n".join(entry.aliases),
        f"body_{lang}": text,
        f"en_{lang}": english_names(entry),
    }


# --- writing and switching ----------------------------------------------------------------


def write_generation(project: "Project", library: Library, index_dir: Path | None = None) -> tuple[Path, int]:
    """Write the index of all entries into a new generation folder; (the folder, entries indexed).

    Nothing is switched yet: :func:`publish` does that.
    """
    index_dir = Path(index_dir or project.index_dir)
    generations = generations_dir(index_dir)
    generations.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(prefix=time.strftime("%Y%m%d-%H%M%S-"), dir=generations))
    os.chmod(new, 0o755)  # mkdtemp makes it private; a server may run as another user
    try:
        ix = whoosh_index.create_in(str(new), schema(project.languages, project.english))
        writer = ix.writer(limitmb=256)
        count = 0
        try:
            for entry in library.entries:
                writer.add_document(**document(library, entry))
                count += 1
        except BaseException:
            writer.cancel()
            raise
        writer.commit()
        ix.close()
        meta = {"format": FORMAT, "languages": list(project.codes)}
        (new / FORMAT_FILE).write_text(json.dumps(meta), encoding="utf-8")
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    return new, count


def build_index(project: "Project", library: Library, index_dir: Path | None = None) -> int:
    """Write the index of all entries and switch it into place; the number of entries indexed.

    ``index_dir`` (default: the project's) becomes a symbolic link to the new
    generation; the previous generation is kept (a server may still be
    reading it), older ones are removed.
    """
    index_dir = Path(index_dir or project.index_dir)
    new, count = write_generation(project, library, index_dir)
    publish(new, index_dir)
    return count


def generations_dir(index_dir: Path) -> Path:
    """Where the generations of an index live: next to it, ``<name>.d/``."""
    return index_dir.with_name(index_dir.name + ".d")


def publish(new: Path, index_dir: Path) -> None:
    """Point ``index_dir`` at the generation ``new`` in one atomic step, then prune old generations."""
    link = index_dir.with_name(f".{index_dir.name}.{os.getpid()}.link")
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink(os.path.relpath(new, index_dir.parent), link)
    if index_dir.exists() and not index_dir.is_symlink():
        # An index folder from before generations: move it aside (not atomic, once).
        shutil.rmtree(index_dir)
    os.replace(link, index_dir)
    _prune(generations_dir(index_dir), current=new)


def _prune(generations: Path, current: Path) -> None:
    """Remove all generations but the newest two (the current and the one a server may still read)."""
    gens = sorted((p for p in generations.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime_ns)
    for old in gens[:-2]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)


def index_format(generation: Path) -> dict[str, Any] | None:
    """What a generation says about itself (None for an index from another layout)."""
    try:
        data = json.loads((generation / FORMAT_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("format") == FORMAT else None
