"""Calculators for the table: jumps, spell save DC and attack bonus, movement.

Pure functions on numbers; every result carries the numbers, a verdict where
one applies, the reason, and the keys (``lang:id``) of the rule entries it
applied.  ``static/calculators.js`` implements the same functions for the
site's widgets; ``tests/vectors/calculators.yaml`` is the contract both are
tested against, so change a rule in both places and in the vectors.

Every function takes the ``edition`` of the rules it computes: 2014 (the
default, the Russian chapter's) or 2024; the result says which one it used.
Only moving a grappled creature and mounting twice in one move differ
between them (see :func:`move`).

Round Down: the game's own halvings (standing jumps, half the speed to stand
up or to mount, the speed halved while dragging in 2014) are rounded down,
even a half (Strength 15, standing: 7 feet).  Distances a player types and
the metric display are not game numbers and stay exact; so does the reach of
a high jump, a length of the body (see :func:`jump`).

>>> jump(15, standing=True).long_jump_ft
7
>>> spell(level=5, ability_score=16).save_dc
14
>>> move(30, [Leg(10, difficult=1), Leg(5)]).remaining_ft
5
>>> jump(31)
Traceback (most recent call last):
...
pravila.calculators.CalcError: Strength must be a whole number from 1 to 30, not 31.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .calctables import tables

# The tables are data (data/calculators.toml), shared with the JavaScript twin;
# the names below are only for reading the formulas.
_T = tables()

# Rule entries, as ``lang:id`` keys (see pravila.links.entry_url for their pages).
LONG_JUMP = _T.rule_key("long_jump")
HIGH_JUMP = _T.rule_key("high_jump")
MOVEMENT = _T.rule_key("movement")
DIFFICULT_TERRAIN = _T.rule_key("difficult_terrain")
CLIMB_SWIM_CRAWL = _T.rule_key("climb_swim_crawl")
PRONE = _T.rule_key("prone")
MOUNTING = _T.rule_key("mounting")
GRAPPLED = _T.rule_key("grappled")
DASH = _T.rule_key("dash")
SPEEDS = _T.rule_key("speeds")
FLYING = _T.rule_key("flying")
SAVE_DC = _T.rule_key("save_dc")
SPELL_ATTACK = _T.rule_key("spell_attack")
RULES = _T.all_rule_keys

# The editions a calculator computes; 2014 is the Russian chapter's (the
# content of most rules the calculators apply), 2024 the Czech chapter's.
EDITIONS = _T.editions
DEFAULT_EDITION = _T.default_edition
RUN_UP_FT = _T.run_up_ft  # a running start: "at least 10 feet" of movement just before the jump
SIZES = _T.sizes
MODES = _T.modes
ACTIONS = _T.actions

# English error messages; they are also the msgids of the ``calculators``
# catalog, so the CLI and the widgets show them in the reader's language.
ERRORS = {
    "strength": "Strength must be a whole number from 1 to 30, not {value}.",
    "height": "Height must be a number of feet above 0, not {value}.",
    "movement-left": "Movement left must be a number of feet, 0 or more, not {value}.",
    "proficiency": "Proficiency bonus must be a whole number from 2 to 9, not {value}.",
    "ability-mod": "Ability modifier must be a whole number from -5 to 10, not {value}.",
    "level": "Level must be a whole number from 1 to 20, not {value}.",
    "ability-score": "Ability score must be a whole number from 1 to 30, not {value}.",
    "spell-inputs": "Give either the proficiency bonus and the ability modifier, or the level and the ability score.",
    "speed": "Speed must be a whole number of feet, 0 or more, not {value}.",
    "climb-speed": "Climbing speed must be a whole number of feet, 0 or more, not {value}.",
    "swim-speed": "Swimming speed must be a whole number of feet, 0 or more, not {value}.",
    "fly-speed": "Flying speed must be a whole number of feet, 0 or more, not {value}.",
    "size": "Unknown size {value}: use tiny, small, medium, large, huge or gargantuan.",
    "drag-size": "Unknown size of the grappled creature {value}: use tiny, small, medium, large, huge or gargantuan.",
    "distance": "Leg {leg}: the distance must be a number of feet, 0 or more, not {value}.",
    "mode": "Leg {leg}: unknown way of moving {value}: use walk, climb, swim, crawl or fly.",
    "difficult": "Leg {leg}: difficult terrain must be yes/no or a number of effects, not {value}.",
    "no-fly-speed": "Leg {leg}: flying needs a flying speed.",
    "step": "Leg {leg}: unknown step {value}: use a distance, stand-up, mount or dismount.",
    "leg-syntax": "Cannot read the leg {value}: write DIST[,difficult][,climb|swim|crawl|fly], for example 10,difficult,climb.",
    "edition": "The edition of the rules must be 2014 or 2024, not {value}.",
}


class CalcError(ValueError):
    """Input a calculator cannot answer; ``code`` names the problem (a key of ERRORS).

    >>> e = CalcError("level", value=0)
    >>> e.code, e.params, str(e)
    ('level', {'value': 0}, 'Level must be a whole number from 1 to 20, not 0.')
    """

    def __init__(self, code: str, **params: Any):
        self.code = code
        self.params = {k: _num(v) if isinstance(v, float) and math.isfinite(v) else v for k, v in params.items()}
        super().__init__(ERRORS[code].format(**self.params))


# --- small shared pieces -----------------------------------------------------


def _is_int(value: Any) -> bool:
    """A whole number; 15.0 counts (JavaScript cannot tell it from 15), True does not."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _whole(value: Any, code: str, low: int, high: float = math.inf) -> int:
    if not _is_int(value) or not low <= value <= high:
        raise CalcError(code, value=value)
    return int(value)


