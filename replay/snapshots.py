"""The fold cache: a long game's ``status`` without folding its whole log again.

After a log is verified and folded, its state is kept in the ledger's cache folder,
``<ledger>/cache/folds/<game>.fold`` (msgpack, through msgspec: decoding it never runs code). A
kept fold is used only for the very bytes it was folded from: it holds the log's size and the
SHA-256 of all of them (and its head), and is used when the log read now has that size and digest
(a middle line edited without recomputing the chain keeps the head line, never the digest). When
the log has grown since, only the lines after the kept head are verified and folded, from the kept
state (unless one of them is an ``undo``, which changes the past: then the whole log is refolded).
Anything else (a shorter or changed log, a damaged, foreign or unreadable snapshot, another
tabletape or rules version, changed rules code or shipped board files) is a miss: the log is read,
verified and folded exactly as without a cache, and a damaged log is refused exactly as ever.

Every snapshot is sealed with a keyed BLAKE2b of its bytes (the key, ``cache/folds/key``, is made
once per ledger, readable by its owner only): one not sealed with this ledger's key (torn, edited,
copied from elsewhere, planted) is ignored and replaced, never decoded into a state.

The cache is only a cache: deleting ``<ledger>/cache`` is always safe. A cache that cannot be
written (a read-only ledger, a full disk) is skipped without a word; snapshots are written to a
scratch file and renamed into place, so none is ever half written. Logs shorter than
:data:`KEEP_FROM_BYTES` fold faster than a snapshot is checked and are never cached.

>>> from tabletape.ledger import Ledger
>>> cache_folder(Ledger("/l")).as_posix()
'/l/cache/folds'
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import os
import stat
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from tabletape import ledger as ledger_package
from tabletape.ledger import Event, GameStarted, Ledger, Record, decode_line
from tabletape.ledger.identity import game_uid
from tabletape.ledger.store import chain_intact, damage_of, intact_records, write_atomic
from tabletape.replay.fold import Check, Fold, Folded, GameInfo, Step, fold_records, retractions
from tabletape.rules.kernel import Rules, RulesError
from tabletape.rules.registry import find_game

FORMAT = 1
"""The snapshot file format; a snapshot of another format is ignored."""

KEEP_FROM_BYTES = 32 << 10
"""Smaller logs (about a hundred events) are folded without the cache: their fold costs less
than its checks."""

MAX_SNAPSHOT_BYTES = 64 << 20
"""A larger file in the cache folder is no snapshot of ours: ignored unread."""

KEY_BYTES = 32
SEAL_BYTES = 32

STATS: Counter[str] = Counter()
"""What the cache did in this process (for tests and curious people): ``hit`` (a snapshot of
the whole log used), ``extended`` (a snapshot of its beginning used, the rest folded),
``folded`` (the whole log folded: a miss), ``ignored`` (a snapshot file not used: unsealed,
foreign, of other rules or another log), ``kept`` (a snapshot written)."""


class FoldSnapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What one snapshot file holds (after its seal)."""

    format: int
    game: str
    folder: str
    """What folded it (:func:`folder_key`): tabletape's version, the rules and their code."""
    size: int
    """How many bytes of the log were folded."""
    digest: str
    """SHA-256 (hex) of those bytes."""
    head_seq: int
    head_hash: str
    state: bytes
    """The folded state, msgpack-encoded."""


# -- where and how snapshots are stored ----------------------------------------------------------


def cache_folder(ledger: Ledger) -> Path:
    """The folder of a ledger's fold snapshots."""
    return ledger.root / "cache" / "folds"


def read_private(path: Path, limit: int) -> bytes | None:
    """The bytes of the regular file ``path`` if it holds at most ``limit``; else None (missing,
    a folder, a pipe that would block, a device, too large, unreadable)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            return None
        data = os.read(fd, limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= limit else None


def ledger_key(folder: Path) -> bytes | None:
    """The key this ledger's snapshots are sealed with, made on first use; None when it cannot be
    read or made (a read-only ledger without one: nothing is cached)."""
    path = folder / "key"
    key = read_private(path, KEY_BYTES)
    if key is None and not path.exists():
        key = make_key(path)
    return key if key is not None and len(key) == KEY_BYTES else None


def make_key(path: Path) -> bytes | None:
    """A new random key written whole as ``path`` (readable by its owner only), or the one another
    process wrote first; None if it cannot be written."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, scratch = tempfile.mkstemp(dir=path.parent, prefix=".key.", suffix=".writing")
    except OSError:
        return None
    try:
        with open(descriptor, "wb") as handle:
            handle.write(os.urandom(KEY_BYTES))
        os.link(scratch, path)  # fails if another process made it first: then its key counts
    except OSError:
        pass
    finally:
        Path(scratch).unlink(missing_ok=True)
    return read_private(path, KEY_BYTES)


