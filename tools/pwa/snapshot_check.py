"""Runs INSIDE Pyodide under Node.js at build time (tools/pwa/snapshot.mjs), in a Python
restored from the memory snapshot just made, with the app's files where the browser unpacks them:
the snapshot holds the start's imports and the content, and what comes later still works -- a
screen's module imported on first use, a standard-library module read from python_stdlib.zip, a
search (which builds the index and loads the lemmatiser's dictionary from the app's files)."""

import os
import sys

os.chdir("/home/pyodide")

from handbook.startup import resume_after_memory_snapshot  # noqa: E402

resume_after_memory_snapshot()

for name in ("flet.controls.theme", "handbook.ui.app", "handbook.ui.views.search", "pyodide.http"):
    assert name in sys.modules, f"{name} is not in the snapshot"
assert "handbook.ui.views.glossary" not in sys.modules

import tomllib  # noqa: E402,F401 - not imported at start: from python_stdlib.zip

import handbook.ui.views.glossary  # noqa: E402,F401 - a screen's module, from the app's files
from handbook.core.load import default_library  # noqa: E402

hits = default_library().search("見せ牌", ruleset="azrm")
assert ("rule", "azrm", "2.4") in [(h.kind, h.ruleset, h.ref) for h in hits[:3]], hits[:3]
