"""Our BM25F is Whoosh's: the same scores as ``whoosh.scoring.BM25F`` for the same Or/And queries.

On the index ``pravila build`` writes from the real content, and on a
generated one (the real chapters' sentences shuffled into many entries:
common words with long posting lists, entries whose fields are empty).
Whoosh scores the generation's language parts read as one
(``whoosh.reading.MultiReader``), which is how our engine numbers them.
"""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
import yaml
from whoosh.filedb.filestore import FileStorage
from whoosh.query import And, Or, Term
from whoosh.reading import MultiReader
from whoosh.scoring import BM25F as WhooshBM25F
from whoosh.searching import Searcher as WhooshSearcher

from helpers import index_library, repo_project
from pravila.analysis import query_terms
from pravila.content import Chapter, Entry, Library
from pravila.search.bm25f import BM25F
from pravila.search.generations import read_format
from pravila.search.strategy import plan, vocabulary_spaces
from pravila.search.fuzzy import Vocabulary
from pravila.search.whoosh_engine import WhooshEngine

QUERIES = Path(__file__).parent / "relevance" / "queries.yaml"
RELATIVE = 1e-9


def generated_library(real: Library, per_lang: int, seed: int = 11) -> Library:
    """``per_lang`` entries per language made of the real content's sentences, titles and names."""
    rng = random.Random(seed)
    chapters, entries = [], []
    for lang in ("ru", "cs"):
        source = real.in_lang(lang)
        sentences = [s for e in source for s in re.split(r"(?<=[.!?])\s+", real.text(e)) if len(s) > 20]
        words = [w for e in source for w in e.title.split()]
        names = [e.en for e in source]
        chapter = Chapter("generated", lang, "Generated", "Generated", 2024, "test", "none.txt", f"generated/{lang}.yaml")
        chapters.append(chapter)
        for i in range(per_lang):
            entries.append(Entry(
                id=f"gen-{i}", lang=lang, title=" ".join(rng.sample(words, rng.randint(1, 3))), en=rng.choice(names),
                chapter=chapter, edition=2024, source="test", file=chapter.file, line=i + 1,
                aliases=tuple(rng.sample(words, rng.randint(0, 2))), kind="rule",
                body=" ".join(rng.sample(sentences, rng.randint(1, 4))),
            ))
    return Library(chapters, entries, real.content_dir)


def queries() -> list[tuple[str, str]]:
    data = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    return [(q["q"], q["lang"]) for q in data["queries"]]


@pytest.fixture(scope="module", params=["real index", "generated index"])
def generation(request, library, tmp_path_factory) -> Path:
    lib = library if request.param == "real index" else generated_library(library, 400)
    folder = tmp_path_factory.mktemp("bm25f") / "index"
    index_library(lib, folder)
    return Path(os.path.realpath(folder))


@pytest.fixture(scope="module")
def ours(generation):
    engine = WhooshEngine(generation, read_format(generation)["languages"])
    yield BM25F(engine)
    engine.close()


@pytest.fixture(scope="module")
def whoosh(generation):
    readers = [FileStorage(str(generation / code)).open_index().reader() for code in read_format(generation)["languages"]]
    with WhooshSearcher(MultiReader(readers), weighting=WhooshBM25F()) as searcher:
        yield searcher


def whoosh_scores(searcher, query) -> dict[int, float]:
    return {hit.docnum: hit.score for hit in searcher.search(query, limit=None)}


def assert_same(theirs: dict[int, float], mine: dict[int, float], what: str) -> None:
    assert set(mine) == set(theirs), what
    for doc, score in theirs.items():
        assert mine[doc] == pytest.approx(score, rel=RELATIVE), (what, doc)


def test_scores_equal_whoosh_bm25f_for_or_and_and_queries(ours, whoosh):
    project = repo_project()
    vocabulary = Vocabulary(vocabulary_spaces(ours, project.codes))
    compared = 0
    for q, lang in queries():
        langs = project.languages if lang == "all" else (project.language(lang),)
        groups, _ = plan(query_terms(q, langs, project.english), langs, project.english, ours, lambda: vocabulary)
        if not groups:
            continue
        ors = [Or([Term(t.field, t.key, boost=t.boost) for t in g.terms]) for g in groups]
        mine = []
        for g, query in zip(groups, ors):
            scores = ours.group(g.terms)
            mine.append({int(d): float(scores.score[d]) for d in scores.matched.nonzero()[0]})
            assert_same(whoosh_scores(whoosh, query), mine[-1], f"{q!r}: {g.word}")
        if len(groups) > 1:
            both = set.intersection(*(set(m) for m in mine))
            assert_same(whoosh_scores(whoosh, And(ors)), {d: sum(m[d] for m in mine) for d in both}, f"{q!r}: all words")
        compared += 1
    assert compared > 100


def test_a_term_s_contributions_are_whoosh_s_single_term_scores(ours, whoosh):
    for field, key in [("body_cs", "~kouzl"), ("title_ru", "атака"), ("body_ru", "~прыжк"), ("en_cs", "spell")]:
        ids, scores = ours.contributions(field, key)
        assert len(ids) == ours.doc_frequency(field, key) > 0, (field, key)
        assert_same(whoosh_scores(whoosh, Term(field, key)), dict(zip(ids.tolist(), scores.tolist())), f"{field}:{key}")


def test_a_term_the_index_lacks_scores_nothing(ours):
    for field, key in [("body_cs", "qqqqq"), ("no_such_field", "x")]:
        ids, scores = ours.contributions(field, key)
        assert len(ids) == len(scores) == ours.doc_frequency(field, key) == 0
