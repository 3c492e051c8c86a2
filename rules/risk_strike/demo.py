"""A short Risk Strike game as typed at the table, around the rulebook's example battle.

Olga and Patrick, two players. Patrick's raid on Olga's South America shows Bombard answered by
Canceled Orders; on her second turn Olga plays Expand, takes the South America coin, and then
fights the rulebook's example battle (Olga attacks Patrick's Europe from Asia; troops 1 and 2;
the rolls of "Example Battle (Continued)"; the Rally card). Taking Patrick's last Europe card
gives her five Europe cards: the Europe coin, her second, and the game.
"""

from __future__ import annotations

DEMO_PLAYERS: tuple[str, ...] = ("Olga", "Patrick")

_SETUP = [
    "deal player=olga continents=asia,asia,europe tactics=troop,2",
    "deal player=patrick continents=europe,europe,africa tactics=troop,troop,1",
    "roll-off dice=4,4",
    "roll-off dice=6,2",
    "deal player=patrick continents=africa",
]

_FIRST_ROUND = [
    "draw continents=asia,south-america",
    "pass",
    "draw continents=europe tactics=1",
    "attack from=africa target=south-america defender=olga",
    "deploy troops=0",
    "deploy troops=0",
    "roll attacker=3,2 defender=5",
    "play card=bombard side=attacker die=3 by=patrick",
    "play card=canceled-orders by=olga",
    "resolve",
    "retreat",
]

_EXAMPLE_BATTLE = [
    "play card=expand",
    "draw continents=asia,europe",
    "draw continents=south-america,south-america",
    "attack from=asia target=europe defender=patrick",
    "deploy troops=1",
    "deploy troops=2",
    "roll attacker=6,5,2 defender=4,3",
    "roll attacker=4,2,1 defender=5,3",
    "roll attacker=5,4,1 defender=5,2",
    "roll attacker=4,1 defender=5,3",
    "play card=rally by=olga",
    "roll attacker=5 defender=3",
    "resolve",
]


def demo_actions() -> list[str]:
    """The demo game, one typed action per line (``by=NAME`` where the actor is not implied)."""
    return [*_SETUP, *_FIRST_ROUND, *_EXAMPLE_BATTLE]
