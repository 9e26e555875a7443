"""The site's own search box, in headless Chromium: the API's answers, in the browser, everywhere.

Material's box is answered by our worker (``static/search-worker.js``) from the
search data ``pravila build`` writes, with no request per query: on a static
host (the build served without the API), under ``pravila serve`` (the
``live_server`` fixture) and offline (the service worker, after a first
visit).  Queries are typed as a keyboard types them: a key down with its text
and a key up per character (CDP), since Material reads the box on keyup.

The box must list the entries the API (the Python searcher) answers, in its
order: the site's language first, all languages when that finds nothing.
A sample of the development relevance set is typed here;
``benchmarks/search_box.py`` types all of it, and ``test_search_vectors.py``
checks the worker on every query of the vectors.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
import yaml

from helpers import screenshot
from helpers import searcher as open_searcher

pytestmark = pytest.mark.browser

SEARCH_INPUT = "input[data-md-component=search-query]"
RESULT_LINK = ".md-search-result__item a.md-search-result__link"
QUERIES = Path(__file__).parent / "relevance" / "queries.yaml"
BOX_LIMIT = 20  # what the worker asks for (search-worker.js LIMIT)
SHOWN = 10  # what Material lists at once (the rest when the reader scrolls to them)


def dev_set() -> list[dict]:
    return yaml.safe_load(QUERIES.read_text(encoding="utf-8"))["queries"]


class Box:
    """Material's search box in one page, typed into with real key events."""

    def __init__(self, page):
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def open(self) -> None:
        if not self.page.locator(SEARCH_INPUT).is_visible():
            self.page.click("label[for=__search]")  # the phone's search icon
        self.page.locator(SEARCH_INPUT).focus()

    def type(self, text: str) -> list[dict[str, str]]:
        """Empty the box, type ``text`` key by key, wait for its results, return them (href, title, lang, snippet, target)."""
        self.open()
        self.page.evaluate(f"document.querySelector({SEARCH_INPUT!r}).value = ''")
        for ch in text:
            self.cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": ch, "text": ch, "unmodifiedText": ch})
            self.cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": ch})
        self.page.wait_for_function(
            "q => { const r = document.querySelector('.md-search-result'); return r && r.getAttribute('data-pv-query') === q }",
            arg=text.strip(), timeout=15_000)
        return self.results()

    def results(self) -> list[dict[str, str]]:
        return self.page.eval_on_selector_all(RESULT_LINK, """links => links.map(a => ({
            href: a.href, target: a.target,
            title: (a.querySelector('.pv-hit__title') || {}).textContent || '',
            lang: (a.querySelector('.pv-hit__lang') || {}).textContent || '',
            snippet: (a.querySelector('p.pv-hit__snippet') || {}).innerHTML || '',
            snippetInTitle: !!a.querySelector('h1 .pv-hit__snippet, h2 .pv-hit__snippet')}))""")


def entry_of(href: str) -> str:
    """``ru:grapple`` from a result's link (``…/ru/combat/actions/?h=…#grapple``)."""
    m = re.search(r"/(ru|cs)/[^#]*#(.+)$", href)
    assert m, href
    return f"{m.group(1)}:{m.group(2)}"


def expected(searcher, q: str, site: str) -> list[str]:
    """What the box must list: the API's answer in the site's language, else in all languages."""
    result = searcher.search(q, site, BOX_LIMIT)
    if not result.hits:
        result = searcher.search(q, "all", BOX_LIMIT)
    return [f"{h.lang}:{h.id}" for h in result.hits]


@pytest.fixture(scope="module")
def python(built_project):
    with open_searcher(built_project.index_dir, built_project) as searcher:
        yield searcher


@pytest.fixture(scope="module")
def static_server(built_project, serve_app):
    """The same build served without the API, as a static host would."""
    from pravila.server import create_app

    return serve_app(create_app(built_project, api=False))


@pytest.fixture(scope="module")
def context(browser):
    """One browser context for the typing tests (service workers blocked: the network is the host's)."""
    context = browser.new_context(locale="ru-RU", service_workers="block")
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    page.api_requests = []  # type: ignore[attr-defined]
    page.errors = []  # type: ignore[attr-defined]
    page.on("request", lambda r: "/api/" in r.url and page.api_requests.append(r.url))
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    page.close()


