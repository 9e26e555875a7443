"""The site's own search box, in headless Chromium.

Under ``pravila serve`` (the ``live_server`` fixture) Material's search box is
answered by our worker from /api/search; on a static host (the same build
served without the API) it falls back to Material's built-in search.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

SEARCH_INPUT = "input[data-md-component=search-query]"
RESULT = ".md-search-result__item"


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    page.api_requests = []  # type: ignore[attr-defined]
    page.errors = []  # type: ignore[attr-defined]
    page.on("request", lambda r: "/api/" in r.url and page.api_requests.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


@pytest.fixture(scope="module")
def static_server(built_project, serve_app):
    """The same build served without the API, as a static host would."""
    from pravila.server import create_app

    return serve_app(create_app(built_project, api=False))


def search(page, base: str, path: str, query: str) -> list[dict[str, str]]:
    """Open a page, type the query into the search box, return the results (title, text, href)."""
    page.goto(base + path)
    box = page.locator(SEARCH_INPUT)
    box.click()
    box.press_sequentially(query, delay=20)
    # Playwright types non-Latin letters as inserted text without key events, and Material
    # reads the box on keyup (as a real keyboard sends it): end with a real key.
    box.press("End")
    page.wait_for_selector(f"{RESULT} a", timeout=10_000)
    page.wait_for_timeout(300)  # let the last keystroke's answer replace the earlier ones
    return page.eval_on_selector_all(
        f"{RESULT} a",
        """links => links.map(a => ({
            title: (a.querySelector('h1, h2') || {}).textContent || '',
            text: a.textContent,
            marks: Array.from(a.querySelectorAll('mark')).map(m => m.textContent),
            href: a.getAttribute('href')}))""",
    )


def test_pryzhok_shows_the_jump_entries_from_the_api(page, live_server, screenshot_dir):
    results = search(page, live_server, "/ru/combat/", "прыжок")
    titles = [r["title"] for r in results]
    assert "Прыжок в высоту" in titles and "Прыжок в длину" in titles
    assert any(r["href"] and r["href"].endswith("#high-jump") for r in results)
    assert any("прыж" in m.lower() for r in results for m in r["marks"])  # snippet words marked
    assert any("/api/search?q=" in u for u in page.api_requests)
    page.screenshot(path=str(screenshot_dir / "search-ru-pryzhok.png"))
    assert page.errors == []


def test_sesilani_shows_sesilani_kouzel(page, live_server, screenshot_dir):
    results = search(page, live_server, "/cs/", "sesilani")
    assert results[0]["title"] == "Sesílání kouzel"  # Material's own search finds nothing for this
    assert any("/api/search?q=sesilani" in u for u in page.api_requests)
    page.screenshot(path=str(screenshot_dir / "search-cs-sesilani.png"))
    assert page.errors == []


def test_enter_opens_the_best_result(page, live_server):
    search(page, live_server, "/cs/", "sesilani")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/cs/spellcasting/casting-spells/"), timeout=10_000)


def test_a_query_in_the_other_language_still_finds_it(page, live_server):
    results = search(page, live_server, "/cs/", "прыжок")
    assert any(r["href"] and "/ru/combat/movement/" in r["href"] for r in results)


def test_html_typed_into_the_box_stays_text(page, live_server):
    page.goto(live_server + "/ru/")
    box = page.locator(SEARCH_INPUT)
    box.click()
    box.press_sequentially('<img src=x onerror="window.__pwned=1"> прыжок', delay=5)
    box.press("End")
    page.wait_for_selector(f"{RESULT} a", timeout=10_000)
    page.wait_for_timeout(500)
    assert page.evaluate("window.__pwned") is None
    assert page.locator(f"{RESULT} img").count() == 0


def test_a_static_host_falls_back_to_material_search(page, static_server):
    results = search(page, static_server, "/ru/combat/", "прыжок")
    assert any("Прыжок" in r["title"] for r in results)
    assert not any("/api/search" in u for u in page.api_requests)  # only the health check was tried
    assert page.errors == []
