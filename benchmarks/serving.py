"""Serving speed, measured: ``pravila serve`` under concurrent load on this machine.

    .venv/bin/python benchmarks/serving.py [--seconds 10] [--connections 1,8,32]
        [--client wrk|asyncio] [--build-dir DIR] [--serve-arg=--some-flag ...]
        [--server 'NAME=--flag …' ...] [--baseline CHECKOUT [--baseline-arg=--flag ...]]

It builds the sites and the index once into a temporary folder (or uses
``--build-dir``), starts ``pravila serve --build-dir … --host 127.0.0.1
--port <free>`` as a subprocess — the command users run, with any
``--serve-arg`` passed through — waits for ``/healthz`` and stops it at the
end, also on Ctrl-C.  Then, for each number of connections, each for
``--seconds``:

1. search: ``GET /api/search?q=…&lang=…&limit=20`` (the search box's limit),
   each request the next query of a rotating mix of about 100 queries as
   players type them (``queries_mix.txt``);
2. static: one rule page (``/ru/combat/movement/``) alone;
3. static under search: the same page while as many other connections run
   the search mix (their own figures are printed as a "background" row);
4. healthz under bad words: ``/healthz`` while 4 other clients send
   200-letter words of random letters (Cyrillic or Latin), a new one each time.

And side by side in the same run, the same static page served by
``python -m http.server`` from the built site: what a plain static server
does on this machine.

The load generator is Debian's ``wrk`` (with a Lua script for the rotating
mix, the random words and the status counts) when it is installed, otherwise
a small asyncio HTTP/1.1 client with keep-alive connections, one process per
group of connections.  Either way it runs on the same cores as the server,
and the table says so.  Loopback only; every run is bounded in time.

Several servers can be measured side by side in one run, each row of one
after the same row of the others (so a change in the machine's load hits
them alike): ``--server 'cached=--result-cache=1000'`` (repeatable) starts
one more ``pravila serve`` of this checkout with those flags, and
``--baseline DIR`` one of another checkout (its own ``.venv``, its own
build), e.g. a worktree of ``main`` before a change: it is the ``before``
row.

A benchmark, not a test: it prints figures, it asserts nothing.

(Not named ``http.py``: a script's folder comes first on ``sys.path``, and a
``benchmarks/http.py`` would shadow the standard library's ``http`` package
for every script here, ``search.py`` included.)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import platform
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import quote

HERE = Path(__file__).resolve().parent
REPO = HERE.parent  # pravila commands run here, whatever the current folder
QUERIES_MIX = HERE / "queries_mix.txt"
STATIC_PAGE = "/ru/combat/movement/"
HOST = "127.0.0.1"
SEARCH_LIMIT = 20  # what the site's search box asks for (src/pravila/static/search-worker.js)
BAD_WORD_CLIENTS = 4
BAD_WORD_LETTERS = 200
REQUEST_TIMEOUT = 10.0  # seconds; a request that takes longer counts as a socket error


# --- processes we start: the server under test, the reference server, the load generators ----------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class Process:
    """A subprocess in its own session, always stopped by :meth:`stop` (SIGINT, then SIGKILL)."""

    def __init__(self, argv: list[str], log_path: Path, **popen_args):
        self.argv = argv
        self.log_path = log_path
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=self.log, stderr=subprocess.STDOUT,
                                     start_new_session=True, **popen_args)

    def log_tail(self, lines: int = 20) -> str:
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)  # its own session: the server and any workers it forked
                self.proc.wait(timeout=10)
        self.log.close()

    def __enter__(self) -> "Process":
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def wait_until_up(process: Process, port: int, path: str, timeout: float = 60.0) -> None:
    """Poll ``path`` until it answers 200; fail with the server's log if it exits or never does."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.proc.poll() is not None:
            raise SystemExit(f"the server exited with code {process.proc.returncode}:\n{process.log_tail()}")
        try:
            if asyncio.run(fetch_once(port, path)).status == 200:
                return
        except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError):
            pass
        time.sleep(0.1)
    raise SystemExit(f"the server did not answer {path} within {timeout:.0f} s:\n{process.log_tail()}")


