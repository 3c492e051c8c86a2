"""A game's dice secret: kept in the ledger's private folder, checked against the commitment
its log names (the fold reads it; :mod:`tabletape.replay.recording` rolls with it).
"""

from __future__ import annotations

import os

import msgspec

from tabletape.ledger import (
    GameStarted,
    Ledger,
    LedgerError,
)
from tabletape.rules.fair_dice import PER_FIELD, commitment


def load_secret(ledger: Ledger, game: str, started: GameStarted) -> tuple[bytes | None, str]:
    """The dice secret ``ledger`` keeps for ``game``, checked against its commitment, or None and
    why (the secret is never part of the message)."""
    if not started.commitment:
        return None, ""
    secret = ledger.secret(started.uid) if started.uid else None
    place = f"{ledger.private_dir}{os.sep}dice"
    if secret is None and secret_kept(ledger, started.uid):
        return None, (f"game {game}'s dice secret in {place} is damaged (it is not the 64 hex "
                      "digits tabletape wrote), so tabletape cannot roll for it")
    if secret is None:
        return None, (f"game {game}'s dice secret is not in this ledger (not in {place}: "
                      "deleted, or the game was recorded in another ledger), so tabletape "
                      "cannot roll for it")
    if commitment(secret) != started.commitment:
        return None, (f"the dice secret kept for game {game} in {place} does not match the "
                      "commitment in its log, so tabletape cannot roll for it")
    return secret, ""


def secret_kept(ledger: Ledger, uid: str) -> bool:
    """Whether a file stands where ``ledger`` keeps the dice secret of game ``uid``."""
    try:
        return bool(uid) and ledger.secret_path(uid).exists()
    except (LedgerError, OSError):
        return False


def committed(started: GameStarted, secret: bytes | None) -> GameStarted:
    """``started`` committing to ``secret`` (as it is without one: a public ``seed``)."""
    if secret is None:
        return msgspec.structs.replace(started, commitment="", dice_streams=msgspec.UNSET)
    return msgspec.structs.replace(started, commitment=commitment(secret),
                                   dice_streams=PER_FIELD)
