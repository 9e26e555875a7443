"""One serializer for an entry: the JSON that ``pravila export``, ``pravila
show --json`` and the HTTP API all answer with."""

from __future__ import annotations

from typing import Any

from .content import Entry, Library
from .terms import Terminology
from .links import entry_url


def entry_to_dict(library: Library, entry: Entry) -> dict[str, Any]:
    terms = library.terms.get(entry.lang)
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
        "variants": _variants(terms, entry) if terms else [],
        "shared_terms": _shared(terms, entry) if terms else [],
        "external_terms": _external(terms, entry) if terms else {},
        "body": entry.body,
        "text": library.text(entry),
        "url": entry_url(library, entry),
    }


def _source(terms: Terminology, key: str) -> dict[str, str]:
    source = terms.source(key)
    return {"key": source.key, "name": source.name, "short": source.short, "cite": source.cite}


def _variants(terms: Terminology, entry: Entry) -> list[dict[str, Any]]:
    """The words other translations use for this rule, each with its sources."""
    return [
        {"term": v.term, "kind": v.kind, "sources": [_source(terms, k) for k in v.sources]}
        for v in terms.variants_of(entry.id)
    ]


def _shared(terms: Terminology, entry: Entry) -> list[dict[str, Any]]:
    """Words that name this rule in one translation and another rule in another."""
    out = []
    for shared in terms.shared_of(entry.id):
        out.append({
            "term": shared.term,
            "this_text_means": shared.here,
            "meanings": [
                {"entry": m.entry, "external": m.external, "en": m.en, "form": m.form,
                 "sources": [_source(terms, k) for k in m.sources]}
                for m in shared.meanings
            ],
        })
    return out


def _external(terms: Terminology, entry: Entry) -> dict[str, dict[str, Any]]:
    """Where to read the terms this entry uses but the chapter does not define."""
    out = {}
    for slug in entry.undefined_terms:
        ext = terms.external.get(slug)
        if ext is not None:
            out[slug] = {"label": ext.label, "url": ext.url, "name": ext.name,
                         "sources": [_source(terms, k) for k in ext.sources]}
    return out
