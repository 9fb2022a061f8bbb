"""The fault suite's writers and its check (tests/ledger/test_crash_faults.py, quick; and
tests/bench/test_faults_bench.py::test_sigkill_fault_suite, >= 30 kills).

Each writer is a real process (``python -m tests.support.faultload ROLE PATH NAME``) working on
one ledger file through :class:`handbook.ledger.Ledger` -- the same calls the record form, the
player page's Remove and the import screen make. It reports on stdout, one line per change and
only once the call returned (the point at which the app says "Recorded", "Removed" or
"Imported"):

* ``A <id>``: a record added; ``R <id>``: a record removed (an adder removes every fifth of its
  own records); ``r <id>``: its removal begins (killed before ``R``, the record may be gone or kept);
* ``S <batch>``: an import of :data:`IMPORT_SIZE` records (ids ``<batch>-<n>``) begins;
  ``I <batch>``: it returned.

The parent kills writers with SIGKILL at random moments, starts new ones on the same file, and
at the end :func:`verdict` compares what was acknowledged with what is on disk.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

IMPORT_SIZE = 3000
NOTEN = "Noten Riichi"


def _say(line: str) -> None:
    os.write(1, (line + "\n").encode())


def _ledger(path: str):
    from handbook.ledger import Ledger
    from handbook.storage import open_db

    return Ledger(open_db(path))


def import_text(batch: str, n: int = IMPORT_SIZE) -> str:
    """A ledger export of ``n`` records with ids ``<batch>-0`` ... (one player per 50)."""
    records = [{"id": f"{batch}-{i}", "player": f"{batch} player {i // 50}", "club": None,
                "date": "2026-04-01", "ruleset": "azrm", "foul_id": "noten-riichi", "foul": NOTEN,
                "penalty": "Chombo", "kind": "chombo", "points": 30, "strike": True, "note": "",
                "created": "2026-04-01T10:00:00+00:00"} for i in range(n)]
    return json.dumps({"format": "riichi-judge-handbook/ledger", "version": 1, "records": records})


def adder(path: str, name: str) -> None:
    ledger = _ledger(path)
    _say("ready")
    mine: list[str] = []
    i = 0
    while True:
        rec = ledger.add(f"{name} {i % 7}", "2026-04-01", "azrm", NOTEN, note=f"{name}-{i}")
        _say(f"A {rec.id}")
        mine.append(rec.id)
        i += 1
        if i % 5 == 0:
            _say(f"r {mine[0]}")  # a removal under way: killed now, the record may be gone or kept
            gone = ledger.remove(mine.pop(0))
            _say(f"R {gone.id}")


def importer(path: str, name: str) -> None:
    ledger = _ledger(path)
    texts = [(f"{name}b{k}", import_text(f"{name}b{k}")) for k in range(2)]
    _say("ready")
    for batch, text in texts:
        _say(f"S {batch}")
        ledger.import_text(text, "json")
        _say(f"I {batch}")
    while True:  # stay alive to be killed like the others
        os.read(0, 1) or os._exit(0)


def start(role: str, path: Path, name: str) -> subprocess.Popen:
    """A writer process (``role`` "adder" or "importer"), started in its own process group."""
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "tests.support.faultload", role, str(path), name],
                            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, start_new_session=True)


class Acks:
    """What the writers were told was done, from their report lines."""

    def __init__(self) -> None:
        self.added: set[str] = set()
        self.removed: set[str] = set()
        #: removals begun (acknowledged or not): such a record may be gone without its "R" line
        self.removing: set[str] = set()
        self.imports_started: set[str] = set()
        self.imported: set[str] = set()

    def take(self, text: str) -> None:
        for line in text.splitlines():
            kind, _, value = line.partition(" ")
            if kind == "A":
                self.added.add(value)
            elif kind == "R":
                self.removed.add(value)
            elif kind == "r":
                self.removing.add(value)
            elif kind == "S":
                self.imports_started.add(value)
            elif kind == "I":
                self.imported.add(value)


def verdict(path: Path, acks: Acks) -> dict:
    """Open the ledger as a restarted server would and compare it with ``acks``: acknowledged
    records lost, acknowledged removals back, imports neither whole nor absent, temp files left,
    whether the file is valid JSON, and the damage reports."""
    from handbook.storage import open_db

    temps_before = len(list(path.parent.glob(f".{path.name}.*.tmp")))
    valid = True
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        valid = False
    db = open_db(path)
    stored = {d["id"] for d in db.table("records").all()}
    lost = sorted((acks.added - acks.removed - acks.removing) - stored)
    back = sorted(acks.removed & stored)
    partial, imported_lost = [], []
    for batch in acks.imports_started:
        have = sum(1 for i in range(IMPORT_SIZE) if f"{batch}-{i}" in stored)
        if have not in (0, IMPORT_SIZE):
            partial.append((batch, have))
        if batch in acks.imported and have != IMPORT_SIZE:
            imported_lost.append(batch)
    temps = sorted(p.name for p in path.parent.glob(f".{path.name}.*.tmp"))
    return {"stored": len(stored), "acknowledged": len(acks.added - acks.removed), "lost": lost,
            "removed_back": back, "partial_imports": partial, "imports_lost": imported_lost,
            "imports_whole": sum(1 for b in acks.imports_started if f"{b}-0" in stored),
            "imports_started": len(acks.imports_started), "temp_before_restart": temps_before, "temp_left": temps, "valid": valid,
            "damages": [d.reason for d in db.storage.damages]}


def round_of_kills(path: Path, acks: Acks, rng, *, adders: int = 2, wait_s: tuple[float, float] = (0.2, 1.5)
                   ) -> dict:
    """One round: ``adders`` adders and an importer on ``path`` at once, every one of them
    killed with SIGKILL after a random time in ``wait_s`` (the importer, half the rounds, a
    random moment after its import began), their reports added to ``acks``. Returns
    ``{"killed": processes killed, "mid_import": 1 when the importer died inside an import}``."""
    import signal
    import time

    tag = f"r{rng.randrange(10**9)}"
    procs = [start("adder", path, f"{tag}a{k}") for k in range(adders)]
    imp = start("importer", path, f"{tag}i")
    texts = {p: "" for p in [*procs, imp]}
    for p in texts:
        texts[p] += p.stdout.readline().decode()  # "ready" (or "" when it died)
    if rng.random() < 0.5:
        line = imp.stdout.readline().decode()  # "S <batch>": the import began
        texts[imp] += line
        time.sleep(rng.uniform(0.0, 0.6))
    else:
        time.sleep(rng.uniform(*wait_s))
    for p in texts:
        os.killpg(p.pid, signal.SIGKILL)
    for p in texts:
        p.wait()
        texts[p] += p.stdout.read().decode()
        p.stdout.close()
        p.stdin.close()
        acks.take(texts[p])
    started = [ln.split()[1] for ln in texts[imp].splitlines() if ln.startswith("S ")]
    done = [ln.split()[1] for ln in texts[imp].splitlines() if ln.startswith("I ")]
    return {"killed": len(texts), "mid_import": int(len(started) > len(done))}


def main(argv: list[str]) -> None:
    role, path, name = argv
    {"adder": adder, "importer": importer}[role](path, name)


if __name__ == "__main__":  # pragma: no cover - a writer process
    main(sys.argv[1:])
