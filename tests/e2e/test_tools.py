"""The calculators and the ledger in headless Chromium against the served app.

Uses the e2e fixtures (``conftest.py``): the server runs on a free port in its own process group
with a private data folder; Debian's ``/usr/bin/chromium`` through Playwright; assertions read
Flutter's ARIA tree; every request must stay on 127.0.0.1. The calculators share the module's
page with the app loaded (``loaded``), each reached inside the app as its links reach it; the
ledger test, which reloads, has a fresh profile (``hb``).
"""

from __future__ import annotations

import json

from tests.support.browser_harness import Handbook


def _lines(hb: Handbook, needle: str) -> list[str]:
    return [line for line in hb.aria_dump().splitlines() if needle in line]


def test_chombo_ema_payments_and_the_rule_link(loaded):
    hb = loaded.start_at("/tools/chombo?ruleset=azrm", ready="Points deducted: 30P")
    assert _lines(hb, "Strike: Yes")
    hb.click_button("Ruleset")
    hb.click_button("EMA RCR", exact=True, then="Payments (table points)")
    hb.click_button("East (dealer)", then="East (dealer) — offender: \u221212,000")
    assert _lines(hb, "South: +4,000") and _lines(hb, "North: +4,000")
    assert _lines(hb, "Points deducted: 0P")
    hb.page.mouse.move(200, 500)
    hb.page.mouse.wheel(0, 600)  # the result starts with its ruling ("EMA RCR §3.4.6"); the link is below
    hb.click_button("Rule: EMA RCR §3.4.6", route="/rules/ema-rcr/3.4.6")


def test_revealed_tiles_steppers_source_and_deal(loaded):
    hb = loaded.start_at("/tools/revealed?ruleset=azrm&tiles=3", ready="Penalty: Dead hand")
    hb.click_button("More tiles", then="Penalty: Dead hand")
    hb.click_button("More tiles", then="Penalty: Chombo")
    assert _lines(hb, "Points deducted: 30P") and _lines(hb, "Strike: Yes")
    hb.type_into("Tiles revealed", "0")
    hb.wait_for_text("Enter a number of tiles from 1 to 136.")
    hb.type_into("Tiles revealed", "2")
    hb.wait_for_text("Penalty: Warning")
    hb.tap(hb.role("switch", "During the deal"), then="Penalty: Re-deal")


def test_strike_window_and_a_bad_date(loaded):
    hb = loaded.start_at("/tools/strikes?on=2026-04-12", ready="Strikes until suspension")
    hb.type_into("Strike dates", "2026-04-10\n2026-04-10\n2026-04-10")
    hb.wait_for_text("Standing: Suspended")
    assert _lines(hb, "Suspension: Apr 10, 2026 to Apr 23, 2026 (both included)")
    assert hb.has_text("Strikes that caused one still count toward the next")
    hb.type_into("Strike dates", "2026-04-10\n2026-13-01")
    hb.wait_for_text("Strike date 2, “2026-13-01”, is not a date")


def _add_record(hb: Handbook, player: str, date: str, foul_filter: str, foul_option: str) -> None:
    hb.type_into("Player", player)
    hb.type_into("Date", date)
    box = hb.role("textbox", "Foul")
    box.click()
    hb.page.wait_for_timeout(400)
    hb.page.keyboard.type(foul_filter, delay=30)
    hb.click_button(foul_option, exact=True, then="Strike (AZRM §1.4)")
    hb.click_button("Add record", exact=True, then="Recorded: ")


