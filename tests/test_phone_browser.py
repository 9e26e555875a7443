"""At the table on a phone (issue #14): the site in Chromium at 360×740 with touch, and at 1280×800.

Under ``pravila serve`` (``live_server``) and on a plain static host (``static_host``: the same
build served as files, a missing address answered by the root ``404.html`` as static hosts do).
One phone and one desktop context per module, pages reused; screenshots go to
``build/screenshots/phone-*.png`` and ``desktop-*.png``.
"""

from __future__ import annotations

import functools
import http.server
import re
import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from pravila.content import Library
from pravila.links import entry_url

from helpers import screenshot, settle

pytestmark = pytest.mark.browser

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SEARCH_INPUT = "input[data-md-component=search-query]"


@pytest.fixture(scope="module")
def phone(browser) -> Iterator[Any]:
    context = browser.new_context(**PHONE, locale="ru-RU", color_scheme="light")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture(scope="module")
def desktop(browser) -> Iterator[Any]:
    context = browser.new_context(**DESKTOP, locale="ru-RU", color_scheme="light")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture()
def tab(phone) -> Iterator[Any]:
    """A fresh page of the phone context, with the reader's storage cleared; no script errors."""
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    page.close()
    assert errors == []


class _StaticHost(http.server.SimpleHTTPRequestHandler):
    """Files as a static host serves them: a missing address gets /404.html with status 404."""

    def log_message(self, *args: Any) -> None:
        pass

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        page = Path(self.directory) / "404.html"
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)


@pytest.fixture(scope="module")
def static_host(built_project) -> Iterator[str]:
    handler = functools.partial(_StaticHost, directory=str(built_project.site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def _type(page, text: str) -> None:
    """Real key events (keyDown with text, keyUp): Material's search box reads the box on keyup."""
    cdp = page.context.new_cdp_session(page)
    for ch in text:
        cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": ch, "unmodifiedText": ch, "key": ch})
        cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": ch})
    cdp.detach()


def _in_view(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect();"
        " return r.top >= 0 && r.top < innerHeight / 2; }", selector)


# --- the blocker: a search result on a phone opens its rule ---------------------------------


@pytest.mark.parametrize("width", [360, 900])
def test_a_search_result_on_a_phone_lands_on_its_rule(browser, live_server: str, screenshot_dir: Path, width: int):
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 740}}, locale="ru-RU")
    page = context.new_page()
    page.goto(f"{live_server}/ru/")
    page.click("label.md-header__button[for='__search']")
    page.wait_for_timeout(500)  # the overlay locks the page's scrolling after 400 ms
    page.focus(SEARCH_INPUT)
    _type(page, "как встать")
    result = page.locator(".md-search-result__item a[href*='#being-prone']").first
    result.wait_for()
    result.tap()
    page.wait_for_url(re.compile(r"/ru/combat/movement/.*#being-prone$"))
    page.wait_for_function("() => { const el = document.getElementById('being-prone');"
                           " const r = el && el.getBoundingClientRect();"
                           " return r && r.top >= 0 && r.top < innerHeight / 3 && scrollY > 1000; }", timeout=5_000)
    page.wait_for_timeout(800)  # and it stays there once the overlay has closed
    assert page.evaluate("scrollY") > 1000  # far down the page, not left at its top
    assert _in_view(page, "#being-prone")
    if width == 360:
        screenshot(page, screenshot_dir / "phone-10-search-result-landed.png")
    context.close()


# --- previews on a touch screen --------------------------------------------------------------


def test_a_tap_on_a_rule_link_previews_it_and_a_second_tap_opens_it(tab, live_server: str, screenshot_dir: Path):
    from playwright.sync_api import expect

    tab.goto(f"{live_server}/ru/combat/actions/")
    link = tab.locator("article a[data-preview][href$='movement/#being-prone']").first
    link.scroll_into_view_if_needed()
    link.tap()
    tooltip = tab.locator(".md-tooltip2--active")
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("Лежание ничком")
    assert tab.url.endswith("/ru/combat/actions/")  # still here
    open_link = tooltip.locator(".pv-peek-open a")
    expect(open_link).to_have_text("Открыть правило →")
    screenshot(tab, screenshot_dir / "phone-11-touch-preview.png")
    link.tap()  # the second tap follows the link
    tab.wait_for_url(re.compile(r"/ru/combat/movement/#being-prone$"))
    # the preview's own link opens the rule too
    tab.goto(f"{live_server}/ru/combat/actions/")
    link = tab.locator("article a[data-preview][href$='movement/#being-prone']").first
    link.scroll_into_view_if_needed()
    link.tap()
    tab.locator(".md-tooltip2--active .pv-peek-open a").tap()
    tab.wait_for_url(re.compile(r"/ru/combat/movement/#being-prone$"))


