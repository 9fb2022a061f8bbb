"""The core of issue 43's browser and choice: every foul of every ruleset reachable through
"What happened?" (handbook.core.incidents), and the candidates a close search offers with the
question their rows give (handbook.core.search.choice)."""

from __future__ import annotations

import dataclasses

import pytest

import handbook
from handbook.core.incidents import browse, incident
from handbook.core.model import Hit
from handbook.core.search.choice import CLOSE_RATIO, NO_QUESTION, candidates, separate
from handbook.core.search.conditions import read


@pytest.fixture(scope="module")
def lib():
    return handbook.load_library()


# --------------------------------------------------------------------------- "What happened?"

@pytest.mark.parametrize("ruleset", ["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_every_foul_of_a_ruleset_is_in_one_category_with_its_ruling(lib, ruleset):
    rs = lib.rulesets[ruleset]
    listed = {}
    for cat, items in browse(lib, ruleset):
        assert items, cat.id
        for i in items:
            assert i.foul.category == cat.id
            assert i.foul.id not in listed, f"{i.foul.id} listed twice"
            listed[i.foul.id] = i
    with_rows = {r.id for r in rs.penalties}
    covered = {f.id for f in lib.fouls.values() if any(rid == ruleset for rid, _t in f.covered_by)}
    assert set(listed) == with_rows | covered
    for fid, i in listed.items():
        kind, _, ref = i.target.partition(":")
        if fid in with_rows:
            assert (i.target, i.covered) == (f"penalty:{fid}", False)
        else:  # the ruleset's own place for it, as covered_by names it
            assert i.covered and (ruleset, i.target) in lib.fouls[fid].covered_by
            assert rs.rows(ref) if kind == "penalty" else rs.has_section(ref)


def test_ema_reaches_the_fouls_its_rule_text_covers(lib):
    # EMA's table has no wrong-draw row: the picking-tiles rows answer it (covered_by)
    i = incident(lib, "ema-rcr", lib.fouls["wrong-draw"])
    assert i is not None and i.covered and i.target == "penalty:revealed-tiles"
    assert incident(lib, "ema-rcr", lib.fouls["east-discards-early"]).target == "rule:3.3"


def test_without_a_ruleset_every_foul_is_listed(lib):
    assert {i.foul.id for _c, items in browse(lib) for i in items} == set(lib.fouls)


def test_categories_in_file_order_and_an_unknown_ruleset_named(lib):
    assert [c.id for c in lib.foul_categories][:3] == ["tiles", "calls", "riichi"]
    with pytest.raises(ValueError, match="ruleset"):
        browse(lib, "wrc-2099")


def test_category_names_are_translated(lib):
    ja = lib.translations["ja"]
    assert all(c.name in ja and ja[c.name] != c.name for c in lib.foul_categories)


# --------------------------------------------------------------------------- the choice

def _hit(lib, ruleset, foul, score):
    rs = lib.rulesets[ruleset]
    row = rs.rows(foul)[0]
    return Hit("penalty", ruleset, foul, row.foul, row.penalty, score, row.index)


def test_close_rulings_are_offered_and_far_ones_not(lib):
    a, b = _hit(lib, "wrc-2025", "empty-call-group", 100.0), _hit(lib, "wrc-2025", "invalid-group", 90.0)
    c = candidates([a, b], lib)
    assert c is not None and [x.hit.ref for x in c.candidates] == ["empty-call-group", "invalid-group"]
    far = dataclasses.replace(b, score=100.0 * CLOSE_RATIO * 0.9)
    assert candidates([a, far], lib) is None


def test_closeness_is_a_ratio_independent_of_the_scores_scale(lib):
    hits = [_hit(lib, "azrm", "empty-call-group", 80.0), _hit(lib, "azrm", "invalid-group", 70.0),
            _hit(lib, "azrm", "changing-call", 30.0)]
    for scale in (1e-3, 1.0, 1e4):
        scaled = [dataclasses.replace(h, score=h.score * scale) for h in hits]
        got = candidates(scaled, lib)
        assert got is not None and [x.hit.ref for x in got.candidates] == ["empty-call-group", "invalid-group"]


def test_terms_are_never_candidates_and_three_at_most(lib):
    term = Hit("term", None, "pon", "Pon", None, 500.0)
    hits = [term] + [_hit(lib, "wrc-2025", f, 50.0) for f in
                     ("empty-call-group", "invalid-group", "changing-call", "confusing-call")]
    got = candidates(hits, lib)
    assert got is not None and len(got.candidates) == 3
    assert all(x.hit.kind != "term" for x in got.candidates)


def test_the_rows_question_vocal_only_or_shown(lib):
    # WRC 12.3.3: one foul, two rows the query does not tell apart
    q = "called ron by mistake"
    got = candidates(lib.search(q, ruleset="wrc-2025"), lib, query=q)
    assert got is not None and got.separated
    assert got.question == "Was the call vocal only, or was the hand shown?"
    assert {x.answer for x in got.candidates} == {"vocal only", "hand shown"}
    # the query that says it gets no choice between those rows
    said = "called ron by mistake but did not show the hand"
    again = candidates(lib.search(said, ruleset="wrc-2025"), lib, query=said)
    assert again is None or "hand shown" not in {x.answer for x in again.candidates}


def test_how_many_tiles_and_minutes_from_the_rows(lib):
    got = candidates(lib.search("revealed tiles", ruleset="azrm"), lib, query="revealed tiles")
    assert got is not None and got.question == "How many tiles?"
    assert [str(x.answer) for x in got.candidates] == ["1 to 2 tiles", "3 to 4 tiles", "more than 4 tiles"]
    late = candidates(lib.search("late", ruleset="ema-rcr"), lib, query="late")
    assert late is not None and late.question == "How many minutes?"


def test_no_question_where_the_rows_do_not_say(lib):
    assert separate([read("Changing a call"), read("Confusing call")]) is None
    got = candidates([_hit(lib, "azrm", "changing-call", 10.0), _hit(lib, "azrm", "confusing-call", 9.0)], lib)
    assert got is not None and got.question == NO_QUESTION and not got.separated


def test_bad_arguments_are_named(lib):
    with pytest.raises(ValueError, match="ratio"):
        candidates([], lib, ratio=0)
    with pytest.raises(ValueError, match="limit"):
        candidates([], lib, limit=1)
