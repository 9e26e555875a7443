"""Hostile input for the HTTP API, the static site and the search CLI: what answers 5xx or a traceback.

    .venv/bin/python benchmarks/fuzz.py [--count 20000] [--seed 1] [--cli N]
        [--build-dir DIR | --url http://127.0.0.1:PORT] [--serve-arg=--some-flag ...]

A seeded generator of request targets: ``GET /api/search`` with odd ``q``,
``lang`` and ``limit`` values (every script including Tangut and CJK
extensions, emoji and ZWJ sequences, combining marks, right-to-left text,
surrogates and invalid UTF-8 as percent-escapes, NUL and control characters,
Whoosh query syntax, HTML, numbers such as ``--5``, ``1e3``, ``٣``,
``0x10``), repeated and unknown parameters, other methods,
``/api/entries/{lang}/{id}``, and arbitrary paths (very long, very deep,
traversal, percent-encoding tricks).

It starts ``pravila serve`` on a temporary build as ``serving.py`` does (or
uses ``--url``), sends the requests over a few keep-alive connections, then
replays every request that got a 5xx alone and reads the server's log to
name the cause.  With ``--cli N`` it also runs ``pravila search`` on N of
the queries (those that got a 5xx first) and counts tracebacks against
clean errors.

Prints the counts by status, every distinct 5xx cause with the first input
that caused it, answers under ``/api/`` that are not JSON, connections
closed without an answer, CLI tracebacks, and the 10 slowest requests.
Exits with 1 if any 5xx or CLI traceback was seen, so it can gate a change.

For the test suite, :func:`fuzz_cases` gives the same requests as data, and
:func:`call_asgi` sends one to an ASGI app in process::

    cases = fuzz_cases(seed=1, n=300, wire=False)
    status, body = asyncio.run(call_asgi(app, cases[0]))
"""

from __future__ import annotations

import argparse
import asyncio
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable
from random import Random
from urllib.parse import parse_qsl, quote, quote_plus, unquote

# --- what to send -----------------------------------------------------------------------------------------------

