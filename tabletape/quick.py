"""The fast start of the commands a table types during a game: no app to build, no duckdb.

Recording happens many times a game, at the table, so its start-up matters (``bench/startup.py``
measures it). ``record`` skips typer altogether: this module parses ``record GAME ACTION
[KEY=VALUE ...] [--ledger PATH] [--expect-seq N] [--json]`` by hand and shares every other step
(parse, complete, check, append, fold, print) with the full command in
:mod:`tabletape.commands.recording`, and ends on an error as every command does
(:func:`tabletape.exits.failure`). ``status``, ``actions``, ``undo``, ``redo`` and ``log`` run
their own typer command function (:func:`invoke`), its options read from its declaration: only
typer's parser, the costly part of its start, is skipped. Anything either does not understand
(``--help``, an unknown option, a value typer must check) goes to the full command.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import typer

OPTIONS_WITH_VALUE = ("--ledger", "--expect-seq")
FLAGS = ("--json",)


def split_record_args(args: Sequence[str]) -> tuple[dict[str, str | bool], list[str]] | None:
    """Options and positional words of ``record``'s arguments, or None to defer to typer."""
    options: dict[str, str | bool] = {}
    words: list[str] = []
    items = iter(args)
    for item in items:
        name, sep, value = item.partition("=")
        if item in FLAGS:
            options[item] = True
        elif name in OPTIONS_WITH_VALUE:
            options[name] = value if sep else next(items, "")
        elif item.startswith("-"):
            return None
        else:
            words.append(item)
    return (options, words) if len(words) >= 2 else None


def record_main(args: Sequence[str]) -> int | None:
    """Run ``tabletape record``; return its exit status, or None to let typer handle it."""
    split = split_record_args(args)
    if split is None:
        return None
    options, (game, *action) = split
    expect = str(options.get("--expect-seq", ""))
    if "--expect-seq" in options and not expect.isdigit():
        return None  # typer says what is wrong with the value
    from rich.console import Console

    from tabletape.exits import PEOPLE_ERRORS, error_kind, failure, json_asked, report_error
    from tabletape.ledger import Ledger
    from tabletape.replay.recording import record_line

    ledger_path = options.get("--ledger") or os.environ.get("TABLETAPE_LEDGER") or None
    ledger = Ledger(str(ledger_path) if ledger_path else None)
    expect_seq = int(expect) if expect else None
    if action == ["-"]:
        from tabletape.batch import record_lines

        return record_lines(ledger, game, sys.stdin.buffer, as_json=bool(options.get("--json")),
                            expect_seq=expect_seq)
    try:
        folded, records = record_line(ledger, game, action, expect_seq=expect_seq)
    except PEOPLE_ERRORS as error:
        message, code = failure(error)
        return report_error(message, code, error_kind(error, code),
                            as_json=bool(options.get("--json")) or json_asked())
    from tabletape.batch import recorded_echo, recorded_json

    if options.get("--json"):
        sys.stdout.write(json.dumps(recorded_json(folded, records), indent=2) + "\n")
        return 0
    Console(highlight=False).print(recorded_echo(folded, records))
    return 0


# -- the same fast start for the other commands a table types during a game ----------------------

QUICK_COMMANDS = ("status", "actions", "undo", "redo", "log")
"""Commands run without typer's parser when their arguments are plain (see :func:`invoke`)."""

SIMPLE_TYPES: dict[object, type] = {str: str, int: int, bool: bool}
"""Parameter types :func:`invoke` converts itself; any other type defers to typer."""


class Param(NamedTuple):
    """One parameter of a command, as its typer declaration says."""

    name: str
    kind: type
    names: tuple[str, ...]
    """Its option names (``--ledger``, ``--no-json``…); empty for an argument."""
    envvar: str | None
    default: object


def command_params(callback: Callable[..., object]) -> list[Param] | None:
    """The parameters of a typer command function, or None when one is not plain.

    Plain means: an argument or option of type str, int, bool or Path (or ``X | None``), with no
    callback, bounds or path checks of its own (those are typer's job).
    """
    from pathlib import Path

    from typer.models import OptionInfo, ParameterInfo
    from typer.utils import get_params_from_function

    params = []
    for name, meta in get_params_from_function(callback).items():
        info = meta.default
        kind = plain_type(meta.annotation, Path)
        if not isinstance(info, ParameterInfo) or kind is None or has_checks(info):
            return None
        names: tuple[str, ...] = ()
        if isinstance(info, OptionInfo):
            flag = f"--{name.replace('_', '-')}"
            declared = [d for decl in info.param_decls or () for d in decl.split("/")]
            names = tuple(declared) or ((flag, f"--no-{flag[2:]}") if kind is bool else (flag,))
        envvar = info.envvar if isinstance(info.envvar, str) else None
        params.append(Param(name, kind, names, envvar, info.default))
    return params


