"""Faults an independent audit of the recording found (issue 11): timing, refusals, wording."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tabletape.replay.games.risk_strike import narrate
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.events import Deployed
from tabletape.rules.risk_strike.state import DEPLOYED, HELPERS_STEP, RALLY, SPY, TROOP, seat_of

from .helpers import dealt, parse, play, start

PLAYERS = ("Olga", "Patrick", "Carol")
HANDS = (
    "continents=asia,asia,asia tactics=troop,troop,troop",
    "continents=europe,europe,europe tactics=troop,troop,troop",
    "continents=africa,africa,asia tactics=sabotage,artillery,canceled-orders",
)


def battle(*lines: str):
    """Olga (Asia 3) attacks Patrick's Europe (3); Carol holds Sabotage, Artillery and Canceled
    Orders."""
    state = dealt(PLAYERS, *HANDS)
    return play(state, "draw tactics=2", "attack from=asia target=europe defender=patrick", *lines)


def told(state, *lines: str) -> list[str]:
    """The narration of each line, played one after the other from ``state``."""
    sentences = []
    for line in lines:
        actor, event = parse(state, line)
        after = play(state, line)
        who = state.name(seat_of(state, actor))
        visit = SimpleNamespace(before=state, after=after, event=event,
                                record=SimpleNamespace(actor=who))
        sentences.append(" ".join(narrate(visit)))
        state = after
    return sentences


# -- 1. Sabotage and Artillery during the helpers' step ----------------------------------------


def test_sabotage_in_the_helpers_step_ends_deployment_and_the_battle() -> None:
    """Sabotage: 'Play immediately after troops are deployed to end the battle.' Attack Phase 2,
    3: 'After the attacker and defender have deployed troop cards, other players may deploy':
    once both have, a Sabotage by anyone closes the helpers' step and ends the battle."""
    state = battle("deploy troops=1 by=olga", "deploy troops=1 by=patrick")
    assert state.battle.deploy_step == HELPERS_STEP
    (plays,) = [action for action in RULES.legal_actions(state) if action.type == "play"]
    assert "Carol" in plays.actors and "sabotage" in plays.fields[0].choices
    state = play(state, "play card=sabotage by=carol")
    assert state.battle.deploy_step == DEPLOYED
    assert "deploy" not in [action.type for action in RULES.legal_actions(state)]
    state = play(state, "resolve")  # nobody cancels it
    assert state.battle is None
    assert state.seats[0].known[TROOP] == 3 and state.seats[1].known[TROOP] == 3  # back to hands


def test_artillery_in_the_helpers_step_closes_it() -> None:
    """Artillery: 'Play anytime after troops are deployed.' After the attacker's and the
    defender's entries, Artillery is played in the helpers' step, which it ends."""
    state = battle("deploy troops=1 by=olga", "deploy troops=2 by=patrick",
                   "play card=artillery target=patrick by=carol", "resolve")
    assert state.battle.side_troops("defender") == 0
    assert state.battle.step == "ready"


def test_artillery_and_sabotage_wait_for_the_defender() -> None:
    """Attack Phase 2: 'After the attacker and defender have deployed troop cards...': before
    the defender's entry troops are not deployed, and Sabotage is refused with that reason."""
    state = battle("deploy troops=1 by=olga")
    with pytest.raises(IllegalAction, match="after troops are deployed: Patrick, the defender"):
        play(state, "play card=sabotage by=carol")


def test_a_canceled_sabotage_still_ends_the_helpers_step() -> None:
    """Canceled Orders: 'cancel that card'. Reading: the Sabotage was played 'after troops are
    deployed', so deployment is over; cancelling it changes nothing else, the attacker rolls."""
    hands = (HANDS[0], "continents=europe,europe,europe tactics=troop,troop,canceled-orders",
             HANDS[2])
    state = play(dealt(PLAYERS, *hands), "draw tactics=2",
                 "attack from=asia target=europe defender=patrick",
                 "deploy troops=1 by=olga", "deploy troops=1 by=patrick",
                 "play card=sabotage by=carol", "play card=canceled-orders by=patrick")
    with pytest.raises(IllegalAction, match="Attack Phase 2, which is over"):
        play(state, "deploy troops=1 side=defender by=patrick")
    state = play(state, "roll attacker=6,6,6 defender=1,1")
    assert state.battle.rolls == 1


