"""Issue 44's ledger API: table, hanchan, reason; revoke / unrevoke; the day's incidents; a
table's point penalties; the same-incident warning; exports old releases read."""

from __future__ import annotations

import datetime
import json

import pytest

from handbook.ledger import Ledger, LedgerImportError
from handbook.storage import open_db

DAY = datetime.date(2026, 5, 2)
NOTEN = "Noten Riichi"                               # AZRM: Chombo 30P, a Strike
WARN = "Wrongly revealing tiles: 1 or 2 tiles"       # AZRM: Warning, not a Strike
T0 = datetime.datetime(2026, 5, 2, 10, 0, tzinfo=datetime.UTC)


@pytest.fixture
def ledger(tmp_path, library):
    return Ledger(open_db(tmp_path / "ledger.json"), library)


def test_add_keeps_table_hanchan_and_reason_and_they_survive_a_reopen(ledger, tmp_path, library):
    rec = ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=2, reason="declared riichi, noten")
    assert (rec.table, rec.hanchan, rec.reason, rec.revoked) == ("7", 2, "declared riichi, noten", None)
    again = Ledger(open_db(tmp_path / "ledger.json"), library).records()[0]
    assert again == rec


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"table": "x" * 21}, "table"), ({"table": 7}, "table"), ({"hanchan": 0}, "hanchan"),
    ({"hanchan": 100}, "hanchan"), ({"hanchan": True}, "hanchan"), ({"hanchan": "2"}, "hanchan"),
    ({"reason": 5}, "reason"), ({"reason": "bell\x07"}, "reason"),
])
def test_add_refuses_a_bad_table_hanchan_or_reason_naming_it(ledger, kwargs, named):
    with pytest.raises(ValueError, match=rf"^{named}"):
        ledger.add("Alice", DAY, "azrm", NOTEN, **kwargs)
    assert ledger.records() == []


def test_revoke_counts_for_nothing_keeps_history_and_unrevoke_restores(ledger):
    rec = ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=1)
    assert ledger.status("Alice", DAY).strikes_in_window == 1
    assert ledger.penalties_for(DAY, "7") == {"Alice": 30}
    gone = ledger.revoke(rec.id, "overturned on appeal", now=T0)
    assert gone.revoked.reason == "overturned on appeal" and gone.revoked.time == T0
    assert ledger.records("Alice") == [gone]                     # still in the history
    assert ledger.status("Alice", DAY).strikes_in_window == 0
    assert ledger.players()[0].strikes == 0 and ledger.players()[0].records == 1
    assert ledger.penalties_for(DAY, "7") == {}
    back = ledger.unrevoke(rec.id)
    assert back == rec and ledger.status("Alice", DAY).strikes_in_window == 1


@pytest.mark.parametrize(("record_id", "message"), [
    ("no-such-record", "record_id: no record with id 'no-such-record'"),
    ("", "record_id: '' is not a record id"), (None, "record_id: None is not a record id"),
    ("bad id!", "record_id: 'bad id!' is not a record id"), (12, "record_id: 12 is not a record id"),
])
def test_revoke_and_unrevoke_refuse_a_bad_or_unknown_id(ledger, record_id, message):
    ledger.add("Alice", DAY, "azrm", NOTEN)
    with pytest.raises(ValueError) as err:
        ledger.revoke(record_id, "mistake")
    assert str(err.value).startswith(message), str(err.value)
    with pytest.raises(ValueError) as err:
        ledger.unrevoke(record_id)
    assert str(err.value).startswith(message), str(err.value)


@pytest.mark.parametrize("reason", ["", "   ", None, "x" * 2001])
def test_revoke_needs_a_reason(ledger, reason):
    rec = ledger.add("Alice", DAY, "azrm", NOTEN)
    with pytest.raises(ValueError, match=r"^reason"):
        ledger.revoke(rec.id, reason)
    assert ledger.records()[0].revoked is None


def test_revoking_twice_or_unrevoking_a_counting_record_is_refused(ledger):
    rec = ledger.add("Alice", DAY, "azrm", NOTEN)
    with pytest.raises(ValueError, match=r"^record_id: .* is not revoked"):
        ledger.unrevoke(rec.id)
    ledger.revoke(rec.id, "mistake", now=T0)
    with pytest.raises(ValueError, match=r"^record_id: .* already revoked at 2026-05-02T10:00:00\+00:00"):
        ledger.revoke(rec.id, "again")
    assert ledger.records()[0].revoked.reason == "mistake"


