"""The query commands: sql, sync, stats, export, import.

Thin: parsing and printing here, the work in :mod:`tabletape.queries.catalog`,
:mod:`tabletape.queries.reports` and
:mod:`tabletape.queries.transfer`. duckdb is imported inside the commands only, so composing this
module
into the CLI never slows ``tabletape record`` down.
"""

from __future__ import annotations

import csv
import decimal
import io
import json
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tabletape.cli import (
    ILLEGAL_EXIT,
    USAGE_EXIT,
    JsonOption,
    LedgerOption,
    answering_json,
    err,
    fail,
    is_stdio,
    out,
    people_errors,
    print_json,
    warn,
)
from tabletape.commands.recording import NoPagerOption
from tabletape.ledger import Ledger
from tabletape.queries.output import QueryRefused, check_output
from tabletape.queries.sql_door import check_read_only
from tabletape.queries.values import csv_value, json_rows, json_value, plain, write_parquet

if TYPE_CHECKING:
    import duckdb

    from tabletape.queries.apps import Choice

app = typer.Typer(add_completion=False, rich_markup_mode="rich")

PROGRESS_BYTES = 4_000_000
"""A sync with more log bytes than this to load shows a progress bar."""


class SqlFormat(StrEnum):
    table = "table"
    csv = "csv"
    json = "json"
    jsonl = "jsonl"
    parquet = "parquet"


class ReportFormat(StrEnum):
    table = "table"
    json = "json"


@contextmanager
def catalog_errors() -> Iterator[None]:
    """:func:`tabletape.cli.people_errors`, plus DuckDB's errors (SQL it cannot run, or the SQL
    door's refusals, :func:`tabletape.queries.database.door_refusal`: exit 2)."""
    import duckdb

    from tabletape.queries.database import door_refusal

    with people_errors():
        try:
            yield
        except duckdb.InterruptException:
            raise KeyboardInterrupt from None
        except duckdb.Error as error:
            fail(door_refusal(error) or duckdb_message(error), USAGE_EXIT)
        except RuntimeError as error:
            if str(error) != "Query interrupted":  # Ctrl-C while DuckDB streamed rows
                raise
            raise KeyboardInterrupt from None


def duckdb_message(error: Exception) -> str:
    """DuckDB's message without its internal trailer, kept on as few lines as it needs: a name
    not found on one line, with DuckDB's guess unless it is one of the catalog's own tables.

    >>> duckdb_message(Exception('Catalog Error: Table with name x does not exist!\\n'
    ...                          'Did you mean "_meta"?'))
    'Catalog Error: Table with name x does not exist!'
    """
    message = str(error).strip()
    first, _, rest = message.partition("\n")
    if not first.endswith("does not exist!"):
        return message
    guess = re.search(r'Did you mean "(.*?)"', rest)
    if guess is None or guess.group(1).startswith(INTERNAL_TABLES):
        return first
    return f"{first} Did you mean {guess.group(1)!r}?"


INTERNAL_TABLES = ("_", "pg_", "duckdb_", "sqlite_", "information_schema")
"""Names DuckDB may guess that are no table of the catalog's a person asked for."""


StrictOption = Annotated[bool, typer.Option(
    "--strict", help="Fail (exit 1) when a game is left out of the catalog because its log does "
                     "not verify or does not fold.")]
NoSyncOption = Annotated[bool, typer.Option(
    "--no-sync", help="Query the catalog as it is, without syncing it with the logs first.")]

IncludeSimulatedOption = Annotated[bool, typer.Option(
    "--include-simulated", help="Include simulated games (`tabletape simulate`) and demo games "
                                "(`tabletape demo`) too; without it only games people played "
                                "are seen.")]

KindOption = Annotated[str | None, typer.Option(
    "--kind", "-k", help="Only games of this kind (e.g. risk-strike).")]
PlayerOption = Annotated[str | None, typer.Option(
    "--player", "-p", help="Only this player's games and rows (her results, her dice, the "
                           "battles she fought); any case.")]
SinceOption = Annotated[str | None, typer.Option(
    "--since", help="Only games started on or after this date (YYYY-MM-DD, UTC).")]


LISTED_PROBLEMS = 10
"""Games left out that a query names one by one (``tabletape sync`` names them all)."""


