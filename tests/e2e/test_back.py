"""The AppBar's ← is a step back through the browser's own history (issue 27): it adds no history
entry, so the browser's back button (the phone's back gesture) after it goes one step further back
instead of bouncing to the screen just left; on a deep-linked first page it goes up to the parent
screen in place of that page. The page script is ``handbook.ui.webclient.HISTORY_BACK``."""

from __future__ import annotations

import re

import pytest



@pytest.fixture(scope="module")
def server(module_server):
    """A served app of this module's own (see ``module_server``)."""
    return module_server


pytestmark = pytest.mark.browser


def entries(hb) -> int:
    return hb.page.evaluate("history.length")


def arrow(hb, route: str) -> None:
    hb.click_button("Back", exact=True, route=route)


def test_arrow_then_back_gesture_walk_back_one_step_each(hb):
    hb.open("/rules", ready="AZRM")
    hb.tap(hb.find("AZRM"), route="/rules/azrm")
    hb.tap(hb.find("§2.4"), route="/rules/azrm/2.4")
    hb.wait_for_text("Wrongly revealing tiles")
    before = entries(hb)
    arrow(hb, "/rules/azrm")
    hb.find("§2.4")  # the chapter list is shown
    assert entries(hb) == before, "the arrow added a history entry"
    hb.back()  # the phone's back gesture: one more step back, not forward to §2.4 again
    hb.wait_for_route("/rules")
    hb.find("AZRM")
    hb.page.go_forward(wait_until="commit")  # and the history still holds the screens left
    hb.wait_for_route("/rules/azrm")


def test_arrow_after_the_search_returns_to_the_results_without_an_entry(hb):
    hb.open("/", ready="Search")
    hb.type_into("Search", "見せ牌")
    hb.tap(hb.find("AZRM", "§2.4", "Wrongly revealing tiles"), route="/rules/azrm/2.4")
    before = entries(hb)
    arrow(hb, re.compile(r"/search\?q="))
    hb.find("AZRM", "§2.4", "Wrongly revealing tiles")
    assert entries(hb) == before


def test_arrow_on_a_deep_link_goes_up_in_place_of_it(hb):
    hb.open("/rules/azrm/2.4", ready="Wrongly revealing tiles")
    before = entries(hb)
    arrow(hb, "/rules/azrm")
    hb.find("§2.4")
    assert entries(hb) == before, "going up from a deep link added a history entry"
    assert "back-step" not in hb.page.url
    arrow(hb, "/rules")  # on up the route table, still in place
    hb.find("AZRM")
    assert entries(hb) == before
