"""Properties and hand-computed examples for the calculators: chombo, revealed tiles, strike window.

What "milder" means here (for "a penalty never gets milder as more tiles are revealed"):

* Severity is the :class:`handbook.Penalty` declaration order ("from mildest to most severe"),
  then the points (P) as a tie-break: a Dead Hand with 10P is harsher than one with 0P.
* ``redeal`` ranks with ``none``: a re-deal during the deal is a correction, not a penalty to the
  offender (AZRM §2.1 "Re-deal, no penalty"; WRC 12.3.1 (1)). It only arises with
  ``during_deal=True``, where the ruling does not depend on the tile count at all.
* ``discretion`` is not comparable with a fixed penalty — the referee may decide anything from
  nothing to a heavy point penalty — so a pair with one discretionary ruling is not ordered (a
  ruleset that leaves the count to the referee, WRC lower, gives discretion for every count).
  Only fixed-vs-fixed pairs are ordered.
* A Strike never disappears as the count grows (AZRM).

No test here depends on timing: Hypothesis's per-example deadline is switched off.
"""

from __future__ import annotations

import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handbook
from handbook import Penalty

RULESETS = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026")
ORDER = list(Penalty)
D = datetime.date
ONE = datetime.timedelta(days=1)


def severity(r: handbook.Ruling) -> tuple[int, int] | None:
    """``None`` for a discretionary ruling (not comparable), else (rank, points)."""
    if r.penalty is Penalty.DISCRETION:
        return None
    kind = Penalty.NONE if r.penalty is Penalty.REDEAL else r.penalty
    return ORDER.index(kind), r.points


rulesets = st.sampled_from(RULESETS)
seats = st.sampled_from(handbook.SEATS)
sources = st.sampled_from(handbook.SOURCES)
tiles = st.integers(min_value=1, max_value=136)


# --- chombo ----------------------------------------------------------------------------------------

def test_library_has_the_rulesets_the_properties_cover(library):
    assert set(RULESETS) <= set(library.rulesets)


@given(rulesets, seats)
@settings(deadline=None, max_examples=300)
def test_chombo_payments_always_sum_to_zero(ruleset, seat):
    s = handbook.chombo(ruleset, seat)
    assert set(s.payments) == set(handbook.SEATS)
    assert sum(s.payments.values()) == 0
    assert all(v >= 0 for k, v in s.payments.items() if k != seat)  # only the offender pays
    assert s.payments[seat] <= 0
    # what happens to the hand, the same in every ruleset the handbook carries
    assert (s.redeal, s.deposits_returned, s.honba_added, s.dealer_rotates) == (True, True, False, False)


def test_chombo_every_ruleset_and_seat_exhaustively():
    for ruleset in RULESETS:
        for seat in handbook.SEATS:
            assert sum(handbook.chombo(ruleset, seat).payments.values()) == 0


def test_ema_chombo_is_a_mangan_sized_payment():
    """EMA RCR §3.4.6: 4000 to East, 2000 to the others; East as offender pays 4000 to each."""
    s = handbook.chombo("ema-rcr", "S")
    assert dict(s.payments) == {"E": 4000, "S": -8000, "W": 2000, "N": 2000}
    assert (s.points, s.strike, s.ref) == (0, False, "3.4.6")
    e = handbook.chombo("ema-rcr", "E")
    assert dict(e.payments) == {"E": -12000, "S": 4000, "W": 4000, "N": 4000}


def test_azrm_chombo_is_30p_and_a_strike_with_the_table_score_unchanged():
    s = handbook.chombo("azrm", "W")
    assert dict(s.payments) == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert (s.points, s.strike, s.ref) == (30, True, "1.4")


def test_wrc_chombo_is_a_deduction_without_payment():
    assert handbook.chombo("wrc-2025", "N").points == 30
    assert handbook.chombo("wrc-2025-lower", "N").points == 20
    assert set(handbook.chombo("wrc-2025", "E").payments.values()) == {0}


@pytest.mark.parametrize("bad,arg", [(("nope", "E"), "ruleset"), (("azrm", "X"), "offender"),
                                     (("azrm", "e"), "offender"), ((None, "E"), "ruleset")])