BLOCKS = {  # name: (first, last) code point; letters of many scripts and some places without letters
    "latin": (0x61, 0x7A), "latin-ext": (0xC0, 0x24F), "cyrillic": (0x410, 0x44F), "cyrillic-ext": (0x400, 0x52F),
    "greek": (0x391, 0x3C9), "armenian": (0x531, 0x587), "hebrew": (0x5D0, 0x5EA), "arabic": (0x621, 0x64A),
    "devanagari": (0x905, 0x939), "thai": (0xE01, 0xE30), "georgian": (0x10D0, 0x10FA), "ethiopic": (0x1200, 0x1248),
    "hiragana": (0x3041, 0x3096), "hangul": (0xAC00, 0xD7A3), "cjk": (0x4E00, 0x9FFF), "cjk-ext-a": (0x3400, 0x4DBF),
    "cjk-ext-b": (0x20000, 0x2A6DF), "cjk-ext-g": (0x30000, 0x3134A), "tangut": (0x17000, 0x187F7),
    "khitan": (0x18B00, 0x18CD5), "nushu": (0x1B170, 0x1B2FB), "cuneiform": (0x12000, 0x12399),
    "egyptian": (0x13000, 0x1342E), "math-alnum": (0x1D400, 0x1D7FF), "emoji": (0x1F300, 0x1F64F),
    "symbols": (0x2190, 0x22FF), "box-drawing": (0x2500, 0x257F), "fullwidth": (0xFF01, 0xFF5E),
    "combining": (0x300, 0x36F), "private-use": (0xE000, 0xF8FF), "plane-15": (0xF0000, 0xFFFFD),
    "tags": (0xE0020, 0xE007F), "unassigned": (0x40000, 0xDFFFF), "c0-controls": (0x01, 0x1F), "c1-controls": (0x7F, 0x9F),
}
SPECIALS = [
    "\x00", "\t", "\n", "\r", "\x0b", "\x0c", "\x1b", "\x7f", "\x85", "\xa0", "\xad", "\u034f", "\u061c", "\u180e",
    "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2028", "\u2029", "\u202a", "\u202e", "\u2060", "\u2066",
    "\u2069", "\u3000", "\u3164", "\ufe0f", "\ufeff", "\ufffc", "\ufffd", "\ufffe", "\uffff", "\U0001f3fb",
    "\U000e0001", "\U0010ffff", "\u0301", "\u0308", "\u20dd",
]
EMOJI_SEQUENCES = [
    "👨\u200d👩\u200d👧\u200d👦", "🏳\ufe0f\u200d🌈", "👩🏽\u200d💻", "🧑\u200d🤝\u200d🧑", "🇨🇿", "🇷🇺", "5\ufe0f\u20e3",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "❤\ufe0f\u200d🔥", "🐉",
]
GAME_WORDS = [
    "прыжок", "захват", "атака", "ёж", "ничком", "встать", "труднопроходимая", "провоцированная", "Ёлка",
    "kouzlo", "sesílání", "rituál", "soustředění", "složka", "záchranný", "hod", "pozice", "ŘÍZENÍ",
    "grapple", "dash", "spell", "DC", "jump",
]
WHOOSH_SYNTAX = [
    "*", "?", "~", "~2", "^", "^5", "a^", '"', '""', '"прыжок', "(((", ")))", "()", "AND", "OR", "NOT", "ANDNOT",
    "AND OR NOT", "title:", "title:прыжок", "body:*", "id:*", "en:grapple", "lang:ru", "*:*", "[a TO z]", "{a TO}",
    "[* TO *]", "прыж*", "*ок", "п?ыжок", "прыжок~", "прыжок~99999", "-прыжок", "+прыжок", "\\", "\\*", "/re.*/",
    "<", ">=", "'", "`", ":", "::", "title:(a OR b)", "NOT NOT NOT", "a" + " AND a" * 30,
]
HTML = [
    "<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "<mark>", "</mark>", "&amp;", "&#0;", "&#x0;",
    "&lt;b&gt;", "<svg/onload=alert(1)>", "javascript:alert(1)", "<!--", "]]>", "{{7*7}}", "${7*7}", "%s%s%n",
    "{0}", "'; DROP TABLE entries; --", "${jndi:ldap://x}", "../../etc/passwd",
]
NUMBERS = [
    "--5", "-5", "+5", "-0", "0", "1", "50", "51", "00005", "1e3", "1E3", "5.0", "5.", ".5", "0x10", "0X10", "0b1",
    "0o7", "1_0", "inf", "-inf", "nan", "NaN", "Infinity", "٣", "٥٠", "۵", "५", "໕", "߅", "５", "５０", "²", "½", "Ⅻ",
    "𝟓", "𝟙𝟘", " 5", "5 ", "\t5", "5\n", "10" * 10, "9" * 12, "9" * 13, "9" * 400, "-" + "9" * 30, "1,5", "1;5",
    "[5]", "{5}", "true", "null", "None", "'5'", '"5"', "5\x00", "", "five", "пять", "2147483648", "-2147483649",
    "18446744073709551616", "1" + "0" * 4300, "0" * 5000 + "5",
]
LANG_VALUES = [
    "ru", "cs", "all", "", "RU", "Ru", " ru", "ru ", "ru,cs", "ru|cs", "ru&cs", "en", "de", "*", "ру", "čs", "ru\x00",
    "../ru", "ru/..", "%72%75", "all" * 1000, "🇷🇺", "r\u200du", "ＲＵ", "cs\n", "null", "[ru]", "ru;cs", "\ufeffru",
]
ENTRY_IDS = ["grapple", "dash", "high-jump", "casting-spells", "rituals", "GRAPPLE", "grapple ", "grapple/", "grapple.json"]
# Raw percent-escapes that are not UTF-8 text: surrogates (CESU-8), overlong forms, beyond U+10FFFF, cut short, not hex.
BAD_ESCAPES = [
    "%ED%A0%80", "%ED%BF%BF", "%ED%A0%BD%ED%B8%80", "%C0%AF", "%C0%80", "%E0%80%AF", "%F4%90%80%80", "%F8%88%80%80%80",
    "%FF", "%FE%FF", "%80", "%E2%82", "%D0", "%", "%%", "%G1", "%1", "%u0436", "%uD800", "%2500", "%25%30%30", "%00",
    "%EF%BF%BE", "%F0%9F", "%C3%28", "%E2%28%A1",
]
SEPARATORS = [" ", " ", " ", "", "  ", "\t", "\n", "\xa0", "\u3000", ",", "-", "_", "'", "\u2019", ".", "/"]
METHODS = ["HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "PROPFIND", "TRACE"]
STATIC_PATHS = ["/", "/ru/", "/cs/", "/ru/combat/movement/", "/ru/combat/movement", "/sitemap.xml", "/ru/404.html",
                "/ru/combat/movement/index.html", "/cs/spellcasting/"]


@dataclass(frozen=True)
class Case:
    """One request: ``target`` is the request-target exactly as sent (latin-1 on the wire)."""

    family: str
    target: str
    method: str = "GET"

    def __post_init__(self) -> None:
        self.target.encode("latin-1")  # one byte per character on the wire

    @property
    def wire_only(self) -> bool:
        """Not a target an HTTP parser passes on to the app (raw bytes outside printable ASCII, not origin-form)."""
        return not (self.target.startswith("/") and all("!" <= ch <= "~" for ch in self.target))

    def params(self) -> dict[str, str]:
        """The first value of each query parameter, decoded as Starlette decodes them."""
        _, _, query = self.target.partition("?")
        found: dict[str, str] = {}
        for name, value in parse_qsl(query, keep_blank_values=True):
            found.setdefault(name, value)
        return found

    def short(self, width: int = 150) -> str:
        shown = self.target if len(self.target) <= width else self.target[:width] + f"… ({len(self.target)} chars)"
        return f"{self.method} {shown}"


def _run_of(rng: Random, block: str, n: int) -> str:
    lo, hi = BLOCKS[block]
    return "".join(chr(rng.randint(lo, hi)) for _ in range(n))


def _piece(rng: Random) -> str:
    """A word-sized piece of hostile text."""
    r = rng.random()
    if r < 0.22:
        return _run_of(rng, rng.choice(list(BLOCKS)), rng.randint(1, 12))
    if r < 0.34:
        return rng.choice(GAME_WORDS)
    if r < 0.46:  # one odd character glued to a real word, e.g. a Tangut letter before a Cyrillic word
        odd = _run_of(rng, rng.choice(list(BLOCKS)), 1) if rng.random() < 0.7 else rng.choice(SPECIALS)
        word = rng.choice(GAME_WORDS)
        return odd + word if rng.random() < 0.6 else word + odd
    if r < 0.54:
        return "".join(rng.choice(SPECIALS) for _ in range(rng.randint(1, 4)))
    if r < 0.60:
        return rng.choice(EMOJI_SEQUENCES)
    if r < 0.67:  # a letter under a stack of combining marks
        return rng.choice(GAME_WORDS)[:2] + _run_of(rng, "combining", rng.randint(1, 40))
    if r < 0.80:
        return rng.choice(WHOOSH_SYNTAX)
    if r < 0.87:
        return rng.choice(HTML)
    if r < 0.94:
        return rng.choice(NUMBERS)[:50]
    return "".join(rng.choice("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~") for _ in range(rng.randint(1, 8)))


def hostile_text(rng: Random, pieces: int | None = None) -> str:
    parts = [_piece(rng) for _ in range(pieces or rng.randint(1, 5))]
    return "".join(p + rng.choice(SEPARATORS) for p in parts).rstrip(" ") if rng.random() < 0.9 else "".join(parts)


def encode(rng: Random, value: str) -> str:
    """Percent-encode a parameter value one of several ways browsers, scripts and attackers do."""
    style = rng.random()
    if style < 0.55:
        return quote(value, safe="")
    if style < 0.70:
        return quote_plus(value, safe="")
    if style < 0.80:  # some reserved characters left raw
        return quote(value, safe="!$'()*,;:@/?=")
    if style < 0.86:  # lowercase hex
        return re.sub(r"%[0-9A-F]{2}", lambda m: m.group(0).lower(), quote(value, safe=""))
    if style < 0.92:  # encoded twice
        return quote(quote(value, safe=""), safe="")
    if style < 0.96:  # a legacy code page instead of UTF-8
        for codec in ("cp1251", "cp1250", "latin-1"):
            try:
                return quote(value.encode(codec), safe="")
            except UnicodeEncodeError:
                continue
        return quote(value, safe="")
    return "".join(f"%u{ord(ch):04X}" if ord(ch) > 0x7F else quote(ch, safe="") for ch in value)  # IIS style %uXXXX


def _search(query: str, method: str = "GET", family: str = "search") -> Case:
    return Case(family, "/api/search" + ("?" + query if query is not None else ""), method)


def _params(rng: Random, q: str | None = None, lang: str | None = None, limit: str | None = None) -> str:
    parts = [f"{name}={encode(rng, value) if rng.random() < 0.8 else _raw_ascii(value)}"
             for name, value in (("q", q), ("lang", lang), ("limit", limit)) if value is not None]
    rng.shuffle(parts)
    return "&".join(parts)


def _raw_ascii(value: str) -> str:
    """The value as typed into an address bar: printable ASCII kept as is, the rest encoded."""
    return "".join(ch if "!" <= ch <= "~" and ch not in "#&" else quote(ch, safe="") for ch in value)


def _maybe(rng: Random, chance: float, value):
    return value if rng.random() < chance else None


# The families: name, weight, generator.

def gen_text(rng: Random) -> Case:
    return _search(_params(rng, hostile_text(rng), _maybe(rng, 0.5, rng.choice(("ru", "cs", "all"))),
                           _maybe(rng, 0.3, str(rng.randint(1, 50)))), family="q: hostile text")


def gen_odd_then_word(rng: Random) -> Case:
    block = rng.choice(list(BLOCKS))
    text = _run_of(rng, block, rng.randint(1, 3)) + rng.choice(("", " ", "-")) + rng.choice(GAME_WORDS)
    return _search(_params(rng, text, _maybe(rng, 0.6, rng.choice(("ru", "cs", "all")))), family=f"q: {block} + word")


def gen_long(rng: Random) -> Case:
    n = rng.choice((199, 200, 201, 256, 1000, 4096, 10_000, 10_000, 100_000, 200_000) if rng.random() < 0.15
                   else (199, 200, 201, 256, 1000, 4096))
    unit = rng.choice(("a", "ж", "прыжок ", "𘝉", "👨\u200d👩\u200d👧", "%", "&", "\u0301"))
    text = (unit * (n // len(unit) + 1))[:n]
    return _search("q=" + quote(text, safe=""), family=f"q: {n} characters")


def gen_bad_word(rng: Random) -> Case:
    block = rng.choice(("cyrillic", "latin", "latin-ext", "combining", "cjk", "emoji"))
    return _search(f"q={quote(_run_of(rng, block, 200), safe='')}&lang=all", family=f"q: 200-letter {block} word")


def gen_syntax(rng: Random) -> Case:
    text = " ".join(rng.choice(WHOOSH_SYNTAX + GAME_WORDS) for _ in range(rng.randint(1, 6)))
    return _search(_params(rng, text, _maybe(rng, 0.5, rng.choice(("ru", "cs", "all")))), family="q: query syntax")


def gen_html(rng: Random) -> Case:
    text = rng.choice(HTML) + rng.choice(("", " ")) + rng.choice(GAME_WORDS + HTML)
    return _search(_params(rng, text), family="q: html/injection")


def gen_bad_escapes(rng: Random) -> Case:
    word = quote(rng.choice(GAME_WORDS), safe="")
    raw = "".join(rng.choice((rng.choice(BAD_ESCAPES), word)) for _ in range(rng.randint(1, 4)))
    name = rng.choice(("q", "q", "q", "lang", "limit"))
    rest = "" if name == "q" else "&q=" + word
    return _search(f"{name}={raw}{rest}", family=f"{name}: invalid escapes")


def gen_limit(rng: Random) -> Case:
    limit = rng.choice(NUMBERS)
    return _search(_params(rng, rng.choice(GAME_WORDS), _maybe(rng, 0.3, "all"), limit),
                   family=f"limit {limit[:12]!r}" + ("…" if len(limit) > 12 else ""))


def gen_lang(rng: Random) -> Case:
    lang = rng.choice(LANG_VALUES)
    return _search(_params(rng, rng.choice(GAME_WORDS), lang, _maybe(rng, 0.3, "5")),
                   family=f"lang {lang[:12]!r}" + ("…" if len(lang) > 12 else ""))


def gen_params(rng: Random) -> Case:
    w = quote(rng.choice(GAME_WORDS), safe="")
    choices = [
        f"q={w}&q={w}", f"lang=ru&lang=cs&q={w}", f"q={w}&limit=1&limit=2", f"Q={w}", f"query={w}", f"q[]={w}",
        f"q%5B%5D={w}", f"%71={w}", f"q%00={w}", f"={w}", "&", "&&&", "q", "q=", f";q={w}", f"q={w};lang=ru",
        f"q={w}&", f"?q={w}", f"q={w}&callback=alert", "utf8=%E2%9C%93&q=x", f"q={w}%26lang%3Dru", f"q={w}#frag",
        f"q={w}&" + "x" * 10_000 + "=1", f"q={w}&" + "&".join(f"p{i}={i}" for i in range(rng.choice((50, 500, 2000)))),
        "&".join(f"q={w}" for _ in range(200)), f"q={w}&lang", f"q={w}&limit", "q=%00&lang=%00&limit=%00",
        f"{'q' * 5000}={w}", f"q={w}&lang=ru&limit=5&extra=", f"Q={w}&LANG=ru",
    ]
    query = rng.choice(choices)
    return _search(query, family="parameters: repeated/unknown")


def gen_method(rng: Random) -> Case:
    method = rng.choice(METHODS)
    target = rng.choice((f"/api/search?q={quote(rng.choice(GAME_WORDS))}", "/api/entries/ru/grapple", "/healthz",
                         "/api/", rng.choice(STATIC_PATHS)))
    return Case(f"method {method}", target, method)


def gen_entry(rng: Random) -> Case:
    lang = rng.choice(("ru", "cs", "ru", "cs", "en", "", "RU", "ру", "..", "%2e%2e", "ru%00", "all", "x" * 300))
    r = rng.random()
    if r < 0.3:
        entry_id, note = quote(rng.choice(ENTRY_IDS), safe="/"), "known-ish id"
    elif r < 0.6:
        entry_id, note = encode(rng, hostile_text(rng, rng.randint(1, 2))), "hostile id"
    elif r < 0.75:
        n = rng.choice((255, 256, 1000, 10_000))
        entry_id, note = "x" * n, f"{n}-character id"
    else:
        entry_id = rng.choice(("..", "%2e%2e", "..%2f..%2fetc%2fpasswd", "%252e%252e", "a%00b", "%2F", ".", "",
                               "grapple/extra", "grapple%2Fextra", "grapple?x=1", "grapple%3F", "%20", "a/" * 500))
        note = "odd id"
    suffix = rng.choice(("", "", "", "/", "//", "?x=1", "?lang=cs", "#x"))
    return Case(f"entry: {note}", f"/api/entries/{quote(lang, safe='%')}/{entry_id}{suffix}")


def gen_path(rng: Random) -> Case:
    r = rng.random()
    if r < 0.2:
        n = rng.choice((254, 255, 256, 300, 1000, 4096, 10_000))
        unit = rng.choice(("a", "%D0%B6", "%F0%98%9D%89", "."))
        segment = unit * (n // max(1, len(unquote(unit).encode())))
        return Case(f"path: one {n}-byte segment", rng.choice(("/", "/ru/", "/ru/combat/")) + segment + rng.choice(("", "/")))
    if r < 0.4:
        depth = rng.choice((10, 100, 1000, 2050, 3000))
        unit = rng.choice(("a/", "./", "../", "%2e%2e/", "ru/", "%2F", "/", "a%2F"))
        return Case(f"path: {depth} deep '{unit}'", "/" + unit * depth)
    if r < 0.6:
        target = rng.choice((
            "/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/ru/..%2f..%2f..%2fetc%2fpasswd", "/..%5c..%5cwin.ini",
            "/%c0%ae%c0%ae/%c0%ae%c0%ae/etc/passwd", "//etc/passwd", "/ru//combat//movement//", "/.git/config",
            "/.env", "/ru/%00", "/%00", "/ru%00/", "/ru/combat/movement/index.html%00.txt", "/ru/combat/movement/index.html/",
            "/ru/combat/movement/index.html/x", "/ru/./combat/./movement/", "/ru/combat/../combat/movement/",
            "/proc/self/environ", "/con", "/nul", "/aux.txt", "/~root", "/ru/combat/movement/%2e", "/%5C", "/ru/%5C..%5C",
            "/ru/combat/movement?%00", "/%", "/%%", "/%zz", "/%ED%A0%80", "/%C0%AF", "/%FF", "/ru/\\..\\..\\",
            "/sitemap.xml?x=" + "y" * 5000, "/ru/combat/movement/?q=" + "%FF" * 100, "/.", "/..", "/...", "/ru/.hidden",
        ))
        return Case("path: traversal/odd", target)
    if r < 0.8:
        text = hostile_text(rng, rng.randint(1, 3))
        return Case("path: hostile text", rng.choice(("/", "/ru/", "/cs/spellcasting/")) + encode(rng, text))
    return Case("path: site page + noise", rng.choice(STATIC_PATHS) + rng.choice(("?", "?q=", "?x=%FF", "#", ";x", "%20", "/..")))


def gen_wire(rng: Random) -> Case:
    """Request targets an HTTP parser has to deal with before the app sees anything."""
    target = rng.choice((
        "/api/search?q=" + rng.choice(GAME_WORDS).encode("utf-8").decode("latin-1"),  # raw UTF-8 bytes
        "/ru/" + "жж".encode("utf-8").decode("latin-1"), "/api/search?q=a\x7fb", "*", "http://127.0.0.1/ru/",
        "api/search?q=x", "/api/search?q=a b", "/\xff", "/ru/\x80\x81",
    ))
    return Case("wire: not a clean target", target)


FAMILIES = [  # generator, weight
    (gen_text, 28), (gen_odd_then_word, 8), (gen_long, 3), (gen_bad_word, 0.5), (gen_syntax, 6), (gen_html, 3),
    (gen_bad_escapes, 6), (gen_limit, 7), (gen_lang, 4), (gen_params, 5), (gen_method, 2), (gen_entry, 10),
    (gen_path, 12), (gen_wire, 0.5),
]


def fuzz_cases(seed: int, n: int, *, wire: bool = True) -> list[Case]:
    """``n`` requests from ``seed``; the first ones are the same whatever ``n`` is.

    With ``wire=False`` only requests an HTTP server passes on to the app
    (for calling the ASGI app in process).

    >>> len(fuzz_cases(1, 300, wire=False)), fuzz_cases(1, 5) == fuzz_cases(1, 50)[:5]
    (300, True)
    """
    rng = Random(seed)
    generators, weights = zip(*FAMILIES)
    cases: list[Case] = []
    while len(cases) < n:
        case = rng.choices(generators, weights)[0](rng)
        if wire or not case.wire_only:
            cases.append(case)
    return cases


# --- in process: an ASGI app ----------------------------------------------------------------------------------


def asgi_scope(case: Case) -> dict:
    """The HTTP scope uvicorn gives the app for this request (``path`` percent-decoded, the rest raw)."""
    if case.wire_only:
        raise ValueError(f"not a request an HTTP server passes to the app: {case.short(60)}")
    raw_path, _, query = case.target.encode("ascii").partition(b"?")
    return {
        "type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
        "method": case.method, "scheme": "http", "path": unquote(raw_path.decode("ascii")), "raw_path": raw_path,
        "query_string": query, "root_path": "", "headers": [(b"host", b"127.0.0.1:8000"), (b"user-agent", b"fuzz")],
        "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000),
    }


async def call_asgi(app, case: Case) -> tuple[int, bytes]:
    """Send ``case`` to an ASGI app; (status, body).  An exception escaping the app is (500, its traceback)."""
    import traceback

    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    try:
        await app(asgi_scope(case), receive, send)
    except Exception:  # noqa: BLE001 — the caller wants to see it as a 5xx with its cause
        return 500, traceback.format_exc().encode("utf-8")
    start = next(m for m in sent if m["type"] == "http.response.start")
    return start["status"], b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


# --- over HTTP --------------------------------------------------------------------------------------------------


@dataclass(eq=False)  # compared and hashed by identity: one per request sent
class Outcome:
    case: Case
    status: int | str  # an HTTP status, or "closed" (no answer) / "timeout"
    seconds: float
    content_type: str = ""
    body: bytes = b""


async def send_case(conn, case: Case, timeout: float):
    """(response or None, connection still usable); a write the server cut short still reads its answer."""
    from serving import read_response

    head = f"{case.method} {case.target} HTTP/1.1\r\nHost: {conn.host_header}\r\nUser-Agent: pravila-fuzz\r\n\r\n"
    try:
        conn.writer.write(head.encode("latin-1"))
        await asyncio.wait_for(conn.writer.drain(), timeout)
    except (ConnectionError, OSError):
        pass  # the server may have answered (400) and closed before reading everything
    try:
        response = await asyncio.wait_for(read_response(conn.reader, case.method), timeout)
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError, OSError, ValueError):
        return None, False
    return response, response.keep_alive


@dataclass
class Run:
    outcomes: list[Outcome]
    dropped_after: Counter  # family of the answer after which the server closed a keep-alive connection unannounced
    dropped_example: dict[str, Case]


async def run_cases(port: int, cases: list[Case], concurrency: int, timeout: float, max_seconds: float,
                    progress: bool = True) -> Run:
    """Send the cases over ``concurrency`` keep-alive connections.

    A request that finds its reused connection closed (the server dropped it
    after the previous answer without ``Connection: close``) is sent again
    once on a new connection, as browsers do; those drops are counted.
    """
    from serving import Connection

    outcomes: list[Outcome | None] = [None] * len(cases)
    run = Run([], Counter(), {})
    next_index = iter(range(len(cases)))
    deadline = time.monotonic() + max_seconds
    done = 0

    async def worker() -> None:
        nonlocal done
        conn, previous = None, None
        for i in next_index:
            if time.monotonic() > deadline:
                break
            case = cases[i]
            for attempt in (1, 2):
                if conn is None:
                    try:
                        conn = await asyncio.wait_for(Connection.open(port), timeout)
                    except (OSError, TimeoutError):
                        outcomes[i] = Outcome(case, "refused", 0.0)
                        await asyncio.sleep(0.1)
                        break
                    previous = None
                started = time.perf_counter()
                try:
                    response, keep = await send_case(conn, case, timeout)
                except TimeoutError:
                    response, keep, status = None, False, "timeout"
                else:
                    status = response.status if response else "closed"
                elapsed = time.perf_counter() - started
                if not keep:
                    conn.close()
                    conn = None
                if status == "closed" and previous is not None and attempt == 1:
                    run.dropped_after[previous.family] += 1
                    run.dropped_example.setdefault(previous.family, previous)
                    continue
                if response is not None:
                    outcomes[i] = Outcome(case, status, elapsed, response.headers.get("content-type", ""),
                                          response.body[:400])
                else:
                    outcomes[i] = Outcome(case, status, elapsed)
                previous = case
                break
            done += 1
            if progress and done % 2000 == 0:
                print(f"  {done} of {len(cases)} sent", file=sys.stderr, flush=True)
        if conn is not None:
            conn.close()

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    run.outcomes = [o for o in outcomes if o is not None]
    return run


# --- 5xx causes from the server's log ---------------------------------------------------------------------------

FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+), in (.+)$')


@dataclass(frozen=True)
class Cause:
    exception: str  # "ValueError: no such name"
    where: str  # the innermost frame of our code, then the innermost frame of all

    @property
    def key(self) -> tuple[str, str, str]:
        """Exception type, where, and the message up to the first quote or colon (where inputs usually start)."""
        kind, _, message = self.exception.partition(":")
        return kind, self.where, re.split(r"[:'\"]", message.strip())[0][:60]


def _short_file(path: str) -> str:
    for marker in ("site-packages/", "/src/"):
        if marker in path:
            return path.split(marker, 1)[1]
    return re.sub(r"^.*/lib/python3\.\d+/", "", path)


def last_traceback(log: str) -> Cause | None:
    """The last traceback in a piece of log: its exception line and where it was raised."""
    if "Traceback (most recent call last):" not in log:
        return None
    block = log.rsplit("Traceback (most recent call last):", 1)[1].splitlines()
    frames, exception = [], ""
    for line in block[1:]:
        match = FRAME.match(line)
        if match:
            frames.append(f"{_short_file(match.group(1))}:{match.group(2)} in {match.group(3)}")
        elif line and not line.startswith(" "):
            exception = line.strip()
            break
    ours = [f for f in frames if f.startswith("pravila/")]
    where = "; ".join(dict.fromkeys(([ours[-1]] if ours else []) + frames[-1:]))
    return Cause(exception[:200], where)


async def replay(port: int, outcomes: list[Outcome], log_path: Path, limit: int, timeout: float) -> dict[Outcome, Cause]:
    """Send 5xx requests again one at a time and read the traceback each leaves in the log.

    At most ``limit`` of them, taken in turn from each family, so every kind of input gets its turn.
    """
    from serving import Connection

    by_family: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_family.setdefault(o.case.family, []).append(o)
    order = [o for group in _round_robin(list(by_family.values())) for o in group][:limit]
    causes: dict[Outcome, Cause] = {}
    for o in order:
        offset = log_path.stat().st_size
        conn = await asyncio.wait_for(Connection.open(port), timeout)
        try:
            response, _ = await send_case(conn, o.case, timeout)
        finally:
            conn.close()
        if response is None or response.status < 500:
            causes[o] = Cause(f"(no 5xx when sent again alone: {response.status if response else 'closed'})", "")
            continue
        cause = None
        for _ in range(60):  # the app may answer 500 before its exception reaches the log
            with open(log_path, "rb") as f:
                f.seek(offset)
                cause = last_traceback(f.read().decode("utf-8", errors="replace"))
            if cause is not None:
                break
            await asyncio.sleep(0.05)
        causes[o] = cause or Cause("(no traceback in the server log)", "")
    return causes


async def retime(port: int, outcomes: list[Outcome], timeout: float) -> dict[Outcome, float]:
    """Seconds each request takes when sent alone on a quiet server (best of 2)."""
    from serving import Connection

    alone: dict[Outcome, float] = {}
    for o in outcomes:
        times = []
        for _ in range(2):
            conn = await asyncio.wait_for(Connection.open(port), timeout)
            try:
                started = time.perf_counter()
                await send_case(conn, o.case, timeout)
                times.append(time.perf_counter() - started)
            finally:
                conn.close()
        alone[o] = min(times)
    return alone


def _round_robin(groups: list[list[Outcome]]):
    for i in range(max((len(g) for g in groups), default=0)):
        yield [g[i] for g in groups if i < len(g)]


# --- the CLI ----------------------------------------------------------------------------------------------------


@dataclass
class CliOutcome:
    case: Case
    argv: list[str]
    code: int
    stderr: str


def cli_argv(case: Case, build_dir: Path) -> list[str] | None:
    """``pravila search`` with this case's q, lang and limit, or None if an argument cannot be passed (NUL, size)."""
    params = case.params()
    args = ["search", "--build-dir", str(build_dir)]
    if "lang" in params:
        args.append(f"--lang={params['lang']}")
    if "limit" in params:
        args.append(f"--limit={params['limit']}")
    args += ["--", params.get("q", "")]
    for arg in args:
        if "\x00" in arg or len(arg.encode("utf-8", "surrogatepass")) > 100_000:
            return None
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return None
    return [sys.executable, "-m", "pravila", *args]


def run_cli(cases: list[Case], build_dir: Path, n: int, seed: int,
            first: Iterable[Case] = ()) -> tuple[list[CliOutcome], int]:
    """Run ``pravila search`` on ``n`` of the search cases, 2 at a time; (outcomes, skipped).

    The cases in ``first`` (those that got a 5xx over HTTP) come first, then a seeded sample of the others.
    """
    first = set(first)
    searches = [c for c in cases if c.target.startswith("/api/search?") and "q" in c.params() and c.method == "GET"]
    failed = [c for c in searches if c in first]  # the queries that got a 5xx over HTTP come first
    rest = [c for c in searches if c not in first]
    chosen = (failed + Random(seed).sample(rest, min(max(0, n - len(failed)), len(rest))))[:n]
    jobs = [(c, cli_argv(c, build_dir)) for c in chosen]
    runnable = [(c, argv) for c, argv in jobs if argv is not None]

    def one(job) -> CliOutcome:
        case, argv = job
        try:
            done = subprocess.run(argv, capture_output=True, text=True, errors="replace", timeout=60,
                                  stdin=subprocess.DEVNULL, cwd=Path(__file__).resolve().parents[1])
            return CliOutcome(case, argv, done.returncode, done.stderr)
        except subprocess.TimeoutExpired:
            return CliOutcome(case, argv, -1, "timed out after 60 s")

    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(one, runnable)), len(jobs) - len(runnable)


# --- report ----------------------------------------------------------------------------------------------------


def endpoint(case: Case) -> str:
    """/api/search, /api/entries, /healthz, another /api/ path, or the static site."""
    for prefix in ("/api/search", "/api/entries", "/healthz", "/api"):
        if case.target.startswith(prefix):
            return prefix
    return "the static site"


def is_api(case: Case) -> bool:
    return case.target.startswith(("/api", "/healthz"))


def report(run: Run, causes: dict[Outcome, Cause], alone: dict[Outcome, float], cli: list[CliOutcome] | None,
           cli_skipped: int, seconds: float, cases_total: int) -> int:
    """Print the findings; the exit code (1 if any 5xx or CLI traceback)."""
    outcomes = run.outcomes
    statuses = Counter(str(o.status) for o in outcomes)
    print(f"\n{len(outcomes)} of {cases_total} requests answered in {seconds:.0f} s")
    print("By status: " + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items())))

    fives = [o for o in outcomes if isinstance(o.status, int) and o.status >= 500]
    print(f"\n5xx answers: {len(fives)}")
    if fives:
        groups: dict[tuple, list[Outcome]] = {}
        for o in fives:
            cause = causes.get(o)
            key = cause.key if cause else (f"cause not read (no server log or not replayed): {o.status} on "
                                           f"{endpoint(o.case)}, answer {o.body[:50]!r}",)
            groups.setdefault(key, []).append(o)
        replayed = sum(1 for o in fives if o in causes)
        print(f"  {len(groups)} distinct cause(s); {replayed} of the 5xx requests replayed alone to read the cause")
        for n, (key, group) in enumerate(sorted(groups.items(), key=lambda kv: -len(kv[1])), 1):
            first = group[0]
            cause = causes.get(first)
            families = Counter(o.case.family for o in group)
            print(f"  {n}. {(cause.exception if cause else key[0])[:140]}  ({len(group)} requests)")
            if cause and cause.where:
                print(f"     at {cause.where}")
            print(f"     first: [{first.case.family}] {first.case.short()}")
            q = first.case.params().get("q")
            if q is not None and first.case.target.startswith("/api/search"):
                print(f"     q as decoded: {q[:80]!r}" + ("…" if len(q) > 80 else ""))
            print("     inputs: " + ", ".join(f"{f} ×{c}" for f, c in families.most_common(6)))

    odd_api = [o for o in outcomes if is_api(o.case) and isinstance(o.status, int) and o.status >= 400
               and not o.content_type.startswith("application/json")]
    print(f"\nError answers under /api/ or /healthz that are not JSON: {len(odd_api)}")
    _examples(odd_api, lambda o: (o.status, o.content_type, o.body[:60]))
    closed = [o for o in outcomes if isinstance(o.status, str)]
    print(f"Connections closed or timed out without an answer: {len(closed)}")
    _examples(closed, lambda o: (o.status, o.case.family))
    print(f"Keep-alive connections the server closed after an answer without saying so: {sum(run.dropped_after.values())}"
          + (" (the next request was sent again on a new connection)" if run.dropped_after else ""))
    for family, count in run.dropped_after.most_common(5):
        print(f"  {count} × after [{family}]: e.g. {run.dropped_example[family].short(110)}")
    parser_400 = [o for o in outcomes if o.status == 400 and o.body.startswith(b"Invalid HTTP request")]
    print(f"Plain-text 400 'Invalid HTTP request received.' from the HTTP parser: {len(parser_400)}")
    _examples(parser_400, lambda o: o.case.family)

    if alone:
        print(f"\nSlowest 10 requests, sent again alone (the {len(alone)} slowest of the run, best of 2; "
              "'in run' includes waiting behind the other connections):")
        slowest = sorted((o for o in outcomes if o in alone), key=lambda o: -alone[o])[:10]
    else:
        print("\nSlowest 10 requests:")
        slowest = sorted(outcomes, key=lambda o: -o.seconds)[:10]
    for o in slowest:
        again = f"{alone[o] * 1000:8.1f} ms alone, " if alone else ""
        print(f"  {again}{o.seconds * 1000:8.1f} ms in run  {str(o.status):>7}  [{o.case.family}] {o.case.short(90)}")

    tracebacks = 0
    if cli is not None:
        tracebacks = _report_cli(cli, cli_skipped)
    return 1 if fives or tracebacks else 0


