"""Search over the shipped content: the spellings people type, typos, Japanese, colloquial English,
section numbers, ranking, the ``ruleset`` filter, bad arguments and the shape of a result.

Expected answers come from the sources (``../shared/seeds``): §2.4 of AZRM is "Wrongly revealing
tiles" / 見せ牌; its glossary defines Atamahane as "head bump" and Ryuukyoku as "exhaustive draw";
EMA RCR §3.4.6 is "Chombo".
"""

from __future__ import annotations

import pytest

import handbook

RULESETS = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026")


def keys(hits, n=None):
    return [(h.kind, h.ruleset, h.ref) for h in hits[:n]]


def rank(hits, kind, ruleset, ref) -> int:
    """0-based position of a result, or a large number when absent."""
    for i, h in enumerate(hits):
        if (h.kind, h.ruleset, h.ref) == (kind, ruleset, ref):
            return i
    return 10**6


TERM = "term"

# --- forgiving spellings -------------------------------------------------------------------------

SPELLINGS = [
    # (query, term id it must find, how many results to look at)
    ("chombo", "chombo", 3), ("chonbo", "chombo", 3), ("Chombo", "chombo", 3), ("CHOMBO", "chombo", 3),
    ("ＣＨＯＭＢＯ", "chombo", 3), ("ｃｈｏｍｂｏ", "chombo", 3), ("ﾁｮﾝﾎﾞ", "chombo", 3), ("チョンボ", "chombo", 3),
    ("ちょんぼ", "chombo", 3), ("錯和", "chombo", 3),
    ("kuikae", "kui-kae", 1), ("kui-kae", "kui-kae", 1), ("kui kae", "kui-kae", 1), ("Kui-kae", "kui-kae", 1),
    ("喰い替え", "kui-kae", 1), ("くいかえ", "kui-kae", 1), ("クイカエ", "kui-kae", 1), ("ｸｲｶｴ", "kui-kae", 1),
    ("ryuukyoku", "ryuukyoku", 1), ("ryūkyoku", "ryuukyoku", 1), ("ryukyoku", "ryuukyoku", 1),
    ("RYŪKYOKU", "ryuukyoku", 1), ("流局", "ryuukyoku", 1), ("りゅうきょく", "ryuukyoku", 1),
    ("リュウキョク", "ryuukyoku", 1),
    ("多牌", "taahai", 1), ("taahai", "taahai", 1), ("tahai", "taahai", 1), ("tāhai", "taahai", 1),
    ("ﾀｰﾊｲ", "taahai", 1), ("たーはい", "taahai", 1),
    ("少牌", "shouhai", 1), ("shouhai", "shouhai", 1), ("shohai", "shouhai", 1), ("shōhai", "shouhai", 1),
    ("見せ牌", "misehai", 1), ("みせはい", "misehai", 1), ("ミセハイ", "misehai", 1), ("misehai", "misehai", 1),
    ("tenpai", "tenpai", 1), ("tempai", "tenpai", 1), ("聴牌", "tenpai", 1),
    ("riichi", "riichi", 1), ("リーチ", "riichi", 1), ("ﾘｰﾁ", "riichi", 1), ("りーち", "riichi", 1), ("立直", "riichi", 3),
    ("atamahane", "atamahane", 1), ("atama-hane", "atamahane", 1), ("頭ハネ", "atamahane", 1),
    ("akadora", "red-five", 1), ("aka dora", "red-five", 1),
]


@pytest.mark.parametrize(("query", "term_id", "top"), SPELLINGS, ids=[q for q, _, _ in SPELLINGS])
def test_spelling_variants_find_the_term(library, query, term_id, top):
    hits = library.search(query)
    assert (TERM, None, term_id) in keys(hits, top), keys(hits, 5)