def site_of(case: dict, library) -> str:
    """The site a reader types the query in: its language's, or for all languages the expected entry's."""
    if case["lang"] != "all":
        return case["lang"]
    first = case["expect"][0] if isinstance(case["expect"], list) else case["expect"]
    return next(code for code in ("ru", "cs") if library.get(code, first))


def type_sample(page, base: str, python, cases: list[dict], library) -> list[tuple[str, list[str], list[str]]]:
    """Type each case into its site's box; (query, what the box lists, what the API answers)."""
    box, out, site = Box(page), [], None
    for case in cases:
        want_site = site_of(case, library)
        if want_site != site:
            site = want_site
            page.goto(f"{base}/{site}/")
            box = Box(page)
        shown = [entry_of(r["href"]) for r in box.type(case["q"])]
        out.append((case["q"], shown, expected(python, case["q"], site)))
    return out


def test_the_box_on_a_static_host_lists_what_the_api_answers(page, static_server, python, library):
    sample = dev_set()[::6]  # 26 of the development set, every kind and both languages
    typed = type_sample(page, static_server, python, sample, library)
    wrong = [(q, shown[:5], want[:5]) for q, shown, want in typed if shown != want[:SHOWN]]
    assert not wrong, f"the box differs from the API (query, box, API): {wrong}"
    assert page.api_requests == [] and page.errors == []


def test_under_pravila_serve_the_box_answers_in_the_browser_too(page, live_server, python, library):
    typed = type_sample(page, live_server, python, dev_set()[3::12], library)
    assert [(q, shown) for q, shown, _ in typed] == [(q, want[:SHOWN]) for q, _, want in typed]
    assert page.api_requests == [], "the box should not ask the API"


def test_results_are_entries_with_their_snippets_in_the_searcher_s_order(page, static_server, python, screenshot_dir):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(static_server + "/ru/combat/")
    results = Box(page).type("тащить схваченное существо")
    ids = [entry_of(r["href"]) for r in results]
    assert ids == expected(python, "тащить схваченное существо", "ru")[:SHOWN]
    assert ids.index("ru:moving-a-grappled-creature") == 1  # the API's second, not below every hit of another page
    assert all(r["snippet"] and not r["snippetInTitle"] for r in results[:10])
    assert any("<mark>" in r["snippet"] for r in results)
    assert all(not r["lang"] for r in results)  # the site's own language: no tag
    screenshot(page, screenshot_dir / "search-box-ru-1280.png")


def test_a_hit_in_the_other_language_is_tagged_and_opens_that_page(page, static_server, screenshot_dir):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(static_server + "/ru/")
    results = Box(page).type("sesilani")  # nothing in Russian: all languages
    assert results[0]["title"] == "Sesílání kouzel" and results[0]["lang"] == "Čeština"
    assert results[0]["target"] == "_self"  # not Material's language switch
    screenshot(page, screenshot_dir / "search-box-ru-other-language-360.png")
    page.locator(RESULT_LINK).first.click()
    page.wait_for_url(re.compile(r"/cs/spellcasting/casting-spells/.*#casting-spells$"), timeout=10_000)
    page.locator("#casting-spells").wait_for(state="visible", timeout=10_000)


def test_the_search_data_loads_on_the_box_s_first_focus_not_with_the_page(page, static_server):
    data = []
    page.on("request", lambda r: re.search(r"/assets/pravila/search/\w+\.\w+\.json$", r.url) and data.append(r.url))
    page.goto(static_server + "/cs/spellcasting/", wait_until="load")
    page.wait_for_timeout(300)
    assert data == []
    with page.expect_request(re.compile(r"/cs/assets/pravila/search/cs\.\w+\.json$")):
        Box(page).open()
    assert [u for u in data if "/ru." in u] == []  # the other language only when a query needs it
    Box(page).type("прыжок")  # nothing in Czech: all languages
    assert [u for u in data if "/ru." in u]


def test_enter_opens_the_best_result(page, static_server):
    page.goto(static_server + "/cs/")
    Box(page).type("sesilani")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/cs/spellcasting/casting-spells/"), timeout=10_000)


def test_html_typed_into_the_box_stays_text(page, static_server):
    page.goto(static_server + "/ru/")
    Box(page).type('<img src=x onerror="window.__pwned=1"> прыжок')
    assert page.evaluate("window.__pwned") is None
    assert page.locator(".md-search-result__item img").count() == 0


