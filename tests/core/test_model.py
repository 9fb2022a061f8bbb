"""The content model as API.md specifies it: names, types, immutability and the helpers."""

from __future__ import annotations

import dataclasses
import datetime
import enum
from collections.abc import Mapping, Sequence

import pytest

import handbook

API_NAMES = ["load_library", "ContentError", "Library", "Ruleset", "Section", "PenaltyRow", "Term", "Hit",
             "Penalty", "revealed_tiles", "chombo", "strike_status", "Ruling", "ChomboSettlement", "StrikeStatus"]


@pytest.mark.parametrize("name", API_NAMES)
def test_public_names_are_importable_from_the_package(name):
    assert hasattr(handbook, name)
    assert name in handbook.__all__


def test_content_error_is_a_value_error():
    assert issubclass(handbook.ContentError, ValueError)


def test_penalty_enum():
    assert issubclass(handbook.Penalty, enum.StrEnum)
    # the API's nine values, in order; AZRM's Ban added after them (a Ban is not a disqualification)
    assert [p.value for p in handbook.Penalty] == [
        "none", "warning", "redeal", "dead_hand", "minor_chombo", "chombo", "point_penalty", "discretion",
        "disqualification", "ban"]
    assert handbook.Penalty("chombo") == "chombo"


def test_library_shape(library):
    assert isinstance(library, handbook.Library)
    assert isinstance(library.rulesets, Mapping)
    assert set(library.rulesets) == {"azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"}
    assert isinstance(library.glossary, Sequence)
    assert all(isinstance(t, handbook.Term) for t in library.glossary)