def test_a_mouse_click_still_follows_a_rule_link(desktop, live_server: str):
    page = desktop.new_page()
    page.goto(f"{live_server}/ru/combat/actions/")
    page.click("article a[data-preview][href$='movement/#being-prone']")
    page.wait_for_url(re.compile(r"/ru/combat/movement/#being-prone$"))
    page.close()


def test_the_marks_after_english_names_explain_themselves_on_a_tap(tab, live_server: str):
    tab.goto(f"{live_server}/cs/a-z/")
    marked = tab.locator(".pv-en--no-heading, .pv-en--not-in-srd").first
    marked.scroll_into_view_if_needed()
    reason = marked.locator(".pv-sr")
    assert reason.bounding_box()["width"] <= 1  # for screen readers only, until tapped
    marked.locator(".pv-en__mark").tap()
    assert reason.bounding_box()["width"] > 20
    assert "SRD" in reason.inner_text() or "nadpis" in reason.inner_text()


# --- links into the other language ---------------------------------------------------------------


@pytest.mark.parametrize("device", ["phone", "desktop"])
def test_a_calculator_answer_links_into_the_other_language(request, live_server: str, device: str):
    page = request.getfixturevalue(device).new_page()
    page.goto(f"{live_server}/cs/calculators/")
    link = page.locator("#calc-page-jump a[data-rule='ru:long-jump']")
    assert link.inner_text() == "Skok do dálky"
    link.click()
    page.wait_for_url(re.compile(r"/ru/combat/movement/#long-jump$"))
    assert page.locator("#long-jump").is_visible()
    page.close()


# --- the language switcher ---------------------------------------------------------------------


def test_the_switcher_goes_to_the_counterpart_of_the_rule_in_view(desktop, live_server: str, library: Library,
                                                                  screenshot_dir: Path):
    page = desktop.new_page()
    cast = library.get("ru", "cast-a-spell")
    page.goto(f"{live_server}{entry_url(library, cast)}")
    page.wait_for_timeout(300)
    switch = page.locator(".md-select__link[hreflang=cs]")
    assert switch.locator(".pv-switch-to").inner_text() == "«Sesílání kouzel»"
    page.locator(".md-header__option .md-select").hover()
    screenshot(page, screenshot_dir / "desktop-12-switcher.png")
    # a rule without a counterpart: the other language's home page, and it says so
    page.goto(f"{live_server}{entry_url(library, library.get('ru', 'dash'))}")
    page.wait_for_timeout(300)
    assert switch.locator(".pv-switch-to").inner_text() == "главная страница"
    assert switch.get_attribute("href").endswith("/cs/")
    # back to the rule with a counterpart, and follow the switch
    page.goto(f"{live_server}{entry_url(library, cast)}")
    page.wait_for_timeout(300)
    page.locator(".md-header__option .md-select").hover()
    switch.click()
    page.wait_for_url(f"{live_server}{entry_url(library, library.get('cs', 'casting-spells'))}")
    assert page.evaluate("localStorage.getItem('pravila.lang')") == "cs"
    # the A–Z index pairs with the other A–Z index
    page.goto(f"{live_server}/cs/a-z/")
    assert page.locator(".md-select__link[hreflang=ru]").get_attribute("href").endswith("/ru/a-z/")
    page.close()


def test_the_phone_menu_has_the_other_language(tab, live_server: str, library: Library, screenshot_dir: Path):
    tab.goto(f"{live_server}{entry_url(library, library.get('cs', 'casting-spells'))}")
    tab.wait_for_timeout(300)
    tab.click("label.md-header__button[for='__drawer']")
    entry = tab.locator(".md-nav--primary .pv-nav-lang a[hreflang=ru]").first  # the chapter's panel, open
    entry.scroll_into_view_if_needed()
    assert entry.is_visible()
    assert "Русский" in entry.inner_text() and "«Накладывание заклинания»" in entry.inner_text()
    assert entry.bounding_box()["height"] >= 40
    screenshot(tab, screenshot_dir / "phone-12-menu-language.png")
    entry.tap()
    tab.wait_for_url(re.compile(r"/ru/combat/actions/#cast-a-spell$"))


