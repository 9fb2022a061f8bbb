"""Issue 44, "Record this ruling": the record form filled from a penalty row (``/record``), reached
from a foul's page, a search result's row and the revealed-tiles and chombo results; saving in one
tap with Undo; the same-incident warning; crafted queries refused with nothing saved."""

from __future__ import annotations

import datetime
from urllib.parse import parse_qsl, urlsplit

import pytest
from tests.support.ledgerhelpers import Event, by_key, fire, visible_texts, walk

from handbook.ledger import Player
from handbook.ui.routes import chombo_record_route, match, record_route
from handbook.ui.screens import build_view
from handbook.ui.views import record as rec_view

TODAY = datetime.date.today()


def query(route: str) -> dict[str, str]:
    return dict(parse_qsl(urlsplit(route).query))


def row_index(library, ruleset: str, foul_text: str) -> int:
    return next(r.index for r in library.rulesets[ruleset].penalties if r.foul == foul_text)


def save(v) -> None:
    fire(by_key(v, "save-record").on_click, None)


# --- the route and the plain helpers ---------------------------------------------------------------

def test_the_route_is_the_judges_and_its_query_round_trips():
    r = record_route("azrm", 9, q="  showed four tiles ", strike=True, points=None)
    m = match(r)
    assert m.name == "record" and m.route.needs_judge
    assert m.query == {"ruleset": "azrm", "row": "9", "q": "showed four tiles", "strike": "yes"}


