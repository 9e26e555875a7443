"""The built sites: pages, anchors, links, languages, catalogs — read from the HTML MkDocs wrote."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest
import yaml

from helpers import LOCALES_DIR, repo_project
from pravila import collation, pages, render, site
from pravila.content import Library
from pravila.links import entry_url, page_path
from pravila.serialize import entry_to_dict

ORIGIN = "http://site.test"
LANGS = ("ru", "cs")


@dataclass
class ParsedPage:
    lang: str | None = None
    ids: list[str] = field(default_factory=list)
    links: list[tuple[str, str]] = field(default_factory=list)  # (tag, url)
    text: str = ""
    elements: list[tuple[str, dict[str, str]]] = field(default_factory=list)


_BLOCKS = {"p", "div", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "td", "th", "tr", "table", "nav", "section",
           "header", "footer", "aside", "br", "label", "button", "form", "input", "details", "summary", "article", "main"}


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = ParsedPage()
        self._text: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.page.elements.append((tag, a))
        if tag == "html":
            self.page.lang = a.get("lang")
        if "id" in a:
            self.page.ids.append(a["id"])
        if tag == "a" and "name" in a:
            self.page.ids.append(a["name"])
        if tag in ("a", "link") and "href" in a:
            if not (tag == "link" and a.get("rel") in ("canonical",)):
                self.page.links.append((tag, a["href"]))
        if tag in ("script", "img", "source") and "src" in a:
            self.page.links.append((tag, a["src"]))
        if tag in ("script", "style"):
            self._skip += 1
        if tag in _BLOCKS:
            self._text.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1
        if tag in _BLOCKS:
            self._text.append("\n")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self._text.append(data)

    def close(self) -> None:
        super().close()
        self.page.text = " ".join("".join(self._text).split())


class _Scoped(HTMLParser):
    """The text inside every element with a given class (nested elements included)."""

    VOID = {"br", "img", "input", "link", "meta", "hr", "source", "wbr"}

    def __init__(self, cls: str) -> None:
        super().__init__(convert_charrefs=True)
        self.cls = cls
        self.stack: list[bool] = []  # per open element: does it start a scope
        self.depth = 0
        self.found: list[list[str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        starts = self.cls in (dict(attrs).get("class") or "").split()
        if starts and not self.depth:
            self.found.append([])
        self.stack.append(starts)
        self.depth += starts

    def handle_endtag(self, tag: str) -> None:
        if tag in self.VOID or not self.stack:
            return
        self.depth -= self.stack.pop()

    def handle_data(self, data: str) -> None:
        if self.depth:
            self.found[-1].append(data)


def texts_of(path: Path, cls: str) -> list[str]:
    """The text of each element of class ``cls`` on a page, whitespace collapsed."""
    parser = _Scoped(cls)
    parser.feed(path.read_text(encoding="utf-8"))
    return [" ".join("".join(parts).split()) for parts in parser.found]


@lru_cache(maxsize=None)
def parse(path: Path) -> ParsedPage:
    parser = _Parser()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    return parser.page


def html_pages(root: Path) -> list[Path]:
    return sorted(root.rglob("*.html"))


def url_of(root: Path, path: Path) -> str:
    rel = path.relative_to(root).as_posix()
    if rel.endswith("index.html"):
        rel = rel[: -len("index.html")]
    return f"{ORIGIN}/{rel}"


def file_of(root: Path, url: str) -> Path | None:
    """The file a same-origin URL serves, like the server does (folders → index.html)."""
    path = unquote(urlsplit(url).path).lstrip("/")
    target = root / path
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


@pytest.fixture(scope="module")
def root(built_site: Path) -> Path:
    return built_site / "site"


# --- the layout ------------------------------------------------------------------------


def test_both_sites_and_the_chooser_are_built(root: Path):
    assert (root / "index.html").is_file()
    for lang in LANGS:
        assert (root / lang / "index.html").is_file()
        assert (root / lang / "a-z" / "index.html").is_file()
        assert (root / lang / "404.html").is_file()
        assert (root / lang / "assets" / "pravila" / "site.css").is_file()
    chooser = parse(root / "index.html")
    hrefs = {href for _, href in chooser.links}
    assert {"ru/", "cs/"} <= hrefs
    assert "Выберите язык" in chooser.text and "Vyberte jazyk" in chooser.text


def test_generated_configs_extend_the_project_s_mkdocs_yml(built_project):
    built_site = built_project.build_dir
    descriptions = set()
    for lang in LANGS:
        config = yaml.safe_load((built_site / f"mkdocs.{lang}.yml").read_text(encoding="utf-8"))
        assert config["INHERIT"] == str(built_project.mkdocs_file)
        assert config["theme"]["language"] == lang
        assert "site_author" not in config  # the project's mkdocs.yml sets it: its value wins
        descriptions.add(config["site_description"])  # ours, in the site's language
        assert (built_site / "docs" / lang / "index.md").is_file()
    html_text = (built_site / "site" / "ru" / "index.html").read_text(encoding="utf-8")
    assert '<meta name="author" content="Pravila">' in html_text
    assert len(descriptions) == len(LANGS)


@pytest.mark.parametrize("lang", LANGS)
def test_html_lang_of_every_page(root: Path, lang: str):
    pages_ = html_pages(root / lang)
    assert len(pages_) > 5
    for path in pages_:
        assert parse(path).lang == lang, path


@pytest.mark.parametrize("lang, search_label", [("ru", "Поиск"), ("cs", "Hledat")])
def test_material_ui_speaks_the_language(root: Path, lang: str, search_label: str):
    page = parse(root / lang / "index.html")
    placeholders = [a.get("placeholder") for tag, a in page.elements if tag == "input"]
    assert search_label in placeholders


def test_one_page_per_section_in_source_order(library: Library, built_site: Path):
    for chapter in library.chapters:
        nav = (built_site / f"mkdocs.{chapter.lang}.yml").read_text(encoding="utf-8")
        sections = [e for e in library.entries_of(chapter) if e.parent is None]
        positions = [nav.index(f"{chapter.id}/{s.id}.md") for s in sections]
        assert positions == sorted(positions), chapter.id


# --- anchors ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_entry_has_exactly_one_anchor_in_its_site(library: Library, root: Path, lang: str):
    counts: dict[str, int] = {}
    for path in html_pages(root / lang):
        if path.name == "404.html":
            continue
        for anchor in parse(path).ids:
            counts[anchor] = counts.get(anchor, 0) + 1
    for entry in library.in_lang(lang):
        assert counts.get(entry.id, 0) == 1, f"{entry.key}: {counts.get(entry.id, 0)} anchors"


def test_every_exported_url_opens_its_anchor(library: Library, root: Path):
    for entry in library.entries:
        url = entry_to_dict(library, entry)["url"]
        assert url == entry_url(library, entry)
        path = file_of(root, url)
        assert path is not None, f"{entry.key}: {url} is not a page"
        fragment = urlsplit(url).fragment
        assert fragment == entry.id
        assert fragment in parse(path).ids, f"{entry.key}: {url} has no #{fragment}"


def test_pages_match_urls_page_path(library: Library, built_site: Path):
    for entry in library.entries:
        assert (built_site / "docs" / entry.lang / page_path(library, entry)).is_file()


def test_section_page_h1_is_the_section_id(library: Library, root: Path):
    for entry in library.entries:
        if entry.parent is None:
            page = parse(file_of(root, entry_url(library, entry)))  # type: ignore[arg-type]
            h1 = [a for tag, a in page.elements if tag == "h1"]
            assert h1 and h1[0].get("id") == entry.id


def test_run_in_entries_are_paragraph_anchors_and_list_items_headings(library: Library, root: Path):
    """A run-in entry's id is on its first paragraph, with a permalink; a list item's title is a
    heading, so that it is in the page's contents (the Czech durations were not)."""
    seen = set()
    for entry in library.entries:
        if entry.form == "heading":
            continue
        seen.add(entry.form)
        page = parse(file_of(root, entry_url(library, entry)))  # type: ignore[arg-type]
        tags = [(tag, a) for tag, a in page.elements if a.get("id") == entry.id]
        if entry.form == "run-in":
            assert tags and tags[0][0] == "p" and "pv-lead" in tags[0][1].get("class", ""), entry.key
            assert ("a", f"#{entry.id}") in page.links, entry.key  # its permalink
        else:
            assert tags and re.fullmatch(r"h[2-6]", tags[0][0]), entry.key
            toc = [a.get("href") for tag, a in page.elements if tag == "a" and "md-nav__link" in a.get("class", "")]
            assert f"#{entry.id}" in toc, f"{entry.key} is not in the page's contents"
    assert seen == {"run-in", "list-item"}


