"""The recording commands: games, new, record, undo, status, log, actions, list, verify, repair,
demo, play, simulate. Thin: parsing and printing here, everything else in ledger/, rules/ and
replay/; the plumbing every package's commands share is in :mod:`tabletape.cli`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import msgspec
import typer
from rich import box
from rich.markup import escape
from rich.table import Table

from tabletape import ledger as ledger_pkg
from tabletape.cli import (
    ILLEGAL_EXIT,
    USAGE_EXIT,
    GameArgument,
    JsonOption,
    LedgerOption,
    err,
    fail,
    open_ledger,
    out,
    people_errors,
    print_json,
    shown,
    warn,
)
from tabletape.exits import failure
from tabletape.ledger import (
    Damaged,
    GameStarted,
    Ledger,
    LedgerError,
    Record,
    TornTail,
)
from tabletape.ledger.identity import game_uid, uuid7
from tabletape.ledger.store import trusted
from tabletape.replay import render
from tabletape.replay.dice_secret import committed
from tabletape.replay.fold import Folded, actions_now, fold_records
from tabletape.replay.parts import game_part
from tabletape.replay.recording import create_game, open_game, record_line, reveal
from tabletape.replay.undo import by_argument, redo, undo
from tabletape.rules.fair_dice import new_secret
from tabletape.rules.kernel import BadOptions
from tabletape.rules.names import player_names
from tabletape.rules.registry import find_game, manifest_of, registered

app = typer.Typer(
    help="Record tabletop games as event logs; replay, audit and query them.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

NoPagerOption = Annotated[bool, typer.Option(
    "--no-pager", help="Print straight to the terminal, not through a pager (also: set "
    "TABLETAPE_NO_PAGER=1, or PAGER=cat). Pipes and --json are never paged.")]

MAX_SEED = 2**63 - 1
"""Largest seed of tabletape's dice: seeds are drawn below 2**63, so a 64-bit integer (the
Parquet export's BIGINT) holds every one exactly."""


# -- commands ------------------------------------------------------------------------------------


@app.command()
def games(as_json: JsonOption = False) -> None:
    """List the game kinds tabletape knows (each declared by its manifest)."""
    kinds = registered()
    if as_json:
        print_json([{"kind": r.name, "title": r.title, "aliases": list(r.aliases),
                     "players": [r.min_players, r.max_players],
                     "rules_version": r.rules_version,
                     "tabletape_version": ledger_pkg.__version__,
                     "id_prefix": r.short, "parts": list(parts_of(r.name))} for r in kinds])
        return
    table = Table(box=box.SIMPLE_HEAD, title="Game kinds", title_justify="left")
    for column in ("kind", "title", "players", "aliases"):
        table.add_column(column)
    for rules in kinds:
        table.add_row(rules.name, rules.title, f"{rules.min_players}-{rules.max_players}",
                      ", ".join(rules.aliases))
    out.print(table)


