"""The facts of a Marvel United game, tagged with what a person types at the table.

Lists are typed comma-separated. Cards drawn or left empty are drawn by tabletape (``complete``).
Effects that need a person's judgement (the villain's BaM!, a Threat's text, a special effect,
a Location's End of Turn effect) open a *window*; the table (or the hero) records the results
with ``damage``, ``tokens``, ``hit``, ``plot``, ``gain``, ``invulnerable``, ``relocate``,
``swap`` and ``draw``, then closes it with ``done``.
"""

from __future__ import annotations

import msgspec

from ledger.events import Event


class SetUp(Event, tag="setup"):
    """``setup locations=stark-labs,... threats=crossbones,... start=stark-labs``: the table.

    Locations clockwise; one Threat per location in the same order; the villain's start. BaM!
    and movement symbols of the Threats as the cards show them. Empty: tabletape picks."""

    locations: tuple[str, ...] = ()
    threats: tuple[str, ...] = ()
    start: str = ""
    bam: tuple[str, ...] | None = None
    """Threats showing BaM! (None: the data's default)."""
    on_move: tuple[str, ...] | None = msgspec.field(default=None, name="on-move")
    """Threats showing the movement symbol (None: the data's default)."""


class Dealt(Event, tag="deal"):
    """``deal player=olga cards=aa,m,hh``: a hero's 3 opening cards (empty: tabletape draws)."""

    player: str
    cards: tuple[str, ...] = ()


class VillainTurn(Event, tag="villain-turn"):
    """``villain-turn card=plan-3 move=2 bam=true thugs=1,0,1 civilians=0,1,0``.

    The Masterplan card drawn and what it shows (empty: tabletape draws one, and the data fills
    what the card shows). Placements are for the location before the villain (counterclockwise),
    his own and the one after."""

    card: str = ""
    move: int | None = None
    bam: bool | None = None
    thugs: tuple[int, ...] = ()
    civilians: tuple[int, ...] = ()
    special: bool | None = None


class Drew(Event, tag="draw"):
    """``draw cards=aa``: the Draw Card step (or a draw an effect grants: ``hero=olga``)."""

    cards: tuple[str, ...] = ()
    hero: str = ""


class Played(Event, tag="play"):
    """``play card=ma``: a Hero card added to the Storyline."""

    card: str


class Moved(Event, tag="move"):
    """``move to=stark-labs``: a Move action (``token=true``: spend an Action token)."""

    to: str
    token: bool = False


class Attacked(Event, tag="attack"):
    """``attack target=thug``: thug, henchman, villain, or crisis (Taskmaster)."""

    target: str
    token: bool = False


class Rescued(Event, tag="rescue"):
    """``rescue``: a Heroic action rescuing a Civilian here."""

    token: bool = False


class Heroic(Event, tag="heroic"):
    """``heroic``: a Heroic token on the Threat here (``target=crisis``: Taskmaster's Crisis)."""

    target: str = "threat"
    token: bool = False


class Special(Event, tag="special"):
    """``special``: the played card's own special effect; its results follow, then ``done``."""


class LocationEffect(Event, tag="location-effect"):
    """``location-effect``: the uncovered End of Turn effect here; results, then ``done``."""


class Ended(Event, tag="end"):
    """``end``: the hero's turn is over."""


class Damaged(Event, tag="damage"):
    """``damage hero=olga cards=aa,m``: one card per damage, from hand to the deck's bottom."""

    hero: str
    cards: tuple[str, ...]


class Tokens(Event, tag="tokens"):
    """``tokens location=central-park thugs=-1 civilians=1``: tokens an effect adds or removes.

    Removed tokens go to the pool, unless ``mission=true`` (defeated or rescued: to the
    Mission)."""

    location: str
    thugs: int = 0
    civilians: int = 0
    crisis: int = 0
    mission: bool = False


class Hit(Event, tag="hit"):
    """``hit target=villain amount=2``: health an effect removes (negative: restores);
    ``target=henchman location=X`` for a Henchman."""

    target: str
    amount: int = 1
    location: str = ""


class Plot(Event, tag="plot"):
    """``plot amount=2``: the villain's track advances (Red Skull's Fear)."""

    amount: int


class Gained(Event, tag="gain"):
    """``gain hero=olga tokens=move,wild``: Action tokens an effect gives."""

    hero: str
    tokens: tuple[str, ...]


class Invulnerable(Event, tag="invulnerable"):
    """``invulnerable hero=olga``: cannot be damaged until their next turn."""

    hero: str


class Relocated(Event, tag="relocate"):
    """``relocate hero=olga to=times-square``: an effect moves a hero anywhere."""

    hero: str
    to: str


class Swapped(Event, tag="swap"):
    """``swap card=hh storyline=aa``: Stark Labs' effect: a card from the hero's hand takes the
    place of one of their Storyline cards, which goes to their hand."""

    card: str
    storyline: str
    at: int = 0
    """The Storyline card's place, from 1 (0: the hero's latest card of that kind)."""


class Done(Event, tag="done"):
    """``done``: the effect being resolved is finished."""


WINDOW_EVENTS: tuple[type[Event], ...] = (
    Damaged, Tokens, Hit, Plot, Gained, Invulnerable, Relocated, Swapped, Done,
)
"""Results recorded while an effect is resolved."""

EVENTS: tuple[type[Event], ...] = (
    SetUp, Dealt, VillainTurn, Drew, Played, Moved, Attacked, Rescued, Heroic, Special,
    LocationEffect, Ended, *WINDOW_EVENTS,
)
