"""The calculators: the reference functions against the shared vectors, their
answers in Russian and Czech, the ``pravila calc`` command, the catalogs and
the widgets' markup.  (The JavaScript twin is checked against the same
vectors in ``test_calculators_browser.py``.)"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from babel.messages.pofile import read_po
from click.testing import CliRunner

from pravila import answers, calculators as calc, widgets
from pravila.cli import main
from helpers import LOCALES_DIR
from pravila.links import entry_url, page_url

VECTORS_FILE = Path(__file__).parent / "vectors" / "calculators.yaml"
VECTORS: dict[str, list[dict[str, Any]]] = yaml.safe_load(VECTORS_FILE.read_text(encoding="utf-8"))
CASES = [(kind, v) for kind in ("jump", "spell", "move") for v in VECTORS[kind]]


def run_vector(kind: str, given: dict[str, Any]) -> dict[str, Any]:
    """One vector's input through the reference implementation, as a dict."""
    inputs = dict(given)
    if kind == "jump":
        return calc.jump(**inputs).to_dict()
    if kind == "spell":
        return calc.spell(**inputs).to_dict()
    legs = [calc.Leg(**leg) if isinstance(leg, dict) else leg for leg in inputs.pop("legs", [])]
    return calc.move(legs=legs, **inputs).to_dict()


def result_object(kind: str, given: dict[str, Any]):
    inputs = dict(given)
    if kind == "jump":
        return calc.jump(**inputs)
    if kind == "spell":
        return calc.spell(**inputs)
    legs = [calc.Leg(**leg) if isinstance(leg, dict) else leg for leg in inputs.pop("legs", [])]
    return calc.move(legs=legs, **inputs)


def check_expected(actual: dict[str, Any], expected: dict[str, Any], where: str = "") -> None:
    """Every expected key has exactly the expected value; steps one by one, by the keys given."""
    for key, want in expected.items():
        assert key in actual, f"{where}{key} missing from {actual}"
        got = actual[key]
        if key == "steps":
            assert len(got) == len(want), f"{where}steps: {len(got)} steps, expected {len(want)}: {got}"
            for i, (g, w) in enumerate(zip(got, want), 1):
                check_expected(g, w, f"{where}step {i}: ")
        else:
            assert got == want, f"{where}{key}: got {got!r}, expected {want!r}"


# --- the reference implementation against the vectors --------------------------


@pytest.mark.parametrize(("kind", "vector"), CASES, ids=[f"{k}: {v['name']}" for k, v in CASES])
def test_vector(kind: str, vector: dict[str, Any]) -> None:
    if "error" in vector:
        with pytest.raises(calc.CalcError) as info:
            run_vector(kind, vector["input"])
        assert info.value.code == vector["error"]
        assert str(info.value)  # a readable English message
        return
    check_expected(run_vector(kind, vector["input"]), vector["expect"])


SAYS = [(kind, v, lang) for kind, v in CASES for lang in v.get("says", {})]


@pytest.mark.parametrize(("kind", "vector", "lang"), SAYS, ids=[f"{k}: {v['name']} [{l}]" for k, v, l in SAYS])
def test_vector_answer_in_words(kind: str, vector: dict[str, Any], lang: str) -> None:
    result = result_object(kind, vector["input"])
    assert answers.describe(result, None if lang == "en" else lang) == vector["says"][lang]


def test_vectors_cover_every_rule_and_every_error() -> None:
    cited: set[str] = set()

    def collect(value: Any) -> None:
        if isinstance(value, dict):
            cited.update(value.get("rules", []))
            for v in value.values():
                collect(v)
        elif isinstance(value, list):
            for v in value:
                collect(v)

    for _, vector in CASES:
        collect(vector.get("expect", {}))
    assert set(calc.RULES) <= cited, f"rules no vector checks: {sorted(set(calc.RULES) - cited)}"
    raised = {v["error"] for _, v in CASES if "error" in v}
    cli_only = {"leg-syntax"}  # parsing a LEG argument: see the CLI tests
    assert set(calc.ERRORS) - cli_only <= raised, f"errors no vector checks: {sorted(set(calc.ERRORS) - cli_only - raised)}"
    reasons = {s.get("reason") for _, v in CASES for s in [v.get("expect", {})] + v.get("expect", {}).get("steps", [])}
    assert {"ok", "not-enough-movement", "speed-zero", "mount-twice"} <= reasons