@app.command()
def new(
    kind: Annotated[str, typer.Argument(help="Game kind (see `tabletape games`).")],
    player: Annotated[list[str], typer.Option(
        "--player", "-p", help="A player, in seat order; repeat it, or separate names with "
        "commas (Olga,Patrick). Letters, digits, single spaces and ' - . _, at most 32.")],
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="KEY=VALUE setup option.")] = None,
    seed: Annotated[int | None, typer.Option(
        min=0, max=MAX_SEED, help="A PUBLIC seed for tabletape's dice (0 to 2**63-1): anyone "
        "who reads the log can foresee every roll (for teaching and tests; audit says so). "
        "Without it the dice come from a secret kept in the ledger's private area, committed "
        "to in the log and revealed when the game ends.")] = None,
    game_id: Annotated[str | None, typer.Option(
        "--id", help="Choose the game id: lowercase letters, digits and single hyphens "
        "(like rs-k7pq).")] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start a game: its kind, its players in seat order, its options.

    tabletape's dice (those left out of an action) come from a secret kept outside the log
    (<ledger>/private, readable by you only); the log holds only a commitment to it, and the
    secret is written to the log when the game ends (or by `tabletape reveal`), so nobody can
    foresee a roll and anyone can check every roll afterwards.
    """
    with people_errors():
        rules = find_game(kind)
        players = player_names(player)
        options = rules.options(parse_options(option or []), players)
        secret = new_secret() if seed is None else None
        started = committed(GameStarted(
            kind=rules.name, rules_version=rules.rules_version,
            tabletape_version=ledger_pkg.__version__, players=players, options=options,
            seed=seed or 0, uid=uuid7(),
        ), secret)
        store = open_ledger(ledger)
        game = create_game(store, started, secret, game_id=game_id, prefix=rules.short)
    if as_json:
        print_json({"game": game})
        return
    out.print(f"Started [bold]{rules.title}[/] game [bold cyan]{escape(game)}[/] "
              f"for {escape(', '.join(players))}.")
    notes = game_part(rules.name, "setup_notes")  # a game's word on its setup, if any
    if notes is not None:
        out.print(notes(rules, rules.start(started)))
    out.print(f"Record actions with [bold]tabletape record {escape(game)} ACTION key=value …[/] "
              f"or play at the prompt: [bold]tabletape play {escape(game)}[/]")


def parts_of(kind: str) -> tuple[str, ...]:
    """The optional parts game ``kind`` ships (``view``, ``demo``...), as its manifest says."""
    manifest = manifest_of(kind)
    return manifest.provides() if manifest is not None else ()


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``--option KEY=VALUE``s as a dict; a pair that is not KEY=VALUE, an empty value, or a key
    given twice is refused (:class:`BadOptions`, exit 2), never silently read.

    >>> parse_options(["board=ours.json", "reshuffle = yes"])
    {'board': 'ours.json', 'reshuffle': 'yes'}
    >>> parse_options(["board="])
    Traceback (most recent call last):
    ...
    tabletape.rules.kernel.BadOptions: option 'board' has no value: give board=VALUE, or leave the
    option out for its default
    """
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or not key:
            raise BadOptions(f"option '{pair}' is not KEY=VALUE")
        if not value:
            raise BadOptions(f"option '{key}' has no value: give {key}=VALUE, or leave the "
                             "option out for its default")
        if key in options:
            raise BadOptions(f"option '{key}' is given twice ({options[key]}, {value}): give "
                             "it once")
        options[key] = value
    return options


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def record(
    game: GameArgument,
    action: Annotated[list[str], typer.Argument(help="ACTION key=value … (by=NAME to name who).")],
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
    expect_seq: Annotated[int | None, typer.Option(
        "--expect-seq", metavar="N", help="Record only if event N is still the latest (the one "
        "you saw); else refuse, so an action recorded twice at once is stored once.")] = None,
) -> None:
    """Check one action against the rules and append it to the game's log; `-` instead of the
    action reads action lines from standard input, one per line (docs/reference/commands.md)."""
    from tabletape.batch import record_lines, recorded_echo, recorded_json

    if action == ["-"]:
        raise typer.Exit(record_lines(open_ledger(ledger), game, sys.stdin.buffer,
                                      as_json=as_json, expect_seq=expect_seq))
    with people_errors():
        folded, records = record_line(open_ledger(ledger), game, action, expect_seq=expect_seq)
    if as_json:
        print_json(recorded_json(folded, records))
        return
    out.print(recorded_echo(folded, records))


