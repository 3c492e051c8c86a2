"""Dice no one can foresee: a game's secret committed to in its first event, each roll drawn from
it by effective roll index and field, the secret revealed at the end so anyone can re-derive
every roll; and, for older logs and games started with a public ``--seed``, dice derived from
the seed and the event's seq (:func:`dice_rng`, :func:`roll_dice`).
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from tabletape.ledger.events import (
    Drawn,
    DrawnDraft,
    Event,
    GameStarted,
)
from tabletape.rules.kernel import IllegalAction, Rules

# -- dice from a public seed ---------------------------------------------------------------------


def roll_dice(seed: int, seq: int, count: int, sides: int = 6) -> tuple[int, ...]:
    """Dice rolled by tabletape for the event at ``seq`` of a game seeded with ``seed``: the
    ``count`` dice an event's ``complete`` drew from :func:`dice_rng`, in the order it drew them.

    Deterministic, so an auditor re-derives them from the log:

    >>> roll_dice(42, 7, 3) == roll_dice(42, 7, 3)
    True
    >>> all(1 <= d <= 8 for d in roll_dice(1, 1, 5, sides=8))
    True
    >>> rng = dice_rng(42, 7)
    >>> roll_dice(42, 7, 3) == tuple(rng.randint(1, 6) for _ in range(3))  # one generator
    True
    """
    rng = dice_rng(seed, seq)
    return tuple(rng.randint(1, sides) for _ in range(count))


def dice_rng(seed: int, seq: int) -> Draws:
    """The generator of a game with a public seed (no commitment) for whatever chance decides at
    ``seq``: anyone who reads the log can compute it (the old derivation, kept for old logs)."""
    digest = hashlib.sha256(f"tabletape:{seed}:{seq}".encode()).digest()
    return Draws(int.from_bytes(digest[:8], "big"))


# -- dice no one can foresee: commit, draw by effective roll index, reveal ------------------------

SECRET_BYTES = 32
"""Size of a game's dice secret."""

COMMIT_DOMAIN = b"tabletape/dice-commitment/v1\0"
ROLL_DOMAIN = b"tabletape/dice-roll/v1\0"
"""Domain separation: the commitment and the rolls hash the secret under different prefixes, so
the commitment printed in the log says nothing about any roll."""


def new_secret() -> bytes:
    """A fresh dice secret from the operating system's generator (:mod:`secrets`): the one
    randomness tabletape does not receive (the commands that start a game call this)."""
    return secrets.token_bytes(SECRET_BYTES)


def commitment(secret: bytes) -> str:
    """The commitment written in game-started: SHA-256 (hex) of the domain-separated secret.

    >>> commitment(bytes(32)) == commitment(bytes(32)) != commitment(bytes(31) + b"\\1")
    True
    """
    return hashlib.sha256(COMMIT_DOMAIN + secret).hexdigest()


def secret_rng(secret: bytes, roll: int) -> Draws:
    """The generator of the game's ``roll``-th effective roll (counted from 0): SHA-256 of the
    domain-separated secret and the index seeds it. The same index, the same dice: undoing a roll
    and rolling again draws them again; a note or any event that draws nothing changes nothing.

    >>> secret_rng(bytes(32), 3).random() == secret_rng(bytes(32), 3).random()
    True
    """
    return Draws(roll_seed(secret, roll))


def roll_seed(secret: bytes, roll: int) -> int:
    """The seed of :func:`secret_rng`: SHA-256 of the domain-separated secret and index."""
    return int.from_bytes(hashlib.sha256(ROLL_DOMAIN + secret + roll.to_bytes(8, "big")).digest(),
                          "big")


