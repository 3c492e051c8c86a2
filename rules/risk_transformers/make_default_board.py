"""Writes ``default-board.json``: the Cybertron reconstruction (mark I) shipped with the game.

Run ``python -m tabletape.rules.risk_transformers.make_default_board`` after changing a value
here; a test checks the shipped file is what :func:`build` makes. Each value carries its mark:
R when the rulebook prints it, S when one public source names it, I when it is ours.

The topology is classic Risk's: its 42 territories have exactly Cybertron's sector sizes (Asia 12,
North America 9, Europe 7, Africa 6, South America 4, Australia 4) and its continent bonuses are
the printed sector bonuses (7, 5, 5, 3, 2, 2). The zones the rulebook names sit where its
examples put them (the classic territory in brackets).

>>> data = build()
>>> len(data["spaces"]), len(data["transformers"]["cards"])
(44, 42)
"""

from __future__ import annotations

import json
from typing import Any

from tabletape.rules.risk_transformers.board import DEFAULT_BOARD_FILE

NOTE = (
    "RECONSTRUCTION, not the printed board: the rulebook prints neither the map's links, nor the "
    "ZONES -> ROBOTS panel, nor the leaders' start zones, nor the upgrade cards. Rulebook (R): 42 "
    "zones in six sectors (red 6, yellow 4, green 12, blue 9, purple 7, orange 4) and their "
    "bonuses; 16 zone names; Uraya borders Primus and Protihex, a hyperlink joins it to The "
    "Praetorus Wharf, it neighbours Pion Tower only when the arrows line up; off-board "
    "hyperlinks Autobase-Kalis and Protihex-The Neutral Territories; Launch Pad-Hexima State; "
    "Autobase and The Neutral Territories red, Kalis yellow, Protihex green, Plasma Energy "
    "Chamber in Decagon's sector; Praxus opens to two zones; the panel point 21-23 zones -> 7 "
    "robots; the cards Mass-Production, Interlock Initiators and Fusion Cannons (zone Perihex). "
    "One public source (S): the names Vos, Tri-Lorus Loop, The Rad Zone, Unicron. Invented (I): "
    "the topology, copied from classic Risk, whose 42 territories have exactly these sector "
    "sizes and bonuses; the other 22 zone names; every other sector placement and link kind; "
    "the spinning positions and factory links; the rest of the panel (classic Risk's zones / 3, "
    "at least 3); the start zones; 39 placeholder cards, one per remaining zone, whose effect "
    "the table records. Replace it with your own: --option board=FILE."
)