# --- links -------------------------------------------------------------------------------


def test_every_internal_link_and_anchor_resolves(root: Path):
    problems = []
    checked = 0
    for path in html_pages(root):
        base = url_of(root, path)
        for tag, raw in parse(path).links:
            url = urljoin(base, html.unescape(raw))
            parts = urlsplit(url)
            if f"{parts.scheme}://{parts.netloc}" != ORIGIN:
                continue  # external, or the configured site_url of the canonical link
            target = file_of(root, url)
            checked += 1
            if target is None:
                problems.append(f"{path.relative_to(root)}: {raw} → no such page")
                continue
            if parts.fragment and target.suffix == ".html":
                if parts.fragment.startswith("__"):  # Material's own (#__search, #__drawer)
                    continue
                if unquote(parts.fragment) not in parse(target).ids:
                    problems.append(f"{path.relative_to(root)}: {raw} → no #{parts.fragment}")
    assert checked > 1000
    assert not problems, "\n".join(problems[:30])


def test_cross_references_are_links_to_their_targets(library: Library, root: Path):
    for entry in library.entries:
        page_file = file_of(root, entry_url(library, entry))
        assert page_file is not None
        base = url_of(root, page_file)
        targets = {urljoin(base, html.unescape(h)) for _, h in parse(page_file).links}
        for ref_id in entry.linked_ids:
            target = library.get(entry.lang, ref_id)
            assert f"{ORIGIN}{entry_url(library, target)}" in targets, f"{entry.key} → {ref_id}"  # type: ignore[arg-type]