# -- 2. negative troops from the attacker or the defender --------------------------------------


def test_the_attacker_and_defender_deploy_zero_or_more() -> None:
    """Attack Phase 2: 'You may now deploy troops by playing any number of troop tactics cards':
    the attacker and the defender answer with troops=0 or more, not a helper's words."""
    state = battle()
    with pytest.raises(IllegalAction, match="Olga deploys 0 troops or more") as error:
        play(state, "deploy troops=-1 by=olga")
    assert "need not say so" not in str(error.value)
    state = play(state, "deploy troops=0 by=olga")
    with pytest.raises(IllegalAction, match="Patrick deploys 0 troops or more"):
        play(state, "deploy troops=-2 by=patrick")


# -- 3. refusals before the defender's answer --------------------------------------------------


@pytest.mark.parametrize("line", ["roll", "roll by=olga", "resolve", "resolve by=olga",
                                  "retreat by=olga", "roll by=carol"])
def test_battle_actions_before_the_defender_answers_name_the_pending_answer(line: str) -> None:
    """Attack Phase 2, 2: 'The defender deploys any number of troop cards from their hand' before
    Phase 3: a roll, resolve or retreat before that answer is refused for it, and the allowed
    action is the one that answers (deploy by Patrick)."""
    state = battle("deploy troops=1 by=olga")
    with pytest.raises(IllegalAction, match="Patrick, the defender, deploys or declines") as err:
        play(state, line)
    assert "deploy" in err.value.allowed and "roll" not in err.value.allowed
    assert "by=Patrick" in err.value.reason


def test_retreat_before_any_roll_in_the_ready_step_names_the_roll() -> None:
    """After the Roll Has Been Resolved: retreat follows a roll; once deployed the roll is
    allowed and named."""
    state = battle("deploy troops=0 by=olga", "deploy troops=0 by=patrick", "resolve")
    with pytest.raises(IllegalAction, match="rolls at least once") as error:
        play(state, "retreat")
    assert error.value.allowed == ("roll",)


# -- 4. Canceled Orders on a troop --------------------------------------------------------------


def test_canceled_orders_cannot_cancel_a_troop_card() -> None:
    """Canceled Orders: 'You cannot cancel a troop card.'"""
    state = battle("deploy troops=1 by=olga")
    with pytest.raises(IllegalAction, match="cannot cancel a troop card"):
        play(state, "play card=canceled-orders by=carol")


# -- 5. deploy needs a count ---------------------------------------------------------------------


def test_a_bare_deploy_is_refused_and_asks_how_many() -> None:
    """Attack Phase 2: 'deploy troops by playing any number of troop tactics cards': the number
    is the table's to say (troops=0 for none), never assumed."""
    state = battle()
    with pytest.raises(IllegalAction, match="say how many troops Olga deploys"):
        play(state, "deploy by=olga")
    assert "troops" in [f.name for a in RULES.legal_actions(state) if a.type == "deploy"
                        for f in a.fields if f.required]


def test_stored_deploy_entries_keep_their_count() -> None:
    """Stored payloads always carry ``troops`` (the encoder leaves no field out): an old
    ``{"troops":1}`` still folds as one troop, and the typed form shows the count."""
    import msgspec

    from tabletape.ledger.codec import encode_payload
    from tabletape.replay.fold import action_text

    assert encode_payload(Deployed(troops=1)) == b'{"troops":1,"side":""}'
    event = msgspec.json.decode(b'{"type":"deploy","troops":1,"side":""}', type=Deployed)
    assert event.troops == 1 and action_text(event) == "deploy troops=1"


def test_one_troop_is_narrated_with_its_count() -> None:
    """Narration names the count of every deployment: 'Olga deploys 1 troop.'"""
    assert told(battle(), "deploy troops=1 by=olga") == ["Olga deploys 1 troop."]


# -- 7. narration --------------------------------------------------------------------------------


