"""One event as one line of JSON, hash-chained to the line before.

A stored line is the JSON object ``{"seq":…,"at":…,"actor":…,"type":…,"payload":{…},"prev":…}``
with ``,"hash":"<64 hex>"`` spliced in before the closing brace. The hash is SHA-256 of the exact
bytes of the line without that hash field (the *body*), and the body holds the previous hash, so
the chain covers every byte of every line.

>>> body = encode_body(1, "2026-01-01T00:00:00.000000Z", "table", "note",
...                    b'{"text":"hi"}', GENESIS_HASH)
>>> line = seal(body)
>>> record = decode_line(line)
>>> (record.seq, record.type, bytes(record.payload))
(1, 'note', b'{"text":"hi"}')
>>> line_body(line) == body
True
"""

from __future__ import annotations

import hashlib
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import msgspec

from tabletape.ledger.events import GENESIS_HASH, Drawn, Event, event_type

__all__ = [
    "GENESIS_HASH",
    "Record",
    "decode_line",
    "decoded_from",
    "decoded_lines",
    "encode_body",
    "encode_payload",
    "line_body",
    "seal",
    "utc_stamp",
]

HASH_FIELD = b',"hash":"'
SEALED_TAIL = len(HASH_FIELD) + 64 + 2
"""Bytes that :func:`seal` adds at the end of a body, less the closing brace it replaces: 75."""


