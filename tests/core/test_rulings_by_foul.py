"""Chombo by foul, WRC revealed tiles as the referee's call, and the §1.4 reading of Strikes after a
Suspension (with dates at the ends of the calendar)."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handbook
from handbook import Penalty

D = datetime.date
ONE = datetime.timedelta(days=1)
RULESETS = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026")


# --- chombo by foul ----------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["wrc-2025-lower", "rakkii-nomi-2026"])
def test_lower_column_tenpai_shown_early_is_chonbo_30p(ruleset, library):
    """The lower column's usual chombo is 20P, but "Declaring tenpai before the end (showing the
    hand)" says "Chonbo 30P" (12.3.6 (4))."""
    assert handbook.chombo(ruleset, "S").points == 20
    s = handbook.chombo(ruleset, "S", foul="premature-tenpai-declaration")
    row = next(r for r in library.rulesets[ruleset].rows("premature-tenpai-declaration")
               if r.kind is Penalty.CHOMBO)
    assert row.penalty == "Chonbo 30P"
    assert (s.points, s.ref, s.foul) == (30, "12.3.6 (4)", row.foul)
    assert (s.redeal, s.deposits_returned, s.honba_added, s.dealer_rotates) == (True, True, False, False)


def test_every_chombo_foul_gives_its_row_points(library):
    """For every ruleset and every foul with a chombo row: the first such row's points (or the usual
    chombo's where the row names none), its Strike, and payments that still sum to 0."""
    for rid in RULESETS:
        usual = handbook.chombo(rid, "N")
        fouls = handbook.chombo_fouls(rid)
        assert fouls, rid
        for row in fouls:
            first = next(r for r in library.rulesets[rid].rows(row.id) if r.kind is Penalty.CHOMBO)
            assert first == row
            for seat in handbook.SEATS:
                s = handbook.chombo(rid, seat, foul=row.id)
                assert s.points == (row.points if row.points is not None else usual.points), (rid, row.id)
                assert s.strike == (row.strike if row.strike is not None else usual.strike)
                assert sum(s.payments.values()) == 0
                assert dict(s.payments) == dict(handbook.chombo(rid, seat).payments)


def test_wrc_world_column_keeps_30p_and_ema_keeps_the_payment():
    assert handbook.chombo("wrc-2025", "W", foul="noten-riichi").points == 30
    assert handbook.chombo("wrc-2025-lower", "W", foul="noten-riichi").points == 20
    s = handbook.chombo("ema-rcr", "S", foul=handbook.chombo_fouls("ema-rcr")[0].id)
    assert dict(s.payments) == {"E": 4000, "S": -8000, "W": 2000, "N": 2000}


@pytest.mark.parametrize("ruleset,foul,needle", [
    ("wrc-2025-lower", "swap-calling", "has no chombo row"),   # rows: not penalized / dead hand
    ("wrc-2025-lower", "no-such-foul", "is not a foul"),
    ("azrm", "", "is not a foul"),
    ("azrm", 3, "is not a foul"),
])
def test_bad_foul_names_the_argument_value_and_allowed(ruleset, foul, needle):
    with pytest.raises(ValueError) as info:
        handbook.chombo(ruleset, "S", foul=foul)
    msg = str(info.value)
    assert msg.startswith("foul: ") and repr(foul) in msg and needle in msg
    assert "allowed" in msg and handbook.chombo_fouls(ruleset)[0].id in msg


# --- revealed tiles under WRC ----------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_wrc_during_the_deal_is_the_referees_call(ruleset):
    """12.3.1 (1): a minor error during the deal is not penalized; one too important to overlook is
    re-dealt. Both are offered; neither is chosen for the referee."""
    r = handbook.revealed_tiles(ruleset, 4, during_deal=True)
    assert r.penalty is Penalty.DISCRETION and r.points == 0 and not r.strike
    assert [(c.penalty, c.wording) for c in r.choices] == [(Penalty.NONE, "Not penalized"),
                                                            (Penalty.REDEAL, "Re-deal")]
    assert "minor" in r.choices[0].when and "too important" in r.choices[1].when


def test_wrc_one_or_two_tiles_is_a_warning_and_5p_only_if_repeated():
    # the cell "Warning / 5P pp" is not the referee's choice: the WRC Penalties 2025 document (and
    # the handbook's own edition history) reads it as a warning, 5P if repeated
    hist = " ".join(c for e in handbook.load_library().rulesets["wrc-2025"].editions for c in e.changes)
    assert "1–2 a warning (5P if repeated)" in hist
    for n in (1, 2):
        r = handbook.revealed_tiles("wrc-2025", n)
        assert (r.penalty, r.points) == (Penalty.WARNING, 0)
        assert r.choices == ()
        assert any("5P" in note and "repeated" in note for note in r.notes)
    assert handbook.revealed_tiles("wrc-2025", 3).choices == ()


