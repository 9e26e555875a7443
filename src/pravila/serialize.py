"""One serializer for an entry: the JSON that ``pravila export``, ``pravila
show --json`` and the HTTP API all answer with."""

from __future__ import annotations

from typing import Any

from .content import Entry, Library
from .urls import entry_url


def entry_to_dict(library: Library, entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "lang": entry.lang,
        "title": entry.title,
        "en": entry.en,
        "en_status": entry.en_status,
        "aliases": list(entry.aliases),
        "edition": entry.edition,
        "source": entry.source,
        "provenance": entry.chapter.provenance,
        "chapter": entry.chapter.id,
        "kind": entry.kind,
        "parent": entry.parent,
        "children": list(entry.children),
        "refs": entry.linked_ids,
        "undefined_terms": entry.undefined_terms,
        "backlinks": [e.id for e in library.backlinks(entry)],
        "counterparts": [c.key for c in entry.counterparts],
        "counterpart_notes": {c.key: c.note for c in entry.counterparts if c.note},
        "caption": entry.caption,
        "notes": list(entry.notes),
        "body": entry.body,
        "text": library.text(entry),
        "url": entry_url(library, entry),
    }
