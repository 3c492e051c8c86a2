"""How Pebbles looks and is told, and its audit hooks."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from pebbles.rules import Rolled, State, Took


def view(rules: Any, state: State) -> Text:
    return Text(f"{state.pile} pebbles left of {state.start}")


def setup_notes(rules: Any, state: State) -> Text:
    return Text(f"A pile of {state.pile} pebbles.")


def narrate(visit: Any) -> list[str]:
    if isinstance(visit.event, Took | Rolled):
        gone = visit.before.pile - visit.after.pile
        return [f"{visit.record.actor} takes {gone}; {visit.after.pile} left."]
    return []


def conservation(state: State) -> list[str]:
    if state.pile + sum(state.taken) != state.start:
        return [f"{state.pile} in the pile and {sum(state.taken)} taken of {state.start}"]
    return []


def dice(visit: Any) -> list[tuple[str, int, int]]:
    if isinstance(visit.event, Rolled):
        return [(visit.record.actor, 6, face) for face in visit.event.dice]
    return []
