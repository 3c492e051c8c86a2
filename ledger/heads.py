"""Heads to remember: a log's head as a short fingerprint, proof that a log still extends one,
a ledger-wide head (a Merkle root over every game's head), and the signatures players add.

The hash chain finds a changed byte, but not a log cut off at a line end, nor one rewritten
with every hash recomputed: both are intact chains. What catches them is a head noted before
(or signed): the log must still hold that event, with that hash.

A **fingerprint** names a head in 12 characters a person can note or photograph, after its seq:
``412:7KQ2-M4XD-9PRA``. The 11 characters before the last are 55 bits of
``SHA-256("tabletape head" | seq | hash)`` in Crockford's base32 (no I, L, O, U: read aloud,
they are typed right); the last is a check character (Luhn mod 32 over the seq's digits and the
11 others), so a typo is said to be a typo, never taken for a rewritten log. A ledger's head is
written ``L37:…``: the Merkle root over the 37 games' ``(id, head hash)``, sorted by id (a game
left out because it failed verification is a leaf too, its hash :data:`LEFT_OUT`).

>>> text = fingerprint(412, "ab" * 32)
>>> text
'412:Z42B-QCEF-X120'
>>> parse_fingerprint("seq 412 · z42b qcef x12o") == parse_fingerprint(text)
True
>>> parse_fingerprint("412:Z42B-QCEF-X121")
Traceback (most recent call last):
...
tabletape.ledger.heads.BadFingerprint: '412:Z42B-QCEF-X121' has a typo: its check character ...
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Literal

import msgspec

from tabletape.ledger.codec import Record, decoded_lines, utc_stamp
from tabletape.ledger.errors import USAGE_EXIT
from tabletape.ledger.events import GameStarted, Signed
from tabletape.ledger.store import Ledger, LedgerError, write_atomic
from tabletape.rules.kernel import plural

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: digits and letters, without I, L, O and U."""
ALIASES = {"O": "0", "I": "1", "L": "1"}
"""Letters read as the digits they look like (Crockford)."""
CODE_CHARS = 12
"""Characters of a fingerprint after its seq: 11 of the hash, 1 check character."""
LEDGER_MARK = "L"
"""Starts a ledger-wide fingerprint (``L37:…``: the head of a ledger of 37 games)."""
SIGNED_MESSAGE = b"tabletape signed head v2\0"
"""What a signature covers starts with this, then the signer's name, the game's uid, the seq
and the head hash (see :func:`signed_bytes`)."""
SIGNED_MESSAGE_V1 = b"tabletape signed head v1\0"
"""The previous version's signatures: the seq and the head hash only (still verified, noted as
not covering the name)."""
LEFT_OUT = "left out"
"""The leaf value of a game a ledger head left out (its log failed verification then): no head
hash is ever this (they are hex), so a history that drops such a game no longer proves itself."""
HISTORY_KEPT = 200
"""Ledger heads kept in the ledger's history (the oldest go first)."""

Kind = Literal["game", "ledger"]


class BadFingerprint(LedgerError):
    """A fingerprint that cannot be read: its shape, a letter, or its check character."""

    exit_code = USAGE_EXIT


class Fingerprint(msgspec.Struct, frozen=True):
    """A head as people write it: a seq (or a game count) and 12 characters."""

    kind: Kind
    seq: int
    """The head's seq; for a ledger, how many games the root covers."""
    code: str
    """The 12 characters, without hyphens (the last is the check character)."""

    def __str__(self) -> str:
        mark = LEDGER_MARK if self.kind == "ledger" else ""
        c = self.code
        return f"{mark}{self.seq}:{c[:4]}-{c[4:8]}-{c[8:]}"


def luhn_check(symbols: str) -> str:
    """The Luhn mod 32 check character of ``symbols`` (characters of :data:`ALPHABET`).

    It changes with any one character changed, and with most two neighbours swapped.

    >>> luhn_check("412Z42BQCEFX12"), luhn_check("412Z42BQCEFX21")
    ('0', '1')
    """
    total, factor = 0, 2
    for symbol in reversed(symbols):
        added = factor * ALPHABET.index(symbol)
        total += added // 32 + added % 32
        factor = 1 if factor == 2 else 2
    return ALPHABET[(32 - total % 32) % 32]


