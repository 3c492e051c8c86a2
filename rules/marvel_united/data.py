"""Marvel United core-box data, each value with its provenance.

Marks (see ``shared/research/game-data.md``): **R** printed in the rulebook, **V** an official
source, **C** fan transcriptions agree, **S** one source, **D** sources disagree, **I** our
inference, **NF** not found. The rulebook prints no card faces, so most values here are C or I:
a table overrides them with options (``--option health=9``) and records what a card shows
(``villain-turn card=plan-3 move=2 thugs=1,1,1``), which always wins over this file.
"""

from __future__ import annotations

from typing import NamedTuple

from tabletape.rules.facts import Fact

RESEARCH = "shared/research/game-data.md, Marvel United"
RULEBOOK = "Marvel United rulebook"


class Effect(NamedTuple):
    """A dashboard effect as the table records it, at a place (the villain's location for
    BaM!, the location that overflowed for the overflow effect)."""

    text: str
    damage: int = 0
    """Damage to each hero at the place."""
    fear: int = 0
    thugs: int = 0
    """Thugs added at the place (as many as its empty slots take)."""
    crisis: int = 0
    """Crisis tokens added at the place."""
    per_token: bool = False
    """Overflow: once per token not placed (else once per location)."""
    onward: bool = False
    """Overflow: each token not placed goes to the next location clockwise with an empty slot."""


class Villain(NamedTuple):
    title: str
    health: Fact
    """Health for 2, 3 and 4 heroes."""
    plot: Fact
    """What ends the game for the villain: ``fear`` (a track), ``full-city`` or ``none``."""
    plot_limit: Fact
    """Where the track ends (Red Skull's Fear), 0 when the villain has none."""
    bam: Effect
    overflow: Effect


VILLAINS: dict[str, Villain] = {
    "red-skull": Villain(
        "Red Skull",
        Fact((4, 8, 11), "C", f"{RESEARCH} (11 for 4 heroes is R: Setup example)"),
        Fact("fear", "C", RESEARCH), Fact(20, "C", f"{RESEARCH}: Fear track 0-20"),
        Effect("1 damage to each hero at his location; Fear +2", damage=1, fear=2),
        Effect("Fear +1 per token not placed", fear=1, per_token=True),
    ),
    "ultron": Villain(
        "Ultron",
        Fact((4, 8, 11), "C", RESEARCH), Fact("full-city", "C", RESEARCH), Fact(0, "C", RESEARCH),
        Effect("add 3 Thugs at his location; 1 damage to each hero there", damage=1, thugs=3),
        Effect("the token goes to the next location clockwise", per_token=True, onward=True),
    ),
    "taskmaster": Villain(
        "Taskmaster",
        Fact((2, 4, 6), "C", RESEARCH), Fact("none", "C", RESEARCH), Fact(0, "C", RESEARCH),
        Effect("1 damage to each hero at his location; 1 Crisis token there", damage=1,
               crisis=1),
        Effect("one Crisis token at that location", crisis=1),
    ),
}


class Location(NamedTuple):
    title: str
    slots: int
    civilians: int
    thugs: int
    effect: str


LOCATIONS: dict[str, Location] = {
    "avengers-mansion": Location("Avengers Mansion", 3, 1, 0, "draw up to 3 cards in hand"),
    "avengers-tower": Location("Avengers Tower", 3, 1, 0,
                               "put one chosen card of your deck on top after shuffling"),
    "stark-labs": Location("Stark Labs", 4, 1, 2,
                           "swap a hand card with one of your face-up Storyline cards"),
    "central-park": Location("Central Park", 5, 2, 2,
                             "move up to 2 Civilians/Thugs from here elsewhere"),
    "shield-hq": Location("S.H.I.E.L.D. Headquarters", 4, 1, 1,
                          "discard a card to the bottom of your deck to remove a Crisis token"),
    "shield-helicarrier": Location("S.H.I.E.L.D. Helicarrier", 4, 1, 2, "move to any location"),
    "times-square": Location("Times Square", 5, 2, 1, "rescue a Civilian here"),
    "police-hq": Location("New York Police HQ", 4, 2, 1,
                          "discard a Thug from any location (D: or defeat a Thug here)"),
}


class Allows(NamedTuple):
    """What a Location's End of Turn effect lets its hero record (each optional: 'may')."""

    draw_to: int = 0
    """Draw until this many cards are in hand."""
    move_tokens: int = 0
    """Thugs/Civilians moved from here to other locations."""
    discard: int = 0
    """Cards from the hero's hand to the bottom of their deck: a cost (``discard``), paid before
    the effect works."""
    crisis: int = 0
    """Crisis tokens removed, anywhere (one per card discarded when there is a cost)."""
    relocate: bool = False
    """The hero goes to any location."""
    swap: bool = False
    """A card in hand changes places with one of the hero's Storyline cards."""
    shuffle: bool = False
    """The hero's deck is shuffled (cards put under it lose their order); the card they put
    on top shows at their next draw."""
    rescue: int = 0
    """Civilians rescued here (to the Rescue Mission)."""
    thugs: int = 0
    """Thugs discarded from any location (to the pool; D: defeated here, to the Mission)."""


