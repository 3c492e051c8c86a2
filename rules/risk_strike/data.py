"""Risk Strike component data, each value with its provenance.

Marks (see ``shared/research/game-data.md``): **R** printed in the rulebook, **V** an official
source, **I** our inference, **NF** not found. Values marked I or NF are defaults that a table
overrides with ``--option sizes.asia=12``, ``--option domination.europe=6`` or
``--option links.africa=africa,south-america,europe,asia``.
"""

from __future__ import annotations

from tabletape.rules.facts import Fact

RESEARCH = "shared/research/game-data.md"
RULEBOOK = "Risk Strike rulebook"

CONTINENTS: tuple[str, ...] = (
    "north-america",
    "south-america",
    "europe",
    "africa",
    "asia",
    "australia",
)
"""The six continents, as people type them (lowercase kebab)."""

CONTINENT_CARDS = Fact(42, "R", f"{RULEBOOK}, Contents: 'Continent Cards x42'")

SIZES: dict[str, Fact] = {
    "north-america": Fact(9, "I", f"{RESEARCH}: classic Risk territory split"),
    "south-america": Fact(4, "I", f"{RESEARCH}: classic Risk territory split"),
    "europe": Fact(7, "I", f"{RESEARCH}: classic Risk territory split"),
    "africa": Fact(6, "I", f"{RESEARCH}: classic Risk territory split"),
    "asia": Fact(12, "I", f"{RESEARCH}: classic Risk territory split"),
    "australia": Fact(4, "I", f"{RESEARCH}: classic Risk territory split"),
}
"""Continent cards per continent (they add up to the 42 of the box)."""

DOMINATION: dict[str, Fact] = {
    "north-america": Fact(6, "I", f"{RESEARCH}: same proportion as the known numbers"),
    "south-america": Fact(3, "V", f"{RESEARCH}: retailer description"),
    "europe": Fact(5, "I", f"{RESEARCH}: same proportion as the known numbers"),
    "africa": Fact(4, "I", f"{RESEARCH}: same proportion as the known numbers"),
    "asia": Fact(8, "V", f"{RESEARCH}: retailer description, review"),
    "australia": Fact(3, "I", f"{RESEARCH}: same proportion as the known numbers"),
}
"""Cards needed to take a continent's domination coin."""

_CLASSIC = f"{RESEARCH}: classic Risk map"
LINKS: dict[str, Fact] = {
    "north-america": Fact(("south-america", "europe", "asia"), "I", _CLASSIC),
    "south-america": Fact(("north-america", "africa"), "I", _CLASSIC),
    "europe": Fact(("north-america", "africa", "asia"), "I", _CLASSIC),
    "africa": Fact(
        ("south-america", "europe", "asia"),
        "R",
        f"{RULEBOOK}, Attack Phase 1: 'Africa can attack Africa, South America, Europe, and Asia'",
    ),
    "asia": Fact(("north-america", "europe", "africa", "australia"), "I", _CLASSIC),
    "australia": Fact(("asia",), "I", _CLASSIC),
}
"""Continents connected to each continent (every continent may also attack itself)."""

TACTICS: tuple[str, ...] = (
    "troop",
    "spy",
    "canceled-orders",
    "rally",
    "artillery",
    "sabotage",
    "expand",
    "bombard",
)
"""The tactics cards, as people type them."""

TACTICS_DECK = Fact(
    (18, 2, 3, 4, 3, 4, 2, 4),
    "R",
    f"{RULEBOOK}, Tactics Cards: 'Troop x18', 'Spy x2', 'Canceled Orders x3', ...",
)
"""How many of each tactics card the deck holds, in the order of :data:`TACTICS` (40 cards)."""

COINS = Fact(6, "R", f"{RULEBOOK}, Contents: 'Domination Coins x6'")
ATTACK_DICE = Fact(3, "R", f"{RULEBOOK}, Roll Dice: 'You can roll a maximum of three'")
DEFEND_DICE = Fact(2, "R", f"{RULEBOOK}, Roll Dice: 'You can roll a maximum of two'")
OPENING_CONTINENTS = Fact(3, "R", f"{RULEBOOK}, Game Setup 1: 'Each player draws three'")
OPENING_TACTICS = Fact(3, "R", f"{RULEBOOK}, Game Setup 2: 'Each player draws three'")
TURN_DRAW = Fact(2, "R", f"{RULEBOOK}, On Your Turn: '1. Draw Any Two Cards'")
RALLY_BONUS = Fact(2, "R", f"{RULEBOOK}, Tactics Cards: 'Rally ... Add 2 to each die'")
BOMBARD_FACE = Fact(6, "R", f"{RULEBOOK}, Tactics Cards: 'Bombard ... change any one die to a 6'")
ARTILLERY_TROOPS = Fact(2, "R", f"{RULEBOOK}, Tactics Cards: 'Artillery ... up to 2'")

CONTINENT_ALIASES: dict[str, str] = {
    "na": "north-america",
    "sa": "south-america",
    "eu": "europe",
    "af": "africa",
    "as": "asia",
    "au": "australia",
    "oceania": "australia",
}
"""Short names people may type; events store the full name."""

TACTICS_ALIASES: dict[str, str] = {
    "troops": "troop",
    "cancel": "canceled-orders",
    "cancelled-orders": "canceled-orders",
    "canceled": "canceled-orders",
    "co": "canceled-orders",
}

READINGS: dict[str, tuple[Fact, tuple[str, ...]]] = {
    "reshuffle": (
        Fact("at-draw", "I", f"{RULEBOOK}, More to Know: 'If the tactics card deck ever runs out, "
             "shuffle the discard pile to create a new deck' (when: our reading)"),
        ("when-empty",),
    ),
    "expand-cards": (
        Fact("inactive", "I", f"{RULEBOOK}, Attack Phase 3: 'A continent card claimed during "
             "battle cannot be used as an active card in that battle' (Expand: our reading)"),
        ("active",),
    ),
    "after-win": (
        Fact("resolve", "I", f"{RULEBOOK}, Resolve Wins: 'If each of you rolled more than one die, "
             "compare the next-highest pair of dice and repeat the process'"),
        ("stop",),
    ),
}
"""Readings of card rules the rulebook leaves open (mark I: our reading, the default), each with the
other value a table may choose: when the discard pile is reshuffled (``at-draw``: when a draw
finds the deck empty; ``when-empty``: as soon as the last card is drawn, so cards discarded later
wait for the next reshuffle); whether attacking-continent cards drawn with Expand during a battle
add to its attacking cards (``inactive``: they add no die; ``active``: they do); whether the
pairs after the one that ends the battle (the last defending or attacking card gone) or wins the
game are still resolved (``resolve``) or not (``stop``)."""
