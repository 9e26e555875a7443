"""``pravila serve``: the static sites, the search API and a content watcher.

- ``/`` negotiates the reader's language from ``Accept-Language`` (Babel's
  :func:`~babel.negotiate_locale`) among the project's languages and
  redirects to ``/ru/``, ``/cs/``, …; without a match it shows the static
  language chooser.
- ``/api/…`` and ``/healthz`` are the API (:mod:`pravila.api`): JSON for
  every method and path, searches in a thread pool off the event loop.
- Everything else is a file of the project's ``build/site``
  (:mod:`pravila.static`): precompressed copies by ``Accept-Encoding``,
  ``immutable`` caching for fingerprinted assets, ETags, and nothing outside
  the site, ever.  A rebuild exchanges the whole folder in one atomic step
  (:func:`pravila.site.swap_into_place`), so a reader never sees half of it,
  in any worker process.
- Every answer carries the security headers (nosniff, a
  Content-Security-Policy, framing only by the site itself, a referrer
  policy); a request target over :data:`MAX_TARGET_BYTES` is a 414 and
  headers over :data:`MAX_HEADER_BYTES` a 431 (JSON under ``/api``).
- ``--workers N`` runs N server processes on one port
  (:mod:`pravila.workers`); each builds its app with
  :func:`app_from_environment` from the settings the parent passes in the
  environment.  Only the parent watches the content and rebuilds.
- With ``watch``, a background thread rebuilds on every change under the
  content folder; content with problems, or any failure of the build, is
  logged and the previous build keeps being served.
"""

from __future__ import annotations

import json
import logging
import os
import re
import socket
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable
from urllib.parse import quote

from babel import negotiate_locale

from .api import SEARCH_THREADS, Api, open_project, project_settings
from .errors import PravilaError
from .static import SECURITY_HEADERS, StaticFile, StaticSite, csp, etag_matches, etag_of

if TYPE_CHECKING:
    from .project import Project

log = logging.getLogger("pravila.server")

NO_CACHE = "no-cache"
MAX_TARGET_BYTES = 8 * 1024  # request line's target (path and query): longer is a 414
MAX_HEADER_BYTES = 32 * 1024  # all header names and values together: more is a 431
MAX_HEADERS = 100
SETTINGS_VARIABLE = "PRAVILA_SERVE_SETTINGS"  # how the parent tells worker processes what to serve
_LOC_RE = re.compile(r"<loc>https?://[^/<]+/")
_HREF_RE = re.compile(r'href="https?://[^/"]+/')
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_HOST_RE = re.compile(rf"(?:{_LABEL}(?:\.{_LABEL})*|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?")


@dataclass(frozen=True)
class ServeOptions:
    """How ``pravila serve`` runs, beyond the project's settings."""

    result_cache: int = 1000  # search answers kept per process (0: none)
    search_threads: int = SEARCH_THREADS  # threads per process that run searches (without search processes)
    search_processes: int = 0  # child processes per server process that run searches, at a lower priority (0: threads)


def parse_accept_language(header: str | None) -> list[str]:
    """Language tags by preference (quality, then order).

    >>> parse_accept_language("en-US,en;q=0.9,cs;q=0.8,ru;q=0.95")
    ['en-US', 'ru', 'en', 'cs']
    >>> parse_accept_language("")
    []
    """
    tags: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")[:50]):
        piece = part.strip()
        if not piece:
            continue
        tag, _, params = piece.partition(";")
        q = 1.0
        for p in params.split(";"):
            name, _, value = p.strip().partition("=")
            if name == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if q > 0 and tag.strip() and tag.strip() != "*":
            tags.append((-q, i, tag.strip()))
    return [tag for _, _, tag in sorted(tags)]


LANGUAGE_COOKIE = "pravila_lang"  # set by the language switcher and the chooser (static/site.js, chooser.html)


