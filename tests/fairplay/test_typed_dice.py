"""Issue 18, third look at the dice (README "Fair play: dice no one can foresee"): marks tabletape
never writes, typed dice after seen ones, typed cards as chance, Masterplan faces, ``record``'s
``drawn``, and the messages around typed dice.

The testers' game: Risk Strike, Olga and Patrick, dealt, ``roll-off dice=6,1``, Olga attacks
Patrick's Africa from Asia, both deploy nothing, then the battle's roll (seq 10).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tabletape.ledger import Ledger
from tabletape.ledger.codec import decode_line, encode_body, seal
from tabletape.ledger.events import Drawn
from tests.fairplay.test_audit_fair_play import Table as FairviewTable
from tests.support.cli import said

BATTLE = ("deal player=Olga continents=asia,asia,europe tactics=3",
          "deal player=Patrick continents=europe,africa,africa tactics=3", "roll-off dice=6,1",
          "deal player=Patrick continents=asia", "draw continents=asia tactics=1",
          "attack from=asia target=africa", "deploy troops=0", "deploy troops=0")
"""From a new game to Olga's battle roll (seq 10 is the roll)."""

ROLL = 10


class Table(FairviewTable):
    """The fair-view tests' table, on the testers' battle of this round."""

    BATTLE_LINES = BATTLE

    def new(self, kind: str = "risk-strike", *options: str) -> str:  # type: ignore[override]
        return super().new(kind, "g", *options)

    def fair(self, game: str, *options: str) -> dict:  # type: ignore[type-arg]
        return self.json("audit", game, *options, code=None)["fair_play"]  # type: ignore[no-any-return]


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "ledger")


def rewrite(ledger: Ledger, game: str, seq: int, payload: dict, drawn: Drawn | None) -> None:  # type: ignore[type-arg]
    """A forger's rewrite: event ``seq`` gets ``payload`` and the mark ``drawn``, and every hash
    from it on is recomputed."""
    path = ledger.path(game)
    lines = path.read_bytes().splitlines()
    prev = decode_line(lines[seq - 2]).hash
    out = lines[:seq - 1]
    for line in lines[seq - 1:]:
        record = decode_line(line)
        body = (json.dumps(payload, separators=(",", ":")).encode(), drawn) \
            if record.seq == seq else (bytes(record.payload), record.drawn)
        out.append(seal(encode_body(record.seq, record.at, record.actor, record.type, body[0],
                                    prev, record.more, body[1])))
        prev = decode_line(out[-1]).hash
    path.write_bytes(b"\n".join(out) + b"\n")


# -- 1. a mark tabletape never writes ----------------------------------------------------------


@pytest.mark.parametrize(("filled", "dice"), [
    ((), {}), (("bogus",), {}), (("attacker", "attacker"), {}),
    (("attacker", "defender"), {"defender": []}),  # marked filled, left at its default
])
@pytest.mark.slow
def test_a_mark_tabletape_never_writes_fails_audit_and_verify(
        table: Table, filled: tuple[str, ...], dice: dict) -> None:  # type: ignore[type-arg]
    """Issue 18 (second round): "a rewritten tabletape roll passes audit and verify as derived
    · re-derived when its `drawn.filled` is emptied or names no real field" — a mark tabletape
    never writes (no field, an unknown one, one twice, a filled field still at its default) is a
    fair-play problem."""
    game = table.battle()
    stored = table.json("record", game, "roll")
    table("reveal", game)
    payload = {**stored["payload"], "attacker": [6, 6, 6], **dice}
    rewrite(Ledger(table.root), game, ROLL, payload, Drawn(roll=0, filled=filled))
    assert Ledger(table.root).verify(game).ok  # the chain holds: only fair play can tell
    fair = table.fair(game)
    row = next(row for row in fair["rolls"] if row["seq"] == ROLL)
    assert row["provenance"] == "derived" and row["check"].startswith("not tabletape's mark")
    assert any(problem.startswith(f"seq {ROLL}: not tabletape's mark")
               for problem in fair["problems"])
    assert "fair play: seq 10: not tabletape's mark" in said(table("verify", game, code=1))
    assert "not tabletape's mark" in said(table("audit", game, code=1))


