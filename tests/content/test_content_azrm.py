"""AZRM (000_…txt): 45 sections in order with their titles, Japanese subtitles and full text, and the
penalty table derived from the text with the penalty names of §1.4."""

from __future__ import annotations

import re

import pytest

from handbook import Penalty

from tests.support.seedparse import norm_text  # tests/content/seedparse.py

AZRM_REFS = (
    [f"1.{i}" for i in range(1, 5)] + [f"2.{i}" for i in range(1, 6)] + [f"3.{i}" for i in range(1, 4)]
    + [f"4.{i}" for i in range(1, 4)] + [f"5.{i}" for i in range(1, 5)] + [f"6.{i}" for i in range(1, 7)]
    + [f"7.{i}" for i in range(1, 8)] + ["8.1"] + [f"9.{i}" for i in range(1, 5)] + ["10.1", "10.2"]
    + [f"11.{i}" for i in range(1, 7)]
)


@pytest.fixture(scope="module")
def azrm(library):
    return library.rulesets["azrm"]


def test_45_sections_1_1_to_11_6_in_order(azrm):
    assert len(AZRM_REFS) == 45
    assert [s.ref for s in azrm.sections] == AZRM_REFS


def test_sections_are_those_of_the_source(azrm, azrm_source_sections):
    assert [s.ref for s in azrm_source_sections] == AZRM_REFS
    assert [s.title for s in azrm.sections] == [s.title for s in azrm_source_sections]


def test_34_japanese_subtitles(azrm, azrm_source_sections):
    with_ja = [s.ref for s in azrm.sections if s.title_ja]
    assert len(with_ja) == 34
    # the sections without a subtitle in the source: 1.1–1.4, 7.5 and 11.1–11.6
    assert [s.ref for s in azrm.sections if s.title_ja is None] == [
        "1.1", "1.2", "1.3", "1.4", "7.5", "11.1", "11.2", "11.3", "11.4", "11.5", "11.6"]
    assert [s.title_ja for s in azrm.sections] == [s.subtitle for s in azrm_source_sections]


def test_every_heading_line_is_followed_by_its_subtitle_line(azrm, azrm_source):
    """Each section appears in the source as the line "<ref> <title>", then (after a blank line)
    the Japanese subtitle line."""
    lines = azrm_source.split("\n")
    body_start = lines.index("Chapter 1 Basics", lines.index("Preface", lines.index("Glossary\t23")))
    for s in azrm.sections:
        i = lines.index(f"{s.ref} {s.title}", body_start)
        nxt = next(line for line in lines[i + 1:] if line.strip())
        if s.title_ja:
            assert nxt == s.title_ja, s.ref
        else:
            assert not re.search(r"[\u3040-\u30ff\u3400-\u9fff]", nxt), s.ref


def test_table_of_contents_lists_the_same_titles(azrm, azrm_source):
    toc = azrm_source[azrm_source.index("Table of Contents"):azrm_source.index("\nPreface\n\nThis document")]
    for s in azrm.sections:
        m = re.search(rf"^{re.escape(s.ref)} (.+?)(?:\.{{2,}})?\t\d+$", toc, flags=re.M)
        assert m, s.ref
        assert m.group(1).replace("’", "'") == s.title.replace("’", "'")


@pytest.mark.parametrize("ref", AZRM_REFS)
def test_section_text_is_the_source_text(azrm, azrm_source_sections, ref):
    source = next(s for s in azrm_source_sections if s.ref == ref)
    assert norm_text(azrm.section(ref).text) == norm_text(source.body)


def test_lists_are_kept(azrm):
    assert azrm.section("1.1").text.count("\n- ") == 5
    assert azrm.section("4.2").text.count("\n- ") == 6
    text = azrm.section("6.1").text
    assert "1. Say" in text and "2. Pick up" in text and "3. Place" in text
    assert "\n  - " in azrm.section("6.4").text  # the nested "i.e." items


def test_paragraphs_are_separated_by_blank_lines(azrm):
    sec = azrm.section("2.4").text.split("\n\n")
    assert sec[0] == "Wrongly revealed tiles are returned to their original positions."
    assert sec[-1] == "The penalty may be increased if the wall is affected."
    assert len(sec) == 6