class Record(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """One stored event: the envelope, with the payload left as raw JSON for the game to decode."""

    seq: int
    """Position in the log, from 1 (the game-started event) with no gaps."""
    at: str
    """When it was recorded: UTC, RFC 3339 with microseconds and ``Z``."""
    actor: str
    """The player who acted, or ``table``."""
    type: str
    """The event's tag, e.g. ``roll``."""
    payload: msgspec.Raw
    """The event's fields as stored JSON (without the tag)."""
    prev: str
    """Hash of the previous line (``GENESIS_HASH`` for seq 1)."""
    hash: str
    """SHA-256 of this line's body."""
    drawn: Drawn | None = None
    """Set (and stored) only on an event whose chance tabletape drew: its effective roll index
    and the fields it filled in."""
    more: int = 0
    """Lines of the same append still to come after this one: 0 (and not stored) on the last
    line of every append. A log whose last line says more holds an append cut short by a crash."""


class _Body(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    seq: int
    at: str
    actor: str
    type: str
    payload: msgspec.Raw
    prev: str
    drawn: Drawn | None = None
    more: int = 0


_encoder = msgspec.json.Encoder()
_record_decoder = msgspec.json.Decoder(Record)


def utc_stamp(moment: datetime | None = None) -> str:
    """``2026-11-29T14:51:46.123456Z``: the ``at`` of an event recorded at ``moment`` (or now).

    >>> utc_stamp(datetime(2026, 11, 29, 14, 51, 46, 123456, tzinfo=UTC))
    '2026-11-29T14:51:46.123456Z'
    """
    if moment is not None:
        return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    nanoseconds = time.time_ns()  # the recording path: a few times faster than strftime
    seconds, micro = divmod(nanoseconds // 1000, 1_000_000)
    t = time.gmtime(seconds)
    return (f"{t.tm_year:04d}-{t.tm_mon:02d}-{t.tm_mday:02d}T{t.tm_hour:02d}:{t.tm_min:02d}:"
            f"{t.tm_sec:02d}.{micro:06d}Z")


def encode_payload(event: Event) -> bytes:
    """The event's fields as JSON, without its tag (the envelope's ``type`` holds that).

    >>> from tabletape.ledger.events import Retracted
    >>> encode_payload(Retracted(seq=4))
    b'{"seq":4}'
    """
    encoded = _encoder.encode(event)
    prefix_length = len(event_type(event)) + 10  # {"type":"<tag>"
    rest = encoded[prefix_length:]
    return b"{" + rest[1:] if rest.startswith(b",") else b"{" + rest


def encode_body(seq: int, at: str, actor: str, type: str, payload: bytes, prev: str,
                more: int = 0, drawn: Drawn | None = None) -> bytes:
    """The hashed bytes of a line: the envelope without its hash (``more`` only when not 0,
    ``drawn`` only when tabletape drew)."""
    return _encoder.encode(
        _Body(seq=seq, at=at, actor=actor, type=type, payload=msgspec.Raw(payload), prev=prev,
              drawn=drawn, more=more)
    )


def sealed_record(seq: int, at: str, actor: str, type: str, payload: bytes,
                  prev: str, more: int = 0, drawn: Drawn | None = None) -> tuple[bytes, Record]:
    """The stored line (newline excluded) of a new event, and its record, built in one go.

    ``more`` counts the lines of the same append that follow this one.

    >>> line, record = sealed_record(1, "2026-01-01T00:00:00.000000Z", "table", "note",
    ...                              b'{"text":"hi"}', GENESIS_HASH)
    >>> decode_line(line) == record
    True
    """
    body = encode_body(seq, at, actor, type, payload, prev, more, drawn)
    digest = hashlib.sha256(body).hexdigest()
    record = Record(seq=seq, at=at, actor=actor, type=type, payload=msgspec.Raw(payload),
                    prev=prev, hash=digest, drawn=drawn, more=more)
    return body[:-1] + HASH_FIELD + digest.encode() + b'"}', record


def seal(body: bytes) -> bytes:
    """The stored line (newline excluded): ``body`` with its hash spliced in before the brace."""
    digest = hashlib.sha256(body).hexdigest().encode()
    return body[:-1] + HASH_FIELD + digest + b'"}'


def line_body(line: bytes) -> bytes:
    """The body that :func:`seal` sealed: the line without its hash field (newline excluded)."""
    return line[:-SEALED_TAIL] + b"}"


def decode_line(line: bytes) -> Record:
    """Decode a stored line (with or without its newline); raises ``msgspec.DecodeError``."""
    return _record_decoder.decode(line)


def body_hash_matches(line: bytes) -> bool:
    """True when the line is sealed and its hash is the SHA-256 of its body."""
    marker = line[-SEALED_TAIL : -SEALED_TAIL + len(HASH_FIELD)]
    if len(line) <= SEALED_TAIL or marker != HASH_FIELD:
        return False
    stated = line[-66:-2]
    return hashlib.sha256(line_body(line)).hexdigest().encode() == stated


Decoded = TypeVar("Decoded")


def decoded_lines(path: Path, decoder: msgspec.json.Decoder[Decoded]) -> list[Decoded]:
    """The lines of the JSON Lines file ``path`` that ``decoder`` takes, in order: a line that
    does not decode (a write cut short, a hand edit) is passed over, and a file that is missing
    or cannot be read gives none. For side files a person may lose or edit (receipts, a
    ledger's head history), never for logs, which are verified whole.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "n.jsonl").write_bytes(b'1\\n{oops\\n3\\n')
    >>> decoded_lines(folder / "n.jsonl", msgspec.json.Decoder(int))
    [1, 3]
    >>> decoded_lines(folder / "gone.jsonl", msgspec.json.Decoder(int))
    []
    """
    try:
        data = path.read_bytes()
    except OSError:
        return []
    return decoded_from(data, decoder)[0]


def decoded_from(data: bytes, decoder: msgspec.json.Decoder[Decoded]
                 ) -> tuple[list[Decoded], int]:
    """The lines of ``data`` (JSON Lines) that ``decoder`` takes, and how many it passed over
    (blank lines are not counted).

    >>> decoded_from(b'1\\n\\nnope\\n2\\n', msgspec.json.Decoder(int))
    ([1, 2], 1)
    """
    kept, skipped = [], 0
    for line in data.splitlines():
        try:
            kept.append(decoder.decode(line))
        except msgspec.DecodeError:
            skipped += bool(line.strip())
    return kept, skipped
