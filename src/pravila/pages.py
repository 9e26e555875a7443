"""The Markdown pages of one language's site, and the language chooser.

Pure functions: the library goes in, page texts and the navigation come out;
:mod:`pravila.site` writes them and runs MkDocs.  Same input, same bytes.

Pages: the home page, one page per chapter (its contents), one page per
section (:mod:`pravila.sections`), the A–Z index, the calculators page (when
the language has calculators).  Their addresses are :mod:`pravila.links`';
their markup is ``templates/*.md`` (:mod:`pravila.render`).
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from babel import Locale
from babel.core import get_global

from .collation import index_terms, is_latin_letter, letter_of
from .content import Chapter, Entry, Library
from .fidelity import split_sentences
from .languages import Language
from .links import (CALCULATORS_PAGE, HOME_PAGE, TERMS_PAGE, absolute_url, chapter_path, entry_url, href, md_href,
                    page_path, page_url, share_path, share_url, url_of)
from .render import Templates, Translator
from .sections import LinkView, SectionPage, WidgetFor, ambiguous_titles, entry_label

if TYPE_CHECKING:
    from .project import Project

__all__ = ["LanguageSite", "Page", "Translator", "chooser_html", "language_site", "not_found_html", "share_pages"]

CalculatorsPage = Callable[[str, Library], "str | None"]
WidgetData = Callable[[str, Library, list[str]], "str | None"]  # (lang, library, ids of a page's entries with widgets)


@dataclass(frozen=True)
class Page:
    path: str  # relative to the language's docs folder, e.g. "combat/movement.md"
    title: str  # navigation label
    markdown: str


@dataclass
class LanguageSite:
    """Everything MkDocs needs for one language, minus the config boilerplate."""

    lang: str
    site_name: str
    pages: list[Page]
    nav: list[Any]
    languages: tuple[str, ...] = ()  # every language that has a site, for the switcher

    def page(self, path: str) -> Page:
        return next(p for p in self.pages if p.path == path)


def language_site(
    project: "Project",
    library: Library,
    lang: str,
    *,
    widget_for: WidgetFor | None = None,
    calculators_page: CalculatorsPage | None = None,
    widget_data: WidgetData | None = None,
) -> LanguageSite:
    """All pages and the navigation of one language's site.

    ``widget_for`` gives the calculator after an entry's body, ``widget_data``
    the data block those widgets read (once per page), ``calculators_page``
    the calculators page (:mod:`pravila.widgets`).
    """
    templates = Templates(project.catalogs, lang)
    _ = templates.t._
    calculators = calculators_page(lang, library) if calculators_page is not None else None
    pages = [Page(HOME_PAGE, _("Home"), home_page(project, library, templates, calculators is not None))]
    nav: list[Any] = [{_("Home"): HOME_PAGE}]
    data = (lambda ids: widget_data(lang, library, ids)) if widget_data is not None else None
    ambiguous = ambiguous_titles(library, lang)
    sources: dict[str, Chapter | Entry] = {}  # a chapter's or a section's page → that chapter or section
    for chapter in library.chapters_in(lang):
        index = chapter_path(chapter)
        pages.append(Page(index, chapter.title, chapter_page(library, chapter, templates)))
        sources[index] = chapter
        chapter_nav: list[Any] = [index]
        for section in (e for e in library.entries_of(chapter) if e.parent is None):
            path = page_path(library, section)
            renderer = SectionPage(project, library, templates, path, ambiguous, widget_for)
            pages.append(Page(path, section.title, renderer.render(section, data)))
            sources[path] = section
            chapter_nav.append({section.title: path})
        nav.append({chapter.title: chapter_nav})
    pages.append(Page(TERMS_PAGE, _("A–Z index"), terms_page(library, project.language(lang), templates, ambiguous)))
    nav.append({_("A–Z index"): TERMS_PAGE})
    if calculators is not None:
        pages.append(Page(CALCULATORS_PAGE, _("Calculators"), calculators))
        nav.append({_("Calculators"): CALCULATORS_PAGE})
    languages = tuple(c for c in project.codes if library.chapters_in(c))
    others = [c for c in languages if c != lang]
    has_calculators = {lang: calculators is not None}
    if calculators_page is not None:
        has_calculators.update({c: calculators_page(c, library) is not None for c in others})
    pages = [
        Page(p.path, p.title, with_front_matter(p.markdown, page_meta(project, library, templates, p, sources.get(p.path),
                                                                      others, has_calculators)))
        for p in pages
    ]
    return LanguageSite(lang, _("Pravila"), pages, nav, languages)


# --- what a page says about itself: description, its real counterparts --------------


def first_sentence(library: Library, entry: Entry) -> str:
    """The first sentence of an entry's text, else of its first child that has text (a description)."""
    for e in [entry, *(library.get(entry.lang, c) for c in entry.children)]:
        if e is not None and e.body:
            sentences = split_sentences(library.text(e))
            if sentences:
                return sentences[0]
    return entry.title


