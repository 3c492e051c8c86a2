"""Heads to remember: a ledger-wide head (a Merkle root over every game's head) and its history,
forks, and one game or the whole ledger checked against what was noted, signed and received, as
``verify`` reports it.

The hash chain finds a changed byte, but not a log cut off at a line end, nor one rewritten
with every hash recomputed: both are intact chains. What catches them is a head noted before
(or signed): the log must still hold that event, with that hash. A head's fingerprint is
:mod:`tabletape.ledger.fingerprints`; a ledger's head is written ``L37:…``: the Merkle root over
the 37 games' ``(id, head hash)``, sorted by id (a game left out because it failed verification
is a leaf too, its hash :data:`LEFT_OUT`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import msgspec

from tabletape.ledger.codec import Record, decoded_lines, utc_stamp
from tabletape.ledger.events import GameStarted
from tabletape.ledger.fingerprints import (
    Fingerprint,
    HeadCheck,
    check_head,
    code_of,
    fingerprint,
    game_fingerprint,
)
from tabletape.ledger.identity import ledger_id
from tabletape.ledger.receipts import (
    Receipt,
    check_receipts,
    made_here,
    receipt_problem,
    vouch_line,
)
from tabletape.ledger.signatures import Vouch, check_signatures, is_hex, log_uid, started_of
from tabletape.ledger.store import Ledger, LedgerError, write_atomic

# -- a ledger's head -----------------------------------------------------------------------------

LEFT_OUT = "left out"
"""The leaf value of a game a ledger head left out (its log failed verification then): no head
hash is ever this (they are hex), so a history that drops such a game no longer proves itself."""
HISTORY_KEPT = 200
"""Ledger heads kept in the ledger's history (the oldest go first)."""



def merkle_root(heads: dict[str, str]) -> str:
    """The Merkle root (hex SHA-256) over ``game id -> head hash``, leaves sorted by id.

    A leaf is ``SHA-256(0x00 | id | 0x00 | hash)``, a node ``SHA-256(0x01 | left | right)``; an
    odd node is carried up as it is.

    >>> merkle_root({}) == hashlib.sha256(b"").hexdigest()
    True
    >>> merkle_root({"a": "1", "b": "2"}) == merkle_root({"b": "2", "a": "1"})
    True
    """
    level = [hashlib.sha256(b"\0" + game.encode() + b"\0" + heads[game].encode()).digest()
             for game in sorted(heads)]
    if not level:
        return hashlib.sha256(b"").hexdigest()
    while len(level) > 1:
        paired = [hashlib.sha256(b"\1" + level[i] + level[i + 1]).digest()
                  for i in range(0, len(level) - 1, 2)]
        level = paired + ([level[-1]] if len(level) % 2 else [])
    return level[0].hex()


def ledger_fingerprint(root: str, games: int) -> Fingerprint:
    """The fingerprint of a ledger's Merkle ``root`` over ``games`` games."""
    digest = hashlib.sha256(f"tabletape ledger\0{games}\0{root}".encode()).digest()
    return Fingerprint("ledger", games, code_of(digest, games))


class Deletion(msgspec.Struct, frozen=True, kw_only=True):
    """A game deleted by ``tabletape delete``, as the ledger's head history keeps it."""

    game: str
    uid: str
    """The game's identity (empty when its first event could not be read)."""
    seq: int
    hash: str
    """Its head when it was deleted (the last event that verified)."""
    at: str
    """When it was deleted (UTC)."""
    ledger_id: str
    """The identity of the ledger that deleted it (:func:`ledger_id`)."""


class LedgerHead(msgspec.Struct, kw_only=True):
    """A ledger's head as remembered in its history: when, the root, and every game's head."""

    at: str
    fingerprint: str
    root: str
    games: dict[str, tuple[int, str]]
    """Game id -> (seq, hash) of its head then."""
    left_out: list[str] = []
    """The games left out (their logs failed verification then), each a leaf of the root with
    the hash :data:`LEFT_OUT`; absent in the history of the previous version."""
    deleted: list[Deletion] = []
    """The games ``tabletape delete`` took out of the ledger just before this head (kept in the
    history however long it grows, so a head noted before still has its explanation)."""


