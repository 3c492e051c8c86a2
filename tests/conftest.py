import tests.tinygame  # noqa: F401  (registers the test-only game "tiny")