def _is_number(value: Any) -> bool:
    return (isinstance(value, (int, float)) and not isinstance(value, bool)) and math.isfinite(value)


def _num(value: float) -> int | float:
    """Whole numbers as int, so that JSON says 15, not 15.0."""
    return int(value) if float(value).is_integer() else value


def _unique(keys: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(keys))


def _edition(value: Any) -> int:
    if not _is_int(value) or int(value) not in EDITIONS:
        raise CalcError("edition", value=value)
    return int(value)


def half(value: int) -> int:
    """Half a number of the game, rounded down, even a half.

    Round Down, a general rule of both editions.  2014: "Whenever you divide
    a number in the game, round down if you end up with a fraction, even if
    the fraction is one-half or greater" (Player's Handbook 2014, p. 7,
    Introduction).  2024 widens it to "divide or multiply" (SRD 5.2,
    "Playing the Game", the Round Down sidebar under Ability Modifiers, and
    the Rules Glossary entry Round Down: repository
    springbov/dndsrd5.2_markdown, src/01_PlayingTheGame.md and
    src/08_RulesGlossary.md), and repeats it where a speed is halved: "half
    your Speed (round down)" (Prone; Mounting and Dismounting).

    >>> half(15), half(25), half(30), half(5), half(0)
    (7, 12, 15, 2, 0)
    """
    return value // 2


def ability_modifier(score: int) -> int:
    """The modifier of an ability score (1–30).

    >>> [ability_modifier(s) for s in (1, 8, 9, 10, 11, 15, 30)]
    [-5, -1, -1, 0, 0, 2, 10]
    >>> ability_modifier(0)
    Traceback (most recent call last):
    ...
    pravila.calculators.CalcError: Ability score must be a whole number from 1 to 30, not 0.
    """
    return (_whole(score, "ability-score", 1, 30) - 10) // 2


def proficiency_bonus(level: int) -> int:
    """The proficiency bonus of a character level (1–20).

    >>> [proficiency_bonus(l) for l in (1, 4, 5, 8, 9, 13, 17, 20)]
    [2, 2, 3, 3, 4, 5, 6, 6]
    """
    return 2 + (_whole(level, "level", 1, 20) - 1) // 4


# --- jumps -------------------------------------------------------------------


