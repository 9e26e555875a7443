"""The ``pravila`` command: the one place where problems become exit codes.

Every command works on one project (:mod:`pravila.project`): found from the
current folder upward, or given with ``--project``; ``--content``,
``--build-dir`` and ``--site-url`` override its settings (command line >
environment > ``pravila.toml`` > default).  Any :class:`~pravila.errors.PravilaError`
(and any failure to read or write a file) is one line on stderr and exit
code 1; a usage mistake is click's exit code 2.
"""

from __future__ import annotations

import json
import logging
import os
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import click

from .calctables import tables
from .content import Entry, Library
from .errors import ContentError, PravilaError
from .project import Project, load_project
from .serialize import entry_to_dict


class Context:
    """What the command line said about the project; the project itself is resolved once, on first use."""

    def __init__(self, project_dir: Path | None, content_dir: Path | None):
        self.project_dir = project_dir
        self.content_dir = content_dir
        self._project: Project | None = None
        self._library: Library | None = None

    def project(self, build_dir: Path | None = None, site_url: str | None = None) -> Project:
        if self._project is None:
            self._project = load_project(self.project_dir, content=self.content_dir, build=build_dir, site_url=site_url)
        return self._project

    def library(self) -> Library:
        """The content, or a clear error (the first problems, then a count) when it does not load cleanly."""
        if self._library is None:
            from .content import load_clean_library

            try:
                self._library = load_clean_library(self.project())
            except ContentError as e:
                _echo_problems(e.problems)
                raise
        return self._library


def _echo_problems(problems: list[Any], most: int = 20) -> None:
    for p in problems[:most]:
        click.echo(str(p), err=True)
    if len(problems) > most:
        click.echo(f"(+{len(problems) - most} more)", err=True)


class _Group(click.Group):
    """Turns Pravila's errors, and files that cannot be read or written, into one clear line."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PravilaError as e:
            raise click.ClickException(str(e)) from e
        except BrokenPipeError:
            # The reader went away (`pravila export | head`): stop without a word, as Unix tools do.
            # Python's own recipe: point stdout at /dev/null so flushing at exit cannot fail again.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise SystemExit(1) from None
        except OSError as e:
            where = f" ({e.filename})" if e.filename else ""
            raise click.ClickException(f"{e.strerror or e}{where}") from e


pass_ctx = click.make_pass_decorator(Context)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--project",
    "project_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="The project folder (default: the nearest folder with pravila.toml, else with content/, from here up).",
)
@click.option(
    "--content",
    "content_dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="PRAVILA_CONTENT",
    help="Content folder with <lang>/*.yaml and sources/ [env PRAVILA_CONTENT; default: the project's 'content' setting].",
)
@click.version_option(package_name="pravila")
@click.pass_context
def main(ctx: click.Context, project_dir: Path | None, content_dir: Path | None) -> None:
    """Pravila: a rules reference for D&D 5e in several languages."""
    # A command's failure is its one "Error: …" line; the modules' log lines are for a server's log
    # (`pravila serve` configures one), not printed beside it by Python's last-resort handler.
    logging.getLogger("pravila").addHandler(logging.NullHandler())
    ctx.obj = Context(project_dir, content_dir)


def _lang_option(help: str) -> Any:
    return click.option("--lang", metavar="LANG", help=help)


def _project_lang(ctx: Context, lang: str | None) -> str | None:
    """``--lang`` checked against the project's languages (one clear line otherwise)."""
    if lang is not None:
        ctx.project().language(lang)
    return lang


