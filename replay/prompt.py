"""``tabletape play``: the interactive prompt a table records a game at.

It shows the game, lists what may be recorded now, accepts the action syntax, completes action
and field names with Tab, and takes ``undo``, ``status``, ``log``, ``actions``, ``help``, ``quit``.
Every action is appended (and fsynced) the moment it is accepted: quitting loses nothing.
"""

from __future__ import annotations

import shlex
from typing import Any

from rich.console import Console
from rich.markup import escape

from tabletape.ledger import Ledger, LedgerError, VersionConflict, os_failure
from tabletape.replay import render
from tabletape.replay.fold import (
    Folded,
    append_checked,
    by_argument,
    open_game,
    prepare,
    redo,
    undo,
)
from tabletape.rules.actions import ActionSyntaxError
from tabletape.rules.kernel import IllegalAction

COMMANDS = ("undo", "redo", "status", "log", "actions", "help", "quit")

HELP = """[bold]Type an action[/] as on the command line: [cyan]ACTION key=value …[/]
  e.g. [cyan]roll attacker=6,3,2 defender=5,5[/]   lists are comma-separated
  add [cyan]by=NAME[/] when more than one player could act (tabletape asks).
[bold]Commands:[/] undo [by=NAME] (retract the last action) · redo (record it again) · status
  · log · actions · help · quit
Tab completes action names, field names and values. Every accepted action is saved at once."""


class Prompt:
    """A read-eval-print loop over one game."""

    def __init__(self, ledger: Ledger, game: str, console: Console) -> None:
        self.ledger = ledger
        self.game = game
        self.console = console
        self.folded: Folded = open_game(ledger, game)

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> None:
        self.install_completion()
        self.console.print(render.status_view(self.folded))
        self.console.print(render.actions_table(self.folded.rules, self.legal()))
        self.console.print("[dim]help for help, quit to leave; every action is saved at once.[/]")
        while True:
            try:
                line = input(self.prompt_text())
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                break
            if not self.handle(line.strip()):
                break

    def prompt_text(self) -> str:
        info = self.folded.rules.turn(self.folded.state)
        who = ",".join(info.active) or "-"
        return f"{self.game} [{who}]> "

    def handle(self, line: str) -> bool:
        """Act on one line; False to leave the loop."""
        if not line:
            return True
        word = line.split()[0].lower()
        if word in ("quit", "exit", "q"):
            return False
        handlers = {"undo": lambda: self.do_undo(line), "redo": self.do_redo,
                    "status": self.do_status, "log": self.do_log, "actions": self.do_actions,
                    "help": self.do_help, "?": self.do_help}
        try:
            handlers.get(word, lambda: self.do_record(line))()
        except IllegalAction as error:
            self.console.print(f"[bold red]illegal:[/] {escape(error.message())}", highlight=False)
        except ActionSyntaxError as error:
            self.console.print(f"[bold red]error:[/] {escape(str(error))}", highlight=False)
        except VersionConflict as error:
            self.folded = open_game(self.ledger, self.game)
            self.console.print(f"[bold red]error:[/] {escape(str(error))}", highlight=False)
        except (LedgerError, ValueError) as error:
            self.console.print(f"[bold red]error:[/] {escape(str(error))}", highlight=False)
        except OSError as error:  # a full disk, a read-only ledger: say it, keep the prompt
            self.console.print(f"[bold red]error:[/] {escape(os_failure(error))}",
                               highlight=False)
        return True

    # -- commands ------------------------------------------------------------------------------

    def do_record(self, line: str) -> None:
        actor, event = prepare(self.folded, line)
        self.folded, stored = append_checked(self.ledger, self.folded, actor, event)
        self.console.print(render.recorded_line(stored.seq, actor, event))
        self.console.print(render.headline(self.folded))
        if self.folded.rules.result(self.folded.state) is not None:
            self.console.print(render.status_view(self.folded))

    def do_undo(self, line: str) -> None:
        self.folded, undone = undo(self.ledger, self.game, by=by_argument(line.split()[1:]))
        self.console.print(render.undone_line(undone.record, undone.event))
        self.console.print(render.headline(self.folded))

    def do_redo(self) -> None:
        self.folded, stored, again = redo(self.ledger, self.game)
        self.console.print(render.redone_line(stored, again.record, again.event))
        self.console.print(render.headline(self.folded))

    def do_status(self) -> None:
        self.console.print(render.status_view(self.folded))

    def do_log(self) -> None:
        self.console.print(render.log_table(self.folded, last=20))

    def do_actions(self) -> None:
        self.console.print(render.actions_table(self.folded.rules, self.legal()))

    def do_help(self) -> None:
        self.console.print(HELP)
        self.do_actions()

    def legal(self) -> Any:
        return self.folded.rules.legal_actions(self.folded.state)

    # -- completion ----------------------------------------------------------------------------

    def install_completion(self) -> None:
        try:
            import readline
        except ImportError:  # pragma: no cover - Windows without pyreadline
            return
        readline.set_completer_delims(" ")
        readline.set_completer(self.complete)
        libedit = "libedit" in (readline.__doc__ or "")
        binding = "bind ^I rl_complete" if libedit else "tab: complete"
        readline.parse_and_bind(binding)

    def complete(self, text: str, index: int) -> str | None:
        try:
            import readline

            buffer = readline.get_line_buffer()
        except ImportError:  # pragma: no cover
            buffer = text
        options = self.candidates(buffer, text)
        return options[index] if index < len(options) else None

    def candidates(self, buffer: str, text: str) -> list[str]:
        """What Tab offers for the word ``text`` at the end of ``buffer``."""
        try:
            words = shlex.split(buffer)
        except ValueError:
            words = buffer.split()
        if buffer.endswith(" ") or not words:
            words.append("")
        specs = {spec.type: spec for spec in self.legal()}
        if len(words) == 1:
            names = [*specs, *COMMANDS]
            return [name + " " for name in names if name.startswith(text)]
        spec = specs.get(words[0].lower())
        if spec is None:
            return []
        key, sep, value = text.partition("=")
        if not sep:
            fields = [f.name for f in spec.fields] + ["by"]
            return [f + "=" for f in fields if f.startswith(key)]
        choices = next((f.choices for f in spec.fields if f.name == key), ())
        if key == "by":
            choices = spec.actors
        return [f"{key}={c} " for c in choices if c.startswith(value)]
