"""Issue 44 in a browser: from a typed incident to a saved record in at most 4 taps after the
search (the row chosen by the ruling), the Strike count on the player's page, a revocation that
takes it back; the record form in Japanese."""

from __future__ import annotations

import json
import uuid
from urllib.parse import quote

from tests.support.browser_harness import Handbook


class Counted:
    """The taps a judge makes: every tap (a button, or a box tapped before typing) goes through
    here and is counted once (the driver's retry of a tap Flutter dropped is not a second tap)."""

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


def choose_azrm(hb: Handbook) -> None:
    picker = hb.find("Ruleset", roles=("button", "combobox", "textbox"))
    hb.tap(picker, then="WRC lower")
    option = (hb.page.get_by_role("button", name="AZRM", exact=True)
              .or_(hb.page.get_by_role("menuitem", name="AZRM", exact=True))
              .or_(hb.page.get_by_role("option", name="AZRM", exact=True))).filter(visible=True).first
    hb.tap(option, gone="WRC lower")


def stored(server) -> list[dict]:
    """The records in the server's ledger file (TinyDB's table ``records``)."""
    data = json.loads((server.data_dir / "ledger.json").read_text(encoding="utf-8"))
    return list(data["records"].values())


def test_a_typed_incident_becomes_a_record_in_four_taps_and_a_revocation_takes_it_back(hb, server):
    player = f"Rae {uuid.uuid4().hex[:6]}"    # the session's server is shared: a player of this test's own
    hb.open("/", ready="Search")
    choose_azrm(hb)
    hb.type_into("Search", "I showed four tiles by accident")
    hb.find("AZRM", "Wrongly revealing tiles: 3 or 4 tiles")
    judge = Counted(hb)                        # the search is done: count from here
    judge.tap(hb.role("button", "Record this ruling: Wrongly revealing tiles: 3 or 4 tiles", exact=True),
              then="Save record")
    hb.wait_for_text("Strike (AZRM §1.4)")
    hb.wait_for_value("What happened (reason)", "I showed four tiles by accident")
    judge.type_into("Player", player)
    judge.button("Save record", exact=True, then=f"Recorded: {player} — Wrongly revealing tiles: 3 or 4 tiles")
    assert judge.taps <= 4, judge.taps
    assert hb.has_text("Undo")
    records = [r for r in stored(server) if r.get("player") == player]
    assert [(r["foul"], r["points"], r["strike"], r["reason"]) for r in records] == [
        ("Wrongly revealing tiles: 3 or 4 tiles", 10, True, "I showed four tiles by accident")]
    # the player's page: the Strike counts
    hb.navigate("/ledger/" + quote(player, safe=""), ready="AZRM strike window")
    hb.wait_for_text("Strikes today: 1")
    # revoked (a reason first): the count falls back
    hb.click_button("Revoke record", then="Why is it revoked?")
    hb.type_into("Why is it revoked?", "recorded against the wrong player")
    hb.click_button("Revoke", exact=True, then="recorded against the wrong player")
    hb.wait_for_text("Strikes today: 0")
    [r] = [r for r in stored(server) if r.get("player") == player]
    assert r["revoked"]["reason"] == "recorded against the wrong player"


def test_the_record_form_in_japanese(loaded_ja):
    hb = loaded_ja
    hb.start_at("/record?ruleset=azrm&row=9&q=" + quote("牌を4枚見せてしまった"), ready="記録を保存")
    for text in ("この裁定を記録", "卓（任意）", "半荘（任意）", "何が起きたか（理由）"):
        hb.wait_for_text(text)
    hb.screenshot("ja-record-form")
