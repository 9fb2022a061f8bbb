"""The served app killed with SIGKILL >= 30 times while two judges add and revoke records and a
third imports 3,000-record files, restarted each time on the same folder (``make bench``; the
quick part: tests/ledger/test_served_crash.py). See tests/support/served_faults.py; the figures
go to docs/security.md ("Durability of the ledger")."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from tests.support import served_faults

KILLS = 30


def test_served_app_killed_30_times_loses_no_acknowledged_record(benchmark):
    figures: dict = {}
    # a folder of its own: pytest's tmp_path is removed by other pytest runs of this user (it keeps
    # the last three) while this one (~17 minutes here) still writes to it
    work = tempfile.TemporaryDirectory(prefix="rjh-served-faults-")
    tmp_path = Path(work.name)

    def run() -> None:
        figures.update(served_faults.run(tmp_path / "data", tmp_path, rounds=KILLS, seed=4646))

    benchmark.pedantic(run, rounds=1, iterations=1)
    shown = {k: (len(v) if isinstance(v, list) and k not in ("damaged files",) else v) for k, v in figures.items()}
    print("\nserved-app SIGKILL suite: " + json.dumps(shown, default=str))
    benchmark.extra_info.update({k: v if not isinstance(v, list) else len(v) for k, v in figures.items()})
    assert figures["kills"] >= 30 and figures["mid-import kills"] >= 5, figures
    assert figures["acknowledged"] >= 300 and figures["revocations acknowledged"] >= 3, figures
    assert figures["imports acknowledged"] >= 5, figures
    assert served_faults.held(figures), json.dumps(figures, default=str)[:3000]
    # judges whose screen took over 20 s before a kill (a ledger of ~15,000 records on a busy
    # machine): reported, not a record lost
    print(f"judge errors before a kill: {figures['judge errors'][:5]}")
    work.cleanup()
