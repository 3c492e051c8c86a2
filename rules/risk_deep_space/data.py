"""Risk: Deep Space component data, each value with its provenance.

Marks (see ``shared/research/game-data.md``): **R** printed in the rulebook, **V** an official
source, **I** our inference (a default a table may override in the options), **NF** not found.
"""

from __future__ import annotations

from pathlib import Path

from tabletape.rules.facts import Fact

COLOURS = ("red", "green", "yellow", "blue")
"""Colours of forces, clockwise round the board. The rulebook names no colours (NF); these are
the Home Station tags of the default board."""

DEFAULT_COLOURS = Fact(
    {2: ("red", "yellow"), 3: ("red", "green", "yellow"), 4: COLOURS},
    "I",
    "by seat; in a 2-player game the two opposing stations",
)

RECRUITS = Fact(32, "R", "Get Ready! 1: per colour")
BASES = Fact(5, "R", "Get Ready! 1: per colour")
START_RECRUITS = Fact(3, "R", "Get Ready! 2: on your Home Station")
START_GEMS = Fact(2, "R", "Get Ready! 3")
START_CARDS = Fact(2, "R", "Get Ready! 4: dealt face up")
HAND = Fact(2, "R", "On Your Turn: draw until you have two")
GEMS = Fact(31, "R", "Components")
ORE = Fact(31, "R", "Components")
SPACE_DOGS = Fact(3, "R", "Components")
FORCE_FIELDS = Fact(2, "R", "Components (no rule for them is printed: NF)")
COVERS = Fact(2, "R", "Components; Get Ready! 5")
MOVEMENTS = Fact(2, "R", "Move: up to two movements per turn")
MINE_CREW = Fact(2, "R", "Mine: at least two Recruits on one planet")
BASE_CREW = Fact(3, "R", "Build a Base: three Recruits on the planet")
BASE_ORE = Fact(3, "R", "Build a Base: pay three Ore")
CENTRE_TOLL = Fact(1, "R", "Move: pay one Gem to pass through the middle")
WIN_BASES = Fact({2: 5, 3: 4, 4: 4}, "R", "Win")
DECK_SIZE = Fact(36, "R", "Components: 36 Action cards")

TRACTOR_BEAM = "tractor-beam"
ENERGY_BOOST = "energy-boost"
BRIBE = "bribe-a-rival"
AIR_LEAK = "air-leak"
MAIL = "mail-from-mom"
DOG_PAW = "space-dog-paw"
GOOD_DOG = "good-space-dog"
CARDS = (TRACTOR_BEAM, ENERGY_BOOST, BRIBE, AIR_LEAK, MAIL, DOG_PAW, GOOD_DOG)
"""The Action cards the rulebook names (R), in its order."""

CARD_TITLES = {
    TRACTOR_BEAM: "Tractor Beam",
    ENERGY_BOOST: "Energy Boost",
    BRIBE: "Bribe a Rival",
    AIR_LEAK: "Air Leak",
    MAIL: "Mail from Mom",
    DOG_PAW: "Space Dog, Paw!",
    GOOD_DOG: "Good Space Dog",
}

FREE, GEM, RECRUIT = "free", "gem", "recruit"

CARD_COSTS: dict[str, Fact] = {
    TRACTOR_BEAM: Fact(FREE, "I", "no cost icon described; the battle icon only"),
    ENERGY_BOOST: Fact(FREE, "R", "free to play"),
    BRIBE: Fact(GEM, "R", "pay a Gem (to the opponent)"),
    AIR_LEAK: Fact(RECRUIT, "R", "pay with a Recruit from the board"),
    MAIL: Fact(FREE, "I", "its cost icon is on the card, not in the rulebook"),
    DOG_PAW: Fact(GEM, "R", "pay one Gem to activate, when drawn"),
    GOOD_DOG: Fact(FREE, "I", "no cost described"),
}

DECK_MIX: dict[str, Fact] = {
    TRACTOR_BEAM: Fact(6, "I"),
    ENERGY_BOOST: Fact(6, "I"),
    BRIBE: Fact(5, "I"),
    AIR_LEAK: Fact(5, "I"),
    MAIL: Fact(5, "I"),
    DOG_PAW: Fact(5, "I"),
    GOOD_DOG: Fact(4, "I"),
}
"""How many of each card the 36-card deck holds: not printed, not found (NF); an even split."""

LOST_BASE = Fact("stays", "I", "a Base stays on its planet, and counts, when the planet is lost")
FORCE_FIELD_RULE = Fact("unused", "I", "the rulebook prints no rule: the tokens stay by the board")
FORCE_FIELD_RULES: dict[str, Fact] = {
    "unused": FORCE_FIELD_RULE,
    "shield": Fact(
        "shield", "I",
        "once per turn, as one of your two movements, pay 1 Gem to put a Force Field token from "
        "the supply (2 in the box) on a planet you occupy that has none; no opponent may move "
        "onto a shielded planet (passing over it with Energy Boost is allowed, and Action cards "
        "- Tractor Beam, Bribe a Rival, Air Leak - are unaffected); at the start of your next "
        "turn the token goes back to the supply, even if your Recruits have left the planet",
    ),
}
"""What a table may do with the Force Field tokens (``force-fields=...``): the rulebook prints no
rule (NF), so both are our readings; ``unused`` is the default."""
FORCE_FIELD_COST = Fact(1, "I", "force-fields=shield: a Gem to the supply per Force Field")
DEFENDER_ANSWERS = Fact(
    "wait", "R",
    "Action Cards: 'You can use this card when a player tries to battle you!': the dice of a "
    "battle wait for the invaded player holding Tractor Beam or Good Space Dog to play it or pass",
)
RECORDED_ANSWERS = "roll"
"""How logs recorded before ``defender-answers`` existed fold: the attacker could roll at once
(which closed the invaded player's cards)."""
HOME_BASES = Fact(False, "I", "no Base on a Home Station (it could never be attacked)")
OPEN_STATIONS = Fact(False, "I", "Home Stations of colours not in use cannot be entered")
RECRUIT_AT = Fact("home", "I", "recruits bought with Gems go on the Home Station")

BOARD_FILE = Path(__file__).with_name("default-board.json")
"""The default board: a reconstruction (I), to be replaced by the table's own."""


def title(card: str) -> str:
    return CARD_TITLES.get(card, card)
