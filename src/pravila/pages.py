"""The Markdown pages of one language's site, and the language chooser.

Pure functions: the library goes in, page texts and the navigation come out;
:mod:`pravila.site` writes them and runs MkDocs.  Same input, same bytes.

Pages: the home page, one page per chapter (its contents), one page per
section (:mod:`pravila.sections`), the A–Z index, the calculators page (when
the language has calculators).  Their addresses are :mod:`pravila.links`';
their markup is ``templates/*.md`` (:mod:`pravila.render`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from .collation import index_terms, is_latin_letter, letter_of
from .content import Chapter, Entry, Library
from .languages import Language
from .links import CALCULATORS_PAGE, HOME_PAGE, TERMS_PAGE, chapter_path, href, md_href, page_path, path_problems, url_of
from .render import Templates, Translator
from .sections import LinkView, SectionPage, WidgetFor, ambiguous_titles, entry_label

if TYPE_CHECKING:
    from .project import Project

__all__ = ["LanguageSite", "Page", "Translator", "chooser_html", "language_site", "path_problems"]

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
    for chapter in library.chapters_in(lang):
        index = chapter_path(chapter)
        pages.append(Page(index, chapter.title, chapter_page(library, chapter, templates)))
        chapter_nav: list[Any] = [index]
        for section in (e for e in library.entries_of(chapter) if e.parent is None):
            path = page_path(library, section)
            renderer = SectionPage(project, library, templates, path, widget_for)
            pages.append(Page(path, section.title, renderer.render(section, data)))
            chapter_nav.append({section.title: path})
        nav.append({chapter.title: chapter_nav})
    pages.append(Page(TERMS_PAGE, _("A–Z index"), terms_page(library, project.language(lang), templates)))
    nav.append({_("A–Z index"): TERMS_PAGE})
    if calculators is not None:
        pages.append(Page(CALCULATORS_PAGE, _("Calculators"), calculators))
        nav.append({_("Calculators"): CALCULATORS_PAGE})
    languages = tuple(c for c in project.codes if library.chapters_in(c))
    return LanguageSite(lang, _("Pravila"), pages, nav, languages)


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


def terms_page(library: Library, lang: Language, templates: Templates) -> str:
    path = TERMS_PAGE
    ambiguous = ambiguous_titles(library, lang.code)

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


def chooser_html(project: "Project", library: Library) -> str:
    """``/index.html``: the language chooser of a static host (``pravila serve`` negotiates instead)."""
    sites = []
    for code in (c for c in project.codes if library.chapters_in(c)):
        t = Translator(project.catalogs, code)
        sites.append({
            "code": code,
            "name": project.language(code).name,
            "site_name": t._("Pravila"),
            "ask": t._("Choose your language"),
            "chapters": ", ".join(c.title for c in library.chapters_in(code)),
        })
    first = sites[0]["code"] if sites else "en"
    return str(Templates(project.catalogs, first).render("chooser.html", sites=sites, first=first))
