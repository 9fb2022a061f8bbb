"""The damage notice is kept with the data until the judge acknowledges it (a restart or a second
tab does not lose it), and a full disk during the recovery never leaves an empty ledger without a
banner."""

from __future__ import annotations

import asyncio
import errno
import json
import os

import flet as ft
import pytest
from tests.support.ledgerhelpers import FakePrefs, by_key, fire, visible_texts, walk

from handbook import storage
from handbook.ledger import Ledger
from handbook.storage import DamageReport, open_db
from handbook.ui.screens import build_view

NOTEN = "Noten Riichi"
KIM = {"id": "r1", "player": "Kim", "club": None, "date": "2026-04-01", "ruleset": "azrm",
       "foul_id": "noten-riichi", "foul": NOTEN, "penalty": "Chombo", "kind": None, "points": 30,
       "strike": True, "note": "", "created": "2026-04-01T10:00:00+00:00"}
#: one good record and one entry that is not a document: the file is moved aside, Kim recovered
PARTLY_DAMAGED = json.dumps({"records": {"1": KIM, "oops": "not a record"}}).encode()


def _aside(folder) -> list:
    return sorted(folder.glob("ledger.damaged-*.json"))


def _open(path, library) -> Ledger:
    return Ledger(open_db(path), library)


def _full_disk(monkeypatch, *, only=None):
    """Every write (or only writes to ``only``) fails with ENOSPC, as on a full disk."""
    real = storage.atomic_write_text

    def write(path, text):
        if only is None or os.fspath(path) == os.fspath(only):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(path, text)

    monkeypatch.setattr(storage, "atomic_write_text", write)
    return real


def test_the_notice_survives_a_restart_until_it_is_acknowledged(tmp_path, library):
    path = tmp_path / "ledger.json"
    path.write_bytes(b"{not json")
    first = _open(path, library).damage
    assert first is not None and "bad JSON" in first.reason and first.when
    again = _open(path, library)  # the app restarts: the judge has not read it yet
    assert again.damage == first
    assert (tmp_path / "ledger.notice.json").exists()
    again.acknowledge_damage()
    assert again.damage is None
    assert _open(path, library).damage is None  # acknowledged: gone after a restart too
    assert not (tmp_path / "ledger.notice.json").exists()
    assert _aside(tmp_path)[0].read_bytes() == b"{not json"  # the damaged copy is kept


def test_two_damaged_files_are_both_reported(tmp_path, library):
    path = tmp_path / "ledger.json"
    path.write_bytes(b"{not json")
    _open(path, library)
    path.write_bytes(b"[1, 2]")
    reports = _open(path, library).damages
    assert [("bad JSON" in r.reason, "list" in r.reason) for r in reports] == [(True, False),
                                                                               (False, True)]
    assert len(_aside(tmp_path)) == 2


def test_the_banner_comes_back_after_a_restart_and_dismiss_ends_it(ctx, tmp_path, library,
                                                                    app_ledger):
    path = app_ledger.db.storage.path
    path.write_bytes(PARTLY_DAMAGED)
    for _ in range(2):  # start, restart
        ctx.stores.ledger = _open(path, library)
        text = visible_texts(build_view(ctx, "/ledger"))
        assert "The ledger data could not be read" in text and "1 record was recovered" in text
        assert "Kim" in text
    banner = by_key(build_view(ctx, "/ledger"), "damage-banner")
    dismiss = next(c for c in walk(banner) if isinstance(c, ft.TextButton))
    fire(dismiss.on_click, None)
    ctx.stores.ledger = _open(path, library)  # restart
    v = build_view(ctx, "/ledger")
    assert "could not be read" not in visible_texts(v) and "Kim" in visible_texts(v)


def test_a_report_read_back_ignores_what_is_not_one():
    good = DamageReport("a", "b", "c", 1, 2, "2026-04-01T10:00:00+00:00", "")
    text = storage.notices_text([good])
    assert storage.parse_notices(text) == [good]
    assert storage.parse_notices("{nope") == []
    assert storage.parse_notices(json.dumps({"format": storage.NOTICE_FORMAT,
                                             "notices": [{"source": 1}, "x", good.to_json()]})) == [good]


# --- a full disk while the damaged file is set aside ------------------------------------------------

