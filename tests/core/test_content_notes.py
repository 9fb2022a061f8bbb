"""The handbook's own notes on the model: conflicts inside one ruleset (flagged on both sides),
interpretations, edition notes and the editions of each ruleset."""

from __future__ import annotations

import pytest

from handbook.core.model import Penalty


def _row(library, ruleset, foul):
    return next(r for r in library.rulesets[ruleset].penalties if r.foul == foul)


def test_ema_conflicts_are_flagged_on_both_rows_and_the_section(library):
    ema = library.rulesets["ema-rcr"]
    declared = _row(library, "ema-rcr", "If the hand was formally declared to be dead")
    concealed = _row(library, "ema-rcr", "Empty call for a win, if the hand is still concealed")
    for row in (declared, concealed):
        assert row.conflict and row.conflict_with == "3.4.6" and row.flagged
        assert "§3.4.6" in row.conflict
    sec = ema.section("3.4.6")
    assert sec.conflict and set(sec.conflict_with) == {"calling-with-dead-hand", "empty-call-win"}
    # rows without a conflict are not flagged
    assert _row(library, "ema-rcr", "Empty call for a win, if the hand has been shown").conflict is None


@pytest.mark.parametrize("ruleset,foul,ref", [
    ("azrm", "Calling with a Dead Hand", "4.3"),
    ("azrm", "Changing a tenpai/noten declaration", "7.7"),
    ("azrm", "Incorrect score report, actual scores cannot be recovered", "8.1"),
])
def test_azrm_readings_are_disclosed_on_row_and_section(library, ruleset, foul, ref):
    row = _row(library, ruleset, foul)
    assert row.interpretations and row.flagged
    assert library.rulesets[ruleset].section(ref).interpretations == (row.interpretations[0],)


def test_azrm_ban_is_a_ban_and_ema_disqualification_stays(library):
    azrm = [r for r in library.rulesets["azrm"].penalties if r.penalty == "Ban"]
    assert azrm and all(r.kind is Penalty.BAN for r in azrm)
    assert _row(library, "ema-rcr", "Cheating").kind is Penalty.DISQUALIFICATION
    assert Penalty("disqualification") is Penalty.DISQUALIFICATION  # the API's values stay


def test_wrc_chombo_handling_is_disclosed_on_rows_and_the_calculator(library):
    for rid in ("wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"):
        rs = library.rulesets[rid]
        interps, editions = rs.notes_for_tool("chombo")
        assert any("re-deal" in i and "honba" in i for i in interps), rid
        assert any("20-point" in e for e in editions), rid
        for r in rs.penalties:
            if "chonbo" in r.penalty.lower():
                assert any("re-deal" in i for i in r.interpretations), (rid, r.foul)


def test_passing_information_does_not_differ_between_wrc_columns(library):
    row = _row(library, "wrc-2025", "Passing information")
    assert row.differs is False and row.interpretations
    # a real difference is still marked
    assert _row(library, "wrc-2025", "Too many or too few tiles").differs is True


def test_every_ruleset_has_editions_and_one_is_this(library):
    for rid, rs in library.rulesets.items():
        assert rs.editions, rid
        assert [e.status for e in rs.editions].count("this") >= 1, rid
        for e in rs.editions:
            assert e.cite and e.changes, (rid, e.name)


def test_azrm_editions_are_the_source_revision_history(library):
    eds = library.rulesets["azrm"].editions
    assert [e.name for e in eds] == ["AZRM revision 0.4", "AZRM revision 0.3", "AZRM revision 0.2",
                                     "AZRM revision 0.1"]
    assert all(e.from_source for e in eds) and eds[0].status == "this"


def test_public_editions_cite_a_public_source_and_are_not_the_source(library):
    names = {e.name: e for rs in library.rulesets.values() for e in rs.editions}
    for name in ("EMA RCR 2016", "WRC 2022", "WRC 2014 and 2015", "WRC 2025"):
        assert not names[name].from_source and names[name].cite
    assert "2016" in names["EMA RCR 2016"].text and "20,000" in names["EMA RCR 2016"].text


def test_edition_notes_reach_the_affected_rows_section_and_tool(library):
    ema = library.rulesets["ema-rcr"]
    assert any("20,000" in n for n in ema.section("3.4.6").edition_notes)
    assert any("20,000" in n for n in _row(library, "ema-rcr", "Declaring riichi on a noten hand (noten riichi)").edition_notes)
    assert any("20,000" in n for n in ema.notes_for_tool("chombo")[1])
    assert not _row(library, "ema-rcr", "Cheating").edition_notes
    # a foul split by circumstance: only its chombo row is changed by the 2016 edition
    assert not _row(library, "ema-rcr", "Empty call for a win, if the hand is still concealed").edition_notes
    assert _row(library, "ema-rcr", "Empty call for a win, if the hand has been shown").edition_notes
    assert any("2022" in n for n in _row(library, "wrc-2025", "Too many or too few tiles").edition_notes)
