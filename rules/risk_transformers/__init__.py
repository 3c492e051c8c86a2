"""Risk: Transformers – Cybertron Battle Edition (the fourth game; not registered until whole).

- **The board and the cards come from the table** (:mod:`.board`): the rulebook prints neither
  the map's topology, nor the ZONES → ROBOTS panel (one value legible), nor the leaders' start
  zones, nor the 42 upgrade cards. ``default-board.json`` is a reconstruction (mark I) a table
  replaces with its own file.
"""
