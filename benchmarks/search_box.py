"""The site's search box, measured: relevance typed into the box, the search data's weight, its growth.

    .venv/bin/python benchmarks/search_box.py [--build-dir DIR] [--entries 1000,5000,10000] [--skip-growth] [-v]

1. Builds the sites (``pravila build``) into a temporary folder (or uses ``--build-dir``).
2. **Weight**: each language's search data, raw and gzipped, and its parts
   (postings and lengths, entries, the table of word forms); what each
   language site's service worker keeps (files, bytes, gzipped).
3. **Relevance in the box**: serves ``build/site`` with a plain static server
   (``python -m http.server``) and with ``pravila serve``, and types every query
   of the development relevance set (``tests/relevance/queries.yaml``) into
   the search box of its language's site in Chromium, key by key (CDP key
   events: Material reads the box on keyup), then reads the entries the box
   lists (the first 10, as Material shows them).  Side by side: the API's
   answers to the same queries (the Python searcher, in process, as the box
   asks: the site's language, then all languages when that finds nothing,
   20 hits) and the relevance test's figure (each query's own language, 10
   hits).  MRR@10 and recall@5 per server, how many queries the box lists
   otherwise than the API, and the time from the last key to the results.
4. **Growth** (unless ``--skip-growth``): the generated corpora of
   ``benchmarks/search.py`` (the real chapters' sentences, titles and names)
   at ``--entries`` entries per language: the search data's size per
   language, gzipped, and its growth per 1 000 entries; for the largest, what
   the browser pays (in Chromium: fetching and parsing the data and building
   the engine, then the development set's queries, p50/p95).

A benchmark, not a test: it prints figures, it asserts nothing.  Loopback only.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "tests"))
from serving import HOST, free_port, percentile, pravila, start_http_server, start_pravila_serve  # noqa: E402
from test_relevance import Scores, rank_of  # noqa: E402 — one definition of the measures, the suite's
QUERIES = REPO / "tests" / "relevance" / "queries.yaml"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update", "--no-first-run",
                 "--disable-dev-shm-usage"]
BOX_LIMIT = 20  # search-worker.js asks for 20
SHOWN = 10  # Material lists 10 at once


# --- relevance --------------------------------------------------------------------------------------


def scores(ranks: list[int | None]) -> tuple[float, float]:
    measured = Scores()
    for rank in ranks:
        measured.add(rank)
    return measured.mrr, measured.recall5


def site_of(case: dict) -> str:
    """The site a reader types the query in: its language's, or for a query of all languages the site of the
    entry it must find (``site`` is set by :func:`main` from the content)."""
    return case["lang"] if case["lang"] != "all" else case["site"]


def api_answers(searcher, cases: list[dict]) -> tuple[list[list[str]], list[list[str]]]:
    """(as the box asks: site language then all, 20 hits; as the relevance test asks: own language, 10 hits)."""
    boxlike, plain = [], []
    for case in cases:
        result = searcher.search(case["q"], site_of(case), BOX_LIMIT)
        if not result.hits:
            result = searcher.search(case["q"], "all", BOX_LIMIT)
        boxlike.append([f"{h.lang}:{h.id}" for h in result.hits][:SHOWN])
        plain.append([f"{h.lang}:{h.id}" for h in searcher.search(case["q"], case["lang"], 10).hits])
    return boxlike, plain


TYPE_AND_READ = """async ([text, limit]) => {
  const result = document.querySelector('.md-search-result');
  const deadline = performance.now() + 15000;
  while (result.getAttribute('data-pv-query') !== text && performance.now() < deadline)
    await new Promise((r) => setTimeout(r, 5));
  return Array.from(document.querySelectorAll('.md-search-result__item a.md-search-result__link'))
    .slice(0, limit).map((a) => a.href);
}"""


def entry_of(href: str) -> str:
    path, _, anchor = href.partition("#")
    lang = next(part for part in path.split("/") if part in ("ru", "cs"))
    return f"{lang}:{anchor}"


def type_all(browser, base: str, cases: list[dict]) -> tuple[list[list[str]], list[float]]:
    """Type each query into its site's box, key by key; the entries listed and the ms from the last key to them."""
    context = browser.new_context(locale="ru-RU", service_workers="block")
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    shown, times, site = [], [], None
    try:
        for case in cases:
            if site_of(case) != site:
                site = site_of(case)
                page.goto(f"{base}/{site}/")
                page.locator("input[data-md-component=search-query]").focus()
            page.evaluate("document.querySelector('input[data-md-component=search-query]').value = ''")
            for ch in case["q"]:
                cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": ch, "text": ch, "unmodifiedText": ch})
                cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": ch})
            started = time.perf_counter()
            hrefs = page.evaluate(TYPE_AND_READ, [case["q"].strip(), SHOWN])
            times.append((time.perf_counter() - started) * 1000)
            shown.append([entry_of(h) for h in hrefs])
    finally:
        context.close()
    return shown, times


