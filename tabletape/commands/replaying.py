"""Replay and audit commands: replay, fork, diff, note, audit.

Thin like :mod:`tabletape.commands.recording`: parsing and printing here; folding in
:mod:`tabletape.replay.engine`, telling in
:mod:`tabletape.replay.narrate`, checking in :mod:`tabletape.replay.audit`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import msgspec
import typer
from rich.markup import escape

from tabletape.cli import (
    ILLEGAL_EXIT,
    USAGE_EXIT,
    GameArgument,
    JsonOption,
    LedgerOption,
    err,
    fail,
    is_stdio,
    open_ledger,
    out,
    people_errors,
    print_json,
    warn,
)
from tabletape.commands.recording import NoPagerOption
from tabletape.ledger import GameStarted, Noted, Record
from tabletape.notes import note_echo, note_problem
from tabletape.replay import render
from tabletape.replay.audit import audit_game, audit_view, audits_view
from tabletape.replay.diff import changes, diff_table
from tabletape.replay.engine import (
    POINT_SYNTAX,
    Replay,
    fork_game,
    open_replay,
    parse_point,
)
from tabletape.replay.fairplay import UNDONE_ROLLS
from tabletape.replay.narrate import Narrator, narrate_game, narration_view
from tabletape.replay.recording import open_game, resolve_player
from tabletape.replay.stepper import Stepper, frame
from tabletape.rules.registry import find_game

app = typer.Typer()

AtOption = Annotated[str | None, typer.Option("--at", help=f"A point: {POINT_SYNTAX}.")]


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


@app.command()
def replay(
    game: GameArgument,
    at: AtOption = None,
    narrate: Annotated[bool, typer.Option("--narrate", help="The whole game as text, one line "
                                          "per event (up to --at when given).")] = False,
    html: Annotated[Path | None, typer.Option("--html", help="Write the game as a static HTML "
                                              "page: its narration, then the table at --at "
                                              "(default: the end); - is standard output.")
                    ] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
    no_pager: NoPagerOption = False,
) -> None:
    """Step through a game: → ← events, n p turns, g go to a turn, q quit.

    Not in a terminal, or with --at, it prints the game at that point instead.
    With --json, that is the `status --json` shape. --narrate tells the whole game;
    --html FILE writes it as a page to share.
    """
    with people_errors():
        store = open_ledger(ledger)
        records = store.records(game)
        if html is not None:
            write_html(game, records, at, html)
            if as_json and not is_stdio(html):
                print_json({"game": game, "file": str(html)})
            elif not is_stdio(html):
                out.print(f"Wrote {escape(str(html))}")
            return
        if narrate:
            print_narration(game, records, at, as_json, pager=not no_pager)
            return
        opened = Replay(game, records)
        if at is None and not as_json and interactive():
            Stepper(opened, out).run()
            return
        position = opened.position(parse_point(at or "end"))
    if as_json:
        print_json(render.status_json(opened.folded_at(position)))
        return
    out.print(frame(opened, position, Narrator(opened.rules, opened.records)))


def write_html(game: str, records: list[Record], at: str | None, target: Path) -> None:
    """``replay --html``: the replay page (:func:`tabletape.replay.page.game_page`), starting at
    ``at``, written whole or not at all (``-``: standard output)."""
    from tabletape.ledger.store import write_atomic
    from tabletape.queries.series_charts import log_charts  # queries uses replay, not back
    from tabletape.replay.page import game_page

    with err.status(f"Drawing the table at each of {len(records)} events…"):  # a terminal only
        page = game_page(game, records, at=at, charts=log_charts(game, records))
    if is_stdio(target):
        sys.stdout.write(page)
        return
    write_atomic(target, page)


def print_narration(game: str, records: list[Record], at: str | None, as_json: bool,
                    *, pager: bool = True) -> None:
    """``replay --narrate``: every event told, up to ``at`` when given (paged on a terminal)."""
    lines = narrate_game(game, records)
    if at is not None:
        opened = Replay(game, records)
        last_seq = opened.seq(opened.position(parse_point(at)))
        lines = [line for line in lines if line.seq <= last_seq]
    if as_json:
        print_json(msgspec.to_builtins(lines))
        return
    started = msgspec.json.decode(records[0].payload, type=GameStarted)
    title = f"{find_game(started.kind).title} · {game} · {', '.join(started.players)}"
    with render.paged(out, pager=pager):
        out.print(narration_view(title, lines), highlight=False)


@app.command()
def fork(
    game: GameArgument,
    at: Annotated[str, typer.Option("--at", help=f"Repeat the game up to here: {POINT_SYNTAX}.",
                                    show_default=False)],
    new_id: Annotated[str | None, typer.Option("--id", help="Choose the new game's id.")] = None,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Start a what-if game that repeats GAME up to a point; record the new line there."""
    with people_errors():
        store = open_ledger(ledger)
        made = fork_game(store, game, parse_point(at), new_id)
        folded = open_game(store, made.game)
    if made.damaged:
        warn(f"{made.damaged}; the fork repeats only events that verified")
    if as_json:
        print_json({"game": made.game, "parent": made.parent, "fork_seq": made.fork_seq,
                    "carried_undos": made.carried_undos, "status": render.status_json(folded)})
        return
    carried = (f" (and {made.carried_undos} later undo(s) of those events)"
               if made.carried_undos else "")
    out.print(f"Forked [bold cyan]{made.game}[/] from {game}: it repeats events 1 to "
              f"{made.fork_seq}{carried}.")
    out.print(render.headline(folded))
    out.print(f"Record the what-if line with [bold]tabletape record {made.game} …[/] or "
              f"[bold]tabletape play {made.game}[/]")


