"""The layout walk's judgement (``tests/support/layout_checks.problems``) on screens made up here:
what the browser walk over every route kind (tests/e2e/test_layout_walk.py) would report for a
control too small or unnamed, a row past the window's edge, two texts on top of each other, and
what it must not report (a node inside another, a list row scrolled half out of view)."""

from __future__ import annotations

import pytest
from tests.support.layout_checks import MIN_TARGET, OVERLAP_PX, problems

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
