"""``pravila serve``: the static sites, the search API and a content watcher in one process.

- ``/`` negotiates the reader's language from ``Accept-Language`` (Babel's
  :func:`~babel.negotiate_locale`) among the project's languages and
  redirects to ``/ru/``, ``/cs/``, …; without a match it shows the static
  language chooser.
- Everything else is a file of the project's ``build/site``; nothing outside
  it is ever served.  A rebuild exchanges the whole folder in one atomic
  step (:func:`pravila.site.swap_into_place`), so a reader never sees half
  of it.
- ``pravila.api.api_routes(project)`` (search, entries, health) is mounted
  when that module exists.
- With ``watch``, a background thread rebuilds on every change under the
  content folder; content with problems is logged and the previous build
  keeps being served.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import logging
import mimetypes
import re
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from babel import negotiate_locale
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from .errors import PravilaError

if TYPE_CHECKING:
    from .project import Project

log = logging.getLogger("pravila.server")

NO_CACHE = "no-cache"
_LOC_RE = re.compile(r"<loc>https?://[^/<]+/")
_HREF_RE = re.compile(r'href="https?://[^/"]+/')


def parse_accept_language(header: str | None) -> list[str]:
    """Language tags by preference (quality, then order).

    >>> parse_accept_language("en-US,en;q=0.9,cs;q=0.8,ru;q=0.95")
    ['en-US', 'ru', 'en', 'cs']
    >>> parse_accept_language("")
    []
    """
    tags: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
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


def negotiate(header: str | None, available: Iterable[str]) -> str | None:
    """The site language for an ``Accept-Language`` header, or None.

    >>> langs = ("ru", "cs")
    >>> negotiate("cs-CZ,cs;q=0.9,en;q=0.8", langs), negotiate("ru-RU", langs), negotiate("en-US,de", langs), negotiate(None, langs)
    ('cs', 'ru', None, None)
    >>> negotiate("en;q=0.9,ru;q=0.5,cs;q=0.7", langs)
    'cs'
    """
    available = list(available)
    found = negotiate_locale(parse_accept_language(header), available, sep="-")
    if found is None:
        return None
    found = found.lower().split("-")[0]
    return found if found in available else None


class StaticSite:
    """Files of the built site (``build/site``), read whole."""

    def __init__(self, root: Path, languages: Iterable[str]):
        self.root = Path(root)
        self.languages = tuple(languages)

    def resolve(self, url_path: str) -> tuple[str, Path | None]:
        """``("file", path)``, ``("redirect", None)`` for a folder without its slash, or ``("missing", None)``."""
        parts = [p for p in url_path.split("/") if p]
        if any(p in (".", "..") or "\\" in p or "\x00" in p or p.startswith(".") for p in parts):
            return "missing", None
        root = self.root.resolve()
        path = root.joinpath(*parts) if parts else root
        try:
            path = path.resolve()
        except OSError:
            return "missing", None
        if path != root and root not in path.parents:
            return "missing", None
        if path.is_dir():
            if url_path and not url_path.endswith("/"):
                return "redirect", None
            path = path / "index.html"
        return ("file", path) if path.is_file() else ("missing", None)

    def read(self, url_path: str) -> tuple[str, bytes | None, Path | None]:
        for attempt in (1, 2):  # a rebuild may exchange the folder between finding a file and reading it
            kind, path = self.resolve(url_path)
            if kind != "file" or path is None:
                return kind, None, None
            try:
                return kind, path.read_bytes(), path
            except (FileNotFoundError, NotADirectoryError):
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def not_found_page(self, url_path: str) -> bytes | None:
        lang = url_path.strip("/").split("/")[0]
        if lang in self.languages:
            page = self.root / lang / "404.html"
            try:
                return page.read_bytes()
            except OSError:
                return None
        return None


def _media_type(path: Path) -> str:
    if path.suffix == ".html":
        return "text/html; charset=utf-8"
    if path.suffix in (".js", ".mjs"):
        return "text/javascript; charset=utf-8"
    if path.suffix == ".css":
        return "text/css; charset=utf-8"
    if path.suffix == ".xml":
        return "application/xml; charset=utf-8"
    if path.suffix == ".json":
        return "application/json"
    if path.suffix == ".svg":
        return "image/svg+xml"
    guessed, _ = mimetypes.guess_type(path.name)
    return guessed or "application/octet-stream"


def _base_of(request: Request) -> str:
    return str(request.base_url).rstrip("/") + "/"


def create_app(project: "Project", *, api: bool = True) -> Starlette:
    """The ASGI app: language negotiation, the API (if present) and the static site."""
    site = StaticSite(project.site_dir, project.codes)

    def home(request: Request) -> Response:
        lang = negotiate(request.headers.get("accept-language"), project.codes)
        headers = {"Vary": "Accept-Language", "Cache-Control": NO_CACHE}
        if lang:
            return RedirectResponse(f"/{lang}/", status_code=302, headers=headers)
        return serve_file(request, "", extra_headers=headers)

    def static(request: Request) -> Response:
        return serve_file(request, request.path_params["path"])

    def serve_file(request: Request, url_path: str, extra_headers: dict[str, str] | None = None) -> Response:
        kind, body, path = site.read(url_path)
        if kind == "redirect":
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"/{url_path.strip('/')}/{query}", status_code=301)
        if body is None or path is None:
            page = site.not_found_page(url_path)
            if page is not None:
                return Response(page, status_code=404, media_type="text/html; charset=utf-8")
            return PlainTextResponse("404 Not Found", status_code=404)
        if path.name == "sitemap.xml":
            # Material's previews and language switcher compare the sitemap's
            # URLs with the page's: answer with this server's origin.
            base = _base_of(request)
            body = _LOC_RE.sub(lambda m: f"<loc>{base}", body.decode("utf-8"))
            body = _HREF_RE.sub(lambda m: f'href="{base}', body).encode("utf-8")
        etag = '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'
        headers = {"ETag": etag, "Cache-Control": NO_CACHE, **(extra_headers or {})}
        if request.headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=headers)
        if request.method == "HEAD":
            headers["Content-Length"] = str(len(body))
            return Response(b"", media_type=_media_type(path), headers=headers)
        return Response(body, media_type=_media_type(path), headers=headers)

    routes: list[Any] = []
    if api:
        routes += _api_routes(project)
    routes += [
        Route("/", home, methods=["GET", "HEAD"]),
        Route("/{path:path}", static, methods=["GET", "HEAD"]),
    ]
    app = Starlette(routes=routes)
    app.state.project = project
    return app


def _api_routes(project: "Project") -> list[Any]:
    if importlib.util.find_spec("pravila.api") is None:
        return []
    api = importlib.import_module("pravila.api")
    return list(api.api_routes(project))


# --- rebuilding ----------------------------------------------------------------


def rebuild(project: "Project") -> bool:
    """Check the content and build everything; on problems keep the old build and log them."""
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
    log.info("%s", summary)
    return True


class Watcher:
    """Rebuilds in a background thread whenever a file under the project's content folder changes."""

    def __init__(self, project: "Project"):
        self.project = project
        self.content_dir = project.content_dir
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self._run, name="pravila-watch", daemon=True)
        self.builds = 0

    def start(self) -> "Watcher":
        self.thread.start()
        return self

    def stop(self) -> None:
        self.stop_event.set()
        self.thread.join(timeout=5)

    def _run(self) -> None:
        from watchfiles import watch

        log.info("watching %s for changes", self.content_dir)
        for changes in watch(self.content_dir, stop_event=self.stop_event, debounce=300, step=50, raise_interrupt=False):
            names = sorted({Path(p).name for _, p in changes})
            log.info("changed: %s; rebuilding", ", ".join(names))
            rebuild(self.project)
            self.builds += 1


def run(project: "Project", host: str, port: int, watch: bool) -> None:
    """Serve until interrupted (``pravila serve``)."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(levelname)s: %(message)s")
    if not (project.site_dir / "index.html").is_file():
        log.info("no site in %s yet; building it", project.build_dir)
        rebuild(project)
    watcher = Watcher(project).start() if watch else None
    try:
        uvicorn.run(create_app(project), host=host, port=port, log_level="info")
    finally:
        if watcher is not None:
            watcher.stop()
