from hypothesis import settings

import tests.tinygame  # noqa: F401  (registers the test-only game "tiny")

# No per-example deadline anywhere: CI machines are shared and a slow example is not a failure.
settings.register_profile("tabletape", deadline=None)
settings.load_profile("tabletape")
