"""The Cybertron board and deck: the default reconstruction, validation of a table's board file,
neighbours as spinning zones turn and war factories open."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tabletape.rules.facts import MARKS
from tabletape.rules.kernel import BadOptions
from tabletape.rules.risk_transformers import make_default_board
from tabletape.rules.risk_transformers.board import (
    DEFAULT_BOARD_FILE,
    SECTOR_SIZES,
    Cybertron,
    cybertron_from_data,
    default_board_data,
    load_cybertron,
)
from tests.rules.test_board import hostile_files

CLOSED = {"pion-tower": "closed", "praxus": "closed"}


@pytest.fixture(scope="module")
def cybertron() -> Cybertron:
    return load_cybertron(DEFAULT_BOARD_FILE)


def board_with(change: Any) -> dict[str, Any]:
    """The default board's data after ``change(data)``."""
    data = copy.deepcopy(default_board_data())
    change(data)
    return data


def problems_of(data: dict[str, Any]) -> str:
    with pytest.raises(BadOptions) as error:
        cybertron_from_data(data)
    return str(error.value)


# -- the shipped reconstruction ------------------------------------------------------------------


def test_the_default_board_validates_and_is_what_the_script_makes(cybertron: Cybertron) -> None:
    assert len(cybertron.zones) == 42 and len(cybertron.board.ids) == 44
    assert default_board_data() == make_default_board.build()
    assert cybertron_from_data(cybertron.to_data()) == cybertron
    assert cybertron.to_data() == json.loads(DEFAULT_BOARD_FILE.read_text(encoding="utf-8"))


def test_the_default_board_says_it_is_a_reconstruction(cybertron: Cybertron) -> None:
    board = cybertron.board
    assert board.mark == "I" and "reconstruction" in board.name
    assert board.note.startswith("RECONSTRUCTION") and "classic Risk" in board.note


def every_mark(cybertron: Cybertron) -> dict[str, str]:
    """Each value of the board file by a readable key, with its mark (missing: "")."""
    board, section = cybertron.board, cybertron.section
    marks = {key: board.marks.get(key, "") for space in board.ids
             for key in (space, f"{space}/sector")}
    links = [*board.links, *board.hyperlinks]
    links += [pair for t in board.turning for pairs in t.positions.values() for pair in pairs]
    marks |= {f"{a}~{b}": board.marks.get(f"{a}~{b}", "") for a, b in links}
    marks |= {f"turning {t.space}": t.mark for t in board.turning}
    marks |= {f"opening {o.space}": o.mark for o in board.opening}
    marks |= {f"sector {s.id}": s.mark for s in section.sectors}
    marks |= {f"panel {r.low}": r.mark for r in section.panel}
    marks |= {f"start {leader}": place.mark for leader, place in section.starts.items()}
    marks |= {"launch pad": section.launch_pad.mark if section.launch_pad else ""}
    marks |= {f"card {c.id}": c.mark for c in section.cards}
    marks |= {f"card zone {c.id}": c.zone_mark for c in section.cards}
    return marks


def test_every_value_of_the_default_board_has_its_own_mark(cybertron: Cybertron) -> None:
    marks = every_mark(cybertron)
    assert [key for key, mark in marks.items() if mark not in MARKS] == []
    assert len(marks) > 44 * 2 + 80 + 42 * 2


def test_rulebook_values_are_marked_r_and_invented_ones_i(cybertron: Cybertron) -> None:
    """"CYBERTRON is divided into 42 zones which are grouped into 6 colored sectors." — "Uraya
    neighbors Primus and Protihex (because they share a border) and The Praetorus Wharf (because
    they are joined by a hyperlink)." — "21–23 zones gives 7 operational robots." """
    marks = every_mark(cybertron)
    rulebook = ["uraya", "uraya~primus", "uraya~protihex", "uraya~the-praetorus-wharf",
                "autobase~kalis", "protihex~the-neutral-territories", "pion-tower~uraya",
                "autobase/sector", "kalis/sector", "protihex/sector", "panel 21",
                "card fusion-cannons", "card zone fusion-cannons", "card mass-production",
                "sector green", "launch pad"]
    invented = ["green-1", "uraya/sector", "blue-1~blue-2", "panel 1", "panel 24",
                "start optimus-prime", "card upgrade-uraya", "card zone mass-production",
                "turning praxus", "opening decagon-factory"]
    assert {key: marks[key] for key in rulebook} == dict.fromkeys(rulebook, "R")
    assert {key: marks[key] for key in invented} == dict.fromkeys(invented, "I")
    assert marks["vos"] == "S"
    assert sorted(k for k, m in marks.items() if k.startswith("card ") and m == "R") == [
        "card fusion-cannons", "card interlock-initiators", "card mass-production",
        "card zone fusion-cannons"]


