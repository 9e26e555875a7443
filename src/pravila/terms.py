"""The terminology layer: the words players learned from other translations, as content.

``content/terms/<lang>.yaml`` (format: ``docs/terminology.md``) maps each
term players use — another translation's name, a derived form, an
abbreviation — to the entry it names, with the source it comes from; it
declares the words that mean different rules in different translations
(``shared``), and where a player can read the rules this text only marks
(``external``, for the ``[[?slug|…]]`` terms).

Loading never raises: every problem is a :class:`~pravila.content.Problem`
with file and line, reported by ``pravila check``:

- every entry id resolves, every source is declared and cited;
- a variant never repeats its entry's own title or alias;
- a word that names two different rules (a variant of one entry and a
  variant, title or alias of another) is declared under ``shared`` with the
  meaning this text uses (``here``) — an undeclared one is a problem;
- every ``external`` slug is one the chapters mark, once.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from .content import Library, Problem

KINDS = ("name", "abbreviation", "slang", "derived")
SOURCE_KEY = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Source:
    key: str
    name: str  # for readers, in the file's language
    short: str  # the label on the pages: «в BG3», «v SRD»
    cite: str  # where the words can be found again


@dataclass(frozen=True)
class Variant:
    term: str
    entries: tuple[str, ...]
    sources: tuple[str, ...]
    kind: str
    en: str | None = None
    line: int = 0


@dataclass(frozen=True)
class Meaning:
    sources: tuple[str, ...]
    entry: str | None = None
    external: str | None = None
    en: str | None = None
    form: str | None = None


@dataclass(frozen=True)
class Shared:
    term: str
    here: str  # the entry whose meaning this text gives the word
    meanings: tuple[Meaning, ...]
    line: int = 0


@dataclass(frozen=True)
class External:
    slug: str
    label: str
    url: str
    sources: tuple[str, ...]
    name: str | None = None
    line: int = 0


@dataclass
class Terminology:
    """The terms of one language."""

    lang: str
    file: str
    sources: dict[str, Source] = field(default_factory=dict)
    variants: list[Variant] = field(default_factory=list)
    shared: list[Shared] = field(default_factory=list)
    external: dict[str, External] = field(default_factory=dict)

    def variants_of(self, entry_id: str) -> list[Variant]:
        return [v for v in self.variants if entry_id in v.entries]

    def shared_of(self, entry_id: str) -> list[Shared]:
        """The shared words one of whose meanings is this entry."""
        return [s for s in self.shared if any(m.entry == entry_id for m in s.meanings)]

    def source(self, key: str) -> Source:
        return self.sources[key]

    def labels(self, keys: Iterable[str]) -> list[tuple[str, str]]:
        """(short, name) of each source, as the pages and the A–Z index cite them."""
        return [(s.short, s.name) for s in map(self.source, keys)]


def key_of(term: str) -> str:
    """How terms are compared: NFC, case-folded, spaces squeezed.

    >>> key_of("  Vyvolávací  kouzla"), key_of("SO") == key_of("so")
    ('vyvolávací kouzla', True)
    """
    return " ".join(unicodedata.normalize("NFC", term).casefold().split())


def terms_file(content_dir: Path, lang: str) -> Path:
    return content_dir / "terms" / f"{lang}.yaml"


def load_terms(library: "Library", read_yaml: Any, rel: Any) -> tuple[dict[str, Terminology], list["Problem"]]:
    """Every ``content/terms/<lang>.yaml`` of the library's languages, validated against its entries.

    ``read_yaml(path, fname, problems)`` and ``rel(path)`` come from :mod:`pravila.content`
    (one YAML loader, one way of naming files).
    """
    from .content import Problem

    problems: list[Problem] = []
    found: dict[str, Terminology] = {}
    folder = library.content_dir / "terms"
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path.suffix in (".yaml", ".yml") and path.stem not in library.langs:
                problems.append(Problem(rel(path), 0, "-", f"terms for '{path.stem}', which is not one of the project's languages"))
    for lang in library.langs:
        path = terms_file(library.content_dir, lang)
        if not path.is_file():
            continue
        fname = rel(path)
        data = read_yaml(path, fname, problems)
        if data is None:
            continue
        if lang in library.incomplete:
            continue  # its entries are not all known: checking against them would blame this file for that one
        terms = _parse(data, lang, fname, library, problems)
        if terms is not None:
            found[lang] = terms
    return found, problems


def _texts(value: Any) -> tuple[str, ...] | None:
    if isinstance(value, str) and value.strip():
        return (value.strip(),)
    if isinstance(value, list) and value and all(isinstance(v, str) and v.strip() for v in value):
        return tuple(v.strip() for v in value)
    return None


def _parse(data: Any, lang: str, fname: str, library: "Library", problems: list["Problem"]) -> Terminology | None:
    from .content import Problem

    def problem(line: int, what: str, message: str) -> None:
        problems.append(Problem(fname, line, what, message))

    if not isinstance(data, dict):
        problem(1, "-", "a terms file is a mapping with lang, sources, variants, shared and external")
        return None
    if data.get("lang") != lang:
        problem(1, "-", f"lang must be '{lang}' (the file's name), not {data.get('lang')!r}")
    unknown = sorted(set(data) - {"lang", "sources", "variants", "shared", "external", "__line__"})
    for key in unknown:
        problem(1, "-", f"unknown section '{key}' (expected sources, variants, shared, external)")
    terms = Terminology(lang, fname)
    entries = {e.id: e for e in library.in_lang(lang)}

    # sources
    raw_sources = data.get("sources") or {}
    if not isinstance(raw_sources, dict):
        problem(1, "sources", "sources must be a mapping of keys to {name, short, cite}")
        raw_sources = {}
    for key, raw in raw_sources.items():
        if key == "__line__":
            continue
        line = raw.get("__line__", raw_sources.get("__line__", 1)) if isinstance(raw, dict) else raw_sources.get("__line__", 1)
        if not isinstance(key, str) or not SOURCE_KEY.match(key):
            problem(line, str(key), "a source key is a lowercase slug like 'srd-cz'")
            continue
        if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str) and raw[k].strip() for k in ("name", "short", "cite")):
            problem(line, key, "a source needs name, short and cite (where its words can be found again)")
            continue
        terms.sources[key] = Source(key, raw["name"].strip(), raw["short"].strip(), " ".join(raw["cite"].split()))

    def sources_of(value: Any, line: int, what: str) -> tuple[str, ...] | None:
        keys = _texts(value)
        if keys is None:
            problem(line, what, "needs a source (a key of sources, or a list of keys)")
            return None
        missing = [k for k in keys if k not in terms.sources]
        if missing:
            problem(line, what, f"source '{missing[0]}' is not declared under sources")
            return None
        return keys

    def entry_ids(value: Any, line: int, what: str) -> tuple[str, ...] | None:
        ids = _texts(value)
        if ids is None:
            problem(line, what, "needs the entry it names (an id, or a list of ids)")
            return None
        missing = [i for i in ids if i not in entries]
        if missing:
            problem(line, what, f"entry '{lang}:{missing[0]}' does not exist")
            return None
        return ids

    # variants
    for raw in _items(data.get("variants"), "variants", problem):
        line = raw.get("__line__", 0)
        term = raw.get("term")
        if not isinstance(term, str) or not term.strip():
            problem(line, "variant", "a variant needs its term")
            continue
        what = f"«{term.strip()}»"
        for key in sorted(set(raw) - {"term", "entry", "source", "kind", "en", "__line__"}):
            problem(line, what, f"unknown field '{key}'")
        ids = entry_ids(raw.get("entry"), line, what)
        keys = sources_of(raw.get("source"), line, what)
        kind = raw.get("kind")
        if kind not in KINDS:
            problem(line, what, f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
            continue
        if ids is None or keys is None:
            continue
        for i in ids:
            own = {key_of(entries[i].title), *(key_of(a) for a in entries[i].aliases)}
            if key_of(term) in own:
                problem(line, what, f"repeats the title or an alias of '{lang}:{i}' (already searched)")
        en = raw.get("en")
        terms.variants.append(Variant(unicodedata.normalize("NFC", term.strip()), ids, keys, kind,
                                      en.strip() if isinstance(en, str) else None, line))

    # external
    marked = {t for e in library.in_lang(lang) for t in e.undefined_terms}
    for raw in _items(data.get("external"), "external", problem):
        line = raw.get("__line__", 0)
        slug = raw.get("slug")
        if not isinstance(slug, str) or not slug.strip():
            problem(line, "external", "an external record needs the slug of a [[?slug|…]] mark")
            continue
        what = f"?{slug}"
        if slug in terms.external:
            problem(line, what, f"slug '{slug}' is listed twice (first at line {terms.external[slug].line})")
            continue
        if slug not in marked:
            problem(line, what, f"no chapter of '{lang}' marks [[?{slug}|…]]")
        label, url = raw.get("label"), raw.get("url")
        if not isinstance(label, str) or not label.strip():
            problem(line, what, "needs a label: what it is, in this language (a condition, a spell, …)")
            continue
        if not isinstance(url, str) or not url.startswith(("https://", "http://")):
            problem(line, what, "needs the url (http or https) of a page where a player can read it")
            continue
        keys = sources_of(raw.get("source"), line, what)
        if keys is None:
            continue
        name = raw.get("name")
        terms.external[slug] = External(slug, label.strip(), url.strip(), keys, name.strip() if isinstance(name, str) else None, line)

    # shared words
    for raw in _items(data.get("shared"), "shared", problem):
        line = raw.get("__line__", 0)
        term = raw.get("term")
        if not isinstance(term, str) or not term.strip():
            problem(line, "shared", "a shared word needs its term")
            continue
        what = f"«{term.strip()}»"
        here = raw.get("here")
        if not isinstance(here, str) or here not in entries:
            problem(line, what, f"here must be the entry whose meaning this text uses, not {here!r}")
            continue
        meanings = []
        for m in raw.get("meanings") or []:
            if not isinstance(m, dict):
                problem(line, what, "each meaning is a mapping: source, and entry or external")
                continue
            keys = sources_of(m.get("source"), m.get("__line__", line), what)
            entry, external = m.get("entry"), m.get("external")
            if entry is not None and entry not in entries:
                problem(m.get("__line__", line), what, f"entry '{lang}:{entry}' does not exist")
                continue
            if external is not None and external not in terms.external:
                problem(m.get("__line__", line), what, f"external '{external}' is not listed under external")
                continue
            if keys is not None:
                meanings.append(Meaning(keys, entry, external, _opt(m.get("en")), _opt(m.get("form"))))
        if len(meanings) < 2:
            problem(line, what, "a shared word needs at least two meanings, each with its source")
            continue
        if not any(m.entry == here for m in meanings):
            problem(line, what, f"here ('{here}') must be one of its meanings")
        terms.shared.append(Shared(unicodedata.normalize("NFC", term.strip()), here, tuple(meanings), line))

    problems.extend(_undeclared_duplicates(terms, entries.values(), fname))
    return terms


def _opt(value: Any) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None


def _items(value: Any, section: str, problem: Any) -> Iterable[dict[str, Any]]:
    if value is None:
        return []
    if not isinstance(value, list):
        problem(1, section, f"{section} must be a list")
        return []
    items = []
    for item in value:
        if isinstance(item, dict):
            items.append(item)
        else:
            problem(1, section, f"each item of {section} must be a mapping")
    return items


def _undeclared_duplicates(terms: Terminology, entries: Iterable[Any], fname: str) -> list["Problem"]:
    """A word that names two rules must be declared under ``shared``."""
    from .content import Problem

    names: dict[str, set[str]] = {}
    for e in entries:
        for name in (e.title, *e.aliases):
            names.setdefault(key_of(name), set()).add(e.id)
    declared = {key_of(s.term) for s in terms.shared}
    problems = []
    seen: dict[str, set[str]] = {}
    for v in terms.variants:
        key = key_of(v.term)
        ids = seen.setdefault(key, set())
        ids.update(v.entries)
        everything = ids | names.get(key, set())
        if len(everything) > 1 and key not in declared and not set(v.entries) >= everything:
            others = ", ".join(sorted(everything - set(v.entries))) or ", ".join(sorted(everything))
            problems.append(Problem(fname, v.line, f"«{v.term}»",
                                    f"names another rule too ({others}): declare it under shared, with the meaning this text uses"))
    return problems
