"""A short Marvel United game as typed at the table: Red Skull against Iron Man and Captain
America, around the rulebook's examples.

Red Skull moves 2 locations and triggers the Threat at his destination (Madame Hydra shows the
movement symbol at this table); Captain America plays his card with Iron Man's symbols beside
it; the second villain turn's BaM! hurts both heroes and its placement overflows once.
"""

from __future__ import annotations

DEMO_PLAYERS: tuple[str, ...] = ("Olga", "Patrick")

_SETUP = [
    "setup locations=stark-labs,central-park,times-square,shield-helicarrier,police-hq,"
    "avengers-mansion threats=crossbones,subversion,madame-hydra,bob,hydra-elite-troops,"
    "brainwashing start=stark-labs on-move=madame-hydra",
    "deal player=olga cards=ma,aa,h",
    "deal player=patrick cards=hh,w,m",
]

_FIRST_VILLAIN_TURN = [
    "villain-turn card=plan-2 move=2 bam=false thugs=1,1,0 civilians=0,0,1 special=false",
    "done",
]

_HERO_TURNS = [
    "draw cards=mh by=olga",
    "play card=ma",
    "move to=times-square",
    "attack target=thug",
    "end",
    "draw cards=hh",
    "play card=hh",
    "rescue",
    "rescue",
    "move to=times-square",
    "attack target=thug",
    "end",
    "draw cards=m",
    "play card=aa",
    "attack target=henchman",
    "attack target=henchman",
    "rescue",
    "end",
]

_SECOND_VILLAIN_TURN = [
    "villain-turn card=plan-1 move=0 bam=true thugs=1,0,1 civilians=0,1,0 special=false",
    "plot amount=2",
    "damage hero=olga cards=h",
    "damage hero=patrick cards=w",
    "done",
    "plot amount=1",
    "done",
]


def demo_actions() -> list[str]:
    """The demo game, one typed action per line (``by=NAME`` where the actor is not implied)."""
    return [*_SETUP, *_FIRST_VILLAIN_TURN, *_HERO_TURNS, *_SECOND_VILLAIN_TURN]
