"""Every route kind of the route table (``handbook.ui.routes.ROUTES``, and the not-found screen),
opened at 412 x 915 and at 360 px with 200 % text, in English and Japanese, scrolled through
from top to bottom: no two texts overlap, nothing runs off the window or past its box (text cut
without an ellipsis), every control is at least 48 x 48 px and named (issue 27; since issue 47
every control a finger can hit: links inside text, tappable nodes, open drop-down menus). What is
measured and how 200 % text is made: ``tests/support/layout_checks.py``. One page per window and language: the
first route is loaded, the next ones are reached inside the app (``navigate``)."""

from __future__ import annotations

import pytest
from tests.support.browser_harness import Handbook, new_context
from tests.support.layout_checks import FONT_PX_200, NODES_JS, ax_targets, cut_controls, problems, whole_controls

from handbook.core.load import default_library
from handbook.ui.routes import NOT_FOUND, ROUTES

pytestmark = pytest.mark.browser

#: one sample path per route kind (search has two: the empty box and a query)
SAMPLES = list(dict.fromkeys((r.name, r.sample) for r in (*ROUTES, NOT_FOUND)))
#: End of hanchan with its penalties filled from the day's records: a table whose record's player
#: sits at none of the seats (the warning and its seat buttons), a penalty typed by hand, the sum
#: check naming each line (the walk records the table's penalty first, :func:`_seed`)
FINAL_RECORDS = ("final-records", "/tools/final?ruleset=azrm&e=22000&s=45000&w=16000&n=37000&pw=30"
                                  "&table=WALK-7&hanchan=1")
SAMPLES.append(FINAL_RECORDS)
#: "Record this ruling" for the usual chombo: the ruleset's chombo rows to choose from
SAMPLES.append(("record-chombo", "/record?ruleset=azrm&chombo=usual&q=Chombo%2C%20offender%20seat%20North"))
#: what a ruleset drop-down's menu lists (the shipped content's rulesets, by their short names)
RULESET_SHORTS = [rs.short for rs in default_library().rulesets.values()]
CONFIGS = {
    "412x915": ({"width": 412, "height": 915}, None),
    "360-text200": ({"width": 360, "height": 780}, FONT_PX_200),
}
#: the most stops the walk makes on one screen (the longest, the WRC penalty table's 78 rows at 360 px
#: with 200 % text, takes 258 in Japanese): a screen whose end it does not reach fails, so no
#: control goes unjudged
MAX_SCREENS = 400


@pytest.fixture(scope="module", params=[(c, loc) for c in CONFIGS for loc in ("en-US", "ja-JP")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def walker(request, browser, server, artifacts_dir):
    config, locale = request.param
    viewport, font_px = CONFIGS[config]
    ctx = new_context(browser, viewport=viewport, locale=locale)
    page = ctx.new_page()
    if font_px:
        # the browser's own text-size setting (Flutter's text scale = root font size / 16 px)
        cdp = ctx.new_cdp_session(page)
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font_px, "fixed": font_px}})
    hb = Handbook(page, server, artifacts_dir)
    hb.cdp = ctx.new_cdp_session(page)  # what the walk reads the accessibility tree through
    yield hb, f"{config}-{locale}"
    ctx.close()


#: how often the screen is read while it settles, and for how long at most (ms)
POLL_MS, SETTLE_MS = 150, 4000
#: after a scroll: how often the screen is read, and how long the walk waits for it to move (ms)
#: before it takes the list for ended (a scroll is the browser's own frame, no server's answer)
SCROLL_POLL_MS, SCROLL_WAIT_MS = 40, 1500


def _layout(snap: dict | None) -> list | None:
    return None if snap is None else [(n["name"], round(n["x"]), round(n["y"]), round(n["w"]), round(n["h"]))
                                      for n in snap["nodes"]]