def test_recovered_records_that_cannot_be_written_back_are_not_lost_at_the_next_start(
        tmp_path, library, monkeypatch):
    path = tmp_path / "ledger.json"
    path.write_bytes(PARTLY_DAMAGED)
    _full_disk(monkeypatch, only=path)  # the notice fits, the recovered ledger does not
    led = _open(path, library)
    assert led.damage is not None and led.damage.unsaved == os.strerror(errno.ENOSPC)
    assert [r.player for r in led.records()] == ["Kim"]  # served from memory meanwhile
    assert not path.exists() and _aside(tmp_path)[0].read_bytes() == PARTLY_DAMAGED
    # the next start, disk still full: not an empty ledger without a banner
    led = _open(path, library)
    assert led.damage is not None and led.damage.unsaved
    assert led.damage.moved_to == str(_aside(tmp_path)[0])
    assert [r.player for r in led.records()] == ["Kim"]
    with pytest.raises(OSError):
        led.add("Lou", "2026-04-02", "azrm", NOTEN)
    # space again: the next start writes the recovered records back; the notice stays until read
    monkeypatch.undo()
    led = _open(path, library)
    assert [r.player for r in led.records()] == ["Kim"]
    assert [d["player"] for d in json.loads(path.read_text())["records"].values()] == ["Kim"]
    assert led.damage is not None and led.damage.unsaved == ""
    led.acknowledge_damage()
    assert _open(path, library).damage is None
    assert _aside(tmp_path)[0].read_bytes() == PARTLY_DAMAGED


def test_the_first_write_with_space_again_puts_the_recovered_records_back(tmp_path, library,
                                                                          monkeypatch):
    path = tmp_path / "ledger.json"
    path.write_bytes(PARTLY_DAMAGED)
    _full_disk(monkeypatch, only=path)
    led = _open(path, library)
    monkeypatch.undo()  # space is freed while the app runs
    led.add("Lou", "2026-04-02", "azrm", NOTEN)
    stored = sorted(d["player"] for d in json.loads(path.read_text())["records"].values())
    assert stored == ["Kim", "Lou"]
    assert led.damage.unsaved == ""
    assert _open(path, library).damage.unsaved == ""


def test_when_nothing_can_be_written_the_damaged_file_stays_and_is_reported_at_every_start(
        tmp_path, library, monkeypatch):
    path = tmp_path / "ledger.json"
    path.write_bytes(PARTLY_DAMAGED)
    _full_disk(monkeypatch)  # not even the notice fits
    for _ in range(2):  # start, restart
        led = _open(path, library)
        assert led.damage is not None and led.damage.unsaved == os.strerror(errno.ENOSPC)
        assert led.damage.moved_to == str(path)  # not moved: nothing could record where to
        assert path.read_bytes() == PARTLY_DAMAGED
        assert [r.player for r in led.records()] == ["Kim"]
        with pytest.raises(OSError):
            led.add("Lou", "2026-04-02", "azrm", NOTEN)
    monkeypatch.undo()
    led.add("Lou", "2026-04-02", "azrm", NOTEN)  # moved aside first, then written
    assert _aside(tmp_path)[0].read_bytes() == PARTLY_DAMAGED
    assert sorted(r.player for r in _open(path, library).records()) == ["Kim", "Lou"]
    assert _open(path, library).damage.moved_to == str(_aside(tmp_path)[0])


def test_the_banner_says_the_recovery_is_not_finished(ctx, app_ledger, library, monkeypatch):
    path = app_ledger.db.storage.path
    path.write_bytes(PARTLY_DAMAGED)
    _full_disk(monkeypatch, only=path)
    ctx.stores.ledger = _open(path, library)
    text = visible_texts(build_view(ctx, "/ledger"))
    assert "The recovery is not finished (No space left on device)" in text
    assert "Kim" in text


# --- the browser build (SharedPreferences) ---------------------------------------------------------

def test_the_notice_survives_a_reload_in_the_browser_build():
    prefs = FakePrefs({storage.PREFS_KEY: "{nope"})
    pending: list = []

    def run_task(fn, *a):
        pending.append(fn(*a))

    async def visit():
        db = await storage.open_prefs_db(prefs, run_task)
        while pending:
            await pending.pop(0)
        return db

    first = asyncio.run(visit()).storage.damage
    assert first is not None
    db = asyncio.run(visit())  # reload
    assert db.storage.damage == first
    db.storage.acknowledge_damage()
    asyncio.run(visit())  # sends the acknowledgement
    assert asyncio.run(visit()).storage.damage is None
    assert prefs.values[first.moved_to] == "{nope"
