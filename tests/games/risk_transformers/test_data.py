"""Risk: Transformers data: every value carries its provenance."""

from __future__ import annotations

from tabletape.rules.facts import MARKS, Fact
from tabletape.rules.risk_transformers import data


def facts() -> dict[str, Fact]:
    found = {name: value for name, value in vars(data).items() if isinstance(value, Fact)}
    found.update({f"READINGS[{code}]": fact for code, fact in data.READINGS.items()})
    return found


def test_every_value_says_where_it_comes_from() -> None:
    """common brief: "Data values carry provenance marks ... never invent a value silently"."""
    for name, fact in facts().items():
        assert fact.mark in MARKS and fact.source, name


def test_what_the_rulebook_does_not_print_is_marked_ours() -> None:
    """The pieces per set, the default leaders and every reading are not printed: mark I."""
    assert data.ARMY.mark == data.DEFAULT_LEADERS.mark == "I"
    assert {fact.mark for fact in data.READINGS.values()} == {"I"}
    assert list(data.READINGS) == [f"A{n}" for n in range(1, 20)]


def test_the_army_holds_the_thirty_operational_robots() -> None:
    """Setup 3: "Count out 30 robots ... The other robots and vehicles are out of action on
    your scrapheap": a set has at least 30 robots."""
    assert data.ARMY.value["robots"] >= data.OPERATIONAL.value == 30