def synced(ledger: Path | None, *, sync_first: bool = True, strict: bool = False) -> Ledger:
    """The ledger, its catalog synced first (a progress bar when there is much to do).

    Games the catalog leaves out are named on standard error; with ``strict`` that is an error.
    """
    from tabletape.queries.catalog import CatalogError, catalog_path, opened, stored_problems, sync

    store = Ledger(ledger)
    if sync_first:
        with progress_bar() as progress:
            report = sync(store, progress=progress, stale_ok=True)
        problems = report.problems
        say_catalog_note(report.outdated)
        say_catalog_note(report.stale)
    else:
        store.require()
        if not catalog_path(store).exists():
            raise CatalogError(f"ledger {store.root} has no catalog yet: run `tabletape sync` "
                               "(or query without --no-sync)")
        with opened(catalog_path(store), read_only=True) as con:
            problems = stored_problems(con)
    name_left_out(problems, strict)
    return store


def say_catalog_note(note: str) -> None:
    """Say on standard error what a sync noted of the catalog (rebuilt for another version, or
    left stale when it could not be written): ``note: ...`` for people, a JSON warning line
    when the command answers JSON."""
    if note and answering_json():
        warn(note)
    elif note:
        err.print(f"[yellow]note:[/] {escape(note)}", highlight=False)


def name_left_out(problems: dict[str, str], strict: bool) -> None:
    """Say on standard error which games the catalog leaves out, and why; fail if ``strict``."""
    if not problems:
        return
    count = len(problems)
    games, them = ("1 game is", "it") if count == 1 else (f"{count} games are", "them")
    if answering_json():
        warn(f"{games} left out of the catalog", left_out=problems)
    else:
        say_left_out(problems, games, them)
    if strict:
        fail(f"--strict: nothing was queried, since {games} left out; `tabletape verify --all` "
             "says what is wrong with each log", ILLEGAL_EXIT)


def say_left_out(problems: dict[str, str], games: str, them: str) -> None:
    """Name the games left out of the catalog, and why each (a log that does not verify or
    fold, one cut short or rewritten since it was loaded, a copy), for people: the first few."""
    count = len(problems)
    err.print(f"[yellow]warning:[/] {games} left out of the catalog (results leave {them} out):",
              highlight=False)
    for game, problem in sorted(problems.items())[:LISTED_PROBLEMS]:
        err.print(f"  {escape(game)}: {escape(problem)}", highlight=False)
    if count > LISTED_PROBLEMS:
        err.print(f"  … and {count - LISTED_PROBLEMS} more: `tabletape sync` names them all",
                  highlight=False)


@contextmanager
def progress_bar(label: str = "Loading logs into the catalog", *,
                 at_least: int = PROGRESS_BYTES, unit: str = "bytes") -> Iterator[Any]:
    """A ``progress(done, total)`` callback that shows a rich bar once the work is big (a
    ``total`` of ``at_least``), counting ``bytes`` or other things (``pages``)."""
    from rich.progress import (
        BarColumn,
        DownloadColumn,
        MofNCompleteColumn,
        Progress,
        TimeRemainingColumn,
    )

    bar: Progress | None = None
    task = None

    def update(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None and total >= at_least:
            counted = DownloadColumn() if unit == "bytes" else MofNCompleteColumn()
            bar = Progress(label, BarColumn(), counted, TimeRemainingColumn(), console=err,
                           transient=True)
            bar.start()
            task = bar.add_task("sync", total=total)
        if bar is not None and task is not None:
            bar.update(task, completed=done)

    try:
        yield update
    finally:
        if bar is not None:
            bar.stop()


# -- sql -----------------------------------------------------------------------------------------


@app.command("sql")
def sql_command(
    query: Annotated[str, typer.Argument(
        help="One read-only statement, e.g. 'SELECT * FROM games'.")],
    output_format: Annotated[SqlFormat, typer.Option(
        "--format", "-f",
        help="table, csv, json (a list of row objects), jsonl (one row object a line, "
             "streamed) or parquet.",
    )] = SqlFormat.table,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Write to this file (required for parquet; - is standard "
        "output); never inside the ledger.")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="Overwrite the --output file if it exists.")] = False,
    ledger: LedgerOption = None,
    strict: StrictOption = False,
    no_sync: NoSyncOption = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Same as --format json.")] = False,
    include_simulated: IncludeSimulatedOption = False,
    parquet: Annotated[Path | None, typer.Option(
        "--parquet", help="Query the Parquet export in this folder (`export --parquet DIR`) "
                          "instead of the ledger's catalog; no ledger needed.")] = None,
) -> None:
    """Run a read-only SQL query on the catalog (synced with the logs first), or on a Parquet
    export (--parquet DIR).

    The tables show games people played; simulated and demo ones too with --include-simulated (the
    all_<table> tables always hold every game). The query reads the catalog only (or the
    export): no other file, URL, setting or DuckDB extension."""
    from tabletape.queries.catalog import catalog_path
    from tabletape.queries.database import query_door

    with catalog_errors():
        check_read_only(query)
        output_format = chosen_format(output_format, as_json, SqlFormat.table, SqlFormat.json)
        if output_format is SqlFormat.parquet:
            check_parquet_target(output)
        if output is not None and not is_stdio(output):
            check_sql_output(output, Ledger(ledger).root, force=force)
        if parquet is not None:
            if include_simulated:
                raise QueryRefused("--include-simulated goes with a ledger: an export holds the "
                                   "games people recorded only")
            sql_on_export(parquet, query, output_format, output, Ledger(ledger).root)
            return
        store = synced(ledger, sync_first=not no_sync, strict=strict)
        with parquet_target(output_format, output) as target, \
                query_door(catalog_path(store), files=written(target)) as con:
            if include_simulated:
                from tabletape.queries.scope import Scope, narrow

                narrow(con, Scope(include_simulated=True))
            answer(con, query, output_format, target or output)


