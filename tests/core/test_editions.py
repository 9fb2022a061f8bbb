"""Editions on the surface: the EMA chombo and end of hanchan follow the seeds' pre-2016 text by
default (the public API behaves as before) and offer the 2016 edition a public source states
(EMA 2016: 20,000 points after uma), each labelled; every ruleset's label says its edition."""

from __future__ import annotations

import pytest

import handbook

EVEN = {"E": 30000, "S": 30000, "W": 30000, "N": 30000}


def test_the_default_is_the_sources_text():
    s = handbook.chombo("ema-rcr", "S")
    assert dict(s.payments) == {"E": 4000, "S": -8000, "W": 2000, "N": 2000} and s.points == 0
    assert handbook.final_score("ema-rcr", EVEN).edition is None


def test_ema_2016_is_a_labelled_choice():
    eds = handbook.chombo_editions("ema-rcr")
    assert list(eds) == [None, "2016"]
    assert "before 2016" in eds[None] and "2016" in eds["2016"]
    s = handbook.chombo("ema-rcr", "S", edition="2016")
    assert s.points == 20 and set(s.payments.values()) == {0}
    assert any("after uma" in n for n in s.notes)
    assert s.redeal and s.deposits_returned and not s.honba_added and not s.dealer_rotates
    r = handbook.final_score("ema-rcr", EVEN, edition="2016", penalties={"S": 20})
    assert r.edition == "2016" and "20P" in r.notes[0]
    assert [row.final for row in r.rows] == [0, -20, 0, 0]
    assert list(handbook.final_editions("ema-rcr")) == [None, "2016"]


@pytest.mark.parametrize("ruleset", ["azrm", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_no_edition_where_no_public_source_states_one(ruleset):
    assert list(handbook.chombo_editions(ruleset)) == [None]
    with pytest.raises(ValueError, match="edition"):
        handbook.chombo(ruleset, "S", edition="2016")
    with pytest.raises(ValueError, match="edition"):
        handbook.final_score(ruleset, EVEN, edition="2016")


def test_every_ruleset_label_says_its_edition(library):
    for rs in library.rulesets.values():
        assert rs.label.startswith(rs.short + " — ") and len(rs.label) > len(rs.short) + 3, rs.label
    assert library.rulesets["ema-rcr"].label == "EMA RCR — text before 2016"