def test_previews_are_on_rule_links_only(library: Library, root: Path):
    movement = library.get("ru", "movement")
    page_file = file_of(root, entry_url(library, movement))  # type: ignore[arg-type]
    page = parse(page_file)  # type: ignore[arg-type]
    anchors = [a for tag, a in page.elements if tag == "a"]
    previewed = {a["href"] for a in anchors if "data-preview" in a}
    for ref_id in movement.linked_ids:  # type: ignore[union-attr]
        target = library.get("ru", ref_id)
        assert any(h.endswith(f"#{target.id}") for h in previewed), ref_id  # type: ignore[union-attr]
    for a in anchors:
        cls = a.get("class", "")
        if "headerlink" in cls or "md-nav__link" in cls or "md-tabs__link" in cls or "md-footer" in cls:
            assert "data-preview" not in a, a
    assert not any(h.startswith("../../a-z") or "calculators" in h for h in previewed)


def test_undefined_terms_are_marked_not_linked(library: Library, root: Path):
    entry = next(e for e in library.in_lang("ru") if e.undefined_terms)
    page = parse(file_of(root, entry_url(library, entry)))  # type: ignore[arg-type]
    spans = [a for tag, a in page.elements if tag == "span" and "term-undefined" in a.get("class", "")]
    assert spans and all(a.get("title") == "Определено в другом месте правил" for a in spans)


def _section_html(root: Path, library: Library, lang: str, entry_id: str) -> str:
    entry = library.get(lang, entry_id)
    assert entry is not None
    return file_of(root, entry_url(library, entry)).read_text(encoding="utf-8")  # type: ignore[union-attr]


def test_entries_list_other_translations_words_with_their_sources(library: Library, root: Path):
    html_text = _section_html(root, library, "ru", "being-prone")
    here = html_text.index('id="being-prone"')
    block = html_text[html_text.index('class="pv-terms"', here):]
    block = block[: block.index("</div>")]
    assert "Также называют" in block and '<span class="pv-variant">распластанность</span>' in block
    assert re.search(r'<abbr class="pv-term-source" title="официальная русская локализация Baldur&#39;s Gate 3">BG3</abbr>', block)


def test_a_word_that_names_another_rule_elsewhere_says_so(library: Library, root: Path):
    html_text = _section_html(root, library, "cs", "casting-time")
    line = html_text[html_text.index("pv-terms__shared"):]
    line = line[: line.index("</p>")]
    assert "„vyvolávací“ v jiných překladech:" in line
    assert 'href="../schools-of-magic/#schools-of-magic-table"' in line and "data-preview" in line  # the SRD's meaning
    assert "V tomto textu toto slovo znamená toto pravidlo." in line


