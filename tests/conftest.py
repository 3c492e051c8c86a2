import importlib.abc
import os
import sys

from hypothesis import settings


class BareNames(importlib.abc.MetaPathFinder):
    """Refuses ``import rules`` & co. in the test process: the folders install as
    ``tabletape.rules`` etc., and run from the repository a bare name would quietly import a
    second copy of a module from the source folder (an installed tabletape has no such name)."""

    def find_spec(self, name, path=None, target=None):  # type: ignore[no-untyped-def]
        if name.partition(".")[0] in {"ledger", "rules", "replay", "queries"}:
            raise ModuleNotFoundError(f"no bare {name!r}: import tabletape.{name}", name=name)
        return None


sys.meta_path.insert(0, BareNames())

import tests.support.tinygame  # noqa: E402, F401  (registers the test game "tiny"; after the guard)

collect_ignore = ["e2e/external_game"]
"""A game package outside tabletape, installed (not imported) by e2e/test_external_game.py."""

# No per-example deadline anywhere: CI machines are shared and a slow example is not a failure.
# No example database either: an outcome never depends on examples saved by an earlier run (a
# failure prints its reproduction). Under CI (CI=true) the examples are derived from each test
# itself (derandomize), so a CI run gives the same result for the same code; a developer's run
# draws new examples each time and keeps exploring.
settings.register_profile("tabletape", deadline=None, database=None)
settings.register_profile("tabletape-ci", deadline=None, database=None, derandomize=True)
settings.load_profile("tabletape-ci" if os.environ.get("CI") == "true" else "tabletape")