def sql_on_export(directory: Path, query: str, output_format: SqlFormat, output: Path | None,
                  ledger_root: Path) -> None:
    """``sql --parquet DIR``: the query on views over the export's files (an in-memory
    connection that reaches its tables' folders and manifest only; the statement was checked
    read-only before). No ledger is opened, and none is reached: an export folder that is, holds
    or lies in one (the current ledger ``ledger_root`` or any other) is refused."""
    import duckdb

    from tabletape.queries.database import query_door
    from tabletape.queries.parquet import (
        READS_NO_LEDGER,
        damaged,
        export_reach,
        ledger_clash,
        open_export,
        unreadable_file,
    )
    from tabletape.queries.transfer import inside_ledger

    if inside_ledger(directory, ledger_root):
        raise QueryRefused(ledger_clash(directory, directory, ledger_root, READS_NO_LEDGER))
    folders, manifest = export_reach(directory)
    if output is not None and not is_stdio(output) and \
            output.resolve().is_relative_to(directory.resolve()):
        raise QueryRefused(f"{output} is inside the export {directory}: write results outside it")
    with parquet_target(output_format, output) as target, \
            query_door(None, folders=folders, files=[manifest, *written(target)]) as con:
        try:
            open_export(con, directory)
            answer(con, query, output_format, target or output)
        except (duckdb.IOException, duckdb.InvalidInputException) as error:
            if problem := unreadable_file(error, directory):
                raise damaged(directory, problem) from None
            raise


def answer(con: duckdb.DuckDBPyConnection, query: str, output_format: SqlFormat,
           output: Path | None) -> None:
    """Run the (checked) ``query`` on ``con`` and print or write its rows."""
    relation = con.sql(query)
    if relation is not None:
        write_result(relation, output_format, output)


@contextmanager
def parquet_target(output_format: SqlFormat, output: Path | None) -> Iterator[Path | None]:
    """The one file DuckDB may write, for ``--format parquet`` (None for other formats): a
    scratch file in a new private folder, moved to ``output`` (or copied to standard output for
    ``-``) once written whole. So the query's door opens on no file that exists, and a failed
    query leaves ``output`` as it was."""
    if output_format is not SqlFormat.parquet:
        yield None
        return
    assert output is not None
    with tempfile_dir() as scratch:
        rows = scratch / "rows.parquet"
        yield rows
        if not rows.exists():  # a statement with no result
            return
        if is_stdio(output):
            copy_to_stdout(rows)
        else:
            move_into_place(rows, output)


def written(target: Path | None) -> list[Path]:
    """The files the query's connection may write: the Parquet ``target``, if any."""
    return [] if target is None else [target]


def move_into_place(source: Path, output: Path) -> None:
    """Rename ``source`` to ``output`` (replacing it); copied when they are on different disks.
    A failure names ``output``, never the scratch file."""
    import errno
    import shutil

    try:
        os.replace(source, output)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise OSError(error.errno, error.strerror, str(output)) from None
        with scratch_beside(output) as scratch:
            shutil.copyfile(source, scratch)


Format = TypeVar("Format", SqlFormat, ReportFormat)


def chosen_format(given: Format, as_json: bool, default: Format, json_value: Format) -> Format:
    """The output format: ``--json`` is ``--format json``; any other ``--format`` with it is
    refused (a script would not know which it gets)."""
    if not as_json:
        return given
    if given not in (default, json_value):
        raise QueryRefused(f"--json is --format json: leave out --format {given.value} (or --json)")
    return json_value


def check_parquet_target(output: Path | None) -> None:
    """Parquet is binary: it needs a file, or ``-`` when standard output is not a terminal."""
    if output is None:
        raise QueryRefused("--format parquet needs --output FILE (or - for a pipe)")
    if is_stdio(output) and sys.stdout.isatty():
        raise QueryRefused("--format parquet --output - writes binary data: redirect standard "
                           "output to a file or a pipe")


