"""The searcher, the index it reads and ``pravila search``: what a reader of the results notices."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import index_library as build_index
from helpers import searcher as Searcher
from pravila.analysis import index_keys, normalize, query_word
from pravila.cli import main
from pravila.content import Chapter, Entry, Library
from pravila.search import generations_dir
from pravila.search import MAX_QUERY_CHARS, QueryError
from pravila.serialize import entry_to_dict


@pytest.fixture(scope="module")
def build_dir(library, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("search-build")
    build_index(library, folder / "index")
    return folder


@pytest.fixture(scope="module")
def searcher(build_dir):
    with Searcher(build_dir / "index") as s:
        yield s


def ids(result) -> list[str]:
    return [h.id for h in result.hits]


def make_library(tmp_path: Path, lang: str, bodies: dict[str, str], titles: dict[str, str] | None = None) -> Library:
    """A small library of top-level entries: id → body (and optionally id → title)."""
    chapter = Chapter("test", lang, "Test", "Test", 2024, "test", "none.txt", f"{lang}/test.yaml")
    entries = [
        Entry(id=i, lang=lang, title=(titles or {}).get(i, i.replace("-", " ").capitalize()), en=i, chapter=chapter,
              edition=2024, source="test", file=chapter.file, line=n, body=body)
        for n, (i, body) in enumerate(bodies.items(), 1)
    ]
    return Library([chapter], entries, tmp_path)


# --- what people search for -------------------------------------------------------------


def test_pryzhok_finds_both_jumps_first(searcher):
    assert set(ids(searcher.search("прыжок", "ru"))[:2]) == {"high-jump", "long-jump"}


def test_inflected_russian_finds_the_rule(searcher):
    assert ids(searcher.search("прыжке в длину", "ru"))[0] == "long-jump"
    assert ids(searcher.search("по труднопроходимой местности", "ru"))[0] == "difficult-terrain"


def test_sesilani_without_diacritics_finds_sesilani(searcher):
    first = searcher.search("sesilani", "cs").hits[0]
    assert (first.id, first.title) == ("casting-spells", "Sesílání kouzel")
    assert ids(searcher.search("somaticka slozka", "cs"))[0] == "somatic"


def test_english_rule_names_find_the_rules(searcher):
    assert ids(searcher.search("grapple", "all"))[0] == "grapple"
    assert ids(searcher.search("opportunity attack", "all"))[0] == "opportunity-attack"
    assert ids(searcher.search("spell save DC", "all"))[0] == "saving-throws"


def test_one_letter_typos_find_the_rule(searcher):
    assert set(ids(searcher.search("прыжек", "ru"))[:2]) == {"high-jump", "long-jump"}
    assert ids(searcher.search("kantripy", "cs"))[0] == "cantrips"
    assert ids(searcher.search("захаат", "ru"))[0] == "grapple"


def test_paraphrases_find_the_rule(searcher):
    assert ids(searcher.search("как встать", "ru"))[0] == "being-prone"
    assert ids(searcher.search("kolik pozic", "cs"))[0] == "spell-slots"


def test_lang_restricts_the_results(searcher):
    assert searcher.search("sesilani", "ru").hits == []
    assert {h.lang for h in searcher.search("концентрация", "ru").hits} == {"ru"}
    both = searcher.search("concentration", "all")
    assert {h.lang for h in both.hits} == {"ru", "cs"}


def test_hits_carry_what_the_api_promises(searcher, library):
    result = searcher.search("захват", "ru", limit=3)
    assert len(result.hits) == 3 and result.total >= 3
    d = result.to_dict()
    assert set(d) == {"query", "lang", "total", "hits"}
    for hit in d["hits"]:
        assert set(hit) == {"id", "lang", "title", "url", "snippet", "score"}
        entry = library.get(hit["lang"], hit["id"])
        assert hit["title"] == entry.title
        assert hit["url"].startswith("/ru/combat/") and hit["url"].endswith(f"#{entry.id}")
    scores = [h["score"] for h in d["hits"]]
    assert scores == sorted(scores, reverse=True)


def test_total_counts_all_matches_not_only_the_page(searcher):
    small = searcher.search("kouzlo", "cs", limit=2)
    big = searcher.search("kouzlo", "cs", limit=50)
    assert small.total == big.total == len(big.hits) > 2


def test_derived_words_find_the_noun_without_any_terminology(tmp_path):
    """An adjective finds the noun of its root (the analysis layer), not only the variants the terms list."""
    lib = make_library(tmp_path, "cs", {
        "divination": "Věštění je škola kouzel, která odhaluje informace.",
        "illusion": "Iluze klame mysl nebo smysly.",
        "other": "Kouzlo má úroveň a sesílá se.",
    })
    build_index(lib, tmp_path / "index")
    with Searcher(tmp_path / "index") as s:
        assert ids(s.search("věštecké kouzlo", "cs"))[0] == "divination"
        assert ids(s.search("iluzorní", "cs"))[0] == "illusion"


def test_a_stressed_query_finds_the_rule(searcher):
    assert ids(searcher.search("пры\u0301жок в длину", "ru"))[0] == "long-jump"


def test_other_translations_words_find_their_rule(searcher):
    assert ids(searcher.search("распластанность", "ru"))[0] == "being-prone"  # BG3's Russian
    assert ids(searcher.search("распластанности", "ru"))[0] == "being-prone"  # inflected
    assert ids(searcher.search("ihned", "cs"))[0] == "instantaneous"  # the Czech SRD
    assert ids(searcher.search("vymítací kouzla", "cs"))[0] == "schools-of-magic-table"


def test_a_shared_word_ranks_this_text_s_meaning_first(searcher):
    found = ids(searcher.search("vyvolávací", "cs"))
    assert found[0] == "casting-time"  # «Vyvolávací čas» here; the SRD's Conjuration is another rule
    assert "schools-of-magic-table" in found[:5]


# --- snippets ------------------------------------------------------------------------------------


def test_snippets_mark_the_words_in_their_own_forms(searcher, library):
    hit = searcher.search("прыжке", "ru").hits[0]
    marked = re.findall(r"<mark>(.*?)</mark>", hit.snippet)
    assert marked, hit.snippet
    text = library.text(library.get("ru", hit.id))
    for word in marked:
        assert word in text  # the text's own word, not the query's or a lemma
        assert not set(index_keys(normalize(word), searcher.languages[0])).isdisjoint(k for k, _ in query_word("прыжке", searcher.languages[0]).keys)
    assert "прыжком" in marked or "прыжок" in marked


def test_snippets_escape_markup_from_content_and_query(tmp_path):
    lib = make_library(tmp_path, "cs", {
        "html": 'Kouzlo <b>tučně</b> & <script>alert("x")</script> <img src=x onerror=alert(1)> konec kouzla.',
    })
    build_index(lib, tmp_path / "index")
    with Searcher(tmp_path / "index") as s:
        for q in ["kouzlo", "<img src=x onerror=alert(1)> kouzlo", "<script>", "&amp; kouzlo"]:
            for hit in s.search(q, "cs").hits:
                without_marks = hit.snippet.replace("<mark>", "").replace("</mark>", "")
                assert "<" not in without_marks and ">" not in without_marks, hit.snippet
                assert "&lt;script&gt;" in without_marks


def test_a_rule_found_by_its_title_gets_the_start_of_its_text(searcher, library):
    hit = next(h for h in searcher.search("засада", "ru").hits if h.id == "hide")
    assert hit.snippet.startswith(library.text(library.get("ru", "hide"))[:20])


# --- Czech diacritics and fuzzy matching, on small libraries ------------------------------------


def test_typed_diacritics_prefer_the_exact_form(tmp_path):
    lib = make_library(tmp_path, "cs", {
        "folded": "Toto je ritual bez znamének a nic jiného.",
        "exact": "Toto je rituál se znaménky a nic jiného.",
    }, titles={"folded": "První", "exact": "Druhé"})
    build_index(lib, tmp_path / "index")
    with Searcher(tmp_path / "index") as s:
        assert ids(s.search("rituál", "cs")) == ["exact", "folded"]
        assert set(ids(s.search("ritual", "cs"))) == {"exact", "folded"}


def test_fuzzy_matching_is_only_a_fallback(tmp_path):
    lib = make_library(tmp_path, "cs", {
        "wheel": "Kolo se točí dokola.",
        "spell": "Kouzlo se sesílá.",
    }, titles={"wheel": "Jedna", "spell": "Dvě"})
    build_index(lib, tmp_path / "index")
    with Searcher(tmp_path / "index") as s:
        assert ids(s.search("kouzlo", "cs")) == ["spell"]  # the word exists: "kolo" is not added
        assert ids(s.search("kouzlp", "cs")) == ["spell"]  # a typo: the nearest word
        assert ids(s.search("qqqqqq", "cs")) == []


def test_a_word_that_matches_nothing_does_not_hide_the_others(searcher):
    assert set(ids(searcher.search("прыжок xyzzyplugh", "ru"))[:2]) == {"high-jump", "long-jump"}


# --- bad input -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", "   ", '"', "(((", ")))", "AND OR NOT", "*", "~", "?", "\\", "''", "---", "…"])
def test_empty_punctuation_and_syntax_find_nothing_without_error(searcher, query):
    result = searcher.search(query, "all")
    assert (result.total, result.hits) == (0, [])


@pytest.mark.parametrize(
    "syntax, words",
    [("field:value", "field value"), ("title_ru:захват", "title ru захват"), ("захват^10", "захват 10"),
     ("прыжок~2", "прыжок 2"), ('"прыжок в длину"', "прыжок в длину"), ("(захват OR толчок)", "захват толчок"),
     ("NOT прыжок", "прыжок"), ("прыж*", "прыж")],
)
def test_whoosh_syntax_is_just_text(searcher, syntax, words):
    assert ids(searcher.search(syntax, "ru")) == ids(searcher.search(words, "ru"))


def test_no_wildcards_and_no_operators(searcher):
    assert searcher.search("прыж*", "ru").hits == []  # "прыж" is not a word of the text
    assert set(ids(searcher.search("NOT прыжок", "ru"))[:2]) == {"high-jump", "long-jump"}
    assert searcher.search("[a TO z]").hits == []


@pytest.mark.parametrize(
    "query, lang, limit, message",
    [
        ("a\x00b", "all", 10, "NUL"),
        ("x" * (MAX_QUERY_CHARS + 1), "all", 10, "too long"),
        ("x" * 20_000, "all", 10, "too long"),
        ("прыжок", "de", 10, "unknown language"),
        ("прыжок", "RU", 10, "unknown language"),
        ("прыжок", "ru", 0, "limit"),
        ("прыжок", "ru", 51, "limit"),
        ("прыжок", "ru", "ten", "limit"),
        ("прыжок", "ru", "1e3", "limit"),
        ("\udcff", "all", 10, "UTF-8"),
    ],
)
def test_bad_input_is_a_clear_error(searcher, query, lang, limit, message):
    with pytest.raises(QueryError, match=message):
        searcher.search(query, lang, limit)


def test_decomposed_unicode_query_finds_the_same(searcher):
    import unicodedata

    nfd = unicodedata.normalize("NFD", "sesílání")
    assert ids(searcher.search(nfd, "cs")) == ids(searcher.search("sesílání", "cs"))


# --- entries ---------------------------------------------------------------------------------------------


def test_entries_are_the_serializer_s_json(searcher, library):
    for entry in library.entries[:5] + library.entries[-5:]:
        assert searcher.entry(entry.lang, entry.id) == json.loads(json.dumps(entry_to_dict(library, entry)))
    assert searcher.entry("ru", "no-such-entry") is None
    assert searcher.entry("de", "grapple") is None
    assert searcher.entry("ru", "../../etc/passwd") is None


# --- the index on disk -------------------------------------------------------------------------------------


def test_build_index_counts_the_entries_and_switches_a_link(library, tmp_path):
    folder = tmp_path / "index"
    assert build_index(library, folder) == len(library.entries)
    assert folder.is_symlink() and folder.is_dir()
    assert Path(folder.resolve()).parent == generations_dir(folder).resolve()


def test_a_rebuild_is_seen_by_an_open_searcher(tmp_path):
    folder = tmp_path / "index"
    build_index(make_library(tmp_path, "cs", {"old": "Staré pravidlo o drakovi."}), folder)
    with Searcher(folder) as s:
        assert ids(s.search("drak", "cs")) == ["old"]
        build_index(make_library(tmp_path, "cs", {"new": "Nové pravidlo o jednorožci."}), folder)
        assert ids(s.search("drak", "cs")) == []
        assert ids(s.search("jednorožec", "cs")) == ["new"]
        assert s.entry("cs", "new")["text"] == "Nové pravidlo o jednorožci."


def test_old_generations_are_removed(tmp_path):
    folder = tmp_path / "index"
    for n in range(4):
        build_index(make_library(tmp_path, "cs", {f"e{n}": "Pravidlo."}), folder)
    assert len([p for p in generations_dir(folder).iterdir() if p.is_dir()]) == 2


def test_a_failed_build_leaves_the_old_index_in_place(tmp_path):
    folder = tmp_path / "index"
    build_index(make_library(tmp_path, "cs", {"old": "Staré pravidlo o drakovi."}), folder)
    before = folder.resolve()

    class Broken(Library):
        def text(self, entry):
            if entry.id == "e3":
                raise RuntimeError("broken content")
            return super().text(entry)

    lib = make_library(tmp_path, "cs", {f"e{n}": "Nové pravidlo." for n in range(6)})
    with pytest.raises(RuntimeError):
        build_index(Broken(lib.chapters, lib.entries, tmp_path), folder)
    assert folder.resolve() == before
    assert len([p for p in generations_dir(folder).iterdir() if p.is_dir()]) == 1
    with Searcher(folder) as s:
        assert ids(s.search("drak", "cs")) == ["old"]


def test_searches_during_rebuilds_always_see_a_whole_index(tmp_path):
    folder = tmp_path / "index"
    libs = [make_library(tmp_path, "cs", {f"e{i}": f"Pravidlo číslo {i} o drakovi." for i in range(n, n + 30)}) for n in (0, 100)]
    build_index(libs[0], folder)
    errors, counts = [], set()
    stop = threading.Event()

    def search_all_the_time():
        with Searcher(folder) as s:
            while not stop.is_set():
                try:
                    counts.add(s.search("drak", "cs", limit=50).total)
                except Exception as e:  # noqa: BLE001
                    errors.append(e)

    t = threading.Thread(target=search_all_the_time)
    t.start()
    for n in range(6):
        build_index(libs[n % 2], folder)
    stop.set()
    t.join()
    assert errors == []
    assert counts == {30}


def test_no_index_is_a_clear_error(tmp_path):
    from pravila.search import IndexUnavailable

    with pytest.raises(IndexUnavailable, match="pravila build"):
        Searcher(tmp_path / "missing").search("прыжок")


# --- pravila search -------------------------------------------------------------------------------------------


def run(*args: str):
    return CliRunner().invoke(main, ["search", *args], catch_exceptions=False)


def test_cli_prints_readable_results(build_dir):
    result = run("прыжок", "--lang", "ru", "--build-dir", str(build_dir))
    assert result.exit_code == 0, result.output
    assert "Прыжок в высоту" in result.output and "Прыжок в длину" in result.output
    assert "/ru/combat/movement/#high-jump" in result.output
    assert "<mark>" not in result.output and "&lt;" not in result.output


def test_cli_takes_a_query_of_several_words(build_dir):
    result = run("как", "встать", "--build-dir", str(build_dir))
    assert result.exit_code == 0, result.output
    assert "Лежание ничком" in result.output


def test_cli_json_is_the_api_answer(build_dir, searcher):
    result = run("sesilani", "--json", "--limit", "3", "--build-dir", str(build_dir))
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == searcher.search("sesilani", "all", 3).to_dict()


@pytest.mark.parametrize(
    "args, message",
    [
        ([], "nothing to search for"),
        (["((("], "no words"),
        (["AND", "OR", "NOT"], "no words"),
        (["x" * 20_000], "too long"),
        (["a\x00b"], "NUL"),
        (["прыжок", "--lang", "de"], "unknown language"),
        (["прыжок", "--limit", "0"], "limit must be between 1 and 50"),
        (["прыжок", "--limit", "51"], "limit must be between 1 and 50"),
    ],
)
def test_cli_bad_input_is_one_clear_line(build_dir, args, message):
    result = run(*args, "--build-dir", str(build_dir))
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output
    assert len([l for l in result.output.splitlines() if l.startswith("Error:")]) == 1


def test_cli_without_an_index_says_to_build(tmp_path):
    result = run("прыжок", "--build-dir", str(tmp_path))
    assert result.exit_code == 1
    assert "pravila build" in result.output


def test_cli_no_results_is_not_an_error(build_dir):
    result = run("qqqqqqqqqq", "--build-dir", str(build_dir))
    assert result.exit_code == 0
    assert "no entries found" in result.output
