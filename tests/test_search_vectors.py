"""The search in the browser gives the Python searcher's answers: same entries, same order.

``tests/vectors/search.json`` (``scripts/search_vectors.py``) holds the
Python searcher's answers to both relevance sets (in their language and in
all) and the odd queries of ``tests/vectors/search-cases.yaml``.  Here:

- the file is current: Python still gives every answer of it;
- in Chromium, the built site's search worker (``static/search-worker.js``
  with ``search-engine.js`` on the data ``pravila build`` wrote), called
  directly, answers every query of the file with the entries, order, total,
  scores and snippets the Python searcher gives on the same build.

Uses the ``built_project``, ``browser`` and ``serve_app`` fixtures of ``conftest.py``.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from helpers import searcher as open_searcher

REPO_DIR = Path(__file__).resolve().parents[1]
VECTORS_FILE = Path(__file__).parent / "vectors" / "search.json"
GENERATOR = REPO_DIR / "scripts" / "search_vectors.py"
REGENERATE = "regenerate the vectors: .venv/bin/python scripts/search_vectors.py"
SHOWN = 6

VECTORS: dict[str, Any] = json.loads(VECTORS_FILE.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = VECTORS["cases"]


@pytest.fixture(scope="module")
def generator():
    spec = importlib.util.spec_from_file_location("search_vectors", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_vectors_cover_both_relevance_sets_and_the_odd_cases(generator) -> None:
    queries = generator.queries()
    assert [(c["q"], c["lang"], c["limit"]) for c in CASES] == [(q["q"], q["lang"], q["limit"]) for q in queries], REGENERATE
    assert len(CASES) >= 500
    assert sum(1 for c in CASES if c.get("error")) == 2  # a NUL, and 201 characters
    assert sum(1 for c in CASES if not c.get("error") and not c["hits"]) >= 5  # queries that find nothing count too


def test_python_still_gives_every_answer_of_the_vectors(generator, project) -> None:
    fresh = generator.vectors(project)
    assert fresh["content"] == VECTORS["content"], f"the content changed since the vectors were written: {REGENERATE}"
    wrong = [(c["q"], c["lang"], c.get("hits"), f.get("hits")) for c, f in zip(CASES, fresh["cases"]) if c != f]
    assert not wrong, f"{len(wrong)} answers changed, the first: {wrong[:3]} — {REGENERATE}"


# --- the browser -----------------------------------------------------------------------------------

ASK_ALL = """async (cases) => {
  const worker = new Worker("assets/pravila/search-worker.js?lang=ru");
  const waiting = new Map();
  worker.onmessage = (e) => {
    if (e.data && e.data.type === "pravila/result") { waiting.get(e.data.id)(e.data); waiting.delete(e.data.id); }
  };
  const ask = (c, id) => new Promise((resolve) => {
    waiting.set(id, resolve);
    worker.postMessage({type: "pravila/search", id, q: c.q, lang: c.lang, limit: c.limit});
  });
  const out = [];
  const started = performance.now();
  for (let i = 0; i < cases.length; i++) out.push(await ask(cases[i], i));
  const ms = performance.now() - started;
  worker.terminate();
  return {out, ms};
}"""


@pytest.fixture(scope="module")
def worker_answers(browser, built_project, serve_app) -> dict[str, Any]:
    """Every query of the vectors, asked of the built site's search worker (from a page of the Russian site)."""
    from pravila.server import create_app

    base = serve_app(create_app(built_project, api=False))
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(base + "/ru/")
        return page.evaluate(ASK_ALL, [{"q": c["q"], "lang": c["lang"], "limit": c["limit"]} for c in CASES])
    finally:
        context.close()


@pytest.fixture(scope="module")
def python_answers(built_project) -> list[dict[str, Any]]:
    """The Python searcher's answers to the same queries on the same build (snippets included)."""
    from pravila.errors import QueryError

    out = []
    with open_searcher(built_project.index_dir, built_project) as searcher:
        for case in CASES:
            try:
                out.append(searcher.search(case["q"], case["lang"], case["limit"]).to_dict())
            except QueryError:
                out.append({"error": True})
    return out


def answer(reply: dict[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        return {"error": True}
    result = reply["result"]
    return {"total": result["total"], "hits": [(h["lang"], h["id"], h["score"], h["snippet"]) for h in result["hits"]]}


@pytest.mark.browser
def test_the_worker_finds_what_python_finds_in_the_same_order(worker_answers, python_answers) -> None:
    mismatches = []
    for case, reply, python in zip(CASES, worker_answers["out"], python_answers):
        assert not reply.get("offline"), f"{case['q']!r}: the worker could not load its data: {reply.get('error')}"
        ours = {"error": True} if "error" in python else {
            "total": python["total"], "hits": [(h["lang"], h["id"], h["score"], h["snippet"]) for h in python["hits"]]}
        if answer(reply) != ours:
            mismatches.append((case["q"], case["lang"], [h[:2] for h in ours.get("hits", [])][:4],
                               [h[:2] for h in answer(reply).get("hits", [])][:4]))
    assert not mismatches, f"{len(mismatches)} of {len(CASES)} queries differ (query, lang, Python, JavaScript): {mismatches[:SHOWN]}"


@pytest.mark.browser
def test_the_worker_answers_the_vectors_ids_in_order(worker_answers) -> None:
    """The contract file itself (current, by the test above): same entries in the same order, same totals."""
    wrong = []
    for case, reply in zip(CASES, worker_answers["out"]):
        got = answer(reply)
        want = {"error": True} if case.get("error") else {"total": case["total"], "ids": [h[0] for h in case["hits"]]}
        have = got if "error" in got else {"total": got["total"], "ids": [f"{h[0]}:{h[1]}" for h in got["hits"]]}
        if have != want:
            wrong.append((case["q"], case["lang"], want, have))
    assert not wrong, f"{len(wrong)} differ from {VECTORS_FILE.name}: {wrong[:SHOWN]} — if Python changed, {REGENERATE}"
    print(f"\n{len(CASES)} queries in the worker: {worker_answers['ms']:.0f} ms in all")
