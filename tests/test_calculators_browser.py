"""The calculators' JavaScript in Chromium: every shared vector gives the same
answer as the Python reference, and the widgets work for a reader — on a
page of their own and on the built site's rule pages, served by a plain
static file server (no API), including after Material's instant navigation.

Uses the ``browser`` and ``library`` fixtures of ``conftest.py``.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from pravila import answers, widgets
from pravila.calctables import as_javascript
from pravila.calculators import CalcError

from test_calculators import CASES, check_expected, result_object, run_vector

pytestmark = pytest.mark.browser

STATIC = Path(widgets.__file__).parent / "static"
SCRIPT = (STATIC / "calculators.js").read_text(encoding="utf-8")
TABLES = as_javascript()  # what the build writes as assets/pravila/calculators-tables.js
LANGS = (None, "ru", "cs")
RU_WIDGETS = ("long-jump", "being-prone", "moving-a-grappled-creature")  # rule widgets on the ru test page


def js_run(page, kind: str, given: dict[str, Any]) -> dict[str, Any]:
    return page.evaluate(
        """([kind, input]) => {
            try { return {result: window.PravilaCalc[kind](input)}; }
            catch (e) { if (e && e.code) return {error: e.code, params: e.params}; throw e; }
        }""",
        [kind, given],
    )


@pytest.fixture(scope="module")
def js(browser) -> Iterator[Any]:
    """A blank page with calculators.js loaded: window.PravilaCalc."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>")
    page.add_script_tag(content=TABLES)
    page.add_script_tag(content=SCRIPT)
    yield page
    context.close()


# --- the pure functions against the vectors -------------------------------------


@pytest.mark.parametrize(("kind", "vector"), CASES, ids=[f"{k}: {v['name']}" for k, v in CASES])
def test_javascript_meets_the_vector_like_python(js, kind: str, vector: dict[str, Any]) -> None:
    answer = js_run(js, kind, vector["input"])
    if "error" in vector:
        assert answer.get("error") == vector["error"], answer
        with pytest.raises(CalcError) as info:
            run_vector(kind, vector["input"])
        assert answer["params"] == info.value.params
        return
    assert "result" in answer, answer
    check_expected(answer["result"], vector["expect"])
    # not only the keys the vector names: the whole result is Python's
    assert answer["result"] == run_vector(kind, vector["input"])


ANSWERED = [(k, v) for k, v in CASES if "error" not in v]


@pytest.mark.parametrize(("kind", "vector"), ANSWERED, ids=[f"{k}: {v['name']}" for k, v in ANSWERED])
def test_javascript_says_what_python_says(js, kind: str, vector: dict[str, Any]) -> None:
    result = result_object(kind, vector["input"])
    for lang in LANGS:
        strings = answers.strings(lang)
        for metric in (False, True):
            said = js.evaluate(
                "([kind, input, strings, lang, metric]) => "
                "PravilaCalc.describe(kind, PravilaCalc[kind](input), strings, lang, metric)",
                [kind, vector["input"], strings, lang, metric],
            )
            assert said == answers.describe(result, lang, metric=metric), (lang, metric)


ERRORS = [(k, v) for k, v in CASES if "error" in v]


@pytest.mark.parametrize(("kind", "vector"), ERRORS, ids=[f"{k}: {v['name']}" for k, v in ERRORS])
def test_javascript_error_messages_are_python_s(js, kind: str, vector: dict[str, Any]) -> None:
    with pytest.raises(CalcError) as info:
        run_vector(kind, vector["input"])
    for lang in ("ru", "cs"):
        message = js.evaluate(
            """([kind, input, strings]) => {
                try { PravilaCalc[kind](input); return null; }
                catch (e) { return PravilaCalc.errorMessage(e, strings); }
            }""",
            [kind, vector["input"], answers.strings(lang)],
        )
        assert message == answers.error_message(info.value, lang)


# --- widgets on a page of their own ------------------------------------------------


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def _standalone(tmp_path: Path, library, lang: str = "ru", *, material_stub: bool = False, script: bool = True) -> str:
    """A static page: one language's calculators page (and for ru two rule widgets), the CSS, the script."""
    body = widgets.calculators_page(lang, library)
    if lang == "ru":
        body += "".join(widgets.widget_for(e, "ru", library) for e in RU_WIDGETS)
    stub = ""
    if material_stub:  # what Material gives extra_javascript: a document$ that emits on every page
        stub = ("<script>window.__pages = [];"
                "window.document$ = {subscribe: function (fn) { window.__pages.push(fn); fn(); }};"
                "window.__navigate = function (html) { document.querySelector('main').innerHTML = html;"
                " window.__pages.forEach(function (fn) { fn(); }); };</script>")
    (tmp_path / "calculators.js").write_text(SCRIPT, encoding="utf-8")
    (tmp_path / "calculators-tables.js").write_text(TABLES, encoding="utf-8")
    (tmp_path / "calculators.css").write_text((STATIC / "calculators.css").read_text(encoding="utf-8"), encoding="utf-8")
    tag = "<script src='calculators-tables.js'></script><script src='calculators.js'></script>" if script else ""
    page = (
        f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'><title>calc</title>"
        "<link rel='stylesheet' href='calculators.css'></head>"
        f"<body><main>{body}</main>{stub}{tag}</body></html>"
    )
    (tmp_path / "index.html").write_text(page, encoding="utf-8")
    return (tmp_path / "index.html").as_uri()


