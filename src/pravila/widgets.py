"""The calculators' widgets: HTML blocks for the rule pages and the calculators page.

The site generator (:mod:`pravila.pages`) asks :func:`widget_for` for a block
to insert after each entry's body and :func:`calculators_page` for the body
of ``calculators.md``.  A widget is plain HTML that works on a static host:

- labels come from the ``calculators`` catalog at build time;
- the answer templates and error messages the script needs travel in
  ``data-strings`` (JSON), the rule titles and links in ``data-rules``;
- the ``<output>`` already holds the answer to the preset inputs, rendered
  here by :func:`pravila.answers.describe`, so the page answers before the
  script runs; ``static/calculators.js`` then keeps it up to date;
- a widget computes the edition of the page it is on (the entry's edition,
  or on the calculators page the edition of that language's chapters: ru
  2014, cs 2024); where the editions differ (moving a grappled creature) it
  also offers the other one.

Links to the rules are relative to the page the widget is on, so the site
also works under a sub-path.

>>> html = widget_for("long-jump", "ru", lib)
>>> 'data-calc="jump"' in html and "Значение Силы" in html
True
>>> widget_for("grapple", "ru", lib) is None
True
"""

from __future__ import annotations

import html
import json
import posixpath
from dataclasses import dataclass, field
from typing import Any

from . import answers, calculators as calc
from .content import Library
from .urls import entry_url

CALCS = ("jump", "spell", "move")

# The rules each calculator can cite.
CALC_RULES: dict[str, tuple[str, ...]] = {
    "jump": (calc.LONG_JUMP, calc.HIGH_JUMP),
    "spell": (calc.SAVE_DC, calc.SPELL_ATTACK),
    "move": (calc.MOVEMENT, calc.DIFFICULT_TERRAIN, calc.CLIMB_SWIM_CRAWL, calc.PRONE, calc.MOUNTING,
             calc.GRAPPLED, calc.DASH, calc.SPEEDS, calc.FLYING),
}

# The error codes each calculator can raise from its widget's inputs.
CALC_ERRORS: dict[str, tuple[str, ...]] = {
    "jump": ("strength", "height", "movement-left", "edition"),
    "spell": ("proficiency", "ability-mod", "level", "ability-score", "spell-inputs", "edition"),
    "move": ("speed", "climb-speed", "swim-speed", "fly-speed", "size", "drag-size", "distance", "mode",
             "difficult", "no-fly-speed", "step", "edition"),
}


@dataclass(frozen=True)
class Preset:
    """Which calculator a rule entry gets, and the inputs it starts with."""

    calc: str
    fields: tuple[str, ...] = ()  # optional fields shown (all required ones always are)
    values: dict[str, Any] = field(default_factory=dict)
    legs: tuple[calc.Leg, ...] = ()


_JUMP_FIELDS = ("standing", "height_ft", "movement_ft", "metric")
_MOVE_FIELDS = ("edition", "climb_speed", "swim_speed", "fly_speed", "size", "drag", "dash", "stand_up", "mount", "metric")

# (lang, entry id) → the widget after that entry's body.
WIDGETS: dict[tuple[str, str], Preset] = {
    ("ru", "long-jump"): Preset("jump", ("standing", "movement_ft", "metric")),
    ("ru", "high-jump"): Preset("jump", ("standing", "height_ft", "movement_ft", "metric"), {"height_ft": 6}),
    ("ru", "difficult-terrain"): Preset("move", ("dash", "metric"), legs=(calc.Leg(10, difficult=1), calc.Leg(10))),
    ("ru", "climbing-swimming-crawling"): Preset("move", ("climb_speed", "swim_speed", "metric"), legs=(calc.Leg(10, "climb"),)),
    ("ru", "being-prone"): Preset("move", ("stand_up", "metric"), {"stand_up": True}, legs=(calc.Leg(10),)),
    ("ru", "mounting-and-dismounting"): Preset("move", ("mount", "metric"), {"mount": True}, legs=(calc.Leg(10),)),
    ("ru", "moving-a-grappled-creature"): Preset("move", ("edition", "size", "drag", "metric"), {"drag": "medium"},
                                                 legs=(calc.Leg(15),)),
    ("cs", "saving-throws"): Preset("spell"),
    ("cs", "attack-rolls"): Preset("spell"),
}

