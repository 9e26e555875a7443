"""The A–Z index: which terms it lists, and in what order.

Terms are every entry's title, English name and aliases, one row per
spelling.  Their order follows the language's alphabet (from the language
registry): Czech «ch» is one letter after «h», Russian «ё» sorts as «е»,
words in Latin script come after a Cyrillic alphabet.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Sequence

from .analysis import fold
from .content import Entry, Library
from .languages import Language

_LATIN = "abcdefghijklmnopqrstuvwxyz"


# --- order ------------------------------------------------------------------------


def _units(text: str, lang: Language) -> list[str]:
    """The collation units of a word: letters, with digraphs of the alphabet (Czech «ch») as one letter."""
    s = unicodedata.normalize("NFC", text.casefold())
    digraphs = sorted((u for u in lang.alphabet if len(u) > 1), key=len, reverse=True)
    out, i = [], 0
    while i < len(s):
        unit = next((d for d in digraphs if s.startswith(d, i)), s[i])
        out.append(unit)
        i += len(unit)
    return out


def _primary(unit: str, lang: Language) -> str:
    """The letter a unit sorts as: itself when the alphabet has it, else its letter fold or its base letter."""
    if unit in lang.alphabet:
        return unit
    folded = lang.fold_letters(unit)
    return folded if folded in lang.alphabet else fold(unit)


def _rank(unit: str, lang: Language) -> tuple[int, int, str]:
    p = _primary(unit, lang)
    if p in lang.alphabet:
        return (1, lang.alphabet.index(p), "")
    if p in _LATIN:
        return (2, _LATIN.index(p), "")  # Latin words in a list of another script come after it
    if p.isdigit():
        return (0, int(p), "")
    return (3, 0, p)


def collation_key(text: str, lang: Language) -> tuple:
    """Sort key following the language's alphabet (Czech «ch» after «h»; Russian «ё» as «е», Latin after Cyrillic).

    >>> sorted(["cíl", "chyba", "hod", "čas", "Cantrip"], key=lambda w: collation_key(w, cs))
    ['Cantrip', 'cíl', 'čas', 'hod', 'chyba']
    >>> sorted(["ёж", "яма", "атака", "attack", "ежевика"], key=lambda w: collation_key(w, ru))
    ['атака', 'ёж', 'ежевика', 'яма', 'attack']
    """
    units = [u for u in _units(text, lang) if u.isalnum() or len(u) > 1]
    primary = tuple(_rank(u, lang) for u in units)
    secondary = tuple(units)
    return (primary, secondary, text)


def letter_of(text: str, lang: Language) -> str:
    """The index letter a term is listed under.

    >>> letter_of("Chyba", cs), letter_of("Účinky", cs), letter_of("Ёлка", ru), letter_of("3 + x", ru)
    ('Ch', 'U', 'Е', '#')
    """
    for u in _units(text, lang):
        if not (u.isalnum() or len(u) > 1):
            continue
        rank = _rank(u, lang)
        if rank[0] in (1, 2):
            p = _primary(u, lang)
            return p[:1].upper() + p[1:]
        return "#"
    return "#"


def is_latin_letter(letter: str) -> bool:
    """Whether an index letter is a Latin one (where a Cyrillic list's Latin part starts).

    >>> is_latin_letter("A"), is_latin_letter("А"), is_latin_letter("#")
    (True, False, False)
    """
    return letter.isascii() and letter.isalpha()


# --- terms -----------------------------------------------------------------------------


@dataclass
class Term:
    """One row of the A–Z index: a spelling and the entries it names."""

    display: str
    english: bool
    is_title: bool
    targets: list[Entry] = field(default_factory=list)
    sources: list[tuple[str, str]] = field(default_factory=list)  # a variant's (short label, name), from content/terms


def index_terms(library: Library, lang: Language) -> list[Term]:
    """Every term of a language — titles, English names, aliases, other translations' words — sorted, one row per spelling."""
    terms: dict[str, Term] = {}

    def add(text: str, entry: Entry, *, english: bool, is_title: bool, sources: Sequence[tuple[str, str]] = ()) -> None:
        text = text.strip()
        if not text:
            return
        key = unicodedata.normalize("NFC", text).casefold()
        term = terms.get(key)
        if term is None:
            term = terms[key] = Term(text, english, is_title)
        else:
            term.is_title = term.is_title or is_title
            term.english = term.english and english
        if entry not in term.targets:
            term.targets.append(entry)
        for source in sources:
            if source not in term.sources:
                term.sources.append(source)

    entries = library.in_lang(lang.code)
    for e in entries:
        add(e.title, e, english=False, is_title=True)
    for e in entries:
        add(e.en, e, english=True, is_title=False)
    for e in entries:
        for alias in e.aliases:
            # In a language of another script a Latin alias is English; in a Latin-script one it cannot be told.
            add(alias, e, english=_is_latin(alias) and lang.script != "Latin", is_title=False)
    vocabulary = library.terms.get(lang.code)
    if vocabulary is not None:
        by_id = {e.id: e for e in entries}
        for v in vocabulary.variants:
            sources = vocabulary.labels(v.sources)
            for entry_id in v.entries:
                add(v.term, by_id[entry_id], english=False, is_title=False, sources=sources)
    return sorted(terms.values(), key=lambda term: collation_key(term.display, lang))


def _is_latin(text: str) -> bool:
    return all(not ch.isalpha() or ("LATIN" in unicodedata.name(ch, "")) for ch in text)