@app.command("undo")
def undo_command(
    game: GameArgument,
    by: Annotated[str | None, typer.Argument(
        metavar="[by=NAME]", help="Who takes the action back (default: the table).",
        show_default=False)] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Retract the latest action (the log keeps it, struck through, for audit); `redo` puts it
    back."""
    from tabletape.batch import undone_echo, undone_json

    with people_errors():
        folded, undone = undo(open_ledger(ledger), game, by=by_argument([by] if by else []))
    if as_json:
        print_json(undone_json(folded, undone))
        return
    out.print(undone_echo(folded, undone))


@app.command("redo")
def redo_command(game: GameArgument, ledger: LedgerOption = None,
                 as_json: JsonOption = False) -> None:
    """Record again the action the latest `undo` took back, as a new event (if still legal and
    nothing was recorded since)."""
    from tabletape.batch import redone_echo, redone_json

    with people_errors():
        folded, stored, again = redo(open_ledger(ledger), game)
    if as_json:
        print_json(redone_json(folded, stored, again))
        return
    out.print(redone_echo(folded, stored, again))


@app.command("reveal")
def reveal_command(game: GameArgument, ledger: LedgerOption = None,
                   as_json: JsonOption = False) -> None:
    """Write the game's dice secret into its log now (a game abandoned before its end: a game
    that ends reveals it by itself). Then anyone can check every roll tabletape made
    (`tabletape audit`), and tabletape rolls no more dice for the game."""
    with people_errors():
        _, record = reveal(open_ledger(ledger), game)
    if as_json:
        print_json({"game": game, "revealed_at": record.seq})
        return
    from tabletape.ledger.fingerprints import fingerprint

    out.print(f"Revealed the dice secret of game [bold cyan]{escape(game)}[/] at event "
              f"{record.seq}: `tabletape audit {escape(game)}` now re-derives every roll "
              "tabletape made.")
    out.print(f"head {fingerprint(record.seq, record.hash)} (note it: the log's head now)",
              highlight=False)


PictureOption = Annotated[Path | None, typer.Option(
    "--picture", metavar="FILE",
    help="Write the board as an SVG picture to FILE instead (map games; - for standard output).")]


@app.command()
def status(game: GameArgument, ledger: LedgerOption = None, as_json: JsonOption = False,
           picture: PictureOption = None) -> None:
    """Show the game now: whose turn, the board, the hands."""
    with people_errors():
        folded = open_game(open_ledger(ledger), game)
        if picture is not None:
            from tabletape.replay.board_picture import write_picture

            write_picture(folded.rules, folded.state, picture)
    if picture is not None:
        if as_json and str(picture) != "-":
            print_json({"game": game, "file": str(picture)})
        elif str(picture) != "-":
            out.print(f"Wrote the board picture to {escape(str(picture))}.")
        return
    if as_json:
        print_json(render.status_json(folded))
        return
    out.print(render.status_view(folded))


@app.command()
def log(
    game: GameArgument,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
    last: Annotated[int | None, typer.Option(min=0, help="Only the last N events.")] = None,
    no_pager: NoPagerOption = False,
) -> None:
    """Show the game's log, undone actions struck through; a damaged log is shown all the same,
    its first bad line marked (and exit 1)."""
    store = open_ledger(ledger)
    with people_errors():
        try:
            folded: Folded | None = open_game(store, game)
            rest: list[Record] = []
            damage, problem = None, ""
        except Damaged as error:
            damage = error
            folded, rest = salvaged(store, game)
            problem = error.problem
    if as_json:
        rows = [*(render.log_rows(folded) if folded else []), *render.unverified_rows(rest)]
        print_json(render.tail(rows, last))
    else:
        with people_errors():  # an event its rules cannot read: one message naming it
            table = render.log_table(folded, last=last, game=game, unverified=rest,
                                     problem=problem)
        with render.paged(out, pager=not no_pager):
            out.print(table)
    if damage is not None:
        fail(str(damage), ILLEGAL_EXIT)


def salvaged(store: Ledger, game: str) -> tuple[Folded | None, list[Record]]:
    """A damaged game: its verified events folded (None if there are none), and the rest."""
    records, verification = store.salvage(game)
    good = trusted(records, verification)
    return (fold_records(game, good) if good else None), records[len(good):]


@app.command()
def actions(game: GameArgument, ledger: LedgerOption = None, as_json: JsonOption = False) -> None:
    """What may be recorded now, by whom, with which fields."""
    with people_errors():
        folded = open_game(open_ledger(ledger), game)
    specs, cannot_roll = actions_now(folded)
    if as_json:
        print_json(msgspec.to_builtins(specs))
        return
    out.print(render.actions_table(folded.rules, specs, cannot_roll))


@app.command("list")
def list_games(ledger: LedgerOption = None, as_json: JsonOption = False,
               archived: Annotated[bool, typer.Option(
                   "--archived", help="List archived games too (`tabletape archive`), "
                                      "marked.")] = False) -> None:
    """The games in the ledger (archived ones with --archived)."""
    store = open_ledger(ledger)
    missing = store.missing()
    if missing:  # a mistyped --ledger is said, not listed as if it were an empty ledger
        err.print(f"[yellow]note:[/] {escape(missing)}", highlight=False)
    with people_errors():
        put_away = store.archived() if archived else {}
        rows = [game_row(store, game) | ({"archived": put_away[game].at} if game in put_away
                                         else {})
                for game in store.game_ids(archived=archived)]
    if as_json:
        print_json(rows)
        return
    if not rows:
        out.print(f"No games in {escape(str(store.root))} yet: try [bold]tabletape demo[/], or "
                  "start one with [bold]tabletape new[/].")
        return
    out.print(games_table(str(store.root), rows))


def games_table(root: str, rows: list[dict[str, Any]]) -> Table:
    """``list`` for people, in 80 columns: ids and kinds never cut (they are typed), names wrap
    at commas, times at the space between day and time, a fork's origin (game and seq) under
    its id."""
    table = Table(box=box.SIMPLE_HEAD, title=f"Games in {root}", title_justify="left")
    widest = max((len(shown(row["game"])) for row in rows), default=4)
    forks = max((len(f"from {row['parent']}") for row in rows if row["parent"]), default=0)
    table.add_column("game", min_width=max(widest, forks))
    table.add_column("kind", no_wrap=True)
    table.add_column("players")
    table.add_column("events", justify="right")
    table.add_column("started (UTC)", min_width=10)
    table.add_column("last action", min_width=10)
    for row in rows:
        game = shown(row["game"])
        if row["parent"]:
            game += f"\n[dim]from {shown(row['parent'])} at seq {row['fork_seq']}[/]"
        if row.get("archived"):
            game += "\n[yellow](archived)[/]"
        table.add_row(game, row["kind"], escape(", ".join(row["players"])), events_cell(row),
                      when(row["started"]), when(row["updated"]))
    return table


def when(stamp: str | None) -> str:
    """``2026-12-01T08:18:04.123Z`` -> ``2026-12-01 08:18`` (UTC, to the minute).

    >>> when("2026-12-01T08:18:04.123456Z"), when(None)
    ('2026-12-01 08:18', '')
    """
    return (stamp or "")[:16].replace("T", " ")


def events_cell(row: dict[str, Any]) -> str:
    """The event count, and where the log is damaged if it is."""
    if not row["damaged"]:
        return str(row["events"])
    return f"{row['events']} [bold red](damaged at event {row['first_bad_seq']})[/]"


def game_row(store: Ledger, game: str) -> dict[str, Any]:
    """One ``list --json`` row: the game's header and head, and whether its log verifies.

    ``damaged`` is "" for a log that verifies, else what ``verify`` says is wrong, with
    ``first_bad_seq`` the first bad event.
    """
    try:
        started = store.started(game)
    except (LedgerError, OSError) as error:
        return {"game": game, "kind": "?", "uid": "", "players": [], "events": 0, "started": "",
                "updated": None, "parent": None, "fork_seq": None, "damaged": problem_of(error),
                "first_bad_seq": 1}
    with store.path(game).open("rb") as handle:
        first = ledger_pkg.decode_line(handle.readline())
    records, verification = store.salvage(game)
    updated = records[-1].at if records else None
    damaged = "" if verification.ok else (
        f"event {verification.first_bad_seq}: {verification.problem}")
    return {"game": game, "kind": started.kind, "uid": game_uid(started.uid, first.hash),
            "players": list(started.players),
            "events": len(records), "started": first.at, "updated": updated,
            "parent": started.parent, "fork_seq": started.fork_seq, "damaged": damaged,
            "first_bad_seq": verification.first_bad_seq}


def problem_of(error: LedgerError | OSError) -> str:
    """A ledger or operating-system error as one line for people."""
    return failure(error).message


@app.command()
def verify(
    game: Annotated[str | None, typer.Argument(help="Game id (or use --all).")] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Verify every game.")] = False,
    noted_head: Annotated[str | None, typer.Option(
        "--head", metavar="FINGERPRINT", help="A head noted before (`tabletape head`): prove the "
        "log still extends it, or say that it was cut short or rewritten. With --all, a "
        "ledger's head: names each game changed since.")] = None,
    key_dir: Annotated[Path | None, typer.Option(
        "--key-dir", envvar="TABLETAPE_KEY_DIR", show_envvar=True,
        help="Your key folder: the receipts of what you signed are checked too.")] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check a log's hash chain (every byte of every line; names the first bad event), every
    signature in it (who vouched for which point) and its fork point; with --head, that it still
    extends a head noted before."""
    from tabletape.ledger.fingerprints import parse_fingerprint, require_kind
    from tabletape.ledger.heads import check_game, check_ledger, gone_signed
    from tabletape.ledger.keys import known_keys, read_receipts
    from tabletape.ledger.receipts import identity_changed
    from tabletape.replay.audit import fair_play_problem
    from tabletape.replay.heads_view import verify_view

    store = open_ledger(ledger)
    if bool(game) == all_games:
        fail("name a game or pass --all (not both)", USAGE_EXIT)
    with people_errors():
        noted = parse_fingerprint(noted_head) if noted_head is not None else None
        if noted is not None:
            require_kind(noted, "ledger" if all_games else "game")
        ids = store.chosen(None if all_games else game or "", archived=True)
        registered, receipts = known_keys(store), read_receipts(key_dir)
        unknown = ""
        if noted is not None and all_games:
            results, unknown = check_ledger(store, noted, registered, receipts,
                                            also=fair_play_problem)
        else:
            results = [check_game(store, g, registered, noted, receipts, also=fair_play_problem)
                       for g in ids]
        if all_games:  # a signed game whose log is gone: only its receipt can say so
            results += gone_signed(store, receipts, [r.game for r in results])
        if identity_changed(receipts, store.root):
            warn(f"the ledger {store.root} has another identity (private/ledger-id) than when "
                 "you signed in it: the file was replaced or deleted, or this is a new ledger "
                 "made where the old one was; your receipts of that folder are still checked")
    if as_json:
        print_json(msgspec.to_builtins(results))
    else:
        out.print(verify_view(results))
    if unknown:
        fail(unknown, ILLEGAL_EXIT)
    if not all(result.ok for result in results):
        raise typer.Exit(ILLEGAL_EXIT)