LOCATION_RESULTS: dict[str, Allows] = {
    "avengers-mansion": Allows(draw_to=3),
    "avengers-tower": Allows(shuffle=True),
    "stark-labs": Allows(swap=True),
    "central-park": Allows(move_tokens=2),
    "shield-hq": Allows(discard=1, crisis=1),
    "shield-helicarrier": Allows(relocate=True),
    "times-square": Allows(rescue=1),
    "police-hq": Allows(thugs=1),
}
"""The Location effects as results (C, from the paraphrases above)."""
LOCATION_MARK = Fact("slots, starting tokens and effects", "C", RESEARCH)
LOCATIONS_IN_PLAY = Fact(6, "R", f"{RULEBOOK}, Setup: 'Randomly pick 6 Locations'")


class Threat(NamedTuple):
    title: str
    health: int
    """A henchman's health; 0 for a threat cleared with Heroic tokens."""
    health_mark: str
    bam: bool
    """Shows the BaM! symbol (NF: default, henchmen only, I)."""
    on_move: bool
    """Shows the movement symbol (NF: default none)."""


def _threat(title: str, health: int = 0, mark: str = "C") -> Threat:
    return Threat(title, health, mark, health > 0, False)


THREATS: dict[str, dict[str, Threat]] = {
    "red-skull": {
        "crossbones": _threat("Crossbones", 6, "R"),
        "madame-hydra": _threat("Madame Hydra", 5),
        "bob": _threat("Bob, Agent of Hydra", 4),
        "hydra-elite-troops": _threat("Hydra Elite Troops"),
        "subversion": _threat("Subversion"),
        "brainwashing": _threat("Brainwashing"),
    },
    "ultron": {
        "ultron-clone-1": _threat("Ultron Clone", 4),
        "ultron-clone-2": _threat("Ultron Clone", 4),
        "duplication-1": _threat("Duplication"),
        "duplication-2": _threat("Duplication"),
        "ultron-virus-1": _threat("Ultron Virus"),
        "ultron-virus-2": _threat("Ultron Virus"),
    },
    "taskmaster": {
        "elite-thugs-1": _threat("Elite Thugs"),
        "elite-thugs-2": _threat("Elite Thugs"),
        "explosive-trap-1": _threat("Explosive Trap"),
        "explosive-trap-2": _threat("Explosive Trap"),
        "entangling-trap-1": _threat("Entangling Trap"),
        "entangling-trap-2": _threat("Entangling Trap"),
    },
}
THREAT_FLAGS = Fact("BaM! on henchmen, no movement symbols", "I",
                    f"{RESEARCH}: NF; the table names them at setup (bam=, on-move=)")
HEROIC_TO_CLEAR = Fact(3, "R", f"{RULEBOOK}, Clear Threats: 'placing 3 Heroic Action tokens'")
THREAT_SLOTS = Fact("H" * HEROIC_TO_CLEAR.value, "I", (
    f"{RULEBOOK}, Clear Threats: 3 Heroic, but 'some Threats may display other types of actions "
    "that must be spent'; which do is NF: the table names them at setup (slots=)"))
"""The symbols a Threat's slots ask for (M, A, H), unless the setup names others."""

MISSIONS: tuple[str, ...] = ("rescue", "thugs", "threats")
MISSION_TITLES = {"rescue": "Rescue Civilians", "thugs": "Defeat Thugs",
                  "threats": "Clear Threats"}
MISSION_SLOTS = Fact((9, 9, 4), "C", f"{RESEARCH} (not checked on printed cards)")


class MasterplanCard(NamedTuple):
    move: int
    bam: bool
    thugs: tuple[int, ...]
    """Thugs for the location before the villain (counterclockwise), his own, the one after
    (three numbers: the villain's turn refuses a recorded face with another count)."""
    civilians: tuple[int, ...]
    special: str = ""


def _plan(move: int, bam: bool, thugs: str, civilians: str, special: str = "") -> MasterplanCard:
    return MasterplanCard(move, bam, tuple(map(int, thugs)), tuple(map(int, civilians)),
                          special)


_PLAIN = (
    _plan(1, True, "101", "010"), _plan(2, False, "110", "001"), _plan(1, False, "011", "100"),
    _plan(3, True, "010", "101"), _plan(2, True, "111", "000"), _plan(0, False, "101", "010"),
    _plan(1, True, "100", "011"), _plan(2, False, "010", "110"),
)


