"""The hand checker (/tools/hand) in headless Chromium against the served app, at 412 x 915: a hand
tapped in on the tile keyboard gives its value; a condition toggle and tsumo change it; a link
with a red five under Rakkii Nomi 2026 links the rule; a win without yaku shows the empty-call
rows; the screen in Japanese shows the yaku in Japanese; at 200 % text the labels and tiles grow
instead of being cut. Every request stays on 127.0.0.1. The first three share the module's page
with the app loaded (``loaded``), each reaching its hand inside the app as a link does."""

from __future__ import annotations

import time

import pytest
from tests.support.browser_harness import Handbook, new_context
from tests.support.layout_checks import FONT_PX_200, NODES_JS



@pytest.fixture(scope="module")
def server(module_server):
    """A served app of this module's own (see ``module_server``)."""
    return module_server


HAND = [("萬 Characters", ["2", "3", "4", "5", "6", "7"]), ("筒 Circles", ["2", "2"]),
        ("索 Bamboo", ["3", "4", "5", "6", "7", "8"])]
SUIT = {"萬 Characters": "Characters", "筒 Circles": "Circles", "索 Bamboo": "Bamboo"}


def test_a_hand_tapped_in_gives_its_value(loaded: Handbook):
    hb = loaded.start_at("/tools/hand?ruleset=wrc-2025&seat=W&discarder=S",
                         ready="14 tiles needed with these melds, 0 given")
    n = 0
    last = None
    for suit, digits in HAND:
        hb.click_button(suit, exact=True)
        for d in digits:
            n += 1
            if n == 14:
                last = hb.role("button", f"{d} {SUIT[suit]}", exact=True)
                break
            hb.click_button(f"{d} {SUIT[suit]}", exact=True, then=f"Hand: {n} of 14 tiles")
    start = time.perf_counter()
    hb.tap(last, then="Value: 2,000 (2 han 30 fu)")
    print(f"value shown {time.perf_counter() - start:.3f} s after the last tap (incl. the tap)")
    # the conditions are below the keyboard (the title scrolls with the screen): scroll to them as
    # a thumb would; Flutter's canvas does not scroll for a click
    hb.page.mouse.move(206, 500)
    hb.page.mouse.wheel(0, 400)
    time.sleep(0.8)
    hb.click_button("Riichi", exact=True, role="switch", then="Value: 3,900 (3 han 30 fu)")
    hb.page.mouse.wheel(0, -400)
    time.sleep(0.8)
    hb.click_button("Tsumo", exact=True, then="Value: 1,300/2,600 (4 han 20 fu)")
    hb.click_button("Remove last", then="13 given")
    hb.screenshot("hand-tapped")


def test_a_linked_red_five_hand_links_its_rule(loaded: Handbook):
    hb = loaded.start_at("/tools/hand?ruleset=rakkii-nomi-2026&hand=234067m22p345s678s&win=8s&riichi=1&seat=W"
                         "&discarder=S", ready="Value: 8,000 (Mangan · 4 han 30 fu)")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 1200)
    hb.click_button("Rule: Rakkii Nomi 2026 §2.1", route="/rules/rakkii-nomi-2026/2.1")


def test_no_yaku_shows_the_empty_call_rows(loaded: Handbook):
    hb = loaded.start_at("/tools/hand?ruleset=wrc-2025-lower&hand=567m22p345s678s&win=8s&melds=chi+123m&seat=W"
                         "&discarder=S", ready="No yaku: nothing is paid")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 1400)
    hb.wait_for_text("Empty call for a win (vocal only)")
    hb.click_button("Empty call for a win (showing the hand)", route="/penalties/wrc-2025-lower/empty-call-win")


def test_the_hand_checker_in_japanese(loaded_ja: Handbook):
    hb = loaded_ja.start_at("/tools/hand?ruleset=wrc-2025&hand=234567m22p345s678s&win=8s&riichi=1&tsumo=1&seat=W"
                            "&dora=1m", ready="点数: 2,000/4,000")
    hb.page.mouse.move(200, 600)
    hb.page.mouse.wheel(0, 1400)
    hb.wait_for_text("立直")
    assert hb.has_text("断幺九") and hb.has_text("門前清自摸和")
    hb.screenshot("hand-ja")


def test_at_200_percent_text_labels_wrap_whole_and_tiles_grow(browser, server, artifacts_dir):
    """At 200 % text on a 360 px phone (the browser's own text-size setting): a choice keeps its
    words whole ("Concealed kan" was broken into "Conc/eale/d kan" in a fixed 4-column grid), a long
    condition wraps onto as many lines as it needs instead of being cut to its first ("Robbing a"),
    and a tile of the hand grows with its glyph instead of cutting it. The window is tall enough to
    hold the whole screen, so every box is measured where it is drawn."""
    ctx = new_context(browser, viewport={"width": 360, "height": 3000}, locale="en-US")
    try:
        page = ctx.new_page()
        ctx.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": FONT_PX_200,
                                                                           "fixed": FONT_PX_200}})
        hb = Handbook(page, server, artifacts_dir)
        hb.open("/tools/hand?ruleset=wrc-2025&hand=22555666777z&win=2z&melds=pon+111z&seat=S&discarder=W",
                ready="Value: 64,000")
        nodes = page.evaluate(NODES_JS)["nodes"]
        hb.screenshot("hand-text200")
    finally:
        ctx.close()
    box = {n["name"]: n for n in nodes}
    line = 14 * FONT_PX_200 / 16  # a label's 14 px at 200 %
    for name in ("Concealed kan", "萬 Characters", "East (dealer)", "Ura dora"):
        assert box[name]["h"] < 2.5 * line, f"{name!r} is drawn on more lines than its words need: {box[name]}"
    for name in ("Robbing a kan (chankan)", "Last tile drawn (haitei)", "After a kan (rinshan)"):
        assert box[name]["h"] >= 2 * line + 20, f"{name!r} is cut to its first line: {box[name]}"
    hand = next(n for name, n in box.items() if name.startswith("Hand: 11 of 11 tiles"))
    assert hand["h"] >= 2 * 0.5 * 32 * FONT_PX_200 / 16, f"the hand's tiles did not grow with the text: {hand}"
