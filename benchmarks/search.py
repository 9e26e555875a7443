"""Search speed, measured: query latency and index build time.

    .venv/bin/python benchmarks/search.py [--entries 10000,50000] [--rounds 3] [--skip-http]

Corpora:

- the real content (both chapters);
- generated corpora of ``--entries`` entries per language (each size in
  turn), made from the real content's sentences, titles and names (so the
  vocabulary, word frequencies and morphology are real, at 100-600x the size).

Queries: the relevance set (tests/relevance/queries.yaml): one first pass
with fresh caches (the process warmed up: morphology loaded, index open),
then ``--rounds`` warm passes.  Warm figures are the p50/p95 over the queries
of each query's median over the warm passes; first-pass figures the p50/p95
of each query's one time.  For each corpus it prints that latency of
``Searcher.search`` in process,
of ``GET /api/search`` over HTTP (uvicorn on a free port, one keep-alive
client), and of SQLite FTS5 (``unicode61 remove_diacritics 2``, bm25 with the
same field weights, the same AND-then-OR strategy) on the same entries and
queries in the same run, plus the ratio.  Also the index build times.

A benchmark, not a test: it prints figures, it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import socket
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import yaml

from pravila.content import Chapter, Entry, Library, load_library
from pravila.search import build_index
from pravila.project import Project, load_project
from pravila.search import Searcher

ROOT = Path(__file__).resolve().parents[1]
QUERIES = ROOT / "tests" / "relevance" / "queries.yaml"


# --- corpora ----------------------------------------------------------------------


class _NoLinksLibrary(Library):
    """A library whose entries link nowhere: backlinks without the O(n²) scan."""

    def backlinks(self, entry: Entry) -> list[Entry]:
        return []


def generated_library(real: Library, per_lang: int, seed: int = 7) -> Library:
    """``per_lang`` entries per language, built from the real content's own words."""
    rng = random.Random(seed)
    chapters, entries = [], []
    for lang in ("ru", "cs"):
        source = real.in_lang(lang)
        sentences = [s for e in source for s in re.split(r"(?<=[.!?])\s+", real.text(e)) if len(s) > 20]
        title_words = [w for e in source for w in e.title.split()] + [w for e in source for a in e.aliases for w in a.split()]
        names = [e.en for e in source] + [a for e in source for a in e.aliases if a.isascii()]
        chapter = Chapter("generated", lang, "Generated", "Generated", 2024, "benchmark", "none.txt", f"generated/{lang}.yaml")
        chapters.append(chapter)
        for i in range(per_lang):
            title = " ".join(rng.sample(title_words, rng.randint(1, 4))).capitalize()
            body = "\n\n".join(" ".join(rng.sample(sentences, rng.randint(1, 3))) for _ in range(rng.randint(1, 3)))
            entries.append(
                Entry(
                    id=f"gen-{i}", lang=lang, title=title, en=rng.choice(names), chapter=chapter, edition=2024,
                    source="benchmark", file=chapter.file, line=i + 1,
                    aliases=tuple(rng.sample(title_words, rng.randint(0, 3))), kind="rule", body=body,
                )
            )
    return _NoLinksLibrary(chapters, entries, real.content_dir)


def load_queries() -> list[tuple[str, str]]:
    data = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))
    return [(q["q"], q["lang"]) for q in data["queries"]]


# --- timing ------------------------------------------------------------------------