@dataclass(frozen=True)
class JumpResult:
    strength: int
    strength_mod: int
    running: bool
    run_up_ft: int  # movement the running start spends (0 standing)
    long_jump_ft: float
    high_jump_ft: float
    long_jump_max_ft: float  # before the movement left limits it
    high_jump_max_ft: float
    height_ft: float | None
    reach_ft: float | None
    movement_ft: float | None
    limited_by_movement: bool
    edition: int
    rules: list[str]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "strength": self.strength,
            "strength_mod": self.strength_mod,
            "running": self.running,
            "run_up_ft": self.run_up_ft,
            "long_jump_ft": _num(self.long_jump_ft),
            "high_jump_ft": _num(self.high_jump_ft),
            "limited_by_movement": self.limited_by_movement,
            "edition": self.edition,
            "rules": list(self.rules),
        }
        if self.height_ft is not None:
            d["height_ft"] = _num(self.height_ft)
            d["reach_ft"] = _num(self.reach_ft)  # type: ignore[arg-type]
        if self.movement_ft is not None:
            d["movement_ft"] = _num(self.movement_ft)
            d["long_jump_max_ft"] = _num(self.long_jump_max_ft)
            d["high_jump_max_ft"] = _num(self.high_jump_max_ft)
        return d


def jump(
    strength: int,
    *,
    standing: bool = False,
    height_ft: float | None = None,
    movement_ft: float | None = None,
    edition: int = DEFAULT_EDITION,
) -> JumpResult:
    """How far and how high a creature jumps, and what it reaches.

    Long jump: the Strength score in feet after a running start of at least
    10 feet, half that standing.  High jump: 3 + the Strength modifier
    (minimum 0), half that standing.  Halves are rounded down.  Reach: the
    high jump + 1½ × the creature's height, not rounded: the height is a
    length the player gives, not a number of the game.  The running start
    spends 10 feet of movement and every foot jumped counts against it too,
    so with ``movement_ft`` (movement left this turn, before the running
    start) both jumps stop at what is left after the running start.  Both
    editions give the same jumps.

    >>> r = jump(15)
    >>> r.long_jump_ft, r.high_jump_ft, r.run_up_ft, r.rules
    (15, 5, 10, ['ru:long-jump', 'ru:high-jump'])
    >>> r = jump(15, standing=True, height_ft=6)
    >>> r.long_jump_ft, r.high_jump_ft, r.reach_ft
    (7, 2, 11)
    >>> jump(3).high_jump_ft  # 3 + (-4) is below 0
    0
    >>> jump(20, movement_ft=30).long_jump_ft  # 10 of the 30 feet for the running start
    20
    >>> jump(20, standing=True, movement_ft=5).long_jump_ft
    5
    >>> jump(10, height_ft=0)
    Traceback (most recent call last):
    ...
    pravila.calculators.CalcError: Height must be a number of feet above 0, not 0.
    """
    strength = _whole(strength, "strength", 1, 30)
    if height_ft is not None and (not _is_number(height_ft) or height_ft <= 0):
        raise CalcError("height", value=height_ft)
    if movement_ft is not None and (not _is_number(movement_ft) or movement_ft < 0):
        raise CalcError("movement-left", value=movement_ft)
    edition = _edition(edition)
    running = not standing
    height_ft = None if height_ft is None else _num(height_ft)
    movement_ft = None if movement_ft is None else _num(movement_ft)
    mod = (strength - 10) // 2
    long_ft: float = strength if running else half(strength)
    high_ft: float = max(0, 3 + mod) if running else half(max(0, 3 + mod))
    run_up = RUN_UP_FT if running else 0
    long_max, high_max = long_ft, high_ft
    limited = False
    if movement_ft is not None:
        room = max(0, movement_ft - run_up)
        limited = long_ft > room or high_ft > room
        long_ft, high_ft = min(long_ft, room), min(high_ft, room)
    reach = None if height_ft is None else high_ft + 1.5 * height_ft
    return JumpResult(
        strength=strength, strength_mod=mod, running=running, run_up_ft=run_up,
        long_jump_ft=_num(long_ft), high_jump_ft=_num(high_ft), long_jump_max_ft=_num(long_max),
        high_jump_max_ft=_num(high_max),
        height_ft=height_ft, reach_ft=None if reach is None else _num(reach),
        movement_ft=movement_ft, limited_by_movement=limited, edition=edition, rules=[LONG_JUMP, HIGH_JUMP],
    )