def _examples(outcomes: list[Outcome], key, shown: int = 5) -> None:
    seen: dict = {}
    for o in outcomes:
        seen.setdefault(key(o), (o, 0))
        seen[key(o)] = (seen[key(o)][0], seen[key(o)][1] + 1)
    for k, (o, count) in list(seen.items())[:shown]:
        print(f"  {count} × {k}: e.g. {o.case.short(110)}")
    if len(seen) > shown:
        print(f"  … and {len(seen) - shown} more kinds")


def _report_cli(cli: list[CliOutcome], skipped: int) -> int:
    ok = [c for c in cli if c.code == 0]
    tracebacks = [c for c in cli if "Traceback" in c.stderr]
    clean = [c for c in cli if c.code != 0 and "Traceback" not in c.stderr]
    print(f"\nCLI 'pravila search' on {len(cli)} of the queries ({skipped} skipped: NUL or too long for argv): "
          f"exit 0: {len(ok)}, clean errors: {len(clean)}, tracebacks: {len(tracebacks)}")
    longest = max((len(c.stderr.strip().splitlines()) for c in clean), default=0)
    if clean:
        print(f"  clean errors print at most {longest} line(s) on stderr, e.g. {clean[0].stderr.strip().splitlines()[-1][:120]!r}")
    groups: dict[tuple, list[CliOutcome]] = {}
    for c in tracebacks:
        cause = last_traceback(c.stderr) or Cause("(unparsed)", "")
        groups.setdefault(cause.key, []).append(c)
    for n, (key, group) in enumerate(sorted(groups.items(), key=lambda kv: -len(kv[1])), 1):
        cause = last_traceback(group[0].stderr)
        print(f"  {n}. {cause.exception}  ({len(group)} runs)\n     at {cause.where}")
        shown = " ".join(a if len(a) < 80 else a[:80] + "…" for a in group[0].argv[3:])
        print(f"     first: pravila {shown!r}")
    return len(tracebacks)


