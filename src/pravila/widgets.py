"""The calculators' widgets: HTML blocks for the rule pages and the calculators page.

The site generator (:mod:`pravila.pages`) asks :func:`widget_for` for a block
to insert after each entry's body and :func:`calculators_page` for the body
of ``calculators.md``.  A widget is plain HTML that works on a static host:

- labels come from the ``calculators`` catalog at build time; the markup is
  ``templates/widget.html`` (:mod:`pravila.render`);
- the answer templates and error messages the script needs travel once per
  page, in ``<div id="pravila-calc-data" hidden data-strings="…">`` (JSON,
  :func:`page_data`); each widget's rule titles and links (relative to its
  page) in its ``data-rules``;
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

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable

from . import answers, calculators as calc
from .content import Library
from .links import CALCULATORS_PAGE, href, page_url, url_of
from .render import Markup, render_template, template_module

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


def rule_links(library: Library, lang: str, from_page: str, keys: tuple[str, ...]) -> dict[str, dict[str, str]]:
    """The rules a widget may cite: title in the reader's language, href from ``from_page``."""
    out = {}
    for key in keys:
        link = answers.rule_link(library, key, lang)
        out[key] = {"title": link.title, "href": href(from_page, link.url), "lang": link.lang}
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


# --- markup ----------------------------------------------------------------------


def _label(lang: str) -> Callable[..., str]:
    return lambda key, **params: answers.text(lang, key, **params)


@lru_cache(maxsize=None)
def _macros(lang: str) -> Any:
    """``templates/widget.html``'s macros, labelled in one language."""
    return template_module("widget.html", lang=lang, label=_label(lang))


def answer_html(result: Any, lang: str, links: dict[str, dict[str, str]], *, metric: bool = False) -> str:
    """The inside of a widget's ``<output>``: one line per span, then the rules, linked.

    ``static/calculators.js`` (``renderAnswer``) builds the same markup.
    """
    lines = answers.describe(result, lang, metric=metric)
    return str(_macros(lang).answer(lines, result.rules, links))


def _leg(leg: calc.Leg) -> dict[str, Any]:
    """A preset leg as a row of the move widget shows it (``templates/widget.html``'s ``leg_row``)."""
    return {"distance": calc._num(leg.distance_ft), "mode": leg.mode, "difficult": bool(leg.difficult)}


def render_widget(preset: Preset, uid: str, lang: str, library: Library, from_page: str, edition: int) -> str:
    """One widget: an ``<aside>`` (excluded from search) with its form and its answer.

    ``edition`` is the page's; ``data-defaults`` holds the values of the
    fields a preset does not show (the edition among them), so the script
    computes with the same inputs as this prerendered answer.  The strings
    the script needs are the page's (:func:`page_data`).
    """
    values = _inputs(preset, edition)
    links = rule_links(library, lang, from_page, CALC_RULES[preset.calc])
    try:
        result = compute(preset.calc, values, preset.legs)
        answer = answer_html(result, lang, links, metric=values["metric"])
    except calc.CalcError as e:  # a preset the rules refuse: say so, as the script would
        answer = str(_macros(lang).error(answers.error_message(e, lang)))
    sizes = [(s, answers.text(lang, f"size.{s}")) for s in calc.SIZES]
    return str(template_module(
        "widget.html", uid=uid, calc=preset.calc, lang=lang, label=_label(lang), shown=set(preset.fields), values=values,
        legs=[_leg(leg) for leg in preset.legs], modes=calc.MODES, sizes=sizes,
        editions=[(str(e), answers.text(lang, f"edition.{e}")) for e in calc.EDITIONS],
        rules=links, defaults={k: values[k] for k in DEFAULTS}, answer_html=Markup(answer),
    ).widget())


def data_block(lang: str, calcs: Iterable[str]) -> str:
    """The block of a page's widgets' strings: one per page, whatever the number of widgets.

    >>> block = data_block("cs", ["spell"])
    >>> block.startswith('<div id="pravila-calc-data" hidden') and "DC záchrany" in block
    True
    """
    strings: dict[str, str] = {}
    for name in sorted(set(calcs)):
        strings.update(strings_for(name, lang))
    return str(_macros(lang).page_data(lang, strings))


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
    return render_widget(preset, f"calc-{entry_id}", lang, library, page_url(library, entry), entry.edition)


def page_data(lang: str, library: Library, entry_ids: Iterable[str]) -> str | None:
    """The data block of a rule page whose entries ``entry_ids`` have widgets (:func:`widget_for`), or None.

    >>> block = page_data("ru", lib, ["long-jump", "high-jump"])
    >>> block.count('id="pravila-calc-data"'), "jump.long" in block, "move." in block, page_data("ru", lib, ["grapple"])
    (1, True, False, None)
    """
    calcs = [WIDGETS[(lang, e)].calc for e in entry_ids if (lang, e) in WIDGETS]
    return data_block(lang, calcs) if calcs else None


def calculators_page(lang: str, library: Library) -> str | None:
    """The Markdown body of ``calculators.md``: a title, a lede, the calculators and their strings.

    They compute the edition of the language's chapters, and say so.

    >>> page = calculators_page("cs", lib)
    >>> page.splitlines()[0], page.count('class="pravila-calc"'), page.count('id="pravila-calc-data"')
    ('# Kalkulačky {#calculators}', 3, 1)
    """
    calcs = offered(lang, library)
    if not calcs:
        return None
    from_page = url_of(lang, CALCULATORS_PAGE)
    edition = page_edition(lang, library)
    widgets = [{"name": name, "widget": Markup(render_widget(PAGE_PRESETS[name], f"calc-page-{name}", lang, library,
                                                             from_page, edition))}
               for name in calcs]
    return str(render_template("calculators.md", label=_label(lang), edition=edition, calcs=widgets,
                               data=Markup(data_block(lang, calcs))))
