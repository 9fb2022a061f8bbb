"""The end of the hanchan: properties (Hypothesis) and worked cases from the sources.

Sources: EMA RCR §3.6 (sticks left to the winner, ties may occur) and §3.6.1 (uma +30/+10/−10/−30,
tied places split; its example of two tied first "each gets 15,000" disagrees with that rule);
Rakkii Nomi 2026 §2.2 (sticks left to first place); WRC 2025 (uma +15/+5/−5/−15, sticks left lost);
AZRM §1.3 (the WRC procedure). No test depends on timing: Hypothesis deadlines are off.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import handbook

RULESETS = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026")
UMA = {"ema-rcr": (30, 10, -10, -30), "wrc-2025": (15, 5, -5, -15), "wrc-2025-lower": (15, 5, -5, -15),
       "rakkii-nomi-2026": (15, 5, -5, -15), "azrm": (15, 5, -5, -15)}
TO_FIRST = {"ema-rcr", "rakkii-nomi-2026"}  # where the sticks left go to first place
SEATS = handbook.SEATS


@st.composite
def hanchan(draw):
    """A ruleset and a valid end of hanchan: four scores (in 100s, ties likely) plus sticks that add
    up to 120,000, and penalties."""
    ruleset = draw(st.sampled_from(RULESETS))
    sticks = draw(st.integers(0, 6))
    pool = st.sampled_from([-5000, 0, 12300, 25000, 30000, 30000, 41000]) | st.integers(-300, 900).map(lambda x: x * 100)
    first3 = [draw(pool) for _ in range(3)]
    last = 120000 - 1000 * sticks - sum(first3)
    scores = dict(zip(SEATS, first3 + [last], strict=True))
    penalties = {s: draw(st.integers(0, 40)) for s in draw(st.sets(st.sampled_from(SEATS)))}
    return ruleset, scores, sticks, penalties


@given(hanchan())
@settings(deadline=None, max_examples=400)
def test_finals_sum_to_minus_deposits_lost_and_penalties(case):
    ruleset, scores, sticks, penalties = case
    f = handbook.final_score(ruleset, scores, deposits=sticks, penalties=penalties)
    lost = 0 if ruleset in TO_FIRST else sticks
    assert f.deposits_lost == lost
    assert sum(r.final for r in f.rows) == pytest.approx(-lost - sum(penalties.values()), abs=1e-9)
    assert sum(r.uma for r in f.rows) == pytest.approx(0, abs=1e-9)
    assert sum(r.deposits for r in f.rows) == pytest.approx(sticks - lost, abs=1e-9)


@given(hanchan())
@settings(deadline=None, max_examples=400)
def test_ranks_come_from_table_points_and_ties_share(case):
    ruleset, scores, sticks, penalties = case
    f = handbook.final_score(ruleset, scores, deposits=sticks, penalties=penalties)
    assert [r.seat for r in f.rows] == list(SEATS)
    for r in f.rows:
        assert r.table == scores[r.seat]
        assert r.rank == 1 + sum(1 for o in SEATS if scores[o] > scores[r.seat])
        assert r.penalty == penalties.get(r.seat, 0)
        assert r.final == pytest.approx((r.table - f.start) / 1000 + r.deposits + r.uma - r.penalty, abs=0.05)
    for a in f.rows:
        for b in f.rows:
            if a.table == b.table:
                assert (a.rank, a.uma, a.deposits) == (b.rank, b.uma, b.deposits)
            elif a.table > b.table:
                assert a.rank < b.rank and a.uma > b.uma  # uma strictly falls with place (no ties)
    # a tie group's uma is the mean of the places it holds
    uma = UMA[ruleset]
    for r in f.rows:
        n = sum(1 for o in f.rows if o.table == r.table)
        assert r.uma == pytest.approx(sum(uma[r.rank - 1:r.rank - 1 + n]) / n)


@given(hanchan())
@settings(deadline=None, max_examples=200)
def test_penalties_only_move_the_penalised_seat(case):
    ruleset, scores, sticks, _ = case
    base = handbook.final_score(ruleset, scores, deposits=sticks)
    hit = handbook.final_score(ruleset, scores, deposits=sticks, penalties={"W": 7})
    for a, b in zip(base.rows, hit.rows, strict=True):
        assert b.final == pytest.approx(a.final - (7 if a.seat == "W" else 0))
        assert (a.rank, a.uma) == (b.rank, b.uma)  # ranks come from table points only


@given(st.sampled_from(RULESETS), st.lists(st.integers(-400, 900), min_size=4, max_size=4),
       st.integers(0, 5))
@settings(deadline=None, max_examples=300)
def test_scores_that_do_not_add_up_say_by_how_much(ruleset, hundreds, sticks):
    scores = dict(zip(SEATS, [h * 100 for h in hundreds], strict=True))
    off = sum(scores.values()) + 1000 * sticks - 120000
    assume(off != 0)
    with pytest.raises(handbook.ScoreSumError) as info:
        handbook.final_score(ruleset, scores, deposits=sticks)
    assert isinstance(info.value, ValueError)
    assert info.value.off == off
    msg = str(info.value)
    assert msg.startswith("scores: ")
    assert f"{abs(off):,} {'short' if off < 0 else 'over'}" in msg


# --- worked cases from the sources ----------------------------------------------------------------

def rows(f):
    return {r.seat: (r.rank, r.uma, r.deposits, r.final) for r in f.rows}


def test_ema_winner_takes_the_sticks_and_uma_30_10():
    """EMA RCR §3.6, §3.6.1: 45,000 / 35,000 / 22,000 / 16,000 with 2 sticks left."""
    f = handbook.final_score("ema-rcr", {"E": 22000, "S": 45000, "W": 16000, "N": 35000}, deposits=2)
    assert rows(f) == {"S": (1, 30, 2, 47), "N": (2, 10, 0, 15), "E": (3, -10, 0, -18), "W": (4, -30, 0, -44)}
    assert (f.start, f.ref, f.deposits_lost) == (30000, "3.6", 0)
    assert f.sources["uma"] == ("ema-rcr", "3.6.1") and f.sources["deposits"] == ("ema-rcr", "3.6")


def test_ema_two_tied_first_follow_the_rule_not_the_example():
    """§3.6.1 rule: the points of the places held are split (30 + 10) / 2 = 20 each; its example says
    15,000 each. The rule is followed and the example named in the notes."""
    f = handbook.final_score("ema-rcr", {"E": 40000, "S": 40000, "W": 25000, "N": 14000}, deposits=1)
    assert rows(f) == {"E": (1, 20, 0.5, 30.5), "S": (1, 20, 0.5, 30.5), "W": (3, -10, 0, -15),
                       "N": (4, -30, 0, -46)}
    assert any("15,000" in n and "§3.6.1" in n for n in f.notes)
    # no tie at first: the example is not mentioned
    g = handbook.final_score("ema-rcr", {"E": 40000, "S": 30000, "W": 30000, "N": 20000})
    assert not any("15,000" in n for n in g.notes)
    assert rows(g)["S"] == rows(g)["W"] == (2, 0, 0, 0)


def test_wrc_sticks_left_are_lost():
    f = handbook.final_score("wrc-2025", {"E": 38000, "S": 30000, "W": 27000, "N": 22000}, deposits=3)
    assert rows(f) == {"E": (1, 15, 0, 23), "S": (2, 5, 0, 5), "W": (3, -5, 0, -8), "N": (4, -15, 0, -23)}
    assert f.deposits_lost == 3 and sum(r.final for r in f.rows) == -3
    assert any("lost" in n for n in f.notes)


def test_rakkii_nomi_sticks_to_first_place():
    """Rakkii Nomi 2026 §2.2: the player with the most points takes the sticks left; WRC uma."""
    f = handbook.final_score("rakkii-nomi-2026", {"E": 38000, "S": 30000, "W": 27000, "N": 22000}, deposits=3)
    assert rows(f)["E"] == (1, 15, 3, 26)
    assert f.deposits_lost == 0 and f.ref == "2.2" and f.sources["deposits"] == ("rakkii-nomi-2026", "2.2")


def test_three_tied_first_share_uma_and_sticks():
    f = handbook.final_score("rakkii-nomi-2026", {"E": 33000, "S": 33000, "W": 33000, "N": 20000}, deposits=1)
    for seat in "ESW":
        rank, uma, dep, final = rows(f)[seat]
        assert (rank, uma) == (1, 5) and dep == pytest.approx(1 / 3)
        assert final == pytest.approx(3 + 5 + 1 / 3)
    assert rows(f)["N"] == (4, -15, 0, -25)


def test_azrm_follows_wrc_and_takes_penalties_from_season_points():
    """AZRM §1.3 (WRC procedure), §1.4 (points off the Season Points, table score unchanged)."""
    f = handbook.final_score("azrm", {"E": 40000, "S": 30000, "W": 20000, "N": 29000}, deposits=1,
                             penalties={"S": 30})
    assert rows(f) == {"E": (1, 15, 0, 25), "S": (2, 5, 0, -25), "N": (3, -5, 0, -6), "W": (4, -15, 0, -25)}
    assert f.ref == "1.3" and f.sources["uma"][0] == "wrc-2025" and f.sources["penalties"] == ("azrm", "1.4")
    assert f.deposits_lost == 1


def test_negative_scores_and_a_four_way_tie():
    f = handbook.final_score("wrc-2025", {"E": 30000, "S": 30000, "W": 30000, "N": 30000})
    assert {r.rank for r in f.rows} == {1} and {r.uma for r in f.rows} == {0}
    g = handbook.final_score("ema-rcr", {"E": 75000, "S": 30000, "W": 23000, "N": -8000})
    assert rows(g)["N"] == (4, -30, 0, -68)


def test_one_stick_short_is_named():
    with pytest.raises(ValueError, match="1,000 short — one riichi stick not counted\\?") as info:
        handbook.final_score("wrc-2025", {"E": 40000, "S": 30000, "W": 20000, "N": 29000})
    assert info.value.sticks == 1
    with pytest.raises(ValueError, match="2,000 short — 2 riichi sticks not counted"):
        handbook.final_score("wrc-2025", {"E": 40000, "S": 30000, "W": 20000, "N": 28000})
    with pytest.raises(ValueError, match="300 over$"):
        handbook.final_score("wrc-2025", {"E": 40300, "S": 30000, "W": 20000, "N": 30000})


@pytest.mark.parametrize("args,kwargs,arg", [
    (("nope", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {}, "ruleset"),
    ((None, {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {}, "ruleset"),
    (("azrm", None), {}, "scores"),
    (("azrm", [30000] * 4), {}, "scores"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000}), {}, "scores"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "X": 30000}), {}, "scores"),
    (("azrm", {"E": 30000.0, "S": 30000, "W": 30000, "N": 30000}), {}, "scores"),
    (("azrm", {"E": "30000", "S": 30000, "W": 30000, "N": 30000}), {}, "scores"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"deposits": -1}, "deposits"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"deposits": 1.5}, "deposits"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"deposits": True}, "deposits"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"penalties": {"E": -5}}, "penalties"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"penalties": {"Q": 5}}, "penalties"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"penalties": {"E": "5"}}, "penalties"),
    (("azrm", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}), {"penalties": 5}, "penalties"),
])
def test_bad_arguments_name_the_argument(args, kwargs, arg):
    with pytest.raises(ValueError, match=rf"^{arg}: "):
        handbook.final_score(*args, **kwargs)


# --- the data: rulings.toml [[final_score]] is checked by the loader -------------------------------

def _mutate(content_copy: Path, old: str, new: str) -> None:
    path = content_copy / "rulings.toml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.mark.parametrize("old,new,code,needle", [
    ("uma = [30, 10, -10, -30]", "uma = [30, 10, -10, -20]", "HB050", "add up to 0"),
    ('ruleset = "rakkii-nomi-2026"\nfollows = "wrc-2025"', 'ruleset = "rakkii-nomi-2026"\nfollows = "wrc-2099"',
     "HB050", "no final_score entry"),
    ('deposits = "winner"', 'deposits = "east"', "HB005", "east"),
    ("example = [{ tied = [1, 2]", "example = [{ tied = [1, 3]", "HB050", "not consecutive"),
    ('ruleset = "ema-rcr"\nref = "3.6"\nstart = 30000', 'ruleset = "ema-rcr"\nref = "3.6"\nstart = 30000\noka = 20',
     "HB002", "oka"),
])
def test_bad_final_score_data_is_a_coded_content_error(content_copy, old, new, code, needle):
    _mutate(content_copy, old, new)
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy, index=False)
    problems = [p for p in info.value.problems if p.code == code]
    assert problems and problems[0].file.endswith("rulings.toml")
    assert "final_score" in problems[0].entry and needle in str(info.value)