# --- spells ------------------------------------------------------------------


@dataclass(frozen=True)
class SpellResult:
    proficiency: int
    ability_mod: int
    level: int | None
    ability_score: int | None
    save_dc: int
    attack_bonus: int
    edition: int
    rules: list[str]

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "proficiency": self.proficiency,
            "ability_mod": self.ability_mod,
            "save_dc": self.save_dc,
            "attack_bonus": self.attack_bonus,
            "edition": self.edition,
            "rules": list(self.rules),
        }
        if self.level is not None:
            d["level"] = self.level
            d["ability_score"] = self.ability_score
        return d


def spell(
    *,
    proficiency: int | None = None,
    ability_mod: int | None = None,
    level: int | None = None,
    ability_score: int | None = None,
    edition: int = DEFAULT_EDITION,
) -> SpellResult:
    """Spell save DC (8 + proficiency + modifier) and spell attack bonus.

    Give the proficiency bonus and the spellcasting ability modifier, or the
    character level (1–20) and the ability score (1–30).  The same in both
    editions: 2014 (SRD 5.1, each class's Spellcasting: "Spell save DC = 8 +
    your proficiency bonus + your … modifier") and 2024 (SRD 5.2, Spells:
    "Spell save DC = 8 + your spellcasting ability modifier + your
    Proficiency Bonus").

    >>> r = spell(proficiency=3, ability_mod=4)
    >>> r.save_dc, r.attack_bonus, r.rules
    (15, 7, ['cs:saving-throws', 'cs:attack-rolls'])
    >>> spell(level=1, ability_score=8).attack_bonus
    1
    >>> spell(level=3)
    Traceback (most recent call last):
    ...
    pravila.calculators.CalcError: Give either the proficiency bonus and the ability modifier, or the level and the ability score.
    """
    by_bonus = proficiency is not None or ability_mod is not None
    by_level = level is not None or ability_score is not None
    if by_bonus == by_level or (by_bonus and (proficiency is None or ability_mod is None)) or (
        by_level and (level is None or ability_score is None)
    ):
        raise CalcError("spell-inputs")
    edition = _edition(edition)
    if by_level:
        assert level is not None and ability_score is not None
        prof, mod = proficiency_bonus(level), ability_modifier(ability_score)
        level, ability_score = int(level), int(ability_score)
    else:
        assert proficiency is not None and ability_mod is not None
        prof = _whole(proficiency, "proficiency", 2, 9)
        mod = _whole(ability_mod, "ability-mod", -5, 10)
    return SpellResult(
        proficiency=prof, ability_mod=mod, level=level, ability_score=ability_score,
        save_dc=8 + prof + mod, attack_bonus=prof + mod, edition=edition, rules=[SAVE_DC, SPELL_ATTACK],
    )


# --- movement ----------------------------------------------------------------


@dataclass(frozen=True)
class Leg:
    """A stretch of the path: ``distance_ft`` feet by ``mode``.

    ``difficult`` counts the effects that make the ground difficult (a bool
    is fine too); several effects cost the same as one.
    """

    distance_ft: float
    mode: str = "walk"
    difficult: int = 0


@dataclass(frozen=True)
class Step:
    kind: str  # "leg", "stand-up", "mount", "dismount"
    distance_ft: float | None
    mode: str | None
    difficult: int
    dragging: bool  # 2024: the leg costs 1 extra foot per foot for the grappled creature
    speed: str  # the speed it uses: walk, climb, swim, fly
    cost_ft: float
    left_ft: float  # left of that speed after the step (negative: short by that much)
    legal: bool
    reason: str  # "ok", "not-enough-movement", "speed-zero", "mount-twice"
    switched: bool  # switched from another speed: the new speed minus what was already moved
    rules: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "distance_ft": None if self.distance_ft is None else _num(self.distance_ft),
            "mode": self.mode,
            "difficult": self.difficult,
            "dragging": self.dragging,
            "speed": self.speed,
            "cost_ft": _num(self.cost_ft),
            "left_ft": _num(self.left_ft),
            "legal": self.legal,
            "reason": self.reason,
            "switched": self.switched,
            "rules": list(self.rules),
        }