@main.command()
@click.option("--quiet", "-q", is_flag=True, help="Print problems only, no summary.")
@pass_ctx
def check(ctx: Context, quiet: bool) -> None:
    """Validate all content: schema, ids, references, counterparts, fidelity.

    Prints one line per problem, FILE:LINE: ID: message, and exits 1 if any.
    """
    from .checks import check as check_project

    started = time.perf_counter()
    result = check_project(ctx.project())
    library, problems, reports = result.library, result.problems, result.reports
    for p in problems:
        click.echo(str(p))
    if not quiet:
        links = sum(len(e.linked_ids) for e in library.entries)
        for r in reports:
            pct = 100.0 * r.present / r.source_sentences if r.source_sentences else 100.0
            click.echo(
                f"{r.chapter.file}: {len(library.entries_of(r.chapter))} entries, "
                f"{r.present}/{r.source_sentences} source sentences ({pct:.1f}%)",
                err=True,
            )
        click.echo(
            f"{len(library.entries)} entries, {links} cross-references, {len(problems)} problem(s) "
            f"in {time.perf_counter() - started:.2f} s",
            err=True,
        )
    if problems:
        sys.exit(1)


@main.command()
@_lang_option("Only this language (default: all of the project's).")
@pass_ctx
def export(ctx: Context, lang: str | None) -> None:
    """Print all entries as a JSON array."""
    lang = _project_lang(ctx, lang)
    library = ctx.library()
    entries = library.in_lang(lang) if lang else library.entries
    click.echo(json.dumps([entry_to_dict(library, e) for e in entries], ensure_ascii=False, indent=2))


@main.command()
@click.argument("entry_id")
@_lang_option("Language of the entry (needed when the id exists in several).")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@pass_ctx
def show(ctx: Context, entry_id: str, lang: str | None, as_json: bool) -> None:
    """Print one entry readably, its references listed under it."""
    lang = _project_lang(ctx, lang)
    library = ctx.library()
    entry = _find_entry(library, entry_id, lang)
    if as_json:
        click.echo(json.dumps(entry_to_dict(library, entry), ensure_ascii=False, indent=2))
        return
    width = 88
    head = f"{entry.title} — {entry.en}"
    click.secho(head, bold=True)
    click.echo(f"{entry.lang}:{entry.id} · {entry.kind or 'rule'} · {entry.edition} · {entry.source}")
    parents = library.ancestors(entry)
    if parents:
        click.echo(" › ".join(p.title for p in parents))
    if entry.aliases:
        click.echo("aliases: " + ", ".join(entry.aliases))
    click.echo()
    if entry.caption:
        click.echo(textwrap.fill(f"[{entry.caption}]", width))
        click.echo()
    for para in library.text(entry).splitlines():
        click.echo(textwrap.fill(para, width))
        click.echo()
    refs = [library.get(entry.lang, i) for i in entry.linked_ids]
    if refs:
        click.secho("References:", bold=True)
        for r in refs:
            if r is not None:
                click.echo(f"  → {r.id}: {r.title} ({r.en})")
    if entry.undefined_terms:
        click.echo("Terms defined elsewhere: " + ", ".join(entry.undefined_terms))
    backlinks = library.backlinks(entry)
    if backlinks:
        click.secho("Linked from:", bold=True)
        for b in backlinks:
            click.echo(f"  ← {b.id}: {b.title}")
    for cp in entry.counterparts:
        other = library.by_key(cp.key)
        if other is not None:
            click.echo(f"Counterpart: {cp.key}: {other.title} ({other.edition})" + (f" — {cp.note}" if cp.note else ""))


def _find_entry(library: Library, entry_id: str, lang: str | None) -> Entry:
    langs = [lang] if lang else list(library.langs)
    found = [e for e in (library.get(l, entry_id) for l in langs) if e is not None]
    if not found:
        where = f" in '{lang}'" if lang else ""
        raise click.ClickException(f"no entry with id '{entry_id}'{where}; 'pravila export' lists them")
    if len(found) > 1:
        raise click.ClickException(f"'{entry_id}' exists in {', '.join(e.lang for e in found)}; choose one with --lang")
    return found[0]


# Commands of the other modules (build, serve, search, calc) are registered below.

