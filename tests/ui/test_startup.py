"""handbook.startup: what a Python restored from the offline app's memory snapshot recomputes.

The time-zone figures are checked against CPython's own, computed at start-up in a process whose
``TZ`` is the zone under test (a subprocess: ``time.tzset`` is not everywhere), so the expectation
comes from the interpreter, not from this file.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from types import SimpleNamespace

import pytest

from handbook import startup

#: the zones a judge might travel with: no summer time, northern and southern summer time, a
#: half-hour offset, west of Greenwich
ZONES = ("UTC", "Asia/Tokyo", "Europe/Copenhagen", "Australia/Sydney", "Asia/Kolkata", "America/New_York")

_REPORT = """
import json, sys, time
from handbook.startup import local_time_zone
ours = local_time_zone(time.time(), time.localtime)
print(json.dumps({"ours": ours, "python": {"timezone": time.timezone, "altzone": time.altzone,
                                             "daylight": time.daylight}}))
"""


def _in_zone(zone: str) -> dict:
    env = dict(os.environ, TZ=zone)
    out = subprocess.run([sys.executable, "-c", _REPORT], cwd=str(startup.__file__).rsplit("/handbook/", 1)[0], env=env, capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(not os.path.isdir("/usr/share/zoneinfo/Asia"), reason="no tz database here")
@pytest.mark.parametrize("zone", ZONES)
def test_time_zone_figures_are_cpythons(zone):
    seen = _in_zone(zone)
    ours, python = seen["ours"], seen["python"]
    assert (ours["timezone"], ours["altzone"], ours["daylight"]) == (
        python["timezone"], python["altzone"], python["daylight"])


def test_southern_summer_is_in_january():
    """Sydney: +11 h in January (summer), +10 h in July; standard time is July's."""
    def localtime(t):
        month = time.gmtime(t).tm_mon
        return SimpleNamespace(tm_gmtoff=11 * 3600 if month in (12, 1, 2) else 10 * 3600)

    zone = startup.local_time_zone(time.mktime((2026, 11, 24, 12, 0, 0, 0, 0, -1)), localtime)
    assert zone == {"timezone": -36000, "altzone": -39600, "daylight": 1,
                    "tzname": ("UTC+1000", "UTC+1100")}


@pytest.mark.parametrize("gmtoff, name", [(9 * 3600, "UTC+0900"), (-5 * 3600, "UTC-0500"),
                                          (0, "UTC-0000"), (5 * 3600 + 1800, "UTC+0530")])
def test_zone_names_are_emscriptens(gmtoff, name):
    assert startup.zone_name(gmtoff) == name


def test_resume_sets_the_zone_and_reseeds(monkeypatch):
    """After a restore the module attributes are this device's, and two restores of the same
    snapshot (the same frozen generator state) no longer draw the same numbers."""
    for name in ("timezone", "altzone", "daylight", "tzname"):
        monkeypatch.setattr(time, name, getattr(time, name))   # put back after the test
    monkeypatch.setattr(time, "timezone", 12345)
    frozen = random.getstate()
    startup.resume_after_memory_snapshot()
    first = random.random()
    random.setstate(frozen)
    startup.resume_after_memory_snapshot()
    second = random.random()
    assert first != second
    expected = startup.local_time_zone(time.time(), time.localtime)
    assert time.timezone == expected["timezone"] != 12345
    assert time.tzname == expected["tzname"]


def test_resume_rereads_folders_but_not_the_standard_librarys_zip(tmp_path, monkeypatch):
    """A module written into a folder Python has already listed is importable after a resume (the
    app is unpacked after the snapshot), while finders of other kinds -- the standard library's
    zipimporter, whose archive is the one the snapshot was taken with -- are not asked to read
    their archive again (0.3-0.45 s of every offline start)."""
    asked = []

    class ArchiveFinder:
        def invalidate_caches(self):
            asked.append("archive")

        def find_spec(self, fullname, target=None):
            return None

    archive = str(tmp_path / "stdlib.zip")
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    monkeypatch.setitem(sys.path_importer_cache, archive, ArchiveFinder())
    (tmp_path / "rjh_listed_first.py").write_text("VALUE = 1\n", encoding="utf-8")
    __import__("rjh_listed_first")          # the folder is listed now
    (tmp_path / "rjh_unpacked_later.py").write_text("VALUE = 2\n", encoding="utf-8")
    try:
        startup.resume_after_memory_snapshot()
        assert __import__("rjh_unpacked_later").VALUE == 2
        assert asked == []
    finally:
        for name in ("rjh_listed_first", "rjh_unpacked_later"):
            sys.modules.pop(name, None)
