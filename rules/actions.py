"""The action syntax people type, the same on the command line and at the prompt.

``ACTION key=value ...``: the event type's kebab-case name, then fields converted by msgspec
(lists comma-separated; dice of mixed sizes as ``d8:7,3``, see :class:`tabletape.rules.dice.Die`).
``by=NAME`` names who acts when it is not obvious (an out-of-turn card). A value with a space
is quoted, ``by="Mary Ann"`` (or ``'Mary Ann'``); a quote only opens at the start of a word or of
a value, so ``by=O'Brien`` needs none (:func:`split_words`; :func:`quoted` writes a value back).

>>> from tabletape.ledger.events import Noted
>>> parse_action("note text=hello by=olga")
ParsedAction(action='note', values={'text': 'hello'}, by='olga')
>>> event_from(ParsedAction("note", {"text": "hi"}, None), {"note": Noted})
Noted(text='hi', about=None)
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple

import msgspec

from tabletape.ledger.events import Event
from tabletape.rules.dice import DIE_SYNTAX, Die
from tabletape.rules.fair_dice import Draws, filled_fields
from tabletape.rules.kernel import (
    ActionSpec,
    FieldSpec,
    Rules,
    RulesError,
    is_sequence_type,
    split_list,
    unknown_name_message,
)

ACTOR_KEY = "by"
"""The reserved key that names who acts: ``by=patrick``."""


class ActionSyntaxError(RulesError):
    """Typed text that is not an action of this game: unknown action or field, or a bad value."""


class ParsedAction(NamedTuple):
    action: str
    values: dict[str, str]
    by: str | None


def parse_action(text: str | Sequence[str]) -> ParsedAction:
    """Split ``roll attacker=6,3,2 defender=5,5`` into the action, its values and ``by``."""
    tokens = split_words(text) if isinstance(text, str) else list(text)
    if not tokens:
        raise ActionSyntaxError("no action given; type an action name, then key=value fields")
    action, *pairs = tokens
    if "=" in action:
        raise ActionSyntaxError(f"'{action}' is a field; an action name comes first")
    values: dict[str, str] = {}
    by = None
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ActionSyntaxError(f"'{pair}' is not key=value (write e.g. dice=6,3,2)")
        key = key.strip().lower()
        if key == ACTOR_KEY:
            by = value.strip()
        elif key in values:
            raise ActionSyntaxError(f"field '{key}' is given twice")
        else:
            values[key] = value.strip()
    return ParsedAction(action.strip().lower(), values, by)


QUOTES = "\"'"
"""The quotes that may open a quoted word or value."""

SAFE_MARKS = "-_,.:+/@%"
"""What a value written back bare may hold besides letters and digits (safe in a shell too)."""


def split_words(text: str) -> list[str]:
    r"""The words of a typed line, as a shell splits them, with one difference: a quote opens a
    quoted part only at the start of a word or right after its ``=``, so the apostrophe of
    ``O'Brien`` is a letter. Inside double quotes (and outside quotes) a backslash keeps the
    next character as it is.

    >>> split_words("deal player=\"Mary Ann\" by=O'Brien note='it is' ")
    ['deal', 'player=Mary Ann', "by=O'Brien", 'note=it is']
    >>> split_words(r'note text="a \"b\""')
    ['note', 'text=a "b"']
    """
    words: list[str] = []
    word: list[str] | None = None
    chars = iter(text)
    for char in chars:
        if char.isspace():
            if word is not None:
                words.append("".join(word))
            word = None
            continue
        word = word if word is not None else []
        if char in QUOTES and (not word or (word[-1] == "=" and word.count("=") == 1)):
            word.extend(quoted_part(char, chars))
        elif char == "\\":
            word.append(next(chars, ""))
        else:
            word.append(char)
    if word is not None:
        words.append("".join(word))
    return words


def quoted_part(quote: str, chars: Iterator[str]) -> list[str]:
    """The characters up to the closing ``quote`` (a backslash escapes within double quotes)."""
    part: list[str] = []
    for char in chars:
        if char == quote:
            return part
        part.append(next(chars, "") if char == "\\" and quote == '"' else char)
    raise ActionSyntaxError(f"a {quote} quote is not closed; put one after the quoted value "
                            '(by="Mary Ann")')


def quoted(value: str) -> str:
    r"""``value`` as it is typed back, at the prompt or in a shell: bare when it holds only
    letters, digits and :data:`SAFE_MARKS`, else in double quotes (read back by
    :func:`split_words`).

    >>> print(*(quoted(v) for v in ("Olga", "Zoë", "Mary Ann", "O'Brien", 'say "hi"', "")))
    Olga Zoë "Mary Ann" "O'Brien" "say \"hi\"" ""
    """
    if value and all(c.isalnum() or c in SAFE_MARKS for c in value):
        return value
    return '"' + re.sub(r'([\\"$`])', r"\\\1", value) + '"'


def event_from(parsed: ParsedAction, types: Mapping[str, type[Event]]) -> Event:
    """Build the event a parsed action names; raises :class:`ActionSyntaxError` for people."""
    if parsed.action not in types:
        raise ActionSyntaxError(unknown_name_message("action", parsed.action, sorted(types),
                                                     "the game's actions"))
    cls = types[parsed.action]
    specs = {spec.name: spec for spec in field_specs(cls)}
    for key in parsed.values:
        if key not in specs:
            allowed = [*sorted(specs), ACTOR_KEY]
            raise ActionSyntaxError(
                unknown_name_message(f"field of {parsed.action}", key, allowed)
            )
    annotations = {f.encode_name: f.type for f in msgspec.structs.fields(cls)}
    for key, value in parsed.values.items():
        check_list_items(key, value, annotations[key], specs[key])
    raw = {k: typed_dice(k, split_list(v, annotations[k]), annotations[k])
           for k, v in parsed.values.items()}
    raw = {k: None if v in ("", "none") and "None" in str(annotations[k]) else v
           for k, v in raw.items()}
    try:
        return msgspec.convert(raw, cls, strict=False)
    except msgspec.ValidationError as error:
        raise ActionSyntaxError(validation_message(parsed, specs, str(error))) from None


def check_list_items(name: str, value: str, annotation: Any, spec: FieldSpec) -> None:
    """Refuse an optional list typed empty (``attacker=``, ``attacker=,``: it would read as left
    out, and tabletape might fill it; a field that may be empty says ``|none``, a required list
    may be typed empty) or any list with an empty item (``6,,6``: not two dice, a typo)."""
    if not is_sequence_type(annotation) or "None" in str(annotation):
        return
    items = value.split(",")
    typed = any(item.strip() for item in items)
    if all(item.strip() for item in items) or (not typed and spec.required):
        return
    what = f"'{value}' has an empty item" if typed else "nothing typed"
    raise ActionSyntaxError(f"bad value for {name}: {what}; {name} takes "
                            f"{describe_kind(spec.kind)}, or leave {name}= out")


def only_choices_filled(parsed: ParsedAction, types: Mapping[str, type[Event]],
                        legal: Callable[[], Sequence[ActionSpec]]) -> ParsedAction:
    """``parsed`` with each required field it leaves out filled in when the rules list one legal
    value for it now (``legal()``, the game's :meth:`~tabletape.rules.kernel.Rules.legal_actions`,
    asked only when a field is missing): ``attack`` without ``defender=`` in a 2-player game.
    A field whose legal values the rules do not list, or list several of, stays required; a list
    field is never filled (one legal item is not one legal list).

    >>> from tabletape.ledger.events import Noted
    >>> spec = ActionSpec(type="note", actors=("table",),
    ...                   fields=(FieldSpec(name="text", kind="str", choices=("hello",)),))
    >>> only_choices_filled(ParsedAction("note", {}, None), {"note": Noted}, lambda: [spec])
    ParsedAction(action='note', values={'text': 'hello'}, by=None)
    """
    cls = types.get(parsed.action)
    if cls is None or all(s.name in parsed.values for s in field_specs(cls) if s.required):
        return parsed
    offered = [spec.fields for spec in legal() if spec.type == parsed.action]
    values = dict(parsed.values)
    for field in offered[0] if len(offered) == 1 else ():
        if (field.required and field.name not in values and len(field.choices) == 1
                and not field.kind.startswith("list")):
            values[field.name] = field.choices[0]
    return parsed._replace(values=values)


def typed_dice(name: str, value: Any, annotation: Any) -> Any:
    """Typed dice (``["d8:7", "3"]``) as ``[sides, face]`` pairs when the field holds dice.

    >>> typed_dice("attacker", ["d8:7", "3"], tuple[Die, ...])
    [[8, 7], [6, 3]]
    """
    if not isinstance(value, list) or not holds_dice(annotation):
        return value
    try:
        return [[die.sides, die.face] for die in map(Die.parse, value)]
    except ValueError as error:
        raise ActionSyntaxError(f"bad value for {name}: {error}") from None


def holds_dice(annotation: Any) -> bool:
    """Whether a field's type is a list of :class:`~tabletape.rules.dice.Die`."""
    return "dice.Die" in str(annotation)


