"""Where things live on the site, and every link between them.

Three kinds of address, each with one function:

- a **page path**: the Markdown file of a page, relative to its language's
  docs folder (``combat/movement.md``); MkDocs resolves and validates links
  between page paths (:func:`md_href`);
- a **site URL**: the page's address from the site root, a folder
  (``/ru/combat/movement/``, :func:`url_of`), an entry's with its anchor
  (``/ru/combat/movement/#high-jump``, :func:`entry_url`);
- a **relative href** from one site URL to another (:func:`href`), for raw
  HTML links that MkDocs cannot check: into the other language's site, the
  calculators' rule links.  Relative, so a site works under a sub-path.

One page per top-level entry (a section of its chapter), every entry an
anchor on its section's page.  The site generator, the search index, the
widgets and ``pravila export`` all ask here.
"""

from __future__ import annotations

import posixpath
from urllib.parse import quote

from .content import Chapter, Entry, Library, Problem

HOME_PAGE = "index.md"
TERMS_PAGE = "a-z.md"
CALCULATORS_PAGE = "calculators.md"
SHARE_FOLDER = "r"  # /<lang>/r/<id>/: an entry's own address to share (pravila.pages.share_pages)
# Names a chapter may not take: the site's own pages and folders sit there.
RESERVED_PATHS = {"index", "a-z", "calculators", "assets", "search", "404", SHARE_FOLDER}


# --- page paths (Markdown files) ----------------------------------------------------


def page_path(library: Library, entry: Entry) -> str:
    """The Markdown file (relative to the language's docs folder) that shows the entry.

    >>> page_path(lib, lib.get("ru", "high-jump"))
    'combat/movement.md'
    """
    section = library.section_of(entry)
    return f"{entry.chapter.id}/{section.id}.md"


def chapter_path(chapter: Chapter) -> str:
    """The chapter's own page: its contents.

    >>> chapter_path(lib.chapters_in("cs")[0])
    'spellcasting/index.md'
    """
    return f"{chapter.id}/index.md"


def md_href(from_path: str, to_path: str, anchor: str | None = None) -> str:
    """A relative Markdown link target between two page paths (MkDocs resolves and validates it).

    >>> md_href("combat/movement.md", "combat/actions.md", "grapple")
    'actions.md#grapple'
    >>> md_href("combat/movement.md", "combat/movement.md", "high-jump")
    '#high-jump'
    >>> md_href("a-z.md", "combat/movement.md", "high-jump")
    'combat/movement.md#high-jump'
    >>> md_href("index.md", "index.md")
    'index.md'
    """
    fragment = f"#{anchor}" if anchor else ""
    if from_path == to_path:
        return fragment or posixpath.basename(to_path)
    return posixpath.relpath(to_path, posixpath.dirname(from_path) or ".") + fragment


def path_problems(library: Library) -> list[Problem]:
    """Chapter and section ids that would collide with the site's own pages (part of ``pravila check``)."""
    problems = []
    for chapter in library.chapters:
        if chapter.id in RESERVED_PATHS:
            problems.append(Problem(chapter.file, 1, "chapter", f"chapter id '{chapter.id}' is reserved for a site page "
                                                               f"(reserved: {', '.join(sorted(RESERVED_PATHS))})"))
        for e in library.entries_of(chapter):
            if e.parent is None and e.id == "index":
                problems.append(Problem(e.file, e.line, e.id, "a top-level entry cannot be called 'index' (it is the chapter's page)"))
    return problems


# --- site URLs ---------------------------------------------------------------------


def url_of(lang: str, path: str) -> str:
    """The site URL of a page path of one language's site: a folder.

    >>> url_of("ru", "index.md"), url_of("ru", "combat/index.md"), url_of("cs", "spellcasting/range.md")
    ('/ru/', '/ru/combat/', '/cs/spellcasting/range/')
    """
    stem = path[: -len(".md")]
    if stem == "index":
        stem = ""
    elif stem.endswith("/index"):
        stem = stem[: -len("/index")]
    return f"/{lang}/{stem}/" if stem else f"/{lang}/"


