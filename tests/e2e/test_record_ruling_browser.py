"""Issue 44's "Done when" in one flow, in headless Chromium on a served app with the judge's gate
(``gated_server``): the judge unlocks the ledger, types an incident in the search, records the
penalty row the ruling chose in at most 4 taps after the search, sees the AZRM Strike count go
0 → 1 on the player's page, revokes the record (with a reason) and sees it fall back to 0 — and
End of hanchan for that table has no penalty line meanwhile — restores it, and finds the point
penalty line (player, foul, P) in End of hanchan for that table. Then the record form in
Japanese (the session's server, no gate)."""

from __future__ import annotations

import json
from urllib.parse import quote

from playwright.sync_api import expect
from tests.support.browser_harness import JUDGE_PASSPHRASE, Handbook
from tests.support.flutter_web import EDITING, TYPING_SETTLE_MS, wait_until_quiet

#: AZRM "Wrongly revealing tiles: 3 or 4 tiles" (§2.4): Minor Chombo (Dead Hand), 10P and a Strike
FOUL = "Wrongly revealing tiles: 3 or 4 tiles"
INCIDENT = "I showed four tiles by accident"
PLAYER, TABLE, HANCHAN = "Rae Kimura", "T7", "3"
#: the table's final scores (AZRM: 30,000 start, uma +15/+5/−5/−15), the player West, fourth
SCORES = "ruleset=azrm&e=22000&s=45000&w=16000&n=37000"
FINAL = f"/tools/final?{SCORES}&table={TABLE}&hanchan={HANCHAN}"
LINE = f"{PLAYER} — {FOUL} (AZRM), 10P"
MAX_TAPS = 4


class Counted:
    """The taps a judge makes: every tap (a button, or a box tapped before typing) goes through
    here and is counted once (the driver's retry of a tap Flutter dropped is not a second tap).
    Keys typed are not taps."""

    def __init__(self, hb: Handbook) -> None:
        self.hb, self.taps = hb, 0

    def button(self, name: str, **expected) -> None:
        self.taps += 1
        self.hb.click_button(name, **expected)

    def tap(self, locator, **expected) -> None:
        self.taps += 1
        self.hb.tap(locator, **expected)

    def type_into(self, label: str, text: str) -> None:
        self.taps += 1  # the box is tapped, then typed into
        self.hb.type_into(label, text)

    def type_focused(self, text: str) -> None:
        """Type into the box that has the focus already (no tap)."""
        page = self.hb.page
        editing = page.locator(EDITING)
        expect(editing).to_be_attached(timeout=5000)
        page.wait_for_timeout(TYPING_SETTLE_MS)
        page.keyboard.type(text, delay=20)
        expect(editing).to_have_value(text, timeout=3000)
        wait_until_quiet(page)


def choose_azrm(hb: Handbook) -> None:
    picker = hb.find("Ruleset", roles=("button", "combobox", "textbox"))
    hb.tap(picker, then="WRC lower")
    option = (hb.page.get_by_role("button", name="AZRM", exact=True)
              .or_(hb.page.get_by_role("menuitem", name="AZRM", exact=True))
              .or_(hb.page.get_by_role("option", name="AZRM", exact=True))).filter(visible=True).first
    hb.tap(option, gone="WRC lower")


def stored(server) -> list[dict]:
    """The records in the server's ledger file (TinyDB's table ``records``)."""
    path = server.data_dir / "ledger.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data.get("records", {}).values())