@app.command()
def diff(
    game: GameArgument,
    from_point: Annotated[str, typer.Option("--from", help="Earlier point (default start).")] = (
        "start"),
    to_point: Annotated[str, typer.Option("--to", help="Later point (default end).")] = "end",
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """What changed between two points of a game (e.g. --from turn=3 --to turn=5)."""
    with people_errors():
        opened = open_replay(open_ledger(ledger), game)
        start = opened.position(parse_point(from_point))
        end = opened.position(parse_point(to_point))
        before = render.status_json(opened.folded_at(start))
        after = render.status_json(opened.folded_at(end))
    changed = changes(before, after)
    if as_json:
        print_json({"game": game, "from": {"point": from_point, "seq": before["seq"]},
                    "to": {"point": to_point, "seq": after["seq"]},
                    "changes": msgspec.to_builtins(changed)})
        return
    out.print(f"[bold]{game}[/]: {from_point} (seq {before['seq']}) → {to_point} "
              f"(seq {after['seq']})", highlight=False)
    out.print(diff_table(changed))


@app.command()
def note(
    game: GameArgument,
    text: Annotated[str, typer.Argument(help="The note.", show_default=False)],
    at: Annotated[str | None, typer.Option("--at", help="The event it is about: "
                                           f"{POINT_SYNTAX}.")] = None,
    by: Annotated[str, typer.Option("--by", help="Who writes it (a player, or table).")] = (
        "table"),
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Add a note to a game's log (shown in replay and narration; the rules ignore it)."""
    with people_errors():
        store = open_ledger(ledger)
        problem = note_problem(text)
        if problem:
            fail(problem, USAGE_EXIT)
        head = store.head(game)
        about = None
        if at is not None:
            opened = open_replay(store, game)
            about = opened.seq(opened.position(parse_point(at)))
        writer = resolve_player(by, (*store.started(game).players, "table"))
        (stored,) = store.append(game, [(writer, Noted(text=text.strip(), about=about))],
                                 expected_seq=head.seq)
    if as_json:
        print_json({"seq": stored.seq, "actor": writer, "text": text.strip(), "about": about})
        return
    out.print(note_echo(stored.seq, writer, text.strip(), about), highlight=False)


@app.command()
def audit(
    game: Annotated[str | None, typer.Argument(help="Game id (or use --all).")] = None,
    all_games: Annotated[bool, typer.Option("--all", help="Audit every game.")] = False,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
    undone_rolls: Annotated[int, typer.Option(
        "--undone-rolls", min=0, metavar="N",
        help=f"Flag a player with more than N retracted rolls in a game (a marked default: "
             f"{UNDONE_ROLLS}; no rulebook gives one).")] = UNDONE_ROLLS,
) -> None:
    """Prove a game intact and legal: chain, rules, undos, times, conservation, dice, and fair
    play (each roll entered or derived; tabletape's re-derived from the revealed secret, the
    commitment checked; retracted rolls and what came after)."""
    if not game and not all_games:
        fail("name a game or pass --all", USAGE_EXIT)
    with people_errors():
        store = open_ledger(ledger)
        ids = store.chosen(None if all_games else game or "")
        reports = [audit_game(store, one, undone_rolls) for one in ids]
    if as_json:
        print_json(msgspec.to_builtins(reports if all_games else reports[0]))
    else:
        out.print(audits_view(reports) if all_games else audit_view(reports[0]))
    if not all(report.ok for report in reports):
        raise typer.Exit(ILLEGAL_EXIT)