def test_azrm_and_ema_during_the_deal_stay_as_their_text_says():
    """AZRM §2.4: re-dealt without penalty; EMA: "re-deal, no penalty"."""
    for rid in ("azrm", "ema-rcr"):
        r = handbook.revealed_tiles(rid, 2, during_deal=True)
        assert r.penalty is Penalty.REDEAL and r.choices == ()


# --- Strikes after a Suspension --------------------------------------------------------------------

def test_back_from_a_suspension_with_six_in_the_window_the_next_strike_suspends():
    d = D(2026, 3, 1)
    six = [d + i * ONE for i in range(6)]               # 6th Strike on day 5: Suspension days 5–18
    s = handbook.strike_status(six, d + 18 * ONE)
    assert (s.suspensions, s.suspended, s.strikes_until_suspension) == (1, True, 0)
    back = handbook.strike_status(six, d + 19 * ONE)    # back, 6 Strikes still in the window
    assert (back.suspended, back.strikes_in_window, back.strikes_until_suspension) == (False, 6, 1)
    again = handbook.strike_status(six + [d + 19 * ONE], d + 19 * ONE)
    assert (again.suspensions, again.suspended, again.suspension_start) == (2, True, d + 19 * ONE)
    assert again.suspension_end == d + 32 * ONE


def test_strikes_during_a_suspension_issue_no_second_one():
    d = D(2026, 5, 1)
    s = handbook.strike_status([d] * 5, d)
    assert (s.suspensions, s.suspension_days) == (1, ((d, d + 13 * ONE),))
    t = handbook.strike_status([d] * 3 + [d + 5 * ONE] * 3, d + 5 * ONE)
    assert t.suspensions == 1


def test_after_a_suspension_ends_only_a_strike_that_meets_the_condition_suspends():
    """3 on day 0 (Suspension days 0–13); on day 14 one Strike makes 4 in the window: nothing; the
    third that day meets the day limit: a second Suspension."""
    d = D(2026, 7, 1)
    one = handbook.strike_status([d] * 3 + [d + 14 * ONE], d + 14 * ONE)
    assert (one.suspensions, one.suspended, one.strikes_until_suspension) == (1, False, 2)
    three = handbook.strike_status([d] * 3 + [d + 14 * ONE] * 3, d + 14 * ONE)
    assert (three.suspensions, three.suspension_start) == (2, d + 14 * ONE)


@given(st.lists(st.integers(0, 90), max_size=30), st.integers(0, 120))
@settings(deadline=None, max_examples=300)
def test_a_suspension_is_issued_exactly_when_the_reading_says(offsets, on_offset):
    """Replays the reading Strike by Strike: a new Suspension for each Strike with more than 2 on its
    day or more than 5 in its window, unless one is in force on its day."""
    base = D(2026, 1, 1)
    days = sorted(base + x * ONE for x in offsets)
    on = base + on_offset * ONE
    issued: list[datetime.date] = []
    for i, day in enumerate(days):
        if day > on:
            break
        counted = days[:i + 1]
        meets = counted.count(day) > 2 or sum(1 for x in counted if day - 29 * ONE <= x) > 5
        in_force = bool(issued) and issued[-1] <= day <= issued[-1] + 13 * ONE
        if meets and not in_force:
            issued.append(day)
    s = handbook.strike_status(days, on)
    assert [a for a, _ in s.suspension_days] == issued
    assert s.suspensions == len(issued) and s.banned == (len(issued) > 2)


@pytest.mark.parametrize("strikes,on,arg", [
    (None, D(2026, 1, 1), "strikes"),
    (5, D(2026, 1, 1), "strikes"),
    ([D(2026, 1, 1), None], D(2026, 1, 1), "strikes"),
    ([D(2026, 1, 1)], None, "on"),
    ([D(2026, 1, 1)], 20260101, "on"),
    ([], datetime.date.min, "on"),
    ([], D(1, 1, 29), "on"),
    ([], datetime.date.max, "on"),
    ([D(1, 1, 3)], D(1, 3, 1), "strikes"),
])
def test_bad_or_out_of_calendar_dates_raise_value_error_naming_the_argument(strikes, on, arg):
    with pytest.raises(ValueError, match=rf"^{arg}: "):
        handbook.strike_status(strikes, on)


def test_the_ends_of_the_calendar_that_still_fit():
    first = D(1, 1, 30)
    s = handbook.strike_status([first] * 3, first)
    assert s.window_start == datetime.date.min and s.suspended
    last = D(9999, 12, 1)
    t = handbook.strike_status([last] * 3 + [datetime.date.max], last)  # after `on`: not counted
    assert t.suspension_end == last + 13 * ONE and t.next_drop_out == datetime.date.max