def test_vectors_pin_both_editions() -> None:
    """Every calculator has 2024 vectors; the rules that differ have vectors in both editions."""
    def results(kind: str, edition: int) -> list[dict[str, Any]]:
        return [v["expect"] for k, v in CASES if k == kind and "expect" in v and v["input"].get("edition", 2014) == edition]

    for kind in ("jump", "spell", "move"):
        assert results(kind, 2024), f"no 2024 vector for {kind}"
    assert any(r.get("halved") for r in results("move", 2014)), "no 2014 vector halving the speed for dragging"
    assert any(r.get("drag_extra") for r in results("move", 2024)), "no 2024 vector with the extra foot for dragging"
    assert any(r.get("reason") == "mount-twice" for r in results("move", 2014))
    mounts_2024 = [v for k, v in CASES if k == "move" and v["input"].get("edition") == 2024 and "expect" in v
                   and sum(leg in ("mount", "dismount") for leg in v["input"].get("legs", [])) > 1]
    assert any(v["expect"].get("legal") for v in mounts_2024), "no 2024 vector mounting twice in one move"


def test_vectors_have_unique_names() -> None:
    for kind, vectors in VECTORS.items():
        names = [v["name"] for v in vectors]
        assert len(names) == len(set(names)), kind


def test_results_serialise_to_json_with_whole_numbers_as_integers() -> None:
    data = json.loads(json.dumps(calc.move(30, [calc.Leg(10, difficult=True)]).to_dict()))
    assert data["cost_ft"] == 20 and isinstance(data["cost_ft"], int)
    assert json.dumps(calc.jump(15, standing=True).to_dict()["long_jump_ft"]) == "7"  # rounded down
    assert json.dumps(calc.jump(20, movement_ft=12.5).to_dict()["long_jump_ft"]) == "2.5"  # what is left of a typed distance


@pytest.mark.parametrize("edition", calc.EDITIONS)
def test_every_result_says_which_edition_it_computed(edition: int) -> None:
    for result in (calc.jump(10, edition=edition), calc.spell(level=1, ability_score=10, edition=edition),
                   calc.move(30, edition=edition)):
        assert result.to_dict()["edition"] == edition
        assert str(edition) in answers.describe(result, "ru")[-1]
    assert calc.jump(10).edition == calc.DEFAULT_EDITION == 2014


def test_errors_are_value_errors_with_codes() -> None:
    with pytest.raises(ValueError, match="Strength must be a whole number from 1 to 30, not 31"):
        calc.jump(31)
    with pytest.raises(calc.CalcError) as info:
        calc.move(30, [calc.Leg(5), calc.Leg(10, "fly")])
    assert info.value.code == "no-fly-speed" and info.value.params == {"leg": 2}


@pytest.mark.parametrize(
    ("text", "leg"),
    [
        ("10", calc.Leg(10)),
        ("10,difficult", calc.Leg(10, difficult=1)),
        ("10,difficult,difficult", calc.Leg(10, difficult=2)),
        ("15,climb", calc.Leg(15, "climb")),
        ("5,difficult,crawl", calc.Leg(5, "crawl", 1)),
        (" 7.5 , Swim ", calc.Leg(7.5, "swim")),
        ("30,fly", calc.Leg(30, "fly")),
        ("stand-up", "stand-up"),
        ("stand", "stand-up"),
        ("mount", "mount"),
        ("Dismount", "dismount"),
    ],
)
def test_parse_leg(text: str, leg: calc.Leg | str) -> None:
    assert calc.parse_leg(text) == leg


@pytest.mark.parametrize(("text", "code"), [("ten", "leg-syntax"), ("10,climb,swim", "leg-syntax"), ("10,hop", "leg-syntax"),
                                            ("", "leg-syntax"), ("nan", "leg-syntax"), ("-5", "distance")])
def test_parse_leg_refuses(text: str, code: str) -> None:
    with pytest.raises(calc.CalcError) as info:
        calc.parse_leg(text, 3)
    assert info.value.code == code


# --- the command ----------------------------------------------------------------


def invoke(*args: str):
    return CliRunner().invoke(main, ["calc", *args])


