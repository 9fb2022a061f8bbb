"""The calculator and ledger screens, built in-process on a stub page and driven through their
event handlers (the browser tests drive the same screens in Chromium)."""

from __future__ import annotations

import datetime
import json

import flet as ft
import pytest
from tests.support.ledgerhelpers import (
    Event, by_key, by_label, fire, import_file, revoke_on_page, visible_texts, walk,
)

from handbook.storage import DamageReport
from handbook.ui.screens import build_view
from handbook.ui import calculator_parts
from handbook.ui.views import calculators as calc

TODAY = datetime.date.today()


def view(ctx, route):
    return build_view(ctx, route)


# --- /tools ---------------------------------------------------------------------------------------

def test_tools_lists_every_calculator_and_the_ledger(ctx, navigated):
    v = view(ctx, "/tools")
    for route in ("/tools/chombo", "/tools/revealed", "/tools/strikes", "/ledger"):
        fire(by_key(v, route).on_click, None)
    assert navigated == ["/tools/chombo", "/tools/revealed", "/tools/strikes", "/ledger"]


# --- chombo -----------------------------------------------------------------------------------------

def test_chombo_defaults_to_the_chosen_ruleset_and_shows_azrm(ctx):
    ctx.settings.ruleset = "azrm"
    v = view(ctx, "/tools/chombo")
    assert by_key(v, "ruleset").value == "azrm"
    text = visible_texts(v)
    assert "No payment: the table score is unchanged." in text
    assert "Points deducted: 30P" in text and "Strike: Yes" in text
    assert "The dealer stays (no rotation)." in text and "No honba counter is added." in text


def test_chombo_ema_payments_per_seat(ctx, navigated):
    v = view(ctx, "/tools/chombo")
    ruleset = by_key(v, "ruleset")
    ruleset.value = "ema-rcr"
    fire(ruleset.on_select, Event(ruleset))
    seats = by_key(v, "seat")
    seats.selected = ["E"]
    fire(seats.on_change, Event(seats))
    text = visible_texts(v)
    assert "East (dealer) — offender: \u221212,000" in text
    assert "South: +4,000" in text and "North: +4,000" in text
    seats.selected = ["W"]
    fire(seats.on_change, Event(seats))
    text = visible_texts(v)
    assert "East (dealer): +4,000" in text and "West — offender: \u22128,000" in text
    assert "South: +2,000" in text
    fire(by_key(v, "source-link").on_click, None)
    assert navigated == ["/rules/ema-rcr/3.4.6"]


def test_chombo_seat_and_ruleset_from_the_query(ctx):
    v = view(ctx, "/tools/chombo?ruleset=wrc-2025-lower&seat=N")
    assert by_key(v, "seat").selected == ["N"]
    assert "Points deducted: 20P" in visible_texts(v)


def test_every_control_has_a_name(ctx):
    for route in ("/tools/chombo", "/tools/revealed", "/tools/strikes"):
        v = view(ctx, route)
        text = visible_texts(v)
        assert "Ruleset" in text or route.endswith("strikes")
    v = view(ctx, "/tools/revealed")
    for name in ("Tiles revealed", "Fewer tiles", "More tiles", "Source", "During the deal", "Ruleset"):
        assert name in visible_texts(v), name
    for key in ("fewer", "more"):
        btn = by_key(v, key)
        assert btn.width >= 48 and btn.height >= 48
    assert "Offender seat" in visible_texts(view(ctx, "/tools/chombo"))


# --- revealed tiles -------------------------------------------------------------------------------

def test_revealed_steppers_and_bands(ctx):
    v = view(ctx, "/tools/revealed?ruleset=azrm&tiles=3")
    assert "Penalty: Dead hand" in visible_texts(v)
    more, fewer = by_key(v, "more"), by_key(v, "fewer")
    fire(more.on_click, None)
    fire(more.on_click, None)
    assert by_key(v, "tiles").value == "5"
    text = visible_texts(v)
    assert "Penalty: Chombo" in text and "Points deducted: 30P" in text and "Strike: Yes" in text
    for _ in range(10):
        fire(fewer.on_click, None)
    assert by_key(v, "tiles").value == "1"  # the stepper stops at 1
    assert "Penalty: Warning" in visible_texts(v) and "Strike: No" in visible_texts(v)


