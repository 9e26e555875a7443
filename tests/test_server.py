"""``pravila serve``: language negotiation, static files, safety, the watcher."""

from __future__ import annotations

import importlib.util
import shutil
import threading
import time
from pathlib import Path

import warnings

import pytest

with warnings.catch_warnings():  # Starlette 1.x nudges towards httpx2; httpx works the same here
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from helpers import MINI, repo_project
from pravila import server


@pytest.fixture(scope="module")
def client(built_project) -> TestClient:
    return TestClient(server.create_app(built_project))


# --- negotiation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "header, location",
    [
        ("cs-CZ,cs;q=0.9,en;q=0.8", "/cs/"),
        ("ru-RU,ru;q=0.9", "/ru/"),
        ("en-US,en;q=0.9,cs;q=0.5", "/cs/"),
        ("en;q=0.9,ru;q=0.5,cs;q=0.7", "/cs/"),
        ("CS", "/cs/"),
    ],
)
def test_root_redirects_by_accept_language(client: TestClient, header: str, location: str):
    r = client.get("/", headers={"Accept-Language": header}, follow_redirects=False)
    assert r.status_code == 302
    assert r.headers["location"] == location
    assert "Accept-Language" in r.headers["vary"]


@pytest.mark.parametrize("header", [None, "en-US,en;q=0.9", "de", "*"])
def test_root_shows_the_chooser_without_a_match(client: TestClient, header: str | None):
    headers = {"Accept-Language": header} if header else {}
    r = client.get("/", headers=headers, follow_redirects=False)
    assert r.status_code == 200
    assert "Vyberte jazyk" in r.text and "Выберите язык" in r.text
    assert r.headers["content-type"].startswith("text/html")


def test_the_reader_s_own_choice_wins_over_the_browser_s_languages(client: TestClient):
    """The language switcher remembers a choice in a cookie; / goes there, and ?choose asks again."""
    client.cookies.set("pravila_lang", "cs")
    try:
        r = client.get("/", headers={"Accept-Language": "ru-RU"}, follow_redirects=False)
        assert r.status_code == 302 and r.headers["location"] == "/cs/"
        assert "Cookie" in r.headers["vary"]
        chooser = client.get("/?choose", headers={"Accept-Language": "ru-RU"}, follow_redirects=False)
        assert chooser.status_code == 200 and "Vyberte jazyk" in chooser.text
        client.cookies.set("pravila_lang", "de")  # not a language of this site: the browser's decides
        assert client.get("/", headers={"Accept-Language": "ru-RU"}, follow_redirects=False).headers["location"] == "/ru/"
    finally:
        client.cookies.clear()


def test_negotiation_uses_babel():
    langs = ("ru", "cs")
    assert server.negotiate("cs-CZ", langs) == "cs"
    assert server.negotiate("ru", langs) == "ru"
    assert server.negotiate("uk-UA,en", langs) is None
    assert server.parse_accept_language("a;q=0.1, b, c;q=0.5") == ["b", "c", "a"]
    assert server.parse_accept_language("ru;q=0, cs") == ["cs"]


# --- static files ---------------------------------------------------------------------


def test_pages_and_assets_are_served(client: TestClient):
    r = client.get("/ru/combat/movement/")
    assert r.status_code == 200
    assert '<html lang="ru"' in r.text
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    css = client.get("/ru/assets/pravila/site.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    js = client.get("/cs/assets/pravila/site.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]


