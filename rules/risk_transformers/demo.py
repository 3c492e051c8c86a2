"""A short Risk: Transformers game as typed at the table, around the rulebook's Battle Example.

Olga plays Optimus Prime (Red, the Autobots), Patrick Megatron (Black, the Decepticons), on the
default (reconstructed) board. Setup fills the 42 zones a robot at a time: Olga takes Kalis and
the Launch Pad next to her Autobase, Patrick takes Hexima State next to the Launch Pad; their
leftovers go to Autobase, Hexima State and Vos. On day 1 Olga places her Phase 1 robots and calls
for back-up: Optimus Prime moves from Autobase to the Launch Pad through Kalis.

Then the Battle Example as printed: "Black declares an attack on the Launch Pad (controlled by
Red) from neighboring Hexima State. Black attacks with 3 robots. Red defends with 2 robots – one
normal robot and the leader (OPTIMUS PRIME)": 6, 4, 1 against 4 and Optimus's d8 showing 3;
"Red uses OPTIMUS PRIME'S +1 defense bonus to increase his roll from 3 to 4", so each side loses
one: "Black exchanges a vehicle for 3 robots and puts one of them on his scrapheap" (Black made
that vehicle of 3 of his 6 robots in Hexima State just before), and has 5 in Hexima State as
printed. "Black decides to continue the attack": 6, 2, 1 against Optimus's 4 (+1: 5); Optimus
goes to the scrapheap, Black captures the Launch Pad, moves the 3 attackers in and 1 more, and
draws a card. Day 1 ends: Patrick turns the AllSpark card, Fusion Cannons, whose zone Perihex is
Olga's (3 robots from her scrapheap). On day 2 Olga brings Optimus back on Kalis for 3 robots.
"""

from __future__ import annotations

DEMO_PLAYERS: tuple[str, ...] = ("Olga", "Patrick")

OLGA_FIRST = ("kalis", "launch-pad")
"""Olga's first two placings: the zones between her Autobase and the Launch Pad."""
PATRICK_FIRST = ("hexima-state", "yellow-1")
"""Patrick's first placings: Hexima State, next to the Launch Pad."""
OTHER_ZONES = (
    "blue-1", "blue-2", "moon-alpha", "blue-3", "blue-4", "blue-5", "blue-6", "the-arena",
    "blue-7", "purple-1", "purple-2", "purple-3", "decagon", "plasma-energy-chamber", "perihex",
    "purple-4", "the-rad-zone", "the-neutral-territories", "red-1", "red-2", "red-3",
    "tri-lorus-loop", "green-1", "unicron", "green-2", "green-3", "green-4", "primus",
    "pion-tower", "protihex", "uraya", "the-praetorus-wharf", "orange-1", "orange-2",
    "orange-3", "praxus",
)
"""The rest of the board's empty zones, in the board's order (Autobase and Vos hold the
leaders)."""
LEFTOVERS = {"Olga": ("autobase",) * 9, "Patrick": ("hexima-state",) * 5 + ("vos",) * 4}
"""Setup 5's robots left after every zone is filled (A1 ``leftover=place``)."""


def setup_lines() -> list[str]:
    """Setup 5, a robot at a time on an empty zone, Olga first; then the leftovers (A1)."""
    olga = [*OLGA_FIRST, *OTHER_ZONES[0::2]]
    patrick = [*PATRICK_FIRST, *OTHER_ZONES[1::2]]
    placed = [zone for pair in zip(olga, patrick, strict=True) for zone in pair]
    left = [zone for pair in zip(*LEFTOVERS.values(), strict=True) for zone in pair]
    return [f"place zone={zone}" for zone in (*placed, *left)]


_OLGA_DAY_ONE = [
    "place zone=autobase count=7",
    "end",  # Phase 1 (every robot placed)
    "end",  # Phase 2: no morph
    "end",  # Phase 3: no attack
    "back-up from=autobase to=launch-pad leader=true",
    "end",  # Phase 4
    "end",  # Phase 5: no capture, no card
]

_BATTLE_EXAMPLE = [
    "place zone=vos count=7",
    "end",
    "morph",
    "end",
    "exchange zone=hexima-state to=vehicle",
    "attack from=hexima-state target=launch-pad robots=3",
    "defend by=olga robots=1 leader=true",
    "roll attacker=6,4,1 defender=4,d8:3 by=patrick",
    "plus-one by=olga face=3",
    "lose by=patrick pieces=vehicle",
    "continue robots=3",
    "defend by=olga leader=true",
    "roll attacker=6,2,1 defender=d8:4 by=patrick",
    "move-in robots=1",
    "end",
    "end",
    "draw",
    "allspark card=fusion-cannons",
]

_OLGA_DAY_TWO = [
    "revive zone=kalis form=robot",
    "place zone=kalis count=3",
]


def demo_actions() -> list[str]:
    """The demo game, one typed action per line (``by=NAME`` where the actor is not implied)."""
    return [*setup_lines(), *_OLGA_DAY_ONE, *_BATTLE_EXAMPLE, *_OLGA_DAY_TWO]
