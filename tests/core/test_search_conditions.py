"""Conditions read from a row's wording and from a query (handbook.core.search.conditions): the
numbers and states a judge types choose which of a foul's rows comes first."""

from __future__ import annotations

import math

import pytest

from handbook.core.search.conditions import Condition, condition_label, fit, order_rows, read


@pytest.mark.parametrize("text, low, high, unit", [
    ("Late by 1 to 10 min", 1, 10, "min"),
    ("Being late by one to ten minutes", 1, 10, "min"),
    ("Late by more than 10 min", 10.001, math.inf, "min"),
    ("Being late by more than ten minutes", 10.001, math.inf, "min"),
    ("late 15 minutes", 15, 15, "min"),
    ("he was 5 min late", 5, 5, "min"),
    ("15分遅刻", 15, 15, "min"),
    ("Wrongly revealing tiles: 3 or 4 tiles", 3, 4, "tile"),
    ("Wrongly revealing tiles: more than 4 tiles", 4.001, math.inf, "tile"),
    ("Riichi declaration with two or more steps missing", 2, math.inf, "step"),
    ("showed two tiles", 2, 2, "tile"),
])
def test_numbers_and_units_are_read(text, low, high, unit):
    c = read(text)
    assert (c.low, c.high, c.unit) == (pytest.approx(low), high if high == math.inf else pytest.approx(high), unit)


@pytest.mark.parametrize("text", ["Regular penalty 12.3.6 (4)", "Chonbo 30P", "", None, "furiten ron"])
def test_references_and_points_are_no_condition(text):
    assert read(text).low is None


@pytest.mark.parametrize("text, state", [
    ("Empty call for a win (vocal only)", "vocal"),
    ("Empty call for a win (showing the hand)", "shown"),
    ("called ron but didn't show his hand", "vocal"),
    ("called ron and showed his hand", "shown"),
    ("Swap-calling (after discarding)", "after-discard"),
    ("kuikae noticed before discarding", "before-discard"),
    ("drew the wrong tile and mixed it into the hand", "in-hand"),
    ("Wrongly drawing tile - out of turn (tile not put into hand)", "kept-apart"),
    ("If the hand was formally declared to be dead", "declared"),
    ("If the hand was not formally declared to be dead", "not-declared"),
    ("ロンと言って手牌を倒した", "shown"),
])
def test_states_are_read(text, state):
    assert state in read(text).states


def test_a_negated_state_is_not_also_the_plain_one():
    assert read("didn't show his hand").states == {"vocal"}
    assert read("If the hand was not formally declared to be dead").states == {"not-declared"}


def test_fit_rewards_a_number_in_range_and_a_shared_state_and_punishes_the_opposite():
    row = Condition(1, 10, "min")
    assert fit(row, read("late 5 minutes")) > 0 > fit(row, read("late 15 minutes"))
    assert fit(Condition(states=frozenset({"vocal"})), read("didn't show his hand")) > 0
    assert fit(Condition(states=frozenset({"shown"})), read("didn't show his hand")) < 0
    assert fit(Condition(), read("late 5 minutes")) == 0


def _rows(library, ruleset, foul):
    rows = library.rulesets[ruleset].rows(foul)
    assert len(rows) > 1, (ruleset, foul)
    return rows


def test_minutes_late_choose_the_row(library):
    assert order_rows(_rows(library, "wrc-2025", "late"), "late 15 minutes")[0].foul == "Late by more than 10 min"
    assert order_rows(_rows(library, "wrc-2025", "late"), "late 3 minutes")[0].foul == "Late by 1 to 10 min"
    assert "one to ten" in order_rows(_rows(library, "ema-rcr", "late"), "late 5 minutes")[0].foul
    assert "more than ten" in order_rows(_rows(library, "ema-rcr", "late"), "20 minutes late")[0].foul


def test_the_hand_shown_or_not_chooses_the_row(library):
    rows = _rows(library, "ema-rcr", "empty-call-win")
    assert "shown" in order_rows(rows, "called ron by mistake and showed his hand")[0].foul
    assert "concealed" in order_rows(rows, "called ron by mistake but did not show the hand")[0].foul


def test_tiles_revealed_choose_the_row(library):
    rows = _rows(library, "azrm", "revealed-tiles")
    assert order_rows(rows, "showed 3 tiles")[0].foul.endswith("3 or 4 tiles")
    assert order_rows(rows, "revealed 6 tiles")[0].foul.endswith("more than 4 tiles")


def test_without_a_condition_the_source_order_stays(library):
    rows = _rows(library, "wrc-2025", "wrong-draw")
    assert order_rows(rows, "wrong draw") == list(rows)


def test_the_condition_label_is_what_tells_the_rows_apart(library):
    late = _rows(library, "wrc-2025", "late")
    assert [condition_label(r, late) for r in late] == ["1 to 10 min", "more than 10 min"]
    calls = _rows(library, "wrc-2025", "empty-call-win")
    assert [condition_label(r, calls) for r in calls] == ["vocal only", "showing the hand"]
    revealed = _rows(library, "azrm", "revealed-tiles")
    assert condition_label(revealed[1], revealed) == "1 or 2 tiles"
    one = library.rulesets["azrm"].rows("late-reveal")
    assert condition_label(one[0], one) == ""


@pytest.mark.parametrize("query", ["遅刻 15分", "15分遅刻した", "late 15 minutes", "late by 15 min"])
def test_a_number_of_minutes_is_a_quantity_not_a_word(library, query):
    """"15" beside minutes is no hint of the "15 tiles" of a wrong tile count: lateness first,
    the tile count nowhere near."""
    refs = [h.ref for h in library.search(query, ruleset="wrc-2025")[:3]]
    assert refs[0] == "late" and "wrong-tile-count" not in refs, (query, refs)