# --- main ------------------------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=20_000, help="Requests to send (default 20000).")
    parser.add_argument("--seed", type=int, default=1, help="Seed of the generator (default 1).")
    parser.add_argument("--cli", type=int, default=0, metavar="N", help="Also run 'pravila search' on N of the queries.")
    parser.add_argument("--url", help="A running server (http://127.0.0.1:PORT) instead of starting one; "
                                      "5xx causes are then not read from its log.")
    parser.add_argument("--build-dir", type=Path, help="A folder built by 'pravila build' (default: build a temporary one).")
    parser.add_argument("--serve-arg", action="append", default=[], metavar="ARG", help="Pass ARG on to 'pravila serve'.")
    parser.add_argument("--concurrency", type=int, default=2, help="Connections at a time (default 2).")
    parser.add_argument("--replay", type=int, default=500, help="Replay at most this many 5xx requests alone (default 500).")
    parser.add_argument("--max-seconds", type=float, default=1200, help="Stop sending after this long (default 1200).")
    parser.add_argument("--show", type=int, metavar="N", help="Only print the first N requests and exit.")
    args = parser.parse_args(argv)
    if not 1 <= args.count <= 1_000_000 or not 1 <= args.concurrency <= 64:
        parser.error("--count from 1 to 1000000, --concurrency from 1 to 64")
    if args.url and not re.fullmatch(r"http://(127\.0\.0\.1|localhost|\[::1\]):\d+/?", args.url):
        parser.error("--url: loopback only, http://127.0.0.1:PORT")
    if args.url and args.cli and not args.build_dir:
        parser.error("--cli with --url needs --build-dir (the index the CLI searches)")
    return args