@app.command()
def repair(
    game: GameArgument,
    ledger: LedgerOption = None,
    line_endings: Annotated[bool, typer.Option(
        "--line-endings", help="Turn CRLF line endings back into LF, if the hashes then "
        "match (a backup is kept).")] = False,
    as_json: JsonOption = False,
) -> None:
    """Cut off what a crash left half-written (a torn last line, an append cut short), keeping a
    backup of the file. Nothing cut was ever acknowledged."""
    if line_endings:
        repair_line_endings(game, ledger, as_json)
        return
    with people_errors():
        store = open_ledger(ledger)
        before = store.verify(game)
        refuse_unrepairable(store, game)
        backup = store.repair(game)
        verification = store.verify(game)
    if as_json:
        print_json(repaired_json(game, backup, verification.events))
    elif backup is None:
        out.print(f"Game {game} has no torn line and no append cut short; nothing changed.")
    else:
        out.print(f"Cut what a crash left half-written off game {game} ({before.problem}); it "
                  f"now ends at event {verification.events}. The original is kept as {backup}.")
    if not verification.ok:
        fail(f"game {game} still fails verification at event {verification.first_bad_seq}: "
             f"{verification.problem}", ILLEGAL_EXIT)


def repaired_json(game: str, backup: Path | None, events: int | None = None) -> dict[str, Any]:
    """``repair --json``: whether anything changed, the backup kept, the events left."""
    return {"game": game, "repaired": backup is not None,
            "backup": str(backup) if backup is not None else None, "events": events}