def seal(key: bytes, body: bytes) -> bytes:
    return hashlib.blake2b(body, key=key, digest_size=SEAL_BYTES).digest()


class FoldCache:
    """The fold snapshots of one ledger."""

    def __init__(self, folder: Path, key: bytes) -> None:
        self.folder = folder
        self.key = key

    @classmethod
    def of(cls, ledger: Ledger) -> FoldCache | None:
        """The ledger's cache, or None when it has none and cannot have one."""
        folder = cache_folder(ledger)
        key = ledger_key(folder)
        return cls(folder, key) if key is not None else None

    def path(self, game: str) -> Path:
        return self.folder / f"{game}.fold"

    def load(self, game: str) -> FoldSnapshot | None:
        """The snapshot kept for ``game`` if one is there, sealed with this ledger's key, of this
        format and this game; else None."""
        raw = read_private(self.path(game), MAX_SNAPSHOT_BYTES)
        if raw is None:
            return None
        body = raw[SEAL_BYTES:]
        if not hmac.compare_digest(raw[:SEAL_BYTES], seal(self.key, body)):
            STATS["ignored"] += 1
            return None
        try:
            snapshot = msgspec.msgpack.decode(body, type=FoldSnapshot)
        except (msgspec.DecodeError, msgspec.ValidationError):
            STATS["ignored"] += 1
            return None
        if snapshot.format != FORMAT or snapshot.game != game:
            STATS["ignored"] += 1
            return None
        return snapshot

    def keep(self, snapshot: FoldSnapshot) -> None:
        """Write ``snapshot`` whole or not at all; a failure (read-only, disk full) is ignored."""
        body = msgspec.msgpack.encode(snapshot)
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path(snapshot.game), seal(self.key, body) + body, durable=False)
        except OSError:
            return
        STATS["kept"] += 1


# -- what a snapshot is keyed by besides the log -------------------------------------------------


def folder_key(rules: Rules[Any]) -> str:
    """What a fold's result depends on besides the log: tabletape's, Python's and msgspec's
    versions, the rules' name and version, and their code (:func:`code_files`). A snapshot
    folded under any other is ignored."""
    python = ".".join(map(str, sys.version_info[:2]))
    return (f"tabletape {ledger_package.__version__} python {python} msgspec {msgspec.__version__}"
            f" {rules.name} {rules.rules_version} {rules_code(type(rules).__module__)}")


@functools.cache
def rules_code(module_name: str) -> str:
    """:func:`code_digest` of :func:`code_files` (once a process: code does not change under a
    running command)."""
    return code_digest(code_files(module_name))


def code_files(module_name: str) -> list[Path]:
    """The files a fold by the rules in ``module_name`` runs or reads: the fold itself, the
    rules kernel's modules, and the module's file with, when it is in a package, every code and
    data file of that package (a game's shipped board files among them)."""
    from tabletape import rules as rules_package
    from tabletape.replay import fold

    files = [Path(fold.__file__)]
    folders = {Path(rules_package.__file__).parent}
    source = getattr(sys.modules.get(module_name), "__file__", None)
    if source:
        files.append(Path(source))
        if (Path(source).parent / "__init__.py").exists():
            folders.add(Path(source).parent)
    for folder in sorted(folders):
        files.extend(sorted(p for p in folder.iterdir() if p.suffix in (".py", ".json", ".toml")))
    return files


def code_digest(files: Sequence[Path]) -> str:
    """A digest of the paths, sizes and modification times of ``files`` (a missing one left out):
    any file replaced, edited or touched changes it."""
    digest = hashlib.sha256()
    for path in files:
        try:
            info = path.stat()
        except OSError:
            continue
        digest.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:32]


_decoders: dict[type, msgspec.msgpack.Decoder[Any]] = {}