BUILD_DIR_OPTION = click.option(
    "--build-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Build output folder [env PRAVILA_BUILD_DIR; default: the project's 'build' setting, build/].",
)
SITE_URL_OPTION = click.option(
    "--site-url",
    default=None,
    help="The site's public address, e.g. https://rules.example.org/ (hover previews and instant navigation "
         "need it) [env PRAVILA_SITE_URL; default: the project's 'site_url', else http://127.0.0.1:8000/].",
)


@main.command()
@BUILD_DIR_OPTION
@SITE_URL_OPTION
@pass_ctx
def build(ctx: Context, build_dir: Path | None, site_url: str | None) -> None:
    """Check the content (all of 'pravila check'), then generate every language's site and the search index.

    Nothing is published when the check finds a problem.
    """
    from .build import build as build_project
    from .checks import check as check_project

    started = time.perf_counter()
    project = ctx.project(build_dir, site_url)
    result = check_project(project)
    if result.problems:
        _echo_problems(result.problems)
        raise ContentError(result.problems, f"the content has {len(result.problems)} problem(s); nothing was built")
    summary = build_project(project, result.library)
    click.echo(f"site URL: {summary.site_url} ({project.describe('site_url')})")
    click.echo(f"{summary} in {time.perf_counter() - started:.1f} s")


@main.command()
@BUILD_DIR_OPTION
@SITE_URL_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--watch", is_flag=True, help="Rebuild when a content file changes (in the main process only).")
@click.option("--workers", type=click.IntRange(1, 64), default=None,
              help="Server processes on the one port [default: one per CPU].")
@click.option("--access-log/--no-access-log", default=False, show_default=True,
              help="Log a line per request (uvicorn's access log, on standard output).")
@click.option("--result-cache", type=click.IntRange(0, 1_000_000), default=1000, show_default=True,
              help="Search answers each process keeps (per query, language, limit and index generation; 0: none).")
@click.option("--search-processes", type=click.IntRange(0, 64), default=1, show_default=True,
              help="Processes per server process that run searches, at a lower priority than pages "
                   "(0: threads of the server process instead).")
@click.option("--search-threads", type=click.IntRange(1, 64), default=None,
              help="With --search-processes 0: threads per process that run searches [default: 4].")
@pass_ctx
def serve(ctx: Context, build_dir: Path | None, site_url: str | None, host: str, port: int, watch: bool,
          workers: int | None, access_log: bool, result_cache: int, search_processes: int,
          search_threads: int | None) -> None:
    """Serve the built site and the search API (see 'Running it for others' in the README)."""
    from .server import ServeOptions, default_workers, run

    project = ctx.project(build_dir, site_url)
    ctx.library()  # fail early and clearly on broken content
    run(project, host=host, port=port, watch=watch, workers=workers or default_workers(), access_log=access_log,
        options=ServeOptions(result_cache=result_cache, search_processes=search_processes,
                             **({"search_threads": search_threads} if search_threads else {})))


# --- calc: the calculators (pravila.calculators, pravila.answers) --------------

CALC_SIZES = tables().sizes
CALC_EDITIONS = tuple(str(e) for e in tables().editions)