def test_revealed_bad_count_shows_the_message(ctx):
    v = view(ctx, "/tools/revealed")
    box = by_key(v, "tiles")
    box.value = "0"
    fire(box.on_change, Event(box))
    # in words, saying what to do; never the core's "tiles: … got ''" (issue 16)
    assert "Enter a number of tiles from 1 to 136." in visible_texts(v)
    box.value = "137"
    fire(box.on_change, Event(box))
    assert "Enter a number of tiles from 1 to 136." in visible_texts(v)
    box.value = ""
    fire(box.on_change, Event(box))
    shown = visible_texts(v)
    assert "Enter a number of tiles from 1 to 136." in shown
    assert not any(t.startswith("tiles:") or "got ''" in t for t in shown)


def test_revealed_source_and_during_the_deal(ctx, navigated):
    v = view(ctx, "/tools/revealed?ruleset=ema-rcr&tiles=2")
    assert "Penalty: No penalty" in visible_texts(v)
    fire(by_key(v, "source-opponent_hand").on_click, None)
    assert "Penalty: Dead hand" in visible_texts(v)
    # the chosen source is filled and marked selected for screen readers
    chosen = [c for c in walk(by_key(v, "source")) if isinstance(c, ft.Semantics) and c.selected]
    assert [c.content.key for c in chosen] == ["source-opponent_hand"]
    deal = by_key(v, "deal")
    deal.value = True
    fire(deal.on_change, Event(deal))
    assert "Penalty: Re-deal" in visible_texts(v)
    fire(by_key(v, "source-link").on_click, None)
    assert navigated == ["/rules/ema-rcr/3.4.8"]


def test_source_link_falls_back_to_the_penalty_table(library):
    # WRC 2025 is a table only: its refs link to its penalty table (at the foul's row when known)
    link = calc.source_link(library, "wrc-2025", "12.3.1 (4)", "Wrongly revealing tiles")
    assert link.route == "/penalties/wrc-2025/revealed-tiles" and link.label == "WRC 2025 §12.3.1 (4)"
    assert calc.source_link(library, "azrm", "1.4").route == "/rules/azrm/1.4"


# --- strikes ------------------------------------------------------------------------------------------

def test_strikes_countdown_with_babel_dates_and_the_literal_reading(ctx):
    v = view(ctx, "/tools/strikes?dates=2026-04-10,2026-04-10,2026-04-10&on=2026-04-12")
    text = visible_texts(v)
    assert "Standing: Suspended" in text
    assert "Suspension: Apr 10, 2026 to Apr 23, 2026 (both included)" in text
    assert "Strikes in window: 3" in text and "Window: Mar 14, 2026 to Apr 12, 2026" in text
    assert "Next drop-out: May 10, 2026" in text
    assert "Strikes that caused one still count toward the next" in text and "officials decide" in text
    assert "Suspensions issued: 1" in text and "Banned: No" in text


def test_strikes_bad_dates_give_clear_messages(ctx):
    v = view(ctx, "/tools/strikes")
    dates, on = by_key(v, "strike-dates"), by_key(v, "on-date")
    dates.value = "2026-04-10\n2026-13-01"
    fire(dates.on_change, Event(dates))
    assert ("Strike date 2, “2026-13-01”, is not a date: write each date as year-month-day, "
            "e.g. 2026-04-20.") in visible_texts(v)
    dates.value = "2026-04-10"
    on.value = "yesterday"
    fire(on.on_change, Event(on))
    assert "Enter the day to check as year-month-day, e.g. 2026-04-20." in visible_texts(v)
    on.value = "2026-04-10"
    fire(on.on_change, Event(on))
    assert "Strikes today: 1" in visible_texts(v)


