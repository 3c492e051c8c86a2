"""Receipts: what a player's own signing leaves in their receipts file (the game, its uid, the
head signed and the ledger it was signed in), checked against a log to find one cut back or
rewritten since."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec

from tabletape.ledger.codec import Record
from tabletape.ledger.fingerprints import fingerprint
from tabletape.ledger.identity import ledger_id, ledger_identity
from tabletape.ledger.signatures import Vouch, key_fingerprint, log_uid


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
    """The ledger's identity (:func:`tabletape.ledger.identity.ledger_id`), which survives a
    move; "" in receipts made before ledgers had one (those are matched by ``ledger``, the
    folder)."""


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