def state_decoder(cls: type) -> msgspec.msgpack.Decoder[Any]:
    """The msgpack decoder of the state type ``cls`` (built once)."""
    found = _decoders.get(cls)
    if found is None:
        found = _decoders[cls] = msgspec.msgpack.Decoder(cls)
    return found


def encoded_state(state: Any) -> bytes | None:
    """``state`` as msgpack, if it decodes back equal to itself (else it is not cached)."""
    try:
        data = msgspec.msgpack.encode(state)
        back = state_decoder(type(state)).decode(data)
    except (TypeError, ValueError, msgspec.MsgspecError):
        return None
    return data if back == state else None


def decoded_state(rules: Rules[Any], started: GameStarted, data: bytes) -> Any:
    """The state a snapshot holds, as the rules' state type; None if it holds none."""
    try:
        return state_decoder(type(rules.start(started))).decode(data)
    except (TypeError, ValueError, msgspec.MsgspecError):
        return None


# -- a game folded from its snapshot -------------------------------------------------------------

_records = msgspec.json.Decoder(Record)


class KeptLog:
    """The log behind a fold read from a snapshot: its bytes (verified when the snapshot was
    folded, proven the same by their digest), decoded and folded again only when asked (``log``,
    ``undo``, the narration after ``record``); or such a log with records appended since."""

    def __init__(self, game: str, head_seq: int, first_hash: str, data: bytes = b"",
                 before: KeptLog | None = None, records: Sequence[Record] = (),
                 steps: Sequence[Step] = ()) -> None:
        self.game, self.head_seq, self.first_hash = game, head_seq, first_hash
        self.data, self.before = data, before
        self.more_records, self.more_steps = list(records), list(steps)

    def followed(self, records: Sequence[Record], steps: Sequence[Step]) -> KeptLog:
        """This log with ``records`` (folding to ``steps``) appended: the log read from the
        snapshot and every record appended since (no chain of logs grows in a long session)."""
        return KeptLog(self.game, records[-1].seq if records else self.head_seq,
                       self.first_hash, before=self.before or self,
                       records=[*self.more_records, *records], steps=[*self.more_steps, *steps])

    @functools.cached_property
    def records(self) -> list[Record]:
        if self.before is None:
            return _records.decode_lines(self.data)
        return [*self.before.records, *self.more_records]

    @functools.cached_property
    def steps(self) -> list[Step]:
        if self.before is None:
            return fold_records(self.game, self.records, check=False).steps
        return [*self.before.steps, *self.more_steps]

    @functools.cached_property
    def retracted(self) -> dict[int, Record]:
        if self.before is None:
            return retractions(self.records)
        return self.before.retracted


class KeptFolded(Folded):
    """A :class:`~tabletape.replay.fold.Folded` whose state came from a snapshot: its records and
    steps are worked out only when something asks for them."""

    def __init__(self, game: str, rules: Rules[Any], started: GameStarted, state: Any,
                 log: KeptLog, *, staged: int = 0) -> None:
        self.game, self.rules, self.started, self.state = game, rules, started, state
        self.log, self.staged = log, staged
        self.before = None

    @property
    def records(self) -> list[Record]:
        return self.log.records

    @records.setter
    def records(self, value: list[Record]) -> None:
        self.log.records = value

    @property
    def steps(self) -> list[Step]:
        return self.log.steps

    @steps.setter
    def steps(self, value: list[Step]) -> None:
        self.log.steps = value

    @property
    def retracted(self) -> dict[int, Record]:
        return self.log.retracted

    @retracted.setter
    def retracted(self, value: dict[int, Record]) -> None:
        self.log.retracted = value

    @property
    def uid(self) -> str:
        return game_uid(self.started.uid, self.log.first_hash)

    @property
    def head_seq(self) -> int:
        return self.log.head_seq

    def staging(self, actor: str, event: Event, *, drew: bool = False) -> Folded:
        return self.carry(KeptFolded(self.game, self.rules, self.started,
                                     self.rules.apply(self.state, actor, event), self.log,
                                     staged=self.staged + 1), drew=drew)

    def followed(self, records: list[Record], steps: list[Step], state: Any) -> Folded:
        after = KeptFolded(self.game, self.rules, self.started, state,
                           self.log.followed(records, steps))
        after.before = self.state
        return self.carry(after, appended=records)


# -- opening a game through the cache ------------------------------------------------------------


