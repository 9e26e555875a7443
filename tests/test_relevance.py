"""Relevance, measured: MRR@10 and recall@5 per kind of query, on the real content.

The queries (tests/relevance/queries.yaml) are written as players type them;
each names the entry it must find.  The same queries run against a plain
Whoosh index (lowercase words, no morphology, no folding, no fuzzy matching,
same fields and boosts) for comparison; ``python tests/test_relevance.py``
prints both side by side (the table quoted in the README).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from helpers import index_library as build_index
from helpers import repo_project
from helpers import searcher as Searcher
from pravila.content import load_library as _load_library

QUERIES_FILE = Path(__file__).parent / "relevance" / "queries.yaml"
KINDS = ("title", "inflected", "paraphrase", "folding", "typo", "english")
MIN_MRR = 0.97  # the development set scores 0.978: three queries falling from first to second place fail it


@dataclass(frozen=True)
class Case:
    q: str
    lang: str
    expect: tuple[str, ...]
    kind: str


def load_cases() -> list[Case]:
    data = yaml.safe_load(QUERIES_FILE.read_text(encoding="utf-8"))
    cases = []
    for item in data["queries"]:
        expect = item["expect"]
        cases.append(Case(item["q"], item["lang"], tuple(expect) if isinstance(expect, list) else (expect,), item["kind"]))
    return cases


CASES = load_cases()


def rank_of(ids: list[str], expect: tuple[str, ...]) -> int | None:
    """1-based rank of the first expected id, or None."""
    for i, found in enumerate(ids, 1):
        if found in expect:
            return i
    return None


@dataclass
class Scores:
    n: int = 0
    rr: float = 0.0
    at5: int = 0

    def add(self, rank: int | None) -> None:
        self.n += 1
        if rank is not None and rank <= 10:
            self.rr += 1.0 / rank
        if rank is not None and rank <= 5:
            self.at5 += 1

    @property
    def mrr(self) -> float:
        return self.rr / self.n if self.n else 0.0

    @property
    def recall5(self) -> float:
        return self.at5 / self.n if self.n else 0.0


def evaluate(search, cases: list[Case] = CASES) -> tuple[dict[str, Scores], list[tuple[Case, int | None, list[str]]]]:
    """Scores per kind (and "all"), plus every case with its rank and top ids."""
    per_kind: dict[str, Scores] = defaultdict(Scores)
    details = []
    for case in cases:
        ids = search(case.q, case.lang)
        rank = rank_of(ids, case.expect)
        per_kind[case.kind].add(rank)
        per_kind["all"].add(rank)
        details.append((case, rank, ids))
    return per_kind, details


# --- the two searchers -----------------------------------------------------------------


def pravila_search(searcher: Searcher):
    def search(q: str, lang: str) -> list[str]:
        return [h.id for h in searcher.search(q, lang, 10).hits]

    return search


class PlainIndex:
    """The baseline: Whoosh's StandardAnalyzer-style words (lowercase, English stopwords only)."""

    def __init__(self, library, folder: Path):
        from whoosh import index as whoosh_index
        from whoosh.analysis import LowercaseFilter, RegexTokenizer
        from whoosh.fields import ID, STORED, TEXT, Schema

        ana = RegexTokenizer(r"[^\W_]+") | LowercaseFilter()
        self.fields = {"title": 4.0, "alias": 2.5, "en": 3.0, "body": 1.0}
        schema = Schema(key=ID(unique=True), id=STORED(), lang=ID(stored=True),
                        **{f: TEXT(analyzer=ana, phrase=False) for f in self.fields})
        folder.mkdir(parents=True, exist_ok=True)
        self.ix = whoosh_index.create_in(str(folder), schema)
        w = self.ix.writer()
        for e in library.entries:
            w.add_document(key=e.key, id=e.id, lang=e.lang, title=e.title, alias="\n".join(e.aliases), en=e.en,
                           body=library.text(e))
        w.commit()
        self.searcher = self.ix.searcher()
        self.analyzer = ana

    def search(self, q: str, lang: str) -> list[str]:
        from whoosh.query import And, Or, Term

        words = list(dict.fromkeys(t.text for t in self.analyzer(q)))
        groups = [Or([Term(f, w, boost=b) for f, b in self.fields.items()]) for w in words]
        if not groups:
            return []
        filt = None if lang == "all" else Term("lang", lang)
        ids = [h["id"] for h in self.searcher.search(And(groups), limit=10, filter=filt)]
        if len(ids) < 10:
            ids += [h["id"] for h in self.searcher.search(Or(groups), limit=20, filter=filt) if h["id"] not in ids]
        return ids[:10]


# --- tests ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def library():
    lib, problems = _load_library(repo_project())
    assert not problems, problems[:3]
    return lib


@pytest.fixture(scope="module")
def searcher(library, tmp_path_factory):
    folder = tmp_path_factory.mktemp("relevance") / "index"
    build_index(library, folder)
    with Searcher(folder) as s:
        yield s


