"""Language analysis for search: words → search keys, for Russian, Czech and English.

Pure functions (no files, no index) plus the small Whoosh pieces that apply
them at indexing time.  The same functions analyse the indexed text and the
query, so both sides always agree.

Every word of the text is indexed under a few *keys*:

- the **exact** key: the lemma (Russian: pymorphy3, ё folded to е; Czech:
  simplemma, diacritics kept), e.g. ``прыжке → прыжок``, ``kouzel → kouzlo``;
- **loose** keys, prefixed ``~``: a stem (Russian: Snowball; Czech: a light
  stemmer on the diacritic-folded word; Latin-script words in Russian text:
  English Snowball), e.g. ``~прыжк``, ``~sesil``.  Typing without
  diacritics, unknown words and typos go through these.

A query word becomes one OR group of keys (never several keys ANDed):
the exact key when the lemmatizer knows the word or it carries diacritics,
plus its loose key at a lower weight; otherwise only the loose key.  So
``sesilani`` finds «Sesílání» through ``~sesil`` while ``sesílání`` prefers
documents that have exactly that word.

The English field (rule names and English aliases) has one key per word: the
English Snowball stem.

Stopwords are dropped from queries and from the index; a query of only
stopwords finds nothing.

Whoosh pickles the schema, and with it the analyzers: every class here must
stay importable as ``pravila.analysis.<Name>``.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator, NamedTuple

from whoosh.analysis import Filter, Tokenizer
from whoosh.analysis.acore import Token

__all__ = [
    "LANGS",
    "WORD_RE",
    "QueryWord",
    "Word",
    "analyzer",
    "english_analyzer",
    "fold",
    "has_diacritics",
    "index_keys",
    "is_stopword",
    "loose_key",
    "name_words",
    "normalize",
    "query_terms",
    "query_word",
    "words",
]

LANGS = ("ru", "cs")
LOOSE = "~"  # prefix of loose keys; exact keys never start with it (words are letters and digits)

# A word: letters and digits; an apostrophe or a hyphen inside a word splits it.
WORD_RE = re.compile(r"[^\W_]+")


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


def _is_cyrillic(word: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in word)


class Word(NamedTuple):
    """A word of a text with where it stands (NFC, lowercased)."""

    text: str
    start: int
    end: int


def words(text: str) -> list[Word]:
    """The words of a text, lowercased, with their character offsets.

    The text is normalized to NFC first; offsets refer to the NFC text (the
    library's text is NFC already, so they are offsets into it).

    >>> [(w.text, w.start, w.end) for w in words("Прыжок в длину — 10 футов (Two-Weapon)")]
    [('прыжок', 0, 6), ('в', 7, 8), ('длину', 9, 14), ('10', 17, 19), ('футов', 20, 25), ('two', 27, 30), ('weapon', 31, 37)]
    """
    text = unicodedata.normalize("NFC", text)
    return [Word(m.group(0).lower(), m.start(), m.end()) for m in WORD_RE.finditer(text)]


# --- stopwords ----------------------------------------------------------------

_RU_STOP = frozenset(
    """
    а без более бы был была были было быть в вам вас ведь во вот все всего всех вы где да даже для до
    его ее ей ему если есть еще ж же за зачем здесь и из или им их к как какая какие какой когда ко
    кто куда ли либо лишь между меня мне много мной мог могу может можно мой моя мы на над надо нам
    нас не него нее нельзя нет ни нибудь них но ну о об однако он она они оно от очень по под после
    почему при про раз с сам свой свою себе себя со сколько так также такой там тебе тебя то тогда
    того тоже той только том тот ты у уже хотя чего чей чем что чтобы чтоб эта эти это этого этой
    этом этот эту я нужно нужен нужна сделать делать
    """.split()
)

_CS_STOP = frozenset(
    fold(w)
    for w in """
    a aby aj ale ani asi až bude budou by byl byla byli bylo být co což či článek do i já jak jaká
    jaké jaký jako je jeho jej její jejich jen jenž ji jí jsem jsi jsme jsou jste k kam kde kdo kdy
    když ke kolik která které kterou který kteří ku lze mají mám máme máš má mě mezi mi mít mně mnou
    můj může můžu můžeš muset musím my na nad nám nás naše ne nebo něco nějak není než o od on ona
    oni ono po pod podle pokud pro proč proto protože před při s se si sice své svůj ta tak také tam
    te tedy ten tento to tohle toho tom tomu totiž tu tuto ty u už v ve více však všechno vy z za ze
    že koho komu kým někdo někoho někomu něco něčeho nic nikdo nikoho mu mne ho jim jej jsem
    """.split()
)

_EN_STOP = frozenset(
    """
    a an and are as at be by can do does for from how i if in into is it its me my not of on onto
    or the to what when with you your
    """.split()
)

_STOP = {"ru": _RU_STOP, "cs": _CS_STOP, "en": _EN_STOP}


def is_stopword(word: str, lang: str) -> bool:
    """Whether a (lowercased) word carries no meaning for search in ``lang``.

    Czech stopwords match typed without diacritics too; Russian ones with ё as е.

    >>> is_stopword("как", "ru"), is_stopword("kolik", "cs"), is_stopword("ze", "cs"), is_stopword("the", "en")
    (True, True, True, True)
    >>> is_stopword("прыжок", "ru"), is_stopword("dosah", "cs")
    (False, False)
    """
    if lang == "ru":
        return word.replace("ё", "е") in _RU_STOP
    if lang == "cs":
        return fold(word) in _CS_STOP
    return word in _STOP[lang]


# --- stemmers and lemmatizers (cached: the same words come back all the time) --


@lru_cache(maxsize=None)
def _snowball(algorithm: str):
    import Stemmer  # PyStemmer: C Snowball, ~70x faster than whoosh.lang's pure-Python one

    return Stemmer.Stemmer(algorithm)


@lru_cache(maxsize=None)
def _morph():
    import pymorphy3

    return pymorphy3.MorphAnalyzer()


@lru_cache(maxsize=200_000)
def _ru_lemma(word: str) -> tuple[str, bool]:
    """(lemma with ё folded, whether the dictionary knows the word)."""
    morph = _morph()
    parses = morph.parse(word)
    lemma = parses[0].normal_form if parses else word
    return lemma.replace("ё", "е"), morph.word_is_known(word)


@lru_cache(maxsize=200_000)
def _cs_lemma(word: str) -> tuple[str, bool]:
    import simplemma

    return simplemma.lemmatize(word, lang="cs").lower(), simplemma.is_known(word, lang="cs")


@lru_cache(maxsize=200_000)
def en_stem(word: str) -> str:
    """English Snowball stem of a lowercased word.

    >>> en_stem("grappling"), en_stem("jumping"), en_stem("spells")
    ('grappl', 'jump', 'spell')
    """
    return _snowball("english").stemWord(word)


@lru_cache(maxsize=200_000)
def ru_stem(word: str) -> str:
    """Russian Snowball stem, ё folded to е.

    >>> ru_stem("прыжке"), ru_stem("местностью"), ru_stem("полётом")
    ('прыжк', 'местност', 'полет')
    """
    return _snowball("russian").stemWord(word.replace("ё", "е"))


_CS_CASE_SUFFIXES = (
    (7, ("atech",)),
    (6, ("etem", "atum")),
    (5, ("ech", "ich", "eho", "emi", "emu", "ete", "eti", "iho", "imi", "imu", "ach", "ata", "aty", "ych", "ama", "ami", "ove", "ovi", "ymi")),
    (4, ("em", "es", "im", "um", "at", "it", "am", "os", "us", "ym", "mi", "ou")),
)


@lru_cache(maxsize=200_000)
def cs_stem(word: str) -> str:
    """Light Czech stemmer on the folded word (Dolamic & Savoy's, as in Lucene, plus verbal nouns).

    It removes case endings, possessive suffixes, the infinitive ``-at/-it``
    and the ``-án-/-en-`` of verbal nouns and participles, so it conflates
    the forms of one word (and a verb with its noun) but rarely two different
    words.  It works on text without diacritics, which is how ``sesilani``
    meets ``sesílání``.

    >>> [cs_stem(w) for w in ["sesílání", "sesilani", "sesílat", "pozice", "pozic", "pozicí", "kouzel", "kouzlem"]]
    ['sesil', 'sesil', 'sesil', 'pozik', 'pozik', 'pozik', 'kouzl', 'kouzl']
    >>> cs_stem("složka") == cs_stem("složek") == cs_stem("slozky")
    True
    >>> cs_stem("poznání") == cs_stem("poznat"), cs_stem("ovlivněno") == cs_stem("ovlivnit")
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


# --- keys -------------------------------------------------------------------


def loose_key(word: str, lang: str) -> str:
    """The loose key of a lowercased word: what typos are fuzzy-matched against.

    >>> loose_key("прыжке", "ru"), loose_key("sesílání", "cs"), loose_key("jumping", "en")
    ('~прыжк', '~sesil', 'jump')
    """
    if lang == "en":
        return en_stem(word)
    if lang == "ru":
        if _is_cyrillic(word):
            return LOOSE + ru_stem(word)
        return LOOSE + en_stem(word)
    return LOOSE + cs_stem(word)


@lru_cache(maxsize=200_000)
def index_keys(word: str, lang: str) -> tuple[str, ...]:
    """Every key a (lowercased) word of the text is indexed under.

    >>> index_keys("прыжке", "ru")
    ('прыжок', '~прыжк', '~прыжок')
    >>> index_keys("Sesílání".lower(), "cs")
    ('sesílání', '~sesil')
    >>> index_keys("jumping", "en")
    ('jump',)
    """
    if lang == "en":
        return (en_stem(word),)
    if lang == "ru":
        if _is_cyrillic(word):
            lemma, _ = _ru_lemma(word)
            keys = (lemma, LOOSE + ru_stem(word), LOOSE + ru_stem(lemma))
        else:
            keys = (word, LOOSE + en_stem(word))
    else:
        lemma, _ = _cs_lemma(word)
        keys = (lemma, LOOSE + cs_stem(word), LOOSE + cs_stem(lemma))
    return tuple(dict.fromkeys(keys))


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


@lru_cache(maxsize=50_000)
def query_word(word: str, lang: str) -> QueryWord:
    """The keys a (lowercased) query word is looked up by, in one language.

    >>> query_word("прыжке", "ru").keys
    (('прыжок', 1.0), ('~прыжк', 0.6))
    >>> query_word("sesilani", "cs").keys  # no diacritics, unknown to the lemmatizer: loose key only
    (('~sesil', 1.0),)
    >>> query_word("sesílání", "cs").keys  # typed with diacritics: the exact form is preferred
    (('sesílání', 1.0), ('~sesil', 0.6))
    """
    loose = loose_key(word, lang)
    if lang == "en":
        return QueryWord(word, lang, ((loose, EXACT_WEIGHT),), loose)
    if lang == "ru":
        if _is_cyrillic(word):
            lemma, known = _ru_lemma(word)
        else:
            lemma, known = word, True
    else:
        lemma, known = _cs_lemma(word)
        known = known or has_diacritics(word)
    if known and lemma != loose:
        return QueryWord(word, lang, ((lemma, EXACT_WEIGHT), (loose, LOOSE_WEIGHT)), loose)
    return QueryWord(word, lang, ((loose, EXACT_WEIGHT),), loose)


MAX_QUERY_WORDS = 12


def query_terms(text: str, langs: tuple[str, ...] = LANGS) -> list[str]:
    """The searchable words of a query, for a search in ``langs``.

    Stopwords go (a Latin word also when it is an English stopword); repeated
    words count once; at most ``MAX_QUERY_WORDS``.  A Cyrillic word counts
    only when Russian is searched.

    >>> query_terms("Как встать, если лёжа?")
    ['встать', 'лёжа']
    >>> query_terms("kolik pozic"), query_terms("school of magic")
    (['pozic'], ['school', 'magic'])
    >>> query_terms("AND OR NOT"), query_terms("(((*~"), query_terms("прыжок", ("cs",))
    ([], [], [])
    """
    out: dict[str, None] = {}
    for w in words(text):
        word = w.text
        if _is_cyrillic(word):
            if "ru" not in langs or is_stopword(word, "ru"):
                continue
        elif is_stopword(word, "en") or ("cs" in langs and is_stopword(word, "cs")):
            continue
        out.setdefault(word, None)
        if len(out) >= MAX_QUERY_WORDS:
            break
    return list(out)


@lru_cache(maxsize=50_000)
def name_words(name: str, lang: str) -> tuple[frozenset[str], ...]:
    """The words of a name (title, alias, English name) as key sets, stopwords left out.

    A query *is* a name when each of its words shares a key with one of the
    name's words and the counts agree (see :mod:`pravila.query`).

    >>> [sorted(k) for k in name_words("Прыжок в длину", "ru")]
    [['~прыжок', 'прыжок'], ['~длин', 'длина']]
    >>> [sorted(k) for k in name_words("Spell Save DC", "cs")]
    [['spell', '~spell'], ['save', '~sav'], ['dc', '~dk']]
    """
    out = []
    for term in query_terms(name, (lang,)):
        keys = set(index_keys(term, lang))
        if not _is_cyrillic(term):
            keys.update(index_keys(term, "en"))
        out.append(frozenset(keys))
    return tuple(out)


# --- Whoosh pieces (pickled into the index: keep names and module stable) --------


class WordTokenizer(Tokenizer):
    """Words of NFC text, lowercased, with positions and character offsets."""

    def __call__(self, value, positions=False, chars=False, keeporiginal=False, removestops=True,
                 start_pos=0, start_char=0, tokenize=True, mode="", **kwargs) -> Iterator[Token]:
        t = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        for pos, w in enumerate(words(value)):
            t.text = w.text
            t.boost = 1.0
            t.stopped = False
            if keeporiginal:
                t.original = w.text
            if positions:
                t.pos = start_pos + pos
            if chars:
                t.startchar = start_char + w.start
                t.endchar = start_char + w.end
            yield t


class LanguageFilter(Filter):
    """A filter that works for one language (picklable: only ``lang`` is kept)."""

    def __init__(self, lang: str):
        self.lang = lang

    def __eq__(self, other):
        return other and self.__class__ is other.__class__ and self.lang == other.lang


class StopFilter(LanguageFilter):
    """Drops the stopwords of one language (see :func:`is_stopword`)."""

    def __call__(self, tokens):
        lang = self.lang
        for t in tokens:
            if not is_stopword(t.text, lang):
                yield t


class KeysFilter(LanguageFilter):
    """Replaces each word by its index keys (see :func:`index_keys`), all at the word's position."""

    def __call__(self, tokens):
        lang = self.lang
        for t in tokens:
            for key in index_keys(t.text, lang):
                t.text = key
                yield t


def analyzer(lang: str):
    """The analyzer of a language's text fields: words → stopwords out → keys.

    >>> [t.text for t in analyzer("ru")("Прыжок в длину")]
    ['прыжок', '~прыжок', 'длина', '~длин']
    >>> [t.text for t in analyzer("cs")("Sesílání kouzel")]
    ['sesílání', '~sesil', 'kouzlo', '~kouzl']
    """
    return WordTokenizer() | StopFilter(lang) | KeysFilter(lang)


def english_analyzer():
    """The analyzer of the English names field.

    >>> [t.text for t in english_analyzer()("Escaping a Grapple")]
    ['escap', 'grappl']
    """
    return WordTokenizer() | StopFilter("en") | KeysFilter("en")
