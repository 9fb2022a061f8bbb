"""The quick part of the served-app SIGKILL suite (the bench kills it >= 30 times:
tests/bench/test_served_faults_bench.py): ``python -m handbook serve`` killed twice while two
judges add and revoke records and a third imports a 3,000-record file over Flet's websocket,
restarted on the same folder each time; every record a judge's screen said was recorded is on
disk, every revocation it said was done is kept, the import is whole or absent, the file valid;
then the file is cut short and the restarted server sets it aside and shows the damage banner
(tests/support/served_faults.py)."""

from __future__ import annotations

from tests.support import served_faults


def test_no_acknowledged_record_is_lost_when_the_served_app_is_killed(tmp_path):
    figures = served_faults.run(tmp_path / "data", tmp_path, rounds=2, seed=46, per_folder=2,
                                modes=("import began", "import acknowledged"))
    assert figures["kills"] == 2
    assert figures["acknowledged"] > 0, f"the judges never got going: nothing was tested {figures}"
    assert figures["imports started"] > 0, figures
    assert figures["judge errors"] == [], figures["judge errors"]
    assert figures["lost"] == [] and figures["revocations undone"] == []
    assert figures["partial imports"] == [] and figures["acknowledged imports lost"] == []
    assert figures["invalid after kill"] == 0 and figures["temp files left"] == 0
    assert figures["banner wrong"] == []
    assert figures["damaged files"] and all(d["banner"] and d["set aside whole"] for d in figures["damaged files"])
