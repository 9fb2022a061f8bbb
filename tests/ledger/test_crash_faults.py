"""The quick part of the SIGKILL fault suite (the bench runs >= 30 rounds:
tests/bench/test_faults_bench.py::test_sigkill_fault_suite): two writer processes adding and
removing and one importing 3,000 records at once on one ledger file, every one killed with
SIGKILL, the file opened again as a restarted server would (tests/support/faultload.py)."""

from __future__ import annotations

import random

from tests.support import faultload


def test_no_acknowledged_record_is_lost_when_writers_and_an_import_are_killed(tmp_path):
    path = tmp_path / "ledger.json"
    acks = faultload.Acks()
    rng = random.Random(46)
    rounds = [faultload.round_of_kills(path, acks, rng) for _ in range(2)]
    found = faultload.verdict(path, acks)
    assert sum(r["killed"] for r in rounds) == 6
    assert found["acknowledged"] > 0, "the writers never got going: nothing was tested"
    assert found["lost"] == []
    assert found["removed_back"] == []
    assert found["partial_imports"] == [] and found["imports_lost"] == []
    assert found["valid"] and found["temp_left"] == [] and found["damages"] == []