def check_sql_output(path: Path, ledger_root: Path, *, force: bool) -> None:
    """:func:`check_output` for ``sql --output``, and refuse a file inside any other ledger
    (links followed) or where no file can be written (no such folder, a folder)."""
    from tabletape.queries.database import ledger_around

    if (other := ledger_around(path)) is not None:
        raise QueryRefused(f"{path} is inside the ledger {other}: write results outside it")
    check_output(path, ledger_root, force=True)
    if path.is_dir():
        raise QueryRefused(f"{path} is a folder: name the file to write")
    if not path.parent.is_dir():
        what = "is not a folder" if path.parent.exists() else "does not exist (create it first)"
        raise QueryRefused(f"cannot write {path}: {path.parent} {what}")
    check_output(path, ledger_root, force=force)


def write_result(relation: duckdb.DuckDBPyRelation, output_format: SqlFormat,
                 output: Path | None) -> None:
    """Print or write the query's rows in ``output_format`` (``-``: standard output; Parquet
    needs a file, :func:`parquet_target`)."""
    if output_format is SqlFormat.parquet:
        assert output is not None and not is_stdio(output)
        write_parquet(relation, output)
        return
    if output is not None and is_stdio(output):
        output = None
    if output_format is SqlFormat.jsonl:
        with text_output(output) as stream:
            for row in json_rows(relation):
                stream.write(json.dumps(row, ensure_ascii=False) + "\n")
        return
    columns, types, rows = relation.columns, [str(t) for t in relation.types], relation.fetchall()
    if output_format is SqlFormat.table:
        text = None
        table = result_table(columns, rows)
        if output is None:
            out.print(table, width=max(out.width, narrowest(out, table)), crop=False)  # words whole
            return
        printed = io.StringIO()
        wide = Console(file=printed, width=200)
        wide.print(table, width=max(200, narrowest(wide, table)), crop=False)
        text = printed.getvalue()
    elif output_format is SqlFormat.csv:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows([[csv_value(v) for v in row] for row in rows])
        text = buffer.getvalue()
    else:
        records = [{c: json_value(v, t) for c, t, v in zip(columns, types, row, strict=True)}
                   for row in rows]
        text = json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    with text_output(output) as stream:
        stream.write(text)


@contextmanager
def text_output(output: Path | None) -> Iterator[Any]:
    """Standard output (``output`` None), or a scratch file beside ``output`` opened for UTF-8
    text and renamed to it once written whole (a query failing half-way leaves ``output`` as it
    was, or absent)."""
    if output is None:
        yield sys.stdout
        return
    with scratch_beside(output) as scratch, scratch.open("x", encoding="utf-8") as stream:
        yield stream


@contextmanager
def scratch_beside(output: Path) -> Iterator[Path]:
    """The path of a hidden file beside ``output`` (not created yet), renamed to ``output``
    when the block ends well and removed when it fails; a failure to write names ``output``."""
    import secrets

    scratch = output.with_name(f".{output.name}.{secrets.token_hex(4)}.writing")
    try:
        yield scratch
        os.replace(scratch, output)
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(output)) from None
    finally:
        scratch.unlink(missing_ok=True)


def result_table(columns: Sequence[str], rows: Sequence[tuple[Any, ...]]) -> Table:
    """The rows for people: no word ever split (a column is at least as wide as its longest
    word: ``risk-transformers``, a game id, a hash; it wraps between words), numbers rounded
    for reading (``--json`` and ``--csv`` keep them whole)."""
    table = Table(box=box.SIMPLE_HEAD)
    cells = [[shown_value(v) for v in row] for row in rows]
    for i, column in enumerate(columns):
        widest = max((longest_word(row[i]) for row in cells), default=0)
        numbers = bool(rows) and all(is_number(row[i]) for row in rows if row[i] is not None)
        table.add_column(column, min_width=max(widest, longest_word(column)), overflow="fold",
                         justify="right" if numbers else "left")
    for row in cells:  # cells as Text: data is shown as it is, never read as rich markup
        table.add_row(*(Text(cell) for cell in row))
    table.caption = f"{len(rows)} row{'s' if len(rows) != 1 else ''}"
    return table


def narrowest(console: Console, table: Table) -> int:
    """The least width ``table`` fits in without splitting a word."""
    from rich.measure import Measurement

    return Measurement.get(console, console.options.update(width=10**4), table).minimum


DISPLAY_DECIMALS = 3
"""Decimals a table shows of a fraction (``0.333``); the JSON and CSV outputs keep them all."""


