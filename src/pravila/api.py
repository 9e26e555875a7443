"""The HTTP API: search, entries, health.  Starlette routes, JSON only.

    GET /api/search?q=&lang=ru|cs|all&limit=
        200 {"query", "lang", "total", "hits": [{"id", "lang", "title", "url", "snippet", "score"}]}
        an empty query, or one of only punctuation or stopwords: 200 with no hits
    GET /api/entries/{lang}/{id}
        200 the entry (``serialize.entry_to_dict``, as stored in the index)
    GET /healthz, GET /api/healthz
        200 {"status": "ok", "entries": {"ru": n, "cs": n, …}, "generation": …}

Bad input is a 4xx JSON error ``{"error": message, "status": code}``,
never a 5xx and never a traceback: 400 for a bad parameter (NUL, a query over
200 characters, unknown lang, limit outside 1–50), 404 for an unknown entry
or /api/ path, 405 for another method than GET/HEAD.  With no index built
the search and health answer 503.

The app's searcher is opened once and reused; it reopens by itself when a
rebuild switches a new index into place.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .errors import IndexUnavailable, QueryError
from .search import Searcher

if TYPE_CHECKING:
    from .project import Project

log = logging.getLogger("pravila.api")

ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
HEADERS = {"Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}

def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message, "status": status}, status_code=status, headers={**HEADERS, **(headers or {})})


def ok(data: Any) -> JSONResponse:
    return JSONResponse(data, headers=HEADERS)


Endpoint = Callable[[Request], Awaitable[Response]]


def _guarded(endpoint: Endpoint) -> Endpoint:
    """GET/HEAD only; bad input → 400, no index → 503, anything unexpected → a JSON 500 without details."""

    async def guarded(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return error(405, f"method {request.method} is not allowed here; use GET", {"Allow": "GET, HEAD"})
        try:
            return await endpoint(request)
        except QueryError as e:
            return error(400, str(e))
        except IndexUnavailable as e:
            log.warning("%s", e)
            return error(503, "the search index is not available; run 'pravila build'")
        except Exception:  # noqa: BLE001 — log it for us, answer JSON without a traceback
            log.exception("error answering %s", request.url.path)
            return error(500, "internal error")

    return guarded


def _param(request: Request, name: str) -> str | None:
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise QueryError(f"give '{name}' once, not {len(values)} times")
    return values[0] if values else None


def api_routes(project: "Project") -> list[Route]:
    """The API's routes for a project (one searcher of its index, shared by every request)."""
    searcher = Searcher.for_project(project)
    codes = project.codes

    async def search(request: Request) -> Response:
        for name in request.query_params:
            if name not in ("q", "lang", "limit"):
                raise QueryError(f"unknown parameter '{name[:40]}' (expected q, lang, limit)")
        result = searcher.search(_param(request, "q"), _param(request, "lang"), _param(request, "limit"))
        return ok(result.to_dict())

    async def entry(request: Request) -> Response:
        lang, entry_id = request.path_params["lang"], request.path_params["id"]
        if lang not in codes:
            return error(404, f"unknown language: expected /api/entries/<lang>/<id> with lang one of {', '.join(codes)}")
        data = searcher.entry(lang, entry_id)
        if data is None:
            return error(404, f"no entry '{entry_id[:100]}' in '{lang}'")
        return ok(data)

    async def healthz(request: Request) -> Response:
        return ok({"status": "ok", **searcher.stats()})

    async def not_found(request: Request) -> Response:
        return error(404, "no such API endpoint; see /api/search, /api/entries/{lang}/{id}, /healthz")

    return [
        Route("/api/search", _guarded(search), methods=ALL_METHODS),
        Route("/api/entries/{lang}/{id}", _guarded(entry), methods=ALL_METHODS),
        Route("/healthz", _guarded(healthz), methods=ALL_METHODS),
        Route("/api/healthz", _guarded(healthz), methods=ALL_METHODS),
        Route("/api", _guarded(not_found), methods=ALL_METHODS),
        Route("/api/{rest:path}", _guarded(not_found), methods=ALL_METHODS),
    ]
