"""The penalty-table and glossary filters match the way the search does, narrowed to that table:
"chombo" finds "Chonbo", 見せ牌 and "misehai" the revealed-tiles rows (Library.matching)."""

from __future__ import annotations

import pytest

from handbook.ui.views.glossary import filter_terms
from handbook.ui.views.penalties import filter_rows


def _filtered(library, ruleset, query):
    rs = library.rulesets[ruleset]
    return filter_rows(rs.penalties, query, library=library, ruleset=ruleset)


@pytest.mark.parametrize("query, text", [("chombo", "chonbo"), ("chonbo", "chonbo")])
def test_chombo_finds_every_table_s_chombo_rows(library, query, text):
    for ruleset, rs in library.rulesets.items():
        having = [r for r in rs.penalties if text in (r.penalty or "").lower().replace("chombo", "chonbo")]
        if not having:
            continue
        found = _filtered(library, ruleset, query)
        missing = [r.foul for r in having if r not in found]
        assert not missing, (ruleset, query, missing[:5])


@pytest.mark.parametrize("query", ["見せ牌", "misehai", "mise-hai", "みせはい"])
def test_misehai_finds_the_revealed_tiles_rows_of_every_table(library, query):
    for ruleset, rs in library.rulesets.items():
        want = rs.rows("revealed-tiles")
        if not want:
            continue
        found = _filtered(library, ruleset, query)
        assert all(r in found for r in want), (ruleset, query)
        assert all(r.id == "revealed-tiles" for r in found), (ruleset, query, {r.id for r in found})


def test_the_filter_narrows_to_its_table(library):
    rows = library.rulesets["ema-rcr"].penalties
    assert set(filter_rows(rows, "chombo", library=library, ruleset="ema-rcr")) <= set(rows)
    assert filter_rows(rows, "zzzqqq", library=library, ruleset="ema-rcr") == []
    assert filter_rows(rows, "", library=library, ruleset="ema-rcr") == list(rows)


def test_without_the_library_the_filter_is_literal(library):
    assert filter_rows(library.rulesets["wrc-2025"].penalties, "chombo") == []


@pytest.mark.parametrize("query, term", [
    ("chombo", "chombo"), ("chonbo", "chombo"), ("見せ牌", "misehai"), ("misehai", "misehai"),
    ("mise hai", "misehai"), ("ryuukyoku", "ryuukyoku"), ("kuikae", "kui-kae"), ("kui kae", "kui-kae"),
])
def test_the_glossary_filter_is_as_forgiving(library, query, term):
    ids = {t.id for t in library.glossary}
    if term not in ids:
        pytest.skip(f"no glossary term {term}")
    assert term in [t.id for t in filter_terms(library.glossary, query, library)], query


def test_the_glossary_filter_keeps_to_names(library):
    # a word only in definitions and explanations does not list every term that mentions it
    found = filter_terms(library.glossary, "chombo", library)
    assert 0 < len(found) < 12, [t.id for t in found]
