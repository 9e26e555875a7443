"""The inline markup of entry bodies: cross-references and marked terms.

One small syntax, documented for authors in ``docs/content-format.md``::

    [[grapple]]                    link, shown as the target's title
    [[grapple|захвата]]            link, shown as the source's own words
    [[cs:concentration|Soustředění]]   link into the other language
    [[?grappled|схваченной]]       a term the chapter uses but does not define

Everything else in a body is plain Markdown.  This module only parses and
rewrites; it knows nothing about files, pages or search.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Callable

REF_RE = re.compile(r"\[\[(?P<target>[^\[\]|]+?)(?:\|(?P<text>[^\[\]]+?))?\]\]")


@dataclass(frozen=True)
class Ref:
    """One ``[[…]]`` in a body.

    ``lang`` is None for a reference inside the entry's own language.
    ``undefined`` marks a term the chapter uses but does not define.
    """

    target: str
    text: str | None
    lang: str | None
    undefined: bool
    start: int
    end: int


def parse_refs(body: str) -> list[Ref]:
    """All references of a body, in order.

    >>> [(r.target, r.text, r.lang, r.undefined) for r in parse_refs(
    ...     "см. [[grapple|захват]], [[?grappled|схваченной]], [[cs:range]]")]
    [('grapple', 'захват', None, False), ('grappled', 'схваченной', None, True), ('range', None, 'cs', False)]
    """
    refs = []
    for m in REF_RE.finditer(body):
        target = m.group("target").strip()
        undefined = target.startswith("?")
        if undefined:
            target = target[1:].strip()
        lang = None
        if not undefined and ":" in target:
            lang, target = target.split(":", 1)
        refs.append(Ref(target, m.group("text"), lang, undefined, m.start(), m.end()))
    return refs


def rewrite_refs(body: str, render: Callable[[Ref], str]) -> str:
    """Replace each reference by ``render(ref)``; the rest stays untouched."""
    out, pos = [], 0
    for ref in parse_refs(body):
        out.append(body[pos : ref.start])
        out.append(render(ref))
        pos = ref.end
    out.append(body[pos:])
    return "".join(out)


_TABLE_RULE_RE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_LIST_MARK_RE = re.compile(r"^\s*(?:[-*•]|\d+\.)\s+")
_EMPHASIS_RE = re.compile(r"(\*\*|__|(?<!\w)\*(?!\s)|(?<!\s)\*(?!\w))")


def plain_text(markdown: str, title_of: Callable[[Ref], str] | None = None) -> str:
    """The words of a body as a reader sees them, one line per block.

    References become their words (or the target's title via ``title_of``),
    list markers, emphasis and table rules disappear, table cells are joined
    by spaces.

    >>> plain_text("- **Rituály.** Viz [[rituals|Rituál]].\\n\\n| A | B |\\n|---|---|\\n| c | d |")
    'Rituály. Viz Rituál.\\nA B\\nc d'
    """
    text = rewrite_refs(markdown, lambda r: r.text or (title_of(r) if title_of else r.target))
    lines = []
    for line in text.splitlines():
        if _TABLE_RULE_RE.match(line) and "-" in line:
            continue
        line = _LIST_MARK_RE.sub("", line)
        if line.lstrip().startswith("|"):
            line = " ".join(c.strip() for c in line.strip().strip("|").split("|"))
        line = _EMPHASIS_RE.sub("", line)
        line = " ".join(line.split())
        if line:
            lines.append(line)
    return "\n".join(lines)


def nfc(text: str) -> str:
    """Unicode NFC: decomposed input must not split words."""
    return unicodedata.normalize("NFC", text)