def test_chombo_bad_arguments_name_the_argument(bad, arg):
    with pytest.raises(ValueError, match=rf"^{arg}: .*{bad[0 if arg == 'ruleset' else 1]!r}"):
        handbook.chombo(*bad)


# --- revealed tiles -----------------------------------------------------------------------------------

@given(rulesets, sources, tiles, tiles, st.booleans())
@settings(deadline=None, max_examples=300)
def test_revealed_tiles_never_gets_milder_as_tiles_increase(ruleset, source, a, b, during_deal):
    lo, hi = sorted((a, b))
    r1 = handbook.revealed_tiles(ruleset, lo, source=source, during_deal=during_deal)
    r2 = handbook.revealed_tiles(ruleset, hi, source=source, during_deal=during_deal)
    s1, s2 = severity(r1), severity(r2)
    if s1 is not None and s2 is not None:
        assert s2 >= s1, (ruleset, source, lo, hi, r1, r2)
    assert r2.strike >= r1.strike  # a Strike never goes away with more tiles
    if ruleset != "azrm":
        assert not r1.strike and not r2.strike


def test_revealed_tiles_monotone_exhaustively():
    """Every count 1..136 against the next, every ruleset and source (cheap: 2,720 calls)."""
    for ruleset in RULESETS:
        for source in handbook.SOURCES:
            prev = None
            for n in range(1, 137):
                cur = handbook.revealed_tiles(ruleset, n, source=source)
                if prev is not None and severity(prev) is not None and severity(cur) is not None:
                    assert severity(cur) >= severity(prev), (ruleset, source, n)
                prev = cur


@given(rulesets, sources, tiles)
@settings(deadline=None, max_examples=300)
def test_during_the_deal_does_not_depend_on_the_count(ruleset, source, n):
    r = handbook.revealed_tiles(ruleset, n, source=source, during_deal=True)
    assert r == handbook.revealed_tiles(ruleset, 1, source="hand", during_deal=True)
    assert r.points == 0 and not r.strike


@pytest.mark.parametrize("n,penalty,points,strike", [
    (1, Penalty.WARNING, 0, False), (2, Penalty.WARNING, 0, False),
    (3, Penalty.DEAD_HAND, 10, True), (4, Penalty.DEAD_HAND, 10, True),
    (5, Penalty.CHOMBO, 30, True), (136, Penalty.CHOMBO, 30, True),
])
def test_azrm_2_4_bands(n, penalty, points, strike):
    """AZRM §2.4: 1–2 tiles Warning; 3–4 Minor Chombo (Dead Hand) 10P; more than 4 Chombo 30P."""
    for source in handbook.SOURCES:
        r = handbook.revealed_tiles("azrm", n, source=source)
        assert (r.penalty, r.points, r.strike, r.ref) == (penalty, points, strike, "2.4")


def test_azrm_during_the_deal_is_a_redeal_without_penalty():
    r = handbook.revealed_tiles("azrm", 7, during_deal=True)
    assert (r.penalty, r.points, r.strike) == (Penalty.REDEAL, 0, False)


@pytest.mark.parametrize("n,penalty,points", [
    (1, Penalty.WARNING, 0), (2, Penalty.WARNING, 0), (3, Penalty.DEAD_HAND, 0),
    (6, Penalty.DEAD_HAND, 0), (7, Penalty.CHOMBO, 30), (20, Penalty.CHOMBO, 30),
])
def test_wrc_2025_bands(n, penalty, points):
    """WRC 2025 12.3.1 (4), World Championship column: 1–2 Warning, 3–6 Dead hand, 7+ Chonbo 30P."""
    r = handbook.revealed_tiles("wrc-2025", n)
    assert (r.penalty, r.points, r.strike) == (penalty, points, False)


def test_wrc_lower_leaves_it_to_the_referee():
    for n in (1, 4, 9):
        assert handbook.revealed_tiles("wrc-2025-lower", n).penalty is Penalty.DISCRETION