def test_strikes_from_a_ledger_player(ctx, app_ledger):
    for d in ("2026-04-01", "2026-04-02"):
        app_ledger.add("Ann", d, "azrm", "Noten Riichi")
    app_ledger.add("Ann", "2026-04-03", "azrm", "Wrongly revealing tiles: 1 or 2 tiles")
    v = view(ctx, "/tools/strikes?on=2026-04-03")
    pick = by_key(v, "ledger-player")
    pick.value = "Ann"
    fire(pick.on_select, Event(pick))
    assert by_key(v, "strike-dates").value == "2026-04-01\n2026-04-02"
    assert "Strikes in window: 2" in visible_texts(v)
    v2 = view(ctx, "/tools/strikes?player=Ann&on=2026-04-03")
    assert "Strikes in window: 2" in visible_texts(v2)


def test_a_large_ledger_finds_the_player_by_name_instead_of_listing_them_all(ctx, app_ledger):
    from handbook.ui.views import calculators

    for i in range(calculators.PICKER_LIMIT + 5):
        app_ledger.add(f"Player {i:03d}", "2026-04-01", "azrm", "Noten Riichi")
    app_ledger.add("Ann", "2026-04-02", "azrm", "Noten Riichi")
    v = view(ctx, "/tools/strikes?on=2026-04-03")
    # no list of every player sent to the screen
    assert not [c for c in walk(v) if getattr(c, "key", None) == "ledger-player"]
    find = by_key(v, "ledger-player-find")
    find.value = "player 01"
    fire(find.on_change, Event(find))
    shown = [c.key for c in by_key(v, "ledger-player-matches").controls]
    assert shown == [f"ledger-player:Player {i:03d}" for i in range(10, 18)]  # PICKER_MATCHES of them
    find.value = "ANN"
    fire(find.on_change, Event(find))
    (ann,) = by_key(v, "ledger-player-matches").controls
    fire(ann.on_click, Event(ann))
    assert by_key(v, "strike-dates").value == "2026-04-02"
    assert "Strikes in window: 1" in visible_texts(v)
    find.value = "nobody"
    fire(find.on_change, Event(find))
    assert "No player in the ledger matches “nobody”." in visible_texts(v)


# --- ledger ---------------------------------------------------------------------------------------------

def _choose_foul(v, ledger, ruleset, foul):
    row = ledger.row(ruleset, foul)
    pick = by_key(v, "foul")
    pick.value = str(row.index)
    fire(pick.on_select, Event(pick))


def test_add_a_record_from_the_form(ctx, app_ledger, page):
    v = view(ctx, "/ledger")
    assert "No records yet" in visible_texts(v)
    by_key(v, "player-name").value = "Bob Lee"
    by_key(v, "club").value = "AZ-9"
    by_key(v, "date").value = "2026-04-20"
    _choose_foul(v, app_ledger, "azrm", "Noten Riichi")
    assert "Strike (AZRM §1.4)" in visible_texts(v)
    by_key(v, "note").value = "table 4, South 2"
    fire(by_key(v, "add-record").on_click, None)
    [rec] = app_ledger.records()
    assert (rec.player, rec.club, rec.date, rec.foul, rec.strike, rec.note) == (
        "Bob Lee", "AZ-9", datetime.date(2026, 4, 20), "Noten Riichi", True, "table 4, South 2")
    assert "Bob Lee (AZ-9)" in visible_texts(v)
    assert isinstance(page.dialogs[-1], ft.SnackBar)


def test_the_form_refuses_bad_input_on_screen(ctx, app_ledger):
    v = view(ctx, "/ledger")
    fire(by_key(v, "add-record").on_click, None)
    assert "Choose the foul from the list." in visible_texts(v)
    _choose_foul(v, app_ledger, "azrm", "Noten Riichi")
    by_key(v, "player-name").value = "Bob"
    by_key(v, "date").value = "2026-13-01"
    fire(by_key(v, "add-record").on_click, None)
    assert "Enter the date as year-month-day, e.g. 2026-04-20." in visible_texts(v)
    assert app_ledger.records() == []


def test_a_discretionary_row_needs_the_judges_strike_answer(ctx, app_ledger):
    v = view(ctx, "/ledger")
    by_key(v, "player-name").value = "Cy"
    _choose_foul(v, app_ledger, "azrm", "Obstruction")
    assert "Strike (the judge decides)" in visible_texts(v)
    fire(by_key(v, "add-record").on_click, None)
    assert "Say whether this is a Strike: the row leaves it to the judge." in visible_texts(v)
    by_key(v, "judge-strike").selected = ["yes"]
    by_key(v, "judge-points").value = "5"
    fire(by_key(v, "add-record").on_click, None)
    [rec] = app_ledger.records()
    assert (rec.strike, rec.points, rec.kind) == (True, 5, "discretion")