@pytest.mark.parametrize(("a", "b"), [
    ("chombo", "chonbo"), ("kuikae", "kui-kae"), ("kuikae", "kui kae"), ("ryuukyoku", "ryūkyoku"),
    ("ryuukyoku", "ryukyoku"), ("taahai", "tahai"), ("shouhai", "shohai"), ("ＣＨＯＭＢＯ", "CHOMBO"),
    ("ﾁｮﾝﾎﾞ", "チョンボ"), ("チョンボ", "ちょんぼ"), ("リュウキョク", "りゅうきょく"), ("tenpai", "tempai"),
])
def test_spelling_variants_give_the_same_results(library, a, b):
    """Two spellings match the same documents, and the same five come first (the order within them
    may differ: an exact-title bonus compares the spelling as typed)."""
    assert set(keys(library.search(a, limit=1000))) == set(keys(library.search(b, limit=1000)))
    assert set(keys(library.search(a), 5)) == set(keys(library.search(b), 5))


@pytest.mark.parametrize(("query", "section"), [
    ("多牌", ("azrm", "2.2")), ("tahai", ("azrm", "2.2")), ("shohai", ("azrm", "2.2")),
    ("喰い替え", ("azrm", "5.3")), ("kui kae", ("azrm", "5.3")), ("kuikae", ("ema-rcr", "3.3.2")),
])
def test_spellings_find_the_section_too(library, query, section):
    assert ("rule", *section) in keys(library.search(query), 4)


# --- typos -----------------------------------------------------------------------------------------

@pytest.mark.parametrize(("typo", "target", "top"), [
    ("furitne", (TERM, None, "furiten"), 1),          # transposition
    ("revaeled", ("rule", "azrm", "2.4"), 3),         # transposition
    ("revealled", ("rule", "azrm", "2.4"), 3),        # insertion
    ("cheatign", ("rule", "azrm", "9.4"), 5),
    ("obstrcution", ("rule", "azrm", "9.1"), 5),
    ("atamahene", (TERM, None, "atamahane"), 1),      # substitution
    ("ryuukyoky", (TERM, None, "ryuukyoku"), 1),
])
def test_a_typo_in_a_long_word_is_tolerated(library, typo, target, top):
    assert target in keys(library.search(typo), top), keys(library.search(typo), 6)


def test_a_typo_does_not_outrank_the_exact_word(library):
    """The exact spelling scores higher than the same word with a typo."""
    exact = library.search("furiten")[0]
    typo = library.search("furitne")[0]
    assert (exact.kind, exact.ref) == (typo.kind, typo.ref) == (TERM, "furiten")
    assert exact.score > typo.score


def test_short_words_are_not_confused(library):
    """ron/pon/kan are one letter apart: each finds its own term first."""
    for word in ("ron", "pon", "kan", "chii"):
        assert keys(library.search(word), 1) == [(TERM, None, word)]


def test_prefix_of_the_last_word(library):
    """Results come while typing: a prefix of the last word matches."""
    assert (TERM, None, "kui-kae") in keys(library.search("kui"), 1)
    assert (TERM, None, "atamahane") in keys(library.search("atamaha"), 1)
    assert (TERM, None, "nagashi-mangan") in keys(library.search("nagashi"), 2)


# --- Japanese and English --------------------------------------------------------------------------

@pytest.mark.parametrize("query", ["見せ牌", "revealed", "revealing", "wrongly revealing tiles", "misehai"])
def test_revealed_tiles_find_azrm_2_4(library, query):
    assert rank(library.search(query), "rule", "azrm", "2.4") < 3, keys(library.search(query), 5)


@pytest.mark.parametrize(("phrase", "term_id"), [
    ("head bump", "atamahane"), ("headbump", "atamahane"), ("exhaustive draw", "ryuukyoku"),
    ("terminal draw", "ryuukyoku"), ("swap calling", "kui-kae"), ("continuance counter", "honba"),
    ("too many tiles", "taahai"), ("too few tiles", "shouhai"), ("red five", "red-five"),
])
def test_a_colloquial_phrase_finds_the_japanese_term(library, phrase, term_id):
    assert keys(library.search(phrase), 1) == [(TERM, None, term_id)], keys(library.search(phrase), 5)


def test_japanese_subtitle_finds_its_section(library):
    for s in library.rulesets["azrm"].sections:
        if s.title_ja:
            assert ("rule", "azrm", s.ref) in keys(library.search(s.title_ja), 5), (s.ref, s.title_ja)


