"""Derivation where the morphology libraries stop: words of one root that a lemma does not join.

A lemmatizer joins the forms of one word (прыжке → прыжок); it does not join
a verb with its noun, or an adjective with the noun of its root, which is how
players name rules in other translations: the Czech SRD's schools are
adjectives («vymítací kouzla», «věštecká kouzla») where this text has nouns
(«Vymítání», «Věštění»); a Russian player says «лежащий» or «опрокинутый»
where the text says «лежание»/«опрокинуть».

:func:`root` cuts a lemma's derivational suffix and gives the root both words
share, or None for a lemma without one of those suffixes (most words: they
need no derivation key).  The rules are small tables per language, named by
the language registry's ``derivation`` part:

- ``pravila:czech``: verbal adjectives and nouns (-ací/-ání, -ecký/-ění, -ační/-ace,
  -orní/-e, -ický/-ie), on the lemma without diacritics, with the c/t alternation
  of loanwords (transmutace/transmutační, nekromancie/nekromantický);
- ``pravila:russian``: the infinitive (to which pymorphy3 brings participles)
  and the verbal noun (-ать/-ание, -ять/-яние, -еть/-ение, -ировать/-ация).

>>> root("vymítací", "pravila:czech") == root("vymítání", "pravila:czech")
True
>>> [root(w, "pravila:czech") for w in ["věštecký", "věštění", "iluzorní", "iluze", "kouzlo"]]
['vest', 'vest', 'iluz', 'iluz', None]
>>> root("лежать", "pravila:russian") == root("лежание", "pravila:russian")
True
>>> root("стабилизировать", "pravila:russian") == root("стабилизация", "pravila:russian")
True
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

MIN_ROOT = 4  # a shorter root joins unrelated words

# Suffixes of lemmas, longest first; what is cut, and what the root ends with instead.
_CZECH: tuple[tuple[str, str], ...] = (
    ("acni", "at"),   # transmutační → transmutat (transmutace)
    ("ecky", ""),     # věštecký → věšt (věštění)
    ("icky", ""),     # nekromantický → nekromant (nekromancie)
    ("orni", ""),     # iluzorní → iluz (iluze)
    ("aci", ""),      # vymítací → vymít (vymítání)
    ("eci", ""),
    ("ici", ""),
    ("ani", ""),      # vymítání, očarování
    ("eni", ""),      # věštění
    ("ace", "at"),    # transmutace, evokace
    ("cie", "t"),     # nekromancie → nekromant
    ("it", ""),       # věštit (simplemma's lemma of věštění)
    ("ze", "z"),      # iluze → iluz
)

_RUSSIAN: tuple[tuple[str, str], ...] = (
    ("ировать", ""),  # стабилизировать → стабилиз
    ("ация", ""),     # стабилизация
    ("ание", "а"),    # лежание → лежа
    ("яние", "я"),
    ("ение", "е"),
    ("ать", "а"),     # лежать → лежа
    ("ять", "я"),
    ("еть", "е"),
)

RULES: dict[str, tuple[tuple[str, str], ...]] = {"pravila:czech": _CZECH, "pravila:russian": _RUSSIAN}
# How a lemma is compared with the suffixes: "marks" drops every combining mark (after NFD), "yo" folds ё to е.
FOLDS: dict[str, str] = {"pravila:czech": "marks", "pravila:russian": "yo"}


def _fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def table(spec: str) -> dict[str, object]:
    """The rules of ``spec`` as data, for the browser's twin of :func:`root` (``static/search-engine.js``).

    >>> table("pravila:russian")["fold"], table("pravila:russian")["rules"][0]
    ('yo', ['ировать', ''])
    """
    return {"fold": FOLDS[spec], "min_root": MIN_ROOT, "rules": [list(rule) for rule in RULES[spec]]}


def comparable(lemma: str, spec: str) -> str:
    """A lemma as the rules of ``spec`` compare it with their suffixes (lowercased, folded).

    >>> comparable("Věštění", "pravila:czech"), comparable("Полёт", "pravila:russian")
    ('vesteni', 'полет')
    """
    return _fold(lemma.lower()) if FOLDS[spec] == "marks" else lemma.lower().replace("ё", "е")


@lru_cache(maxsize=100_000)
def root(lemma: str, spec: str) -> str | None:
    """The root a derivation rule of ``spec`` gives a lemma, or None (no derivational suffix)."""
    rules = RULES.get(spec)
    if not rules:
        return None
    word = comparable(lemma, spec)
    for suffix, ending in rules:
        if word.endswith(suffix) and len(word) - len(suffix) + len(ending) >= MIN_ROOT:
            return word[: len(word) - len(suffix)] + ending
    return None