def validation_message(parsed: ParsedAction, specs: Mapping[str, FieldSpec], error: str) -> str:
    """Turn msgspec's message into one that names the field, its value and what it takes."""
    missing = re.search(r"missing required field `([^`]+)`", error)
    if missing:
        name = missing.group(1)
        return f"{parsed.action} needs {name}=…; fields: {usage(parsed.action, specs.values())}"
    at = re.search(r"at `\$\.([^`\[]+)", error)
    if at and at.group(1) in specs:
        spec = specs[at.group(1)]
        given = parsed.values.get(spec.name, "")
        return (
            f"bad value for {spec.name}: '{given}' ({error.split(' - ')[0]}); "
            f"{spec.name} takes {describe_kind(spec.kind)}"
        )
    return f"bad {parsed.action}: {error}"


@functools.cache
def field_specs(cls: type[Event]) -> tuple[FieldSpec, ...]:
    """The typed fields of an event type, in declaration order (once per type: reading a
    class's annotations compiles them, and ``legal_actions`` asks at every event)."""
    return tuple(
        FieldSpec(name=f.encode_name, kind=kind_of(f.type), required=f.required)
        for f in msgspec.structs.fields(cls)
    )


def kind_of(annotation: Any) -> str:
    """``int``, ``str``, ``bool``, ``list[int]``, ``list[str]``, ``list[die]`` (or ``...|none``)."""
    text = str(annotation).replace("typing.", "")
    if holds_dice(annotation):
        return "list[die]" + ("|none" if "None" in text else "")
    base = "list[int]" if "tuple[int" in text or "list[int" in text else (
        "list[str]" if "tuple[" in text or "list[" in text else (
            "int" if "int" in text else "bool" if "bool" in text else "str"))
    return base + ("|none" if "None" in text else "")


