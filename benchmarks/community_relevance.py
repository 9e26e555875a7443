"""Search relevance on community terms, measured: MRR@10 and recall@5.

    .venv/bin/python benchmarks/community_relevance.py [-v]

Builds the search index from the repository's content into a temporary
folder and runs two relevance sets:

- tests/relevance/queries.yaml — the book's own words, as players type them;
- tests/relevance/community.yaml — the words of other translations, tools and
  players (each query names its source in content/terms/<lang>.yaml).

It prints MRR@10 and recall@5 per language and set, then for the community
set per kind, per source, and for the held-out part (queries that are not a
variant in content/terms/*.yaml) separately.  For `shared` queries it also
counts how often the other meaning (`also`, when it is an entry here) is in
the top 10.  ``-v`` lists the community queries not answered first.

Before measuring, it checks that the data files agree with the content
(entries and sources exist, held-out queries are really held out, ...);
any problem is printed and the exit status is 1.

A benchmark, not a test: the figures are printed, never asserted.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from pravila.content import load_library
from pravila.search import build_index
from pravila.project import load_project
from pravila.search import Searcher

ROOT = REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from test_relevance import Case as BookCase, Scores, rank_of  # noqa: E402 — one definition of the measures, the suite's
BOOK_QUERIES = REPO / "tests" / "relevance" / "queries.yaml"
COMMUNITY_QUERIES = REPO / "tests" / "relevance" / "community.yaml"
TERMS_DIR = REPO / "content" / "terms"
LANGS = ("ru", "cs")


@dataclass(frozen=True)
class Case(BookCase):
    """A query of the relevance sets, with where it was collected (the community set's fields)."""

    source: str = "book"
    heldout: bool = False
    also: tuple[str, ...] = ()


def _tuple(value) -> tuple[str, ...]:
    if value is None:
        return ()
    return tuple(value) if isinstance(value, list) else (value,)


def load_cases(path: Path) -> list[Case]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [Case(q=str(item["q"]), lang=item["lang"], expect=_tuple(item["expect"]), kind=item["kind"],
                 source=item.get("source", "book"), heldout=bool(item.get("heldout", False)),
                 also=_tuple(item.get("also")))
            for item in data["queries"]]


def load_terms() -> dict[str, dict]:
    return {lang: yaml.safe_load((TERMS_DIR / f"{lang}.yaml").read_text(encoding="utf-8")) for lang in LANGS}


# --- data checks -------------------------------------------------------------------------


def _fold(text: str) -> str:
    return " ".join(text.casefold().replace("ё", "е").split())


def check_data(library, terms: dict[str, dict], cases: list[Case]) -> list[str]:
    """Every way the data files can disagree with the content, as readable lines."""
    problems: list[str] = []
    marked: dict[str, set[str]] = defaultdict(set)
    for chapter_file in (REPO / "content").glob("*/*.yaml"):
        if chapter_file.parent.name in LANGS:
            marked[chapter_file.parent.name] |= set(re.findall(r"\[\[\?([a-z0-9-]+)\|", chapter_file.read_text(encoding="utf-8")))
    variants: dict[str, set[str]] = {}
    for lang, data in terms.items():
        where = f"content/terms/{lang}.yaml"
        sources = set(data.get("sources", {}))
        known = {e.id: e for e in library.entries if e.lang == lang}

        def need_sources(value, what: str) -> None:
            for key in _tuple(value):
                if key not in sources:
                    problems.append(f"{where}: {what}: unknown source {key!r}")

        variants[lang] = set()
        for v in data.get("variants", []):
            term = str(v["term"])
            variants[lang].add(_fold(term))
            need_sources(v.get("source"), term)
            for entry_id in _tuple(v.get("entry")):
                entry = known.get(entry_id)
                if entry is None:
                    problems.append(f"{where}: {term}: no entry {entry_id!r}")
                elif _fold(term) in {_fold(entry.title), *(_fold(a) for a in entry.aliases)}:
                    problems.append(f"{where}: {term}: already the title or an alias of {entry_id}")
        for s in data.get("shared", []):
            if s["here"] not in known:
                problems.append(f"{where}: shared {s['term']}: no entry {s['here']!r}")
            for m in s["meanings"]:
                need_sources(m.get("source"), f"shared {s['term']}")
                if m.get("entry") and m["entry"] not in known:
                    problems.append(f"{where}: shared {s['term']}: no entry {m['entry']!r}")
        for x in data.get("external", []):
            need_sources(x.get("source"), f"external {x['slug']}")
            if x["slug"] not in marked[lang]:
                problems.append(f"{where}: external {x['slug']!r} is not a [[?slug|…]] of the {lang} content")
    for c in cases:
        if c.source == "book":
            continue
        known = {e.id for e in library.entries if e.lang == c.lang}
        for entry_id in c.expect + tuple(a for a in c.also if not a.startswith("?")):
            if entry_id not in known:
                problems.append(f"community.yaml: {c.q!r}: no {c.lang} entry {entry_id!r}")
        if c.source not in terms[c.lang].get("sources", {}):
            problems.append(f"community.yaml: {c.q!r}: unknown source {c.source!r}")
        if c.heldout and _fold(c.q) in variants[c.lang]:
            problems.append(f"community.yaml: {c.q!r} is held out but is a variant in content/terms/{c.lang}.yaml")
    keys = [(c.q, c.lang) for c in cases if c.source != "book"]
    if len(keys) != len(set(keys)):
        problems.append("community.yaml: a query is listed twice")
    return problems


# --- measuring ------------------------------------------------------------------------------


@dataclass
class Run:
    case: Case
    rank: int | None
    ids: list[str]
    also_in_top10: bool | None = field(default=None)


def run(searcher: Searcher, cases: list[Case]) -> list[Run]:
    runs = []
    for c in cases:
        ids = [h.id for h in searcher.search(c.q, c.lang, 10).hits]
        also = tuple(a for a in c.also if not a.startswith("?"))
        runs.append(Run(c, rank_of(ids, c.expect), ids, (rank_of(ids, also) is not None) if also else None))
    return runs


def grouped(runs: list[Run], key) -> dict[str, Scores]:
    groups: dict[str, Scores] = defaultdict(Scores)
    for r in runs:
        for k in dict.fromkeys(key(r.case)):  # a query of lang "all" is counted once
            groups[k].add(r.rank)
    return dict(sorted(groups.items()))


def table(title: str, groups: dict[str, Scores]) -> str:
    lines = [f"| {title} | queries | MRR@10 | recall@5 |", "|---|---:|---:|---:|"]
    lines += [f"| {k} | {s.n} | {s.mrr:.3f} | {s.recall5:.3f} |" for k, s in groups.items()]
    return "\n".join(lines)


def main() -> int:
    verbose = "-v" in sys.argv[1:]
    project = load_project(ROOT, environ={})
    library, problems = load_library(project)
    if problems:
        print("\n".join(str(p) for p in problems[:10]), file=sys.stderr)
        return 1
    book, community, terms = load_cases(BOOK_QUERIES), load_cases(COMMUNITY_QUERIES), load_terms()
    data_problems = check_data(library, terms, community)
    for line in data_problems:
        print(line, file=sys.stderr)

    with tempfile.TemporaryDirectory() as tmp:
        build_index(project, library, Path(tmp) / "index")
        with Searcher(Path(tmp) / "index", project.languages, project.english) as searcher:
            book_runs, comm_runs = run(searcher, book), run(searcher, community)

    def by_lang(prefix: str):
        return lambda c: [f"{prefix} {c.lang}", f"{prefix} all"]

    overview = grouped(book_runs, by_lang("book's words")) | grouped(comm_runs, by_lang("community"))
    overview |= grouped([r for r in comm_runs if not r.case.heldout], by_lang("community, in the data"))
    overview |= grouped([r for r in comm_runs if r.case.heldout], by_lang("community, held out"))
    print(table("set", overview), end="\n\n")
    print(table("community kind", grouped(comm_runs, lambda c: [f"{c.lang} {c.kind}"])), end="\n\n")
    print(table("community source", grouped(comm_runs, lambda c: [f"{c.lang} {c.source}"])), end="\n\n")
    print(table("held out, kind", grouped([r for r in comm_runs if r.case.heldout],
                                          lambda c: [f"{c.lang} {c.kind}"])), end="\n\n")
    shared = [r for r in comm_runs if r.case.kind == "shared"]
    with_also = [r for r in shared if r.also_in_top10 is not None]
    print(f"shared words: this text's meaning first in {sum(r.rank == 1 for r in shared)}/{len(shared)}; "
          f"the other meaning, where it is an entry here, in the top 10 in "
          f"{sum(r.also_in_top10 for r in with_also)}/{len(with_also)}")
    if verbose:
        print("\nnot first:")
        for r in comm_runs:
            if r.rank != 1:
                flag = " (held out)" if r.case.heldout else ""
                print(f"  {r.case.lang} {r.case.kind:<17} {r.case.q!r}{flag}: want {'/'.join(r.case.expect)}, "
                      f"rank {r.rank}, got {r.ids[:3]}")
    return 1 if data_problems else 0


if __name__ == "__main__":
    sys.exit(main())
