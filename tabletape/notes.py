"""A note in a log: what it may hold, and how ``note`` (the command, and ``note`` at the prompt)
says it stored one."""

from __future__ import annotations

import unicodedata

from rich.markup import escape

MAX_NOTE_CHARS = 2000
"""The longest note, in characters: a note is a remark at the table, kept in the log forever."""


def note_problem(text: str) -> str:
    """Why ``text`` cannot be a note (empty, too long, a terminal control character), or ``""``.

    >>> note_problem("a great roll"), note_problem("bell\a")[:28]
    ('', 'the note holds a control cha')
    """
    if not text.strip():
        return "the note is empty; write what should be remembered"
    if len(text) > MAX_NOTE_CHARS:
        return f"the note has {len(text)} characters; a note has at most {MAX_NOTE_CHARS}"
    bad = next((c for c in text if unicodedata.category(c) == "Cc" and c not in "\n\t"), None)
    if bad is not None:
        return (f"the note holds a control character ({bad!r}), which terminals would act on; "
                "remove it")
    return ""


def note_echo(seq: int, writer: str, text: str, about: int | None = None) -> str:
    """What ``note`` (and ``note`` at the prompt) says it stored, as rich markup; the note's own
    text is shown as typed, never read as markup.

    >>> print(note_echo(7, "table", "[bold] is not bold", about=3))
    [dim]7[/] note by table about seq 3: \\[bold] is not bold
    """
    about_text = f" about seq {about}" if about is not None else ""
    return f"[dim]{seq}[/] note by {escape(writer)}{about_text}: {escape(text)}"