def test_a_bad_mark_is_found_before_the_reveal_too(table: Table) -> None:
    game = table.battle()
    stored = table.json("record", game, "roll")
    rewrite(Ledger(table.root), game, ROLL, stored["payload"], Drawn(roll=0, filled=()))
    fair = table.fair(game)
    assert fair["problems"] == [f"seq {ROLL}: not tabletape's mark: it names no filled field"]


# -- 2. one side typed after tabletape's dice were seen ------------------------------------------


@pytest.mark.slow
def test_typing_one_side_after_seeing_tabletape_dice_is_typed_over(table: Table) -> None:
    """Issue 18 (second round): "seeing tabletape's dice, undoing, then typing one side and
    letting tabletape fill the other is not warned; the audit also says (same dice) when the
    dice differ". README: a roll tabletape made, undone, and replaced by typed dice for the
    same action — in part too — is a warning naming the fields typed."""
    game = table.battle()
    first = table.json("record", game, "roll")["payload"]["attacker"]
    table("undo", game, "by=Olga")
    typed = [6 if face != 6 else 5 for face in first]  # other dice than tabletape's
    table.record(game, f"roll attacker={','.join(map(str, typed))}")
    report = table.json("audit", game)
    fair = report["fair_play"]
    assert [(t["seq"], t["typed_seq"], t["typed"]) for t in fair["typed_over"]] == [
        (ROLL, 12, ["attacker"])]
    assert fair["retracted_rolls"][0]["then_same"] is False
    assert report["ok"] and len(report["warnings"]) == 1
    shown = said(table("audit", game))
    assert "typed: attacker, which tabletape had rolled" in shown
    assert f"attacker={','.join(map(str, typed))}" in shown.replace(" ", "")  # never cut


@pytest.mark.slow
def test_the_same_dice_again_say_same_dice_and_other_dice_do_not(table: Table) -> None:
    """"(same dice)" only when the dice are the same."""
    game = table.battle()
    table.record(game, "roll")
    table("undo", game, "by=Olga")
    table.record(game, "roll")
    fair = table.fair(game)
    assert fair["typed_over"] == [] and fair["retracted_rolls"][0]["then_same"] is True
    assert "(same dice)" in said(table("audit", game))


@pytest.mark.slow
def test_the_same_index_for_another_battle_says_other_dice(table: Table) -> None:
    """Undo the roll and its battle, attack elsewhere: the roll that takes the index is the same
    generator, not the same dice (Patrick defends Europe, one card: one die, not two)."""
    game = table.battle()
    table.record(game, "roll")
    for _ in range(4):  # the roll, both deploys, the attack
        table("undo", game, "by=Olga")
    for line in ("attack from=asia target=europe", "deploy troops=0", "deploy troops=0"):
        table.record(game, line)
    table.record(game, "roll")
    fair = table.fair(game)
    retracted = fair["retracted_rolls"][0]
    assert retracted["then_seq"] == 18 and retracted["then_same"] is False
    assert fair["typed_over"] == []  # tabletape rolled both sides again
    assert "(same roll index, other dice)" in said(table("audit", game))


# -- 3. typed cards are chance entered at the table -----------------------------------------------


MU = ("mu", "--option", "villain=red-skull", "--option", "heroes=captain-america,black-widow",
      "--option", "masterplan-deck=shipped")
"""The testers' Marvel United game: the shipped Masterplan deck, tabletape may draw."""


def entered_after_undone(table: Table, game: str, typed: str) -> dict:  # type: ignore[type-arg]
    """Let tabletape draw the action of ``typed`` (its first word, and its ``by=``), undo it,
    record ``typed``: the audit's fair-play report."""
    words = typed.split()
    seq = table.json("record", game, words[0], *(w for w in words if w.startswith("by=")))["seq"]
    table("undo", game)
    again = table.json("record", game, *typed.split())["seq"]
    fair = table.fair(game)
    rows = {row["seq"]: row for row in fair["rolls"]}
    assert rows[seq]["provenance"] == "derived" and rows[again]["provenance"] == "entered"
    assert [(t["seq"], t["typed_seq"]) for t in fair["typed_over"]] == [(seq, again)]
    return fair


def test_a_typed_masterplan_card_after_tabletape_drew_one_is_typed_over(table: Table) -> None:
    """Issue 18 (second round): "typed card draws are not counted as rolls at all … so
    tabletape's card seen, undone, another typed is never warned". README: an event whose
    chance tabletape would fill, with those fields typed, is entered."""
    game = table.new(*MU)
    for line in ("setup", "deal player=Olga", "deal player=Patrick"):
        table.record(game, line)
    fair = entered_after_undone(table, game, "villain-turn card=hail-hydra-1")
    assert fair["typed_over"][0]["typed"][0] == "card"
    shown = said(table("audit", game))
    assert "villain-turn card=hail-hydra-1" in shown and "entered" in shown


def simulated_fork(table: Table, kind: str, action: str) -> tuple[str, str]:
    """A bot game forked just before its first ``action`` (the bots type their cards): the
    fork, and that action as the bot typed it."""
    game = table.json("simulate", kind, "-n", "1")["games"][0]
    rows = json.loads(table("log", game, "--json"))
    first = next(row for row in rows if row["type"] == action)
    table("fork", game, "--at", f"seq={first['seq'] - 1}", "--id", "what-if")
    typed = " ".join(f"{key}={typed_value(value)}" for key, value in first["payload"].items()
                     if value)
    return "what-if", f"{action} {typed} by={first['actor']}"


def typed_value(value: object) -> str:
    """A stored value as it is typed (a die stored as [sides, face] as ``dSIDES:FACE``)."""
    if isinstance(value, list):
        return ",".join(f"d{item[0]}:{item[1]}" if isinstance(item, list) else str(item)
                        for item in value)
    return str(value).lower() if isinstance(value, bool) else str(value)


@pytest.mark.parametrize(("kind", "action"), [("mu", "draw"), ("risk-transformers", "allspark")])
def test_typed_hero_draws_and_allspark_cards_are_entered_chance(table: Table, kind: str,
                                                                action: str) -> None:
    """The same for a hero's ``draw`` (Marvel United) and the AllSpark card (Transformers):
    listed as entered (also in a bot game, whose bots type them), and typed over when
    tabletape's card was seen first."""
    game, typed = simulated_fork(table, kind, action)
    fair = entered_after_undone(table, game, typed)
    assert fair["typed_over"][0]["typed"] == ["cards" if action == "draw" else "card"]


# -- 4. a shipped deck's faces ----------------------------------------------------------------


def mu_at_villain_turn(table: Table) -> str:
    game = table.new(*MU)
    for line in ("setup", "deal player=Olga", "deal player=Patrick"):
        table.record(game, line)
    return game


def test_a_typed_face_other_than_the_shipped_card_is_refused(table: Table) -> None:
    """Issue 18 (second round): "typed face fields override the face of the card tabletape
    drew". The option: ``shipped``: "the table plays with the shipped faces" (README: "with
    `--option masterplan-deck=shipped`, empty: tabletape draws from the shipped placeholder
    faces"); hail-hydra-2's shipped face is move=2 bam=false thugs=0,1,0 civilians=1,0,0 with a
    special (rules/marvel_united/data.py, marked I)."""
    game = mu_at_villain_turn(table)
    shown = said(table.record(game, "villain-turn card=hail-hydra-2 move=2 bam=true "
                                    "thugs=3,3,3 civilians=1,0,0 special=true", code=1))
    assert ("hail-hydra-2 shows move=2 bam=false thugs=0,1,0 civilians=1,0,0 special=true in "
            "the shipped deck") in shown and "not bam=true thugs=3,3,3" in shown
    shown = said(table.record(game, "villain-turn bam=true thugs=3,3,3", code=1))
    assert "a card's face follows the card: name the card (card=) with bam= thugs=" in shown
    assert "hail-hydra" not in shown and "plan-" not in shown  # tabletape's card stays unseen
    assert len(json.loads(table("log", game, "--json"))) == 4  # nothing recorded
    stored = table.json("record", game, "villain-turn", "card=hail-hydra-2", "bam=false")
    assert stored["payload"] | {"card": "", "bam": None} == {
        "card": "", "move": 2, "bam": None, "thugs": [0, 1, 0], "civilians": [1, 0, 0],
        "special": True}  # a left-out field follows the card


@pytest.mark.slow
def test_without_a_shipped_deck_actions_says_the_card_is_required(table: Table) -> None:
    """Issue 18 (second round): "`actions` shows `card` optional for villain-turn, but recording
    it without card is refused ("name the Masterplan card drawn")"."""
    game = table.new("mu", *MU[1:5])  # masterplan-deck=table, the default
    for line in ("setup", "deal player=Olga", "deal player=Patrick"):
        table.record(game, line)
    spec = json.loads(table("actions", game, "--json"))[0]
    assert spec["type"] == "villain-turn" and spec["fields"][0]["required"] is True
    assert "name the Masterplan card drawn" in said(table.record(game, "villain-turn", code=1))
    shipped = mu_at_villain_turn(Table(table.root.with_name("shipped")))
    spec = json.loads(Table(table.root.with_name("shipped"))("actions", shipped, "--json"))[0]
    assert spec["fields"][0]["required"] is False


# -- 6. the catalog's drawn column ------------------------------------------------------------


@pytest.mark.slow
def test_the_readme_query_finds_partly_typed_rolls(table: Table) -> None:
    """Issue 18 (second round): README Tables said `drawn IS NULL` "are dice typed at the
    table", false for a partly typed roll. The README's query for typed attacker dice is run
    as written."""
    readme = (Path(__file__).parents[2] / "docs" / "reference" / "catalog.md").read_text(
        encoding="utf-8")
    query = re.search(r"so the rolls whose attacker dice were typed are `(WHERE [^`]+)`", readme)
    assert query is not None
    game = table.battle()
    table.record(game, "roll attacker=6,6,6")  # the defender's dice are tabletape's
    table("sync")
    rows = json.loads(table("sql", f"SELECT seq FROM events {query.group(1)}", "--json"))
    assert [row["seq"] for row in rows] == [ROLL]
    whole = json.loads(table("sql", "SELECT seq FROM events WHERE type = 'roll' AND drawn IS "
                                    "NULL", "--json"))
    assert whole == []  # not typed whole


# -- 7. record says what tabletape drew ---------------------------------------------------------


@pytest.mark.slow
def test_record_gives_the_drawn_mark_and_the_echo_names_the_fields(table: Table) -> None:
    """Issue 18 (second round): "`record --json` has no `drawn` …; the human echo doesn't say
    which values tabletape drew". README "JSON output": `record --json` holds `drawn`."""
    game = table.battle()
    shown = table.record(game, "roll defender=1,1")
    assert re.search(r"10 Olga: roll attacker=\S+ defender=1,1 · tabletape drew: attacker",
                     said(shown))
    table("undo", game, "by=Olga")
    stored = table.json("record", game, "roll")
    assert stored["drawn"] == {"roll": 0, "filled": ["attacker", "defender"]}
    assert stored["records"][0]["drawn"] == stored["drawn"]
    table("undo", game, "by=Olga")
    typed = table.json("record", game, "roll", "attacker=1,1,1", "defender=1,1")
    assert typed["drawn"] is None


# -- 8. messages ---------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("typed", ["attacker=,", "attacker=", "attacker=6,,6", "attacker=6,6,"])
def test_an_empty_list_or_item_typed_is_refused(table: Table, typed: str) -> None:
    """Issue 18 (second round): "`roll attacker=,` (and `attacker=`) … is taken as left out and
    tabletape rolls; `attacker=6,,6` silently reads as two dice": refused, nothing stored."""
    game = table.battle()
    shown = said(table.record(game, f"roll {typed}", code=2))
    assert "bad value for attacker:" in shown and "leave attacker= out" in shown
    assert len(json.loads(table("log", game, "--json"))) == ROLL - 1


def test_an_empty_dice_list_is_refused_in_transformers(table: Table) -> None:
    """The testers' Transformers case: the same refusal for a list of dice (d6 and d8)."""
    game, _ = simulated_fork(table, "risk-transformers", "roll")
    for typed in ("attacker=,", "attacker=", "attacker=6,,d8:7"):
        assert "bad value for attacker:" in said(table.record(game, f"roll {typed}", code=2))


def test_one_continent_card_is_one_card(table: Table) -> None:
    """"1 Africa cards" (plural): Patrick defends Europe with his one Europe card."""
    game = table.new()
    for line in (*BATTLE[:5], "attack from=asia target=europe", "deploy troops=0",
                 "deploy troops=0"):
        table.record(game, line)
    shown = said(table.record(game, "roll attacker=6,6,6 defender=1,1", code=1))
    assert "Patrick's defence: 1 Europe card + 0 troops, at most 2" in shown