@pytest.fixture()
def page(browser) -> Iterator[Any]:
    context = browser.new_context()
    p = context.new_page()
    p.errors = []  # type: ignore[attr-defined]
    p.on("pageerror", lambda e: p.errors.append(str(e)))  # type: ignore[attr-defined]
    yield p
    assert not p.errors, p.errors  # type: ignore[attr-defined]
    context.close()


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_widgets_answer_as_the_prerendered_markup_says(page, tmp_path, library, lang: str) -> None:
    page.goto(_standalone(tmp_path, library, lang))
    markup = widgets.calculators_page(lang, library)
    if lang == "ru":
        markup += "".join(widgets.widget_for(e, "ru", library) for e in RU_WIDGETS)
    uids = re.findall(r'<aside class="pravila-calc" id="([^"]+)"', markup)
    assert len(uids) == (6 if lang == "ru" else 3)
    for uid in uids:
        prerendered = re.search(rf'id="{uid}-answer"[^>]*>(.*?)</output>', markup, re.S).group(1)
        root = page.locator(f"#{uid}")
        assert root.get_attribute("data-ready") == "1"
        assert root.locator("output").text_content() == _text(prerendered), uid


def test_jump_widget_by_keyboard_in_russian(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library))
    widget = page.locator("#calc-long-jump")
    strength = widget.get_by_label("Значение Силы")
    strength.focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("15")
    answer = widget.locator("output")
    assert "Прыжок в длину с разбега не менее 10 футов: 15 футов" in answer.text_content()
    page.keyboard.press("Tab")  # the next field is the standing checkbox
    page.keyboard.press("Space")
    assert widget.get_by_label("Без разбега (не пробежали 10 футов)").is_checked()
    assert "Прыжок в длину без разбега: 7 футов (половина значения Силы 15, с округлением вниз)" in answer.text_content()
    link = answer.locator('a[data-rule="ru:long-jump"]')
    assert link.text_content() == "Прыжок в длину"
    assert link.get_attribute("href") == "#long-jump"
    assert answer.get_attribute("aria-live") == "polite"
    strength.fill("31")
    assert answer.text_content() == "Сила должна быть целым числом от 1 до 30, а не 31."


def test_jump_widget_in_metres(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library, "cs"))
    widget = page.locator("#calc-page-jump")
    widget.get_by_label("Hodnota Síly").fill("15")
    widget.get_by_label("Tvá výška ve stopách, pro dosah (nepovinné)").fill("6")
    widget.get_by_label("Také v metrech (5 stop = 1,5 m)").check()
    text = widget.locator("output").text_content()
    assert "Skok do dálky s rozběhem aspoň 10 stop: 15 stop (4,5 m)" in text
    assert "Dosáhneš do výšky: 14 stop (4,2 m)" in text


def test_move_widget_adds_and_removes_legs_by_keyboard(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library))
    widget = page.locator("#calc-page-move")
    answer = widget.locator("output")
    widget.get_by_role("button", name="Добавить отрезок").focus()
    page.keyboard.press("Enter")
    legs = widget.locator(".pravila-calc__leg")
    assert legs.count() == 2
    assert page.evaluate("document.activeElement.name") == "distance_ft"  # focus moved into the new leg
    page.keyboard.type("10")
    second = widget.get_by_role("group", name="Отрезок 2")
    second.get_by_label("Как").select_option("fly")
    assert answer.text_content() == "Отрезок 2: для полёта нужна скорость полёта."
    widget.get_by_label("Скорость полёта в футах (0 — нет)").fill("60")
    text = answer.text_content()
    assert "2. 10 футов полётом, после смены скорости: стоит 10 футов, остаток 20 футов" in text
    assert "Можно: перемещение стоит 40 футов, остаток 20 футов." in text
    assert answer.locator('a[data-rule="ru:moving-around"]').get_attribute("href") == "../combat/movement/#moving-around"
    widget.get_by_role("button", name="Удалить отрезок 1").click()
    assert legs.count() == 1
    assert widget.get_by_role("group", name="Отрезок 1").get_by_label("Как").input_value() == "fly"
    assert "1. 10 футов полётом: стоит 10 футов, остаток 50 футов" in answer.text_content()


