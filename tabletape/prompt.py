"""``tabletape play``: the interactive prompt a table records a game at.

It shows the game, lists what may be recorded now, accepts the action syntax, completes action
and field names with Tab, and takes ``undo``, ``status``, ``log``, ``actions``, ``help``, ``quit``.
Every action is appended (and fsynced) the moment it is accepted: quitting loses nothing.
"""

from __future__ import annotations

import os
import shlex
from contextlib import suppress
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from tabletape.batch import recorded_echo, redone_echo, undone_echo
from tabletape.exits import PEOPLE_ERRORS, error_markup, failure
from tabletape.ledger import Ledger, VersionConflict
from tabletape.replay import render
from tabletape.replay.fold import Folded, actions_now
from tabletape.replay.recording import append_all, open_game, prepare_line
from tabletape.replay.undo import by_argument, redo, undo
from tabletape.rules.actions import ActionSyntaxError, quoted, split_words

COMMANDS = ("undo", "redo", "note", "status", "log", "actions", "help", "quit")

HELP = """[bold]Type an action[/] as on the command line: [cyan]ACTION key=value …[/]
  e.g. [cyan]roll attacker=6,3,2 defender=5,5[/]   lists are comma-separated
  add [cyan]by=NAME[/] when more than one player could act (tabletape asks).
[bold]Commands:[/] undo [by=NAME] (retract the last action) · redo (record it again) · note TEXT
  (a note in the log, by the table) · status · log · actions · help · quit (shows the head to
  note)
Tab completes action names, field names and values, a list item by item ([cyan]asia,eu<Tab>[/]).
Up and down recall earlier lines (kept across sessions); Ctrl-C cancels the line being typed.
Every accepted action is saved at once."""

HISTORY_LENGTH = 1000
"""Lines the prompt's history keeps across sessions."""


def history_file() -> Path | None:
    """Where the prompt keeps its history: ``$TABLETAPE_HISTORY`` (empty: no history), else
    ``tabletape/history`` in the user's state folder (``~/.local/state`` on Linux)."""
    configured = os.environ.get("TABLETAPE_HISTORY")
    if configured is not None:
        return Path(configured).expanduser() if configured else None
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(state) / "tabletape" / "history"