def test_terms_defined_elsewhere_link_out_marked_external(library: Library, root: Path):
    html_text = _section_html(root, library, "cs", "casting-time")
    links = re.findall(r'<a class="pv-external" href="([^"]+)" target="_blank" rel="noopener external">', html_text)
    assert "http://dnd5esrd.d20.cz/prirucka-hrace/9-kapitola.html#bonusove-akce" in links


@pytest.mark.parametrize("lang, row", [("ru", "распластанность → Лежание ничком (BG3, Hobby World)"),
                                       ("cs", "ihned → Okamžité (SRD, Foundry VTT)")])
def test_the_a_z_index_lists_other_translations_words(root: Path, lang: str, row: str):
    assert row in parse(root / lang / "a-z" / "index.html").text  # the word, its entry, its sources


def test_backlinks_list_what_links_here(library: Library, root: Path):
    entry = library.get("ru", "grapple")
    assert entry is not None
    backlinks = library.backlinks(entry)
    assert len(backlinks) == 4
    md = (root.parent / "docs" / "ru" / page_path(library, entry)).read_text(encoding="utf-8")
    block = md.split("{#grapple}", 1)[1].split('<div class="pv-backlinks" markdown>', 1)[1].split("</div>", 1)[0]
    assert "4 ссылки" in block
    for b in backlinks:
        assert f"#{b.id})" in block


def test_counterparts_link_across_and_say_when_editions_differ(library: Library, root: Path):
    ru = library.get("ru", "cast-a-spell")
    cs = library.get("cs", "material")
    assert ru is not None and cs is not None
    ru_page = file_of(root, entry_url(library, ru))
    ru_links = {urljoin(url_of(root, ru_page), h) for _, h in parse(ru_page).links}  # type: ignore[arg-type]
    for cp in ru.counterparts:
        other = library.by_key(cp.key)
        assert f"{ORIGIN}{entry_url(library, other)}" in ru_links  # type: ignore[arg-type]
    cs_page = parse(file_of(root, entry_url(library, cs)))  # type: ignore[arg-type]
    assert "Русский" in cs_page.text
    assert "Vydání se liší" in cs_page.text
    note = next(c.note for c in cs.counterparts if c.note)
    assert " ".join(note.split()) in cs_page.text
    assert "Čeština" in parse(ru_page).text  # type: ignore[arg-type]


def test_every_entry_shows_english_name_edition_and_source(library: Library, root: Path):
    for entry in library.entries:
        page = parse(file_of(root, entry_url(library, entry)))  # type: ignore[arg-type]
        for text in (entry.en, str(entry.edition), entry.source):
            assert " ".join(text.split()) in page.text, f"{entry.key}: {text!r} missing"


def test_rules_text_is_on_the_page_word_for_word(library: Library, root: Path):
    for entry in library.entries:
        page = parse(file_of(root, entry_url(library, entry)))  # type: ignore[arg-type]
        for line in library.text(entry).splitlines():
            assert " ".join(line.split()) in page.text, f"{entry.key}: {line[:60]!r}"


# --- editorial metadata: ours, and marked as ours -------------------------------------------

NOTE_LABELS = {"ru": "Примечание редактора", "cs": "Poznámka redakce"}


def test_editor_s_notes_are_a_labelled_box_apart_from_the_rules_text(library: Library, root: Path):
    with_notes = [e for e in library.entries if e.notes]
    assert {e.lang for e in with_notes} == {"ru", "cs"}
    for entry in with_notes:
        page_file = file_of(root, entry_url(library, entry))
        boxes = [t for t in texts_of(page_file, "pv-notes") if any(" ".join(n.split()) in t for n in entry.notes)]  # type: ignore[arg-type]
        assert len(boxes) == 1, entry.key
        assert boxes[0].startswith(NOTE_LABELS[entry.lang]), boxes[0][:60]
        for note in entry.notes:
            text = " ".join(note.split())
            assert parse(page_file).text.count(text) == 1, f"{entry.key}: the note is also outside its box"  # type: ignore[arg-type]
            assert not any(text in line for line in library.text(entry).splitlines())
        boxes_attrs = [a for tag, a in parse(page_file).elements if "pv-notes" in a.get("class", "").split()]  # type: ignore[arg-type]
        assert boxes_attrs and all(a.get("role") == "note" for a in boxes_attrs)


