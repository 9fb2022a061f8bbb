"""Search in the judge's own words, under the tournament's ruleset.

* the evaluation sets (``tests/eval``, see ``tools/evaldata.py``): each has a datasheet and its splits,
  every answer exists, and recall@3 of the filtered search per ruleset over the written incidents
  (training data of the learned model, so a regression floor, not a result) must not fall below
  the floor;
* every name of every foul (``content/fouls.toml``: English, Japanese, romaji) finds that foul's
  row in every ruleset whose table has it;
* Japanese spelling variants, irregular English verbs, filler words, WRC references, and what
  other rulesets say where the chosen one has nothing.
"""

from __future__ import annotations

import pytest

from tests.support.evalset import load_cases, recall_at_3, sets, table
from tools import evaldata
from handbook.core.search import fold, kana_fold, lemma, stems

RULESETS = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026")

# recall@3 over the written incidents (train and dev) when the floors were set (94.1-94.6 % before the
# learned model, 98-99 % with it); a change to the search or the content that loses rulings fails here
FLOORS = {"azrm": 0.94, "ema-rcr": 0.94, "wrc-2025": 0.94, "wrc-2025-lower": 0.94, "rakkii-nomi-2026": 0.94}


def keys(hits, n=None):
    return [(h.kind, h.ruleset, h.ref) for h in hits[:n]]


def penalty_refs(hits, n=3):
    return [h.ref for h in hits if h.kind == "penalty"][:n]


@pytest.fixture(scope="module")
def recall(library):
    return recall_at_3(library, load_cases(name="written-incidents"))


def test_the_evaluation_sets_are_large_and_cover_every_ruleset_and_language():
    cases = load_cases()
    assert len(cases) >= 150
    assert {"en", "ja", "romaji"} <= {c.lang for c in cases}
    assert {c.split for c in cases} == set(evaldata.SPLITS)
    assert set().union(*(c.expect for c in cases)) == set(RULESETS)


