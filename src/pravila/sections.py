"""The section pages: one page per top-level entry, every entry under it in source order.

Python decides *what* an entry shows — its rules text with the references
turned into links, the editor's notes, the widget, the counterparts in the
other language with this side's edition note, what links here, its children
— as an :class:`EntryView`; ``templates/section.md`` decides how it looks:

- ``heading`` entries are Markdown headings ``## Title {#id}``;
- ``run-in`` entries are a ``<div class="pv-entry">`` whose first paragraph
  (``**Title.** text…``) carries the id;
- ``list-item`` entries are items of one ``<ul>`` per run of siblings, the
  item's first paragraph carrying the id.

Links to rules carry ``{ data-preview }``: Material's hover previews are on
rule links only (not on permalinks, navigation or tools).  Rules text stays
exactly as in the YAML; everything added around it comes from the templates
and the ``messages`` catalog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .content import Entry, Library
from .links import absolute_url, entry_href, entry_url, md_href, page_path, report_href, url_of
from .markup import Ref, rewrite_refs
from .render import Markup, Templates, escape

if TYPE_CHECKING:
    from .project import Project

WidgetFor = Callable[[str, str, Library], "str | None"]


@dataclass(frozen=True)
class LinkView:
    """A link to an entry of the same site (Markdown, checked by MkDocs)."""

    title: str
    target: str
    context: str | None = None  # the parent's title, where another entry has the same title


@dataclass(frozen=True)
class CounterpartView:
    entry: Entry
    language: str  # the other language's name, in that language
    href: str
    context: str | None
    note: str | None  # the edition note of this side, in this page's language


@dataclass(frozen=True)
class VariantView:
    """Another translation's word for the rule, with the sources that use it."""

    term: str
    sources: list[tuple[str, str]]  # (short label, full name)


@dataclass(frozen=True)
class SharedView:
    """A word that names this rule in one translation and another rule in another."""

    term: str
    here: bool  # whether this text gives the word this entry's meaning
    others: list[dict[str, Any]]  # {"sources": [(short, name)], "title", "href" (from this page, or None), "en"}


@dataclass(frozen=True)
class ExternalView:
    """A term this text uses but does not define, and where a player can read it."""

    text: str
    label: str
    url: str
    sources: list[tuple[str, str]]
    name: str | None


@dataclass
class EntryView:
    entry: Entry
    level: int
    lead_title: str = ""  # run-in and list-item: the title as it stands before the text
    lead: Markup | None = None  # … and the first paragraph after it
    body: Markup = Markup("")
    caption: Markup | None = None
    notes: list[Markup] = field(default_factory=list)
    widget: Markup | None = None
    counterparts: list[CounterpartView] = field(default_factory=list)
    editions_differ: str | None = None  # "2024" when a counterpart follows another edition
    backlinks: list[LinkView] = field(default_factory=list)
    children: list[list["EntryView"]] = field(default_factory=list)  # runs of list items, or one entry each
    report: str | None = None  # «report a mistake» link
    variants: list[VariantView] = field(default_factory=list)  # the terminology layer: other translations' words
    shared: list[SharedView] = field(default_factory=list)
    external: list[ExternalView] = field(default_factory=list)

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def form(self) -> str:
        return self.entry.form

    @property
    def title(self) -> str:
        return self.entry.title


def ambiguous_titles(library: Library, lang: str) -> set[str]:
    """Titles (casefolded) that more than one entry of a language has."""
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


_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+\.\s|\||#|>|<)")


def _starts_block(paragraph: str) -> bool:
    """Whether a body's first block is something other than a paragraph."""
    return bool(_BLOCK_START.match(paragraph))


