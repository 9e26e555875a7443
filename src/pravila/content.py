"""The content model: chapters and rule entries read from ``content/*/*.yaml``.

Data flows one way: YAML → :func:`load_library` → :class:`Library` (validated,
typed) → site pages, search index, API answers and ``pravila export``.

Loading never raises on bad content: every problem becomes a :class:`Problem`
naming the file, the line and the entry, so an author sees all of them at
once.  Only the CLI turns problems into an exit code.
"""

from __future__ import annotations

import re
from functools import cached_property
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

import yaml

from .calctables import Preset, parse_preset
from .errors import ContentError
from .markup import Ref, nfc, parse_refs, plain_text
from .terms import Terminology, load_terms

if TYPE_CHECKING:
    from .project import Project

EDITIONS = (2014, 2024)
KINDS = (
    "section",
    "movement",
    "action",
    "bonus action",
    "reaction",
    "free activity",
    "optional action",
    "rule",
)
FORMS = ("heading", "run-in", "list-item")
# How an entry's English name was established (metadata we add; docs/english-names.md says where).
EN_STATUSES = (
    "srd",         # the heading of the rule in SRD 5.1 or SRD 5.2 (the books' own heading)
    "no-heading",  # the books have no heading here: the name of the rule it belongs to, described
    "not-in-srd",  # the rule is not in an SRD (e.g. the DMG's action options): the best-attested name
)
ID_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

__all__ = ["Chapter", "ContentError", "Counterpart", "Entry", "Library", "Problem", "load_library"]


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    entry: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.entry}: {self.message}"


@dataclass(frozen=True)
class Counterpart:
    """The same rule in the other language, e.g. ``cs:concentration``."""

    lang: str
    id: str
    note: str | None = None

    @property
    def key(self) -> str:
        return f"{self.lang}:{self.id}"


@dataclass(frozen=True)
class Chapter:
    id: str
    lang: str
    title: str
    en: str
    edition: int
    source: str
    source_file: str
    file: str
    provenance: str | None = None  # where the text comes from (in the chapter's language; ours)


@dataclass
class Entry:
    """One rule entry: a heading of the source with the text under it."""

    id: str
    lang: str
    title: str
    en: str
    chapter: Chapter
    edition: int
    source: str
    file: str
    line: int
    aliases: tuple[str, ...] = ()
    kind: str | None = None
    parent: str | None = None
    form: str = "heading"
    body: str = ""
    caption: str | None = None
    counterparts: list[Counterpart] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    en_status: str = "srd"
    notes: tuple[str, ...] = ()  # editor's notes, in the entry's language; not rules text
    calculator: Preset | None = None  # the calculator widget that follows the entry's text

    @property
    def key(self) -> str:
        return f"{self.lang}:{self.id}"

    @property
    def refs(self) -> list[Ref]:
        return parse_refs(self.body) + parse_refs(self.caption or "")

    @property
    def linked_ids(self) -> list[str]:
        """Ids of the entries this body links to (same language), in order, once each."""
        seen: dict[str, None] = {}
        for r in self.refs:
            if not r.undefined and r.lang in (None, self.lang):
                seen.setdefault(r.target, None)
        return list(seen)

    @property
    def undefined_terms(self) -> list[str]:
        return list(dict.fromkeys(r.target for r in self.refs if r.undefined))


