"""Every address and link of the site comes from pravila.links: each one lands where it says."""

from __future__ import annotations

import posixpath
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from pravila import links
from pravila.content import Library


def _resolve(from_url: str, href: str) -> str:
    """Where a browser goes from a folder URL following a relative href."""
    path, _, fragment = href.partition("#")
    target = posixpath.normpath(posixpath.join(from_url, path)) if path else from_url.rstrip("/")
    if path.endswith("/") or path in ("", "./"):
        target = target.rstrip("/") + "/"
    return target + (f"#{fragment}" if fragment else "")


def _site_pages(library: Library) -> list[str]:
    """The site URL of every page of every language (home, chapters, sections, A–Z)."""
    urls = set()
    for lang in library.langs:
        urls |= {links.url_of(lang, links.HOME_PAGE), links.url_of(lang, links.TERMS_PAGE),
                 links.url_of(lang, links.CALCULATORS_PAGE)}
        urls |= {links.url_of(lang, links.chapter_path(c)) for c in library.chapters_in(lang)}
        urls |= {links.page_url(library, e) for e in library.in_lang(lang)}
    return sorted(urls)


def test_every_relative_href_lands_on_its_entry(library: Library):
    pages = _site_pages(library)
    assert len(pages) > 20
    for page in pages:
        for entry in library.entries:
            href = links.entry_href(library, page, entry)
            assert not href.startswith("/"), href  # relative: the site works under a sub-path
            assert _resolve(page, href) == links.entry_url(library, entry), (page, entry.key, href)


def test_every_markdown_href_names_the_entry_s_file(library: Library):
    paths = [links.HOME_PAGE, links.TERMS_PAGE] + [links.page_path(library, e) for e in library.entries]
    for from_path in sorted(set(paths)):
        for entry in library.entries:
            target, _, anchor = links.md_href(from_path, links.page_path(library, entry), entry.id).partition("#")
            resolved = posixpath.normpath(posixpath.join(posixpath.dirname(from_path), target)) if target else from_path
            assert resolved == links.page_path(library, entry) and anchor == entry.id, (from_path, entry.key)


def test_an_entry_s_url_is_its_page_s_and_its_anchor(library: Library):
    for entry in library.entries:
        page = links.url_of(entry.lang, links.page_path(library, entry))
        assert links.page_url(library, entry) == page
        assert links.entry_url(library, entry) == f"{page}#{entry.id}"
        assert page.startswith(f"/{entry.lang}/{entry.chapter.id}/")


REPORT = "https://git.example/issues/new?title={lang}:{id}&body={title}%0A{url}&labels=content"


@pytest.mark.parametrize("title", ["Прыжок в высоту", "Verbální (V)", "a&b=c #d?e/f {url}", "<script>"])
def test_a_report_link_carries_the_entry_url_encoded(title: str):
    url = "https://rules.example/ru/combat/movement/#high-jump"
    href = links.report_href(REPORT, lang="ru", id="high-jump", title=title, url=url)
    query = parse_qs(urlsplit(href).query)
    assert query["title"] == ["ru:high-jump"]
    assert query["body"] == [f"{title}\n{url}"]
    assert query["labels"] == ["content"]
    assert "<" not in href and " " not in href and "#" not in href


def test_a_report_pattern_keeps_braces_it_does_not_know():
    href = links.report_href("mailto:editor@example.org?subject={id}&x={other}", lang="cs", id="range", title="", url="")
    assert href == "mailto:editor@example.org?subject=range&x={other}"
    assert unquote(links.report_href("{title}", lang="cs", id="x", title="Č {id}", url="")) == "Č {id}"