def test_player_page_revoke_and_undo(ctx, app_ledger, page):
    a = app_ledger.add("Dee", TODAY, "azrm", "Noten Riichi", note="table 1")
    app_ledger.add("Dee", TODAY, "azrm", "Empty call for Ron/Tsumo")
    v = view(ctx, "/ledger/Dee")
    assert "Strikes today: 2" in visible_texts(v)
    assert "Strikes until suspension: 1" in visible_texts(v)
    fire(by_key(v, f"revoke-{a.id}").on_click, None)
    fire(by_key(v, "revoke-confirm").on_click, None)      # no reason given: nothing changes
    assert all(r.revoked is None for r in app_ledger.records("Dee"))
    assert "Reason is empty" in visible_texts(v)
    by_key(v, "revoke-reason").value = "wrong player"
    fire(by_key(v, "revoke-confirm").on_click, None)
    assert [r.revoked.reason for r in app_ledger.records("Dee") if r.id == a.id] == ["wrong player"]
    assert len(app_ledger.records("Dee")) == 2              # revoked, not deleted
    assert "Strikes today: 1" in visible_texts(v)
    snack = page.dialogs[-1]
    assert isinstance(snack, ft.SnackBar)
    # its buttons are 48 px and named: "Undo" and "Close" (not Flutter's 40 px unnamed close icon)
    assert not snack.show_close_icon and snack.action is None
    [undo] = [b for b in walk(snack) if isinstance(b, ft.TextButton) and b.content == "Undo"]
    assert undo.height >= 48
    [close] = [b for b in walk(snack) if isinstance(b, ft.IconButton)]
    assert close.width >= 48 and close.height >= 48 and close.tooltip == "Close"
    assert [s for s in walk(snack) if isinstance(s, ft.Semantics) and s.label == "Close" and s.button]
    fire(undo.on_click, None)
    assert not snack.open
    assert a in app_ledger.records("Dee")
    assert "Strikes today: 2" in visible_texts(v)
    revoke_on_page(v, a.id)
    fire(by_key(v, f"unrevoke-{a.id}").on_click, None)      # Restore on the card does the same
    assert a in app_ledger.records("Dee")


def test_player_page_countdown_uses_babel_dates(ctx, app_ledger):
    app_ledger.add("Eve", TODAY - datetime.timedelta(days=3), "azrm", "Noten Riichi")
    v = view(ctx, "/ledger/Eve")
    from handbook.i18n import format_date

    drop = TODAY - datetime.timedelta(days=3) + datetime.timedelta(days=30)
    assert f"Next drop-out: {format_date(drop)}" in visible_texts(v)


def test_unknown_player_page_is_empty_not_an_error(ctx, app_ledger):
    assert "No records for this player." in visible_texts(view(ctx, "/ledger/Nobody"))


def test_export_writes_into_the_data_folder_and_shows_the_path(ctx, app_ledger, tmp_path):
    app_ledger.add("Fay", "2026-04-01", "azrm", "Noten Riichi")
    v = view(ctx, "/ledger/Fay")
    buttons = [c for c in _walk(v) if isinstance(c, ft.OutlinedButton)]
    csv_button = next(b for b in buttons if b.content == "Export CSV")
    fire(csv_button.on_click, None)
    files = list((tmp_path / "data" / "exports").glob("ledger-Fay-*.csv"))
    assert len(files) == 1
    assert str(files[0]) in visible_texts(v)