def page_meta(project: "Project", library: Library, templates: Templates, page: Page, source: Chapter | Entry | None,
              others: list[str], has_calculators: dict[str, bool]) -> dict[str, Any]:
    """A page's front matter: its description, and the pages of other languages that really correspond.

    Only the home pages, the A–Z indexes and the calculators pages pair up,
    and a section page with a section of the other language that is its
    counterpart; a chapter page pairs with nothing (the chapters differ).
    Section pages say what their rules are about in their first sentence.
    ``source`` is the chapter or the section a page shows (None for the
    other pages); ``others``, the other languages that have a site.
    """
    _ = templates.t._
    lang = templates.lang
    alternates: dict[str, dict[str, str]] = {}  # lang → {url (from the site root), title}
    shared: list[str] = []  # the entries on the page: each has an address to share (share_pages)
    def alike(path: str, title: str, codes: list[str]) -> dict[str, dict[str, str]]:
        return {c: {"url": url_of(c, path), "title": Translator(project.catalogs, c)._(title)} for c in codes}

    if page.path == HOME_PAGE:
        description = _("The rules of Dungeons & Dragons, fifth edition, to read at the table: every rule with its "
                        "English name, its edition and its source, linked to the rules it mentions.")
        alternates = alike(HOME_PAGE, "Home", others)
    elif page.path == TERMS_PAGE:
        description = _("Every term in one list: titles, English names and the other names players use.")
        alternates = alike(TERMS_PAGE, "A–Z index", others)
    elif page.path == CALCULATORS_PAGE:
        description = _("Jumps, movement and other numbers for the table.")
        alternates = alike(CALCULATORS_PAGE, "Calculators", [c for c in others if has_calculators.get(c)])
    elif isinstance(source, Chapter):
        sections = [e.title for e in library.entries_of(source) if e.parent is None]
        description = f"{source.title}: {', '.join(sections)}"
    else:
        assert source is not None, page.path  # every other page is a section's
        section = source
        description = first_sentence(library, section)
        entries = [section]
        for e in entries:
            entries.extend(c for c in (library.get(lang, i) for i in e.children) if c is not None)
        shared = [e.id for e in entries]
        for cp in section.counterparts:
            other = library.by_key(cp.key)
            if other is not None and other.parent is None:
                alternates.setdefault(other.lang, {"url": page_url(library, other), "title": other.title})
    meta: dict[str, Any] = {"description": description}
    if alternates:
        meta["pv_alternates"] = alternates
    if shared:
        meta["pv_entries"] = shared
    return meta


def with_front_matter(markdown: str, meta: dict[str, Any]) -> str:
    r"""The page with ``meta`` added to its front matter (values as JSON, which YAML reads as they are).

    >>> with_front_matter("# T\n", {"description": 'a "b"'})
    '---\ndescription: "a \\"b\\""\n---\n\n# T\n'
    >>> with_front_matter("---\nhide:\n  - toc\n---\n\n# T\n", {"description": "x"})
    '---\nhide:\n  - toc\ndescription: "x"\n---\n\n# T\n'
    """
    lines = "".join(f"{key}: {json.dumps(value, ensure_ascii=False, sort_keys=True)}\n" for key, value in meta.items())
    if markdown.startswith("---\n"):
        end = markdown.index("\n---\n", 3)
        return markdown[: end + 1] + lines + markdown[end + 1 :]
    return f"---\n{lines}---\n\n{markdown}"


def og_locale(language: Language) -> str:
    """The Open Graph locale of a language (``ru_RU``, ``cs_CZ``).

    >>> og_locale(project.language("cs"))
    'cs_CZ'
    """
    locale = Locale.parse(language.locale)
    if locale.territory is None:
        locale = Locale.parse(get_global("likely_subtags").get(str(locale), str(locale)))
    return f"{locale.language}_{locale.territory}" if locale.territory else locale.language


# --- a page per entry, to share -----------------------------------------------------


def share_pages(project: "Project", library: Library, lang: str) -> list[tuple[str, str]]:
    """``(path, html)`` of each entry's own small page: ``r/<id>/index.html`` of the language's site.

    Link previews (Telegram, Discord, search engines) ignore ``#fragments``:
    each entry gets an address whose page carries its title and first
    sentence as Open Graph and Twitter tags, and sends a reader on to the
    entry's anchor.  The permalinks offer it.
    """
    templates = Templates(project.catalogs, lang)
    site_name, go_on = templates.t._("Pravila"), templates.t._("Open the rule")
    locale = og_locale(project.language(lang))
    out = []
    for e in library.in_lang(lang):
        here = share_url(e)
        target = href(here, entry_url(library, e))
        alternates = []
        for cp in e.counterparts:
            other = library.by_key(cp.key)
            if other is not None:
                alternates.append({"lang": other.lang, "href": absolute_url(project.site_url, share_url(other))})
        html = templates.render(
            "share.html",
            entry=e,
            site_name=site_name,
            description=first_sentence(library, e),
            url=absolute_url(project.site_url, here),
            canonical=absolute_url(project.site_url, page_url(library, e)),
            target=target,
            locale=locale,
            alternates=alternates,
            go_on=go_on,
        )
        out.append((share_path(e), str(html)))
    return out