def test_chapters(azrm, azrm_source):
    chapters = re.findall(r"^Chapter (\d+) (.+?)(?:\.{2,})?\t\d+$", azrm_source, flags=re.M)
    assert [(c.ref, c.title) for c in azrm.chapters] == chapters


# --- the penalty table derived from the text ----------------------------------------------------------

PENALTY_NAMES = {
    # §1.4's penalty names → kind, points; strike: "Every foul that is not a Warning or a Minor Chombo
    # (continue) will result in a Strike"
    "Warning": (Penalty.WARNING, None),
    "Minor Chombo (continue) 10P": (Penalty.MINOR_CHOMBO, 10),
    "Minor Chombo (Dead Hand) 10P": (Penalty.DEAD_HAND, 10),
    "Minor Chombo (Kyoku restart) 10P": (Penalty.MINOR_CHOMBO, 10),
    "Chombo 30P": (Penalty.CHOMBO, 30),
    "Ban": (Penalty.BAN, None),
}


def test_rows_cite_existing_sections_in_section_order(azrm):
    refs = [r.ref for r in azrm.penalties]
    assert all(azrm.has_section(ref) for ref in refs)
    order = {ref: i for i, ref in enumerate(AZRM_REFS)}
    assert [order[r] for r in refs] == sorted(order[r] for r in refs)


def test_penalties_use_the_names_of_1_4(azrm):
    for r in azrm.penalties:
        if r.penalty in PENALTY_NAMES:
            kind, points = PENALTY_NAMES[r.penalty]
            assert (r.kind, r.points) == (kind, points), r.foul
        else:
            assert r.kind in (Penalty.NONE, Penalty.REDEAL, Penalty.DISCRETION,
                              Penalty.POINT_PENALTY), (r.foul, r.penalty)


def test_strikes_follow_1_4(azrm):
    for r in azrm.penalties:
        if r.kind is Penalty.DISCRETION:
            continue
        no_strike = r.kind in (Penalty.NONE, Penalty.REDEAL, Penalty.WARNING) or r.penalty.startswith(
            "Minor Chombo (continue)")
        assert r.strike is (not no_strike), (r.foul, r.penalty, r.strike)


@pytest.mark.parametrize(("ref", "phrase", "penalty"), [
    # §2.4: 1 or 2 tiles Warning; 3 or 4 Dead Hand; more than 4 Chombo; during the deal, no penalty
    ("2.4", "1 or 2 tiles", "Warning"), ("2.4", "3 or 4 tiles", "Minor Chombo (Dead Hand) 10P"),
    ("2.4", "more than 4 tiles", "Chombo 30P"),
    ("2.2", "Too many or too few tiles", "Minor Chombo (Dead Hand) 10P"),
    ("5.3", "Kui-kae", "Minor Chombo (Dead Hand) 10P"),
    ("6.2", "Noten Riichi", "Chombo 30P"),
    ("4.1", "Ron/Tsumo", "Chombo 30P"), ("4.1", "Chii/Pon/Kan", "Minor Chombo (Dead Hand) 10P"),
    ("4.3", "Calling with a Dead Hand", "Minor Chombo (continue) 10P"),
    ("2.5", "irrevocably disturbed", "Minor Chombo (Kyoku restart) 10P"),
    ("7.7", "Changing a tenpai/noten declaration", "Minor Chombo (continue) 10P"),
    ("10.2", "Abandoning a hanchan", "Chombo 30P"),
])
def test_rows_say_what_the_section_says(azrm, ref, phrase, penalty):
    in_section = [r for r in azrm.penalties if r.ref == ref]
    rows = [r for r in in_section if r.foul == phrase] or [r for r in in_section if phrase in r.foul]
    assert len(rows) == 1, [r.foul for r in azrm.penalties if r.ref == ref]
    assert rows[0].penalty == penalty


def test_every_section_naming_a_penalty_has_a_row(azrm):
    """A section whose text gives a penalty (Warning, Dead Hand, Minor Chombo, Chombo) has a row."""
    cited = {r.ref for r in azrm.penalties}
    for s in azrm.sections:
        if s.ref.startswith("1."):
            continue  # chapter 1 defines the penalties
        if re.search(r"\b(a Warning|a Dead Hand|Minor Chombo|a Chombo|penalized with)\b", s.text):
            assert s.ref in cited, s.ref
