"""The HTTP API: search, entries, health.  One ASGI app, JSON only.

    GET /api/search?q=&lang=ru|cs|all&limit=
        200 {"query", "lang", "total", "hits": [{"id", "lang", "title", "url", "snippet", "score"}]}
        an empty query, or one of only punctuation or stopwords: 200 with no hits
    GET /api/entries/{lang}/{id}
        200 the entry (``serialize.entry_to_dict``, as stored in the index)
    GET /healthz, GET /api/healthz
        200 {"status": "ok", "entries": {"ru": n, "cs": n, …}, "generation": …}
        503 {"status": "unavailable", "error": …} without an index, or when the
        searcher cannot read the index on disk (a rebuilt one failed to open)

Every method and every path under ``/api/`` is answered here, in JSON:
bad input is a 4xx ``{"error": message, "status": code}``, never a 5xx and
never a traceback: 400 for a bad parameter (NUL, a query over 200
characters, unknown lang, limit outside 1–50), 404 for an unknown entry or
path, 405 for another method than GET/HEAD.  With no index built the search
and health answer 503.

Searches never run on the event loop, so the site's files are served while
searches run: either in a small pool of threads, or (``pravila serve``'s
default) in a child process at a lower OS priority, which also keeps them
off this process's interpreter lock.  The searcher is opened once per
process and reused; it reopens by itself when a rebuild switches a new index
into place.

Answers can be kept in a result cache (``result_cache`` answers, LRU, per
process): keyed by the checked query (NFC, trimmed), language and limit, and
by the index generation on disk, so a rebuild empties it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import os
import queue
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .content import ID_RE
from .errors import IndexUnavailable, QueryError
from .search import Searcher, check_lang, check_limit, check_query, generation_on_disk

if TYPE_CHECKING:
    from .project import Project

log = logging.getLogger("pravila.api")

HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}
ALLOWED = ("GET", "HEAD")
SEARCH_THREADS = 4  # per process: a slow search does not hold up the others
SEARCH_NICE = 10  # search processes run at this lower priority than the server's event loop
HEALTH_SECONDS = 1.0  # /healthz asks the searcher at most this often (it may wait behind a search)
CACHE_BYTES = 32 * 1024 * 1024  # the result cache's bound in bytes, whatever its number of answers
PARAMETERS = ("q", "lang", "limit")
ENDPOINTS = "see /api/search, /api/entries/{lang}/{id}, /healthz"


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status, headers={**HEADERS, **(headers or {})})


def ok(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status, headers=HEADERS)


def json_bytes(data: Any) -> bytes:
    """The JSON of an answer, as Starlette's JSONResponse writes it."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False, indent=None, separators=(",", ":")).encode("utf-8")


def _param(request: Request, name: str) -> str | None:
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise QueryError(f"give '{name}' once, not {len(values)} times")
    return values[0] if values else None


def _checked(check: Callable[..., Any], value: str | None, name: str, *args: Any) -> Any:
    """A parameter through its check; any ValueError of the check is the reader's mistake (400), not ours."""
    try:
        return check(value, *args)
    except QueryError:
        raise
    except (ValueError, TypeError, OverflowError):
        raise QueryError(f"'{name}' is not valid (see /api/search?q=…&lang=…&limit=1–50)") from None


class ResultCache:
    """Search answers (JSON bytes) of one index generation, least recently used dropped first."""

    def __init__(self, size: int, max_bytes: int = CACHE_BYTES):
        self.size = max(0, int(size))
        self.max_bytes = max_bytes
        self._answers: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._bytes = 0
        self._generation: Any = None
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, generation: Any, key: tuple[Any, ...]) -> bytes | None:
        if not self.size:
            return None
        with self._lock:
            if generation != self._generation:
                self._answers.clear()
                self._bytes = 0
                self._generation = generation
            found = self._answers.get(key)
            if found is not None:
                self.hits += 1
                self._answers.move_to_end(key)
            return found

    def put(self, generation: Any, key: tuple[Any, ...], body: bytes) -> None:
        if not self.size or len(body) > self.max_bytes // 4:
            return
        with self._lock:
            if generation != self._generation:
                return  # computed on a generation that is no longer current
            old = self._answers.pop(key, None)
            if old is not None:
                self._bytes -= len(old)
            self._answers[key] = body
            self._bytes += len(body)
            while self._answers and (len(self._answers) > self.size or self._bytes > self.max_bytes):
                _, dropped = self._answers.popitem(last=False)
                self._bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._answers)


Handler = Callable[[Request, dict[str, str]], Awaitable[Response]]


# --- searching in child processes --------------------------------------------------------

_child_searcher: Searcher | None = None


def project_settings(project: "Project") -> dict[str, str]:
    """What another process needs to open the same project (JSON-able)."""
    return {"root": str(project.root), "content": str(project.content_dir), "build": str(project.build_dir),
            "site_url": project.site_url}