class Draws(random.Random):
    """A generator that counts the values drawn from it (so the fold knows whether an event drew
    tabletape's dice), or, made with a ``refusal``, refuses every draw with that reason (a game
    whose secret is not here: the table enters its dice).

    Made with ``later``, it is seeded with ``later()`` when first drawn from (a seed that costs
    something to work out is worked out only for an event that draws).

    >>> rng = Draws(5)
    >>> rng.count, rng.randint(1, 6) == random.Random(5).randint(1, 6), rng.count > 0
    (0, True, True)
    >>> Draws(later=lambda: 5).random() == random.Random(5).random()
    True
    """

    def __init__(self, seed: int = 0, *, refusal: str = "",
                 later: Callable[[], int] | None = None) -> None:
        self.refusal = refusal
        self.count = 0
        self.later = later
        super().__init__(seed)

    def drawing(self) -> None:
        if self.refusal:
            raise IllegalAction(self.refusal)
        if self.later is not None:
            later, self.later = self.later, None
            super().seed(later())
        self.count += 1

    def getrandbits(self, k: int, /) -> int:
        self.drawing()
        return super().getrandbits(k)

    def random(self) -> float:
        self.drawing()
        return super().random()


PER_FIELD = "per-field"
"""The mark (``GameStarted.dice_streams``) of a game whose dice draw one stream per field
(:class:`FieldDraws`); older committed logs draw one stream per roll index."""

FIELD_DOMAIN = b"tabletape/dice-field/v2\0"
"""Domain of the per-field streams (apart from :data:`ROLL_DOMAIN`'s per-index ones)."""


def field_seed(secret: bytes, roll: int, field: str) -> int:
    """The seed of field ``field``'s dice at effective roll index ``roll``: SHA-256 of the
    domain, the secret, the index and the field's name.

    >>> field_seed(bytes(32), 0, "attacker") != field_seed(bytes(32), 0, "defender")
    True
    """
    digest = hashlib.sha256(FIELD_DOMAIN + secret + roll.to_bytes(8, "big") + b"\0"
                            + field.encode())
    return int.from_bytes(digest.digest(), "big")


def field_rng(secret: bytes, roll: int, field: str) -> Draws:
    """The generator of field ``field``'s dice at effective roll index ``roll`` in a per-field
    game: the same index and field, the same dice, whatever else the event holds.

    >>> field_rng(bytes(32), 3, "dice").random() == field_rng(bytes(32), 3, "dice").random()
    True
    """
    return Draws(field_seed(secret, roll, field))


class FieldDraws(Draws):
    """The generator of one field of a roll, in a game whose every field draws its own stream
    (:func:`completed`): a side's dice never depend on what the other side typed or how many
    dice it rolls. ``field`` "" is the probe that finds which fields an event leaves out; its
    :meth:`stream` gives each field's generator, and every draw counts on the probe too.

    >>> probe = FieldDraws(bytes(32), lambda: 0)
    >>> a = probe.stream("attacker").random(); probe.count > 0
    True
    >>> a == FieldDraws(bytes(32), lambda: 0, "attacker").random()
    True
    """

    def __init__(self, secret: bytes, roll: Callable[[], int], field: str = "",
                 parent: FieldDraws | None = None) -> None:
        self.secret, self.roll_of, self.field, self.parent = secret, roll, field, parent
        self._index: int | None = None
        super().__init__(later=lambda: field_seed(secret, self.index, field))

    @property
    def index(self) -> int:
        """The effective roll index (worked out once, when first asked)."""
        if self.parent is not None:
            return self.parent.index
        if self._index is None:
            self._index = self.roll_of()
        return self._index

    def drawing(self) -> None:
        super().drawing()
        if self.parent is not None:
            self.parent.count += 1

    def stream(self, field: str) -> FieldDraws:
        """The generator of ``field`` (this one when it is ``field``'s), fresh from its start."""
        if field == self.field:
            return self
        return FieldDraws(self.secret, self.roll_of, field, self.parent or self)


def stream(rng: random.Random, field: str) -> random.Random:
    """What a game's ``complete`` draws ``field`` from when it fills several fields at once
    whose draws would otherwise depend on each other (how many dice one side rolls): the
    field's own stream in a per-field game, else ``rng`` itself (older logs, a public seed)."""
    return rng.stream(field) if isinstance(rng, FieldDraws) else rng


