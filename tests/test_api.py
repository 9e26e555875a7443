"""The HTTP API: answers in-process (Starlette's TestClient) and from running servers.

Bad input goes to two real uvicorn servers on free ports: one serving only
the API (``pravila.api.Api``) and the whole site as ``pravila serve`` runs it
(``pravila.server.create_app``, the ``live_server`` fixture).  Whatever comes
in, the answer is JSON with a 200 or a 4xx, never a 5xx or a traceback.
"""

from __future__ import annotations

import json
import socket
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

with warnings.catch_warnings():  # Starlette 1.x suggests httpx2 for its TestClient; httpx works the same here
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from helpers import index_library as build_index
from helpers import repo_project
from pravila.api import Api, api_routes
from pravila.content import Chapter, Entry, Library
from pravila.errors import IndexUnavailable
from pravila.serialize import entry_to_dict


@pytest.fixture(scope="module")
def client(built_project):
    with TestClient(Api(built_project)) as c:
        yield c


@pytest.fixture(scope="module")
def api_server(built_project, serve_app):
    """A real uvicorn server with only the API's routes; its base URL."""
    return serve_app(Api(built_project))


@pytest.fixture(params=["api-only server", "pravila serve app"])
def running(request, api_server):
    """Base URL of a running server: the API alone, then the whole site (``live_server``)."""
    if request.param == "api-only server":
        return api_server
    return request.getfixturevalue("live_server")