def test_cli_jump_in_russian_names_and_links_the_rules() -> None:
    result = invoke("jump", "--strength", "15", "--standing", "--lang", "ru")
    assert result.exit_code == 0, result.output
    assert "Прыжок в длину без разбега: 7 футов (половина значения Силы 15, с округлением вниз)" in result.output
    assert "Прыжок в высоту без разбега: 2 фута" in result.output
    assert "По правилам 2014 года; по правилам 2024 года ответ тот же." in result.output
    assert "Правила:" in result.output
    assert "Прыжок в длину [ru:long-jump] /ru/combat/movement/#long-jump" in result.output
    assert "Прыжок в высоту [ru:high-jump] /ru/combat/movement/#high-jump" in result.output


def test_cli_jump_in_czech_with_metres() -> None:
    result = invoke("jump", "--strength", "15", "--standing", "--height", "6", "--metric", "--lang", "cs")
    assert result.exit_code == 0, result.output
    assert "Skok do dálky z místa: 7 stop (2,1 m) (polovina hodnoty Síly 15, zaokrouhleno dolů)" in result.output
    assert "Dosáhneš do výšky: 11 stop (3,3 m)" in result.output  # 2 + 1½ × 6
    assert "Skok do dálky [ru:long-jump]" in result.output  # a Russian rule, named in Czech


def test_cli_jump_json() -> None:
    result = invoke("jump", "--strength", "15", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["long_jump_ft"], data["high_jump_ft"], data["run_up_ft"], data["edition"]) == (15, 5, 10, 2014)
    assert "reach_ft" not in data
    with_height = json.loads(invoke("jump", "--strength", "15", "--height", "6", "--json").output)
    assert with_height["reach_ft"] == 14
    assert with_height["answer"][0].startswith("Long jump")


def test_cli_spell_both_ways() -> None:
    by_level = invoke("spell", "--level", "5", "--ability-score", "16", "--json")
    assert by_level.exit_code == 0, by_level.output
    data = json.loads(by_level.output)
    assert (data["save_dc"], data["attack_bonus"], data["proficiency"], data["ability_mod"]) == (14, 6, 3, 3)
    cs = invoke("spell", "--proficiency", "3", "--ability-mod", "4", "--lang", "cs")
    assert cs.exit_code == 0, cs.output
    assert "DC záchrany na kouzlo: 15" in cs.output
    assert "Modifikátor útoku kouzlem: +7" in cs.output
    assert "Záchranné hody [cs:saving-throws] /cs/spellcasting/effects/#saving-throws" in cs.output
    ru = invoke("spell", "--level", "1", "--ability-score", "8", "--lang", "ru")
    assert "Сл спасброска от заклинаний: 9" in ru.output
    assert "Спасброски [cs:saving-throws]" in ru.output


def test_cli_move_switching_to_flying_in_russian() -> None:
    result = invoke("move", "--speed", "30", "--fly-speed", "60", "20", "30,fly", "--lang", "ru")
    assert result.exit_code == 0, result.output
    assert "2. 30 футов полётом, после смены скорости: стоит 30 футов, остаток 10 футов" in result.output
    assert "Можно: перемещение стоит 50 футов, остаток 10 футов." in result.output
    assert "Перемещение [ru:moving-around]" in result.output


def test_cli_move_json_has_the_verdict_and_the_steps() -> None:
    result = invoke("move", "--speed", "30", "--stand-up", "10,difficult", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["cost_ft"], data["remaining_ft"], data["legal"], data["reason"]) == (35, -5, False, "not-enough-movement")
    assert [(s["kind"], s["cost_ft"]) for s in data["steps"]] == [("stand-up", 15), ("leg", 20)]
    assert data["steps"][1]["rules"] == ["ru:movement", "ru:difficult-terrain"]


def test_cli_move_in_czech_dragging_and_mounting() -> None:
    result = invoke("move", "--speed", "30", "--drag", "small", "--mount", "--lang", "cs", "10")
    assert result.exit_code == 0, result.output
    assert "Rychlost: 15 stop, polovina z 30 stop zaokrouhlená dolů" in result.output
    assert "2. nasednutí (polovina rychlosti, zaokrouhleno dolů): stojí 7 stop, chybí 2 stopy" in result.output
    assert result.output.startswith("Nelze: krok 2 stojí 7 stop")  # the verdict first
    assert "Nelze: krok 2 stojí 7 stop, ale zůstatek pohybu je jen 5 stop." in result.output
    assert "Podle pravidel z roku 2014; pravidla z roku 2024 se tu liší." in result.output