def test_english_title_finds_its_section(library):
    for rid in ("azrm", "ema-rcr", "rakkii-nomi-2026"):
        for s in library.rulesets[rid].sections:
            hits = library.search(s.title, ruleset=rid)
            assert ("rule", rid, s.ref) in keys(hits, 3), (rid, s.ref, s.title, keys(hits, 5))


def test_foul_finds_its_penalty_row(library):
    for rid in ("azrm", "ema-rcr", "wrc-2025"):
        for r in library.rulesets[rid].penalties:
            hits = library.search(r.foul, ruleset=rid)
            assert ("penalty", rid, r.id) in keys(hits, 5), (rid, r.foul, keys(hits, 5))


def test_term_and_its_japanese_find_the_term(library):
    for t in library.glossary:
        assert (TERM, None, t.id) in keys(library.search(t.term), 3), t.term
        if t.japanese:
            for ja in t.japanese.split("/"):
                assert (TERM, None, t.id) in keys(library.search(ja), 5), (t.id, ja)


# --- section numbers -------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "ruleset", "ref"), [
    ("2.4", "azrm", "2.4"), ("§2.4", "azrm", "2.4"), ("§ 2.4", "azrm", "2.4"),
    ("3.4.6", "ema-rcr", "3.4.6"), ("§3.4.6", "ema-rcr", "3.4.6"), ("11.6", "azrm", "11.6"),
    ("3.3.2", "ema-rcr", "3.3.2"),
])
def test_a_section_number_finds_that_section_first(library, query, ruleset, ref):
    hits = library.search(query)
    assert hits and (hits[0].kind, hits[0].ref) == ("rule", ref)
    assert ("rule", ruleset, ref) in keys(hits, 2)  # 2.4 is also a section of rakkii-nomi-2026
    assert keys(library.search(query, ruleset=ruleset), 1) == [("rule", ruleset, ref)]


# --- ranking ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "titled", "mentions"), [
    # AZRM §9.4 is titled "Cheating"; §8.1 only says misreporting "can be seen as cheating"
    ("cheating", ("azrm", "9.4"), ("azrm", "8.1")),
    # §9.1 "Obstruction"; §9.4 only lists "Examples of obstruction with a high suspicion of cheating"
    ("obstruction", ("azrm", "9.1"), ("azrm", "9.4")),
    # §6.2 "Noten Riichi"; §6.5 only says "a Chombo for noten Riichi (§6.2)"
    ("noten riichi", ("azrm", "6.2"), ("azrm", "6.5")),
    # §4.1 "Empty Call and changing a call"; §6.1 only says "treated as an Empty Call"
    ("empty call", ("azrm", "4.1"), ("azrm", "6.1")),
    # EMA §3.4.7 "Dead hand"; §3.4.6 only mentions a dead hand in its list of offences
    ("dead hand", ("ema-rcr", "3.4.7"), ("ema-rcr", "3.4.6")),
    # EMA §3.3.7 "Concealed kong"; §3.4.6 lists "making an invalid concealed kong after declaring riichi"
    ("concealed kong", ("ema-rcr", "3.3.7"), ("ema-rcr", "3.4.6")),
    # Rakkii Nomi §2.1 "Red fives/akadora"; §1 only lists "Red fives/akadora" among the differences
    ("red fives", ("rakkii-nomi-2026", "2.1"), ("rakkii-nomi-2026", "1")),
])
def test_a_title_match_beats_a_mention(library, query, titled, mentions):
    hits = library.search(query, limit=100)
    t, m = rank(hits, "rule", *titled), rank(hits, "rule", *mentions)
    assert m < len(hits), f"{mentions} does not match {query!r}: not a real pair"
    assert t < m, keys(hits, 8)


def test_a_term_beats_sections_that_mention_it(library):
    # "Furiten status" is listed in AZRM §9.3; the glossary term Furiten must come first
    hits = library.search("furiten")
    assert keys(hits, 1) == [(TERM, None, "furiten")]
    assert rank(hits, "rule", "azrm", "9.3") > 0


def test_scores_are_in_order(library):
    for q in ("chombo", "riichi", "dead hand", "見せ牌", "tile"):
        scores = [h.score for h in library.search(q, limit=50)]
        assert scores == sorted(scores, reverse=True)