def test_ledger_add_revoke_undo_reload_export_import(hb, server, tmp_path):
    hb.open("/ledger", ready="Add a record")
    _add_record(hb, "Ida Ito", "2026-11-20", "Noten", "Noten Riichi — Chombo 30P")
    hb.click_button("Ida Ito", then="AZRM strike window")
    assert hb.route() == "/ledger/Ida%20Ito"
    hb.wait_for_text("Strikes in window")
    # revoke (never delete): a reason first, then the record is marked and the Undo offered
    hb.click_button("Revoke record", then="Why is it revoked?")
    hb.type_into("Why is it revoked?", "given by mistake")
    hb.click_button("Revoke", exact=True, then="given by mistake")
    hb.wait_for_text("Undo")
    hb.click_button("Undo", then="Revoke record")
    assert json.loads((server.data_dir / "ledger.json").read_text())["records"]
    # a reload keeps the ledger (it lives in the server's data folder)
    hb.reload(ready="Noten Riichi")
    # the export buttons are under the records (the standing's figures take a line each)
    hb.page.mouse.move(200, 500)
    hb.page.mouse.wheel(0, 3000)
    # the export is downloaded by the browser, never written on the server
    with hb.page.expect_download(timeout=15000) as download:
        hb.click_button("Export CSV", then="Exported 1 record")
    name = download.value.suggested_filename
    assert name.startswith("ledger-Ida_Ito-") and name.endswith(".csv")
    exported = [tmp_path / name]
    download.value.save_as(exported[0])
    assert "Ida Ito" in exported[0].read_text(encoding="utf-8")
    assert not (server.data_dir / "exports").exists()
    # a bad file is refused with its line and reason; nothing changes
    before = (server.data_dir / "ledger.json").read_bytes()
    bad = tmp_path / "bad.csv"
    bad.write_text("player,date,ruleset,foul\nIda Ito,2026-11-21,azrm,Noten Riichi\n"
                   "Ida Ito,2026-13-01,azrm,Noten Riichi\n", encoding="utf-8")
    hb.navigate("/ledger", ready="Import a file")
    with hb.page.expect_file_chooser(timeout=15000) as chooser:
        hb.click_button("Import a file")
    chooser.value.set_files(str(bad))
    hb.wait_for_text("line 3: date '2026-13-01' is not a date (YYYY-MM-DD)")
    hb.wait_for_text("File not imported")
    assert (server.data_dir / "ledger.json").read_bytes() == before
    hb.click_button("OK", exact=True)
    # the export imports back (all records already there: skipped)
    with hb.page.expect_file_chooser(timeout=15000) as chooser:
        hb.click_button("Import a file")
    chooser.value.set_files(str(exported[0]))
    hb.wait_for_text("Imported 0 records")
    assert hb.has_text("1 already in the ledger")


def test_end_of_hanchan_scores_to_result(loaded):
    """Tools → End of hanchan: four scores typed, the total that does not add up answered with by
    how much, then the result per seat with its rules; the sign button; the plain text."""
    hb = loaded.start_at("/tools", ready="End of hanchan")
    hb.click_button("End of hanchan", route="/tools/final")
    hb.navigate("/tools/final?ruleset=ema-rcr", ready="Enter the four table scores.")
    for seat, score in (("East", "22000"), ("South", "45000"), ("West", "16000"), ("North", "36000")):
        hb.type_into(f"{seat} — table points", score)
    hb.wait_for_text("1,000 short — one riichi stick not counted?")
    hb.screenshot("final-does-not-add-up")
    hb.click_button("More riichi sticks", then="South: rank 1, final +46P")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 300)  # the result's last rows, under the button that fills penalties from the records
    hb.wait_for_text("West: rank 4, final \u221244P")
    assert _lines(hb, "North: rank 2, final +16P") and _lines(hb, "West: rank 4, final \u221244P")
    hb.type_into("South — penalty P", "20")
    hb.wait_for_text("South: rank 1, final +26P")
    hb.screenshot("final-result")
    hb.click_button("Change the sign of West", then="not add up")
    hb.click_button("Change the sign of West", then="South: rank 1, final +26P")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 2500)
    hb.wait_for_text("Rule: EMA RCR §3.6.1")
    hb.screenshot("final-rules")


def test_chombo_by_foul_and_revealed_tiles_referees_call(loaded):
    hb = loaded.start_at("/tools/chombo?ruleset=rakkii-nomi-2026&foul=premature-tenpai-declaration",
            ready="Points deducted: 30P")
    hb.click_button("Foul")
    hb.click_button("Usual chombo (20P)", then="Points deducted: 20P")
    hb.navigate("/tools/revealed?ruleset=wrc-2025&tiles=2&deal=1", ready="Penalty: Not penalized / Re-deal")
    assert hb.has_text("The referee's call")
    hb.tap(hb.role("switch", "During the deal"), then="only if it is repeated")
