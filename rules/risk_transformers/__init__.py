"""Risk: Transformers – Cybertron Battle Edition (Hasbro), 2 to 4 players: not registered yet."""