def test_prone_widget_says_standing_up_is_impossible_at_speed_0(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library))
    widget = page.locator("#calc-being-prone")
    widget.get_by_label("Скорость в футах").fill("0")
    assert "Нельзя: при скорости 0 встать невозможно." in widget.locator("output").text_content()
    widget.get_by_label("Скорость в футах").fill("30")
    assert "Можно: перемещение стоит 25 футов, остаток 5 футов." in widget.locator("output").text_content()
    # speed 25: standing up costs 12 feet, rounded down, so 13 feet more fit
    widget.get_by_label("Скорость в футах").fill("25")
    widget.get_by_label("Расстояние в футах").fill("13")
    text = widget.locator("output").text_content()
    assert "1. вставание (половина скорости, с округлением вниз): стоит 12 футов, остаток 13 футов" in text
    assert "Можно: перемещение стоит 25 футов, остаток 0 футов." in text


def test_move_widget_computes_either_edition_in_czech(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library, "cs"))
    widget = page.locator("#calc-page-move")
    answer = widget.locator("output")
    edition = widget.get_by_label("Pravidla", exact=True)
    assert edition.input_value() == "2024"  # the Czech chapter's edition
    widget.get_by_label("Rychlost ve stopách").fill("25")
    widget.get_by_label("Táhneš nebo neseš uchopeného tvora velikosti").select_option("medium")
    widget.get_by_label("Sprint (další pohyb rovný rychlosti)").check()
    widget.get_by_label("Vzdálenost ve stopách").fill("25")
    text = answer.text_content()
    assert "1. 25 stop chůzí, s uchopeným tvorem: stojí 50 stop, zůstatek 0 stop" in text
    assert "Podle pravidel z roku 2024; pravidla z roku 2014 se tu liší." in text
    edition.select_option("2014")
    text = answer.text_content()
    assert "Rychlost: 12 stop, polovina z 25 stop zaokrouhlená dolů" in text
    assert "Nelze: krok 1 stojí 25 stop, ale zůstatek pohybu je jen 24 stop." in text
    assert "Podle pravidel z roku 2014; pravidla z roku 2024 se tu liší." in text


def test_grappled_widget_offers_the_2024_rules_in_russian(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library))
    widget = page.locator("#calc-moving-a-grappled-creature")
    answer = widget.locator("output")
    assert "Скорость: 15 футов, половина от 30 футов с округлением вниз" in answer.text_content()
    widget.get_by_label("Правила", exact=True).select_option("2024")
    text = answer.text_content()
    assert "1. 15 футов шагом, со схваченным существом: стоит 30 футов, остаток 0 футов" in text
    assert "По правилам 2024 года; по правилам 2014 года здесь ответ другой." in text
    widget.get_by_label("Ваш размер").select_option("large")
    widget.get_by_label("Тащите или несёте схваченное существо размера").select_option("tiny")
    assert "не требует дополнительного перемещения" in answer.text_content()


def test_spell_widget_both_ways_in_czech(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library, "cs"))
    widget = page.locator("#calc-page-spell")
    answer = widget.locator("output")
    widget.get_by_label("Úroveň postavy").fill("5")
    widget.get_by_label("Hodnota sesílací vlastnosti").fill("17")
    assert "DC záchrany na kouzlo: 14" in answer.text_content()
    assert not widget.get_by_label("Zdatnostní bonus").is_visible()
    widget.get_by_label("zdatnostního bonusu a modifikátoru").check()
    assert widget.get_by_label("Zdatnostní bonus").is_visible()
    assert not widget.get_by_label("Úroveň postavy").is_visible()
    widget.get_by_label("Zdatnostní bonus").fill("3")
    widget.get_by_label("Modifikátor sesílací vlastnosti").fill("4")
    text = answer.text_content()
    assert "DC záchrany na kouzlo: 15" in text and "Modifikátor útoku kouzlem: +7" in text
    link = answer.locator('a[data-rule="cs:saving-throws"]')
    assert link.text_content() == "Záchranné hody"
    assert link.get_attribute("href") == "../spellcasting/effects/#saving-throws"


