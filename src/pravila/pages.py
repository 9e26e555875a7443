"""The Markdown pages of one language's site, generated from the library.

Pure functions: the library goes in, page texts and the navigation come out;
:mod:`pravila.site` writes them and runs MkDocs.  Same input, same bytes.

One page per top-level entry at ``{chapter}/{section}.md`` (so the URL is
``/{lang}/{chapter}/{section}/``, see :mod:`pravila.urls`), every entry an
anchor ``#id`` on it:

- ``heading`` entries are Markdown headings ``## Title {#id}``;
- ``run-in`` entries are a ``<div class="pv-entry">`` whose first paragraph
  (``**Title.** text…``) carries the id;
- ``list-item`` entries are items of one ``<ul>`` per run of siblings, the
  item's first paragraph carrying the id.

Links to rules carry ``{ data-preview }``: Material's hover previews are on
rule links only (not on permalinks, navigation or tools).

Rules text stays exactly as in the YAML; everything added around it (labels,
badges, «see also», the A–Z index) comes from the gettext domain
``messages``.
"""

from __future__ import annotations

import html
import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .analysis import fold
from .content import Chapter, Entry, Library, Problem
from .i18n import Catalogs
from .languages import Language
from .markup import Ref, rewrite_refs
from .urls import page_path

if TYPE_CHECKING:
    from .project import Project

HOME_PAGE = "index.md"
TERMS_PAGE = "a-z.md"
CALCULATORS_PAGE = "calculators.md"
RESERVED_PATHS = {"index", "a-z", "calculators", "assets", "search", "404"}

WidgetFor = Callable[[str, str, Library], "str | None"]
CalculatorsPage = Callable[[str, Library], "str | None"]


