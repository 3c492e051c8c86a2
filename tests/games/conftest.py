"""Fixtures of the game tests: a ledger folder as the replay tests (``store``) and the query tests
(``ledger``) name it; importing the queries' conftest also registers its test projections."""

from tests.queries.conftest import ledger
from tests.replay.conftest import store

__all__ = ["ledger", "store"]
