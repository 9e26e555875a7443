"""The search index: its schema, and writing it from the Library.

One Whoosh index holds both languages.  Each language has its own text
fields, analysed by that language's analyzer (:mod:`pravila.analysis`):

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

The index is written into a new folder and then switched into place with
one atomic rename of a symbolic link: ``build/index`` → ``build/index.d/<gen>``.
A running server never sees half an index; it notices the new target and
reopens (:class:`pravila.query.Searcher`).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh.fields import ID, STORED, TEXT, Schema

from .analysis import LANGS, analyzer, english_analyzer
from .content import Entry, Library
from .serialize import entry_to_dict
from .urls import entry_url

TEXT_FIELDS = ("title", "alias", "body")


def schema() -> Schema:
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
    for lang in LANGS:
        for name in TEXT_FIELDS:
            fields[f"{name}_{lang}"] = TEXT(analyzer=analyzer(lang), phrase=False)
        fields[f"en_{lang}"] = TEXT(analyzer=english_analyzer(), phrase=False)
    return Schema(**fields)


def english_names(entry: Entry) -> str:
    """The English rule name plus the aliases written in Latin script without diacritics.

    >>> from pravila.content import load_library
    >>> lib, _ = load_library()
    >>> entry = lib.get("ru", "opportunity-attack")
    >>> names = english_names(entry).splitlines()
    >>> names[0] == entry.en, all(n.isascii() for n in names), len(names) > 1
    (True, True, True)
    """
    names = [entry.en] + [a for a in entry.aliases if a.isascii() and any(c.isalpha() for c in a)]
    return "\n".join(dict.fromkeys(names))


def document(library: Library, entry: Entry) -> dict[str, str]:
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


def build_index(library: Library, index_dir: Path) -> int:
    """Write the index of all entries (both languages) and switch it into place.

    Returns the number of entries indexed.  ``index_dir`` becomes a symbolic
    link to the new generation; the previous generation is kept (a server
    may still be reading it), older ones are removed.
    """
    index_dir = Path(index_dir)
    generations = generations_dir(index_dir)
    generations.mkdir(parents=True, exist_ok=True)
    new = Path(tempfile.mkdtemp(prefix=time.strftime("%Y%m%d-%H%M%S-"), dir=generations))
    os.chmod(new, 0o755)  # mkdtemp makes it private; a server may run as another user
    try:
        ix = whoosh_index.create_in(str(new), schema())
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
        _publish(new, index_dir)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    _prune(generations, current=new)
    return count


def generations_dir(index_dir: Path) -> Path:
    """Where the generations of an index live: next to it, ``<name>.d/``."""
    return index_dir.with_name(index_dir.name + ".d")


def _publish(new: Path, index_dir: Path) -> None:
    """Point ``index_dir`` at ``new`` in one atomic step (rename of a symlink)."""
    link = index_dir.with_name(f".{index_dir.name}.{os.getpid()}.link")
    if link.is_symlink() or link.exists():
        link.unlink()
    os.symlink(os.path.relpath(new, index_dir.parent), link)
    if index_dir.exists() and not index_dir.is_symlink():
        # An index folder from before generations: move it aside (not atomic, once).
        shutil.rmtree(index_dir)
    os.replace(link, index_dir)


def _prune(generations: Path, current: Path) -> None:
    """Remove all generations but the newest two (the current and the one a server may still read)."""
    gens = sorted((p for p in generations.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime_ns)
    for old in gens[:-2]:
        if old != current:
            shutil.rmtree(old, ignore_errors=True)
