"""Moving game logs between ledgers: export a verified log, import one after checking it.

Import verifies a log file the way ``Ledger.verify`` verifies a stored one (every line decodes,
seqs are contiguous, each line's hash covers its bytes and chains to the line before) and
refuses a game already in the ledger, under its id or any other.

A game is the same game when its identity (the ``uid`` of its first event,
:mod:`tabletape.ledger.identity`) and its chain (its first line) match a stored game's: it is
refused as a duplicate. A log whose handle (file name) is taken by a game of another identity is
another game with the same handle: it is imported under a new handle, drawn as ``new`` draws one,
and the outcome says so (``renamed_from``). A handle chosen with ``--as`` is never changed: a
taken one is refused.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import sys
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import msgspec

from tabletape.ledger.codec import GENESIS_HASH, Record, decode_line
from tabletape.ledger.events import GameStarted
from tabletape.ledger.identity import game_uid
from tabletape.ledger.store import Ledger, LedgerError, chain_intact, fsync_dir, line_problem


class TransferError(LedgerError):
    """A log that cannot be imported or exported; the message is meant for people."""


_record_decoder = msgspec.json.Decoder(Record)


class Imported(msgspec.Struct, frozen=True):
    """One imported log (``import --json``)."""

    game: str
    """The handle it was imported under."""
    kind: str
    events: int
    source: str
    uid: str = ""
    """The game's global identity."""
    renamed_from: str | None = None
    """The handle it came with (its file name) when another game here already had it."""


class _Identity(msgspec.Struct):
    uid: str = ""


def line_uid(first: bytes) -> str:
    """The identity of the game whose log starts with the line ``first`` ("" if unreadable)."""
    try:
        record = decode_line(first)
        stored = msgspec.json.decode(record.payload, type=_Identity).uid
    except (msgspec.DecodeError, ValueError):
        return ""
    return game_uid(stored, record.hash)


def verify_log_bytes(data: bytes, name: str) -> int:
    """Check a whole log file; return its event count or raise :class:`TransferError`."""
    return len(verified_records(data, name))


def verified_records(data: bytes, name: str) -> list[Record]:
    """The records of a whole log file whose chain verifies; else :class:`TransferError`."""
    if not data:
        raise TransferError(f"{name} is empty")
    if not data.endswith(b"\n"):
        raise TransferError(f"{name} ends with a torn line (no newline after the last event)")
    lines = data[:-1].split(b"\n")
    records = intact_records(data, lines)
    if records is None:  # something is wrong: find the first bad line and say what it is
        prev = GENESIS_HASH
        for seq, line in enumerate(lines, 1):
            problem = line_problem(line, seq, prev)
            if problem:
                raise TransferError(f"{name} is not an intact log: event {seq}: {problem}")
            prev = line[-66:-2].decode()
        records = [decode_line(line) for line in lines]
    if records[-1].more:
        raise TransferError(f"{name} ends with an append cut short by a crash (run repair on the "
                            "ledger it came from)")
    if records[0].type != "game-started":
        raise TransferError(f"{name} does not start with a game-started event")
    return records


def intact_records(data: bytes, lines: list[bytes]) -> list[Record] | None:
    """The records when every line passes ``line_problem``'s checks, else None.

    The file decodes in one call and ``chain_intact`` compares its hashes, links and seqs a
    whole file at a time; the caller words the refusal with ``line_problem`` when any fails.
    """
    try:
        records = _record_decoder.decode_lines(data)
    except msgspec.DecodeError:
        return None
    return records if chain_intact(lines, records) else None


def started_problem(records: list[Record]) -> str:
    """Why the first record is not a game-started event tabletape can read, or ``""``."""
    try:
        msgspec.json.decode(records[0].payload, type=GameStarted)
    except msgspec.ValidationError as error:
        return f"its game-started event is not valid ({error})"
    return ""


