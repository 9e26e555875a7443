"""The search data a build ships for the browser (``pravila.search.browser``, ``pravila.paradigms``).

Whether the browser answers as Python does is ``test_search_vectors.py``'s
job; here: what the data holds, where it goes, and when a language is left
to the API instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from helpers import MINI, index_library, repo_project
from pravila.analysis import is_stopword, query_word, query_word_from
from pravila.paradigms import forms_of
from pravila.search.browser import prepare_browser_search, write_browser_search
from pravila.search.strategy import word_terms


def table_of(data: dict) -> dict[str, tuple[str, bool]]:
    """The word → (lemma, known) table the browser builds from the data's groups."""
    out = {}
    for base, known, cut, endings in data["forms"]:
        stem = base[: len(base) - cut]
        for ending in endings.split(" "):
            out[stem + ending] = (base, bool(known))
    return out


@pytest.fixture(scope="module")
def built_data(built_project) -> tuple[list, dict[str, dict]]:
    """The session's build: (the manifest's languages, each language's data) as the Russian site ships them."""
    folder = built_project.site_dir / "ru" / "assets" / "pravila" / "search"
    manifest = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    datas = {code: json.loads((folder / entry["data"]).read_text(encoding="utf-8")) for code, entry in manifest["languages"].items()}
    return manifest, datas


@pytest.fixture(scope="module")
def datas(built_data) -> dict[str, dict]:
    return built_data[1]


def test_every_language_with_a_browser_twin_gets_its_data_well_under_the_budget(built_data, built_project):
    import gzip

    manifest, datas = built_data
    assert list(manifest["languages"]) == list(built_project.codes) == list(datas)
    for code, entry in manifest["languages"].items():
        blob = (built_project.site_dir / code / "assets" / "pravila" / "search" / entry["data"]).read_bytes()
        assert entry["bytes"] == len(gzip.compress(blob, 9)) < 150 * 1024, f"{code}: {entry['bytes']} bytes gzipped (aim: 150 KB)"


def test_the_entries_come_in_the_index_s_order_with_their_text_and_names(datas, library):
    offset = 0
    for code, data in datas.items():
        entries = library.in_lang(code)
        assert data["offset"] == offset and [d[0] for d in data["docs"]] == [e.id for e in entries]
        assert all(d[3] == library.text(e) and ["title", e.title] in d[4] for d, e in zip(data["docs"], entries))
        offset += len(entries)
    assert all(data["doc_count"] == offset for data in datas.values())


@pytest.mark.parametrize("code, word, lemma_", [
    ("ru", "прыжке", "прыжок"), ("ru", "лежащего", "лежать"), ("ru", "опрокинутый", "опрокинуть"),
    ("cs", "kouzel", "kouzlo"), ("cs", "věštecká", "věštecký"), ("cs", "sesílání", "sesílání"),
])
def test_the_forms_of_the_content_s_lemmas_and_roots_are_in_the_table(datas, code, word, lemma_):
    assert table_of(datas[code]).get(word, (None,))[0] == lemma_


def test_a_word_the_table_lacks_is_searched_as_python_searches_it(datas, project):
    """The table keeps only words whose terms the browser would get wrong without it: every form the
    paradigms give that it lacks finds, as its own lemma unknown to the dictionary, the terms Python finds."""
    for lang in project.languages:
        data = datas[lang.code]
        table = table_of(data)
        present = {f"{kind}_{lang.code}": {t[0] for t in field["terms"]} for kind, field in data["fields"].items()}

        def df(fieldname: str, key: str) -> int:
            return 1 if key in present.get(fieldname, ()) else 0

        lemmas = {k for name in ("title", "alias", "variant", "body") for k in present[f"{name}_{lang.code}"]
                  if not k.startswith(("~", "^"))}
        roots = {k[1:] for name in ("title", "alias", "variant", "body") for k in present[f"{name}_{lang.code}"] if k.startswith("^")}
        forms = sorted(forms_of(lemmas, roots, lang))
        missing = [w for w in forms if w not in table and w.isalnum() and lang.fold_letters(w) not in table
                   and not is_stopword(w, lang)]  # a stopword is never searched
        assert len(missing) > 100, lang.code  # words the table need not hold (their lemmas are not in the text)
        wrong = [w for w in missing
                 if word_terms(query_word(w, lang), df) != word_terms(query_word_from(w, lang, (lang.fold_letters(w), False)), df)]
        assert not wrong, f"{lang.code}: {wrong[:5]}"


def test_a_language_without_a_browser_twin_or_too_big_is_searched_through_the_api(tmp_path):
    from dataclasses import replace

    from pravila.content import load_library

    project = repo_project(content=MINI, build=tmp_path / "build")
    library, problems = load_library(project)
    assert not problems
    generation = tmp_path / "index"
    index_library(library, generation, project)
    generation = generation.resolve()
    no_twin = replace(project, languages=(replace(project.language("ru"), browser=""), project.language("cs")))
    prepared = prepare_browser_search(no_twin, generation)
    assert [(f.lang, bool(f.name)) for f in prepared.files] == [("ru", False), ("cs", True)]
    assert "browser twin" in prepared.files[0].reason

    sizes = {f.lang: f.gzipped for f in prepare_browser_search(project, generation).files}
    small = prepare_browser_search(project, generation, max_bytes=(sizes["ru"] + sizes["cs"]) // 2)
    big = max(sizes, key=sizes.get)
    assert [(f.lang, bool(f.name)) for f in small.files] == [(code, code != big) for code in ("ru", "cs")]
    site = tmp_path / "site"
    for code in project.codes:
        (site / code / "search").mkdir(parents=True)
        (site / code / "search" / "search_index.json").write_text('{"config": {"lang": ["en"]}, "docs": [{"text": "x"}]}')
    write_browser_search(project, small, site, lambda code: {"hello": code})
    manifest = json.loads((site / "cs" / "assets/pravila/search/index.json").read_text(encoding="utf-8"))
    kept = next(f for f in small.files if f.name)
    assert manifest["languages"][big] == {"name": project.language(big).name, "api": True}
    assert manifest["languages"][kept.lang]["data"] == kept.name and manifest["strings"] == {"hello": "cs"}
    assert sorted(p.name for p in (site / "ru" / "assets/pravila/search").iterdir()) == sorted(["index.json", kept.name])
    assert json.loads((site / "ru" / "search" / "search_index.json").read_text()) == {"config": {"lang": ["en"]}, "docs": []}
