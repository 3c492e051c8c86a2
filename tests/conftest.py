import os

from hypothesis import settings

import tests.tinygame  # noqa: F401  (registers the test-only game "tiny")

# No per-example deadline anywhere: CI machines are shared and a slow example is not a failure.
# No example database either: an outcome never depends on examples saved by an earlier run (a
# failure prints its reproduction). Under CI (CI=true) the examples are derived from each test
# itself (derandomize), so a CI run gives the same result for the same code; a developer's run
# draws new examples each time and keeps exploring.
settings.register_profile("tabletape", deadline=None, database=None)
settings.register_profile("tabletape-ci", deadline=None, database=None, derandomize=True)
settings.load_profile("tabletape-ci" if os.environ.get("CI") == "true" else "tabletape")
