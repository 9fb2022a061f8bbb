"""Faults a clumsy user, a damaged disk or a hostile file can cause: none loses a record, each is
refused or reported with a clear message."""

from __future__ import annotations

import csv
import io
import json

import pytest

from handbook import ledger as ledger_mod
from handbook.ledger import Ledger, LedgerImportError, csv_cell, csv_uncell
from handbook.storage import open_db

NOTEN = "Noten Riichi"
FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "'=already quoted",
            "'plain apostrophe", "=", "'"]


@pytest.fixture
def path(tmp_path):
    return tmp_path / "ledger.json"


@pytest.fixture
def ledger(path, library):
    return Ledger(open_db(path), library)


# --- CSV formula injection ----------------------------------------------------------------------

def test_no_exported_cell_starts_like_a_formula_and_import_gives_the_same_text(ledger, tmp_path,
                                                                              library):
    for i, text in enumerate(FORMULAS):
        ledger.add(f"{text} p{i}", "2026-04-01", "azrm", NOTEN, club=text[:40], note=text)
    exported = ledger.export_csv()
    for row in csv.reader(io.StringIO(exported)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    other = Ledger(open_db(tmp_path / "other.json"), library)
    assert other.import_text(exported, "csv").added == len(FORMULAS)
    assert other.records() == ledger.records()
    assert sorted(r.note for r in other.records()) == sorted(FORMULAS)


@pytest.mark.parametrize("text", FORMULAS + ["", "plain", "O'Brien", "-", "''", "'''="])
def test_csv_cell_round_trip(text):
    assert csv_uncell(csv_cell(text)) == text
    assert not csv_cell(text).startswith(("=", "+", "-", "@"))


# --- dates the strike window cannot use ---------------------------------------------------------

@pytest.mark.parametrize("day", ["0001-01-05", "0001-01-01", "9999-12-31", "9999-12-10"])
def test_a_date_whose_window_leaves_the_calendar_is_refused(ledger, day):
    with pytest.raises(ValueError, match="date .* is outside the calendar .* allowed: 0001-01-30 to "
                                         "9999-12-01"):
        ledger.add("Ann", day, "azrm", NOTEN)
    with pytest.raises(LedgerImportError, match="entry 1: date"):
        ledger.import_text(json.dumps([{"player": "Ann", "date": day, "ruleset": "azrm",
                                        "foul": NOTEN}]), "json")
    assert ledger.records() == []


def test_the_edge_days_are_accepted_and_their_status_works(ledger):
    ledger.add("Ann", ledger_mod.FIRST_DAY, "azrm", NOTEN)
    ledger.add("Bea", ledger_mod.LAST_DAY, "azrm", NOTEN)
    assert ledger.status("Ann", ledger_mod.FIRST_DAY).strikes_today == 1
    assert ledger.status("Bea", ledger_mod.LAST_DAY).strikes_today == 1


def test_the_form_refuses_an_early_strike_and_the_player_page_survives_a_stored_one(
        ctx, app_ledger):
    from tests.support.ledgerhelpers import Event, by_key, fire, visible_texts

    from handbook.ui.screens import build_view

    v = build_view(ctx, "/ledger")
    by_key(v, "player-name").value = "Cal"
    by_key(v, "date").value = "0001-01-05"
    pick = by_key(v, "foul")
    pick.value = str(app_ledger.row("azrm", NOTEN).index)
    fire(pick.on_select, Event(pick))
    fire(by_key(v, "add-record").on_click, None)
    assert "is outside the calendar" in visible_texts(v)
    assert app_ledger.records() == []
    # a record stored by an older version with such a date: the page shows a message, not a crash
    rec = app_ledger.add("Cal", "2026-04-01", "azrm", NOTEN)
    table = app_ledger.db.table("records")
    table.update({"date": "0001-01-05"}, doc_ids=[table.all()[0].doc_id])
    text = visible_texts(build_view(ctx, "/ledger/Cal"))
    assert "The strike window cannot be worked out for this player" in text
    assert rec.foul in text


# --- write errors -------------------------------------------------------------------------------

def _fail_writes(monkeypatch, errno_name="ENOSPC"):
    import errno
    import os

    from handbook import storage

    def full(path, text):
        raise OSError(getattr(errno, errno_name), os.strerror(getattr(errno, errno_name)))

    monkeypatch.setattr(storage, "atomic_write_text", full)


@pytest.mark.parametrize("errno_name,reason", [("ENOSPC", "No space left on device"),
                                               ("EROFS", "Read-only file system"),
                                               ("EACCES", "Permission denied")])
def test_a_full_disk_shows_a_message_and_keeps_the_data_and_the_form(ctx, app_ledger, monkeypatch, picker,
                                                                    errno_name, reason):
    from tests.support.ledgerhelpers import Event, by_key, fire, import_file, revoke_on_page, visible_texts

    from handbook.ui.screens import build_view

    app_ledger.add("Dan", "2026-04-01", "azrm", NOTEN)
    before = app_ledger.db.storage.path.read_bytes()
    _fail_writes(monkeypatch, errno_name)
    v = build_view(ctx, "/ledger")
    by_key(v, "player-name").value = "Dan"
    by_key(v, "note").value = "table 2"
    pick = by_key(v, "foul")
    pick.value = str(app_ledger.row("azrm", NOTEN).index)
    fire(pick.on_select, Event(pick))
    fire(by_key(v, "add-record").on_click, None)
    text = visible_texts(v)
    assert f"Could not save to the ledger ({reason})" in text
    assert by_key(v, "note").value == "table 2"
    assert app_ledger.db.storage.path.read_bytes() == before
    assert len(app_ledger.records()) == 1
    # import and remove fail the same way
    import_file(v, picker, b"player,date,ruleset,foul\nEd,2026-04-02,azrm,Noten Riichi\n", "x.csv")
    assert "Could not save to the ledger" in visible_texts(v)
    p = build_view(ctx, "/ledger/Dan")
    [rec] = app_ledger.records()
    revoke_on_page(p, rec.id)
    assert "Could not save to the ledger" in visible_texts(p)
    assert app_ledger.records() == [rec]


def test_a_read_only_folder_fails_the_write_and_keeps_the_file(tmp_path, library):
    import os

    folder = tmp_path / "ro"
    led = Ledger(open_db(folder / "ledger.json"), library)
    led.add("Flo", "2026-04-01", "azrm", NOTEN)
    before = (folder / "ledger.json").read_bytes()
    os.chmod(folder, 0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("this user can write into a read-only folder (root)")
        with pytest.raises(OSError):
            led.add("Flo", "2026-04-02", "azrm", NOTEN)
    finally:
        os.chmod(folder, 0o700)
    assert (folder / "ledger.json").read_bytes() == before
    assert len(led.records()) == 1
    assert not [p for p in folder.iterdir() if p.suffix == ".tmp"]


# --- a stored record of the wrong shape ----------------------------------------------------------

@pytest.mark.parametrize("field,value", [("player", 123), ("date", 20260401), ("strike", "yes"),
                                         ("points", "5"), ("note", None), ("created", [])])
def test_one_record_with_a_wrong_type_is_skipped_and_reported(ctx, app_ledger, field, value):
    from tests.support.ledgerhelpers import visible_texts

    from handbook.ui.screens import build_view

    app_ledger.add("Gil", "2026-04-01", "azrm", NOTEN)
    app_ledger.add("Hana", "2026-04-01", "azrm", NOTEN)
    table = app_ledger.db.table("records")
    bad = next(d for d in table.all() if d["player"] == "Gil")
    table.update({field: value}, doc_ids=[bad.doc_id])
    assert [r.player for r in app_ledger.records()] == ["Hana"]
    assert [p.name for p in app_ledger.players()] == ["Hana"]
    assert app_ledger.unreadable and field in app_ledger.unreadable[0][1]
    text = visible_texts(build_view(ctx, "/ledger"))
    assert "1 stored record could not be read" in text and field in text
    assert "Hana" in text
    app_ledger.add("Ivo", "2026-04-02", "azrm", NOTEN)  # the rest keeps working
    assert len(table.all()) == 3


# --- odd URLs never crash the session -------------------------------------------------------------

@pytest.mark.parametrize("route", ["/tools/strikes?on=0001-01-01", "/tools/strikes?on=9999-12-31",
                                   "/tools/strikes?dates=0001-01-01&on=0001-01-02",
                                   "/ledger/%00", "/ledger?player=%ff%fe", "/rules/%2e%2e/%2e%2e",
                                   "/search?q=" + "a" * 5000, "//", "/?" + "&" * 1000])
def test_odd_urls_show_a_screen(library, app_ledger, route):
    import asyncio
    from tests.support.uihelpers import StubPage

    from handbook.ui.app import HandbookApp, Preferences

    page = StubPage(route=route)
    app = HandbookApp(page, library, prefs=Preferences(None))
    asyncio.run(app.start())
    assert len(page.views) == 1


def test_a_screen_that_fails_shows_a_message_not_a_crash(library, monkeypatch):
    import asyncio
    from tests.support.ledgerhelpers import visible_texts
    from tests.support.uihelpers import StubPage

    from handbook.ui import app as app_mod

    def broken(ctx, route):
        raise OverflowError("date value out of range")

    monkeypatch.setattr(app_mod, "build_view", broken)
    page = StubPage(route="/tools/strikes?on=0001-01-01")
    asyncio.run(app_mod.HandbookApp(page, library, prefs=app_mod.Preferences(None)).start())
    text = visible_texts(page.views[0])
    assert "This screen could not be shown. Nothing was changed or lost." in text
    assert "OverflowError" not in text and "Traceback" not in text


# --- damaged data files -----------------------------------------------------------------------------

GOOD_DOC = {"id": "r1", "player": "Kim", "club": None, "date": "2026-04-01", "ruleset": "azrm",
            "foul_id": "x", "foul": NOTEN, "penalty": "Chombo", "kind": None, "points": 30,
            "strike": True, "note": "", "created": "2026-04-01T10:00:00+00:00"}


@pytest.mark.parametrize("content,reason", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('{"records": {"1": {"points": ' + "9" * 5000 + "}}}", "cannot be read"),
    ("\xff\xfe{", "not UTF-8"),
])
def test_a_damaged_file_is_moved_aside_and_the_app_starts(tmp_path, library, content, reason):
    path = tmp_path / "ledger.json"
    path.write_bytes(content.encode("latin-1") if content.startswith("\xff") else content.encode())
    led = Ledger(open_db(path), library)
    assert led.damage is not None and reason in led.damage.reason
    assert led.records() == []
    moved = list(tmp_path.glob("ledger.damaged-*.json"))
    assert len(moved) == 1 and moved[0].read_bytes()[:10] == path.with_name(moved[0].name).read_bytes()[:10]
    led.add("Kim", "2026-04-01", "azrm", NOTEN)  # and it keeps working
    assert len(led.records()) == 1


def test_a_file_with_a_utf8_bom_is_read_not_moved_aside(tmp_path, library):
    path = tmp_path / "ledger.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"records": {"1": GOOD_DOC}}).encode())
    led = Ledger(open_db(path), library)
    assert led.damage is None
    assert [r.player for r in led.records()] == ["Kim"]
    assert not list(tmp_path.glob("*.damaged-*"))


# --- hostile or clumsy imports ------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ('[{"player": "A", "date": "2026-04-01", "ruleset": "azrm", "foul": "Noten Riichi", '
     '"points": ' + "9" * 5000 + "}]", "number too long"),
    ('[{"player": "\\ud800", "date": "2026-04-01", "ruleset": "azrm", "foul": "Noten Riichi"}]',
     "entry 1: player contains a lone surrogate"),
    ('[{"player": "A", "date": "2026-04-01", "ruleset": "azrm", "foul": "Noten Riichi", '
     '"points": 1e400}]', "entry 1: points"),
])
def test_hostile_json_is_refused_with_a_clear_message(ledger, text, expected):
    with pytest.raises(LedgerImportError, match=expected) as info:
        ledger.import_text(text, "json")
    assert "Traceback" not in str(info.value) and "Exceeds the limit" not in str(info.value)
    assert ledger.records() == []