def test_import_refusal_is_shown_and_nothing_changes(ctx, app_ledger, page, picker):
    app_ledger.add("Gus", "2026-04-01", "azrm", "Noten Riichi")
    before = app_ledger.records()
    v = view(ctx, "/ledger")
    bad = b"player,date,ruleset,foul\nGus,2026-04-02,azrm,Noten Riichi\nGus,2026-02-30,azrm,Noten Riichi\n"
    import_file(v, picker, bad, "bad.csv")
    assert "line 3: date '2026-02-30' is not a date (YYYY-MM-DD)" in visible_texts(v)
    assert isinstance(page.dialogs[-1], ft.AlertDialog)
    assert app_ledger.records() == before
    good = json.dumps([{"player": "Hal", "date": "2026-04-02", "ruleset": "azrm", "foul": "Cheating"}])
    import_file(v, picker, good.encode(), "good.json")
    assert "Imported 1 record from good.json" in visible_texts(v)
    assert "Hal" in visible_texts(v)


def test_a_damaged_data_file_is_reported_on_screen(ctx, app_ledger):
    app_ledger.db.storage.damage = DamageReport("/data/ledger.json", "/data/ledger.damaged-x.json",
                                                "bad JSON at line 1, column 3", 0, 1)
    v = view(ctx, "/ledger")
    assert "/data/ledger.damaged-x.json" in visible_texts(v)
    assert "bad JSON at line 1, column 3" in visible_texts(v)
    banner = by_key(v, "damage-banner")
    dismiss = next(c for c in _walk(banner) if isinstance(c, ft.TextButton))
    fire(dismiss.on_click, None)
    assert app_ledger.damage is None and banner.visible is False


def _walk(v):
    return walk(v)


@pytest.mark.parametrize("text,expected", [
    ("", []), ("2026-01-02, 2026-01-02\n2026-02-03", ["2026-01-02", "2026-01-02", "2026-02-03"]),
])
def test_parse_strike_dates(text, expected):
    assert [d.isoformat() for d in calc.parse_strike_dates(text)] == expected


def test_signed_numbers_use_the_locale():
    assert (calculator_parts.signed(4000), calculator_parts.signed(-12000), calculator_parts.signed(0)) == ("+4,000", "\u221212,000", "0")


def test_by_label_helper_finds_the_on_date(ctx):
    assert by_label(view(ctx, "/tools/strikes"), "On date").value == TODAY.isoformat()


def test_browser_build_opens_the_ledger_from_shared_preferences(ctx, library, monkeypatch):
    """In Pyodide the ledger is loaded asynchronously: a spinner first, then the screen."""
    from tinydb import TinyDB
    from tinydb.storages import MemoryStorage

    from handbook.ui import stores as stores_mod

    opened = []

    async def fake_open(page=None, path=None):
        db = TinyDB(storage=MemoryStorage)
        opened.append(db)
        return db

    monkeypatch.setattr(stores_mod, "is_web", lambda: True)
    monkeypatch.setattr(stores_mod, "open_app_db", fake_open)
    refreshed = []
    ctx.refresher = lambda: refreshed.append(True)
    first = view(ctx, "/ledger")  # the stub page runs the load at once
    assert len(opened) == 1 and refreshed == [True]
    assert "Opening the ledger" in visible_texts(first)
    second = view(ctx, "/ledger")
    assert "Add a record" in visible_texts(second)
    assert len(opened) == 1


def test_ledger_menu_arrow_is_named(ctx, app_ledger):
    """The foul menu's arrow was a 40 px button without a name (issue 16)."""
    v = view(ctx, "/ledger")
    icons = [i for i in walk(by_key(v, "foul").trailing_icon) if isinstance(i, ft.Icon)]
    assert icons and icons[0].semantics_label == "Show the fouls"
    box = by_key(v, "foul").trailing_icon
    assert box.width + 16 >= 48 and box.height + 16 >= 48  # with the IconButton's 8 px padding


def test_player_page_shows_the_total_of_penalty_points(ctx, app_ledger):
    app_ledger.add("Fay", TODAY, "azrm", "Noten Riichi")  # a row with its own points
    app_ledger.add("Fay", TODAY, "azrm", "Obstruction", strike=False, points=5)  # the judge's points
    app_ledger.add("Fay", TODAY, "azrm", "Wrongly revealing tiles: 1 or 2 tiles")  # a warning, no points
    expected = sum(r.points or 0 for r in app_ledger.records("Fay"))
    assert expected > 5
    text = visible_texts(view(ctx, "/ledger/Fay"))
    assert f"Total penalty points: {expected}P (from 2 records with points)" in text
    assert "Total penalty points" not in " ".join(visible_texts(view(ctx, "/ledger/Nobody")))


