"""A reader's way through the site in headless Chromium, on a laptop and on a phone.

Screenshots go to ``build/screenshots/`` (desktop 1280 px and phone 360 px wide).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pravila.content import Library
from pravila.links import entry_url

from helpers import screenshot, settle

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 360, "height": 780}


@pytest.fixture()
def desktop(browser, request):
    context = browser.new_context(viewport=DESKTOP, locale="en-US", color_scheme="light")
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture()
def phone(browser):
    context = browser.new_context(
        viewport=PHONE, locale="ru-RU", is_mobile=True, has_touch=True, device_scale_factor=2, color_scheme="light"
    )
    context.set_default_timeout(10_000)
    yield context
    context.close()


def _errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return errors


def test_reader_journey_on_desktop(desktop, live_server: str, library: Library, screenshot_dir: Path):
    from playwright.sync_api import expect

    page = desktop.new_page()
    errors = _errors(page)

    # / without a matching Accept-Language: the chooser
    page.goto(f"{live_server}/")
    expect(page.locator("a[hreflang=ru]")).to_be_visible()
    screenshot(page, screenshot_dir / "desktop-01-chooser.png")

    # … to the Russian site
    page.click("a[hreflang=ru]")
    expect(page).to_have_url(f"{live_server}/ru/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    screenshot(page, screenshot_dir / "desktop-02-home-ru.png")

    # open an entry from the navigation: chapter tab, section in the sidebar, entry in the contents
    page.click(".md-tabs__link:has-text('Бой')")
    expect(page).to_have_url(f"{live_server}/ru/combat/")
    page.click(".md-nav--primary a.md-nav__link:has-text('Действия')")
    expect(page).to_have_url(f"{live_server}/ru/combat/actions/")
    expect(page.locator("h1")).to_have_text(re.compile("Действия"))
    page.click(".md-sidebar--secondary a.md-nav__link[href$='#grapple']")
    expect(page).to_have_url(re.compile(r"/ru/combat/actions/#grapple$"))
    expect(page.locator("#grapple")).to_be_in_viewport()
    screenshot(page, screenshot_dir / "desktop-03-entry.png")

    # follow a cross-reference to another page
    page.click("article a[data-preview][href$='movement/#being-prone']")
    expect(page).to_have_url(f"{live_server}/ru/combat/movement/#being-prone")
    expect(page.locator("#being-prone")).to_be_in_viewport()

    # hover one and see the preview of its target
    link = page.locator("article a[data-preview][href$='#difficult-terrain']").first
    link.scroll_into_view_if_needed()
    link.hover()
    tooltip = page.locator(".md-tooltip2--active")
    expect(tooltip).to_be_visible()
    expect(tooltip).to_contain_text("Труднопроходимая местность")
    expect(tooltip).to_contain_text("Difficult Terrain")
    screenshot(page, screenshot_dir / "desktop-04-preview.png")

    # switch to the Czech counterpart of «Накладывание заклинания»
    cast = library.get("ru", "cast-a-spell")
    page.goto(f"{live_server}{entry_url(library, cast)}")  # type: ignore[arg-type]
    counterpart = page.locator("#cast-a-spell ~ .pv-counterparts a[hreflang=cs]").first
    expect(counterpart).to_be_visible()
    counterpart.scroll_into_view_if_needed()
    screenshot(page, screenshot_dir / "desktop-05-counterparts.png")
    target = library.get("cs", "casting-spells")
    counterpart.click()
    expect(page).to_have_url(f"{live_server}{entry_url(library, target)}")  # type: ignore[arg-type]
    expect(page.locator("html")).to_have_attribute("lang", "cs")
    expect(page.locator("h1")).to_have_text(re.compile("Sesílání kouzel"))
    screenshot(page, screenshot_dir / "desktop-06-czech.png")

    assert errors == []


def test_cross_page_anchor_right_after_scrolling(desktop, live_server: str):
    """Instant navigation must open the link's #anchor even when the click follows a scroll."""
    from playwright.sync_api import expect

    page = desktop.new_page()
    for _ in range(4):
        page.goto(f"{live_server}/ru/combat/actions/")
        page.click(".md-sidebar--secondary a.md-nav__link[href$='#grapple']")  # scrolls the page
        page.wait_for_timeout(120)
        page.click("article a[data-preview][href$='movement/#being-prone']")
        expect(page).to_have_url(f"{live_server}/ru/combat/movement/#being-prone")
        expect(page.locator("#being-prone")).to_be_in_viewport()