class _CalcGroup(click.Group):
    """A calculator's bad input is one clear line: the message, no usage text."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            raise _CalcUsageError(e.format_message()) from e


class _CalcUsageError(click.ClickException):
    """A calculator's usage mistake as one line, with click's exit code for usage mistakes."""

    exit_code = click.UsageError.exit_code


def _calc_output_options(f):
    f = click.option("--metric", is_flag=True, help="Also give lengths in metres (5 ft = 1.5 m).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON, with the answer's lines.")(f)
    f = click.option("--lang", metavar="LANG", help="Language of the answer, e.g. ru or cs (default: English).")(f)
    f = click.option("--edition", type=click.Choice(CALC_EDITIONS), default=str(tables().default_edition), show_default=True,
                     help="Edition of the rules to compute: 2014 or 2024.")(f)
    return f


def _calc_project(ctx: Context) -> Project | None:
    """The project when there is one here: calculators answer without one, only the rule links need it."""
    try:
        return ctx.project()
    except PravilaError:
        return None


def _calc_answer(ctx: Context, compute: Any, lang: str | None, as_json: bool, metric: bool) -> None:
    from .answers import describe, error_message, rule_link, text
    from .calculators import CalcError
    from .languages import load_registry

    project = _calc_project(ctx)
    registry = project.registry if project is not None else load_registry()
    if lang is not None:
        registry[lang]  # an unknown language is one clear line
    try:
        result = compute()
    except CalcError as e:
        raise click.ClickException(error_message(e, lang)) from e
    lines = describe(result, lang, metric=metric)
    if as_json:
        click.echo(json.dumps({**result.to_dict(), "answer": lines}, ensure_ascii=False, indent=2))
        return
    for line in lines:
        click.echo(line)
    if result.rules and project is not None:
        library = ctx.library()
        click.echo(text(lang, "rules"))
        for key in result.rules:
            link = rule_link(library, key, lang)
            click.echo(f"  {link.title} [{key}] {link.url}")


@main.group(cls=_CalcGroup)
def calc() -> None:
    """Calculators for the table: jumps, spell save DC, movement in a turn.

    Each answer names the rules it applied (entry id and page).
    """


@calc.command("jump")
@click.option("--strength", type=int, required=True, help="Strength score (1-30).")
@click.option("--standing", is_flag=True, help="No running start of at least 10 feet: half the distance.")
@click.option("--height", "height_ft", type=float, help="The creature's height in feet: how high it reaches.")
@click.option("--movement", "movement_ft", type=float,
              help="Movement left this turn in feet; every foot jumped counts against it.")
@_calc_output_options
@pass_ctx
def calc_jump(ctx: Context, strength: int, standing: bool, height_ft: float | None, movement_ft: float | None,
              edition: str, lang: str | None, as_json: bool, metric: bool) -> None:
    """How far and how high a jump goes, and what it reaches."""
    from .calculators import jump

    _calc_answer(ctx, lambda: jump(strength, standing=standing, height_ft=height_ft, movement_ft=movement_ft,
                                   edition=int(edition)), lang, as_json, metric)


@calc.command("spell")
@click.option("--proficiency", type=int, help="Proficiency bonus (2-9); give --ability-mod with it.")
@click.option("--ability-mod", type=int, help="Spellcasting ability modifier (-5 to 10).")
@click.option("--level", type=int, help="Character level (1-20); give --ability-score with it.")
@click.option("--ability-score", type=int, help="Spellcasting ability score (1-30).")
@_calc_output_options
@pass_ctx
def calc_spell(ctx: Context, proficiency: int | None, ability_mod: int | None, level: int | None,
               ability_score: int | None, edition: str, lang: str | None, as_json: bool, metric: bool) -> None:
    """Spell save DC and spell attack bonus.

    Give --proficiency and --ability-mod, or --level and --ability-score.
    """
    from .calculators import spell

    _calc_answer(ctx, lambda: spell(proficiency=proficiency, ability_mod=ability_mod, level=level,
                                    ability_score=ability_score, edition=int(edition)), lang, as_json, metric)


@calc.command("move", context_settings={"ignore_unknown_options": True})  # a leg may be "-5"
@click.argument("legs", metavar="[LEG]...", nargs=-1)
@click.option("--speed", type=int, required=True, help="Walking speed in feet.")
@click.option("--climb-speed", type=int, default=0, show_default=True, help="Climbing speed in feet (0: none).")
@click.option("--swim-speed", type=int, default=0, show_default=True, help="Swimming speed in feet (0: none).")
@click.option("--fly-speed", type=int, default=0, show_default=True, help="Flying speed in feet (0: none).")
@click.option("--size", type=click.Choice(CALC_SIZES, case_sensitive=False), default="medium", show_default=True,
              help="Your size.")
@click.option("--drag", type=click.Choice(CALC_SIZES, case_sensitive=False),
              help="Size of a grappled creature you drag or carry.")
@click.option("--dash", is_flag=True, help="Take the Dash action: extra movement equal to your speed.")
@click.option("--stand-up", is_flag=True, help="Stand up from prone first (half your speed).")
@click.option("--mount", is_flag=True, help="Mount or dismount at the end (half your speed).")
@_calc_output_options
@pass_ctx
def calc_move(ctx: Context, legs: tuple[str, ...], speed: int, climb_speed: int, swim_speed: int, fly_speed: int,
              size: str, drag: str | None, dash: bool, stand_up: bool, mount: bool, edition: str,
              lang: str | None, as_json: bool, metric: bool) -> None:
    """Can you still get there this turn? The path's cost, leg by leg.

    Each LEG is DIST[,difficult][,climb|swim|crawl|fly] in feet, e.g. 10,difficult,climb
    (repeat 'difficult' for several effects: they do not stack), or a step in its place:
    stand-up, mount, dismount.
    """
    from .calculators import move, parse_leg

    def compute():
        path = [parse_leg(text, number) for number, text in enumerate(legs, 1)]
        return move(speed, path, climb_speed=climb_speed, swim_speed=swim_speed, fly_speed=fly_speed,
                    size=size.lower(), drag=drag.lower() if drag else None, dash=dash, stand_up=stand_up, mount=mount,
                    edition=int(edition))

    _calc_answer(ctx, compute, lang, as_json, metric)


@main.command()
@click.argument("query", nargs=-1)
@click.option("--lang", default="all", show_default=True, help="Search one of the project's languages (e.g. ru, cs) or all.")
@click.option("--limit", default=10, show_default=True, type=int, help="At most this many results (1-50).")
@click.option("--json", "as_json", is_flag=True, help="Print the API's JSON answer instead.")
@BUILD_DIR_OPTION
@pass_ctx
def search(ctx: Context, query: tuple[str, ...], lang: str, limit: int, as_json: bool, build_dir: Path | None) -> None:
    """Search the built index: pravila search как встать --lang ru

    Words are matched in all their forms, without diacritics and with
    typos; the matching words are highlighted in the snippets.
    """
    from .search import Searcher, check_lang, check_limit, check_query, snippet_parts

    project = ctx.project(build_dir)
    text = " ".join(query)
    text, lang, limit = check_query(text), check_lang(lang, project.codes), check_limit(limit)
    if not text:
        raise click.UsageError("nothing to search for: give a query, e.g. pravila search прыжок")
    with Searcher.for_project(project) as searcher:
        if not searcher.has_words(text, lang):
            raise click.ClickException(f"nothing to search for in «{text}»: no words, only punctuation or common words")
        result = searcher.search(text, lang, limit)
    if as_json:
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
        return
    if not result.hits:
        click.echo(f"no entries found for «{text}»", err=True)
        return
    click.echo(f"{len(result.hits)} of {result.total} entries for «{text}»:", err=True)
    for n, hit in enumerate(result.hits, 1):
        click.echo()
        click.echo(f"{n}. " + click.style(hit.title, bold=True) + f"  {hit.lang}:{hit.id}  {hit.url}")
        # Wrap the plain text, then colour the marked words (\x01 … \x02 stand for <mark> … </mark>).
        marked = "".join(f"\x01{t}\x02" if m else t for t, m in snippet_parts(hit.snippet))
        for line in textwrap.wrap(marked, 84, initial_indent="   ", subsequent_indent="   "):
            pieces = line.replace("\x02", "\x01").split("\x01")
            click.echo("".join(click.style(p, fg="yellow", bold=True) if i % 2 else p for i, p in enumerate(pieces)))
