"""A pon called by mistake, told as players tell it (誤ポン, 空ポン, "mistaken pon"), at
200 % text on a phone (412×915, the browser's own text-size setting): the empty-call row and the
invalid-group row of the remembered ruleset both lie wholly on the first screen, between the ruleset
picker and the navigation bar, without scrolling; a pon said that could not be made ("empty pon",
"false pon", "pon by mistake") has the empty-call row there (issue 43).

The rows are read from the content (their foul and penalty), never written here; a result counts as
seen when one node of Flutter's ARIA tree holds the row's foul and penalty and lies wholly inside
the screen's free part.
"""

from __future__ import annotations

import pytest
from tests.support.browser_harness import Handbook, new_context
from tests.support.first_screen import RULESET_KEY, START_TEXT, settled, wholly_shown
from tests.support.layout_checks import FONT_PX_200

import handbook

pytestmark = pytest.mark.browser

#: a pon called by mistake (誤ポン and its English): the call that cannot be made, or made with the
#: wrong tiles -- both rows on the first screen
MISTAKEN = ("誤ポン", "空ポン", "mistaken pon")
#: a pon said that could not be made or was said by mistake: the empty-call row on the first
#: screen (the second result may rightly be the section governing empty calls, AZRM §4.1, or EMA's
#: "Changing a call", whose row sends an unmade call to the empty-call penalty)
EMPTY = ("empty pon", "false pon", "pon by mistake")
#: the foul ids of the two rows (penalty tables, every ruleset)
ROWS = ("empty-call-group", "invalid-group")


def _row_texts(library, ruleset: str, foul: str) -> list[tuple[str, str]]:
    """(foul, penalty) of each row of ``foul`` in ``ruleset``'s table: one of them must be seen."""
    return [(r.foul, r.penalty) for r in library.rulesets[ruleset].rows(foul) if r.penalty]


# the three penalty tables: WRC 2025's lower column and Rakkii Nomi 2026 list WRC 2025's rows
@pytest.mark.parametrize("ruleset", ["azrm", "ema-rcr", "wrc-2025"])
def test_a_mistaken_pon_shows_the_empty_call_and_invalid_group_rows_at_200_percent(browser, server, artifacts_dir,
                                                                                  ruleset):
    library = handbook.load_library()
    wanted = {foul: _row_texts(library, ruleset, foul) for foul in ROWS}
    assert all(wanted.values()), f"{ruleset} has no row for one of {ROWS}: {wanted}"
    ctx = new_context(browser, viewport={"width": 412, "height": 915})
    try:
        ctx.add_init_script(f"localStorage.setItem('{RULESET_KEY}', JSON.stringify('{ruleset}'))")
        page = ctx.new_page()
        ctx.new_cdp_session(page).send("Page.setFontSizes", {"fontSizes": {"standard": FONT_PX_200,
                                                                           "fixed": FONT_PX_200}})
        hb = Handbook(page, server, artifacts_dir)
        hb.open("/", ready="Search")
        missed = []
        for query in (*MISTAKEN, *EMPTY):
            hb.type_into("Search", "")
            hb.wait_for_text(START_TEXT)
            hb.type_into("Search", query)
            hb.wait_for_no_text(START_TEXT)
            snap = settled(hb.page)
            for foul, rows in wanted.items() if query in MISTAKEN else list(wanted.items())[:1]:
                if not any(wholly_shown(snap, row) for row in rows):
                    missed.append(f"{query!r}: {foul} not wholly between {snap['picker']:.0f} and "
                                  f"{snap['nav']:.0f} px; nodes: {[(t[:60], round(a), round(b)) for t, a, b in snap['nodes'][:8]]}")
            hb.screenshot(f"mistaken-pon-{ruleset}-{len(missed)}-{query.replace(' ', '-')}")
    finally:
        ctx.close()
    assert not missed, "\n".join(missed)