class SectionPage:
    """Renders one section page of one language's site."""

    def __init__(self, project: "Project", library: Library, templates: Templates, path: str, ambiguous: set[str],
                 widget_for: WidgetFor | None = None):
        """``ambiguous``: the language's titles that need their context (:func:`ambiguous_titles`, once a site)."""
        self.project = project
        self.library = library
        self.templates = templates
        self.lang = templates.lang
        self.path = path
        self.url = url_of(self.lang, path)
        self.widget_for = widget_for
        self.ambiguous = ambiguous
        self.widget_entries: list[str] = []  # ids of the entries that got a widget
        self._rule_link = templates.macro("_macros.md", "rule_link")
        self._undefined_term = templates.macro("_inline.md", "undefined_term")
        self._other_language_link = templates.macro("_inline.md", "other_language_link")

    def render(self, section: Entry, widget_data: Callable[[list[str]], str | None] | None = None) -> str:
        """The page's Markdown; ``widget_data`` gives the data block its widgets read, once per page."""
        view = self.view(section, level=1)
        data = widget_data(self.widget_entries) if (widget_data is not None and self.widget_entries) else None
        return str(self.templates.render("section.md", section=view, calc_data=Markup(data) if data else None))

    # --- links ---------------------------------------------------------------------

    def link_to(self, entry: Entry) -> str:
        return md_href(self.path, page_path(self.library, entry), entry.id)

    def ref(self, ref: Ref) -> str:
        """One ``[[…]]`` of a body: a rule link, a link into the other language, or a marked term."""
        if ref.undefined:
            return self._undefined_term(text=ref.text or ref.target)
        target_lang = ref.lang or self.lang
        target = self.library.get(target_lang, ref.target)
        if target is None:  # load_library reports it; never reached for clean content
            return ref.text or ref.target
        # The source's own words (rules Markdown: HTML-escaped only), else the target's title (text).
        text = Markup.escape(ref.text) if ref.text else escape(target.title)
        if target_lang == self.lang:
            return self._rule_link(text=text, target=self.link_to(target))
        return self._other_language_link(href=entry_href(self.library, self.url, target), lang=target_lang, text=text)

    def markdown(self, text: str) -> Markup:
        """Rules (or editor's) Markdown with its references rendered: trusted text, so Markup."""
        return Markup(rewrite_refs(text, self.ref))

    # --- the view -------------------------------------------------------------------

    def view(self, e: Entry, level: int) -> EntryView:
        v = EntryView(e, min(level, 6))
        if e.form == "heading":
            v.body = self.markdown(e.body)
            child_level = level + 1
        else:
            v.lead_title = e.title if e.title.endswith((".", "!", "?", ":")) else e.title + "."
            first, rest = (e.body.split("\n\n", 1) + [""])[:2] if e.body else ("", "")
            if first and not _starts_block(first):
                v.lead, v.body = self.markdown(first), self.markdown(rest)
            else:
                v.body = self.markdown(e.body)
            child_level = level
        v.caption = self.markdown(e.caption) if e.caption else None
        v.notes = [self.markdown(note) for note in e.notes]
        v.widget = self.widget(e)
        v.counterparts, v.editions_differ = self.counterparts(e)
        v.backlinks = self.backlinks(e)
        v.children = self.children(e, child_level)
        v.report = self.report(e)
        v.variants, v.shared, v.external = self.terms(e)
        return v

    def terms(self, e: Entry) -> tuple[list[VariantView], list[SharedView], list[ExternalView]]:
        """What the terminology layer (``content/terms``) says about this entry."""
        terms = self.library.terms.get(e.lang)
        if terms is None:
            return [], [], []

        variants = [VariantView(v.term, terms.labels(v.sources)) for v in terms.variants_of(e.id)]
        shared = []
        for word in terms.shared_of(e.id):
            others = []
            for m in word.meanings:
                if m.entry == e.id:
                    continue
                target = self.library.get(e.lang, m.entry) if m.entry else None
                others.append({"sources": terms.labels(m.sources), "title": target.title if target else (m.form or m.en),
                               "href": entry_href(self.library, self.url, target) if target else None, "en": m.en})
            shared.append(SharedView(word.term, word.here == e.id, others))
        external = []
        seen = set()
        for ref in e.refs:
            ext = terms.external.get(ref.target) if ref.undefined else None
            if ext is None or ext.slug in seen:
                continue
            seen.add(ext.slug)
            external.append(ExternalView(ref.text or ext.slug, ext.label, ext.url, terms.labels(ext.sources), ext.name))
        return variants, shared, external

    def widget(self, e: Entry) -> Markup | None:
        if self.widget_for is None:
            return None
        markup = self.widget_for(e.id, e.lang, self.library)
        if not markup:
            return None
        self.widget_entries.append(e.id)
        return Markup(markup)

    def counterparts(self, e: Entry) -> tuple[list[CounterpartView], str | None]:
        """The same rule in the other language(s), each with the edition note of this side."""
        views = []
        for cp in e.counterparts:
            other = self.library.by_key(cp.key)
            if other is None:
                continue
            parent = self.library.parent_of(other)
            views.append(CounterpartView(
                entry=other,
                language=self.project.language(other.lang).name,
                href=entry_href(self.library, self.url, other),
                context=parent.title if parent else None,
                note=cp.note,
            ))
        differing = sorted({v.entry.edition for v in views if v.entry.edition != e.edition})
        return views, (", ".join(str(y) for y in differing) or None)

    def backlinks(self, e: Entry) -> list[LinkView]:
        out = []
        for b in self.library.backlinks(e):
            title, context = entry_label(self.library, b, self.ambiguous)
            out.append(LinkView(title, self.link_to(b), context))
        return out

    def children(self, e: Entry, level: int) -> list[list[EntryView]]:
        """The entry's children, list items gathered into runs (one ``<ul>`` each)."""
        groups: list[list[EntryView]] = []
        for child_id in e.children:
            child = self.library.get(e.lang, child_id)
            if child is None:
                continue
            view = self.view(child, level)
            if child.form == "list-item" and groups and groups[-1][0].form == "list-item":
                groups[-1].append(view)
            else:
                groups.append([view])
        return groups

    def report(self, e: Entry) -> str | None:
        """The project's «report a mistake» address for this entry, or None when it has none."""
        pattern = self.project.report_url
        if not pattern:
            return None
        url = absolute_url(self.project.site_url, entry_url(self.library, e))
        return report_href(pattern, lang=e.lang, id=e.id, title=e.title, url=url)
