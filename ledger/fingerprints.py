"""A log's head as a short fingerprint a person can note, and proof that a log still extends a
noted one (a ledger-wide head is :mod:`tabletape.ledger.heads`, signatures
:mod:`tabletape.ledger.signatures`, receipts :mod:`tabletape.ledger.receipts`).

The hash chain finds a changed byte, but not a log cut off at a line end, nor one rewritten
with every hash recomputed: both are intact chains. What catches them is a head noted before
(or signed): the log must still hold that event, with that hash.

A **fingerprint** names a head in 12 characters a person can note or photograph, after its seq:
``412:7KQ2-M4XD-9PRA``. The 11 characters before the last are 55 bits of
``SHA-256("tabletape head" | seq | hash)`` in Crockford's base32 (no I, L, O, U: read aloud,
they are typed right); the last is a check character (Luhn mod 32 over the seq's digits and the
11 others), so a typo is said to be a typo, never taken for a rewritten log. A ledger's head is
written ``L37:…``: the Merkle root over the 37 games' ``(id, head hash)``, sorted by id (a game
left out because it failed verification is a leaf too: :mod:`tabletape.ledger.heads`).

>>> text = fingerprint(412, "ab" * 32)
>>> text
'412:Z42B-QCEF-X120'
>>> parse_fingerprint("seq 412 · z42b qcef x12o") == parse_fingerprint(text)
True
>>> parse_fingerprint("412:Z42B-QCEF-X121")
Traceback (most recent call last):
...
tabletape.ledger.fingerprints.BadFingerprint: '412:Z42B-QCEF-X121' has a typo: its check ...
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Literal

import msgspec

from tabletape.ledger.codec import Record
from tabletape.ledger.errors import USAGE_EXIT
from tabletape.ledger.store import LedgerError
from tabletape.ledger.text import plural

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
"""Crockford's base32: digits and letters, without I, L, O and U."""
ALIASES = {"O": "0", "I": "1", "L": "1"}
"""Letters read as the digits they look like (Crockford)."""
CODE_CHARS = 12
"""Characters of a fingerprint after its seq: 11 of the hash, 1 check character."""
LEDGER_MARK = "L"
"""Starts a ledger-wide fingerprint (``L37:…``: the head of a ledger of 37 games)."""
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