# (id, name, sector, classic territory); names R unless in NAMED_BY_ONE_SOURCE or placeholders.
ZONES: tuple[tuple[str, str, str, str], ...] = (
    ("blue-1", "Blue Zone 1", "blue", "alaska"),
    ("blue-2", "Blue Zone 2", "blue", "northwest-territory"),
    ("moon-alpha", "Moon Alpha", "blue", "greenland"),
    ("blue-3", "Blue Zone 3", "blue", "alberta"),
    ("blue-4", "Blue Zone 4", "blue", "ontario"),
    ("blue-5", "Blue Zone 5", "blue", "quebec"),
    ("blue-6", "Blue Zone 6", "blue", "western-united-states"),
    ("the-arena", "The Arena", "blue", "eastern-united-states"),
    ("blue-7", "Blue Zone 7", "blue", "central-america"),
    ("yellow-1", "Yellow Zone 1", "yellow", "venezuela"),
    ("hexima-state", "Hexima State", "yellow", "peru"),
    ("kalis", "Kalis", "yellow", "brazil"),
    ("launch-pad", "Launch Pad", "yellow", "argentina"),
    ("purple-1", "Purple Zone 1", "purple", "iceland"),
    ("purple-2", "Purple Zone 2", "purple", "great-britain"),
    ("purple-3", "Purple Zone 3", "purple", "scandinavia"),
    ("decagon", "Decagon", "purple", "northern-europe"),
    ("plasma-energy-chamber", "Plasma Energy Chamber", "purple", "western-europe"),
    ("perihex", "Perihex", "purple", "southern-europe"),
    ("purple-4", "Purple Zone 4", "purple", "ukraine"),
    ("autobase", "Autobase", "red", "north-africa"),
    ("the-rad-zone", "The Rad Zone", "red", "egypt"),
    ("the-neutral-territories", "The Neutral Territories", "red", "east-africa"),
    ("red-1", "Red Zone 1", "red", "congo"),
    ("red-2", "Red Zone 2", "red", "south-africa"),
    ("red-3", "Red Zone 3", "red", "madagascar"),
    ("vos", "Vos", "green", "ural"),
    ("tri-lorus-loop", "Tri-Lorus Loop", "green", "siberia"),
    ("green-1", "Green Zone 1", "green", "yakutsk"),
    ("unicron", "Unicron", "green", "kamchatka"),
    ("green-2", "Green Zone 2", "green", "irkutsk"),
    ("green-3", "Green Zone 3", "green", "mongolia"),
    ("green-4", "Green Zone 4", "green", "japan"),
    ("primus", "Primus", "green", "afghanistan"),
    ("pion-tower", "Pion Tower", "green", "china"),
    ("protihex", "Protihex", "green", "middle-east"),
    ("uraya", "Uraya", "green", "india"),
    ("the-praetorus-wharf", "The Praetorus Wharf", "green", "siam"),
    ("orange-1", "Orange Zone 1", "orange", "indonesia"),
    ("orange-2", "Orange Zone 2", "orange", "new-guinea"),
    ("orange-3", "Orange Zone 3", "orange", "western-australia"),
    ("praxus", "Praxus", "orange", "eastern-australia"),
)
AT = {  # where each classic territory sits on classic Risk's world map, x east, y south (I)
    "alaska": (4, 8), "northwest-territory": (13, 8), "greenland": (31, 3), "alberta": (11, 16),
    "ontario": (19, 16), "quebec": (27, 16), "western-united-states": (11, 24),
    "eastern-united-states": (20, 26), "central-america": (14, 33), "venezuela": (21, 40),
    "peru": (19, 49), "brazil": (28, 46), "argentina": (22, 57), "iceland": (40, 8),
    "great-britain": (39, 17), "scandinavia": (49, 7), "northern-europe": (48, 17),
    "western-europe": (40, 26), "southern-europe": (50, 26), "ukraine": (58, 14),
    "north-africa": (43, 37), "egypt": (52, 35), "east-africa": (57, 44), "congo": (50, 47),
    "south-africa": (52, 57), "madagascar": (61, 56), "ural": (67, 10), "siberia": (75, 5),
    "yakutsk": (84, 4), "kamchatka": (95, 6), "irkutsk": (83, 13), "mongolia": (85, 21),
    "japan": (96, 22), "afghanistan": (66, 20), "china": (79, 28), "middle-east": (61, 32),
    "india": (70, 35), "siam": (80, 38), "indonesia": (81, 47), "new-guinea": (92, 45),
    "western-australia": (84, 57), "eastern-australia": (94, 55),
}
"""The picture's layout: the zones where their classic territories are, so the board reads
as the map it copies."""
FACTORY_AT = {"moon-alpha": (24, 6), "decagon": (53, 21)}
"""Each war factory beside its sliding zone, where no name is drawn (I)."""
NAMED_BY_ONE_SOURCE = frozenset({"vos", "tri-lorus-loop", "the-rad-zone", "unicron"})
"""Names one public source gives (angelfire.com/scifi/bbfortress/tfrisk.html): S."""
SECTORS_IN_RULEBOOK = frozenset({"autobase", "the-neutral-territories", "kalis", "protihex"})
"""Zones whose sector the rulebook prints (R)."""
FACTORIES = (("decagon", "Decagon war factory"), ("moon-alpha", "Moon Alpha war factory"))

