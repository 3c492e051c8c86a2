"""The demo game replays; the view shows the board, players and supply; narration tells it."""

from __future__ import annotations

import io

from rich.console import Console

from tabletape.replay.games.risk_deep_space import conservation, recorded, roll_off_news, view
from tabletape.rules.risk_deep_space import RULES
from tabletape.rules.risk_deep_space.demo import DEMO_PLAYERS, demo_actions
from tabletape.rules.risk_deep_space.events import RolledOff

from .helpers import play, start


def rendered(state) -> str:
    console = Console(file=io.StringIO(), width=110)
    console.print(view(RULES, state))
    return console.file.getvalue()


def flat(text: str) -> str:
    """Rendered text as one line of words, panel borders and wrapping taken out."""
    return " ".join(text.replace("│", " ").split())


def test_the_demo_replays_and_adds_up() -> None:
    state = play(start(DEMO_PLAYERS), *demo_actions())
    assert conservation(state) == []
    assert RULES.turn(state).active == ("Patrick",)


def test_the_view_shows_holders_recruits_dogs_and_the_reconstruction_label() -> None:
    state = play(start(DEMO_PLAYERS), *demo_actions()[:15])
    text = rendered(state)
    assert "Inner South" in text and "Patrick" in text and "Deep Space" in text
    assert "RECONSTRUCTION" in text and "[I]" in text
    assert "battle (0 exchanges)" in text


def test_status_shows_the_defaults_the_rulebook_does_not_print_marked() -> None:
    """Components: "36 Action cards" (the mix per card is not printed), and the rulebook is
    silent on card costs without an icon, Bases on lost planets or Home Stations, unused
    stations, where bought Recruits go and the Force Field tokens: each default in force is
    shown, marked as our reading (I) with the option that changes it; a value the table chose
    is marked as the table's."""
    text = flat(rendered(start(DEMO_PLAYERS)))
    for words in ("deck mix: Tractor Beam 6, Energy Boost 6", "free to play: Tractor Beam, "
                  "Mail from Mom, Good Space Dog", "a Base on a lost planet: stays",
                  "Bases on Home Stations: none", "Home Stations not in use: closed",
                  "Recruits bought: on the Home Station", "Force Field tokens: unused"):
        assert words in text, words
    assert "[I default; option deck.<card>=N]" in text
    chosen = flat(rendered(start(DEMO_PLAYERS, **{"lost-base": "destroyed"})))
    assert "a Base on a lost planet: goes back to its owner [set by the table]" in chosen
    readings = RULES.extra(start(DEMO_PLAYERS))["readings"]
    assert {row["option"] for row in readings} >= {"lost-base", "home-bases", "force-fields"}


def test_new_says_the_board_is_a_reconstruction_and_shows_the_defaults(tmp_path) -> None:
    """What ``new`` prints for Deep Space: the board is a reconstruction, and the defaults in
    force, marked, as ``status`` shows them."""
    from tabletape.ledger import Ledger
    from tests.replay.conftest import run

    code, output = run(Ledger(tmp_path / "ledger"), "new", "risk-deep-space",
                       "-p", "Olga,Patrick", "--id", "ds-new")
    text = flat(output)
    assert code == 0 and "RECONSTRUCTION, not the printed board" in text
    assert "deck mix: Tractor Beam 6" in text and "[I default; option lost-base]" in text


def test_a_roll_off_before_the_deal_is_narrated_with_its_players() -> None:
    """Get Ready!: "Each player rolls the dice. Whoever rolls highest goes first": a roll made
    before the deal names each player's die, the tie, and who goes first."""
    before = start(("Olga", "Patrick", "Carol"))
    tie = RolledOff(dice=(4, 4, 1))
    after = play(before, "roll-off dice=4,4,1")
    assert recorded(before, "table", tie) == "Roll for first player: Olga 4, Patrick 4, Carol 1."
    assert roll_off_news(before, after, tie) == ["A tie for highest: Olga, Patrick roll again."]
    decided = play(after, "roll-off dice=2,3")
    assert roll_off_news(after, decided, RolledOff(dice=(2, 3))) == ["Patrick goes first."]
