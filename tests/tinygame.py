"""The test game's old import path, kept only because the doctest of ``replay/simulate.py`` (source
this reorganisation does not edit) still imports ``tests.tinygame``: the game lives in
:mod:`tests.support.tinygame`. Delete this file once that doctest imports it from there."""

from tests.support.tinygame import *  # noqa: F403  (registers "tiny", as the old module did)
