"""Several steps of one action typed in one line: what a table does in one go.

A game names the actions whose steps may come together in :attr:`Rules.several
<tabletape.rules.kernel.Rules.several>` (Risk: Deep Space: ``{"battle": "exchange"}``). In such a
line each field gives one value per step, in order: steps are separated by ``/`` (a field that
holds a list, ``attacker=6,3/5``), or by ``,`` in a field that holds one value
(``attacker=3,5,2``); every field given gives each step its value. The recording path
(:func:`tabletape.replay.recording.prepare_line`) then checks the steps one after the other, exactly
as if each had been typed alone, and stores them all or none.

>>> line = ParsedAction("battle", {"attacker": "3,5", "defender": "4/1"}, None)
>>> [step.values for step in split_steps(line, {"attacker": "int", "defender": "int"}, "exchange")]
[{'attacker': '3', 'defender': '4'}, {'attacker': '5', 'defender': '1'}]
"""

from __future__ import annotations

from collections.abc import Mapping

from tabletape.rules.actions import ActionSyntaxError, ParsedAction

STEP_SEPARATOR = "/"


def split_steps(parsed: ParsedAction, kinds: Mapping[str, str], noun: str) -> list[ParsedAction]:
    """The steps a line gives, one :class:`ParsedAction` each (the line itself when it gives one).

    ``kinds`` maps each field to its kind (``int``, ``list[int]``…, as
    :func:`~tabletape.rules.actions.field_specs` names them); ``noun`` is what a step is called,
    for the message when the fields disagree on how many steps there are:

    >>> split_steps(ParsedAction("battle", {"attacker": "3,5,2", "defender": "4,1"}, None),
    ...             {"attacker": "int", "defender": "int"}, "exchange")
    Traceback (most recent call last):
    ...
    tabletape.rules.actions.ActionSyntaxError: battle: attacker= gives 3 exchanges and defender= \
gives 2 exchanges; give each field one value per exchange, in order
    """
    parts = {key: step_values(value, kinds.get(key, "str")) for key, value in parsed.values.items()}
    counts = {key: len(values) for key, values in parts.items()}
    steps = max(counts.values(), default=1)
    if steps == 1:
        return [parsed]
    if len(set(counts.values())) > 1:
        given = " and ".join(f"{key}= gives {n} {noun}{'s' if n != 1 else ''}"
                             for key, n in counts.items())
        raise ActionSyntaxError(f"{parsed.action}: {given}; give each field one value per "
                                f"{noun}, in order")
    return [ParsedAction(parsed.action, {key: values[index] for key, values in parts.items()},
                         parsed.by)
            for index in range(steps)]


def step_values(value: str, kind: str) -> list[str]:
    """A field's value step by step: split at ``/``, or at ``,`` when the field holds one value.

    >>> step_values("6,3/5", "list[int]"), step_values("3,5", "int")
    (['6,3', '5'], ['3', '5'])
    >>> step_values("6,3", "list[int]")
    ['6,3']
    """
    if STEP_SEPARATOR in value:
        return [part.strip() for part in value.split(STEP_SEPARATOR)]
    if not kind.startswith("list[") and "," in value:
        return [part.strip() for part in value.split(",")]
    return [value]