def test_sectors_sizes_and_bonuses_are_the_printed_ones(cybertron: Cybertron) -> None:
    """"Printed sector bonus strip (color: robots): green 7, blue 5, purple 5, red 3, yellow 2,
    orange 2." — "Note: If a secret war factory is open, it counts as one of the sector's
    zones." """
    assert {s: len(cybertron.sector_zones(s)) for s in cybertron.sectors} == SECTOR_SIZES
    assert {s: cybertron.bonus(s) for s in cybertron.sectors} == {
        "red": 3, "yellow": 2, "green": 7, "blue": 5, "purple": 5, "orange": 2}
    assert len(cybertron.sector_zones("purple", open_factories={"decagon-factory"})) == 8
    assert cybertron.sector_of("decagon-factory") == "purple"


def test_known_zones_sit_where_the_rulebook_puts_them(cybertron: Cybertron) -> None:
    """"Autobase (red sector) and Kalis (yellow sector), AND Protihex (green sector) and The
    Neutral Territories (red sector)." — "Blue controls Plasma Energy Chamber and plays a change
    card on the sliding zone [Decagon]." — "Black declares an attack on the Launch Pad
    (controlled by Red) from neighboring Hexima State." """
    sector = cybertron.sector_of
    assert (sector("autobase"), sector("the-neutral-territories")) == ("red", "red")
    assert (sector("kalis"), sector("protihex")) == ("yellow", "green")
    assert sector("plasma-energy-chamber") == sector("decagon")
    assert "hexima-state" in cybertron.neighbours("launch-pad", positions=CLOSED,
                                                  open_factories=())
    assert cybertron.launch_pad == "launch-pad"
    assert cybertron.spinning == ("pion-tower", "praxus")
    assert cybertron.sliding == ("decagon", "moon-alpha")
    assert {leader: cybertron.start_zone(leader) for leader in
            ("optimus-prime", "bumblebee", "megatron", "barricade")} == {
        "optimus-prime": "autobase", "bumblebee": "kalis", "megatron": "vos",
        "barricade": "the-arena"}


def test_the_panel_gives_7_robots_for_21_to_23_zones(cybertron: Cybertron) -> None:
    """"The only value legible in the rulebook is the example on page 8: 21–23 zones gives 7
    operational robots." (the rest: classic Risk's zones / 3, at least 3, mark I)"""
    assert [cybertron.robots_for(n) for n in (20, 21, 22, 23, 24)] == [6, 7, 7, 7, 8]
    assert cybertron.robots_for(1) == 3 and cybertron.robots_for(44) == 14
    with pytest.raises(ValueError, match="no robots for 45 zones"):
        cybertron.robots_for(45)


def test_the_known_cards_and_their_effects(cybertron: Cybertron) -> None:
    """"Mass-Production – "Play on your turn in Phase 1. Place 3 extra robots this turn."
    Interlock Initiators – "Play on your turn in Phase 1. Double your sector bonus this turn."" —
    "FUSION CANNONS – "Play before you attack. Add 1 to each die for this attack." Zone:
    Perihex. Change: "Change a zone in Phase 2."" """
    fusion = cybertron.card("fusion-cannons")
    assert (fusion.zone, fusion.change, fusion.effect, fusion.lasts) == (
        "perihex", True, "attack-dice+1", "attack")
    assert cybertron.card("mass-production").effect == "robots+3"
    assert cybertron.card("interlock-initiators").effect == "sector-bonus*2"
    cards = [cybertron.card(i) for i in cybertron.card_ids]
    assert sorted(card.zone for card in cards) == sorted(cybertron.zones)
    assert {card.effect for card in cards if card.mark == "I"} == {"table"}


# -- neighbours ----------------------------------------------------------------------------------


def test_uraya_neighbours_pion_tower_only_when_the_arrows_line_up(cybertron: Cybertron) -> None:
    """"Uraya neighbors Primus and Protihex (because they share a border) and The Praetorus
    Wharf (because they are joined by a hyperlink). Uraya only neighbors Pion Tower when their
    arrows line up." """
    closed = cybertron.neighbours("uraya", positions=CLOSED, open_factories=())
    lined_up = cybertron.neighbours("uraya", positions={"pion-tower": "west"}, open_factories=())
    assert closed == ("primus", "protihex", "the-praetorus-wharf")
    assert lined_up == ("primus", "pion-tower", "protihex", "the-praetorus-wharf")
    assert cybertron.neighbours("pion-tower", positions=CLOSED, open_factories=()) == ()
    assert cybertron.start_positions() == CLOSED