@pytest.mark.parametrize("host", ["static_host", "live_server"])
def test_the_chooser_remembers_the_reader_s_language(browser, request, host: str):
    base = request.getfixturevalue(host)
    context = browser.new_context(locale="en-US")  # no language the server could pick from the browser
    page = context.new_page()
    page.goto(f"{base}/")
    assert page.locator(".pv-chooser__card").count() == 2  # the first time, it asks
    page.click(".pv-chooser__card[hreflang=cs]")
    page.wait_for_url(f"{base}/cs/")
    page.goto(f"{base}/")
    page.wait_for_url(f"{base}/cs/")  # not asked again
    assert any(c["name"] == "pravila_lang" and c["value"] == "cs" for c in context.cookies())
    page.goto(f"{base}/index.html?choose")  # asking again on purpose
    assert page.locator(".pv-chooser__card").count() == 2
    context.close()


# --- numbers as readers type them ------------------------------------------------------------


def test_a_decimal_comma_counts_and_bad_input_is_said(tab, live_server: str, screenshot_dir: Path):
    tab.goto(f"{live_server}/ru/calculators/")
    widget = tab.locator("#calc-page-jump")
    answer = widget.locator("output")
    widget.get_by_label("Значение Силы").fill("15")
    height = widget.get_by_label("Ваш рост в футах, для досягаемости (необязательно)")
    height.fill("5,5")
    assert "Дотягиваетесь до высоты: 13,25 фута" in answer.inner_text()
    height.fill("5.5")
    assert "Дотягиваетесь до высоты: 13,25 фута" in answer.inner_text()
    height.blur()
    assert height.input_value() == "5,5"  # shown in the reader's format
    height.fill("пять")
    assert height.get_attribute("aria-invalid") == "true"
    assert "«пять» — не число" in answer.inner_text()
    assert height.get_attribute("aria-describedby") == answer.get_attribute("id")
    height.scroll_into_view_if_needed()
    screenshot(tab, screenshot_dir / "phone-13-bad-number.png")
    height.fill("")
    assert height.get_attribute("aria-invalid") is None
    # a leg of 7,5 feet is 7,5 feet, not 75
    move = tab.locator("#calc-page-move")
    move.get_by_label("Расстояние в футах").fill("7,5")
    assert "Можно: перемещение стоит 7,5 фута, остаток 22,5 фута." == move.locator(".pravila-calc__line").first.inner_text()


def test_the_verdict_comes_first_and_a_shortfall_is_no_negative_number(tab, live_server: str, screenshot_dir: Path):
    tab.goto(f"{live_server}/ru/combat/movement/")
    widget = tab.locator("#calc-being-prone")
    widget.get_by_label("Расстояние в футах").fill("40")
    lines = widget.locator(".pravila-calc__line")
    assert lines.first.inner_text() == "Нельзя: шаг 2 стоит 40 футов, а в запасе только 15 футов."
    text = widget.locator("output").inner_text()
    assert "на 25 футов больше, чем осталось" in text and "-25" not in text
    widget.locator("output").scroll_into_view_if_needed()
    screenshot(tab, screenshot_dir / "phone-14-verdict-first.png")


def test_tap_targets_and_checkboxes_on_a_phone(tab, live_server: str, screenshot_dir: Path):
    tab.goto(f"{live_server}/ru/calculators/")
    small = tab.evaluate(
        """() => [...document.querySelectorAll('.pravila-calc input, .pravila-calc select, .pravila-calc button,'
                 + ' .pravila-calc__answer a, .pravila-calc__check')]
              .filter((el) => el.offsetParent !== null && !el.closest('.pravila-calc__check, template')
                              || el.matches('.pravila-calc__check'))
              .filter((el) => el.type !== 'checkbox' && el.type !== 'radio')
              .map((el) => [el.name || el.className || el.textContent.trim(), el.getBoundingClientRect().height])
              .filter(([, h]) => h < 44)"""
    )
    assert small == []
    # every checkbox sits on the same line as its words, at 360 px too
    apart = tab.evaluate(
        """() => [...document.querySelectorAll('.pravila-calc__check')].filter((label) => label.offsetParent)
              .filter((label) => { const box = label.querySelector('input').getBoundingClientRect();
                                   const words = label.querySelector('span').getBoundingClientRect();
                                   return words.top > box.bottom || words.left < box.right; })
              .map((label) => label.textContent.trim())"""
    )
    assert apart == []
    tab.locator("#calc-page-move").scroll_into_view_if_needed()
    screenshot(tab, screenshot_dir / "phone-15-move-widget.png")


