"""The rendering layer: what the templates make of the content, before MkDocs.

- metadata is text: whatever a title, an English name, a source or a
  provenance holds, it never becomes markup on a page;
- «report a mistake» is on every entry exactly when the project has a
  ``report_url``;
- no HTML is assembled in Python: the site's modules hold no tags.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import markdown
import pytest

from pravila import pages, render
from pravila.content import Chapter, Counterpart, Entry, Library
from pravila.links import entry_url

SRC = Path(pages.__file__).parent
EVIL = '<img src=x onerror="alert(1)"> *bold* [x](javascript:alert(1)) {#id} | & ＜'


def _chapter(lang: str, cid: str, edition: int) -> Chapter:
    return Chapter(id=cid, lang=lang, title=f"{cid} {EVIL}", en=f"{cid} {EVIL}", edition=edition, source=f"Book {EVIL}",
                   source_file="x.txt", file=f"{lang}/{cid}.yaml", provenance=f"Ours {EVIL}")


def _entry(chapter: Chapter, eid: str, **fields) -> Entry:
    base = dict(id=eid, lang=chapter.lang, title=f"{eid} {EVIL}", en=f"{eid} {EVIL}", chapter=chapter,
                edition=chapter.edition, source=f"Book {EVIL}", file=chapter.file, line=1, aliases=(f"alias {EVIL}",))
    return Entry(**{**base, **fields})


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Library:
    """Two chapters whose metadata (everything but rules text) tries to be markup."""
    ru, cs = _chapter("ru", "combat", 2014), _chapter("cs", "spellcasting", 2024)
    attack = _entry(ru, "attack", kind="action", body="Текст, см. [[grapple|захват]] и [[?x|термин]].",
                    counterparts=[Counterpart("cs", "utok", f"Прим {EVIL}")], en_status="no-heading")
    grapple = _entry(ru, "grapple", body="Захват [[cs:utok|útok]].", en_status="not-in-srd")
    escape = _entry(ru, "escape", parent="grapple", form="run-in", body="Вырваться [[attack]].")
    item = _entry(ru, "item", parent="grapple", form="list-item", body="Пункт.")
    grapple.children += ["escape", "item"]
    utok = _entry(cs, "utok", body="Útok.", counterparts=[Counterpart("ru", "attack", f"Pozn {EVIL}")])
    return Library([ru, cs], [attack, grapple, escape, item, utok], tmp_path_factory.mktemp("content"), ("ru", "cs"))


class _Elements(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def _html(md_text: str) -> str:
    """A page as MkDocs would turn it into HTML (the same Markdown extensions; front matter is the page's meta)."""
    body = re.sub(r"\A---\n.*?\n---\n", "", md_text, count=1, flags=re.S)
    return markdown.markdown(body, extensions=["attr_list", "md_in_html", "tables", "toc"])


def _elements(html: str) -> list[tuple[str, dict[str, str]]]:
    parser = _Elements()
    parser.feed(html)
    return parser.tags


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_metadata_never_becomes_markup(project, hostile: Library, lang: str):
    site = pages.language_site(project, hostile, lang)
    sections = [e for e in hostile.in_lang(lang) if e.parent is None]
    assert len(site.pages) == 3 + len(sections)  # home, chapter, sections, A–Z
    for page in site.pages:
        html = _html(page.markdown)
        tags = _elements(html)
        assert not [a for t, a in tags if t == "img"], page.path
        assert not [a for t, a in tags if any(k.startswith("on") for k in a)], page.path
        assert not [a for t, a in tags if "javascript:" in a.get("href", "")], page.path
        assert "<em>bold</em>" not in html and not [a for t, a in tags if a.get("id") == "id"], page.path
        assert "&lt;img" in html, page.path  # shown as the text it is
    chooser = pages.chooser_html(project, hostile)
    assert "<img" not in chooser and "&lt;img" in chooser


def test_rules_markdown_still_links_and_marks(project, hostile: Library):
    """Escaping metadata leaves the rules' own Markdown working: links, marked terms, the other language."""
    section = pages.language_site(project, hostile, "ru").page("combat/attack.md").markdown
    html = _html(section)
    tags = _elements(html)
    hrefs = [a.get("href") for t, a in tags if t == "a"]
    assert "grapple.md#grapple" in hrefs and "../../../cs/spellcasting/utok/#utok" in hrefs
    assert any(t == "span" and a.get("class") == "term-undefined" for t, a in tags)
    assert "Pozn" not in html and "Прим &lt;img" in html  # this side's edition note only


REPORT = "https://git.example/issues/new?entry={lang}:{id}&title={title}&url={url}"


def _report_links(markdown_text: str) -> list[dict[str, str]]:
    return [a for t, a in _elements(markdown_text) if t == "a" and "pv-report" in a.get("class", "")]


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_every_entry_has_a_report_link_when_the_project_has_an_address(project, library: Library, lang: str):
    reporting = dataclasses.replace(project, report_url=REPORT, site_url="https://rules.example/d/")
    site = pages.language_site(reporting, library, lang)
    seen: dict[str, int] = {}
    for page in site.pages:
        for a in _report_links(page.markdown):
            assert a["target"] == "_blank" and a["rel"] == "noopener", a
            query = parse_qs(urlsplit(a["href"]).query)
            key = query["entry"][0]
            entry = library.by_key(key)
            assert entry is not None and entry.lang == lang, key
            assert query["title"] == [entry.title]
            assert query["url"] == [f"https://rules.example/d{entry_url(library, entry)}"]
            seen[key] = seen.get(key, 0) + 1
    assert seen == {e.key: 1 for e in library.in_lang(lang)}
    said = {"ru": "Сообщить об ошибке", "cs": "Nahlásit chybu"}[lang]
    assert said in site.page(_first_section(site)).markdown


def _first_section(site: pages.LanguageSite) -> str:
    return next(p.path for p in site.pages if p.path.count("/") == 1 and not p.path.endswith("index.md"))


def test_no_report_link_without_an_address(project, library: Library):
    assert project.report_url is None
    for lang in ("ru", "cs"):
        for page in pages.language_site(project, library, lang).pages:
            assert not _report_links(page.markdown), page.path


def test_a_language_without_a_catalog_reads_english(project):
    t = render.Templates(project.catalogs, "pl")
    assert str(t.macro("_macros.md", "badge")(edition=2024)) == (
        '<span class="pv-badge pv-badge--2024" title="Rules of the 2024 edition">2024</span>')


# --- no markup in Python -------------------------------------------------------------------------

RENDERING_MODULES = ("pages.py", "sections.py", "links.py", "collation.py", "render.py", "widgets.py")
_TAG = re.compile(r"<\s*/?\s*(?:a|p|span|div|li|ul|ol|aside|section|nav|strong|em|input|label|select|option|"
                  r"button|form|output|fieldset|legend|details|summary|script|style|html|head|body|main|br)\b[^>]*>")


@pytest.mark.parametrize("module", RENDERING_MODULES)
def test_the_site_s_python_assembles_no_html(module: str):
    """HTML lives in templates/, where it is autoescaped; a tag in Python code is a place to forget an escape."""
    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    tags = [node.value for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and _TAG.search(node.value)]
    assert not tags, tags
