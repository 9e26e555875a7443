"""The stemmers' JavaScript twins (``static/stemmers.js``) give Python's stems.

``tests/vectors/stemmers.json`` holds ``[word, stem]`` pairs made by the
Python functions the searcher uses (``scripts/stemmer_vectors.py`` writes
it).  Here: Python still gives every stem of the file, and in Chromium
every pair — and every word of the content as it is now, stemmed by Python
in the same run, so a content edit needs no new file — comes out of
stemmers.js the same, in a page and in a web worker.

Uses the ``library``, ``browser`` and ``serve_app`` fixtures of ``conftest.py``.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from pravila import analysis

REPO_DIR = Path(__file__).resolve().parents[1]
VECTORS_FILE = Path(__file__).parent / "vectors" / "stemmers.json"
GENERATOR = REPO_DIR / "scripts" / "stemmer_vectors.py"
STEMMERS_JS = Path(analysis.__file__).parent / "static" / "stemmers.js"
REGENERATE = "regenerate the vectors: .venv/bin/python scripts/stemmer_vectors.py"

VECTORS: dict[str, dict[str, list[list[str]]]] = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
ALGORITHMS = list(VECTORS)
SHOWN = 8  # mismatches shown in a failure message


def all_pairs(algorithm: str) -> list[list[str]]:
    return [pair for part in VECTORS[algorithm].values() for pair in part]


def shown(items: list[Any]) -> str:
    more = f" … and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(map(repr, items[:SHOWN])) + more


@pytest.fixture(scope="module")
def generator():
    spec = importlib.util.spec_from_file_location("stemmer_vectors", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fresh_content(generator, library) -> dict[str, list[list[str]]]:
    return generator.content_vectors(library)


# --- the file is current ------------------------------------------------------------


def test_the_vectors_cover_every_algorithm_of_the_generator(generator) -> None:
    assert ALGORITHMS == list(generator.ALGORITHMS), REGENERATE
    for algorithm, parts in VECTORS.items():
        assert set(parts) == {"content", "sample", "edge"}, algorithm
        assert all(parts.values()), f"{algorithm}: an empty part"


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_python_still_gives_every_stem_of_the_vectors(algorithm: str, generator) -> None:
    stem = generator.ALGORITHMS[algorithm][0]
    wrong = [(w, s, stem(w)) for w, s in all_pairs(algorithm) if stem(w) != s]
    assert not wrong, f"{algorithm}: (word, vector, Python now) {shown(wrong)} — {REGENERATE}"


# --- the JavaScript gives the same stems --------------------------------------------

# One function for the page and the worker: every pair of every algorithm,
# the mismatches back (the first few) with the counts.
CHECK = """(vectors) => {
  const out = {};
  for (const [algorithm, pairs] of Object.entries(vectors)) {
    const stem = self.PravilaStemmers[algorithm];
    const wrong = [];
    let count = 0;
    for (const [word, expected] of pairs) {
      const got = stem(word);
      if (got !== expected) wrong.push([word, expected, got]);
      count++;
    }
    out[algorithm] = {count, mismatches: wrong.length, first: wrong.slice(0, %d)};
  }
  return out;
}""" % SHOWN


def assert_same(algorithm: str, results: dict[str, Any], pairs: list[list[str]]) -> None:
    result = results[algorithm]
    assert result["count"] == len(pairs)
    assert result["mismatches"] == 0, (
        f"{algorithm}: {result['mismatches']} of {len(pairs)} stems differ from Python's; "
        f"the first (word, Python, JavaScript): {result['first']}"
    )


@pytest.fixture(scope="module")
def page_results(browser, fresh_content) -> dict[str, Any]:
    """All vectors, and the content's words as they are now, through stemmers.js in a blank page, in one evaluate."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>")
    page.add_script_tag(content=STEMMERS_JS.read_text(encoding="utf-8"))
    try:
        return page.evaluate(CHECK, {a: all_pairs(a) + fresh_content[a] for a in ALGORITHMS})
    finally:
        context.close()


@pytest.mark.browser
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_javascript_gives_pythons_stem_for_every_vector(algorithm: str, page_results, fresh_content) -> None:
    assert_same(algorithm, page_results, all_pairs(algorithm) + fresh_content[algorithm])


def _worker_app():
    from starlette.applications import Starlette
    from starlette.responses import HTMLResponse, Response
    from starlette.routing import Route

    js = "application/javascript; charset=utf-8"
    worker = f"importScripts('stemmers.js');\nconst check = {CHECK};\nonmessage = (e) => postMessage(check(e.data));\n"
    return Starlette(routes=[
        Route("/", lambda r: HTMLResponse("<!doctype html><meta charset='utf-8'><title>worker</title>")),
        Route("/stemmers.js", lambda r: Response(STEMMERS_JS.read_bytes(), media_type=js)),
        Route("/worker.js", lambda r: Response(worker, media_type=js)),
    ])


@pytest.mark.browser
def test_stemmers_work_in_a_web_worker_through_importscripts(browser, serve_app) -> None:
    base = serve_app(_worker_app())
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(base + "/")
        results = page.evaluate(
            """(vectors) => new Promise((resolve, reject) => {
                const worker = new Worker("worker.js");
                worker.onmessage = (e) => resolve(e.data);
                worker.onerror = (e) => reject(new Error("worker: " + e.message));
                worker.postMessage(vectors);
            })""",
            {a: VECTORS[a]["content"] for a in ALGORITHMS},
        )
    finally:
        context.close()
    for algorithm in ALGORITHMS:
        assert_same(algorithm, results, VECTORS[algorithm]["content"])
