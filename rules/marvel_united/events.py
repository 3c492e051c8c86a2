"""The facts of a Marvel United game, tagged with what a person types at the table.

Lists are typed comma-separated. Cards drawn or left empty are drawn by tabletape (``complete``).
Effects that need a person's judgement (the villain's BaM!, a Threat's text, a special effect,
a Location's End of Turn effect) open a *window*; the table (or the hero) records the results
with ``damage``, ``discard`` (a cost), ``tokens``, ``hit``, ``plot``, ``gain``,
``invulnerable``, ``relocate``, ``swap`` and ``draw``, then closes it with ``done``.
"""

from __future__ import annotations

import msgspec

from tabletape.ledger.events import Event


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
    slots: tuple[str, ...] = ()
    """``threat:symbols`` for Threats whose slots ask for other actions than 3 Heroic, as the
    card shows them: ``hydra-elite-troops:mma`` (M Move, A Attack, H Heroic)."""


class Dealt(Event, tag="deal"):
    """``deal player=olga cards=aa,m,hh``: a hero's 3 opening cards (empty: tabletape draws)."""

    player: str
    cards: tuple[str, ...] = ()


class VillainTurn(Event, tag="villain-turn"):
    """``villain-turn card=plan-3 move=2 bam=true thugs=1,0,1 civilians=0,1,0 special=false``.

    The Masterplan card drawn and what it shows, all of it (with the option
    ``masterplan-deck=shipped`` it may be left empty: tabletape draws one and the shipped,
    placeholder faces fill what it shows). ``move`` is clockwise; negative when the card moves
    him counterclockwise. Placements are for the location before the villain (counterclockwise),
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
    """``attack target=thug``: thug, henchman, villain, or crisis (Taskmaster).
    ``survives=true``: the Thug takes the damage but stays, as a Threat there says."""

    target: str
    token: bool = False
    survives: bool = False


class Rescued(Event, tag="rescue"):
    """``rescue``: a Heroic action rescuing a Civilian here."""

    token: bool = False


class Heroic(Event, tag="heroic"):
    """``heroic``: a Heroic token on the Threat here (``target=crisis``: Taskmaster's Crisis)."""

    target: str = "threat"
    token: bool = False


class Spent(Event, tag="spend"):
    """``spend symbol=attack``: a Move or Attack action on an empty slot of the Threat here
    that asks for it (a Heroic slot: ``heroic``)."""

    symbol: str
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


class Discarded(Event, tag="discard"):
    """``discard cards=aa``: cards from hand to the bottom of the deck that an effect asks for,
    a cost rather than damage (S.H.I.E.L.D. HQ's): Invulnerable heroes discard too. ``hero=``
    names the hero when it is not the one whose effect this is."""

    cards: tuple[str, ...]
    hero: str = ""


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
    Damaged, Discarded, Tokens, Hit, Plot, Gained, Invulnerable, Relocated, Swapped, Done,
)
"""Results recorded while an effect is resolved."""

EVENTS: tuple[type[Event], ...] = (
    SetUp, Dealt, VillainTurn, Drew, Played, Moved, Attacked, Rescued, Heroic, Spent, Special,
    LocationEffect, Ended, *WINDOW_EVENTS,
)
