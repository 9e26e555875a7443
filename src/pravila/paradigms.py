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
        for parse in morph.parse(lemma):
            if lang.fold_letters(parse.normal_form) == lemma or parse.normal_form == lemma:
                out.update(form.word for form in parse.lexeme)
    return {w.lower() for w in out}


# --- simplemma: its dictionary, inverted ----------------------------------------------------------


@lru_cache(maxsize=4)
def _simplemma_table(code: str) -> tuple[tuple[str, str], ...]:
    """(form, lemma) pairs of simplemma's dictionary for ``code``, lowercased (about 360 000 for Czech)."""
    from simplemma.strategies.dictionaries.dictionary_factory import DEFAULT_DICTIONARY_FACTORY

    table: Any = DEFAULT_DICTIONARY_FACTORY.get_dictionary(code)
    return tuple((form.lower(), lemma.lower()) for form, lemma in table.items())


def _simplemma_forms(lemmas: set[str], roots: set[str], lang: Language, code: str) -> set[str]:
    from .analysis import fold

    spec = lang.derivation
    rules = derivation.RULES.get(spec, ()) if roots else ()
    # The words (without diacritics) a rule cuts to one of the roots: a form is one of them, or has another root.
    targets = {root[: len(root) - len(ending)] + suffix for root in roots for suffix, ending in rules if root.endswith(ending)}
    out: set[str] = set()
    for form, lemma in _simplemma_table(code):
        key = lang.fold_letters(lemma)
        if key in lemmas:
            out.add(form)
        elif rules and (derivation.root(key, spec) in roots or fold(form) in targets and derivation.root(form, spec) in roots):
            out.add(form)
    return out