def _deck(*specials: str) -> dict[str, MasterplanCard]:
    cards = {f"plan-{n}": card for n, card in enumerate(_PLAIN, start=1)}
    for n, name in enumerate(specials):
        cards[name] = _plan(1 + n % 2, n % 2 == 0, "010", "100", name.rsplit("-", 1)[0])
    return cards


MASTERPLANS: dict[str, dict[str, MasterplanCard]] = {
    "red-skull": _deck("hail-hydra-1", "hail-hydra-2", "hydra-insurgency-1",
                       "hydra-insurgency-2"),
    "ultron": _deck("encephalo-ray-1", "encephalo-ray-2", "mesmerize-1", "mesmerize-2"),
    "taskmaster": _deck("copycat-1", "copycat-2", "dark-schemes-1", "dark-schemes-2"),
}
MASTERPLAN_FACES = Fact(
    "12 cards: 8 plain, 4 named specials", "I",
    f"{RESEARCH}: names and count C, faces D/NF; the faces here are placeholders, "
    "the log records what each card shows",
)

SYMBOLS = "MAHW"
"""Move, Attack, Heroic, Wild: the action symbols at the bottom of a Hero card."""


class HeroCard(NamedTuple):
    symbols: str
    special: str
    count: int  # type: ignore[assignment]  # copies in the deck (shadows tuple.count(), uncalled)


def _cards(*entries: tuple[str, str, str, int]) -> dict[str, HeroCard]:
    return {name: HeroCard(symbols, special, count) for name, symbols, special, count in entries}


HEROES: dict[str, dict[str, HeroCard]] = {
    "iron-man": _cards(
        ("m", "M", "", 1), ("mh", "MH", "", 1), ("ma", "MA", "", 1), ("aa", "AA", "", 2),
        ("h", "H", "", 1), ("hh", "HH", "", 1), ("w", "W", "", 1), ("ww", "WW", "", 1),
        ("a-special", "A", "special", 1), ("m-special", "M", "special", 1),
        ("h-special", "H", "special", 1)),
    "captain-america": _cards(
        ("m", "M", "", 1), ("ma", "MA", "", 2), ("aa", "AA", "", 1), ("hh", "HH", "", 3),
        ("w", "W", "", 1), ("ww", "WW", "", 1), ("leadership-m", "M", "Leadership", 1),
        ("leadership-a", "A", "Leadership", 1), ("leadership-h", "H", "Leadership", 1)),
    "black-widow": _cards(
        ("m", "M", "", 1), ("mh", "MH", "", 2), ("ma", "MA", "", 1), ("a", "A", "", 1),
        ("aa", "AA", "", 1), ("hh", "HH", "", 1), ("w", "W", "", 1), ("ww", "WW", "", 1),
        ("interrogate", "A", "Interrogate", 3)),
    "hulk": _cards(
        ("m", "M", "", 1), ("ma", "MA", "", 1), ("aa", "AA", "", 3), ("h", "H", "", 2),
        ("w", "W", "", 1), ("ww", "WW", "", 1), ("hulk-smash", "M", "Hulk Smash!", 3)),
    "captain-marvel": _cards(
        ("m", "M", "", 1), ("mm", "MM", "", 1), ("mh", "MH", "", 1), ("aa", "AA", "", 2),
        ("hh", "HH", "", 1), ("w", "W", "", 2), ("ww", "WW", "", 1),
        ("photon-blast", "A", "Photon Blast", 3)),
}
HERO_TITLES = {"iron-man": "Iron Man", "captain-america": "Captain America",
               "black-widow": "Black Widow", "hulk": "Hulk", "captain-marvel": "Captain Marvel"}
HERO_DECKS = Fact("symbols per card, 12 cards per hero", "C",
                  f"{RESEARCH}: Iron Man's special names NF")
HERO_CARDS = Fact(12, "R", f"{RULEBOOK}, Components: '60 Hero Cards (12 for each Hero)'")
OPENING_HAND = Fact(3, "R", f"{RULEBOOK}, Setup: 'draws 3 cards'")
KO_DRAW = Fact(4, "R", f"{RULEBOOK}, KO: 'draws up to 4 cards'")

CHALLENGES: dict[str, Fact] = {
    "none": Fact((), "R", f"{RULEBOOK}, Challenges: optional"),
    "moderate": Fact(("w",), "V", f"{RESEARCH}: the W card (the rulebook: highest-value card)"),
    "hard": Fact(("ww",), "V", f"{RESEARCH}: the WW card"),
    "heroic": Fact(("w", "ww"), "V", f"{RESEARCH}: both; with two W cards one is removed"),
}
