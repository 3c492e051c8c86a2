"""What ``verify`` shows people: each log's chain, its signatures (who vouched for which
point), its fork point and a noted head (:mod:`tabletape.ledger.heads` finds them).

The head is shown whole, never cut (it is there to be noted or photographed): its column does
not wrap, and what is wrong is said under the table, a line per game."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tabletape.ledger.heads import Checked
from tabletape.ledger.receipts import vouch_line
from tabletape.ledger.signatures import Vouch
from tabletape.ledger.text import shown

HEAD_WIDTH = len("9999:XXXX-XXXX-XXXX")
"""Room for a head of up to 9,999 events (a longer one widens its column)."""


def verify_view(results: Sequence[Checked]) -> RenderableType:
    """The verification table, then what is wrong with each game, and a line for every
    signature that holds and every noted head the log still extends."""
    table = Table(box=box.SIMPLE_HEAD, title="Verification", title_justify="left")
    table.add_column("game", overflow="fold")
    table.add_column("result", no_wrap=True)
    table.add_column("events", justify="right", no_wrap=True)
    table.add_column("first bad event", justify="right")
    table.add_column("head", no_wrap=True, min_width=HEAD_WIDTH)
    for result in results:
        table.add_row(shown(result.game), verdict_cell(result),
                      str(result.events), str(result.first_bad_seq or ""), result.fingerprint)
    details: list[RenderableType] = [table]
    for result in results:
        details.extend(detail_lines(result))
    return Group(*details)


def verdict_cell(result: Checked) -> str:
    """``ok``, ``BAD``, or ``deleted`` (a game the ledger deleted since the noted head)."""
    if result.noted_head is not None and result.noted_head.verdict == "deleted":
        return "[yellow]deleted[/]"
    return "[green]ok[/]" if result.ok else "[bold red]BAD[/]"


def vouch_mark(vouch: Vouch) -> str:
    """✓ for a signature that holds, ! for one that holds with a warning, ✗ for a problem."""
    return "[bold red]✗[/]" if not vouch.ok else "[yellow]![/]" if vouch.note else "[green]✓[/]"


def detail_lines(result: Checked) -> list[Text]:
    """The lines under the table for one game: what is wrong (the chain, a signature, the fork
    point, the noted head: its verdict), then the signatures that hold and the noted head it
    extends."""
    game = shown(result.game)
    lines = []
    if result.problem:
        lines.append(Text.from_markup(f"[bold red]✗ {game}:[/] {escape(result.problem)}"))
    lines += [Text.from_markup(f"{vouch_mark(v)} {game}: {escape(vouch_line(v))}")
              for v in result.signatures if v.ok]
    check = result.noted_head
    if check is not None and check.verdict == "extends":
        lines.append(Text.from_markup(
            f"[green]✓ {game}: extends[/] {check.fingerprint}: {escape(check.explanation)}"))
    if check is not None and check.verdict == "deleted":
        lines.append(Text.from_markup(
            f"[yellow]! {game}: deleted[/] (noted head {check.fingerprint}): "
            f"{escape(check.explanation)}"))
    return lines