def leaves(games: dict[str, tuple[int, str]], left_out: Iterable[str]) -> dict[str, str]:
    """The Merkle leaves of a ledger head: each game's head hash, each left-out game's
    :data:`LEFT_OUT`."""
    return {**dict.fromkeys(left_out, LEFT_OUT), **{g: head[1] for g, head in games.items()}}


def ledger_head(heads: dict[str, tuple[int, str]], left_out: Iterable[str] = ()) -> LedgerHead:
    """The ledger head over ``game id -> (seq, hash)`` and the games ``left_out`` (a ledger
    with none left out has the fingerprint it had before left-out games were leaves)."""
    left = sorted(set(left_out) - set(heads))
    covered = leaves(heads, left)
    root = merkle_root(covered)
    return LedgerHead(at=utc_stamp(), fingerprint=str(ledger_fingerprint(root, len(covered))),
                      root=root, games=dict(sorted(heads.items())), left_out=left)


def history_path(ledger_root: Path) -> Path:
    """Where a ledger keeps the ledger heads it showed: its private folder."""
    return ledger_root / "private" / "ledger-heads.jsonl"


_history_decoder = msgspec.json.Decoder(LedgerHead)


def read_history(ledger_root: Path) -> list[LedgerHead]:
    """The ledger heads remembered, oldest first (lines that do not decode are skipped)."""
    return decoded_lines(history_path(ledger_root), _history_decoder)


def remember(ledger_root: Path, head: LedgerHead) -> tuple[LedgerHead, bool]:
    """Add ``head`` to the ledger's history unless it is the latest there (then that one is
    returned: its ``at`` is when the ledger last changed); the bool is False when the history
    cannot be written (a read-only ledger: the head is shown all the same)."""
    history = read_history(ledger_root)
    if history and history[-1].root == head.root and history[-1].games == head.games and \
            history[-1].left_out == head.left_out:
        return history[-1], True
    try:
        write_history(ledger_root, kept([*history, head]))
    except OSError:
        return head, False
    return head, True


def kept(history: list[LedgerHead]) -> list[LedgerHead]:
    """The last :data:`HISTORY_KEPT` heads of ``history``, and every older one that records a
    deletion (in their order)."""
    cut = len(history) - HISTORY_KEPT
    return [head for i, head in enumerate(history) if i >= cut or head.deleted]


def write_history(ledger_root: Path, history: list[LedgerHead]) -> None:
    """Write the ledger's head history whole (atomically: all of it or nothing)."""
    path = history_path(ledger_root)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    if not path.exists():
        path.touch(mode=0o600)
    write_atomic(path, b"".join(msgspec.json.encode(h) + b"\n" for h in history))


def remember_deletion(ledger_root: Path, head: LedgerHead, deletion: Deletion) -> LedgerHead:
    """Add to the history the ledger's ``head`` without the deleted game, saying it was
    deleted (before the log goes: a deletion the history does not hold never happens)."""
    entry = msgspec.structs.replace(head, deleted=[deletion])
    write_history(ledger_root, kept([*read_history(ledger_root), entry]))
    return entry


def deletions(ledger_root: Path) -> dict[str, Deletion]:
    """The latest deletion of each game the ledger's head history records."""
    return {d.game: d for head in read_history(ledger_root) for d in head.deleted}


def find_remembered(ledger_root: Path, noted: Fingerprint) -> LedgerHead | None:
    """The remembered ledger head with fingerprint ``noted``, if the history holds it.

    Only an entry that proves itself counts: its games' heads must give its root, and its root
    the fingerprint noted. The history sits in the ledger, where a cheater can edit it: an
    entry whose games were changed to the rewritten logs' heads (keeping the noted fingerprint)
    no longer gives that root, and is passed over as if it were not there."""
    for head in reversed(read_history(ledger_root)):
        if head.fingerprint == str(noted) and proves(head, noted):
            return head
    return None


def proves(head: LedgerHead, noted: Fingerprint) -> bool:
    """Whether ``head``'s games (and those it left out) give its root, and its root the
    fingerprint ``noted``."""
    try:
        covered = leaves(head.games, head.left_out)
        root = merkle_root(covered)
    except (TypeError, IndexError):
        return False
    return (len(covered) == len(head.games) + len(head.left_out) and root == head.root
            and ledger_fingerprint(root, len(covered)) == noted)