@pytest.mark.parametrize("q, message", [
    ({}, "ruleset: unknown ruleset ''"),
    ({"ruleset": "no-such", "row": "1"}, "ruleset: unknown ruleset 'no-such'"),
    ({"ruleset": "azrm"}, "row: '' is not a row number"),
    ({"ruleset": "azrm", "row": "-1"}, "row: '-1' is not a row number"),
    ({"ruleset": "azrm", "row": "9" * 400}, "row: '99999999999999999999' is not a row number"),
    ({"ruleset": "azrm", "row": "4000"}, "row: 4000 is not a row number of the azrm penalty table (0 to 67)"),
    ({"ruleset": "azrm", "row": "١"}, "is not a row number"),  # an Arabic-Indic digit
])
def test_a_query_that_names_no_row_is_refused_naming_the_argument(library, q, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        rec_view.row_from_query(library, q)


def test_suggestions_start_then_contain_and_stop_at_an_exact_name():
    ps = [Player("Ann Smith", "Ann Smith", None), Player("Dan Annex~C7", "Dan Annex", "C7"),
          Player("Bob", "Bob", None)]
    assert [p.name for p in rec_view.suggestions(ps, "an")] == ["Ann Smith", "Dan Annex"]
    assert [p.name for p in rec_view.suggestions(ps, "c7")] == ["Dan Annex"]
    assert rec_view.suggestions(ps, "bob") == [] and rec_view.suggestions(ps, "  ") == []


def test_the_desk_is_kept_for_the_day_only():
    assert rec_view.desk_for({"day": TODAY.isoformat(), "table": "7", "hanchan": "2"}, TODAY) == ("7", "2")
    yesterday = (TODAY - datetime.timedelta(days=1)).isoformat()
    assert rec_view.desk_for({"day": yesterday, "table": "7", "hanchan": "2"}, TODAY) == ("", "")


# --- where the ruling is ----------------------------------------------------------------------------

def test_a_fouls_page_offers_each_row(ctx, app_ledger, navigated, library):
    v = build_view(ctx, "/penalties/azrm/revealed-tiles")
    buttons = [c for c in walk(v) if str(getattr(c, "key", "")).startswith("record-")]
    rows = library.rulesets["azrm"].rows("revealed-tiles")
    assert [b.data for b in buttons] == [record_route("azrm", r.index) for r in rows]
    fire(buttons[2].on_click, None)
    assert navigated == [record_route("azrm", rows[2].index)]


def test_a_search_result_row_opens_the_form_with_the_query(ctx, app_ledger, navigated, library):
    ctx.settings.ruleset = "azrm"
    v = build_view(ctx, "/search?q=I%20showed%20four%20tiles%20by%20accident")
    button = next(c for c in walk(v) if getattr(c, "key", None) == "record-ruling")
    assert button.tooltip == "Record this ruling: Wrongly revealing tiles: 3 or 4 tiles" and button.width >= 48 and button.height >= 48
    fire(button.on_click, None)
    route = navigated[-1]
    assert query(route) == {"ruleset": "azrm", "row": str(row_index(library, "azrm", "Wrongly revealing tiles: 3 or 4 tiles")),
                            "q": "I showed four tiles by accident"}


def test_the_revealed_tiles_result_carries_the_count_and_strike(ctx, app_ledger, navigated, library):
    v = build_view(ctx, "/tools/revealed?ruleset=azrm&tiles=5")
    fire(by_key(v, "record-ruling").on_click, None)
    q = query(navigated[-1])
    assert q["row"] == str(row_index(library, "azrm", "Wrongly revealing tiles: more than 4 tiles"))
    assert q["q"] == "5 tiles revealed (Hand)"


def test_the_chombo_result_of_a_foul_row_offers_it(ctx, app_ledger, navigated):
    v = build_view(ctx, "/tools/chombo?ruleset=azrm&foul=revealed-tiles&seat=W")
    fire(by_key(v, "record-ruling").on_click, None)
    assert query(navigated[-1])["q"] == "Chombo, offender seat West"


@pytest.mark.parametrize("ruleset", ["azrm", "wrc-2025", "ema-rcr"])
def test_the_usual_chombo_asks_which_chombo_row_then_opens_its_form(ctx, app_ledger, navigated, library, ruleset):
    import handbook

    v = build_view(ctx, f"/tools/chombo?ruleset={ruleset}&seat=N")
    button = by_key(v, "record-ruling")
    assert button.data == chombo_record_route(ruleset, q="Chombo, offender seat North")
    fire(button.on_click, None)
    picker = build_view(ctx, navigated[-1])
    assert not [c for c in walk(picker) if getattr(c, "key", None) == "save-record"]  # no row yet: nothing to save
    rows = [c for c in walk(picker) if str(getattr(c, "key", "")).startswith("chombo-row-")]
    chombo_rows = handbook.chombo_fouls(ruleset, library=library)
    assert [c.key for c in rows] == [f"chombo-row-{r.index}" for r in chombo_rows]
    assert all(c.min_height >= 48 for c in rows)
    fire(rows[-1].on_click, None)
    assert navigated[-1] == record_route(ruleset, chombo_rows[-1].index, q="Chombo, offender seat North")
    form = build_view(ctx, navigated[-1])
    assert chombo_rows[-1].foul in visible_texts(form)
    by_key(form, "record-player").value = "Ann Smith"
    save(form)
    [r] = app_ledger.records("Ann Smith")
    assert (r.ruleset, r.foul, r.reason) == (ruleset, chombo_rows[-1].foul, "Chombo, offender seat North")


@pytest.mark.parametrize("route", ["/record?chombo=usual", "/record?ruleset=no-such&chombo=usual"])
def test_a_usual_chombo_link_of_no_ruleset_is_refused(ctx, app_ledger, route):
    text = visible_texts(build_view(ctx, route))
    assert "This ruling cannot be recorded" in text and "Nothing was saved" in text


# --- the form ---------------------------------------------------------------------------------------

def test_the_form_is_filled_from_the_row_and_saves_in_one_tap(ctx, app_ledger, page, library):
    i = row_index(library, "azrm", "Wrongly revealing tiles: 3 or 4 tiles")
    v = build_view(ctx, record_route("azrm", i, q="showed four tiles"))
    text = visible_texts(v)
    assert "Wrongly revealing tiles: 3 or 4 tiles" in text and "Minor Chombo (Dead Hand) 10P" in text
    assert "The penalty may be increased if the wall is affected." in text  # the row's condition
    assert "Strike (AZRM §1.4)" in text
    assert by_key(v, "record-reason").value == "showed four tiles"
    by_key(v, "record-player").value = "Ann Smith"
    by_key(v, "record-table").value = "7"
    by_key(v, "record-hanchan").value = "2"
    save(v)
    [r] = app_ledger.records("Ann Smith")
    assert (r.foul, r.points, r.strike, r.table, r.hanchan, r.reason, r.date) == (
        "Wrongly revealing tiles: 3 or 4 tiles", 10, True, "7", 2, "showed four tiles", TODAY)
    snack = page.dialogs[-1]
    assert "Recorded: Ann Smith — Wrongly revealing tiles: 3 or 4 tiles" in visible_texts(snack)
    assert by_key(v, "record-saved").value == "Recorded: Ann Smith — Wrongly revealing tiles: 3 or 4 tiles"
    # the next record starts at the same table and hanchan
    v2 = build_view(ctx, record_route("azrm", i))
    assert (by_key(v2, "record-table").value, by_key(v2, "record-hanchan").value) == ("7", "2")
    # Undo revokes (the record stays, marked, counting for nothing)
    undo = next(c for c in walk(snack) if getattr(c, "text", None) == "Undo" or
                getattr(c, "content", None) == "Undo")
    fire(undo.on_click, Event(undo))
    import asyncio

    asyncio.run(asyncio.sleep(0.05))
    [r] = app_ledger.records("Ann Smith")
    assert r.revoked is not None and not r.counts


def test_players_are_suggested_as_the_judge_types(ctx, app_ledger, library):
    app_ledger.add("Annika Berg", TODAY, "azrm", "Noten Riichi", club="C9")
    v = build_view(ctx, record_route("azrm", row_index(library, "azrm", "Wrongly revealing tiles: 1 or 2 tiles")))
    box = by_key(v, "record-player")
    box.value = "ann"
    fire(box.on_change, Event(box))
    tile = by_key(v, "suggest-Annika Berg~C9")
    assert tile.min_height >= 48
    fire(tile.on_click, None)
    assert box.value == "Annika Berg"
    save(v)
    assert [r.club for r in app_ledger.records("Annika Berg~C9")] == ["C9", "C9"]


def test_an_azrm_row_left_to_the_judge_asks_for_the_strike(ctx, app_ledger, library):
    row = next(r for r in library.rulesets["azrm"].penalties if r.strike is None)
    v = build_view(ctx, record_route("azrm", row.index))
    by_key(v, "record-player").value = "Cy"
    save(v)
    assert "Say whether this is a Strike" in visible_texts(v) and app_ledger.records() == []
    v = build_view(ctx, record_route("azrm", row.index, strike=False))
    by_key(v, "record-player").value = "Cy"
    save(v)
    [r] = app_ledger.records("Cy")
    assert r.strike is False


def test_the_same_incident_warns_and_saves_nothing_until_the_judge_chooses(ctx, app_ledger, page, library):
    i = row_index(library, "azrm", "Wrongly revealing tiles: 3 or 4 tiles")
    app_ledger.add("Dee", TODAY, "azrm", "Wrongly revealing tiles: 3 or 4 tiles")   # another judge, just now
    v = build_view(ctx, record_route("azrm", i))
    by_key(v, "record-player").value = "dee"
    save(v)
    dialog = page.dialogs[-1]
    assert dialog.key == "same-incident" and dialog.open
    assert "It may be the same incident" in visible_texts(dialog)
    assert len(app_ledger.records("Dee")) == 1
    fire(by_key(dialog, "same-cancel").on_click, None)
    assert len(app_ledger.records("Dee")) == 1 and not dialog.open
    save(v)
    fire(by_key(page.dialogs[-1], "same-anyway").on_click, None)
    assert len(app_ledger.records("Dee")) == 2


@pytest.mark.parametrize("route", [
    "/record?ruleset=no-such&row=1",
    "/record?ruleset=azrm&row=99999999999999999999999999",
    "/record?ruleset=azrm&row=abc",
    "/record?ruleset=%00%E2%80%AEazrm&row=1",
    "/record?ruleset=" + "x" * 3000 + "&row=1",
])
def test_a_crafted_query_gives_a_clear_message_and_nothing_to_save(ctx, app_ledger, route):
    v = build_view(ctx, route)
    text = visible_texts(v)
    assert "This ruling cannot be recorded" in text and "Nothing was saved" in text
    assert not [c for c in walk(v) if getattr(c, "key", None) == "save-record"]
    assert app_ledger.records() == []


def test_hostile_text_in_the_query_is_checked_by_the_ledger(ctx, app_ledger, library):
    i = row_index(library, "azrm", "Wrongly revealing tiles: 3 or 4 tiles")
    v = build_view(ctx, f"/record?ruleset=azrm&row={i}&points=99999999&strike=maybe&q=" + "%E2%80%AE" * 50)
    assert by_key(v, "record-points").value == ""
    by_key(v, "record-player").value = "=HYPERLINK(\"x\")\u202e"
    save(v)
    assert by_key(v, "record-error").controls == []
    [r] = app_ledger.records()
    # the ledger's own rules: a name loses its invisible characters; the exports defuse formulas
    assert r.player == '=HYPERLINK("x")' and r.points == 10
    assert "'=HYPERLINK" in app_ledger.export_csv() or '"\'=HYPERLINK' in app_ledger.export_csv()