def shown_value(value: Any) -> str:
    """A value as a table cell: fractions rounded to :data:`DISPLAY_DECIMALS` places (tiny
    ones to 3 significant digits), everything else as it is.

    >>> shown_value(2 / 3), shown_value(decimal.Decimal("1.50000")), shown_value(0.000012345)
    ('0.667', '1.5', '1.23e-05')
    >>> shown_value(None), shown_value(12), shown_value(3.0), shown_value("risk-strike")
    ('', '12', '3', 'risk-strike')
    """
    if value is None:
        return ""
    if isinstance(value, float | decimal.Decimal) and not isinstance(value, bool):
        number = float(value)
        if number != 0 and abs(number) < 10 ** -DISPLAY_DECIMALS:
            return f"{number:.3g}"
        text = f"{number:.{DISPLAY_DECIMALS}f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


def longest_word(text: str) -> int:
    """The width of the longest run of ``text`` without a space (a word a table must not split).

    >>> longest_word("risk-transformers and marvel-united")
    17
    """
    from rich.cells import cell_len

    return max((cell_len(word) for word in text.split()), default=0)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float | decimal.Decimal) and not isinstance(value, bool)


# -- sync ----------------------------------------------------------------------------------------


@app.command("sync")
def sync_command(
    rebuild: Annotated[bool, typer.Option(
        help="Drop the catalog's rows and load every log.")] = False,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Bring the DuckDB catalog up to date with the logs (only games whose logs changed)."""
    import msgspec

    from tabletape.queries.catalog import sync

    with catalog_errors(), progress_bar() as progress:
        report = sync(Ledger(ledger), rebuild=rebuild, progress=progress)
    if as_json:
        print_json(msgspec.to_builtins(report))
        return
    say_catalog_note(report.outdated)
    changes = ", ".join(f"{n} {what}" for what, n in (
        ("new", report.new), ("grew", report.grew), ("recovered", report.recovered),
        ("reprojected", report.reprojected), ("removed", report.removed)) if n)
    left_out = ", ".join(f"{n} {what}" for what, n in (
        ("rewritten", report.rewritten), ("vanished", report.vanished),
        ("duplicate", report.duplicate)) if n)
    out.print(f"Catalog {report.catalog}: {report.games} games; loaded {report.loaded} "
              f"({changes or 'nothing changed'}), {report.events} events "
              f"in {report.seconds:.2f} s."
              + (f" Left out: {len(report.problems)} ({left_out or 'see below'})."
                 if report.problems else ""), highlight=False)
    for game, problem in sorted(report.problems.items()):
        err.print(f"[yellow]left out {escape(game)}:[/] {escape(problem)}", highlight=False)
    for game, why in sorted(report.gone.items()):
        err.print(f"[yellow]gone {escape(game)}:[/] {escape(why)}", highlight=False)


# -- stats ---------------------------------------------------------------------------------------


@app.command("stats")
def stats_command(
    report_name: Annotated[str | None, typer.Argument(
        metavar="[REPORT]",
        help="players, seats, sides, lengths, dice or battles (default: all).")] = None,
    output_format: Annotated[ReportFormat, typer.Option(
        "--format", "-f", help="table or json.")] = ReportFormat.table,
    kind: KindOption = None,
    player: PlayerOption = None,
    since: SinceOption = None,
    include_simulated: IncludeSimulatedOption = False,
    ledger: LedgerOption = None,
    strict: StrictOption = False,
    no_sync: NoSyncOption = False,
    no_pager: NoPagerOption = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Same as --format json.")] = False,
) -> None:
    """Win rates, first-player advantage, game lengths, dice luck and battle odds.

    Games people played only: simulated and demo ones count with --include-simulated."""
    from tabletape.queries.catalog import catalog_path, opened
    from tabletape.queries.layout import LEGENDS, report_blocks
    from tabletape.queries.reports import all_reports, run_reports
    from tabletape.queries.scope import left_out_note, narrow, set_aside
    from tabletape.queries.series import league_series
    from tabletape.replay.render import paged
    from tabletape.rules.kernel import unknown_name_message

    with catalog_errors():
        output_format = chosen_format(output_format, as_json, ReportFormat.table,
                                      ReportFormat.json)
        reports = all_reports()
        if report_name is not None and report_name not in reports:
            raise QueryRefused(unknown_name_message("report", report_name, list(reports)))
        scope = chosen_scope(kind, player, since, include_simulated)
        store = synced(ledger, sync_first=not no_sync, strict=strict)
        with opened(catalog_path(store), read_only=True) as con:
            narrow(con, scope)
            tables = run_reports(con, [report_name] if report_name else None)
            left_out = left_out_note(set_aside(con, scope))
            pictured = output_format is ReportFormat.table and any(
                table.report in LEGENDS for table in tables)  # only dice and lengths draw them
            league = league_series(con, battles=False) if pictured else None
    if output_format is ReportFormat.json:
        shaped = [plain(t.to_json()) for t in tables]
        print_json(shaped[0] if report_name else shaped)
        return
    with paged(out, pager=not no_pager):
        if scope.describe():
            out.print(f"Counting {escape(scope.describe())}.", highlight=False)
        if left_out:
            out.print(left_out, highlight=False)
        for report in tables:
            for block in report_blocks(report, league):
                out.print(block)


def chosen_scope(kind: str | None, player: str | None, since: str | None,
                 include_simulated: bool) -> Any:
    """The :class:`tabletape.queries.scope.Scope` of ``--kind``, ``--player``, ``--since`` and
    ``--include-simulated``."""
    from tabletape.queries.scope import Scope, game_kind, since_date

    return Scope(kind=game_kind(kind) if kind else None, player=player,
                 since=since_date(since) if since is not None else None,
                 include_simulated=include_simulated)


# -- export and import ---------------------------------------------------------------------------


@app.command("export")
def export_command(
    game: Annotated[str | None, typer.Argument(
        help="Game id: with --jsonl and --bgstats-link; with --bgstats or --bgg-xml, that "
             "game only.")] = None,
    jsonl: Annotated[Path | None, typer.Option(
        "--jsonl", help="Copy the game's log to this file (byte for byte; - is standard "
                        "output).")] = None,
    parquet: Annotated[Path | None, typer.Option(
        "--parquet", help="Write every catalog table as Parquet under this folder, "
                          "partitioned by game kind and month of play, replacing an earlier "
                          "export there.")] = None,
    html: Annotated[Path | None, typer.Option(
        "--html", help="Write a site of every game (an index with the league tables, a page "
                       "per game) to this folder, replacing an earlier export there.")] = None,
    kind: KindOption = None,
    player: PlayerOption = None,
    since: SinceOption = None,
    bgstats: Annotated[Path | None, typer.Option(
        "--bgstats", help="Write the plays as the JSON file BG Stats imports (- is standard "
                          "output); without GAME, every finished game people played.")] = None,
    bgstats_link: Annotated[bool, typer.Option(
        "--bgstats-link", help="Print GAME's BG Stats create-play link (https://, which opens "
                               "the app and can be sent in a chat).")] = False,
    app_link: Annotated[bool, typer.Option(
        "--app-link", help="With --bgstats-link: the link in the app's own bgstats:// "
                           "scheme.")] = False,
    bgg_xml: Annotated[Path | None, typer.Option(
        "--bgg-xml", help="Write the plays as BoardGameGeek plays XML (- is standard output); "
                          "without GAME, every finished game people played.")] = None,
    location: Annotated[str, typer.Option(
        "--location", help="Where the plays were played (BG Stats, BoardGameGeek).")] = "",
    bgg_id: Annotated[list[str] | None, typer.Option(
        "--bgg-id", help="BoardGameGeek id to use: N, or KIND=N when the plays are of several "
                         "kinds (repeatable).")] = None,
    include_unfinished: Annotated[bool, typer.Option(
        "--include-unfinished", help="Export games still going too, as incomplete plays.")] = False,
    include_simulated: IncludeSimulatedOption = False,
    include_forks: Annotated[bool, typer.Option(
        "--include-forks", help="Export what-if forks (`tabletape fork`) too.")] = False,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
    strict: StrictOption = False,
) -> None:
    """Export one game's log (--jsonl), the whole catalog as Parquet (--parquet), a site of
    every game to share (--html), or plays for BG Stats (--bgstats, --bgstats-link) and
    BoardGameGeek (--bgg-xml)."""
    from tabletape.queries.catalog import catalog_path, opened
    from tabletape.queries.parquet import check_target as check_export_target
    from tabletape.queries.parquet import export_parquet, ledger_clash
    from tabletape.queries.scope import left_out_note, narrow, set_aside
    from tabletape.queries.transfer import export_log, inside_ledger

    with catalog_errors():
        if html is None and (kind or player or since):
            raise QueryRefused("--kind, --player and --since choose the games of --html DIR")
        if app_link and not bgstats_link:
            raise QueryRefused("--app-link goes with --bgstats-link")
        apps = {"--bgstats": bgstats, "--bgstats-link": bgstats_link or None, "--bgg-xml": bgg_xml}
        if any(value is not None for value in apps.values()):
            from tabletape.queries.apps import Choice

            export_apps(game, apps, any(x is not None for x in (jsonl, parquet, html)), ledger,
                        as_json, Choice(location=location, bgg_ids=tuple(bgg_id or ()),
                                        unfinished=include_unfinished,
                                        simulated=include_simulated, forks=include_forks,
                                        strict=strict, app_link=app_link))
            return
        if sum(target is not None for target in (jsonl, parquet, html)) != 1:
            raise QueryRefused("give one of GAME --jsonl FILE, --parquet DIR, --html DIR, "
                               "--bgstats FILE, --bgstats-link or --bgg-xml FILE")
        if jsonl is not None and include_simulated:
            raise QueryRefused("--include-simulated goes with --parquet DIR, --html DIR, "
                               "--bgstats FILE or --bgg-xml FILE")
        if html is not None:
            export_site(ledger, html, chosen_scope(kind, player, since, include_simulated),
                        as_json=as_json, strict=strict)
            return
        if jsonl is not None:
            if game is None:
                raise QueryRefused("--jsonl needs the GAME to export")
            if is_stdio(jsonl):
                export_to_stdout(Ledger(ledger), game, as_json)
                return
            check_output(jsonl, Ledger(ledger).root, force=True)
            events = export_log(Ledger(ledger), game, jsonl)
            result: dict[str, Any] = {"game": game, "events": events, "file": str(jsonl)}
            message = f"Exported game {game} ({events} events) to {jsonl}."
        else:
            assert parquet is not None
            if is_stdio(parquet):
                raise QueryRefused("--parquet writes a folder of tables, which standard output "
                                   "(-) cannot hold: name a folder")
            if inside_ledger(parquet, Ledger(ledger).root):
                raise QueryRefused(ledger_clash(parquet, parquet, Ledger(ledger).root))
            check_export_target(parquet, Ledger(ledger).root)
            store = synced(ledger, strict=strict)
            with opened(catalog_path(store), read_only=True) as con:
                scope = chosen_scope(None, None, None, include_simulated)
                narrow(con, scope)
                counts = export_parquet(con, parquet, store.root)
                left_out = left_out_note(set_aside(con, scope), verb="exports")
            result = {"directory": str(parquet), "tables": counts}
            message = (f"Exported {len(counts)} tables ({sum(counts.values())} rows) to "
                       f"{parquet}, partitioned by kind and month." +
                       (f"\n{left_out}" if left_out else ""))
    if as_json:
        print_json(result)
    else:
        out.print(message, highlight=False)


def export_site(ledger: Path | None, directory: Path, scope: Any, *, as_json: bool,
                strict: bool) -> None:
    """``export --html DIR``: the site of the games in ``scope`` (pages written with a progress
    bar when there are many), then what was written and what was left out."""
    import msgspec

    from tabletape.ledger.text import plural
    from tabletape.queries.catalog import catalog_path, opened, stored_problems
    from tabletape.queries.scope import left_out_words, narrow, set_aside
    from tabletape.queries.site import check_target, write_site

    if is_stdio(directory):
        raise QueryRefused("--html writes a folder of pages, which standard output (-) cannot "
                           "hold: name a folder")
    check_target(directory, Ledger(ledger).root)
    store = synced(ledger, strict=strict)
    with opened(catalog_path(store), read_only=True) as con:
        left_out = stored_problems(con)
        narrow(con, scope)
        with progress_bar("Writing pages", at_least=SITE_PROGRESS_PAGES, unit="pages") as progress:
            site = write_site(store, con, directory, left_out=left_out, scope=scope.describe(),
                              set_aside=left_out_words(set_aside(con, scope)),
                              progress=progress)
    if as_json:
        print_json(msgspec.to_builtins(site))
        return
    out.print(f"Wrote {escape(site.directory)}: index.html and {plural(site.games, 'game page')}.",
              highlight=False)
    for game, problem in site.left_out.items():
        if game not in left_out:  # the catalog's were named by the sync, above
            err.print(f"[yellow]left out {escape(game)}:[/] {escape(problem)}", highlight=False)
    if site.left_out:
        out.print(f"{plural(len(site.left_out), 'game')} left out (named on the index).",
                  highlight=False)


SITE_PROGRESS_PAGES = 20
"""An ``export --html`` of this many games or more shows a progress bar."""


def export_apps(game: str | None, apps: dict[str, Any], other: bool, ledger: Path | None,
                as_json: bool, choice: Choice) -> None:
    """``export --bgstats FILE``, ``--bgstats-link`` or ``--bgg-xml FILE``: one of them."""
    from tabletape.commands.apps import Target, export_plays

    given = [name for name, value in apps.items() if value is not None]
    if len(given) > 1 or other:
        raise QueryRefused(f"{' and '.join(given)}: give one export at a time")
    target = Target(given[0].removeprefix("--"))
    output = apps[given[0]] if target is not Target.link else None
    export_plays(Ledger(ledger), game, target, output, choice, as_json)


def export_to_stdout(store: Ledger, game: str, as_json: bool) -> None:
    """``export GAME --jsonl -``: the log's bytes on standard output, nothing else there (what
    was exported is said on standard error)."""
    from tabletape.queries.transfer import export_log

    if as_json:
        raise QueryRefused("--jsonl - writes the log itself to standard output: leave out --json")
    with tempfile_dir() as scratch:
        events = export_log(store, game, scratch)
        copy_to_stdout(scratch / f"{game}.jsonl")
    err.print(f"Exported game {escape(game)} ({events} events) to standard output.",
              highlight=False)


@contextmanager
def tempfile_dir() -> Iterator[Path]:
    """A scratch folder, removed afterwards."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="tabletape-") as scratch:
        yield Path(scratch)