def chance_rng(started: GameStarted, seq: int, roll: int | Callable[[], int],
               secret: bytes | None, refusal: str = "") -> Draws:
    """The generator for the event recorded at ``seq``, the game's ``roll``-th effective roll if
    it draws (``roll`` may be a function, called only then): from the secret for a game with a
    commitment (a :class:`Draws` refusing with ``refusal`` when the secret is not given; a
    :class:`FieldDraws` probe in a game marked :data:`PER_FIELD`, to give to
    :func:`completed`), else from the public seed and the seq."""
    if not started.commitment:
        return dice_rng(started.seed, seq)
    if secret is None or refusal:
        return Draws(refusal=refusal or "tabletape cannot roll for this game here")
    if started.dice_streams == PER_FIELD:
        return FieldDraws(secret, roll if callable(roll) else (lambda: roll))
    if callable(roll):
        return Draws(later=lambda: roll_seed(secret, roll()))
    return secret_rng(secret, roll)


def completed(rules: Rules[Any], state: Any, actor: str, typed: Event, rng: Draws) -> Event:
    """``typed`` with what tabletape decides filled in by ``rules.complete``, from ``rng``
    (:func:`chance_rng`).

    With a :class:`FieldDraws` probe, each field left out is filled from its own stream: a
    first completion (from the probe) finds the fields filled; then, in field order, field F is
    completed again from F's stream on the event with the fields before it filled, and only F
    is kept (when the game fills F only with the others left out, as a Transformers or Deep
    Space battle does, F is completed from the event as typed). Fields a game works out from
    others (a Masterplan card's face) follow the drawn ones, as they would in one completion.
    """
    first = rules.complete(state, actor, typed, rng)
    if not isinstance(rng, FieldDraws) or not rng.count:
        return first
    so_far = typed
    for name in filled_fields(typed, first):
        value = getattr(rules.complete(state, actor, so_far, rng.stream(name)), name)
        if value == getattr(so_far, name):
            value = getattr(rules.complete(state, actor, typed, rng.stream(name)), name)
        so_far = msgspec.structs.replace(so_far, **{name: value})
    return msgspec.structs.replace(first, **{name: getattr(so_far, name)
                                             for name in filled_fields(typed, first)})


def filled_fields(typed: Event, completed: Event) -> tuple[str, ...]:
    """The fields ``complete`` filled in: left at their default when typed, changed since.

    >>> from tabletape.ledger.events import Noted
    >>> typed = Noted(text="x")
    >>> filled_fields(typed, Noted(text="x", about=4)), filled_fields(typed, Noted(text="y"))
    (('about',), ())
    """
    found = []
    for field in msgspec.structs.fields(completed):
        before, after = getattr(typed, field.name), getattr(completed, field.name)
        if before != after and not field.required and before == field_default(field):
            found.append(field.name)
    return tuple(found)


def field_default(field: msgspec.structs.FieldInfo) -> Any:
    """The value an optional field takes when it is left out."""
    if field.default_factory is not msgspec.NODEFAULT:
        return field.default_factory()
    return field.default


def blanked(event: Event, fields: Sequence[str]) -> Event:
    """``event`` with ``fields`` back at their defaults: the action as typed before tabletape
    filled them (what an audit completes again to re-derive a roll)."""
    defaults = {f.name: field_default(f) for f in msgspec.structs.fields(event)
                if f.name in fields and not f.required}
    return msgspec.structs.replace(event, **defaults)


def drawn_draft(actor: str, typed: Event, completed: Event, rng: Draws,
                roll: int | Callable[[], int]) -> tuple[str, Event]:
    """The draft of a completed event: marked with its roll index (``roll``, or ``roll()``) and
    filled fields when its completion drew from ``rng``."""
    if not rng.count:
        return actor, completed
    index = roll() if callable(roll) else roll
    return DrawnDraft(actor, completed, Drawn(roll=index, filled=filled_fields(typed, completed)))
