"""Word forms of lemmas: the lemmatizers run backwards, for the search that runs in the browser.

A browser cannot run pymorphy3 or simplemma.  It does not need to: a query
word only matters to search when one of its keys occurs in the index, so a
build can ship, for the lemmas and derivational roots the content has, every
form they take (:mod:`pravila.search.browser` keeps those whose keys the
browser could not work out alone).  This module finds those forms:

- ``pymorphy3``: a lemma's paradigm (``parse(lemma)[i].lexeme``: a verb's
  includes its participles and gerunds), for every reading of the lemma
  whose normal form it is;
- ``simplemma``: its dictionary is a form → lemma table; inverted once per
  language, it gives the forms of a lemma.

Roots (:mod:`pravila.derivation`) work backwards too: the lemmas a rule
would cut to a root (``лежа`` ← ``лежать``, ``лежание``) for pymorphy3; for
simplemma every dictionary form whose lemma, or which itself, has the root.

Candidates only: the caller computes each form's real keys with
:mod:`pravila.analysis`, so a form listed here that the lemmatizer reads
otherwise is still keyed right.

>>> "прыжке" in forms_of({"прыжок"}, set(), ru)
True
>>> sorted(w for w in forms_of(set(), {"лежа"}, ru) if w.startswith("лежащ"))[:3]
['лежащая', 'лежащего', 'лежащее']
>>> {"kouzla", "kouzel", "kouzlem"} <= forms_of({"kouzlo"}, set(), cs)
True
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

from . import derivation
from .languages import Language

__all__ = ["forms_of"]


def forms_of(lemmas: Iterable[str], roots: Iterable[str], lang: Language) -> set[str]:
    """Lowercased forms whose lemma may be one of ``lemmas`` (keys as the index has them: letter folds
    applied) or have one of the derivational ``roots``; empty for a language without a lemmatizer."""
    kind, _, arg = lang.lemmatizer.partition(":")
    lemmas, roots = set(lemmas), set(roots)
    if kind == "pymorphy3":
        return _pymorphy_forms(lemmas, roots, lang, arg)
    if kind == "simplemma":
        return _simplemma_forms(lemmas, roots, lang, arg)
    return set()


def _fold(word: str, letter_folds: tuple[tuple[str, str], ...]) -> str:
    """A lowercased word with the language's letter folds applied (Language.fold_letters, for the cached
    functions below, which take the folds rather than the Language)."""
    for a, b in letter_folds:
        word = word.replace(a, b)
    return word


# --- pymorphy3: paradigms ---------------------------------------------------------------------


def _pymorphy_forms(lemmas: set[str], roots: set[str], lang: Language, code: str) -> set[str]:
    from .analysis import _morph

    morph = _morph(code)
    wanted = set(lemmas)
    if lang.derivation:
        rules = derivation.RULES[lang.derivation]
        for root in roots:
            for suffix, ending in rules:
                lemma = root[: len(root) - len(ending)] + suffix
                if root.endswith(ending) and morph.word_is_known(lemma):  # not a paradigm guessed for a non-word
                    wanted.add(lemma)
    out: set[str] = set()
    for lemma in wanted:
        out.update(_paradigm(code, lemma, lang.letter_folds))
    return out


@lru_cache(maxsize=50_000)
def _paradigm(code: str, lemma: str, letter_folds: tuple[tuple[str, str], ...]) -> frozenset[str]:
    """The lowercased forms of every reading of ``lemma`` whose normal form it is (remembered: builds repeat them)."""
    from .analysis import _morph

    out: set[str] = set()
    for parse in _morph(code).parse(lemma):
        if parse.normal_form == lemma or _fold(parse.normal_form, letter_folds) == lemma:
            out.update(form.word.lower() for form in parse.lexeme)
    return frozenset(out)


# --- simplemma: its dictionary, inverted ----------------------------------------------------------


@lru_cache(maxsize=4)
def _simplemma_index(code: str, letter_folds: tuple[tuple[str, str], ...], spec: str) -> tuple[dict[str, list[str]], ...]:
    """simplemma's dictionary for ``code`` inverted, once per process (about 360 000 forms for Czech, 1–2 s):
    lowercased forms by their lemma (letter folds applied), by their lemma's derivational root, and by their
    own root when they have one."""
    from simplemma.strategies.dictionaries.dictionary_factory import DEFAULT_DICTIONARY_FACTORY

    def has_suffix(word: str) -> bool:  # cheaper than derivation.root, whose cache 360 000 words would only churn
        return derivation.comparable(word, spec).endswith(suffixes)

    table: Any = DEFAULT_DICTIONARY_FACTORY.get_dictionary(code)
    suffixes = tuple(suffix for suffix, _ in derivation.RULES.get(spec, ()))
    by_lemma: dict[str, list[str]] = {}
    by_lemma_root: dict[str, list[str]] = {}
    by_own_root: dict[str, list[str]] = {}
    for form, lemma in table.items():
        form, key = form.lower(), _fold(lemma.lower(), letter_folds)
        by_lemma.setdefault(key, []).append(form)
        if not suffixes:
            continue
        root = derivation.root(key, spec) if has_suffix(key) else None
        if root:
            by_lemma_root.setdefault(root, []).append(form)
        own = derivation.root(form, spec) if has_suffix(form) else None
        if own:
            by_own_root.setdefault(own, []).append(form)
    return by_lemma, by_lemma_root, by_own_root


def _simplemma_forms(lemmas: set[str], roots: set[str], lang: Language, code: str) -> set[str]:
    by_lemma, by_lemma_root, by_own_root = _simplemma_index(code, lang.letter_folds, lang.derivation)
    out: set[str] = set()
    for lemma in lemmas:
        out.update(by_lemma.get(lemma, ()))
    for root in roots:
        out.update(by_lemma_root.get(root, ()))
        out.update(by_own_root.get(root, ()))
    return out
