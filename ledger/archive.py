"""Archiving, restoring and deleting games: what ``tabletape archive`` and ``delete`` do.

An **archived** game keeps its log in ``games/``, never edited: the ledger lists it in
``archived.json`` (:func:`tabletape.ledger.store.read_archived`), and the catalog, ``list``, the
stats and the exports leave it out until it is restored. Ledger heads and ``verify --all`` still
cover it, so archiving changes no head. The list is written whole or not at all (a scratch file
renamed over it), under a lock, so a kill leaves the old list or the new one.

A **deleted** game's log is removed, but first the ledger's head history records the deletion
(the game, its head then, when, by which ledger) with the ledger's head without it: a ledger head
noted before still verifies, its game said deleted (``verify --all --head``), never rewritten.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import msgspec

from tabletape.ledger.codec import utc_stamp
from tabletape.ledger.errors import USAGE_EXIT
from tabletape.ledger.heads import (
    Deletion,
    LedgerHead,
    current_heads,
    ledger_head,
    ledger_id,
    log_uid,
    remember_deletion,
)
from tabletape.ledger.store import (
    ArchivedGame,
    Ledger,
    LedgerError,
    archived_path,
    exclusive,
    locked,
    read_archived,
    read_head,
    trusted,
    write_atomic,
)
from tabletape.ledger.text import did_you_mean

LOCK_FILE = ".archived.lock"
"""The file ``archive`` and ``restore`` lock while they rewrite the list (in the ledger)."""


class AlreadyArchived(LedgerError):
    """``archive`` of a game already archived (exit 1)."""


class NotArchived(LedgerError):
    """``archive --restore`` of a game that is not archived: unknown, or in the catalog already."""

    exit_code = USAGE_EXIT


class Deleted(msgspec.Struct, frozen=True, kw_only=True):
    """What ``delete`` did: the deletion, and the ledger's head without the game."""

    deletion: Deletion
    head: LedgerHead


@contextmanager
def list_locked(ledger: Ledger) -> Iterator[None]:
    """The ledger's archive list locked against another ``archive``/``restore``/``delete``."""
    fd = os.open(ledger.root / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        with exclusive(fd):
            yield
    finally:
        os.close(fd)


def write_list(ledger: Ledger, games: dict[str, ArchivedGame]) -> None:
    """Write the archive list whole (removed when it is empty)."""
    path = archived_path(ledger.root)
    if games:
        write_atomic(path, msgspec.json.encode(dict(sorted(games.items()))) + b"\n")
    else:
        path.unlink(missing_ok=True)


def head_now(ledger: Ledger, game: str) -> tuple[int, str, str]:
    """``(seq, hash, uid)`` of ``game``'s last event that verifies (``(0, "", "")`` when none
    does: a log damaged from its first line)."""
    records = trusted(*ledger.salvage(game))
    if not records:
        return 0, "", ""
    return records[-1].seq, records[-1].hash, log_uid(records)


def archive_game(ledger: Ledger, game: str) -> ArchivedGame:
    """Archive ``game`` (its log untouched); :class:`AlreadyArchived` if it is."""
    ledger.existing_path(game)  # an unknown game: its message says "did you mean"
    with list_locked(ledger):
        games = read_archived(ledger.root)
        if game in games:
            raise AlreadyArchived(f"game {game} is archived already (since {games[game].at}): "
                                  f"`tabletape archive {game} --restore` brings it back")
        seq, head, _ = head_now(ledger, game)
        games[game] = ArchivedGame(at=utc_stamp(), seq=seq, head=head)
        write_list(ledger, games)
    return games[game]


def restore_game(ledger: Ledger, game: str) -> ArchivedGame:
    """Bring an archived ``game`` back into the catalog, stats and exports."""
    with list_locked(ledger):
        games = read_archived(ledger.root)
        if game not in games:
            raise NotArchived(not_archived_message(ledger, game, games))
        entry = games.pop(game)
        write_list(ledger, games)
    return entry


def not_archived_message(ledger: Ledger, game: str, games: dict[str, ArchivedGame]) -> str:
    """Why ``game`` cannot be restored: it is in the ledger already, or unknown (a close id)."""
    if game in ledger.game_ids():
        return f"game {game} is not archived: it is in the catalog, stats and exports already"
    listed = ", ".join(sorted(games)) if games else "none"
    return f"no archived game '{game}'{did_you_mean(game, list(games))}; archived games: {listed}"


def delete_game(ledger: Ledger, game: str) -> Deleted:
    """Delete ``game``'s log, after recording the deletion in the ledger's head history; its
    dice secret and its place in the archive list go too. The log is locked while it goes (no
    event half-added), and a log that grew since its head was read is refused, not deleted."""
    path = ledger.existing_path(game)
    with list_locked(ledger):
        seq, head_hash, uid = head_now(ledger, game)
        heads, damaged = current_heads(ledger)
        heads.pop(game, None)
        damaged.pop(game, None)
        with locked(path) as fd:
            refuse_changed(fd, game, seq, head_hash)
            deletion = Deletion(game=game, uid=uid, seq=seq, hash=head_hash, at=utc_stamp(),
                                ledger_id=ledger_id(ledger.root, make=True))
            entry = remember_deletion(ledger.root, ledger_head(heads, damaged), deletion)
            path.unlink()
        forget(ledger, game, uid)
    return Deleted(deletion=deletion, head=entry)


def refuse_changed(fd: int, game: str, seq: int, head_hash: str) -> None:
    """Refuse to delete a log whose head is no longer the one read (an event was added)."""
    try:
        head = read_head(fd, game)
    except LedgerError:
        return  # a damaged log: its verified head was read, and is what the history keeps
    if (head.seq, head.hash) != (seq, head_hash):
        raise LedgerError(f"game {game} changed while it was being deleted (now {head.seq} "
                          "events): nothing was deleted; run the command again")


def forget(ledger: Ledger, game: str, uid: str) -> None:
    """What a deleted game leaves besides its log: its archive entry and its dice secret."""
    games = read_archived(ledger.root)
    if games.pop(game, None) is not None:
        write_list(ledger, games)
    if uid:
        with suppress(LedgerError, OSError):
            ledger.secret_path(uid).unlink(missing_ok=True)