def raw_get(base: str, target: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:
    """Send a request line exactly as written (no client-side encoding or normalisation)."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(f"{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
    return status, headers, body


# --- answers -------------------------------------------------------------------------------


def test_search_answers_the_promised_json(client):
    r = client.get("/api/search", params={"q": "прыжок", "lang": "ru", "limit": 5})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/json")
    data = r.json()
    assert set(data) == {"query", "lang", "total", "hits"}
    assert (data["query"], data["lang"]) == ("прыжок", "ru")
    assert {h["id"] for h in data["hits"][:2]} == {"high-jump", "long-jump"}
    for hit in data["hits"]:
        assert set(hit) == {"id", "lang", "title", "url", "snippet", "score"}
    assert len(data["hits"]) == min(5, data["total"]) >= 2


def test_search_without_diacritics_and_in_english(client):
    assert client.get("/api/search", params={"q": "sesilani", "lang": "cs"}).json()["hits"][0]["title"] == "Sesílání kouzel"
    assert client.get("/api/search", params={"q": "grapple"}).json()["hits"][0]["id"] == "grapple"
    assert client.get("/api/search", params={"q": "spell save DC"}).json()["hits"][0]["id"] == "saving-throws"


def test_defaults_are_all_languages_and_ten_hits(client):
    data = client.get("/api/search", params={"q": "kouzlo"}).json()
    assert data["lang"] == "all" and len(data["hits"]) == 10 < data["total"]


def test_entries_answer_the_serializer_s_json(client, library):
    for lang, entry_id in [("ru", "grapple"), ("cs", "casting-spells"), ("ru", "being-prone")]:
        r = client.get(f"/api/entries/{lang}/{entry_id}")
        assert r.status_code == 200
        assert r.json() == json.loads(json.dumps(entry_to_dict(library, library.get(lang, entry_id))))


def test_health(client, library):
    data = client.get("/healthz").json()
    assert data["status"] == "ok"
    assert data["entries"] == {"ru": len(library.in_lang("ru")), "cs": len(library.in_lang("cs"))}
    assert client.get("/api/healthz").json() == data


def test_head_answers_without_a_body(client):
    r = client.head("/api/search", params={"q": "прыжок"})
    assert r.status_code == 200 and r.content == b""


def test_without_an_index_search_and_health_say_so(tmp_path):
    with TestClient(Starlette(routes=api_routes(repo_project(build=tmp_path)))) as c:
        for path in ["/api/search?q=прыжок", "/healthz"]:
            r = c.get(path)
            assert r.status_code == 503
            assert "pravila build" in r.json()["error"]
        assert c.get("/api/search?q=").json()["hits"] == []


@pytest.mark.parametrize("result_cache", [0, 1000], ids=["no result cache", "result cache"])
def test_a_rebuild_is_answered_without_a_restart(tmp_path, result_cache):
    chapter = Chapter("test", "cs", "Test", "Test", 2024, "test", "none.txt", "cs/test.yaml")

    def library_with(entry_id: str, body: str) -> Library:
        entry = Entry(id=entry_id, lang="cs", title=entry_id, en=entry_id, chapter=chapter, edition=2024,
                      source="test", file=chapter.file, line=1, body=body)
        return Library([chapter], [entry], tmp_path)

    build_index(library_with("old", "Pravidlo o drakovi."), tmp_path / "index")
    with TestClient(Api(repo_project(build=tmp_path), result_cache=result_cache)) as c:
        assert [h["id"] for h in c.get("/api/search?q=drak").json()["hits"]] == ["old"]
        assert [h["id"] for h in c.get("/api/search?q=drak").json()["hits"]] == ["old"]
        generation = c.get("/healthz").json()["generation"]
        build_index(library_with("new", "Pravidlo o jednorožci."), tmp_path / "index")
        assert c.get("/healthz").json()["generation"] != generation
        assert c.get("/api/search?q=drak").json()["hits"] == []
        assert [h["id"] for h in c.get("/api/search?q=jednorožec").json()["hits"]] == ["new"]
        assert c.get("/api/entries/cs/new").status_code == 200
        assert c.get("/api/entries/cs/old").status_code == 404


def test_the_result_cache_answers_a_repeated_query_and_stays_bounded(built_project):
    api = Api(built_project, result_cache=3)
    with TestClient(api) as c:
        first = c.get("/api/search", params={"q": "прыжок", "lang": "ru"})
        again = c.get("/api/search", params={"q": " прыжок ", "lang": "ru"})  # the same query, checked
        assert again.content == first.content and api.cache.hits == 1
        assert len(first.json()["hits"]) > 1
        assert len(c.get("/api/search", params={"q": "прыжок", "lang": "ru", "limit": 1}).json()["hits"]) == 1  # another key
        for q in ("захват", "kouzlo", "grapple", "sesilani"):
            c.get("/api/search", params={"q": q})
        assert len(api.cache) == 3


class _Failing:
    """A searcher whose index cannot be read (what the searcher says after a failed reopen)."""

    codes = ("ru", "cs")

    def stats(self):
        raise IndexUnavailable("cannot open the search index in build/index.d/x (EOFError); rebuild it")

    def search(self, query, lang, limit):
        raise IndexUnavailable("a segment of the search index is cut short")

    def entry(self, lang, entry_id):
        raise IndexUnavailable("a segment of the search index is cut short")


def test_an_unreadable_index_is_a_503_and_a_log_line(project, caplog):
    with caplog.at_level("WARNING", logger="pravila.api"), TestClient(Api(project, searcher=_Failing())) as c:
        health = c.get("/healthz")
        assert health.status_code == 503
        assert health.json()["status"] == "unavailable" and "cannot open the search index" in health.json()["error"]
        for path in ("/api/search?q=прыжок", "/api/entries/ru/grapple"):
            r = c.get(path)
            assert r.status_code == 503 and r.json()["status"] == 503
    assert "cannot open the search index" in caplog.text and "cut short" in caplog.text


# --- bad input, against the running servers --------------------------------------------------------

NO_HITS = [
    "/api/search",
    "/api/search?q=",
    "/api/search?q=%20%20%20",
    "/api/search?q=%22",
    "/api/search?q=(((",
    "/api/search?q=)))",
    "/api/search?q=AND%20OR%20NOT",
    "/api/search?q=*",
    "/api/search?q=~",
    "/api/search?q=%3F%3F%3F",
    "/api/search?q=%5C",
    "/api/search?q=%FF%FE",  # not UTF-8: replacement characters, no words
    "/api/search?q=%C0%80",  # overlong encoding of NUL: not decoded as NUL
    "/api/search?q=%E2%80%8B",  # zero-width space only
    "/api/search?q=%3Cscript%3E",
]

ERRORS = [
    ("/api/search?q=" + "a" * 5_000, 400, "too long"),
    ("/api/search?q=" + "%D0%BF" * 1_000, 400, "too long"),
    ("/api/search?q=a%00b", 400, "NUL"),
    ("/api/search?q=%00", 400, "NUL"),
    ("/api/search?q=x&lang=de", 400, "unknown language"),
    ("/api/search?q=x&lang=", 200, None),
    ("/api/search?q=x&lang=" + "r" * 5000, 400, "unknown language"),
    ("/api/search?q=x&limit=0", 400, "limit"),
    ("/api/search?q=x&limit=51", 400, "limit"),
    ("/api/search?q=x&limit=-1", 400, "limit"),
    ("/api/search?q=x&limit=abc", 400, "limit"),
    ("/api/search?q=x&limit=1e3", 400, "limit"),
    ("/api/search?q=x&limit=99999999999999999999999999", 400, "limit"),
    ("/api/search?q=x&limit=%00", 400, "limit"),
    ("/api/search?q=a&q=b", 400, "once"),
    ("/api/search?q=x&query=y", 400, "unknown parameter"),
    ("/api/nothing", 404, "no such API endpoint"),
    ("/api/", 404, "no such API endpoint"),
    ("/api/search/extra", 404, "no such API endpoint"),
    ("/api/entries/ru/no-such-entry", 404, "no entry"),
    ("/api/entries/de/grapple", 404, "unknown language"),
    ("/api/entries/ru/..%2F..%2Fetc%2Fpasswd", 404, None),
    ("/api/entries/ru/%00", 404, None),
    ("/api/entries/ru/" + "x" * 5000, 404, "no entry"),
]


def _check_json(status: int, headers: dict[str, str], body: bytes) -> dict:
    assert status < 500, (status, body[:300])
    assert headers.get("content-type", "").startswith("application/json"), headers
    assert b"Traceback" not in body
    return json.loads(body)


@pytest.mark.parametrize("target", NO_HITS)
def test_nothing_to_search_is_200_with_no_hits(running, target):
    data = _check_json(*raw_get(running, target))
    assert (data["total"], data["hits"]) == (0, [])


@pytest.mark.parametrize("target, status, message", ERRORS, ids=[t[:50] for t, _, _ in ERRORS])
def test_bad_input_is_a_json_4xx(running, target, status, message):
    got, headers, body = raw_get(running, target)
    data = _check_json(got, headers, body)
    assert got == status, data
    if status >= 400:
        assert data["status"] == status
        if message:
            assert message in data["error"]
        assert len(data["error"]) < 200  # a message, not an echo of the input


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND", "MKCOL"])
@pytest.mark.parametrize("path", ["/api/search?q=x", "/healthz", "/api/entries/ru/grapple", "/api/nothing"])
def test_other_methods_are_405_json(running, method, path):
    status, headers, body = raw_get(running, path, method=method)
    data = _check_json(status, headers, body)
    if path == "/api/nothing":
        assert status == 404, data  # no such endpoint, whatever the method
        return
    assert status == 405 and "GET" in headers.get("allow", "")
    assert data["status"] == 405


@pytest.mark.parametrize("target", ["/api/a%0Ab", "/api/%0A", "/api/entries/ru/grapple%0A", "/api/entries/ru/a%0Ab/c",
                                    "/api/search%0A", "/api/entries/%0A/x", "/api/entries/ru/", "/api//", "/api/%00"])
def test_every_path_under_api_is_answered_in_json(running, target):
    status, headers, body = raw_get(running, target)
    data = _check_json(status, headers, body)
    assert status == 404 and data["status"] == 404


def test_a_query_typed_as_is_into_curl_is_answered(live_server):
    """curl sends /api/search?q=прыжок as raw UTF-8 bytes: percent-encoded as a browser would, then searched."""
    raw = "/api/search?q=прыжок&lang=ru".encode("utf-8").decode("latin-1")
    data = _check_json(*raw_get(live_server, raw))
    assert data["query"] == "прыжок" and {h["id"] for h in data["hits"][:2]} == {"high-jump", "long-jump"}
    status, _, _ = raw_get(live_server, "/ru/жж/".encode("utf-8").decode("latin-1"))
    assert status == 404


@pytest.mark.parametrize("target", ["/api/search?q=a\x7fb", "/api/search?q=a b", "/healthz\x01"])
def test_requests_the_parser_refuses_are_json_under_api(live_server, target):
    status, headers, body = raw_get(live_server, target)
    data = _check_json(status, headers, body)
    assert status == 400 and data["status"] == 400


# Targets and headers no one sends by accident, against the whole app as `pravila serve` runs it.
OVERSIZED = [
    ("/api/search?q=" + "a" * 20_000, 414, "/api"),
    ("/api/search?q=" + "a" * 200_000, 414, "/api"),  # beyond httptools' 64 KB: cut short before the app sees it
    ("/api/search?q=" + "%D0%BF" * 20_000, 414, "/api"),
    ("/api/entries/ru/" + "x" * 10_000, 414, "/api"),
    ("/healthz?" + "x" * 10_000, 414, "/api"),
    ("/ru/" + "a" * 10_000, 414, "site"),
    ("/" + "a/" * 3_000, 404, "site"),
    ("/" + "a" * 300, 404, "site"),
    ("/ru/" + "%D0%B6" * 200 + "/", 404, "site"),
]


@pytest.mark.parametrize("target, status, where", OVERSIZED, ids=[f"{t[:20]}…{len(t)}" for t, _, _ in OVERSIZED])
def test_oversized_targets_are_4xx(live_server, target, status, where):
    got, headers, body = raw_get(live_server, target)
    assert got == status, body[:200]
    if where == "/api":
        data = _check_json(got, headers, body)
        assert data["status"] == status and "too long" in data["error"]
    assert b"Traceback" not in body


@pytest.mark.parametrize("path", ["/api/search?q=x", "/ru/"])
@pytest.mark.parametrize("headers", [[("X-Big", "b" * 40_000)], [(f"X-H{i}", "y") for i in range(150)]], ids=["40 KB", "150 headers"])
def test_oversized_headers_are_431(live_server, path, headers):
    host, port = live_server.removeprefix("http://").split(":")
    extra = "".join(f"{k}: {v}\r\n" for k, v in headers)
    with socket.create_connection((host, int(port)), timeout=30) as conn:
        conn.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode("latin-1"))
        data = b""
        while chunk := conn.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.split()[1] == b"431", head[:100]
    if path.startswith("/api"):
        assert json.loads(body)["status"] == 431


@pytest.mark.parametrize(
    "q", ['<script>alert("x")</script>', "<img src=x onerror=alert(1)> прыжок", "</mark><b>kouzlo</b>", "&lt;b&gt; kouzlo"]
)
def test_html_in_the_query_is_never_markup_in_the_answer(running, q):
    with httpx.Client(base_url=running) as http:
        r = http.get("/api/search", params={"q": q})
    data = _check_json(r.status_code, dict(r.headers), r.content)
    assert data["query"] == q  # echoed as JSON text, not interpreted
    for hit in data["hits"]:
        bare = hit["snippet"].replace("<mark>", "").replace("</mark>", "")
        assert "<" not in bare and ">" not in bare


@pytest.mark.parametrize("q", ["field:value", "title_ru:захват", "прыжок~2", "захват^10", "[a TO z]", "{x TO y}", "a" * 200])
def test_query_syntax_is_200(running, q):
    with httpx.Client(base_url=running) as http:
        r = http.get("/api/search", params={"q": q})
    assert r.status_code == 200
    assert isinstance(r.json()["hits"], list)


@pytest.mark.parametrize(
    "target",
    ["/../../etc/passwd", "/ru/../../pyproject.toml", "/%2e%2e/%2e%2e/etc/passwd", "/ru/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
     "/..%2f..%2fpyproject.toml", "/ru/assets/../../../src/pravila/api.py", "/index/", "/../index/MAIN_WRITELOCK"],
)
def test_paths_outside_the_site_are_not_served(live_server, target):
    status, _, body = raw_get(live_server, target)
    assert status in (400, 404), (status, body[:200])
    assert b"root:" not in body and b"[build-system]" not in body and b"def api_routes" not in body


def test_many_requests_at_once_all_answer(running):
    queries = ["прыжок", "sesilani", "grapple", "kolik pozic", "как встать", "захаат"] * 10

    def ask(q: str) -> tuple[int, str]:
        with httpx.Client(base_url=running, timeout=30) as http:
            r = http.get("/api/search", params={"q": q, "limit": 1})
        return r.status_code, r.json()["hits"][0]["id"]

    with ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(ask, queries))
    assert {status for status, _ in answers} == {200}
    first = dict(zip(queries, (hit for _, hit in answers)))
    assert first["прыжок"] in ("high-jump", "long-jump") and first["sesilani"] == "casting-spells"
    assert len({hit for q, (_, hit) in zip(queries, answers) if q == "grapple"}) == 1  # the same answer every time


def test_searches_in_a_child_process_answer_the_same(built_project):
    """pravila serve's default: searches in a process of lower priority; the answers do not change."""
    with TestClient(Api(built_project)) as threads, TestClient(Api(built_project, processes=1)) as processes:
        for path in ("/api/search?q=прыжок&lang=ru", "/api/search?q=sesilani", "/api/entries/ru/grapple",
                     "/api/entries/ru/nothing", "/api/search?q=x&limit=0"):
            a, b = threads.get(path), processes.get(path)
            assert (a.status_code, a.json()) == (b.status_code, b.json()), path
        assert processes.get("/healthz").json() == threads.get("/healthz").json()


def test_a_search_process_that_dies_is_replaced(built_project, caplog):
    import os
    import signal

    api = Api(built_project, processes=1)
    with TestClient(api) as c:
        assert c.get("/api/search?q=grapple").status_code == 200
        for pid in api._children.pids:  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)
        with caplog.at_level("ERROR", logger="pravila.api"):
            statuses = [c.get("/api/search", params={"q": q}).status_code for q in ("dash", "kouzlo", "hide")]
        assert statuses[0] in (200, 503) and statuses[-1] == 200, statuses
        assert 500 not in statuses


def test_search_processes_end_with_their_server(built_project, tmp_path):
    """Stopped or killed, a server process leaves no search process behind."""
    import os
    import signal
    import subprocess
    import sys
    import time

    script = tmp_path / "serve.py"
    script.write_text(
        "import pathlib, time\n"
        "from pravila.api import Api\n"
        "from helpers import repo_project\n"
        "from starlette.testclient import TestClient\n"
        "if __name__ == '__main__':\n"
        f"    api = Api(repo_project(build=pathlib.Path({str(built_project.build_dir)!r})), processes=1)\n"
        "    assert TestClient(api).get('/api/search?q=grapple').status_code == 200\n"
        "    print(*api._children.pids, flush=True)\n"
        "    time.sleep(60)\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), *sys.path]))
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True, env=env)
    children = [int(p) for p in server.stdout.readline().split()]
    assert children
    server.send_signal(signal.SIGKILL)
    server.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() and "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
              for pid in children):
        assert time.monotonic() < deadline, "a search process outlived its server"
        time.sleep(0.2)