def test_incidents_lists_the_day_by_time_filtered_by_table(ledger):
    b = ledger.add("Bob", DAY, "azrm", WARN, table="3", created=T0 + datetime.timedelta(minutes=5))
    a = ledger.add("Alice", DAY, "azrm", NOTEN, table="7", created=T0)
    c = ledger.add("Carol", DAY, "azrm", NOTEN, table="7", created=T0 + datetime.timedelta(minutes=9))
    ledger.add("Dan", DAY + datetime.timedelta(days=1), "azrm", NOTEN, table="7")
    ledger.revoke(c.id, "wrong player")
    assert [r.id for r in ledger.incidents(DAY)] == [a.id, b.id, c.id]
    assert [r.id for r in ledger.incidents(DAY.isoformat(), table="7")] == [a.id, c.id]
    assert ledger.incidents(DAY, table="12") == []
    with pytest.raises(ValueError, match=r"^date"):
        ledger.incidents("yesterday")
    with pytest.raises(ValueError, match=r"^table"):
        ledger.incidents(DAY, table="x" * 30)


def test_penalties_for_sums_the_counting_point_penalties_of_the_table_and_hanchan(ledger):
    ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=1)
    ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=2)
    ledger.add("Bob", DAY, "azrm", WARN, table="7", hanchan=1)     # a Warning: no points
    ledger.add("Carol", DAY, "azrm", NOTEN, table="8", hanchan=1)
    assert ledger.penalties_for(DAY, "7") == {"Alice": 60}
    assert ledger.penalties_for(DAY, "7", hanchan=1) == {"Alice": 30}
    assert ledger.penalties_for(DAY, "8", 2) == {}
    for bad, named in (({"table": None}, "table"), ({"table": " "}, "table"),
                       ({"table": "7", "hanchan": 0}, "hanchan"), ({"table": "7", "date": "x"}, "date")):
        args = {"date": DAY, **bad}
        with pytest.raises(ValueError, match=rf"^{named}"):
            ledger.penalties_for(**args)


def test_penalty_lines_are_the_records_behind_penalties_for(ledger):
    """Each line names its record (id, player, foul, P); revoked records and records without
    points are not lines; table and hanchan filter as penalties_for does."""
    a1 = ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=1, created=T0)
    a2 = ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=2, created=T0 + datetime.timedelta(minutes=5))
    ledger.add("Bob", DAY, "azrm", WARN, table="7", hanchan=1)     # a Warning: no points, no line
    gone = ledger.add("Dan", DAY, "azrm", NOTEN, table="7", hanchan=1)
    ledger.revoke(gone.id, "given by mistake")
    c = ledger.add("Carol", DAY, "azrm", NOTEN, table="8", hanchan=1)
    ledger.add("Alice", DAY + datetime.timedelta(days=1), "azrm", NOTEN, table="7", hanchan=1)
    lines = ledger.penalty_lines(DAY, "7")
    assert [(r.id, r.player, r.foul, r.points) for r in lines] == [
        (a1.id, "Alice", NOTEN, 30), (a2.id, "Alice", NOTEN, 30)]
    assert ledger.penalty_lines(DAY, "7", 1) == [a1]
    assert ledger.penalty_lines(DAY, "7", 3) == []
    # penalties_for is their sum per player
    assert ledger.penalties_for(DAY, "7") == {"Alice": sum(r.points for r in lines)}
    # by players (without case, blank names ignored), at any table, or at one
    assert ledger.penalty_lines(DAY, players=["carol", "", "ALICE"]) == [a1, a2, c]
    assert ledger.penalty_lines(DAY, "8", players=["alice", "Carol"]) == [c]
    assert ledger.penalty_lines(DAY, players=["Dan"]) == []
    ledger.unrevoke(gone.id)
    assert [r.player for r in ledger.penalty_lines(DAY, "7", 1)] == ["Alice", "Dan"]


@pytest.mark.parametrize(("kwargs", "named"), [
    ({}, "table"), ({"table": " "}, "table"), ({"players": ["", " "]}, "table"),
    ({"table": "x" * 21}, "table"), ({"table": 7}, "table"),
    ({"table": "7", "hanchan": 0}, "hanchan"), ({"table": "7", "hanchan": "1"}, "hanchan"),
    ({"date": "2026-13-01", "table": "7"}, "date"),
    ({"players": "Alice"}, "players"), ({"players": ["Alice", 3]}, "players"),
    ({"players": ["bell\x07"]}, "players"), ({"players": 5}, "players"),
])
def test_penalty_lines_refuse_a_bad_argument_naming_it(ledger, kwargs, named):
    ledger.add("Alice", DAY, "azrm", NOTEN, table="7", hanchan=1)
    with pytest.raises(ValueError, match=rf"^{named}"):
        ledger.penalty_lines(**{"date": DAY, **kwargs})


def test_same_incident_finds_the_same_player_and_row_within_a_minute(ledger):
    first = ledger.add("Alice", DAY, "azrm", NOTEN, created=T0)
    assert ledger.same_incident("alice", "azrm", NOTEN, now=T0 + datetime.timedelta(seconds=40)) == [first]
    assert ledger.same_incident("Alice", "azrm", NOTEN, now=T0 + datetime.timedelta(seconds=61)) == []
    assert ledger.same_incident("Alice", "azrm", WARN, now=T0) == []
    assert ledger.same_incident("Bob", "azrm", NOTEN, now=T0) == []
    ledger.revoke(first.id, "mistake")
    assert ledger.same_incident("Alice", "azrm", NOTEN, now=T0) == []