def plain_type(annotation: object, path_type: type) -> type | None:
    """``annotation``'s type if it is plain (``Path | None`` is Path), else None."""
    import types

    if isinstance(annotation, types.UnionType):
        members = [a for a in annotation.__args__ if a is not type(None)]
        annotation = members[0] if len(members) == 1 else None
    if annotation is path_type:
        return path_type
    return SIMPLE_TYPES.get(annotation)


def has_checks(info: object) -> bool:
    """Whether a typer parameter declares something typer must check or compute itself."""
    return any(getattr(info, attribute, None) not in (None, False) for attribute in
               ("callback", "min", "max", "exists", "resolve_path", "parser", "click_type",
                "default_factory", "is_eager"))


def bind(params: list[Param], args: Sequence[str]) -> dict[str, object] | None:
    """The keyword arguments ``args`` give the command, or None to let typer parse them."""
    by_name = {option: param for param in params for option in param.names}
    positional = [param for param in params if not param.names]
    values: dict[str, object] = {}
    items = iter(args)
    for item in items:
        option, sep, value = item.partition("=")
        param = by_name.get(option)
        if param is not None and param.kind is bool and not sep:
            values[param.name] = not (option.startswith("--no-") and option != param.names[0])
        elif param is not None:
            values[param.name] = value if sep else next(items, None)
        elif item.startswith("-") or not positional:
            return None  # --help, an unknown option, a word too many: typer says what is wrong
        else:
            values[positional.pop(0).name] = item
    for param in params:
        if param.name not in values and param.envvar and os.environ.get(param.envvar):
            values[param.name] = os.environ[param.envvar]
    return convert(params, values)


def convert(params: list[Param], values: dict[str, object]) -> dict[str, object] | None:
    """``values`` converted to each parameter's type, defaults filled; None if one fails."""
    kwargs: dict[str, object] = {}
    for param in params:
        value = values.get(param.name, param.default)
        if value is ...:
            return None  # a missing argument: typer's usage line says so
        if isinstance(value, str) and param.kind is not str:
            if param.kind is bool or (param.kind is int and not value.lstrip("-").isdigit()):
                return None
            value = param.kind(value)
        elif value is None and param.name in values:
            return None  # an option given without its value
        kwargs[param.name] = value
    return kwargs


def command_names(app: typer.Typer) -> dict[str, Callable[..., Any]]:
    """The functions of a typer app's commands, by the name a person types."""
    return {str(info.name or getattr(info.callback, "__name__", "")): info.callback
            for info in app.registered_commands if info.callback is not None}


def invoke(module_name: str, command: str, args: Sequence[str]) -> int | None:
    """Run ``command`` of ``module_name``'s typer app on plain ``args`` without typer's parser.

    The very function typer would call runs, with the same options (read from its declaration):
    only the parsing is skipped. Returns the exit status, or None to let typer run it (help, an
    unknown option, a value to check, a command that is not plain).
    """
    import importlib

    import typer

    callback = command_names(importlib.import_module(module_name).app).get(command)
    params = command_params(callback) if callback is not None else None
    kwargs = bind(params, args) if params is not None else None
    if callback is None or kwargs is None:
        return None
    try:
        callback(**kwargs)
    except typer.Exit as ended:
        return ended.exit_code
    except BaseException as error:  # ended as typer ends it, or raised again
        return typer_ending(error)
    return 0


def click_exception(error: BaseException) -> bool:
    """Whether ``error`` is a click exception (a usage error, a bad parameter), which typer ends
    by showing it and exiting with its ``exit_code``. Told by what it has, not by its class:
    typer before 0.26 raises click's own, later versions a private copy (``typer._click``), and
    neither is public in both.

    >>> import typer
    >>> click_exception(typer.BadParameter("no")), click_exception(OSError("disk full"))
    (True, False)
    """
    return isinstance(getattr(error, "exit_code", None), int) and callable(
        getattr(error, "show", None)) and callable(getattr(error, "format_message", None))


def typer_ending(error: BaseException) -> int:
    """The exit status typer's own run gives ``error`` (after printing what typer prints), or
    ``error`` raised again for :func:`tabletape.main` to end."""
    from typer import Abort

    if isinstance(error, EOFError | Abort):
        sys.stderr.write("\nAborted!\n")
        return 1
    if click_exception(error):
        error.show()  # type: ignore[attr-defined]
        return int(error.exit_code)  # type: ignore[attr-defined]
    raise error  # Ctrl-C, a closed pipe, an OSError: tabletape.main ends them as it ends all
