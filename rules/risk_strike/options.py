"""Setup options: continent sizes, domination numbers and the map, one key per continent.

``--option domination.europe=6``, ``--option sizes.asia=11 --option sizes.europe=8``,
``--option links.australia=asia,south-america --option links.south-america=...``. Defaults come
from :mod:`tabletape.rules.risk_strike.data` (marked there R, V or I); the values in force are
recorded in
the game-started event. Where the rulebook leaves a card rule open, the reading is an option too
(:data:`tabletape.rules.risk_strike.data.READINGS`): ``--option reshuffle=when-empty``,
``--option expand-cards=active``, ``--option after-win=stop``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tabletape.rules.kernel import BadOptions
from tabletape.rules.risk_strike import data
from tabletape.rules.risk_strike.state import CONTINENTS, continent_of, title


def _key(kind: str, continent: str) -> str:
    return f"{kind}.{continent}"


def _attribute(kind: str, continent: str) -> str:
    return f"{kind}_{continent.replace('-', '_')}"


def _fields() -> list[tuple[str, Any, Any]]:
    tables: tuple[tuple[str, Any, dict[str, data.Fact]], ...] = (
        ("sizes", int, data.SIZES),
        ("domination", int, data.DOMINATION),
        ("links", tuple[str, ...], data.LINKS),
    )
    return [
        (_attribute(kind, c), kind_type, msgspec.field(default=table[c].value, name=_key(kind, c)))
        for kind, kind_type, table in tables
        for c in CONTINENTS
    ] + [
        (key.replace("-", "_"), str, msgspec.field(default=fact.value, name=key))
        for key, (fact, others) in data.READINGS.items()
    ]


Options = msgspec.defstruct(
    "Options",
    _fields(),
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    module=__name__,
)
"""Risk Strike's options: ``sizes.<continent>``, ``domination.<continent>``,
``links.<continent>``, and the readings ``reshuffle``, ``expand-cards``, ``after-win``."""


class Settings(msgspec.Struct, frozen=True, gc=False):
    """Options as the state uses them: per continent index, and the readings taken."""

    sizes: tuple[int, ...]
    domination: tuple[int, ...]
    links: tuple[tuple[int, ...], ...]
    """Continents each continent may attack, itself first."""
    readings: dict[str, str] = {}
    """``reshuffle``, ``expand-cards``, ``after-win``: the value in force of each."""


_SETTINGS: dict[bytes, Settings] = {}
"""Settings already worked out, by the options' JSON (a fold starts every game from them)."""


def settings(options: Mapping[str, Any]) -> Settings:
    """Settings from the options of a game-started event (missing keys take the defaults)."""
    try:
        key = msgspec.json.encode(options, order="sorted")
    except (TypeError, msgspec.EncodeError):
        return _settings(options)
    found = _SETTINGS.get(key)
    if found is None:
        found = _settings(options)
        if len(_SETTINGS) >= 256:
            _SETTINGS.clear()
        _SETTINGS[key] = found
    return found


def _settings(options: Mapping[str, Any]) -> Settings:
    converted = msgspec.convert(dict(options), Options, strict=False)
    values = msgspec.structs.asdict(converted)

    def per_continent(kind: str) -> tuple[Any, ...]:
        return tuple(values[_attribute(kind, c)] for c in CONTINENTS)

    links = tuple(
        (c, *(i for i in map(continent_of, neighbours) if i is not None and i != c))
        for c, neighbours in enumerate(per_continent("links"))
    )
    readings = {key: values[key.replace("-", "_")] for key in data.READINGS}
    return Settings(per_continent("sizes"), per_continent("domination"), links,
                    readings)


def validate(options: Any, players: Sequence[str]) -> None:
    """Raise :class:`BadOptions` unless the continents add up and the map is a map."""
    values = msgspec.structs.asdict(options)
    sizes = [values[_attribute("sizes", c)] for c in CONTINENTS]
    if sum(sizes) != data.CONTINENT_CARDS.value:
        raise BadOptions(f"continent sizes must add up to the 42 continent cards, not {sum(sizes)}")
    for key, (fact, others) in data.READINGS.items():
        check_reading(key, values[key.replace("-", "_")], (fact.value, *others))
    links = {c: link_names(c, values[_attribute("links", c)]) for c in CONTINENTS}
    for c in CONTINENTS:
        check_domination(c, values[_attribute("domination", c)], values[_attribute("sizes", c)])
        for other in links[c] - {c}:
            if c not in links[other]:
                now = ", ".join(sorted(links[other])) or "none"
                raise BadOptions(
                    f"links.{c} lists {other}, so links.{other} must list {c} (now: {now})"
                )


def check_domination(continent: str, number: int, size: int) -> None:
    """Dominating: 'each continent has more continent cards than its domination number'."""
    if not 1 <= number < size:
        raise BadOptions(
            f"domination.{continent} must be from 1 to {size - 1} "
            f"({title(continent)} has {size} cards), not {number}"
        )


def check_reading(key: str, value: str, allowed: Sequence[str]) -> None:
    """A reading's option names one of its values (the first is the default)."""
    if value not in allowed:
        raise BadOptions(f"{key} is {' or '.join(allowed)} (default {allowed[0]}), not '{value}'")


def link_names(continent: str, texts: Sequence[str]) -> set[str]:
    """The continents a ``links.<continent>`` option names; unknown names are refused."""
    found = set()
    for text in texts:
        index = continent_of(text)
        if index is None:
            raise BadOptions(
                f"links.{continent}: unknown continent '{text}'; allowed: {', '.join(CONTINENTS)}"
            )
        found.add(CONTINENTS[index])
    return found