def test_ema_source_matters():
    """EMA RCR §3.4.7–3.4.8: own hand or wall, up to five tiles: put back; an opponent's hand or the
    dead wall: dead hand; more than five: chombo (§3.4.6)."""
    assert handbook.revealed_tiles("ema-rcr", 5, source="hand").penalty is Penalty.NONE
    assert handbook.revealed_tiles("ema-rcr", 5, source="wall").penalty is Penalty.NONE
    assert handbook.revealed_tiles("ema-rcr", 1, source="opponent_hand").penalty is Penalty.DEAD_HAND
    assert handbook.revealed_tiles("ema-rcr", 1, source="dead_wall").penalty is Penalty.DEAD_HAND
    for source in handbook.SOURCES:
        r = handbook.revealed_tiles("ema-rcr", 6, source=source)
        assert (r.penalty, r.ref) == (Penalty.CHOMBO, "3.4.6")


@pytest.mark.parametrize("args,kwargs,arg", [
    (("nope", 1), {}, "ruleset"), (("azrm", 0), {}, "tiles"), (("azrm", 137), {}, "tiles"),
    (("azrm", 2.0), {}, "tiles"), (("azrm", True), {}, "tiles"), (("azrm", "3"), {}, "tiles"),
    (("azrm", 3), {"source": "floor"}, "source"), (("azrm", 3), {"during_deal": "yes"}, "during_deal"),
])
def test_revealed_tiles_bad_arguments_name_the_argument(args, kwargs, arg):
    with pytest.raises(ValueError, match=rf"^{arg}: "):
        handbook.revealed_tiles(*args, **kwargs)


# --- strike window ------------------------------------------------------------------------------------

BASE = D(2026, 1, 1)
strike_days = st.lists(st.integers(min_value=0, max_value=120), max_size=25).map(
    lambda xs: [BASE + datetime.timedelta(days=x) for x in xs])
on_days = st.integers(min_value=0, max_value=150).map(lambda x: BASE + datetime.timedelta(days=x))


@given(strike_days, on_days)
@settings(deadline=None, max_examples=300)
def test_strike_status_invariants(strikes, on):
    s = handbook.strike_status(strikes, on)
    counted = [d for d in strikes if d <= on]
    assert s.strikes_in_window <= len(counted) <= len(strikes)
    assert s.strikes_today <= s.strikes_in_window
    assert s.strikes_today == strikes.count(on)
    assert s.window_start == on - 29 * ONE
    assert s.strikes_in_window == sum(1 for d in strikes if s.window_start <= d <= on)
    assert (s.strikes_until_suspension == 0) == (s.suspended or s.banned)
    assert s.strikes_until_suspension >= 0
    assert s.banned == (s.suspensions > 2)
    assert s.suspended == (s.suspension_start is not None) == (s.suspension_end is not None)
    if s.suspended:
        assert s.suspension_start <= on <= s.suspension_end
        assert s.suspension_end - s.suspension_start == 13 * ONE
    # a suspension needs a crossing: at most one per Strike, and none without 3 Strikes
    assert s.suspensions <= max(0, len(counted) - 2)
    if s.strikes_in_window:
        oldest = min(d for d in strikes if s.window_start <= d <= on)
        assert s.next_drop_out == oldest + 30 * ONE
        assert s.next_drop_out > on
    else:
        assert s.next_drop_out is None
    # Strikes after `on` change nothing
    assert handbook.strike_status(counted, on) == s


@given(strike_days, on_days)
@settings(deadline=None, max_examples=300)
def test_strikes_until_suspension_is_exact(strikes, on):
    """Recording that many more Strikes on `on` issues a new Suspension; one fewer does not."""
    s = handbook.strike_status(strikes, on)
    if s.strikes_until_suspension == 0:
        return
    n = s.strikes_until_suspension
    assert handbook.strike_status(strikes + [on] * n, on).suspensions == s.suspensions + 1
    assert handbook.strike_status(strikes + [on] * (n - 1), on).suspensions == s.suspensions


@given(strike_days, on_days)
@settings(deadline=None, max_examples=300)
def test_order_of_strikes_does_not_matter(strikes, on):
    assert handbook.strike_status(strikes, on) == handbook.strike_status(sorted(strikes, reverse=True), on)