def test_player_list_marks_suspended_and_banned_players(ctx, app_ledger):
    """AZRM §1.4 standing in the list (issue 27): 3 Strikes on one day suspend; a clean player
    gets no badge."""
    for _ in range(3):
        app_ledger.add("Sue Kim", TODAY.isoformat(), "azrm", "Noten Riichi")
    app_ledger.add("Ann Lee", TODAY.isoformat(), "azrm", "Noten Riichi")
    v = view(ctx, "/ledger")
    suspended = [t.value for t in walk(by_key(v, "player-Sue Kim")) if isinstance(t, ft.Text)]
    clean = [t.value for t in walk(by_key(v, "player-Ann Lee")) if isinstance(t, ft.Text)]
    assert "Suspended" in suspended and "Suspended" not in clean and "Banned" not in clean
    assert app_ledger.status("Sue Kim", TODAY).suspended  # what the badge reads


def test_foul_box_shows_the_foul_and_the_line_under_it_the_whole_row(ctx, app_ledger):
    """The box held "foul — penalty", cut at its edge with no ellipsis on a phone: now the foul
    alone, the menu both (wrapping), and the line under the box the whole row."""
    v = view(ctx, "/ledger")
    pick = by_key(v, "foul")
    option = next(o for o in pick.options if o.text.startswith("Too many or too few tiles"))
    assert " — " not in option.text and " — " in option.content.value
    pick.value = option.key
    fire(pick.on_select, Event(pick))
    info = by_key(v, "row-info").value
    assert info.startswith(option.text + ": ") and "10P" in info


def test_player_page_marks_a_revoked_record_and_counts_it_for_nothing(ctx, app_ledger):
    a = app_ledger.add("Dee", TODAY, "azrm", "Noten Riichi", table="7", hanchan=2, reason="riichi, noten")
    app_ledger.add("Dee", TODAY, "azrm", "Empty call for Ron/Tsumo")
    texts = visible_texts(view(ctx, "/ledger/Dee"))
    assert "Strikes today: 2" in texts and "Table 7 · Hanchan 2" in texts and "riichi, noten" in texts
    assert texts.splitlines().count("Strike") == 2
    app_ledger.revoke(a.id, "overturned on appeal")
    texts = visible_texts(view(ctx, "/ledger/Dee"))
    assert "Strikes today: 1" in texts
    assert texts.splitlines().count("Strike") == 1                       # the revoked record's badge is gone
    assert [t for t in texts.splitlines() if t.startswith("Revoked ") and t.endswith(": overturned on appeal")]
    assert "Noten Riichi" in texts                          # still in the history


def test_the_days_incidents_list_by_time_filter_by_table_and_export(ctx, app_ledger, tmp_path):
    t0 = datetime.datetime.combine(TODAY, datetime.time(10, 0), tzinfo=datetime.UTC)
    app_ledger.add("Dee", TODAY, "azrm", "Noten Riichi", table="7", hanchan=2, reason="riichi, noten",
                   created=t0 + datetime.timedelta(minutes=3))
    app_ledger.add("Eve", TODAY, "azrm", "Empty call for Ron/Tsumo", table="3", created=t0)
    app_ledger.add("Fay", TODAY - datetime.timedelta(days=1), "azrm", "Noten Riichi", table="7")
    v = view(ctx, "/incidents")
    texts = visible_texts(v)
    assert texts.index("Eve — Empty call for Ron/Tsumo") < texts.index("Dee — Noten Riichi")
    assert "Fay" not in texts and "riichi, noten" in texts
    box = by_key(v, "incidents-table")
    box.value = "7"
    fire(box.on_change, Event(box))
    texts = visible_texts(v)
    assert "Dee — Noten Riichi" in texts and "Eve" not in texts
    fire(by_key(v, "incidents-export").on_click, None)
    [path] = (tmp_path / "data" / "exports").glob("incidents-*-7.csv")
    assert "Dee" in path.read_text(encoding="utf-8") and "Eve" not in path.read_text(encoding="utf-8")
