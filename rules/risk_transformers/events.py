"""The facts of a Risk: Transformers game, tagged with what a person types at the table.

Every event records what a person decided or what chance produced (DESIGN rule 1): the robots
received in Phase 1 step A–D, losses, captures, the robots that move in with a capture, zone
counts, eliminations and winners are derived by the rules, never stored. Zones are named by
their board id (``uraya``, ``decagon-factory``) or name; cards by their board id
(``fusion-cannons``); pieces by kind (``robot``, ``vehicle``, ``leader``).

Setup (S5) and Phase 1 step E::

    place zone=uraya [count=4]        a robot (setup: one at a time) or Phase 1's robots
    play card=mass-production         an upgrade card for its upgrade (Phase 1 step B, battle...)
    revive zone=kalis form=vehicle    bring the scrapped leader back for 3 robots (Phase 1)

Phase 2::

    morph                             flip your leader (robot form <-> vehicle form)
    change card=fusion-cannons zone=praxus to=west    a special zone, with a change card
    back-up from=kalis to=uraya robots=3 [card=...]    Phase 4; Phase 2 with a back-up card

Phase 3, one attack from a source zone to a target zone::

    attack from=hexima-state target=launch-pad robots=3 [vehicles=0] [leader=true]
    defend by=olga robots=1 leader=true
    roll attacker=6,3,1 defender=4,d8:3   a leader's d8 as d8:FACE (empty: tabletape rolls)
    plus-one face=3 by=olga           a robot-form leader's +1 on one die of his side
    lose by=olga pieces=robot         each side's casualties, chosen by its owner
    move-in robots=1                  more robots after a capture (the attackers go by rule)
    continue robots=3                 attack again on the same target (both declare again)
    stop                              end this attack

Phase 4 and 5, and the day::

    back-up from=autobase to=plasma-energy-chamber robots=5
    gift zone=kalis                   4 players: give a zone to your teammate instead
    jump to=kalis                     Optimus Prime in vehicle form
    draw [card=perihex-card]          Phase 5's card (empty: face down, unknown for now)
    end [turn=true]                   end this phase (``turn=true``: the rest of the turn)
    allspark [card=perihex-card]      the top card face up after a day's last turn (empty: drawn)

Any time::

    exchange zone=kalis to=vehicle    3 robots on a zone for 1 vehicle (``to=robots``: back)
"""

from __future__ import annotations

import msgspec

from tabletape.ledger.events import Event
from tabletape.rules.dice import Die


class Pieces(Event):
    """Pieces of one zone taking part in something: robots, vehicles (each worth 3 robots and
    rolling one d6) and the leader."""

    robots: int = 0
    vehicles: int = 0
    leader: bool = False


# -- setup and Phase 1 --------------------------------------------------------------------------


class Placed(Event, tag="place"):
    """``place zone=uraya``: Setup 5, "take turns placing a robot on an empty zone"; in Phase 1
    step E (``count=N``) operational robots onto a zone the player controls."""

    zone: str
    count: int = 1


class Played(Event, tag="play"):
    """``play card=mass-production``: an upgrade card played for its upgrade.

    ``zone``: the zone a card names as its target, if it has one; ``note``: what the table did
    for a card whose effect the rules cannot check (the board's ``"effect": "table"``)."""

    card: str
    zone: str = ""
    note: str = ""


class Revived(Event, tag="revive"):
    """``revive zone=kalis form=vehicle``: Bring Back Your Leader, "pay 3 operational robots"
    and "place your leader in any zone you control in either robot or vehicle form"."""

    zone: str
    form: str = "robot"
    """``robot`` or ``vehicle`` (any case: stored as the word)."""


# -- Phase 2 ------------------------------------------------------------------------------------


class Morphed(Event, tag="morph"):
    """``morph``: "Flip your leader over to change him from robot form to vehicle form or vice
    versa" (the form after it is derived)."""


class Changed(Event, tag="change"):
    """``change card=fusion-cannons zone=praxus to=west``: a special zone changed with an upgrade
    card's change icon.

    ``to``: a spinning zone's position (a name the board gives), or ``open`` / ``closed`` for a
    sliding zone. Opening puts a scrapheap robot in the war factory and closing crushes what is
    on it: both derived."""

    card: str
    zone: str
    to: str


class BackedUp(Pieces, tag="back-up", kw_only=True):
    """``back-up from=kalis to=uraya robots=3``: Phase 4's one back-up move between connected
    zones, leaving one piece behind; in Phase 2, ``card=...`` names the upgrade card that
    calls for it ("Calling for back-up (Phase 2)"), played and discarded with the move."""

    from_: str = msgspec.field(name="from")
    to: str
    card: str = ""


