"""Cybertron: the Transformers board model on the reusable board, validated as a table supplies it.

The rulebook prints the sectors, their sizes and bonuses, a few zone names and links, and one
point of the ZONES → ROBOTS panel; the rest (topology, panel, start zones, the 42 cards) comes
from a board file the table supplies (``--option board=FILE``), or from the shipped
reconstruction ``default-board.json`` (mark I). The file is the reusable board's format
(:mod:`tabletape.rules.board`) with a ``"transformers"`` section::

    spaces     each zone tagged with its sector (``sector:green``), the Launch Pad ``launch-pad``;
               a war factory is a space tagged ``factory:<sliding zone>`` and ``sector:<colour>``
    links      borders; ``hyperlinks`` the hyperlinks (both make neighbours)
    turning    the two spinning zones, each position naming the links it opens
    opening    the two war factories, with the links they have while open
    marks      provenance per value: ``<zone>`` its name, ``<zone>/sector`` its sector, ``a~b`` a
               link; unlisted values carry the board's mark
    "transformers": {
      "sectors": [{"id": "green", "name": "Green", "bonus": 7, "mark": "R"}, ...],
      "panel":   [{"from": 21, "to": 23, "robots": 7, "mark": "R"}, ...],
      "starts":  {"optimus-prime": {"zone": "autobase", "mark": "I"}, ...},
      "launch_pad": {"zone": "launch-pad", "mark": "R"},
      "cards":   [{"id": "fusion-cannons", "name": "Fusion Cannons", "zone": "perihex",
                   "change": true, "upgrade": "Play before you attack. ...",
                   "timing": "before-attack", "effect": "attack-dice+1", "lasts": "attack",
                   "mark": "R", "zone_mark": "R"}, ...]}

A card's ``effect`` is one the rules can check (``robots+3``, ``sector-bonus*2``,
``attack-dice+1``, ``defence-dice+1``, ``back-up``: a Phase 2 back-up move) or ``table`` (the
table records what it does).

>>> cybertron = load_cybertron(DEFAULT_BOARD_FILE)
>>> len(cybertron.zones), cybertron.sector_of("protihex"), cybertron.robots_for(22)
(42, 'green', 7)
>>> cybertron.neighbours("uraya", positions={"pion-tower": "closed"}, open_factories=())
('primus', 'protihex', 'the-praetorus-wharf')
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

import msgspec

from tabletape.rules.board import (
    ID,
    MAX_BOARD_NOTE,
    MAX_TEXT,
    Board,
    board_from_data,
    check_text,
    read_board_data,
)
from tabletape.rules.facts import MARKS
from tabletape.rules.kernel import BadOptions, unknown_name_message

DEFAULT_BOARD_FILE = Path(__file__).with_name("default-board.json")
"""The shipped board and deck: a reconstruction (I), to be replaced by the table's own."""

SECTOR_SIZES = {"red": 6, "yellow": 4, "green": 12, "blue": 9, "purple": 7, "orange": 4}
"""Zones per sector, war factories apart (R: "CYBERTRON is divided into 42 zones which are
grouped into 6 colored sectors")."""
ZONES = sum(SECTOR_SIZES.values())
"""42 zones (R)."""
SPINNING = 2
"""Spinning zones: Praxus and Pion Tower (R)."""
SLIDING = 2
"""Sliding zones, each with a secret war factory beneath it: Decagon and Moon Alpha (R)."""
LEADERS = ("optimus-prime", "bumblebee", "megatron", "barricade")
"""The four leaders, each with a start zone on his leader card (R; the zones NF)."""
CARDS = 42
"""Upgrade cards in the box (R)."""
TIMINGS = ("phase-1", "phase-2", "before-attack", "before-defence", "any-time")
"""When a card is played: Phase 1 step B, Phase 2, as attacker or defender before a roll, any
time the table allows (what the rules cannot check)."""
LASTS = ("instant", "attack", "turn")
"""How long a card's upgrade lasts: at once, "for this attack", "this turn"."""
EFFECT = re.compile(r"^(table|back-up|robots\+[1-9][0-9]?|sector-bonus\*[2-9]|"
                    r"(attack|defence)-dice\+[1-9])$")
"""Effects the rules can check, or ``table``."""
SECTION = "transformers"
"""The key of the Transformers part of a board file."""


