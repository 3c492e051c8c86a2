"""Attack Phases 1 to 3: declare, deploy, roll and resolve."""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from tabletape.rules import dice
from tabletape.rules.kernel import IllegalAction
from tabletape.rules.risk_strike import RULES
from tabletape.rules.risk_strike.state import CONTINENTS, roll_resolved

from .helpers import dealt, parse, play

ASIA, EUROPE, AFRICA = (CONTINENTS.index(c) for c in ("asia", "europe", "africa"))
PLAYERS = ("Olga", "Patrick", "Carol")
HANDS = (
    "continents=asia,asia,asia tactics=troop,troop,troop",
    "continents=europe,europe,europe tactics=troop,troop,troop",
    "continents=africa,africa,asia tactics=troop,troop,troop",
)


def battle(*lines: str):
    """Olga (Asia 3) attacks Patrick's Europe (3); Carol (Africa 2, Asia 1) looks on."""
    state = dealt(PLAYERS, *HANDS)
    return play(state, "draw tactics=2", "attack from=asia target=europe defender=patrick", *lines)


NO_TROOPS = ("deploy troops=0 by=olga", "deploy troops=0 by=patrick")
"""Attack Phase 2 with no troops deployed by the attacker and the defender."""


def fought(*lines: str):
    """:func:`battle` past the attacker's and the defender's deploying steps, with no troops."""
    return battle(*NO_TROOPS, *lines)


def test_attack_from_a_continent_you_hold() -> None:
    """Attack Phase 1: 'You can attack from any continent that you have continent cards of.'"""
    state = play(dealt(PLAYERS, *HANDS), "draw tactics=2")
    with pytest.raises(IllegalAction, match="Olga has no Africa cards to attack from") as error:
        play(state, "attack from=africa target=europe defender=patrick")
    assert error.value.allowed == ("asia",)


def test_attack_the_same_or_a_connected_continent() -> None:
    """Attack Phase 1: 'Africa can attack Africa, South America, Europe, and Asia. Africa cannot
    attack North America or Australia'."""
    state = dealt(PLAYERS, HANDS[2], HANDS[1], "continents=north-america,australia,africa")
    state = play(state, "draw tactics=2")
    with pytest.raises(IllegalAction, match="Africa is not connected to North America"):
        play(state, "attack from=africa target=north-america defender=carol")
    with pytest.raises(IllegalAction, match="Africa is not connected to Australia"):
        play(state, "attack from=africa target=australia defender=carol")
    for target, defender in (("europe", "patrick"), ("africa", "carol")):
        assert play(state, f"attack from=africa target={target} defender={defender}").battle


def test_attack_one_other_players_cards() -> None:
    """Attack Phase 1: 'choose one other player as your opponent and declare which continent
    cards of theirs you're attacking.'"""
    state = play(dealt(PLAYERS, *HANDS), "draw tactics=2")
    with pytest.raises(IllegalAction, match="one other player"):
        play(state, "attack from=asia target=asia defender=olga")
    with pytest.raises(IllegalAction, match="Patrick has no Asia cards to attack") as error:
        play(state, "attack from=asia target=asia defender=patrick")
    assert error.value.allowed == ("europe",)


def test_deploy_attacker_then_defender_then_others() -> None:
    """Attack Phase 2: 1. the attacker deploys, 2. 'The defender deploys', 3. 'After the
    attacker and defender have deployed troop cards, other players may deploy'."""
    state = battle("deploy troops=2 by=olga", "deploy troops=1 by=patrick")
    with pytest.raises(IllegalAction, match="Olga has deployed"):
        play(state, "deploy troops=1 by=olga")
    state = play(state, "deploy troops=1 side=defender by=carol")
    with pytest.raises(IllegalAction, match="Patrick has deployed"):
        play(state, "deploy troops=1 by=patrick")
    assert [(state.name(t.owner), t.side) for t in state.battle.troops] == [
        ("Olga", "attacker"),
        ("Olga", "attacker"),
        ("Patrick", "defender"),
        ("Carol", "defender"),
    ]


