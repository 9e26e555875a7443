"""Any input gives a result or a QueryError: seeded random queries and limits, odd Unicode included."""

from __future__ import annotations

import random
import pytest

from helpers import index_library, searcher
from pravila.search import QueryError, check_limit

SEED = 20261201
# Scripts and marks people (and bots) send: Latin, Czech, Cyrillic, Tangut, CJK, Arabic, Devanagari,
# combining accents, zero-width and direction marks, emoji with joiners, full-width digits, surrogates.
ALPHABETS = [
    "abcdefghijklmnopqrstuvwxyz", "áčďéěíňóřšťúůýž", "абвгдеёжзийклмнопрстуфхцчшщъыьэюя", "ПРЫЖОКЁ",
    "".join(chr(c) for c in range(0x17000, 0x17020)), "漢字検索", "بحث", "खोज", "\u0301\u0308\u030c\u0336",
    "\u200b\u200d\u200e\u200f\u2066\u2069\ufeff", "🐉🧙\u200d♂️🎲", "０１２３٣", "\ud800\udfff", " -_'\".,:;!?*~()[]{}<>&^%$#@\\/|",
    "ǅǈǋ", "ꙮ", "\U0001d400\U0001d7ce",
]


def random_query(rng: random.Random) -> str:
    pieces = []
    for _ in range(rng.randint(1, 6)):
        alphabet = rng.choice(ALPHABETS)
        pieces.append("".join(rng.choice(alphabet) for _ in range(rng.randint(1, rng.choice([3, 12, 70])))))
    return rng.choice([" ", "", "\t", "—"]).join(pieces)[: rng.choice([30, 200, 260])]


@pytest.fixture(scope="module")
def search(library, tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz") / "index"
    index_library(library, folder)
    with searcher(folder) as s:
        yield s


def test_random_odd_queries_give_a_result_or_a_query_error(search):
    rng = random.Random(SEED)
    answered = refused = 0
    for n in range(400):
        query, lang, limit = random_query(rng), rng.choice(["all", "ru", "cs", None]), rng.choice([1, 10, 50, "7", None])
        try:
            result = search.search(query, lang, limit)
        except QueryError:
            refused += 1
            continue
        answered += 1
        assert result.total >= len(result.hits), query
        for hit in result.hits:
            assert "<" not in hit.snippet.replace("<mark>", "").replace("</mark>", ""), query
    assert answered > 300 and refused > 0  # surrogates, and queries over 200 characters


@pytest.mark.parametrize("query", ["𘝉ж", "ж𘝉", "𘝉", "ж\u0301", "ǅ", "ꙮꙮꙮꙮꙮ", "\U0001d400bc", "x" * 200, "прыжок" * 33, "ŉ" * 10])
def test_odd_words_are_searched_without_error(search, query):
    result = search.search(query, "all")
    assert result.total >= 0


@pytest.mark.parametrize("text", ["--5", "-", "+", "5.0", "1e3", "0x10", "５", "٣", "1_0", " ", "10 10", "9" * 30, "+-5", "-5"])
def test_limits_are_parsed_strictly(text):
    with pytest.raises(QueryError, match="limit must be"):
        check_limit(text)


def test_a_limit_is_a_plain_number_or_nothing():
    assert (check_limit(""), check_limit(None), check_limit("7"), check_limit(" 50 "), check_limit("+3"), check_limit("007")) == (10, 10, 7, 50, 3, 7)


def test_random_limit_text_is_a_number_or_a_query_error():
    rng = random.Random(SEED)
    for _ in range(300):
        text = "".join(rng.choice("0123456789+-. e_x５\u00a0") for _ in range(rng.randint(1, 5)))
        try:
            limit = check_limit(text)
        except QueryError:
            continue
        assert text.strip().lstrip("+").isdigit() and text.strip().isascii() and int(text) == limit, text