def settled(page, *, agree: int = 2, poll_ms: int = POLL_MS) -> dict | None:
    """The screen's nodes once it shows named nodes and ``agree`` + 1 readings ``poll_ms`` apart
    agree (the view built, the server's answer shown, the scroll done), or as they are after
    :data:`SETTLE_MS`."""
    snap = page.evaluate(NODES_JS)
    same = 0
    for _ in range(SETTLE_MS // poll_ms):
        page.wait_for_timeout(poll_ms)
        again = page.evaluate(NODES_JS)
        named = again is not None and any(n["name"] for n in again["nodes"])
        same = same + 1 if named and _layout(again) == _layout(snap) else 0
        snap = again
        if same == agree:
            break
    return snap


def moved(page, before: list | None) -> bool:
    """Whether the screen's layout changes from ``before`` (:func:`_layout`) within
    :data:`SCROLL_WAIT_MS` of a scroll: not, at the list's end."""
    for _ in range(SCROLL_WAIT_MS // SCROLL_POLL_MS):
        page.wait_for_timeout(SCROLL_POLL_MS)
        if _layout(page.evaluate(NODES_JS)) != before:
            return True
    return False


def scroll_step(list_h: float) -> float:
    """How far the walk scrolls a list ``list_h`` px tall: all of it but 100 px (half of it, for
    a list under 200 px). A control cut by the list's lower edge showed under 48 px of itself, so
    its top is at most 48 px above that edge: after the step it starts at least 52 px below the
    list's top, wholly in view if it is no taller than the list less 100 px, or showing 48 px of
    itself if taller (then judged as seen, :func:`whole_controls`)."""
    return list_h - 100 if list_h >= 200 else list_h / 2


def walk(hb: Handbook) -> list[str]:
    """The problems seen while the screen is scrolled from top to bottom (each said once); the
    controls are those of Chromium's accessibility tree (``ax_targets``), and a control that was
    cut by its list's edge at every stop is reported with the part it showed, once the walk has
    reached the end of the screen."""
    page = hb.page
    vw, vh = page.viewport_size["width"], page.viewport_size["height"]
    found: dict[str, None] = {}
    cut: dict[tuple[str, str], str] = {}
    whole: set[tuple[str, str]] = set()
    at_end = False
    for _step in range(MAX_SCREENS):
        # the first stop waits for the server's screen; a later one only for the scroll's frames
        snap = settled(page) if _step == 0 else settled(page, agree=1, poll_ms=SCROLL_POLL_MS * 2)
        if snap is None:
            break
        snap["targets"] = ax_targets(hb.cdp, page.viewport_size)
        for p in problems(snap):
            found.setdefault(p)
        cut.update(cut_controls(snap))
        whole |= whole_controls(snap)
        # the wheel over the scrolling list itself: over a fixed header (the penalty table's filter,
        # switch and count at 360 px with 200 % text) it scrolled nothing, and the walk took the
        # screen's first position for its end
        lists = [n["clip"] for n in snap["nodes"] if n["clip"]]
        box = max(lists, key=lambda c: c["h"]) if lists else {"x": 0, "y": 0, "w": vw, "h": vh}
        page.mouse.move(box["x"] + box["w"] / 2, box["y"] + box["h"] / 2)
        page.mouse.wheel(0, scroll_step(box["h"]))
        if not moved(page, _layout(snap)):
            at_end = True
            break  # the list did not move: its end
    if not at_end:
        found.setdefault(f"the walk did not reach the screen's end in {MAX_SCREENS} stops")
    for key, what in cut.items():
        if key not in whole:
            found.setdefault(what)
    return list(found)


def test_the_walk_reports_a_control_under_48px_in_the_accessibility_tree(browser):
    """What the walk reads on a page whose one control is 139 x 43 px: the control, its name and
    its size, from Chromium's accessibility tree; at 48 px it has nothing to say."""
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        cdp = ctx.new_cdp_session(page)
        for h in (43, 48):
            page.set_content(f'<button style="width:139px;height:{h}px;margin:20px;border:0">Import a file</button>')
            vp = page.viewport_size
            snap = {"nodes": [], "vw": vp["width"], "vh": vp["height"], "targets": ax_targets(cdp, vp)}
            assert [(t["role"], t["name"], round(t["w"]), round(t["h"])) for t in snap["targets"]] == [("button", "Import a file", 139, h)]
            assert problems(snap) == ([] if h == 48 else ["button 'Import a file' is 139 x 43 px"])
    finally:
        ctx.close()


def _seed(server) -> None:
    """Today's point penalty at the walk's table, in the served app's ledger (once)."""
    import datetime

    from handbook.ledger import Ledger
    from handbook.storage import open_db

    ledger = Ledger(open_db(server.data_dir / "ledger.json"))
    if not ledger.penalty_lines(datetime.date.today(), "WALK-7", 1):
        ledger.add("Walter Longname-Walker", datetime.date.today(), "azrm", "Noten Riichi", table="WALK-7",
                   hanchan=1)


@pytest.mark.parametrize("name, route", SAMPLES, ids=[f"{n}:{r}" for n, r in SAMPLES])
def test_screen_survives_the_window_and_text_size(walker, server, name, route):
    hb, config = walker
    if (name, route) == FINAL_RECORDS:
        _seed(server)
    hb.navigate(route)
    bad = walk(hb)
    if bad:  # the screen where the walk stopped, for the one who reads the failure
        hb.screenshot(f"FAILED-walk-{config}-{name}")
    assert not bad, f"{route} at {config}:\n  " + "\n  ".join(bad)


#: drop-downs whose open menu the walk measures (route, the drop-down's name in English and in
#: Japanese): the menu is not on the screen until it is opened
MENUS = [("/", "Ruleset: All rulesets", "ルール: すべてのルール"), ("/study", "Deck", "デッキ")]


@pytest.mark.parametrize("route, names", [(r, n) for r, *n in MENUS], ids=[r for r, *_n in MENUS])
def test_an_open_drop_down_s_items_are_48px(walker, route, names):
    """The items of a drop-down's menu, opened, are 48 x 48 px or more and named, and the menu
    lists every ruleset (what is measured: :func:`tests.support.layout_checks.ax_targets`)."""
    hb, config = walker
    page = hb.page
    hb.navigate(route)
    settled(page)
    vp = page.viewport_size
    shown = {(t["role"], t["name"], round(t["y"])) for t in ax_targets(hb.cdp, vp)}
    page.get_by_role("button", name=names[config.endswith("ja-JP")]).first.click()
    items: list[dict] = []
    for _ in range(SETTLE_MS // POLL_MS):
        page.wait_for_timeout(POLL_MS)
        items = [t for t in ax_targets(hb.cdp, vp) if (t["role"], t["name"], round(t["y"])) not in shown]
        if len({t["name"] for t in items} & set(RULESET_SHORTS)) == len(RULESET_SHORTS):
            break
    try:
        assert {t["name"] for t in items} >= set(RULESET_SHORTS), f"the menu of {names[0]!r} did not open"
        snap = {"nodes": [], "vw": vp["width"], "vh": vp["height"], "targets": items}
        bad = problems(snap)
        if bad:
            hb.screenshot(f"FAILED-menu-{config}-{route.strip('/') or 'home'}")
        assert not bad, f"the menu of {names[0]!r} on {route} at {config}:\n  " + "\n  ".join(bad)
    finally:
        page.keyboard.press("Escape")
