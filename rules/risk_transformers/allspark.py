"""The end of a day and the end of the game (T12, T13, A10, A15, A19).

After the last player's Phase 5 the round waits (phase ``allspark``) for ``allspark card=...``:
"Take the top card from the draw pile. Place it faceup on the discard pile" (an empty pile is the
discards reshuffled, A11; left empty, tabletape turns a card from the seeded generator over the
cards the table has not seen, :func:`turn_card`). "The player who controls this zone immediately
puts 3 robots from his scrapheap on it" (paid in robot units: a vehicle there is exchanged for
3 robots when its robots run short, ``scrap-vehicles=exchange``; else what the scrapheap holds,
A10); then the day marker
moves (:func:`.reinforce.new_day`), and after day 6's AllSpark (A19) the game is over.

The winner is derived (:func:`result`): whoever destroyed every enemy army at once ("Out of
Robots!", 4 players: both armies of the other team), otherwise the most zones at the end of day 6
(team totals with 4 players), a tie for the most going to whoever holds the Launch Pad, "no
matter how many zones he has" — never empty, so a tie always has a winner.
"""

from __future__ import annotations

import random

from msgspec.structs import replace

from tabletape.rules.kernel import ActionSpec, FieldSpec, Result
from tabletape.rules.risk_transformers import data
from tabletape.rules.risk_transformers.backup import reshuffled
from tabletape.rules.risk_transformers.events import AllSpark
from tabletape.rules.risk_transformers.reinforce import new_day
from tabletape.rules.risk_transformers.state import (
    State,
    armies_left,
    is_unseen,
    live_places,
    scrap_units,
    sides,
    take_scrap_robots,
    unseen,
    with_zone,
)
from tabletape.rules.seats import NOBODY
from tabletape.rules.steps import refuse, require_turn

ROUNDS = "Rounds (Days) 1"
LAST_STANDING = "as the last army standing: every enemy army is destroyed"
"""Out of Robots!: "If you destroy all enemy armies, you win the game!" (also when a player
crushes his own last robots: the army left standing has won)."""

# -- the AllSpark ----------------------------------------------------------------------------------


def allspark(state: State, seat: int, event: AllSpark) -> State:
    """``allspark card=...``: "At the end of each round, the last player must: Take the top card
    from the draw pile. Place it faceup on the discard pile"; its zone's controller gets 3
    robots from his scrapheap; then the day marker moves."""
    if state.phase != "allspark":
        refuse("the AllSpark card is turned only at the end of a day, after the last player's "
               "Phase 5", rule=ROUNDS)
    require_turn(state, seat, state.current, "turn the AllSpark card (the last player)")
    state = reshuffled(state)
    if not (event.card and is_unseen(state, event.card)):
        choices = unseen(state)
        what = f"{event.card} is not in the draw pile" if event.card else "name the card turned"
        if event.card and state.board.board.find(event.card) is not None:
            what = (f"no card still in the draw pile shows {event.card}, or several do: name "
                    "the card turned")
        refuse(what, sorted(set(choices)), rule=ROUNDS)
    state = replace(state, pile=state.pile - 1, discard=(*state.discard, event.card))
    return new_day(spark(state, state.board.card(event.card).zone))


def spark(state: State, zone: str) -> State:
    """"The zone shown on the card is where the AllSpark brings new life": the robots of
    :func:`sparked` from its controller's scrapheap onto it."""
    owner, robots = sparked(state, zone)
    if not robots:
        return state
    place = state.place(zone)
    state, _ = take_scrap_robots(state, owner, robots)
    return with_zone(state, place, replace(state.zones[place],
                                           robots=state.zones[place].robots + robots))


def sparked(state: State, zone: str) -> tuple[int, int]:
    """Who the AllSpark on ``zone`` gives robots to and how many: 3 from the scrapheap of the
    player controlling it (paid in robot units, :func:`.state.scrap_units`), or as many as it
    holds (A10); nobody and none on a closed factory, which nobody controls (A3)."""
    owner = state.at(zone).owner
    if owner == NOBODY or state.place(zone) not in live_places(state):
        return NOBODY, 0
    return owner, min(data.ALLSPARK.value, scrap_units(state, owner))