def percentiles(samples: list[float] | list[list[float]]) -> tuple[float, float]:
    """(p50, p95) in milliseconds over the queries (of each query's median, when it ran several times)."""
    ordered = sorted(statistics.median(s) if isinstance(s, list) else s for s in samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return statistics.median(ordered) * 1000, p95 * 1000


def time_calls(call, queries, rounds: int) -> tuple[list[float], list[list[float]]]:
    """(first pass, warm passes): each query's time on fresh caches, then its ``rounds`` more times."""
    call("разминка zahřátí warmup", "all")  # load the morphology and open the index, nothing else
    first = []
    for q, lang in queries:
        started = time.perf_counter()
        call(q, lang)
        first.append(time.perf_counter() - started)
    warm: list[list[float]] = [[] for _ in queries]
    for _ in range(rounds):
        for times, (q, lang) in zip(warm, queries):
            started = time.perf_counter()
            call(q, lang)
            times.append(time.perf_counter() - started)
    return first, warm


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http_samples(project: Project, queries, rounds: int) -> tuple[list[float], list[list[float]]]:
    """Latency of GET /api/search through a real uvicorn server."""
    import httpx
    import uvicorn
    from starlette.applications import Starlette

    from pravila.api import api_routes

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=api_routes(project)), host="127.0.0.1", port=port,
                                           log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            for _ in range(100):
                try:
                    if client.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)

            def call(q: str, lang: str) -> None:
                r = client.get("/api/search", params={"q": q, "lang": lang, "limit": 10})
                r.raise_for_status()

            return time_calls(call, queries, rounds)
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class Fts5:
    """SQLite FTS5 on the same entries: unicode61 with diacritics removed, bm25 with our field weights."""

    WEIGHTS = (4.0, 2.5, 3.0, 1.0)  # title, aliases, en, body

    def __init__(self, library: Library):
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute(
            "CREATE VIRTUAL TABLE e USING fts5(title, aliases, en, body, lang UNINDEXED, id UNINDEXED, "
            "tokenize = 'unicode61 remove_diacritics 2')"
        )
        started = time.perf_counter()
        with self.db:
            self.db.executemany(
                "INSERT INTO e VALUES (?, ?, ?, ?, ?, ?)",
                ((x.title, "\n".join(x.aliases), x.en, library.text(x), x.lang, x.id) for x in library.entries),
            )
        self.build_seconds = time.perf_counter() - started

    def search(self, q: str, lang: str, limit: int = 10) -> list[str]:
        words = list(dict.fromkeys(w.lower() for w in re.findall(r"[^\W_]+", q)))
        if not words:
            return []
        quoted = ['"' + w.replace('"', '""') + '"' for w in words]
        where = "e MATCH ?" + ("" if lang == "all" else " AND lang = ?")
        sql = f"SELECT id FROM e WHERE {where} ORDER BY bm25(e, {', '.join(map(str, self.WEIGHTS))}) LIMIT {limit}"
        args = [" AND ".join(quoted)] + ([] if lang == "all" else [lang])
        ids = [r[0] for r in self.db.execute(sql, args)]
        if len(ids) < limit and len(words) > 1:
            args[0] = " OR ".join(quoted)
            ids += [r[0] for r in self.db.execute(sql, args) if r[0] not in ids]
        return ids[:limit]


# --- the run ----------------------------------------------------------------------------


def run_corpus(name: str, library: Library, queries, rounds: int, http: bool) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="pravila-bench-") as tmp:
        project = load_project(ROOT, build=Path(tmp), environ={})
        started = time.perf_counter()
        docs = build_index(project, library)
        build_seconds = time.perf_counter() - started
        with Searcher.for_project(project) as searcher:
            ours = time_calls(lambda q, lang: searcher.search(q, lang, 10), queries, rounds)
        web = http_samples(project, queries, rounds) if http else None
        fts = Fts5(library)
        theirs = time_calls(fts.search, queries, rounds)

    def row(engine: str, samples: tuple[list[float], list[list[float]]], build: str) -> str:
        (f50, f95), (w50, w95) = percentiles(samples[0]), percentiles(samples[1])
        return f"| {name} | {docs} | {engine} | {w50:.2f} | {w95:.2f} | {f50:.2f} | {f95:.2f} | {build} |"

    rows = [row("Whoosh + our scoring, in process", ours, f"{build_seconds:.1f} s")]
    if web:
        rows.append(row("the same through HTTP /api/search", web, ""))
    rows.append(row("SQLite FTS5, in process", theirs, f"{fts.build_seconds:.1f} s"))
    (o50, o95), (t50, t95) = percentiles(ours[1]), percentiles(theirs[1])
    (p50, p95), (q50, q95) = percentiles(ours[0]), percentiles(theirs[0])
    rows.append(f"| {name} | | ratio ours / FTS5 | {o50 / t50:.1f}× | {o95 / t95:.1f}× | {p50 / q50:.1f}× | {p95 / q95:.1f}× | |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", default="10000,50000",
                        help="Generated entries per language, one corpus per number (default 10000,50000).")
    parser.add_argument("--rounds", type=int, default=3, help="Timed passes over the query set (default 3).")
    parser.add_argument("--skip-http", action="store_true", help="Do not time the HTTP API.")
    args = parser.parse_args(argv)

    real, problems = load_library(load_project(ROOT, environ={}))
    if problems:
        print(f"the content has {len(problems)} problem(s); run 'pravila check'", file=sys.stderr)
        return 1
    queries = load_queries()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{len(queries)} queries: a first pass on fresh caches, then {args.rounds} warm passes; "
          f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.1f}", flush=True)
    rows = ["| corpus | entries | engine | warm p50 ms | warm p95 ms | first pass p50 ms | first pass p95 ms | index build |",
            "|---|---:|---|---:|---:|---:|---:|---:|"]
    rows += run_corpus("real content", real, queries, args.rounds, not args.skip_http)
    print("\n".join(rows), flush=True)
    for size in (int(n) for n in args.entries.split(",") if n.strip()):
        generated = generated_library(real, size)
        print("\n".join(run_corpus(f"generated {size}/lang", generated, queries, args.rounds, not args.skip_http)), flush=True)
        del generated
    return 0


if __name__ == "__main__":
    sys.exit(main())