# --- ruleset filter --------------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_ruleset_narrows_rules_and_penalties_but_keeps_terms(library, ruleset):
    unfiltered = library.search("revealed", limit=200)
    hits = library.search("revealed", ruleset=ruleset, limit=200)
    assert hits
    assert {h.ruleset for h in hits if h.kind != TERM} <= {ruleset}
    assert {h.ruleset for h in hits if h.kind == TERM} == {None}
    assert [h.ref for h in hits if h.kind == TERM] == [h.ref for h in unfiltered if h.kind == TERM]
    # every ruleset has a penalty row for wrongly revealing tiles
    assert ("penalty", ruleset, "revealed-tiles") in keys(hits)


def test_unfiltered_search_spans_rulesets(library):
    hits = library.search("revealed", limit=200)
    assert {h.ruleset for h in hits} >= {None, "azrm", "ema-rcr", "wrc-2025"}


def test_one_result_per_foul_and_ruleset(library):
    for q in ("revealed", "empty call", "wrongly drawing tiles", "swap-calling", "late"):
        k = keys(library.search(q, limit=500))
        assert len(k) == len(set(k)), q


def test_ruleset_without_rule_text_has_only_penalties_and_terms(library):
    hits = library.search("chonbo", ruleset="wrc-2025", limit=100)
    assert {h.kind for h in hits} <= {"penalty", TERM}
    assert any(h.kind == "penalty" for h in hits)


def test_limit(library):
    assert len(library.search("tile", limit=1)) == 1
    assert len(library.search("tile", limit=3)) == 3
    many = library.search("tile", limit=10_000)
    assert len(many) > 20
    assert keys(library.search("tile", limit=5)) == keys(many, 5)
    assert len(library.search("tile")) == 20  # the default


# --- bad arguments ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("kwargs", "argument"), [
    ({"ruleset": "wrc"}, "ruleset"), ({"ruleset": "AZRM"}, "ruleset"), ({"ruleset": ""}, "ruleset"),
    ({"ruleset": 5}, "ruleset"), ({"limit": 0}, "limit"), ({"limit": -1}, "limit"),
    ({"limit": "5"}, "limit"), ({"limit": 2.5}, "limit"), ({"limit": None}, "limit"),
])
def test_bad_arguments_raise_valueerror_naming_the_argument(library, kwargs, argument):
    with pytest.raises(ValueError) as info:
        library.search("chombo", **kwargs)
    msg = str(info.value)
    assert argument in msg
    assert repr(next(iter(kwargs.values()))) in msg  # the value received


def test_unknown_ruleset_message_lists_the_allowed_ones(library):
    with pytest.raises(ValueError) as info:
        library.search("chombo", ruleset="wrc")
    for rid in RULESETS:
        assert rid in str(info.value)


@pytest.mark.parametrize("query", [None, 5, b"chombo", ["chombo"]])
def test_a_query_that_is_not_text_raises_valueerror(library, query):
    with pytest.raises(ValueError, match="query"):
        library.search(query)


@pytest.mark.parametrize("kwargs", [{"ruleset": ["azrm"]}, {"limit": True}], ids=["ruleset-list", "limit-bool"])
def test_bad_argument_types_raise_valueerror(library, kwargs):
    with pytest.raises(ValueError):
        library.search("chombo", **kwargs)


@pytest.mark.parametrize("query", ["", " ", "\t\n", "　"])
def test_an_empty_query_gives_nothing(library, query):
    assert library.search(query) == []


# --- the shape of a result (API.md) ----------------------------------------------------------------

QUERIES = ["chombo", "見せ牌", "revealed", "riichi", "kuikae", "2.4", "dead hand", "furiten", "late", "uma",
           "phone", "ryuukyoku", "§3.4.6", "swap-calling", "nagashi mangan"]


