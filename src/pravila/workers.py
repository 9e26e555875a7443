"""``pravila serve --workers N``: N server processes on one port, each with its own listening socket.

uvicorn's own ``--workers`` shares one listening socket between its
processes, and asyncio accepts every connection waiting in the queue at
each wake-up: when a client opens many keep-alive connections at once (a
load generator, a reverse proxy's pool of upstream connections), the first
process awake takes most of them and the other idles (measured here: 32
connections served at one process's speed in about half the runs).  With
``SO_REUSEPORT`` each worker listens on a socket of its own, and the kernel
spreads new connections over them evenly.

The parent binds the N sockets (so a port in use is one clear error), starts
one process per socket and starts it again if it dies (with the same
socket: connections that arrive meanwhile wait in its queue).  It never
accepts a connection itself; it is where ``--watch`` rebuilds.  Where the
system has no ``SO_REUSEPORT`` (not Linux or BSD), uvicorn's supervisor runs
instead.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import threading
import time
from typing import Any

from uvicorn.config import STARTUP_FAILURE  # uvicorn's exit code for an app that failed to start

log = logging.getLogger("pravila.server")

FACTORY = "pravila.server:app_from_environment"


def reuse_port_supported() -> bool:
    return hasattr(socket, "SO_REUSEPORT")


def listening_socket(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A TCP socket listening on host:port that other sockets with ``SO_REUSEPORT`` may share."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.bind((host, port))
        sock.listen(backlog)
        sock.set_inheritable(True)
    except BaseException:
        sock.close()
        raise
    return sock


def _die_with_parent(parent: int) -> None:
    """Linux: get SIGTERM when the parent ends, even by SIGKILL (no orphans left holding the port)."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux
        return
    if os.getppid() != parent:  # the parent ended before we asked
        raise SystemExit(0)


def _worker(sock: socket.socket, config: dict[str, Any], parent: int) -> None:  # pragma: no cover - runs in the worker
    import uvicorn

    _die_with_parent(parent)

    server = uvicorn.Server(uvicorn.Config(FACTORY, factory=True, **config))
    server.run(sockets=[sock])
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


class Supervisor:
    """Starts the workers, keeps them running, stops them on SIGINT or SIGTERM."""

    def __init__(self, host: str, port: int, workers: int, config: dict[str, Any]):
        self.host, self.port, self.count = host, port, workers
        self.config = config
        self.context = multiprocessing.get_context("spawn")
        self.sockets: list[socket.socket] = []
        self.processes: list[Any] = []
        self.should_exit = threading.Event()
        self.failed = False

    def start_worker(self, index: int) -> Any:
        process = self.context.Process(target=_worker, args=(self.sockets[index], self.config, os.getpid()), daemon=False,
                                       name=f"pravila-worker-{index}")
        process.start()
        return process

    def run(self) -> bool:
        """Serve until told to stop; False if a worker could not start its app."""
        self.sockets = [listening_socket(self.host, self.port) for _ in range(self.count)]
        previous = {sig: signal.signal(sig, lambda *_: self.should_exit.set()) for sig in (signal.SIGINT, signal.SIGTERM)}
        try:
            log.info("%d worker processes on http://%s:%d, one listening socket each (SO_REUSEPORT)",
                     self.count, self.host, self.port)
            self.processes = [self.start_worker(i) for i in range(self.count)]
            while not self.should_exit.wait(0.5):
                self.keep_alive()
        finally:
            self.stop()
            for sig, handler in previous.items():
                signal.signal(sig, handler)
            for sock in self.sockets:
                sock.close()
        return not self.failed

    def keep_alive(self) -> None:
        for i, process in enumerate(self.processes):
            if process.is_alive():
                continue
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                log.error("worker process %s could not start the app; stopping", process.pid)
                self.failed = True
                self.should_exit.set()
                return
            log.warning("worker process %s ended (exit code %s); starting another", process.pid, process.exitcode)
            time.sleep(0.2)
            self.processes[i] = self.start_worker(i)

    def stop(self, timeout: float = 10.0) -> None:
        for process in self.processes:
            if process.is_alive() and process.pid is not None:
                os.kill(process.pid, signal.SIGTERM)  # uvicorn finishes the requests under way, then exits
        deadline = time.monotonic() + timeout
        for process in self.processes:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