@dataclass(frozen=True)
class Checkout:
    """A checkout of Pravila and the Python that runs it (this one by default)."""

    repo: Path = REPO
    python: str = sys.executable

    @classmethod
    def at(cls, folder: Path) -> "Checkout":
        python = folder / ".venv" / "bin" / "python"
        if not python.is_file():
            raise SystemExit(f"{folder} has no .venv/bin/python (make a venv there and pip install -e . into it)")
        return cls(folder.resolve(), str(python))


def pravila(*args: str, checkout: Checkout = Checkout()) -> list[str]:
    """The ``pravila`` command of a checkout's Python (the CLI users run)."""
    return [checkout.python, "-m", "pravila", *args]


def build_site(build_dir: Path, checkout: Checkout = Checkout()) -> float:
    started = time.perf_counter()
    result = subprocess.run(pravila("build", "--build-dir", str(build_dir), checkout=checkout), capture_output=True,
                            text=True, timeout=600, cwd=checkout.repo)
    if result.returncode != 0:
        raise SystemExit(f"pravila build failed:\n{result.stdout}{result.stderr}")
    return time.perf_counter() - started


def start_pravila_serve(build_dir: Path, port: int, serve_args: list[str], log_path: Path,
                        checkout: Checkout = Checkout()) -> Process:
    argv = pravila("serve", "--build-dir", str(build_dir), "--host", HOST, "--port", str(port), *serve_args,
                   checkout=checkout)
    process = Process(argv, log_path, cwd=checkout.repo)
    try:
        wait_until_up(process, port, "/healthz")
    except BaseException:
        process.stop()
        raise
    return process


def start_http_server(site: Path, port: int, log_path: Path) -> Process:
    argv = [sys.executable, "-m", "http.server", "--bind", HOST, "--directory", str(site), str(port)]
    process = Process(argv, log_path, cwd=str(site))  # cwd: keep this folder off its sys.path
    try:
        wait_until_up(process, port, STATIC_PAGE)
    except BaseException:
        process.stop()
        raise
    return process


# --- a small HTTP/1.1 client: exact request lines, keep-alive -----------------------------------------------------


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    keep_alive: bool


class Connection:
    """One keep-alive connection; sends the request target exactly as given (latin-1 on the wire)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host_header: str):
        self.reader, self.writer, self.host_header = reader, writer, host_header

    @classmethod
    async def open(cls, port: int, host: str = HOST) -> "Connection":
        reader, writer = await asyncio.open_connection(host, port, limit=1 << 20)
        return cls(reader, writer, f"{host}:{port}")

    async def request(self, target: str, method: str = "GET") -> Response:
        head = f"{method} {target} HTTP/1.1\r\nHost: {self.host_header}\r\nUser-Agent: pravila-bench\r\n\r\n"
        self.writer.write(head.encode("latin-1"))
        await self.writer.drain()
        return await read_response(self.reader, method)

    def close(self) -> None:
        self.writer.close()


async def read_response(reader: asyncio.StreamReader, method: str) -> Response:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    version, status_text = lines[0].split(" ", 2)[:2]
    status = int(status_text)
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, sep, value = line.partition(":")
        if sep:
            headers[name.strip().lower()] = value.strip()
    keep_alive = version == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
    if method == "HEAD" or status in (204, 304) or 100 <= status < 200:
        body = b""
    elif "chunked" in headers.get("transfer-encoding", "").lower():
        chunks = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        await reader.readuntil(b"\r\n")
        body = b"".join(chunks)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        body, keep_alive = await reader.read(), False
    return Response(status, headers, body, keep_alive)


async def fetch_once(port: int, target: str, method: str = "GET", timeout: float = REQUEST_TIMEOUT) -> Response:
    conn = await asyncio.wait_for(Connection.open(port), timeout)
    try:
        return await asyncio.wait_for(conn.request(target, method), timeout)
    finally:
        conn.close()


# --- what the clients ask --------------------------------------------------------------------------------------


def load_query_mix(path: Path = QUERIES_MIX) -> list[tuple[str, str]]:
    """(lang, query) pairs of the search mix."""
    pairs = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            lang, _, query = line.partition("  ")
            pairs.append((lang.strip(), query.strip()))
    return pairs


def search_target(query: str, lang: str, limit: int = SEARCH_LIMIT) -> str:
    return f"/api/search?q={quote(query, safe='')}&lang={lang}&limit={limit}"


CYRILLIC = [chr(c) for c in range(0x430, 0x450)]
LATIN = [chr(c) for c in range(ord("a"), ord("z") + 1)]


def bad_word(rng: random.Random, letters: int = BAD_WORD_LETTERS) -> str:
    """A word of random letters, all Cyrillic or all Latin: each one new to every cache."""
    alphabet = rng.choice((CYRILLIC, LATIN))
    return "".join(rng.choice(alphabet) for _ in range(letters))


# --- load: the asyncio client ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """One group of connections asking one kind of request for a while."""

    name: str
    port: int
    connections: int
    seconds: float
    targets: tuple[str, ...] = ()  # asked in turn; empty: 200-letter random words
    seed: int = 1


@dataclass
class Result:
    requests: int = 0
    seconds: float = 0.0
    p50_ms: float = float("nan")
    p99_ms: float = float("nan")
    non_2xx: int = 0
    status_5xx: int = 0
    socket_errors: int = 0

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0


def percentile(ordered: list[float], p: float) -> float:
    """Nearest-rank percentile of sorted samples."""
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, int(round(p / 100 * len(ordered) + 0.5)) - 1))]


def target_source(load: Load):
    """A function giving the next request target (shared by the connections of one load)."""
    if load.targets:
        counter = itertools.count()
        return lambda: load.targets[next(counter) % len(load.targets)]
    rng = random.Random(load.seed)
    return lambda: search_target(bad_word(rng), "all")


async def _run_load(load: Load) -> Result:
    next_target = target_source(load)
    latencies: list[float] = []
    result = Result()
    max_requests = int(load.seconds * 200_000)  # a bound on the count as well as the time
    started = time.perf_counter()
    deadline = started + load.seconds

    async def worker() -> None:
        conn: Connection | None = None
        while time.perf_counter() < deadline and len(latencies) + result.socket_errors < max_requests:
            target = next_target()
            try:
                if conn is None:
                    conn = await asyncio.wait_for(Connection.open(load.port), REQUEST_TIMEOUT)
                sent = time.perf_counter()
                response = await asyncio.wait_for(conn.request(target), REQUEST_TIMEOUT)
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ValueError):
                result.socket_errors += 1
                if conn is not None:
                    conn.close()
                    conn = None
                await asyncio.sleep(0.01)
                continue
            latencies.append(time.perf_counter() - sent)
            if not 200 <= response.status < 300:
                result.non_2xx += 1
            if response.status >= 500:
                result.status_5xx += 1
            if not response.keep_alive:
                conn.close()
                conn = None
        if conn is not None:
            conn.close()

    await asyncio.gather(*(worker() for _ in range(load.connections)))
    result.seconds = time.perf_counter() - started
    latencies.sort()
    result.requests = len(latencies)
    result.p50_ms, result.p99_ms = percentile(latencies, 50) * 1000, percentile(latencies, 99) * 1000
    return result


def _load_process(load: Load, queue) -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    queue.put(asyncio.run(_run_load(load)))


class AsyncioClient:
    name = "asyncio"

    def describe(self) -> str:
        return "a Python asyncio HTTP/1.1 client, keep-alive, one process per group of connections"

    def run(self, loads: list[Load], tmp: Path) -> list[Result]:
        """Run the loads at the same time, each in its own process; the first one is the measured one."""
        ctx = multiprocessing.get_context("spawn")
        queues = [ctx.Queue() for _ in loads]
        procs = [ctx.Process(target=_load_process, args=(load, q), daemon=True) for load, q in zip(loads, queues)]
        try:
            for p in procs[1:]:  # background loads first, so they are under way when the measured one starts
                p.start()
            if len(procs) > 1:
                time.sleep(0.5)
            procs[0].start()
            timeout = max(load.seconds for load in loads) + REQUEST_TIMEOUT + 30
            return [q.get(timeout=timeout) for q in queues]
        except BaseException:  # Ctrl-C, or a load that never reported: stop the others now
            for p in procs:
                if p.is_alive():
                    p.kill()
            raise
        finally:
            for p in procs:
                p.join(timeout=REQUEST_TIMEOUT + 5)
                if p.is_alive():
                    p.kill()
                    p.join()


# --- load: wrk ------------------------------------------------------------------------------------------------

WRK_LUA = r"""
-- generated by benchmarks/serving.py
local targets = { %(targets)s }
local bad_words = %(bad_words)d
local counter = 0
c2xx, c5xx, other = 0, 0, 0  -- globals: done() reads them from each thread with thread:get
local threads = {}

