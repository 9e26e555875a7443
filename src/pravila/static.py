"""The built site's files as HTTP answers: which file, which encoding, which headers.

- Nothing outside ``build/site`` is ever served: no ``..``, no hidden
  files, no symbolic link out of the site, and a path no file system could
  hold (a segment over 255 bytes, thousands of segments) is simply missing.
- Each text file has its precompressed copies (:mod:`pravila.compress`);
  the reader's ``Accept-Encoding`` chooses one (``Vary: Accept-Encoding``).
- ``Cache-Control``: fingerprinted assets (Material's ``bundle.a5f9d56c.min.js``)
  never change under their name, so browsers and proxies keep them a year
  without asking (``immutable``); every other file (pages, ``search_index.json``,
  our own ``assets/pravila/*``) is revalidated with its ``ETag``.
- A Content-Security-Policy per page: scripts only from the site itself plus
  the page's own inline scripts by their SHA-256 hashes (Material writes a few
  small ones into every page), no plugins, no framing by other sites.

Files are kept in memory (up to :data:`MEMORY_BYTES`) and checked against
the file system on every request: a rebuild exchanges the whole folder
(:func:`pravila.site.swap_into_place`), so a changed file is a new inode.
"""

from __future__ import annotations

import base64
import hashlib
import mimetypes
import os
import re
import stat
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from .compress import ENCODINGS, compressible

MEMORY_BYTES = 64 * 1024 * 1024  # files kept in memory, per process
MAX_FILE_BYTES = 8 * 1024 * 1024  # larger files are read every time, not kept
MAX_SEGMENT_BYTES = 255  # no file name is longer on the file systems we run on
MAX_SEGMENTS = 64

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_FINGERPRINT_RE = re.compile(r"\.[0-9a-f]{8,64}\.")

