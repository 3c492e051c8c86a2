"""The player-name rule: one rule, the same at ``tabletape new`` and wherever a name is typed.

A player name is what people are called: letters of any script (with their accents), digits,
single spaces and ``' ’ - . _``; it starts with a letter or a digit, is at most
:data:`MAX_NAME_LENGTH` characters, and is not ``table`` (the table itself acts by that name).
Names are kept in Unicode NFC form, so ``Zoë`` typed either way is one name. A comma separates
names (``--player Olga,Patrick``), so no name holds one; ``=`` and quotes mean something in the
action syntax, so no name holds them either: whatever a name holds can be typed back as
``by=NAME``, quoted when it holds a space (``by="Mary Ann"``).

>>> [name_problem(name) for name in ("O'Brien", "Zoë", "李雷", "Mary Ann", "Olga-2")]
[None, None, None, None, None]
>>> name_problem("a=b")
"player name 'a=b' holds '='"
>>> player_names(["Olga,Patrick", " Zoë "])
('Olga', 'Patrick', 'Zoë')
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from tabletape.ledger.errors import USAGE_EXIT, TabletapeError

MAX_NAME_LENGTH = 32
"""The longest player name, in characters: long enough for a full name, short enough for a
table column."""

NAME_MARKS = "'’-._"
"""The punctuation a name may hold besides letters, digits and single spaces."""

RESERVED_NAMES = ("table",)
"""Names the action syntax gives a meaning of its own: ``by=table``."""

NAME_RULE = (f"a name holds letters, digits, single spaces and {' '.join(NAME_MARKS)}, starts "
             f"with a letter or digit and has at most {MAX_NAME_LENGTH} characters")
"""The rule in words, ending every refusal of a name."""


class NameRefused(TabletapeError):
    """A name (or a list of them) that breaks the rule: input not understood (exit 2); its text
    says what is wrong and what a name may hold."""

    exit_code = USAGE_EXIT


def normal(name: str) -> str:
    """``name`` as it is stored and compared: NFC, surrounding spaces dropped.

    >>> normal(" Zoe\\u0308 ") == "Zoë"
    True
    """
    return unicodedata.normalize("NFC", name.strip())


def name_problem(name: str) -> str | None:
    """What is wrong with ``name`` (already :func:`normal`), or None when it may be used."""
    shown = name if name.isprintable() else repr(name)[1:-1]
    if not name:
        return "a player name is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"player name '{shown[:MAX_NAME_LENGTH]}…' has {len(name)} characters"
    bad = next((c for c in name if not allowed_char(c)), None)
    if bad is not None:
        what = repr(bad) if bad.isprintable() else f"the control character {bad!r}"
        return f"player name '{shown}' holds {what}"
    if not name[0].isalnum():
        return f"player name '{shown}' starts with {name[0]!r}"
    if "  " in name or name != name.strip():
        return f"player name '{shown}' has spaces in a row or at an end"
    return None


def allowed_char(char: str) -> bool:
    """A letter, a mark (an accent), a digit, a space, or one of :data:`NAME_MARKS`.

    >>> [allowed_char(c) for c in "é李5 '=,🙂"]
    [True, True, True, True, True, False, False, False]
    """
    return char == " " or char in NAME_MARKS or unicodedata.category(char)[0] in "LMN"


def check_name(name: str) -> None:
    """Raise :class:`NameRefused` (what is wrong; what a name may hold) unless ``name`` is one.

    >>> check_name("🙂")
    Traceback (most recent call last):
    ...
    tabletape.rules.names.NameRefused: player name '🙂' holds '🙂'; a name holds letters, ...
    """
    problem = name_problem(name)
    if problem is not None:
        raise NameRefused(f"{problem}; {NAME_RULE}")
    if name.casefold() in RESERVED_NAMES:
        raise NameRefused(f"'{name}' names the table itself; choose another player name")


def player_names(values: Iterable[str]) -> tuple[str, ...]:
    """The players ``--player`` gave, in seat order: each value one name, or several separated by
    commas (``Olga,Patrick``); each :func:`normal`. An empty name (``--player ""``, ``a,,b``)
    is refused, never dropped; the rule itself is checked with the game's options.

    >>> player_names(["a,", "b"])
    Traceback (most recent call last):
    ...
    tabletape.rules.names.NameRefused: --player 'a,' holds an empty name; give each player a ...
    """
    names: list[str] = []
    for value in values:
        parts = [normal(part) for part in value.split(",")]
        if not all(parts):
            raise NameRefused(f"--player '{value}' holds an empty name; give each player a name "
                              "(several in one --player are separated by commas)")
        names.extend(parts)
    return tuple(names)
