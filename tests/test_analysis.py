"""Language analysis on its own: which words meet, which stay apart, what a query becomes."""

from __future__ import annotations

import pickle
import unicodedata

import pytest

from pravila import analysis
from pravila.search import index
from pravila.analysis import index_keys, query_word
from pravila.search.index import analyzer, english_analyzer
from pravila.languages import load_registry

REGISTRY = load_registry()
RU, CS, EN = REGISTRY["ru"], REGISTRY["cs"], REGISTRY["en"]
L = {"ru": RU, "cs": CS, "en": EN}


def query_terms(text: str, langs: tuple[str, ...] = ("ru", "cs")) -> list[str]:
    return analysis.query_terms(text, [L[c] for c in langs], EN)


def meet(query: str, text_word: str, lang: str) -> bool:
    """Whether a query word finds a word of the text: one of its keys is one of the text word's keys."""
    keys = {k for k, _ in query_word(analysis.normalize(query), L[lang]).keys}
    return not keys.isdisjoint(index_keys(analysis.normalize(text_word), L[lang]))


@pytest.mark.parametrize(
    "query, text_word",
    [
        ("прыжок", "прыжке"), ("прыжок", "прыжка"), ("прыжке", "прыжком"),
        ("захват", "захвата"), ("захвата", "захватом"),
        ("местность", "местностью"), ("местностью", "местности"),
        ("провоцированная", "провоцирует"),
        ("полет", "полётом"), ("лежа", "лёжа"),  # ё typed as е
        ("Прыжок", "ПРЫЖОК"),
    ],
)
def test_russian_forms_meet(query, text_word):
    assert meet(query, text_word, "ru")


@pytest.mark.parametrize(
    "query, text_word",
    [
        ("sesilani", "sesílání"), ("ritual", "rituál"), ("ritual", "Rituály"), ("somaticka", "somatická"),
        ("slozka", "složka"), ("slozka", "složky"), ("soustredeni", "soustředěním"), ("zachranny", "záchranného"),
        ("pozice", "pozic"), ("pozic", "pozicí"), ("kouzla", "kouzel"), ("kouzlo", "kouzlem"),
        ("úrovně", "úroveň"), ("poznat", "poznání"), ("ovlivnit", "ovlivněno"),
    ],
)
def test_czech_forms_and_words_without_diacritics_meet(query, text_word):
    assert meet(query, text_word, "cs")


@pytest.mark.parametrize(
    "query, text_word, lang",
    [("прыжок", "прыгать", "ru"), ("захват", "атака", "ru"), ("dosah", "doba", "cs"), ("kouzlo", "kolo", "cs")],
)
def test_different_words_stay_apart(query, text_word, lang):
    assert not meet(query, text_word, lang)


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_decomposed_unicode_is_the_same_word(lang):
    word = {"ru": "полёт", "cs": "sesílání"}[lang]
    nfd = unicodedata.normalize("NFD", word)
    assert nfd != word
    assert [t.text for t in analyzer(L[lang])(nfd)] == [t.text for t in analyzer(L[lang])(word)]
    assert query_terms(nfd) == query_terms(word)


def test_words_typed_with_diacritics_prefer_the_exact_form():
    with_marks = dict(query_word("rituál", CS).keys)
    without = dict(query_word("ritual", CS).keys)
    # Typed with diacritics: the exact lemma first, the folded key as a weaker alternative.
    assert max(with_marks, key=with_marks.get) == "rituál"
    assert with_marks["~ritual"] < with_marks["rituál"]
    # Typed without: only the folded key, at full weight.
    assert without == {"~ritual": 1.0}


def test_each_query_word_is_one_or_group_of_at_most_three_keys():
    for text, lang in [("прыжке в длину", "ru"), ("somatická složka", "cs"), ("spell save DC", "cs"), ("vymítací kouzla", "cs")]:
        for word in query_terms(text, (lang,)):
            keys = query_word(word, L[lang]).keys
            assert 1 <= len(keys) <= 3  # the lemma, the stem, and the derivational root where there is one
            assert sum(1 for k, _ in keys if not k.startswith(("~", "^"))) <= 1  # never two exact keys for one word
            assert max(keys, key=lambda kw: kw[1])[0] in (keys[0][0],)  # the word itself weighs most


@pytest.mark.parametrize(
    "query, text_word, lang",
    [("vymítací", "Vymítání", "cs"), ("věštecké", "Věštění", "cs"), ("vymitaci", "vymítání", "cs"),
     ("iluzorní", "Iluze", "cs"), ("transmutační", "Transmutace", "cs"),
     ("лежащий", "лежание", "ru"), ("стабилизированный", "стабилизация", "ru")],
)
def test_derived_words_of_one_root_meet(query, text_word, lang):
    assert meet(query, text_word, lang)


def test_stress_marks_are_not_word_breaks():
    assert query_terms("пры\u0301жок в длину\u0301") == ["прыжок", "длину"]


def test_unknown_words_are_searched_by_their_stem_not_a_guessed_lemma():
    # pymorphy guesses a lemma for a typo; only the stem key is used for it
    assert query_word("прыжек", RU).keys == (("~прыжек", 1.0),)


def test_stopwords_punctuation_and_query_syntax_are_dropped():
    assert query_terms("как встать?") == ["встать"]
    assert query_terms("kolik pozic") == ["pozic"]
    assert query_terms('AND OR NOT " ((( * ~') == []
    assert query_terms("field:value") == ["field", "value"]  # just words


def test_html_and_field_syntax_in_a_query_are_only_words():
    assert query_terms("<script>alert(1)</script>") == ["script", "alert", "1"]
    assert query_terms("title_ru:захват") == ["title", "ru", "захват"]


def test_a_cyrillic_word_is_not_searched_in_czech():
    assert query_terms("прыжок", ("cs",)) == []
    assert query_terms("прыжок", ("ru",)) == ["прыжок"]


def test_queries_are_capped_in_words():
    many = " ".join(f"slovo{i}" for i in range(50))
    assert len(query_terms(many)) == analysis.MAX_QUERY_WORDS


def test_english_rule_names_are_stemmed():
    assert [t.text for t in english_analyzer(EN)("Opportunity Attacks")] == ["opportun", "attack"]
    assert analysis.name_key("grappling", EN) == "grappl"


def test_analyzers_pickle_and_keep_their_import_path():
    # Whoosh pickles the schema with its analyzers into the index.
    for ana in (analyzer(RU), analyzer(CS), english_analyzer(EN)):
        again = pickle.loads(pickle.dumps(ana))
        assert [t.text for t in again("Прыжок sesílání jumping")] == [t.text for t in ana("Прыжок sesílání jumping")]
    for name in ("WordTokenizer", "StopFilter", "KeysFilter", "NameKeysFilter"):
        assert getattr(index, name).__module__ == "pravila.search.index"


def test_the_analyzer_keeps_character_offsets_for_highlighting():
    text = "Если вы совершаете прыжок"
    tokens = [(t.text, t.startchar, t.endchar) for t in analyzer(RU)(text, chars=True)]
    assert ("прыжок", 19, 25) in tokens
    assert text[19:25] == "прыжок"
