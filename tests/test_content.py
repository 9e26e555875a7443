"""The content model and `pravila check`: each kind of content error is caught
and reported as FILE:LINE: ID: message, on small bad fixtures."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, repo_project
from pravila.cli import main
from pravila.content import load_library as _load_library
from pravila.fidelity import fidelity_problems


def load_library(content: Path | None = None):
    return _load_library(repo_project(content=content))
ENGLISH_NAMES = Path(__file__).parents[1] / "docs" / "english-names.md"


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """A writable copy of the small, valid fixture content."""
    target = tmp_path / "content"
    shutil.copytree(MINI, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture does not contain {old!r}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def run_check(content: Path):
    return CliRunner().invoke(main, ["--content", str(content), "check"])


def test_valid_fixture_passes(mini: Path) -> None:
    result = run_check(mini)
    assert result.exit_code == 0, result.output
    assert "0 problem(s)" in result.output


def test_counterparts_are_symmetric(mini: Path) -> None:
    library, problems = load_library(mini)
    assert problems == []
    assert [c.key for c in library.get("ru", "jump").counterparts] == ["cs:rituals"]
    assert [c.key for c in library.get("cs", "rituals").counterparts] == ["ru:jump"]


# Each case: (file, text in the fixture, replacement, expected line, entry, message part)
BAD = [
    ("ru/mini.yaml", "  - id: jump\n", "  - id: movement\n", 16, "movement", "duplicate id (first at content/ru/mini.yaml:10)"),
    ("ru/mini.yaml", "    title: Прыжок\n", "", 16, "jump", "missing required field 'title'"),
    ("ru/mini.yaml", "    en: Jump\n", "", 16, "jump", "missing required field 'en'"),
    ("ru/mini.yaml", "  - id: jump\n", "  - id: Jump Rules\n", 16, "Jump Rules", "id must be a lowercase slug"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: dance\n", 16, "jump", "unknown kind 'dance'"),
    ("ru/mini.yaml", "    parent: movement\n", "    parent: nowhere\n", 16, "jump", "parent 'nowhere' does not exist"),
    ("ru/mini.yaml", "[[movement|перемещения]]", "[[moving|перемещения]]", 16, "jump", "reference to unknown entry 'ru:moving'"),
    ("ru/mini.yaml", "    aliases: [jumping]\n", "    aliases: jumping\n", 16, "jump", "field 'aliases' must be a list of strings"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: movement\n    colour: red\n", 16, "jump", "unknown field 'colour'"),
    ("ru/mini.yaml", "  edition: 2014\n", "  edition: 2019\n", 2, "chapter", "unknown edition 2019"),
    ("ru/mini.yaml", "  lang: ru\n", "  lang: de\n", 2, "chapter", "unknown language 'de'"),
    ("cs/mini.yaml", 'to: "ru:jump"', 'to: "ru:jumping"', 18, "rituals", "counterpart 'ru:jumping' does not exist"),
    ("cs/mini.yaml", 'to: "ru:jump"', 'to: "de:jump"', 18, "rituals", "counterpart 'de:jump' names unknown language 'de'"),
    # an edition note on one side of a pair and none on the other: the reader of the other page misses it
    ("ru/mini.yaml", '    counterparts:\n      - {to: "cs:rituals", note: "Примечание редакции: издания различаются."}\n', "",
     16, "jump", "counterpart 'cs:rituals' has an edition note on its side; add one here, in this entry's language"),
    ("ru/mini.yaml", '{to: "cs:rituals", note: "Примечание редакции: издания различаются."}', '"cs:rituals"',
     16, "jump", "counterpart 'cs:rituals' has an edition note on its side; add one here, in this entry's language"),
    ("cs/mini.yaml", ', note: "Redakční poznámka: vydání se liší."', "",
     18, "rituals", "counterpart 'ru:jump' has an edition note on its side; add one here, in this entry's language"),
    ("cs/mini.yaml", "    form: list-item\n", "    form: footnote\n", 18, "rituals", "unknown form 'footnote'"),
    ("cs/mini.yaml", "[[?ritual-tag|Rituál]]", "[[?ritual-tag]]", 18, "rituals", "needs its words"),
    ("ru/mini.yaml", "[[movement|перемещения]]", "[[jump|перемещения]]", 16, "jump", "entry links to itself"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: movement\n    en_status: guessed\n", 16, "jump", "unknown en_status 'guessed'"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: movement\n    notes: {a: b}\n", 16, "jump", "field 'notes' must be a list"),
    ("ru/mini.yaml", "  edition: 2014\n", "  edition: 2014\n  provenance: [x]\n", 2, "chapter", "field 'provenance' must be text"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: movement\n    calculator: {calc: fly}\n", 16, "jump", "field 'calculator': calc must be one of jump, spell, move"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: movement\n    calculator: {calc: jump, fields: [dash]}\n", 16, "jump", "field 'dash' is not one of the jump calculator's"),
    ("ru/mini.yaml", "    kind: movement\n", "    kind: movement\n    calculator: {calc: move, legs: [\"ten\"]}\n", 16, "jump", "field 'calculator': legs: Cannot read the leg ten"),
    # fidelity: a word changed is both a missing source sentence and an invented one
    ("ru/mini.yaml", "в любое время вашего хода", "в любое время чужого хода", 10, "movement", "not in the source: «Вы можете передвигаться в любое время чужого хода.»"),
    ("ru/mini.yaml", "в любое время вашего хода", "в любое время чужого хода", 1, "chapter", "source sentence missing: «Вы можете передвигаться в любое время вашего хода.»"),
    # a dropped sentence
    ("cs/mini.yaml", "      Každé kouzlo má úroveň.\n", "", 1, "chapter", "source sentence missing: «Každé kouzlo má úroveň.»"),
    # nesting that disagrees with the source's table of contents
    ("ru/mini.yaml", "    parent: movement\n", "", 10, "chapter", "table of contents"),
]


@pytest.mark.parametrize("file,old,new,line,entry,message", BAD, ids=[b[5][:40] for b in BAD])
def test_check_reports_each_kind_of_error(mini: Path, file: str, old: str, new: str, line: int, entry: str, message: str) -> None:
    edit(mini / file, old, new)
    result = run_check(mini)
    assert result.exit_code == 1, result.output
    wanted = f"content/{file}:{line}: {entry}: "
    lines = [l for l in result.output.splitlines() if l.startswith(wanted)]
    assert any(message in l for l in lines), f"no line {wanted}…{message} in:\n{result.output}"


def test_malformed_yaml_names_file_and_line(mini: Path) -> None:
    edit(mini / "ru" / "mini.yaml", "    en: Jump\n", "    en: [Jump\n")
    result = run_check(mini)
    assert result.exit_code == 1
    assert result.output.startswith("content/ru/mini.yaml:")
    assert "malformed YAML" in result.output
    assert "Traceback" not in result.output


def test_source_without_chapter_is_reported(mini: Path) -> None:
    (mini / "sources" / "extra.txt").write_text("Новый текст.\n", encoding="utf-8")
    result = run_check(mini)
    assert result.exit_code == 1
    assert "content/sources/extra.txt:1: -: no chapter file carries this source text" in result.output


def test_real_content_is_complete_and_faithful() -> None:
    """Every source sentence of both chapters is in the entries, nothing invented."""
    library, problems = load_library()
    assert problems == []
    fidelity, reports = fidelity_problems(library)
    assert fidelity == []
    assert {r.chapter.lang for r in reports} == {"ru", "cs"}
    total = sum(r.source_sentences for r in reports)
    assert total > 380  # both chapters, table of contents excluded
    assert all(r.present == r.source_sentences for r in reports)


def test_real_content_is_richly_linked() -> None:
    library, _ = load_library()
    links = sum(len(e.linked_ids) for e in library.entries)
    assert links >= 40
    assert all(e.en for e in library.entries)
    assert library.get("ru", "grapple-escape").parent == "grapple"
    assert library.get("cs", "cantrips").parent == "casting-without-slots"
    # the same rule across languages, editions visible
    cast = library.get("ru", "cast-a-spell")
    keys = {c.key for c in cast.counterparts}
    assert "cs:one-spell-slot-per-turn" in keys
    assert cast.edition == 2014 and library.by_key("cs:one-spell-slot-per-turn").edition == 2024
    # the optional actions come from the DMG
    assert "Dungeon Master" in library.get("ru", "tumble").source


def test_notes_are_in_the_language_of_the_page_that_shows_them() -> None:
    """Edition notes and editor's notes: Russian on Russian entries, Czech on Czech ones."""
    library, _ = load_library()
    cyrillic, czech = re.compile("[а-яё]", re.I), re.compile("[áčďéěíňóřšťúůýž]", re.I)
    notes = [(e, n) for e in library.entries for n in e.notes]
    notes += [(e, cp.note) for e in library.entries for cp in e.counterparts if cp.note]
    assert {e.lang for e, _ in notes} == {"ru", "cs"}
    for e, note in notes:
        own, other = (cyrillic, czech) if e.lang == "ru" else (czech, cyrillic)
        assert own.search(note) and not other.search(note), f"{e.key}: {note[:60]!r}"