def turn_card(state: State, rng: random.Random) -> str:
    """The card tabletape turns when the table leaves ``card`` empty: one of the cards the table
    has not seen (the draw pile's, reshuffled from the discards when it is empty), drawn from
    the seeded generator, each copy alike."""
    return rng.choice(unseen(reshuffled(state)))


def card_showing(state: State, text: str) -> str:
    """The card meant by ``text`` typed as the table reads it: "The zone shown on the card is
    where the AllSpark brings new life", so a zone (``Perihex``) names the one card still unseen
    that shows it; anything else (a card's id or name, or a zone several unseen cards show) is
    returned as typed, for :func:`allspark` to check."""
    zone = state.board.board.find(text)
    if zone is None or text in state.board.card_ids:
        return text
    showing = {card for card in unseen(reshuffled(state)) if state.board.card(card).zone == zone}
    return showing.pop() if len(showing) == 1 else text


def owed(state: State) -> bool:
    """The round waits for its AllSpark card."""
    return state.phase == "allspark"


def allspark_actions(state: State) -> tuple[ActionSpec, ...]:
    """``allspark [card=...]``, the last player's, while the round waits for it."""
    if not owed(state):
        return ()
    card = FieldSpec(name="card", kind="str", required=False, choices=tuple(
        dict.fromkeys(unseen(reshuffled(state)))), doc="empty: tabletape turns one")
    return (ActionSpec(type="allspark", actors=(state.name(state.current),), fields=(card,),
                       doc=f"the top card turned face up at the end of day {state.day}"),)


# -- the end of the game ---------------------------------------------------------------------------


def zone_totals(state: State) -> dict[int, int]:
    """Each side's zones, an open factory counted ("an open factory counts as a zone")."""
    totals = dict.fromkeys(sides(state), 0)
    for place in live_places(state):
        owner = state.zones[place].owner
        if owner != NOBODY:
            totals[state.seats[owner].team] += 1
    return totals


def result(state: State) -> Result | None:
    """How the game ended, once it is over: the instant win, or the count at the end of day 6."""
    if state.phase != "over":
        return None
    left = armies_left(state)
    if len(left) == 1:
        return side_result(state, left[0], LAST_STANDING)
    return count_result(state)


def count_result(state: State) -> Result:
    """Winning: the most zones, a tie for the most going to the Launch Pad's side."""
    totals = zone_totals(state)
    most = max(totals.values())
    tied = [team for team, zones in totals.items() if zones == most]
    if len(tied) == 1:
        return side_result(state, tied[0], f"with the most zones at the end of day "
                           f"{state.day} ({scores_words(state, totals)})")
    holder = state.at(state.board.launch_pad).owner
    team = state.seats[holder].team
    return side_result(state, team, f"with the Launch Pad, breaking the tie of "
                       f"{' and '.join(side_name(state, t) for t in tied)} at {most} zones "
                       f"({scores_words(state, totals)})")


def side_result(state: State, team: int, why: str) -> Result:
    """The side ``team`` won, ``why`` in table words (``Olga won by ...``)."""
    seats = sides(state)[team]
    winners = tuple(state.name(s) for s in seats)
    faction = f"{state.seats[seats[0]].faction}s" if len(seats) > 1 else None
    return Result(winners=winners, team=faction, reason=f"{side_name(state, team)} won {why}")


def side_name(state: State, team: int) -> str:
    """``Olga``, or with 4 players ``the autobots (Olga and Paula)``."""
    seats = sides(state)[team]
    names = " and ".join(state.name(s) for s in seats)
    if len(seats) == 1:
        return names
    return f"the {state.seats[seats[0]].faction}s ({names})"


def scores_words(state: State, totals: dict[int, int]) -> str:
    """``Olga 22, Patrick 20`` (4 players: each team's total)."""
    return ", ".join(f"{side_name(state, team)} {zones}" for team, zones in
                     sorted(totals.items(), key=lambda item: -item[1]))


def over_words(state: State) -> str:
    """``the game is over: Olga won by ...``, or what the round waits for."""
    found = result(state)
    if found is None:
        return f"day {state.day} is over: {state.name(state.current)} turns the AllSpark card"
    return f"the game is over: {found.reason}"
