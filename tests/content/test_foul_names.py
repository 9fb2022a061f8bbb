"""Every Japanese, kana and romaji name of a foul in content/fouls.toml is a word for THAT foul.

The names are the handbook's (the sources name fouls in English only) and search ranks a table's
rows by them, so a name on the wrong foul sends a judge to the wrong row: 誤ツモ (a false tsumo, a
chombo) under a wrong draw ranked "Not penalized" above the chombo row.
"""

from __future__ import annotations

import pytest

#: (foul id, name, where it belongs or None where it names no foul, why)
MISPLACED = [
    ("wrong-draw", "誤ツモ", "empty-call-win", "a false tsumo (an invalid win), not a wrong draw"),
    ("wrong-draw", "誤自摸", "empty-call-win", "the kanji of 誤ツモ"),
    ("wrong-draw", "gotsumo", "empty-call-win", "the romaji of 誤ツモ"),
    ("wrong-draw", "ごつも", "empty-call-win", "the reading of 誤ツモ"),
    ("passing-information", "通し", "cheating", "collusion signals; AZRM §9.3's subtitle is 情報伝達"),
    ("passing-information", "tooshi", "cheating", "the romaji of 通し"),
    ("passing-information", "とおし", "cheating", "the reading of 通し"),
    ("cheating", "差し込み", None, "dealing in on purpose is a legal tactic"),
    ("cheating", "sashikomi", None, "the romaji of 差し込み"),
    ("empty-call-win", "冲和", None, "usually a win on a discard"),
    ("empty-call-win", "打牌後のツモ宣言", "tsumo-after-discard", "its own foul"),
    ("empty-call-win", "捨てた後にツモ", "tsumo-after-discard", "its own foul"),
    ("invalid-group", "暗槓の牌が揃っていない", "invalid-kan", "a closed kan whose tiles differ is an invalid kan"),
    ("confusing-call", "ポンと言わずに取った", "silent-call", "taking a tile without a word is a silent call"),
    ("confusing-call", "アガリ宣言があいまい", "confusing-win-declaration", "a win declaration, its own foul"),
    ("riichi-open-hand", "open riichi", None, "オープンリーチ is a riichi that shows the hand"),
    ("noten-riichi", "リーチ後にアガリ放棄", "dead-hand-foul-during-riichi", "its own foul"),
    ("wrong-tile-count", "鳴き牌の取り忘れ", "not-taking-called-tile", "its own foul"),
    ("revealed-tiles", "倒牌", None, "laying the hand down at a win or a draw"),
    ("revealed-tiles", "山を崩した", "destroying-wall", "its own foul"),
    ("leaving-table", "途中退席", "forfeiting-hanchan", "leaving for good"),
    ("obstruction", "長考", "playing-too-slow", "slow play, its own foul"),
    ("silent-tenpai-declaration", "muhassei", "silent-call", "bare 無発声 is a silent call"),
]

#: names two fouls may share, because the word covers both incidents
SHARED = {
    "遅延行為": "delaying the game: slow play and obstruction",
    "chien koui": "the romaji of 遅延行為",
    "口三味線": "table talk to mislead: obstruction and passing information",
    "kuchijamisen": "the romaji of 口三味線",
    "スマホ": "a phone at the table and using it", "スマートウォッチ": "the same", "イヤホン": "the same",
    "keitai": "a phone ringing and using it", "sumaho": "the same",
    "tsumohai": "the drawn tile: mixed in at tsumo, touching the hand",
    "空カン": "an empty kan, called on a discard or declared closed on one's own turn",
    "からかん": "the reading of 空カン", "karakan": "the romaji of 空カン",
    # players' words for a call that cannot be made: called and cancelled (an empty call) or
    # shown (an invalid group); tests/eval/real-players/vocabulary-ja.md
    "誤ポン": "a pon called by mistake: empty call or invalid group", "誤チー": "the same for a chii",
    "空ポン": "a pon with nothing to make it: empty call, or invalid group once shown", "空チー": "the same for a chii",
    "誤カン": "a kan called by mistake: invalid kan or empty kan",
}


