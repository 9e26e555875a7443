"""Write the search's shared vectors (tests/vectors/search.json): queries and the Python searcher's answers.

    .venv/bin/python scripts/search_vectors.py [--check]

Run it after changing the search (Python or JavaScript) or the content,
a few seconds; ``--check`` writes nothing and says whether the file is
current.  ``tests/test_search_vectors.py`` fails until it is.

The file is the contract between the Python searcher (the reference) and
its JavaScript twin (``src/pravila/static/search-engine.js``, searching the
data ``pravila build`` writes): for each query, the entries the searcher
finds, in order, with their scores, and how many matched.  The queries:
both relevance sets (``tests/relevance/queries.yaml`` and
``community.yaml``), each in its own language and in all languages, and the
odd ones of ``tests/vectors/search-cases.yaml``.  A refused query (a NUL,
over 200 characters) has ``"error": true``.

``content`` is a fingerprint of the content the answers were computed on.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

from pravila.content import load_library
from pravila.errors import QueryError
from pravila.project import load_project
from pravila.search import Searcher, build_index
from pravila.search.browser import content_version

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "vectors" / "search.json"
CASES = ROOT / "tests" / "vectors" / "search-cases.yaml"
RELEVANCE = [ROOT / "tests" / "relevance" / "queries.yaml", ROOT / "tests" / "relevance" / "community.yaml"]


def queries() -> list[dict[str, Any]]:
    """Every query of the vectors: (q, lang, limit), in a fixed order, each once."""
    out: dict[tuple[str, str, int], dict[str, Any]] = {}
    for path in RELEVANCE:
        for item in yaml.safe_load(path.read_text(encoding="utf-8"))["queries"]:
            for lang in dict.fromkeys((item["lang"], "all")):
                out.setdefault((item["q"], lang, 10), {"q": item["q"], "lang": lang, "limit": 10})
    for item in yaml.safe_load(CASES.read_text(encoding="utf-8"))["cases"]:
        q = item["repeat"][0] * item["repeat"][1] if "repeat" in item else item["q"]
        limit = int(item.get("limit", 10))
        out.setdefault((q, item["lang"], limit), {"q": q, "lang": item["lang"], "limit": limit})
    return list(out.values())


def answers(searcher: Searcher, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for case in cases:
        try:
            result = searcher.search(case["q"], case["lang"], case["limit"])
        except QueryError:
            out.append({**case, "error": True})
            continue
        out.append({**case, "total": result.total, "hits": [[f"{h.lang}:{h.id}", h.score] for h in result.hits]})
    return out


def vectors(project) -> dict[str, Any]:
    """The vectors for a project's content, computed on an index built into a temporary folder."""
    library, problems = load_library(project)
    if problems:
        raise SystemExit("the content has problems; run 'pravila check'")
    with tempfile.TemporaryDirectory() as tmp:
        build_index(project, library, Path(tmp) / "index")
        with Searcher(Path(tmp) / "index", project.languages, project.english) as searcher:
            return {"content": content_version(project), "cases": answers(searcher, queries())}


def dumps(data: dict[str, Any]) -> str:
    lines = [f'{{"content": {json.dumps(data["content"])}, "cases": [']
    lines += [json.dumps(case, ensure_ascii=False) + "," for case in data["cases"]]
    lines[-1] = lines[-1].rstrip(",")
    return "\n".join(lines) + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 when the file is not current")
    args = parser.parse_args(argv)
    project = load_project(ROOT, environ={}, cwd=ROOT)
    text = dumps(vectors(project))
    if args.check:
        current = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(ROOT)} is {'current' if current else 'NOT current: run scripts/search_vectors.py'}")
        return 0 if current else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: {text.count(chr(10)) - 2} queries")
    return 0


if __name__ == "__main__":
    sys.exit(main())