PAGE_PRESETS: dict[str, Preset] = {
    "jump": Preset("jump", _JUMP_FIELDS),
    "spell": Preset("spell"),
    "move": Preset("move", _MOVE_FIELDS, legs=(calc.Leg(30),)),
}

DEFAULTS: dict[str, Any] = {
    "strength": 10, "standing": False, "height_ft": None, "movement_ft": None, "metric": False,
    "by": "level", "proficiency": 2, "ability_mod": 3, "level": 1, "ability_score": 16,
    "speed": 30, "climb_speed": 0, "swim_speed": 0, "fly_speed": 0, "size": "medium", "drag": None,
    "dash": False, "stand_up": False, "mount": False, "edition": calc.DEFAULT_EDITION,
}


def esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


def page_url(library: Library, entry_key: str) -> str:
    """The URL path of the page that shows an entry (no fragment).

    >>> page_url(lib, "ru:high-jump")
    '/ru/combat/movement/'
    """
    entry = library.by_key(entry_key)
    if entry is None:
        raise KeyError(entry_key)
    return entry_url(library, entry).split("#", 1)[0]


def relative_href(from_page: str, to_url: str) -> str:
    """A link from one page (a directory URL) to another URL of the same site.

    >>> relative_href("/ru/combat/movement/", "/ru/combat/movement/#long-jump")
    '#long-jump'
    >>> relative_href("/ru/calculators/", "/ru/combat/movement/#long-jump")
    '../combat/movement/#long-jump'
    >>> relative_href("/ru/calculators/", "/cs/spellcasting/effects/#saving-throws")
    '../../cs/spellcasting/effects/#saving-throws'
    """
    path, _, fragment = to_url.partition("#")
    rel = posixpath.relpath(path, from_page.rstrip("/") or "/")
    href = "" if rel == "." else rel + ("/" if path.endswith("/") else "")
    return href + (f"#{fragment}" if fragment else "") or "./"