def _names(foul):
    return {*foul.japanese, *foul.reading, *foul.romaji, *(a.casefold() for a in foul.aliases)}


@pytest.mark.parametrize("foul_id, name, home, why", MISPLACED, ids=[f"{m[0]}:{m[1]}" for m in MISPLACED])
def test_a_name_sits_on_its_own_foul(library, foul_id, name, home, why):
    fouls = library.fouls
    assert name not in _names(fouls[foul_id]), f"{name!r} is on {foul_id}: {why}"
    if home is not None:
        assert name in _names(fouls[home]), f"{name!r} belongs to {home} ({why})"


def test_no_name_is_on_two_fouls_unless_the_word_covers_both(library):
    owners: dict[str, set[str]] = {}
    for foul in library.fouls.values():
        for name in {*foul.japanese, *foul.reading, *foul.romaji}:
            owners.setdefault(name, set()).add(foul.id)
    shared = {n: ids for n, ids in owners.items() if len(ids) > 1}
    unexplained = {n: sorted(ids) for n, ids in shared.items() if n not in SHARED}
    assert not unexplained, f"names on two fouls (a word for one of them only?): {unexplained}"
    assert set(SHARED) <= set(shared), f"no longer shared: {sorted(set(SHARED) - set(shared))}"


def test_the_shown_name_of_passing_information_is_the_azrm_subtitle(library):
    # AZRM §9.3 Passing information / 情報伝達
    assert library.rulesets["azrm"].section("9.3").title_ja == library.fouls["passing-information"].japanese[0]