def test_cli_move_by_the_2024_rules() -> None:
    result = invoke("move", "--speed", "30", "--drag", "small", "--mount", "--edition", "2024", "--lang", "cs", "10")
    assert result.exit_code == 0, result.output
    assert "1. 10 stop chůzí, s uchopeným tvorem: stojí 20 stop, zůstatek 10 stop" in result.output
    assert "Nelze: krok 2 stojí 15 stop, ale zůstatek pohybu je jen 10 stop." in result.output
    assert "Podle pravidel z roku 2024; pravidla z roku 2014 se tu liší." in result.output
    data = json.loads(invoke("move", "--speed", "25", "--drag", "medium", "--dash", "--edition", "2024", "25",
                             "--json").output)
    assert (data["edition"], data["legal"], data["cost_ft"], data["drag_extra"]) == (2024, True, 50, True)
    by_2014 = json.loads(invoke("move", "--speed", "25", "--drag", "medium", "--dash", "25", "--json").output)
    assert (by_2014["edition"], by_2014["legal"], by_2014["speed_ft"]) == (2014, False, 12)


def test_cli_move_steps_in_the_path() -> None:
    result = invoke("move", "--speed", "30", "5,crawl", "stand-up", "5", "--json")
    data = json.loads(result.output)
    assert [s["kind"] for s in data["steps"]] == ["leg", "stand-up", "leg"]
    assert data["legal"] and data["remaining_ft"] == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["jump", "--strength", "31"], "Error: Strength must be a whole number from 1 to 30, not 31."),
        (["jump", "--strength", "31", "--lang", "ru"], "Error: Сила должна быть целым числом от 1 до 30, а не 31."),
        (["jump", "--strength", "10", "--height", "0", "--lang", "cs"], "Error: Výška musí být počet stop větší než 0, ne 0."),
        (["spell", "--level", "0", "--ability-score", "10"], "Error: Level must be a whole number from 1 to 20, not 0."),
        (["spell", "--level", "3"], "Error: Give either the proficiency bonus and the ability modifier, or the level and the ability score."),
        (["move", "--speed", "30", "10", "10,fly"], "Error: Leg 2: flying needs a flying speed."),
        (["move", "--speed", "30", "10,fly", "--lang", "ru"], "Error: Отрезок 1: для полёта нужна скорость полёта."),
        (["move", "--speed", "30", "--", "-5"], "Error: Leg 1: the distance must be a number of feet, 0 or more, not -5."),
        (["move", "--speed", "-30"], "Error: Speed must be a whole number of feet, 0 or more, not -30."),
        (["move", "--speed", "30", "10,climb,swim"],
         "Error: Cannot read the leg 10,climb,swim: write DIST[,difficult][,climb|swim|crawl|fly], for example 10,difficult,climb."),
        (["jump", "--strength", "abc"], "Error: Invalid value for '--strength': 'abc' is not a valid integer."),
        (["jump", "--strength", "10", "--edition", "2020"],
         "Error: Invalid value for '--edition': '2020' is not one of '2014', '2024'."),
        (["jump"], "Error: Missing option '--strength'."),
        (["move", "--speed", "30", "--size", "colossal"], None),
    ],
)
def test_cli_bad_input_is_one_clear_line(args: list[str], message: str | None) -> None:
    result = invoke(*args)
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    if message is not None:
        assert lines[0] == message
    else:
        assert lines[0].startswith("Error: Invalid value for '--size'")


def test_cli_help_lists_the_three_calculators() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    for name in ("jump", "spell", "move"):
        assert re.search(rf"^\s+{name}\s", result.output, re.M), result.output


# --- the catalogs -----------------------------------------------------------------


