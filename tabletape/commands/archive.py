"""``tabletape archive`` and ``tabletape delete``: put a game away, bring it back, or delete one
recorded by mistake (:mod:`tabletape.ledger.archive` does the work)."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer
from rich.markup import escape

from tabletape.cli import (
    ILLEGAL_EXIT,
    USAGE_EXIT,
    GameArgument,
    JsonOption,
    LedgerOption,
    fail,
    open_ledger,
    out,
    people_errors,
    print_json,
    shown,
)
from tabletape.ledger import Ledger
from tabletape.ledger.archive import archive_game, delete_game, restore_game
from tabletape.ledger.heads import fingerprint

app = typer.Typer()


@app.command()
def archive(
    game: GameArgument,
    restore: Annotated[bool, typer.Option(
        "--restore", help="Bring an archived game back into the catalog, stats and "
                          "exports.")] = False,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Take a game out of the catalog, stats, exports and `list` (its log kept as it is:
    `verify` still checks it, ledger heads still cover it); --restore brings it back."""
    store = open_ledger(ledger)
    with people_errors():
        store.require()
        entry = restore_game(store, game) if restore else archive_game(store, game)
    result = {"game": game, "archived": not restore, "at": entry.at, "seq": entry.seq,
              "head": fingerprint(entry.seq, entry.head) if entry.head else ""}
    if as_json:
        print_json(result)
    elif restore:
        out.print(f"Restored game [bold cyan]{shown(game)}[/]: back in the catalog, stats and "
                  "exports.", highlight=False)
    else:
        out.print(f"Archived game [bold cyan]{shown(game)}[/] at its head {result['head']}: out "
                  "of the catalog, stats, exports and `list` (see it with [bold]tabletape list "
                  f"--archived[/]); bring it back with [bold]tabletape archive {shown(game)} "
                  "--restore[/].", highlight=False)


@app.command()
def delete(
    game: GameArgument,
    yes: Annotated[bool, typer.Option(
        "--yes", "-y", help="Delete without asking (for scripts).")] = False,
    ledger: LedgerOption = None,
    as_json: JsonOption = False,
) -> None:
    """Delete a game recorded by mistake, after a confirmation: its log goes, and the ledger's
    head history says when (so `verify --all --head` of an older head says it was deleted)."""
    store = open_ledger(ledger)
    with people_errors():
        store.require()
        store.existing_path(game)  # an unknown game: "did you mean"
        events = len(store.salvage(game)[0])
    if not yes:
        confirm(store, game, events)
    with people_errors():
        done = delete_game(store, game)
    deletion = done.deletion
    result: dict[str, Any] = {
        "game": game, "uid": deletion.uid, "events": deletion.seq, "at": deletion.at,
        "head": fingerprint(deletion.seq, deletion.hash) if deletion.hash else "",
        "ledger_head": done.head.fingerprint}
    if as_json:
        print_json(result)
        return
    out.print(f"Deleted game [bold cyan]{shown(game)}[/] ({events} events, head "
              f"{result['head']}). The ledger's head is now {done.head.fingerprint}; its history "
              "says the game was deleted, so an older ledger head still verifies.",
              highlight=False)


def confirm(store: Ledger, game: str, events: int) -> None:
    """Ask before deleting ``game``; with no terminal to ask on, refuse (``--yes`` is needed)."""
    if sys.stdin is None or sys.stdin.closed or not sys.stdin.isatty():  # none, or no terminal
        fail(f"delete asks before it deletes, and standard input is not a terminal: pass --yes "
             f"to delete game {game} ({events} events) without asking", USAGE_EXIT)
    question = (f"Delete game {escape(game)} ({events} events) from {escape(str(store.root))}? "
                "This cannot be undone")
    try:
        agreed = typer.confirm(question, default=False)
    except typer.Abort:
        agreed = False
    if not agreed:
        fail(f"nothing deleted: game {game} is as it was", ILLEGAL_EXIT)