def repair_line_endings(game: str, ledger: Path | None, as_json: bool = False) -> None:
    """``repair --line-endings``: restore LF endings when the chain then verifies."""
    with people_errors():
        store = open_ledger(ledger)
        backup = store.repair_line_endings(game)
        events = store.verify(game).events
    if as_json:
        print_json(repaired_json(game, backup, events))
    elif backup is None:
        out.print(f"Game {game} has no CRLF line endings; nothing changed.")
    else:
        out.print(f"Restored the line endings of game {game}; every hash matches again. The "
                  f"original is kept as {backup}.")


def refuse_unrepairable(store: Ledger, game: str) -> None:
    """Fail, changing nothing, when the log has a bad line that is not a crash's torn tail."""
    try:
        store.records(game)
    except TornTail:
        return
    except Damaged as damage:
        seq = damage.seq
        good = (f"or go on from the last good event with `tabletape fork {game} --at "
                f"seq={seq - 1}`" if seq > 1 else "no event before it verified")
        fail(f"repair only cuts what a crash left half-written at the end of a log (a torn "
             f"line, an append cut short); game {game} fails verification at event {seq}: "
             f"{damage.problem}, which no crash leaves, so nothing was changed. Restore the log "
             f"from a backup or an exported copy, {good}", ILLEGAL_EXIT)