def open_project(settings: dict[str, str]) -> "Project":
    from pathlib import Path

    from .project import load_project

    root = Path(settings["root"])
    return load_project(root, content=Path(settings["content"]), build=Path(settings["build"]),
                        site_url=settings["site_url"], environ={}, cwd=root)


def _child_start(settings: dict[str, str], nice: int, parent: int) -> None:  # pragma: no cover - in the search process
    global _child_searcher
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the server process stops us

    def end_with_parent() -> None:  # however the server process ends, even by SIGKILL
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=end_with_parent, name="pravila-parent-watch", daemon=True).start()
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    _child_searcher = Searcher.for_project(open_project(settings))


def _run(searcher: Searcher, name: str, *args: Any) -> Any:
    """``searcher.<name>(*args)``; a search's answer as the API's JSON bytes (made where it ran)."""
    if name == "search":
        return json_bytes(searcher.search(*args).to_dict())
    return getattr(searcher, name)(*args)


def _child_main(conn: Any, settings: dict[str, str], nice: int, parent: int) -> None:  # pragma: no cover - search process
    """A search process: open the project's searcher, then answer calls from the pipe until it closes."""
    _child_start(settings, nice, parent)
    while True:
        try:
            name, args = conn.recv()
        except (EOFError, OSError):
            return
        try:
            assert _child_searcher is not None
            reply = (True, _run(_child_searcher, name, *args))
        except (QueryError, IndexUnavailable) as e:
            reply = (False, e)
        except Exception as e:  # noqa: BLE001 — sent back, logged by the server process
            reply = (False, RuntimeError(f"{type(e).__name__} in the search process: {e}"[:500]))
        conn.send(reply)


class SearchProcesses:
    """Search processes at a lower priority, each behind a pipe of its own.

    A caller (a thread of the server process) takes an idle process, sends
    it one call and waits for the answer: no queues, no manager threads.  A
    process that dies is replaced; the call it was answering is an
    :class:`IndexUnavailable` (a 503).
    """

    def __init__(self, settings: dict[str, str], count: int, nice: int):
        self.settings, self.nice = settings, nice
        self.context = multiprocessing.get_context("spawn")
        self._idle: "queue.Queue[tuple[Any, Any]]" = queue.Queue()
        self._all: list[Any] = []
        for _ in range(count):
            self._idle.put(self._start())

    def _start(self) -> tuple[Any, Any]:
        here, there = self.context.Pipe()
        process = self.context.Process(target=_child_main, args=(there, self.settings, self.nice, os.getpid()),
                                       name="pravila-search", daemon=True)
        process.start()
        there.close()
        self._all.append(process)
        return process, here

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self._all if p.is_alive()]

    def call(self, name: str, *args: Any) -> Any:
        process, conn = self._idle.get()
        try:
            conn.send((name, args))
            ok, value = conn.recv()
        except (EOFError, OSError):
            log.error("search process %s ended unexpectedly; starting another", process.pid)
            conn.close()
            process.join(timeout=1)
            self._idle.put(self._start())
            raise IndexUnavailable("the search process ended unexpectedly; try again") from None
        self._idle.put((process, conn))
        if ok:
            return value
        raise value

    def close(self) -> None:
        while not self._idle.empty():
            process, conn = self._idle.get_nowait()
            conn.close()  # the process reads the end of the pipe and returns
        for process in self._all:
            process.join(timeout=2)
            if process.is_alive():
                process.kill()
                process.join()


