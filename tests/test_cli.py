"""`pravila export` and `pravila show` on the real content, and their errors."""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from pravila.cli import main

REQUIRED = {"id", "lang", "title", "en", "aliases", "edition", "source", "kind", "parent", "refs", "counterparts", "text", "url"}


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_export_lists_every_entry_of_both_languages() -> None:
    result = invoke("export")
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert {e["lang"] for e in entries} == {"ru", "cs"}
    for e in entries:
        assert REQUIRED <= e.keys(), e["id"]
        assert e["en"], e["id"]
        assert e["url"].startswith(f"/{e['lang']}/") and e["url"].endswith(f"#{e['id']}")
        assert "[[" not in e["text"], e["id"]  # references shown as their words
    assert sum(len(e["refs"]) for e in entries) >= 40
    by_key = {f"{e['lang']}:{e['id']}": e for e in entries}
    # counterparts resolve and go both ways
    for key, e in by_key.items():
        for cp in e["counterparts"]:
            assert key in by_key[cp]["counterparts"], (key, cp)
    assert by_key["ru:grapple"]["en"] == "Grappling"
    assert "grapple" in by_key["ru:moving-a-grappled-creature"]["refs"]


def test_export_one_language() -> None:
    entries = json.loads(invoke("export", "--lang", "cs").output)
    assert entries and all(e["lang"] == "cs" for e in entries)


def test_show_prints_the_entry_readably() -> None:
    result = invoke("show", "moving-a-grappled-creature")
    assert result.exit_code == 0, result.output
    assert "Движение в захвате" in result.output
    assert "ваша скорость уменьшается вдвое" in result.output
    assert "→ grapple: Захват (Grappling)" in result.output
    assert "[[" not in result.output


def test_show_json_is_the_export_form() -> None:
    shown = json.loads(invoke("show", "cantrips", "--json").output)
    exported = {e["id"]: e for e in json.loads(invoke("export", "--lang", "cs").output)}
    assert shown == exported["cantrips"]


def test_unknown_id_is_one_clear_line() -> None:
    result = invoke("show", "fireball")
    assert result.exit_code == 1
    assert result.output.strip() == "Error: no entry with id 'fireball'; 'pravila export' lists them"


def test_unknown_language_is_refused() -> None:
    result = invoke("export", "--lang", "de")
    assert result.exit_code == 1
    assert result.output.strip() == "Error: unknown language 'de' (this project has ru, cs)"


def test_broken_content_stops_export_without_traceback(tmp_path) -> None:
    (tmp_path / "ru").mkdir()
    (tmp_path / "ru" / "x.yaml").write_text("chapter: [\n", encoding="utf-8")
    result = invoke("--content", str(tmp_path), "export")
    assert result.exit_code == 1
    assert "malformed YAML" in result.output
    assert "Traceback" not in result.output


def test_python_dash_m_works() -> None:
    done = subprocess.run([sys.executable, "-m", "pravila", "show", "dash", "--lang", "ru"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "Рывок" in done.stdout


def test_a_reader_that_stops_reading_gets_no_error() -> None:
    """`pravila calc … | head -c 5`: the pipe closes under the command; it stops without a word."""
    for args in (["calc", "jump", "--strength", "15", "--lang", "ru"], ["show", "dash", "--lang", "ru"]):
        process = subprocess.Popen([sys.executable, "-m", "pravila", *args],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        process.stdout.close()  # nobody reads: the command's first write meets a closed pipe
        _, errors = process.communicate(timeout=60)
        assert errors == "", errors  # not "Error: Broken pipe", not a traceback
        assert process.returncode == 1