def gone_signed(ledger: Ledger, receipts: Sequence[Receipt], named: Iterable[str]) -> list[Checked]:
    """``verify --all``: each game of a receipt made in this ledger whose log is gone (and not
    already among ``named``), as a failed check naming the receipt."""
    here_id, games, seen = (ledger_id(ledger.root), set(ledger.game_ids(archived=True)),
                            set(named))
    gone_games: dict[str, list[Vouch]] = {}
    for receipt in receipts:
        if (receipt.ledger or receipt.ledger_id) and made_here(receipt, ledger.root, here_id) \
                and receipt.game not in games | seen:
            gone_games.setdefault(receipt.game, []).append(
                receipt_problem(receipt, "the game's log is gone from the ledger (deleted)"))
    return [Checked(game=game, ok=False, events=0, chain_ok=False, signatures=vouches,
                    problem="; ".join(vouch_line(v) for v in vouches))
            for game, vouches in sorted(gone_games.items())]


# -- forks -----------------------------------------------------------------------------------------


def fork_problem(started: GameStarted, parent_records: Sequence[Record] | None) -> str:
    """Why a fork no longer matches its parent at the fork point, or ``""`` (also when it is no
    fork, records no fork hash, or the parent is not here: ``parent_records`` None)."""
    if not started.parent or not started.fork_hash or parent_records is None:
        return ""
    seq = started.fork_seq or 0
    if seq > len(parent_records):
        return (f"its parent {started.parent} ends at seq {len(parent_records)}, before the "
                f"fork point (seq {seq}): the parent was cut short since the fork")
    if parent_records[seq - 1].hash != started.fork_hash:
        return (f"its parent {started.parent} holds another event at the fork point (seq "
                f"{seq}) than when it was forked: the parent was rewritten since")
    return ""


def registry(texts: Iterable[tuple[str, str]]) -> dict[str, set[str]]:
    """Name -> the public keys (hex) of the ``(NAME, text of NAME.pub)`` given (one key a line).

    >>> registry([("olga", "ab" * 32 + "\\nnonsense\\n")]) == {"olga": {"ab" * 32}}
    True
    """
    return {name: {line for line in text.split() if is_hex(line, 64)} for name, text in texts}


# -- one game checked, as `verify` reports it ----------------------------------------------------


class Checked(msgspec.Struct, frozen=True, kw_only=True):
    """What ``verify`` found in one log (``verify --json``): its chain, its signatures, its fork
    point and, when one was given, the noted head."""

    game: str
    ok: bool
    """Everything below holds: the chain verifies, every signature holds, the fork point is
    the parent's, the log extends the noted head."""
    events: int
    """Events that verified (before the first bad one)."""
    first_bad_seq: int | None = None
    problem: str = ""
    """What is wrong: the chain's first bad line, else the first other problem."""
    head: str = ""
    """The hash of the last event that verified."""
    fingerprint: str = ""
    """That head as people note it (``412:7KQ2-M4XD-9PRA``)."""
    chain_ok: bool = True
    signatures: list[Vouch] = []
    fork: str = ""
    """Why the fork point no longer matches the parent, or ""."""
    noted_head: HeadCheck | None = None


RecordsCheck = Callable[[str, Sequence[Record]], str]
"""A further check of a game's verified records, ``(game, records) -> problem or ""`` (``verify``
passes the dice re-derivation, :func:`tabletape.replay.audit.fair_play_problem`, which the
ledger may not import)."""