def test_english_names_document_lists_every_entry_as_the_content_has_it() -> None:
    """docs/english-names.md: one row per entry with its current English name and how it was checked."""
    library, _ = load_library()
    rows = {}
    for line in ENGLISH_NAMES.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]]
        if len(cells) == 6 and cells[0] in ("ru", "cs"):
            rows[(cells[0], cells[1].strip("`"))] = cells
    assert set(rows) == {(e.lang, e.id) for e in library.entries}
    for e in library.entries:
        _, _, title, name, status, checked = rows[(e.lang, e.id)]
        assert title == e.title, e.key
        assert name == e.en or name.endswith(f"→ **{e.en}**"), (e.key, name)
        assert status == e.en_status, e.key
        assert checked, e.key


def test_check_is_fast_enough_to_run_after_every_edit() -> None:
    """Not a timing assertion: the command reports its own time."""
    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    assert " in " in result.output.splitlines()[-1]


def problem_lines(output: str) -> list[str]:
    return [l for l in output.splitlines() if re.match(r"^content/[^:]+:\d+: ", l)]


# --- hostile files: one line each, with the real line number, and nothing blamed on other files -------------

BOMB = "".join(
    [f'lol0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]\n']
    + [f"lol{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n" for i in range(1, 10)]
)
# (file, text replaced, replacement, line, message part)
HOSTILE = [
    ("ru/mini.yaml", "entries:\n", BOMB + "entries:\n", 9, "YAML anchor &a0: content files may not use anchors or aliases"),
    ("ru/mini.yaml", "    en: Jump\n", "    en: Jump\n    x: " + "[" * 5000 + "]" * 5000 + "\n", 20, "nested more than 40 levels deep"),
    ("ru/mini.yaml", "    en: Jump\n", "    en: Jump\n    x: " + "{a: " * 60 + "b" + "}" * 60 + "\n", 20, "nested more than 40 levels deep"),
    ("ru/mini.yaml", "    en: Jump\n", "    en: Ju\x00mp\n", 19, "character U+0000 at column 11 is not allowed"),
    ("ru/mini.yaml", "    en: Jump\n", "    en: Ju\x1bmp\n", 19, "character U+001B at column 11 is not allowed"),
    ("cs/mini.yaml", "    en: Rituals\n    counterparts", "    en: Ritu\x85als\u0085\x9f\n    counterparts", 22, "character U+009F"),
]


