"""Every ``sh`` and ``python`` example of README.md and docs/ runs as printed (the convention is
in ``tests/docs/examples.py``), so an example that goes stale fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.examples import (
    ROOT,
    commands,
    environment,
    folded,
    pages,
    sybil,
    tabletape_words,
)


@pytest.mark.parametrize("page", pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_the_page_runs_as_printed(page: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    env = environment(tmp_path)
    for key in ("TABLETAPE_LEDGER", "TABLETAPE_HISTORY", "HOME", "XDG_DATA_HOME"):
        monkeypatch.setenv(key, env[key])
    monkeypatch.chdir(tmp_path)
    document = sybil().parse(page)
    document.namespace.update({"__scratch__": tmp_path, "__env__": env})
    for example in document:
        example.evaluate()


def test_the_readme_tour_records_and_undoes() -> None:
    """The README's tour starts with ``games``, ``new`` (naming its game with ``--id``) and
    ``actions``, and its ``log`` must show the attack it undid as undone (run above)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = text[text.index("## A two-minute tour"):]
    tour = tour[tour.index("```sh") + len("```sh"):]
    found = commands(tour[:tour.index("```")], 1)
    assert [c.text.split()[1] for c in found][:3] == ["games", "new", "actions"]
    assert "--id rs-k7pq" in found[1].text
    undo = next(i for i, c in enumerate(found) if c.text.startswith("tabletape undo rs-k7pq"))
    log = next(c for c in found[undo:] if c.text.startswith("tabletape log rs-k7pq"))
    assert any("undone at" in text for text in log.expected)


def test_a_command_block_is_read_by_the_convention() -> None:
    """The reading of an ``sh`` block: continuations, comments, expected output, ``# exits``."""
    block = ("# a comment\n"
             "tabletape new risk-strike --player Olga \\\n"
             "  --player Patrick --id rs-k7pq\n"
             "#   Started Risk Strike\n"
             "#   game rs-k7pq\n"
             "\n"
             "tabletape record rs-k7pq atack  # exits 2\n"
             "# not output: no command above it\n")
    found = commands(block, 10)
    assert [(c.line, c.exit_code, c.expected) for c in found] == [
        (11, 0, ["Started Risk Strike", "game rs-k7pq"]), (16, 2, [])]
    assert found[0].text.endswith("--id rs-k7pq")
    assert folded(" a \n  b ") == "a b"


def test_only_a_plain_tabletape_line_runs_in_process() -> None:
    """A line of ``tabletape`` and words runs in process; anything bash would read otherwise
    (a pipe, a redirection, a variable, another program) runs with bash."""
    assert tabletape_words("tabletape record g roll-off dice=6,2   # Olga first") == [
        "record", "g", "roll-off", "dice=6,2"]
    assert tabletape_words("tabletape log g  # exits 1") == ["log", "g"]
    assert tabletape_words('tabletape note g "it\'s"') == ["note", "g", "it's"]
    for line in ("tabletape log g | head -1", "tabletape record g - < lines.txt",
                 'tabletape verify g --head "$(cat head.txt)"', "printf x > y",
                 "tabletape list > out.txt", "tabletape new rs --player ~/x",
                 'tabletape note g "a # b"'):  # a hash bash might read as a comment
        assert tabletape_words(line) is None, line


def test_the_readme_links_lead_somewhere() -> None:
    """Every relative link and picture of README.md names a file of the repository (Sphinx
    checks the links between docs pages; nothing checks the README's otherwise)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [link.split("#")[0] for link in re.findall(r"\]\(([^)\s]+)\)", text)
               if "://" not in link and not link.startswith("#")]
    assert targets, "the README links into the docs"
    assert [t for t in targets if not (ROOT / t).is_file()] == []