def check_game(ledger: Ledger, game: str, registered: dict[str, set[str]],
               noted: Fingerprint | None = None, receipts: Sequence[Receipt] = (),
               remembered: tuple[int, str] | None = None,
               also: RecordsCheck | None = None) -> Checked:
    """``verify`` of one game: chain, signatures, fork point, and the ``noted`` head if given
    (or the ``remembered`` ``(seq, hash)`` of a ledger head, compared whole); ``also`` checks
    the records of a log whose chain verifies, read once with the rest (its problem first)."""
    from tabletape.ledger.store import trusted

    try:
        salvaged, verification = ledger.salvage(game)  # one read: the records and the verdict
    except (LedgerError, OSError):
        salvaged, verification = [], ledger.verify(game)  # says why it cannot be read
    records = trusted(salvaged, verification)
    vouches = check_signatures(records, registered)
    vouches += check_receipts(records, receipts_of(records, game, receipts, ledger.root),
                              vouches)
    fork = fork_of(ledger, records)
    fails_at = verification.first_bad_seq if not verification.ok else None
    if remembered is not None:
        noted = game_fingerprint(*remembered)
    head_check = check_head(records, noted, fails_at, remembered[1] if remembered else "") \
        if noted is not None else None
    problems = [verification.problem] if not verification.ok else []
    if verification.ok and also is not None and (extra := also(game, records)):
        problems.append(extra)
    problems += [vouch_line(v) for v in vouches if not v.ok]
    problems += [f"fork point: {fork}"] if fork else []
    if head_check is not None and head_check.verdict != "extends":
        problems.append(f"noted head {head_check.fingerprint}: {head_check.verdict}: "
                        f"{head_check.explanation}")
    last = records[-1] if records else None
    return Checked(game=game, ok=not problems, events=verification.events,
                   first_bad_seq=verification.first_bad_seq, problem="; ".join(problems),
                   head=verification.head,
                   fingerprint=fingerprint(last.seq, last.hash) if last else "",
                   chain_ok=verification.ok, signatures=vouches, fork=fork,
                   noted_head=head_check)


def receipts_of(records: Sequence[Record], game: str, receipts: Sequence[Receipt],
                ledger_root: Path | None = None) -> list[Receipt]:
    """The receipts made in this ledger (``ledger_root``, :func:`made_here`) of the game whose
    log is ``records`` under the id ``game``: those of its uid, and those made for the id
    ``game``, whatever uid the log holds now. A receipt made in another ledger is not applied:
    a copy of the game there (imported, or imported from here) may be older or newer."""
    if not records or not receipts:
        return []
    uid = log_uid(records)
    if ledger_root is None:
        return [r for r in receipts if r.uid == uid]
    here_id = ledger_id(ledger_root)
    return [r for r in receipts
            if (r.uid == uid or r.game == game) and made_here(r, ledger_root, here_id)]


def fork_of(ledger: Ledger, records: Sequence[Record]) -> str:
    """:func:`fork_problem` of a log whose verified records are ``records`` (its parent read
    from ``ledger`` when it is there; a damaged parent is checked as far as it verifies)."""
    started = started_of(records)
    if started is None or not started.parent or not started.fork_hash:
        return ""
    try:
        parent = trusted_records(ledger, started.parent)
    except (LedgerError, OSError):
        return ""  # the parent is not in this ledger: nothing to compare with
    return fork_problem(started, parent)


def trusted_records(ledger: Ledger, game: str) -> list[Record]:
    """The records of ``game`` that verify (all of them for an intact log)."""
    from tabletape.ledger.store import trusted

    return trusted(*ledger.salvage(game))


def current_heads(ledger: Ledger) -> tuple[dict[str, tuple[int, str]], dict[str, str]]:
    """Every game's verified head ``(seq, hash)``, and the games whose logs fail verification
    (left out of the ledger head, and named). Archived games count: archiving changes no
    head."""
    heads: dict[str, tuple[int, str]] = {}
    damaged: dict[str, str] = {}
    for game in ledger.game_ids(archived=True):
        verification = ledger.verify(game)
        if verification.ok:
            heads[game] = (verification.events, verification.head)
        else:
            damaged[game] = (f"fails verification at event {verification.first_bad_seq}: "
                             f"{verification.problem}")
    return heads, damaged


