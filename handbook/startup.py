"""Start-up of the offline app (Pyodide): benchmark marks, and the state a memory snapshot froze.

In the browser :func:`mark` tells the page how far start-up has come -- the PWA build gives Flet's
worker a ``flet_js.mark`` that posts the name and the time on a BroadcastChannel the benchmarks
listen to (``make bench``, tests/bench/test_pwa_bench.py). Anywhere else it does nothing.

The offline app's Python normally starts from a memory snapshot taken at build time, right after
the app's imports (tools/pwa/build.py, ``make_memory_snapshot``). The worker then calls
:func:`resume_after_memory_snapshot`, which redoes what a start computes once for the device it
runs on and the snapshot holds from the build machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

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


#: CPython's own stride for finding January and July when it computes ``time.timezone``
#: (Modules/timemodule.c, ``init_timezone``): a year of 365 days and 6 hours, in seconds.
_YEAR_S = (365 * 24 + 6) * 3600


def zone_name(gmtoff: int) -> str:
    """Emscripten's name for a UTC offset of ``gmtoff`` seconds east: ``"UTC+0900"`` (Tokyo),
    ``"UTC-0500"`` (New York), ``"UTC-0000"`` (UTC) -- what ``time.tzname`` holds under Pyodide."""
    sign = "+" if gmtoff > 0 else "-"
    minutes = abs(gmtoff) // 60
    return f"UTC{sign}{minutes // 60:02d}{minutes % 60:02d}"


def local_time_zone(now: float, localtime: Callable[[float], Any]) -> dict[str, Any]:
    """``time.timezone``, ``altzone``, ``daylight`` and ``tzname`` as CPython computes them at
    start-up, from ``localtime`` (``time.localtime``: its ``tm_gmtoff``) in January and July of
    the year of ``now`` (seconds since the epoch). Offsets in seconds west of UTC, as ``time``
    gives them; south of the equator summer is in January, which is why the two are compared."""
    jan_t = (int(now) // _YEAR_S) * _YEAR_S
    jan = -int(localtime(jan_t).tm_gmtoff)
    jul = -int(localtime(jan_t + _YEAR_S // 2).tm_gmtoff)
    standard, summer = (jul, jan) if jan < jul else (jan, jul)
    return {"timezone": standard, "altzone": summer, "daylight": int(jan != jul),
            "tzname": (zone_name(-standard), zone_name(-summer))}


def forget_listed_folders() -> None:
    """What :func:`importlib.invalidate_caches` does for folders, and only that: every folder's
    listing (``FileFinder``) is read again at the next import, relative and missing paths are
    looked up again. Not the rest of it, which took 0.31 s of every offline start in a quiet
    moment (0.3-0.9 s under load, between the archive unpacked and the app's imports; 0.03-0.06 s
    without it): it makes the standard library's ``zipimporter`` read the 300 entries of
    python_stdlib.zip again, in Python, and imports ``importlib.metadata`` (for its finder) --
    neither is needed, the zip is the file the snapshot was taken with."""
    import os
    from importlib.machinery import FileFinder

    for path, finder in list(sys.path_importer_cache.items()):
        if finder is None or not os.path.isabs(path):
            del sys.path_importer_cache[path]
        elif isinstance(finder, FileFinder):
            finder.invalidate_caches()


def resume_after_memory_snapshot() -> None:
    """Make a Python restored from the offline app's memory snapshot behave as one started on
    this device (called by the PWA's worker, only after such a restore):

    - import caches forgotten: the app's files were unpacked after the snapshot was taken
      (:func:`forget_listed_folders`);
    - ``random`` reseeded: the snapshot holds one seed, the same at every start on every phone;
    - ``time.timezone``, ``altzone``, ``daylight`` and ``tzname`` computed for this device: the
      snapshot holds the build machine's. Local times were right either way (``localtime`` and
      ``datetime.astimezone`` ask the browser each time); these four are computed once, at start.
    """
    import random
    import time

    forget_listed_folders()
    random.seed()
    for name, value in local_time_zone(time.time(), time.localtime).items():
        setattr(time, name, value)
