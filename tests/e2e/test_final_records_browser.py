"""End of hanchan filled from the day's records (issue 44, "Into the final score"), in headless
Chromium against the served app (the e2e fixtures, ``conftest.py``): point penalties recorded
today in the server's ledger for a table, through the ledger API on the server's data folder;
the judge names the table, the hanchan and a seat's player, and sees each record's line (player,
foul, P) in the penalty column and in the final score's sum check; a revoked record never shows.
English (``hb``) and Japanese (``loaded_ja``)."""

from __future__ import annotations

import datetime

from tests.support.browser_harness import Handbook

from handbook.ledger import Ledger
from handbook.storage import open_db

NOTEN = "Noten Riichi"  # AZRM: Chombo 30P
#: AZRM follows the WRC procedure: 30,000 start, uma +15/+5/−5/−15
SCORES = "ruleset=azrm&e=22000&s=45000&w=16000&n=37000"


def _record(server, table: str, *players: str, revoked: str | None = None) -> None:
    """Today's point penalties at ``table``, hanchan 2, in the served app's ledger (another
    judge's tab writing to the same data folder); ``revoked`` one more, revoked."""
    ledger = Ledger(open_db(server.data_dir / "ledger.json"))
    day = datetime.date.today()
    for p in players:
        ledger.add(p, day, "azrm", NOTEN, table=table, hanchan=2, reason="declared riichi, noten")
    if revoked:
        gone = ledger.add(revoked, day, "azrm", NOTEN, table=table, hanchan=2)
        ledger.revoke(gone.id, "given by mistake")


def _lines(hb: Handbook, needle: str) -> list[str]:
    return [line for line in hb.aria_dump().splitlines() if needle in line]


def test_the_tables_penalties_fill_the_penalty_column_and_the_final_score(hb, server):
    _record(server, "E2E-7", "Ann Smith", "Bob Lee", revoked="Cy Revoked")
    hb.open(f"/tools/final?{SCORES}", ready="Fill penalties from the day's records")
    hb.click_button("Fill penalties from the day's records", then="Fill the penalty column")
    hb.type_into("Table (name or number)", "E2E-7")
    hb.type_into("Hanchan (optional)", "2")
    hb.type_into("West — player", "Ann Smith")
    hb.click_button("Fill the penalty column", then="West: Ann Smith — Noten Riichi (AZRM), 30P")
    hb.role("textbox", "West — penalty P").click()  # Flutter shows a box's text to the page when it has focus
    hb.wait_for_value("West — penalty P", "30")
    # Bob Lee sits at none of the named seats: said, with the seat buttons, not dropped
    hb.wait_for_text("Not at any of the four seats: Bob Lee — Noten Riichi (AZRM), 30P.")
    assert not hb.has_text("Cy Revoked")
    hb.screenshot("final-records-unplaced")
    hb.click_button("Bob Lee sits North", then="North: Bob Lee — Noten Riichi (AZRM), 30P")
    hb.role("textbox", "North — penalty P").click()
    hb.wait_for_value("North — penalty P", "30")
    hb.wait_for_no_text("Not at any of the four seats")
    # the final score: West (16,000, fourth) −14 −15 −30 = −59P; North (37,000, second) +7 +5 −30 = −18P
    hb.wait_for_text("West: rank 4, final \u221259P")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 600)
    hb.wait_for_text("North: rank 2, final \u221218P")
    hb.page.mouse.wheel(0, 900)
    hb.wait_for_text("Sum check: the finals add up to \u221260P.")
    assert _lines(hb, "• West: Ann Smith — Noten Riichi (AZRM), 30P (record)")
    assert _lines(hb, "• North: Bob Lee — Noten Riichi (AZRM), 30P (record)")
    assert not hb.has_text("Cy Revoked")
    hb.screenshot("final-records-result")
    # still editable by hand: the sum check says which box differs from its records
    hb.page.mouse.wheel(0, -1500)
    hb.role("textbox", "North — penalty P").click()
    hb.type_into("North — penalty P", "20")
    hb.page.mouse.wheel(0, 1500)
    hb.wait_for_text("• North: 20P as typed in the box (the records give 30P)")
    assert _lines(hb, "Sum check: the finals add up to \u221250P.")

def test_a_table_named_in_the_address_fills_in_japanese(loaded_ja, server):
    _record(server, "E2E-8", "Dee Ja", revoked="Cy Revoked")
    hb = loaded_ja.start_at(f"/tools/final?{SCORES}&table=E2E-8&hanchan=2",
                            ready="4つの席のどこにもいない選手の記録です")
    assert hb.has_text("Dee Ja — Noten Riichi（AZRM）、30P")
    assert not hb.has_text("Cy Revoked")
    hb.click_button("Dee Jaは西家", then="西: Dee Ja — Noten Riichi（AZRM）、30P")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 400)  # the West seat's boxes into view before the tap that focuses one
    hb.role("textbox", "西 罰則").click()  # Flutter shows a box's text to the page when it has focus
    hb.wait_for_value("西 罰則", "30")
    hb.screenshot("final-records-ja")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 1500)
    hb.wait_for_text("合計の確認: 最終成績の合計は\u221230Pです。")
    assert _lines(hb, "• 西: Dee Ja — Noten Riichi（AZRM）、30P（記録）")
