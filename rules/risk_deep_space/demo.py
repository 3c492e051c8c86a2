"""A short Risk: Deep Space game as typed at the table, on the default (reconstructed) board.

Olga (red) and Patrick (yellow), two players, so two opposing corners are Deep Space. Olga's
dealt Space Dog, Paw! is activated at once; her Crew crosses the centre for a Gem and invades
Patrick's Inner South. Patrick answers with Air Leak; the Space Dog's +1 wins Olga an exchange
and absorbs her first defeat, but a tie goes to the defender and Patrick holds the planet. Then
Patrick mines and spreads out; Olga trades her cards for a Recruit, crosses Deep Space, and takes
a card with Mail from Mom.
"""

from __future__ import annotations

DEMO_PLAYERS: tuple[str, ...] = ("Olga", "Patrick")

_SETUP = [
    "deal player=olga cards=space-dog-paw,energy-boost",
    "play card=space-dog-paw planet=red-station by=olga",
    "deal player=patrick cards=tractor-beam,air-leak",
    "cover planets=nw-corner,se-corner",
    "roll-off dice=4,4",
    "roll-off dice=5,2",
]

_FIRST_ROUND = [
    "draw cards=bribe-a-rival",
    "recruit count=1",
    "move from=red-station to=north-inner count=4",
    "end",
    "recruit count=2",
    "move from=yellow-station to=south-inner count=5",
    "end",
]

_BATTLE = [
    "mine planet=north-inner resource=gem",
    "move from=north-inner to=south-inner count=4",
    "play card=air-leak by=patrick",
    "pass by=patrick",
    "battle attacker=5 defender=5",
    "battle attacker=2 defender=4",
    "battle attacker=3 defender=3",
    "end",
]

_AFTER = [
    "draw cards=tractor-beam",
    "mine planet=south-inner resource=ore",
    "move from=south-inner to=s1 count=2",
    "end",
    "trade-cards",
    "move from=red-station to=n1 count=1",
    "move from=n1 to=w1 count=1",
    "end",
    "mine planet=s1 resource=ore",
    "move from=s1 to=sw-corner count=2",
    "end",
    "draw cards=mail-from-mom,good-space-dog",
    "play card=mail-from-mom take=energy-boost",
    "end",
]


def demo_actions() -> list[str]:
    """The demo game, one typed action per line (``by=NAME`` where the actor is not implied)."""
    return [*_SETUP, *_FIRST_ROUND, *_BATTLE, *_AFTER]
