"""What ``verify`` shows people: each log's chain, its signatures (who vouched for which
point), its fork point and a noted head (:mod:`tabletape.ledger.heads` finds them)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tabletape.ledger.heads import Checked, Vouch, vouch_line

VERDICT_STYLE = {"extends": "green", "truncated": "bold red", "rewritten": "bold red"}


def verify_view(results: Sequence[Checked]) -> RenderableType:
    """The verification table, then a line for every signature, fork point and noted head."""
    table = Table(box=box.SIMPLE_HEAD, title="Verification", title_justify="left")
    for column in ("game", "result", "events", "first bad event", "problem", "head"):
        table.add_column(column)
    for result in results:
        table.add_row(escape(result.game), "[green]ok[/]" if result.ok else "[bold red]BAD[/]",
                      str(result.events), str(result.first_bad_seq or ""),
                      escape(result.problem), result.fingerprint)
    details: list[RenderableType] = [table]
    for result in results:
        details.extend(detail_lines(result))
    return Group(*details)


def vouch_mark(vouch: Vouch) -> str:
    """✓ for a signature that holds, ! for one that holds with a warning, ✗ for a problem."""
    return "[bold red]✗[/]" if not vouch.ok else "[yellow]![/]" if vouch.note else "[green]✓[/]"


def detail_lines(result: Checked) -> list[Text]:
    """The lines under the table for one game: its signatures, fork point, noted head."""
    game = escape(result.game)
    lines = [Text.from_markup(f"{vouch_mark(v)} {game}: {escape(vouch_line(v))}")
             for v in result.signatures]
    if result.fork:
        lines.append(Text.from_markup(f"[bold red]✗[/] {game}: fork point: "
                                      f"{escape(result.fork)}"))
    check = result.noted_head
    if check is not None:
        style = VERDICT_STYLE[check.verdict]
        lines.append(Text.from_markup(
            f"[{style}]{'✓' if check.verdict == 'extends' else '✗'} {game}: "
            f"{check.verdict}[/] {check.fingerprint}: {escape(check.explanation)}"))
    return lines