def test_spinning_praxus_opens_to_the_zones_on_either_side(cybertron: Cybertron) -> None:
    """"Yellow wants to attack Praxus, which is defended by just one black robot. However, the
    path is blocked because the spinning zone is closed. In order to attack, Yellow plays a
    change card and spins Praxus to open the channel between Praxus and the two zones on either
    side of it." """
    assert cybertron.positions("praxus") == ("closed", "open")
    assert cybertron.neighbours("praxus", positions=CLOSED, open_factories=()) == ()
    opened = cybertron.neighbours("praxus", positions={"praxus": "open"}, open_factories=())
    assert len(opened) == 2
    assert all("praxus" in cybertron.neighbours(zone, positions={"praxus": "open"},
                                                open_factories=()) for zone in opened)


def test_a_war_factory_is_on_the_board_only_while_open(cybertron: Cybertron) -> None:
    """"The sliding zones (Decagon and Moon Alpha) have secret war factories beneath them." —
    "These are always closed at the start of the game but can be opened in Phase 2." """
    closed = cybertron.neighbours("decagon", positions=CLOSED, open_factories=())
    opened = cybertron.neighbours("decagon", positions=CLOSED,
                                  open_factories={"decagon-factory"})
    assert set(opened) - set(closed) == {"decagon-factory"}
    assert "decagon-factory" not in cybertron.zones
    assert not cybertron.board.on_board("decagon-factory")
    assert cybertron.board.on_board("decagon-factory", {"decagon-factory"})
    assert cybertron.neighbours("decagon-factory", positions=CLOSED, open_factories=()) == ()


def test_hyperlinks_make_neighbours(cybertron: Cybertron) -> None:
    """"Zones neighbor each other if they share a border or are connected by a hyperlink." —
    "two of the hyperlinks go off the board and wrap around the planet. These are: Autobase
    (red sector) and Kalis (yellow sector), AND Protihex (green sector) and The Neutral
    Territories (red sector)." """
    for a, b in (("autobase", "kalis"), ("protihex", "the-neutral-territories")):
        assert cybertron.board.link_kind(a, b) == "hyperlink"
        assert b in cybertron.neighbours(a, positions=CLOSED, open_factories=())
    assert cybertron.board.link_kind("uraya", "primus") == "border"


# -- validation of a table's board ---------------------------------------------------------------


def drop_zone(zone: str) -> Any:
    """A change removing a zone, its links and its card."""
    def change(data: dict[str, Any]) -> None:
        data["spaces"] = [s for s in data["spaces"] if s["id"] != zone]
        for key in ("links", "hyperlinks"):
            data[key] = [pair for pair in data[key] if zone not in pair]
        section = data["transformers"]
        section["cards"] = [c for c in section["cards"] if c["zone"] != zone]
    return change


def test_a_board_missing_a_sector_zone_names_each_consequence() -> None:
    """"CYBERTRON is divided into 42 zones which are grouped into 6 colored sectors." (red 6)"""
    message = problems_of(board_with(drop_zone("red-1")))
    assert "has 3 problems" in message
    assert "41 zones besides war factories; Cybertron has 42" in message
    assert "sector red has 5 zones; the rulebook gives it 6" in message
    assert "41 upgrade cards; the box has 42" in message


