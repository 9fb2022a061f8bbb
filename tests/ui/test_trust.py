"""What a judge sees of the handbook's own words: provenance on glossary terms, conflicts and
readings on rows and sections, one outcome a line, conditions in the table list, § only before
a section number, and the Editions pages."""

from __future__ import annotations

import flet as ft
import pytest
from tests.support.uihelpers import find, texts

from handbook.ui import screens
from handbook.ui.text import outcome_lines, ref_label


def build(ctx, route):
    return screens.build_view(ctx, route)


@pytest.mark.parametrize("ref, shown", [
    ("2.4", "§2.4"), ("12.3.1 (2)", "§12.3.1 (2)"), ("Wrongly revealing tiles", "Wrongly revealing tiles"),
    ("Regular penalty 12.3.8 (2)", "Regular penalty §12.3.8 (2)"), ("12.3.6 (7), 9.2", "§12.3.6 (7), §9.2"),
    ("(Discarding a tile from the hand)", "(Discarding a tile from the hand)"), (None, ""),
])
def test_section_sign_only_before_a_number(ref, shown):
    assert ref_label(ref) == shown


def test_every_shown_ref_has_section_sign_only_before_numbers(library):
    import re
    for rs in library.rulesets.values():
        for r in rs.penalties:
            label = ref_label(r.ref)
            assert not re.search(r"§(?!\d)", label), (rs.id, r.ref, label)


def test_a_cell_with_several_outcomes_is_one_outcome_a_line():
    assert outcome_lines("1-2 tiles: Warning / 5P pp 3-6 tiles: Dead hand 7+ tiles: Chonbo 30P") == [
        "1-2 tiles: Warning / 5P pp", "3-6 tiles: Dead hand", "7+ tiles: Chonbo 30P"]
    assert outcome_lines("Warning, wait until the deal is completed ; After South has drawn: Chonbo for East") == [
        "Warning, wait until the deal is completed", "After South has drawn: Chonbo for East"]
    assert outcome_lines("Chonbo 30P") == ["Chonbo 30P"]


def test_table_list_shows_outcome_lines_conditions_and_marks(ctx):
    shown = texts(build(ctx, "/penalties/wrc-2025"))
    assert "3-6 tiles: Dead hand" in shown and "7+ tiles: Chonbo 30P" in shown
    assert "Source reference: Wrongly revealing tiles" in shown
    assert not any(t.startswith("§Wrongly") or t.startswith("§Regular") for t in shown)
    azrm = texts(build(ctx, "/penalties/azrm"))
    assert "The penalty may be increased if the wall is affected." in azrm
    assert "Determined only if the player declares Ron or Tsumo, or if the game ends in Ryuukyoku." in azrm
    assert "Handbook's reading" in azrm
    ema = texts(build(ctx, "/penalties/ema-rcr"))
    assert ema.count("Conflict in the rules") == 2
    assert not any("points is the penalty" in t or "points comes from" in t for t in ema)


def test_notes_are_in_plain_words(ctx):
    late = texts(build(ctx, "/penalties/ema-rcr/late"))
    assert "1 point for each minute late." in late


def test_conflict_on_row_page_and_section(ctx):
    row = " ".join(texts(build(ctx, "/penalties/ema-rcr/calling-with-dead-hand")))
    assert "Conflict in the rules" in row and "§3.4.6" in row and "does not choose" in row
    sec = texts(build(ctx, "/rules/ema-rcr/3.4.6"))
    assert "Conflict in the rules" in sec and "Other editions" in sec
    assert any("20,000" in t for t in sec)


def test_reading_on_azrm_sections(ctx):
    for ref in ("4.3", "7.7", "8.1"):
        shown = texts(build(ctx, f"/rules/azrm/{ref}"))
        assert "Handbook's reading" in shown, ref


def test_glossary_marks_whose_words(ctx):
    source = texts(build(ctx, "/glossary/kamicha"))
    assert "Source: AZRM Glossary" in source and "Handbook note" in source  # explanation is ours
    ours = texts(build(ctx, "/glossary/mangan"))
    assert "Handbook note" in ours and not any(t.startswith("Source:") for t in ours)


def test_editions_pages_exist_and_are_reachable(ctx, library):
    for rid, rs in library.rulesets.items():
        view = build(ctx, f"/rules/{rid}/editions")
        shown = texts(view)
        assert all(e.name in shown for e in rs.editions), rid
        ruleset_page = build(ctx, f"/rules/{rid}")
        assert [t for t in find(ruleset_page, ft.ListTile) if t.data == f"/rules/{rid}/editions"], rid
    ema = " ".join(texts(build(ctx, "/rules/ema-rcr/editions")))
    assert "EMA RCR 2016" in ema and "Public edition history" in ema and "20,000" in ema
    azrm = texts(build(ctx, "/rules/azrm/editions"))
    assert "Source: AZRM Revision History, in the source document" in azrm


def test_chombo_calculator_shows_the_edition_and_reading(ctx):
    ema = " ".join(texts(build(ctx, "/tools/chombo?ruleset=ema-rcr")))
    assert "Other editions" in ema and ema.count("20,000") == 1
    wrc = " ".join(texts(build(ctx, "/tools/chombo?ruleset=wrc-2025")))
    assert "Handbook's reading" in wrc and "20-point chombo" in wrc


def test_a_row_or_section_names_the_fouls_it_covers_for_its_table(ctx, library):
    # fouls.toml covered_by: EMA has no wrong-draw row; its picking-tiles rows and §3.4.8 say so
    wrong_draw = library.fouls["wrong-draw"]
    for route in ("/penalties/ema-rcr/revealed-tiles", "/rules/ema-rcr/3.4.8"):
        note = [t for t in texts(build(ctx, route)) if "has no row of its own" in t]
        assert note and wrong_draw.name in note[0], (route, note)
    # AZRM has its own wrong-draw rows, so its revealed-tiles row names only what AZRM lacks
    azrm = " ".join(t for t in texts(build(ctx, "/penalties/azrm/revealed-tiles")) if "has no row of its own" in t)
    assert library.fouls["destroying-wall"].name in azrm and wrong_draw.name not in azrm
    assert not [t for t in texts(build(ctx, "/penalties/azrm/wrong-draw")) if "has no row of its own" in t]
