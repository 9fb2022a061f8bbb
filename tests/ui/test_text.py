"""Rule text: paragraphs and lists, § references as links to existing sections only."""

from __future__ import annotations

from handbook.ui.text import Block, Segment, blocks, leading_ref, ref_label, section_links, segments


def test_blocks_paragraphs_and_lists():
    text = ("First line\ncontinues here.\n\n1. One,\n2. Two\n\n- a) first\n  - nested\n"
            "    more of nested\n\nLast.")
    assert blocks(text) == [
        Block("para", "First line continues here."),
        Block("number", "One,", 0, "1."),
        Block("number", "Two", 0, "2."),
        Block("bullet", "a) first", 0),
        Block("bullet", "nested more of nested", 1),
        Block("para", "Last."),
    ]


def test_blocks_of_a_real_section(library):
    b = blocks(library.rulesets["azrm"].section("6.1").text)
    assert [x.marker for x in b if x.kind == "number"] == ["1.", "2.", "3."]
    assert sum(1 for x in b if x.kind == "bullet") == 2
    # nothing is lost: every word of the source text is in some block
    joined = " ".join(x.text for x in b)
    for word in library.rulesets["azrm"].section("6.1").text.replace("\n", " ").split():
        if word not in ("-", "1.", "2.", "3."):
            assert word in joined


def test_section_sign_links_to_same_ruleset(library):
    segs = segments("treated as an Empty Call. (§4.1) Then §1.4.", ruleset="azrm", library=library)
    links = [s for s in segs if s.is_link]
    assert [(s.text, s.ruleset, s.ref) for s in links] == [("§4.1", "azrm", "4.1"), ("§1.4", "azrm", "1.4")]
    assert links[0].route == "/rules/azrm/4.1"
    # the text reads the same with and without links
    assert "".join(s.text for s in segs) == "treated as an Empty Call. (§4.1) Then §1.4."


def test_missing_sections_stay_plain(library):
    segs = segments("See §99.9 and §2.4.", ruleset="azrm", library=library)
    assert [s.ref for s in segs if s.is_link] == ["2.4"]
    assert "".join(s.text for s in segs) == "See §99.9 and §2.4."


def test_qualified_references_in_glossary_text(library):
    text = "ending at the dead wall (EMA RCR 3.3, 3.3.1, 3.4.8; AZRM 2.3, 2.4)."
    segs = segments(text, ruleset="azrm", library=library)
    assert [(s.ruleset, s.ref) for s in segs if s.is_link] == [
        ("ema-rcr", "3.3"), ("ema-rcr", "3.3.1"), ("ema-rcr", "3.4.8"), ("azrm", "2.3"), ("azrm", "2.4")]
    assert "".join(s.text for s in segs) == text


def test_numbers_that_are_not_sections_are_not_links(library):
    text = "EMA RCR 3.4.6, 4000 to East; 1,000-point stick"
    segs = segments(text, ruleset="ema-rcr", library=library)
    assert [s.ref for s in segs if s.is_link] == ["3.4.6"]
    assert "".join(s.text for s in segs) == text


def test_every_section_reference_in_the_content_becomes_a_link(library):
    import re
    for rs in library.rulesets.values():
        for sec in rs.sections:
            found = re.findall(r"§(\d+(?:\.\d+)*)", sec.text)
            links = [s.ref for s in segments(sec.text, ruleset=rs.id, library=library)
                     if s.is_link and s.ruleset == rs.id]
            assert links == found, (rs.id, sec.ref)


def test_section_links_distinct_in_order(library):
    assert section_links("§4.1 then §1.4 and §4.1", ruleset="azrm", library=library) == ["4.1", "1.4"]


def test_no_library_links_everything():
    assert segments("x §3", ruleset="r") == [Segment("x "), Segment("§3", "r", "3")]


def test_labels():
    assert ref_label("2.4") == "§2.4"
    assert ref_label(None) == ""
    assert ref_label("12.3.1 (2)") == "§12.3.1 (2)"
    assert leading_ref("12.3.1 (2)") == "12.3.1"
    assert leading_ref("2.2") == "2.2"
    assert leading_ref(None) is None


def test_the_sources_shorthand_is_explained_where_it_shows():
    from handbook.ui.text import shorthand_notes

    notes = dict(shorthand_notes("20P pp"))
    assert any(m.startswith("pp:") for m in notes) and {"n": "20"} in notes.values()
    kinds = [m.split(":")[0] for m, _f in shorthand_notes("(Chonbo 30P)")]
    assert kinds == ["{n}P", "Chonbo", "(…)"]
    assert shorthand_notes("Not penalized") == [] and shorthand_notes(None) == []
    assert shorthand_notes("1-2 tiles: Warning / 5P pp 3-6 tiles: Dead hand 7+ tiles: Chonbo 30P")
