"""Search finds a yaku by its English, romaji, Japanese and kana names (issue 45): hits of kind
``"yaku"`` after the rulings, opening the yaku page; they are never counted as rulings."""

from __future__ import annotations

import pytest

from handbook.core.search.index import YAKU_HITS


@pytest.mark.parametrize(("query", "yaku"), [
    ("pinfu", "Pinfu"), ("平和", "Pinfu"), ("ぴんふ", "Pinfu"), ("Pinfu?", "Pinfu"),
    ("sanshoku open how many han", "Sanshoku"), ("三色同順", "Sanshoku"), ("mixed triple sequence", "Sanshoku"),
    ("all simples", "Tanyao"), ("断幺九", "Tanyao"), ("kokushi musou", "KokushiMusou"), ("国士無双", "KokushiMusou"),
    ("chiitoitsu", "Chiitoitsu"), ("seven pairs", "Chiitoitsu"), ("大四喜", "DaiSuushii"), ("ittsu", "Ittsu"),
])
def test_a_yaku_is_found_by_its_names(library, query, yaku):
    hits = [h for h in library.search(query) if h.kind == "yaku"]
    assert hits and hits[0].ref == yaku, (query, [(h.kind, h.ref) for h in library.search(query)])
    assert hits[0].route == f"/tools/yaku/{yaku}"


def test_a_chosen_ruleset_goes_into_the_route(library):
    hit = next(h for h in library.search("pinfu", ruleset="ema-rcr") if h.kind == "yaku")
    assert hit.ruleset == "ema-rcr" and hit.route == "/tools/yaku/Pinfu?ruleset=ema-rcr"


def test_yaku_come_after_the_rulings_and_within_the_limit(library):
    query = "noten riichi penalty"
    plain = library.warm().search(query, ruleset="azrm", limit=20)
    hits = library.search(query, ruleset="azrm", limit=20)
    kinds = [h.kind for h in hits]
    assert len(hits) <= 20 and "yaku" in kinds and kinds.count("yaku") <= YAKU_HITS
    first_yaku = kinds.index("yaku")
    assert all(k == "yaku" for k in kinds[first_yaku:])
    assert hits[:first_yaku] == plain[:first_yaku]  # the rulings keep their order
    assert [h.kind for h in library.search(query, ruleset="azrm", limit=3)] == [h.kind for h in plain[:3]]
    assert library.search("pinfu", limit=1)[0].kind == "yaku"  # a free place: the yaku takes it


def test_queries_that_name_no_yaku_are_unchanged(library):
    for query in ("見せ牌", "late arrival", "chombo", "kuikae"):
        assert library.search(query) == library.warm().search(query, ruleset=None, limit=20)