def copy_to_stdout(path: Path) -> None:
    """The bytes of ``path`` on standard output."""
    import shutil

    sys.stdout.flush()
    with path.open("rb") as source:
        shutil.copyfileobj(source, sys.stdout.buffer)
    sys.stdout.buffer.flush()


@app.command("import")
def import_command(
    files: Annotated[list[Path], typer.Argument(
        help="Log files (.jsonl) to import; - reads one from standard input (with --as).")],
    game_id: Annotated[str | None, typer.Option(
        "--as", help="Game id to use (one file only; default: the file name).")] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Import game logs from other ledgers: all of them or, if any is refused, none.

    Each file's hash chain, first event, events and id are checked before anything is linked
    into the ledger; each file's outcome is reported."""
    import msgspec

    from tabletape.ledger.keys import register_signers, warn_failing_signatures
    from tabletape.queries.transfer import ImportBatch, game_log_problem

    if game_id and len(files) > 1:
        fail("--as names one game: import one file at a time with it", USAGE_EXIT)
    if any(is_stdio(path) for path in files):
        check_stdin_log(game_id)
    with people_errors(), ImportBatch(Ledger(ledger), game_log_problem) as batch:
        checked, refused = batch.add_all(files, game_id)
        imported = [] if refused else batch.commit()  # durable before anything is reported
    held_back = [] if imported else checked
    keys = register_signers(Ledger(ledger), [done.game for done in imported])
    warn_failing_signatures(Ledger(ledger), [done.game for done in imported])
    if as_json:
        print_json({"imported": msgspec.to_builtins(imported), "refused": refused,
                    "not_imported": msgspec.to_builtins(held_back), "registered_keys": keys})
    else:
        print_import_outcomes(imported, refused, held_back)
        for name, fingerprints in keys.items():
            out.print(f"The ledger now knows {escape(name)}'s key {', '.join(fingerprints)} "
                      "(from the imported signatures: a name the ledger knew no key for).",
                      highlight=False)
    if refused:
        raise typer.Exit(ILLEGAL_EXIT)


def check_stdin_log(game_id: str | None) -> None:
    """``import -`` needs ``--as`` (no file name to take the id from) and a log piped in."""
    if not game_id:
        fail("a log read from standard input (-) has no file name to take its id from: give it "
             "one with --as GAME-ID", USAGE_EXIT)
    if sys.stdin.isatty():
        fail("import - reads a log from standard input: pipe one in or redirect a file "
             "(tabletape import - --as GAME-ID < game.jsonl)", USAGE_EXIT)


def print_import_outcomes(imported: Sequence[Any], refused: dict[str, str],
                          held_back: Sequence[Any]) -> None:
    """One line per file: imported, refused (why), or checked but held back."""
    from tabletape.ledger.text import plural
    from tabletape.ledger.transfer import shown

    for done in imported:
        out.print(f"Imported {done.kind} game [bold cyan]{done.game}[/] "
                  f"({done.events} events) from {escape(shown(Path(done.source)))}.",
                  highlight=False)
        if done.renamed_from:
            out.print(f"  [yellow]{escape(done.renamed_from)} is another game here[/] (another "
                      f"identity): this one is {done.game} now; its identity is {done.uid}.",
                      highlight=False)
    for problem in refused.values():
        err.print(f"[bold red]error:[/] {escape(problem)}", highlight=False)
    for ready in held_back:
        err.print(f"{escape(shown(Path(ready.source)))} is fine ({ready.kind}, {ready.events} "
                  "events) but was not imported, as the whole import is refused.", highlight=False)
    if refused:
        total = len(refused) + len(held_back)
        err.print(f"Nothing was imported: {len(refused)} of {plural(total, 'file')} "
                  f"{'was' if len(refused) == 1 else 'were'} refused. Leave "
                  f"{'it' if len(refused) == 1 else 'them'} out or fix "
                  f"{'it' if len(refused) == 1 else 'them'}, then import again.",
                  highlight=False)