def retag(zone: str, sector: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        space = next(s for s in data["spaces"] if s["id"] == zone)
        space["tags"] = [f"sector:{sector}"]
    return change


def test_a_wrong_sector_size_and_an_unknown_sector() -> None:
    """Sector sizes: "Red 6, Yellow 4, Green 12, Blue 9, Purple 7, Orange 4"."""
    message = problems_of(board_with(retag("blue-1", "green")))
    assert "sector blue has 8 zones; the rulebook gives it 9" in message
    assert "sector green has 13 zones; the rulebook gives it 12" in message
    message = problems_of(board_with(retag("blue-1", "bleu")))
    assert "zone 'blue-1': unknown sector 'bleu' (did you mean 'blue'?)" in message


def test_a_spinning_zone_without_positions() -> None:
    """"Use the spinning zones (Praxus and Pion Tower) to open or close routes between
    neighboring zones" """
    def no_positions(data: dict[str, Any]) -> None:
        data["turning"][1]["positions"] = {}
        data["turning"][1]["start"] = ""
    assert "turning space 'praxus' has no positions" in problems_of(board_with(no_positions))

    def one_position(data: dict[str, Any]) -> None:
        positions = data["turning"][1]["positions"]
        data["turning"][1]["positions"] = {"open": positions["open"]}
        data["turning"][1]["start"] = "open"
    assert "spinning zone 'praxus' has 1 position(s)" in problems_of(board_with(one_position))

    def one_spinning(data: dict[str, Any]) -> None:
        data["links"] += data["turning"].pop(1)["positions"]["open"]
    assert "1 spinning zones (turning); Cybertron has 2" in problems_of(board_with(one_spinning))


def test_a_missing_war_factory() -> None:
    """"The sliding zones (Decagon and Moon Alpha) have secret war factories beneath them." """
    def no_factory(data: dict[str, Any]) -> None:
        data["spaces"] = [s for s in data["spaces"] if s["id"] != "moon-alpha-factory"]
        data["opening"] = [o for o in data["opening"] if o["space"] != "moon-alpha-factory"]
    message = problems_of(board_with(no_factory))
    assert "1 sliding zones with a war factory (factory:<zone> tags); Cybertron has 2" in message

    def untagged(data: dict[str, Any]) -> None:
        data["spaces"][-1]["tags"] = ["sector:blue"]
    message = problems_of(board_with(untagged))
    assert "opening space 'moon-alpha-factory' is no war factory (tag it factory:<sliding " \
        "zone>)" in message
    assert "1 sliding zones" in message and "43 zones besides war factories" in message


def test_a_panel_gap_an_overlap_and_a_missing_top() -> None:
    """"Find the number of zones you control in the black numbers. Take the number of robots
    shown in the corresponding red number" — every count from 1 to 42 plus open factories."""
    def gap(data: dict[str, Any]) -> None:
        panel = data["transformers"]["panel"]
        panel[:] = [row for row in panel if row["from"] not in (24, 42)]
        panel.append({"from": 1, "to": 2, "robots": 3})
    message = problems_of(board_with(gap))
    assert "the panel gives no robots for 24-26, 42-44 zones" in message
    assert "the panel has several rows for 1-2 zones" in message


def test_41_cards_and_a_card_naming_an_unknown_zone_at_once() -> None:
    """"42 upgrade cards" (components) — each card shows a Zone ("Zone: Perihex")."""
    def change(data: dict[str, Any]) -> None:
        cards = data["transformers"]["cards"]
        del cards[-1]
        cards[0]["zone"] = "urya"
        cards[1]["effect"] = "robots*3"
    message = problems_of(board_with(change))
    assert message.startswith("board 'Cybertron default board (reconstruction)' has 3 problems:")
    assert "41 upgrade cards; the box has 42" in message
    assert "card 'mass-production': unknown zone 'urya' (did you mean 'uraya'?)" in message
    assert "card 'interlock-initiators': unknown effect 'robots*3'" in message
    assert len(message.splitlines()) == 4


def test_start_zones_launch_pad_and_marks_are_checked() -> None:
    """"The leader card shows his start zone" — one per leader; "the player who controls the
    Launch Pad automatically wins the game" — one Launch Pad."""
    def change(data: dict[str, Any]) -> None:
        section = data["transformers"]
        section["starts"]["optimus"] = section["starts"].pop("optimus-prime")
        section["starts"]["megatron"]["zone"] = "kalis"
        section["launch_pad"]["zone"] = "decagon-factory"
        section["sectors"][0]["mark"] = "X"
    message = problems_of(board_with(change))
    assert "unknown leader 'optimus' (did you mean 'optimus-prime'?)" in message
    assert "leader optimus-prime has no start zone" in message
    assert "zone 'kalis' is the start zone of several leaders" in message
    assert "Launch Pad: unknown zone 'decagon-factory'" in message
    assert "sector red: unknown mark 'X'" in message


def test_card_text_is_safe_to_show() -> None:
    def change(data: dict[str, Any]) -> None:
        data["transformers"]["cards"][0]["name"] = "Mass\x1b[2J"
        data["transformers"]["cards"][1]["upgrade"] = "x" * 4001
    message = problems_of(board_with(change))
    assert "card 'mass-production' name 'Mass\\x1b[2J' holds a control character" in message
    assert "card 'interlock-initiators' upgrade 'xxx" in message
    assert "is longer than 4000 characters" in message


@pytest.mark.parametrize("name", ["latin-1", "nested", "folder", "fifo", "/dev/zero"])
def test_hostile_files_are_refused_as_any_board_file(tmp_path: Path, name: str) -> None:
    path = hostile_files(tmp_path)[name]
    with pytest.raises(BadOptions) as refused:
        load_cybertron(path)
    assert str(path) in str(refused.value) and "\n" not in str(refused.value)


def test_a_file_is_read_as_any_board_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe{}")
    with pytest.raises(BadOptions, match="not UTF-8 text"):
        load_cybertron(bad)
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"name": "x", "spaces": [{"id": "a"}]}))
    with pytest.raises(BadOptions, match="'transformers' object"):
        load_cybertron(plain)
    good = tmp_path / "good.json"
    good.write_text(DEFAULT_BOARD_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    assert load_cybertron(good) == load_cybertron(DEFAULT_BOARD_FILE)