def test_an_export_without_new_fields_stays_version_1_with_the_old_columns(ledger):
    ledger.add("Alice", DAY, "azrm", NOTEN)
    doc = json.loads(ledger.export_json())
    assert doc["version"] == 1
    assert set(doc["records"][0]) == {"id", "player", "club", "date", "ruleset", "foul_id", "foul",
                                      "penalty", "kind", "points", "strike", "note", "created"}
    assert ledger.export_csv().splitlines()[0] == (
        "id,player,club,date,ruleset,foul_id,foul,penalty,kind,points,strike,note,created")


def test_a_new_export_round_trips_and_marks_revoked_records(ledger, tmp_path, library):
    rec = ledger.add("Alice", DAY, "azrm", NOTEN, table="=7", hanchan=3, reason="+said riichi")
    ledger.revoke(rec.id, "=overturned", now=T0)
    doc = json.loads(ledger.export_json())
    assert doc["version"] == 2
    assert doc["records"][0]["revoked"] == {"time": T0.isoformat(), "reason": "=overturned"}
    text = ledger.export_csv()
    header, line = text.splitlines()[:2]
    assert header.endswith(",table,hanchan,reason,revoked,revoked_reason")
    assert "'=7" in line and "'=overturned" in line and "'+said riichi" in line  # no formula cells
    for fmt, exported in (("json", ledger.export_json()), ("csv", text)):
        other = Ledger(open_db(tmp_path / f"other-{fmt}.json"), library)
        other.import_text(exported, fmt)
        assert other.records() == ledger.records()
        assert other.status("Alice", DAY).strikes_in_window == 0


def test_an_old_export_imports_unchanged(ledger, tmp_path, library):
    old = {"format": "riichi-judge-handbook/ledger", "version": 1, "records": [
        {"player": "Alice", "date": "2026-05-02", "ruleset": "azrm", "foul": NOTEN}]}
    ledger.import_json(json.dumps(old))
    again = Ledger(open_db(tmp_path / "again.json"), library)
    again.import_json(json.dumps(old))
    # ids derived from content are what the previous release made: a second import adds nothing
    assert ledger.import_json(json.dumps(old)).added == 0
    assert [r.id for r in ledger.records()] == [r.id for r in again.records()]
    r = ledger.records()[0]
    assert (r.table, r.hanchan, r.reason, r.revoked) == (None, None, "", None)


@pytest.mark.parametrize(("entry", "message"), [
    ({"revoked": {"time": "2026-05-02T10:00:00+00:00"}}, "entry 1: revoked must be null or an object"),
    ({"revoked": {"time": "2026-05-02T10:00:00+00:00", "reason": ""}}, "entry 1: revoked needs"),
    ({"hanchan": 0}, "entry 1: hanchan"), ({"table": "x" * 21}, "entry 1: table"),
])
def test_a_bad_new_field_in_an_import_is_refused(ledger, entry, message):
    doc = {"format": "riichi-judge-handbook/ledger", "version": 2, "records": [
        {"player": "Alice", "date": "2026-05-02", "ruleset": "azrm", "foul": NOTEN, **entry}]}
    with pytest.raises(LedgerImportError) as err:
        ledger.import_json(json.dumps(doc))
    assert str(err.value).startswith(message), str(err.value)
    assert ledger.records() == []


def test_the_days_incidents_as_csv_escape_formulas_and_mark_revocations(ledger):
    import csv
    import io

    a = ledger.add("=HYPERLINK(1)", DAY, "azrm", NOTEN, table="7", hanchan=1, reason="@said riichi",
                   created=T0)
    ledger.add("Bob", DAY, "azrm", WARN, table="3", created=T0 + datetime.timedelta(minutes=1))
    ledger.revoke(a.id, "+wrong player", now=T0)
    rows = list(csv.reader(io.StringIO(ledger.incidents_csv(DAY))))
    assert rows[0] == ["time", "table", "hanchan", "player", "club", "ruleset", "foul", "penalty",
                       "points", "strike", "reason", "revoked"]
    assert [r[3] for r in rows[1:]] == ["'=HYPERLINK(1)", "Bob"]          # by time, escaped
    assert rows[1][1:3] == ["7", "1"] and rows[1][9] == "false" and rows[1][10] == "'@said riichi"
    assert rows[1][11] == f"{T0.isoformat()} +wrong player"
    assert [r[3] for r in csv.reader(io.StringIO(ledger.incidents_csv(DAY, table="3")))][1:] == ["Bob"]
    with pytest.raises(ValueError, match=r"^date"):
        ledger.incidents_csv("not a day")
