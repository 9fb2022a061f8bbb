"""handbook.ledger: records, Strikes from the AZRM rows, export/import with validation."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest

import handbook
from handbook.ledger import FIELDS, Ledger, LedgerImportError, Record, player_key
from handbook.storage import open_db

D = datetime.date
NOTEN = "Noten Riichi"                               # AZRM 3.x: Chombo 30P, strike = true
WARN = "Wrongly revealing tiles: 1 or 2 tiles"       # AZRM 2.4: Warning, strike = false
CONTINUE = "Calling with a Dead Hand"                # Minor Chombo (continue): strike = false
DISCRETION = "Obstruction"                           # Judge's discretion: no strike in the row


@pytest.fixture
def path(tmp_path):
    return tmp_path / "ledger.json"


@pytest.fixture
def ledger(path, library):
    return Ledger(open_db(path), library)


def _fresh(tmp_path, library, name="other.json"):
    return Ledger(open_db(tmp_path / name), library)


# --- records and Strikes ----------------------------------------------------------------------

def test_the_azrm_row_decides_the_strike(ledger, library):
    rows = {r.foul: r for r in library.rulesets["azrm"].penalties}
    assert rows[NOTEN].strike is True and rows[WARN].strike is False and rows[DISCRETION].strike is None
    a = ledger.add("Alice", "2026-04-01", "azrm", NOTEN)
    b = ledger.add("Alice", "2026-04-01", "azrm", WARN)
    c = ledger.add("Alice", "2026-04-01", "azrm", CONTINUE)
    assert (a.strike, b.strike, c.strike) == (True, False, False)
    assert (a.kind, a.points, a.penalty, a.foul_id) == ("chombo", 30, "Chombo 30P", "noten-riichi")
    assert ledger.strike_dates("Alice") == [D(2026, 4, 1)]


def test_every_azrm_row_with_a_strike_value_is_copied(ledger, library):
    for row in library.rulesets["azrm"].penalties:
        if row.strike is None:
            continue
        rec = ledger.add("Eve", "2026-01-01", "azrm", row.foul)
        assert rec.strike is row.strike, row.foul
        assert rec.kind == (row.kind.value if row.kind else None) and rec.points == row.points


def test_a_discretionary_row_needs_the_judge(ledger):
    with pytest.raises(ValueError, match=r"^strike: .*Obstruction.*leaves the Strike to the judge"):
        ledger.add("Bob", "2026-04-01", "azrm", DISCRETION)
    yes = ledger.add("Bob", "2026-04-01", "azrm", DISCRETION, strike=True, points=5)
    no = ledger.add("Bob", "2026-04-02", "azrm", DISCRETION, strike=False)
    assert (yes.strike, yes.points, no.strike, no.points) == (True, 5, False, None)
    assert ledger.strike_dates("Bob") == [D(2026, 4, 1)]


def test_the_judge_cannot_contradict_the_row(ledger):
    with pytest.raises(ValueError, match=r"^strike: the AZRM row 'Noten Riichi' is a Strike"):
        ledger.add("Bob", "2026-04-01", "azrm", NOTEN, strike=False)
    with pytest.raises(ValueError, match=r"^points: the row gives 30P"):
        ledger.add("Bob", "2026-04-01", "azrm", NOTEN, points=10)
    assert ledger.records() == []


def test_nothing_is_a_strike_outside_azrm(ledger, library):
    row = library.rulesets["wrc-2025"].penalties[0]
    rec = ledger.add("Carol", "2026-04-01", "wrc-2025", row.foul)
    assert rec.strike is False
    with pytest.raises(ValueError, match="^strike: only AZRM"):
        ledger.add("Carol", "2026-04-01", "wrc-2025", row.foul, strike=True)
    assert ledger.strike_dates("Carol") == []


def test_three_azrm_strikes_in_a_day_suspend_the_player(ledger):
    for foul in (NOTEN, "Empty call for Ron/Tsumo", "Cheating"):
        ledger.add("Dan", "2026-04-10", "azrm", foul)
    ledger.add("Dan", "2026-04-10", "azrm", WARN)  # a Warning: no Strike
    st = ledger.status("Dan", D(2026, 4, 10))
    assert (st.strikes_today, st.suspended, st.suspension_start, st.suspension_end) == (
        3, True, D(2026, 4, 10), D(2026, 4, 23))
    assert st == handbook.strike_status([D(2026, 4, 10)] * 3, D(2026, 4, 10))


def test_bad_arguments_name_the_argument(ledger):
    with pytest.raises(ValueError, match=r"^date '2026-13-01' is not a date \(YYYY-MM-DD\)"):
        ledger.add("A", "2026-13-01", "azrm", NOTEN)
    with pytest.raises(ValueError, match="^player is empty"):
        ledger.add("  ", "2026-01-01", "azrm", NOTEN)
    with pytest.raises(ValueError, match="^ruleset: unknown ruleset 'nope'"):
        ledger.add("A", "2026-01-01", "nope", NOTEN)
    with pytest.raises(ValueError, match="^foul: 'Dancing' is not a foul in the azrm penalty table"):
        ledger.add("A", "2026-01-01", "azrm", "Dancing")
    with pytest.raises(ValueError, match="^foul: 'revealed-tiles' names 4 rows"):
        ledger.add("A", "2026-01-01", "azrm", "revealed-tiles")
    assert ledger.records() == []


def test_players_are_one_per_name_and_club_whatever_the_case(ledger):
    ledger.add("Alice  Smith", "2026-04-01", "azrm", NOTEN, club="AZ-1")
    b = ledger.add("alice smith", "2026-04-02", "azrm", NOTEN, club="az-1")
    ledger.add("Alice Smith", "2026-04-03", "azrm", WARN)  # no club: another player
    assert (b.player, b.club) == ("Alice Smith", "AZ-1")  # the stored spelling
    players = ledger.players()
    assert [(p.key, p.records, p.strikes) for p in players] == [
        ("Alice Smith", 1, 0), ("Alice Smith~AZ-1", 2, 2)]
    assert ledger.player("alice smith~az-1").key == "Alice Smith~AZ-1"
    assert player_key(" Alice  Smith ", " AZ-1") == "Alice Smith~AZ-1"


def test_remove_returns_the_record_and_restore_puts_it_back(ledger, path):
    a = ledger.add("Alice", "2026-04-01", "azrm", NOTEN, note="table 3, round 2")
    b = ledger.add("Alice", "2026-04-02", "azrm", NOTEN)
    removed = ledger.remove(a.id)
    assert removed == a
    assert ledger.records("Alice") == [b]
    ledger.restore(removed)
    ledger.restore(removed)  # twice: still once
    assert ledger.records("Alice") == [a, b]
    with pytest.raises(KeyError):
        ledger.remove("no-such-id")
    # it is on disk, not only in memory
    assert Ledger(open_db(path)).records("Alice") == [a, b]


def test_records_are_oldest_first(ledger):
    late = ledger.add("A", "2026-05-01", "azrm", NOTEN)
    early = ledger.add("A", "2026-04-01", "azrm", NOTEN)
    assert ledger.records() == [early, late]


# --- export and import --------------------------------------------------------------------------

def _sample(ledger):
    ledger.add("Ålice «Ace»", "2026-04-01", "azrm", NOTEN, club="AZ,1",
               note='table 3, round "South 2"\nsecond line')
    ledger.add("Ålice «Ace»", "2026-04-02", "azrm", DISCRETION, club="AZ,1", strike=True, points=5)
    ledger.add("Bob", "2026-04-03", "azrm", WARN)
    ledger.add("山田 太郎", "2026-04-04", "ema-rcr", "Few tiles")
    return ledger.records()


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_then_import_gives_the_same_records(ledger, tmp_path, library, fmt):
    records = _sample(ledger)
    text = ledger.export_json() if fmt == "json" else ledger.export_csv()
    other = _fresh(tmp_path, library)
    result = other.import_text(text, name=f"x.{fmt}")
    assert (result.added, result.skipped) == (4, 0)
    assert other.records() == records
    # importing the same file again adds nothing
    assert other.import_text(text, fmt).added == 0


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_a_players_export_holds_only_their_records(ledger, tmp_path, library, fmt):
    _sample(ledger)
    key = "Ålice «Ace»~AZ,1"
    text = ledger.export_json(key) if fmt == "json" else ledger.export_csv(key)
    other = _fresh(tmp_path, library)
    other.import_text(text, fmt)
    assert other.records() == ledger.records(key)
    assert len(other.records()) == 2


def test_export_file_writes_into_the_folder(ledger, tmp_path):
    _sample(ledger)
    now = datetime.datetime(2026, 4, 20, 19, 30, 0)
    p = ledger.export_file(tmp_path / "out", "csv", "Bob", now=now)
    assert p.name == "ledger-Bob-20260420-193000.csv"
    rows = list(csv.DictReader(io.StringIO(p.read_text(encoding="utf-8"))))
    assert [r["player"] for r in rows] == ["Bob"]
    q = ledger.export_file(tmp_path / "out", "json", now=now)
    assert q.name == "ledger-20260420-193000.json"
    assert len(json.loads(q.read_text())["records"]) == 4


def _csv(*rows: dict, header=FIELDS) -> str:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=header, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def _row(**over) -> dict:
    base = {"id": "", "player": "Zed", "club": "", "date": "2026-04-01", "ruleset": "azrm",
            "foul_id": "noten-riichi", "foul": NOTEN, "penalty": "Chombo 30P", "kind": "chombo",
            "points": "30", "strike": "true", "note": "", "created": "2026-04-01T10:00:00+00:00"}
    base.update(over)
    return {k: v for k, v in base.items() if k in FIELDS}


CSV_REFUSALS = [
    (_csv(_row(), _row(), _row(date="2026-13-01")),
     "line 4: date '2026-13-01' is not a date (YYYY-MM-DD)"),
    (_csv(_row(date="01/04/2026")), "line 2: date '01/04/2026' is not a date (YYYY-MM-DD)"),
    (_csv(_row(ruleset="wrc-2099")), "line 2: ruleset 'wrc-2099' is not one of azrm"),
    (_csv(_row(foul="Dancing")), "line 2: foul 'Dancing' is not a foul in the azrm penalty table"),
    (_csv(_row(foul_id="late")), "line 2: foul_id 'late' does not match the foul 'Noten Riichi'"),
    (_csv(_row(strike="false")), "line 2: strike: the AZRM row 'Noten Riichi' is a Strike"),
    (_csv(_row(strike="maybe")), "line 2: strike 'maybe' is not true or false"),
    (_csv(_row(foul=DISCRETION, foul_id="obstruction", strike="")),
     "line 2: strike: the AZRM row 'Obstruction' leaves the Strike to the judge"),
    (_csv(_row(points="-3")), "line 2: points '-3' is not a whole number of P"),
    (_csv(_row(points="2.5")), "line 2: points '2.5' is not a whole number of P"),
    (_csv(_row(kind="slap")), "line 2: kind 'slap' is not one of none, warning"),
    (_csv(_row(player="")), "line 2: player is missing"),
    (_csv(_row(created="yesterday")), "line 2: created 'yesterday' is not a date and time"),
    (_csv(_row(id="a b")), "line 2: id 'a b' is not an id"),
    (_csv(_row(id="same"), _row(id="same")), "line 3: id 'same' appears twice (also line 2)"),
    ("player,date,ruleset\nZed,2026-04-01,azrm\n", "line 1: missing column(s) 'foul'"),
    (f"player,date,ruleset,foul,colour\nZed,2026-04-01,azrm,{NOTEN},red\n",
     "line 1: unknown column(s) 'colour'"),
    ("player,date,ruleset,foul\nZed,2026-04-01,azrm\n",
     "line 2: has 3 value(s) but the header has 4 column(s)"),
    ("", "the file is empty"),
    ("player,date,ruleset,foul\n", "the file holds no records"),
]


@pytest.mark.parametrize("text,expected", CSV_REFUSALS)
def test_a_bad_csv_is_refused_with_line_and_reason_and_nothing_changes(ledger, path, text, expected):
    _sample(ledger)
    before_records = ledger.records()
    before_file = path.read_bytes()
    with pytest.raises(LedgerImportError) as err:
        ledger.import_csv(text)
    assert str(err.value).startswith(expected), str(err.value)
    assert str(err.value).endswith("nothing was imported")
    assert path.read_bytes() == before_file
    assert ledger.records() == before_records


def test_a_good_csv_line_after_a_multiline_note_counts_lines_from_the_file(ledger):
    text = _csv(_row(note="one\ntwo\nthree"), _row(date="2026-02-30"))
    with pytest.raises(LedgerImportError, match=r"^line 5: date '2026-02-30'"):
        ledger.import_csv(text)


def _entry(**over) -> dict:
    e = {"player": "Zed", "date": "2026-04-01", "ruleset": "azrm", "foul": NOTEN}
    e.update(over)
    return e


def _doc(*entries) -> str:
    return json.dumps({"format": "riichi-judge-handbook/ledger", "version": 1, "records": list(entries)},
                      indent=2)


JSON_REFUSALS = [
    (_doc(_entry(), _entry(date="2026-13-01")), "entry 2: date '2026-13-01' is not a date (YYYY-MM-DD)"),
    (_doc(_entry(points="30")), "entry 1: points '30' is not a whole number of P"),
    (_doc(_entry(strike="true")), "entry 1: strike 'true' is not true or false"),
    (_doc(_entry(player=7)), "entry 1: player must be text, got 7"),
    (_doc(_entry(colour="red")), "entry 1: unknown field(s) 'colour'"),
    (_doc(_entry(), "Zed"), "entry 2: is a JSON str, not an object"),
    (_doc(_entry(ruleset=None)), "entry 1: ruleset is missing"),
    (_doc(_entry(club="x" * 41)), "entry 1: club is longer than 40 characters"),
    (_doc(_entry(note="bell\x07")), "entry 1: note contains control characters"),
    ('{"format": "riichi-judge-handbook/ledger",\n "records": [\n  {"player": "Zed",}\n ]}',
     "line 3, column 20: not valid JSON"),
    (json.dumps({"format": "something-else", "records": []}), "format 'something-else' is not"),
    (json.dumps({"format": "riichi-judge-handbook/ledger", "version": 3, "records": []}),
     "version 3 is not supported"),
    (json.dumps({"records": {"a": 1}}), "'records' is missing or is not a list"),
    ("42", "the top level is a JSON int"),
    ("[]", "the file holds no records"),
]


@pytest.mark.parametrize("text,expected", JSON_REFUSALS)
def test_a_bad_json_file_is_refused_with_entry_and_reason_and_nothing_changes(ledger, path, text, expected):
    _sample(ledger)
    before_file = path.read_bytes()
    with pytest.raises(LedgerImportError) as err:
        ledger.import_json(text)
    assert str(err.value).startswith(expected), str(err.value)
    assert path.read_bytes() == before_file


def test_every_problem_is_listed_not_just_the_first(ledger):
    with pytest.raises(LedgerImportError) as err:
        ledger.import_json(_doc(_entry(date="x"), _entry(), _entry(ruleset="nope")))
    assert [p.split(":")[0] for p in err.value.problems] == ["entry 1", "entry 3"]
    assert ledger.records() == []


def test_an_id_already_stored_with_other_contents_is_refused(ledger, tmp_path, library):
    rec = ledger.add("Zed", "2026-04-01", "azrm", NOTEN)
    changed = dict(rec.to_json(), note="edited elsewhere")
    with pytest.raises(LedgerImportError, match=r"^entry 1: id '\w+' is already in the ledger with other"):
        ledger.import_json(_doc(changed))
    assert ledger.records() == [rec]


def test_a_bare_list_and_missing_optional_fields_are_accepted(ledger):
    result = ledger.import_json(json.dumps([_entry(), _entry(foul=WARN, club="AZ", date="2026-04-02")]))
    assert result.added == 2
    a, b = ledger.records()
    assert (a.strike, a.points, a.kind, a.foul_id) == (True, 30, "chombo", "noten-riichi")
    assert (b.strike, b.club) == (False, "AZ")


def test_import_of_bytes_with_a_bom(ledger):
    text = "\ufeff" + _csv(_row())
    assert ledger.import_text(text.encode("utf-8"), name="x.csv").added == 1
    with pytest.raises(LedgerImportError, match="not UTF-8"):
        ledger.import_text(b"\xff\xfe\x00", name="x.csv")


def test_imported_strikes_feed_the_strike_window(ledger):
    text = _csv(*[_row(date=f"2026-04-{d:02d}") for d in (1, 5, 10, 15, 20, 25)])
    ledger.import_csv(text)
    st = ledger.status("Zed", D(2026, 4, 25))
    assert st.strikes_in_window == 6 and st.suspended and st.suspension_start == D(2026, 4, 25)


def test_record_json_round_trip():
    r = Record(id="x", player="P", club=None, date=D(2026, 1, 2), ruleset="azrm", foul_id="f",
               foul="F", penalty="W", kind=None, points=None, strike=False, note="",
               created=datetime.datetime(2026, 1, 2, 3, 4, 5, tzinfo=datetime.UTC))
    assert r.to_json()["date"] == "2026-01-02"
    assert r.to_csv()["points"] == "" and r.to_csv()["strike"] == "false"