@app.command()
def demo(
    game_kind: Annotated[str, typer.Option("--game", help="Which game's example "
                                           "(see `tabletape games`).")] = "risk-strike",
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Record an example game into the ledger and show it: start here."""
    import io

    from rich.console import Console

    from tabletape.replay.demo import run_demo

    shown = Console(file=io.StringIO()) if as_json else out  # --json: the game id only
    with people_errors():
        game = run_demo(open_ledger(ledger), shown, find_game(game_kind).name)
    if as_json:
        print_json({"game": game})


@app.command()
def play(game: GameArgument, ledger: LedgerOption = None) -> None:
    """Interactive prompt: see the game, record actions, undo; tab completes names. With
    standard input not a terminal (`play GAME < actions.txt`), records its lines as a batch."""
    if not sys.stdin.isatty():
        from tabletape.batch import record_lines

        raise typer.Exit(record_lines(open_ledger(ledger), game, sys.stdin.buffer))
    from tabletape.prompt import Prompt

    with people_errors():
        Prompt(open_ledger(ledger), game, out, resume=resume_command(game, ledger)).run()


def resume_command(game: str, ledger: Path | None) -> str:
    """The command that opens this prompt again (with ``--ledger`` unless the environment
    names that ledger already)."""
    import os
    import shlex

    command = f"tabletape play {shlex.quote(game)}"
    if ledger is not None and str(ledger) != os.environ.get("TABLETAPE_LEDGER"):
        command += f" --ledger {shlex.quote(str(ledger))}"
    return command


@app.command()
def simulate(
    kind: Annotated[str, typer.Argument(help="Game kind (see `tabletape games`).")],
    games_count: Annotated[int, typer.Option("--games", "-n", min=1,
                                             help="How many games the bot plays.")] = 10,
    seed: Annotated[int, typer.Option(help="Same seed, byte-identical logs.")] = 0,
    players: Annotated[int | None, typer.Option(help="Players per game (default: fewest).")] = None,
    option: Annotated[list[str] | None, typer.Option("--option", "-o",
                                                     help="KEY=VALUE setup option.")] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Let the game's bot play whole games into the ledger (deterministic for a seed)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from tabletape.replay.simulate import simulate as run_simulation

    store = open_ledger(ledger)
    with people_errors(), Progress(
        "[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
        TimeRemainingColumn(), console=err, transient=True, disable=as_json,
    ) as progress:
        task = progress.add_task(f"Simulating {kind}", total=games_count)
        ids = run_simulation(store, kind, games=games_count, seed=seed, players=players,
                             options=parse_options(option or []),
                             progress=lambda done: progress.update(task, completed=done))
    if as_json:
        print_json({"games": ids})
        return
    out.print(f"Recorded {render.plural(len(ids), 'bot game')} into {store.root}: "
              + (ids[0] if len(ids) == 1 else f"{ids[0]} … {ids[-1]}"))