# --- weight ------------------------------------------------------------------------------------------


def gz(data: bytes) -> int:
    return len(gzip.compress(data, 9))


def weight(site_dir: Path, codes: list[str]) -> None:
    from pravila.offline import precache
    from pravila.search.browser import encode

    print("\n## The search data (gzip -9)\n")
    print("| language | raw KB | gzipped KB | postings and lengths | entries | word forms (groups / words) |")
    print("|---|---:|---:|---:|---:|---:|")
    manifest = json.loads((site_dir / codes[0] / "assets/pravila/search/index.json").read_text(encoding="utf-8"))
    for code in codes:
        entry = manifest["languages"][code]
        if entry.get("api"):
            print(f"| {code} | | | searched through the API | | |")
            continue
        blob = (site_dir / codes[0] / "assets/pravila/search" / entry["data"]).read_bytes()
        data = json.loads(blob)
        words = sum(len(g[3].split(" ")) for g in data["forms"])
        print(f"| {code} | {len(blob) / 1024:.0f} | {gz(blob) / 1024:.1f} | {gz(encode(data['fields'])) / 1024:.1f} | "
              f"{gz(encode(data['docs'])) / 1024:.1f} | {gz(encode(data['forms'])) / 1024:.1f} ({len(data['forms'])} / {words}) |")
    print("\n## What each site's service worker keeps\n")
    print("| site | files | raw KB | gzipped KB (file by file) |")
    print("|---|---:|---:|---:|")
    for code in codes:
        site = site_dir / code
        files = precache(site)
        paths = [site / (url + "index.html" if url.endswith("/") else url) if url != "./" else site / "index.html"
                 for url, _ in files]
        raw = sum(p.stat().st_size for p in paths)
        print(f"| {code} | {len(files)} | {raw / 1024:.0f} | {sum(gz(p.read_bytes()) for p in paths) / 1024:.0f} |")


# --- growth ------------------------------------------------------------------------------------------


ENGINE_COST = """async ([files, queries]) => {
  let t = performance.now();
  const manifest = await (await fetch('index.json')).json();
  const datas = [];
  for (const f of files) datas.push(await (await fetch(f)).json());
  const parsed = performance.now() - t;
  t = performance.now();
  const engine = new PravilaSearch.Engine(manifest, datas);
  const built = performance.now() - t;
  const times = [];
  for (const [q, lang] of queries) {
    const s = performance.now();
    engine.search(q, lang === 'all' ? 'all' : lang, 20);
    times.push(performance.now() - s);
  }
  return {parsed, built, times};
}"""


def growth(sizes: list[int], browser, real, project_factory) -> None:
    sys.path.insert(0, str(HERE))
    from search import generated_library  # benchmarks/search.py: the same generated corpora

    from pravila.search import write_generation
    from pravila.search.browser import encode, prepare_browser_search, write_browser_search

    print("\n## Growth: the generated corpora (gzip -9)\n")
    print("| entries per language | ru KB | cs KB | ru: postings and lengths / entries / word forms KB | data written in |")
    print("|---:|---:|---:|---:|---:|")
    rows = []
    largest = None
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            project = project_factory(Path(tmp))
            library = generated_library(real, n)
            started = time.perf_counter()
            generation, _ = write_generation(project, library, Path(tmp) / "index")
            prepared = prepare_browser_search(project, generation, max_bytes=2**40)
            seconds = time.perf_counter() - started
            kb = {f.lang: f.gzipped / 1024 for f in prepared.files}
            rows.append((n, kb))
            ru = json.loads(prepared.blobs[next(f.name for f in prepared.files if f.lang == "ru")])
            parts = " / ".join(f"{gz(encode(ru[part])) / 1024:.0f}" for part in ("fields", "docs", "forms"))
            print(f"| {n} | {kb['ru']:.0f} | {kb['cs']:.0f} | {parts} | {seconds:.0f} s (index and data) |")
            if n == max(sizes):
                site = Path(tmp) / "site"
                for code in project.codes:
                    (site / code).mkdir(parents=True)
                write_browser_search(project, prepared, site)
                largest = engine_cost(browser, site / "ru" / "assets/pravila/search", prepared, n)
    if len(rows) > 1:
        (n0, a), (n1, b) = rows[0], rows[-1]
        per = {code: (b[code] - a[code]) / (n1 - n0) * 1000 for code in a}
        print(f"\nGrowth per 1 000 entries: ru {per['ru']:.0f} KB, cs {per['cs']:.0f} KB gzipped.")
    if largest:
        print(largest)


