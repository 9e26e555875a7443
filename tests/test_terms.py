"""The terminology layer (content/terms/<lang>.yaml): loaded, checked, exported."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from helpers import MINI, repo_project
from pravila.cli import main
from pravila.content import load_library

GOOD = """\
lang: ru
sources:
  bg3:
    name: "локализация BG3"
    short: BG3
    cite: "github.com/example/bg3, glossary.json"
variants:
  - {term: скачок, entry: jump, source: bg3, kind: name, en: Jump}
  - {term: передвижение, entry: movement, source: bg3, kind: name}
shared:
  - term: ход
    here: movement
    meanings:
      - {entry: movement, source: bg3, en: Movement}
      - {entry: jump, source: bg3, en: Jump}
"""


@pytest.fixture
def content(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(MINI, target)
    (target / "terms").mkdir()
    (target / "terms" / "ru.yaml").write_text(GOOD, encoding="utf-8")
    return target


def check(content: Path):
    return CliRunner().invoke(main, ["--content", str(content), "check"])


def test_good_terms_load_and_reach_the_export(content: Path):
    result = check(content)
    assert result.exit_code == 0, result.output
    library, problems = load_library(repo_project(content=content))
    assert problems == []
    assert [v.term for v in library.terms["ru"].variants_of("jump")] == ["скачок"]
    exported = json.loads(CliRunner().invoke(main, ["--content", str(content), "show", "jump", "--lang", "ru", "--json"]).output)
    assert exported["variants"] == [{"term": "скачок", "kind": "name", "sources": [
        {"key": "bg3", "name": "локализация BG3", "short": "BG3", "cite": "github.com/example/bg3, glossary.json"}]}]
    assert exported["shared_terms"][0]["term"] == "ход" and exported["shared_terms"][0]["this_text_means"] == "movement"


BAD = [
    ("entry: jump, source: bg3, kind: name, en: Jump", "entry: leap, source: bg3, kind: name, en: Jump", 8, "«скачок»", "entry 'ru:leap' does not exist"),
    ("entry: jump, source: bg3, kind: name, en: Jump", "entry: jump, source: hw, kind: name, en: Jump", 8, "«скачок»", "source 'hw' is not declared under sources"),
    ("entry: jump, source: bg3, kind: name, en: Jump", "entry: jump, kind: name, en: Jump", 8, "«скачок»", "needs a source"),
    ("entry: jump, source: bg3, kind: name, en: Jump", "entry: jump, source: bg3, kind: meme", 8, "«скачок»", "kind must be one of"),
    ("{term: скачок,", "{term: Прыжок,", 8, "«Прыжок»", "repeats the title or an alias of 'ru:jump'"),
    ("{term: передвижение, entry: movement", "{term: скачок, entry: movement", 9, "«скачок»", "names another rule too (jump): declare it under shared"),
    ("    cite: \"github.com/example/bg3, glossary.json\"\n", "", 4, "bg3", "a source needs name, short and cite"),
    ("    here: movement\n", "    here: dash\n", 11, "«ход»", "here must be the entry whose meaning this text uses"),
    ("lang: ru", "lang: cs", 1, "-", "lang must be 'ru'"),
]


@pytest.mark.parametrize("old, new, line, what, message", BAD, ids=[b[4][:40] for b in BAD])
def test_each_terminology_problem_is_one_line(content: Path, old: str, new: str, line: int, what: str, message: str):
    path = content / "terms" / "ru.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    result = check(content)
    assert result.exit_code == 1
    assert f"content/terms/ru.yaml:{line}: {what}: {message}" in result.output, result.output
    assert "Traceback" not in result.output


def test_external_links_name_marked_terms_only(content: Path):
    (content / "terms" / "cs.yaml").write_text(
        "lang: cs\nsources:\n  srd:\n    {name: SRD, short: SRD, cite: somewhere}\nexternal:\n"
        "  - {slug: ritual-tag, label: štítek, url: 'https://example.org/ritual', source: srd}\n"
        "  - {slug: fireball, label: kouzlo, url: 'https://example.org/fireball', source: srd}\n",
        encoding="utf-8",
    )
    result = check(content)
    assert result.exit_code == 1
    assert "content/terms/cs.yaml:7: ?fireball: no chapter of 'cs' marks [[?fireball|…]]" in result.output
    assert "ritual-tag" not in result.output


def test_the_real_terminology_is_clean_and_cited(library):
    for lang in ("ru", "cs"):
        terms = library.terms[lang]
        assert len(terms.variants) >= 25
        assert all(terms.source(k).cite for v in terms.variants for k in v.sources)
    prone = [v.term for v in library.terms["ru"].variants_of("being-prone")]
    assert "распластанность" in prone
    shared = {s.term: s for s in library.terms["cs"].shared}
    assert shared["vyvolávací"].here == "casting-time"