@pytest.mark.parametrize("lang", LANGS)
def test_the_search_data_has_the_rules_not_our_additions(library: Library, root: Path, lang: str):
    """The box's search data (pravila.search.browser) holds every entry's rules text, not editor's notes,
    provenance or widgets; Material's own index ships no documents any more (its UI only needs the config)."""
    import json

    material = json.loads((root / lang / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert material["docs"] == [] and material["config"]["lang"]
    folder = root / lang / "assets" / "pravila" / "search"
    manifest = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    data = json.loads((folder / manifest["languages"][lang]["data"]).read_text(encoding="utf-8"))
    texts = {doc[0]: doc[3] for doc in data["docs"]}
    entries = library.in_lang(lang)
    assert list(texts) == [e.id for e in entries] and all(texts[e.id] == library.text(e) for e in entries)
    indexed = " ".join(" ".join(t.split()) for t in texts.values())
    ours = [n for e in entries for n in e.notes] + [c.provenance for c in library.chapters_in(lang) if c.provenance]
    assert ours and not [t for t in ours if " ".join(t.split())[:40] in indexed]
    assert "pravila-calc" not in indexed and '"strings"' not in indexed


EN_STATUS_WORDS = {
    ("ru", "no-heading"): "нет своего заголовка", ("ru", "not-in-srd"): "нет в SRD",
    ("cs", "no-heading"): "není vlastní nadpis", ("cs", "not-in-srd"): "není v SRD",
}


def test_english_names_say_how_they_were_established(library: Library, root: Path):
    marked = [e for e in library.entries if e.en_status != "srd"]
    assert {e.en_status for e in marked} == {"no-heading", "not-in-srd"}
    for entry in library.entries:
        page = parse(file_of(root, entry_url(library, entry)))  # type: ignore[arg-type]
        spans = [a for tag, a in page.elements if tag == "span" and f"pv-en--{entry.en_status}" in a.get("class", "")]
        on_page = [e for e in library.in_lang(entry.lang) if e.en_status == entry.en_status
                   and page_path(library, e) == page_path(library, entry)]
        if entry.en_status == "srd":
            continue
        assert len(spans) == len(on_page), entry.key  # one meta line each, nothing else marked
        words = EN_STATUS_WORDS[(entry.lang, entry.en_status)]
        assert all(words in a["title"] for a in spans), (entry.key, spans[0]["title"])
        hidden = [t for t in texts_of(file_of(root, entry_url(library, entry)), "pv-sr") if words in t]  # type: ignore[arg-type]
        assert len(hidden) == len(on_page), entry.key  # the reason, for screen readers too
    chapter_page = root / "ru" / "combat" / "index.html"
    assert len(texts_of(chapter_page, "pv-en--no-heading")) == sum(
        1 for e in library.in_lang("ru") if e.en_status == "no-heading")


PROVENANCE_LABELS = {"ru": "Откуда этот текст", "cs": "Odkud tento text pochází"}


def test_the_chapter_s_provenance_is_on_its_page_and_home_card(library: Library, root: Path):
    for chapter in library.chapters:
        assert chapter.provenance, chapter.id
        text = " ".join(chapter.provenance.split())
        for page_file, is_open in ((root / chapter.lang / chapter.id / "index.html", True),
                                   (root / chapter.lang / "index.html", False)):
            boxes = [t for t in texts_of(page_file, "pv-provenance") if text in t]
            assert len(boxes) == 1 and boxes[0].startswith(PROVENANCE_LABELS[chapter.lang]), page_file
            details = [a for tag, a in parse(page_file).elements if tag == "details" and "pv-provenance" in a.get("class", "")]
            assert [("open" in a) for a in details] == [is_open], page_file


def test_each_side_of_a_pair_shows_its_own_edition_note(library: Library, root: Path):
    pairs = [(e, cp) for e in library.entries for cp in e.counterparts if cp.note]
    assert pairs
    for entry, cp in pairs:
        other = library.by_key(cp.key)
        back = next(c for c in other.counterparts if c.key == entry.key)  # type: ignore[union-attr]
        notes = texts_of(file_of(root, entry_url(library, entry)), "pv-counterpart__note")  # type: ignore[arg-type]
        assert " ".join(cp.note.split()) in notes, entry.key
        assert " ".join(back.note.split()) not in notes, f"{entry.key} shows {other.key}'s note"  # type: ignore[union-attr]


def test_no_report_link_without_a_report_address(built_project, root: Path):
    assert built_project.report_url is None
    for path in html_pages(root):
        assert not [a for tag, a in parse(path).elements if "pv-report" in a.get("class", "")], path


# --- calculators on the pages ------------------------------------------------------------------


def test_a_page_s_widgets_read_their_strings_from_one_block(root: Path):
    pages_with_widgets = 0
    for path in html_pages(root):
        html_text = path.read_text(encoding="utf-8")
        widgets_here = html_text.count('class="pravila-calc"')
        blocks = html_text.count('id="pravila-calc-data"')
        assert "data-strings" not in re.sub(r'<div id="pravila-calc-data"[^>]*>', "", html_text), path
        assert blocks == (1 if widgets_here else 0), path
        pages_with_widgets += bool(widgets_here)
    assert pages_with_widgets == 4  # ru movement, ru calculators, cs effects, cs calculators
    movement = (root / "ru" / "combat" / "movement" / "index.html").read_text(encoding="utf-8")
    assert movement.count('class="pravila-calc"') == 7


def test_the_chooser_takes_its_look_from_a_static_file(root: Path):
    chooser = parse(root / "index.html")
    assert not [tag for tag, _ in chooser.elements if tag == "style"]
    assert not [a for _, a in chooser.elements if "style" in a]
    sheets = [a["href"] for tag, a in chooser.elements if tag == "link" and a.get("rel") == "stylesheet"]
    assert sheets and all((root / s).is_file() for s in sheets)
    assert ".pv-chooser" in (root / sheets[0]).read_text(encoding="utf-8")


# --- A–Z index ----------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_a_z_index_lists_titles_english_names_and_aliases(library: Library, root: Path, lang: str):
    page = parse(root / lang / "a-z" / "index.html")
    text = page.text.casefold()  # one row per spelling: «Grapple» and «grapple» share it
    for entry in library.in_lang(lang):
        for term in (entry.title, entry.en, *entry.aliases):
            assert term.casefold() in text, f"{entry.key}: {term!r} not in the index"
    base = url_of(root, root / lang / "a-z" / "index.html")
    linked = {urljoin(base, h) for _, h in page.links}
    for entry in library.in_lang(lang):
        assert f"{ORIGIN}{entry_url(library, entry)}" in linked, entry.key


def test_a_z_index_is_alphabetical(project, library: Library):
    for lang in LANGS:
        terms = [t.display for t in collation.index_terms(library, project.language(lang))]
        assert terms == sorted(terms, key=lambda t: collation.collation_key(t, project.language(lang)))
    cs = project.language("cs")
    cs_letters = [collation.letter_of(t.display, cs) for t in collation.index_terms(library, cs)]
    assert cs_letters.index("H") < cs_letters.index("Ch") if "Ch" in cs_letters else True


# --- the Markdown ----------------------------------------------------------------------------


def test_generated_markdown_is_deterministic(project, library: Library, built_site: Path):
    first = site.language_sites(project, library)
    second = site.language_sites(project, library)
    for a, b in zip(first, second):
        assert [(p.path, p.markdown.encode()) for p in a.pages] == [(p.path, p.markdown.encode()) for p in b.pages]
        for page in a.pages:
            written = (built_site / "docs" / a.lang / page.path).read_bytes()
            assert written == page.markdown.encode("utf-8"), page.path


def test_markdown_keeps_rules_text_and_adds_only_catalog_strings(project, library: Library):
    ru = next(s for s in site.language_sites(project, library) if s.lang == "ru")
    md = ru.page("combat/actions.md").markdown
    assert "## Атака {#attack}" in md
    assert "[Захват](#grapple)" in md
    assert "See also" not in md and "См. также" in md


# --- strictness --------------------------------------------------------------------------------


def test_a_broken_link_fails_the_build(tmp_path: Path):
    broken = pages.LanguageSite(
        "ru", "Test", [pages.Page("index.md", "Home", "# Home\n\n[gone](missing.md#nowhere)\n")], ["index.md"]
    )
    project = repo_project(build=tmp_path)
    site.write_docs(broken, tmp_path / "docs" / "ru")
    site.write_overrides(project, tmp_path)
    config = site.write_config(project, broken, tmp_path)
    with pytest.raises(site.SiteBuildError) as err:
        site.run_mkdocs(config, "ru", tmp_path / "out")
    assert "missing.md" in str(err.value)


def test_a_broken_anchor_fails_the_build(tmp_path: Path):
    broken = pages.LanguageSite(
        "cs",
        "Test",
        [pages.Page("index.md", "Home", "# Home\n\n[x](other.md#nowhere)\n"), pages.Page("other.md", "Other", "# Other {#other}\n")],
        ["index.md", "other.md"],
    )
    project = repo_project(build=tmp_path)
    site.write_docs(broken, tmp_path / "docs" / "cs")
    site.write_overrides(project, tmp_path)
    config = site.write_config(project, broken, tmp_path)
    with pytest.raises(site.SiteBuildError) as err:
        site.run_mkdocs(config, "cs", tmp_path / "out")
    assert "nowhere" in str(err.value)


def test_a_failed_build_keeps_the_previous_site_and_index(library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from pravila.build import build

    old = tmp_path / "site"
    old.mkdir(parents=True)
    (old / "index.html").write_text("previous", encoding="utf-8")

    def fail(*args, **kwargs):
        raise site.SiteBuildError("ru", ["boom"])

    monkeypatch.setattr(site, "run_mkdocs_all", fail)
    with pytest.raises(site.SiteBuildError):
        build(repo_project(build=tmp_path), library)
    assert (old / "index.html").read_text(encoding="utf-8") == "previous"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []
    assert not (tmp_path / "index").exists()
    assert list((tmp_path / "index.d").iterdir()) == []  # the unpublished generation is gone


# --- catalogs ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lang, forms",
    [("ru", ["1 ссылка", "2 ссылки", "5 ссылок", "21 ссылка", "22 ссылки", "11 ссылок"]),
     ("cs", ["1 odkaz", "2 odkazy", "5 odkazů", "4 odkazy", "11 odkazů", "0 odkazů"])],
)
def test_plurals(lang: str, forms: list[str]):
    t = render.Translator(repo_project().catalogs, lang)
    for form in forms:
        n = int(form.split()[0])
        assert t.ngettext("%(num)d link", "%(num)d links", n) == form


def _catalog(lang: str):
    from babel.messages.pofile import read_po

    with (LOCALES_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f, locale=lang, domain="messages")


def test_catalogs_translate_every_site_string():
    from babel.messages.extract import extract_from_file

    used = set()
    package = Path(pages.__file__).parent
    for module in ("pages.py", "sections.py", "render.py", "site.py", "server.py"):
        for _, message, _, _ in extract_from_file("python", str(package / module)):
            used.add(message if isinstance(message, str) else message[0])
    options = {"comment_start_string": "{##", "comment_end_string": "##}", "trim_blocks": "true", "lstrip_blocks": "true"}
    templates = sorted((package / "templates").iterdir())
    assert len(templates) >= 8
    for template in templates:
        for _, message, _, _ in extract_from_file("jinja2", str(template), options=options):
            used.add(message if isinstance(message, str) else message[0])
    assert {"See also", "Editor's note", "Report a mistake", "Where this text comes from"} <= used
    for lang in LANGS:
        catalog = _catalog(lang)
        for msgid in used:
            message = catalog.get(msgid)
            assert message is not None, f"{lang}: {msgid!r} not in messages.po (run 'make locales')"
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert all(strings) and not message.fuzzy, f"{lang}: {msgid!r} is not translated"


def test_translations_keep_placeholders():
    for lang in LANGS:
        for message in _catalog(lang):
            if not message.id:
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            wanted = set(re.findall(r"%\(\w+\)[ds]", ids[0]))
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for s in strings:
                assert set(re.findall(r"%\(\w+\)[ds]", s)) == wanted, (lang, message.id, s)


def test_ui_text_is_translated_in_pages(root: Path):
    ru = parse(root / "ru" / "combat" / "actions" / "index.html").text
    cs = parse(root / "cs" / "spellcasting" / "spell-slots" / "index.html").text
    assert "См. также" in ru and "Viz také" in cs
    assert repo_project().catalogs.gettext("cs", "See also") == "Viz také"