def test_the_character_s_numbers_are_remembered(tab, live_server: str):
    tab.goto(f"{live_server}/ru/calculators/")
    tab.evaluate("localStorage.removeItem('pravila.character')")
    tab.reload()
    jump = tab.locator("#calc-page-jump")
    strength = jump.get_by_label("Значение Силы")
    strength.fill("17")
    strength.blur()
    speed = tab.locator("#calc-page-move").get_by_label("Скорость в футах")
    speed.fill("25")
    speed.blur()
    # another page: the rule widgets start from the reader's numbers, not their presets
    tab.goto(f"{live_server}/ru/combat/movement/")
    assert tab.locator("#calc-long-jump").get_by_label("Значение Силы").input_value() == "17"
    assert "Прыжок в длину с разбега не менее 10 футов: 17 футов" in tab.locator("#calc-long-jump output").inner_text()
    grappled = tab.locator("#calc-moving-a-grappled-creature")
    assert grappled.get_by_label("Скорость в футах").input_value() == "25"
    # a change in one widget shows in the others of the page
    tab.locator("#calc-high-jump").get_by_label("Значение Силы").fill("12")
    tab.locator("#calc-high-jump").get_by_label("Значение Силы").blur()
    assert tab.locator("#calc-long-jump").get_by_label("Значение Силы").input_value() == "12"
    tab.evaluate("localStorage.removeItem('pravila.character')")


def test_the_calculators_page_names_each_calculator_once(tab, live_server: str):
    tab.goto(f"{live_server}/cs/calculators/")
    title = "Jak daleko skočím?"
    named = tab.locator("article :is(h2, .pravila-calc__title)").filter(has_text=title)
    assert named.count() == 1
    assert tab.locator("#calc-page-jump").get_attribute("aria-labelledby") == "calc-jump"


# --- sharing, search engines --------------------------------------------------------------------


def _meta(page) -> dict[str, list[str]]:
    return page.evaluate(
        """() => { const out = {}; for (const m of document.querySelectorAll('meta[name], meta[property]')) {
                     const k = m.getAttribute('property') || m.getAttribute('name');
                     (out[k] = out[k] || []).push(m.getAttribute('content')); }
                   out.hreflang = [...document.querySelectorAll('link[rel=alternate][hreflang]')]
                       .map((l) => l.hreflang + ' ' + l.href);
                   return out; }"""
    )


def test_each_page_describes_itself_and_pairs_only_with_real_counterparts(desktop, live_server: str):
    page = desktop.new_page()
    seen = {}
    for path in ("/ru/", "/ru/combat/movement/", "/cs/spellcasting/duration/", "/cs/a-z/", "/ru/combat/"):
        page.goto(f"{live_server}{path}")
        meta = _meta(page)
        seen[path] = meta["description"][0]
        assert meta["og:description"] == meta["description"] and meta["og:title"] and meta["twitter:card"] == ["summary"]
        assert meta["og:locale"] == ["ru_RU" if path.startswith("/ru/") else "cs_CZ"]
        if path in ("/ru/", "/cs/a-z/"):
            other = "/cs/" if path == "/ru/" else "/ru/a-z/"
            assert f"{'cs' if path == '/ru/' else 'ru'} {live_server}{other}" in meta["hreflang"]
        else:  # a section or chapter page has no page in the other language that is the same
            assert meta["hreflang"] == [], path
    assert len(set(seen.values())) == len(seen)  # no two pages with the same description
    assert seen["/cs/spellcasting/duration/"].startswith("Trvání kouzla je doba")
    page.close()


