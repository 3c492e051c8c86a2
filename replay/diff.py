"""What changed in a game between two points: the ``status --json`` shapes compared key by key.

>>> [c.key for c in changes({"turn": 1, "players": [{"name": "olga", "coins": 0}]},
...                         {"turn": 2, "players": [{"name": "olga", "coins": 1}]})]
['players[olga].coins', 'turn']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from rich import box
from rich.markup import escape
from rich.table import Table

from tabletape.replay.render import format_value


class Change(msgspec.Struct, frozen=True, kw_only=True):
    """One key whose value differs; ``None`` where the key is absent."""

    key: str
    before: Any
    after: Any


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested dicts and lists as ``a.b``, ``players[olga].coins``, ``list[2]`` keys.

    Lists of dicts with a ``name`` are keyed by name; lists of plain values stay whole.
    """
    if isinstance(value, dict) and value:
        flat: dict[str, Any] = {}
        for key, item in value.items():
            flat.update(flatten(item, f"{prefix}.{key}" if prefix else str(key)))
        return flat
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        named = all("name" in item for item in value)
        flat = {}
        for index, item in enumerate(value):
            label = item["name"] if named else index
            rest = {k: v for k, v in item.items() if not (named and k == "name")}
            flat.update(flatten(rest, f"{prefix}[{label}]") if rest else {f"{prefix}[{label}]": {}})
        return flat
    return {prefix: value}


def changes(before: dict[str, Any], after: dict[str, Any]) -> list[Change]:
    """Every flattened key whose value differs, sorted by key."""
    old, new = flatten(before), flatten(after)
    keys = sorted(set(old) | set(new))
    return [Change(key=key, before=old.get(key), after=new.get(key))
            for key in keys if old.get(key) != new.get(key)]


def diff_table(changed: Sequence[Change]) -> Table:
    """The changes as people read them: key, before → after."""
    table = Table(box=box.SIMPLE_HEAD)
    table.add_column("what", style="bold")
    table.add_column("before", justify="right")
    table.add_column("", justify="center")
    table.add_column("after", justify="left")
    for change in changed:
        table.add_row(escape(change.key), escape(shown(change.before)), "→",
                      escape(shown(change.after)))
    if not changed:
        table.add_row("nothing changed", "", "", "")
    return table


def shown(value: Any) -> str:
    return "-" if value is None else format_value(value)