def open_cached(ledger: Ledger, game: str) -> Folded:
    """``game`` read from ``ledger``, verified and folded, as
    :func:`tabletape.replay.recording.open_game` gives it: from its snapshot when one matches the
    log read now, else folded whole (and kept)."""
    data = ledger.snapshot(game)
    cache = FoldCache.of(ledger) if len(data) >= KEEP_FROM_BYTES else None
    if cache is not None:
        found = reuse(cache, game, data)
        if found is not None:
            return found
    records = intact_records(data)
    if records is None:
        raise damage_of(game, data)
    folded = fold_records(game, records)
    STATS["folded"] += 1
    if cache is not None:
        keep(cache, folded.rules, game, data, folded.state, hashlib.sha256(data).hexdigest(),
             records[-1])
    return folded


def keep(cache: FoldCache, rules: Rules[Any], game: str, data: bytes, state: Any, digest: str,
         head: Record) -> None:
    """Keep ``state``, the fold of the whole of ``data`` (whose digest is ``digest``)."""
    encoded = encoded_state(state)
    if encoded is not None:
        cache.keep(FoldSnapshot(format=FORMAT, game=game, folder=folder_key(rules),
                                size=len(data), digest=digest, head_seq=head.seq,
                                head_hash=head.hash, state=encoded))


def reuse(cache: FoldCache, game: str, data: bytes) -> Folded | None:
    """``game`` folded from its snapshot, if the snapshot was folded from ``data`` or from a
    beginning of it (the rest is then verified and folded here); else None."""
    snapshot = cache.load(game)
    if snapshot is None or snapshot.size > len(data) or snapshot.size <= 0:
        return None
    try:
        first = decode_line(data[:data.index(b"\n")])
        started = msgspec.json.decode(first.payload, type=GameStarted)
        rules = find_game(started.kind)
    except (ValueError, msgspec.MsgspecError, RulesError):
        return None  # the whole fold says what is wrong
    if snapshot.folder != folder_key(rules):
        STATS["ignored"] += 1
        return None
    digest = hashlib.sha256(memoryview(data)[:snapshot.size])
    if digest.hexdigest() != snapshot.digest:
        STATS["ignored"] += 1
        return None
    state = decoded_state(rules, started, snapshot.state)
    if state is None:
        STATS["ignored"] += 1
        return None
    if snapshot.size == len(data):
        STATS["hit"] += 1
        log = KeptLog(game, snapshot.head_seq, first.hash, data)
        return KeptFolded(game, rules, started, state, log)
    found = extended(KeptFolded(game, rules, started, state, KeptLog(game, 0, first.hash)),
                     data, snapshot)
    if found is None:
        return None
    folded, head = found
    STATS["extended"] += 1
    digest.update(memoryview(data)[snapshot.size:])
    keep(cache, rules, game, data, folded.state, digest.hexdigest(), head)
    return folded


def extended(kept: KeptFolded, data: bytes, snapshot: FoldSnapshot
             ) -> tuple[KeptFolded, Record] | None:
    """``kept`` (the game as its snapshot holds it) folded on over the lines of ``data`` after the
    snapshot's head, and the last record, when those lines verify and hold no ``undo``; else None
    (the whole log is folded)."""
    tail = data[snapshot.size:]
    if not tail.endswith(b"\n") or data[snapshot.size - 1:snapshot.size] != b"\n":
        return None
    try:
        records = _records.decode_lines(tail)
        head = decode_line(data[data.rfind(b"\n", 0, snapshot.size - 1) + 1:snapshot.size - 1])
    except msgspec.DecodeError:
        return None
    if (not records or records[-1].more or any(r.type == "undo" for r in records)
            or head.seq != snapshot.head_seq or head.hash != snapshot.head_hash
            or not chain_intact(tail[:-1].split(b"\n"), records, seq=head.seq + 1,
                                prev=head.hash)):
        return None
    info = GameInfo(game=kept.game, rules=kept.rules, started=kept.started,
                    start_state=kept.state, retracted={})
    fold = Fold(info, [head, *records], Check.REFUSE)
    try:
        for _ in fold.steps():
            pass
    except RulesError:
        return None  # refused: the whole fold says so, from the start
    log = KeptLog(kept.game, records[-1].seq, kept.log.first_hash, data)
    return KeptFolded(kept.game, kept.rules, kept.started, fold.state, log), records[-1]