BORDERS = (  # classic Risk's land borders, in Cybertron names
    ("blue-1", "blue-2"), ("blue-1", "blue-3"), ("blue-2", "blue-3"), ("blue-2", "blue-4"),
    ("blue-3", "blue-4"), ("blue-3", "blue-6"), ("blue-4", "blue-5"), ("blue-4", "blue-6"),
    ("blue-4", "the-arena"), ("blue-5", "the-arena"), ("blue-6", "the-arena"),
    ("blue-6", "blue-7"), ("the-arena", "blue-7"), ("blue-7", "yellow-1"),
    ("yellow-1", "hexima-state"), ("yellow-1", "kalis"), ("hexima-state", "kalis"),
    ("launch-pad", "hexima-state"), ("kalis", "launch-pad"),
    ("purple-3", "decagon"), ("purple-3", "purple-4"), ("decagon", "plasma-energy-chamber"),
    ("decagon", "perihex"), ("decagon", "purple-4"), ("plasma-energy-chamber", "perihex"),
    ("plasma-energy-chamber", "autobase"), ("perihex", "purple-4"), ("perihex", "autobase"),
    ("perihex", "protihex"), ("purple-4", "vos"), ("purple-4", "primus"),
    ("purple-4", "protihex"), ("autobase", "the-rad-zone"),
    ("autobase", "the-neutral-territories"), ("autobase", "red-1"),
    ("the-rad-zone", "the-neutral-territories"), ("the-rad-zone", "protihex"),
    ("the-neutral-territories", "red-1"), ("the-neutral-territories", "red-2"),
    ("red-1", "red-2"), ("vos", "tri-lorus-loop"), ("vos", "primus"),
    ("tri-lorus-loop", "green-1"), ("tri-lorus-loop", "green-2"), ("tri-lorus-loop", "green-3"),
    ("green-1", "unicron"), ("green-1", "green-2"), ("unicron", "green-2"),
    ("unicron", "green-3"), ("green-2", "green-3"), ("primus", "protihex"),
    ("uraya", "primus"), ("uraya", "protihex"),
)
HYPERLINKS = (  # classic Risk's sea lines (and Uraya's hyperlink, R)
    ("blue-1", "unicron"), ("blue-2", "moon-alpha"), ("moon-alpha", "blue-4"),
    ("moon-alpha", "blue-5"), ("moon-alpha", "purple-1"), ("purple-1", "purple-2"),
    ("purple-1", "purple-3"), ("purple-2", "purple-3"), ("purple-2", "decagon"),
    ("purple-2", "plasma-energy-chamber"), ("autobase", "kalis"), ("perihex", "the-rad-zone"),
    ("protihex", "the-neutral-territories"), ("the-neutral-territories", "red-3"),
    ("red-2", "red-3"), ("unicron", "green-4"), ("green-3", "green-4"),
    ("uraya", "the-praetorus-wharf"), ("the-praetorus-wharf", "orange-1"),
    ("orange-1", "orange-2"), ("orange-1", "orange-3"), ("orange-2", "orange-3"),
)
LINKS_IN_RULEBOOK = frozenset({
    ("uraya", "primus"), ("uraya", "protihex"), ("uraya", "the-praetorus-wharf"),
    ("autobase", "kalis"), ("protihex", "the-neutral-territories"),
    ("launch-pad", "hexima-state"), ("pion-tower", "uraya"),
})
SPINNING = {  # zone -> positions -> the zones its arrows open to (classic neighbours)
    "pion-tower": {"closed": (), "west": ("uraya", "primus"),
                   "north": ("vos", "tri-lorus-loop"),
                   "east": ("green-3", "the-praetorus-wharf")},
    "praxus": {"closed": (), "open": ("orange-3", "orange-2")},
}
STARTS = {"optimus-prime": "autobase", "bumblebee": "kalis", "megatron": "vos",
          "barricade": "the-arena"}
BONUSES = (("red", 3), ("yellow", 2), ("green", 7), ("blue", 5), ("purple", 5), ("orange", 2))
MOST_ZONES = len(ZONES) + len(FACTORIES)

KNOWN_CARDS = (
    {"id": "mass-production", "name": "Mass-Production", "zone": "kalis", "change": False,
     "upgrade": "Play on your turn in Phase 1. Place 3 extra robots this turn.",
     "timing": "phase-1", "effect": "robots+3", "lasts": "turn", "mark": "R", "zone_mark": "I"},
    {"id": "interlock-initiators", "name": "Interlock Initiators", "zone": "primus",
     "change": False,
     "upgrade": "Play on your turn in Phase 1. Double your sector bonus this turn.",
     "timing": "phase-1", "effect": "sector-bonus*2", "lasts": "turn", "mark": "R",
     "zone_mark": "I"},
    {"id": "fusion-cannons", "name": "Fusion Cannons", "zone": "perihex", "change": True,
     "upgrade": "Play before you attack. Add 1 to each die for this attack.",
     "timing": "before-attack", "effect": "attack-dice+1", "lasts": "attack", "mark": "R",
     "zone_mark": "R"},
)
PLACEHOLDER_TEXT = ("Placeholder: the printed card is not known. Its change icon may change a "
                    "spinning or sliding zone in Phase 2; for its upgrade the table records "
                    "what it does.")


def name_mark(zone: str, name: str) -> str:
    if zone in NAMED_BY_ONE_SOURCE:
        return "S"
    return "I" if name.split()[0] in ("Red", "Yellow", "Green", "Blue", "Purple", "Orange") \
        else "R"