function setup(thread)
  thread:set("thread_number", #threads)
  table.insert(threads, thread)
end

local cyrillic, latin = {}, {}
for cp = 0x430, 0x44F do
  table.insert(cyrillic, string.format("%%%%%%02X%%%%%%02X", 0xC0 + math.floor(cp / 64), 0x80 + cp %% 64))
end
for b = 97, 122 do table.insert(latin, string.char(b)) end

function init(args)
  counter = (thread_number or 0) * 37
  math.randomseed(%(seed)d + (thread_number or 0))
end

function request()
  counter = counter + 1
  if bad_words > 0 then
    local alphabet = (math.random(2) == 1) and cyrillic or latin
    local word = {}
    for i = 1, bad_words do word[i] = alphabet[math.random(#alphabet)] end
    return wrk.format("GET", "/api/search?q=" .. table.concat(word) .. "&lang=all&limit=%(limit)d")
  end
  return wrk.format("GET", targets[(counter %% #targets) + 1])
end

function response(status, headers, body)
  if status >= 200 and status < 300 then c2xx = c2xx + 1
  elseif status >= 500 then c5xx = c5xx + 1
  else other = other + 1 end
end

function done(summary, latency, requests)
  local ok, five, rest = 0, 0, 0
  for _, t in ipairs(threads) do
    ok = ok + t:get("c2xx"); five = five + t:get("c5xx"); rest = rest + t:get("other")
  end
  local e = summary.errors
  io.write(string.format(
    'PRAVILA_RESULT {"requests": %%d, "duration_us": %%d, "p50_us": %%d, "p99_us": %%d, ' ..
    '"c2xx": %%d, "c5xx": %%d, "other": %%d, "socket_errors": %%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    ok, five, rest, e.connect + e.read + e.write + e.timeout))
end
"""


def lua_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wrk_script(load: Load, folder: Path) -> Path:
    path = folder / f"wrk-{load.name.replace(' ', '-')}-{load.port}-{load.connections}.lua"
    source = WRK_LUA % {
        "targets": ", ".join(lua_string(t) for t in load.targets) or '"/"',
        "bad_words": 0 if load.targets else BAD_WORD_LETTERS,
        "seed": load.seed,
        "limit": SEARCH_LIMIT,
    }
    path.write_text(source, encoding="utf-8")
    return path


class WrkClient:
    name = "wrk"

    def __init__(self, wrk: str):
        self.wrk = wrk

    def describe(self) -> str:
        version = subprocess.run([self.wrk, "-v"], capture_output=True, text=True).stdout.splitlines()
        return f"{(version or ['wrk'])[0].split(' Copyright')[0]}, Lua scripts for the request mix and the counts"

    def run(self, loads: list[Load], tmp: Path) -> list[Result]:
        procs: list[subprocess.Popen] = []
        try:
            for i, load in enumerate(reversed(loads)):  # background loads first
                argv = [self.wrk, "-t", str(min(2, load.connections)), "-c", str(load.connections),
                        "-d", f"{load.seconds:g}s", "--timeout", f"{REQUEST_TIMEOUT:g}s", "-s", str(wrk_script(load, tmp)),
                        f"http://{HOST}:{load.port}/"]
                procs.insert(0, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                                 stdin=subprocess.DEVNULL))
                if i < len(loads) - 1:
                    time.sleep(0.5)
            return [self._result(p, max(load.seconds for load in loads) + REQUEST_TIMEOUT + 30) for p in procs]
        finally:
            for p in procs:
                if p.poll() is None:
                    p.terminate()
                    p.wait(timeout=10)

    @staticmethod
    def _result(proc: subprocess.Popen, timeout: float) -> Result:
        out, _ = proc.communicate(timeout=timeout)
        line = next((l for l in out.splitlines() if l.startswith("PRAVILA_RESULT ")), None)
        if line is None:
            raise SystemExit(f"wrk gave no result:\n{out}")
        data = json.loads(line.removeprefix("PRAVILA_RESULT "))
        return Result(
            requests=data["requests"], seconds=data["duration_us"] / 1e6,
            p50_ms=data["p50_us"] / 1000, p99_ms=data["p99_us"] / 1000,
            non_2xx=data["c5xx"] + data["other"], status_5xx=data["c5xx"], socket_errors=data["socket_errors"],
        )


# --- scenarios ----------------------------------------------------------------------------------------------


@dataclass
class Row:
    server: str
    scenario: str
    connections: int
    result: Result
    note: str = ""
    load: float = field(default_factory=lambda: os.getloadavg()[0])  # the machine's 1-minute load average


@dataclass
class Bench:
    client: AsyncioClient | WrkClient
    seconds: float
    tmp: Path
    rows: list[Row] = field(default_factory=list)

    def measure(self, server: str, scenario: str, loads: list[Load], background: list[str] = ()) -> None:
        """Run the first load with the others in the background (they start 0.5 s before it and end after it)."""
        loads = [loads[0], *(replace(load, seconds=load.seconds + 1) for load in loads[1:])]
        machine_load = os.getloadavg()[0]  # before this row's own load counts in it
        results = self.client.run(loads, self.tmp)
        self.add(Row(server, scenario, loads[0].connections, results[0], load=machine_load))
        for load, result, label in zip(loads[1:], results[1:], background):
            self.add(Row(server, label, load.connections, result, note="background", load=machine_load))

    def add(self, row: Row) -> None:
        self.rows.append(row)
        print_row(row)


@dataclass(frozen=True)
class Served:
    """One running server under test: its name in the table and its port."""

    name: str
    port: int


def run_pravila(bench: Bench, servers: list[Served], connections: list[int], search_targets: tuple[str, ...]) -> None:
    """Each scenario and number of connections on every server in turn."""
    static, health = (STATIC_PAGE,), ("/healthz",)
    s = bench.seconds
    for c in connections:
        for sv in servers:
            bench.measure(sv.name, "search", [Load("search", sv.port, c, s, search_targets)])
    for c in connections:
        for sv in servers:
            bench.measure(sv.name, "static page", [Load("static", sv.port, c, s, static)])
    for c in connections:
        for sv in servers:
            bench.measure(sv.name, "static page, search load", [
                Load("static", sv.port, c, s, static), Load("search-bg", sv.port, c, s, search_targets, seed=c)],
                background=[f"  search (background, {c} conn)"])
    for c in connections:
        for sv in servers:
            bench.measure(sv.name, f"/healthz, {BAD_WORD_CLIENTS} bad-word clients", [
                Load("healthz", sv.port, c, s, health), Load("badwords", sv.port, BAD_WORD_CLIENTS, s, seed=c)],
                background=[f"  {BAD_WORD_LETTERS}-letter words (background)"])


def run_reference(bench: Bench, port: int, connections: list[int]) -> None:
    for c in connections:
        bench.measure("http.server", "static page", [Load("ref-static", port, c, bench.seconds, (STATIC_PAGE,))])


def warm_up(port: int, targets: tuple[str, ...]) -> str:
    """Each search once and the static page a few times, so the first scenario does not pay for first sights.

    Returns a line saying how many searches answered 200 with hits (the mix must measure real searches).
    """

    async def go() -> tuple[int, int]:
        answered = with_hits = 0
        conn = await Connection.open(port)
        try:
            for target in targets:
                response = await asyncio.wait_for(conn.request(target), REQUEST_TIMEOUT)
                answered += response.status == 200
                with_hits += response.status == 200 and bool(json.loads(response.body)["hits"])
            for target in (*[STATIC_PAGE] * 20, "/healthz"):
                await asyncio.wait_for(conn.request(target), REQUEST_TIMEOUT)
        finally:
            conn.close()
        return answered, with_hits

    answered, with_hits = asyncio.run(go())
    return f"Warm-up: each search once: {answered}/{len(targets)} answered 200, {with_hits} with hits"


# --- output ---------------------------------------------------------------------------------------------------

HEADER = f"{'server':<14} {'scenario':<34} {'conn':>4} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8} {'5xx':>6} {'sock err':>8} {'load':>5}"


def print_row(row: Row) -> None:
    r = row.result
    print(f"{row.server:<14} {row.scenario:<34} {row.connections:>4} {r.rps:>8.0f} {r.p50_ms:>8.1f} {r.p99_ms:>8.1f} "
          f"{r.non_2xx:>8} {r.status_5xx:>6} {r.socket_errors:>8} {row.load:>5.1f}", flush=True)


def find(rows: list[Row], server: str, scenario: str, connections: int) -> Result | None:
    return next((r.result for r in rows if (r.server, r.scenario, r.connections) == (server, scenario, connections)), None)


def print_targets(rows: list[Row], connections: list[int], servers: list[str]) -> None:
    """The aims of issue #13 next to what was measured (figures only; nothing fails)."""
    print("\nAims (issue #13), measured in this run:")
    top = max(connections)
    for server in servers:
        print(f"  {server}:")
        search = find(rows, server, "search", top)
        if search:
            print(f"    search at {top} connections >= 1500 req/s (without a result cache): {search.rps:.0f} req/s")
        for c in connections:
            alone = find(rows, server, "static page", c)
            loaded = find(rows, server, "static page, search load", c)
            if alone and loaded:
                print(f"    static page p50 under search load <= 2x alone, {c} conn: {loaded.p50_ms:.1f} ms vs "
                      f"{alone.p50_ms:.1f} ms alone ({loaded.p50_ms / alone.p50_ms:.1f}x)")
        for c in connections:
            health = find(rows, server, f"/healthz, {BAD_WORD_CLIENTS} bad-word clients", c)
            if health:
                print(f"    /healthz p50 <= 20 ms while {BAD_WORD_CLIENTS} clients send bad words, {c} conn: {health.p50_ms:.1f} ms")
        five = sum(r.result.status_5xx for r in rows if r.server == server)
        print(f"    5xx answers during the whole run: {five}")


def machine() -> str:
    load1, load5, _ = os.getloadavg()
    return (f"{platform.node() or 'this machine'}: {os.cpu_count()} CPUs, Python {platform.python_version()}, "
            f"load average {load1:.2f} (1 min) {load5:.2f} (5 min) at the start")


# --- main ----------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="Length of each measurement (default 10).")
    parser.add_argument("--connections", default="1,8,32", help="Connection counts, comma-separated (default 1,8,32).")
    parser.add_argument("--client", choices=("wrk", "asyncio"), help="Load generator (default: wrk if installed).")
    parser.add_argument("--build-dir", type=Path, help="A folder built by 'pravila build' (default: build a temporary one).")
    parser.add_argument("--serve-arg", action="append", default=[], metavar="ARG",
                        help="Pass ARG on to 'pravila serve' (repeatable), e.g. --serve-arg=--workers=2.")
    parser.add_argument("--server", action="append", default=[], metavar="'NAME=ARGS'",
                        help="One more server of this checkout, its flags for 'pravila serve' after '=' (repeatable).")
    parser.add_argument("--baseline", type=Path, metavar="CHECKOUT",
                        help="Also measure another checkout's 'pravila serve' (with its .venv and its own build) as 'before'.")
    parser.add_argument("--baseline-arg", action="append", default=[], metavar="ARG",
                        help="Pass ARG on to the baseline's 'pravila serve' (repeatable).")
    parser.add_argument("--no-reference", action="store_true", help="Skip the python -m http.server reference.")
    args = parser.parse_args(argv)
    args.connections = [int(c) for c in args.connections.split(",") if c.strip()]
    for spec in args.server:
        if "=" not in spec or not spec.partition("=")[0].strip():
            parser.error(f"--server: NAME=ARGS, not {spec!r}")
    if not args.connections or min(args.connections) < 1 or max(args.connections) > 256:
        parser.error("--connections: whole numbers from 1 to 256")
    if not 0.5 <= args.seconds <= 120:
        parser.error("--seconds: from 0.5 to 120")
    return args


def choose_client(name: str | None) -> AsyncioClient | WrkClient:
    wrk = shutil.which("wrk")
    if name == "wrk" and not wrk:
        raise SystemExit("wrk is not installed (Debian: apt-get install wrk); or use --client asyncio")
    if name == "asyncio" or not wrk:
        return AsyncioClient()
    return WrkClient(wrk)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # run the finally blocks: stop the servers
    client = choose_client(args.client)
    search_targets = tuple(search_target(q, lang) for lang, q in load_query_mix())
    print(machine())
    print(f"Load generator: {client.describe()}; it runs on the same {os.cpu_count()} CPUs as the server.")
    with tempfile.TemporaryDirectory(prefix="pravila-serving-") as tmp_name:
        tmp = Path(tmp_name)
        build_dir = args.build_dir
        if build_dir is None:
            build_dir = tmp / "build"
            print(f"Built the sites and the index in {build_site(build_dir):.1f} s")
        elif not (build_dir / "site" / "index.html").is_file():
            raise SystemExit(f"{build_dir} has no built site; run: pravila build --build-dir {build_dir}")
        bench = Bench(client, args.seconds, tmp)
        specs: list[tuple[str, Checkout, Path, list[str]]] = []
        if args.baseline is not None:
            baseline = Checkout.at(args.baseline)
            baseline_build = tmp / "build-baseline"
            print(f"Built the baseline ({baseline.repo}) in {build_site(baseline_build, baseline):.1f} s")
            specs.append(("before", baseline, baseline_build, args.baseline_arg))
        if not args.server or args.serve_arg:
            specs.append(("pravila", Checkout(), build_dir, args.serve_arg))
        for spec in args.server:
            name, _, flags = spec.partition("=")
            specs.append((name.strip(), Checkout(), build_dir, flags.split()))
        servers: list[Served] = []
        with contextlib.ExitStack() as stack:
            for name, checkout, folder, flags in specs:
                port = free_port()
                print(f"Server {name!r}: pravila serve --build-dir … --host {HOST} --port {port} "
                      f"{' '.join(flags) or '(no extra flags)'}" + (f"  [{checkout.repo}]" if checkout != Checkout() else ""))
                stack.enter_context(start_pravila_serve(folder, port, flags, tmp / f"serve-{len(servers)}.log", checkout))
                servers.append(Served(name, port))
            print(f"Search mix: {len(search_targets)} queries ({QUERIES_MIX.name}), each request the next one; "
                  f"{args.seconds:g} s per row")
            for sv in servers:
                print(f"{sv.name}: " + warm_up(sv.port, search_targets), flush=True)
            print("\n" + HEADER)
            run_pravila(bench, servers, args.connections, search_targets)
        if not args.no_reference:
            port = free_port()
            with start_http_server(build_dir / "site", port, tmp / "http-server.log"):
                run_reference(bench, port, args.connections)
        print_targets(bench.rows, args.connections, [sv.name for sv in servers])
        print(f"\nLoad average at the end: {os.getloadavg()[0]:.2f} (1 min; this run's server and clients count in it)")
        print("\nreq/s counts answered requests; p50/p99 are per-request latencies seen by the client; "
              "'sock err' are connect/read errors and timeouts (> 10 s); 'load' is the machine's 1-minute load "
              "average as the row started (the previous rows' load counts in it).")


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        print("\ninterrupted; servers stopped", file=sys.stderr)
        sys.exit(130)