@pytest.mark.parametrize("file,old,new,line,message", HOSTILE, ids=[h[4][:30] for h in HOSTILE])
def test_hostile_yaml_is_one_line_with_its_line_number(mini: Path, file: str, old: str, new: str, line: int, message: str) -> None:
    edit(mini / file, old, new)
    result = run_check(mini)
    assert result.exit_code == 1, result.output
    problems = problem_lines(result.output)
    assert problems == [l for l in problems if l.startswith(f"content/{file}:{line}: -: ")], result.output
    assert len(problems) == 1 and message in problems[0], result.output
    assert "Traceback" not in result.output


def test_bytes_that_are_not_utf8_are_one_line_with_their_line_number(mini: Path) -> None:
    path = mini / "ru" / "mini.yaml"
    lines = path.read_bytes().split(b"\n")
    lines[11] = lines[11] + b" \xff\xfe"  # line 12: "    en: Movement \xff\xfe"
    path.write_bytes(b"\n".join(lines))
    result = run_check(mini)
    problems = problem_lines(result.output)
    assert problems == ["content/ru/mini.yaml:12: -: not UTF-8 text: byte 0xFF at column 18; save the file as UTF-8"]


def test_a_file_that_does_not_load_is_the_only_problem(mini: Path) -> None:
    """The Czech file links to the Russian one: nothing is blamed on it when the Russian file is broken."""
    edit(mini / "ru" / "mini.yaml", "    en: Jump\n", "    en: [Jump\n")
    result = run_check(mini)
    problems = problem_lines(result.output)
    assert len(problems) == 1 and problems[0].startswith("content/ru/mini.yaml:"), result.output
    assert "malformed YAML" in problems[0]


