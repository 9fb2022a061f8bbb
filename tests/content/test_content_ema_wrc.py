"""EMA RCR (004, 001, 002), WRC 2025 and its lower column, and the Rakkii Nomi 2026 profile (003)."""

from __future__ import annotations

import re

import pytest

from handbook import Penalty

from tests.support.seedparse import norm_text, norm_ws, words  # tests/content/seedparse.py

EMA_REFS = ["3.1", "3.2", "3.3"] + [f"3.3.{i}" for i in range(1, 9)] + [f"3.4.{i}" for i in range(6, 13)] + [
    "3.5", "3.6", "3.6.1"]
RAKKII_REFS = ["1", "2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "3.1", "3.2", "3.3"]

EDITORIAL = re.compile(r"\(tile picture missing[^)]*\)")  # the content's note where the source lost a picture


# --- EMA RCR rule text ------------------------------------------------------------------------------

def test_ema_sections_3_1_to_3_6_1(library, ema_source_sections):
    ema = library.rulesets["ema-rcr"]
    assert [s.ref for s in ema.sections] == EMA_REFS
    assert [(s.ref, s.title) for s in ema_source_sections] == [(s.ref, s.title) for s in ema.sections]
    assert all(s.title_ja is None for s in ema.sections)


@pytest.mark.parametrize("ref", EMA_REFS)
def test_ema_section_text_is_the_source_text(library, ema_source_sections, ref):
    """Word for word (the source is hard-wrapped and carries table borders; the tile pictures of
    §3.3.2's example are lost in the source and marked as such in the content)."""
    source = next(s for s in ema_source_sections if s.ref == ref)
    text = EDITORIAL.sub("", library.rulesets["ema-rcr"].section(ref).text)
    assert words(text) == words(source.body)


def test_ema_chombo_payment_is_the_source_wording(library):
    text = library.rulesets["ema-rcr"].section("3.4.6").text
    assert "4000 to East, 2000 to other players" in text
    assert "If the offending player is East, 4000 is payed to each of the other players." in text


# --- EMA RCR penalty table (002) --------------------------------------------------------------------

def test_ema_rows_are_worded_as_the_source(library, ema_table_source):
    source = norm_ws(ema_table_source.replace("’", "'"))
    for r in library.rulesets["ema-rcr"].penalties:
        assert norm_ws(r.category) in source, r.category
        assert norm_ws(r.foul) in source, r.foul
        penalty = r.penalty.rstrip(".")
        if penalty and not penalty.startswith("Penalized for"):  # "Changing a call" paraphrases its paragraph
            assert penalty.lower() in source.lower(), (r.foul, r.penalty)


def test_ema_bullets_all_have_a_row(library, ema_table_source):
    """Every "• foul: | penalty |" bullet of 002 is a row of the table."""
    fouls = {norm_ws(r.foul) for r in library.rulesets["ema-rcr"].penalties}
    for m in re.finditer(r"•\s*([^:|\n]+?):\s*\|?", ema_table_source):
        bullet = norm_ws(m.group(1))
        assert bullet in fouls, bullet


def test_ema_categories_in_source_order(library, ema_table_source):
    """Each category is a heading of 002 ("Calling with a dead hand (including concealed kong and
    riichi declaration)" may drop its parenthesis), in the order of the source."""
    headings = re.findall(r"^([A-Z][^:\n]+?):", ema_table_source, flags=re.M)
    cats = list(dict.fromkeys(r.category for r in library.rulesets["ema-rcr"].penalties))
    matched = [next((h for h in headings if h == c or h.startswith(c + " (")), None) for c in cats]
    assert None not in matched, dict(zip(cats, matched, strict=True))
    assert sorted(matched, key=headings.index) == matched


# --- WRC 2025 table (003 §4) ----------------------------------------------------------------------------

def test_wrc_rows_are_the_source_rows(library, wrc_source_rows):
    """Every row: category, foul, World Championship penalty, chapter reference, lower penalty."""
    wrc = library.rulesets["wrc-2025"]
    got = [(r.category, r.foul, r.penalty, r.ref or "", r.compare_penalty) for r in wrc.penalties]
    want = [(s.category, s.foul, s.penalty, s.ref, s.lower) for s in wrc_source_rows]
    assert got == want


def test_wrc_lower_column(library, wrc_source_rows):
    lower = library.rulesets["wrc-2025-lower"]
    assert [(r.foul, r.penalty, r.ref or "") for r in lower.penalties] == [
        (s.foul, s.lower, s.ref) for s in wrc_source_rows]


def test_wrc_and_lower_have_the_same_fouls_in_the_same_order(library):
    a, b = library.rulesets["wrc-2025"].penalties, library.rulesets["wrc-2025-lower"].penalties
    assert [(r.id, r.foul, r.category) for r in a] == [(r.id, r.foul, r.category) for r in b]


def test_wrc_has_9_categories_in_source_order(library, wrc_source_categories):
    cats = list(dict.fromkeys(r.category for r in library.rulesets["wrc-2025"].penalties))
    assert len(cats) == 9
    assert cats == wrc_source_categories


def test_wrc_split_row_and_empty_row(library):
    """One foul is split across a page break in the source, one has no penalties at all."""
    fouls = {r.foul: r for r in library.rulesets["wrc-2025"].penalties}
    assert "Mixing the drawn tile into the hand before discarding, and it prevents to correct a mistake" in fouls
    empty = fouls["Wrongly drawing tiles - from an opponent hand"]
    assert (empty.penalty, empty.compare_penalty, empty.ref) == ("", "", None)


def test_differing_rows_are_marked(library):
    """The source highlighted the rows where the columns differ (the extraction lost it); the content
    derives it. Rows with the same text in both columns are not marked; rows whose penalties differ
    in substance (another penalty, other points) are."""
    rows = library.rulesets["wrc-2025"].penalties
    assert not any(r.differs for r in rows if r.penalty == r.compare_penalty)
    # the same penalty, "pp" written out or not
    assert not any(r.differs for r in rows if r.foul in ("Incorrect all-last sheet", "Incorrect report sheet"))
    substance = [r for r in rows if _points(r.penalty) != _points(r.compare_penalty)
                 or ("Chonbo" in r.penalty) != ("Chonbo" in r.compare_penalty)]
    assert len(substance) >= 15
    assert all(r.differs for r in substance), [r.foul for r in substance if not r.differs]
    assert {"Too many or too few tiles", "Wrongly revealing tiles", "Invalid group (after discarding)",
            "Noten riichi (win or draw)", "Forfeiting a hanchan"} <= {r.foul for r in rows if r.differs}
    lower = library.rulesets["wrc-2025-lower"].penalties
    assert [r.differs for r in lower] == [r.differs for r in rows]


def _points(text: str) -> list[str]:
    return re.findall(r"\d+P", text)


@pytest.mark.parametrize(("foul", "kind", "points", "lower_kind", "lower_points"), [
    ("Too many or too few tiles", Penalty.CHOMBO, 30, Penalty.DEAD_HAND, None),
    ("Noten riichi (win or draw)", Penalty.CHOMBO, 30, Penalty.CHOMBO, 20),
    ("Cheating", Penalty.DISQUALIFICATION, None, Penalty.DISQUALIFICATION, None),
    ("Empty call for a win (vocal only)", Penalty.CHOMBO, 30, Penalty.DEAD_HAND, None),
    ("Invalid quad (after discarding)", Penalty.CHOMBO, 30, Penalty.CHOMBO, 20),
])
def test_wrc_structured_penalties_read_the_cells(library, foul, kind, points, lower_kind, lower_points):
    wc = next(r for r in library.rulesets["wrc-2025"].penalties if r.foul == foul)
    lo = next(r for r in library.rulesets["wrc-2025-lower"].penalties if r.foul == foul)
    assert (wc.kind, wc.points) == (kind, points)
    assert (lo.kind, lo.points or None) == (lower_kind, lower_points)


# --- Rakkii Nomi 2026 ---------------------------------------------------------------------------------

def test_rakkii_sections(library, rakkii_source_sections):
    rakkii = library.rulesets["rakkii-nomi-2026"]
    assert [s.ref for s in rakkii.sections] == RAKKII_REFS
    assert [(s.ref, s.title) for s in rakkii.sections] == [(s.ref, s.title) for s in rakkii_source_sections]


@pytest.mark.parametrize("ref", RAKKII_REFS)
def test_rakkii_section_text_is_the_source_text(library, rakkii_source_sections, ref):
    source = next(s for s in rakkii_source_sections if s.ref == ref)
    assert words(library.rulesets["rakkii-nomi-2026"].section(ref).text) == words(source.body)


def test_rakkii_text_keeps_punctuation(library, rakkii_source_sections):
    for s in rakkii_source_sections:
        if s.ref != "2.5":  # the point-stick table becomes a list
            assert norm_text(library.rulesets["rakkii-nomi-2026"].section(s.ref).text) == norm_text(s.body), s.ref