# The policy of every answer; pages add their inline scripts' hashes to script-src.
CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self' 'unsafe-inline'",  # Material and the widgets set style attributes
    "img-src": "'self' data:",  # Material's icons are data: SVGs in its CSS
    "font-src": "'self' data:",
    "connect-src": "'self'",  # the search box's worker asks /api; instant navigation fetches pages
    "worker-src": "'self'",
    "manifest-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'self'",
}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "SAMEORIGIN",  # frame-ancestors for browsers without CSP
}
_SCRIPT_RE = re.compile(rb"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_SRC_RE = re.compile(rb"\bsrc\s*=", re.I)
_TYPE_RE = re.compile(rb"""\btype\s*=\s*["']?([^"'\s>]+)""", re.I)
_JS_TYPES = {b"", b"text/javascript", b"application/javascript", b"module", b"text/ecmascript"}


def csp(script_hashes: Iterable[str] = ()) -> str:
    """The Content-Security-Policy header value, with the given inline scripts allowed.

    >>> csp(["sha256-abc="]).split("; ")[1]
    "script-src 'self' 'sha256-abc='"
    """
    policy = dict(CSP)
    hashes = " ".join(f"'{h}'" for h in dict.fromkeys(script_hashes))
    if hashes:
        policy["script-src"] += " " + hashes
    return "; ".join(f"{name} {value}" for name, value in policy.items())


def inline_script_hashes(html: bytes) -> list[str]:
    """``sha256-…`` of each inline script of a page (data blocks such as ``type="application/json"`` do not run).

    >>> inline_script_hashes(b'<script>a()</script><script src="x.js"></script><script type="application/json">{}</script>')
    ['sha256-qVpDBgj7bpq5hMAcGp3AOc79J3Y1Z4HvySTwKrWDoy4=']
    """
    found = []
    for m in _SCRIPT_RE.finditer(html):
        attrs, body = m.group(1), m.group(2)
        if _SRC_RE.search(attrs):
            continue
        kind = _TYPE_RE.search(attrs)
        if kind is not None and kind.group(1).lower() not in _JS_TYPES:
            continue
        digest = hashlib.sha256(body.replace(b"\r\n", b"\n")).digest()
        found.append("sha256-" + base64.b64encode(digest).decode("ascii"))
    return found


def cache_control(path: Path) -> str:
    """``immutable`` for a fingerprinted asset, revalidation for everything else.

    >>> cache_control(Path("assets/javascripts/bundle.a5f9d56c.min.js")), cache_control(Path("assets/pravila/site.js"))
    ('public, max-age=31536000, immutable', 'no-cache')
    """
    return IMMUTABLE if _FINGERPRINT_RE.search(path.name) else REVALIDATE


def media_type(path: Path) -> str:
    """The Content-Type of a file (a compressed file is what it is: gzip, not the type inside)."""
    suffix = path.suffix
    if suffix == ".html":
        return "text/html; charset=utf-8"
    if suffix in (".js", ".mjs"):
        return "text/javascript; charset=utf-8"
    if suffix == ".css":
        return "text/css; charset=utf-8"
    if suffix == ".xml":
        return "application/xml; charset=utf-8"
    if suffix == ".json":
        return "application/json"
    if suffix == ".svg":
        return "image/svg+xml"
    if suffix == ".txt":
        return "text/plain; charset=utf-8"
    guessed, encoding = mimetypes.guess_type(path.name)
    if encoding == "gzip":
        return "application/gzip"
    if encoding is not None:
        return "application/octet-stream"
    return guessed or "application/octet-stream"


def etag_of(body: bytes) -> str:
    return '"' + hashlib.blake2b(body, digest_size=12).hexdigest() + '"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Weak comparison (RFC 9110 §8.8.3.2): ``W/"x"`` matches ``"x"``; ``*`` matches anything.

    >>> etag_matches('W/"ab", "cd"', '"ab"'), etag_matches('"cd"', '"ab"'), etag_matches("*", '"ab"'), etag_matches(None, '"ab"')
    (True, False, True, False)
    """
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    wanted = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == wanted for tag in if_none_match.split(","))


def accepted_encodings(header: str | None) -> dict[str, float]:
    """Content codings and their quality from ``Accept-Encoding``.

    >>> accepted_encodings("gzip, deflate, br;q=0.9, *;q=0")
    {'gzip': 1.0, 'deflate': 1.0, 'br': 0.9, '*': 0.0}
    """
    found: dict[str, float] = {}
    for part in (header or "").split(",")[:32]:
        name, _, params = part.strip().partition(";")
        name = name.strip().lower()
        if not name:
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = min(1.0, max(0.0, float(value)))
                except ValueError:
                    q = 0.0
        found[name] = q
    return found


@dataclass(frozen=True)
class Variant:
    body: bytes
    etag: str
    encoding: str | None  # a Content-Encoding, or None for the file as it is


@dataclass(frozen=True)
class StaticFile:
    path: Path
    key: tuple[int, int, int, int]  # device, inode, mtime, size of the file as it is
    media_type: str
    cache_control: str
    variants: tuple[Variant, ...]  # the file as it is first, then its compressed copies, best first
    csp: str

    @property
    def negotiated(self) -> bool:
        """Whether the answer depends on ``Accept-Encoding``."""
        return len(self.variants) > 1

    @property
    def size(self) -> int:
        return sum(len(v.body) for v in self.variants)

    def variant(self, accept_encoding: str | None) -> Variant:
        """The copy to send: the best-rated coding the reader accepts, Brotli before gzip on a tie."""
        if len(self.variants) == 1 or not accept_encoding:
            return self.variants[0]
        accepted = accepted_encodings(accept_encoding)
        best, best_q = self.variants[0], 0.0
        for v in self.variants[1:]:
            q = accepted.get(v.encoding or "", accepted.get("*", 0.0))
            if q > best_q:
                best, best_q = v, q
        return best


class StaticSite:
    """Files of the built site (``build/site``), found safely and kept in memory."""

    def __init__(self, root: Path, languages: Iterable[str], memory: int = MEMORY_BYTES):
        self.root = Path(root)
        self.languages = tuple(languages)
        self.memory = memory
        self._files: OrderedDict[str, StaticFile] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()

    def resolve(self, url_path: str) -> tuple[str, Path | None]:
        """``("file", path)``, ``("redirect", None)`` for a folder without its slash, or ``("missing", None)``."""
        parts = [p for p in url_path.split("/") if p]
        if len(parts) > MAX_SEGMENTS:
            return "missing", None
        for p in parts:
            if p in (".", "..") or "\\" in p or "\x00" in p or p.startswith(".") or len(p.encode("utf-8", "surrogatepass")) > MAX_SEGMENT_BYTES:
                return "missing", None
        try:
            root = Path(os.path.realpath(self.root))
            path = Path(os.path.realpath(root.joinpath(*parts))) if parts else root
            if path != root and root not in path.parents:
                return "missing", None
            if path.is_dir():
                if url_path and not url_path.endswith("/"):
                    return "redirect", None
                path = path / "index.html"
            return ("file", path) if path.is_file() else ("missing", None)
        except (OSError, ValueError, UnicodeError):  # a name the file system refuses is a name that does not exist
            return "missing", None

    def get(self, url_path: str) -> tuple[str, StaticFile | None]:
        """``("file", file)``, ``("redirect", None)`` or ``("missing", None)``."""
        for attempt in (1, 2):  # a rebuild may exchange the folder between finding a file and reading it
            kind, path = self.resolve(url_path)
            if kind != "file" or path is None:
                return kind, None
            try:
                return kind, self.load(path)
            except (FileNotFoundError, NotADirectoryError):
                if attempt == 2:
                    return "missing", None
        raise AssertionError("unreachable")

    def load(self, path: Path) -> StaticFile:
        """The file at ``path`` (resolved, inside the site), from memory when it has not changed."""
        name = str(path)
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                raise FileNotFoundError(name)
            key = (st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size)
            with self._lock:
                found = self._files.get(name)
                if found is not None and found.key == key:
                    self._files.move_to_end(name)
                    return found
            body = f.read()
        variants = [Variant(body, etag_of(body), None)]
        if compressible(path):
            for suffix, encoding in ENCODINGS.items():
                try:
                    packed = path.with_name(path.name + suffix).read_bytes()
                except OSError:
                    continue
                variants.append(Variant(packed, etag_of(packed), encoding))
        policy = csp(inline_script_hashes(body)) if path.suffix == ".html" else csp()
        file = StaticFile(path, key, media_type(path), cache_control(path), tuple(variants), policy)
        if file.size <= MAX_FILE_BYTES:
            self._keep(name, file)
        return file

    def _keep(self, name: str, file: StaticFile) -> None:
        with self._lock:
            old = self._files.pop(name, None)
            if old is not None:
                self._held -= old.size
            self._files[name] = file
            self._held += file.size
            while self._held > self.memory and self._files:
                _, dropped = self._files.popitem(last=False)
                self._held -= dropped.size

    def not_found_page(self, url_path: str) -> StaticFile | None:
        """The language's own 404 page for a path under ``/<lang>/``, else the site's ``/404.html`` (if built)."""
        lang = url_path.strip("/").split("/")[0]
        kind, path = self.resolve(f"/{lang}/404.html" if lang in self.languages else "/404.html")
        if kind != "file" or path is None:
            return None
        try:
            return self.load(path)
        except OSError:
            return None