def test_knock_on_problems_of_the_real_content_are_suppressed(tmp_path: Path) -> None:
    """A broken Russian chapter: one line, not the counterparts, terms and source that depend on it."""
    content = tmp_path / "content"
    shutil.copytree(Path(__file__).parents[1] / "content", content)
    edit(content / "ru" / "combat.yaml", "entries:\n", "entries: [\n")
    result = run_check(content)
    problems = problem_lines(result.output)
    assert len(problems) == 1 and problems[0].startswith("content/ru/combat.yaml:"), result.output


@pytest.mark.parametrize("field, html", [
    ("body", "<script>alert(1)</script>"),
    ("body", '<img src=x onerror="alert(1)">'),
    ("body", "<!-- скрыто -->"),
    ("caption", "<b>подпись</b>"),
    ("notes", "<a href='javascript:alert(1)'>ссылка</a>"),
    ("notes", "<iframe src=//evil.example>"),
])
def test_raw_html_is_rejected(mini: Path, field: str, html: str) -> None:
    if field == "body":
        edit(mini / "ru" / "mini.yaml", "      Вы можете передвигаться", f"      {html} Вы можете передвигаться")
    else:
        value = html.replace('"', '\\"')
        edit(mini / "ru" / "mini.yaml", "    kind: section\n", f'    kind: section\n    {field}: ["{value}"]\n'
             if field == "notes" else f'    kind: section\n    {field}: "{value}"\n')
    result = run_check(mini)
    assert result.exit_code == 1
    assert any(l.startswith("content/ru/mini.yaml:10: movement: raw HTML") and f"in '{field}'" in l
               for l in result.output.splitlines()), result.output


def test_markdown_and_plain_angle_brackets_pass(mini: Path) -> None:
    """Comparisons, quoted «<» and autolinks are text, not HTML; the [[…]] syntax stays what it is."""
    edit(mini / "ru" / "mini.yaml", "    kind: section\n",
         '    kind: section\n    notes: ["Если результат < 10 или > 20, знаки «<» и «>» — текст; '
         'см. <https://example.org/rules>, *курсив*, [[jump|прыжок]]."]\n')
    result = run_check(mini)
    assert result.exit_code == 0, result.output
