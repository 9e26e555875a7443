"""The ``pravila`` command: the one place where problems become exit codes.

Every command reads the same validated content (``--content`` or the
``PRAVILA_CONTENT`` variable, default: the repository's ``content/``).
"""

from __future__ import annotations

import json
import sys
import textwrap
import time
from pathlib import Path

import click

from .content import LANGS, Library, Problem, load_library
from .fidelity import fidelity_problems
from .serialize import entry_to_dict

LANG_CHOICE = click.Choice(LANGS)


class Context:
    def __init__(self, content_dir: Path | None):
        self.content_dir = content_dir
        self._library: Library | None = None

    def library(self) -> Library:
        """The content, or a clear error when it does not load cleanly."""
        if self._library is None:
            library, problems = load_library(self.content_dir)
            if problems:
                for p in problems[:20]:
                    click.echo(str(p), err=True)
                more = f" (+{len(problems) - 20} more)" if len(problems) > 20 else ""
                raise click.ClickException(f"the content has {len(problems)} problem(s){more}; run 'pravila check'")
            self._library = library
        return self._library


pass_ctx = click.make_pass_decorator(Context)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--content",
    "content_dir",
    type=click.Path(file_okay=False, path_type=Path),
    envvar="PRAVILA_CONTENT",
    help="Folder with ru/*.yaml, cs/*.yaml and sources/ (default: the repository's content/).",
)
@click.version_option(package_name="pravila")
@click.pass_context
def main(ctx: click.Context, content_dir: Path | None) -> None:
    """Pravila: a Russian and Czech D&D 5e rules reference."""
    ctx.obj = Context(content_dir)


@main.command()
@click.option("--quiet", "-q", is_flag=True, help="Print problems only, no summary.")
@pass_ctx
def check(ctx: Context, quiet: bool) -> None:
    """Validate all content: schema, ids, references, counterparts, fidelity.

    Prints one line per problem, FILE:LINE: ID: message, and exits 1 if any.
    """
    started = time.perf_counter()
    library, problems = load_library(ctx.content_dir)
    fidelity, reports = fidelity_problems(library)
    problems = problems + fidelity
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
@click.option("--lang", type=LANG_CHOICE, help="Only this language (default: both).")
@pass_ctx
def export(ctx: Context, lang: str | None) -> None:
    """Print all entries as a JSON array."""
    library = ctx.library()
    entries = library.in_lang(lang) if lang else library.entries
    click.echo(json.dumps([entry_to_dict(library, e) for e in entries], ensure_ascii=False, indent=2))


@main.command()
@click.argument("entry_id")
@click.option("--lang", type=LANG_CHOICE, help="Language of the entry (needed when the id exists in both).")
@click.option("--json", "as_json", is_flag=True, help="Print the entry as JSON.")
@pass_ctx
def show(ctx: Context, entry_id: str, lang: str | None, as_json: bool) -> None:
    """Print one entry readably, its references listed under it."""
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


def _find_entry(library: Library, entry_id: str, lang: str | None):
    langs = [lang] if lang else list(LANGS)
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
    help="Build output folder (default: build/ in the repository).",
)


@main.command()
@BUILD_DIR_OPTION
@pass_ctx
def build(ctx: Context, build_dir: Path | None) -> None:
    """Generate both sites (ru, cs) and the search index from the content."""
    from .build import build_all
    from .site import SiteBuildError

    started = time.perf_counter()
    library = ctx.library()
    try:
        result = build_all(library, build_dir)
    except SiteBuildError as e:
        raise click.ClickException(str(e)) from e
    click.echo(f"{result} in {time.perf_counter() - started:.1f} s")


@main.command()
@BUILD_DIR_OPTION
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@click.option("--watch", is_flag=True, help="Rebuild when a content file changes.")
@pass_ctx
def serve(ctx: Context, build_dir: Path | None, host: str, port: int, watch: bool) -> None:
    """Serve the built site and the search API in one process."""
    from .server import run

    ctx.library()  # fail early and clearly on broken content
    run(build_dir=build_dir, content_dir=ctx.content_dir, host=host, port=port, watch=watch)


# --- calc: the calculators (pravila.calculators, pravila.answers) --------------

CALC_SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")  # = calculators.SIZES
CALC_EDITIONS = ("2014", "2024")  # = calculators.EDITIONS


class _CalcGroup(click.Group):
    """A calculator's bad input is one clear line: the message, no usage text."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.UsageError as e:
            error = click.ClickException(e.format_message())
            error.exit_code = e.exit_code
            raise error from e


def _calc_output_options(f):
    f = click.option("--metric", is_flag=True, help="Also give lengths in metres (5 ft = 1.5 m).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="Print the result as JSON, with the answer's lines.")(f)
    f = click.option("--lang", type=LANG_CHOICE, help="Language of the answer (default: English).")(f)
    f = click.option("--edition", type=click.Choice(CALC_EDITIONS), default="2014", show_default=True,
                     help="Edition of the rules to compute: 2014 or 2024.")(f)
    return f


def _calc_answer(ctx: Context, compute, lang: str | None, as_json: bool, metric: bool) -> None:
    from .answers import describe, error_message, rule_link, text
    from .calculators import CalcError

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
    if result.rules:
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
@click.option("--lang", default="all", show_default=True, help="Search Russian (ru), Czech (cs) or both (all).")
@click.option("--limit", default=10, show_default=True, type=int, help="At most this many results (1-50).")
@click.option("--json", "as_json", is_flag=True, help="Print the API's JSON answer instead.")
@BUILD_DIR_OPTION
def search(query: tuple[str, ...], lang: str, limit: int, as_json: bool, build_dir: Path | None) -> None:
    """Search the built index: pravila search как встать --lang ru

    Words are matched in all their forms, without diacritics and with
    typos; the matching words are highlighted in the snippets.
    """
    from .paths import BUILD_DIR, index_dir
    from .query import IndexUnavailable, QueryError, Searcher, check_lang, check_limit, check_query, has_words, snippet_parts

    text = " ".join(query)
    try:
        text, lang, limit = check_query(text), check_lang(lang), check_limit(limit)
    except QueryError as e:
        raise click.ClickException(str(e)) from None
    if not text:
        raise click.UsageError("nothing to search for: give a query, e.g. pravila search прыжок")
    if not has_words(text, lang):
        raise click.ClickException(f"nothing to search for in «{text}»: no words, only punctuation or common words")
    try:
        with Searcher(index_dir(build_dir or BUILD_DIR)) as searcher:
            result = searcher.search(text, lang, limit)
    except IndexUnavailable as e:
        raise click.ClickException(str(e)) from None
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
