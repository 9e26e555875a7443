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

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable

from babel.numbers import get_decimal_symbol

from . import answers, calculators as calc
from .calctables import Preset, page_preset, tables
from .content import Library
from .links import CALCULATORS_PAGE, href, page_url, url_of
from .render import Markup, render_template, template_module

TABLES = tables()  # data/calculators.toml: rules, errors, fields and defaults of each calculator
CALCS = TABLES.calcs
DEFAULTS: dict[str, Any] = {**TABLES.defaults, "edition": TABLES.default_edition}


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
    keep |= {f"error.{code}" for code in TABLES.calculators[calc_name].errors}
    keep |= {"not-a-number"}
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


def _number_text(lang: str) -> Callable[[Any], str]:
    """A field's number as the reader writes it: ``5,5`` in Russian and Czech, no grouping.

    >>> _number_text("ru")(5.5), _number_text("cs")(30), _number_text("en")(7.5), _number_text("ru")(None)
    ('5,5', '30', '7.5', '')
    """
    point = get_decimal_symbol(lang)
    return lambda value: "" if value is None or value == "" else str(calc._num(value)).replace(".", point)


@lru_cache(maxsize=None)
def _macros(lang: str) -> Any:
    """``templates/widget.html``'s macros, labelled in one language."""
    return template_module("widget.html", lang=lang, label=_label(lang), number_text=_number_text(lang))


def answer_html(result: Any, lang: str, links: dict[str, dict[str, str]], *, metric: bool = False) -> str:
    """The inside of a widget's ``<output>``: one line per span, then the rules, linked.

    ``static/calculators.js`` (``renderAnswer``) builds the same markup.
    """
    lines = answers.describe(result, lang, metric=metric)
    return str(_macros(lang).answer(lines, result.rules, links))


def _leg(leg: calc.Leg) -> dict[str, Any]:
    """A preset leg as a row of the move widget shows it (``templates/widget.html``'s ``leg_row``)."""
    return {"distance": calc._num(leg.distance_ft), "mode": leg.mode, "difficult": bool(leg.difficult)}


def render_widget(preset: Preset, uid: str, lang: str, library: Library, from_page: str, edition: int, *,
                  context: str | None = None, title_id: str | None = None) -> str:
    """One widget: an ``<aside>`` (excluded from search) with its form and its answer.

    ``edition`` is the page's; ``data-defaults`` holds the values of the
    fields a preset does not show (the edition among them), so the script
    computes with the same inputs as this prerendered answer.  The strings
    the script needs are the page's (:func:`page_data`).  ``context`` (the
    entry it follows) tells widgets of one page apart for screen readers;
    ``title_id`` names the heading that titles it instead of its own title.
    """
    values = _inputs(preset, edition)
    links = rule_links(library, lang, from_page, TABLES.rule_keys(preset.calc))
    try:
        result = compute(preset.calc, values, preset.legs)
        answer = answer_html(result, lang, links, metric=values["metric"])
    except calc.CalcError as e:  # a preset the rules refuse: say so, as the script would
        answer = str(_macros(lang).error(answers.error_message(e, lang)))
    sizes = [(s, answers.text(lang, f"size.{s}")) for s in calc.SIZES]
    return str(template_module(
        "widget.html", uid=uid, calc=preset.calc, lang=lang, label=_label(lang), number_text=_number_text(lang),
        context=context, title_id=title_id, shown=set(preset.fields), values=values,
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
    calcs = [name for name in CALCS if all(library.by_key(key) is not None for key in TABLES.rule_keys(name))]
    if not any(key.startswith(f"{lang}:") for name in calcs for key in TABLES.rule_keys(name)):
        return []
    return calcs


def widget_for(entry_id: str, lang: str, library: Library) -> str | None:
    """The widget to show after an entry's body, or None when the entry has none."""
    entry = library.get(lang, entry_id)
    preset = entry.calculator if entry is not None else None
    if preset is None or entry is None or preset.calc not in offered(lang, library):
        return None
    return render_widget(preset, f"calc-{entry_id}", lang, library, page_url(library, entry), entry.edition,
                         context=entry.title)


def page_data(lang: str, library: Library, entry_ids: Iterable[str]) -> str | None:
    """The data block of a rule page whose entries ``entry_ids`` have widgets (:func:`widget_for`), or None.

    >>> block = page_data("ru", lib, ["long-jump", "high-jump"])
    >>> block.count('id="pravila-calc-data"'), "jump.long" in block, "move." in block, page_data("ru", lib, ["grapple"])
    (1, True, False, None)
    """
    entries = [library.get(lang, e) for e in entry_ids]
    calcs = [e.calculator.calc for e in entries if e is not None and e.calculator is not None]
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
    widgets = [{"name": name, "widget": Markup(render_widget(page_preset(name), f"calc-page-{name}", lang, library,
                                                             from_page, edition, title_id=f"calc-{name}"))}
               for name in calcs]
    return str(render_template("calculators.md", label=_label(lang), edition=edition, calcs=widgets,
                               data=Markup(data_block(lang, calcs))))