def describe_kind(kind: str) -> str:
    optional = kind.endswith("|none")
    kind = kind.removesuffix("|none")
    words = {
        "int": "a whole number",
        "str": "a word",
        "bool": "true or false",
        "list[int]": "whole numbers separated by commas (e.g. 6,3,2)",
        "list[str]": "words separated by commas",
        "list[die]": f"dice separated by commas ({DIE_SYNTAX})",
    }[kind]
    return words + (" (or leave it empty)" if optional else "")


def usage(action: str, specs: Sequence[FieldSpec] | Any) -> str:
    """``roll attacker=list[int] [defender=list[int]]``: one action's syntax."""
    parts = [action]
    for spec in specs:
        choice = "|".join(map(quoted, spec.choices[:6])) + ("|…" if len(spec.choices) > 6 else "")
        value = choice or spec.kind
        parts.append(f"{spec.name}={value}" if spec.required else f"[{spec.name}={value}]")
    return " ".join(parts)


def chance_required(rules: Rules[Any], state: Any, specs: Sequence[ActionSpec],
                    why: str) -> tuple[ActionSpec, ...]:
    """``specs`` with the fields tabletape's dice would fill made required, each saying ``why``
    (for a game tabletape may not roll for now: leaving them out is refused)."""
    changed = []
    for spec in specs:
        chance = chance_fields(rules, state, spec)
        fields = tuple(msgspec.structs.replace(field, required=True, doc=why)
                       if field.name in chance else field for field in spec.fields)
        changed.append(msgspec.structs.replace(spec, fields=fields) if chance else spec)
    return tuple(changed)


def chance_fields(rules: Rules[Any], state: Any, spec: ActionSpec) -> tuple[str, ...]:
    """The fields of ``spec`` that tabletape's dice fill in now when they are left out: found by
    completing the action with only its required fields (each its first legal value) from a
    throwaway generator. () when none draws, or when a required field lists no legal value."""
    if not spec.actors or not any(not field.required for field in spec.fields):
        return ()
    values = {field.name: field.choices[0] for field in spec.fields
              if field.required and field.choices}
    if any(field.required and not field.choices for field in spec.fields):
        return ()
    rng = Draws(0)
    try:
        typed = event_from(ParsedAction(spec.type, values, None), rules.event_types())
        completed = rules.complete(state, spec.actors[0], typed, rng)
    except Exception:  # a probe the rules refuse says nothing: the fields stay as they are
        return ()
    return filled_fields(typed, completed) if rng.count else ()