def remembered_language(cookie_header: str | None, available: Iterable[str]) -> str | None:
    """The language the reader chose on this site before (its cookie), when it is one of ``available``.

    >>> remembered_language("a=1; pravila_lang=cs", ("ru", "cs")), remembered_language("pravila_lang=de", ("ru", "cs"))
    ('cs', None)
    >>> remembered_language(None, ("ru", "cs"))
    """
    from http.cookies import CookieError, SimpleCookie

    if not cookie_header:
        return None
    try:
        jar = SimpleCookie(cookie_header)
    except CookieError:
        return None
    morsel = jar.get(LANGUAGE_COOKIE)
    value = morsel.value if morsel is not None else None
    return value if value in tuple(available) else None


def negotiate(header: str | None, available: Iterable[str]) -> str | None:
    """The site language for an ``Accept-Language`` header, or None.

    >>> langs = ("ru", "cs")
    >>> negotiate("cs-CZ,cs;q=0.9,en;q=0.8", langs), negotiate("ru-RU", langs), negotiate("en-US,de", langs), negotiate(None, langs)
    ('cs', 'ru', None, None)
    >>> negotiate("en;q=0.9,ru;q=0.5,cs;q=0.7", langs)
    'cs'
    """
    available = list(available)
    try:
        found = negotiate_locale(parse_accept_language(header), available, sep="-")
    except (ValueError, TypeError):  # a tag Babel cannot read is a tag we do not have
        return None
    if found is None:
        return None
    found = found.lower().split("-")[0]
    return found if found in available else None


def valid_host(host: str | None) -> bool:
    """Whether a ``Host`` header is a host name or IP address with an optional port, and nothing else.

    >>> [valid_host(h) for h in ("rules.example.org", "127.0.0.1:8000", "[::1]:80", "evil.org/<script>", "a b", "", None)]
    [True, True, True, False, False, False, False]
    """
    return bool(host) and len(host) <= 260 and _HOST_RE.fullmatch(host) is not None  # type: ignore[arg-type]


# --- ASGI ----------------------------------------------------------------------------------


def _headers(pairs: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in pairs.items()]


async def _send(send: Any, status: int, headers: dict[str, str], body: bytes = b"", head: bool = False) -> None:
    headers = {**headers, "Content-Length": str(len(body))}
    await send({"type": "http.response.start", "status": status, "headers": _headers(headers)})
    await send({"type": "http.response.body", "body": b"" if head else body})


_DEFAULT_HEADERS = _headers({**SECURITY_HEADERS, "Content-Security-Policy": csp()})


