"""Snippets: a window of an entry's text around the words a query matched, those words marked.

The words are marked in their own forms (``прыжком``, not the query's
``прыжок``); everything is HTML-escaped, so neither the content nor the
query can inject markup.  Pure functions: the searcher computes snippets
outside its locks.
"""

from __future__ import annotations

import html
import re

from ..analysis import WORD_RE, index_keys
from ..languages import Language

__all__ = ["SNIPPET_CHARS", "make_snippet", "snippet_parts"]

SNIPPET_CHARS = 180


def make_snippet(text: str, keys: set[str], lang: Language, width: int = SNIPPET_CHARS) -> str:
    """A window of ``text`` around the words whose index keys are in ``keys``.

    The words are marked in their own forms; everything is HTML-escaped, so
    neither the content nor the query can inject markup.

    >>> make_snippet("Если вы совершаете прыжок в длину, <b>вы</b> покрываете…", {"прыжок"}, ru)
    'Если вы совершаете <mark>прыжок</mark> в длину, &lt;b&gt;вы&lt;/b&gt; покрываете…'
    >>> make_snippet("Slovo " * 50 + "kouzlo na konci.", {"kouzlo"}, cs, width=40)
    '…Slovo Slovo Slovo Slovo <mark>kouzlo</mark> na konci.'
    >>> make_snippet("", {"x"}, cs)
    ''
    """
    text = text.replace("\n", " ")
    if not text:
        return ""
    hits: list[tuple[int, int, str]] = []
    if keys:
        for m in WORD_RE.finditer(text):
            word = m.group(0).lower()
            if not keys.isdisjoint(index_keys(word, lang)):
                hits.append((m.start(), m.end(), word))
    start, end = _window(text, hits, width)
    out = ["…" if start > 0 else ""]
    pos = start
    for a, b, _ in hits:
        if a < start or b > end:
            continue
        out.append(html.escape(text[pos:a], quote=False))
        out.append(f"<mark>{html.escape(text[a:b], quote=False)}</mark>")
        pos = b
    out.append(html.escape(text[pos:end], quote=False))
    if end < len(text):
        out.append("…")
    return "".join(out).strip()


def _window(text: str, hits: list[tuple[int, int, str]], width: int) -> tuple[int, int]:
    """(start, end) of about ``width`` characters with the most distinct marked words, cut between words."""
    if len(text) <= width:
        return 0, len(text)
    lo = 0
    if hits:
        best = -1
        anchor = hits[0][0]
        for i, (a, _, _) in enumerate(hits):
            distinct = len({w for _, b, w in hits[i:] if b <= a + width})
            if distinct > best:
                best, anchor = distinct, a
        lo = min(max(0, anchor - width // 4), len(text) - width)  # some context before, a full window near the end
        while 0 < lo < anchor and _inside_word(text, lo):
            lo += 1
    end = lo + width
    if end >= len(text):
        return lo, len(text)
    while end > lo + width // 2 and _inside_word(text, end):
        end -= 1
    return lo, end


def _inside_word(text: str, i: int) -> bool:
    """Whether position ``i`` falls between two letters (or digits) of one word."""
    return 0 < i < len(text) and text[i - 1].isalnum() and text[i].isalnum()


def snippet_parts(snippet: str) -> list[tuple[str, bool]]:
    """A snippet's text in pieces, each with whether it is a marked word (for terminals).

    >>> snippet_parts("a <mark>прыжок</mark> &lt;b&gt;")
    [('a ', False), ('прыжок', True), (' <b>', False)]
    """
    parts = []
    for i, piece in enumerate(re.split(r"</?mark>", snippet)):
        if piece:
            parts.append((html.unescape(piece), i % 2 == 1))
    return parts