@dataclass(frozen=True)
class MoveResult:
    speed_ft: float  # walking speed after a grappled creature halved it (2014)
    base_speed_ft: int
    speeds_ft: dict[str, float]  # walk, climb, swim, fly (0: none), after halving
    halved: bool  # 2014: dragging halves every speed
    drag_extra: bool  # 2024: dragging costs 1 extra foot per foot
    dragging: bool
    dash: bool
    cost_ft: float
    remaining_ft: float  # left of the speed in use at the end
    speed_in_use: str
    legal: bool
    reason: str
    reason_step: int | None  # 1-based index into steps of the first step that fails
    edition: int
    editions_differ: bool  # a rule applied here is not the same in the other edition
    steps: list[Step] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "speed_ft": _num(self.speed_ft),
            "base_speed_ft": self.base_speed_ft,
            "speeds_ft": {k: _num(v) for k, v in self.speeds_ft.items()},
            "halved": self.halved,
            "drag_extra": self.drag_extra,
            "dragging": self.dragging,
            "dash": self.dash,
            "cost_ft": _num(self.cost_ft),
            "remaining_ft": _num(self.remaining_ft),
            "speed_in_use": self.speed_in_use,
            "legal": self.legal,
            "reason": self.reason,
            "reason_step": self.reason_step,
            "edition": self.edition,
            "editions_differ": self.editions_differ,
            "steps": [s.to_dict() for s in self.steps],
            "rules": list(self.rules),
        }


def _check_speed(code: str, value: Any) -> int:
    return _whole(value, code, 0)


def grapple_slows(size: str, drag: str | None, edition: int) -> bool:
    """Whether moving a grappled creature of size ``drag`` slows a creature of ``size``.

    2014 (Player's Handbook, Moving a Grappled Creature; SRD 5.1): the speed
    is halved "unless the creature is two or more sizes smaller than you".
    2024 (SRD 5.2, Rules Glossary, Grappled condition, "Movable": repository
    springbov/dndsrd5.2_markdown, src/08_RulesGlossary.md): "every foot of
    movement costs it 1 extra foot unless you are Tiny or two or more sizes
    smaller than it" — so a Tiny creature never slows its grappler.

    >>> grapple_slows("medium", "small", 2014), grapple_slows("medium", "tiny", 2014)
    (True, False)
    >>> grapple_slows("tiny", "tiny", 2014), grapple_slows("tiny", "tiny", 2024)
    (True, False)
    """
    if drag is None:
        return False
    slows = SIZES.index(drag) > SIZES.index(size) - 2
    return slows and not (edition == 2024 and drag == "tiny")