def page_url(library: Library, entry: Entry) -> str:
    """The site URL of the page that shows an entry (no anchor).

    >>> page_url(lib, lib.get("ru", "high-jump"))
    '/ru/combat/movement/'
    """
    return url_of(entry.lang, page_path(library, entry))


def entry_url(library: Library, entry: Entry) -> str:
    """The entry's address from the site root: its page and its anchor.

    >>> entry_url(lib, lib.get("ru", "high-jump"))
    '/ru/combat/movement/#high-jump'
    """
    return f"{page_url(library, entry)}#{entry.id}"


def share_url(entry: Entry) -> str:
    """The entry's own address to share: a small page with its title and first sentence that opens its anchor.

    Link previews ignore ``#fragments``, so an entry needs an address of its own.

    >>> share_url(lib.get("ru", "high-jump"))
    '/ru/r/high-jump/'
    """
    return f"/{entry.lang}/{SHARE_FOLDER}/{quote(entry.id)}/"


def share_path(entry: Entry) -> str:
    """Where :func:`share_url`'s page is written, relative to the language's site folder.

    >>> share_path(lib.get("cs", "range"))
    'r/range/index.html'
    """
    return f"{SHARE_FOLDER}/{entry.id}/index.html"


def absolute_url(site_url: str, url: str) -> str:
    """A site URL under the site's public address.

    >>> absolute_url("https://rules.example/d/", "/ru/combat/movement/#high-jump")
    'https://rules.example/d/ru/combat/movement/#high-jump'
    """
    return site_url.rstrip("/") + url


# --- relative hrefs ------------------------------------------------------------------


def href(from_url: str, to_url: str) -> str:
    """A relative link from one site URL (a folder) to another, fragment kept.

    >>> href("/ru/combat/movement/", "/ru/combat/movement/#long-jump")
    '#long-jump'
    >>> href("/ru/calculators/", "/ru/combat/movement/#long-jump")
    '../combat/movement/#long-jump'
    >>> href("/ru/combat/actions/", "/cs/spellcasting/range/#range")
    '../../../cs/spellcasting/range/#range'
    >>> href("/ru/", "/cs/"), href("/ru/a-z/", "/ru/a-z/")
    ('../cs/', './')
    """
    path, _, fragment = to_url.partition("#")
    rel = posixpath.relpath(path, from_url.rstrip("/") or "/")
    target = "" if rel == "." else rel + ("/" if path.endswith("/") else "")
    return target + (f"#{fragment}" if fragment else "") or "./"


def entry_href(library: Library, from_url: str, entry: Entry) -> str:
    """A relative link from a page (its site URL) to an entry, in any language's site.

    >>> entry_href(lib, "/ru/combat/actions/", lib.get("cs", "range"))
    '../../../cs/spellcasting/range/#range'
    """
    return href(from_url, entry_url(library, entry))


# --- «report a mistake» ---------------------------------------------------------------

REPORT_PLACEHOLDERS = ("lang", "id", "title", "url")


def report_href(pattern: str, *, lang: str, id: str, title: str, url: str) -> str:
    """A project's ``report_url`` filled in for one entry, each value URL-encoded.

    Only the four placeholders are replaced; any other brace stays as it is.

    >>> report_href("https://git.example/issues/new?title={lang}:{id}%20{title}&body={url}",
    ...             lang="ru", id="high-jump", title="Прыжок в высоту", url="https://r.example/ru/combat/movement/#high-jump")
    'https://git.example/issues/new?title=ru:high-jump%20%D0%9F%D1%80%D1%8B%D0%B6%D0%BE%D0%BA%20%D0%B2%20%D0%B2%D1%8B%D1%81%D0%BE%D1%82%D1%83&body=https%3A%2F%2Fr.example%2Fru%2Fcombat%2Fmovement%2F%23high-jump'
    >>> report_href("mailto:x@example.org?subject={id}&x={other}", lang="cs", id="a&b", title="", url="")
    'mailto:x@example.org?subject=a%26b&x={other}'
    """
    values = {"lang": lang, "id": id, "title": title, "url": url}
    out = pattern
    for name in REPORT_PLACEHOLDERS:
        out = out.replace("{" + name + "}", quote(values[name], safe=""))
    return out
