"""The facts of a Risk Strike game, tagged with what a person types at the table.

Lists are typed comma-separated (``continents=asia,europe``). A tactics list names each card drawn
or holds a number of cards drawn face down (``tactics=troop,1``: a Troop and one unknown card).
"""

from __future__ import annotations

import msgspec

from tabletape.ledger.events import Event


class Dealt(Event, tag="deal"):
    """``deal player=olga continents=asia,asia,europe``: setup cards dealt to one player.

    Three continent cards face up and three tactics cards (face down unless named); in a two-player
    game also the second player's fourth continent card after the roll-off. Before the first
    player's first entry, ``deal player=NAME tactics=spy`` names the additional tactics card a
    player other than the first drew at the roll-off (Game Setup 6), face down until then.
    """

    player: str
    continents: tuple[str, ...] = ()
    """The continents of the cards, as they lie face up (none when only the additional
    tactics card of Game Setup 6 is named)."""
    tactics: tuple[str, ...] = ()
    """Tactics cards named or counted (``troop,2``); empty: all face down."""


class RolledOff(Event, tag="roll-off"):
    """``roll-off dice=5,3``: one die per player still in the first-player roll-off, in seat order.

    Empty: tabletape rolls them.
    """

    dice: tuple[int, ...] = ()


class Drew(Event, tag="draw"):
    """``draw continents=asia lineup=europe tactics=1``: cards drawn at the start of a turn, or
    for Expand. Continent cards come from the deck (``continents``) or the surrendered lineup
    (``lineup``, turn draws only)."""

    continents: tuple[str, ...] = ()
    lineup: tuple[str, ...] = ()
    tactics: tuple[str, ...] = ()


class Attacked(Event, tag="attack"):
    """``attack from=asia target=europe defender=patrick``: Attack Phase 1, declare battle."""

    from_: str = msgspec.field(name="from")
    target: str
    defender: str


class Deployed(Event, tag="deploy"):
    """``deploy troops=2``: Troop cards played in Attack Phase 2.

    The attacker, then the defender, each make one entry (``troops=0``: none); then players other
    than the attacker and the defender deploy and name the side they help (``side=attacker`` or
    ``side=defender``, or that player's name).
    """

    troops: int | None = None
    """Troop cards played: required (``troops=0``: none); stored logs always carry it."""
    side: str = ""


class Rolled(Event, tag="roll"):
    """``roll attacker=6,3,2 defender=5,5``: the dice as they landed. Empty: tabletape rolls."""

    attacker: tuple[int, ...] = ()
    defender: tuple[int, ...] = ()


class Played(Event, tag="play"):
    """``play card=rally``: a tactics card other than a Troop.

    ``target`` names the player for Spy and Artillery; Bombard names the die: ``side`` and the
    face it shows (``play card=bombard side=defender die=5``).
    """

    card: str
    target: str = ""
    side: str = ""
    die: int = 0
    troops: int = 0
    """Artillery: how many of the target's active troops go, 1 or 2; 0: as many as they have,
    up to 2."""


class Resolved(Event, tag="resolve"):
    """``resolve``: nobody plays anything more now; played cards and the roll take effect."""

    lost: tuple[str, ...] = ()
    """Whose active troop each lost pair costs, pair by pair (highest first) among the pairs
    that cost a troop (``lost=carol``); empty, or for later pairs: the side's own player's troops
    first, then helpers' (the latest deployed first)."""


class Retreated(Event, tag="retreat"):
    """``retreat``: the attacker stops the battle (after resolving a roll still open)."""


class Passed(Event, tag="pass"):
    """``pass``: no attack this turn; draw one tactics card (``drew=spy`` names it)."""

    drew: str = ""


EVENTS: tuple[type[Event], ...] = (
    Dealt,
    RolledOff,
    Drew,
    Attacked,
    Deployed,
    Rolled,
    Played,
    Resolved,
    Retreated,
    Passed,
)