@dataclass
class Library:
    """All chapters and entries of a project's languages, in source order."""

    chapters: list[Chapter]
    entries: list[Entry]
    content_dir: Path
    langs: tuple[str, ...] = ()  # the project's language codes, in order
    terms: dict[str, Terminology] = field(default_factory=dict)  # the terminology layer, per language
    # Languages with a chapter file that did not load: what is missing there is
    # unknown, so links and counterparts into them are not reported as missing.
    incomplete: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if not self.langs:
            self.langs = tuple(dict.fromkeys(c.lang for c in self.chapters))
        self._by_key = {e.key: e for e in self.entries}

    def get(self, lang: str, entry_id: str) -> Entry | None:
        return self._by_key.get(f"{lang}:{entry_id}")

    def by_key(self, key: str) -> Entry | None:
        return self._by_key.get(key)

    def in_lang(self, lang: str) -> list[Entry]:
        return [e for e in self.entries if e.lang == lang]

    def chapters_in(self, lang: str) -> list[Chapter]:
        return [c for c in self.chapters if c.lang == lang]

    def entries_of(self, chapter: Chapter) -> list[Entry]:
        return [e for e in self.entries if e.chapter is chapter]

    def parent_of(self, entry: Entry) -> Entry | None:
        return self.get(entry.lang, entry.parent) if entry.parent else None

    def ancestors(self, entry: Entry) -> list[Entry]:
        """From the top-level entry down to the entry's parent."""
        chain, seen = [], {entry.id}
        p = self.parent_of(entry)
        while p is not None and p.id not in seen:
            chain.append(p)
            seen.add(p.id)
            p = self.parent_of(p)
        return chain[::-1]

    def section_of(self, entry: Entry) -> Entry:
        """The top-level entry whose page shows this entry."""
        chain = self.ancestors(entry)
        return chain[0] if chain else entry

    def backlinks(self, entry: Entry) -> list[Entry]:
        """Entries of the same language whose bodies link to this one."""
        return self._linked_from.get(entry.key, [])

    @cached_property
    def _linked_from(self) -> dict[str, list[Entry]]:
        # Bodies are parsed once here, not once per entry asked about.
        linked_from: dict[str, list[Entry]] = {}
        for e in self.entries:
            for target in e.linked_ids:
                if target != e.id:
                    linked_from.setdefault(f"{e.lang}:{target}", []).append(e)
        return linked_from

    def title_of(self, ref: Ref, lang: str) -> str:
        target = self.get(ref.lang or lang, ref.target)
        return target.title if target else ref.target

    def text(self, entry: Entry) -> str:
        """The body as plain text, references shown as their words."""
        return plain_text(entry.body, lambda r: self.title_of(r, entry.lang))


# --- loading ---------------------------------------------------------------


MAX_DEPTH = 40  # nested mappings and lists; the content's deepest is 5


class YamlRefused(yaml.YAMLError):
    """YAML that content may not use: anchors and aliases, or nesting deeper than :data:`MAX_DEPTH`."""

    def __init__(self, message: str, mark: yaml.Mark):
        super().__init__(message)
        self.problem, self.problem_mark = message, mark


