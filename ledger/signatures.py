"""Signatures players add to a game's head (ed25519, through cryptography), what they vouch for,
and the keys that made them."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence

import msgspec

from tabletape.ledger.codec import Record
from tabletape.ledger.events import GameStarted, Signed
from tabletape.ledger.fingerprints import code_of, fingerprint

# -- signatures ----------------------------------------------------------------------------------

SIGNED_MESSAGE = b"tabletape signed head v2\0"
"""What a signature covers starts with this, then the signer's name, the game's uid, the seq
and the head hash (see :func:`signed_bytes`)."""
SIGNED_MESSAGE_V1 = b"tabletape signed head v1\0"
"""The previous version's signatures: the seq and the head hash only (still verified, noted as
not covering the name)."""



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