def code_of(digest: bytes, seq: int) -> str:
    """The 12 characters of a fingerprint: 55 bits of ``digest``, then the check character."""
    bits = int.from_bytes(digest[:8], "big") >> 9
    chars = "".join(ALPHABET[(bits >> (5 * (10 - i))) & 31] for i in range(11))
    return chars + luhn_check(f"{seq}{chars}")


def head_digest(seq: int, head_hash: str) -> bytes:
    """What a game fingerprint is cut from: the seq and the hash of the head, together."""
    return hashlib.sha256(f"tabletape head\0{seq}\0{head_hash}".encode()).digest()


def game_fingerprint(seq: int, head_hash: str) -> Fingerprint:
    """The fingerprint of the head at ``seq`` with ``head_hash``."""
    return Fingerprint("game", seq, code_of(head_digest(seq, head_hash), seq))


def fingerprint(seq: int, head_hash: str) -> str:
    """``412:7KQ2-M4XD-9PRA``: the head at ``seq`` with ``head_hash``, for people."""
    return str(game_fingerprint(seq, head_hash))


_SHAPE = re.compile(r"^(?:SEQ\s*)?(L?)\s*(\d+)\s*[:·.\s]\s*([0-9A-Z\s-]+)$")
_SEQ_SAID_TWICE = re.compile(r"^SEQ\s*(\d+)\s*:\s*(L?\s*(\d+)\s*:.*)$")
"""``seq 15 · 15:TWHZ-CTFK-56DS``: the words `head` prints, pasted whole."""
_IN_TEXT = re.compile(r"(?<![0-9A-Z])(L?\d+)\s*[:·]\s*([0-9A-Z]{4})[-\s]?([0-9A-Z]{4})[-\s]?"
                      r"([0-9A-Z]{4})(?![0-9A-Z])")