class Translator:
    """The ``messages`` catalog of one language.

    ``t._("See also")``, ``t.ngettext("%(num)d link", "%(num)d links", 3)``:
    the call shapes ``pybabel extract`` recognises.
    """

    def __init__(self, catalogs: Catalogs, lang: str):
        self.catalogs = catalogs
        self.lang = lang

    def _(self, message: str) -> str:
        return self.catalogs.gettext(self.lang, message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalogs.ngettext(self.lang, singular, plural, n) % {"num": n}


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


# --- paths and links ---------------------------------------------------------


def page_url(path: str) -> str:
    """The directory URL of a page, relative to its language root.

    >>> page_url("index.md"), page_url("combat/index.md"), page_url("combat/movement.md")
    ('', 'combat/', 'combat/movement/')
    """
    stem = path[: -len(".md")]
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def md_link(from_path: str, to_path: str, anchor: str | None = None) -> str:
    """A relative Markdown link target (MkDocs resolves and validates it).

    >>> md_link("combat/movement.md", "combat/actions.md", "grapple")
    'actions.md#grapple'
    >>> md_link("combat/movement.md", "combat/movement.md", "high-jump")
    '#high-jump'
    >>> md_link("a-z.md", "combat/movement.md", "high-jump")
    'combat/movement.md#high-jump'
    """
    frag = f"#{anchor}" if anchor else ""
    if from_path == to_path:
        return frag or posixpath.basename(to_path)
    rel = posixpath.relpath(to_path, posixpath.dirname(from_path) or ".")
    return rel + frag


PREVIEW = "{ data-preview }"
"""attr_list suffix of a rule link: Material shows the target in a tooltip on hover."""


def rule_link(text: str, target: str) -> str:
    """A Markdown link to a rule, with Material's hover preview.

    >>> rule_link("захвата", "actions.md#grapple")
    '[захвата](actions.md#grapple){ data-preview }'
    """
    return f"[{text}]({target}){PREVIEW}"


def cross_site_href(from_lang: str, from_path: str, to_lang: str, to_path: str, anchor: str | None = None) -> str:
    """A relative URL from a page of one language's site to a page of the other.

    Written as raw HTML (MkDocs cannot see across sites; the tests check it).

    >>> cross_site_href("ru", "combat/actions.md", "cs", "spellcasting/range.md", "range")
    '../../../cs/spellcasting/range/#range'
    >>> cross_site_href("ru", "index.md", "cs", "index.md")
    '../cs/'
    """
    here = f"/{from_lang}/{page_url(from_path)}"
    there = f"/{to_lang}/{page_url(to_path)}"
    rel = posixpath.relpath(there, here) + "/"
    return rel + (f"#{anchor}" if anchor else "")


# --- escaping ----------------------------------------------------------------

_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#|])")


def md_text(text: str) -> str:
    """Plain text made safe for inline Markdown (titles in headings and links).

    >>> md_text("Verbální (V) *x* <b>")
    'Verbální (V) \\\\*x\\\\* &lt;b&gt;'
    """
    return _MD_SPECIAL.sub(r"\\\1", html.escape(text, quote=False))


def esc(text: str) -> str:
    return html.escape(text, quote=True)


# --- collation for the A–Z index ----------------------------------------------

_LATIN = "abcdefghijklmnopqrstuvwxyz"


def _units(text: str, lang: Language) -> list[str]:
    """The collation units of a word: letters, with digraphs of the alphabet (Czech «ch») as one letter."""
    s = unicodedata.normalize("NFC", text.casefold())
    digraphs = sorted((u for u in lang.alphabet if len(u) > 1), key=len, reverse=True)
    out, i = [], 0
    while i < len(s):
        unit = next((d for d in digraphs if s.startswith(d, i)), s[i])
        out.append(unit)
        i += len(unit)
    return out


def _primary(unit: str, lang: Language) -> str:
    """The letter a unit sorts as: itself when the alphabet has it, else its letter fold or its base letter."""
    if unit in lang.alphabet:
        return unit
    folded = lang.fold_letters(unit)
    return folded if folded in lang.alphabet else fold(unit)


def _rank(unit: str, lang: Language) -> tuple[int, int, str]:
    p = _primary(unit, lang)
    if p in lang.alphabet:
        return (1, lang.alphabet.index(p), "")
    if p in _LATIN:
        return (2, _LATIN.index(p), "")  # Latin words in a list of another script come after it
    if p.isdigit():
        return (0, int(p), "")
    return (3, 0, p)


def collation_key(text: str, lang: Language) -> tuple:
    """Sort key following the language's alphabet (Czech «ch» after «h»; Russian «ё» as «е», Latin after Cyrillic).

    >>> sorted(["cíl", "chyba", "hod", "čas", "Cantrip"], key=lambda w: collation_key(w, cs))
    ['Cantrip', 'cíl', 'čas', 'hod', 'chyba']
    >>> sorted(["ёж", "яма", "атака", "attack", "ежевика"], key=lambda w: collation_key(w, ru))
    ['атака', 'ёж', 'ежевика', 'яма', 'attack']
    """
    units = [u for u in _units(text, lang) if u.isalnum() or len(u) > 1]
    primary = tuple(_rank(u, lang) for u in units)
    secondary = tuple(units)
    return (primary, secondary, text)


def letter_of(text: str, lang: Language) -> str:
    """The index letter a term is listed under.

    >>> letter_of("Chyba", cs), letter_of("Účinky", cs), letter_of("Ёлка", ru), letter_of("3 + x", ru)
    ('Ch', 'U', 'Е', '#')
    """
    for u in _units(text, lang):
        if not (u.isalnum() or len(u) > 1):
            continue
        rank = _rank(u, lang)
        if rank[0] in (1, 2):
            p = _primary(u, lang)
            return p[:1].upper() + p[1:]
        return "#"
    return "#"


# --- the pages -----------------------------------------------------------------


def language_site(
    project: "Project",
    library: Library,
    lang: str,
    *,
    widget_for: WidgetFor | None = None,
    calculators_page: CalculatorsPage | None = None,
) -> LanguageSite:
    """All pages and the navigation of one language's site."""
    t = Translator(project.catalogs, lang)
    chapters = library.chapters_in(lang)
    calculators = calculators_page(lang, library) if calculators_page is not None else None
    pages: list[Page] = [Page(HOME_PAGE, t._("Home"), _home_page(project, library, lang, t, calculators is not None))]
    nav: list[Any] = [{t._("Home"): HOME_PAGE}]
    for chapter in chapters:
        sections = [e for e in library.entries_of(chapter) if e.parent is None]
        chapter_index = f"{chapter.id}/index.md"
        pages.append(Page(chapter_index, chapter.title, _chapter_page(library, chapter, t)))
        chapter_nav: list[Any] = [chapter_index]
        for section in sections:
            path = page_path(library, section)
            renderer = _EntryRenderer(project, library, lang, t, path, widget_for)
            pages.append(Page(path, section.title, renderer.section_page(section)))
            chapter_nav.append({section.title: path})
        nav.append({chapter.title: chapter_nav})
    pages.append(Page(TERMS_PAGE, t._("A–Z index"), _terms_page(library, project.language(lang), t)))
    nav.append({t._("A–Z index"): TERMS_PAGE})
    if calculators is not None:
        pages.append(Page(CALCULATORS_PAGE, t._("Calculators"), calculators))
        nav.append({t._("Calculators"): CALCULATORS_PAGE})
    languages = tuple(c for c in project.codes if library.chapters_in(c))
    return LanguageSite(lang, t._("Pravila"), pages, nav, languages)


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


def _front_matter(**meta: Any) -> str:
    lines = ["---"]
    for key, value in meta.items():
        if isinstance(value, list):
            lines.append(f"{key}:")
            lines.extend(f"  - {v}" for v in value)
        else:
            lines.append(f"{key}: {value}")
    lines.append("---")
    return "\n".join(lines)


def _join(blocks: list[str]) -> str:
    return "\n\n".join(b.strip("\n") for b in blocks if b and b.strip()) + "\n"


def _badge(t: Translator, edition: int) -> str:
    title = t._("Rules of the %(year)s edition") % {"year": edition}
    return f'<span class="pv-badge pv-badge--{edition}" title="{esc(title)}">{edition}</span>'


def _kind_label(t: Translator, kind: str | None) -> str | None:
    # Spelled out so that pybabel finds every label.
    labels = {
        "movement": t._("Movement"),
        "action": t._("Action"),
        "bonus action": t._("Bonus action"),
        "reaction": t._("Reaction"),
        "free activity": t._("Free activity"),
        "optional action": t._("Optional action"),
    }
    return labels.get(kind or "")


def _meta_html(t: Translator, *, en: str, edition: int, source: str, kind: str | None = None, tag: str = "p") -> str:
    parts = []
    label = _kind_label(t, kind)
    if label:
        parts.append(f'<span class="pv-kind pv-kind--{kind.replace(" ", "-")}">{esc(label)}</span>')  # type: ignore[union-attr]
    en_title, source_title = t._("English name"), t._("Source")
    parts.append(f'<span class="pv-en" lang="en" title="{esc(en_title)}">{esc(en)}</span>')
    parts.append(_badge(t, edition))
    parts.append(f'<span class="pv-source" title="{esc(source_title)}">{esc(source)}</span>')
    return f'<{tag} class="pv-meta">' + " ".join(parts) + f"</{tag}>"


def _ambiguous_titles(library: Library, lang: str) -> set[str]:
    seen: dict[str, int] = {}
    for e in library.in_lang(lang):
        seen[e.title.casefold()] = seen.get(e.title.casefold(), 0) + 1
    return {k for k, n in seen.items() if n > 1}


def entry_label(library: Library, entry: Entry, ambiguous: set[str]) -> tuple[str, str | None]:
    """The entry's title and, when another entry has the same title, its parent's title."""
    if entry.title.casefold() in ambiguous:
        parent = library.parent_of(entry)
        if parent is not None:
            return entry.title, parent.title
    return entry.title, None


class _EntryRenderer:
    """Renders the entries of one section page."""

    def __init__(self, project: "Project", library: Library, lang: str, t: Translator, path: str, widget_for: WidgetFor | None):
        self.project = project
        self.library = library
        self.lang = lang
        self.t = t
        self.path = path
        self.widget_for = widget_for
        self.ambiguous = _ambiguous_titles(library, lang)

    # links ---------------------------------------------------------------

    def link_to(self, entry: Entry) -> str:
        return md_link(self.path, page_path(self.library, entry), entry.id)

    def ref(self, ref: Ref) -> str:
        if ref.undefined:
            tip = self.t._("Defined elsewhere in the rules")
            return f'<span class="term-undefined" title="{esc(tip)}">{ref.text}</span>'
        target_lang = ref.lang or self.lang
        target = self.library.get(target_lang, ref.target)
        if target is None:  # load_library reports it; never reached for clean content
            return ref.text or ref.target
        text = ref.text or md_text(target.title)
        if target_lang == self.lang:
            return rule_link(text, self.link_to(target))
        href = cross_site_href(self.lang, self.path, target_lang, page_path(self.library, target), target.id)
        return f'<a href="{esc(href)}" hreflang="{target_lang}" lang="{target_lang}" target="_self">{text}</a>'

    def markdown(self, text: str) -> str:
        return rewrite_refs(text, self.ref)

    # page ----------------------------------------------------------------

    def section_page(self, section: Entry) -> str:
        return _join(self.entry(section, level=1))

    def entry(self, e: Entry, level: int) -> list[str]:
        if e.form == "heading":
            return self.heading_entry(e, level)
        return self.run_in_entry(e, level)

    def heading_entry(self, e: Entry, level: int) -> list[str]:
        blocks = [f"{'#' * min(level, 6)} {md_text(e.title)} {{#{e.id}}}"]
        blocks.append(_meta_html(self.t, en=e.en, edition=e.edition, source=e.source, kind=e.kind))
        blocks += self.caption(e)
        if e.body:
            blocks.append(self.markdown(e.body))
        blocks += self.after_body(e)
        blocks += self.children(e, level + 1)
        return blocks

    def run_in_entry(self, e: Entry, level: int) -> list[str]:
        """A run-in or list-item entry: ``**Title.** body…`` with the id on that paragraph."""
        title = e.title if e.title.endswith((".", "!", "?", ":")) else e.title + "."
        lead = f"**{md_text(title)}**"
        first, rest = (e.body.split("\n\n", 1) + [""])[:2] if e.body else ("", "")
        attrs = f"{{: #{e.id} .pv-lead }}"
        blocks = self.caption(e)
        if first and not _starts_block(first):
            blocks.append(f"{lead} {self.markdown(first)}\n{attrs}")
            if rest:
                blocks.append(self.markdown(rest))
        else:
            blocks.append(f"{lead}\n{attrs}")
            if e.body:
                blocks.append(self.markdown(e.body))
        blocks += self.after_body(e, meta=True)
        blocks += self.children(e, level)
        if e.form == "list-item":
            return [f'<li class="pv-entry pv-entry--list-item" markdown="block">\n\n{_join(blocks)}\n</li>']
        return [f'<div class="pv-entry pv-entry--run-in" markdown>\n\n{_join(blocks)}\n</div>']

    def caption(self, e: Entry) -> list[str]:
        if not e.caption:
            return []
        text = self.t._("Illustration")
        label = f'<span class="pv-caption__label">{esc(text)}</span>'
        return [f"{label} {self.markdown(e.caption)}\n{{: .pv-caption }}"]

    def after_body(self, e: Entry, meta: bool = False) -> list[str]:
        blocks = []
        if self.widget_for is not None:
            widget = self.widget_for(e.id, e.lang, self.library)
            if widget:
                blocks.append(widget)
        if meta:
            blocks.append(_meta_html(self.t, en=e.en, edition=e.edition, source=e.source, kind=e.kind))
        blocks += self.counterparts(e)
        blocks += self.backlinks(e)
        return blocks

    def children(self, e: Entry, level: int) -> list[str]:
        blocks: list[str] = []
        items: list[str] = []
        for child_id in e.children:
            child = self.library.get(e.lang, child_id)
            if child is None:
                continue
            if child.form == "list-item":
                items += self.entry(child, level)
                continue
            if items:
                blocks.append(_list(items))
                items = []
            blocks += self.entry(child, level)
        if items:
            blocks.append(_list(items))
        return blocks

    def backlinks(self, e: Entry) -> list[str]:
        sources = self.library.backlinks(e)
        if not sources:
            return []
        links = []
        for b in sources:
            title, context = entry_label(self.library, b, self.ambiguous)
            link = rule_link(md_text(title), self.link_to(b))
            if context:
                link += f' <span class="pv-context">({esc(context)})</span>'
            links.append(link)
        label = esc(self.t._("See also"))
        count = esc(self.t.ngettext("%(num)d link", "%(num)d links", len(sources)))
        head = f'<span class="pv-backlinks__label">{label}</span> <span class="pv-backlinks__count">{count}</span>'
        items = "\n".join(f"- {link}" for link in links)
        return [f'<div class="pv-backlinks" markdown>\n\n{head}\n\n{items}\n\n</div>']

    def counterparts(self, e: Entry) -> list[str]:
        """Links to the same rule in the other language, with the editorial notes.

        When the editions differ the block says so once, above the links.
        """
        others = [(cp, self.library.by_key(cp.key)) for cp in e.counterparts]
        others = [(cp, o) for cp, o in others if o is not None]
        if not others:
            return []
        lines = []
        differing = sorted({o.edition for _, o in others if o.edition != e.edition})  # type: ignore[union-attr]
        if differing:
            diff = self.t._("The editions differ: these are the %(here)s rules, the counterpart follows the %(there)s rules.")
            there = ", ".join(str(y) for y in differing)
            lines.append(f'<p class="pv-counterparts__diff">{esc(diff % {"here": e.edition, "there": there})}</p>')
        for cp, other in others:
            assert other is not None
            href = cross_site_href(self.lang, self.path, other.lang, page_path(self.library, other), other.id)
            parent = self.library.parent_of(other)
            context = f' <span class="pv-context" lang="{other.lang}">({esc(parent.title)})</span>' if parent else ""
            lines.append(
                f'<p class="pv-counterpart"><span class="pv-counterpart__lang" lang="{other.lang}">'
                f"{esc(self.project.language(other.lang).name)}</span> "
                f'<a href="{esc(href)}" hreflang="{other.lang}" lang="{other.lang}" target="_self">{esc(other.title)}</a>'
                f"{context} {_badge(self.t, other.edition)}</p>"
            )
            note, note_lang = cp.note, e.lang
            if not note:  # a pair declared on the other side: its note, in its language
                mirror = next((c for c in other.counterparts if c.key == e.key), None)
                note, note_lang = (mirror.note if mirror else None), other.lang
            if note:
                lines.append(f'<p class="pv-counterpart__note" lang="{note_lang}">{esc(note)}</p>')
        return ['<div class="pv-counterparts">\n' + "\n".join(lines) + "\n</div>"]


_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+\.\s|\||#|>|<)")


def _starts_block(paragraph: str) -> bool:
    """Whether a body's first block is something other than a paragraph."""
    return bool(_BLOCK_START.match(paragraph))


def _list(items: list[str]) -> str:
    return '<ul class="pv-list" markdown>\n' + "\n".join(items) + "\n</ul>"


# --- home, chapter, index pages --------------------------------------------------


def _home_page(project: "Project", library: Library, lang: str, t: Translator, has_calculators: bool) -> str:
    path = HOME_PAGE
    blocks = [_front_matter(hide=["navigation", "toc"])]
    site_name = t._("Pravila")
    lede = t._(
        "The rules of Dungeons & Dragons, fifth edition, to read at the table: every rule with its "
        "English name, its edition and its source, linked to the rules it mentions."
    )
    az_title = t._("A–Z index")
    az_text = t._("Every term in one list: titles, English names and the other names players use.")
    calc_title = t._("Calculators")
    calc_text = t._("Jumps, movement and other numbers for the table.")
    blocks.append(f"# {md_text(site_name)} {{#home}}")
    blocks.append(f'<p class="pv-lede">{esc(lede)}</p>')
    cards = []
    for chapter in library.chapters_in(lang):
        sections = [e for e in library.entries_of(chapter) if e.parent is None]
        count = t.ngettext("%(num)d rule", "%(num)d rules", len(library.entries_of(chapter)))
        links = "\n".join(f"- {rule_link(md_text(s.title), md_link(path, page_path(library, s)))}" for s in sections)
        cards.append(
            f'<div class="pv-card" markdown>\n\n'
            f"## [{md_text(chapter.title)}]({md_link(path, f'{chapter.id}/index.md')}) {{#chapter-{chapter.id}}}\n\n"
            f"{_meta_html(t, en=chapter.en, edition=chapter.edition, source=chapter.source)}\n\n"
            f'<p class="pv-count">{esc(count)}</p>\n\n{links}\n\n</div>'
        )
    tools = [
        f'<div class="pv-card pv-card--tool" markdown>\n\n## [{md_text(az_title)}]({md_link(path, TERMS_PAGE)}) {{#a-z-index}}\n\n'
        f"{md_text(az_text)}\n\n</div>"
    ]
    if has_calculators:
        tools.append(
            f'<div class="pv-card pv-card--tool" markdown>\n\n## [{md_text(calc_title)}]({md_link(path, CALCULATORS_PAGE)}) {{#calculators}}\n\n'
            f"{md_text(calc_text)}\n\n</div>"
        )
    blocks.append('<div class="pv-cards" markdown>\n\n' + "\n\n".join(cards + tools) + "\n\n</div>")
    others = []
    for other in (c for c in project.codes if c != lang and library.chapters_in(c)):
        href = cross_site_href(lang, path, other, HOME_PAGE)
        chapter_titles = ", ".join(c.title for c in library.chapters_in(other))
        others.append(
            f'<a class="pv-other-site" href="{esc(href)}" hreflang="{other}" lang="{other}" target="_self">'
            f"<strong>{esc(project.language(other).name)}</strong> <span>{esc(chapter_titles)}</span></a>"
        )
    if others:
        label = esc(t._("In the other language"))
        blocks.append(f'<div class="pv-other-sites"><p class="pv-other-sites__label">{label}</p>\n' + "\n".join(others) + "\n</div>")
    return _join(blocks)


def _chapter_page(library: Library, chapter: Chapter, t: Translator) -> str:
    path = f"{chapter.id}/index.md"
    entries = library.entries_of(chapter)
    blocks = [f"# {md_text(chapter.title)} {{#{chapter.id}}}"]
    blocks.append(_meta_html(t, en=chapter.en, edition=chapter.edition, source=chapter.source))
    count = t.ngettext("%(num)d rule", "%(num)d rules", len(entries))
    blocks.append(f'<p class="pv-count">{esc(count)}</p>')

    def item(e: Entry, depth: int) -> list[str]:
        line = f"{'    ' * depth}- " + rule_link(md_text(e.title), md_link(path, page_path(library, e), e.id if e.parent else None))
        line += f' <span class="pv-en" lang="en">{esc(e.en)}</span>'
        out = [line]
        for child_id in e.children:
            child = library.get(e.lang, child_id)
            if child is not None:
                out += item(child, depth + 1)
        return out

    lines: list[str] = []
    for e in entries:
        if e.parent is None:
            lines += item(e, 0)
    blocks.append('<div class="pv-contents" markdown>\n\n' + "\n".join(lines) + "\n\n</div>")
    return _join(blocks)


@dataclass
class _Term:
    display: str
    english: bool
    is_title: bool
    targets: list[Entry] = field(default_factory=list)


def index_terms(library: Library, lang: Language) -> list[_Term]:
    """Every term of a language — titles, English names, aliases — sorted, one row per spelling."""
    terms: dict[str, _Term] = {}

    def add(text: str, entry: Entry, *, english: bool, is_title: bool) -> None:
        text = text.strip()
        if not text:
            return
        key = unicodedata.normalize("NFC", text).casefold()
        term = terms.get(key)
        if term is None:
            term = terms[key] = _Term(text, english, is_title)
        else:
            term.is_title = term.is_title or is_title
            term.english = term.english and english
        if entry not in term.targets:
            term.targets.append(entry)

    entries = library.in_lang(lang.code)
    for e in entries:
        add(e.title, e, english=False, is_title=True)
    for e in entries:
        add(e.en, e, english=True, is_title=False)
    for e in entries:
        for alias in e.aliases:
            # In a language of another script a Latin alias is English; in a Latin-script one it cannot be told.
            add(alias, e, english=_is_latin(alias) and lang.script != "Latin", is_title=False)
    return sorted(terms.values(), key=lambda term: collation_key(term.display, lang))


def _is_latin(text: str) -> bool:
    return all(not ch.isalpha() or ("LATIN" in unicodedata.name(ch, "")) for ch in text)


def _terms_page(library: Library, lang: Language, t: Translator) -> str:
    path = TERMS_PAGE
    ambiguous = _ambiguous_titles(library, lang.code)
    terms = index_terms(library, lang)
    groups: dict[str, list[_Term]] = {}
    for term in terms:
        groups.setdefault(letter_of(term.display, lang), []).append(term)
    letters = list(groups)
    letter_ids = {letter: f"letter-{i + 1}" for i, letter in enumerate(letters)}

    def target_link(e: Entry, text: str | None = None) -> str:
        title, context = entry_label(library, e, ambiguous)
        link = rule_link(md_text(text or title), md_link(path, page_path(library, e), e.id))
        if context:
            link += f' <span class="pv-context">({esc(context)})</span>'
        return link

    def word(term: _Term) -> str:
        attr = ' lang="en"' if term.english else ""
        cls = "pv-term pv-term--title" if term.is_title else "pv-term"
        return f'<span class="{cls}"{attr}>{esc(term.display)}</span>'

    title = t._("A–Z index")
    lede = t._("Every term in one list: titles, English names and the other names players use.")
    count = t.ngettext("%(num)d term", "%(num)d terms", len(terms))
    no_match = t._("No term matches.")
    latin_label = t._("Terms in Latin script")
    # A Cyrillic «А» and a Latin «A» look the same: mark where the Latin part starts.
    first_latin = next((l for l in letters if lang.script != "Latin" and l.isascii() and l.isalpha()), None)
    blocks = [_front_matter(hide=["navigation", "toc"]), f"# {md_text(title)} {{#a-z}}"]
    blocks.append(f'<p class="pv-lede">{esc(lede)} <span class="pv-count">{esc(count)}</span></p>')
    placeholder = esc(t._("Filter the terms"))
    blocks.append(
        f'<div class="pv-az-tools"><input type="search" class="pv-az-filter" placeholder="{placeholder}" '
        f'aria-label="{placeholder}" autocomplete="off" hidden></div>'
    )
    blocks.append(
        '<nav class="pv-az-letters" markdown>\n'
        + " ".join(
            (f'<span class="pv-az-sep">{esc(latin_label)}</span> ' if letter == first_latin else "")
            + f"[{md_text(letter)}](#{letter_ids[letter]})"
            for letter in letters
        )
        + "\n</nav>"
    )
    for letter in letters:
        rows = []
        for term in groups[letter]:
            key = term.display.casefold()
            direct = [e for e in term.targets if e.title.casefold() == key]
            if len(term.targets) == 1 and direct:
                e = direct[0]
                row = target_link(e, term.display)
                row += f' <span class="pv-en" lang="en">{esc(e.en)}</span>'
                section = library.section_of(e)
                if section is not e:
                    row += f' <span class="pv-where">{esc(section.title)}</span>'
                rows.append(f'- {row}\n{{: .pv-az-row .pv-az-row--title }}')
            else:
                targets = ", ".join(target_link(e) for e in term.targets)
                rows.append(f"- {word(term)} <span class=\"pv-arrow\">→</span> {targets}\n{{: .pv-az-row }}")
        if letter == first_latin:
            blocks.append(f'<p class="pv-az-part">{esc(latin_label)}</p>')
        blocks.append(f'<section class="pv-az-group" markdown>\n\n## {md_text(letter)} {{#{letter_ids[letter]}}}\n\n' + "\n".join(rows) + "\n\n</section>")
    blocks.append(f'<p class="pv-az-empty" hidden>{esc(no_match)}</p>')
    return _join(blocks)


# --- the root chooser --------------------------------------------------------------


def chooser_html(project: "Project", library: Library) -> str:
    """``/index.html``: the language chooser of a static host (``pravila serve`` negotiates instead)."""
    langs = [l for l in project.codes if library.chapters_in(l)]
    names = {l: project.language(l).name for l in langs}
    cards = []
    for lang in langs:
        t = Translator(project.catalogs, lang)
        site_name = t._("Pravila")
        chapters = ", ".join(c.title for c in library.chapters_in(lang))
        cards.append(
            f'    <a class="card" href="{lang}/" hreflang="{lang}" lang="{lang}">\n'
            f"      <span class=\"name\">{esc(names[lang])}</span>\n"
            f"      <span class=\"site\">{esc(site_name)}</span>\n"
            f"      <span class=\"chapters\">{esc(chapters)}</span>\n"
            f"    </a>"
        )
    asks = {l: Translator(project.catalogs, l)._("Choose your language") for l in langs}
    headings = "\n".join(f'    <p class="ask" lang="{l}">{esc(asks[l])}</p>' for l in langs)
    alternates = "\n".join(f'  <link rel="alternate" hreflang="{l}" href="{l}/">' for l in langs)
    return f"""<!doctype html>
<html lang="{langs[0] if langs else 'en'}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Pravila · {" · ".join(esc(names[l]) for l in langs)}</title>
{alternates}
  <link rel="icon" href="{langs[0] if langs else 'ru'}/assets/pravila/favicon.svg" type="image/svg+xml">
  <style>
    :root {{ color-scheme: light dark; --fg: #1d1b1a; --muted: #6b6460; --bg: #f7f3ee; --card: #fff; --accent: #8e2a23; }}
    @media (prefers-color-scheme: dark) {{ :root {{ --fg: #ece6e1; --muted: #a59d97; --bg: #1b1918; --card: #262322; --accent: #e07a6e; }} }}
    * {{ box-sizing: border-box; }}
    body {{ margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg); color: var(--fg);
           font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }}
    main {{ width: min(40rem, 100% - 2rem); padding: 2rem 0; }}
    .logo {{ font: 700 2.2rem/1.1 Georgia, "Noto Serif", "DejaVu Serif", serif; letter-spacing: .02em; margin: 0 0 .25rem; color: var(--accent); }}
    .ask {{ margin: 0; color: var(--muted); }}
    .cards {{ display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); margin-top: 1.5rem; }}
    .card {{ display: flex; flex-direction: column; gap: .25rem; padding: 1.25rem 1.4rem; border-radius: .75rem; background: var(--card);
            color: inherit; text-decoration: none; border: 1px solid color-mix(in srgb, var(--fg) 12%, transparent);
            box-shadow: 0 1px 2px rgb(0 0 0 / .06); transition: transform .15s, box-shadow .15s, border-color .15s; }}
    .card:hover, .card:focus-visible {{ transform: translateY(-2px); border-color: var(--accent); box-shadow: 0 6px 18px rgb(0 0 0 / .12); outline: none; }}
    .name {{ font-size: 1.5rem; font-weight: 700; }}
    .site {{ color: var(--accent); font-weight: 600; }}
    .chapters {{ color: var(--muted); font-size: .9rem; }}
  </style>
</head>
<body>
  <main>
    <h1 class="logo">Pravila</h1>
{headings}
    <nav class="cards">
{chr(10).join(cards)}
    </nav>
  </main>
</body>
</html>
"""
