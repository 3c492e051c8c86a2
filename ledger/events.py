"""The facts every log shares, whatever the game.

Every game's events subclass :class:`Event`. Its tag is the action name a person types
(``roll``, ``attack``), so the same word names the event in the log, at the prompt and in SQL.

>>> class Rolled(Event, tag="roll"):
...     dice: tuple[int, ...] = ()
>>> event_type(Rolled)
'roll'
"""

from __future__ import annotations

from typing import Any, dataclass_transform

import msgspec

GENESIS_HASH = "0" * 64
"""The ``prev`` hash of a log's first event."""

TABLE = "table"
"""The actor of events nobody in particular made (setup, shuffles, the villain's deck)."""


# msgspec passes a Struct's options on to its subclasses (an event is frozen and keyword-only
# without saying so again); this tells type checkers, whose dataclass_transform default is "not
# frozen" (they would report every event as a non-frozen subclass of a frozen class).
@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(msgspec.field,))
class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event: an immutable fact, tagged with its kebab-case action name."""


def event_type(cls: type[Event] | Event) -> str:
    """The tag (action name) of an event class or instance."""
    cls = cls if isinstance(cls, type) else type(cls)
    return str(cls.__struct_config__.tag)


class GameStarted(Event, tag="game-started"):
    """First event of every log: what is being played, by whom, with which options."""

    kind: str
    """Registry name of the game kind, e.g. ``risk-strike``."""
    rules_version: str
    """Version of the rules module that recorded the game."""
    tabletape_version: str
    players: tuple[str, ...]
    """Player names in seat order (play order before any first-player roll-off)."""
    options: dict[str, Any] = {}
    """Validated options in force, data overrides included, with defaults filled in."""
    seed: int = 0
    """Seed of tabletape's dice in a log without a ``commitment`` (older logs, and games started
    with ``new --seed``): their dice derive, in public, from it and the event's seq."""
    parent: str | None = None
    """For a forked game: the game it was forked from."""
    fork_seq: int | None = None
    """For a forked game: the last seq of the parent repeated here."""
    simulated: bool = False
    """True for a game bots played (``tabletape simulate``): left out of ``stats`` and ``sql``
    unless asked for, and its recorded-at times count from 1970-01-01, never a real date."""
    uid: str = ""
    """The game's global identity, a UUIDv7 (:mod:`tabletape.ledger.identity`); the game id
    (``rs-k7pq``) is only a handle. Empty in logs from before identities: theirs is derived from
    the first line's hash (:func:`tabletape.ledger.identity.game_uid`)."""
    commitment: str = ""
    """SHA-256 (hex) of the game's dice secret, domain-separated
    (:func:`tabletape.rules.fair_dice.commitment`): the secret itself stays in the ledger's private
    area until :class:`SecretRevealed`; tabletape's dice derive from the secret and each roll's
    effective index. Empty in older logs and ``new --seed`` games (their ``seed`` is public)."""
    dice_streams: str | msgspec.UnsetType = msgspec.UNSET
    """How tabletape's dice derive from the secret: ``per-field`` (each field of a roll, such as
    ``attacker`` and ``defender``, draws its own stream:
    :func:`tabletape.rules.fair_dice.completed`);
    left out (and so not stored) in older committed logs, whose rolls draw one stream per
    effective roll index, and in ``new --seed`` games."""
    fork_hash: str = ""
    """For a forked game: the hash of the parent's event at ``fork_seq`` (empty in forks made
    before it was recorded): ``verify`` and ``audit`` check the parent still holds it."""
    demo: bool | msgspec.UnsetType = msgspec.UNSET
    """True for a game ``tabletape demo`` recorded: left out of ``stats``, ``sql``, the exports
    and the site unless asked for (``--include-simulated``), as simulated games are. Left out
    (and so not stored) in every other game, whose logs stay as they were."""


class Retracted(Event, tag="undo"):
    """``undo``: the action at ``seq`` is retracted; the fold skips it, the log keeps it."""

    seq: int


class Noted(Event, tag="note"):
    """An annotation a person added: shown in replay and narration, ignored by the rules."""

    text: str
    about: int | None = None
    """The seq the note is about, if any."""


class SecretRevealed(Event, tag="secret-revealed"):
    """The game's dice secret, made public: appended by the table right after the event that
    ends the game (or by ``tabletape reveal`` for an abandoned one). From here on anyone can check
    the commitment and re-derive every roll tabletape made."""

    secret: str
    """The secret, as 64 hex digits."""


class Drawn(msgspec.Struct, frozen=True, kw_only=True):
    """The stored mark (the envelope's ``drawn``) of an event whose chance tabletape drew.

    Events without it hold only what the table entered (dice as they landed, cards as seen).
    """

    roll: int
    """The event's effective roll index: how many events before it, not retracted, drew."""
    filled: tuple[str, ...] = ()
    """The fields tabletape filled in (those the person left empty); the rest were entered."""


class DrawnDraft(tuple[str, Event]):
    """A draft ``(actor, event)`` whose chance tabletape drew: the ledger stores ``drawn`` with
    it. It unpacks like any draft.

    >>> actor, event = DrawnDraft("olga", Noted(text="x"), Drawn(roll=0))
    >>> actor, DrawnDraft("olga", event, Drawn(roll=2)).drawn.roll
    ('olga', 2)
    """

    drawn: Drawn

    def __new__(cls, actor: str, event: Event, drawn: Drawn) -> DrawnDraft:
        draft = super().__new__(cls, (actor, event))
        draft.drawn = drawn
        return draft


class Signed(Event, tag="sign"):
    """``sign``: a player vouches for the log's head at ``seq`` with an ed25519 signature.

    Like a note, it changes nothing in the game; ``verify`` checks every one
    (:mod:`tabletape.ledger.heads`)."""

    signer: str
    """The name of the key that signed (``tabletape key new NAME``)."""
    public_key: str
    """The signer's ed25519 public key, 64 hex digits: anyone can check the signature."""
    seq: int
    """The head vouched for: its seq ..."""
    hash: str
    """... and its hash."""
    signature: str
    """128 hex digits: the signature over :func:`tabletape.ledger.signatures.signed_bytes`."""


LEDGER_EVENTS: tuple[type[Event], ...] = (GameStarted, Retracted, Noted, SecretRevealed,
                                         Signed)
"""Event types every log may hold, whatever its game."""