def test_an_entry_has_an_address_to_share(browser, desktop, live_server: str, library: Library):
    from playwright.sync_api import expect

    page = desktop.new_page()
    # what a link preview (no scripts, no #fragment) reads
    context = browser.new_context(java_script_enabled=False)
    html = context.request.get(f"{live_server}/ru/r/being-prone/").text()
    context.close()
    meta = dict(re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)"', html))
    assert meta["og:title"] == "Лежание ничком (Being Prone)"
    assert meta["og:description"].startswith("Участники сражения часто оказываются лежащими")
    assert meta["og:url"] == f"{live_server}/ru/r/being-prone/"
    assert meta["twitter:card"] == "summary" and meta["og:locale"] == "ru_RU"
    # the permalink offers it, and a reader who opens it lands on the rule
    page.goto(f"{live_server}{entry_url(library, library.get('ru', 'being-prone'))}")
    permalink = page.locator("#being-prone a.headerlink")
    expect(permalink).to_have_attribute("href", f"{live_server}/ru/r/being-prone/")
    page.goto(f"{live_server}/ru/r/being-prone/")
    page.wait_for_url(re.compile(r"/ru/combat/movement/#being-prone$"))
    # a run-in entry has a permalink of its own
    run_in = next(e for e in library.in_lang("ru") if e.form == "run-in")
    page.goto(f"{live_server}{entry_url(library, run_in)}")
    expect(page.locator(f"#{run_in.id} a.pv-permalink")).to_have_attribute("href", f"{live_server}/ru/r/{run_in.id}/")
    page.close()


def test_the_search_box_s_address_opens_the_search(desktop, live_server: str):
    page = desktop.new_page()
    page.goto(f"{live_server}/ru/?q=прыжок")
    page.wait_for_selector(".md-search-result__item a")
    assert page.locator(SEARCH_INPUT).input_value() == "прыжок"
    assert page.locator(".md-search__options [for='__search'], .md-search__options a[title]").count() >= 1  # share
    page.close()


# --- 404 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["live_server", "static_host"])
def test_a_missing_page_speaks_russian_and_offers_ways_on(tab, request, host: str, screenshot_dir: Path):
    base = request.getfixturevalue(host)
    response = tab.goto(f"{base}/ru/combat/pryzhok-v-dlinu/")
    assert response.status == 404
    heading = tab.locator("h1:visible").first
    assert heading.inner_text() == "Страница не найдена"
    search = tab.locator(".pv-404__search a:visible, .pv-notfound__search:visible").first
    assert search.inner_text() == "Искать «pryzhok v dlinu»"
    assert tab.locator("a[href$='/ru/a-z/']:visible, a[href$='a-z/']:visible").count() >= 1
    screenshot(tab, screenshot_dir / f"phone-16-404-{host}.png")
    search.tap()
    tab.wait_for_function("() => (document.querySelector('input[data-md-component=search-query]') || {}).value"
                          " === 'pryzhok v dlinu'")


# --- print -------------------------------------------------------------------------------------------


def test_printing_gives_the_rules_not_the_forms(desktop, live_server: str, screenshot_dir: Path):
    page = desktop.new_page()
    page.emulate_media(media="print")
    counts = {}
    for path in ("/ru/combat/movement/", "/cs/spellcasting/spell-level/"):
        page.goto(f"{live_server}{path}")
        pdf = page.pdf(format="A4")
        counts[path] = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
        if path.startswith("/ru/"):
            (screenshot_dir / "print-movement-ru.pdf").write_bytes(pdf)
        hidden = page.evaluate("[...document.querySelectorAll('.pravila-calc')].every((el) => !el.offsetParent)")
        assert hidden, path
    assert counts["/ru/combat/movement/"] <= 5, counts  # 8 pages with the calculator forms
    assert counts["/cs/spellcasting/spell-level/"] == 1, counts  # a short page: no blank last page (Material's full-height body)
    page.close()


# --- accessibility: axe-core on the pages a reader uses most ---------------------------------------

AXE_PAGES = ["/{lang}/", "/{lang}/a-z/", "/{lang}/calculators/", "{rule}"]
RULE_PAGES = {"ru": "/ru/combat/movement/", "cs": "/cs/spellcasting/effects/"}  # with widgets


@pytest.mark.parametrize("device", ["phone", "desktop"])
@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_axe_finds_nothing_serious(request, live_server: str, device: str, lang: str):
    """No serious or critical violation (axe-core 4.x) on the home page, a rule page with widgets,
    the A–Z index and the calculators page."""
    from axe_playwright_python.sync_playwright import Axe

    axe = Axe()
    page = request.getfixturevalue(device).new_page()
    found = []
    for pattern in AXE_PAGES:
        path = pattern.format(lang=lang, rule=RULE_PAGES[lang])
        page.goto(f"{live_server}{path}")
        settle(page)
        result = axe.run(page)
        for v in result.response["violations"]:
            if v["impact"] in ("serious", "critical"):
                targets = [n["target"] for n in v["nodes"]][:3]
                found.append(f"{path}: {v['id']} ({v['impact']}, {len(v['nodes'])}×) {targets}")
    page.close()
    assert found == []
