"""Moving game logs between ledgers: export a verified log, import one after checking it.

Import verifies a log file the way ``Ledger.verify`` verifies a stored one (every line decodes,
seqs are contiguous, each line's hash covers its bytes and chains to the line before) and
refuses a game already in the ledger, under its id or any other.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import msgspec

from ledger.codec import GENESIS_HASH, HASH_FIELD, SEALED_TAIL, Record, decode_line
from ledger.events import GameStarted
from ledger.store import Ledger, LedgerError, fsync_dir, line_problem


class TransferError(LedgerError):
    """A log that cannot be imported or exported; the message is meant for people."""


_record_decoder = msgspec.json.Decoder(Record)


class Imported(msgspec.Struct, frozen=True):
    """One imported log (``import --json``)."""

    game: str
    kind: str
    events: int
    source: str


def verify_log_bytes(data: bytes, name: str) -> int:
    """Check a whole log file; return its event count or raise :class:`TransferError`."""
    if not data:
        raise TransferError(f"{name} is empty")
    if not data.endswith(b"\n"):
        raise TransferError(f"{name} ends with a torn line (no newline after the last event)")
    lines = data[:-1].split(b"\n")
    seq = intact_lines(data, lines)
    if seq is None:  # something is wrong: find the first bad line and say what it is
        prev, seq = GENESIS_HASH, 0
        for line in lines:
            seq += 1
            problem = line_problem(line, seq, prev)
            if problem:
                raise TransferError(f"{name} is not an intact log: event {seq}: {problem}")
            prev = line[-66:-2].decode()
    first = decode_line(data[: data.index(b"\n")])
    if first.type != "game-started":
        raise TransferError(f"{name} does not start with a game-started event")
    return seq


def intact_lines(data: bytes, lines: list[bytes]) -> int | None:
    """The event count when every line passes ``line_problem``'s checks, else None.

    The same checks, made fast: the file decodes in one call, then each line's hash and link
    are compared; the caller words the refusal with ``line_problem`` when any check fails.
    """
    try:
        records = _record_decoder.decode_lines(data)
    except msgspec.DecodeError:
        return None
    if len(records) != len(lines):
        return None
    if min(map(len, lines)) <= SEALED_TAIL:
        return None
    sha256, start = hashlib.sha256, -SEALED_TAIL
    stated = [line[-66:-2] for line in lines]
    if ([line[start:start + 9] for line in lines] != [HASH_FIELD] * len(lines)
            or [sha256(line[:start] + b"}").hexdigest().encode() for line in lines] != stated
            or [record.seq for record in records] != list(range(1, len(lines) + 1))
            or [record.prev.encode() for record in records]
            != [GENESIS_HASH.encode(), *stated[:-1]]):
        return None
    return len(lines)


def started_of(data: bytes) -> GameStarted:
    return msgspec.json.decode(decode_line(data[: data.index(b"\n")]).payload, type=GameStarted)


def first_line(path: Path) -> bytes:
    with open(path, "rb") as handle:
        return handle.readline().rstrip(b"\n")


def find_same_game(ledger: Ledger, first: bytes,
                   seen: dict[str, bytes] | None = None) -> str | None:
    """The id of a game in ``ledger`` whose log starts with the line ``first``, if any.

    ``seen`` (game id -> first line) remembers first lines across calls: a log's first line
    never changes, so importing many files reads each stored game's first line once, not once
    per file.
    """
    if seen is None:
        for game in ledger.game_ids():
            if first_line(ledger.path(game)) == first:
                return game
        return None
    try:
        names = os.listdir(ledger.games_dir)
    except FileNotFoundError:
        return None
    matches = []
    for name in names:
        if not name.endswith(".jsonl"):
            continue
        game = name[: -len(".jsonl")]
        line = seen.get(game)
        if line is None:
            line = seen[game] = first_line(ledger.path(game))
        if line == first:
            matches.append(game)
    if len(matches) > 1:  # the oldest, as ledger.game_ids() orders them
        return next(game for game in ledger.game_ids() if game in matches)
    return matches[0] if matches else None


def import_log(ledger: Ledger, source: Path, game_id: str | None = None,
               *, seen: dict[str, bytes] | None = None) -> Imported:
    """Copy the verified log ``source`` into ``ledger`` as ``game_id`` (default: its file name).

    Importing several files into one ledger, pass the same empty dict as ``seen`` to each call
    (see :func:`find_same_game`).
    """
    try:
        data = source.read_bytes()
    except OSError as error:
        raise TransferError(f"cannot read {source}: {error.strerror}") from None
    events = verify_log_bytes(data, str(source))
    game = game_id or source.name.removesuffix(".jsonl")
    target = ledger.path(game)
    same = find_same_game(ledger, data[: data.index(b"\n")], seen)
    if same is not None:
        stored = ledger.path(same).read_bytes()
        how = "the same log" if stored == data else (
            "an earlier part of it" if data.startswith(stored) else "a different version of it")
        raise TransferError(f"{source} is already in ledger {ledger.root} as game {same} "
                            f"({how}); nothing imported")
    if target.exists():
        raise TransferError(f"game id '{game}' is already used in ledger {ledger.root} by another "
                            "game; import it under another id with --as NEW-ID")
    write_new(ledger, target, data)
    return Imported(game, started_of(data).kind, events, str(source))


def write_new(ledger: Ledger, target: Path, data: bytes) -> None:
    """Write ``target`` whole or not at all, never over an existing file."""
    ledger.games_dir.mkdir(parents=True, exist_ok=True)
    scratch = target.with_name(f".{target.name}.importing")
    with open(scratch, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    try:
        os.link(scratch, target)
    except FileExistsError:
        raise TransferError(f"game id '{target.stem}' was taken while importing") from None
    finally:
        scratch.unlink()
    fsync_dir(ledger.games_dir)


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