class Api:
    """The API of one project as an ASGI app: answers every method and path it is given, in JSON.

    Searches run either in ``threads`` threads of this process, or (with
    ``processes`` > 0) in that many child processes at a lower OS priority
    (``nice``): then a search never holds this process's interpreter lock,
    and when the CPUs are busy the kernel runs the event loop (pages, cached
    answers, health) first.
    """

    def __init__(self, project: "Project", *, result_cache: int = 0, threads: int = SEARCH_THREADS,
                 processes: int = 0, nice: int = SEARCH_NICE, searcher: Searcher | None = None):
        self.codes = project.codes
        self.index_dir = project.index_dir
        self.cache = ResultCache(result_cache)
        self.threads = threads
        self.processes = processes if searcher is None else 0
        self.nice = nice
        self._settings = project_settings(project)
        self.searcher = searcher or (Searcher.for_project(project) if not self.processes else None)
        self._pool: ThreadPoolExecutor | None = None
        self._children: SearchProcesses | None = None
        self._health_pool: ThreadPoolExecutor | None = None
        self._health: tuple[Any, float, dict[str, Any]] | None = None  # (generation, when, stats)
        self._pools_lock = threading.Lock()

    # --- where searches run ----------------------------------------------------------

    def _pools(self) -> tuple[ThreadPoolExecutor, ThreadPoolExecutor]:
        with self._pools_lock:
            if self._pool is None:
                if self.processes:
                    self._children = SearchProcesses(self._settings, self.processes, self.nice)
                # Threads that search, or that wait for a search process each.
                self._pool = ThreadPoolExecutor(self.processes or self.threads, thread_name_prefix="pravila-search")
                # Health checks have their own thread: they never queue behind searches in it.
                self._health_pool = ThreadPoolExecutor(1, thread_name_prefix="pravila-health")
            assert self._health_pool is not None
            return self._pool, self._health_pool

    async def _call(self, name: str, *args: Any, health: bool = False) -> Any:
        """``searcher.<name>(*args)``, in a thread or a search process."""
        pool, health_pool = self._pools()
        loop = asyncio.get_running_loop()
        if self._children is not None:
            return await loop.run_in_executor(health_pool if health else pool, self._children.call, name, *args)
        assert self.searcher is not None
        return await loop.run_in_executor(health_pool if health else pool, _run, self.searcher, name, *args)

    def close(self) -> None:
        """Stop the threads and search processes (waits for the searches under way, a few ms)."""
        with self._pools_lock:
            pools, self._pool, self._health_pool = (self._pool, self._health_pool), None, None
            children, self._children = self._children, None
        for pool in pools:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)
        if children is not None:
            children.close()

    # --- ASGI ---------------------------------------------------------------------------

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":  # when served alone
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    self.close()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] != "http":
            return
        request = Request(scope, receive)
        response = await self.answer(request)
        await response(scope, receive, send)

    def route(self, path: str) -> tuple[Handler, dict[str, str]] | None:
        if path in ("/healthz", "/api/healthz"):
            return self.healthz, {}
        if path == "/api/search":
            return self.search, {}
        parts = path.split("/")
        if len(parts) == 5 and parts[:3] == ["", "api", "entries"] and parts[3] and parts[4]:
            return self.entry, {"lang": parts[3], "id": parts[4]}
        return None

    async def answer(self, request: Request) -> Response:
        found = self.route(request.scope["path"])  # not request.url: it drops tabs and newlines
        if found is None:
            return error(404, f"no such API endpoint; {ENDPOINTS}")
        if request.method not in ALLOWED:
            return error(405, f"method {request.method[:20]} is not allowed here; use GET", {"Allow": "GET, HEAD"})
        handler, params = found
        try:
            return await handler(request, params)
        except QueryError as e:
            return error(400, str(e))
        except IndexUnavailable as e:
            self._health = None
            log.warning("%s", e)
            return error(503, "the search index is not available; run 'pravila build'")
        except Exception:  # noqa: BLE001 — log it for us, answer JSON without a traceback
            log.exception("error answering %r", request.scope["path"][:200])
            return error(500, "internal error")

    # --- endpoints ----------------------------------------------------------------------

    async def search(self, request: Request, params: dict[str, str]) -> Response:
        for name in request.query_params:
            if name not in PARAMETERS:
                raise QueryError(f"unknown parameter '{name[:40]}' (expected q, lang, limit)")
        query = _checked(check_query, _param(request, "q"), "q")
        lang = _checked(check_lang, _param(request, "lang"), "lang", self.codes)
        limit = _checked(check_limit, _param(request, "limit"), "limit")
        generation = generation_on_disk(self.index_dir) if self.cache.size else None
        key = (query, lang, limit)
        body = self.cache.get(generation, key) if generation is not None else None
        if body is None:
            body = await self._call("search", query, lang, limit)
            if generation is not None:
                self.cache.put(generation, key, body)
        return Response(body, media_type="application/json", headers=HEADERS)

    async def entry(self, request: Request, params: dict[str, str]) -> Response:
        lang, entry_id = params["lang"], params["id"]
        if lang not in self.codes:
            return error(404, f"unknown language: expected /api/entries/<lang>/<id> with lang one of {', '.join(self.codes)}")
        data = None
        if len(entry_id) <= 100 and ID_RE.fullmatch(entry_id):  # "grapple\n" is not an id ($ matches before a newline)
            data = await self._call("entry", lang, entry_id)
        if data is None:
            return error(404, f"no entry '{entry_id[:100]}' in '{lang}'")
        return ok(data)

    async def healthz(self, request: Request, params: dict[str, str]) -> Response:
        """The searcher's own word (at most once a second; at once when the index on disk changed or a read failed)."""
        generation = generation_on_disk(self.index_dir)
        cached = self._health
        if cached is not None and cached[0] == generation and time.monotonic() - cached[1] < HEALTH_SECONDS:
            return ok({"status": "ok", **cached[2]})
        try:
            stats = await self._call("stats", health=True)
        except IndexUnavailable as e:
            self._health = None
            log.warning("health: %s", e)
            return ok({"status": "unavailable", "error": f"the search index is not available ({_first_line(e)}); "
                                                       "run 'pravila build'"}, status=503)
        self._health = (generation, time.monotonic(), stats)
        return ok({"status": "ok", **stats})


def _first_line(e: Exception) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text[:300]


def api_routes(project: "Project", **options: Any) -> list[Route]:
    """The API as routes to mount in a Starlette app (one :class:`Api`, shared by every request)."""
    api = Api(project, **options)
    return [
        Route("/healthz", api, methods=None),
        Route("/api", api, methods=None),
        Route("/api/{rest:path}", api, methods=None),
    ]
