"""A Pebbles game to show: Patrick takes the last pebble."""

DEMO_PLAYERS: tuple[str, ...] = ("Olga", "Patrick")


def demo_actions() -> list[str]:
    return ["take n=3", "take n=2", "roll dice=6", "take n=3", "take n=1", "take n=3"]
