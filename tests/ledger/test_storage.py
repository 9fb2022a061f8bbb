"""handbook.storage: atomic writes, damaged files moved aside, writers serialised across processes."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import threading
from pathlib import Path

import pytest
from tests.support.ledgerhelpers import FakePrefs

from handbook import storage
from handbook.storage import AtomicJSONStorage, PrefsStorage, open_db, transaction

GOOD = {"records": {"1": {"id": "a", "player": "Alice"}, "2": {"id": "b", "player": "Bob"}}}


def _write(path: Path, data) -> bytes:
    raw = json.dumps(data).encode()
    path.write_bytes(raw)
    return raw


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


# --- atomic writes ---------------------------------------------------------------------------

def test_write_replaces_the_file_and_leaves_no_temp_file(tmp_path):
    path = tmp_path / "ledger.json"
    db = open_db(path)
    db.table("records").insert({"id": "x"})
    assert json.loads(path.read_text())["records"] == {"1": {"id": "x"}}
    assert _leftovers(tmp_path) == []


def test_a_write_that_fails_half_way_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "ledger.json"
    before = _write(path, GOOD)
    db = open_db(path)

    real_fdopen = os.fdopen

    class HalfWriter:
        """A file that writes half of what it is given, then the disk 'fills up'."""

        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, text):
            self.fh.write(text[: len(text) // 2])
            self.fh.flush()
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(storage.os, "fdopen", lambda fd, *a, **k: HalfWriter(real_fdopen(fd, *a, **k)))
    with pytest.raises(OSError, match="No space left"):
        db.table("records").insert({"id": "c", "player": "Carol"})
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []


def test_a_failed_replace_leaves_the_old_file_intact(tmp_path, monkeypatch):
    path = tmp_path / "ledger.json"
    before = _write(path, GOOD)
    db = open_db(path)

    def boom(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(storage.os, "replace", boom)
    with pytest.raises(OSError, match="Input/output"):
        db.table("records").insert({"id": "c"})
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert _leftovers(tmp_path) == []
    # and the database still reads the old data afterwards
    assert {d["id"] for d in open_db(path).table("records").all()} == {"a", "b"}


def test_write_fsyncs_the_temp_file_before_replacing(tmp_path, monkeypatch):
    path = tmp_path / "ledger.json"
    events: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(storage.os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(storage.os, "replace", lambda a, b: (events.append("replace"), real_replace(a, b))[1])
    storage.atomic_write_text(path, "{}")
    assert events[:2] == ["fsync", "replace"]


# --- damaged files -----------------------------------------------------------------------------

def _damaged(folder: Path) -> list[Path]:
    return sorted(folder.glob("ledger.damaged-*.json"))


def test_bad_json_is_moved_aside_reported_and_the_app_starts_empty(tmp_path):
    path = tmp_path / "ledger.json"
    path.write_bytes(b'{"records": {"1": {"id": "a"')  # cut off mid-write by some other program
    db = open_db(path)
    report = db.storage.damage
    assert report is not None
    aside = _damaged(tmp_path)
    assert len(aside) == 1
    assert aside[0].read_bytes() == b'{"records": {"1": {"id": "a"'  # nothing deleted
    assert report.moved_to == str(aside[0])
    assert "bad JSON at line 1" in report.reason
    assert report.recovered == 0
    assert aside[0].name.startswith("ledger.damaged-") and len(aside[0].stem.split("-")[-1]) == 6
    assert str(aside[0]) in report.message()
    assert db.table("records").all() == []
    db.table("records").insert({"id": "new"})
    assert json.loads(path.read_text())["records"] == {"1": {"id": "new"}}


def test_wrong_shape_is_moved_aside(tmp_path):
    path = tmp_path / "ledger.json"
    path.write_text("[1, 2, 3]")
    db = open_db(path)
    assert db.storage.damage is not None
    assert "top level is a JSON list" in db.storage.damage.reason
    assert _damaged(tmp_path)[0].read_text() == "[1, 2, 3]"
    assert not path.exists() or db.table("records").all() == []


def test_what_still_has_the_right_shape_is_recovered(tmp_path):
    path = tmp_path / "ledger.json"
    raw = {"records": {"1": {"id": "a"}, "oops": {"id": "b"}, "3": "not a document"}, "junk": 5}
    path.write_text(json.dumps(raw))
    db = open_db(path)
    report = db.storage.damage
    assert (report.recovered, report.dropped) == (1, 3)
    assert [d["id"] for d in db.table("records").all()] == ["a"]
    assert json.loads(_damaged(tmp_path)[0].read_text()) == raw  # the original, untouched


def test_a_good_file_is_left_alone(tmp_path):
    path = tmp_path / "ledger.json"
    before = _write(path, GOOD)
    db = open_db(path)
    assert db.storage.damage is None
    assert _damaged(tmp_path) == []
    assert path.read_bytes() == before


def test_two_damaged_files_in_the_same_second_do_not_overwrite_each_other(tmp_path):
    import datetime

    now = datetime.datetime(2026, 4, 20, 19, 30, 5)
    path = tmp_path / "ledger.json"
    first = storage.damaged_name(path, now)
    first.write_text("x")
    second = storage.damaged_name(path, now)
    assert first.name == "ledger.damaged-20260420-193005.json"
    assert second.name == "ledger.damaged-20260420-193005-2.json"


def test_damage_after_start_up_is_moved_aside_on_the_next_read(tmp_path):
    path = tmp_path / "ledger.json"
    _write(path, GOOD)
    db = open_db(path)
    path.write_text("garbage")
    assert db.table("records").all() == []
    assert db.storage.damage is not None
    assert _damaged(tmp_path)[0].read_text() == "garbage"


def test_default_location_is_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("FLET_APP_STORAGE_DATA", str(tmp_path / "flet-data"))
    assert storage.default_path() == tmp_path / "flet-data" / "ledger.json"
    db = open_db()
    db.table("records").insert({"id": "x"})
    assert (tmp_path / "flet-data" / "ledger.json").is_file()


# --- concurrent writers --------------------------------------------------------------------------

N_PER_WORKER = 40


def _append_many(path: str, worker: int, start, n: int = N_PER_WORKER) -> None:
    db = open_db(path)
    start.wait(10)
    for i in range(n):
        with transaction(db):
            db.table("records").insert({"id": f"w{worker}-{i}"})


def test_two_processes_appending_concurrently_lose_nothing(tmp_path):
    path = str(tmp_path / "ledger.json")
    open_db(path)  # create it
    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_append_many, args=(path, w, start)) for w in range(2)]
    for p in procs:
        p.start()
    start.set()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    docs = open_db(path).table("records").all()
    ids = [d["id"] for d in docs]
    assert len(ids) == 2 * N_PER_WORKER
    assert set(ids) == {f"w{w}-{i}" for w in range(2) for i in range(N_PER_WORKER)}


def test_two_open_databases_in_one_process_see_each_others_writes(tmp_path):
    """Two browser tabs served by one process, each with its own TinyDB on the same file."""
    path = tmp_path / "ledger.json"
    a, b = open_db(path), open_db(path)
    for i, db in enumerate([a, b, a, b, a]):
        with transaction(db):
            db.table("records").insert({"id": str(i)})
    assert sorted(d["id"] for d in a.table("records").all()) == ["0", "1", "2", "3", "4"]
    assert sorted(d["id"] for d in b.table("records").all()) == ["0", "1", "2", "3", "4"]


def test_threads_sharing_one_database_lose_nothing(tmp_path):
    db = open_db(tmp_path / "ledger.json")

    def work(t):
        for i in range(25):
            with transaction(db):
                db.table("records").insert({"id": f"{t}-{i}"})

    threads = [threading.Thread(target=work, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({d["id"] for d in db.table("records").all()}) == 100


# --- the web backend (SharedPreferences) --------------------------------------------------------------

def _runner():
    pending = []
    return pending, (lambda fn, *a: pending.append(fn(*a)))


async def _drain(pending):
    while pending:
        await pending.pop(0)


def test_prefs_storage_loads_once_and_writes_through():
    prefs = FakePrefs({storage.PREFS_KEY: json.dumps(GOOD)})
    pending, run_task = _runner()

    async def scenario():
        db = await storage.open_prefs_db(prefs, run_task)
        assert {d["id"] for d in db.table("records").all()} == {"a", "b"}
        db.table("records").insert({"id": "c"})
        db.table("records").insert({"id": "d"})
        assert len(pending) == 2  # one write-through per write, sent through run_task
        await _drain(pending)
        return db

    db = asyncio.run(scenario())
    stored = json.loads(prefs.values[storage.PREFS_KEY])
    assert {d["id"] for d in stored["records"].values()} == {"a", "b", "c", "d"}
    assert db.storage.damage is None


def test_prefs_storage_moves_a_damaged_value_aside():
    prefs = FakePrefs({storage.PREFS_KEY: "{nope"})
    pending, run_task = _runner()
    db = asyncio.run(storage.open_prefs_db(prefs, run_task))
    report = db.storage.damage
    assert report is not None and report.moved_to.startswith(storage.PREFS_KEY + ".damaged-")
    assert prefs.values[report.moved_to] == "{nope"
    assert storage.PREFS_KEY not in prefs.values
    assert db.table("records").all() == []


def test_prefs_storage_is_a_tinydb_storage():
    assert issubclass(PrefsStorage, storage.Storage)
    assert issubclass(AtomicJSONStorage, storage.Storage)


def test_a_ledger_in_shared_preferences_survives_a_reload(library):
    """The browser build: records written through to SharedPreferences are there after a reload."""
    from handbook.ledger import Ledger

    prefs = FakePrefs()
    pending, run_task = _runner()

    async def first_visit():
        led = Ledger(await storage.open_prefs_db(prefs, run_task), library)
        led.add("Ann", "2026-04-01", "azrm", "Noten Riichi")
        removed = led.add("Ann", "2026-04-02", "azrm", "Noten Riichi")
        led.remove(removed.id)
        await _drain(pending)
        return led.records()

    async def reload():
        led = Ledger(await storage.open_prefs_db(prefs, run_task), library)
        return led.records()

    assert asyncio.run(reload()) == []
    kept = asyncio.run(first_visit())
    assert asyncio.run(reload()) == kept
    assert len(kept) == 1
