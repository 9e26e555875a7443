"""The language registry: a language is data, one record of named parts.

The records Pravila ships are in ``data/languages.toml`` (Russian, Czech,
English, Polish); a project selects its languages in ``pravila.toml`` and may
declare another one there with the same keys (see :mod:`pravila.project`).
Every module that needs to know something about a language asks its
:class:`Language` record; none branches on a language code.

>>> registry = load_registry()
>>> ru = registry["ru"]
>>> ru.name, ru.script, ru.lemmatizer, ru.stemmer
('Русский', 'Cyrillic', 'pymorphy3:ru', 'snowball:russian')
>>> registry["cs"].alphabet[:5], registry["cs"].alphabet.index("ch") > registry["cs"].alphabet.index("h")
(('a', 'b', 'c', 'č', 'd'), True)
>>> registry["de"]
Traceback (most recent call last):
pravila.errors.ProjectError: unknown language 'de' (the registry has ru, cs, en, pl; declare it in pravila.toml)
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Iterator, Mapping

from .errors import ProjectError

SCRIPTS = ("Cyrillic", "Latin")
LEMMATIZERS = ("pymorphy3", "simplemma")
STEMMER_KINDS = ("snowball", "pravila")
OWN_STEMMERS = ("czech-light",)
KEYS = ("name", "ui", "locale", "script", "lemmatizer", "stemmer", "derivation", "letter_folds", "stopwords", "alphabet",
        "lunr", "browser")
REQUIRED = ("name", "script", "stemmer")
# The stemmers static/stemmers.js has a twin of (tests/test_stemmers.py), by the twin's name: a language
# whose `browser` names one is searched in the browser (pravila.search.browser), else through /api/search.
BROWSER_TWINS = {"russian": "snowball:russian", "english": "snowball:english", "polish": "snowball:polish",
                 "czech": "pravila:czech-light"}
ENGLISH = "en"  # the record that analyses rule names (the English field of every language)


@dataclass(frozen=True, eq=False)
class Language:
    """Everything Pravila knows about one language.

    Compared and hashed by identity: one record object per loaded registry,
    so per-language caches stay apart.  Only plain data, so it pickles into
    the search index's schema with the analyzers.
    """

    code: str
    name: str
    ui: str
    locale: str
    script: str
    lemmatizer: str
    stemmer: str
    letter_folds: tuple[tuple[str, str], ...] = ()
    stopwords: frozenset[str] = frozenset()
    alphabet: tuple[str, ...] = ()
    lunr: tuple[str, ...] = ("en",)
    browser: str = ""
    derivation: str = ""  # derivational roots where the lemmatizer stops (pravila.derivation), or ""

    def __repr__(self) -> str:
        return f"Language({self.code!r})"

    def fold_letters(self, text: str) -> str:
        """Apply the language's letter folds (Russian ё → е).

        >>> load_registry()["ru"].fold_letters("ёж, Ёлка")
        'еж, Елка'
        """
        for a, b in self.letter_folds:
            text = text.replace(a, b).replace(a.upper(), b.upper())
        return text


@dataclass(frozen=True)
class Registry(Mapping[str, Language]):
    """Language records by code, in the order they were declared."""

    records: dict[str, Language] = field(default_factory=dict)

    def __getitem__(self, code: str) -> Language:
        try:
            return self.records[code]
        except KeyError:
            known = ", ".join(self.records)
            raise ProjectError(f"unknown language {code!r} (the registry has {known}; declare it in pravila.toml)") from None

    def __contains__(self, code: object) -> bool:
        return code in self.records

    def __iter__(self) -> Iterator[str]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    @property
    def english(self) -> Language:
        return self[ENGLISH]

    def extended(self, declarations: Mapping[str, Any], where: str) -> "Registry":
        """A registry with more records (or records changed key by key) from ``declarations``."""
        records = dict(self.records)
        for code, raw in declarations.items():
            base = _record_fields(records[code]) if code in records else {}
            if not isinstance(raw, dict):
                raise ProjectError(f"{where}: [language.{code}] must be a table of settings")
            records[code] = make_language(code, {**base, **raw}, where)
        return Registry(records)


def _record_fields(lang: Language) -> dict[str, Any]:
    return {
        "name": lang.name, "ui": lang.ui, "locale": lang.locale, "script": lang.script,
        "lemmatizer": lang.lemmatizer, "stemmer": lang.stemmer, "letter_folds": dict(lang.letter_folds),
        "stopwords": sorted(lang.stopwords), "alphabet": " ".join(lang.alphabet), "lunr": list(lang.lunr),
        "browser": lang.browser, "derivation": lang.derivation,
    }


def make_language(code: str, raw: Mapping[str, Any], where: str) -> Language:
    """A validated record; a :class:`ProjectError` names the file and the key otherwise.

    >>> make_language("xx", {"name": "X", "script": "Latin", "stemmer": "snowball:klingon"}, "pravila.toml").code
    Traceback (most recent call last):
    pravila.errors.ProjectError: pravila.toml: [language.xx] stemmer: PyStemmer has no 'klingon' (it has arabic, armenian, …)
    """
    here = f"{where}: [language.{code}]"
    if not code.isascii() or not code.replace("-", "").isalnum() or code != code.lower():
        raise ProjectError(f"{here}: a language code is a lowercase tag such as 'pl' or 'pt-br'")
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise ProjectError(f"{here}: unknown key {unknown[0]!r} (keys: {', '.join(KEYS)})")
    for key in REQUIRED:
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise ProjectError(f"{here}: {key} is required (text)")

    def text(key: str, default: str = "") -> str:
        value = raw.get(key, default)
        if not isinstance(value, str):
            raise ProjectError(f"{here}: {key} must be text")
        return value.strip()

    script = text("script")
    if script not in SCRIPTS:
        raise ProjectError(f"{here}: script must be one of {', '.join(SCRIPTS)}, not {script!r}")
    lemmatizer = text("lemmatizer")
    if lemmatizer:
        kind, _, arg = lemmatizer.partition(":")
        if kind not in LEMMATIZERS or not arg:
            raise ProjectError(f"{here}: lemmatizer must be 'pymorphy3:<lang>' or 'simplemma:<lang>', not {lemmatizer!r}")
    stemmer = text("stemmer")
    _check_stemmer(stemmer, here)
    folds = raw.get("letter_folds", {})
    if not isinstance(folds, dict) or not all(isinstance(k, str) and isinstance(v, str) and k for k, v in folds.items()):
        raise ProjectError(f"{here}: letter_folds must be a table of letters, e.g. {{ \"ё\" = \"е\" }}")
    stop = raw.get("stopwords", "")
    if isinstance(stop, str):
        stop = stop.split()
    if not isinstance(stop, list) or not all(isinstance(w, str) for w in stop):
        raise ProjectError(f"{here}: stopwords must be words separated by spaces, or a list of words")
    alphabet = text("alphabet").lower().split()
    lunr = raw.get("lunr", ["en"])
    if not isinstance(lunr, list) or not all(isinstance(x, str) for x in lunr):
        raise ProjectError(f"{here}: lunr must be a list of Material search languages, e.g. [\"en\"]")
    browser = text("browser")
    if browser and BROWSER_TWINS.get(browser) != stemmer:
        twins = ", ".join(f"{name} ({spec})" for name, spec in BROWSER_TWINS.items())
        raise ProjectError(f"{here}: browser must name the twin of its stemmer {stemmer!r} — one of {twins} — "
                           f"or be left out (its search box then asks /api/search), not {browser!r}")
    derivation = text("derivation")
    from .derivation import RULES as DERIVATIONS

    if derivation and derivation not in DERIVATIONS:
        raise ProjectError(f"{here}: derivation must be one of {', '.join(DERIVATIONS)}, or left out, not {derivation!r}")
    lang = Language(
        code=code, name=text("name"), ui=text("ui") or code, locale=text("locale") or code, script=script,
        lemmatizer=lemmatizer, stemmer=stemmer, letter_folds=tuple(folds.items()), alphabet=tuple(alphabet),
        lunr=tuple(lunr), browser=browser, derivation=derivation,
    )
    from .analysis import stopword_key  # analysis imports this module; the key is its business

    return _replace_stopwords(lang, frozenset(stopword_key(w.lower(), lang) for w in stop))


def _replace_stopwords(lang: Language, stopwords: frozenset[str]) -> Language:
    from dataclasses import replace

    return replace(lang, stopwords=stopwords)


def _check_stemmer(stemmer: str, here: str) -> None:
    kind, _, arg = stemmer.partition(":")
    if kind not in STEMMER_KINDS or not arg:
        raise ProjectError(f"{here} stemmer: must be 'snowball:<algorithm>' or 'pravila:czech-light', not {stemmer!r}")
    if kind == "pravila" and arg not in OWN_STEMMERS:
        raise ProjectError(f"{here} stemmer: Pravila's own stemmers are {', '.join(OWN_STEMMERS)}, not {arg!r}")
    if kind == "snowball":
        import Stemmer

        algorithms = Stemmer.algorithms()
        if arg not in algorithms:
            raise ProjectError(f"{here} stemmer: PyStemmer has no {arg!r} (it has {', '.join(algorithms[:2])}, …)")


def load_registry() -> Registry:
    """The records Pravila ships (``data/languages.toml``)."""
    text = resources.files("pravila").joinpath("data/languages.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    return Registry({code: make_language(code, raw, "pravila/data/languages.toml") for code, raw in data.items()})


def script_of(word: str) -> str:
    """The script a word is written in: ``Cyrillic``, ``Latin`` or ``Other`` (digits count as Latin).

    >>> script_of("прыжок"), script_of("jump"), script_of("Sesílání"), script_of("10"), script_of("𘝉")
    ('Cyrillic', 'Latin', 'Latin', 'Latin', 'Other')
    """
    for c in word:
        o = ord(c)
        if 0x0400 <= o <= 0x052F:
            return "Cyrillic"
    for c in word:
        if c.isascii() or 0x00C0 <= ord(c) <= 0x024F or 0x1E00 <= ord(c) <= 0x1EFF:
            continue
        return "Other"
    return "Latin"