@pytest.mark.parametrize("query", QUERIES)
def test_hits_carry_kind_ruleset_ref_title(library, query):
    hits = library.search(query, limit=50)
    assert hits
    terms = {t.id: t for t in library.glossary}
    for h in hits:
        assert isinstance(h, handbook.Hit)
        assert h.kind in ("rule", "penalty", "term", "yaku")
        assert isinstance(h.title, str) and h.title
        if h.kind == "yaku":  # after the rulings (issue 45): a yaku the query names
            assert h.ref in {y.id for y in handbook.yaku_list("wrc-2025") + handbook.yaku_list("rakkii-nomi-2026")}
            assert h.route.startswith(f"/tools/yaku/{h.ref}")
        elif h.kind == "term":
            assert h.ruleset is None
            assert h.title == terms[h.ref].term
        elif h.kind == "rule":
            rs = library.rulesets[h.ruleset]
            assert h.title == rs.section(h.ref).title
        else:
            rows = library.rulesets[h.ruleset].rows(h.ref)
            assert rows, (h.ruleset, h.ref)
            assert h.title in {r.foul for r in rows}


def test_hits_are_immutable(library):
    hit = library.search("chombo")[0]
    with pytest.raises(AttributeError):
        hit.ref = "x"  # type: ignore[misc]


def test_search_is_repeatable(library):
    assert library.search("riichi") == library.search("riichi")


def test_first_rule_for_misehai_is_azrm_2_4(library):
    first_rule = next(h for h in library.search("見せ牌") if h.kind == "rule")
    assert (first_rule.ruleset, first_rule.ref) == ("azrm", "2.4")


def test_package_docstring_example_holds():
    import doctest

    result = doctest.testmod(handbook, verbose=False, report=False)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize(("query", "ruleset", "ref"), [
    ("when is a player suspended", "azrm", "1.4"),           # suspended / Suspension
    ("how many strikes before you get suspended", "azrm", "1.4"),
])
def test_a_verb_finds_the_section_that_uses_its_noun(library, query, ruleset, ref):
    first = library.search(query, ruleset=ruleset)[0]
    assert (first.kind, first.ref) == ("rule", ref), [(h.kind, h.ref) for h in library.search(query, ruleset=ruleset)[:3]]


@pytest.mark.parametrize("query", ["she put her backpack on the table next to her tiles",
                                   "a coffee cup on the table hiding his tiles"])
def test_what_a_player_brings_to_the_table_is_a_foreign_object(library, query):
    for ruleset in ("wrc-2025", "azrm"):
        assert "penalty:foreign-objects" in [f"{h.kind}:{h.ref}" for h in library.search(query, ruleset=ruleset)[:3]]


def test_a_stem_has_one_synonym_group():
    from handbook.core.search.folding import SYNONYMS, stem_of

    group_of: dict[str, tuple[str, ...]] = {}
    twice = set()
    for group in SYNONYMS:
        for word in group:
            stem = stem_of(word)
            if group_of.setdefault(stem, group) is not group:
                twice.add(word)
    # earphone and headphone are both a device and an earbud: known, the later group wins
    assert twice <= {"earphone", "headphone"}, sorted(twice)


@pytest.mark.parametrize(("joined", "apart"), [("riichistick", "riichi stick"), ("tenpaideclaration", "tenpai declaration")])
def test_two_words_written_as_one_find_what_the_two_find(library, joined, apart):
    first = library.search(joined, ruleset="azrm")[:3]
    assert [(h.kind, h.ref) for h in first] == [(h.kind, h.ref) for h in library.search(apart, ruleset="azrm")[:3]]


def test_a_typo_is_not_split_into_two_short_words(library):
    index = library.warm()
    assert index.compound_parts("chekking") == ("chekking",)      # not "chek king"
    assert index.compound_parts("smartwatch") == ("smartwatch",)  # a word of the index stays whole
    assert index.compound_parts("riichistick") == ("riichi", "stick")


@pytest.mark.parametrize("query", ["ノーテンリーチ 流局", "ノーテンリーチ 流局 親", "ノーテン立直 流局",
                                   "ノーテンリーチ 流局 チョンボ"])
def test_a_japanese_name_typed_beside_another_word_keeps_its_weight(library, query):
    """A foul's Japanese name typed between spaces is as rare as the documents holding it (13 for
    ノーテンリーチ), not as common as those sharing a character pair with it (153), and named
    exactly, as it would be typed alone: the other words do not bury it."""
    found = [h.ref for h in library.search(query, ruleset="wrc-2025") if h.kind == "penalty"][:3]
    assert "noten-riichi" in found, found