def test_deployment_follows_its_steps_not_the_order_of_recording() -> None:
    """Attack Phase 2: '1. You may now deploy troops ... 2. The defender deploys ... 3. After
    the attacker and defender have deployed troop cards, other players may deploy': an entry
    out of its step is refused with the step's reason and closes nobody's step."""
    state = battle()
    for early in ("deploy troops=1 by=patrick", "deploy troops=1 side=defender by=carol"):
        with pytest.raises(IllegalAction, match="Olga deploys first") as error:
            play(state, early)
        assert error.value.allowed == ("Olga",)
    state = play(state, "deploy troops=0 by=olga")  # Olga declines
    with pytest.raises(IllegalAction, match="Patrick, the defender, deploys or declines first"):
        play(state, "deploy troops=1 side=defender by=carol")  # a helper early
    state = play(state, "deploy troops=2 by=patrick")  # Patrick has not lost his step
    assert state.battle.side_troops("defender") == 2


def test_the_roll_waits_for_the_attacker_and_the_defender() -> None:
    """Attack Phase 2 comes before Phase 3: the attacker's roll does not end the defender's
    chance to deploy ('2. The defender deploys any number of troop cards')."""
    state = battle()
    with pytest.raises(IllegalAction, match="Olga deploys first"):
        play(state, "roll attacker=6,6,6 defender=1,1")
    state = play(state, "deploy troops=1 by=olga")
    with pytest.raises(IllegalAction, match="Patrick, the defender, deploys or declines first"):
        play(state, "roll attacker=6,6,6 defender=1,1")
    state = play(state, "deploy troops=0 by=patrick")
    assert play(state, "roll attacker=6,6,6 defender=1,1").battle.rolls == 1


def test_the_roll_or_resolve_closes_the_helpers_step() -> None:
    """Attack Phase 2, 3 (our reading): 'other players may deploy' while the attacker has not
    rolled; ``resolve`` says no more helpers deploy (then Sabotage may follow); a helper helps
    one side in a battle."""
    state = battle("deploy troops=0 by=olga", "deploy troops=0 by=patrick")
    assert state.battle.step == "deploy"
    helped = play(state, "deploy troops=1 side=attacker by=carol")
    with pytest.raises(IllegalAction, match="Carol helps the attacker in this battle"):
        play(helped, "deploy troops=1 side=defender by=carol")
    assert play(helped, "deploy troops=1 side=attacker by=carol").battle.side_troops(
        "attacker") == 2
    closed = play(state, "resolve")
    assert closed.battle.step == "ready"
    with pytest.raises(IllegalAction, match="only in Attack Phase 2"):
        play(closed, "deploy troops=1 side=attacker by=carol")


def test_two_players_deploy_in_two_steps() -> None:
    """Attack Phase 2: with two players there are no other players to deploy: the defender's
    entry ends deployment."""
    state = dealt(("Olga", "Patrick"), HANDS[0], HANDS[1])
    state = play(state, "draw tactics=2", "attack from=asia target=europe defender=patrick",
                 "deploy troops=1", "deploy troops=0")
    assert state.battle.step == "ready"


def test_only_the_player_of_the_step_may_deploy() -> None:
    """Attack Phase 2, in order: the attacker, the defender, then the other players; so the one
    player of a step is the one allowed (by= may be left out)."""
    state = battle()
    assert deployers(state) == ("Olga",) and "roll" not in action_types(state)
    state = play(state, "deploy troops=1")
    assert state.battle.troops[-1].owner == 0
    assert deployers(state) == ("Patrick",) and "roll" not in action_types(state)
    state = play(state, "deploy troops=1")  # a second deploy with no by=: Patrick's step
    assert state.battle.troops[-1].owner == 1
    assert deployers(state) == ("Carol",) and "roll" in action_types(state)
    assert RULES.turn(state).active == ("Olga",)  # Carol may deploy; Olga rolls next


def deployers(state) -> tuple[str, ...]:
    return next(spec.actors for spec in RULES.legal_actions(state) if spec.type == "deploy")


def action_types(state) -> set[str]:
    return {spec.type for spec in RULES.legal_actions(state)}


def test_helpers_name_a_side() -> None:
    """Attack Phase 2, 3: other players deploy 'to help the attacker or the defender'."""
    with pytest.raises(IllegalAction, match="deploys for their own side"):
        play(battle(), "deploy troops=1 side=defender by=olga")
    state = fought()
    with pytest.raises(IllegalAction, match="Carol helps a side"):
        play(state, "deploy troops=1 by=carol")
    state = play(state, "deploy troops=1 side=olga by=carol")
    assert state.battle.troops[0].side == "attacker"