def first_line(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.readline().rstrip(b"\n")


def find_same_game(ledger: Ledger, first: bytes,
                   seen: dict[str, bytes] | None = None) -> str | None:
    """The id of a game in ``ledger`` whose log starts with the line ``first``, if any.

    ``seen`` (game id -> first line) remembers first lines across calls: a log's first line
    never changes, so importing many files reads each stored game's first line once, not once
    per file. Entries of ``games/`` that are not readable logs (a folder, a dangling link) are
    not games and are passed over.
    """
    lines = first_lines(ledger, {} if seen is None else seen)
    return oldest(ledger, [game for game, line in lines.items() if line == first])


def find_same_uid(ledger: Ledger, uid: str, seen: dict[str, bytes] | None = None,
                  uids: dict[str, str] | None = None) -> str | None:
    """The id of a game in ``ledger`` whose identity is ``uid``, if any (``seen``: as for
    :func:`find_same_game`; ``uids`` remembers each game's identity across calls the same way).
    """
    lines = first_lines(ledger, {} if seen is None else seen)
    known = {} if uids is None else uids
    for game, line in lines.items():
        if game not in known:
            known[game] = line_uid(line)
    return oldest(ledger, [game for game in lines if known[game] == uid])


def first_lines(ledger: Ledger, seen: dict[str, bytes]) -> dict[str, bytes]:
    """The first line of every readable log of ``ledger`` (game id -> line), read into ``seen``
    once."""
    try:
        names = os.listdir(ledger.games_dir)
    except FileNotFoundError:
        return {}
    lines = {}
    for name in names:
        if not name.endswith(".jsonl") or name.startswith("."):
            continue
        game = name[: -len(".jsonl")]
        line = seen.get(game)
        if line is None:
            try:
                line = seen[game] = first_line(ledger.games_dir / name)
            except OSError:
                continue
        lines[game] = line
    return lines


def oldest(ledger: Ledger, games: list[str]) -> str | None:
    """The oldest of ``games``, as ``ledger.game_ids()`` orders them, or None."""
    if len(games) > 1:
        return next(game for game in ledger.game_ids() if game in games)
    return games[0] if games else None


GameCheck = Callable[[str, list[Record]], str]
"""Why the verified records of game ``id`` are not a game this install can replay, or ``""``.

The ledger knows no game's rules: the import command passes one (see
``tabletape.queries.transfer.game_log_problem``)."""


class Candidate(NamedTuple):
    """A file checked and ready to be linked into the ledger."""

    imported: Imported
    data: bytes
    first: bytes
    scratch: Future[None] | None


STDIN = "-"
"""The file name that means standard input (``tabletape import - --as ID``)."""


def shown(source: Path) -> str:
    """A log file's name as messages show it (``-`` is standard input).

    >>> shown(Path("-")), shown(Path("rs-k7pq.jsonl"))
    ('standard input', 'rs-k7pq.jsonl')
    """
    return "standard input" if str(source) == STDIN else str(source)


def read_log_file(source: Path) -> bytes:
    """The bytes of a log file to import (``-``: standard input); :class:`TransferError` if it is
    not a readable file."""
    try:
        if str(source) == STDIN:
            return sys.stdin.buffer.read()
        if not stat.S_ISREG(source.stat().st_mode):
            raise TransferError(f"{source} is not a regular file (a folder, a device or a pipe); "
                                "name a .jsonl log file")
        return source.read_bytes()
    except OSError as error:
        raise TransferError(f"cannot read {shown(source)}: {error.strerror}") from None


class ImportBatch:
    """The imports of one command (``tabletape import FILE...``): all of them or none.

    :meth:`add` checks a file completely (its chain, its first event, its id, and ``check``:
    that its events are its game's) and refuses it with :class:`TransferError`; nothing is
    linked into the ledger until :meth:`commit`, which links every checked file or, when any
    was refused or a link fails, none. Each file is fsynced before it is linked, and the games
    folder once at the end, so after a crash every imported file is whole or absent. Used as a
    context manager, a batch never committed leaves nothing behind.
    """

    def __init__(self, ledger: Ledger, check: GameCheck | None = None) -> None:
        self.ledger = ledger
        self.check = check
        self.seen: dict[str, bytes] = {}
        self.uids: dict[str, str] = {}
        self.ready: dict[str, Candidate] = {}
        self.refused: dict[str, str] = {}

    def add(self, source: Path, game_id: str | None = None) -> Imported:
        """Check ``source`` for import as ``game_id`` (default: its file name); link nothing."""
        try:
            candidate = self.checked(source, game_id)
        except TransferError as error:
            self.refused[str(source)] = str(error)
            raise
        self.ready[candidate.imported.game] = candidate
        return candidate.imported

    def checked(self, source: Path, game_id: str | None) -> Candidate:
        data = read_log_file(source)
        game = game_id or source.name.removesuffix(".jsonl")
        handle = game
        try:
            self.ledger.path(game)
        except LedgerError as error:
            raise TransferError(f"{shown(source)}: {error}") from None
        early = start_scratch(self.ledger, game, data) if game not in self.ready else None
        try:
            records = verified_records(data, shown(source))
            problem = started_problem(records) or (self.check(game, records) if self.check
                                                   else "")
            if problem:
                raise TransferError(f"{shown(source)} is not a game this ledger can replay: "
                                    f"{problem}")
            first = data[: data.index(b"\n")]
            uid = game_uid(msgspec.json.decode(records[0].payload, type=GameStarted).uid,
                           records[0].hash)
            self.refuse_clash(source, first, data, uid)
            if self.handle_taken(source, game, chosen=game_id is not None):
                game = self.fresh_handle(game)
                if early is not None:  # written under the taken handle's scratch name
                    discard_scratch(early, scratch_path(self.ledger.path(handle)))
                    early = None
            if early is not None:
                early.result()  # the scratch copy is written and fsynced (or raises why not)
        except BaseException:
            if early is not None:
                discard_scratch(early, scratch_path(self.ledger.path(handle)))
            raise
        kind = msgspec.json.decode(records[0].payload, type=GameStarted).kind
        imported = Imported(game, kind, len(records), str(source), uid,
                            handle if game != handle else None)
        return Candidate(imported, data, first, early)

    def refuse_clash(self, source: Path, first: bytes, data: bytes, uid: str) -> None:
        """Refuse the same game again: one already in the ledger or in this batch (same
        identity and same first line), or one claiming a stored game's identity with another
        chain."""
        twin = next((c for c in self.ready.values()
                     if c.first == first or c.imported.uid == uid), None)
        if twin is not None:
            raise TransferError(f"{shown(source)} is the same game as "
                                f"{twin.imported.source} (identity {uid}), given twice; import "
                                "it once")
        same = find_same_game(self.ledger, first, self.seen)
        if same is not None:
            stored = self.ledger.path(same).read_bytes()
            how = "the same log" if stored == data else (
                "a longer version of it: tabletape does not extend a stored log by import"
                if data.startswith(stored) else "a different version of it")
            raise TransferError(f"{shown(source)} is already in ledger {self.ledger.root} as game "
                                f"{same} ({how}); nothing imported")
        claimed = find_same_uid(self.ledger, uid, self.seen, self.uids)
        if claimed is not None:
            raise TransferError(f"{shown(source)} has the identity {uid} of game {claimed} in "
                                f"ledger {self.ledger.root}, but another first event: an altered "
                                "copy of it; nothing imported")

    def handle_taken(self, source: Path, game: str, *, chosen: bool) -> bool:
        """True when ``game`` is the handle of another game here or in this batch; a handle
        chosen with ``--as`` is refused instead."""
        taken = game in self.ready or self.ledger.path(game).exists()
        if taken and chosen:
            raise TransferError(f"game id '{game}' is already used in ledger "
                                f"{self.ledger.root} by another game; import {shown(source)} "
                                "under another id with --as NEW-ID")
        return taken

    def fresh_handle(self, game: str) -> str:
        """A handle free here and in this batch, with ``game``'s prefix (``rs`` of ``rs-k7pq``)."""
        prefix = game.split("-")[0] or "game"
        while (fresh := self.ledger.new_game_id(prefix)) in self.ready:
            pass  # pragma: no cover - drawn twice in one batch
        return fresh

    def commit(self) -> list[Imported]:
        """Link every checked file into the ledger, or none (then raise :class:`TransferError`).

        Refused when any file was refused; a link that fails (an id taken meanwhile, a full
        disk) unlinks the ones made before it.
        """
        if self.refused:
            self.discard()
            raise TransferError(f"nothing was imported: {len(self.refused)} of "
                                f"{len(self.refused) + len(self.ready)} files were refused")
        linked: list[Path] = []
        try:
            if self.ready:
                self.ledger.games_dir.mkdir(parents=True, exist_ok=True)
            for game, candidate in self.ready.items():
                target = self.ledger.path(game)
                if candidate.scratch is None:
                    write_synced(scratch_path(target), candidate.data)
                link_into_place(scratch_path(target), target)
                linked.append(target)
        except BaseException:
            for target in linked:
                target.unlink(missing_ok=True)
            self.discard()
            raise
        finally:
            if linked:
                fsync_dir(self.ledger.games_dir)
        done = [candidate.imported for candidate in self.ready.values()]
        self.ready.clear()
        return done

    def discard(self) -> None:
        """Remove the scratch copies of every file not linked."""
        for game, candidate in self.ready.items():
            discard_scratch(candidate.scratch, scratch_path(self.ledger.path(game)))
        self.ready.clear()

    def __enter__(self) -> ImportBatch:
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()


def import_log(ledger: Ledger, source: Path, game_id: str | None = None,
               check: GameCheck | None = None) -> Imported:
    """Import the one log ``source`` into ``ledger`` as ``game_id`` (default: its file name)."""
    with ImportBatch(ledger, check) as batch:
        imported = batch.add(source, game_id)
        batch.commit()
    return imported


def scratch_path(target: Path) -> Path:
    """Where ``target`` is written before it is linked into place."""
    return target.with_name(f".{target.name}.importing")


def write_synced(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` and fsync it."""
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


_writer: ThreadPoolExecutor | None = None
"""One thread that writes and fsyncs scratch copies while the main thread verifies."""


def start_scratch(ledger: Ledger, game: str, data: bytes) -> Future[None] | None:
    """Begin writing and fsyncing the scratch copy of ``game`` in the background, or None.

    The fsync waits on the disk while the log is verified, instead of after it. Only when the
    games folder already exists (a refused import creates nothing); the caller waits for the
    result before linking, and discards the copy if the import is refused.
    """
    global _writer
    if not data or not ledger.games_dir.is_dir():
        return None
    scratch = scratch_path(ledger.path(game))
    if _writer is None:
        _writer = ThreadPoolExecutor(1, thread_name_prefix="tabletape-import")
    return _writer.submit(write_synced, scratch, data)


def discard_scratch(pending: Future[None] | None, scratch: Path) -> None:
    """Wait for a scratch copy of a refused import to be written (if under way), remove it."""
    if pending is not None:
        with contextlib.suppress(OSError):
            pending.result()
    with contextlib.suppress(OSError):
        scratch.unlink()


def link_into_place(scratch: Path, target: Path) -> None:
    """Link the fsynced ``scratch`` as ``target`` (never over an existing file), remove it."""
    try:
        os.link(scratch, target)
    except FileExistsError:
        raise TransferError(f"game id '{target.stem}' was taken while importing; nothing "
                            "was imported") from None
    finally:
        scratch.unlink()


def export_log(ledger: Ledger, game: str, target: Path) -> int:
    """Copy the log of ``game`` byte for byte to ``target``; return its event count."""
    source = ledger.existing_path(game)
    verification = ledger.verify(game)
    if not verification.ok:
        raise TransferError(f"game {game} fails verification at event "
                            f"{verification.first_bad_seq}: {verification.problem}; "
                            "repair it before exporting")
    if target.exists() and target.is_dir():
        target = target / source.name
    shutil.copyfile(source, target)
    return verification.events
