"""The searcher and the index on disk: another layout, a corrupt file, a rebuild that cannot be opened.

Each is an :class:`IndexUnavailable` saying to rebuild (the API answers 503, the
CLI one line), a log line, and :meth:`Searcher.stats` failing too (so /healthz
says not ok) — never a traceback, never a dead process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.applications import Starlette

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from helpers import ROOT, index_library, repo_project, searcher
from pravila.api import api_routes
from pravila.cli import main
from pravila.content import Chapter, Entry, Library
from pravila.search import IndexUnavailable, generations_dir
from pravila.search.generations import FORMAT, FORMAT_FILE


def library_of(tmp_path: Path, bodies: dict[str, str]) -> Library:
    chapter = Chapter("test", "cs", "Test", "Test", 2024, "test", "none.txt", "cs/test.yaml")
    entries = [Entry(id=i, lang="cs", title=i, en=i, chapter=chapter, edition=2024, source="test", file=chapter.file,
                     line=n, body=body) for n, (i, body) in enumerate(bodies.items(), 1)]
    return Library([chapter], entries, tmp_path)


def ids(result) -> list[str]:
    return [h.id for h in result.hits]


def old_layout(build: Path) -> Path:
    """An index folder as the previous layout wrote it: format 2, one Whoosh index, analyzers from pravila.index."""
    generation = generations_dir(build / "index") / "20260101-000000-old"
    generation.mkdir(parents=True)
    (generation / FORMAT_FILE).write_text(json.dumps({"format": "pravila-index-2", "languages": ["ru", "cs"]}))
    (generation / "_MAIN_1.toc").write_bytes(b"\x80\x04cpravila.index\nKeysFilter\n")  # names a class that is gone
    os.symlink(os.path.relpath(generation, build), build / "index")
    return build


def test_an_index_of_another_layout_says_rebuild(tmp_path, caplog):
    build = old_layout(tmp_path)
    with searcher(build / "index") as s:
        with pytest.raises(IndexUnavailable, match="another version of Pravila.*pravila build"):
            s.search("drak", "cs")
        with pytest.raises(IndexUnavailable, match="pravila build"):
            s.stats()
        with pytest.raises(IndexUnavailable, match="pravila build"):
            s.entry("cs", "old")
    assert any("pravila build" in r.getMessage() for r in caplog.records if r.name == "pravila.search")


def test_the_cli_and_the_api_say_rebuild_for_another_layout(tmp_path):
    build = old_layout(tmp_path)
    result = CliRunner().invoke(main, ["search", "drak", "--build-dir", str(build)])
    assert result.exit_code == 1 and "pravila build" in result.output and "Traceback" not in result.output
    done = subprocess.run([sys.executable, "-m", "pravila", "search", "drak", "--build-dir", str(build)],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 1 and len(done.stderr.splitlines()) == 1, done.stderr  # one line, not a log line too
    assert done.stderr.startswith("Error: ") and "pravila build" in done.stderr
    with TestClient(Starlette(routes=api_routes(repo_project(build=build)))) as client:
        for path in ("/api/search?q=drak", "/healthz", "/api/entries/cs/old"):
            r = client.get(path)
            assert r.status_code == 503, path
            assert "pravila build" in r.json()["error"]


def test_a_rebuild_that_cannot_be_opened_keeps_the_old_index_and_shows_in_stats(tmp_path, caplog):
    folder = tmp_path / "index"
    index_library(library_of(tmp_path, {"old": "Pravidlo o drakovi."}), folder)
    with searcher(folder) as s:
        assert s.stats()["entries"]["cs"] == 1
        broken = generations_dir(folder) / "broken"
        broken.mkdir()
        (broken / FORMAT_FILE).write_text(json.dumps({"format": FORMAT, "languages": ["ru", "cs"]}))
        tmp_link = tmp_path / "link"
        os.symlink(os.path.relpath(broken, tmp_path), tmp_link)
        os.replace(tmp_link, folder)
        assert ids(s.search("drak", "cs")) == ["old"]  # still answering from the generation it has
        with pytest.raises(IndexUnavailable, match="cannot open the search index"):
            s.stats()
        assert any("cannot switch" in r.getMessage() for r in caplog.records)
        index_library(library_of(tmp_path, {"new": "Pravidlo o jednorožci."}), folder)
        assert ids(s.search("jednorožec", "cs")) == ["new"]
        assert s.stats()["entries"]["cs"] == 1


def test_a_segment_file_truncated_under_a_searcher_is_an_error_not_a_crash(tmp_path):
    """In a process of its own: with memory-mapped files this would be SIGBUS, which no test could catch."""
    folder = tmp_path / "index"
    index_library(library_of(tmp_path, {f"e{n}": f"Pravidlo {n} o drakovi a o jednorožci {n}." for n in range(300)}), folder)
    script = textwrap.dedent(f"""
        import logging, sys
        from pathlib import Path
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from helpers import searcher
        from pravila.search import IndexUnavailable
        logging.basicConfig(level=logging.ERROR, stream=sys.stdout, format="LOG %(name)s %(message)s")
        folder = Path({str(folder)!r})
        with searcher(folder) as s:
            print("before", s.search("drak", "cs").total, flush=True)
            for seg in folder.resolve().glob("*/*.seg"):
                seg.write_bytes(seg.read_bytes()[: seg.stat().st_size // 3])
            for query in ("jednorožec", "drak"):
                try:
                    s.search(query, "cs")
                    print("answered", query)
                except IndexUnavailable as e:
                    print("unavailable", query, "rebuild" in str(e))
            try:
                s.stats()
                print("stats ok")
            except IndexUnavailable:
                print("stats unavailable")
        print("alive")
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert "before 300" in lines
    assert "unavailable jednorožec True" in lines  # a word it had not read yet
    assert "unavailable drak True" in lines  # and then every search, until a rebuild
    assert "stats unavailable" in lines and lines[-1] == "alive"
    assert any(line.startswith("LOG pravila.search cannot read") for line in lines)


def test_written_in_processes_or_not_the_index_answers_the_same(library, tmp_path):
    one, two = tmp_path / "one" / "index", tmp_path / "two" / "index"
    index_library(library, one)
    from pravila.search import build_index

    assert build_index(repo_project(), library, two, processes=2) == len(library.entries)
    with searcher(one) as a, searcher(two) as b:
        for q in ("прыжок", "kouzlo", "grapple", "sesilani", "захаат"):
            assert a.search(q, "all", 20).to_dict() == b.search(q, "all", 20).to_dict()


def test_equal_scores_are_ordered_as_in_the_library(tmp_path):
    index_library(library_of(tmp_path, {f"same-{n}": "Drak létá nad horami." for n in range(30)}), tmp_path / "index")
    with searcher(tmp_path / "index") as s:
        result = s.search("drak", "cs", 25)
        assert len({h.score for h in result.hits}) == 1
        assert ids(result) == [f"same-{n}" for n in range(25)]


def test_searches_from_many_threads_answer_as_one_would(library, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    index_library(library, tmp_path / "index")
    queries = ["прыжок", "kouzlo", "grapple", "sesilani", "захаат", "как встать", "somaticka slozka", "kantripy"] * 6
    with searcher(tmp_path / "index") as s:
        expected = {q: s.search(q).to_dict() for q in set(queries)}
    with searcher(tmp_path / "index") as s, ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda q: (q, s.search(q).to_dict()), queries))
    assert all(answer == expected[q] for q, answer in answers)
