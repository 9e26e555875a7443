"""Fidelity: the entries carry the source texts word for word.

Both directions are checked, sentence by sentence:

1. every sentence of a source file occurs in its chapter's entries
   (nothing dropped), and
2. every sentence of the entries occurs in the source (nothing invented).

Markdown markup and the reference syntax are ignored on both sides (see
:func:`pravila.markup.plain_text`).  The Russian table of contents (lines
starting with ``• ``) is the navigation, not text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .content import Chapter, Entry, Library, Problem
from .markup import nfc, plain_text

TOC_MARK = "• "

# A sentence ends at . ! ? … (optionally followed by closing quotes or
# brackets) when the next word starts with a capital, a digit or an opening
# quote.  Abbreviations such as «т.к. не» or «1. úrovně» are followed by a
# lowercase word and so do not split.
_SENTENCE_END = re.compile(r"(?<=[.!?…])(?P<close>[»”\")\]]*)\s+(?=[«„“\"(\[0-9A-ZА-ЯЁÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ])")


def split_sentences(text: str) -> list[str]:
    """Sentences of plain text, one block per line.

    >>> split_sentences("Это т.к. правило. Сл 10 — проверка!\\nDruhý řádek. 1. úroveň")
    ['Это т.к. правило.', 'Сл 10 — проверка!', 'Druhý řádek.', '1. úroveň']
    """
    sentences = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if not line:
            continue
        start = 0
        for m in _SENTENCE_END.finditer(line):
            sentences.append(line[start : m.start() + len(m.group("close"))])
            start = m.end()
        sentences.append(line[start:].strip())
    return [s for s in sentences if s]


def source_text(path: Path) -> str:
    """A source file as plain text, without its table of contents."""
    raw = nfc(path.read_text(encoding="utf-8"))
    return plain_text("\n".join(line for line in raw.splitlines() if not line.startswith(TOC_MARK)))


def source_toc(path: Path) -> list[str]:
    """The titles listed in a source's table of contents, in order."""
    raw = nfc(path.read_text(encoding="utf-8"))
    return [line[len(TOC_MARK) :].strip() for line in raw.splitlines() if line.startswith(TOC_MARK)]


def entry_text(library: Library, entry: Entry) -> str:
    """An entry's words as they stand in the source: title, caption, body."""
    title = entry.title if entry.form == "heading" else f"{entry.title}."
    caption = plain_text(entry.caption or "", lambda r: library.title_of(r, entry.lang))
    parts = [caption, library.text(entry)]
    if entry.form == "heading":
        return "\n".join(p for p in [title, *parts] if p)
    # A run-in title opens the first paragraph of the body.
    caption, body = parts
    return "\n".join(p for p in [caption, f"{title} {body}".strip()] if p)


def chapter_text(library: Library, chapter: Chapter) -> str:
    return "\n".join(entry_text(library, e) for e in library.entries_of(chapter))


def _squash(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class FidelityReport:
    chapter: Chapter
    source_sentences: int
    missing: list[str]
    invented: list[tuple[Entry, str]]

    @property
    def present(self) -> int:
        return self.source_sentences - len(self.missing)


def check_chapter(library: Library, chapter: Chapter) -> FidelityReport:
    path = library.content_dir / "sources" / chapter.source_file
    source = source_text(path)
    wanted = split_sentences(source)
    have = _squash(chapter_text(library, chapter))
    missing = [s for s in wanted if s not in have]
    flat_source = _squash(source)
    invented = [
        (e, s) for e in library.entries_of(chapter) for s in split_sentences(entry_text(library, e)) if s not in flat_source
    ]
    return FidelityReport(chapter, len(wanted), missing, invented)


def check_toc(library: Library, chapter: Chapter) -> list[Problem]:
    """The table of contents (where the source has one) matches the nesting.

    The source lists the top-level sections, then each section followed by
    its children.
    """
    path = library.content_dir / "sources" / chapter.source_file
    toc = source_toc(path)
    if not toc:
        return []
    entries = library.entries_of(chapter)
    top = [e for e in entries if e.parent is None]
    expected = [e.title for e in top]
    for section in top:
        expected.append(section.title)
        expected.extend(c.title for c in entries if c.parent == section.id)
    if [t.casefold() for t in toc] == [t.casefold() for t in expected]:
        return []
    line = next((e.line for e in top), 1)
    for i, (a, b) in enumerate(zip(toc, expected)):
        if a.casefold() != b.casefold():
            return [Problem(chapter.file, line, "chapter", f"nesting differs from the source's table of contents at item {i + 1}: source «{a}», entries «{b}»")]
    return [Problem(chapter.file, line, "chapter", f"the source's table of contents has {len(toc)} items, the nesting gives {len(expected)}")]


def fidelity_problems(library: Library) -> tuple[list[Problem], list[FidelityReport]]:
    problems: list[Problem] = []
    reports = []
    used = {c.source_file for c in library.chapters}
    for path in sorted((library.content_dir / "sources").glob("*.txt")):
        if path.name not in used and not library.incomplete:  # else it may be the one a broken file carries
            problems.append(Problem(f"content/sources/{path.name}", 1, "-", "no chapter file carries this source text"))
    for chapter in library.chapters:
        if not (library.content_dir / "sources" / chapter.source_file).is_file():
            continue  # reported by the loader
        report = check_chapter(library, chapter)
        reports.append(report)
        for sentence in report.missing:
            problems.append(Problem(chapter.file, 1, "chapter", f"source sentence missing: «{_short(sentence)}»"))
        for entry, sentence in report.invented:
            problems.append(Problem(entry.file, entry.line, entry.id, f"not in the source: «{_short(sentence)}»"))
        problems.extend(check_toc(library, chapter))
    return problems, reports


def _short(s: str, n: int = 90) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"
