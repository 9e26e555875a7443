"""Pravila as a tool: the built wheel, installed into a fresh virtual environment, works in any folder.

One test: it builds the wheel, installs it with its dependencies into a new
venv in a temporary folder (from pip's cache after the first run; without
compiling .pyc files: 16 s instead of 23), copies this project
(content/, pravila.toml, mkdocs.yml) to another folder and runs the commands
a new user would.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import ROOT


def run(*command: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PRAVILA_", "PYTHON", "VIRTUAL_ENV"))}
    done = subprocess.run([str(c) for c in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}: {done.stdout}\n{done.stderr}"
    return done


def test_the_installed_wheel_works_on_a_copied_project(tmp_path: Path):
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp_path / "dist", ROOT, cwd=tmp_path)
    wheel = next((tmp_path / "dist").glob("pravila-*.whl"))
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)  # this pip installs into it
    bin_dir = venv / "bin"
    run(sys.executable, "-m", "pip", "--python", bin_dir / "python", "install", "--quiet", "--no-compile",
        "--disable-pip-version-check", wheel, cwd=tmp_path)

    project = tmp_path / "elsewhere" / "my-rules"
    shutil.copytree(ROOT / "content", project / "content")
    for name in ("pravila.toml", "mkdocs.yml"):
        shutil.copy(ROOT / name, project / name)
    pravila = bin_dir / "pravila"
    inside = project / "content" / "ru"  # found from a subfolder too

    assert "0 problem(s)" in run(pravila, "check", cwd=inside).stderr
    built = run(pravila, "build", cwd=project).stdout
    assert "site URL: http://127.0.0.1:8000/ (from pravila.toml)" in built
    site = project / "build" / "site"
    assert "Прыжок в длину" in (site / "ru" / "combat" / "movement" / "index.html").read_text(encoding="utf-8")
    assert "Viz také" in (site / "cs" / "spellcasting" / "spell-slots" / "index.html").read_text(encoding="utf-8")
    assert not (tmp_path / "venv" / "build").exists() and not (tmp_path / "venv" / "lib" / "build").exists()

    found = json.loads(run(pravila, "search", "прыжок", "--lang", "ru", "--json", cwd=project).stdout)
    assert {h["id"] for h in found["hits"][:2]} == {"long-jump", "high-jump"}

    answer = run(pravila, "calc", "jump", "--strength", "15", "--lang", "ru", cwd=project).stdout
    words = answer.split("Правила:")[0]
    assert "Прыжок в длину" in words and "футов" in words
    assert not re.search(r"[A-Za-z]", words), f"not all Russian: {words}"

    # With no project at all, a calculator still answers (in Czech, from the catalogs in the wheel).
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    czech = run(pravila, "calc", "jump", "--strength", "15", "--lang", "cs", cwd=nowhere).stdout
    assert "Skok do dálky" in czech and not re.search(r"\b(Long|jump|feet)\b", czech)