def _with_security_headers(send: Any) -> Any:
    """``send``, adding the security headers an answer does not set itself."""

    async def wrapped(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            present = {name.lower() for name, _ in headers}
            headers += [(k, v) for k, v in _DEFAULT_HEADERS if k not in present]
            message = {**message, "headers": headers}
        await send(message)

    return wrapped


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


class App:
    """The whole site as one ASGI app: the edge checks, the API, the static files."""

    def __init__(self, project: "Project", *, api: bool = True, options: ServeOptions | None = None):
        options = options or ServeOptions()
        self.project = project
        self.options = options
        self.site = StaticSite(project.site_dir, project.codes)
        self.api = Api(project, result_cache=options.result_cache, threads=options.search_threads,
                       processes=options.search_processes) if api else None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    if self.api is not None:
                        self.api.close()
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        if scope["type"] != "http":
            return
        send = _with_security_headers(send)
        path = scope["path"]
        is_api = self.api is not None and (path in ("/api", "/healthz") or path.startswith("/api/"))
        too_big = self._too_big(scope)
        if too_big is not None:
            status, message = too_big
            if is_api:
                body = json.dumps({"error": message, "status": status}).encode("utf-8")
                await _send(send, status, {"Content-Type": "application/json", "Cache-Control": "no-store"}, body)
            else:
                await _send(send, status, {"Content-Type": "text/plain; charset=utf-8"}, f"{status} {message}\n".encode())
            return
        if is_api:
            assert self.api is not None
            await self.api(scope, receive, send)
        else:
            await self.static(scope, send)

    @staticmethod
    def _too_big(scope: dict[str, Any]) -> tuple[int, str] | None:
        raw_path = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
        if len(raw_path) + len(scope.get("query_string") or b"") + 1 > MAX_TARGET_BYTES:
            return 414, f"the address is too long (at most {MAX_TARGET_BYTES} bytes)"
        headers = scope.get("headers") or []
        if len(headers) > MAX_HEADERS or sum(len(k) + len(v) + 4 for k, v in headers) > MAX_HEADER_BYTES:
            return 431, f"the request's headers are too large (at most {MAX_HEADERS} headers, {MAX_HEADER_BYTES} bytes)"
        return None

    # --- the static site ----------------------------------------------------------------

    async def static(self, scope: dict[str, Any], send: Any) -> None:
        method = scope["method"]
        head = method == "HEAD"
        if method not in ("GET", "HEAD"):
            await _send(send, 405, {"Allow": "GET, HEAD", "Content-Type": "text/plain; charset=utf-8"}, b"405 Method Not Allowed\n")
            return
        path = scope["path"]
        vary: list[str] = []
        if path == "/":
            # The reader's own choice first (the language switcher's cookie), then the browser's languages;
            # ?choose shows the chooser anyway.
            vary = ["Accept-Language", "Cookie"]
            asks = b"choose" in (scope.get("query_string") or b"").split(b"&")
            lang = None if asks else (remembered_language(_header(scope, b"cookie"), self.project.codes)
                                      or negotiate(_header(scope, b"accept-language"), self.project.codes))
            if lang:
                await _send(send, 302, {"Vary": ", ".join(vary), "Location": f"/{lang}/", "Cache-Control": NO_CACHE}, head=head)
                return
        kind, file = self.site.get(path)
        if kind == "redirect":
            query = scope.get("query_string") or b""
            location = "/" + quote(path.strip("/"), safe="/:@!$&'()*+,;=-._~") + "/" + (("?" + query.decode("latin-1")) if query else "")
            await _send(send, 301, {"Location": location, "Cache-Control": NO_CACHE}, head=head)
            return
        status = 200
        if file is None:
            file = self.site.not_found_page(path)
            if file is None:
                await _send(send, 404, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": NO_CACHE}, b"404 Not Found\n", head)
                return
            status = 404
        await self._send_file(scope, send, file, status, vary, head)

    async def _send_file(self, scope: dict[str, Any], send: Any, file: StaticFile, status: int,
                         vary: list[str], head: bool) -> None:
        if file.path.name == "sitemap.xml":
            body = self._sitemap(scope, file.variants[0].body)
            etag, encoding = etag_of(body), None
        else:
            variant = file.variant(_header(scope, b"accept-encoding"))
            body, etag, encoding = variant.body, variant.etag, variant.encoding
            vary = [*vary, *(["Accept-Encoding"] if file.negotiated else [])]
        headers = {"Content-Type": file.media_type, "Cache-Control": file.cache_control, "ETag": etag,
                   "Content-Security-Policy": file.csp}
        if vary:
            headers["Vary"] = ", ".join(vary)
        if status == 200 and etag_matches(_header(scope, b"if-none-match"), etag):
            del headers["Content-Type"]
            await send({"type": "http.response.start", "status": 304, "headers": _headers(headers)})
            await send({"type": "http.response.body", "body": b""})
            return
        if encoding:
            headers["Content-Encoding"] = encoding
        await _send(send, status, headers, body, head)

    def _sitemap(self, scope: dict[str, Any], body: bytes) -> bytes:
        """The sitemap with this server's origin, so Material's previews work under any address.

        Only a well-formed ``Host`` is written into it; otherwise it keeps the
        configured site URL it was built with.
        """
        host = _header(scope, b"host")
        if not valid_host(host):
            return body
        scheme = "https" if scope.get("scheme") == "https" else "http"
        base = f"{scheme}://{host}/"
        text = _LOC_RE.sub(lambda m: f"<loc>{base}", body.decode("utf-8"))
        return _HREF_RE.sub(lambda m: f'href="{base}', text).encode("utf-8")


def create_app(project: "Project", *, api: bool = True, options: ServeOptions | None = None) -> App:
    """The ASGI app: language negotiation, the API and the static site."""
    return App(project, api=api, options=options)


# --- worker processes -----------------------------------------------------------------------


def worker_settings(project: "Project", options: ServeOptions) -> str:
    """What a worker process needs to build the same app (JSON, passed in :data:`SETTINGS_VARIABLE`)."""
    return json.dumps({**project_settings(project), "options": asdict(options)})


def app_from_environment() -> App:
    """The app factory of a worker process (``uvicorn --factory pravila.server:app_from_environment``)."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    raw = os.environ.get(SETTINGS_VARIABLE)
    if not raw:
        raise RuntimeError(f"{SETTINGS_VARIABLE} is not set: start worker processes with 'pravila serve --workers N'")
    settings = json.loads(raw)
    return create_app(open_project(settings), options=ServeOptions(**settings["options"]))


def _http_protocol() -> Any:
    """httptools (C parser) with the request target capped, else h11 (pure Python)."""
    if _CappedHttpTools is not None:
        return _CappedHttpTools
    return "h11"


_RAW_TARGET_RE = re.compile(rb"([A-Z]{1,20} )([^\x00-\x20\x7f]*[\x80-\xff][^\x00-\x20\x7f]*)(?= HTTP/1\.[01]\r?\n)")

try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _HttpTools
except ImportError:  # pragma: no cover - httptools is a dependency
    _CappedHttpTools = None
else:

    class _CappedHttpTools(_HttpTools):  # type: ignore[no-redef,misc]
        """httptools, keeping at most :data:`MAX_TARGET_BYTES` + 3 bytes of the request target, and without Nagle.

        httptools cannot parse a target over 64 KB and uvicorn then answers a
        plain-text 400; cut short, the app sees a target over the limit and
        answers its own 414 (JSON under /api).  Raw UTF-8 in a request line
        (what curl sends for a Cyrillic query typed as is) is percent-encoded
        first, and a request the parser still refuses is a JSON 400 under /api.

        With ``--workers`` uvicorn binds the socket itself with protocol 0,
        and asyncio only sets ``TCP_NODELAY`` on connections of a socket
        created as IPPROTO_TCP: every small answer after the first on a
        keep-alive connection then waited ~40 ms for the client's delayed ACK
        (measured: /healthz p50 43 ms with 2 workers, 0.25 ms with one).
        """

        def data_received(self, data: bytes) -> None:
            # curl sends what is typed: /api/search?q=прыжок as raw UTF-8, which the parser refuses.
            # Percent-encode it, as a browser would, when a request line with such bytes starts the data.
            raw = _RAW_TARGET_RE.match(data)
            if raw is not None:
                target = re.sub(rb"[\x80-\xff]", lambda m: b"%%%02X" % m.group()[0], raw.group(2))
                data = raw.group(1) + target + data[raw.end(2):]
            self._last_data = data[:512]
            super().data_received(data)

        def send_400_response(self, msg: str) -> None:
            """A request the parser refuses: JSON when it was meant for /api, like every other /api answer."""
            target = re.match(rb"[A-Z]{1,20} (/\S*)", getattr(self, "_last_data", b""))
            if target is None or not re.match(rb"/(?:api|healthz)(?![A-Za-z0-9_.~-])", target.group(1)):
                return super().send_400_response(msg)
            body = json.dumps({"error": "not a valid HTTP request (characters outside ASCII must be percent-encoded)",
                               "status": 400}).encode("ascii")
            head = [b"HTTP/1.1 400 Bad Request\r\n"]
            for name, value in self.server_state.default_headers:
                head.append(name + b": " + value + b"\r\n")
            head.append(b"content-type: application/json\r\ncontent-length: %d\r\nconnection: close\r\n\r\n" % len(body))
            self.transport.write(b"".join(head) + body)
            self.transport.close()

        def connection_made(self, transport: Any) -> None:
            sock = transport.get_extra_info("socket")
            if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
                try:
                    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                except OSError:  # pragma: no cover - a socket that is not TCP after all
                    pass
            super().connection_made(transport)

        def on_url(self, url: bytes) -> None:
            keep = MAX_TARGET_BYTES + 3  # still over the limit once an escape cut in half is dropped
            if len(self.url) < keep:
                self.url += url[: keep - len(self.url)]
                if len(self.url) >= keep:
                    self.url = re.sub(rb"%[0-9A-Fa-f]?$", b"", self.url)


# --- rebuilding -----------------------------------------------------------------------------


def rebuild(project: "Project") -> bool:
    """Check the content and build everything; on any problem keep the old build and log why."""
    from .build import build
    from .errors import ContentError

    try:
        summary = build(project)
    except ContentError as e:
        for p in e.problems:
            log.error("%s", p)
        log.error("the content has %d problem(s); still serving the previous build", len(e.problems))
        return False
    except PravilaError as e:
        log.error("rebuild failed, still serving the previous build: %s", e)
        return False
    except Exception as e:  # noqa: BLE001 — whatever breaks a build must not stop the server or the watcher
        log.exception("rebuild failed (%s), still serving the previous build", type(e).__name__)
        return False
    log.info("%s", summary)
    return True


class Watcher:
    """Rebuilds in a background thread whenever a file under the project's content folder changes.

    It keeps watching whatever happens: a failed rebuild is logged, and if
    watching itself fails (the folder removed, say) it starts again.
    """

    RETRY_SECONDS = 1.0

    def __init__(self, project: "Project"):
        self.project = project
        self.content_dir = project.content_dir
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="pravila-watch", daemon=True)

    def start(self) -> "Watcher":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        log.info("watching %s for changes", self.content_dir)
        while not self.stop_event.is_set():
            try:
                self._watch()
            except Exception:  # noqa: BLE001 — log it and watch again
                log.exception("watching %s failed; starting again", self.content_dir)
                self.stop_event.wait(self.RETRY_SECONDS)

    def _watch(self) -> None:
        from watchfiles import watch

        for changes in watch(self.content_dir, stop_event=self.stop_event, debounce=300, step=50, raise_interrupt=False):
            names = sorted({Path(p).name for _, p in changes})
            log.info("changed: %s; rebuilding", ", ".join(names))
            rebuild(self.project)  # logs its own failures and never raises them


def uvicorn_settings(*, access_log: bool = False, log_level: str = "info") -> dict[str, Any]:
    """How uvicorn runs the app (``pravila serve``, and the tests' servers)."""
    return {
        "log_level": log_level, "access_log": access_log, "http": _http_protocol(),
        "h11_max_incomplete_event_size": 1024 * 1024,  # with h11: let the app see (and refuse) long targets
        "lifespan": "on",
    }


def default_workers() -> int:
    """One worker process per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run(project: "Project", host: str, port: int, watch: bool, *, workers: int = 1, access_log: bool = False,
        options: ServeOptions | None = None) -> None:
    """Serve until interrupted (``pravila serve``)."""
    import uvicorn

    options = options or ServeOptions()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    if not (project.site_dir / "index.html").is_file():
        log.info("no site in %s yet; building it", project.build_dir)
        rebuild(project)
    watcher = Watcher(project).start() if watch else None
    config = {"host": host, "port": port, **uvicorn_settings(access_log=access_log)}
    try:
        if workers > 1:
            from .workers import FACTORY, Supervisor, reuse_port_supported

            os.environ[SETTINGS_VARIABLE] = worker_settings(project, options)
            if reuse_port_supported():
                if not Supervisor(host, port, workers, uvicorn_settings(access_log=access_log)).run():
                    raise SystemExit(1)
            else:  # pragma: no cover - systems without SO_REUSEPORT: uvicorn's supervisor, one shared socket
                uvicorn.run(FACTORY, factory=True, workers=workers, **config)
        else:
            uvicorn.run(create_app(project, options=options), **config)
    finally:
        if watcher is not None:
            watcher.stop()