def test_folder_without_slash_redirects(client: TestClient):
    r = client.get("/cs", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == "/cs/"
    r = client.get("/ru/combat/actions?x=1", follow_redirects=False)
    assert r.status_code == 301 and r.headers["location"] == "/ru/combat/actions/?x=1"


def test_missing_pages_get_the_languages_404(client: TestClient):
    r = client.get("/ru/no/such/page/")
    assert r.status_code == 404
    assert '<html lang="ru"' in r.text
    r = client.get("/nothing-here")
    assert r.status_code == 404


def test_head_and_etag(client: TestClient):
    r = client.get("/cs/")
    etag = r.headers["etag"]
    head = client.head("/cs/")
    assert head.status_code == 200 and head.headers["etag"] == etag and head.content == b""
    again = client.get("/cs/", headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_sitemap_names_this_server(client: TestClient):
    r = client.get("/ru/sitemap.xml")
    assert r.status_code == 200
    assert "<loc>http://testserver/ru/" in r.text
    assert "127.0.0.1" not in r.text


@pytest.mark.parametrize(
    "path",
    [
        "/../pyproject.toml",
        "/ru/../../pyproject.toml",
        "/ru/%2e%2e/%2e%2e/pyproject.toml",
        "/..%2f..%2fpyproject.toml",
        "/ru/..%5c..%5cpyproject.toml",
        "/.site-new-1/index.html",
        "/%00",
    ],
)
def test_nothing_outside_the_site_is_served(client: TestClient, path: str):
    r = client.get(path, follow_redirects=False)
    assert r.status_code in (404, 400), (path, r.status_code)
    assert "[project]" not in r.text


def test_symlinks_out_of_the_site_are_not_followed(tmp_path: Path):
    root = tmp_path / "site"
    (root / "ru").mkdir(parents=True)
    (root / "index.html").write_text("chooser", encoding="utf-8")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret", encoding="utf-8")
    (root / "ru" / "leak.txt").symlink_to(secret)
    c = TestClient(server.create_app(repo_project(build=tmp_path), api=False))
    assert c.get("/ru/leak.txt").status_code == 404
    assert c.get("/").text == "chooser"


@pytest.mark.skipif(importlib.util.find_spec("pravila.api") is None, reason="pravila.api is not there yet")
def test_api_is_mounted(client: TestClient):
    assert client.get("/healthz").status_code == 200


# --- rebuilding (on the small fixture project: a rebuild of it takes about a second) -----------------


@pytest.fixture()
def mini_project(tmp_path: Path):
    """A writable copy of the small fixture content, as a project building into tmp_path/build."""
    dest = tmp_path / "content"
    shutil.copytree(MINI, dest)
    return repo_project(content=dest, build=tmp_path / "build")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_rebuild_swaps_in_new_content_and_keeps_the_old_on_problems(mini_project, caplog):
    assert server.rebuild(mini_project)
    page = mini_project.site_dir / "ru" / "mini" / "movement" / "index.html"
    assert "Движение" in page.read_text(encoding="utf-8")

    yaml_file = mini_project.content_dir / "ru" / "mini.yaml"
    _edit(yaml_file, "title: Мини\n", "title: Мини (правка)\n")
    assert server.rebuild(mini_project)
    assert "Мини (правка)" in page.read_text(encoding="utf-8")

    _edit(yaml_file, "  - id: movement\n", "  - id: movement\n    parent: nowhere\n")
    with caplog.at_level("ERROR", logger="pravila.server"):
        assert not server.rebuild(mini_project)
    assert "nowhere" in caplog.text
    assert "still serving the previous build" in caplog.text
    assert "Мини (правка)" in page.read_text(encoding="utf-8")


def test_readers_never_see_half_a_site(mini_project):
    assert server.rebuild(mini_project)
    c = TestClient(server.create_app(mini_project, api=False))
    statuses: list[int] = []
    done = threading.Event()

    def build_twice() -> None:
        try:
            for _ in range(2):
                server.rebuild(mini_project)
        finally:
            done.set()

    threading.Thread(target=build_twice, daemon=True).start()
    while not done.is_set():
        for path in ("/ru/mini/movement/", "/cs/", "/ru/assets/pravila/site.css"):
            statuses.append(c.get(path).status_code)
    assert len(statuses) > 10
    assert set(statuses) == {200}


def test_watch_rebuilds_on_change(mini_project):
    assert server.rebuild(mini_project)
    page = mini_project.site_dir / "cs" / "mini" / "index.html"
    watcher = server.Watcher(mini_project).start()
    try:
        _edit_until(mini_project.content_dir / "cs" / "mini.yaml", "  title: Mini\n", "  title: Mini (úprava)\n",
                    lambda: "Mini (úprava)" in page.read_text(encoding="utf-8"), "the watcher did not rebuild")
    finally:
        watcher.stop()


def _edit_until(path: Path, old: str, new: str, done, failure: str, timeout: float = 60) -> None:
    """Edit a content file and wait until ``done()``; the watcher starts watching at some moment after
    its thread starts, so an edit that may have come first is written again every few seconds."""
    _edit(path, old, new)
    deadline = touched = time.monotonic()
    deadline += timeout
    while not done():
        assert time.monotonic() < deadline, failure
        if time.monotonic() - touched > 3:
            path.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
            touched = time.monotonic()
        time.sleep(0.05)


def run_coroutine(coroutine):
    """Run a coroutine to its end in a thread of its own (the browser tests keep an event loop in this one)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


# --- what every answer carries: encodings, caching, security headers -------------------------------


def test_text_files_are_sent_compressed_by_accept_encoding(client: TestClient):
    import gzip

    import brotli

    plain = client.get("/ru/combat/movement/", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "content-encoding" not in plain.headers
    assert plain.headers["vary"] == "Accept-Encoding"
    for accept, encoding, decode in [("br, gzip", "br", brotli.decompress), ("gzip, deflate", "gzip", gzip.decompress),
                                     ("gzip;q=1, br;q=0.5", "gzip", gzip.decompress), ("*", "br", brotli.decompress)]:
        r = client.get("/ru/combat/movement/", headers={"Accept-Encoding": accept})
        assert r.headers["content-encoding"] == encoding, accept
        assert r.headers["vary"] == "Accept-Encoding"
        # httpx would decode it itself; compare the bytes that came over the wire
        assert decode(r.read() if False else _raw(client, "/ru/combat/movement/", accept)) == plain.content
        assert int(r.headers["content-length"]) < len(plain.content) / 4
        assert r.headers["etag"] != plain.headers["etag"]  # another representation, another tag
    r = client.get("/ru/combat/movement/", headers={"Accept-Encoding": "br;q=0, gzip;q=0"})
    assert "content-encoding" not in r.headers


def _raw(client: TestClient, path: str, accept: str) -> bytes:
    """The body as sent (not decoded by the client)."""
    with client.stream("GET", path, headers={"Accept-Encoding": accept}) as r:
        return b"".join(r.iter_raw())


def test_fingerprinted_assets_are_immutable_and_the_rest_revalidated(client: TestClient, built_project):
    bundle = next((built_project.site_dir / "ru" / "assets" / "javascripts").glob("bundle.*.min.js")).name
    r = client.get(f"/ru/assets/javascripts/{bundle}")
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    for path in ("/ru/combat/movement/", "/ru/assets/pravila/site.js", "/ru/search/search_index.json", "/"):
        assert client.get(path).headers["cache-control"] == "no-cache", path


@pytest.mark.parametrize("header", ['W/"{etag}"', '"{etag}"', '"nope", W/"{etag}"', "*"])
def test_etags_compare_weakly(client: TestClient, header: str):
    first = client.get("/cs/", headers={"Accept-Encoding": "gzip"})
    again = client.get("/cs/", headers={"Accept-Encoding": "gzip", "If-None-Match": header.format(etag=first.headers["etag"].strip('"'))})
    assert again.status_code == 304 and again.content == b""
    assert again.headers["etag"] == first.headers["etag"] and again.headers["vary"] == "Accept-Encoding"
    other = client.get("/cs/", headers={"Accept-Encoding": "gzip", "If-None-Match": '"something-else"'})
    assert other.status_code == 200


@pytest.mark.parametrize("path", ["/ru/combat/movement/", "/", "/ru/assets/pravila/site.js", "/api/search?q=x", "/healthz",
                                  "/ru/nothing/", "/nothing", "/api/nothing"])
def test_every_answer_has_the_security_headers(client: TestClient, path: str):
    r = client.get(path, follow_redirects=False)
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["referrer-policy"] == "same-origin"
    assert r.headers["x-frame-options"] == "SAMEORIGIN"
    policy = r.headers["content-security-policy"]
    assert "frame-ancestors 'self'" in policy and "object-src 'none'" in policy
    assert "'unsafe-inline'" not in policy.split("script-src")[1].split(";")[0]  # scripts: by hash, never inline at large


def test_a_page_s_policy_allows_exactly_its_inline_scripts(client: TestClient):
    from pravila.static import inline_script_hashes

    r = client.get("/ru/combat/movement/")
    hashes = inline_script_hashes(r.content)
    assert len(hashes) >= 3  # Material's palette and storage scripts, the search box's set-up
    script_src = r.headers["content-security-policy"].split("script-src ")[1].split(";")[0].split()
    assert script_src == ["'self'", *(f"'{h}'" for h in dict.fromkeys(hashes))]


@pytest.mark.parametrize("host, expected", [
    ("rules.example.org", "<loc>http://rules.example.org/ru/"),
    ("127.0.0.1:9000", "<loc>http://127.0.0.1:9000/ru/"),
    ('evil.org"><script>x</script>', None),
    ("evil.org/path", None),
    ("a b", None),
])
def test_sitemap_names_only_a_well_formed_host(client: TestClient, built_project, host: str, expected: str | None):
    r = client.get("/ru/sitemap.xml", headers={"Host": host})
    assert r.status_code == 200
    if expected is None:
        expected = f"<loc>{built_project.site_url}ru/"  # the configured address it was built with
        assert "script" not in r.text and "evil" not in r.text
    assert expected in r.text


@pytest.mark.parametrize("path, status", [
    ("/" + "a" * 10_000, 414),
    ("/ru/" + "a/" * 3_000, 404),
    ("/ru/" + "a/" * 5_000, 414),
    ("/ru/" + "a/" * 100, 404),
    ("/" + "ж" * 200, 404),  # 400 bytes in one segment: longer than any file name
    ("/ru/" + "a" * 255 + "/", 404),
    ("/ru/" + "%" * 10, 404),
])
def test_paths_no_file_system_holds_are_4xx(client: TestClient, path: str, status: int):
    r = client.get(path, follow_redirects=False)
    assert r.status_code == status, r.text[:200]


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH"])
def test_the_site_answers_other_methods_with_405(client: TestClient, method: str):
    r = client.request(method, "/ru/combat/movement/")
    assert r.status_code == 405 and r.headers["allow"] == "GET, HEAD"


def test_hostile_requests_never_get_a_5xx(built_project):
    """A seeded few hundred of benchmarks/fuzz.py's requests, in process: no 5xx, JSON under /api."""
    import json
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
    from fuzz import call_asgi, fuzz_cases

    app = server.create_app(built_project)
    failures, not_json = [], []

    async def run_all(cases):
        for case in cases:
            status, body = await call_asgi(app, case)
            if status >= 500:
                failures.append((case.short(100), status, body[-300:]))
            path = case.target.split("?")[0]
            if (path.startswith("/api") or path == "/healthz") and status != 200:
                try:
                    json.loads(body)
                except ValueError:
                    not_json.append((case.short(100), status))

    for seed in (1, 2):
        run_coroutine(run_all(fuzz_cases(seed=seed, n=300, wire=False)))
    assert failures == []
    assert not_json == []


# --- searches off the event loop --------------------------------------------------------------------


class _SlowSearcher:
    """Stands in for the searcher: each search waits until released."""

    codes = ("ru", "cs")

    def __init__(self):
        self.release = threading.Event()
        self.started = threading.Event()

    def search(self, query, lang, limit):
        self.started.set()
        assert self.release.wait(20)
        from pravila.search import SearchResult

        return SearchResult(query, lang, 0, [])


def test_pages_are_served_while_a_search_runs(built_project):
    import asyncio

    import httpx

    from pravila.api import Api

    app = server.create_app(built_project, api=False)
    slow = _SlowSearcher()
    app.api = Api(built_project, searcher=slow)  # type: ignore[arg-type]

    async def go() -> tuple[int, bool]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
            search = asyncio.create_task(http.get("/api/search", params={"q": "прыжок"}))
            while not slow.started.is_set():
                await asyncio.sleep(0.01)
            page = await asyncio.wait_for(http.get("/ru/combat/movement/"), 10)
            waiting = not search.done()
            slow.release.set()
            assert (await search).status_code == 200
            return page.status_code, waiting

    status, search_was_waiting = run_coroutine(go())
    assert status == 200 and search_was_waiting


# --- worker processes -------------------------------------------------------------------------------


def test_workers_serve_one_site_and_only_the_parent_rebuilds(mini_project, tmp_path):
    """`pravila serve --workers 2 --watch`: both processes answer, edits rebuild once, no reader sees half a site."""
    import os
    import signal
    import socket
    import subprocess
    import sys

    import httpx

    from helpers import ROOT

    assert server.rebuild(mini_project)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log_path = tmp_path / "serve.log"
    argv = [sys.executable, "-m", "pravila", "--content", str(mini_project.content_dir), "serve", "--build-dir",
            str(mini_project.build_dir), "--port", str(port), "--workers", "2", "--watch"]
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=10) as http:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if http.get("/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert proc.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
            before = {http.get("/api/search", params={"q": "jednorožec"}).json()["total"] for _ in range(10)}
            _edit(mini_project.content_dir / "cs" / "mini.yaml", "  title: Mini\n", "  title: Mini (úprava)\n")
            _edit(mini_project.content_dir / "cs" / "mini.yaml", "    en: Casting Spells\n", "    en: Casting Spells\n    aliases: [jednorožec]\n")
            statuses, deadline = [], time.monotonic() + 60
            def edited() -> bool:
                return ("Mini (úprava)" in http.get("/cs/mini/").text
                        and http.get("/api/search", params={"q": "jednorožec"}).json()["total"] == 1)

            while not edited():
                for path in ("/cs/mini/", "/ru/mini/movement/", "/cs/assets/pravila/site.css", "/api/search?q=kouzlo"):
                    statuses.append(http.get(path).status_code)
                assert time.monotonic() < deadline, log_path.read_text()
            hits = {http.get("/api/search", params={"q": "jednorožec"}).json()["total"] for _ in range(20)}
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)
    text = log_path.read_text()
    assert set(statuses) == {200}, statuses
    assert text.count("Started server process") == 2
    assert text.count("watching ") == 1 and text.count("rebuilding") >= 1
    assert "Traceback" not in text, text
    assert before == {0} and hits == {1}  # every process answers from the new index


# --- the watcher keeps watching -----------------------------------------------------------------------


def test_the_watcher_survives_a_failing_rebuild(mini_project, monkeypatch, caplog):
    import pravila.build

    assert server.rebuild(mini_project)
    page = mini_project.site_dir / "cs" / "mini" / "index.html"
    real_build = pravila.build.build
    calls = []

    def flaky_build(project, library=None):
        calls.append(1)
        if len(calls) == 1:
            raise RecursionError("maximum recursion depth exceeded")  # what 5000-deep YAML once did
        return real_build(project, library)

    monkeypatch.setattr(pravila.build, "build", flaky_build)
    watcher = server.Watcher(mini_project).start()
    try:
        with caplog.at_level("ERROR", logger="pravila.server"):
            yaml_file = mini_project.content_dir / "cs" / "mini.yaml"
            _edit_until(yaml_file, "  title: Mini\n", "  title: Mini (první)\n", lambda: bool(calls), "the watcher did not rebuild")
            _edit_until(yaml_file, "  title: Mini (první)\n", "  title: Mini (druhá)\n",
                        lambda: "Mini (druhá)" in page.read_text(encoding="utf-8"), "an edit after a failed rebuild was ignored")
    finally:
        watcher.stop()
    assert watcher.thread.is_alive() is False
    assert "RecursionError" in caplog.text and "still serving the previous build" in caplog.text
