"""The data behind each screen, without flet controls: search groups, penalty comparison rows,
glossary filter, chapter listing, section page."""

from __future__ import annotations

import pytest

from handbook.ui.views import glossary, penalties, rules, search

# ----------------------------------------------------------------------------- search


def test_search_groups_in_fixed_order(library):
    groups = search.run_search(library, "empty call")
    kinds = [k for k, _ in groups]
    assert kinds == [k for k in ("rule", "penalty", "term") if k in kinds]
    assert set(kinds) == {"rule", "penalty", "term"}


def test_misehai_finds_azrm_2_4_with_its_penalties(library):
    groups = dict(search.run_search(library, "見せ牌"))
    rule = groups["rule"][0]
    assert (rule.ruleset, rule.ref, rule.title, rule.subtitle) == ("AZRM", "§2.4", "Wrongly revealing tiles", "見せ牌")
    assert rule.route == "/rules/azrm/2.4"
    # what the judge gives, straight from the rows citing §2.4
    assert rule.penalties == ("Re-deal, no penalty", "Warning", "Minor Chombo (Dead Hand) 10P", "Chombo 30P")
    term = groups["term"][0]
    assert term.title == "Misehai" and "見せ牌" in term.subtitle and "みせはい" in term.subtitle
    assert term.ruleset == "" and term.route == "/glossary/misehai"


def test_penalty_results_carry_ruleset_ref_and_penalty_text(library):
    groups = dict(search.run_search(library, "revealed tiles"))
    rows = groups["penalty"]
    wrc = next(r for r in rows if r.ruleset == "WRC 2025")
    row = library.rulesets["wrc-2025"].rows("revealed-tiles")[0]
    assert wrc.ref == f"§{row.ref}"
    assert wrc.penalty == row.penalty and wrc.penalty
    assert wrc.route == "/penalties/wrc-2025/revealed-tiles"
    assert all(r.penalty for r in rows)
    assert "WRC 2025" in wrc.label and row.penalty in wrc.label


def test_chosen_ruleset_narrows_rules_and_penalties(library):
    groups = search.run_search(library, "empty call", "ema-rcr")
    for kind, results in groups:
        if kind in ("rule", "penalty"):
            assert {r.ruleset for r in results} == {"EMA RCR"}
    assert "term" in dict(groups)


def test_empty_query_gives_nothing(library):
    assert search.run_search(library, "   ") == []


# -------------------------------------------------------------------------- penalties


def _row(library, ruleset, foul="wrong-tile-count"):
    return library.rulesets[ruleset].rows(foul)[0]


def test_two_columns_world_first_own_column_marked(library):
    world = penalties.columns(_row(library, "wrc-2025"))
    lower = penalties.columns(_row(library, "wrc-2025-lower"))
    rakkii = penalties.columns(_row(library, "rakkii-nomi-2026"))
    assert [c.label for c in world] == ["World Championship", "Lower"]
    assert [c.label for c in lower] == ["World Championship", "Lower"]
    assert [c.text for c in world] == [c.text for c in lower] == ["Chonbo 30P", "Dead hand"]
    assert [c.own for c in world] == [True, False]
    assert [c.own for c in lower] == [False, True]
    assert [c.own for c in rakkii] == [False, True]


def test_one_column_table(library):
    cols = penalties.columns(_row(library, "azrm"))
    assert len(cols) == 1 and cols[0].own and cols[0].label == ""
    assert cols[0].text == _row(library, "azrm").penalty


def test_only_differences(library):
    rows = library.rulesets["wrc-2025"].penalties
    diff = penalties.filter_rows(rows, only_differences=True)
    assert diff and len(diff) == sum(r.differs for r in rows) < len(rows)
    assert all(len({c.text for c in penalties.columns(r)}) == 2 for r in diff)


def test_filter_rows_matches_every_word_folded(library):
    rows = library.rulesets["wrc-2025"].penalties
    found = penalties.filter_rows(rows, "ＣＨＯＮＢＯ tiles")  # full-width, upper case
    assert found
    for r in found:
        hay = penalties.row_text(r)
        assert "chonbo" in hay and "tiles" in hay
    assert penalties.filter_rows(rows, "") == list(rows)
    assert penalties.filter_rows(rows, "zzzz-no-such") == []
    # a section number filters too
    by_ref = penalties.filter_rows(library.rulesets["azrm"].penalties, "2.4")
    assert by_ref and all("2.4" in (r.ref or "") or "2.4" in r.foul or "2.4" in (r.note or "") for r in by_ref)


def test_group_rows_keeps_source_order(library):
    rows = library.rulesets["wrc-2025"].penalties
    groups = penalties.group_rows(rows)
    assert groups[0][0] == rows[0].category
    assert sum(len(g) for _, g in groups) == len(rows)
    for _, g in groups:
        assert [r.index for r in g] == sorted(r.index for r in g)
    assert len({c for c, _ in groups}) == len(groups)


def test_same_foul_in_other_rulesets(library):
    others = penalties.other_rulesets(library, "wrc-2025", "revealed-tiles")
    ids = [rs.id for rs, _ in others]
    assert "wrc-2025" not in ids
    assert {"azrm", "ema-rcr", "wrc-2025-lower"} <= set(ids)
    assert all(r.id == "revealed-tiles" for _, rows in others for r in rows)


def test_ref_route_only_for_existing_sections(library):
    assert penalties.ref_route(library, _row(library, "azrm", "revealed-tiles")) == "/rules/azrm/2.4"
    assert penalties.ref_route(library, _row(library, "wrc-2025", "revealed-tiles")) is None


# --------------------------------------------------------------------------- glossary


