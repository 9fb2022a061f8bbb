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


def resume_after_memory_snapshot() -> None:
    """Make a Python restored from the offline app's memory snapshot behave as one started on
    this device (called by the PWA's worker, only after such a restore):

    - import caches forgotten: the app's files were unpacked after the snapshot was taken;
    - ``random`` reseeded: the snapshot holds one seed, the same at every start on every phone;
    - ``time.timezone``, ``altzone``, ``daylight`` and ``tzname`` computed for this device: the
      snapshot holds the build machine's. Local times were right either way (``localtime`` and
      ``datetime.astimezone`` ask the browser each time); these four are computed once, at start.
    """
    import importlib
    import random
    import time

    importlib.invalidate_caches()
    random.seed()
    for name, value in local_time_zone(time.time(), time.localtime).items():
        setattr(time, name, value)