def test_setup_is_idempotent_across_instant_navigation(page, tmp_path, library) -> None:
    page.goto(_standalone(tmp_path, library, "ru", material_stub=True))
    page.evaluate("PravilaCalc.setupAll(document); PravilaCalc.setupAll(document)")
    move = page.locator("#calc-page-move")
    move.get_by_role("button", name="Добавить отрезок").click()
    assert move.locator(".pravila-calc__leg").count() == 2  # one click, one leg: listeners attached once
    # a new page arrives without a reload, as Material's instant navigation does it
    fresh = widgets.widget_for("difficult-terrain", "ru", library)
    page.evaluate("(html) => window.__navigate(html)", fresh)
    page.evaluate("(html) => window.__navigate(document.querySelector('main').innerHTML)", fresh)
    widget = page.locator("#calc-difficult-terrain")
    assert widget.get_attribute("data-ready") == "1"
    widget.get_by_label("Рывок (дополнительное перемещение, равное скорости)").check()
    widget.get_by_role("button", name="Добавить отрезок").click()
    assert widget.locator(".pravila-calc__leg").count() == 3
    widget.locator(".pravila-calc__leg").nth(2).get_by_label("Расстояние в футах").fill("35")
    assert "Нельзя: шаг 3 стоит 35 футов, а в запасе только 30 футов." in widget.locator("output").text_content()


# --- the built site, served as static files -------------------------------------------


@pytest.fixture()
def static_site(subpath_host) -> str:
    """The built site on a plain static host (no API): its base URL."""
    return subpath_host.base


def test_jump_widget_on_the_russian_movement_page(page, static_site) -> None:
    page.goto(f"{static_site}/ru/combat/movement/")
    widget = page.locator("#calc-long-jump")
    assert widget.get_attribute("data-ready") == "1"
    widget.get_by_label("Значение Силы").fill("15")
    widget.get_by_label("Без разбега (не пробежали 10 футов)").check()
    answer = widget.locator("output")
    assert "Прыжок в длину без разбега: 7 футов (половина значения Силы 15, с округлением вниз)" in answer.text_content()
    answer.locator('a[data-rule="ru:long-jump"]').click()
    page.wait_for_url("**/ru/combat/movement/#long-jump")
    assert page.locator("#long-jump").is_visible()


def test_spell_widget_on_the_czech_effects_page(page, static_site) -> None:
    page.goto(f"{static_site}/cs/spellcasting/effects/")
    widget = page.locator("#calc-saving-throws")
    widget.get_by_label("Úroveň postavy").fill("9")
    widget.get_by_label("Hodnota sesílací vlastnosti").fill("18")
    assert "DC záchrany na kouzlo: 16" in widget.locator("output").text_content()


def test_widgets_survive_instant_navigation_on_the_site(page, static_site) -> None:
    page.goto(f"{static_site}/ru/")
    page.evaluate("window.__same_document = true")
    page.locator("a.md-nav__link[href$='calculators/'], a.md-tabs__link[href$='calculators/']").first.click()
    page.wait_for_url("**/ru/calculators/")
    page.wait_for_selector("#calc-page-jump[data-ready='1']")
    assert page.evaluate("window.__same_document === true"), "Material's instant navigation did not take over the link"
    widget = page.locator("#calc-page-jump")
    widget.get_by_label("Значение Силы").fill("20")
    assert "Прыжок в длину с разбега не менее 10 футов: 20 футов" in widget.locator("output").text_content()
    link = widget.locator('a[data-rule="ru:high-jump"]')
    assert link.get_attribute("href") == "../combat/movement/#high-jump"
    link.click()
    page.wait_for_url("**/ru/combat/movement/#high-jump")
    page.wait_for_selector("#calc-high-jump[data-ready='1']")
    assert page.evaluate("window.__same_document === true")
    high = page.locator("#calc-high-jump")
    high.get_by_label("Значение Силы").fill("1")
    assert "Прыжок в высоту с разбега: 0 футов (3 + модификатор Силы −5 меньше 0)" in high.locator("output").text_content()


def test_loading_a_page_leaves_the_answers_alone(page, tmp_path, library) -> None:
    """The prerendered answer stands: the script does not rewrite the live regions on load (nothing announced)."""
    page.goto(_standalone(tmp_path, library, "ru", script=False))
    marked = page.evaluate(
        "() => { const outs = [...document.querySelectorAll('output')];"
        " outs.forEach((o) => { o.firstChild.__prerendered = true; }); return outs.length; }"
    )
    assert marked == 6
    page.add_script_tag(content=TABLES)
    page.add_script_tag(content=SCRIPT)
    assert page.locator(".pravila-calc[data-ready='1']").count() == 6
    kept = "() => [...document.querySelectorAll('output')].filter((o) => o.firstChild.__prerendered).length"
    assert page.evaluate(kept) == 6
    page.locator("#calc-long-jump").get_by_label("Значение Силы").fill("12")
    assert page.evaluate(kept) == 5  # a changed answer is written
