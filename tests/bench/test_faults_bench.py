"""The fault suite (``make bench``): faults survived, bad inputs refused with a clear message,
records lost. Bounded: everything runs on this machine against temporary folders, in seconds.

* ``kill -9`` during writes, 50 times: a forked writer appends records and reports each one
  after ``add`` returned; it is killed at a random moment; every reported record must be in the
  file, the file must open cleanly, and no temp file may be left after the next open;
* 4 writer processes × 100 appends at once: 400 records;
* damaged data files and hostile imports (the cases of tests/ledger/test_faults.py): each is
  moved aside or refused with a message, and the app keeps working;
* odd URLs: each shows a screen (no crash);
* a bounded load (:func:`test_load_of_20_sessions`): 20 sessions for 60 s on 127.0.0.1, each a
  client speaking Flet's websocket protocol (``flet_load.py``, no browser), then the sessions'
  expiry once they have disconnected.

Figures are printed and kept in ``benchmark.extra_info``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path

import pytest

from handbook.ledger import Ledger, LedgerImportError
from handbook.storage import open_db, transaction
NOTEN = "Noten Riichi"
KILLS = 50
WRITERS, APPENDS = 4, 100


def _doc(i: int, who: str) -> dict:
    return {"id": f"{who}-{i}", "player": who, "club": None, "date": "2026-04-01",
            "ruleset": "azrm", "foul_id": "noten-riichi", "foul": NOTEN, "penalty": "Chombo",
            "kind": "chombo", "points": 30, "strike": True, "note": "",
            "created": "2026-04-01T10:00:00+00:00"}


def _writer(path: Path, who: str, n: int, report: int | None) -> None:
    """In a forked child: append ``n`` documents, writing each id to ``report`` once stored."""
    db = open_db(path)
    for i in range(n):
        with transaction(db):
            db.table("records").insert(_doc(i, who))
        if report is not None:
            os.write(report, f"{who}-{i}\n".encode())
    os._exit(0)


def _fork(fn, *args) -> int:
    pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        try:
            fn(*args)
        finally:
            os._exit(1)
    return pid


def kill_during_writes(folder: Path) -> dict:
    path = folder / "ledger.json"
    acknowledged: set[str] = set()
    rng = random.Random(11)
    for k in range(KILLS):
        r, w = os.pipe()
        pid = _fork(_writer, path, f"k{k}", 10_000, w)
        os.close(w)
        first = os.read(r, 64)  # the writer is running: kill it somewhere in its next writes
        time.sleep(rng.uniform(0.0, 0.05))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        with os.fdopen(r) as fh:
            text = first.decode() + fh.read()
        acknowledged |= {line for line in text.splitlines() if line}
    db = open_db(path)
    stored = {d["id"] for d in db.table("records").all()}
    leftover = list(folder.glob(".ledger.json.*.tmp"))
    return {"kills": KILLS, "acknowledged": len(acknowledged), "lost": len(acknowledged - stored),
            "damaged": db.storage.damage is not None, "temp files removed": db.storage.stale_removed,
            "temp files left": len(leftover)}


def concurrent_writers(folder: Path) -> dict:
    path = folder / "ledger.json"
    open_db(path)
    start = time.perf_counter()
    pids = [_fork(_writer, path, f"w{i}", APPENDS, None) for i in range(WRITERS)]
    for pid in pids:
        os.waitpid(pid, 0)
    elapsed = time.perf_counter() - start
    stored = {d["id"] for d in open_db(path).table("records").all()}
    want = {f"w{i}-{j}" for i in range(WRITERS) for j in range(APPENDS)}
    return {"writers": WRITERS, "appends": WRITERS * APPENDS, "lost": len(want - stored),
            "seconds": round(elapsed, 2)}


DAMAGED = {
    "bad JSON": b"{not json",
    "not UTF-8": b"\xff\xfe{",
    "deep nesting": b"[" * 100_000 + b"]" * 100_000,
    "5,000-digit number": b'{"records": {"1": {"points": ' + b"9" * 5000 + b"}}}",
    "wrong shape": b'{"records": [1, 2, 3]}',
    "a list at the top": b"[]",
}

BAD_IMPORTS = {
    "deep nesting": ("[" * 100_000 + "]" * 100_000, "json"),
    "5,000-digit number": ('[{"player": "A", "date": "2026-04-01", "ruleset": "azrm", "foul": '
                           '"Noten Riichi", "points": ' + "9" * 5000 + "}]", "json"),
    "lone surrogate": ('[{"player": "\\ud800", "date": "2026-04-01", "ruleset": "azrm", '
                       '"foul": "Noten Riichi"}]', "json"),
    "year 1": ("player,date,ruleset,foul\nA,0001-01-05,azrm,Noten Riichi\n", "csv"),
    "year 9999": ("player,date,ruleset,foul\nA,9999-12-31,azrm,Noten Riichi\n", "csv"),
    "unknown foul": ("player,date,ruleset,foul\nA,2026-04-01,azrm,Nope\n", "csv"),
    "too large": ("x" * (2 * 1024 * 1024 + 1), "csv"),
    "empty": ("", "csv"),
    "binary": ("\x00\x01\x02", "csv"),
}

ODD_URLS = ["/tools/strikes?on=0001-01-01", "/tools/strikes?on=9999-12-31", "/ledger/%00",
            "/ledger?player=%ff%fe", "/rules/%2e%2e/%2e%2e", "/search?q=" + "a" * 5000, "//",
            "/?" + "&" * 1000, "/penalties/nope/nope", "/glossary/%F0%9F%80%84"]


def bad_inputs(folder: Path, library) -> dict:
    survived = refused = 0
    for i, data in enumerate(DAMAGED.values()):
        path = folder / f"d{i}" / "ledger.json"
        path.parent.mkdir()
        path.write_bytes(data)
        led = Ledger(open_db(path), library)
        led.add("Kim", "2026-04-01", "azrm", NOTEN)
        moved = list(path.parent.glob("ledger.damaged-*.json"))
        if led.damage is not None and moved and moved[0].read_bytes() == data and len(led.records()) == 1:
            survived += 1
    led = Ledger(open_db(folder / "imports.json"), library)
    for text, fmt in BAD_IMPORTS.values():
        try:
            led.import_text(text, fmt)
        except LedgerImportError as exc:
            if "Traceback" not in str(exc) and str(exc):
                refused += 1
    assert led.records() == []
    return {"damaged files": len(DAMAGED), "moved aside, app working": survived,
            "bad imports": len(BAD_IMPORTS), "refused with a message": refused}


def odd_urls(library) -> dict:
    import asyncio
    from tests.support.uihelpers import StubPage

    from handbook.ui.app import HandbookApp, Preferences

    shown = 0
    for route in ODD_URLS:
        page = StubPage(route=route)
        asyncio.run(HandbookApp(page, library, prefs=Preferences(None)).start())
        shown += len(page.views) == 1
    return {"odd URLs": len(ODD_URLS), "showed a screen": shown}


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_fault_suite(benchmark, tmp_path, library, monkeypatch):
    monkeypatch.setenv("HANDBOOK_DATA_DIR", str(tmp_path / "app-data"))
    figures: dict[str, dict] = {}

    def run() -> None:
        n = len(figures)
        base = tmp_path / f"round{n}"
        (base / "kill").mkdir(parents=True)
        (base / "writers").mkdir()
        (base / "bad").mkdir()
        figures["kill -9 during writes"] = kill_during_writes(base / "kill")
        figures["concurrent writers"] = concurrent_writers(base / "writers")
        figures["bad inputs"] = bad_inputs(base / "bad", library)
        figures["odd URLs"] = odd_urls(library)

    benchmark.pedantic(run, rounds=1, iterations=1)
    print()
    for name, f in figures.items():
        print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in f.items()))
    benchmark.extra_info.update({k: json.dumps(v) for k, v in figures.items()})
    k, w, b, u = (figures[x] for x in ("kill -9 during writes", "concurrent writers", "bad inputs",
                                        "odd URLs"))
    assert k["lost"] == 0 and not k["damaged"] and k["temp files left"] == 0
    assert w["lost"] == 0
    assert b["moved aside, app working"] == b["damaged files"]
    assert b["refused with a message"] == b["bad imports"]
    assert u["showed a screen"] == u["odd URLs"]


# --- SIGKILL with two adders and an importer at once (real processes) ------------------------------

SIGKILL_ROUNDS = 30
ROUNDS_PER_FILE = 5  # a fresh file every five rounds: the imports would make it ever larger


def test_sigkill_fault_suite(benchmark, tmp_path):
    """>= 30 rounds of two adders (adding, removing every fifth) and one importer (3,000-record
    imports) on one file, all SIGKILLed at a random moment (half the rounds inside an import),
    the file opened again each time: 0 acknowledged records lost (tests/support/faultload.py)."""
    import random

    from tests.support import faultload

    rng = random.Random(4646)
    totals = {"rounds": 0, "processes killed": 0, "killed mid-import": 0, "acknowledged": 0,
              "lost": 0, "removals undone": 0, "partial imports": 0, "acknowledged imports lost": 0,
              "imports started": 0, "imports whole": 0, "temp files at restart": 0,
              "temp files after restart": 0, "invalid files": 0, "damage reports": 0}

    def run() -> None:
        for group in range(SIGKILL_ROUNDS // ROUNDS_PER_FILE):
            path = tmp_path / f"file{group}" / "ledger.json"
            path.parent.mkdir(parents=True)
            acks = faultload.Acks()
            for _ in range(ROUNDS_PER_FILE):
                r = faultload.round_of_kills(path, acks, rng)
                v = faultload.verdict(path, acks)
                totals["rounds"] += 1
                totals["processes killed"] += r["killed"]
                totals["killed mid-import"] += r["mid_import"]
                totals["temp files at restart"] += v["temp_before_restart"]
                totals["temp files after restart"] += len(v["temp_left"])
                totals["invalid files"] += not v["valid"]
                totals["damage reports"] += len(v["damages"])
                totals["removals undone"] = max(totals["removals undone"], len(v["removed_back"]))
            totals["acknowledged"] += v["acknowledged"]
            totals["lost"] += len(v["lost"])
            totals["partial imports"] += len(v["partial_imports"])
            totals["acknowledged imports lost"] += len(v["imports_lost"])
            totals["imports started"] += v["imports_started"]
            totals["imports whole"] += v["imports_whole"]

    benchmark.pedantic(run, rounds=1, iterations=1)
    print("\nSIGKILL fault suite: " + ", ".join(f"{k} {v}" for k, v in totals.items()))
    benchmark.extra_info.update(totals)
    assert totals["rounds"] >= 30 and totals["killed mid-import"] >= 5
    assert totals["lost"] == 0 and totals["removals undone"] == 0
    assert totals["partial imports"] == 0 and totals["acknowledged imports lost"] == 0
    assert totals["invalid files"] == 0 and totals["temp files after restart"] == 0
    assert totals["damage reports"] == 0


# --- a bounded load: 20 sessions × 60 s on 127.0.0.1 --------------------------------------------------

LOAD_SESSIONS, LOAD_SECONDS = 20, 60.0
LOAD_THINK_S = (1.0, 3.0)  # a judge's pause between two taps, drawn per request
#: FLET_SESSION_TIMEOUT for this server only, so that expiry is seen within the run (the app's
#: own setting is 600 s; see handbook.ui.app.SESSION_TIMEOUT_S); flet-web evicts every 10 s
LOAD_EXPIRY_S = 15
LOAD_AGAIN_S = 20.0
LOAD_ALONE_S = 20.0


def rss_mb(pid: int) -> float:
    """Resident memory (``VmRSS``) of ``pid`` and its children now, in MiB."""
    from tests.support.browser_harness import process_tree

    total = 0
    for p in process_tree(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return round(total / 1024, 1)


def cpu_s(pid: int) -> float:
    """CPU time (user + system) ``pid`` has used so far, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _load(server, library) -> dict:
    import asyncio

    from tests.support.flet_load import Figures, judge, reconnects

    option = str(next(r for r in library.rulesets["azrm"].penalties if r.foul == NOTEN).index)
    figures = Figures()
    rss_idle = rss_mb(server.pid)
    # one judge alone first: what a request costs on this machine right now, without the others
    alone = Figures()
    await judge(server.port, alone, 99, LOAD_ALONE_S, option, LOAD_THINK_S, seed=99)
    cpu_before = cpu_s(server.pid)
    started = time.monotonic()
    clients = await asyncio.gather(*(
        judge(server.port, figures, n, LOAD_SECONDS, option, LOAD_THINK_S, seed=n)
        for n in range(LOAD_SESSIONS)))
    elapsed = time.monotonic() - started
    cpu_used = cpu_s(server.pid) - cpu_before
    rss_loaded = rss_mb(server.pid)
    ids = [c.session_id for c in clients if c.session_id]
    ledger = server.data_dir / "ledger.json"
    stored_first = len(json.loads(ledger.read_text())["records"]) if ledger.exists() else 0
    kept_soon = await reconnects(server.port, ids[:1])  # a phone back after a short lock
    await asyncio.sleep(LOAD_EXPIRY_S + 12)
    kept_later = await reconnects(server.port, ids[1:])
    rss_expired = rss_mb(server.pid)
    # a second wave after the first one's sessions expired: is their memory used again?
    again = Figures()
    await asyncio.gather(*(judge(server.port, again, n, LOAD_AGAIN_S, option, LOAD_THINK_S,
                                 seed=100 + n) for n in range(LOAD_SESSIONS)))
    rss_again = rss_mb(server.pid)
    return {
        "sessions": figures.sessions, "seconds": round(elapsed, 1), "requests": figures.requests,
        "errors": len(figures.errors), "first errors": figures.errors[:3],
        "p50 ms": round(figures.percentile(figures.times, 50) * 1000),
        "p95 ms": round(figures.percentile(figures.times, 95) * 1000),
        "max ms": round(max(figures.times, default=0) * 1000),
        "one session alone p50 ms": round(alone.percentile(alone.times, 50) * 1000),
        "one session alone p95 ms": round(alone.percentile(alone.times, 95) * 1000),
        "first screen p95 ms": round(figures.percentile(figures.first_screen, 95) * 1000),
        "p95 ms by screen": {k: round(figures.percentile(v, 95) * 1000)
                             for k, v in sorted(figures.by_kind.items())},
        "server CPU %": round(100 * cpu_used / elapsed),
        "machine load average": round(os.getloadavg()[0], 1),
        "records added": figures.records_added + alone.records_added, "records stored": stored_first,
        "server RSS MiB idle": rss_idle, "after load": rss_loaded,
        "after expiry": rss_expired,
        f"after a second wave of {LOAD_SESSIONS} × {LOAD_AGAIN_S:.0f} s": rss_again,
        "second wave errors": len(again.errors),
        "resumed after a short break": f"{kept_soon}/1",
        f"kept after {LOAD_EXPIRY_S + 12} s": f"{kept_later}/{len(ids) - 1}",
    }


def test_load_of_20_sessions(benchmark, tmp_path, library, monkeypatch):
    import asyncio

    from tests.support.browser_harness import start_server, stop_server

    monkeypatch.setenv("FLET_SESSION_TIMEOUT", str(LOAD_EXPIRY_S))
    server = start_server(tmp_path / "data", tmp_path / "server.log")
    figures: dict = {}
    try:
        benchmark.pedantic(lambda: figures.update(asyncio.run(_load(server, library))),
                           rounds=1, iterations=1)
    finally:
        stop_server(server)
    print()
    print("load, 20 sessions × 60 s: " + ", ".join(f"{k} {v}" for k, v in figures.items()))
    benchmark.extra_info.update({k: str(v) for k, v in figures.items()})
    assert figures["sessions"] == LOAD_SESSIONS
    assert figures["errors"] == 0, figures["first errors"]
    assert figures["second wave errors"] == 0
    assert figures["records stored"] == figures["records added"] > 0
    assert figures["resumed after a short break"] == "1/1"
    assert figures[f"kept after {LOAD_EXPIRY_S + 12} s"].startswith("0/")
