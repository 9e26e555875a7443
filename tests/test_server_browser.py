"""``pravila serve`` in headless Chromium: the site passes its own Content-Security-Policy, compressed.

Every page kind, a hover preview, the search box (its worker and /api), a
calculator widget and instant navigation, with the policy the server sends:
no violation may be reported.  And a rule page's first load is sent
compressed (``benchmarks/first_load.py`` prints the figures).
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  e => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));
"""


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="ru-RU")
    page = context.new_page()
    page.add_init_script(WATCH)
    page.reports = []  # type: ignore[attr-defined]
    page.on("console", lambda m: "Content Security Policy" in m.text and page.reports.append(m.text))
    page.on("pageerror", lambda e: page.reports.append(f"page error: {e}"))
    yield page
    context.close()


def violations(page) -> list[str]:
    return page.evaluate("window.__violations") + page.reports


def test_pages_previews_search_and_widgets_pass_the_policy(page, live_server):
    response = page.goto(live_server + "/ru/combat/movement/")
    assert "script-src 'self' 'sha256-" in response.headers["content-security-policy"]
    page.wait_for_timeout(500)

    page.locator("article a[data-preview]").first.hover()  # Material's hover preview fetches the page
    page.wait_for_selector(".md-tooltip2--active, .md-tooltip2", timeout=10_000)

    box = page.locator("input[data-md-component=search-query]")
    box.click()
    box.press_sequentially("прыжок", delay=20)
    box.press("End")
    page.wait_for_selector(".md-search-result__item a", timeout=10_000)  # the worker asked /api/search
    page.keyboard.press("Escape")

    widget = page.locator("#calc-long-jump")  # the calculator under the rule, run by our script
    widget.get_by_label("Значение Силы").fill("17")
    assert "17 футов" in widget.locator("output").text_content()

    page.locator("a.md-tabs__link").nth(1).click()  # instant navigation: fetched and swapped in
    page.wait_for_url("**/ru/combat/**")
    page.wait_for_timeout(500)
    for path in ("/ru/calculators/", "/ru/a-z/", "/cs/", "/cs/spellcasting/", "/", "/ru/no-such-page/"):
        page.goto(live_server + path)
        page.wait_for_timeout(300)
    assert violations(page) == []

    # The check can fail: an inline script the page did not ship is refused, and reported.
    page.goto(live_server + "/ru/combat/movement/")
    page.evaluate("() => { const s = document.createElement('script'); s.textContent = 'window.__ran = 1'; document.body.append(s) }")
    page.wait_for_timeout(300)
    assert page.evaluate("window.__ran") is None
    assert any(v.startswith("script-src") for v in violations(page)), violations(page)


def test_a_rule_page_comes_compressed(page, live_server):
    sizes: dict[str, tuple[str | None, int]] = {}

    def record(response) -> None:
        sizes[response.url] = (response.headers.get("content-encoding"), int(response.headers.get("content-length") or 0))

    page.on("response", record)
    page.goto(live_server + "/ru/combat/movement/", wait_until="load")
    encodings = {url.rsplit("/", 2)[-2] + "/" + url.rsplit("/", 1)[-1]: enc for url, (enc, _) in sizes.items()
                 if url.split("?")[0].endswith((".js", ".css", "/"))}
    assert set(encodings.values()) == {"br"}, encodings
    transferred = page.evaluate("""() => [performance.getEntriesByType('navigation')[0], ...performance.getEntriesByType('resource')]
        .filter(r => r.responseEnd <= performance.getEntriesByType('navigation')[0].loadEventEnd)
        .reduce((sum, r) => sum + r.transferSize, 0)""")
    assert transferred < 150 * 1024, f"{transferred / 1024:.0f} KB before the load event"