def check_ledger(ledger: Ledger, noted: Fingerprint, registered: dict[str, set[str]],
                 receipts: Sequence[Receipt] = (), also: RecordsCheck | None = None
                 ) -> tuple[list[Checked], str]:
    """``verify --all --head``: every game checked, each against its head in the remembered
    ledger head ``noted`` (a game gone since is a problem too); and what to tell when ``noted``
    is not in the ledger's history (then only the ledger's head now can be compared)."""
    remembered = find_remembered(ledger.root, noted)
    games = ledger.game_ids(archived=True)
    if remembered is None:
        results = [check_game(ledger, game, registered, None, receipts, also=also)
                   for game in games]
        now = ledger_head({r.game: (r.events, r.head) for r in results if r.chain_ok},
                          [r.game for r in results if not r.chain_ok])  # as current_heads
        if now.fingerprint == str(noted):
            return results, ""
        why = (f"{noted} is not the ledger's head now ({now.fingerprint}) and this ledger's "
               "history does not hold it (noted elsewhere, before the history began, or more than "
               f"{HISTORY_KEPT} heads were shown since): which "
               "games changed cannot be said; verify each game against a head noted for it")
        return [unknown_head(result, noted) for result in results], why
    results = []
    for game in games:
        seen = remembered.games.get(game)
        checked = check_game(ledger, game, registered, None, receipts, seen, also)
        results.append(unvouched(checked) if game in remembered.left_out else checked)
    deleted = deletions(ledger.root)
    for game, (seq, head_hash) in remembered.games.items():
        if game not in games:
            results.append(gone(game, seq, head_hash, deleted.get(game), ledger_id(ledger.root)))
    results += [gone_unvouched(game) for game in remembered.left_out if game not in games]
    return results, ""


UNVOUCHED = ("left out of the noted head (it failed verification then): nothing vouches for "
             "it")


def unvouched(checked: Checked) -> Checked:
    """``checked``, failed: its game was left out of the noted ledger head (damaged then), so
    nothing vouches for what its log holds now (a valid but shorter log may have replaced it)."""
    problem = "; ".join(p for p in (checked.problem, f"unvouched: {UNVOUCHED}") if p)
    return msgspec.structs.replace(
        checked, ok=False, problem=problem,
        noted_head=HeadCheck(fingerprint="", verdict="unvouched", seq=0,
                             events=checked.events, explanation=UNVOUCHED))


def gone_unvouched(game: str) -> Checked:
    """A game the noted ledger head left out (damaged then) whose log is gone now."""
    why = f"{UNVOUCHED}; its log is gone from the ledger now"
    return Checked(game=game, ok=False, events=0, problem=f"gone: {why}", chain_ok=False,
                   noted_head=HeadCheck(fingerprint="", verdict="gone", seq=0, events=0,
                                        explanation=why))


def gone(game: str, seq: int, head_hash: str, deletion: Deletion | None = None,
         here_id: str = "") -> Checked:
    """A game of a remembered ledger head whose log is no longer in the ledger: explained when
    the history records its ``deletion`` by this ledger (``here_id``) at that head or after."""
    noted = fingerprint(seq, head_hash)
    if deletion is not None and deletion.seq >= seq and deletion.ledger_id == here_id != "":
        why = (f"deleted at {deletion.at} by this ledger (`tabletape delete`), at its head "
               f"{fingerprint(deletion.seq, deletion.hash)}")
        return Checked(game=game, ok=True, events=0, chain_ok=True,
                       noted_head=HeadCheck(fingerprint=noted, verdict="deleted", seq=seq,
                                            events=0, explanation=why))
    why = "its log is gone from the ledger"
    return Checked(game=game, ok=False, events=0, problem=f"noted head {noted}: gone: {why}",
                   chain_ok=False,
                   noted_head=HeadCheck(fingerprint=noted, verdict="gone", seq=seq,
                                        events=0, explanation=why))


def unknown_head(checked: Checked, noted: Fingerprint) -> Checked:
    """``checked``, failed: the ledger head ``noted`` is unknown here, so whether this log still
    extends its head then cannot be said (``verify --all --head`` of a head never shown here)."""
    why = ("the noted ledger head is not in this ledger's history: whether this log extends "
           "its head then cannot be said")
    problem = "; ".join(p for p in (checked.problem, f"noted head {noted}: unknown: {why}") if p)
    return msgspec.structs.replace(
        checked, ok=False, problem=problem,
        noted_head=HeadCheck(fingerprint=str(noted), verdict="unknown", seq=0,
                             events=checked.events, explanation=why))