@pytest.mark.parametrize("query, term_id", [
    ("kui-kae", "kui-kae"),
    ("kuikae", "kui-kae"),
    ("喰い替え", "kui-kae"),
    ("くいかえ", "kui-kae"),
    ("クイカエ", "kui-kae"),     # katakana folds to hiragana
    ("見せ牌", "misehai"),
    ("chonbo", "chombo"),        # romaji spelling variant
    ("ＣＨＯＭＢＯ", "chombo"),  # full width
    ("swap", "kui-kae"),         # alias
])
def test_glossary_filter_either_script(library, query, term_id):
    found = [t.id for t in glossary.filter_terms(library.glossary, query)]
    assert term_id in found
    assert len(found) < len(library.glossary)


def test_glossary_filter_empty_and_nonsense(library):
    assert len(glossary.filter_terms(library.glossary, "")) == len(library.glossary)
    assert glossary.filter_terms(library.glossary, "qqqzzz") == []


def test_glossary_sorted(library):
    names = [t.term.casefold() for t in glossary.sorted_terms(library.glossary)]
    assert names == sorted(names)


def test_term_sections_and_see_also(library):
    t = library.term("misehai")
    secs = glossary.term_sections(library, t)
    assert ("AZRM", library.rulesets["azrm"].section("2.4")) in secs
    assert len(secs) == len(t.refs)
    assert [x.id for x in glossary.see_also(library, t)] == list(t.see_also)


# ------------------------------------------------------------------------------ rules


def test_chapter_groups_cover_every_section_once(library):
    for rs in library.rulesets.values():
        groups = rules.chapter_groups(rs)
        listed = [s.ref for g in groups for s in g.sections]
        assert listed == [s.ref for s in rs.sections], rs.id


def test_section_page(library):
    p = rules.section_page(library, "azrm", "2.4")
    assert p.section.title_ja == "見せ牌"
    assert [r.id for r in p.penalties] == ["revealed-tiles"] * 4
    assert "misehai" in [t.id for t in p.terms]
    assert (p.previous.ref, p.next.ref) == ("2.3", "2.5")
    p61 = rules.section_page(library, "azrm", "6.1")
    assert [s.ref for s in p61.linked] == ["4.1"]


def test_section_page_unknown(library):
    with pytest.raises(KeyError):
        rules.section_page(library, "azrm", "99.9")
    with pytest.raises(KeyError):
        rules.section_page(library, "nope", "2.4")


def test_rule_rulesets_text_first(library):
    ids = [rs.id for rs in rules.rule_rulesets(library)]
    assert set(ids) == set(library.rulesets)
    with_text = [bool(library.rulesets[i].sections) for i in ids]
    assert with_text == sorted(with_text, reverse=True)


# ------------------------------------------------------------------- the ruling first


def test_the_ranked_list_keeps_the_search_s_order(library):
    for q, rs in (("head bump", "ema-rcr"), ("誤ロン", "azrm"), ("empty call", "ema-rcr"), ("chombo", None)):
        hits = library.search(q, ruleset=rs, limit=search.RESULT_LIMIT)
        results = search.ranked_results(library, q, rs)
        # the rulings in the search's order; a glossary term ranked among the first rulings comes
        # just after the second (rulings first on a phone's first screen, the term below them)
        rulings = [r.route for r in results if r.kind != "term"]
        assert rulings[:3] == list(dict.fromkeys(h.route for h in hits if h.kind != "term"))[:3], q
        first_term = next((i for i, r in enumerate(results) if r.kind == "term"), None)
        if first_term is not None and len(rulings) >= search.TERMS_AFTER:
            assert sum(r.kind != "term" for r in results[:first_term]) >= search.TERMS_AFTER, q


def test_terms_come_after_the_first_rulings(library):
    # 誤ポン: the search ranks the term "Pon" first; the page lists two rulings before it
    results = search.ranked_results(library, "誤ポン", "azrm")
    assert [r.kind for r in results[:3]][:2] != ["term"] and results[0].kind != "term"
    assert any(r.kind == "term" and r.route == "/glossary/pon" for r in results[:4])
    r = search.Result
    made = [r("term", "T", "/t"), r("penalty", "A", "/a"), r("rule", "B", "/b"), r("penalty", "C", "/c")]
    assert [x.title for x in search.rulings_first(made)] == ["A", "B", "T", "C"]


def test_a_ruling_shows_every_row_of_the_foul_with_its_condition(library):
    first = search.ranked_results(library, "late 15 minutes", "wrc-2025")[0]
    assert (first.kind, first.title, first.penalty) == ("penalty", "Late by more than 10 min",
                                                         "30P point penalty, replacement")
    assert [(x.condition, x.penalty) for x in first.rows] == [("1 to 10 min", "1P point penalty per minute")]
    ema = search.ranked_results(library, "late 5 minutes", "ema-rcr")[0]
    assert "one to ten minutes" in ema.title and "per minute" in ema.penalty
    assert [x.condition for x in ema.rows] == ["more than ten minutes"]


def test_a_ruling_names_the_section_that_governs_it(library):
    first = search.ranked_results(library, "誤ロン", "azrm")[0]
    assert first.kind == "penalty" and first.governs == "§4.1 Empty Call and changing a call"


def test_without_a_ruleset_the_best_foul_is_compared_across_rulesets(library):
    results = search.ranked_results(library, "revealed tiles")
    compare = next(r for r in results if r.kind == "penalty")
    assert compare.compare and compare.title == library.fouls["revealed-tiles"].name
    named = " · ".join(x.ruleset for x in compare.rows)
    for rs in library.rulesets.values():
        if rs.rows("revealed-tiles"):
            assert rs.short in named
    # that foul's rows are not listed again below it
    assert not [r for r in results if r.kind == "penalty" and not r.compare and "/revealed-tiles" in r.route]
