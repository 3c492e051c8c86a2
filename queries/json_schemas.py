"""JSON Schema (draft 2020-12) for the log line, each game's events and every ``--json`` output.

Made by msgspec (:func:`msgspec.json.schema_components`) from the Structs that hold them: the
log line from :class:`tabletape.ledger.codec.Record`, each game's payloads from its event
Structs (``Rules.events`` and the ledger's own), the outputs from
:mod:`tabletape.queries.shapes`. Field descriptions come from the attribute docstrings under each
field, so the code says it once.

Each schema has a name, which is also its file under ``schema --output DIR``:

>>> schema_file("outputs/status")
'outputs/status.schema.json'
>>> resolve("status"), resolve("log-line")
('outputs/status', 'log-line')
>>> line = build("log-line")
>>> line["$id"], sorted(line["required"])[:3]
('https://tabletape.invalid/schema/log-line.schema.json', ['actor', 'at', 'hash'])
"""

from __future__ import annotations

import ast
import functools
import inspect
import itertools
import json
import re
import textwrap
from collections.abc import Iterator, Sequence
from typing import Any

import msgspec
import msgspec.inspect as mi

from tabletape.ledger import __version__
from tabletape.ledger.codec import Record
from tabletape.ledger.errors import USAGE_EXIT, TabletapeError
from tabletape.ledger.events import LEDGER_EVENTS, event_type
from tabletape.queries.shapes import HASH, OUTPUTS, UTC_TIME, Open
from tabletape.rules.kernel import Rules, unknown_name_message
from tabletape.rules.registry import find_game, manifests, registered

