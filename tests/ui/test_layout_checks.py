"""The layout walk's judgement (``tests/support/layout_checks.problems``) on screens made up here:
what the browser walk over every route kind (tests/e2e/test_layout_walk.py) would report for a
control too small or unnamed, a row past the window's edge, two texts on top of each other, and
what it must not report (a node inside another, a list row scrolled half out of view)."""

from __future__ import annotations

import pytest
from tests.support.layout_checks import MIN_TARGET, OVERLAP_PX, cut_controls, problems, whole_controls

VW, VH = 412, 915


def node(i, name="", *, x=10, y=10, w=100, h=MIN_TARGET, role="", tag="flt-semantics", parent=-1,
         interactive=False, clip=None) -> dict:
    return {"i": i, "parent": parent, "role": role, "tag": tag, "name": name, "x": x, "y": y, "w": w, "h": h,
            "clip": clip, "interactive": interactive}


def screen(*nodes) -> dict:
    return {"nodes": list(nodes), "vw": VW, "vh": VH}


def button(i, name="Search", **kw) -> dict:
    return node(i, name, role="button", interactive=True, **kw)


def test_a_screen_that_fits_has_no_problems():
    assert problems(screen(button(0, "Search", w=120), node(1, "§2.4 Wrongly revealing tiles", y=80),
                           node(2, "Chombo 30P", y=80 + MIN_TARGET))) == []


@pytest.mark.parametrize(("w", "h"), [(MIN_TARGET - 1, MIN_TARGET), (120, MIN_TARGET - 1)])
def test_a_control_under_48px_either_way_is_reported_with_its_size(w, h):
    [found] = problems(screen(button(0, "More tiles", w=w, h=h)))
    assert "'More tiles'" in found and f"{w} x {h} px" in found


def test_a_control_without_a_name_is_reported():
    [found] = problems(screen(button(0, "", w=60, h=60)))
    assert "without a name" in found


def test_a_row_past_the_window_edge_is_reported_as_cut():
    [found] = problems(screen(node(0, "Points deducted: 30P", x=300, w=VW - 300 + 20)))
    assert found.startswith("cut at the window's edge") and f"of {VW}" in found


def test_two_texts_of_two_rows_crossing_are_an_overlap_but_touching_ones_are_not():
    rows = node(8, w=VW - 20, h=200), node(9, w=VW - 20, h=200)  # two unnamed rows, one text each
    a = node(0, "Penalty", x=10, y=100, w=100, h=20, parent=8)
    [found] = problems(screen(*rows, a, node(1, "Dead hand", x=10 + 100 - OVERLAP_PX - 2, y=105, w=80, h=20, parent=9)))
    assert found.startswith("overlap: 'Penalty' and 'Dead hand'")
    assert problems(screen(*rows, a, node(1, "Dead hand", x=10 + 100 - OVERLAP_PX, y=105, w=80, h=20, parent=9))) == []


def test_lines_of_one_paragraph_around_its_links_are_no_overlap():
    """Texts of one parent without a role: Flutter's pieces of a paragraph split by its links."""
    para = node(8, w=VW - 20, h=200)
    assert problems(screen(para, node(0, "See", x=10, y=100, w=100, h=20, parent=8),
                           node(1, "and the rest", x=50, y=105, w=100, h=20, parent=8))) == []


def test_a_text_inside_its_button_is_no_overlap():
    assert problems(screen(button(0, "Rule: AZRM §2.4", w=200), node(1, "Rule: AZRM §2.4", parent=0, w=180))) == []


def test_a_list_row_half_scrolled_out_of_its_list_is_judged_only_in_full_view():
    lst = {"x": 0, "y": 100, "w": VW, "h": 400}
    half_out = button(0, "Open §2.4", y=480, h=20, clip=lst)  # clipped by the list's lower edge
    assert problems(screen(half_out)) == []
    in_view = button(0, "Open §2.4", y=200, h=20, clip=lst)
    assert problems(screen(in_view))


def target(name, *, role="button", x=12, y=100, w=388, h=MIN_TARGET) -> dict:
    """A control as Chromium's accessibility tree gives it (``layout_checks.ax_targets``)."""
    return {"role": role, "name": name, "x": x, "y": y, "w": w, "h": h}


def test_the_accessibility_tree_s_controls_are_judged_not_the_dom_s_attributes():
    """A control Flutter's DOM marks no way the DOM walk knew (no role, no flt-tappable) is still a
    control when the accessibility tree says so, and is judged by its size there."""
    dom = node(0, "Study: cards and exam", y=100, h=33)  # not "interactive" in the DOM's reading
    assert problems(screen(dom)) == []
    [found] = problems({**screen(dom), "targets": [target("Study: cards and exam", h=33)]})
    assert found == "button 'Study: cards and exam' is 388 x 33 px"


def test_a_row_cut_by_its_list_s_edge_counts_as_cut_until_it_is_seen_whole():
    lst = {"x": 0, "y": 100, "w": VW, "h": 735}  # the list ends at the navigation bar (y 835)
    cut_dom = node(0, "Dead Hand", x=12, y=791, w=388, h=44, clip=lst)
    cut = {**screen(cut_dom), "targets": [target("Dead Hand", y=791, h=44)]}
    assert problems(cut) == []
    assert list(cut_controls(cut).values()) == [
        "button 'Dead Hand' showed only 388 x 44 px at y 791 (cut by its list's edge) and was never seen whole"]
    assert whole_controls(cut) == set()
    whole = {**screen(node(0, "Dead Hand", x=12, y=491, w=388, h=60, clip=lst)), "targets": [target("Dead Hand", y=491, h=60)]}
    assert whole_controls(whole) == {("button", "Dead Hand")} and problems(whole) == []


def test_a_link_inside_a_paragraph_is_judged_like_any_control():
    """Flutter's ``<a>`` over a span of rule text: once the walk let it pass (issue 47, §4.1 at 48 x 33)."""
    para = node(0, "the call is considered an Empty Call. (", y=400, w=300, h=66)
    link = node(1, "§4.1", role="link", tag="a", x=51, y=448, w=48, h=33, parent=0, interactive=True)
    [found] = problems({**screen(para, link), "targets": [target("§4.1", role="link", x=51, y=448, w=48, h=33)]})
    assert found == "link '§4.1' is 48 x 33 px"


def test_a_tappable_node_the_accessibility_tree_gives_no_control_role_is_still_judged():
    tappable = node(0, "Pinfu", y=300, w=60, h=30, interactive=True)
    [found] = problems({**screen(tappable), "targets": []})
    assert found == "tappable 'Pinfu' is 60 x 30 px"
    assert problems({**screen(node(0, "Pinfu", y=300, w=60, h=48, interactive=True)), "targets": []}) == []