def link_mark(a: str, b: str) -> str:
    return "R" if {(a, b), (b, a)} & LINKS_IN_RULEBOOK else "I"


def spaces_and_marks() -> tuple[list[dict[str, Any]], dict[str, str]]:
    """The 44 spaces (42 zones, 2 war factories) and the marks of their names and sectors."""
    spaces, marks = [], {}
    sectors = {zone: sector for zone, _, sector, _ in ZONES}
    places = {zone: AT[territory] for zone, _, _, territory in ZONES}
    for zone, name, sector, _ in ZONES:
        spaces.append({"id": zone, "name": name, "tags": [f"sector:{sector}"],
                       "at": list(places[zone])})
        marks[zone] = name_mark(zone, name)
        marks[f"{zone}/sector"] = "R" if zone in SECTORS_IN_RULEBOOK else "I"
    for zone, name in FACTORIES:
        factory = f"{zone}-factory"
        spaces.append({"id": factory, "name": name,
                       "tags": [f"sector:{sectors[zone]}", f"factory:{zone}"],
                       "at": list(FACTORY_AT[zone])})
        marks[factory], marks[f"{factory}/sector"] = "R", "I"
    marks["plasma-energy-chamber/sector"] = "R"  # Decagon's sector (the Phase 2 example)
    return spaces, marks


def turning(marks: dict[str, str]) -> list[dict[str, Any]]:
    """The spinning zones: every link of a spinning zone goes through its arrows."""
    found = []
    for zone, positions in SPINNING.items():
        links = {name: [[zone, other] for other in others] for name, others in positions.items()}
        for pairs in links.values():
            marks.update({f"{a}~{b}": link_mark(a, b) for a, b in pairs})
        found.append({"space": zone, "positions": links, "start": "closed", "mark": "I"})
    return found


def panel() -> list[dict[str, Any]]:
    """Classic Risk's zones / 3, at least 3 (I); 21-23 -> 7 is the rulebook's (R)."""
    rows = [{"from": 1, "to": 11, "robots": 3, "mark": "I"}]
    for low in range(12, MOST_ZONES + 1, 3):
        rows.append({"from": low, "to": min(low + 2, MOST_ZONES), "robots": low // 3,
                     "mark": "R" if low == 21 else "I"})
    return rows


def cards() -> list[dict[str, Any]]:
    """The three known cards and one placeholder per remaining zone."""
    taken = {card["zone"] for card in KNOWN_CARDS}
    placeholders = [
        {"id": f"upgrade-{zone}", "name": f"{name} upgrade (placeholder)", "zone": zone,
         "change": True, "upgrade": PLACEHOLDER_TEXT, "timing": "any-time", "effect": "table",
         "lasts": "instant", "mark": "I", "zone_mark": "I"}
        for zone, name, _, _ in ZONES if zone not in taken]
    return [*KNOWN_CARDS, *placeholders]


def build() -> dict[str, Any]:
    """The default board file's object."""
    spaces, marks = spaces_and_marks()
    marks.update({f"{a}~{b}": link_mark(a, b) for a, b in (*BORDERS, *HYPERLINKS)})
    spinning = turning(marks)
    return {
        "name": "Cybertron default board (reconstruction)",
        "note": NOTE,
        "mark": "I",
        "spaces": spaces,
        "links": [list(pair) for pair in BORDERS],
        "opposites": [],
        "hyperlinks": [list(pair) for pair in HYPERLINKS],
        "turning": spinning,
        "opening": [{"space": f"{zone}-factory", "links": [[f"{zone}-factory", zone]],
                     "closed_links": [], "mark": "I"} for zone, _ in FACTORIES],
        "marks": marks,
        "transformers": {
            "sectors": [{"id": c, "name": c.title(), "bonus": b, "mark": "R"} for c, b in BONUSES],
            "panel": panel(),
            "starts": {leader: {"zone": zone, "mark": "I"} for leader, zone in STARTS.items()},
            "launch_pad": {"zone": "launch-pad", "mark": "R"},
            "cards": cards(),
        },
    }


def main() -> None:
    text = json.dumps(build(), indent=1, ensure_ascii=False) + "\n"
    DEFAULT_BOARD_FILE.write_text(text, encoding="utf-8")
    print(f"wrote {DEFAULT_BOARD_FILE}")


if __name__ == "__main__":
    main()