def move(
    speed: int,
    legs: Sequence[Leg | str] = (),
    *,
    climb_speed: int = 0,
    swim_speed: int = 0,
    fly_speed: int = 0,
    size: str = "medium",
    drag: str | None = None,
    dash: bool = False,
    stand_up: bool = False,
    mount: bool = False,
    edition: int = DEFAULT_EDITION,
) -> MoveResult:
    """Walk a turn's path leg by leg: what it costs and whether it fits.

    ``legs`` are :class:`Leg` s and the steps ``"stand-up"``, ``"mount"``,
    ``"dismount"`` in the order they happen; ``stand_up`` puts a stand-up
    first and ``mount`` a mount (or dismount) last.  ``drag`` is the size of
    a grappled creature you drag or carry.

    Costs per foot: 1, +1 in difficult terrain (several effects do not
    stack), +1 climbing or swimming without that speed (+2 in difficult
    terrain), +1 crawling (3 in difficult terrain).  Standing up, mounting
    and dismounting cost half the speed, rounded down.  Dash adds the speed
    again.  Switching speeds: the new speed minus the movement already spent
    (extra feet included) is left.

    The editions differ in two rules.  Dragging a grappled creature: 2014
    halves every speed (rounded down) unless the creature is two or more
    sizes smaller; 2024 adds 1 foot to every foot moved unless it is Tiny or
    two or more sizes smaller (see :func:`grapple_slows`).  Mounting: 2014
    allows it "once during your move" (SRD 5.1, Mounting and Dismounting);
    2024 says "During your move, you can mount … or dismount" with no limit
    (SRD 5.2, Playing the Game, Mounted Combat: springbov/dndsrd5.2_markdown,
    src/01_PlayingTheGame.md).  Everything else computed here reads the same
    in SRD 5.1 and SRD 5.2.

    >>> r = move(30, [Leg(10, "climb"), Leg(10, difficult=1)])
    >>> r.cost_ft, r.remaining_ft, r.legal
    (40, -10, False)
    >>> r.reason, r.reason_step
    ('not-enough-movement', 2)
    >>> move(30, fly_speed=60, legs=[Leg(20, "fly"), Leg(10), Leg(30, "fly")]).remaining_ft
    0
    >>> move(25, stand_up=True).cost_ft
    12
    >>> r = move(25, [Leg(12)], drag="medium", dash=True)
    >>> r.speed_ft, r.remaining_ft
    (12, 12)
    >>> r = move(25, [Leg(12)], drag="medium", dash=True, edition=2024)
    >>> r.speed_ft, r.cost_ft, r.remaining_ft
    (25, 24, 26)
    >>> move(0, stand_up=True).reason
    'speed-zero'
    >>> move(30, [Leg(10, "fly")])
    Traceback (most recent call last):
    ...
    pravila.calculators.CalcError: Leg 1: flying needs a flying speed.
    """
    base = {
        "walk": _check_speed("speed", speed),
        "climb": _check_speed("climb-speed", climb_speed),
        "swim": _check_speed("swim-speed", swim_speed),
        "fly": _check_speed("fly-speed", fly_speed),
    }
    if size not in SIZES:
        raise CalcError("size", value=size)
    if drag is not None and drag not in SIZES:
        raise CalcError("drag-size", value=drag)
    edition = _edition(edition)
    checked: list[Leg | str] = []
    for i, leg in enumerate(legs, 1):
        if isinstance(leg, str):
            if leg not in ACTIONS:
                raise CalcError("step", leg=i, value=leg)
            checked.append(leg)
            continue
        if not isinstance(leg, Leg):
            raise CalcError("step", leg=i, value=leg)
        if not _is_number(leg.distance_ft) or leg.distance_ft < 0:
            raise CalcError("distance", leg=i, value=leg.distance_ft)
        if leg.mode not in MODES:
            raise CalcError("mode", leg=i, value=leg.mode)
        if not (isinstance(leg.difficult, bool) or _is_int(leg.difficult)) or leg.difficult < 0:
            raise CalcError("difficult", leg=i, value=leg.difficult)
        if leg.mode == "fly" and base["fly"] == 0:
            raise CalcError("no-fly-speed", leg=i)
        checked.append(leg)
    plan: list[Leg | str] = (["stand-up"] if stand_up else []) + checked + (["mount"] if mount else [])
    dash = bool(dash)

    slows = grapple_slows(size, drag, edition)
    halved = slows and edition == 2014
    drag_extra = slows and edition == 2024
    speeds = {k: (half(v) if halved else v) for k, v in base.items()}
    budget = {k: v * (2 if dash else 1) for k, v in speeds.items()}
    mountings = sum(1 for item in plan if item in ("mount", "dismount"))
    editions_differ = grapple_slows(size, drag, 2014) or grapple_slows(size, drag, 2024) or mountings > 1

    steps: list[Step] = []
    spent: float = 0
    last_speed: str | None = None
    mounted_once = False
    for item in plan:
        if isinstance(item, str):
            cost: float = half(speeds["walk"])
            available = budget["walk"] - spent
            if speeds["walk"] == 0:
                reason = "speed-zero"
            elif item != "stand-up" and mounted_once and edition == 2014:
                reason = "mount-twice"
            elif cost > available:
                reason = "not-enough-movement"
            else:
                reason = "ok"
            if item != "stand-up":
                mounted_once = True
            spent += cost
            steps.append(Step(
                kind=item, distance_ft=None, mode=None, difficult=0, dragging=False, speed="walk", cost_ft=cost,
                left_ft=_num(budget["walk"] - spent), legal=reason == "ok", reason=reason, switched=False,
                rules=[PRONE if item == "stand-up" else MOUNTING],
            ))
            last_speed = "walk"
            continue
        leg = item
        extra = 0
        if leg.mode in ("climb", "swim"):
            own = base[leg.mode] > 0
            use = leg.mode if own else "walk"
            rules = [CLIMB_SWIM_CRAWL]
            extra = 0 if own else 1
        elif leg.mode == "crawl":
            use, rules, extra = "walk", [CLIMB_SWIM_CRAWL, PRONE], 1
        elif leg.mode == "fly":
            use, rules = "fly", [FLYING]
        else:
            use, rules = "walk", [MOVEMENT]
        if leg.difficult:
            extra += 1
            rules.append(DIFFICULT_TERRAIN)
        if drag_extra:
            extra += 1
        switched = last_speed is not None and use != last_speed and spent > 0
        if switched:
            rules.append(SPEEDS)
        cost = leg.distance_ft * (1 + extra)
        available = budget[use] - spent
        spent += cost
        steps.append(Step(
            kind="leg", distance_ft=_num(leg.distance_ft), mode=leg.mode, difficult=int(leg.difficult),
            dragging=drag_extra, speed=use, cost_ft=_num(cost), left_ft=_num(budget[use] - spent),
            legal=cost <= available, reason="ok" if cost <= available else "not-enough-movement",
            switched=switched, rules=rules,
        ))
        last_speed = use

    failing = next((i for i, s in enumerate(steps, 1) if not s.legal), None)
    in_use = last_speed or "walk"
    rules = ([GRAPPLED] if drag is not None else []) + ([DASH] if dash else []) + [r for s in steps for r in s.rules]
    return MoveResult(
        speed_ft=speeds["walk"], base_speed_ft=base["walk"], speeds_ft=dict(speeds),
        halved=halved, drag_extra=drag_extra, dragging=drag is not None, dash=dash, cost_ft=_num(spent),
        remaining_ft=_num(budget[in_use] - spent), speed_in_use=in_use, legal=failing is None,
        reason="ok" if failing is None else steps[failing - 1].reason, reason_step=failing,
        edition=edition, editions_differ=editions_differ, steps=steps, rules=_unique(rules),
    )