class Prompt:
    """A read-eval-print loop over one game."""

    def __init__(self, ledger: Ledger, game: str, console: Console, *, resume: str = "") -> None:
        self.ledger = ledger
        self.game = game
        self.console = console
        self.resume = resume or f"tabletape play {shlex.quote(game)}"
        self.readline: Any = None
        """The readline module once the prompt runs (None without one)."""
        self.folded: Folded = open_game(ledger, game)

    # -- the loop ------------------------------------------------------------------------------

    def run(self) -> None:
        """Show the game, then read lines until ``quit`` or Ctrl-D; say how to come back."""
        self.readline = readline = self.install_completion()
        self.console.print(render.status_view(self.folded))
        self.do_actions()
        self.console.print("[dim]help for help, quit to leave; every action is saved at once.[/]")
        try:
            while self.handle(self.read_line()):
                pass
        finally:
            save_history(readline)
        self.console.print(self.head_line(), highlight=False)
        self.console.print(f"resume with: {escape(self.resume)}", highlight=False)

    def head_line(self) -> str:
        """The log's head as people note it at the end of a session (``tabletape head``)."""
        from tabletape.ledger.fingerprints import fingerprint

        last = self.folded.records[-1]
        game = escape(shlex.quote(self.game))
        return (f"head {fingerprint(last.seq, last.hash)} (note it: `tabletape verify {game} "
                "--head …` proves later that the log still extends it)")

    def read_line(self) -> str:
        """The next line typed, stripped; ``quit`` at the end of input. Ctrl-C cancels the line
        being typed (an empty line), not the prompt."""
        while True:
            try:
                return input(self.prompt_text()).strip()
            except KeyboardInterrupt:
                self.console.print("^C", style="dim")
            except EOFError:
                self.console.print()
                return "quit"

    def forget(self, line: str) -> None:
        """Leave ``line`` (``quit``) out of the history: up, next time, recalls an action."""
        readline = self.readline
        last = readline.get_current_history_length() if readline else 0
        if last and readline.get_history_item(last) == line:
            readline.remove_history_item(last - 1)

    def prompt_text(self) -> str:
        info = self.folded.rules.turn(self.folded.state)
        who = ",".join(info.active) or "-"
        return f"{self.game} [{who}]> "

    def handle(self, line: str) -> bool:
        """Act on one line; False to leave the loop. An error is said as ``record`` says it."""
        if not line:
            return True
        word = line.split()[0].lower()
        if word in ("quit", "exit", "q"):
            self.forget(line)
            return False
        handlers = {"undo": lambda: self.do_undo(line), "redo": self.do_redo,
                    "note": lambda: self.do_note(line),
                    "status": self.do_status, "log": self.do_log, "actions": self.do_actions,
                    "help": self.do_help, "?": self.do_help}
        try:
            handlers.get(word, lambda: self.do_record(line))()
        except PEOPLE_ERRORS as error:
            if isinstance(error, VersionConflict):
                self.folded = open_game(self.ledger, self.game)
            self.console.print(error_markup(failure(error).message), highlight=False)
        except ValueError as error:  # a value no parser worded (never a traceback)
            self.console.print(error_markup(str(error)), highlight=False)
        return True

    # -- commands ------------------------------------------------------------------------------

    def do_record(self, line: str) -> None:
        drafts = prepare_line(self.folded, line)
        self.folded, records = append_all(self.ledger, self.folded, drafts)
        self.console.print(recorded_echo(self.folded, records))
        if self.folded.rules.result(self.folded.state) is not None:
            self.console.print(render.status_view(self.folded))

    def do_undo(self, line: str) -> None:
        self.folded, undone = undo(self.ledger, self.game, by=by_argument(line.split()[1:]))
        self.console.print(undone_echo(self.folded, undone))

    def do_redo(self) -> None:
        self.folded, stored, again = redo(self.ledger, self.game)
        self.console.print(redone_echo(self.folded, stored, again))  # its headline included

    def do_note(self, line: str) -> None:
        """``note TEXT``: the table's note in the log (the rules ignore it), as ``tabletape
        note`` adds it; quotes around the whole text are taken off."""
        from tabletape.ledger.events import Noted
        from tabletape.notes import note_echo, note_problem

        text = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
        if len(text) > 1 and text[0] == text[-1] and text[0] in "\"'":
            text = text[1:-1].strip()
        problem = note_problem(text) if text else "write the note after it: note TEXT"
        if problem:
            raise ValueError(problem)
        (stored,) = self.ledger.append(self.game, [("table", Noted(text=text))],
                                       expected_seq=self.folded.records[-1].seq)
        self.folded = open_game(self.ledger, self.game)
        self.console.print(note_echo(stored.seq, "table", text), highlight=False)

    def do_status(self) -> None:
        self.console.print(render.status_view(self.folded))

    def do_log(self) -> None:
        self.console.print(render.log_table(self.folded, last=20))

    def do_actions(self) -> None:
        self.console.print(render.actions_table(self.folded.rules, *actions_now(self.folded)))

    def do_help(self) -> None:
        self.console.print(HELP)
        self.do_actions()

    def legal(self) -> Any:
        return self.folded.rules.legal_actions(self.folded.state)

    # -- completion ----------------------------------------------------------------------------

    def install_completion(self) -> Any:
        """Bind Tab to :meth:`complete` and load the history; the readline module, or None."""
        try:
            import readline
        except ImportError:  # pragma: no cover - Windows without pyreadline
            return None
        readline.set_completer_delims(" ")
        readline.set_completer(self.complete)
        libedit = "libedit" in (readline.__doc__ or "")
        binding = "bind ^I rl_complete" if libedit else "tab: complete"
        readline.parse_and_bind(binding)
        load_history(readline)
        return readline

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
            words = split_words(buffer)
        except ActionSyntaxError:  # an unclosed quote, while typing
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
        field = next((f for f in spec.fields if f.name == key), None)
        choices = spec.actors if key == "by" else field.choices if field else ()
        if field is not None and field.kind.startswith("list"):
            done, comma, item = value.rpartition(",")
            return [f"{key}={done}{comma}{c}" for c in choices if begins(c, item)]
        return [f"{key}={quoted(c)} " for c in choices if begins(c, value)]


def begins(choice: str, typed: str) -> bool:
    """Whether ``choice`` begins with ``typed``, in any case (``ol`` completes ``Olga``).

    >>> begins("Olga", "ol"), begins("Olga", "pa")
    (True, False)
    """
    return choice.casefold().startswith(typed.casefold())


def load_history(readline: Any) -> None:
    """Read the prompt's history, if there is one to read (a problem only loses it)."""
    path = history_file()
    readline.set_history_length(HISTORY_LENGTH)
    if path is None:
        return
    with suppress(OSError, ValueError):  # none yet, unreadable, not text: start afresh
        readline.read_history_file(str(path))


def save_history(readline: Any) -> None:
    """Write the prompt's history; a folder that cannot be written only loses it."""
    path = history_file()
    if readline is None or path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        readline.write_history_file(str(path))
    except OSError:
        pass