@pytest.mark.parametrize("rid", ["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_ruleset_shape(library, rid):
    rs = library.rulesets[rid]
    assert isinstance(rs, handbook.Ruleset)
    assert rs.id == rid
    assert isinstance(rs.title, str) and rs.title
    assert isinstance(rs.sections, Sequence) and isinstance(rs.penalties, Sequence)
    for s in rs.sections:
        assert isinstance(s, handbook.Section)
        assert isinstance(s.ref, str) and isinstance(s.title, str) and isinstance(s.text, str)
        assert s.title_ja is None or (isinstance(s.title_ja, str) and s.title_ja)
        assert s.text == s.text.strip()
    for r in rs.penalties:
        assert isinstance(r, handbook.PenaltyRow)
        assert isinstance(r.id, str) and isinstance(r.foul, str) and isinstance(r.penalty, str)
        assert r.ref is None or isinstance(r.ref, str)
        assert r.kind is None or isinstance(r.kind, handbook.Penalty)
        assert r.points is None or (isinstance(r.points, int) and r.points >= 0)


def test_term_shape(library):
    for t in library.glossary:
        assert isinstance(t.id, str) and isinstance(t.term, str) and isinstance(t.definition, str)
        assert t.japanese is None or (isinstance(t.japanese, str) and t.japanese)
        assert t.reading is None or isinstance(t.reading, str)


def test_section_refs_look_like_the_sources(library):
    import re

    for rs in library.rulesets.values():
        for s in rs.sections:
            assert re.fullmatch(r"[0-9]+(\.[0-9]+)*", s.ref), (rs.id, s.ref)


@pytest.mark.parametrize("make", [
    lambda lib: lib.rulesets["azrm"],
    lambda lib: lib.rulesets["azrm"].sections[0],
    lambda lib: lib.rulesets["azrm"].penalties[0],
    lambda lib: lib.glossary[0],
    lambda lib: lib,
], ids=["ruleset", "section", "penalty-row", "term", "library"])
def test_model_objects_are_frozen(library, make):
    obj = make(library)
    field = dataclasses.fields(obj)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(obj, field, "changed")


def test_collections_cannot_be_changed(library):
    with pytest.raises(TypeError):
        library.rulesets["x"] = library.rulesets["azrm"]  # type: ignore[index]
    with pytest.raises((TypeError, AttributeError)):
        library.glossary.append(library.glossary[0])  # type: ignore[attr-defined]
    with pytest.raises((TypeError, AttributeError)):
        library.rulesets["azrm"].sections.append(None)  # type: ignore[attr-defined]
    with pytest.raises((TypeError, AttributeError)):
        library.rulesets["azrm"].penalties.append(None)  # type: ignore[attr-defined]


def test_section_lookup(library):
    azrm = library.rulesets["azrm"]
    assert azrm.section("2.4").title == "Wrongly revealing tiles"
    assert azrm.has_section("2.4") and not azrm.has_section("2.9")
    with pytest.raises(KeyError):
        azrm.section("2.9")
    assert [s.ref for s in azrm.chapter_sections("2")] == ["2.1", "2.2", "2.3", "2.4", "2.5"]


def test_rows_and_rows_citing(library):
    azrm = library.rulesets["azrm"]
    rows = azrm.rows("revealed-tiles")
    assert [r.ref for r in rows] == ["2.4"] * len(rows) and len(rows) == 4
    assert all(r.id == "revealed-tiles" for r in rows)
    assert {r.id for r in azrm.rows_citing("2.4")} == {"revealed-tiles"}
    assert azrm.rows("no-such-foul") == []
    wrc = library.rulesets["wrc-2025"]
    # "12.3.1" covers "12.3.1 (1)" … "12.3.1 (4)" but not "12.3.10"
    assert {r.ref for r in wrc.rows_citing("12.3.1")} == {"12.3.1 (1)", "12.3.1 (2)", "12.3.1 (3)", "12.3.1 (4)"}


def test_term_lookup(library):
    assert library.term("kui-kae").japanese == "喰い替え"
    with pytest.raises(KeyError):
        library.term("no-such-term")


def test_foul_across_rulesets(library):
    by_ruleset = library.foul("wrong-tile-count")
    assert set(by_ruleset) == {"azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"}
    assert all(r.ruleset == rid for rid, rows in by_ruleset.items() for r in rows)


def test_two_column_table_gives_each_ruleset_its_column(library):
    """wrc-2025 shows the World Championship column, wrc-2025-lower the lower one (003 §4:
    "Too many or too few tiles | Chonbo 30P | 12.3.1 (2) | Dead hand")."""
    wc = library.rulesets["wrc-2025"].rows("wrong-tile-count")[0]
    lower = library.rulesets["wrc-2025-lower"].rows("wrong-tile-count")[0]
    assert (wc.penalty, wc.kind, wc.points) == ("Chonbo 30P", handbook.Penalty.CHOMBO, 30)
    assert (lower.penalty, lower.kind) == ("Dead hand", handbook.Penalty.DEAD_HAND)
    assert wc.ref == lower.ref == "12.3.1 (2)"
    assert wc.differs and lower.differs
    assert wc.compare_penalty == "Dead hand" and lower.compare_penalty == "Chonbo 30P"


def test_rows_where_the_columns_agree_are_not_marked(library):
    wc = library.rulesets["wrc-2025"]
    same = [r for r in wc.penalties if r.penalty == r.compare_penalty]
    assert same and not any(r.differs for r in same)


def test_revisions_of_azrm(library):
    azrm = library.rulesets["azrm"]
    assert [r.revision for r in azrm.revisions] == ["0.4", "0.3", "0.2", "0.1"]
    assert [r.date for r in azrm.revisions] == [datetime.date(2026, 4, d) for d in (20, 16, 15, 13)]


def test_hit_route():
    assert handbook.Hit("rule", "azrm", "2.4", "x").route == "/rules/azrm/2.4"
    assert handbook.Hit("penalty", "wrc-2025", "revealed-tiles", "x").route == "/penalties/wrc-2025/revealed-tiles"
    assert handbook.Hit("term", None, "kui-kae", "x").route == "/glossary/kui-kae"