def engine_cost(browser, folder: Path, prepared, n: int) -> str:
    import shutil

    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles
    import threading
    import uvicorn

    static = REPO / "src" / "pravila" / "static"
    for name in ("stemmers.js", "search-engine.js"):
        shutil.copy(static / name, folder / name)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(Starlette(routes=[Mount("/", StaticFiles(directory=folder))]), host=HOST,
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"http://{HOST}:{port}/index.json")
        page.add_script_tag(url="stemmers.js")
        page.add_script_tag(url="search-engine.js")
        queries = [(c["q"], c["lang"]) for c in yaml.safe_load(QUERIES.read_text(encoding="utf-8"))["queries"]]
        cost = page.evaluate(ENGINE_COST, [[f.name for f in prepared.files if f.name], queries])
        context.close()
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    times = sorted(cost["times"])
    return (f"\nIn Chromium at {n} entries per language (both languages loaded): fetching and parsing the data "
            f"{cost['parsed']:.0f} ms, building the engine {cost['built']:.0f} ms; the development set's "
            f"{len(times)} queries p50 {percentile(times, 50):.1f} ms, p95 {percentile(times, 95):.1f} ms "
            f"(the first query of a word computes its postings' scores).")


# --- main --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", type=Path, help="use this build folder (built first) instead of a temporary one")
    parser.add_argument("--entries", default="1000,5000,10000", help="generated corpus sizes per language, for growth")
    parser.add_argument("--skip-growth", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the queries the box answers otherwise than the API")
    args = parser.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from helpers import repo_project, searcher as open_searcher
    from pravila.content import load_library

    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    cases = yaml.safe_load(QUERIES.read_text(encoding="utf-8"))["queries"]
    library, _ = load_library(repo_project())
    for case in cases:
        first = case["expect"][0] if isinstance(case["expect"], list) else case["expect"]
        case["site"] = next(code for code in ("ru", "cs") if library.get(code, first))
    with tempfile.TemporaryDirectory() as tmp:
        build_dir = args.build_dir or Path(tmp) / "build"
        serve_port, static_port = free_port(), free_port()
        project = repo_project(build=build_dir, site_url=f"http://{HOST}:{serve_port}/")
        env_site = ["--build-dir", str(build_dir), "--site-url", project.site_url]
        started = time.perf_counter()
        subprocess.run(pravila("build", *env_site), cwd=REPO, check=True, capture_output=True)
        print(f"built in {time.perf_counter() - started:.1f} s")
        weight(project.site_dir, list(project.codes))

        with open_searcher(project.index_dir, project) as searcher:
            boxlike, plain = api_answers(searcher, cases)
        expect = [tuple(c["expect"]) if isinstance(c["expect"], list) else (c["expect"],) for c in cases]
        rows = [("the API, as the relevance test asks (own language, 10 hits)", plain, None),
                ("the API, as the box asks (site language, then all; first 10 of 20)", boxlike, None)]
        # The servers start before the browser: their readiness checks run an event loop of their own,
        # which Playwright's sync API (an event loop in this thread) does not allow inside its block.
        with start_http_server(project.site_dir, static_port, Path(tmp) / "static.log"), \
                start_pravila_serve(build_dir, serve_port, [], Path(tmp) / "serve.log"), \
                sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
            shown, times = type_all(browser, f"http://{HOST}:{static_port}", cases)
            rows.append(("the box on a static host (python -m http.server)", shown, times))
            shown, times = type_all(browser, f"http://{HOST}:{serve_port}", cases)
            rows.append(("the box under pravila serve", shown, times))
            print(f"\n## The development set typed into the box ({len(cases)} queries)\n")
            print("| answered by | MRR@10 | recall@5 | lists otherwise than the API | last key → results p50 / p95 ms |")
            print("|---|---:|---:|---:|---:|")
            for name, answers, ms in rows:
                mrr, r5 = scores([rank_of([i.split(":", 1)[1] for i in ids], e) for ids, e in zip(answers, expect)])
                differ = sum(1 for a, b in zip(answers, boxlike) if a != b)
                timing = f"{percentile(sorted(ms), 50):.0f} / {percentile(sorted(ms), 95):.0f}" if ms else ""
                print(f"| {name} | {mrr:.3f} | {r5:.3f} | {differ if ms else ''} | {timing} |")
                if args.verbose and ms:
                    for case, a, b in zip(cases, answers, boxlike):
                        if a != b:
                            print(f"  {case['q']!r}: box {a[:4]}, API {b[:4]}")
            if not args.skip_growth:
                growth([int(n) for n in args.entries.split(",")], browser, library,
                       lambda folder: repo_project(build=folder / "build", site_url=project.site_url))
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