def test_the_roll_that_ends_a_battle_is_narrated_with_its_losses() -> None:
    """Resolve Wins / After the Roll Has Been Resolved: the last roll's pairs and losses are told
    like any other roll's."""
    hands = (HANDS[0], "continents=europe,asia,asia tactics=troop,troop,troop", HANDS[2])
    state = play(dealt(PLAYERS, *hands), "draw tactics=2",
                 "attack from=asia target=europe defender=patrick",
                 "deploy troops=0 by=olga", "deploy troops=1 by=patrick", "resolve",
                 "roll attacker=6,6,6 defender=1,1")
    (text,) = told(state, "resolve")
    assert "The roll is resolved: Olga wins 2 pairs, Patrick 0." in text
    assert "Patrick loses 1 troop." in text
    assert "Patrick gives Olga a Europe card." in text
    assert "The battle is over." in text


def test_canceled_orders_narrates_whether_the_card_stands() -> None:
    """Canceled Orders: 'Play immediately after a player plays a tactics card to cancel that
    card': the narration says the card is cancelled, or stands again."""
    hands = (HANDS[0], "continents=europe,europe,europe tactics=troop,canceled-orders,troop",
             HANDS[2])
    state = play(dealt(PLAYERS, *hands), "draw tactics=2",
                 "attack from=asia target=europe defender=patrick",
                 "deploy troops=1 by=olga", "deploy troops=1 by=patrick")
    first, second = told(state, "play card=sabotage by=carol",
                         "play card=canceled-orders by=patrick")
    assert first == "Carol plays Sabotage."
    assert second == "Patrick plays Canceled Orders. Carol's Sabotage is canceled."
    state = play(state, "play card=sabotage by=carol", "play card=canceled-orders by=patrick")
    (again,) = told(state, "play card=canceled-orders by=carol")
    assert again == "Carol plays Canceled Orders. Carol's Sabotage stands."


def test_sabotage_effect_is_narrated() -> None:
    """Sabotage: 'Any active troop cards return to the players' hands'."""
    state = battle("deploy troops=1 by=olga", "deploy troops=2 by=patrick",
                   "play card=sabotage by=carol")
    (text,) = told(state, "resolve")
    assert "Sabotage ends the battle: Olga takes back 1 troop, Patrick 2 troops." in text


def test_a_battle_declaration_does_not_foretell_the_dice() -> None:
    """Attack Phase 3 counts the dice after Phase 2: the declaration names no dice."""
    state = play(dealt(PLAYERS, *HANDS), "draw tactics=2")
    (text,) = told(state, "attack from=asia target=europe defender=patrick")
    assert text.startswith("Olga attacks Patrick's Europe from Asia.")
    assert "dice" not in text


def test_an_artillery_has_its_article() -> None:
    """Grammar: 'an Artillery', 'an Expand'."""
    state = battle("deploy troops=1 by=olga", "deploy troops=2 by=patrick")
    (text,) = told(state, "play card=artillery target=patrick by=carol")
    assert "a Artillery" not in text
    from tabletape.replay.games.risk_strike import tactics_words
    assert tactics_words(["artillery", "expand", "troop"]) == "an Artillery, an Expand and a Troop"


# -- 8. grammar ----------------------------------------------------------------------------------


def test_one_card_is_singular_in_refusals() -> None:
    """Refusals count '1 Europe card', '1 Troop card'."""
    state = play(dealt(PLAYERS, "continents=asia,asia,asia tactics=spy,spy,rally", *HANDS[1:]),
                 "draw continents=asia,asia", "attack from=asia target=europe defender=patrick")
    with pytest.raises(IllegalAction, match=r"Olga cannot have 1 Troop card in hand"):
        play(state, "deploy troops=1 by=olga")
    state = start(("Olga", "Patrick"))
    state = play(state, "deal player=olga continents=asia,asia,asia",
                 "deal player=patrick continents=europe,europe,europe", "roll-off dice=6,1")
    with pytest.raises(IllegalAction, match=r"Patrick is dealt 1 continent card, not 2"):
        play(state, "deal player=patrick continents=africa,asia")


# -- 9. the extra setup tactics card -------------------------------------------------------------