@given(strike_days, on_days)
@settings(deadline=None, max_examples=300)
def test_counts_only_grow_with_more_strikes(strikes, on):
    """Adding a Strike never lowers the window count or the number of Suspensions issued."""
    s = handbook.strike_status(strikes, on)
    t = handbook.strike_status(strikes + [on], on)
    assert t.strikes_in_window == s.strikes_in_window + 1
    assert t.suspensions >= s.suspensions


# hand-computed examples (AZRM §1.4) ---------------------------------------------------------------

def test_three_strikes_in_one_day_suspend_that_day_for_two_weeks():
    day = D(2026, 4, 10)
    s = handbook.strike_status([day, day, day], day)
    assert (s.strikes_today, s.suspended, s.suspensions) == (3, True, 1)
    assert (s.suspension_start, s.suspension_end) == (day, D(2026, 4, 23))  # +13: 14 days inclusive
    assert handbook.strike_status([day] * 3, D(2026, 4, 23)).suspended
    assert not handbook.strike_status([day] * 3, D(2026, 4, 24)).suspended
    two = handbook.strike_status([day, day], day)
    assert (two.suspended, two.strikes_until_suspension) == (False, 1)


def test_the_30_day_window_includes_both_end_days():
    day0 = D(2026, 3, 1)
    day29 = day0 + 29 * ONE
    # five strikes on day 0 (over several days would do too: one per day keeps the day limit out)
    strikes = [day0, day0 + ONE, day0 + 2 * ONE, day0 + 3 * ONE, day0 + 4 * ONE]
    s = handbook.strike_status(strikes, day29)
    assert s.window_start == day0 and s.strikes_in_window == 5
    assert s.strikes_until_suspension == 1
    assert s.next_drop_out == day0 + 30 * ONE  # day 30: the day-0 Strike no longer counts
    # the sixth on day 29: day 0 and day 29 are both in the window -> Suspension
    six = handbook.strike_status(strikes + [day29], day29)
    assert (six.strikes_in_window, six.suspended, six.suspension_start) == (6, True, day29)
    # the sixth on day 30 instead: day 0 has dropped out, 5 in the window, no Suspension
    day30 = day0 + 30 * ONE
    late = handbook.strike_status(strikes + [day30], day30)
    assert (late.strikes_in_window, late.suspended, late.suspensions) == (5, False, 0)
    assert late.window_start == day0 + ONE


def test_three_suspensions_ban():
    d1, d2, d3 = D(2026, 1, 5), D(2026, 3, 5), D(2026, 5, 5)
    s = handbook.strike_status([d1] * 3 + [d2] * 3, d2)
    assert (s.suspensions, s.banned) == (2, False)
    s = handbook.strike_status([d1] * 3 + [d2] * 3 + [d3] * 3, d3)
    assert (s.suspensions, s.banned, s.strikes_until_suspension) == (3, True, 0)
    assert handbook.strike_status([d1] * 3 + [d2] * 3 + [d3] * 3, d3 + 365 * ONE).banned


def test_strikes_that_caused_a_suspension_count_toward_the_next():
    """The literal reading: day limit crossed on day 0 (3 Strikes), then 3 more single Strikes in
    the window make 6 in 30 days -> a second Suspension."""
    d = D(2026, 6, 1)
    strikes = [d] * 3 + [d + 15 * ONE, d + 16 * ONE, d + 17 * ONE]
    s = handbook.strike_status(strikes, d + 17 * ONE)
    assert s.suspensions == 2
    assert s.suspension_days == ((d, d + 13 * ONE), (d + 17 * ONE, d + 30 * ONE))


@pytest.mark.parametrize("strikes,on,arg", [
    (["2026-01-01"], D(2026, 1, 1), "strikes"),
    ([D(2026, 1, 1)], "2026-01-01", "on"),
    ("2026-01-01", D(2026, 1, 1), "strikes"),
    ([D(2026, 1, 1)], datetime.datetime(2026, 1, 1, 12), "on"),
])
def test_strike_status_bad_arguments_name_the_argument(strikes, on, arg):
    with pytest.raises(ValueError, match=rf"^{arg}: "):
        handbook.strike_status(strikes, on)