__all__ = ["DIALECT", "ID_BASE", "UnknownSchema", "build", "bundle", "dumps", "every_schema",
           "index", "resolve", "schema_file", "schema_names", "short_names"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
"""The JSON Schema version every schema declares in ``$schema``."""
ID_BASE = "https://tabletape.invalid/schema/"
"""The base of every ``$id``: identifiers, not addresses (``.invalid`` never resolves); each
schema is whole in itself (its ``$ref``s point into its own ``$defs``), so none is fetched."""
TAG_PATTERN = r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"
"""An event type as stored: kebab-case (``roll-off``)."""


class UnknownSchema(TabletapeError):
    """A schema name no schema has (exit status 2, with the names there are)."""

    exit_code = USAGE_EXIT


# -- names -----------------------------------------------------------------------------------------


def schema_names() -> list[str]:
    """Every schema's name: ``log-line``, ``events/<kind>`` per game, ``outputs/<name>`` (a game
    whose rules cannot be imported is left out, with a warning naming it)."""
    games = [f"events/{rules.name}" for rules in registered()]
    return ["log-line", *games, *(f"outputs/{name}" for name in sorted(OUTPUTS))]


def schema_file(name: str) -> str:
    """The file of schema ``name`` under ``schema --output DIR``."""
    return f"{name}.schema.json"


def resolve(typed: str) -> str:
    """The schema a person means: a full name, an output (``status``), a game kind or alias
    (``risk-strike``, ``rs``: its events). Raises :class:`UnknownSchema` with a did-you-mean."""
    wanted = typed.strip().casefold()
    names = schema_names()
    if wanted in names:
        return wanted
    if wanted in OUTPUTS:
        return f"outputs/{wanted}"
    kinds = {alias: kind for kind, manifest in manifests().items() for alias in manifest.names}
    wanted = wanted.removeprefix("events/")
    if wanted in kinds:
        return f"events/{kinds[wanted]}"
    raise UnknownSchema(unknown_name_message("schema", typed, short_names()))


def short_names() -> list[str]:
    """The names people type: ``log-line``, each game kind, each output."""
    return ["log-line", *sorted(manifests()), *sorted(OUTPUTS)]


# -- building --------------------------------------------------------------------------------------


def build(name: str) -> dict[str, Any]:
    """Schema ``name`` (see :func:`schema_names`), whole in itself."""
    if name == "log-line":
        schema = line_schema(None)
    elif name.startswith("events/"):
        schema = line_schema(find_game(name.removeprefix("events/")))
    else:
        schema = output_schema(name.removeprefix("outputs/"))
    return {"$schema": DIALECT, "$id": ID_BASE + schema_file(name), **schema}


def every_schema() -> dict[str, dict[str, Any]]:
    """Every schema by name."""
    return {name: build(name) for name in schema_names()}


def index(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """What ``index.json`` lists: each schema's file, title and the commands printing it."""
    listed = {name: {"file": schema_file(name), "title": schema.get("title", ""),
                     "commands": [f"tabletape {line}" for line in commands_of(name)]}
              for name, schema in schemas.items()}
    return {"tabletape_version": __version__, "dialect": DIALECT, "schemas": listed}


def bundle(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Every schema in one document: each under ``$defs`` by name, with the index beside them.

    ``$defs`` holds whole schemas (each with its ``$id``), so a validator finds any of them by
    its ``$id`` or as ``#/$defs/<name>``, a ``/`` in the name written ``~1`` as JSON Pointer
    wants (``#/$defs/outputs~1status``)."""
    return {"$schema": DIALECT, "$id": ID_BASE + "index.schema.json",
            "title": "tabletape's JSON Schemas",
            "description": "The log line, each game's events and every --json output of "
                           f"tabletape {__version__}; `tabletape schema NAME` prints one.",
            "index": index(schemas)["schemas"], "$defs": schemas}


def dumps(document: Any) -> str:
    """JSON as ``schema`` writes it: keys sorted, indented, one newline at the end (so two
    versions' files diff line by line)."""
    return json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def commands_of(name: str) -> tuple[str, ...]:
    """The command lines whose output schema ``name`` describes (none for a log's line)."""
    output = OUTPUTS.get(name.removeprefix("outputs/"))
    return output.commands if output and name.startswith("outputs/") else ()


# -- the log line ----------------------------------------------------------------------------------


def line_schema(rules: Rules[Any] | None) -> dict[str, Any]:
    """A stored log line: the envelope; with ``rules``, each event type's payload as well (one
    ``oneOf`` branch per type, chosen by ``type``)."""
    (ref,), defs = components([Record])
    envelope = defs.pop(ref_name(ref))
    envelope["additionalProperties"] = False
    properties = envelope["properties"]
    properties["at"] = {**type_schema(UTC_TIME), **properties["at"]}
    for key in ("prev", "hash"):
        properties[key] = {**type_schema(HASH), **properties[key]}
    properties["seq"]["minimum"] = 1
    properties["more"]["minimum"] = 1  # stored only when not 0
    properties["more"].pop("default", None)
    drawn = defs.pop("Drawn")  # stored only when tabletape drew: never null
    properties["drawn"] = {**drawn, "description": properties["drawn"]["description"]}
    properties["type"]["pattern"] = TAG_PATTERN
    properties["payload"] = {**properties["payload"], "type": "object"}
    properties["prev"]["description"] = "The previous line's hash (64 zeros for seq 1)."
    envelope["description"] = (
        "One line of a log (games/<game-id>.jsonl), its keys in the order seq, at, actor, type, "
        "payload, prev, drawn (only on an event whose chance tabletape drew), more (only when "
        "not 0), hash; hash is the SHA-256 of the line's bytes "
        "without its own field, so it covers prev and chains the lines.")
    if rules is None:
        return {**envelope, "title": "A log line, any game"}
    events = (*LEDGER_EVENTS, *rules.events)
    refs, payloads = components(events)
    branches = []
    for event, event_ref in zip(events, refs, strict=True):
        payload = payloads[ref_name(event_ref)]
        payload["properties"].pop("type", None)
        payload["required"] = [key for key in payload.get("required", []) if key != "type"]
        branches.append({"properties": {"type": {"const": event_type(event)},
                                        "payload": event_ref}})
    properties["type"]["enum"] = sorted(event_type(event) for event in events)
    return {**envelope, "title": f"A {rules.title} log line (rules version "
                                 f"{rules.rules_version})",
            "description": envelope["description"] + upcast_note(rules),
            "oneOf": branches, "$defs": payloads}


def upcast_note(rules: Rules[Any]) -> str:
    """Which rules version's payload shapes the schema gives, and which older shapes a log may
    still hold (those the game's upcasters read; the stored bytes are never rewritten).

    >>> from tabletape.rules.registry import find_game
    >>> upcast_note(find_game("risk-strike"))
    ' Payloads as rules version ... stores them; the game declares no older shapes.'
    """
    note = f" Payloads as rules version {rules.rules_version} stores them"
    old = sorted(f"{kind} (rules version {version})" for kind, version in rules.upcasters)
    if not old:
        return note + "; the game declares no older shapes."
    return (note + "; a log of an older version may hold an older shape, which every reader "
            f"upcasts, for: {', '.join(old)}.")


# -- outputs ---------------------------------------------------------------------------------------


def output_schema(name: str) -> dict[str, Any]:
    """The schema of ``--json`` output ``name``."""
    output = OUTPUTS[name]
    about = {"title": output.title, "description": printed_by(output.commands) or output.title}
    if name == "schema":
        return {**about, "$ref": DIALECT}
    shapes = output.shape if isinstance(output.shape, tuple) else (output.shape,)
    tops, defs = components(shapes, every_key=True)
    top = tops[0] if len(tops) == 1 else {"oneOf": tops}
    return {**about, **top, **({"$defs": defs} if defs else {})}


def printed_by(commands: Sequence[str]) -> str:
    """Which command lines print an output, as a sentence.

    >>> printed_by(["stats REPORT --json", "stats --json"])
    'What `tabletape stats REPORT --json` and `tabletape stats --json` print.'
    """
    named = [f"`tabletape {line}`" for line in commands]
    if not named:
        return ""
    listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    return f"What {listed} print{'s' if len(named) == 1 else ''}."


# -- from Structs to schema parts ------------------------------------------------------------------


def components(types: Sequence[Any], *, every_key: bool = False
               ) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """msgspec's schemas of ``types`` and their ``$defs``, refined: every Struct is closed
    (``additionalProperties: false``) unless it is :class:`~tabletape.queries.shapes.Open`, and its
    fields are described by their attribute docstrings. With ``every_key`` (output printed by
    ``msgspec.to_builtins`` or as a dict), a Struct without ``omit_defaults`` requires every key,
    those with defaults too: they are always printed."""
    tops, defs = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    classes = struct_classes(types)
    for name, definition in defs.items():
        cls = classes.get(name)
        if "description" in definition:
            definition["description"] = markdown(definition["description"])
        if cls is None or "properties" not in definition:
            continue
        definition["additionalProperties"] = not is_closed(cls)
        documented = attribute_docs(cls)
        for field in msgspec.structs.fields(cls):
            prop = definition["properties"].get(field.encode_name)
            if prop is not None and field.name in documented and "description" not in prop:
                prop["description"] = markdown(documented[field.name])
        if every_key and not cls.__struct_config__.omit_defaults:
            definition["required"] = [f.encode_name for f in msgspec.structs.fields(cls)]
        elif every_key:  # a key left at its default is left out: absent, never that value
            for prop in definition["properties"].values():
                prop.pop("default", None)
    return list(tops), dict(defs)


def markdown(text: str) -> str:
    """A docstring as JSON Schema readers show it: Markdown code, not reStructuredText roles.

    >>> markdown("``deal player=olga``: see :class:`~tabletape.rules.dice.Die`, :func:`a.b`")
    '`deal player=olga`: see `Die`, `a.b`'
    """
    text = re.sub(r":[a-z]+:`~?(?:[\w.]+\.)?(\w+)`", lambda m: f"`{m.group(1)}`"
                  if m.group(0).count("~") else m.group(0), text)
    text = re.sub(r":[a-z]+:`([^`]+)`", r"`\1`", text)
    return text.replace("``", "`")


def is_closed(cls: type) -> bool:
    """Whether a Struct's JSON lists every key it may have: all but the open shapes."""
    return not issubclass(cls, Open)


def type_schema(annotation: Any) -> dict[str, Any]:
    """msgspec's schema of one (constrained) type.

    >>> type_schema(int)
    {'type': 'integer'}
    """
    return msgspec.json.schema(annotation)


def ref_name(ref: dict[str, Any]) -> str:
    """``{"$ref": "#/$defs/Name"}`` -> ``Name``."""
    return str(ref["$ref"]).rpartition("/")[2]


def struct_classes(types: Sequence[Any]) -> dict[str, type[msgspec.Struct]]:
    """Every Struct class reachable from ``types``, by the names msgspec may give its
    definition (the class name, or its module path where two classes share a name)."""
    found: dict[str, type[msgspec.Struct]] = {}
    for info in walk(mi.multi_type_info(types)):
        if isinstance(info, mi.StructType):
            cls = info.cls
            found.setdefault(cls.__name__, cls)
            found[re.sub(r"[^a-zA-Z0-9.\-_]", "_", f"{cls.__module__}.{cls.__qualname__}")] = cls
    return found


def walk(value: Any, seen: set[int] | None = None) -> Iterator[Any]:
    """Every msgspec type-info node in ``value`` (a node, or a tuple of them), once each."""
    seen = set() if seen is None else seen
    if isinstance(value, tuple):
        for item in value:
            yield from walk(item, seen)
    elif isinstance(value, (mi.Type, mi.Field)) and id(value) not in seen:
        seen.add(id(value))
        yield value
        for part in msgspec.structs.astuple(value):
            yield from walk(part, seen)


@functools.cache
def attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under the fields of ``cls`` and the classes it derives from.

    >>> from tabletape.ledger.codec import Record
    >>> attribute_docs(Record)["actor"]
    'The player who acted, or ``table``.'
    """
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass in (object, msgspec.Struct) or not isinstance(klass, type):
            continue
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):  # made at run time: no source to read
            continue
        docs.update(field_docs(source))
    return docs


def field_docs(source: str) -> dict[str, str]:
    """``field: type`` followed by a string, in the first class of ``source``.

    >>> field_docs('class A:\\n    x: int\\n    \\"\\"\\"The x.\\"\\"\\"\\n    y: int\\n')
    {'x': 'The x.'}
    """
    tree = ast.parse(source)
    body = next(node for node in tree.body if isinstance(node, ast.ClassDef)).body
    docs = {}
    for field, after in itertools.pairwise(body):
        if (isinstance(field, ast.AnnAssign) and isinstance(field.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[field.target.id] = inspect.cleandoc(after.value.value)
    return docs