def test_deploy_needs_troop_cards() -> None:
    """Tactics Cards, Troop: 'Play during any Attack Phase 2 to deploy a troop.'"""
    state = battle()
    with pytest.raises(IllegalAction, match="cannot have 6 Troop cards"):
        play(state, "deploy troops=6 by=olga")  # 3 Troops seen, 2 cards face down
    with pytest.raises(IllegalAction, match="played with deploy"):
        play(state, "play card=troop by=olga")
    state = play(state, "deploy troops=0 by=olga", "deploy troops=0 by=patrick",
                 "roll attacker=1,1,1 defender=6,6")
    with pytest.raises(IllegalAction, match="only in Attack Phase 2"):
        play(state, "deploy troops=1 by=olga")


def test_dice_count_cards_plus_troops_at_most_three_and_two() -> None:
    """Roll Dice: 'count your attacking continent cards and active troop cards and roll that
    many red dice. You can roll a maximum of three.' Defender: 'a maximum of two.'"""
    state = fought()
    with pytest.raises(IllegalAction, match=r"roll 3 dice \(Olga's attack: 3 Asia cards \+ 0"):
        play(state, "roll attacker=6,5 defender=1,1")
    with pytest.raises(IllegalAction, match="roll 2 dice"):
        play(state, "roll attacker=6,5,4 defender=1,1,1")
    with pytest.raises(IllegalAction, match="a die shows 1 to 6, not 7"):
        play(state, "roll attacker=7,5,4 defender=1,1")
    state = play(state, "roll attacker=6,6,6 defender=1,1", "resolve")
    with pytest.raises(IllegalAction, match=r"roll 1 die \(Patrick's defence: 1 Europe"):
        play(state, "roll attacker=6,6,6 defender=1,1")


def test_pairs_highest_first_ties_to_the_defender() -> None:
    """Roll Dice: 'line up the dice you rolled from highest to lowest ... If there's a tie, the
    defender wins.'"""
    state = fought("roll attacker=2,6,4 defender=4,5", "resolve")
    assert state.battle.last.winners == ("attacker", "defender")
    assert state.seats[0].continents[ASIA] == 2 and state.seats[1].continents[EUROPE] == 2


def test_a_lost_pair_costs_a_troop_before_a_card() -> None:
    """Resolve Wins: 'the defender must discard an active troop card. If they have no active
    troop cards, they must give the attacker one continent card from the defending continent';
    the attacker's goes 'to the continent card surrender space.'"""
    state = battle(
        "deploy troops=1 by=olga",
        "deploy troops=1 by=patrick",
        "roll attacker=6,1,1 defender=5,5",
        "resolve",
    )
    assert state.battle.troops == () and state.discard[0] == 2
    assert (state.battle.attack_cards, state.battle.defend_cards) == (3, 3)
    state = play(state, "roll attacker=6,1,1 defender=5,5", "resolve")
    assert state.battle.defend_cards == 2 and state.seats[0].continents[EUROPE] == 1
    assert state.battle.attack_cards == 2 and state.lineup[ASIA] == 1


def test_a_claimed_card_is_not_active() -> None:
    """Resolve Wins, Note: 'A continent card claimed during battle cannot be used as an active
    card in that battle.'"""
    state = dealt(PLAYERS, "continents=europe,europe,asia", HANDS[1], HANDS[2])
    state = play(
        state,
        "draw tactics=2",
        "attack from=europe target=europe defender=patrick",
        *NO_TROOPS,
        "roll attacker=6,6 defender=1,1",
        "resolve",
    )
    assert state.seats[0].continents[EUROPE] == 4
    assert state.battle.attack_cards == 2
    with pytest.raises(IllegalAction, match="roll 2 dice"):
        play(state, "roll attacker=6,6,6 defender=1")


def test_the_battle_ends_when_the_defending_cards_are_gone() -> None:
    """After the Roll Has Been Resolved: 'If there are no defending continent cards remaining,
    the battle ends and the attacker's turn is over.'"""
    state = fought("roll attacker=6,6,6 defender=1,1", "roll attacker=6,6,6 defender=1")
    assert state.battle.roll is not None
    state = play(state, "resolve")
    assert state.battle is None and state.name(state.current) == "Patrick"
    assert state.seats[0].continents[EUROPE] == 3 and state.seats[1].continents[EUROPE] == 0


def test_the_battle_ends_when_the_attacking_cards_are_gone() -> None:
    """After the Roll Has Been Resolved: the attacker continues only 'If there are defending
    continent cards and attacking continent cards remaining'."""
    state = fought("roll attacker=1,1,1 defender=6,6", "roll attacker=1 defender=6,6", "resolve")
    assert state.battle is None and state.lineup[ASIA] == 3