# -- Phase 3: attacks ---------------------------------------------------------------------------


class Attacked(Pieces, tag="attack", kw_only=True):
    """``attack from=hexima-state target=launch-pad robots=3``: How to Attack 1 and 2, the zones
    and the attacking pieces (``leader=true``: the leader fights and rolls a d8)."""

    from_: str = msgspec.field(name="from")
    target: str


class Defended(Pieces, tag="defend"):
    """``defend by=olga robots=1 leader=true``: How to Attack 3, the defending pieces (1 or 2)."""


class Continued(Pieces, tag="continue"):
    """``continue robots=3``: Results, Outcome 2, "CONTINUE the attack": the attacker declares
    again (the defender then ``defend``s again)."""


class Stopped(Event, tag="stop"):
    """``stop``: Results, Outcome 2, "END the attack"."""


class Rolled(Event, tag="roll"):
    """``roll attacker=6,3,1 defender=4,d8:3``: the dice as they landed.

    A robot's or vehicle's d6 is typed as its face, a leader's d8 as ``d8:FACE``
    (:class:`~tabletape.rules.dice.Die`); which sizes each side rolls is derived from who fights
    ("6-sided for robots/vehicles or 8-sided for your leader", unless a card says otherwise).
    Both empty: tabletape rolls them."""

    attacker: tuple[Die, ...] = ()
    defender: tuple[Die, ...] = ()


class PlusOne(Event, tag="plus-one"):
    """``plus-one face=3``: a robot-form leader's bonus, "+1 to any die", on one die of his side
    showing ``face`` (placed after the roll, A14: one of his own side's dice; the side is derived
    from the leader's power, and dice showing the same face are alike once rolled)."""

    face: int


class Lost(Event, tag="lose"):
    """``lose by=olga pieces=robot,leader``: the casualties a side removes after a roll, its
    owner's choice ("Only put your leader on the scrapheap if he is the last robot left").

    ``escape``: where Bumblebee in vehicle form goes instead of the scrapheap (a neighbouring
    zone his player controls)."""

    pieces: tuple[str, ...]
    """``robot``, ``vehicle`` or ``leader`` each (any case, plurals too: stored as the word)."""
    escape: str = ""


class MovedIn(Pieces, tag="move-in"):
    """``move-in robots=1``: after a capture, pieces beyond the attackers ("You can also move
    other robots from the attacking zone ... as long as you leave at least one behind")."""


# -- Phases 4 and 5, the day --------------------------------------------------------------------


class Gifted(Event, tag="gift"):
    """``gift zone=kalis``: 4 players, "give a zone to your teammate instead of calling for
    back-up" (the robots to the scrapheap and the teammate's robot are derived)."""

    zone: str


class Jumped(Event, tag="jump"):
    """``jump to=kalis``: OPTIMUS PRIME in vehicle form "can jump to any of your zones in Phase
    4"."""

    to: str


class Drew(Event, tag="draw"):
    """``draw card=...``: Phase 5's upgrade card; empty: drawn face down, unknown until played."""

    card: str = ""


class Ended(Event, tag="end"):
    """``end``: the player ends the current phase (``turn=true``: every phase left, so the turn)."""

    turn: bool = False


class Exchanged(Event, tag="exchange"):
    """``exchange zone=hexima-state to=vehicle [count=1]``: Things to Know, "You can exchange 3
    robots for 1 vehicle, or vice versa, at any time": on one of the player's zones, ``count``
    times 3 robots for a vehicle (``to=vehicle``) or a vehicle for 3 robots (``to=robots``),
    the pieces swapped with the player's scrapheap."""

    zone: str
    to: str
    """``vehicle`` or ``robots`` (any case, singular or plural: stored as the word)."""
    count: int = 1


class AllSpark(Event, tag="allspark"):
    """``allspark card=...``: Rounds 1, the top card of the draw pile turned face up; the zone on
    it gets 3 scrapheap robots of the player controlling it (derived). Left empty, tabletape
    turns a card from the seeded generator (like the dice) and the log stores it."""

    card: str = ""


EVENTS: tuple[type[Event], ...] = (
    Placed, Played, Revived, Morphed, Changed, BackedUp, Attacked, Defended, Continued, Stopped,
    Rolled, PlusOne, Lost, MovedIn, Gifted, Jumped, Drew, Ended, AllSpark, Exchanged,
)