def test_counterpart_note_and_edition_on_desktop(desktop, live_server: str, library: Library, screenshot_dir: Path):
    from playwright.sync_api import expect

    page = desktop.new_page()
    material = library.get("cs", "material")
    page.goto(f"{live_server}{entry_url(library, material)}")  # type: ignore[arg-type]
    block = page.locator("#material ~ .pv-counterparts").first
    expect(block).to_contain_text("Vydání se liší")
    expect(block).to_contain_text("Redakční poznámka")
    expect(page.locator("#material")).to_be_in_viewport()
    screenshot(page, screenshot_dir / "desktop-07-counterpart-note.png")


def test_run_in_preview_and_a_z_filter(desktop, live_server: str, screenshot_dir: Path):
    from playwright.sync_api import expect

    page = desktop.new_page()
    errors = _errors(page)
    page.goto(f"{live_server}/cs/a-z/")
    box = page.locator(".pv-az-filter")
    expect(box).to_be_visible()
    box.fill("upcast")  # an English alias («upcast», «upcasting») finds the Czech rule
    visible = page.locator(".pv-az-group li:visible")
    expect(visible).to_have_count(2)
    for row in visible.all():
        expect(row).to_contain_text("Použití pozice pro kouzlo vyšší úrovně")
    box.fill("zzzz")
    expect(page.locator(".pv-az-empty")).to_be_visible()
    box.fill("neni v SRD")  # words only a screen reader hears (why an English name is marked) match nothing
    expect(page.locator(".pv-az-empty")).to_be_visible()
    box.fill("soustredeni")  # no diacritics
    expect(page.locator(".pv-az-group li:visible").first).to_contain_text("Soustředění")
    box.fill("")
    screenshot(page, screenshot_dir / "desktop-08-a-z-cs.png")

    # a list-item entry: its preview is that entry, not the whole list
    page.goto(f"{live_server}/cs/spellcasting/spell-level/")
    link = page.locator("article a[data-preview][href$='#cantrips']").first
    link.hover()
    tooltip = page.locator(".md-tooltip2--active")
    expect(tooltip).to_contain_text("Cantrip se sesílá")
    expect(tooltip).not_to_contain_text("Rituály")
    screenshot(page, screenshot_dir / "desktop-09-list-item-preview.png")
    assert errors == []


def test_dark_mode_toggle(desktop, live_server: str, screenshot_dir: Path):
    from playwright.sync_api import expect

    page = desktop.new_page()
    page.goto(f"{live_server}/ru/combat/actions/")
    body = page.locator("body")
    before = body.get_attribute("data-md-color-scheme")
    for _ in range(3):
        if body.get_attribute("data-md-color-scheme") == "slate":
            break
        page.locator("form[data-md-component=palette] label:visible").first.click()
    expect(body).to_have_attribute("data-md-color-scheme", "slate")
    assert before != "slate"
    screenshot(page, screenshot_dir / "desktop-10-dark.png")