def test_the_set_is_big_and_varied_enough():
    assert len(CASES) >= 80
    assert len({(c.q, c.lang) for c in CASES}) == len(CASES), "a query is listed twice"
    for kind in KINDS:
        for lang in ("ru", "cs"):
            assert sum(1 for c in CASES if c.kind == kind and c.lang == lang) >= 5, (kind, lang)


def test_every_expected_entry_exists(library):
    for case in CASES:
        langs = ("ru", "cs") if case.lang == "all" else (case.lang,)
        for entry_id in case.expect:
            assert any(library.get(lang, entry_id) for lang in langs), f"{case.q!r}: no entry {entry_id!r}"


def test_mrr_at_10_is_at_least_0_97(searcher):
    per_kind, details = evaluate(pravila_search(searcher))
    misses = [f"  {c.kind:<10} {c.lang} {c.q!r}: want {'/'.join(c.expect)}, rank {r}, got {ids[:3]}"
              for c, r, ids in details if r != 1]
    report = "\n".join(f"{k:<10} MRR@10 {s.mrr:.3f}  recall@5 {s.recall5:.3f}  (n={s.n})" for k, s in per_kind.items())
    print("\n" + report + "\nnot first:\n" + "\n".join(misses))
    assert per_kind["all"].mrr >= MIN_MRR, report + "\n" + "\n".join(misses)


def test_every_kind_is_found_in_the_top_five_mostly(searcher):
    per_kind, _ = evaluate(pravila_search(searcher))
    for kind in KINDS:
        assert per_kind[kind].recall5 >= 0.8, (kind, per_kind[kind].recall5)


def test_our_analysis_beats_the_plain_analyzer(library, searcher, tmp_path):
    ours, _ = evaluate(pravila_search(searcher))
    plain, _ = evaluate(PlainIndex(library, tmp_path / "plain").search)
    assert ours["all"].mrr > plain["all"].mrr + 0.2
    for kind in ("inflected", "folding", "typo"):
        assert ours[kind].mrr > plain[kind].mrr, kind


# --- the community vocabulary (tests/relevance/community.yaml) ------------------------------------------

COMMUNITY_FILE = Path(__file__).parent / "relevance" / "community.yaml"
MIN_COMMUNITY_MRR = 0.90


def community_cases() -> list[tuple[Case, dict]]:
    """The queries players who learned other translations type, each from a cited source (written before tuning)."""
    data = yaml.safe_load(COMMUNITY_FILE.read_text(encoding="utf-8"))
    out = []
    for item in data["queries"]:
        expect = item["expect"]
        out.append((Case(item["q"], item["lang"], tuple(expect) if isinstance(expect, list) else (expect,), item["kind"]), item))
    return out


def test_the_community_set_is_big_cited_and_partly_held_out():
    cases = community_cases()
    assert len(cases) >= 80
    for lang in ("ru", "cs"):
        assert sum(1 for c, _ in cases if c.lang == lang) >= 35
    assert all(item.get("source") for _, item in cases)
    assert sum(1 for _, item in cases if item.get("heldout")) >= len(cases) // 5


@pytest.mark.parametrize("lang", ["ru", "cs"])
def test_community_vocabulary_mrr_at_10_is_at_least_0_90(searcher, lang):
    cases = [c for c, _ in community_cases() if c.lang == lang]
    per_kind, details = evaluate(pravila_search(searcher), cases)
    misses = [f"  {c.kind:<18} {c.q!r}: want {'/'.join(c.expect)}, rank {r}, got {ids[:3]}" for c, r, ids in details if r != 1]
    assert per_kind["all"].mrr >= MIN_COMMUNITY_MRR, f"{lang}: MRR@10 {per_kind['all'].mrr:.3f}\n" + "\n".join(misses)


# --- the README table -------------------------------------------------------------------------


def table(ours: dict[str, Scores], plain: dict[str, Scores]) -> str:
    lines = ["| kind | queries | MRR@10 | recall@5 | plain MRR@10 | plain recall@5 |", "|---|---:|---:|---:|---:|---:|"]
    for kind in (*KINDS, "all"):
        o, p = ours[kind], plain[kind]
        name = "**all**" if kind == "all" else kind
        lines.append(f"| {name} | {o.n} | {o.mrr:.3f} | {o.recall5:.3f} | {p.mrr:.3f} | {p.recall5:.3f} |")
    return "\n".join(lines)


def main() -> int:
    import tempfile

    lib, _ = _load_library(repo_project())
    with tempfile.TemporaryDirectory() as tmp:
        build_index(lib, Path(tmp) / "index")
        with Searcher(Path(tmp) / "index") as s:
            ours, details = evaluate(pravila_search(s))
        plain, _ = evaluate(PlainIndex(lib, Path(tmp) / "plain").search)
    print(table(ours, plain))
    if "-v" in sys.argv:
        for c, r, ids in details:
            if r != 1:
                print(f"  {c.kind:<10} {c.lang} {c.q!r}: want {'/'.join(c.expect)}, rank {r}, got {ids[:4]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