def main(argv: list[str] | None = None) -> int:
    import signal

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import serving

    args = parse_args(argv)
    cases = fuzz_cases(args.seed, args.count)
    if args.show:
        for case in cases[:args.show]:
            print(f"[{case.family}] {case.short(200)}")
        return 0
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    print(f"Fuzz: {len(cases)} requests, seed {args.seed}, {args.concurrency} connections; "
          + ", ".join(f"{f.__name__.removeprefix('gen_')} {w:g}" for f, w in FAMILIES) + " (weights)")
    with tempfile.TemporaryDirectory(prefix="pravila-fuzz-") as tmp_name:
        tmp = Path(tmp_name)
        build_dir = args.build_dir
        if build_dir is None and not args.url:
            build_dir = tmp / "build"
            print(f"Built the sites and the index in {serving.build_site(build_dir):.1f} s")
        causes: dict[Outcome, Cause] = {}
        if args.url:
            port = int(args.url.rstrip("/").rsplit(":", 1)[1])
            warm_up(port)
            started = time.perf_counter()
            run = asyncio.run(run_cases(port, cases, args.concurrency, 30, args.max_seconds))
            seconds = time.perf_counter() - started
            alone = asyncio.run(retime(port, sorted(run.outcomes, key=lambda o: -o.seconds)[:30], 30))
        else:
            port = serving.free_port()
            log_path = tmp / "serve.log"
            with serving.start_pravila_serve(build_dir, port, args.serve_arg, log_path):
                warm_up(port)
                started = time.perf_counter()
                run = asyncio.run(run_cases(port, cases, args.concurrency, 30, args.max_seconds))
                seconds = time.perf_counter() - started
                if fives := [o for o in run.outcomes if isinstance(o.status, int) and o.status >= 500]:
                    print(f"Replaying up to {args.replay} of {len(fives)} 5xx requests alone …", file=sys.stderr)
                    causes = asyncio.run(replay(port, fives, log_path, args.replay, 30))
                alone = asyncio.run(retime(port, sorted(run.outcomes, key=lambda o: -o.seconds)[:30], 30))
        failed = [o.case for o in run.outcomes if isinstance(o.status, int) and o.status >= 500]
        cli, skipped = (run_cli(cases, build_dir, args.cli, args.seed, failed) if args.cli else (None, 0))
        return report(run, causes, alone, cli, skipped, seconds, len(cases))


def warm_up(port: int) -> None:
    """Two ordinary searches first, so the slowest requests are not the first ones (morphology loading)."""
    import serving

    for query in ("прыжок в длину", "sesilani kouzla"):
        asyncio.run(serving.fetch_once(port, serving.search_target(query, "all"), timeout=60))


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ninterrupted; server stopped", file=sys.stderr)
        sys.exit(130)
