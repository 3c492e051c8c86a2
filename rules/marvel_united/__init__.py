"""Marvel United (CMON 2020), 2 to 4 heroes against a villain: the rules as pure functions.

Actions, as typed at the table (``by=NAME`` when the actor is not the only one allowed)::

    setup locations=stark-labs,... threats=crossbones,... start=stark-labs   (the table)
    deal player=olga cards=aa,m,hh                  (the table; empty: tabletape draws)
    villain-turn card=plan-3 move=2 bam=true thugs=1,1,0 civilians=1,0,0 special=false
    draw cards=ma                                   (empty: tabletape draws)
    play card=ma
    move to=times-square | attack target=thug | rescue | heroic | spend symbol=attack
    special | location-effect | end
    damage hero=olga cards=aa | discard cards=aa | tokens location=x thugs=1
    hit target=villain amount=1
    plot amount=2 | gain hero=olga tokens=move | invulnerable hero=olga | relocate hero=olga to=x
    done                                            (the effect being resolved is over)

Readings where the rulebook leaves a question open (each has a test):

- **Windows.** The villain's movement Threat, BaM! (dashboard and Threats together), the overflow
  and the Masterplan special each open a window in that order; the table records their results
  and closes each with ``done``. Thugs and Civilians are placed by the rules in between.
- **Overflow** opens one window per villain turn, naming how many locations overflowed and how
  many tokens were not placed (the FAQ: once per location; the table records the results).
- **Threat symbols** (BaM!, movement) are named at setup as the cards show them; a movement
  Threat triggers only when the villain moves (move 0 does not).
- **KO**: a KO pushes the villain's BaM! ahead of whatever was being resolved (chains work the
  same way). A hero who plays their last card is KO'd when they type ``end``.
- **Actions** use the card symbols first (the exact one, then a Wild), then Action tokens (the
  exact one, then Wild); ``token=true`` spends a token while symbols remain.
- **First hero**: after the first villain turn, whoever draws starts; seats go clockwise after.
- **Storyline cadence**: a Masterplan card is due when the Hero cards since the last one reach 3
  (2 once Under Pressure), checked when a hero turn ends.
- **Third Mission**: every hero not KO'd with cards in their deck draws 1 (``draw``) at once,
  in any order, each their own card (``by=NAME`` when several still draw).
- **Names**: a typed name is a player's name first, then the hero a seat plays (a player
  called Hulk is that player, even when another seat plays Hulk).
- **Masterplan faces**: the shipped faces are placeholders (I), so a ``villain-turn`` records
  what the card shows (``move``, ``bam``, ``thugs``, ``civilians``, ``special``); the option
  ``masterplan-deck=shipped`` plays with the shipped faces (default ``table``). A negative
  ``move`` is counterclockwise ('clockwise (unless otherwise indicated)').
- **Costs are not damage**: a card an effect asks the hero to discard (S.H.I.E.L.D. HQ) is
  recorded with ``discard``, Invulnerable or not, and before the effect's results; discarding
  the last card KOs, as the KO rule says for any discard.
- **Threat slots**: 3 Heroic unless the setup names others (``slots=threat:mma``, as the card
  shows: 'some Threats may display other types of actions'); ``spend symbol=...`` fills one.
- **Tough Thugs**: ``attack target=thug survives=true`` records a Thug a Threat card at its
  location keeps in play; refused where no Threat card is.
- **Taskmaster**: the villain cannot be damaged while any Crisis token is out; ``attack
  target=crisis`` or ``heroic target=crisis`` discards one where no Thugs or Civilians are.

Card faces are data (:mod:`.data`), marked; the log records what each card shows.
"""

from rules.kernel import register

from .game import MarvelUnited

RULES = register(MarvelUnited())

__all__ = ["RULES", "MarvelUnited"]