"""A fingerprint inside other words (``head 6:DKW0-4W87-EE0F``, `head`'s whole line)."""
DASHES = str.maketrans(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"))
"""Unicode hyphens and dashes, and the minus sign, read as the hyphen."""
SHOWN_CHARS = 60
"""At most this much of what was typed is quoted in an error (cut at a word's end)."""


def quoted(text: str) -> str:
    """``text`` as an error quotes it: at most :data:`SHOWN_CHARS`, cut at a word's end.

    >>> quoted("word " * 20)
    'word word word word word word word word word word word word…'
    """
    text = text.strip()
    if len(text) <= SHOWN_CHARS:
        return text
    cut = text[:SHOWN_CHARS + 1].rsplit(None, 1)[0]
    return (cut if cut and len(cut) <= SHOWN_CHARS else text[:SHOWN_CHARS]).rstrip() + "…"


def one_in_text(cleaned: str, shown: str) -> str | None:
    """The one fingerprint written inside ``cleaned`` (None when there is none);
    :class:`BadFingerprint` when it holds two that differ."""
    found = {f"{m[0]}:{m[1]}-{m[2]}-{m[3]}" for m in _IN_TEXT.findall(cleaned)}
    if len(found) > 1:
        raise BadFingerprint(f"'{shown}' holds {len(found)} fingerprints that differ "
                             f"({', '.join(sorted(found))}): give the one you mean")
    return found.pop() if found else None


def parse_fingerprint(text: str) -> Fingerprint:
    """Read a fingerprint as a person typed it: case, spaces, hyphens (Unicode ones too),
    ``seq 412 ·`` (also before the whole fingerprint, as `head` prints it), words around it
    (`status`'s or `head`'s whole line pasted) and the letters O, I, L for 0, 1, 1 are
    forgiven (two fingerprints that differ are not); a wrong length, a foreign letter and a
    failed check character are :class:`BadFingerprint`, saying which.

    >>> str(parse_fingerprint("seq 412 · 412:Z42B-QCEF-X120"))
    '412:Z42B-QCEF-X120'
    """
    shown = quoted(text)
    cleaned = text.strip().upper().translate(DASHES).replace("\N{MIDDLE DOT}", ":")
    twice = _SEQ_SAID_TWICE.match(cleaned)
    if twice:
        if int(twice.group(1)) != int(twice.group(3)):
            raise BadFingerprint(f"'{shown}' says two seqs ({int(twice.group(1))} and "
                                 f"{int(twice.group(3))}): one of them is mistyped")
        cleaned = twice.group(2)
    match = _SHAPE.match(cleaned)
    if not match and (inside := one_in_text(cleaned, shown)):
        match = _SHAPE.match(inside)
    if not match:
        raise BadFingerprint(f"'{shown}' is not a fingerprint: write it as `tabletape head` "
                             "prints it, e.g. 412:7KQ2-M4XD-9PRA (a ledger's: L37:7KQ2-M4XD-9PRA)")
    mark, seq_text, rest = match.groups()
    chars = "".join(ALIASES.get(c, c) for c in rest if c not in " -\t")
    foreign = sorted({c for c in chars if c not in ALPHABET})
    if foreign:
        raise BadFingerprint(f"'{shown}' holds {', '.join(foreign)}, which no fingerprint has "
                             "(its letters are 0-9 and A-Z without I, L, O, U)")
    if len(chars) != CODE_CHARS:
        raise BadFingerprint(f"'{shown}' has {len(chars)} characters after the seq, where a "
                             f"fingerprint has {CODE_CHARS} (three groups of four)")
    seq = int(seq_text)
    if not mark and seq < 1:
        raise BadFingerprint(f"'{shown}' names seq {seq}, where a game's events start at seq 1")
    if luhn_check(f"{seq}{chars[:-1]}") != chars[-1]:
        raise BadFingerprint(f"'{shown}' has a typo: its check character (the last) does not "
                             "match its seq and code: one of them is mistyped; compare it "
                             "again with the one you noted")
    return Fingerprint("ledger" if mark else "game", seq, chars)


# -- does a log still extend a head? -------------------------------------------------------------


Verdict = Literal["extends", "truncated", "rewritten", "damaged", "gone", "unknown",
                  "unvouched", "deleted"]


class HeadCheck(msgspec.Struct, frozen=True, kw_only=True):
    """Whether a log still extends a head noted before."""

    fingerprint: str
    verdict: Verdict
    """``extends`` (the event at that seq is still the one noted), ``truncated`` (the log ends
    before that seq: cut short), ``rewritten`` (the event there is another), ``damaged`` (the
    log fails verification before that seq), ``gone`` (the log is no longer in the ledger) or
    ``unknown`` (``verify --all --head`` of a ledger head this ledger never showed: which games
    changed cannot be said) or ``unvouched`` (``verify --all --head``: the game was left out of
    the noted ledger head, as it failed verification then: nothing vouches for it) or
    ``deleted`` (``verify --all --head``: the ledger's head history says the game was deleted,
    by ``tabletape delete`` in this ledger, at or after that head)."""
    seq: int
    events: int
    """Events in the log now (those that verify)."""
    explanation: str


class MistypedSeq(BadFingerprint):
    """A fingerprint whose code is this log's head at another seq: the seq was mistyped."""


def check_head(records: Sequence[Record], noted: Fingerprint,
               fails_at: int | None = None, noted_hash: str = "") -> HeadCheck:
    """Whether the verified ``records`` still hold the head ``noted`` names (``fails_at``: the
    first seq that fails verification, when the log is damaged there; ``noted_hash``: the
    head's whole hash when it is known, as a remembered ledger head keeps it: then the whole
    hash is compared, not the 55 bits of the fingerprint, which a search could match).

    A code this log holds at another seq is no rewrite but a mistyped seq (the code is cut
    from the seq and the hash together): :class:`MistypedSeq`, saying which was meant (not
    when ``noted_hash`` is given: that head was not typed)."""
    seq, events = noted.seq, len(records)

    def holds() -> bool:
        if noted_hash:
            return records[seq - 1].hash == noted_hash
        return game_fingerprint(seq, records[seq - 1].hash).code == noted.code

    if not noted_hash and (seq > events or not holds()):
        refuse_mistyped_seq(records, noted)
    if seq > events and fails_at is not None:
        verdict: Verdict = "damaged"
        why = (f"the log fails verification at seq {fails_at}, before the noted head (seq "
               f"{seq}): a line was changed or damaged there")
    elif seq > events:
        verdict = "truncated"
        why = (f"the log ends at seq {events}, before the noted head (seq {seq}): it was cut "
               f"short, or {plural(seq - events, 'event')} "
               f"{'was' if seq - events == 1 else 'were'} never recorded here")
    elif not holds():
        verdict = "rewritten"
        why = (f"the event at seq {seq} is not the one noted (its fingerprint is now "
               f"{fingerprint(seq, records[seq - 1].hash)}): the log was rewritten")
    else:
        verdict = "extends"
        why = (f"the log still holds the noted head (seq {seq})"
               + (f" and {plural(events - seq, 'event')} after it" if events > seq
                  else ", its latest"))
    return HeadCheck(fingerprint=str(noted), verdict=verdict, seq=seq, events=events,
                     explanation=why)


def refuse_mistyped_seq(records: Sequence[Record], noted: Fingerprint) -> None:
    """:class:`MistypedSeq` when ``noted``'s code is the fingerprint of another seq of
    ``records``."""
    for record in records:
        if record.seq != noted.seq and game_fingerprint(record.seq, record.hash).code == \
                noted.code:
            meant = fingerprint(record.seq, record.hash)
            raise MistypedSeq(f"{noted} is not a head of this log: did you mean {meant}? (the "
                              "seq looks mistyped: its code is this log's head at seq "
                              f"{record.seq})")


def require_kind(noted: Fingerprint, kind: Kind) -> None:
    """Refuse a ledger fingerprint where a game's is asked for, or the other way round."""
    if noted.kind != kind:
        other = "a whole ledger's head (it starts with L)" if noted.kind == "ledger" else \
            "one game's head"
        use = "verify GAME --head" if noted.kind == "game" else "verify --all --head"
        raise BadFingerprint(f"{noted} is {other}: check it with `tabletape {use}`")


# -- a ledger's head -----------------------------------------------------------------------------


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


# -- signatures ----------------------------------------------------------------------------------


def signed_bytes(signer: str, uid: str, seq: int, head_hash: str) -> bytes:
    """The bytes ``signer`` signs to vouch for the head at ``seq`` with ``head_hash`` of the game
    ``uid``: :data:`SIGNED_MESSAGE`, then those four as a JSON array (no field can run into the
    next), so the name and the game are covered as well as the head."""
    return SIGNED_MESSAGE + msgspec.json.encode([signer, uid, seq, head_hash])


def signed_bytes_v1(seq: int, head_hash: str) -> bytes:
    """What a signature of the previous version covers: the head only, not the signer's name."""
    return SIGNED_MESSAGE_V1 + f"{seq}\0{head_hash}".encode()


def key_fingerprint(public_key: str) -> str:
    """A public key (64 hex digits) as 8 characters people compare: ``ed25519:K7PQ-2M4X``."""
    digest = hashlib.sha256(bytes.fromhex(public_key) if is_hex(public_key, 64)
                            else public_key.encode()).digest()
    chars = code_of(digest, 0)[:8]
    return f"ed25519:{chars[:4]}-{chars[4:]}"


def is_hex(text: str, length: int) -> bool:
    return len(text) == length and all(c in "0123456789abcdef" for c in text)


def signature_valid(public_key: str, signature: str, message: bytes) -> bool:
    """True when ``signature`` (hex) is ``public_key``'s (hex, raw ed25519) over ``message``.

    The mathematics is the ``cryptography`` package's, never ours."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not (is_hex(public_key, 64) and is_hex(signature, 128)):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key)).verify(
            bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        return False
    return True


class Vouch(msgspec.Struct, frozen=True, kw_only=True):
    """One signature checked: who vouched for which head, and whether it holds. It is a
    signature event of the log (``at_seq`` its seq), or, with ``from_receipt``, a receipt kept
    beside the signer's key whose signature event the log no longer holds (``at_seq`` 0)."""

    at_seq: int
    """The seq of the signature event (0 for a receipt)."""
    signer: str
    key: str
    """The signer's key fingerprint (``ed25519:K7PQ-2M4X``)."""
    seq: int
    """The seq of the head vouched for."""
    fingerprint: str
    ok: bool
    problem: str = ""
    note: str = ""
    """What to know of a signature that holds: an older one that does not cover the signer's
    name, a name that signed with more than one key, a key that signed under more names."""
    from_receipt: bool = False
    """A receipt (kept with the signer's key), not a signature event of the log."""


def log_uid(records: Sequence[Record]) -> str:
    """The global identity of the game whose log starts with ``records[0]`` ("" when it has no
    readable start)."""
    from tabletape.ledger.identity import game_uid

    started = started_of(records)
    return game_uid(started.uid, records[0].hash) if started is not None else ""


def started_of(records: Sequence[Record]) -> GameStarted | None:
    """The game-started event of the log whose verified records are ``records`` (None when it
    has none that decodes)."""
    if not records:
        return None
    try:
        return msgspec.json.decode(records[0].payload, type=GameStarted)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


def check_signatures(records: Sequence[Record], registered: dict[str, set[str]] | None = None
                     ) -> list[Vouch]:
    """Every signature event of ``records`` (verified records of one log), checked.

    A signature must be valid for its public key over its signer's name, this game and a head
    this log holds at that seq (else forged, or the log was cut short before it, or rewritten
    there), before the signature itself; a key not among those ``registered`` for the signer's
    name (when the ledger has any for that name) is named too. A name known with more than one
    key, and a key that signed under more than one name, are noted on each of its signatures.
    """
    uid, registered = log_uid(records), registered or {}
    vouches = []
    for record in records:
        if record.type != "sign":
            continue
        try:
            signed = msgspec.json.decode(record.payload, type=Signed)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            vouches.append(Vouch(at_seq=record.seq, signer=record.actor, key="?", seq=0,
                                 fingerprint="", ok=False,
                                 problem=f"the signature event does not decode ({error})"))
            continue
        vouches.append(vouch_of(record, signed, records, registered, uid))
    return with_key_notes(vouches, registered)


def vouch_of(record: Record, signed: Signed, records: Sequence[Record],
             registered: dict[str, set[str]], uid: str = "") -> Vouch:
    """One signature event checked against the log holding it (the game ``uid``)."""
    problem, note = "", ""
    if signature_valid(signed.public_key, signed.signature,
                       signed_bytes(signed.signer, uid, signed.seq, signed.hash)):
        pass
    elif signature_valid(signed.public_key, signed.signature,
                         signed_bytes_v1(signed.seq, signed.hash)):
        note = (f"name not covered (an older signature): the key vouched for the head, but the "
                f"name {signed.signer} beside it could have been changed; compare the key")
    else:
        problem = ("forged: the signature is not that key's over that name, game and head (the "
                   "signer's name was changed, or it was copied from another game)")
    if problem:
        pass
    elif not 1 <= signed.seq < record.seq:
        problem = (f"it vouches for seq {signed.seq}, which this log no longer has before the "
                   "signature: the log was cut short and the signature copied")
    elif records[signed.seq - 1].hash != signed.hash:
        problem = (f"it vouches for another head at seq {signed.seq} than this log holds: the "
                   "log was rewritten there (or the signature copied from another log)")
    elif (known := keys_of_name(registered, signed.signer)) and \
            not any(signed.public_key in keys for keys in known.values()):
        problem = (f"signed with a key the ledger does not know as {signed.signer}'s "
                   "(`tabletape key list --ledger` shows the keys each name has signed with)")
    if not problem:
        note = "; ".join(n for n in (note, undone_since(records, signed.seq)) if n)
    return Vouch(at_seq=record.seq, signer=signed.signer, key=key_fingerprint(signed.public_key),
                 seq=signed.seq, fingerprint=fingerprint(signed.seq, signed.hash),
                 ok=not problem, problem=problem, note=note)


def undone_since(records: Sequence[Record], seq: int) -> str:
    """What was undone after the head at ``seq`` of events it holds ("seq 25 was undone at
    27"), or "": the game vouched for is no longer the game now."""
    from tabletape.ledger.events import Retracted

    said = []
    for record in records[seq:]:
        if record.type != "undo":
            continue
        try:
            undone = msgspec.json.decode(record.payload, type=Retracted).seq
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue
        if undone <= seq:
            said.append(f"seq {undone} was undone at {record.seq}")
    return ", ".join(said)


def log_signers(records: Sequence[Record]) -> dict[str, set[str]]:
    """Name -> the public keys of the signatures of ``records`` (verified records of one log)
    that hold (valid, over a head this log holds): the names this log knows, as a registry."""
    uid, signers = log_uid(records), dict[str, set[str]]()
    for record, signed in signed_events(records):
        if vouch_of(record, signed, records, {}, uid).ok:
            signers.setdefault(signed.signer, set()).add(signed.public_key)
    return signers


def signed_events(records: Sequence[Record]) -> Iterator[tuple[Record, Signed]]:
    """Each ``sign`` event of ``records`` that decodes, with its record (one that does not is
    left to :func:`check_signatures`, which names it)."""
    for record in records:
        if record.type != "sign":
            continue
        try:
            yield record, msgspec.json.decode(record.payload, type=Signed)
        except (msgspec.DecodeError, msgspec.ValidationError):
            continue


def keys_of_name(known: dict[str, set[str]], name: str) -> dict[str, set[str]]:
    """The entries of ``known`` (name -> keys) whose name is ``name`` whatever its case: "Olga"
    is known when "olga" is (each spelling kept).

    >>> keys_of_name({"olga": {"k1"}, "Olga": {"k2"}, "oleg": {"k3"}}, "OLGA")
    {'olga': {'k1'}, 'Olga': {'k2'}}
    """
    folded = name.casefold()
    return {n: keys for n, keys in known.items() if n.casefold() == folded}


def with_key_notes(vouches: list[Vouch], registered: dict[str, set[str]]) -> list[Vouch]:
    """``vouches``, each noting when its signer's name is known (in the ledger or in this log)
    with more than one key, or its key under more than one name: a key added with ``sign
    --new-key``, or a name relabelled, which nobody should take on trust."""
    keys: dict[str, set[str]] = {n: {key_fingerprint(k) for k in ks}
                                 for n, ks in registered.items()}
    names: dict[str, set[str]] = {}
    for vouch in vouches:
        if vouch.key != "?":
            keys.setdefault(vouch.signer, set()).add(vouch.key)
    for name, fingerprints in keys.items():
        for key in fingerprints:
            names.setdefault(key, set()).add(name)
    noted = []
    for vouch in vouches:
        said = [vouch.note] if vouch.note else []
        if len(keys.get(vouch.signer, ())) > 1:
            said.append(f"{vouch.signer} has signed with {len(keys[vouch.signer])} keys "
                        f"({', '.join(sorted(keys[vouch.signer]))}): a key is added under a "
                        "known name by `sign --new-key`, which anyone can run; check with "
                        f"{vouch.signer} that each is theirs (`tabletape key list --ledger`)")
        others = sorted(names.get(vouch.key, set()) - {vouch.signer})
        if others:
            said.append(f"key {vouch.key} signed as {', '.join(others)} too")
        noted.append(msgspec.structs.replace(vouch, note="; ".join(said)) if said else vouch)
    return noted


class Receipt(msgspec.Struct, frozen=True, kw_only=True):
    """What a signer keeps of each signature, outside the ledger (beside the key): a log cut
    back before the signature event, rewritten under another identity, or deleted is caught by
    the signer's machine, whatever the ledger."""

    uid: str
    """The game's global identity."""
    game: str
    signer: str
    public_key: str
    seq: int
    hash: str
    at: str
    ledger: str = ""
    """The ledger's folder (resolved) when signed; "" in receipts of the previous version."""
    ledger_id: str = ""
    """The ledger's identity (:func:`ledger_id`), which survives a move; "" in receipts made
    before ledgers had one (those are matched by ``ledger``, the folder)."""


def ledger_identity(root: Path) -> str:
    """How a receipt names the ledger's folder: resolved."""
    return str(root.expanduser().resolve())


def ledger_id_path(root: Path) -> Path:
    return root / "private" / "ledger-id"


def ledger_id(root: Path, *, make: bool = False) -> str:
    """The ledger's identity, a UUIDv7 kept in ``private/ledger-id`` (moved with the ledger,
    never exported): "" when it has none yet, unless ``make`` (then it is made; "" still when it
    cannot be written: a read-only ledger)."""
    from tabletape.ledger.identity import is_uuid7, uuid7

    path = ledger_id_path(root)
    try:
        text = path.read_text(encoding="ascii").strip() if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        text = ""
    if text and is_uuid7(text):
        return text
    if not make or path.exists():
        return ""
    made = uuid7()
    try:
        path.parent.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        with os.fdopen(fd, "w", encoding="ascii") as handle:
            handle.write(made + "\n")
    except OSError:
        return ""
    return made


def made_here(receipt: Receipt, root: Path, here_id: str | None = None) -> bool:
    """Whether ``receipt`` was made in the ledger at ``root``: by the ledger's identity when
    the receipt has one (the ledger may have moved since), else by its folder (a receipt of
    the previous version, naming no ledger at all, is taken as made here). A ledger with no
    identity file is matched by its folder."""
    here_id = ledger_id(root) if here_id is None else here_id
    if receipt.ledger_id and here_id and receipt.ledger_id == here_id:
        return True
    # the same folder counts whatever its identity file says now: replacing that file must
    # not turn the receipts off (the verify command names the change, identity_changed)
    return not receipt.ledger or receipt.ledger == ledger_identity(root)


def identity_changed(receipts: Sequence[Receipt], root: Path) -> bool:
    """Whether a receipt made in this ledger's folder names another ledger identity than the
    one it has now (its ``private/ledger-id`` replaced or deleted since, or a new ledger made
    at the folder of an old one)."""
    here, here_id = ledger_identity(root), ledger_id(root)
    return any(r.ledger == here and r.ledger_id and r.ledger_id != here_id for r in receipts)


def check_receipts(records: Sequence[Record], receipts: Sequence[Receipt],
                   vouches: Sequence[Vouch]) -> list[Vouch]:
    """The receipts of this game (``records``, verified) whose signature event the log no
    longer holds, checked: each is a problem (the log was cut short, rewritten after it, or
    rewritten under another identity)."""
    if not records:
        return []
    uid = log_uid(records)
    in_log = {(v.signer, v.seq, v.fingerprint) for v in vouches if not v.from_receipt}
    problems = []
    for receipt in receipts:
        shown = fingerprint(receipt.seq, receipt.hash)
        if receipt.uid == uid and (receipt.signer, receipt.seq, shown) in in_log:
            continue  # the signature event is there (if it fails, it says why itself)
        if receipt.uid != uid:
            why = (f"the log under {receipt.game} is another game ({uid or 'no identity'}, where "
                   f"the receipt names {receipt.uid}): rewritten (its identity changed)")
        elif receipt.seq > len(records):
            why = (f"the log ends at seq {len(records)}, before it: cut short (the signature "
                   "event is gone with it)")
        elif records[receipt.seq - 1].hash != receipt.hash:
            why = f"the log holds another event at seq {receipt.seq}: rewritten"
        else:
            why = ("the log holds that head but not the signature event after it: cut short "
                   "(or rewritten) after it")
        problems.append(receipt_problem(receipt, why))
    return problems


def receipt_problem(receipt: Receipt, why: str) -> Vouch:
    """A receipt whose signature the ledger no longer holds, and why."""
    return Vouch(at_seq=0, signer=receipt.signer, key=key_fingerprint(receipt.public_key),
                 seq=receipt.seq, fingerprint=fingerprint(receipt.seq, receipt.hash), ok=False,
                 problem=f"{receipt.signer}'s receipt (kept with the key): {why}",
                 from_receipt=True)


def vouch_line(vouch: Vouch) -> str:
    """``olga vouched for seq 412`` (and what is wrong, or to know, when something is)."""
    said = f"{vouch.signer} vouched for seq {vouch.seq} ({vouch.fingerprint}, key {vouch.key})"
    if not vouch.ok:
        return f"{said}: {vouch.problem}"
    return f"{said}; warning: {vouch.note}" if vouch.note else said


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