def test_the_attacker_may_stop_after_a_roll() -> None:
    """After the Roll Has Been Resolved: 'the attacker can choose to continue the battle'."""
    state = fought()
    with pytest.raises(IllegalAction, match="rolls at least once"):
        play(state, "retreat")
    state = play(state, "roll attacker=6,2,1 defender=3,2")
    with pytest.raises(IllegalAction, match="the attacker, Olga, rolls"):
        play(state, "roll attacker=6,2,1 defender=3,2 by=patrick")
    state = play(state, "retreat")
    assert state.battle is None and state.seats[0].continents[EUROPE] == 1


def test_remaining_troops_are_discarded_after_the_battle() -> None:
    """After the Roll Has Been Resolved: 'After the battle, players discard any remaining active
    troop cards.'"""
    state = battle(
        "deploy troops=2 by=olga",
        "deploy troops=0 by=patrick",
        "deploy troops=1 side=defender by=carol",
        "roll attacker=6,6,6 defender=1,1",
        "retreat",
    )
    assert state.discard[0] == 3 and state.battle is None


def test_helpers_troops_are_lost_after_the_sides_own() -> None:
    """Attack Phase 2, 3 and Resolve Wins (our reading): helpers' troops add dice to the side they
    help; a lost pair costs the side its own player's troops first, then the helpers'."""
    state = battle(
        "deploy troops=0 by=olga",
        "deploy troops=1 by=patrick",
        "deploy troops=1 side=defender by=carol",
        "roll attacker=6,1,1 defender=5,1",
        "resolve",
    )
    assert [state.name(t.owner) for t in state.battle.troops] == ["Carol"]
    state = play(state, "roll attacker=6,6 defender=1,1", "resolve")
    assert state.battle.troops == () and state.battle.defend_cards == 2


def test_the_table_names_whose_troop_a_lost_pair_costs() -> None:
    """Resolve Wins: 'If the attacker's die is higher, the defender must discard an active troop
    card' (any of the side's active troops: ``resolve lost=NAME`` says whose, pair by pair; by
    default the side's own player's first, then helpers')."""
    state = battle(
        "deploy troops=0 by=olga",
        "deploy troops=1 by=patrick",
        "deploy troops=1 side=defender by=carol",
        "roll attacker=6,1,1 defender=5,1",
    )
    assert owners(play(state, "resolve")) == ["Carol"]
    chosen = play(state, "resolve lost=carol")
    assert owners(chosen) == ["Patrick"] and chosen.lineup[ASIA] == 1
    with pytest.raises(IllegalAction, match="Olga has no active troop on the defender's side"):
        play(state, "resolve lost=olga")
    with pytest.raises(IllegalAction, match="1 lost pair costs a troop in this roll, not 2"):
        play(state, "resolve lost=carol,patrick")


def owners(state) -> list[str]:
    return [state.name(troop.owner) for troop in state.battle.troops]


def test_complete_rolls_missing_dice() -> None:
    """Roll Dice: left empty, tabletape rolls as many dice as the rules allow."""
    state = battle("deploy troops=0 by=olga", "deploy troops=1 by=patrick",
                   "roll attacker=6,6,6 defender=1,1")
    actor, event = parse(state, "roll")
    filled = RULES.complete(state, actor, event, random.Random(5))
    assert (len(filled.attacker), len(filled.defender)) == (3, 2)  # after the open roll resolves
    actor, event = parse(state, "roll attacker=1,2,3")
    filled = RULES.complete(state, actor, event, random.Random(5))
    assert filled.attacker == (1, 2, 3) and len(filled.defender) == 2
    play(state, "resolve")


def test_the_state_records_the_roll_each_resolution_resolved() -> None:
    """What narration and the catalog read (:func:`roll_resolved`): the roll as resolved, with
    the pairs' winners; an event that resolves no roll has none, and each resolution counts."""
    rolled = fought("roll attacker=6,3,2 defender=5,4")
    assert roll_resolved(fought(), rolled) is None
    resolved = play(rolled, "resolve")
    roll = roll_resolved(rolled, resolved)
    assert roll is not None and (roll.attacker, roll.defender) == ((6, 3, 2), (5, 4))
    assert roll.winners == (dice.ATTACKER, dice.DEFENDER)
    again = play(resolved, "roll attacker=1,1 defender=6,6")
    assert roll_resolved(resolved, again) is None
    last = play(again, "retreat")
    assert roll_resolved(again, last) == replace(roll, attacker=(1, 1), defender=(6, 6),
                                                 winners=(dice.DEFENDER, dice.DEFENDER))
    assert last.resolved is not None and last.resolved.number == 2
