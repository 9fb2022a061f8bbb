"""Start-up marks for the offline app's benchmarks (``make bench``, tests/bench/test_pwa_bench.py).

In the browser (Pyodide) :func:`mark` tells the page how far start-up has come -- the PWA build
gives Flet's worker a ``flet_js.mark`` that posts the name and the time on a BroadcastChannel the
benchmarks listen to. Anywhere else it does nothing.
"""

from __future__ import annotations

import sys

_BROWSER = sys.platform == "emscripten"


def mark(name: str) -> None:
    """Record that start-up reached ``name`` (``"imports_done"``, ``"content_ready"``,
    ``"screen_built"``); a no-op outside the PWA."""
    if not _BROWSER:
        return
    try:
        import flet_js  # the worker's JS namespace (Flet's python-worker.js)

        flet_js.mark(name)
    except Exception:  # noqa: BLE001 - an older build without marks, or no worker
        pass