#: every covered_by claim, reviewed against the target's text: (foul, ruleset, target) -> why
COVERED_BY_REVIEWED = {
    ("deal-error", "ema-rcr", "penalty:revealed-tiles"): "its row 'During dealing, if it's a problem'",
    ("east-discards-early", "ema-rcr", "rule:3.3"): "East should wait until all have sorted their tiles",
    ("wrong-draw", "ema-rcr", "penalty:revealed-tiles"): "'Wrongly revealing or picking tiles'",
    ("wrong-draw", "ema-rcr", "rule:3.4.8"): "tiles exposed from the wall are placed back",
    ("playing-out-of-turn", "ema-rcr", "rule:3.3"): "players take their turns in order",
    ("playing-out-of-turn", "wrc-2025", "penalty:wrong-draw"): "'Wrongly drawing tiles - out of turn'",
    ("playing-out-of-turn", "wrc-2025-lower", "penalty:wrong-draw"): "the same table",
    ("playing-out-of-turn", "rakkii-nomi-2026", "penalty:wrong-draw"): "the same table",
    ("drawing-too-fast", "ema-rcr", "rule:3.3.1"): "drawing too fast: obstruction, the call stays valid",
    ("drawing-too-fast", "ema-rcr", "penalty:obstruction"): "3.3.1 names obstruction",
    ("calling-too-fast", "ema-rcr", "rule:3.3.1"): "precedence and timing of claims",
    ("playing-too-slow", "ema-rcr", "rule:3.3.1"): "repeatedly taking an overly long time: obstruction",
    ("playing-too-slow", "ema-rcr", "penalty:obstruction"): "3.3.1 names obstruction",
    ("playing-too-slow", "wrc-2025", "penalty:obstruction"): "the obstruction row",
    ("playing-too-slow", "wrc-2025-lower", "penalty:obstruction"): "the same table",
    ("playing-too-slow", "rakkii-nomi-2026", "penalty:obstruction"): "the same table",
    ("silent-call", "ema-rcr", "rule:3.3.3"): "a chow is claimed by first clearly calling",
    ("silent-call", "ema-rcr", "rule:3.3.4"): "a pung likewise",
    ("silent-call", "ema-rcr", "rule:3.3.5"): "a kong likewise",
    ("win-with-dead-hand", "ema-rcr", "rule:3.4.7"): "a dead hand may not declare a win",
    ("win-with-dead-hand", "ema-rcr", "rule:3.4.6"): "invalidly declaring a win is a chombo",
    ("invalid-kan", "ema-rcr", "penalty:invalid-group"): "an invalid kong is an invalid group",
    ("invalid-kan", "ema-rcr", "rule:3.4.7"): "an invalid kong, pung or chow gives a dead hand",
    ("late-reveal", "ema-rcr", "rule:3.3.8"): "called tiles are exposed immediately",
    ("called-tile-placement", "ema-rcr", "rule:3.3.8"): "claimed tiles are rotated to show the discarder",
    ("electronic-device", "wrc-2025", "penalty:foreign-objects"): "phones and watches are foreign objects",
    ("electronic-device", "wrc-2025-lower", "penalty:foreign-objects"): "the same table",
    ("electronic-device", "rakkii-nomi-2026", "penalty:foreign-objects"): "the same table",
    ("not-taking-called-tile", "azrm", "penalty:wrong-tile-count"): "the hand is then a tile short",
    ("not-taking-called-tile", "azrm", "rule:2.2"): "Shouhai",
    ("fault-due-to-other", "azrm", "rule:1.2"): "no one should benefit from committing a foul",
    ("destroying-wall", "ema-rcr", "penalty:revealed-tiles"): "'If the game cannot fairly continue'",
    ("destroying-wall", "ema-rcr", "rule:3.4.8"): "tiles exposed from the wall",
    ("destroying-wall", "azrm", "penalty:revealed-tiles"): "the penalty may be increased if the wall is affected",
    ("destroying-wall", "azrm", "rule:2.4"): "the same",
    ("tsumo-after-discard", "ema-rcr", "penalty:empty-call-win"): "an invalid win declaration",
    ("tsumo-after-discard", "ema-rcr", "rule:3.4.6"): "invalidly declaring a win",
    ("tsumo-after-discard", "azrm", "penalty:empty-call-win"): "an empty call for tsumo",
    ("tsumo-after-discard", "azrm", "rule:4.1"): "the same",
    ("drawn-tile-touching-hand", "azrm", "penalty:discarding-from-hand-riichi"):
        "the WRC row cites 'Discarding a tile from the hand'",
    ("drawn-tile-touching-hand", "azrm", "rule:6.5"): "the same",
    ("dead-hand-foul-during-riichi", "ema-rcr", "rule:3.4.7"): "what a dead hand may not do",
    ("dead-hand-foul-during-riichi", "azrm", "penalty:noten-riichi"):
        "its row 'Noten Riichi solely because of a Dead Hand foul committed after the declaration'",
    ("dead-hand-foul-during-riichi", "azrm", "rule:6.2"): "the same",
    ("confusing-win-declaration", "ema-rcr", "penalty:confusing-call"): "'Wrong word'",
    ("confusing-win-declaration", "azrm", "penalty:confusing-call"): "only valid terms for ron, tsumo",
    ("confusing-win-declaration", "azrm", "rule:4.2"): "the same",
}


def test_every_covered_by_claim_is_a_reviewed_one(library):
    # AZRM §8.1 never mentions the all-last sheet or the report sheet, and its row gives 2P (and
    # a Strike) to all four players: the WRC sheet rows must not read as answered by it
    claims = {(f.id, rid, target) for f in library.fouls.values() for rid, target in f.covered_by}
    assert claims - set(COVERED_BY_REVIEWED) == set(), "unreviewed covered_by claims"
    assert set(COVERED_BY_REVIEWED) - claims == set(), "reviewed claims no longer in fouls.toml"
    for sheet in ("incorrect-all-last-sheet", "unsigned-report-sheet"):
        assert "azrm" not in dict(library.fouls[sheet].covered_by)


def test_robbing_a_closed_kan_for_thirteen_orphans_is_said_only_where_a_ruleset_allows_it(library):
    # EMA RCR 3.3.7 allows it; Rakkii Nomi 2026 lists it as its own change from WRC 2025 (so plain
    # WRC 2025, and AZRM which follows it, do not): no handbook text may say it in general
    said = 0
    for t in library.glossary:
        if t.provenance != "handbook":
            continue
        for text in (t.definition, t.explanation or ""):
            low = f"{t.term} {text}".casefold()
            if "thirteen orphans" in low and "rob" in low:
                said += 1
                assert "EMA RCR 3.3.7" in text and "change from the WRC 2025" in text, (t.id, text)
    assert said >= 3