def rule_links(library: Library, lang: str, from_page: str, keys: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The rules a widget may cite: title in the reader's language, href from ``from_page``."""
    out = {}
    for key in keys:
        link = answers.rule_link(library, key, lang)
        out[key] = {"title": link.title, "href": relative_href(from_page, link.url), "lang": link.lang}
    return out


def strings_for(calc_name: str, lang: str) -> dict[str, str]:
    """The translated templates a widget's script needs, and nothing else."""
    everything = answers.strings(lang)
    keep = {k for k in answers.TEMPLATES if k.startswith((f"{calc_name}.", "edition.")) or k == "rules"}
    keep |= {f"error.{code}" for code in CALC_ERRORS[calc_name]}
    if calc_name == "move":
        keep |= {"leg", "remove-leg"}
    return {k: v for k, v in everything.items() if k in keep}


# --- running the preset through the reference implementation ------------------


def _inputs(preset: Preset, edition: int) -> dict[str, Any]:
    return {**DEFAULTS, "edition": edition, **preset.values}


def page_edition(lang: str, library: Library) -> int:
    """The edition a language's pages are in: that of its chapters (ru 2014, cs 2024).

    >>> page_edition("ru", lib), page_edition("cs", lib)
    (2014, 2024)
    """
    editions = {chapter.edition for chapter in library.chapters_in(lang)}
    return editions.pop() if len(editions) == 1 else calc.DEFAULT_EDITION


def compute(calc_name: str, values: dict[str, Any], legs: tuple[calc.Leg, ...] = ()) -> Any:
    """The result for a widget's inputs (``values`` as the widget holds them)."""
    edition = values["edition"]
    if calc_name == "jump":
        return calc.jump(values["strength"], standing=values["standing"], height_ft=values["height_ft"],
                         movement_ft=values["movement_ft"], edition=edition)
    if calc_name == "spell":
        if values["by"] == "level":
            return calc.spell(level=values["level"], ability_score=values["ability_score"], edition=edition)
        return calc.spell(proficiency=values["proficiency"], ability_mod=values["ability_mod"], edition=edition)
    return calc.move(values["speed"], list(legs), climb_speed=values["climb_speed"], swim_speed=values["swim_speed"],
                     fly_speed=values["fly_speed"], size=values["size"], drag=values["drag"], dash=values["dash"],
                     stand_up=values["stand_up"], mount=values["mount"], edition=edition)


def answer_html(result: Any, lang: str, links: dict[str, dict[str, str]], *, metric: bool = False) -> str:
    """The inside of a widget's ``<output>``: one line per span, then the rules, linked.

    ``static/calculators.js`` (``renderAnswer``) builds the same markup.
    """
    lines = "".join(f'<span class="pravila-calc__line">{esc(line)}</span>' for line in answers.describe(result, lang, metric=metric))
    if not result.rules:
        return lines
    cited = ", ".join(
        f'<a href="{esc(links[k]["href"])}" hreflang="{esc(links[k]["lang"])}" data-rule="{esc(k)}">{esc(links[k]["title"])}</a>'
        for k in result.rules
    )
    return lines + f'<span class="pravila-calc__line pravila-calc__rules">{esc(answers.text(lang, "rules"))} {cited}</span>'


# --- markup --------------------------------------------------------------------


class _Form:
    """Builds one widget's fields; ids are ``{uid}-{name}``."""

    def __init__(self, uid: str, lang: str):
        self.uid, self.lang = uid, lang

    def label(self, key: str, **params: Any) -> str:
        return esc(answers.text(self.lang, key, **params))

    def number(self, name: str, label_key: str, value: Any, *, min: float | None = None, max: float | None = None,
               step: float | str = 1, required: bool = True) -> str:
        attrs = [f'id="{self.uid}-{name}"', f'name="{name}"', 'type="number"', f'step="{step}"']
        if step == "any":
            attrs.append('inputmode="decimal"')
        elif min is not None and min >= 0:  # phones' numeric keypads have no minus sign
            attrs.append('inputmode="numeric"')
        if min is not None:
            attrs.append(f'min="{min}"')
        if max is not None:
            attrs.append(f'max="{max}"')
        if required:
            attrs.append("required")
        attrs.append(f'value="{esc(value)}"' if value is not None else 'value=""')
        return (f'<p class="pravila-calc__field"><label for="{self.uid}-{name}">{self.label(label_key)}</label> '
                f'<input {" ".join(attrs)}></p>')

    def check(self, name: str, label_key: str, checked: bool) -> str:
        on = " checked" if checked else ""
        return (f'<p class="pravila-calc__field pravila-calc__field--check"><input id="{self.uid}-{name}" name="{name}" '
                f'type="checkbox"{on}> <label for="{self.uid}-{name}">{self.label(label_key)}</label></p>')

    def select(self, name: str, label_key: str, options: list[tuple[str, str]], value: str) -> str:
        opts = "".join(
            f'<option value="{esc(v)}"{" selected" if v == value else ""}>{esc(text)}</option>' for v, text in options
        )
        return (f'<p class="pravila-calc__field"><label for="{self.uid}-{name}">{self.label(label_key)}</label> '
                f'<select id="{self.uid}-{name}" name="{name}">{opts}</select></p>')


def leg_row(lang: str, n: int, leg: calc.Leg | None) -> str:
    """One leg of the move widget's path (also the ``<template>`` new legs are cloned from).

    Labels wrap their fields (no ids), so rows can be added and removed freely.
    """
    t = lambda key, **p: esc(answers.text(lang, key, **p))  # noqa: E731
    distance = "" if leg is None else esc(calc._num(leg.distance_ft))
    mode = "walk" if leg is None else leg.mode
    opts = "".join(
        f'<option value="{m}"{" selected" if m == mode else ""}>{t("mode." + m)}</option>' for m in calc.MODES
    )
    checked = " checked" if leg is not None and leg.difficult else ""
    return (
        f'<li class="pravila-calc__leg" role="group" aria-label="{t("leg", n=n)}">'
        f'<span class="pravila-calc__leg-name" aria-hidden="true">{t("leg", n=n)}</span> '
        f'<label>{t("distance")} <input name="distance_ft" type="number" min="0" step="any" inputmode="decimal" value="{distance}" required></label> '
        f'<label>{t("mode")} <select name="mode">{opts}</select></label> '
        f'<label><input name="difficult" type="checkbox"{checked}> {t("difficult")}</label> '
        f'<button type="button" class="pravila-calc__remove" data-action="remove-leg" aria-label="{t("remove-leg", n=n)}">×</button>'
        f"</li>"
    )


def _fields(preset: Preset, f: _Form, values: dict[str, Any]) -> list[str]:
    shown = set(preset.fields)
    out: list[str] = []
    if "edition" in shown:
        editions = [(str(e), answers.text(f.lang, f"edition.{e}")) for e in calc.EDITIONS]
        out.append(f.select("edition", "edition", editions, str(values["edition"])))
    if preset.calc == "jump":
        out.append(f.number("strength", "strength", values["strength"], min=1, max=30))
        if "standing" in shown:
            out.append(f.check("standing", "standing", values["standing"]))
        if "height_ft" in shown:
            out.append(f.number("height_ft", "height", values["height_ft"], min=0, step="any", required=False))
        if "movement_ft" in shown:
            out.append(f.number("movement_ft", "movement-left", values["movement_ft"], min=0, step="any", required=False))
    elif preset.calc == "spell":
        by_level = values["by"] == "level"
        out.append(
            f'<fieldset class="pravila-calc__by"><legend>{f.label("spell.by")}</legend>'
            f'<label><input type="radio" name="by" value="level"{" checked" if by_level else ""}> {f.label("spell.by-level")}</label> '
            f'<label><input type="radio" name="by" value="bonus"{"" if by_level else " checked"}> {f.label("spell.by-bonus")}</label>'
            f"</fieldset>"
        )
        out.append(f'<div class="pravila-calc__group" data-by="level"{"" if by_level else " hidden"}>')
        out.append(f.number("level", "level", values["level"], min=1, max=20))
        out.append(f.number("ability_score", "ability-score", values["ability_score"], min=1, max=30))
        out.append("</div>")
        out.append(f'<div class="pravila-calc__group" data-by="bonus"{" hidden" if by_level else ""}>')
        out.append(f.number("proficiency", "proficiency", values["proficiency"], min=2, max=9))
        out.append(f.number("ability_mod", "ability-mod", values["ability_mod"], min=-5, max=10))
        out.append("</div>")
    else:
        out.append(f'<fieldset class="pravila-calc__speeds"><legend>{f.label("speeds")}</legend>')
        out.append(f.number("speed", "speed", values["speed"], min=0, step=5))
        for name in ("climb_speed", "swim_speed", "fly_speed"):
            if name in shown:
                out.append(f.number(name, name.replace("_", "-"), values[name], min=0, step=5))
        sizes = [(s, answers.text(f.lang, f"size.{s}")) for s in calc.SIZES]
        if "size" in shown:
            out.append(f.select("size", "size", sizes, values["size"]))
        if "drag" in shown:
            out.append(f.select("drag", "drag", [("", answers.text(f.lang, "drag.none"))] + sizes, values["drag"] or ""))
        for name, key in (("dash", "dash"), ("stand_up", "stand-up"), ("mount", "mount")):
            if name in shown:
                out.append(f.check(name, key, values[name]))
        out.append("</fieldset>")
        rows = "".join(leg_row(f.lang, n, leg) for n, leg in enumerate(preset.legs, 1))
        out.append(
            f'<fieldset class="pravila-calc__path"><legend>{f.label("legs")}</legend>'
            f'<ol class="pravila-calc__legs">{rows}</ol>'
            f'<template class="pravila-calc__leg-template">{leg_row(f.lang, 0, None)}</template>'
            f'<button type="button" class="pravila-calc__add" data-action="add-leg">{f.label("add-leg")}</button>'
            f"</fieldset>"
        )
    if "metric" in shown:
        out.append(f.check("metric", "metric", values["metric"]))
    return out


def render_widget(preset: Preset, uid: str, lang: str, library: Library, from_page: str, edition: int) -> str:
    """One widget: an ``<aside>`` (excluded from search) with its form and its answer.

    ``edition`` is the page's; ``data-defaults`` holds the values of the
    fields a preset does not show (the edition among them), so the script
    computes with the same inputs as this prerendered answer.
    """
    values = _inputs(preset, edition)
    links = rule_links(library, lang, from_page, CALC_RULES[preset.calc])
    f = _Form(uid, lang)
    try:
        result = compute(preset.calc, values, preset.legs)
        answer = answer_html(result, lang, links, metric=values["metric"])
    except calc.CalcError as e:  # a preset the rules refuse: say so, as the script would
        answer = f'<span class="pravila-calc__line pravila-calc__error">{esc(answers.error_message(e, lang))}</span>'
    strings = json.dumps(strings_for(preset.calc, lang), ensure_ascii=False, sort_keys=True)
    rules = json.dumps(links, ensure_ascii=False, sort_keys=True)
    defaults = json.dumps({k: values[k] for k in DEFAULTS}, ensure_ascii=False, sort_keys=True)
    title_id = f"{uid}-title"
    lines = [
        f'<aside class="pravila-calc" id="{uid}" data-calc="{preset.calc}" lang="{lang}" data-lang="{lang}" '
        f'data-search-exclude aria-labelledby="{title_id}" data-strings="{esc(strings)}" data-rules="{esc(rules)}" '
        f'data-defaults="{esc(defaults)}">',
        f'<p class="pravila-calc__title" id="{title_id}">{f.label("calc." + preset.calc)}</p>',
        f'<form class="pravila-calc__form" autocomplete="off">',
        *_fields(preset, f, values),
        "</form>",
        f'<output class="pravila-calc__answer" id="{uid}-answer" aria-live="polite" aria-label="{f.label("answer")}">{answer}</output>',
        f'<noscript><p class="pravila-calc__noscript">{f.label("noscript")}</p></noscript>',
        "</aside>",
    ]
    return "\n".join(lines)


# --- what the site generator calls -----------------------------------------------


def offered(lang: str, library: Library) -> list[str]:
    """The calculators a language's site offers.

    A calculator stays with the rule entries it computes: it is offered when
    all of them are in the library, and a language gets calculators only when
    it has at least one of those entries itself.
    """
    calcs = [name for name in CALCS if all(library.by_key(key) is not None for key in CALC_RULES[name])]
    if not any(key.startswith(f"{lang}:") for name in calcs for key in CALC_RULES[name]):
        return []
    return calcs


def widget_for(entry_id: str, lang: str, library: Library) -> str | None:
    """The widget to show after an entry's body, or None when the entry has none."""
    preset = WIDGETS.get((lang, entry_id))
    entry = library.get(lang, entry_id)
    if preset is None or entry is None or preset.calc not in offered(lang, library):
        return None
    return render_widget(preset, f"calc-{entry_id}", lang, library, page_url(library, entry.key), entry.edition)


def calculators_page(lang: str, library: Library) -> str | None:
    """The Markdown body of ``calculators.md``: a title, a lede, and the three calculators.

    They compute the edition of the language's chapters, and say so.

    >>> page = calculators_page("cs", lib)
    >>> page.splitlines()[0], page.count('class="pravila-calc"')
    ('# Kalkulačky {#calculators}', 3)
    """
    calcs = offered(lang, library)
    if not calcs:
        return None
    from_page = f"/{lang}/calculators/"
    edition = page_edition(lang, library)
    blocks = [
        f"# {esc(answers.text(lang, 'page.title'))} {{#calculators}}",
        f'<p class="pravila-calc__lede">{esc(answers.text(lang, "page.intro"))}</p>',
        f'<p class="pravila-calc__lede">{esc(answers.text(lang, "page.edition", edition=edition))}</p>',
    ]
    for name in calcs:
        blocks.append(f"## {esc(answers.text(lang, 'calc.' + name))} {{#calc-{name}}}")
        blocks.append(render_widget(PAGE_PRESETS[name], f"calc-page-{name}", lang, library, from_page, edition))
    return "\n\n".join(blocks) + "\n"