def test_reimporting_a_csv_without_ids_adds_nothing(ledger):
    text = ("player,date,ruleset,foul\nLee,2026-04-01,azrm,Noten Riichi\n"
            "Lee,2026-04-01,azrm,Noten Riichi\nMo,2026-04-02,azrm,Noten Riichi\n")
    first = ledger.import_text(text, "csv")
    assert (first.added, first.skipped) == (3, 0)  # two identical fouls on one day stay two
    again = ledger.import_text(text, "csv")
    assert (again.added, again.skipped) == (0, 3)
    assert len(ledger.records()) == 3


@pytest.mark.parametrize("spelling", ["Nao\u200b", "\u200fNao", "Na\u200do", "\ufeffNao",
                                      "Nao\u202e", "N\u2066ao\u2069"])
def test_invisible_characters_do_not_make_a_second_player(ledger, spelling):
    ledger.add("Nao", "2026-04-01", "azrm", NOTEN)
    ledger.add(spelling, "2026-04-01", "azrm", NOTEN)
    [p] = ledger.players()
    assert p.name == "Nao" and p.strikes == 2
    assert ledger.status(spelling, __import__("datetime").date(2026, 4, 1)).strikes_today == 2


def test_temp_files_left_by_a_killed_write_are_removed_at_start(tmp_path, library):
    path = tmp_path / "ledger.json"
    Ledger(open_db(path), library).add("Ola", "2026-04-01", "azrm", NOTEN)
    for i in range(3):
        (tmp_path / f".ledger.json.abc{i}.tmp").write_text("{partial")
    (tmp_path / "notes.tmp").write_text("not ours")
    led = Ledger(open_db(path), library)
    assert led.db.storage.stale_removed == 3
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == ["notes.tmp"]
    assert len(led.records()) == 1
