"""The facts of a Risk: Deep Space game, tagged with what a person types at the table.

Planets are named by their board id (``red-station``) or name; cards by their kebab-case name
(``tractor-beam``, ``space-dog-paw``).
"""

from __future__ import annotations

import msgspec

from tabletape.ledger.events import Event


class Dealt(Event, tag="deal"):
    """``deal player=olga cards=tractor-beam,air-leak``: Get Ready! 4, two cards face up."""

    player: str
    cards: tuple[str, ...]


class Covered(Event, tag="cover"):
    """``cover planets=nw-corner,se-corner``: Get Ready! 5, a 2-player game's Deep Space."""

    planets: tuple[str, ...]


class RolledOff(Event, tag="roll-off"):
    """``roll-off dice=5,3``: one die per player still in the roll-off, in seat order.

    Empty: tabletape rolls them. Players tied for highest roll again.
    """

    dice: tuple[int, ...] = ()


class Drew(Event, tag="draw"):
    """``draw cards=tractor-beam``: Action cards drawn face up to top the hand up to two."""

    cards: tuple[str, ...]


class TradedCards(Event, tag="trade-cards"):
    """``trade-cards``: discard both Action cards for a new Recruit on the Home Station."""


class Mined(Event, tag="mine"):
    """``mine planet=n1 resource=ore``: one Gem or Ore from a planet holding 2+ of your Recruits.

    ``resource`` must be given (empty is refused); stored logs always hold it."""

    planet: str
    resource: str = ""


class Recruited(Event, tag="recruit"):
    """``recruit count=2``: pay one Gem per new Recruit, placed on the Home Station."""

    count: int = 1


class Moved(Event, tag="move"):
    """``move from=red-station to=n1 count=3``: one movement of a Recruit or a Crew.

    ``dog=true`` takes your Space Dog along (it also goes along when no Recruit stays behind).
    Passing through the centre costs a Gem, taken when the move needs it.
    """

    from_: str = msgspec.field(name="from")
    to: str
    count: int = 0
    """Recruits in the Crew: must be given (empty is refused); stored logs always hold it."""
    dog: bool = False


class Battled(Event, tag="battle"):
    """``battle attacker=4 defender=2``: one exchange of a battle, one die each, attacker first.

    Both empty: tabletape rolls both (one die given alone is refused).
    """

    attacker: int = 0
    defender: int = 0


class Built(Event, tag="build"):
    """``build planet=n1``: a Base on a planet with 3 of your Recruits, for 3 Ore."""

    planet: str


class Shielded(Event, tag="shield"):
    """``shield planet=n1``: a Force Field on a planet you hold, for a Gem and a movement, until
    your next turn (only with ``force-fields=shield``)."""

    planet: str


class Played(Event, tag="play"):
    """``play card=bribe-a-rival planet=e1``: an Action card.

    ``planet``: where Bribe a Rival strikes, or where an activated Space Dog goes;
    ``take``: the card chosen with Mail from Mom.
    """

    card: str
    planet: str = ""
    take: str = ""


class SentDog(Event, tag="send-dog"):
    """``send-dog to=w1 by=olga``: the owner of a Space Dog whose Crew an Action card just wiped
    out sends it to another of their Crews (by default it joins the largest)."""

    to: str


class Passed(Event, tag="pass"):
    """``pass by=patrick``: the invaded player plays no (more) card before the first dice of the
    battle (Tractor Beam, Good Space Dog)."""


class Ended(Event, tag="end"):
    """``end``: the player whose turn it is ends it."""


EVENTS: tuple[type[Event], ...] = (
    Dealt, Covered, RolledOff, Drew, TradedCards, Mined, Recruited, Moved, Battled, Built,
    Played, Passed, Shielded, SentDog, Ended,
)
