"""Where an entry lives on the site.

One page per top-level entry (a section of the chapter), every entry an
anchor on its section's page: ``/ru/combat/movement/#high-jump``.  The site
generator, the search index and ``pravila export`` all ask here.
"""

from __future__ import annotations

from .content import Entry, Library


def page_path(library: Library, entry: Entry) -> str:
    """The Markdown file (relative to the language's docs folder) that shows the entry.

    >>> page_path(lib, lib.get("ru", "high-jump"))
    'combat/movement.md'
    """
    section = library.section_of(entry)
    return f"{entry.chapter.id}/{section.id}.md"


def entry_url(library: Library, entry: Entry) -> str:
    """The entry's address from the site root.

    >>> entry_url(lib, lib.get("ru", "high-jump"))
    '/ru/combat/movement/#high-jump'
    """
    section = library.section_of(entry)
    return f"/{entry.lang}/{entry.chapter.id}/{section.id}/#{entry.id}"