class Sector(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A sector: its colour id, name and the bonus for controlling all its zones."""

    id: str
    name: str
    bonus: int
    mark: str = ""


class PanelRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True, rename={"low": "from"}):
    """One row of the ZONES → ROBOTS panel: ``low``..``to`` zones give ``robots``."""

    low: int
    to: int
    robots: int
    mark: str = ""


class Place(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A zone playing a role (a leader's start zone, the Launch Pad), with its provenance."""

    zone: str
    mark: str = ""


class Card(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An upgrade card: its zone (for the AllSpark), change icon, upgrade text and effect."""

    id: str
    name: str
    zone: str
    change: bool
    """Whether it has the change icon (it may change a spinning or sliding zone in Phase 2)."""
    upgrade: str
    timing: str
    effect: str
    lasts: str = "instant"
    mark: str = ""
    """Provenance of the name, text, timing and effect."""
    zone_mark: str = ""
    """Provenance of the zone and change icon; the card's mark when empty."""


class Section(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The ``"transformers"`` part of a board file."""

    sectors: tuple[Sector, ...] = ()
    panel: tuple[PanelRow, ...] = ()
    starts: dict[str, Place] = {}
    launch_pad: Place | None = None
    cards: tuple[Card, ...] = ()


FOUND_KEPT = 4096
"""How many typed texts :meth:`Cybertron.find` remembers (a fold meets a few dozen ids)."""


class Cybertron(msgspec.Struct, frozen=True, dict=True):
    """The Cybertron board and deck; build it with :func:`cybertron_from_data` (validates)."""

    board: Board
    section: Section

    # -- zones and sectors -----------------------------------------------------------------

    @cached_property
    def factories(self) -> dict[str, str]:
        """``{sliding zone: its war factory}``."""
        return {zone: factory for zone, factory in self.board.tag_values("factory").items()}

    @cached_property
    def zones(self) -> tuple[str, ...]:
        """The 42 zones' ids in board order, war factories excluded."""
        factories = set(self.factories.values())
        return tuple(i for i in self.board.ids if i not in factories)

    @cached_property
    def spinning(self) -> tuple[str, ...]:
        return tuple(turning.space for turning in self.board.turning)

    @property
    def sliding(self) -> tuple[str, ...]:
        return tuple(self.factories)

    def positions(self, zone: str) -> tuple[str, ...]:
        """The positions of a spinning zone."""
        return next(tuple(t.positions) for t in self.board.turning if t.space == zone)

    def start_positions(self) -> dict[str, str]:
        """Each spinning zone's position as the board file starts it."""
        return self.board.start_positions()

    @cached_property
    def sector_tags(self) -> dict[str, str]:
        """``{space: sector}`` for every space with a ``sector:`` tag (the last if several)."""
        return {space: tag.removeprefix("sector:") for space in self.board.ids
                for tag in self.board.space(space).tags if tag.startswith("sector:")}

    def sector_of(self, zone: str) -> str:
        """The sector (colour id) of a zone or war factory."""
        return self.sector_tags[zone]

    @cached_property
    def sectors(self) -> tuple[str, ...]:
        return tuple(sector.id for sector in self.section.sectors)

    def sector_zones(self, sector: str, open_factories: Collection[str] = ()) -> tuple[str, ...]:
        """The zones of a sector, with its war factories that are open ("If a secret war factory
        is open, it counts as one of the sector's zones")."""
        key = (sector, tuple(open_factories))
        found = self._sector_zones.get(key)
        if found is None:
            zones = self.zone_set
            found = self._sector_zones[key] = tuple(
                space for space in self.board.tagged(f"sector:{sector}")
                if space in zones or space in open_factories)
        return found

    @cached_property
    def _sector_zones(self) -> dict[tuple[str, tuple[str, ...]], tuple[str, ...]]:
        return {}

    @cached_property
    def zone_set(self) -> frozenset[str]:
        """:attr:`zones` as a set, for membership."""
        return frozenset(self.zones)

    def bonus(self, sector: str) -> int:
        return self._bonuses[sector]

    @cached_property
    def _bonuses(self) -> dict[str, int]:
        found: dict[str, int] = {}
        for sector in self.section.sectors:
            found.setdefault(sector.id, sector.bonus)  # the first of an id, as before
        return found

    def neighbours(self, zone: str, *, positions: Mapping[str, str],
                   open_factories: Collection[str]) -> tuple[str, ...]:
        """Zones next to ``zone`` across a border or hyperlink, as the spinning zones stand and
        with the war factories in ``open_factories`` open."""
        return self.board.neighbours_at(zone, positions=positions, open_spaces=open_factories)

    @cached_property
    def deck(self) -> Counter[str]:
        """How many copies of each card id the deck holds."""
        return Counter(self.card_ids)

    @cached_property
    def places(self) -> tuple[str, ...]:
        """The zones, then the war factories: the places a game's state counts by index."""
        return (*self.zones, *self.factories.values())

    @cached_property
    def place_index(self) -> dict[str, int]:
        """Each place id's index in :attr:`places` (the first, should an id repeat)."""
        found: dict[str, int] = {}
        for at, place in enumerate(self.places):
            found.setdefault(place, at)
        return found

    def find(self, text: str) -> str | None:
        """The space id a typed zone means (:meth:`Board.find`), remembered per text typed
        (the fold looks up every stored zone, always spelled as its id)."""
        found = self._found.get(text, False)
        if found is False:
            found = self.board.find(text)
            if len(self._found) < FOUND_KEPT:
                self._found[text] = found
        return found  # type: ignore[return-value]

    @cached_property
    def _found(self) -> dict[str, str | bool | None]:
        return {}

    @cached_property
    def _tables(self) -> dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[tuple[int, ...], ...]]:
        return {}

    def neighbour_table(self, positions: tuple[str, ...],
                        open_factories: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
        """Each place's neighbours (indexes into :attr:`places`) as the board stands: the
        spinning zones at ``positions`` (in :attr:`spinning` order), the war factories in
        ``open_factories`` open. Cached per standing (the rules ask at every attack and
        back-up, the bot at every choice)."""
        key = (positions, open_factories)
        if key not in self._tables:
            standing = dict(zip(self.spinning, positions, strict=True))
            index = {place: at for at, place in enumerate(self.places)}
            self._tables[key] = tuple(
                tuple(index[near] for near in self.neighbours(
                    place, positions=standing, open_factories=open_factories))
                for place in self.places)
        return self._tables[key]

    def robots_for(self, zone_count: int) -> int:
        """The panel's robots for a number of zones controlled (1 to every zone and factory);
        ValueError for a count the panel does not cover."""
        robots = next((row.robots for row in self.section.panel
                       if row.low <= zone_count <= row.to), None)
        if robots is None:
            raise ValueError(f"the panel gives no robots for {zone_count} zones")
        return robots

    def start_zone(self, leader: str) -> str:
        return self.section.starts[leader].zone

    @property
    def launch_pad(self) -> str:
        assert self.section.launch_pad is not None  # validated
        return self.section.launch_pad.zone

    @cached_property
    def _cards(self) -> dict[str, Card]:
        return {card.id: card for card in self.section.cards}

    def card(self, card_id: str) -> Card:
        return self._cards[card_id]

    @cached_property
    def card_ids(self) -> tuple[str, ...]:
        return tuple(self._cards)

    def to_data(self) -> dict[str, Any]:
        """The board file's object (what the game's options store)."""
        data = self.board.to_data()
        data[SECTION] = msgspec.json.decode(msgspec.json.encode(self.section))
        return data


# -- loading and validation ----------------------------------------------------------------------


def load_cybertron(path: str | Path) -> Cybertron:
    """A validated Cybertron read from a board file (read as any board file is: size limit,
    regular file, UTF-8)."""
    return cybertron_from_data(read_board_data(path))


def default_board_data() -> dict[str, Any]:
    """The shipped reconstruction's file object."""
    data: dict[str, Any] = msgspec.json.decode(DEFAULT_BOARD_FILE.read_bytes())
    return data


def cybertron_from_data(data: Any) -> Cybertron:
    """A validated Cybertron; :class:`BadOptions` lists every problem found, one per line."""
    if not isinstance(data, Mapping) or not isinstance(data.get(SECTION), Mapping):
        raise BadOptions(f"a Cybertron board is a JSON object with spaces, links and a "
                         f"'{SECTION}' object (sectors, panel, starts, launch_pad, cards)")
    board = board_from_data({k: v for k, v in data.items() if k != SECTION})
    try:
        section = msgspec.convert(dict(data[SECTION]), Section, strict=False)
    except msgspec.ValidationError as error:
        raise BadOptions(f"board {SECTION}: {error}") from None
    cybertron = Cybertron(board=board, section=section)
    found = problems(cybertron)
    if len(found) == 1:
        raise BadOptions(f"board '{board.name}': {found[0]}")
    if found:
        raise BadOptions(f"board '{board.name}' has {len(found)} problems:\n- "
                         + "\n- ".join(found))
    return cybertron


def problems(cybertron: Cybertron) -> list[str]:
    """Every problem of a board as a Transformers board, one sentence each."""
    return [*zone_problems(cybertron), *special_problems(cybertron),
            *place_problems(cybertron), *panel_problems(cybertron),
            *card_problems(cybertron), *mark_problems(cybertron)]


def zone_problems(cybertron: Cybertron) -> list[str]:
    """42 zones, each in one known sector; sector sizes 6/4/12/9/7/4; every sector's bonus."""
    found = []
    zones, sectors = cybertron.zones, tuple(SECTOR_SIZES)
    if len(zones) != ZONES:
        found.append(f"{len(zones)} zones besides war factories; Cybertron has {ZONES}")
    for space in cybertron.board.ids:
        tags = [t for t in cybertron.board.space(space).tags if t.startswith("sector:")]
        if len(tags) != 1:
            found.append(f"zone '{space}' has {len(tags)} sector tags; it needs one "
                         "(sector:red ...)")
        elif (colour := tags[0].removeprefix("sector:")) not in SECTOR_SIZES:
            found.append(f"zone '{space}': " + unknown_name_message("sector", colour, sectors))
    for colour, size in SECTOR_SIZES.items():
        count = len(cybertron.sector_zones(colour))
        if count != size:
            found.append(f"sector {colour} has {count} zones; the rulebook gives it {size}")
    listed = [sector.id for sector in cybertron.section.sectors]
    for colour in listed:
        if colour not in SECTOR_SIZES:
            found.append(unknown_name_message("sector", colour, sectors))
    found += [f"sector {colour} has no bonus row (sectors: id, name, bonus)"
              for colour in sectors if colour not in listed]
    found += [f"sector {colour} is listed twice" for colour in set(listed)
              if listed.count(colour) > 1]
    found += [f"sector {s.id} has a negative bonus ({s.bonus})"
              for s in cybertron.section.sectors if s.bonus < 0]
    return found


def special_problems(cybertron: Cybertron) -> list[str]:
    """Two spinning zones with positions; two sliding zones, each with one war factory that
    opens and closes, in its sector."""
    board, found = cybertron.board, []
    if len(board.turning) != SPINNING:
        found.append(f"{len(board.turning)} spinning zones (turning); Cybertron has {SPINNING}")
    found += [f"spinning zone '{t.space}' has {len(t.positions)} position(s); it needs at "
              "least 2 (one per way it can stand)" for t in board.turning if len(t.positions) < 2]
    if len(cybertron.factories) != SLIDING:
        found.append(f"{len(cybertron.factories)} sliding zones with a war factory "
                     f"(factory:<zone> tags); Cybertron has {SLIDING}")
    opening = {o.space for o in board.opening}
    for zone, factory in cybertron.factories.items():
        if zone not in cybertron.zones:
            found.append(f"war factory '{factory}': "
                         + unknown_name_message("sliding zone", zone, cybertron.zones))
            continue
        if factory not in opening:
            found.append(f"war factory '{factory}' of {zone} is missing from 'opening' (the "
                         "links it has while open)")
        if cybertron.sector_tags.get(factory) != cybertron.sector_tags.get(zone):
            found.append(f"war factory '{factory}' is not in its sliding zone {zone}'s sector")
        if zone in cybertron.spinning:
            found.append(f"zone '{zone}' is both spinning and sliding")
    factories = set(cybertron.factories.values())
    found += [f"opening space '{space}' is no war factory (tag it factory:<sliding zone>)"
              for space in sorted(opening - factories)]
    found += [f"spinning zone '{space}' is a war factory" for space in cybertron.spinning
              if space in factories]
    return found


def place_problems(cybertron: Cybertron) -> list[str]:
    """One start zone per leader, each his own, one Launch Pad, all on zones (not war
    factories)."""
    section, found = cybertron.section, []
    places = [(f"start zone of {leader}", place) for leader, place in section.starts.items()]
    found += [unknown_name_message("leader", leader, LEADERS)
              for leader in section.starts if leader not in LEADERS]
    found += [f"leader {leader} has no start zone (starts)" for leader in LEADERS
              if leader not in section.starts]
    if section.launch_pad is None:
        found.append("no Launch Pad (launch_pad)")
    else:
        places.append(("Launch Pad", section.launch_pad))
    for what, place in places:
        if place.zone not in cybertron.zones:
            found.append(f"{what}: " + unknown_name_message("zone", place.zone, cybertron.zones))
    starts = [place.zone for place in section.starts.values()]
    found += [f"zone '{zone}' is the start zone of several leaders" for zone in sorted(set(starts))
              if starts.count(zone) > 1]
    return found


def panel_problems(cybertron: Cybertron) -> list[str]:
    """A panel row for every zone count that can occur: 1 to 42 plus the war factories (a row
    may run past them: "42 or more"; only the counts that can occur are looked at)."""
    most = len(cybertron.board.ids)
    covered: dict[int, int] = {}
    found = []
    for row in cybertron.section.panel:
        if row.low > row.to or row.robots < 0:
            found.append(f"panel row {row.low}-{row.to} -> {row.robots} is not a range of "
                         "zones giving 0 or more robots")
        for count in range(max(row.low, 1), min(row.to, most) + 1):
            covered[count] = covered.get(count, 0) + 1
    missing = [count for count in range(1, most + 1) if count not in covered]
    twice = sorted(count for count, times in covered.items() if times > 1)
    if missing:
        found.append(f"the panel gives no robots for {shown_counts(missing)} zones (it needs a "
                     f"row for every count from 1 to {most})")
    if twice:
        found.append(f"the panel has several rows for {shown_counts(twice)} zones")
    return found


def shown_counts(counts: list[int]) -> str:
    """``1-3, 7`` for ``[1, 2, 3, 7]``.

    >>> shown_counts([1, 2, 3, 7])
    '1-3, 7'
    """
    runs: list[list[int]] = []
    for count in counts:
        if runs and runs[-1][-1] == count - 1:
            runs[-1].append(count)
        else:
            runs.append([count])
    return ", ".join(f"{r[0]}-{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def card_problems(cybertron: Cybertron) -> list[str]:
    """42 cards with unique kebab-case ids, each naming a zone, with a known timing, duration
    and effect, and text that is safe to show."""
    cards, found = cybertron.section.cards, []
    if len(cards) != CARDS:
        found.append(f"{len(cards)} upgrade cards; the box has {CARDS}")
    ids = [card.id for card in cards]
    found += [f"card '{card_id}' is listed twice" for card_id in sorted(set(ids))
              if ids.count(card_id) > 1]
    for card in cards:
        found += one_card_problems(card, cybertron.zones)
    return found


def one_card_problems(card: Card, zones: tuple[str, ...]) -> list[str]:
    """The problems of one card."""
    found = []
    where = f"card '{card.id}'"
    if not ID.match(card.id):
        found.append(f"{where}: the id must be kebab-case (e.g. fusion-cannons)")
    if card.zone not in zones:
        found.append(f"{where}: " + unknown_name_message("zone", card.zone, zones))
    for what, value, allowed in (("timing", card.timing, TIMINGS), ("lasts", card.lasts, LASTS)):
        if value not in allowed:
            found.append(f"{where}: " + unknown_name_message(what, value, allowed))
    if card.effect == "back-up" and card.timing not in ("phase-2", "any-time"):
        found.append(f"{where}: a back-up card is played in Phase 2 (timing phase-2 or "
                     f"any-time, not {card.timing})")
    if not EFFECT.match(card.effect):
        found.append(f"{where}: unknown effect '{card.effect}'; allowed: robots+N, "
                     "sector-bonus*N, attack-dice+N, defence-dice+N, back-up, table")
    for what, text, limit in (("name", card.name, MAX_TEXT),
                              ("upgrade", card.upgrade, MAX_BOARD_NOTE)):
        try:
            check_text(f"{where} {what}", text, limit)
        except BadOptions as error:
            found.append(str(error))
    return found


def mark_problems(cybertron: Cybertron) -> list[str]:
    """Every provenance mark in the section is a known mark (or empty: the board's)."""
    section = cybertron.section
    marked = [(f"sector {s.id}", s.mark) for s in section.sectors]
    marked += [(f"panel row {r.low}-{r.to}", r.mark) for r in section.panel]
    marked += [(f"start zone of {leader}", p.mark) for leader, p in section.starts.items()]
    marked += [("Launch Pad", section.launch_pad.mark)] if section.launch_pad else []
    marked += [(f"card {c.id}", mark) for c in section.cards for mark in (c.mark, c.zone_mark)]
    marked += [(f"spinning zone {t.space}", t.mark) for t in cybertron.board.turning]
    marked += [(f"war factory {o.space}", o.mark) for o in cybertron.board.opening]
    return [f"{what}: " + unknown_name_message("mark", mark, MARKS)
            for what, mark in marked if mark and mark not in MARKS]