class _LineLoader(yaml.SafeLoader):
    """A safe loader that remembers the line of every mapping (``__line__``).

    It refuses anchors and aliases while composing, before anything is
    expanded (a "billion laughs" file is one problem, not gigabytes), and
    nesting deeper than :data:`MAX_DEPTH` (not a RecursionError).
    """

    _depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            kind = "alias" if isinstance(event, yaml.AliasEvent) else "anchor"
            sigil = "*" if kind == "alias" else "&"
            raise YamlRefused(f"YAML {kind} {sigil}{str(event.anchor)[:40]}: content files may not use anchors or "
                              "aliases; write the value out", event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise YamlRefused(f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    mapping = loader.construct_mapping(node, deep=True)
    mapping["__line__"] = node.start_mark.line + 1
    return mapping


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


NOT_LANGUAGE_FOLDERS = ("sources", "terms")

# What Markdown would pass through as raw HTML: a tag, a comment, a processing
# instruction, CDATA or a declaration (Python-Markdown's inline HTML pattern,
# simplified).  Autolinks (<https://…>) are Markdown; a lone < or > is text.
_RAW_HTML_RE = re.compile(
    r"<(?:/?[A-Za-z][^\s\"'<>@]*(?:\s[^<>]*)?/?|!--.*?--|\?.*?\?|!\[CDATA\[.*?\]\]|![A-Za-z][^<>]*)>", re.S
)
_AUTOLINK_RE = re.compile(r"<[A-Za-z][A-Za-z0-9+.-]*://[^<>\s]*>")


def raw_html(text: str) -> str | None:
    """The first piece of raw HTML in a text, or None (the content is Markdown only).

    >>> raw_html("Viz [[rituals|Rituál]]: *pozor*, hod < 10 i «>».") is None
    True
    >>> raw_html("text <script>alert(1)</script>"), raw_html("a <!-- hidden --> b"), raw_html("<img src=x onerror=y>")
    ('<script>', '<!-- hidden -->', '<img src=x onerror=y>')
    >>> raw_html("see <https://example.org/rules>") is None
    True
    """
    for m in _RAW_HTML_RE.finditer(text):
        if not _AUTOLINK_RE.fullmatch(m.group(0)):
            return m.group(0)
    return None


def chapter_files(content_dir: Path, langs: tuple[str, ...]) -> list[Path]:
    return sorted(p for lang in langs for p in (content_dir / lang).glob("*.yaml"))


def load_library(project: "Project") -> tuple[Library, list[Problem]]:
    """Read every chapter file of the project's languages; return the library and the problems found.

    Problems cover the folders, the schema and the links between entries;
    fidelity to the source texts is checked by :mod:`pravila.fidelity`.
    """
    content_dir = project.content_dir
    langs = project.codes
    chapters: list[Chapter] = []
    entries: list[Entry] = []
    problems: list[Problem] = list(_folder_problems(project))
    files = chapter_files(content_dir, langs)
    if not files and not problems:
        wanted = ", ".join(f"{_rel(content_dir / lang, content_dir)}/*.yaml" for lang in langs) or "content/<lang>/*.yaml"
        problems.append(Problem(_rel(content_dir, content_dir), 0, "-", f"no chapter files ({wanted})"))
    incomplete: set[str] = set()
    for path in files:
        chapter, file_entries = _load_chapter(path, content_dir, langs, problems)
        if chapter is not None:
            chapters.append(chapter)
            entries.extend(file_entries)
        else:
            incomplete.add(path.parent.name)
    library = Library(chapters, entries, content_dir, langs, incomplete=frozenset(incomplete))
    problems.extend(_check_links(library))
    library.terms, term_problems = load_terms(library, read_yaml, lambda p: _rel(p, content_dir))
    problems.extend(term_problems)
    return library, problems


def load_clean_library(project: "Project") -> Library:
    """The library, or a :class:`ContentError` with every problem (schema and links)."""
    library, problems = load_library(project)
    if problems:
        raise ContentError(problems, f"the content has {len(problems)} problem(s); run 'pravila check'")
    return library


def _folder_problems(project: "Project") -> Iterator[Problem]:
    """Every folder of ``content/`` is a language of the project, the sources or the terms."""
    content_dir = project.content_dir
    if not content_dir.is_dir():
        yield Problem(str(content_dir), 0, "-", "the content folder does not exist")
        return
    for folder in sorted(p for p in content_dir.iterdir() if p.is_dir() and not p.name.startswith(".")):
        name = folder.name
        if name in NOT_LANGUAGE_FOLDERS or name in project.codes:
            continue
        where = _rel(folder, content_dir) + "/"
        if name in project.registry:
            yield Problem(where, 0, "-", f"language '{name}' is not one of the project's languages "
                                         f"({', '.join(project.codes)}); add it to 'languages' in pravila.toml")
        else:
            yield Problem(where, 0, "-", f"unknown language '{name}' (the registry has {', '.join(project.registry)}; "
                                         f"declare it under [language.{name}] in pravila.toml)")


def _rel(path: Path, content_dir: Path) -> str:
    try:
        return str(path.relative_to(content_dir.parent))
    except ValueError:
        return str(path)


def read_yaml(path: Path, fname: str, problems: list[Problem]) -> Any | None:
    """A content YAML file with the line of every mapping (``__line__``), or None and one problem.

    Each problem is one line with a real line number: text that is not UTF-8,
    control characters, malformed YAML, anchors or aliases, nesting too deep.
    """
    try:
        data = path.read_bytes()
    except OSError as e:
        problems.append(Problem(fname, 0, "-", f"cannot read file: {e.strerror or e}"))
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = len(data[data.rfind(b"\n", 0, e.start) + 1 : e.start].decode("utf-8", "replace")) + 1
        problems.append(Problem(fname, line, "-", f"not UTF-8 text: byte 0x{data[e.start]:02X} at column {column}; "
                                                  "save the file as UTF-8"))
        return None
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 — a SafeLoader subclass
    except yaml.reader.ReaderError as e:
        line = text.count("\n", 0, e.position) + 1
        column = e.position - (text.rfind("\n", 0, e.position) + 1) + 1
        problems.append(Problem(fname, line, "-", f"character U+{e.character:04X} at column {column} is not allowed "
                                                  "(of the control characters only tabs and line breaks are); remove it"))
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 0
        message = getattr(e, "problem", None) or str(e)
        prefix = "" if isinstance(e, YamlRefused) else "malformed YAML: "
        problems.append(Problem(fname, line, "-", prefix + " ".join(str(message).split())))
    return None


def _load_chapter(path: Path, content_dir: Path, langs: tuple[str, ...], problems: list[Problem]) -> tuple[Chapter | None, list[Entry]]:
    fname = _rel(path, content_dir)
    data = read_yaml(path, fname, problems)
    if data is None and problems and problems[-1].file == fname:
        return None, []
    if not isinstance(data, dict) or not isinstance(data.get("chapter"), dict) or not isinstance(data.get("entries"), list):
        problems.append(Problem(fname, 1, "-", "a chapter file needs a 'chapter' mapping and an 'entries' list"))
        return None, []
    ch = data["chapter"]
    ch_line = ch.get("__line__", 1)
    lang_dir = path.parent.name

    def need(d: dict, key: str, typ: type | tuple[type, ...], entry: str, line: int) -> Any:
        value = d.get(key)
        if value is None or (isinstance(value, str) and not value.strip()):
            problems.append(Problem(fname, line, entry, f"missing required field '{key}'"))
            return None
        if not isinstance(value, typ):
            problems.append(Problem(fname, line, entry, f"field '{key}' must be {_typename(typ)}"))
            return None
        return value

    cid = need(ch, "id", str, "chapter", ch_line)
    lang = need(ch, "lang", str, "chapter", ch_line)
    if lang is not None and lang not in langs:
        problems.append(Problem(fname, ch_line, "chapter", f"unknown language '{lang}' (expected one of {', '.join(langs)})"))
        lang = None
    if lang is not None and lang != lang_dir:
        problems.append(Problem(fname, ch_line, "chapter", f"language '{lang}' does not match folder '{lang_dir}'"))
    edition = need(ch, "edition", int, "chapter", ch_line)
    if edition is not None and edition not in EDITIONS:
        problems.append(Problem(fname, ch_line, "chapter", f"unknown edition {edition} (expected 2014 or 2024)"))
    chapter_values = [cid, lang, need(ch, "title", str, "chapter", ch_line), need(ch, "en", str, "chapter", ch_line), edition,
                      need(ch, "source", str, "chapter", ch_line), need(ch, "source_file", str, "chapter", ch_line)]
    if any(v is None for v in chapter_values):
        return None, []
    provenance = ch.get("provenance")
    if provenance is not None and not (isinstance(provenance, str) and provenance.strip()):
        problems.append(Problem(fname, ch_line, "chapter", "field 'provenance' must be text"))
        provenance = None
    cid, lang, title, en, edition, source, source_file = chapter_values
    chapter = Chapter(cid, lang, title, en, edition, source, source_file, file=fname,
                      provenance=nfc(provenance.strip()) if provenance else None)
    if not (content_dir / "sources" / chapter.source_file).is_file():
        problems.append(Problem(fname, ch_line, "chapter", f"source_file '{chapter.source_file}' not found in content/sources/"))

    entries: list[Entry] = []
    known = {"id", "title", "en", "en_status", "aliases", "kind", "parent", "form", "body", "caption", "edition", "source",
             "counterparts", "notes", "calculator", "__line__"}
    for i, raw in enumerate(data["entries"]):
        if not isinstance(raw, dict):
            problems.append(Problem(fname, ch_line, f"entries[{i}]", "an entry must be a mapping"))
            continue
        line = raw.get("__line__", 0)
        eid = need(raw, "id", str, f"entries[{i}]", line)
        label = eid or f"entries[{i}]"
        if eid is not None and not ID_RE.fullmatch(eid):
            problems.append(Problem(fname, line, label, "id must be a lowercase slug like 'opportunity-attack'"))
        for key in sorted(set(raw) - known):
            problems.append(Problem(fname, line, label, f"unknown field '{key}'"))
        title = need(raw, "title", str, label, line)
        en = need(raw, "en", str, label, line)
        aliases = raw.get("aliases") or []
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            problems.append(Problem(fname, line, label, "field 'aliases' must be a list of strings"))
            aliases = []
        kind = raw.get("kind")
        if kind is not None and kind not in KINDS:
            problems.append(Problem(fname, line, label, f"unknown kind '{kind}' (expected one of: {', '.join(KINDS)})"))
        form = raw.get("form", "heading")
        if form not in FORMS:
            problems.append(Problem(fname, line, label, f"unknown form '{form}' (expected one of: {', '.join(FORMS)})"))
        body = raw.get("body") or ""
        if not isinstance(body, str):
            problems.append(Problem(fname, line, label, "field 'body' must be text"))
            body = ""
        caption = raw.get("caption")
        if caption is not None and not isinstance(caption, str):
            problems.append(Problem(fname, line, label, "field 'caption' must be text"))
            caption = None
        e_edition = raw.get("edition", chapter.edition)
        if "edition" in raw and e_edition not in EDITIONS:
            problems.append(Problem(fname, line, label, f"unknown edition {e_edition!r} (expected 2014 or 2024)"))
        parent = raw.get("parent")
        if parent is not None and not isinstance(parent, str):
            problems.append(Problem(fname, line, label, "field 'parent' must be an entry id"))
            parent = None
        counterparts = _parse_counterparts(raw.get("counterparts"), fname, line, label, langs, problems)
        en_status = raw.get("en_status", "srd")
        if en_status not in EN_STATUSES:
            problems.append(Problem(fname, line, label, f"unknown en_status {en_status!r} (expected one of: {', '.join(EN_STATUSES)})"))
            en_status = "srd"
        calculator = None
        if raw.get("calculator") is not None:
            try:
                calculator = parse_preset(raw["calculator"])
            except ValueError as e:
                problems.append(Problem(fname, line, label, f"field 'calculator': {e}"))
        notes = raw.get("notes") or []
        if isinstance(notes, str):
            notes = [notes]
        if not isinstance(notes, list) or not all(isinstance(n, str) and n.strip() for n in notes):
            problems.append(Problem(fname, line, label, "field 'notes' must be a list of editor's notes (text)"))
            notes = []
        for name, texts in (("body", [body]), ("caption", [caption or ""]), ("notes", notes)):
            found = next((h for h in map(raw_html, texts) if h), None)
            if found:
                shown = found if len(found) <= 40 else found[:39] + "…"
                problems.append(Problem(fname, line, label, f"raw HTML {shown!r} in '{name}': the content is Markdown only "
                                                            "(the site would publish the HTML as it is)"))
        if eid is None or title is None or en is None:
            continue
        entries.append(
            Entry(
                id=eid, lang=chapter.lang, title=nfc(title.strip()), en=en.strip(), chapter=chapter,
                edition=e_edition if isinstance(e_edition, int) else chapter.edition,
                source=str(raw.get("source") or chapter.source), file=fname, line=line,
                aliases=tuple(nfc(a.strip()) for a in aliases if a.strip()), kind=kind, parent=parent,
                form=form if form in FORMS else "heading", body=nfc(body.strip("\n")),
                caption=nfc(caption.strip()) if caption else None, counterparts=counterparts,
                en_status=en_status, notes=tuple(nfc(n.strip("\n")) for n in notes), calculator=calculator,
            )
        )
    return chapter, entries


def _parse_counterparts(value: Any, fname: str, line: int, label: str, langs: tuple[str, ...], problems: list[Problem]) -> list[Counterpart]:
    if value is None:
        return []
    if not isinstance(value, list):
        problems.append(Problem(fname, line, label, "field 'counterparts' must be a list"))
        return []
    out = []
    for item in value:
        note = None
        if isinstance(item, dict):
            note = item.get("note")
            item = item.get("to")
        if not isinstance(item, str) or ":" not in item:
            problems.append(Problem(fname, line, label, f"counterpart {item!r} must look like 'cs:entry-id'"))
            continue
        lang, cid = item.split(":", 1)
        if lang not in langs:
            problems.append(Problem(fname, line, label, f"counterpart '{item}' names unknown language '{lang}'"))
            continue
        out.append(Counterpart(lang, cid.strip(), note.strip() if isinstance(note, str) else None))
    return out


def _typename(typ: type | tuple[type, ...]) -> str:
    names = {str: "text", int: "a whole number", list: "a list", dict: "a mapping"}
    if isinstance(typ, tuple):
        return " or ".join(names.get(t, t.__name__) for t in typ)
    return names.get(typ, typ.__name__)


# --- links between entries --------------------------------------------------


def _check_links(library: Library) -> Iterator[Problem]:
    """Unique ids, parents, references and counterparts that resolve.

    Counterparts are made symmetric here: a pair declared on one side is
    added to the other. An edition note on one side of a pair asks for one
    on the other side, in that side's language: a reader of either page
    learns how the editions differ in the page's own language.
    """
    seen: dict[str, Entry] = {}
    for e in library.entries:
        if e.key in seen:
            first = seen[e.key]
            yield Problem(e.file, e.line, e.id, f"duplicate id (first at {first.file}:{first.line})")
        else:
            seen[e.key] = e
    for e in library.entries:
        if e.parent is not None:
            parent = library.get(e.lang, e.parent)
            if parent is None:
                yield Problem(e.file, e.line, e.id, f"parent '{e.parent}' does not exist")
            elif parent.chapter is not e.chapter:
                yield Problem(e.file, e.line, e.id, f"parent '{e.parent}' is in another chapter")
            elif e.id in {a.id for a in library.ancestors(parent)} or parent is e:
                yield Problem(e.file, e.line, e.id, f"parent '{e.parent}' makes a cycle")
            else:
                parent.children.append(e.id)
        if e.form != "heading" and e.parent is None:
            yield Problem(e.file, e.line, e.id, f"a {e.form} entry needs a parent")
        for ref in e.refs:
            if ref.undefined:
                if not ref.text:
                    yield Problem(e.file, e.line, e.id, f"marked term '[[?{ref.target}]]' needs its words: [[?{ref.target}|…]]")
                continue
            lang = ref.lang or e.lang
            if lang not in library.langs:
                yield Problem(e.file, e.line, e.id, f"reference '[[{ref.lang}:{ref.target}]]' names unknown language '{ref.lang}'")
            elif library.get(lang, ref.target) is None and lang in library.incomplete:
                continue  # a file of that language did not load: reported once, there
            elif library.get(lang, ref.target) is None:
                yield Problem(e.file, e.line, e.id, f"reference to unknown entry '{lang}:{ref.target}'")
            elif lang == e.lang and ref.target == e.id:
                yield Problem(e.file, e.line, e.id, "entry links to itself")
    for e in list(library.entries):
        for cp in list(e.counterparts):
            other = library.get(cp.lang, cp.id)
            if other is None:
                if cp.lang not in library.incomplete:  # else the file that did not load is the one problem
                    yield Problem(e.file, e.line, e.id, f"counterpart '{cp.key}' does not exist")
                e.counterparts.remove(cp)
            elif cp.lang == e.lang:
                yield Problem(e.file, e.line, e.id, f"counterpart '{cp.key}' must be in the other language")
                e.counterparts.remove(cp)
            elif all(c.key != e.key for c in other.counterparts):
                # The note is in the declaring entry's language; the mirror has none.
                other.counterparts.append(Counterpart(e.lang, e.id))
    for e in library.entries:
        for cp in e.counterparts:
            other = library.get(cp.lang, cp.id)
            if not cp.note or other is None:
                continue
            back = next((c for c in other.counterparts if c.key == e.key), None)
            if back is not None and not back.note:
                yield Problem(other.file, other.line, other.id,
                              f"counterpart '{e.key}' has an edition note on its side; add one here, in this entry's language")
