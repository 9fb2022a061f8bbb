"""The glossary: AZRM's 24 terms exactly as the source gives them, then the other terms a judge
meets, each with a reading and a definition."""

from __future__ import annotations

import re
import unicodedata

import pytest

KANA = re.compile(r"^[\u3040-\u30ff\u30fc・ /()（）]+$")


@pytest.fixture(scope="module")
def terms(library):
    return {t.id: t for t in library.glossary}


def test_at_least_40_terms_with_unique_ids(library):
    ids = [t.id for t in library.glossary]
    assert len(ids) >= 40
    assert len(ids) == len(set(ids))


def test_every_term_has_a_reading_and_a_definition(library):
    for t in library.glossary:
        assert t.reading and t.reading.strip(), t.id
        assert t.definition and t.definition.strip(), t.id


def test_readings_are_kana(library):
    for t in library.glossary:
        assert KANA.match(t.reading), (t.id, t.reading)


def test_the_24_azrm_terms_are_as_the_source_gives_them(library, azrm_source_glossary):
    assert len(azrm_source_glossary) == 24
    by_term = {t.term: t for t in library.glossary}
    for concept, japanese, definition in azrm_source_glossary:
        t = by_term.get(concept)
        assert t is not None, concept
        assert t.japanese == japanese, concept          # None where the source says N/A
        assert t.definition == definition, concept
        assert t.source == "azrm", concept


def test_azrm_japanese_fields_appear_in_the_source_row(library, azrm_source, azrm_source_glossary):
    lines = azrm_source.split("\n")
    for concept, _japanese, _ in azrm_source_glossary:
        row = next(line for line in lines if line.startswith(concept + "\t"))
        t = next(t for t in library.glossary if t.term == concept)
        assert (t.japanese or "N/A") == row.split("\t")[1]


def test_terms_beyond_azrm_have_standard_japanese(library, azrm_source_glossary):
    azrm_terms = {c for c, _, _ in azrm_source_glossary}
    others = [t for t in library.glossary if t.term not in azrm_terms]
    assert len(others) >= 16
    for t in others:
        assert t.japanese and re.search(r"[\u3040-\u30ff\u3400-\u9fff]", t.japanese), t.id


@pytest.mark.parametrize("term_id", [
    "dead-hand", "tenpai", "noten", "furiten", "dora", "red-five", "uma", "hanchan", "dealer",
    "riichi-deposit", "nagashi-mangan", "dead-wall", "seat-wind",
])
def test_the_terms_the_spec_names_are_there(terms, term_id):
    assert term_id in terms


def test_continuance_counter_is_honba(terms):
    # AZRM glossary: Honba "Identical to the definition of “continuance counter” in the WRC rules."
    assert "continuance counter" in terms["honba"].definition


def test_romaji_people_type(terms):
    """The spellings the seed README lists: ryūkyoku/ryuukyoku, tahai/taahai, shouhai/shohai,
    chonbo/chombo, kuikae/kui-kae."""
    assert {"ryuukyoku", "ryūkyoku"} <= set(terms["ryuukyoku"].romaji)
    assert {"taahai", "tahai"} <= set(terms["taahai"].romaji)
    assert {"shouhai", "shohai"} <= set(terms["shouhai"].romaji)
    assert {"chombo", "chonbo"} <= set(terms["chombo"].romaji)
    assert {"kuikae", "kui-kae"} <= set(terms["kui-kae"].romaji)


def test_see_also_and_refs_point_to_real_things(library, terms):
    for t in library.glossary:
        for other in t.see_also:
            assert other in terms and other != t.id, (t.id, other)
        for rid, ref in t.refs:
            assert library.rulesets[rid].has_section(ref), (t.id, rid, ref)
        assert t.source in library.rulesets, t.id


def test_definitions_that_name_a_section_cite_it_in_refs(library):
    """A definition "See §5.3." (source azrm) lists azrm 5.3 among its refs."""
    for t in library.glossary:
        for m in re.finditer(r"§\s?(\d+(?:\.\d+)*)", t.definition):
            if t.source == "azrm" and library.rulesets["azrm"].has_section(m.group(1)):
                assert ("azrm", m.group(1)) in t.refs, (t.id, m.group(0))


def test_term_texts_are_clean(library):
    for t in library.glossary:
        for text in (t.term, t.definition, t.japanese or "", t.reading or ""):
            assert text == text.strip(), t.id
            assert unicodedata.normalize("NFC", text) == text, t.id
