"""Setup options: the villain, each seat's hero, a Challenge, and overrides of uncertain data.

``--option villain=ultron --option heroes=hulk,iron-man --option challenge=moderate``;
``--option health=9`` (the villain's health), ``--option fear-limit=18``,
``--option rescue-slots=8``, ``--option locations=stark-labs,...`` (the ring, clockwise),
``--option masterplan-deck=shipped`` (play with the shipped placeholder Masterplan faces),
``--option typos=keep`` (record an entry that changes nothing or names no known target, as
logs made before the option did; default ``refuse``).
Zero means "the data's value" (:mod:`.data`, marked there); the values in force are recorded in
the game-started event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tabletape.rules.kernel import BadOptions
from tabletape.rules.marvel_united import data


class Options(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Marvel United's options."""

    villain: str = "red-skull"
    heroes: tuple[str, ...] = ()
    """One hero per player in seat order (empty: the first heroes of the box, in order)."""
    challenge: str = "none"
    health: int = 0
    fear_limit: int = msgspec.field(default=0, name="fear-limit")
    rescue_slots: int = msgspec.field(default=0, name="rescue-slots")
    thug_slots: int = msgspec.field(default=0, name="thug-slots")
    threat_slots: int = msgspec.field(default=0, name="threat-slots")
    locations: tuple[str, ...] = ()
    """The 6 locations clockwise, when the table wants them fixed before setup."""
    masterplan_deck: str = msgspec.field(default="table", name="masterplan-deck")
    """``table``: each villain turn records what its card shows (the default: the shipped faces
    are placeholders); ``shipped``: the table plays with the shipped faces (marked I), and a
    villain turn may leave them out (tabletape draws the card and fills its face)."""
    typos: str = "refuse"
    """``refuse``: an entry that changes nothing (``tokens`` with no numbers, ``hit amount=0``,
    a second ``invulnerable``…) or names no known target (``heroic target=thret``) is refused
    as a typo (the default, a reading); ``keep``: it is recorded, as in logs made before the
    option."""


MASTERPLAN_DECKS = ("table", "shipped")
MASTERPLAN_DECK = "masterplan-deck"
"""The option's key. Games recorded before it existed (rules version 1) have no such key in
their game-started options: they played the shipped faces, and tabletape filled them in."""


TYPOS_CHOICES = ("refuse", "keep")
TYPOS = "typos"
"""The option's key. Logs made before it existed lack it: they kept such results."""


class Settings(msgspec.Struct, frozen=True):
    """Options as the state uses them, defaults filled in from the data."""

    villain: str
    heroes: tuple[str, ...]
    removed: tuple[str, ...]
    health: int
    plot: str
    plot_limit: int
    mission_slots: tuple[int, ...]
    locations: tuple[str, ...]
    masterplan_deck: str
    typos: str


def settings(options: Mapping[str, Any], players: int) -> Settings:
    """Settings from the options of a game-started event (every option key is stored since
    version 2; a version 1 log lacks ``masterplan-deck``, which then means ``shipped``; a log
    made before ``typos`` lacks it, which then means ``keep``)."""
    found = msgspec.convert(dict(options), Options, strict=False)
    villain = data.VILLAINS[found.villain]
    heroes = found.heroes or tuple(data.HEROES)[:players]
    slots = tuple(override or fact for override, fact in zip(
        (found.rescue_slots, found.thug_slots, found.threat_slots),
        data.MISSION_SLOTS.value, strict=True))
    return Settings(
        villain=found.villain,
        heroes=heroes,
        removed=data.CHALLENGES[found.challenge].value,
        health=found.health or villain.health.value[players - 2],
        plot=villain.plot.value,
        plot_limit=found.fear_limit or villain.plot_limit.value,
        mission_slots=slots,
        locations=found.locations,
        masterplan_deck=found.masterplan_deck if MASTERPLAN_DECK in options else "shipped",
        typos=found.typos if TYPOS in options else "keep",
    )


def validate(options: Any, players: Sequence[str]) -> None:
    """Raise :class:`BadOptions` naming the bad option and what is allowed."""
    choose("villain", options.villain, tuple(data.VILLAINS))
    if any(player.casefold() == "villain" for player in players):
        raise BadOptions("'villain' names the villain's cards in the Storyline; choose another "
                         "player name")
    choose("challenge", options.challenge, tuple(data.CHALLENGES))
    choose(MASTERPLAN_DECK, options.masterplan_deck, MASTERPLAN_DECKS)
    choose(TYPOS, options.typos, TYPOS_CHOICES)
    for hero in options.heroes:
        choose("heroes", hero, tuple(data.HEROES))
    if options.heroes and len(options.heroes) != len(players):
        raise BadOptions(f"heroes: name one hero per player ({len(players)}), "
                         f"not {len(options.heroes)}")
    if len(set(options.heroes)) != len(options.heroes):
        raise BadOptions("heroes: each player plays a different hero")
    for name in ("health", "fear_limit", "rescue_slots", "thug_slots", "threat_slots"):
        if getattr(options, name) < 0:
            raise BadOptions(f"{name.replace('_', '-')} must be positive (0: the data's value)")
    if options.locations:
        for place in options.locations:
            choose("locations", place, tuple(data.LOCATIONS))
        if len(set(options.locations)) != data.LOCATIONS_IN_PLAY.value:
            raise BadOptions("locations: name 6 different locations, clockwise")


def choose(key: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise BadOptions(f"{key}: unknown '{value}'; allowed: {', '.join(allowed)}")