def test_reader_journey_on_a_phone(phone, live_server: str, library: Library, screenshot_dir: Path):
    from playwright.sync_api import expect

    page = phone.new_page()
    errors = _errors(page)

    # Accept-Language: ru → the server sends the phone to /ru/
    page.goto(f"{live_server}/")
    expect(page).to_have_url(f"{live_server}/ru/")
    screenshot(page, screenshot_dir / "phone-01-home-ru.png")

    # the navigation drawer: chapter → section
    page.click("label.md-header__button[for='__drawer']")
    expect(page.locator(".md-nav--primary")).to_be_visible()
    screenshot(page, screenshot_dir / "phone-02-drawer.png")
    page.locator(".md-nav--primary .md-nav__item--nested > .md-nav__container label").first.click()
    section = page.locator(".md-nav--primary a.md-nav__link:has-text('Движение'):visible").first
    expect(section).to_be_visible()
    section.click()
    expect(page).to_have_url(f"{live_server}/ru/combat/movement/")
    screenshot(page, screenshot_dir / "phone-03-section.png")

    # an entry with its meta line, «see also» and a cross-reference
    page.goto(f"{live_server}{entry_url(library, library.get('ru', 'being-prone'))}")  # type: ignore[arg-type]
    expect(page.locator("#being-prone")).to_be_in_viewport()
    screenshot(page, screenshot_dir / "phone-04-entry.png")

    for path in ("/ru/", "/ru/combat/actions/", "/ru/a-z/", "/cs/spellcasting/components/", "/cs/spellcasting/effects/"):
        page.goto(f"{live_server}{path}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{path} is {width} px wide on a 360 px screen"
    page.goto(f"{live_server}/ru/a-z/")
    screenshot(page, screenshot_dir / "phone-05-a-z.png")
    page.goto(f"{live_server}/cs/spellcasting/effects/#clear-path-to-a-target")
    page.wait_for_timeout(300)
    screenshot(page, screenshot_dir / "phone-06-counterpart.png")
    assert errors == []


def test_print_stylesheet_hides_the_chrome(desktop, live_server: str, screenshot_dir: Path):
    page = desktop.new_page()
    page.goto(f"{live_server}/ru/combat/actions/")
    page.emulate_media(media="print")
    hidden = page.evaluate(
        """() => ['.md-header', '.md-sidebar--primary', '.md-footer', '.pv-backlinks']
              .map(s => document.querySelector(s))
              .map(el => !el || getComputedStyle(el).display === 'none')"""
    )
    assert all(hidden), hidden
    screenshot(page, screenshot_dir / "desktop-11-print.png")
    page.pdf(path=str(screenshot_dir / "print-actions-ru.pdf"))


# --- the pages as a reader sees them: light and dark, laptop and phone ---------------------------

# (name, path): a rule page with editor's notes and a calculator, a Czech page with notes, one
# with calculators, the A–Z indexes, the chapter pages, the chooser.
LOOKS = [
    ("ru-rule", "/ru/combat/movement/#high-jump"),
    ("cs-notes", "/cs/spellcasting/schools-of-magic/"),
    ("cs-rule", "/cs/spellcasting/effects/#saving-throws"),
    ("ru-a-z", "/ru/a-z/"),
    ("cs-a-z", "/cs/a-z/"),
    ("ru-chapter", "/ru/combat/"),
    ("cs-chapter", "/cs/spellcasting/"),
    ("chooser", "/index.html"),
]
VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2},
}


def _background(page, selector: str) -> str:
    return page.evaluate(f"getComputedStyle(document.querySelector({selector!r})).backgroundColor")


@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_pages_in_light_and_dark(browser, live_server: str, screenshot_dir: Path, device: str):
    """Every kind of page fits the screen at both widths, and in the dark scheme on a phone (the desktop's
    dark scheme: test_dark_mode_toggle); editor's notes stand apart from rules text in both schemes."""
    for scheme in ("light", "dark") if device == "phone" else ("light",):
        context = browser.new_context(**VIEWPORTS[device], color_scheme=scheme, locale="en-US")
        context.set_default_timeout(10_000)
        page = context.new_page()
        errors = _errors(page)
        for name, path in LOOKS:
            page.goto(f"{live_server}{path}")
            settle(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= VIEWPORTS[device]["viewport"]["width"], f"{path} is {width} px wide ({device}, {scheme})"
            if name == "chooser":
                dark_page = page.evaluate("getComputedStyle(document.body).backgroundColor") in ("rgb(27, 25, 24)",)
                assert dark_page == (scheme == "dark"), f"the chooser ignores prefers-color-scheme: {scheme}"
            else:
                assert page.get_attribute("body", "data-md-color-scheme") == ("slate" if scheme == "dark" else "default")
            if page.locator(".pv-notes").count():
                notes = page.locator(".pv-notes").first
                notes.scroll_into_view_if_needed()
                label = notes.locator(".pv-notes__label")
                expect_label = "Примечание редактора" if path.startswith("/ru/") else "Poznámka redakce"
                assert label.inner_text().strip().upper().endswith(expect_label.upper())
                # a box of its own: not the article's background, not a rules paragraph's look
                assert _background(page, ".pv-notes") != _background(page, "article")
            screenshot(page, screenshot_dir / f"look-{device}-{scheme}-{name}.png")
        assert errors == []
        context.close()
