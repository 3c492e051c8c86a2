"""Sphinx settings: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` (``.ci/docs``).

The build reads no network (no intersphinx); the reference pages are generated from tabletape
itself by ``_ext/tabletape_reference.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

from tabletape.ledger import __version__

project = "tabletape"
author = "the tabletape authors"
copyright = "the tabletape authors"
release = version = __version__

extensions = ["myst_parser", "tabletape_reference"]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", ".venv"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]
suppress_warnings: list[str] = []
html_theme = "alabaster"
html_static_path = ["_static"]
html_title = f"tabletape {release}"
pygments_style = "sphinx"
