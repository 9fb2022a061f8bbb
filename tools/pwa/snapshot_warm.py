"""Runs INSIDE Pyodide under Node.js at build time (tools/pwa/snapshot.mjs), right before the
memory snapshot is taken: import what a start of the offline app imports, so that the browser's
worker, restoring the snapshot, finds them imported (tools/pwa/build.py, make_memory_snapshot).

What a start imports, in order:
1. Flet's boot script in python-worker.js: ``runpy``, ``traceback``, ``pyodide.http``, ``msgpack``;
2. ``main.py``: ``flet``, ``handbook.startup``, ``handbook.ui.app``;
3. ``flet.app.run`` under Pyodide: the session, protocol and pub-sub modules that
   ``flet.messaging.pyodide_connection`` imports -- not that module itself: it imports ``flet_js``,
   the worker's JavaScript namespace, which exists only in the browser;
4. the first screen: the theme (``flet.controls.theme``), the content (loaded: the Library is
   in the snapshot), the screens' table and the search screen.

Not here: the search index and the lemmatiser's dictionary, which the app builds after its first
screen -- in the snapshot they would triple its size (128 MB of memory, 18 MB compressed).
Nothing may import ``js``-side objects that only exist in the browser (``flet_js``).
"""

import gc
import os
import sys

os.chdir("/home/pyodide")             # through the mount (the folder the browser unpacks into)
# Emscripten names the program (sys.executable, sys.orig_argv, "_" in the environment): under
# Node.js the path of snapshot.mjs on the build machine, in a browser "./this.program" -- the
# snapshot carries the browser's
os.environ["_"] = sys.executable = "./this.program"
sys.orig_argv = [sys.executable]
sys.path.insert(0, "__pypackages__")  # as the boot script does

import runpy  # noqa: E402,F401
import traceback  # noqa: E402,F401

import msgpack  # noqa: E402,F401
from pyodide.http import pyfetch  # noqa: E402,F401

import flet  # noqa: E402,F401
import flet.messaging.connection  # noqa: E402,F401
import flet.messaging.protocol  # noqa: E402,F401
import flet.messaging.session  # noqa: E402,F401
import flet.pubsub.pubsub_hub  # noqa: E402,F401
import handbook.startup  # noqa: E402,F401
import handbook.ui.app  # noqa: E402
import handbook.ui.screens  # noqa: E402,F401
import handbook.ui.views.search  # noqa: E402,F401
from handbook.core.load import default_library  # noqa: E402

handbook.ui.app.make_theme()
default_library()

if "flet_js" in sys.modules:
    raise SystemExit("the snapshot must not import flet_js (the browser's worker provides it)")
del pyfetch, default_library
gc.collect()
os.chdir("/")                         # out of the mount, which is taken away before the snapshot
