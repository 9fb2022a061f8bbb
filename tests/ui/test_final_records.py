"""End of hanchan's penalty column filled from the day's records (issue 44, "Into the final
score"), built in-process on a stub page and driven through its handlers."""

from __future__ import annotations

import datetime

import pytest
from tests.support.uihelpers import Event, StubPage, texts, walk

from handbook.ledger import Ledger
from handbook.storage import open_db
from handbook.ui.context import AppContext, Settings
from handbook.ui.final_records import fill_values, penalty_line_texts, place_lines
from handbook.ui.screens import build_view
from handbook.ui.stores import Stores

NOTEN = "Noten Riichi"        # AZRM: Chombo 30P
LATE = "Wrongly revealing tiles: 3 or more tiles"
SCORES = {"E": "22000", "S": "45000", "W": "16000", "N": "37000"}


@pytest.fixture
def ledger(library, tmp_path):
    return Ledger(open_db(tmp_path / "ledger.json"), library)


@pytest.fixture
def today():
    return datetime.date.today()


def session(library, ledger) -> AppContext:
    return AppContext(page=StubPage(), library=library, settings=Settings(), navigator=lambda r: None,
                      stores=Stores(library, ledger=ledger))


def by_key(view, key):
    found = [c for c in walk(view) if getattr(c, "key", None) == key]
    assert found, f"no control with key {key!r}"
    return found[0]


def shown(view) -> str:
    return "\n".join(texts(view))


def tap(view, key):
    c = by_key(view, key)
    c.on_click(Event(c))


def type_into(view, key, value):
    box = by_key(view, key)
    box.value = value
    if box.on_change:
        box.on_change(Event(box))


def test_place_lines_puts_each_record_at_its_players_seat(ledger, today, library):
    ann = ledger.add("Ann Smith", today, "azrm", NOTEN, table="7", hanchan=2)
    bob = ledger.add("Bob Lee", today, "azrm", NOTEN, table="7", hanchan=2)
    ledger.add("Ann Smith", today, "azrm", NOTEN, table="7", hanchan=1)
    placed = place_lines(ledger, today, "7", 2, {"S": "ann smith", "E": ""})
    assert placed.by_seat["S"] == [ann] and placed.unplaced == [bob]
    assert fill_values(placed) == {"E": "", "S": "30", "W": "", "N": ""}
    assert penalty_line_texts({"S": 30}, placed, library, lambda s: s) == [
        "South: Ann Smith — Noten Riichi (AZRM), 30P (record)"]
    assert penalty_line_texts({"S": 25, "N": 5}, placed, library, lambda s: s)[1:] == [
        "South: 25P as typed in the box (the records give 30P)", "North: 5P typed by hand"]
    # the four players by seat, without a table: their records of the day at any table
    assert place_lines(ledger, today, None, None, {"N": "Bob Lee"}).by_seat["N"] == [bob]


def test_naming_the_table_fills_the_penalty_column_and_the_sum_check_names_each_line(library, ledger, today):
    ledger.add("Ann Smith", today, "azrm", NOTEN, table="7", hanchan=2)
    gone = ledger.add("Cy Revoked", today, "azrm", NOTEN, table="7", hanchan=2)
    ledger.revoke(gone.id, "given by mistake")
    ledger.add("Bob Lee", today, "azrm", NOTEN, table="8", hanchan=2)
    ctx = session(library, ledger)
    v = build_view(ctx, "/tools/final?ruleset=azrm&" + "&".join(f"{k.lower()}={x}" for k, x in SCORES.items()))
    tap(v, "records-open")
    by_key(v, "records-table").value = "7"
    by_key(v, "records-hanchan").value = "2"
    by_key(v, "records-player-W").value = "ann smith"
    tap(v, "records-fill")
    text = shown(v)
    assert "West: Ann Smith — Noten Riichi (AZRM), 30P" in text
    assert "Cy Revoked" not in text and "Bob Lee" not in text  # revoked; another table
    assert by_key(v, "pen-W").value == "30" and by_key(v, "pen-E").value == ""
    assert "West: rank 4, final" in text
    assert "Sum check: the finals add up to \u221230P." in text
    assert "• West: Ann Smith — Noten Riichi (AZRM), 30P (record)" in text
    # still editable by hand; the sum check says which box differs from its records
    type_into(v, "pen-W", "20")
    text = shown(v)
    assert "Sum check: the finals add up to \u221220P." in text
    assert "• West: 20P as typed in the box (the records give 30P)" in text


def test_a_record_whose_player_is_at_no_seat_is_said_and_can_be_seated(library, ledger, today):
    bob = ledger.add("Bob Lee", today, "azrm", NOTEN, table="7")
    v = build_view(session(library, ledger), "/tools/final?ruleset=azrm&table=7")
    text = shown(v)
    assert "Not at any of the four seats: Bob Lee — Noten Riichi (AZRM), 30P." in text
    assert by_key(v, "pen-N").value == ""
    tap(v, f"seat-N-{bob.id}")
    assert by_key(v, "records-player-N").value == "Bob Lee" and by_key(v, "pen-N").value == "30"
    assert "Not at any of the four seats" not in shown(v)


def test_a_table_without_penalties_says_so(library, ledger, today):
    ledger.add("Bob Lee", today - datetime.timedelta(days=1), "azrm", NOTEN, table="7")
    v = build_view(session(library, ledger), "/tools/final?table=7&hanchan=3")
    assert "No point penalties recorded at table 7 in hanchan 3 today." in shown(v)
    by_key(v, "records-hanchan").value = ""
    tap(v, "records-fill")
    assert "No point penalties recorded at table 7 today." in shown(v)
    by_key(v, "records-table").value = ""
    tap(v, "records-fill")
    assert "Name the table, or the players by seat." in shown(v)
    by_key(v, "records-table").value = "7"
    by_key(v, "records-hanchan").value = "0"
    tap(v, "records-fill")
    assert "Hanchan: a whole number from 1 to 99." in shown(v)


def test_in_the_browser_build_the_ledger_opens_without_rebuilding_the_screen(library, ledger, today, monkeypatch):
    """The PWA opens its ledger asynchronously: the fill waits for it in a task, and the screen
    (with the scores typed so far) is not rebuilt."""
    from handbook.ui import final_records

    ledger.add("Ann Smith", today, "azrm", NOTEN, table="7")
    stores = Stores(library)
    opened: list[bool] = []

    async def open_ledger(page=None):
        opened.append(True)
        stores.ledger = ledger
        return ledger

    monkeypatch.setattr(final_records, "is_web", lambda: True)
    monkeypatch.setattr(stores, "open_ledger", open_ledger)
    ctx = AppContext(page=StubPage(), library=library, settings=Settings(), navigator=lambda r: None, stores=stores)
    rebuilt: list[bool] = []
    ctx.refresher = lambda: rebuilt.append(True)
    v = build_view(ctx, "/tools/final?ruleset=azrm&e=22000&table=7")
    assert opened == [True] and not rebuilt
    assert "Not at any of the four seats: Ann Smith — Noten Riichi (AZRM), 30P." in shown(v)
    assert by_key(v, "score-E").value == "22,000"


def test_the_boxes_take_what_the_ledger_takes():
    """The part keeps the ledger unimported until the records are asked for: its limits are
    copies, and must stay the ledger's."""
    from handbook import ledger as ledger_mod
    from handbook.ui import final_records

    assert (final_records.MAX_TABLE, final_records.MAX_HANCHAN) == (ledger_mod.MAX_TABLE, ledger_mod.MAX_HANCHAN)
