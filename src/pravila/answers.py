"""The calculators' answers in words, in the reader's language.

A result of :mod:`pravila.calculators` becomes a few lines of text; the CLI
prints them and the widgets show the same lines (``static/calculators.js``
builds them from the same templates, which the widget markup carries).  All
text comes from the gettext domain ``calculators``; source strings are
English, so ``lang=None`` answers in English.

>>> from pravila.calculators import jump
>>> for line in describe(jump(15, standing=True), "ru"):
...     print(line)
Прыжок в длину без разбега: 7 футов (половина значения Силы 15, с округлением вниз)
Прыжок в высоту без разбега: 2 фута (половина от 3 + модификатор Силы +2, с округлением вниз)
Каждый фут прыжка учитывается при подсчёте перемещения.
По правилам 2014 года; по правилам 2024 года ответ тот же.
>>> describe(jump(15, standing=True, edition=2024), "cs")[0]
'Skok do dálky z místa: 7 stop (polovina hodnoty Síly 15, zaokrouhleno dolů)'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .calctables import tables
from .calculators import ERRORS, CalcError, JumpResult, MoveResult, SpellResult
from .content import Library
from .i18n import shipped
from .units import format_feet, signed

DOMAIN = "calculators"

# Answer templates: key → English msgid.  ``{name}`` placeholders are filled
# with already formatted values (lengths with their unit, signed modifiers).
TEMPLATES: dict[str, str] = {
    "jump.long.running": "Long jump with a running start of at least 10 feet: {distance}",
    "jump.long.standing": "Standing long jump: {distance} (half the Strength score {strength}, rounded down)",
    "jump.high.running": "High jump with a running start: {distance} (3 + Strength modifier {mod})",
    "jump.high.running.zero": "High jump with a running start: {distance} (3 + Strength modifier {mod} is below 0)",
    "jump.high.standing": "Standing high jump: {distance} (half of 3 + Strength modifier {mod}, rounded down)",
    "jump.high.standing.zero": "Standing high jump: {distance} (3 + Strength modifier {mod} is below 0)",
    "jump.limited": "With {movement} of movement left: long jump {long}, high jump {high} (every foot jumped counts against your movement)",
    "jump.limited.running": "With {movement} of movement left, {run_up} of it for the running start: long jump {long}, high jump {high} (every foot jumped counts against your movement)",
    "jump.no-run-up": "With {movement} of movement left there is no room for a running start of {run_up}: only a standing jump.",
    "jump.movement": "Every foot jumped counts against your movement.",
    "jump.movement.running": "The running start spends {run_up} of movement and every foot jumped counts against it too: the long jump costs {total} in all.",
    "jump.reach": "You reach up to: {reach} (high jump {high} + 1½ × height {height}; not rounded down: your height is a measure of your body, not a number of the game)",
    "spell.from-level": "Level {level}: proficiency bonus {prof}; ability score {score}: modifier {mod}",
    "spell.dc": "Spell save DC: {dc} (8 + proficiency bonus {prof} + spellcasting ability modifier {mod})",
    "spell.attack": "Spell attack bonus: {attack} (proficiency bonus {prof} + spellcasting ability modifier {mod})",
    "move.speed": "Speed: {speed}",
    "move.speed.halved": "Speed: {speed}, half of {base} rounded down, while you drag or carry a grappled creature",
    "move.speed.not-halved": "Speed: {speed}; a grappled creature at least two sizes smaller does not slow you",
    "move.speed.drag-extra": "Speed: {speed}; while you drag or carry a grappled creature, every foot you move costs 1 extra foot",
    "move.speed.no-drag-extra": "Speed: {speed}; a grappled creature that is Tiny or at least two sizes smaller costs no extra movement",
    "move.speed.climb": "Climbing speed: {speed}",
    "move.speed.swim": "Swimming speed: {speed}",
    "move.speed.fly": "Flying speed: {speed}",
    "move.dash": "Dash: extra movement equal to your speed",
    "move.leg.walk": "{distance} walking",
    "move.leg.climb": "{distance} climbing",
    "move.leg.swim": "{distance} swimming",
    "move.leg.crawl": "{distance} crawling",
    "move.leg.fly": "{distance} flying",
    "move.leg.difficult": "{leg}, difficult terrain",
    "move.leg.difficult-many": "{leg}, difficult terrain (several effects count once)",
    "move.leg.dragging": "{leg}, dragging a grappled creature",
    "move.leg.switched": "{leg}, after switching speeds",
    "move.stand-up": "standing up (half your speed, rounded down)",
    "move.mount": "mounting (half your speed, rounded down)",
    "move.dismount": "dismounting (half your speed, rounded down)",
    "move.step": "{n}. {what}: costs {cost}, {left} left",
    "move.step.short": "{n}. {what}: costs {cost}, {short} more than is left",
    "move.ok": "Possible: the move costs {cost}, {left} left.",
    "move.not-enough-movement": "Not possible: step {n} costs {cost}, but only {left} of movement is left.",
    "move.speed-zero.stand-up": "Not possible: you cannot stand up while your speed is 0.",
    "move.speed-zero.mount": "Not possible: you cannot mount or dismount while your speed is 0.",
    "move.mount-twice": "Not possible: you can mount or dismount only once during your move.",
    "move.switching": "After switching speeds, what is left is the new speed minus the movement already spent, extra feet for difficult terrain and the like included (the rule says to subtract the distance already moved).",
    "edition.same": "By the {edition} rules; the {other} rules give the same answer.",
    "edition.differs": "By the {edition} rules; the {other} rules differ here.",
    "rules": "Rules:",
}

# Widget labels and the calculators page: key → English msgid.
LABELS: dict[str, str] = {
    "calc.jump": "How far can I jump?",
    "calc.spell": "What is my spell save DC and attack bonus?",
    "calc.move": "Can I still get there this turn?",
    "answer": "Answer",
    "strength": "Strength score",
    "standing": "Standing jump (no running start of 10 feet)",
    "height": "Your height in feet, for reach (optional)",
    "movement-left": "Movement left this turn in feet (optional)",
    "metric": "Also in metres (5 ft = 1.5 m)",
    "edition": "Rules",
    "edition.2014": "2014 edition",
    "edition.2024": "2024 edition",
    "spell.by": "Calculate from",
    "spell.by-bonus": "proficiency bonus and modifier",
    "spell.by-level": "level and ability score",
    "proficiency": "Proficiency bonus",
    "ability-mod": "Spellcasting ability modifier",
    "level": "Character level",
    "ability-score": "Spellcasting ability score",
    "speeds": "Speeds",
    "speed": "Speed in feet",
    "climb-speed": "Climbing speed in feet (0: none)",
    "swim-speed": "Swimming speed in feet (0: none)",
    "fly-speed": "Flying speed in feet (0: none)",
    "size": "Your size",
    "drag": "Dragging or carrying a grappled creature of size",
    "drag.none": "none",
    "size.tiny": "Tiny",
    "size.small": "Small",
    "size.medium": "Medium",
    "size.large": "Large",
    "size.huge": "Huge",
    "size.gargantuan": "Gargantuan",
    "dash": "Dash (extra movement equal to your speed)",
    "stand-up": "Stand up from prone first",
    "mount": "Mount or dismount at the end",
    "legs": "The path, leg by leg",
    "leg": "Leg {n}",
    "distance": "Distance in feet",
    "mode": "How",
    "mode.walk": "walking",
    "mode.climb": "climbing",
    "mode.swim": "swimming",
    "mode.crawl": "crawling",
    "mode.fly": "flying",
    "difficult": "Difficult terrain",
    "add-leg": "Add a leg",
    "remove-leg": "Remove leg {n}",
    "noscript": "The answer above is for the example values. To calculate with your own numbers, turn on JavaScript in your browser.",
    "not-a-number": "“{value}” is not a number: type digits, with a comma or a point before a fraction.",
    "page.title": "Calculators",
    "page.intro": "Answers to the questions asked at the table, worked out from the rules of this reference. Every answer names the rules it applied, with a link.",
    "page.edition": "The calculators apply the {edition} rules. The 2024 rules differ from the 2014 ones in moving a grappled creature and in mounting more than once in a move; the movement calculator lets you choose the edition. Halves are rounded down, as the rules say.",
}

# English names of the rule entries, for readers of the other language.
RULE_NAMES: dict[str, str] = tables().rule_names  # data/calculators.toml


def msgids(lang: str | None = None) -> list[str]:
    """Every English string of the domain that ``lang`` needs translated.

    >>> len(msgids("ru")) > len(msgids(None))
    True
    """
    ids = list(TEMPLATES.values()) + list(LABELS.values()) + list(ERRORS.values())
    if lang is not None:
        ids += [name for key, name in RULE_NAMES.items() if not key.startswith(f"{lang}:")]
    return list(dict.fromkeys(ids))


def _gettext(lang: str | None, message: str) -> str:
    if lang is None:
        return message
    return shipped().gettext(lang, message, DOMAIN)


def text(lang: str | None, key: str, **params: Any) -> str:
    """One answer template (or label) filled in.

    >>> text("cs", "move.step", n=1, what="x", cost="10 stop", left="20 stop")
    '1. x: stojí 10 stop, zůstatek 20 stop'
    """
    template = TEMPLATES.get(key) or LABELS[key]
    return _gettext(lang, template).format(**params)


def strings(lang: str | None, keys: list[str] | None = None) -> dict[str, str]:
    """Templates and labels by key, translated: what a widget carries for its JavaScript.

    Error messages are under ``error.<code>``.
    """
    out = {k: _gettext(lang, v) for k, v in {**TEMPLATES, **LABELS}.items() if keys is None or k in keys}
    out.update({f"error.{code}": _gettext(lang, msg) for code, msg in ERRORS.items()})
    return out


def error_message(error: CalcError, lang: str | None = None) -> str:
    """A calculator error in the reader's language.

    >>> from pravila.calculators import jump
    >>> try:
    ...     jump(31)
    ... except CalcError as e:
    ...     print(error_message(e, "ru"))
    Сила должна быть целым числом от 1 до 30, а не 31.
    """
    return _gettext(lang, ERRORS[error.code]).format(**error.params)


# --- rules named and linked ----------------------------------------------------


@dataclass(frozen=True)
class RuleLink:
    key: str
    title: str
    url: str
    lang: str  # the language of the entry (and of its page)


def rule_link(library: Library, key: str, lang: str | None = None) -> RuleLink:
    """A rule as the reader of ``lang`` sees it: its title, and its page.

    >>> rule_link(lib, "ru:long-jump", "ru")
    RuleLink(key='ru:long-jump', title='Прыжок в длину', url='/ru/combat/movement/#long-jump', lang='ru')
    >>> rule_link(lib, "ru:long-jump", "cs").title
    'Skok do dálky'
    >>> rule_link(lib, "cs:saving-throws").title
    'Saving Throws'
    """
    from .links import entry_url

    entry = library.by_key(key)
    if entry is None:
        raise KeyError(f"no rule entry {key!r} in the content")
    if lang == entry.lang:
        title = entry.title
    else:
        title = _gettext(lang, RULE_NAMES.get(key, entry.en))
    return RuleLink(key, title, entry_url(library, entry), entry.lang)


# --- answers -------------------------------------------------------------------


def describe(result: JumpResult | SpellResult | MoveResult, lang: str | None = None, *, metric: bool = False) -> list[str]:
    """The answer as lines of text (the rules it applied are in ``result.rules``).

    >>> from pravila.calculators import move, Leg
    >>> for line in describe(move(30, [Leg(10, "climb"), Leg(10, difficult=2)]), "ru"):
    ...     print(line)
    Нельзя: шаг 2 стоит 20 футов, а в запасе только 10 футов.
    Скорость: 30 футов
    1. 10 футов лазаньем: стоит 20 футов, остаток 10 футов
    2. 10 футов шагом, труднопроходимая местность (несколько эффектов не складываются): стоит 20 футов, на 10 футов больше, чем осталось
    По правилам 2014 года; по правилам 2024 года ответ тот же.
    """
    def ft(value: float) -> str:
        return format_feet(value, lang, metric=metric)

    def t(key: str, **params: Any) -> str:
        return text(lang, key, **params)

    if isinstance(result, JumpResult):
        return _describe_jump(result, t, ft)
    if isinstance(result, SpellResult):
        return _describe_spell(result, t)
    return _describe_move(result, t, ft)


def _other(edition: int) -> int:
    return 2024 if edition == 2014 else 2014


def _edition_line(t, edition: int, differs: bool) -> str:
    return t("edition.differs" if differs else "edition.same", edition=edition, other=_other(edition))


def _describe_jump(r: JumpResult, t, ft) -> list[str]:
    mod = signed(r.strength_mod)
    long_max = r.long_jump_max_ft if r.limited_by_movement else r.long_jump_ft
    high_max = r.high_jump_max_ft if r.limited_by_movement else r.high_jump_ft
    below_zero = 3 + r.strength_mod < 0
    if r.running:
        lines = [t("jump.long.running", distance=ft(long_max))]
        lines.append(t("jump.high.running.zero" if below_zero else "jump.high.running", distance=ft(high_max), mod=mod))
    else:
        lines = [t("jump.long.standing", distance=ft(long_max), strength=r.strength)]
        lines.append(t("jump.high.standing.zero" if below_zero else "jump.high.standing", distance=ft(high_max), mod=mod))
    if r.limited_by_movement and r.running and r.movement_ft < r.run_up_ft:  # type: ignore[operator]
        lines.append(t("jump.no-run-up", movement=ft(r.movement_ft), run_up=ft(r.run_up_ft)))
    elif r.limited_by_movement:
        key = "jump.limited.running" if r.running else "jump.limited"
        lines.append(t(key, movement=ft(r.movement_ft), run_up=ft(r.run_up_ft), long=ft(r.long_jump_ft),
                       high=ft(r.high_jump_ft)))
    elif r.running:
        lines.append(t("jump.movement.running", run_up=ft(r.run_up_ft), total=ft(r.run_up_ft + r.long_jump_ft)))
    else:
        lines.append(t("jump.movement"))
    if r.reach_ft is not None:
        lines.append(t("jump.reach", reach=ft(r.reach_ft), high=ft(r.high_jump_ft), height=ft(r.height_ft)))
    lines.append(_edition_line(t, r.edition, False))
    return lines


def _describe_spell(r: SpellResult, t) -> list[str]:
    prof, mod = signed(r.proficiency), signed(r.ability_mod)
    lines = [t("spell.dc", dc=r.save_dc, prof=prof, mod=mod),
             t("spell.attack", attack=signed(r.attack_bonus), prof=prof, mod=mod)]
    if r.level is not None:
        lines.append(t("spell.from-level", level=r.level, prof=prof, score=r.ability_score, mod=mod))
    lines.append(_edition_line(t, r.edition, False))
    return lines


def _describe_move(r: MoveResult, t, ft) -> list[str]:
    """The verdict first (can I get there?), then the speeds, the steps and the notes."""
    if r.legal:
        lines = [t("move.ok", cost=ft(r.cost_ft), left=ft(r.remaining_ft))]
    else:
        assert r.reason_step is not None  # an illegal move names the step that fails
        s = r.steps[r.reason_step - 1]
        if r.reason == "not-enough-movement":
            lines = [t("move.not-enough-movement", n=r.reason_step, cost=ft(s.cost_ft), left=ft(s.left_ft + s.cost_ft))]
        elif r.reason == "speed-zero":
            lines = [t("move.speed-zero.stand-up" if s.kind == "stand-up" else "move.speed-zero.mount")]
        else:
            lines = [t(f"move.{r.reason}")]
    if r.halved:
        lines.append(t("move.speed.halved", speed=ft(r.speed_ft), base=ft(r.base_speed_ft)))
    elif r.drag_extra:
        lines.append(t("move.speed.drag-extra", speed=ft(r.speed_ft)))
    elif r.dragging:
        lines.append(t("move.speed.not-halved" if r.edition == 2014 else "move.speed.no-drag-extra", speed=ft(r.speed_ft)))
    else:
        lines.append(t("move.speed", speed=ft(r.speed_ft)))
    for name in ("climb", "swim", "fly"):
        if r.speeds_ft[name]:
            lines.append(t(f"move.speed.{name}", speed=ft(r.speeds_ft[name])))
    if r.dash:
        lines.append(t("move.dash"))
    for n, s in enumerate(r.steps, 1):
        if s.kind == "leg":
            what = t(f"move.leg.{s.mode}", distance=ft(s.distance_ft))
            if s.difficult:
                what = t("move.leg.difficult" if s.difficult == 1 else "move.leg.difficult-many", leg=what)
            if s.dragging:
                what = t("move.leg.dragging", leg=what)
            if s.switched:
                what = t("move.leg.switched", leg=what)
        else:
            what = t(f"move.{s.kind}")
        if s.left_ft < 0:  # past the movement there is: say by how much, not a negative remainder
            lines.append(t("move.step.short", n=n, what=what, cost=ft(s.cost_ft), short=ft(-s.left_ft)))
        else:
            lines.append(t("move.step", n=n, what=what, cost=ft(s.cost_ft), left=ft(s.left_ft)))
    if any(s.switched for s in r.steps):
        lines.append(t("move.switching"))
    lines.append(_edition_line(t, r.edition, r.editions_differ))
    return lines
