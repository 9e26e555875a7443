"""The engine seam: what WhooshEngine answers, and that nothing else in Pravila touches Whoosh."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from helpers import index_library
from pravila.search.generations import read_format
from pravila.search.whoosh_engine import WhooshEngine

SRC = Path(__file__).resolve().parents[1] / "src" / "pravila"


def test_whoosh_is_read_and_written_by_two_modules_only():
    importers = sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.py")
                       if re.search(r"^\s*(from|import) whoosh\b", p.read_text(encoding="utf-8"), re.M))
    assert importers == ["search/index.py", "search/whoosh_engine.py"]


@pytest.fixture(scope="module")
def engine(library, tmp_path_factory):
    folder = tmp_path_factory.mktemp("engine") / "index"
    index_library(library, folder)
    generation = Path(os.path.realpath(folder))
    e = WhooshEngine(generation, read_format(generation)["languages"])
    yield e
    e.close()


def test_documents_are_numbered_by_language_then_library_order(engine, library, project):
    assert engine.doc_count == len(library.entries)
    keys = [engine.stored(n)["key"] for n in range(engine.doc_count)]
    assert keys == [e.key for code in project.codes for e in library.in_lang(code)]
    for entry in library.entries[:3] + library.entries[-3:]:
        assert engine.find(entry.key) == keys.index(entry.key)
        assert json.loads(engine.stored(engine.find(entry.key))["entry"])["id"] == entry.id
    assert engine.find("ru:no-such-entry") is None


def test_postings_are_ascending_and_agree_with_the_frequency(engine):
    for field, key in [("body_ru", "~атак"), ("title_cs", "kouzlo"), ("en_ru", "grappl")]:
        ids, weights = engine.postings(field, key)
        assert len(ids) == len(weights) == engine.doc_frequency(field, key) > 0
        assert list(ids) == sorted(set(ids)) and all(w >= 1 for w in weights)
    assert len(engine.postings("body_ru", "qqqq")[0]) == engine.doc_frequency("no_field", "x") == 0


def test_field_lengths_cover_every_document(engine):
    lengths, total = engine.field_lengths("body_cs")
    assert len(lengths) == engine.doc_count
    ids, _ = engine.postings("body_cs", "~kouzl")
    assert all(lengths[d] > 0 for d in ids)
    assert total >= max(lengths)


def test_terms_are_the_field_s_keys_in_order(engine):
    terms = list(engine.terms("title_ru"))
    assert terms == sorted(terms) and "прыжок" in terms and "~прыжок" in terms
    assert list(engine.terms("no_field")) == []


def test_a_closed_engine_says_so(library, tmp_path):
    from pravila.errors import IndexUnavailable

    index_library(library, tmp_path / "index")
    generation = Path(os.path.realpath(tmp_path / "index"))
    e = WhooshEngine(generation, read_format(generation)["languages"])
    e.close()
    with pytest.raises(IndexUnavailable):
        e.postings("body_ru", "~атак")