def test_the_extra_setup_tactics_card_may_be_named_in_a_two_player_game() -> None:
    """Game Setup 6: 'All players except the player going first draw an additional tactics card.
    (In a two-player game, the player who does not go first also draws an additional continent
    card...)': a table dealing openly names it with the fourth continent card."""
    state = dealt(("Olga", "Patrick"), "continents=asia,asia,asia tactics=troop,troop,troop",
                  "continents=europe,europe,europe tactics=troop,troop,troop",
                  fourth="africa tactics=spy")
    assert state.seats[1].known[SPY] == 1 and state.seats[1].unknown == 0
    assert state.seats[1].continents == dealt(("Olga", "Patrick"), "continents=asia,asia,asia",
                                              "continents=europe,europe,europe").seats[1].continents
    with pytest.raises(IllegalAction, match="named already"):
        play(state, "deal player=patrick tactics=rally by=table")


def test_the_extra_setup_tactics_card_may_stay_face_down() -> None:
    """Game Setup 6 (a table not dealing openly): ``tactics=1`` or nothing leaves it face
    down, as before."""
    state = dealt(("Olga", "Patrick"), "continents=asia,asia,asia tactics=troop,troop,troop",
                  "continents=europe,europe,europe tactics=troop,troop,troop",
                  fourth="africa tactics=1")
    assert state.seats[1].unknown == 1


def test_the_extra_setup_tactics_card_may_be_named_with_three_players() -> None:
    """Game Setup 6 with three players: each player but the first may be dealt the additional
    tactics card by name (``deal player=NAME tactics=rally``) before the first player's first
    entry, or leave it face down."""
    state = start(PLAYERS)
    for name, hand in zip(PLAYERS, HANDS, strict=True):
        state = play(state, f"deal player={name} {hand}")
    state = play(state, "roll-off dice=6,1,1")
    deal = [action for action in RULES.legal_actions(state) if action.type == "deal"]
    assert deal and deal[0].fields[0].choices == ("Patrick", "Carol")
    state = play(state, "deal player=patrick tactics=rally by=table")
    assert state.seats[1].known[RALLY] == 1 and state.seats[1].unknown == 0
    with pytest.raises(IllegalAction, match="Olga goes first"):
        play(state, "deal player=olga tactics=rally")
    with pytest.raises(IllegalAction, match="named already"):
        play(state, "deal player=patrick tactics=rally by=table")
    with pytest.raises(IllegalAction, match="draws 1 additional tactics card, not 2"):
        play(state, "deal player=carol tactics=sabotage,1")
    state = play(state, "draw tactics=2")
    with pytest.raises(IllegalAction, match="the cards have been dealt"):
        play(state, "deal player=carol tactics=spy by=table")


def test_naming_the_extra_card_is_narrated() -> None:
    """Game Setup 6's additional tactics card, named: the narration says which it is."""
    state = start(PLAYERS)
    for name, hand in zip(PLAYERS, HANDS, strict=True):
        state = play(state, f"deal player={name} {hand}")
    state = play(state, "roll-off dice=6,1,1")
    visit = SimpleNamespace(before=state, after=play(state, "deal player=Carol tactics=spy"),
                            event=parse(state, "deal player=Carol tactics=spy")[1],
                            record=SimpleNamespace(actor="table"))
    assert narrate(visit) == ["The table deals Carol a Spy (the additional tactics card)."]


def test_a_tactics_reshuffle_is_narrated() -> None:
    """More to Know: 'If the tactics card deck ever runs out, shuffle the discard pile to create
    a new deck.'"""
    from .helpers import deck_into_hand

    state = battle("deploy troops=1 by=olga", "deploy troops=0 by=patrick", "resolve",
                   "roll attacker=1,1,1 defender=6,6", "retreat")  # a Troop in the discard pile
    state = deck_into_hand(state, 2)
    (text,) = told(state, "draw tactics=troop")
    assert "The tactics deck ran out: the discard pile is shuffled into a new deck." in text


@pytest.mark.parametrize("line", ["roll", "retreat", "deploy troops=1 side=attacker by=carol"])
def test_battle_entries_after_a_waiting_sabotage_name_it(line: str) -> None:
    """Sabotage: 'Play immediately after troops are deployed to end the battle'; Canceled Orders
    may still answer it: a battle entry meanwhile is refused for the Sabotage, not for a battle
    already gone."""
    state = battle("deploy troops=1 by=olga", "deploy troops=1 by=patrick",
                   "play card=sabotage by=carol")
    with pytest.raises(IllegalAction, match="Carol's Sabotage ends the battle unless") as error:
        play(state, line)
    assert error.value.allowed == ("play", "resolve")
