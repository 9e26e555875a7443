"""``pravila build`` after a crash: what killed builds leave is removed, the live index and the one before it are kept."""

from __future__ import annotations

import gzip
import os
import shutil
import threading
from pathlib import Path

import pytest

from helpers import MINI, repo_project
from pravila import build as build_module
from pravila.build import build, leftovers
from pravila.content import load_clean_library
from pravila.search import generations_dir, write_generation


@pytest.fixture()
def mini_project(tmp_path: Path):
    dest = tmp_path / "content"
    shutil.copytree(MINI, dest)
    return repo_project(content=dest, build=tmp_path / "build")


def live_generation(project) -> Path:
    return Path(os.path.realpath(project.index_dir))


def generations(project) -> set[Path]:
    return set(generations_dir(project.index_dir).iterdir())


def kill_builds(project) -> list[Path]:
    """What builds killed at different moments leave behind (`kill -9` runs no cleanup)."""
    build_dir = project.build_dir
    half_site = build_dir / ".site-new-4242-1"  # killed while MkDocs wrote the new site
    (half_site / "ru").mkdir(parents=True)
    (half_site / "ru" / "index.html").write_text("<html>half", encoding="utf-8")
    old_site = build_dir / ".site-old-4243-1"  # killed between the two renames of a non-atomic swap
    (old_site / "ru").mkdir(parents=True)
    link = build_dir / ".index.4244.link"  # killed before the link was renamed over build/index
    link.symlink_to("index.d/nowhere")
    # Killed after the index was written, during the site build: a whole generation, never published.
    complete, _ = write_generation(project, load_clean_library(project))
    # Killed while Whoosh wrote: a half-written generation, the newest of all.
    half = generations_dir(project.index_dir) / "99991231-235959-half"
    half.mkdir()
    (half / "MAIN_1.toc").write_bytes(b"\x00" * 10)
    return [half_site, old_site, link, complete, half]


def test_the_next_build_removes_what_killed_builds_left(mini_project):
    build(mini_project)
    first = live_generation(mini_project)
    left = kill_builds(mini_project)
    assert set(leftovers(mini_project)) == set(left)

    build(mini_project)
    second = live_generation(mini_project)
    assert second != first
    for path in left:
        assert not path.exists() and not path.is_symlink(), path
    # The generation served until now stays for readers still on it; nothing else does.
    assert generations(mini_project) == {first, second}
    assert (mini_project.site_dir / "ru" / "mini" / "movement" / "index.html").is_file()
    assert list(leftovers(mini_project)) == [first]  # the next build may remove it: it is no longer served

    build(mini_project)
    assert generations(mini_project) == {second, live_generation(mini_project)}


def test_pruning_never_removes_the_live_generation_nor_the_one_before(mini_project):
    """Orphans newer than the live generation must not push it (or its predecessor) out."""
    build(mini_project)
    live = live_generation(mini_project)
    for _ in range(3):
        kill_builds(mini_project)
        build(mini_project)
        previous, live = live, live_generation(mini_project)
        assert generations(mini_project) == {previous, live}


def test_builds_wait_for_each_other(mini_project):
    """A manual build while `serve --watch` rebuilds: one after the other, and what is left is whole."""
    library = load_clean_library(mini_project)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            build(mini_project, library)
        except BaseException as e:  # noqa: BLE001 — reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert len(generations(mini_project)) == 2 and live_generation(mini_project) in generations(mini_project)
    assert [p.name for p in mini_project.build_dir.iterdir() if p.name.startswith((".site-", ".index."))] == []


def test_text_files_get_compressed_copies_and_unchanged_ones_are_reused(mini_project, monkeypatch):
    import brotli

    from pravila import compress

    build(mini_project)
    page = mini_project.site_dir / "ru" / "mini" / "movement" / "index.html"
    assert brotli.decompress((page.parent / "index.html.br").read_bytes()) == page.read_bytes()
    assert gzip.decompress((page.parent / "index.html.gz").read_bytes()) == page.read_bytes()
    bundle = next((mini_project.site_dir / "cs" / "assets" / "javascripts").glob("bundle.*.min.js"))
    assert bundle.with_name(bundle.name + ".br").stat().st_size < bundle.stat().st_size / 3
    assert not list(mini_project.site_dir.rglob("*.png.gz"))  # images are compressed already

    def texts() -> dict[str, bytes]:
        return {str(p.relative_to(mini_project.site_dir)): p.read_bytes() for p in mini_project.site_dir.rglob("*")
                if p.is_file() and p.suffix not in (".br", ".gz")}

    calls: list[int] = []
    real = compress._br
    monkeypatch.setattr(compress, "_br", lambda data: calls.append(len(data)) or real(data))
    monkeypatch.setattr(compress, "encoders", lambda: {".br": compress._br, ".gz": compress._gz})
    before = texts()
    summary = build_module.build(mini_project)
    after = texts()
    changed = [name for name, data in after.items() if before.get(name) != data and (mini_project.site_dir / (name + ".br")).exists()]
    assert len(changed) <= 6, changed  # the nothing-changed rebuild only restamps the build date (manifest, worker, strings)
    assert f"{len(changed)} compressed" in summary.compressed and len(calls) == len(changed)  # the rest reused
    assert brotli.decompress((page.parent / "index.html.br").read_bytes()) == page.read_bytes()


def test_a_second_site_in_the_same_process_reuses_what_was_compressed(tmp_path, monkeypatch):
    """Two builds in one process (``serve --watch``, several projects): the same bytes are compressed once,
    and a copy made from the memo is the one compressing would give."""
    from pravila import compress

    calls: list[int] = []
    real = compress._gz
    monkeypatch.setattr(compress, "encoders", lambda: {".gz": lambda data: calls.append(len(data)) or real(data)})
    sites = [tmp_path / "one", tmp_path / "two"]
    for site in sites:
        (site / "assets").mkdir(parents=True)
        (site / "assets" / "bundle.js").write_text("const rules = 'прыжок в длину';\n" * 200, encoding="utf-8")
    (sites[1] / "index.html").write_text("<p>Захват</p>\n" * 100, encoding="utf-8")  # new in the second
    memo = compress.Memo()
    compress.precompress(sites[0], memo=memo)
    assert len(calls) == 1
    compress.precompress(sites[1], memo=memo)
    assert len(calls) == 2  # only the new page
    for site in sites:
        bundle = site / "assets" / "bundle.js"
        assert gzip.decompress((site / "assets" / "bundle.js.gz").read_bytes()) == bundle.read_bytes()
    assert gzip.decompress((sites[1] / "index.html.gz").read_bytes()) == (sites[1] / "index.html").read_bytes()

    small = compress.Memo(max_bytes=1)  # bounded: a memo smaller than any result keeps none
    compress.precompress(sites[1], memo=small)
    compress.precompress(sites[1], memo=small)
    assert len(calls) == 2 + 2 + 2
