"""Issue 43 in the browser: from the search page, every foul of every ruleset in at most three
taps through "What happened?" (search page → What happened? → its category → the foul: its rows,
or where the ruleset deals with it), in English and in a Japanese browser (ja-JP); and a search
whose best rulings are close shows the choice with the question its rows give.

The ruleset is the one the search page remembers (set in the profile's storage before the app
loads, as the picker keeps it). Every tap is a real click on Flutter's ARIA tree; the third lands on
the route the foul's ruling has (``handbook.core.incidents``), checked in the address bar; the
browser's back button then returns to the category. A tile below the window is scrolled to with
the mouse wheel, as a thumb would.
"""

from __future__ import annotations

import re

import pytest
from tests.support.browser_harness import Handbook, new_context

import handbook
from handbook.core.incidents import browse
from handbook.ui.views.incidents import target_route
from handbook.ui.widgets import foul_japanese

pytestmark = pytest.mark.browser

RULESET_KEY = "flutter.rjh.ruleset"
LOCALES = {
    "en-US": {"ready": "Search", "what": "What happened?"},
    "ja-JP": {"ready": "検索", "what": "何が起きましたか？"},
}
LIB = handbook.load_library()


#: the bottom of the window a tile must be above to be tapped (the navigation bar's height)
BAR_PX = 80


def _box(loc, timeout_ms: float = 500) -> dict | None:
    try:
        return loc.bounding_box(timeout=timeout_ms)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: not in the tree (yet)
        return None


def _in_window(hb: Handbook, box: dict | None) -> bool:
    vh = hb.page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= vh - BAR_PX


def _visible(hb: Handbook, loc) -> bool:
    return _in_window(hb, _box(loc))


def _scroll_to(hb: Handbook, *parts: str):
    """The button whose name holds ``parts``, scrolled into the window with the mouse wheel, as a
    thumb would: by as far as it lies below (or above) the window when Flutter has built it, else
    to the top once and then down by 40 % of a window at a time. After each turn of the wheel the walk waits for the screen
    to move (the button's box changes, up to ~2 s; or it comes into the tree, ~0.5 s), not for a
    fixed time."""
    pattern = re.compile("".join(f"(?=[\\s\\S]*{re.escape(p)})" for p in parts))
    loc = hb.page.get_by_role("button", name=pattern).first
    page = hb.page
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    box = _box(loc)
    topped = False
    for _ in range(25):
        if _in_window(hb, box):
            return loc
        if box is None and not topped:
            # not in the tree: first to the top (a list that was scrolled drops what is far above
            # the window from the tree), then down
            topped, delta = True, -vh * 5
        elif box is None:
            delta = vh * 0.4
        elif box["y"] < 0:
            delta = box["y"] - 16
        else:
            delta = box["y"] + box["height"] - (vh - BAR_PX) + 16
        page.mouse.move(vw / 2, vh / 2)
        page.mouse.wheel(0, delta)
        before, box = box, _box(loc, 100)
        for _wait in range(20 if before is not None else 3):  # the wheel's frame: up to ~2 s
            if box != before:
                break
            page.wait_for_timeout(50)
            box = _box(loc, 100)
    raise AssertionError(f"no button holding {parts} on {hb.route()}")


def _profile(browser, server, artifacts_dir, locale: str, ruleset: str):
    ctx = new_context(browser, locale=locale)
    ctx.add_init_script(f"localStorage.setItem('{RULESET_KEY}', JSON.stringify('{ruleset}'))")
    hb = Handbook(ctx.new_page(), server, artifacts_dir, {"/": LOCALES[locale]["ready"]})
    return ctx, hb


@pytest.mark.parametrize("locale", list(LOCALES))
@pytest.mark.parametrize("ruleset", list(LIB.rulesets))
def test_every_foul_in_three_taps(browser, server, artifacts_dir, locale, ruleset):
    words = LOCALES[locale]
    ja = locale == "ja-JP"
    tr = LIB.translations["ja"] if ja else {}
    ctx, hb = _profile(browser, server, artifacts_dir, locale, ruleset)
    try:
        hb.open("/", ready=words["ready"])
        reached: list[str] = []
        for cat, items in browse(LIB, ruleset):
            # tap 1: "What happened?" on the search page
            if hb.route() != "/":
                # ready: the search page's own button ("Search" is also the tab bar's, on every screen)
                hb.navigate("/", ready=words["what"])
            hb.tap(_scroll_to(hb, words["what"]), route="/what-happened")
            # tap 2: the category
            hb.tap(_scroll_to(hb, tr.get(cat.name, cat.name)), route=f"/what-happened/{cat.id}")
            for item in items:
                title, sub = (foul_japanese(item.foul), item.foul.name) if ja else (item.foul.name,
                                                                                   foul_japanese(item.foul))
                # tap 3: the foul, onto its ruling
                hb.tap(_scroll_to(hb, title, sub), route=target_route(item))
                reached.append(item.foul.id)
                hb.back()
                hb.wait_for_route(f"/what-happened/{cat.id}")
        expected = {i.foul.id for _c, items in browse(LIB, ruleset) for i in items}
        assert set(reached) == expected and len(reached) == len(expected)
    finally:
        ctx.close()


@pytest.mark.parametrize("locale", list(LOCALES))
def test_close_rulings_show_the_choice(browser, server, artifacts_dir, locale):
    ja = locale == "ja-JP"
    ctx, hb = _profile(browser, server, artifacts_dir, locale, "wrc-2025")
    try:
        hb.open("/", ready=LOCALES[locale]["ready"])
        hb.type_into("検索" if ja else "Search", "called ron by mistake")
        hb.wait_for_text("発声だけですか、手牌を倒しましたか？" if ja else
                         "Was the call vocal only, or was the hand shown?")
        rows = LIB.rulesets["wrc-2025"].rows("empty-call-win")
        for row, answer in zip(rows, ("発声のみ", "手牌を倒した") if ja else ("vocal only", "hand shown"), strict=True):
            option = hb.find(answer, row.foul, row.penalty)  # one target: answer, row and penalty
            assert _visible(hb, option), f"{row.foul} is not on the first screen"
        hb.tap(hb.find(rows[1].foul), route="/penalties/wrc-2025/empty-call-win")
    finally:
        ctx.close()