def test_without_its_data_the_box_says_offline_not_no_results(page, static_server):
    page.goto(static_server + "/ru/")
    page.route(re.compile(r".*/assets/pravila/search/.*"), lambda route: route.abort("internetdisconnected"))
    Box(page).type("прыжок")
    result = page.locator(".md-search-result")
    assert result.get_attribute("data-pv-state") == "offline"
    meta = page.inner_text(".md-search-result__meta")
    assert "подключ" in meta.lower() and "не найдено" not in meta.lower()


# --- offline and installable, under a sub-path -------------------------------------------------------


def visit_until_kept(page, url: str) -> None:
    """Open a page and wait until the service worker has cached the site and controls the page."""
    page.goto(url)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=30_000)


def test_after_a_first_visit_the_site_and_its_search_work_offline(browser, subpath_host, screenshot_dir):
    base = subpath_host.base
    context = browser.new_context(locale="ru-RU", viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        visit_until_kept(page, base + "/ru/")
        visit_until_kept(page, base + "/cs/")
        context.set_offline(True)

        page.goto(base + "/ru/combat/")  # not opened before: the service worker has the whole site
        results = Box(page).type("прыжок")
        assert [entry_of(r["href"]) for r in results][:2] == ["ru:long-jump", "ru:high-jump"]
        assert all(r["href"].startswith(base + "/ru/") for r in results)
        screenshot(page, screenshot_dir / "search-box-offline-ru-360.png")
        page.locator(RESULT_LINK).first.click()
        page.wait_for_url(re.compile(r"/rules/ru/combat/movement/.*#long-jump$"), timeout=10_000)
        page.locator("#long-jump").wait_for(state="visible", timeout=10_000)

        page.goto(base + "/cs/")
        results = Box(page).type("sesilani")
        assert entry_of(results[0]["href"]) == "cs:casting-spells"
        page.locator(RESULT_LINK).first.click()
        page.wait_for_url(re.compile(r"/rules/cs/spellcasting/casting-spells/"), timeout=10_000)
        page.locator("#casting-spells").wait_for(state="visible", timeout=10_000)
        assert "Verze obsahu" in page.inner_text(".md-footer")  # which content the reader has

        page.goto(base + "/ru/no-such-page/")  # an address the site does not have: offline, not "not found"
        assert page.inner_text("h1") == "Нет подключения"
    finally:
        context.close()


def test_after_a_rebuild_the_next_visit_updates_the_kept_site(browser, subpath_host):
    from pravila.offline import write_offline

    project, base, recorder = subpath_host.project, subpath_host.base, subpath_host.recorder
    context = browser.new_context(locale="ru-RU")
    try:
        page = context.new_page()
        visit_until_kept(page, base + "/ru/")
        old_version = page.evaluate("caches.keys()")
        page_file = project.site_dir / "ru" / "combat" / "index.html"
        page_file.write_text(page_file.read_text(encoding="utf-8").replace("</article>", '<p id="pv-rebuilt">new</p></article>', 1),
                             encoding="utf-8")
        write_offline(project, project.site_dir)  # what a rebuild writes: a new sw.js, one revision changed
        recorder.paths.clear()
        page.goto(base + "/ru/")  # the next visit: the browser finds the new sw.js and installs it
        deadline = time.monotonic() + 30
        while set(page.evaluate("caches.keys()")) & set(old_version) and time.monotonic() < deadline:
            page.wait_for_timeout(100)  # the old version's cache goes when the new one takes over
        page.goto(base + "/ru/combat/")
        assert page.locator("#pv-rebuilt").count() == 1
        fetched = [p for p in recorder.paths if p.startswith("/rules/ru/")]
        assert "/rules/ru/combat/" in fetched and "/rules/ru/sw.js" in fetched
        assert not [p for p in fetched if "/assets/" in p], f"unchanged files downloaded again: {fetched}"
    finally:
        context.close()


def test_the_site_installs_as_an_app(browser, subpath_host, tmp_path):
    base = subpath_host.base
    # Chromium installs nothing from an incognito context (what new_context() makes): a profile of its own.
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path="/usr/bin/chromium", headless=True,
        args=["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
              "--disable-dev-shm-usage"])
    try:
        page = context.new_page()
        visit_until_kept(page, base + "/cs/")
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == [] and manifest["url"] == base + "/cs/manifest.webmanifest"
    finally:
        context.close()