def test_from_a_typed_incident_to_the_record_its_strike_its_revocation_and_the_final_score(gated_hb):
    hb, server = gated_hb, gated_hb.server
    # the ledger unlocked with the judge's passphrase (the served app's gate)
    hb.open("/ledger", ready="Judge passphrase")
    hb.enable_semantics()
    hb.type_into("Judge passphrase", JUDGE_PASSPHRASE)
    hb.click_button("Open the ledger", then="No records yet")
    # the player's page before: no Strike
    player_page = "/ledger/" + quote(PLAYER, safe="")
    hb.navigate(player_page, ready="AZRM strike window")
    hb.wait_for_text("No records for this player.")
    hb.wait_for_text("Strikes today: 0")
    # the incident typed in the search, in the tournament's ruleset
    hb.navigate("/", ready="Search")
    choose_azrm(hb)
    hb.type_into("Search", INCIDENT)
    hb.find("AZRM", FOUL)
    judge = Counted(hb)                        # the search is done: count from here
    judge.tap(hb.role("button", f"Record this ruling: {FOUL}", exact=True), then="Save record")
    hb.wait_for_text("Strike (AZRM §1.4)")
    judge.type_focused(PLAYER)                 # the player box has the focus on arrival
    hb.wait_for_value("Player", PLAYER)
    judge.type_into("Table (optional)", TABLE)
    judge.type_into("Hanchan (optional)", HANCHAN)
    judge.button("Save record", exact=True, then=f"Recorded: {PLAYER} — {FOUL}")
    assert judge.taps <= MAX_TAPS, judge.taps
    print(f"taps after the search, to a saved record with player, table and hanchan: {judge.taps}")
    assert hb.has_text("Undo")
    [rec] = [r for r in stored(server) if r.get("player") == PLAYER]
    assert (rec["foul"], rec["points"], rec["strike"], rec["reason"], rec["table"], rec["hanchan"]) == (
        FOUL, 10, True, INCIDENT, TABLE, int(HANCHAN))  # the search query, kept as the reason
    assert not rec.get("revoked")

    # the player's page: the Strike counts
    hb.click_button("Open the player's page", then="AZRM strike window")
    hb.wait_for_text("Strikes today: 1")
    hb.wait_for_text(f"Table {TABLE}")
    # revoked, with a reason: the count falls back, and the record stays, marked
    hb.click_button("Revoke record", then="Why is it revoked?")
    hb.type_into("Why is it revoked?", "recorded against the wrong player")
    hb.click_button("Revoke", exact=True, then="recorded against the wrong player")
    hb.wait_for_text("Strikes today: 0")
    [rec] = [r for r in stored(server) if r.get("player") == PLAYER]
    assert rec["revoked"]["reason"] == "recorded against the wrong player"
    # while it is revoked, End of hanchan for that table has no penalty from it
    hb.navigate(FINAL, ready="Penalties from the day's records")
    hb.wait_for_text(f"No point penalties recorded at table {TABLE} in hanchan {HANCHAN} today.")
    assert not hb.has_text(LINE)
    assert hb.page.get_by_role("button", name=f"{PLAYER} sits West").count() == 0

    # the revocation undone on the player's page: the Strike is back
    hb.navigate(player_page, ready="AZRM strike window")
    hb.click_button("Restore record", then="Revoke record")
    hb.wait_for_text("Strikes today: 1")
    [rec] = [r for r in stored(server) if r.get("player") == PLAYER]
    assert not rec.get("revoked")

    # End of hanchan for that table: the record's line, then the penalty column once its seat is named
    hb.navigate(FINAL, ready="Penalties from the day's records")
    hb.wait_for_text(f"Not at any of the four seats: {LINE}.")
    hb.click_button(f"{PLAYER} sits West", then=f"West: {LINE}")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 400)  # the West seat's boxes into view before the tap that focuses one
    hb.role("textbox", "West — penalty P").click()  # Flutter shows a box's text to the page when it has focus
    hb.wait_for_value("West — penalty P", "10")
    hb.screenshot("record-flow-final")
    # West (16,000, fourth): −14 −15 −10 = −39P
    hb.page.mouse.wheel(0, 900)
    hb.wait_for_text("West: rank 4, final \u221239P")


def test_the_record_form_in_japanese(loaded_ja):
    hb = loaded_ja
    hb.start_at("/record?ruleset=azrm&row=9&q=" + quote("牌を4枚見せてしまった"), ready="記録を保存")
    for text in ("この裁定を記録", "卓（任意）", "半荘（任意）", "何が起きたか（理由）"):
        hb.wait_for_text(text)
    hb.screenshot("ja-record-form")
