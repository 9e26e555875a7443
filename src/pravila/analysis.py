"""Language analysis for search: words → search keys, for any language of the registry.

Pure functions, no files and no index: a :class:`~pravila.languages.Language`
record names the parts (lemmatizer, stemmer, letter folds, stopwords) and
the functions here compose them.  The same functions analyse the indexed
text and the query, so both sides always agree.  The Whoosh adapters that
apply them at indexing time live with the index (:mod:`pravila.search.index`).

Every word of the text is indexed under a few *keys*:

- the **exact** key: the lemma (Russian: pymorphy3, ё folded to е; Czech:
  simplemma, diacritics kept), e.g. ``прыжке → прыжок``, ``kouzel → kouzlo``;
- **loose** keys, prefixed ``~``: the stem of the word and of its lemma
  (the language's stemmer; Czech: a light stemmer on the diacritic-folded
  word), e.g. ``~прыжк``, ``~sesil``.  Typing without diacritics, unknown
  words and typos go through these.

A word in another script than the language's own (English rule names in
Russian text) is keyed as English: itself, and its English Snowball stem.

A query word becomes one OR group of keys (never several keys ANDed):
the exact key when the lemmatizer knows the word or it carries diacritics,
plus its loose key at a lower weight; otherwise only the loose key.  So
``sesilani`` finds «Sesílání» through ``~sesil`` while ``sesílání`` prefers
documents that have exactly that word.

The English names field has one key per word: the English stem
(:func:`name_key`).  Stopwords are dropped from queries and from the index.

In the doctests, ``ru``, ``cs`` and ``en`` are the registry's records.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, NamedTuple

from . import derivation
from .languages import Language, script_of

__all__ = [
    "LOOSE",
    "WORD_RE",
    "QueryWord",
    "Word",
    "fold",
    "has_diacritics",
    "index_keys",
    "is_stopword",
    "loose_key",
    "name_key",
    "name_words",
    "normalize",
    "query_terms",
    "query_word",
    "query_word_from",
    "stem",
    "words",
]

log = logging.getLogger(__name__)

LOOSE = "~"  # prefix of loose keys; exact keys never start with it (words are letters and digits)
DERIVED = "^"  # prefix of derivational root keys (pravila.derivation)
FOREIGN_STEMMER = "snowball:english"  # words in another script than the language's: rule names are English

# A word: letters and digits; an apostrophe or a hyphen inside a word splits it.
WORD_RE = re.compile(r"[^\W_]+")
MAX_WORD = 64  # letters of a word that are analysed; a longer "word" is cut (no language has such words)

# The caches below hold words already analysed.  This repository's chapters have
# 1 240 (ru) and 818 (cs) distinct words; an index build memoises per field on its
# own (pravila.search.index), so the caches are sized for the words searched and
# shown in snippets: CACHE_WORDS words, room for a text some ten times bigger.
# Measured at 1.3-1.9 KB per distinct word across the caches (64-letter words at
# worst), that is at most ~70 MB however many different queries arrive.
CACHE_WORDS = 20_000


# --- normalization ----------------------------------------------------------


def normalize(text: str) -> str:
    """NFC and lowercase: what every word goes through first.

    >>> normalize("Sesi\\u0301la\\u0301ni\\u0301")  # decomposed accents, as some keyboards send
    'sesílání'
    """
    return unicodedata.normalize("NFC", text).lower()


def _fold_table() -> dict[int, str]:
    table = {}
    for code in range(0xC0, 0x250):  # Latin-1 Supplement, Latin Extended-A and -B
        base = "".join(c for c in unicodedata.normalize("NFD", chr(code)) if not unicodedata.combining(c))
        if base and base != chr(code) and base.isascii():
            table[code] = base
    return table


_FOLD = _fold_table()


def fold(text: str) -> str:
    """Remove the diacritics of Latin letters; other scripts stay as they are.

    >>> fold("Somatická složka, ůžasné")
    'Somaticka slozka, uzasne'
    >>> fold("йод ёж")  # Cyrillic й is a letter of its own, not и with a mark
    'йод ёж'
    """
    return text.translate(_FOLD)


def has_diacritics(word: str) -> bool:
    """Whether a Latin word carries diacritics (typed with them on purpose).

    >>> has_diacritics("sesílání"), has_diacritics("sesilani"), has_diacritics("прыжок")
    (True, False, False)
    """
    return fold(word) != word


class Word(NamedTuple):
    """A word of a text with where it stands (NFC, lowercased)."""

    text: str
    start: int
    end: int


def words(text: str) -> list[Word]:
    """The words of a text, lowercased, with their character offsets.

    The text is normalized to NFC first, and combining marks that no letter
    takes in NFC are dropped (stress marks: «пры́жок» is «прыжок», not two
    words); offsets refer to that text (the library's text is NFC and has
    none, so they are offsets into it).

    >>> [(w.text, w.start, w.end) for w in words("Прыжок в длину — 10 футов (Two-Weapon)")]
    [('прыжок', 0, 6), ('в', 7, 8), ('длину', 9, 14), ('10', 17, 19), ('футов', 20, 25), ('two', 27, 30), ('weapon', 31, 37)]
    >>> [w.text for w in words("Пры\u0301жок в длину́")]
    ['прыжок', 'в', 'длину']
    """
    text = unicodedata.normalize("NFC", text)
    if not text.isascii():
        text = "".join(c for c in text if not unicodedata.combining(c))
    return [Word(m.group(0).lower(), m.start(), m.end()) for m in WORD_RE.finditer(text)]


# --- stopwords ----------------------------------------------------------------


def stopword_key(word: str, lang: Language) -> str:
    """How a word is compared with the stopwords: letter folds, then without diacritics."""
    return fold(lang.fold_letters(word))


def is_stopword(word: str, lang: Language) -> bool:
    """Whether a (lowercased) word carries no meaning for search in ``lang``.

    Czech stopwords match typed without diacritics too; Russian ones with ё as е.

    >>> is_stopword("как", ru), is_stopword("kolik", cs), is_stopword("ze", cs), is_stopword("the", en)
    (True, True, True, True)
    >>> is_stopword("прыжок", ru), is_stopword("dosah", cs)
    (False, False)
    """
    return stopword_key(word, lang) in lang.stopwords


# --- the parts: stemmers and lemmatizers (cached: the same words come back all the time) --


@lru_cache(maxsize=None)
def _snowball(algorithm: str) -> Any:
    import Stemmer  # PyStemmer: C Snowball, ~70x faster than whoosh.lang's pure-Python one

    return Stemmer.Stemmer(algorithm)


@lru_cache(maxsize=None)
def _morph(lang: str) -> Any:
    import pymorphy3

    return pymorphy3.MorphAnalyzer(lang=lang)


_CS_CASE_SUFFIXES = (
    (7, ("atech",)),
    (6, ("etem", "atum")),
    (5, ("ech", "ich", "eho", "emi", "emu", "ete", "eti", "iho", "imi", "imu", "ach", "ata", "aty", "ych", "ama", "ami", "ove", "ovi", "ymi")),
    (4, ("em", "es", "im", "um", "at", "it", "am", "os", "us", "ym", "mi", "ou")),
)


def czech_light(word: str) -> str:
    """Light Czech stemmer on the folded word (Dolamic & Savoy's, as in Lucene, plus verbal nouns).

    It removes case endings, possessive suffixes, the infinitive ``-at/-it``
    and the ``-án-/-en-`` of verbal nouns and participles, so it conflates
    the forms of one word (and a verb with its noun) but rarely two different
    words.  It works on text without diacritics, which is how ``sesilani``
    meets ``sesílání``.  ``static/stemmers.js`` is its twin.

    >>> [czech_light(w) for w in ["sesílání", "sesilani", "sesílat", "pozice", "pozic", "pozicí", "kouzel", "kouzlem"]]
    ['sesil', 'sesil', 'sesil', 'pozik', 'pozik', 'pozik', 'kouzl', 'kouzl']
    >>> czech_light("složka") == czech_light("složek") == czech_light("slozky")
    True
    >>> czech_light("poznání") == czech_light("poznat"), czech_light("ovlivněno") == czech_light("ovlivnit")
    (True, True)
    """
    s = fold(word)
    n = len(s)
    for min_len, suffixes in _CS_CASE_SUFFIXES:
        if n > min_len and s.endswith(suffixes):
            s = s[: -len(next(x for x in suffixes if s.endswith(x)))]
            break
    else:
        if n > 3 and s[-1] in "aeiouy":
            s = s[:-1]
    if len(s) > 5 and s.endswith(("ov", "in", "uv")):
        s = s[:-2]
    elif len(s) > 5 and s.endswith(("an", "en")):  # verbal noun / participle: sesílání, seslán, ovlivněn
        s = s[:-2]
    if not s:
        return s
    if s.endswith("ct"):
        return s[:-2] + "ck"
    if s.endswith("st"):
        return s[:-2] + "sk"
    if s[-1] == "c":
        return s[:-1] + "k"
    if s[-1] == "z":
        return s[:-1] + "h"
    if len(s) > 1 and s[-2] == "e":
        return s[:-2] + s[-1]
    return s


_OWN_STEMMERS: dict[str, Callable[[str], str]] = {"czech-light": czech_light}


@lru_cache(maxsize=2 * CACHE_WORDS)  # a word's stem and its lemma's
def _stem_with(spec: str, word: str) -> str:
    return stemmer(spec)(word)


@lru_cache(maxsize=CACHE_WORDS)
def _lemma_with(spec: str, word: str) -> tuple[str, bool]:
    """(lemma, whether the dictionary knows the word); the word itself when the lemmatizer fails."""
    kind, _, arg = spec.partition(":")
    try:
        if kind == "pymorphy3":
            morph = _morph(arg)
            parses = morph.parse(word)
            return (parses[0].normal_form if parses else word), bool(morph.word_is_known(word))
        import simplemma

        return simplemma.lemmatize(word, lang=arg).lower(), bool(simplemma.is_known(word, lang=arg))
    except Exception:  # noqa: BLE001 — a lemmatizer must never turn an odd word into an error
        log.warning("the %s lemmatizer failed on a word of %d characters; using the word itself", spec, len(word))
        return word, False


def stemmer(spec: str) -> Callable[[str], str]:
    """A stemmer part by its registry name, uncached: ``snowball:<algorithm>`` or ``pravila:czech-light``.

    >>> stemmer("snowball:russian")("прыжке"), stemmer("pravila:czech-light")("sesílání")
    ('прыжк', 'sesil')
    """
    kind, _, arg = spec.partition(":")
    if kind == "pravila":
        return _OWN_STEMMERS[arg]
    return _snowball(arg).stemWord  # type: ignore[no-any-return]


def stem(word: str, lang: Language) -> str:
    """The language's stem of a lowercased word (after its letter folds).

    >>> stem("прыжке", ru), stem("местностью", ru), stem("полётом", ru), stem("grappling", en)
    ('прыжк', 'местност', 'полет', 'grappl')
    """
    return _stem_with(lang.stemmer, lang.fold_letters(word[:MAX_WORD]))


def lemma(word: str, lang: Language) -> tuple[str, bool]:
    """(the lemma with the letter folds applied, whether the lemmatizer knows the word).

    >>> lemma("прыжке", ru), lemma("полётом", ru), lemma("kouzel", cs)
    (('прыжок', True), ('полет', True), ('kouzlo', True))
    """
    word = word[:MAX_WORD]
    if not lang.lemmatizer:
        return lang.fold_letters(word), False
    found, known = _lemma_with(lang.lemmatizer, word)
    return lang.fold_letters(found), known


def _own(word: str, lang: Language) -> bool:
    """Whether a word is in the language's own script (else it is keyed as English)."""
    return script_of(word) == lang.script


# --- keys -------------------------------------------------------------------


def loose_key(word: str, lang: Language) -> str:
    """The loose key of a lowercased word: what typos are fuzzy-matched against.

    >>> loose_key("прыжке", ru), loose_key("sesílání", cs), loose_key("jumping", ru)
    ('~прыжк', '~sesil', '~jump')
    """
    if _own(word, lang):
        return LOOSE + stem(word, lang)
    return LOOSE + _stem_with(FOREIGN_STEMMER, word[:MAX_WORD])


def name_key(word: str, english: Language) -> str:
    """The key of a word in the English names field: its English stem.

    >>> name_key("grappling", en), name_key("spells", en)
    ('grappl', 'spell')
    """
    return stem(word, english)


@lru_cache(maxsize=CACHE_WORDS)
def index_keys(word: str, lang: Language) -> tuple[str, ...]:
    """Every key a (lowercased) word of the text is indexed under.

    >>> index_keys("прыжке", ru)
    ('прыжок', '~прыжк', '~прыжок')
    >>> index_keys("Sesílání".lower(), cs)  # its derivational root joins sesílací, sesílat
    ('sesílání', '~sesil', '^sesil')
    >>> index_keys("grapple", ru)
    ('grapple', '~grappl')
    """
    if not _own(word, lang):
        return tuple(dict.fromkeys((word[:MAX_WORD], loose_key(word, lang))))
    base, _ = lemma(word, lang)
    derived = derived_key(base, lang)
    return tuple(dict.fromkeys((base, loose_key(word, lang), loose_key(base, lang), *((derived,) if derived else ()))))


def derived_key(base: str, lang: Language) -> str | None:
    """The derivational root key of a lemma (``^`` + root), where the language has a derivation part.

    Joins a verb, its noun and its participles, an adjective and the noun of
    its root (:mod:`pravila.derivation`), which the lemmatizer keeps apart.

    >>> derived_key("vymítací", cs) == derived_key("vymítání", cs), derived_key("kouzlo", cs)
    (True, None)
    >>> derived_key("лежать", ru) == derived_key("лежание", ru)
    True
    """
    if not lang.derivation:
        return None
    found = derivation.root(base, lang.derivation)
    return DERIVED + found if found else None


@dataclass(frozen=True)
class QueryWord:
    """One word of a query and the OR group of keys it is searched by.

    ``keys`` pairs each key with its weight; ``loose`` is the key a typo is
    fuzzy-matched against when none of the keys occurs in the index.
    """

    text: str
    lang: str
    keys: tuple[tuple[str, float], ...]
    loose: str


EXACT_WEIGHT = 1.0
LOOSE_WEIGHT = 0.6
DERIVED_WEIGHT = 0.5  # a word of the same root (vymítací for vymítání): weaker than any form of the word itself


@lru_cache(maxsize=CACHE_WORDS // 2)
def query_word(word: str, lang: Language) -> QueryWord:
    """The keys a (lowercased) query word is looked up by, in one language.

    >>> query_word("прыжке", ru).keys
    (('прыжок', 1.0), ('~прыжк', 0.6))
    >>> query_word("sesilani", cs).keys  # no diacritics, unknown to the lemmatizer: loose key (and its root)
    (('~sesil', 1.0), ('^sesil', 0.5))
    >>> query_word("sesílání", cs).keys  # typed with diacritics: the exact form is preferred
    (('sesílání', 1.0), ('~sesil', 0.6), ('^sesil', 0.5))
    """
    return query_word_from(word, lang, lemma(word, lang) if _own(word, lang) else (word, True))


def query_word_from(word: str, lang: Language, found: tuple[str, bool]) -> QueryWord:
    """The keys of a query word whose lemma is known already: ``found`` is (lemma, whether the lemmatizer knows it).

    What :func:`query_word` does after the lemmatizer; the browser's search
    (:mod:`pravila.search.browser`) looks lemmas up in a table instead, and
    takes a word it lacks for its own lemma, unknown:

    >>> query_word_from("sesilani", cs, ("sesilani", False)) == query_word("sesilani", cs)
    True
    """
    loose = loose_key(word, lang)
    derived = None
    if _own(word, lang):
        base, known = found
        known = known or has_diacritics(word)
        derived = derived_key(base, lang)
    else:
        base, known = word[:MAX_WORD], True
    more = ((derived, DERIVED_WEIGHT),) if derived else ()
    if known and base != loose:
        return QueryWord(word, lang.code, ((base, EXACT_WEIGHT), (loose, LOOSE_WEIGHT), *more), loose)
    return QueryWord(word, lang.code, ((loose, EXACT_WEIGHT), *more), loose)



MAX_QUERY_WORDS = 12


def query_terms(text: str, langs: Iterable[Language], english: Language) -> list[str]:
    """The searchable words of a query, for a search in ``langs``.

    Stopwords go (a Latin word also when it is an English stopword); repeated
    words count once; at most ``MAX_QUERY_WORDS``.  A word in a script that
    no searched language is written in counts only when it is Latin (an
    English rule name); so a Cyrillic word counts only when Russian is searched.

    >>> query_terms("Как встать, если лёжа?", [ru, cs], en)
    ['встать', 'лёжа']
    >>> query_terms("kolik pozic", [ru, cs], en), query_terms("school of magic", [ru, cs], en)
    (['pozic'], ['school', 'magic'])
    >>> query_terms("AND OR NOT", [ru, cs], en), query_terms("(((*~", [ru, cs], en), query_terms("прыжок", [cs], en)
    ([], [], [])
    """
    langs = list(langs)
    out: dict[str, None] = {}
    for w in words(text):
        word = w.text
        script = script_of(word)
        own = [lang for lang in langs if lang.script == script]
        if not own and script != "Latin":
            continue
        if is_stopword(word, english) and script == "Latin" or any(is_stopword(word, lang) for lang in own):
            continue
        out.setdefault(word, None)
        if len(out) >= MAX_QUERY_WORDS:
            break
    return list(out)


@lru_cache(maxsize=CACHE_WORDS)
def name_words(name: str, lang: Language, english: Language) -> tuple[frozenset[str], ...]:
    """The words of a name (title, alias, English name) as key sets, stopwords left out.

    A query *is* a name when each of its words shares a key with one of the
    name's words and the counts agree (see :mod:`pravila.search.strategy`).

    >>> [sorted(k) for k in name_words("Прыжок в длину", ru, en)]
    [['~прыжок', 'прыжок'], ['~длин', 'длина']]
    >>> [sorted(k) for k in name_words("Spell Save DC", cs, en)]
    [['spell', '~spell'], ['save', '~sav'], ['dc', '~dk']]
    """
    out = []
    for term in query_terms(name, (lang,), english):
        keys = set(index_keys(term, lang))
        if script_of(term) == "Latin":
            keys.add(name_key(term, english))
        out.append(frozenset(keys))
    return tuple(out)