# --- home, chapter, A–Z -------------------------------------------------------------


def home_page(project: "Project", library: Library, templates: Templates, has_calculators: bool) -> str:
    lang, path = templates.lang, HOME_PAGE
    chapters = []
    for chapter in library.chapters_in(lang):
        sections = [e for e in library.entries_of(chapter) if e.parent is None]
        chapters.append({
            "chapter": chapter,
            "href": md_href(path, chapter_path(chapter)),
            "count": len(library.entries_of(chapter)),
            "sections": [LinkView(s.title, md_href(path, page_path(library, s))) for s in sections],
        })
    others = [
        {
            "code": other,
            "name": project.language(other).name,
            "href": href(url_of(lang, HOME_PAGE), url_of(other, HOME_PAGE)),  # raw HTML: across sites
            "chapters": ", ".join(c.title for c in library.chapters_in(other)),
        }
        for other in project.codes
        if other != lang and library.chapters_in(other)
    ]
    return str(templates.render(
        "home.md",
        chapters=chapters,
        az_href=md_href(path, TERMS_PAGE),
        calculators_href=md_href(path, CALCULATORS_PAGE) if has_calculators else None,
        others=others,
    ))


def chapter_page(library: Library, chapter: Chapter, templates: Templates) -> str:
    path = chapter_path(chapter)
    entries = library.entries_of(chapter)

    def item(e: Entry) -> dict[str, Any]:
        children = [library.get(e.lang, c) for c in e.children]
        return {
            "entry": e,
            "href": md_href(path, page_path(library, e), e.id if e.parent else None),
            "children": [item(c) for c in children if c is not None],
        }

    items = [item(e) for e in entries if e.parent is None]
    return str(templates.render("chapter.md", chapter=chapter, count=len(entries), items=items))


def terms_page(library: Library, lang: Language, templates: Templates, ambiguous: set[str]) -> str:
    path = TERMS_PAGE

    def target(e: Entry, text: str | None = None) -> LinkView:
        title, context = entry_label(library, e, ambiguous)
        return LinkView(text or title, md_href(path, page_path(library, e), e.id), context)

    terms = index_terms(library, lang)
    groups: dict[str, list[dict[str, Any]]] = {}
    for term in terms:
        key = term.display.casefold()
        direct = [e for e in term.targets if e.title.casefold() == key]
        if len(term.targets) == 1 and direct:
            e = direct[0]
            section = library.section_of(e)
            row = {"entry": e, "link": target(e, term.display), "where": section.title if section is not e else None}
        else:
            row = {"entry": None, "term": term, "targets": [target(e) for e in term.targets]}
        groups.setdefault(letter_of(term.display, lang), []).append(row)
    # A Cyrillic «А» and a Latin «A» look the same: mark where the Latin part starts.
    first_latin = next((l for l in groups if lang.script != "Latin" and is_latin_letter(l)), None)
    letters = [
        {"letter": letter, "id": f"letter-{i}", "latin_starts": letter == first_latin, "rows": rows}
        for i, (letter, rows) in enumerate(groups.items(), 1)
    ]
    return str(templates.render("a-z.md", groups=letters, count=len(terms)))


# --- the root chooser ------------------------------------------------------------------


def _published(project: "Project", library: Library) -> list[tuple[str, Translator]]:
    """The languages that get a site (those with chapters), in the project's order, each with its words."""
    return [(code, Translator(project.catalogs, code)) for code in project.codes if library.chapters_in(code)]


def chooser_html(project: "Project", library: Library) -> str:
    """``/index.html``: the language chooser of a static host (``pravila serve`` negotiates instead)."""
    sites = []
    for code, t in _published(project, library):
        sites.append({
            "code": code,
            "name": project.language(code).name,
            "site_name": t._("Pravila"),
            "ask": t._("Choose your language"),
            "chapters": ", ".join(c.title for c in library.chapters_in(code)),
        })
    first = sites[0]["code"] if sites else "en"
    return str(Templates(project.catalogs, first).render("chooser.html", sites=sites, first=first))


def not_found_html(project: "Project", library: Library) -> str:
    """``/404.html``: what a static host shows for a missing address outside the language sites.

    Every language's words, the reader's first (site.js's choice, or the
    address's language); links from the site's root path, since a host
    serves it at whatever address was missing.
    """
    root = urlsplit(project.site_url).path
    sites = []
    for code, t in _published(project, library):
        sites.append({
            "code": code,
            "name": project.language(code).name,
            "title": t._("Page not found"),
            "text": t._("There is no page at this address. The rule may have moved: search for it, or look it up in "
                        "the A–Z index."),
            "home": t._("Home"),
            "home_href": f"{root}{code}/",
            "a_z": t._("A–Z index"),
            "a_z_href": f"{root}{code}/a-z/",
            "search_for": t._("Search for «%(query)s»"),
        })
    first = sites[0]["code"] if sites else "en"
    return str(Templates(project.catalogs, first).render("not-found.html", sites=sites, first=first, root=root))
