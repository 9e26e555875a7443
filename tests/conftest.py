"""Shared fixtures: the content, one built site, a live server, a browser.

- ``project``, ``library``: the repository as a project, and its content,
  loaded once (fails on content problems).
- ``site_port``: a free local port, chosen before the build because the site's
  ``site_url`` (needed by Material's previews and language switcher) names it.
- ``built_project``: the project with its build folder in a temporary folder,
  built once per session (both sites and the search index); ``built_site``
  is that build folder.
- ``live_server``: ``pravila.server.create_app(built_project)`` served by
  uvicorn on ``site_port`` in a background thread; its value is the base URL
  (``http://127.0.0.1:PORT``).
- ``subpath_host``: the site built for an address with a sub-path
  (``…/rules/``) and published there by a plain static host (no API), as
  GitHub Pages would: a ``StaticHost`` (project, base URL, requested paths).
- ``browser``: headless Debian Chromium driven by Playwright. When
  ``/usr/bin/chromium`` is missing it FAILS under ``CI=true`` and skips
  otherwise.
- ``screenshot_dir``: ``build/screenshots/`` in the repository.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from helpers import ROOT, repo_project
from pravila.content import Library, load_library
from pravila.project import Project

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-dev-shm-usage",
]


@pytest.fixture(scope="session")
def project() -> Project:
    return repo_project()


@pytest.fixture(scope="session")
def library(project: Project) -> Library:
    lib, problems = load_library(project)
    if problems:
        pytest.fail("the content has problems (run 'pravila check'):\n" + "\n".join(map(str, problems[:20])))
    return lib


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def site_port() -> int:
    return _free_port()


@pytest.fixture(scope="session")
def built_project(tmp_path_factory: pytest.TempPathFactory, library: Library, site_port: int) -> Project:
    """The project built into a temporary folder: ``site/`` (every language), ``docs/``, configs, the index."""
    from pravila.build import build

    project = repo_project(build=tmp_path_factory.mktemp("build"), site_url=f"http://127.0.0.1:{site_port}/")
    build(project, library)
    return project


@pytest.fixture(scope="session")
def built_site(built_project: Project) -> Path:
    """The build folder of ``built_project``."""
    return built_project.build_dir


class _ThreadedServer:
    def __init__(self, app, port: int):
        import uvicorn

        from pravila.server import uvicorn_settings

        config = uvicorn.Config(app, host="127.0.0.1", port=port, **uvicorn_settings(log_level="warning"))
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> "_ThreadedServer":
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def serve_app():
    """Start an ASGI app on a free port (or ``port``) in a thread: ``base_url = serve_app(app)``.

    The servers stop at the end of the session.
    """
    servers: list[_ThreadedServer] = []

    def start(app, port: int | None = None) -> str:
        port = port or _free_port()
        servers.append(_ThreadedServer(app, port).__enter__())
        return f"http://127.0.0.1:{port}"

    yield start
    for server in servers:
        server.__exit__(None, None, None)


@pytest.fixture(scope="session")
def live_server(built_project: Project, site_port: int):
    """The base URL of the built site served by ``pravila.server`` (no trailing slash)."""
    from pravila.server import create_app

    with _ThreadedServer(create_app(built_project), site_port):
        yield f"http://127.0.0.1:{site_port}"


class Recorder:
    """An ASGI app that notes the path of every request before passing it on."""

    def __init__(self, app):
        self.app, self.paths = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            self.paths.append(scope["path"])
        await self.app(scope, receive, send)


@dataclass
class StaticHost:
    project: Project
    base: str  # the site's address, no trailing slash: http://127.0.0.1:PORT/rules
    recorder: Recorder


@pytest.fixture(scope="session")
def subpath_host(tmp_path_factory: pytest.TempPathFactory, library: Library, serve_app) -> StaticHost:
    """The site built for a site_url with a sub-path and published there by a plain static host.

    The port is taken first and the site built for that address: Material's
    instant navigation only takes over links under ``site_url``.
    """
    from starlette.applications import Starlette
    from starlette.routing import Mount
    from starlette.staticfiles import StaticFiles

    from pravila.build import build

    port = _free_port()
    project = repo_project(build=tmp_path_factory.mktemp("rules"), site_url=f"http://127.0.0.1:{port}/rules/")
    build(project, library)
    recorder = Recorder(Starlette(routes=[Mount("/rules", StaticFiles(directory=project.site_dir, html=True))]))
    return StaticHost(project, serve_app(recorder, port=port) + "/rules", recorder)


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: install Debian's chromium (scripts/ensure_browser.py) for the browser tests"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    folder = ROOT / "build" / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder
