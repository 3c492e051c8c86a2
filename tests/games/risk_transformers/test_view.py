"""What people see of Risk: Transformers: the view, the narration of single events, the audit
hooks (conservation, the dice with their d8s) and the demo around the Battle Example."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from random import Random

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from rich.console import Console

from tabletape.ledger import Ledger, Record
from tabletape.ledger.events import Event, event_type
from tabletape.replay.audit import audit_game
from tabletape.replay.demo import run_demo
from tabletape.replay.fold import Visit
from tabletape.replay.games.risk_transformers import (
    allspark_news,
    battle_news,
    card_title,
    conservation,
    narrate,
    receipts_words,
    recorded,
    result_words,
    scrapheap_news,
    sector_label,
    setup_notes,
    view,
)
from tabletape.rules.actions import ActionSyntaxError, ParsedAction, event_from, parse_action
from tabletape.rules.kernel import IllegalAction, Result
from tabletape.rules.risk_transformers.demo import DEMO_PLAYERS, demo_actions
from tabletape.rules.risk_transformers.events import (
    AllSpark,
    Changed,
    Drew,
    Ended,
    Gifted,
    Jumped,
    Lost,
    MovedIn,
    Played,
)
from tabletape.rules.risk_transformers.state import (
    Receipt,
    State,
    Zone,
    teammates,
    with_seat,
    with_zone,
    zones_held,
)
from tests.games.risk_transformers.helpers import GAME, dealt, playing, started
from tests.games.risk_transformers.test_battle import in_phase3, play, zone
from tests.games.risk_transformers.test_phases import act, in_phase_two
from tests.games.risk_transformers.test_phases_property import DEALT, TYPES, values

OLGA, PATRICK = 0, 1


def rendered(renderable: object) -> str:
    console = Console(file=io.StringIO(), width=120)
    console.print(renderable)
    return console.file.getvalue()  # type: ignore[attr-defined]


def flat(text: str) -> str:
    """Rendered text as one line of words, borders and wrapping taken out."""
    return " ".join(text.replace("│", " ").replace("┃", " ").split())


@cache
def demo_states() -> list[State]:
    """Every state of the demo, folded from its typed lines as the recorder reads them."""
    states = [started(2)]
    for line in demo_actions():
        parsed = parse_action(line)
        state = states[-1]
        actor = parsed.by or GAME.default_actor(state, parsed.action) or state.name(state.current)
        states.append(GAME.apply(state, actor, event_from(parsed, GAME.event_types())))
    return states


def test_the_demo_replays_the_battle_example_and_adds_up_at_every_step() -> None:
    """Battle Example: "Black has captured the Launch Pad and now moves all 3 attacking robots
    into the captured zone. Black can choose to move 1 more robot into the zone, but must leave
    one behind"; every robot, leader and card is accounted for after each action."""
    states = demo_states()
    assert all(conservation(state) == [] for state in states)
    assert DEMO_PLAYERS == ("Olga", "Patrick")
    last = states[-1]
    assert last.at("launch-pad") == zone(PATRICK, robots=4)
    assert last.at("hexima-state") == zone(PATRICK, robots=1)
    assert last.at("kalis").leader and not last.seats[OLGA].scrapped
    assert last.seats[PATRICK].hand == ("",)  # the card drawn face down


def test_the_view_shows_sectors_zones_leaders_and_special_zones() -> None:
    """The board by sector with its bonus, each zone's owner and pieces (leaders with their
    form), the spinning zones' positions and the war factories, the day, hands, scrapheaps."""
    state = demo_states()[-1]
    text = flat(rendered(view(GAME, state)))
    for words in ("Yellow +2", "Green +7", "Launch Pad Patrick 4",
                  "Kalis Olga 4 + Optimus Prime (robot form)",
                  "Vos Patrick 12 + Megatron (vehicle form)",
                  "Pion Tower Olga 1 [spinning: closed]",
                  "Decagon Olga 1 [sliding: factory closed]", "Decagon war factory [closed]",
                  "day 2 of 6", "1 face down", "Perihex Olga 4", "Megatron (vehicle form)",
                  "40 in the draw pile, 1 discarded (top: Fusion Cannons)",
                  "may be recorded now: Olga: end"):
        assert words in text, words


def test_the_view_and_new_say_the_board_is_a_reconstruction() -> None:
    """issue 14: the shipped board is "marked as a reconstruction everywhere a user sees it"
    (``status`` and ``new``), with how to supply one."""
    state = started(2)
    shown = flat(rendered(view(GAME, state)))
    assert "[I]: RECONSTRUCTION, not the printed board" in shown and "board=FILE" in shown
    notes = flat(rendered(setup_notes(GAME, state)))
    assert "RECONSTRUCTION" in notes and "--option board=FILE" in notes
    assert "A1 Leftover operational robots after S5" in notes
    assert "[I default; option spinning-start=closed]" in notes
    assert "fixed readings (no option): A3, A4" in notes


def test_an_option_set_by_the_table_is_marked_as_the_tables() -> None:
    notes = flat(rendered(setup_notes(GAME, started(2, leftover="keep"))))
    assert "A1 leftover=keep [set by the table; our default:" in notes


def test_a_sector_held_whole_names_its_holder() -> None:
    """Phase 1 C: the bonus is for controlling "all the zones in a sector"."""
    yellow = {place: zone(OLGA, robots=2) for place in ("yellow-1", "hexima-state", "kalis",
                                                       "launch-pad")}
    state = in_phase3(yellow, rest=PATRICK)
    assert sector_label(state, "yellow").plain == "Yellow +2\nOlga holds it"
    assert sector_label(state, "green").plain == "Green +7\nPatrick holds it"


def test_the_view_shows_the_attack_and_an_open_war_factory() -> None:
    """An attack in progress (pieces on each side, the last roll) and a factory slid open (it
    counts as one of the sector's zones)."""
    state = dealt(in_phase_two(playing(2)), OLGA, "fusion-cannons")
    opened = act(state, "Olga", Changed(card="fusion-cannons", zone="decagon", to="open"))
    text = flat(rendered(view(GAME, opened)))
    assert "Decagon war factory Olga 1 [war factory, open]" in text
    assert "[sliding: factory open]" in text
    battle = demo_states()[73]  # after the first roll of the Battle Example
    shown = flat(rendered(view(GAME, battle)))
    assert "Patrick attacks Launch Pad from Hexima State with 3 robots" in shown
    assert "Hexima State Patrick 3 + 1 vehicle" in shown
    assert "Olga defends with 1 robot and Optimus Prime" in shown
    assert "last roll: 6, 4 and 1 against 4 and 3 on the d8" in shown


def test_a_change_card_is_told_with_what_it_changed() -> None:
    """Spinning Zones: "Rotate the spinning zone"; Sliding Zones: "Open the zone to reveal a
    secret war factory. Place a robot from your scrapheap in the war factory"."""
    state = dealt(in_phase_two(playing(2)), OLGA, "fusion-cannons")
    spin = Changed(card="fusion-cannons", zone="pion-tower", to="west")
    assert recorded(state, "Olga", spin, act(state, "Olga", spin)) == (
        "Olga plays Fusion Cannons for its change icon: Pion Tower spins to west.")
    slide = Changed(card="fusion-cannons", zone="decagon", to="open")
    told = recorded(state, "Olga", slide, act(state, "Olga", slide))
    assert "Decagon slides open and reveals its secret war factory" in told


def test_cards_jumps_and_draws_are_told_by_name() -> None:
    state = started(2)
    assert recorded(state, "Olga", Played(card="mass-production"), state) == (
        "Olga plays Mass-Production.")
    placeholder = next(c for c in state.board.card_ids if "(" in card_title(state, c))
    assert recorded(state, "Olga", Played(card=placeholder, note="the table applies it"),
                    state) == f"Olga plays {card_title(state, placeholder)} – the table applies it."
    assert recorded(state, "Olga", Jumped(to="kalis"), state) == "Optimus Prime jumps to Kalis."
    assert recorded(state, "Patrick", Drew(card="fusion-cannons"), state) == (
        "Patrick draws Fusion Cannons for capturing a zone.")


def test_a_lost_vehicle_is_told_as_the_rulebook_tells_it() -> None:
    """Battle Example 7: "Black exchanges a vehicle for 3 robots and puts one of them on his
    scrapheap"."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=3, vehicles=1),
                       "launch-pad": zone(OLGA, robots=1, leader=True)}, current=PATRICK)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=olga robots=1 leader=true")
    me = state.seats[PATRICK]
    after = with_seat(state, PATRICK, scrap_vehicles=me.scrap_vehicles + 1,
                      scrap_robots=me.scrap_robots - 2)
    assert scrapheap_news(state, after) == [
        "Patrick exchanges a vehicle for 3 robots and puts one of them on the scrapheap."]
    crushed = replace(after, attack=None)  # a closed factory: the vehicle goes as it is
    assert scrapheap_news(replace(state, attack=None), crushed) == [
        "Patrick puts 1 vehicle on the scrapheap."]


def test_the_allspark_is_told_with_the_robots_it_brings() -> None:
    """Rounds 1: "The player who controls this zone immediately puts 3 robots from his
    scrapheap into that zone" (the AllSpark rule itself is engineer A's: told from the
    states)."""
    state = started(2)
    card = next(c for c in state.board.card_ids if state.board.card(c).zone == "perihex")
    before = with_zone(state, state.place("perihex"), Zone(owner=PATRICK, robots=1))
    after = with_zone(before, before.place("perihex"), Zone(owner=PATRICK, robots=4))
    assert allspark_news(before, after, AllSpark(card=card)) == [
        "The AllSpark brings new life to Perihex: Patrick adds 3 robots."]
    assert recorded(before, "Patrick", AllSpark(card=card), after) == (
        "Patrick turns the top card of the draw pile face up for the AllSpark: Fusion Cannons.")


def test_the_audit_counts_d8s_apart_and_finds_everything_conserved(tmp_path: Path) -> None:
    """Which Dice Do I Use?: "6-sided for robots/vehicles or 8-sided for your leader": the
    fairness report tests each die size against its own faces (the +1 is not a face)."""
    ledger = Ledger(tmp_path / "ledger")
    game = run_demo(ledger, Console(file=io.StringIO()), kind="transformers")
    report = audit_game(ledger, game)
    assert report.conservation_checked and report.conservation == []
    groups = {(group.player, group.sides): group.counts for group in report.dice}
    assert groups[("Olga", 8)] == [0, 0, 1, 1, 0, 0, 0, 0]  # d8:3 and d8:4, not 4 and 5
    assert groups[("Olga", 6)] == [0, 0, 0, 1, 0, 0]
    assert sum(groups[("Patrick", 6)]) == 6 and ("Patrick", 8) not in groups


# -- every event the rules accept is told in words -------------------------------------------------


def told_visit(before: State, actor: str, event: Event, after: State) -> list[str]:
    """The narration of one event folded from ``before`` to ``after``."""
    record = Record(seq=2, at="2026-12-01T00:00:00.000000Z", actor=actor,
                    type=event_type(event), payload=msgspec.Raw(b"{}"), prev="", hash="")
    return narrate(Visit(record=record, event=event, before=before, after=after,
                         turn=GAME.turn(before), effective=True))


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(draw=st.data(), moves=st.integers(1, 60))
def test_legal_sequences_are_told_in_table_words(draw: st.DataObject, moves: int) -> None:
    """Any sequence of offered actions from the first turn or from the demo's attack (Phases
    1-5, battles with tabletape's dice): each
    event the rules accept is told without the action syntax, and the view renders."""
    state = draw.draw(st.sampled_from([DEALT, demo_states()[71]]))  # or as an attack begins
    for _ in range(moves):
        offered = GAME.legal_actions(state)
        if not offered:  # the game is over
            break
        spec = draw.draw(st.sampled_from(offered))
        fields = values(state, spec, draw.draw)
        fields.update({field.name: str(draw.draw(st.integers(0, 3))) for field in spec.fields
                       if field.name in ("robots", "face") and not field.choices})
        actor = spec.actors[0]
        try:
            typed = event_from(ParsedAction(spec.type, fields, None), TYPES)
            event = GAME.complete(state, actor, typed, Random(moves))
            after = GAME.apply(state, actor, event)
        except (ActionSyntaxError, IllegalAction):  # a field this test does not fill
            continue
        told = told_visit(state, actor, event, after)
        assert told and not told[0].startswith(f"{actor}: "), (event, told)
        state = after
    assert rendered(view(GAME, state))


def test_the_end_of_day_6_is_told_with_the_result() -> None:
    """Rounds 2: "If there are no days left, the game is over"; the narration says who won
    and why (the result's reason, engineer A's), and the view's heading says it too."""
    from tests.games.risk_transformers.test_allspark import PERIHEX, day_over

    state = day_over(day=6)
    event = AllSpark(card=PERIHEX)
    after = GAME.apply(state, "Patrick", event)
    told = told_visit(state, "Patrick", event, after)
    result = GAME.result(after)
    assert result is not None
    assert told[-1] == f"The game ends: {result.reason}."
    assert result.reason.startswith(f"{' and '.join(result.winners)} won")
    assert result.reason[:40] in flat(rendered(view(GAME, after)))


# -- the table trial's wording fixes ---------------------------------------------------------------


def test_a_short_scrapheap_says_it_held_no_more() -> None:
    """A10: "Empty scrapheap (opening, AllSpark, gifting, Phase 1 gains): place what exists": the
    narration says the robots were short, not "receives 0 robots: 0 for 21 zones"."""
    from tests.games.risk_transformers.test_allspark import PERIHEX, day_over

    state = day_over()
    olga = state.seats[OLGA]
    state = with_seat(state, OLGA, scrap_robots=0, scrap_vehicles=0,
                      operational=olga.operational + olga.scrap_robots)
    state = with_zone(state, state.place("perihex"),  # no vehicle to exchange either
                      replace(state.at("perihex"), vehicles=olga.scrap_vehicles))
    after = GAME.apply(state, "Patrick", AllSpark(card=PERIHEX))
    owed = after.received[0].short
    told = told_visit(state, "Patrick", AllSpark(card=PERIHEX), after)
    assert owed and f"0 of {owed} for {zones_held(after, OLGA)} zones ({owed} short)" in told[-2]
    assert told[-1] == "Olga's scrapheap holds no more robots (A10: place what exists)."
    assert receipts_words(after, [Receipt("21 zones", 0, short=7)]) == (
        "no robots: 0 of 7 for 21 zones (7 short)")
    assert receipts_words(after, [Receipt("21 zones", 5, short=2), Receipt("yellow", 2)]) == (
        "7 robots: 5 of 7 for 21 zones (2 short), 2 for the Yellow sector")
    assert receipts_words(after, [Receipt("decagon-factory", 1)]) == (
        "1 robot: 1 for the Decagon war factory")
    assert receipts_words(after, [Receipt("1 zones", 3)]) == "3 robots: 3 for 1 zone"


def test_one_piece_moving_in_moves_in() -> None:
    """The capture's verb agrees with its pieces: "Megatron moves in", "3 robots move in"."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=1, leader=True),
                       "launch-pad": zone(OLGA, robots=1)}, current=PATRICK)
    state = play(state, "attack from=hexima-state target=launch-pad leader=true")
    assert state.attack is not None
    won = with_zone(state, state.attack.target, Zone(owner=PATRICK, leader=True))
    assert "Patrick captures Launch Pad: Megatron moves in." in battle_news(state, won, None)
    three = with_zone(state, state.attack.target, Zone(owner=PATRICK, robots=3))
    assert "Patrick captures Launch Pad: 3 robots move in." in battle_news(state, three, None)


def test_moving_no_more_in_says_where_the_rest_stay() -> None:
    """After a capture, "You can also move other robots from the attacking zone": moving none
    leaves them where they are, said so rather than "moves nothing more"."""
    state = in_phase3({"hexima-state": zone(PATRICK, robots=4),
                       "launch-pad": zone(OLGA, robots=1)}, current=PATRICK)
    state = play(state, "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=olga robots=1", "roll attacker=6,5,4 defender=1")
    assert recorded(state, "Patrick", MovedIn(), state) == (
        "Patrick moves no more pieces into Launch Pad: the rest stay in Hexima State.")
    assert recorded(state, "Patrick", MovedIn(robots=1), state) == (
        "Patrick moves 1 robot more into Launch Pad.")


def test_a_gift_names_the_teammate() -> None:
    """4-Player Game: "you can give a zone to your teammate ... Your teammate puts a robot from
    his scrapheap into the zone. He now owns that zone": the teammate is named."""
    from tests.games.risk_transformers.test_backup import GIFT, in_phase

    state = in_phase("back-up", GIFT, players=4)
    mate = state.name(teammates(state, OLGA)[0])
    event = Gifted(zone="kalis")
    told = told_visit(state, "Olga", event, GAME.apply(state, "Olga", event))
    assert told[0] == f"Olga gives Kalis to teammate {mate} instead of calling for back-up."
    assert "Olga puts 2 robots on the scrapheap." in told
    assert f"{mate} puts a robot from the scrapheap on Kalis: the zone is {mate}'s now." in told


def test_ending_the_turn_before_the_card_it_owes_skips_to_phase_5() -> None:
    """Phase 5: "If you captured at least 1 zone during your turn, take the top card": ending
    the turn from Phase 4 after a capture goes through Phase 5 first, told as a skip."""
    state = replace(in_phase3({"launch-pad": zone(OLGA, robots=2)}), phase="back-up",
                    captured=True)
    after = GAME.apply(state, "Olga", Ended(turn=True))
    assert after.phase == "draw"
    assert told_visit(state, "Olga", Ended(turn=True), after) == [
        "Olga skips to the end of the turn.", "Now Phase 5: draw a card."]


def test_the_last_roll_shows_the_dice_as_they_count() -> None:
    """FUSION CANNONS: "Add 1 to each die for this attack"; Robot Form: the leader's "+1": the
    status shows the dice as they landed and as they count."""
    state = dealt(in_phase3({"hexima-state": zone(OLGA, robots=4, leader=True),
                             "launch-pad": zone(PATRICK, robots=2)}), OLGA, "fusion-cannons")
    state = play(state, "play card=fusion-cannons",
                 "attack from=hexima-state target=launch-pad robots=3",
                 "defend by=patrick robots=2", "roll attacker=5,4,3 defender=6,6")
    assert "last roll: 5, 4 and 3 (count 6, 5 and 4) against 6 and 6" in flat(
        rendered(view(GAME, state)))
    battle = demo_states()[73]  # the Battle Example: Optimus Prime's +1 on the 3
    assert "last roll: 6, 4 and 1 against 4 and 3 on the d8 (count 4 and 4 on the d8)" in flat(
        rendered(view(GAME, battle)))
    chosen = demo_states()[75]  # casualties taken: the defence is to declare again
    assert chosen.attack is not None and chosen.attack.stage == "next"
    assert "last roll: 6, 4 and 1 against 4 and 3 on the d8 (count 4 and 4 on the d8)" in flat(
        rendered(view(GAME, chosen)))


def test_a_team_result_is_told_once() -> None:
    """The winners named once, not "ann and cat won (autobots) (the autobots (ann and cat) won
    ...)"."""
    result = Result(winners=("ann", "cat"), team="autobots",
                    reason="the autobots (ann and cat) won with the most zones")
    assert result_words(result) == "the autobots (ann and cat) won with the most zones"


def test_the_readme_lines_allspark_by_zone_and_roll_without_by() -> None:
    """README, Risk: Transformers: ``allspark card=perihex`` ("The zone shown on the card is
    where the AllSpark brings new life") names the card showing it; ``roll`` needs no ``by=``
    (How to Attack 4, "At the same time": the attacker records both sides' dice)."""
    from tests.games.risk_transformers.test_allspark import PERIHEX, day_over

    state = day_over()
    typed = event_from(parse_action("allspark card=perihex"), GAME.event_types())
    assert GAME.complete(state, "Patrick", typed, Random(1)) == AllSpark(card=PERIHEX)
    battle = demo_states()[72]  # the Battle Example, the defence declared
    line = parse_action("roll attacker=6,4,1 defender=4,d8:3")
    assert line.by is None and GAME.turn(battle).active == ("Patrick",)
    rolled = GAME.step(battle, "Patrick", event_from(line, GAME.event_types()))
    assert rolled.attack is not None and rolled.attack.attacker_dice


def test_robots_of_steps_c_and_d_are_told_before_the_phase_they_end() -> None:
    """Phase 1 C: the sector bonus comes when step B ends; with nothing to place (a scrapheap
    that ran short, A10; its vehicles idle: ``scrap-vehicles=idle``) Phase 1 is over too: the
    receipt is told first, then "Now Phase 2"."""
    state = playing(2, **{"scrap-vehicles": "idle"})
    for place in ("yellow-1", "hexima-state", "kalis", "launch-pad"):
        state = with_zone(state, state.place(place), Zone(owner=OLGA, robots=1))
    state = with_seat(state, OLGA, operational=0, scrap_robots=0)
    after = GAME.apply(state, "Olga", Ended())
    told = told_visit(state, "Olga", Ended(), after)
    assert after.phase == "morph"
    assert told[1].startswith("Olga receives no robots: 0 of 2 for the Yellow sector (2 short)")
    assert told[-1] == "Now Phase 2: morph."


def test_casualties_are_told_as_pieces() -> None:
    """How to Attack 6: the loser "takes a robot from his zone"; Vehicle Form: Bumblebee "move[s]
    to a neighboring zone" instead of the scrapheap: the pieces in words, the escape said."""
    state = started(4)
    bumblebee = next(seat for seat, me in enumerate(state.seats) if me.leader == "bumblebee")
    name = state.name(bumblebee)
    assert recorded(state, "Patrick", Lost(pieces=("vehicle",)), state) == (
        "Patrick chooses the casualties: a vehicle.")
    assert recorded(state, name, Lost(pieces=("robot", "leader"), escape="kalis"), state) == (
        f"{name} chooses the casualties: 1 robot and Bumblebee; Bumblebee escapes to Kalis "
        "instead of the scrapheap.")