def _catalog(lang: str):
    with (LOCALES_DIR / lang / "LC_MESSAGES" / "calculators.po").open("rb") as f:
        return read_po(f, locale=lang, domain="calculators")


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_catalog_translates_every_string_and_keeps_placeholders(lang: str) -> None:
    catalog = _catalog(lang)
    messages = {m.id: m.string for m in catalog if m.id}
    needed = answers.msgids(lang)
    missing = [m for m in needed if not messages.get(m)]
    assert not missing, f"untranslated in {lang}: {missing}"
    stale = sorted(set(messages) - set(answers.msgids(None)) - set(answers.RULE_NAMES.values()))
    assert not stale, f"strings no code uses in {lang}: {stale}"
    for msgid in needed:
        assert set(re.findall(r"\{\w+\}", msgid)) == set(re.findall(r"\{\w+\}", messages[msgid])), msgid
        assert messages[msgid] != msgid or msgid.startswith("{"), f"not translated: {msgid}"


@pytest.mark.parametrize(("lang", "forms"), [("ru", {1: 0, 2: 1, 5: 2, 11: 2, 21: 0, 22: 1, 25: 2}),
                                             ("cs", {1: 0, 2: 1, 4: 1, 5: 2, 21: 2})])
def test_catalog_plural_forms(lang: str, forms: dict[int, int]) -> None:
    from gettext import c2py

    from babel.messages.pofile import read_po

    with (LOCALES_DIR / lang / "LC_MESSAGES" / "calculators.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    header = dict(catalog.mime_headers)
    assert "Plural-Forms" in header, "no Plural-Forms header"
    assert catalog.num_plurals == 3
    plural = c2py(catalog.plural_expr)
    assert {n: plural(n) for n in forms} == forms


def test_rule_names_are_the_entries_english_names(library) -> None:
    for key, name in answers.RULE_NAMES.items():
        entry = library.by_key(key)
        assert entry is not None, key
        assert entry.en == name, key


# --- the widgets' markup ------------------------------------------------------------


WIDGET_ENTRIES = {
    "ru": ["long-jump", "high-jump", "difficult-terrain", "climbing-swimming-crawling", "being-prone",
           "mounting-and-dismounting", "moving-a-grappled-creature"],
    "cs": ["saving-throws", "attack-rolls"],
}


def test_widgets_sit_on_the_rules_they_belong_to(library) -> None:
    for lang in ("ru", "cs"):
        with_widget = {e.id for e in library.in_lang(lang) if widgets.widget_for(e.id, lang, library)}
        assert with_widget == set(WIDGET_ENTRIES[lang])


def _ids(markup: str) -> list[str]:
    return re.findall(r'\sid="([^"]+)"', markup)


def test_widget_ids_are_unique_on_each_page(library) -> None:
    pages: dict[str, list[str]] = {}
    for lang, ids in WIDGET_ENTRIES.items():
        for entry_id in ids:
            url = page_url(library, library.get(lang, entry_id))
            pages.setdefault(url, []).extend(_ids(widgets.widget_for(entry_id, lang, library)))
    for lang in ("ru", "cs"):
        pages[f"/{lang}/calculators/"] = _ids(widgets.calculators_page(lang, library))
    for url, ids in pages.items():
        duplicates = {i for i in ids if ids.count(i) > 1}
        assert not duplicates, (url, duplicates)


def test_every_labelled_field_has_its_label(library) -> None:
    markup = widgets.calculators_page("ru", library)
    for field_id in re.findall(r'<(?:input|select) id="([^"]+)"', markup):
        assert re.search(rf'<label (?:class="[^"]+" )?for="{field_id}">', markup), field_id
    # leg fields have no ids: their labels wrap them
    assert re.search(r'<label class="pravila-calc__leg-field">Расстояние в футах <input name="distance_ft"', markup)


def test_widget_answers_before_the_script_runs_and_links_its_rules(library) -> None:
    markup = widgets.widget_for("high-jump", "ru", library)
    assert '<output class="pravila-calc__answer"' in markup and 'aria-live="polite"' in markup
    assert "Прыжок в длину с разбега не менее 10 футов: 10 футов" in markup  # Strength 10, preset
    assert "Дотягиваетесь до высоты: 12 футов" in markup  # 3 + 1½ × 6
    assert '<a href="#long-jump" hreflang="ru" data-rule="ru:long-jump">Прыжок в длину</a>' in markup
    assert "data-search-exclude" in markup


def test_widget_carries_the_strings_its_script_needs(library) -> None:
    import html as html_module

    markup = widgets.widget_for("saving-throws", "cs", library)
    assert "data-strings" not in markup  # the strings come once per page, not once per widget
    block = widgets.page_data("cs", library, ["saving-throws", "attack-rolls"])
    match = re.fullmatch(r'<div id="pravila-calc-data" hidden data-search-exclude data-lang="cs" data-strings="([^"]*)"></div>', block)
    assert match
    strings = json.loads(html_module.unescape(match.group(1)))
    assert strings["spell.dc"].startswith("DC záchrany na kouzlo: {dc}")
    assert strings["error.level"] == "Úroveň musí být celé číslo od 1 do 20, ne {value}."
    assert not any(k.startswith("move.") for k in strings)  # only what this page's widgets need
    rules = json.loads(html_module.unescape(re.search(r'data-rules="([^"]*)"', markup).group(1)))
    assert rules["cs:saving-throws"] == {"href": "#saving-throws", "lang": "cs", "title": "Záchranné hody"}


def _defaults(markup: str) -> dict[str, Any]:
    import html as html_module

    return json.loads(html_module.unescape(re.search(r'data-defaults="([^"]*)"', markup).group(1)))


def test_widgets_compute_their_page_s_edition_and_say_so(library) -> None:
    jump = widgets.widget_for("long-jump", "ru", library)
    assert _defaults(jump)["edition"] == 2014
    assert 'name="edition"' not in jump  # the editions jump alike: nothing to choose
    assert "По правилам 2014 года; по правилам 2024 года ответ тот же." in jump
    spell = widgets.widget_for("saving-throws", "cs", library)  # a 2024 chapter
    assert _defaults(spell)["edition"] == 2024
    assert "Podle pravidel z roku 2024; pravidla z roku 2014 dávají stejnou odpověď." in spell


def test_where_the_editions_differ_a_widget_offers_both(library) -> None:
    grappled = widgets.widget_for("moving-a-grappled-creature", "ru", library)
    assert re.search(r'<label for="calc-moving-a-grappled-creature-edition">Правила</label> <select '
                     r'id="calc-moving-a-grappled-creature-edition" name="edition"><option value="2014" selected>'
                     r'издание 2014 года</option><option value="2024">издание 2024 года</option></select>', grappled)
    assert "Скорость: 15 футов, половина от 30 футов с округлением вниз" in grappled
    assert "По правилам 2014 года; по правилам 2024 года здесь ответ другой." in grappled
    for lang, edition, lede in (("ru", 2014, "Калькуляторы считают по правилам 2014 года."),
                                ("cs", 2024, "Kalkulačky počítají podle pravidel z roku 2024.")):
        page = widgets.calculators_page(lang, library)
        assert lede in page
        assert page.count('name="edition"') == 1  # the movement calculator's
        assert re.search(rf'id="calc-page-move-edition" name="edition">.*?<option value="{edition}" selected>', page)
        assert all(d["edition"] == edition for d in map(_defaults, page.split('<aside')[1:]))


def test_calculators_page_links_rules_relative_to_itself(library) -> None:
    page = widgets.calculators_page("ru", library)
    assert page.startswith("# Калькуляторы {#calculators}")
    assert page.count('class="pravila-calc"') == 3
    assert 'href="../combat/movement/#long-jump"' in page
    assert 'href="../../cs/spellcasting/effects/#saving-throws"' in page
    # every link resolves to the entry's own page
    for href, key in re.findall(r'<a href="([^"]+)" hreflang="\w+" data-rule="([^"]+)"', page):
        import posixpath

        path, _, anchor = href.partition("#")
        resolved = posixpath.normpath(posixpath.join("/ru/calculators/", path)) + "/"
        assert f"{resolved}#{anchor}" == entry_url(library, library.by_key(key))


def test_widget_markup_has_no_blank_lines(library) -> None:
    # a blank line would end the raw HTML block in Markdown
    for lang, ids in WIDGET_ENTRIES.items():
        for entry_id in ids:
            assert "\n\n" not in widgets.widget_for(entry_id, lang, library)


def test_cli_size_choices_are_the_calculator_s() -> None:
    from pravila.cli import CALC_EDITIONS, CALC_SIZES

    assert CALC_SIZES == calc.SIZES
    assert tuple(map(int, CALC_EDITIONS)) == calc.EDITIONS