def parse_leg(text: str, number: int = 1) -> Leg | str:
    """One LEG of ``pravila calc move``: ``DIST[,difficult][,climb|swim|crawl|fly]``,
    or a step: ``stand-up``, ``mount``, ``dismount``.

    ``difficult`` may repeat (several effects: they still count once).

    >>> parse_leg("10,difficult,climb")
    Leg(distance_ft=10, mode='climb', difficult=1)
    >>> parse_leg("7.5")
    Leg(distance_ft=7.5, mode='walk', difficult=0)
    >>> parse_leg("stand-up")
    'stand-up'
    >>> parse_leg("10,climb,swim")
    Traceback (most recent call last):
    ...
    pravila.calculators.CalcError: Cannot read the leg 10,climb,swim: write DIST[,difficult][,climb|swim|crawl|fly], for example 10,difficult,climb.
    """
    raw = text.strip().lower()
    if raw in ACTIONS:
        return raw
    if raw == "stand":
        return "stand-up"
    parts = [p.strip() for p in raw.split(",")]
    try:
        distance = float(parts[0])
    except ValueError:
        raise CalcError("leg-syntax", value=text) from None
    if not math.isfinite(distance):
        raise CalcError("leg-syntax", value=text)
    if distance < 0:
        raise CalcError("distance", leg=number, value=_num(distance))
    mode, difficult = "walk", 0
    for part in parts[1:]:
        if part == "difficult":
            difficult += 1
        elif part in MODES and mode == "walk" and part != "walk":
            mode = part
        else:
            raise CalcError("leg-syntax", value=text)
    return Leg(_num(distance), mode, difficult)
