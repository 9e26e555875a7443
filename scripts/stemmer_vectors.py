"""Write the stemmers' shared vectors (tests/vectors/stemmers.json).

    .venv/bin/python scripts/stemmer_vectors.py [--content | --check]

Run it after changing a stemmer (Python or JavaScript), about a minute;
after a content edit ``--content`` is enough (seconds): it renews only the
content's part.  ``tests/test_stemmers.py`` fails until the file is current.
``--check`` writes nothing and says whether the file is current.

The file is the contract between the Python stemmers the searcher uses and
their JavaScript twins (``src/pravila/static/stemmers.js``): for each
algorithm, ``[word, stem]`` pairs, all made by Python.

- ``content``: the content's whole vocabulary — every word of the entries'
  titles, bodies (plain text), aliases and English names, plus each word's
  exact key (its lemma) — as that algorithm meets it: ``russian`` the
  Cyrillic words, ``english``, ``czech`` and ``polish`` the others,
  ``fold`` all of them.
- ``sample``: a fixed sample of words from the dictionaries simplemma ships
  (forms and lemmas; ru, en, cs, pl), the same on every run whatever the
  content.  Words are taken in the order of their SHA-1: first one
  word for each change the stemmer makes to at least ``MIN_CHANGE`` words of
  the dictionary (the ending it removes and what it puts instead, e.g.
  ``-ами → ''``, ``-ies → -i``), so that rare rules are there too; then
  the next words up to ``SAMPLE_SIZE``.
  ``fold`` also gets every character from U+0080 to U+02FF and the Latin
  Extended Additional block (U+1E00–U+1EFF) one by one, and the Czech sample.
- ``edge``: a few words the dictionaries lack (digits, mixed scripts, letters
  outside the BMP, apostrophes).

Every input is what ``pravila.analysis.words`` yields (NFC, lowercased,
letters and digits), except the apostrophes of ``edge``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

import Stemmer

from pravila import analysis
from pravila.analysis import stemmer
from pravila.content import Library, load_library
from pravila.languages import script_of
from pravila.project import load_project

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "vectors" / "stemmers.json"

SAMPLE_SIZE = 3000
MIN_CHANGE = 10

# algorithm → (the Python function, the simplemma dictionary it is sampled from)
# The names are stemmers.js's, the `browser` key of the language registry.
ALGORITHMS: dict[str, tuple[Callable[[str], str], str | None]] = {
    "russian": (stemmer("snowball:russian"), "ru"),
    "english": (stemmer("snowball:english"), "en"),
    "czech": (stemmer("pravila:czech-light"), "cs"),
    "polish": (stemmer("snowball:polish"), "pl"),
    "fold": (analysis.fold, None),
}

EDGE = {
    # rules the sample misses: -вши, -ивши, -ывши; -eedly, -lessli
    "russian": ["2024", "d20", "ёжиком", "ёё", "в", "𝔞ами", "прыжок𝔞ость", "прочитавши", "любивши", "забывши"],
    "english": ["2024", "d20", "5e", "y", "yy", "ay", "𝔞s", "𝔞𝔟ing", "dy𝔞ing", "'s", "spell's", "'yelled'", "spells'",
                "agreedly", "carelessly"],
    "czech": ["2024", "d20", "𝔞", "𝔞ech", "kouzl𝔞ami", "ё"],
    "polish": ["2024", "d20", "ś", "𝔞ach", "czyt𝔞jąc", "by'szę", "abc'ą"],
    "fold": ["𝔞é", "ŀ", "ǆ", "ẞ"],
}


def _wanted(algorithm: str, word: str) -> bool:
    """Whether the algorithm meets this word in the search (by script)."""
    if algorithm == "fold":
        return True
    return (script_of(word) == "Cyrillic") == (algorithm == "russian")


def vocabulary(library: Library) -> set[str]:
    """Every word of the entries' titles, bodies, aliases and English names, and each word's lemma."""
    registry = load_project(ROOT, environ={}).registry
    out: set[str] = set()
    for entry in library.entries:
        for text in (entry.title, library.text(entry), *entry.aliases, entry.en):
            for w in analysis.words(text):
                out.add(w.text)
                out.add(analysis.index_keys(w.text, registry[entry.lang])[0])  # the exact key: the lemma
    return out


def pairs(algorithm: str, words: Iterable[str]) -> list[list[str]]:
    stem = ALGORITHMS[algorithm][0]
    return [[w, stem(w)] for w in sorted(words)]


def content_vectors(library: Library) -> dict[str, list[list[str]]]:
    """The ``content`` part of each algorithm: what the test regenerates."""
    words = vocabulary(library)
    return {a: pairs(a, (w for w in words if _wanted(a, w))) for a in ALGORITHMS}


@lru_cache(maxsize=None)
def _dictionary_words(lang: str) -> frozenset[str]:
    from simplemma.strategies.dictionaries import DefaultDictionaryFactory

    out = set()
    for form, lemma in DefaultDictionaryFactory().get_dictionary(lang).items():
        for w in (form, lemma):
            w = analysis.normalize(w)
            if analysis.WORD_RE.fullmatch(w):
                out.add(w)
    return frozenset(out)


# What a stemmer does to a word before its rules (so that a change is only what the rules do).
_PREPARE: dict[str, Callable[[str], str]] = {
    "russian": lambda w: w.replace("ё", "е"),
    "czech": analysis.fold,
}


def _change(algorithm: str, word: str) -> tuple[str, str]:
    """The ending the stemmer removes from a word and what it puts instead."""
    word = _PREPARE.get(algorithm, str)(word)
    stem = ALGORITHMS[algorithm][0](word)
    if word.startswith(stem):  # most words: an ending removed
        return word[len(stem):], ""
    common = len(os.path.commonprefix([word, stem]))
    return word[common:], stem[common:]


def _by_hash(words: Iterable[str]) -> list[str]:
    return sorted(words, key=lambda w: hashlib.sha1(w.encode()).digest())


def sample_words(algorithm: str) -> list[str]:
    lang = ALGORITHMS[algorithm][1]
    if lang is None:  # fold: characters one by one, and Czech words
        chars = [chr(c) for c in [*range(0x80, 0x300), *range(0x1E00, 0x1F00)]]
        return chars + _by_hash(_dictionary_words("cs"))[:SAMPLE_SIZE]
    words = _by_hash(w for w in _dictionary_words(lang) if _wanted(algorithm, w))
    change_of = {w: _change(algorithm, w) for w in words}
    counts = Counter(change_of.values())
    chosen: dict[str, None] = {}
    for w in words:
        if counts[change_of[w]] >= MIN_CHANGE:
            chosen[w] = None
            counts[change_of[w]] = 0  # one word per change
    for w in words:
        if len(chosen) >= SAMPLE_SIZE:
            break
        chosen.setdefault(w, None)
    return list(chosen)


def vectors(library: Library, keep: dict[str, dict[str, list[list[str]]]] | None = None):
    """All the vectors; with ``keep`` (the file as it is), only the content part is made anew."""
    content = content_vectors(library)
    out = {}
    for algorithm in ALGORITHMS:
        if keep is not None:
            out[algorithm] = {**keep[algorithm], "content": content[algorithm]}
            continue
        out[algorithm] = {
            "content": content[algorithm],
            "sample": pairs(algorithm, sample_words(algorithm)),
            "edge": pairs(algorithm, (unicodedata.normalize("NFC", w) for w in EDGE[algorithm])),
        }
    return out


def to_json(data: dict[str, dict[str, list[list[str]]]]) -> str:
    """One pair a line, so that a change shows as a readable diff."""
    lines = ["{"]
    for i, (algorithm, parts) in enumerate(data.items()):
        lines.append(f"  {json.dumps(algorithm)}: {{")
        for j, (part, items) in enumerate(parts.items()):
            lines.append(f"    {json.dumps(part)}: [")
            body = [f"      {json.dumps(p, ensure_ascii=False)}" for p in items]
            lines.append(",\n".join(body))
            lines.append("    ]" + ("," if j < len(parts) - 1 else ""))
        lines.append("  }" + ("," if i < len(data) - 1 else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--content", action="store_true", help="renew only the content's part (after a content edit)")
    what.add_argument("--check", action="store_true", help="write nothing; exit 1 when the file is not current")
    args = parser.parse_args(argv)
    library, problems = load_library(load_project(ROOT, environ={}))
    if problems:
        print("the content has problems (run 'pravila check')", file=sys.stderr)
        return 1
    keep = json.loads(OUT.read_text(encoding="utf-8")) if args.content else None
    text = to_json(vectors(library, keep))
    if args.check:
        current = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.name} is {'current' if current else 'NOT current: run scripts/stemmer_vectors.py'}")
        return 0 if current else 1
    OUT.write_text(text, encoding="utf-8")
    counts = ", ".join(f"{a} {sum(len(p) for p in parts.values())}" for a, parts in json.loads(text).items())
    print(f"wrote {OUT} ({len(text.encode()) // 1024} KB): {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