def test_every_set_has_a_datasheet_and_a_test_or_dev_split_apart_from_train():
    """A set without a datasheet, or with only a train split and no set measuring anything, fails."""
    found = sets()
    assert found, "the manifest lists no set"
    assert any("test" in s.splits for s in found)
    listed = {s.name for s in found}
    folders = {p.name for p in evaldata.EVAL_DIR.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    assert folders == listed, f"folders not in the manifest or missing: {folders ^ listed}"
    for s in found:
        sheet = (s.path / "datasheet.md").read_text(encoding="utf-8")
        assert len(sheet) > 400 and "datasheet" in sheet.lower(), s.name
        ids = [c.id for c in load_cases(name=s.name)]
        assert len(ids) == len(set(ids)), f"{s.name}: a query in two splits"


def test_a_set_without_a_datasheet_is_refused(tmp_path, monkeypatch):
    (tmp_path / "x" / "qrels").mkdir(parents=True)
    (tmp_path / "x" / "qrels" / "test.tsv").write_text("query-id\truleset\tanswer\tscore\n")
    (tmp_path / "manifest.toml").write_text('[[set]]\nname = "x"\nkind = "written"\nsplits = ["test"]\n')
    monkeypatch.setattr(evaldata, "EVAL_DIR", tmp_path)
    monkeypatch.setattr(evaldata, "MANIFEST", tmp_path / "manifest.toml")
    with pytest.raises(ValueError, match=r"\[x\]: no datasheet"):
        evaldata.sets()


def test_the_evaluation_answers_exist(library):
    for case in load_cases():
        for rs, want in case.expect.items():
            ruleset = library.rulesets[rs]
            for answer in want:
                kind, _, ref = answer.partition(":")
                assert (ruleset.rows(ref) if kind == "penalty" else ruleset.has_section(ref)), (case.query, rs, answer)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_recall_at_3_does_not_fall_below_the_floor(recall, ruleset):
    per, misses = recall
    got = per[ruleset].rate
    missed = [f"{c.query!r} -> {first}" for c, rs, first in misses if rs == ruleset][:15]
    assert got >= FLOORS[ruleset], f"recall@3 {got:.1%}\n{table(per)}\n" + "\n".join(missed)


def test_every_name_of_every_foul_finds_its_rows_in_every_ruleset(library):
    """No query that names a foul, in English, Japanese or romaji, comes back without it."""
    missing = []
    for foul in library.fouls.values():
        for name in (foul.name, *foul.japanese, *foul.romaji):
            for rs in RULESETS:
                if library.rulesets[rs].rows(foul.id):
                    if foul.id not in penalty_refs(library.search(name, ruleset=rs)):
                        missing.append((foul.id, name, rs))
    assert not missing, missing[:20]


def test_every_penalty_row_has_its_foul(library):
    for rs in library.rulesets.values():
        for row in rs.penalties:
            assert row.id in library.fouls, (rs.id, row.id)


@pytest.mark.parametrize(("a", "b"), [
    ("食い替え", "喰い替え"), ("先ツモ", "先自摸"), ("先ヅモ", "先自摸"), ("ショーハイ", "少牌"),
    ("ショウハイ", "少牌"), ("ターハイ", "多牌"), ("タアハイ", "多牌"), ("チョンボ", "チヨンボ"),
    ("アガリ放棄", "和了放棄"),
])
def test_japanese_spellings_judges_type_meet_the_sources(library, a, b):
    for rs in ("wrc-2025-lower", "azrm"):
        assert set(keys(library.search(a, ruleset=rs), 5)) & set(keys(library.search(b, ruleset=rs), 3))


@pytest.mark.parametrize(("a", "b"), [
    ("チョンボ", "チヨンボ"), ("ショーハイ", "しょうはい"), ("ターハイ", "たあはい"), ("先ヅモ", "先つも"),
    ("喰い替え", "食い替え"), ("和了", "アガリ"), ("ﾁｮﾝﾎﾞ", "ちょんぼ"),
])
def test_kana_fold_meets_spellings(a, b):
    assert kana_fold(fold(a)) == kana_fold(fold(b))


@pytest.mark.parametrize(("query", "foul"), [
    ("誤ロン", "empty-call-win"), ("空ポン", "empty-call-group"), ("遅刻", "late"), ("携帯", "phone-ringing"),
    ("多牌", "wrong-tile-count"), ("kuikae", "swap-calling"), ("食い替え", "swap-calling"),
    ("見せ牌", "revealed-tiles"), ("sakizumo", "drawing-too-fast"),
])
def test_japanese_and_romaji_reach_the_wrc_based_tables(library, query, foul):
    for rs in ("wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"):
        assert foul in penalty_refs(library.search(query, ruleset=rs)), (rs, keys(library.search(query, ruleset=rs), 5))


def test_irregular_verbs_meet_their_dictionary_form(library):
    assert (lemma("took"), lemma("drew"), lemma("threw"), lemma("fell")) == ("take", "draw", "throw", "fall")
    # "drew" is nowhere in the content: only its lemma reaches the rows about drawing
    drew = penalty_refs(library.search("drew", ruleset="wrc-2025"), 10)
    assert drew and set(drew) <= set(penalty_refs(library.search("draw", ruleset="wrc-2025"), 20))


def test_filler_and_unknown_words_do_not_empty_the_list(library):
    """Every word need not match: a described incident still finds its row, in every ruleset."""
    base = penalty_refs(library.search("phone ringing", ruleset="wrc-2025-lower"), 1)
    for query in ("then his phone was ringing but same as before", "phone ringing zzzqx"):
        for rs in RULESETS:
            hits = library.search(query, ruleset=rs)
            assert "phone-ringing" in penalty_refs(hits), (query, rs, keys(hits, 5))
    assert base == ["phone-ringing"]


def test_the_filter_decides_per_ruleset(library):
    """A query whose words are matched only together in one ruleset still finds rows in another."""
    for rs in RULESETS:
        assert penalty_refs(library.search("wrongly revealing tiles by accident during the deal", ruleset=rs))


@pytest.mark.parametrize(("query", "ruleset", "foul"), [
    ("12.3.4 (2)", "wrc-2025", "swap-calling"), ("§12.3.4 (2)", "wrc-2025-lower", "swap-calling"),
    ("12.3.1 (4)", "rakkii-nomi-2026", "revealed-tiles"), ("12.3.6 (4)", "wrc-2025", "premature-tenpai-declaration"),
])
def test_wrc_references_as_printed(library, query, ruleset, foul):
    hits = library.search(query, ruleset=ruleset)
    assert penalty_refs(hits, 1) == [foul], keys(hits, 5)


def test_a_wrc_section_number_lists_its_rows(library):
    rows = {r.id for r in library.rulesets["wrc-2025"].penalties if r.ref and r.ref.startswith("12.3.1 ")}
    assert set(penalty_refs(library.search("12.3.1", ruleset="wrc-2025"), 50)) == rows


def test_what_other_rulesets_say_where_the_chosen_one_has_nothing(library):
    assert not library.rulesets["azrm"].rows("late")
    for query in ("late", "遅刻", "chikoku", "player arrived 5 minutes late"):
        other = library.elsewhere(query, "azrm")
        assert other and all(h.kind == "penalty" and h.ruleset != "azrm" and h.ref == "late" for h in other), query
        assert {"ema-rcr", "wrc-2025"} <= {h.ruleset for h in other}
    # a ruleset that has the foul gets no such list
    assert library.elsewhere("late", "ema-rcr") == []
    assert library.elsewhere("kuikae", "azrm") == []


def test_elsewhere_refuses_an_unknown_ruleset(library):
    with pytest.raises(ValueError, match="ruleset"):
        library.elsewhere("late", "wrc-2099")


@pytest.mark.parametrize(("query", "ruleset", "expected"), [
    ("2016", None, "ema-rcr"), ("edition", "azrm", "azrm"), ("WRC 2015", None, "wrc-2025"),
    ("WRC 2015", "rakkii-nomi-2026", "rakkii-nomi-2026"),
])
def test_editions_are_found_apart_from_the_rulings(library, query, ruleset, expected):
    """The Editions pages are reached from the search box, and never pose as a rule section."""
    assert library.search_editions(query, ruleset=ruleset)[0] == expected
    for h in library.search(query, ruleset=ruleset, limit=100):
        if h.kind == "rule":
            assert library.rulesets[h.ruleset].has_section(h.ref)
    assert library.search_editions("kuikae") == []


def test_a_fouls_shown_japanese_name_is_a_name_not_a_description(library):
    """The first Japanese name is what rows show: a short name (見せ牌, 多牌), not a sentence."""
    for foul in library.fouls.values():
        assert 1 <= len(foul.japanese[0]) <= 12, (foul.id, foul.japanese[0])


def test_the_japanese_subtitle_of_a_cited_section_reaches_every_table(library):
    """AZRM's own Japanese subtitles (自摸の対象牌の間違い for §2.3) name the foul of the rows that
    cite the section, so they find that foul's rows in the WRC tables too, which have no Japanese."""
    azrm = library.rulesets["azrm"]
    checked = 0
    for row in azrm.penalties:
        section = azrm.section(row.ref) if row.ref and azrm.has_section(row.ref) else None
        if not (section and section.title_ja) or not library.rulesets["wrc-2025-lower"].rows(row.id):
            continue
        if {r.id for r in azrm.rows_citing(section.ref)} != {row.id}:
            continue  # a section naming several fouls names none of them alone
        hits = library.search(section.title_ja, ruleset="wrc-2025-lower")
        assert row.id in penalty_refs(hits), (section.ref, section.title_ja, keys(hits, 5))
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("query, ruleset, ref", [
    ("EMA 3.3.2", None, "3.3.2"), ("ema-rcr §3.4.7", None, "3.4.7"), ("AZRM section 2.4", None, "2.4")])
def test_a_reference_after_the_rulesets_name_goes_to_that_rulesets_section(library, query, ruleset, ref):
    named = "ema-rcr" if "ema" in query.lower() else "azrm"
    assert keys(library.search(query, ruleset=ruleset), 1) == [("rule", named, ref)]


def test_words_read_as_one_romaji_name_fall_back_to_the_words_where_the_ruleset_lacks_the_name(library):
    """"agari houki ron" is one foul's name in some tables; EMA has no such row, but its dead hand
    section answers the words."""
    assert ("rule", "ema-rcr", "3.4.7") in keys(library.search("agari houki ron", ruleset="ema-rcr"), 4)


@pytest.mark.parametrize("query, ruleset, ref", [
    # a section's search words (the handbook's) reach it; EMA's sections have no Japanese of their own
    ("鳴きの優先順位", "ema-rcr", "3.3.1"), ("choukou", "ema-rcr", "3.3.1"), ("暗槓", "ema-rcr", "3.3.7"),
    ("和了放棄", "ema-rcr", "3.4.7"), ("uma", "ema-rcr", "3.6.1"), ("出場停止", "azrm", "1.4")])
def test_a_sections_search_words_reach_it(library, query, ruleset, ref):
    assert ("rule", ruleset, ref) in keys([h for h in library.search(query, ruleset=ruleset) if h.kind in ("rule", "penalty")], 3)


def test_search_words_are_never_shown(library):
    """The handbook's search words stay out of what a hit shows (title and subtitle are the source's)."""
    hit = next(h for h in library.search("鳴きの優先順位", ruleset="ema-rcr") if h.kind == "rule")
    section = library.rulesets["ema-rcr"].section(hit.ref)
    assert (hit.title, hit.subtitle) == (section.title, section.title_ja)
    assert "優先" not in section.text


def test_ways_of_saying_not_done_meet_in_names():
    """"never", "didn't", "forgot to" and "not" are one word for the name bonuses, so "said riichi
    but didn't turn the tile" meets "said riichi then did not …" (an empty riichi declaration)."""
    assert stems("never turned")[0] == stems("didn't turn")[0] == stems("forgot to turn")[0] == stems("not turned")[0]
    assert stems("without the deposit")[0] != stems("not")[0]


def test_said_riichi_but_did_not_follow_through_is_an_empty_riichi(library):
    query = "said riichi but didn't turn the tile or put a stick down"
    assert "empty-call-riichi" in penalty_refs(library.search(query, ruleset="azrm"), 3)


def test_how_many_asks_rather_than_names_too_many_tiles(library):
    assert "revealed-tiles" in penalty_refs(
        library.search("how many revealed tiles before it's a chombo", ruleset="wrc-2025"), 3)


def test_a_kanji_run_with_a_suffix_matches_by_its_known_part(library):
    """和了放棄中 (during a dead hand) is 和了放棄 with 中: the part some field holds counts."""
    hits = [h for h in library.search("和了放棄中にポンした", ruleset="azrm") if h.kind in ("rule", "penalty")]
    assert hits[0].ref == "calling-with-dead-hand", keys(hits, 5)


def test_the_first_three_rulings_show_a_close_section_beside_the_rows(library):
    """With a ruleset chosen, a section scoring close to the third row takes its place, so the judge
    sees the rule text beside the penalty (AZRM §4.1 for a changed call)."""
    hits = [h for h in library.search("said chii then changed it to pon", ruleset="azrm") if h.kind in ("rule", "penalty")]
    assert {h.kind for h in hits[:3]} == {"penalty", "rule"}, keys(hits, 5)
    assert hits[0].ref == "changing-call"


@pytest.mark.parametrize("ruleset", ["ema-rcr", "azrm", "wrc-2025", "rakkii-nomi-2026"])
def test_a_foul_the_ruleset_lacks_reaches_what_covers_it(library, ruleset):
    # fouls.toml `covered_by`: a table without a foul's rows names where it deals with it (EMA's
    # "Wrongly revealing or picking tiles" rows cover a wrong draw; the WRC obstruction row covers
    # slow play); each foul's own name, typed with that ruleset chosen, finds one of them among the
    # first three rulings
    checked = 0
    for foul in library.fouls.values():
        targets = {t for rid, t in foul.covered_by if rid == ruleset}
        if not targets:
            continue
        got = {f"{h.kind}:{h.ref}" for h in [h for h in library.search(foul.name, ruleset=ruleset)
                                               if h.kind in ("rule", "penalty") and h.ruleset == ruleset][:3]}
        assert targets & got, (foul.id, foul.name, targets, got)
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize("typed, base", [
    ("tsumotta", "tsumo"), ("agatta", "agari"), ("naita", "naki"), ("sarashita", "sarashi"),
    ("kitta", "kiri"), ("tsumorimashita", "tsumori"), ("yonda", "yomi"),
])
def test_a_romaji_verb_form_gives_its_noun_form(typed, base):
    from handbook.core.search import romaji_bases

    assert base in romaji_bases(typed)


def test_an_english_word_gets_no_romaji_base():
    from handbook.core.search import romaji_bases

    assert romaji_bases("riichi") == () and romaji_bases("tile") == ()


def test_a_sentence_of_romaji_verbs_finds_the_foul(library):
    # "I drew after the win" typed as romaji verbs: agatta (agaru) and tsumotta (tsumoru)
    hits = library.search("agatta ato de tsumotta", ruleset="wrc-2025")
    assert hits and "playing-after-end" in penalty_refs(hits, 3), keys(hits, 5)
