"""How ``tabletape --help`` presents the commands: each one's group and an example.

One table, importable without importing any command module, so the composition (and a lazy one
that imports only the module owning the invoked command) can group and illustrate every command.

>>> GROUPS
('Record', 'Replay', 'Query', 'Manage')
>>> COMMANDS["record"].group
'Record'
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    import typer

GROUPS = ("Record", "Replay", "Query", "Manage")
"""The panels ``--help`` lists the commands in, in this order."""


class CommandHelp(NamedTuple):
    """Where ``--help`` lists a command, and one command line showing it in use."""

    group: str
    example: str


COMMANDS: dict[str, CommandHelp] = {
    # record: at the table, during a game
    "new": CommandHelp("Record", "tabletape new risk-strike --player Olga --player Patrick"),
    "record": CommandHelp("Record", "tabletape record rs-k7pq attack from=asia target=europe "
                                    "defender=patrick"),
    "undo": CommandHelp("Record", "tabletape undo rs-k7pq"),
    "redo": CommandHelp("Record", "tabletape redo rs-k7pq"),
    "reveal": CommandHelp("Record", "tabletape reveal rs-k7pq"),
    "play": CommandHelp("Record", "tabletape play rs-k7pq"),
    "status": CommandHelp("Record", "tabletape status rs-k7pq"),
    "actions": CommandHelp("Record", "tabletape actions rs-k7pq --json"),
    "note": CommandHelp("Record", 'tabletape note rs-k7pq "Patrick left for a call" --at seq=12'),
    # replay: looking back at a game
    "log": CommandHelp("Replay", "tabletape log rs-k7pq --last 10"),
    "replay": CommandHelp("Replay", "tabletape replay rs-k7pq --at turn=3"),
    "diff": CommandHelp("Replay", "tabletape diff rs-k7pq --from turn=3 --to turn=5"),
    "fork": CommandHelp("Replay", "tabletape fork rs-k7pq --at seq=12"),
    "audit": CommandHelp("Replay", "tabletape audit rs-k7pq"),
    "demo": CommandHelp("Replay", "tabletape demo --game marvel-united"),
    "plot": CommandHelp("Replay", "tabletape plot rs-k7pq --figure coins.count"),
    # query: every game at once
    "sql": CommandHelp("Query", 'tabletape sql "SELECT kind, count(*) FROM games GROUP BY kind" '
                                "--format jsonl"),
    "stats": CommandHelp("Query", "tabletape stats players --json"),
    "sync": CommandHelp("Query", "tabletape sync --rebuild"),
    "export": CommandHelp("Query", "tabletape export rs-k7pq --jsonl - > rs-k7pq.jsonl"),
    "spark": CommandHelp("Query", "tabletape spark build-catalog --logs s3a://league/games "
                                  "--out /shared/catalog"),
    # manage: the ledger and its games
    "games": CommandHelp("Manage", "tabletape games --json"),
    "list": CommandHelp("Manage", "tabletape list"),
    "verify": CommandHelp("Manage", "tabletape verify --all"),
    "head": CommandHelp("Manage", "tabletape head rs-k7pq"),
    "sign": CommandHelp("Manage", "tabletape sign rs-k7pq --key olga"),
    "key": CommandHelp("Manage", "tabletape key new olga"),
    "repair": CommandHelp("Manage", "tabletape repair rs-k7pq"),
    "archive": CommandHelp("Manage", "tabletape archive rs-k7pq"),
    "delete": CommandHelp("Manage", "tabletape delete rs-k7pq --yes"),
    "import": CommandHelp("Manage", "tabletape import - --as rs-k7pq < rs-k7pq.jsonl"),
    "simulate": CommandHelp("Manage", "tabletape simulate risk-strike --games 20 --seed 1"),
    "schema": CommandHelp("Manage", "tabletape schema status"),
}
"""Each command's group and example, by command name."""

DEFAULT = CommandHelp("Manage", "")
"""A command the table does not know yet (a new one): listed under Manage, no example."""


def help_of(name: str) -> CommandHelp:
    """The group and example of command ``name``.

    >>> help_of("sql").group, help_of("no-such-command")
    ('Query', CommandHelp(group='Manage', example=''))
    """
    return COMMANDS.get(name, DEFAULT)


def epilog(example: str) -> str:
    """A command's ``--help`` footer: its example (rich markup escaped).

    >>> epilog("tabletape status rs-k7pq")
    'Example: [bold]tabletape status rs-k7pq[/]'
    """
    from rich.markup import escape

    return f"Example: [bold]{escape(example)}[/]"


def summary(doc: str) -> str:
    r"""A command's line in the list of ``--help``: its docstring's first paragraph, on one line
    (a docstring's own line breaks would show as they are).

    >>> summary("Show the log; a damaged log is shown\n    all the same.\n\n    More.")
    'Show the log; a damaged log is shown all the same.'
    """
    return " ".join(doc.strip().split("\n\n")[0].split())


def present(app: typer.Typer) -> None:
    """Group ``app``'s commands into the panels of :data:`GROUPS` (in that order) and give each
    its example, on copies: the packages' own apps stay as they are."""
    shown = []
    for info in app.registered_commands:
        name = info.name or (info.callback.__name__ if info.callback else "")
        about = help_of(name.lower().replace("_", "-"))
        shown.append(copy.copy(info))
        shown[-1].rich_help_panel = about.group
        if about.example and not info.epilog:
            shown[-1].epilog = epilog(about.example)
        if info.callback is not None and not info.short_help:
            shown[-1].short_help = summary(info.callback.__doc__ or "")
    app.registered_commands[:] = sorted(
        shown, key=lambda info: GROUPS.index(str(info.rich_help_panel)))
