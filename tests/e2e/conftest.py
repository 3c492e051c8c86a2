"""Fixtures of the end-to-end tests: the stepper replays the replay tests' recorded tiny game."""

from tests.replay.conftest import store, story

__all__ = ["store", "story"]
