from hypothesis import settings

import tests.tinygame  # noqa: F401  (registers the test-only game "tiny")

# No per-example deadline anywhere: CI machines are shared and a slow example is not a failure.
# No example database either: an outcome never depends on examples saved by an earlier run (the
# examples come from each test's seed-free strategies, and a failure prints its reproduction).
settings.register_profile("tabletape", deadline=None, database=None)
settings.load_profile("tabletape")
