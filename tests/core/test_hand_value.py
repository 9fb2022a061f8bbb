"""``handbook.hand_value``: hands with values worked out by hand from the standard scoring tables.

Every expected value here was computed by hand, not by the ``mahjong`` package under test:
base points = fu × 2^(2 + han) (mangan 2,000, haneman 3,000, baiman 4,000, sanbaiman 6,000,
yakuman 8,000); a win on a discard pays 4 × base (6 × for East), rounded up to 100; a self-draw
1 × base from each other player and 2 × base from East (2 × base from each when East wins).
Counters: 300 each from the discarder, 100 each from every payer of a self-draw (EMA RCR
§3.4.10). Riichi deposits: 1,000 each to the winner.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import handbook
from handbook import hand_value

PINFU = "234567m22p345s678s"     # riichi + pinfu + tanyao on 8s (5-8s wait), 30 fu on a ron
NO_YAKU_OPEN = "567m22p345s678s"  # with chi 123m: no yaku (a terminal in the chi)
NINE_GATES_FREE = "11223345678999m"  # 123 123 456 789 99m: full flush, iipeiko, pure straight; 5m a closed wait
CHIITOI = "1133m5577p2244s66z"


@dataclass(frozen=True)
class H:
    id: str
    ruleset: str
    hand: str
    kw: dict
    han: int
    fu: int
    limit: str | None
    points: str
    payments: dict = field(default_factory=dict)   # only the seats that pay or receive


def ron(by: str, seat: str, **kw) -> dict:
    return {"discarder": by, "seat": seat, **kw}


def tsumo(seat: str, **kw) -> dict:
    return {"tsumo": True, "seat": seat, **kw}


CASES = [
    # --- below mangan: non-dealer and dealer, ron and tsumo ------------------------------------
    H("riichi-pinfu-tanyao-ron", "wrc-2025", PINFU, ron("S", "W", win="8s", riichi=True), 3, 30, None, "3,900",
      {"S": -3900, "W": 3900}),
    H("riichi-pinfu-tanyao-ron-dealer", "wrc-2025", PINFU, ron("S", "E", win="8s", riichi=True), 3, 30, None,
      "5,800", {"S": -5800, "E": 5800}),  # 30 × 32 × 6 = 5,760 -> 5,800
    H("pinfu-tsumo", "wrc-2025", PINFU, tsumo("W", win="8s", riichi=True), 4, 20, None, "1,300/2,600",
      {"E": -2600, "S": -1300, "N": -1300, "W": 5200}),  # 20 × 64 = 1,280
    H("pinfu-tsumo-dealer", "wrc-2025", PINFU, tsumo("E", win="8s", riichi=True), 4, 20, None, "2,600 all",
      {"S": -2600, "W": -2600, "N": -2600, "E": 7800}),
    H("pinfu-tanyao-ron-no-riichi", "ema-rcr", PINFU, ron("N", "S", win="8s"), 2, 30, None, "2,000",
      {"N": -2000, "S": 2000}),  # 30 × 16 × 4 = 1,920
    H("pinfu-tanyao-ron-no-riichi-dealer", "wrc-2025", PINFU, ron("N", "E", win="8s"), 2, 30, None, "2,900",
      {"N": -2900, "E": 2900}),  # 1,920 × 1.5 = 2,880
    H("houtei", "wrc-2025", PINFU, ron("S", "W", win="8s", houtei=True), 3, 30, None, "3,900",
      {"S": -3900, "W": 3900}),
    H("haitei", "wrc-2025", PINFU, tsumo("S", win="8s", haitei=True), 4, 20, None, "1,300/2,600",
      {"E": -2600, "W": -1300, "N": -1300, "S": 5200}),
    H("chankan", "azrm", PINFU, ron("E", "N", win="8s", chankan=True), 3, 30, None, "3,900",
      {"E": -3900, "N": 3900}),
    H("ippatsu", "wrc-2025", PINFU, ron("S", "W", win="8s", riichi=True, ippatsu=True), 4, 30, "mangan", "8,000",
      {"S": -8000, "W": 8000}),  # 4 han 30 fu rounded up to mangan (WRC kiriage)
    H("double-riichi", "wrc-2025", PINFU, ron("S", "W", win="8s", double_riichi=True), 4, 30, "mangan", "8,000",
      {"S": -8000, "W": 8000}),
    H("chiitoitsu-ron", "wrc-2025", CHIITOI, ron("E", "S", win="6z"), 2, 25, None, "1,600",
      {"E": -1600, "S": 1600}),  # 25 × 16 × 4
    H("chiitoitsu-riichi-tsumo", "wrc-2025", CHIITOI, tsumo("S", win="6z", riichi=True), 4, 25, None,
      "1,600/3,200", {"E": -3200, "W": -1600, "N": -1600, "S": 6400}),
    H("chiitoitsu-tsumo-dealer", "ema-rcr", CHIITOI, tsumo("E", win="6z"), 3, 25, None, "1,600 all",
      {"S": -1600, "W": -1600, "N": -1600, "E": 4800}),  # 25 × 32 × 2 = 1,600
    H("open-yakuhai-ron", "wrc-2025", "234m567m22p345s", ron("S", "W", win="5s", melds=["pon 555z"]), 1, 30,
      None, "1,000", {"S": -1000, "W": 1000}),  # 20 + 4 = 24 -> 30; 30 × 8 × 4 = 960
    H("open-yakuhai-tsumo", "wrc-2025", "234m567m22p345s", tsumo("W", win="5s", melds=["pon 555z"]), 1, 30,
      None, "300/500", {"E": -500, "S": -300, "N": -300, "W": 1100}),  # 20 + 4 + 2 -> 30; base 240
    H("closed-wait-terminal-triplet", "wrc-2025", "111m234p456p789s55s", ron("S", "W", win="3p", riichi=True),
      1, 40, None, "1,300", {"S": -1300, "W": 1300}),  # 30 + 8 + 2 = 40; 40 × 8 × 4 = 1,280
    H("rinshan-concealed-quad", "wrc-2025", "234m567m22p678s",
      tsumo("W", win="8s", rinshan=True, melds=["ankan 2222s"]), 3, 40, None, "1,300/2,600",
      {"E": -2600, "S": -1300, "N": -1300, "W": 5200}),  # 20 + 16 + 2 = 38 -> 40; base 1,280
    H("double-wind-pair", "wrc-2025", "111m567m345p678s11z", ron("S", "E", win="8s", riichi=True), 1, 40, None,
      "2,000", {"S": -2000, "E": 2000}),  # WRC since 2022: 2 fu; 30 + 8 + 2 = 40; 40 × 8 × 6 = 1,920 -> 2,000
    H("dora-honour-wrap", "wrc-2025", "234m567m345p678s55z", ron("S", "W", win="2m", riichi=True, dora=["7z"]),
      3, 40, None, "5,200", {"S": -5200, "W": 5200}),  # red dragon indicates white: 2 dora; 30 + 2 -> 40
    H("ura-dora", "wrc-2025", PINFU, ron("S", "W", win="8s", riichi=True, ura=["2s"]), 4, 30, "mangan", "8,000",
      {"S": -8000, "W": 8000}),
    H("ura-without-riichi-not-counted", "wrc-2025", PINFU, ron("S", "W", win="8s", ura=["2s"]), 2, 30, None,
      "2,000", {"S": -2000, "W": 2000}),
    # --- counters (honba) and riichi deposits --------------------------------------------------
    H("honba-ron", "wrc-2025", PINFU, ron("S", "W", win="8s", riichi=True, honba=2), 3, 30, None, "3,900",
      {"S": -4500, "W": 4500}),
    H("honba-tsumo", "wrc-2025", PINFU, tsumo("W", win="8s", riichi=True, honba=3), 4, 20, None, "1,300/2,600",
      {"E": -2900, "S": -1600, "N": -1600, "W": 6100}),
    H("honba-dealer-tsumo", "wrc-2025", PINFU, tsumo("E", win="8s", riichi=True, honba=3), 4, 20, None,
      "2,600 all", {"S": -2900, "W": -2900, "N": -2900, "E": 8700}),
    H("deposits-ron", "wrc-2025", PINFU, ron("S", "W", win="8s", riichi=True, deposits=2), 3, 30, None, "3,900",
      {"S": -3900, "W": 5900}),
    H("honba-and-deposits-tsumo", "ema-rcr", PINFU, tsumo("N", win="8s", riichi=True, honba=1, deposits=1), 4,
      20, None, "1,300/2,600", {"E": -2700, "S": -1400, "W": -1400, "N": 6500}),
    # --- limits --------------------------------------------------------------------------------
    H("mangan-5-han-tsumo", "wrc-2025", PINFU, tsumo("W", win="8s", riichi=True, dora=["1m"]), 5, 0, "mangan",
      "2,000/4,000", {"E": -4000, "S": -2000, "N": -2000, "W": 8000}),
    H("mangan-dealer-tsumo", "wrc-2025", PINFU, tsumo("E", win="8s", riichi=True, dora=["1m"]), 5, 0, "mangan",
      "4,000 all", {"S": -4000, "W": -4000, "N": -4000, "E": 12000}),
    H("mangan-dealer-ron", "wrc-2025", PINFU, ron("N", "E", win="8s", riichi=True, dora=["1m"], ippatsu=True), 5,
      0, "mangan", "12,000", {"N": -12000, "E": 12000}),  # riichi, ippatsu, pinfu, tanyao, dora 1
    H("haneman-dealer-ron", "wrc-2025", PINFU, ron("N", "E", win="8s", riichi=True, dora=["1m", "2m"],
                                                    ippatsu=True), 6, 0, "haneman", "18,000",
      {"N": -18000, "E": 18000}),  # indicator 2m: one 3m, one more dora
    H("mangan-4-han-40-fu", "wrc-2025", "111m234p456p789s55s", ron("S", "W", win="3p", riichi=True, dora=["9m"]),
      4, 40, "mangan", "8,000", {"S": -8000, "W": 8000}),  # 40 × 64 = 2,560 > 2,000
    H("kiriage-4-30", "wrc-2025", PINFU, ron("S", "W", win="8s", riichi=True, dora=["1m"]), 4, 30, "mangan",
      "8,000", {"S": -8000, "W": 8000}),  # 30 × 64 × 4 = 7,680, rounded up to mangan
    H("kiriage-4-30-dealer", "azrm", PINFU, ron("S", "E", win="8s", riichi=True, dora=["1m"]), 4, 30, "mangan",
      "12,000", {"S": -12000, "E": 12000}),  # 1,920 × 6 = 11,520, rounded up to mangan
    H("no-kiriage-4-30-ema", "ema-rcr", PINFU, ron("S", "W", win="8s", riichi=True, dora=["1m"]), 4, 30, None,
      "7,700", {"S": -7700, "W": 7700}),  # EMA: 4-30 is not rounded up
    H("haneman-tsumo", "wrc-2025", PINFU, tsumo("W", win="8s", riichi=True, dora=["1m", "1p"]), 7, 0, "haneman",
      "3,000/6,000", {"E": -6000, "S": -3000, "N": -3000, "W": 12000}),
    H("baiman-ron", "wrc-2025", NINE_GATES_FREE, ron("S", "W", win="5m"), 9, 0, "baiman", "16,000",
      {"S": -16000, "W": 16000}),  # full flush 6 + pure straight 2 + iipeiko 1
    H("sanbaiman-tsumo", "wrc-2025", NINE_GATES_FREE, tsumo("W", win="5m", riichi=True), 11, 0, "sanbaiman",
      "6,000/12,000", {"E": -12000, "S": -6000, "N": -6000, "W": 24000}),
    H("kazoe-wrc", "wrc-2025", NINE_GATES_FREE, tsumo("W", win="5m", riichi=True, dora=["8m"]), 14, 0,
      "yakuman", "8,000/16,000", {"E": -16000, "S": -8000, "N": -8000, "W": 32000}),
    H("kazoe-ema", "ema-rcr", NINE_GATES_FREE, tsumo("W", win="5m", riichi=True, dora=["8m"]), 14, 0, "yakuman",
      "8,000/16,000", {"E": -16000, "S": -8000, "N": -8000, "W": 32000}),
    H("daisangen", "wrc-2025", "234m11p555z666z777z", ron("S", "W", win="1p"), 13, 0, "yakuman", "32,000",
      {"S": -32000, "W": 32000}),
    H("daisangen-dealer-tsumo", "rakkii-nomi-2026", "234m11p555z666z777z", tsumo("E", win="1p"), 13, 0,
      "yakuman", "16,000 all", {"S": -16000, "W": -16000, "N": -16000, "E": 48000}),
    H("kokushi-13-wait-single-wrc", "wrc-2025", "119m19p19s1234567z", ron("S", "W", win="1m"), 13, 0, "yakuman",
      "32,000", {"S": -32000, "W": 32000}),
    H("daisuushii-double-ema", "ema-rcr", "111222333z55m", ron("S", "W", win="5m", melds=["pon 444z"]), 26, 0,
      "double yakuman", "64,000", {"S": -64000, "W": 64000}),
    H("daisuushii-single-wrc", "wrc-2025", "111222333z55m", ron("S", "W", win="5m", melds=["pon 444z"]), 13, 0,
      "yakuman", "32,000", {"S": -32000, "W": 32000}),
    # two yakuman in one hand: they add up under WRC 2025 (since 2022), not under EMA RCR 2008-2012
    H("daisangen-tsuuiisou-combined-wrc", "wrc-2025", "22555666777z", ron("W", "S", win="2z", melds=["pon 111z"]),
      26, 0, "double yakuman", "64,000", {"W": -64000, "S": 64000}),
    H("daisangen-tsuuiisou-single-ema", "ema-rcr", "22555666777z", ron("W", "S", win="2z", melds=["pon 111z"]),
      13, 0, "yakuman", "32,000", {"W": -32000, "S": 32000}),
    # --- red fives per ruleset -----------------------------------------------------------------
    H("red-five-rakkii", "rakkii-nomi-2026", "234067m22p345s678s", ron("S", "W", win="8s", riichi=True), 4, 30,
      "mangan", "8,000", {"S": -8000, "W": 8000}),
    H("red-five-plain-wrc", "wrc-2025", "234067m22p345s678s", ron("S", "W", win="8s", riichi=True), 3, 30, None,
      "3,900", {"S": -3900, "W": 3900}),
    H("red-five-ema", "ema-rcr", "234067m22p345s678s", ron("S", "W", win="8s", riichi=True), 4, 30, None,
      "7,700", {"S": -7700, "W": 7700}),  # EMA RCR 2008-2012 red fives; no rounding up
    H("red-five-in-meld-rakkii", "rakkii-nomi-2026", "234m22p345s678s", ron("S", "W", win="8s", melds=["chi 406m"]),
      2, 30, None, "2,000", {"S": -2000, "W": 2000}),  # open tanyao 1 + red five 1; 20 + 2 -> 30
    # --- open tanyao ---------------------------------------------------------------------------
    H("open-tanyao-wrc", "wrc-2025", NO_YAKU_OPEN, ron("S", "W", win="8s", melds=["chi 234m"]), 1, 30, None,
      "1,000", {"S": -1000, "W": 1000}),
    # --- EMA RCR §3.4.11: two yaku from five counters ------------------------------------------
    H("ema-one-yaku-four-counters", "ema-rcr", "111m234p567p789s99s", ron("S", "W", win="9s", riichi=True, honba=4),
      1, 40, None, "1,300", {"S": -2500, "W": 2500}),  # 30 + 8 + 2 = 40; 1,280 -> 1,300 + 1,200
    H("ema-two-yaku-five-counters", "ema-rcr", PINFU, ron("S", "W", win="8s", riichi=True, honba=5), 3, 30, None,
      "3,900", {"S": -5400, "W": 5400}),
    H("wrc-one-yaku-five-counters", "wrc-2025", "111m234p567p789s99s",
      ron("S", "W", win="9s", riichi=True, honba=5), 1, 40, None, "1,300", {"S": -2800, "W": 2800}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_worked_hand(case: H):
    v = hand_value(case.ruleset, case.hand, **case.kw)
    assert (v.han, v.fu, v.limit, v.points) == (case.han, case.fu, case.limit, case.points)
    expected = {s: case.payments.get(s, 0) for s in "ESWN"}
    assert v.payments == expected
    assert sum(v.payments.values()) == 1000 * case.kw.get("deposits", 0)
    assert not v.no_yaku and v.foul is None


def test_at_least_forty_worked_hands():
    assert len(CASES) >= 40


def _v(**kw):
    args = {"ruleset": "wrc-2025", "hand": PINFU, "win": "8s", "discarder": "S", "seat": "W", "riichi": True}
    args.update(kw)
    return hand_value(args.pop("ruleset"), args.pop("hand"), **args)


def test_yaku_have_english_and_japanese_names_and_han():
    v = _v(dora=["1m"])
    by_id = {y.id: y for y in v.yaku}
    assert by_id["Riichi"].name_ja == "立直" and by_id["Pinfu"].name_ja == "平和"
    assert by_id["Tanyao"].name_ja == "断幺九" and "tanyao" in by_id["Tanyao"].name.lower()
    assert (by_id["Dora"].name, by_id["Dora"].name_ja, by_id["Dora"].han) == ("Dora", "ドラ", 1)
    assert sum(y.han for y in v.yaku) == v.han


def test_red_fives_and_ura_dora_are_their_own_entries():
    v = _v(ruleset="rakkii-nomi-2026", hand="234067m22p345s678s", ura=["2s"])
    by_id = {y.id: y for y in v.yaku}
    assert by_id["AkaDora"].name_ja == "赤ドラ" and by_id["AkaDora"].han == 1
    assert by_id["UraDora"].name_ja == "裏ドラ" and by_id["UraDora"].han == 1
    assert by_id["AkaDora"].option is not None and by_id["AkaDora"].option.ref == ("rakkii-nomi-2026", "2.1")
    assert v.han == 5 and v.limit == "mangan" and v.points == "8,000"


def test_red_five_outside_rakkii_is_a_plain_five_with_a_note():
    v = _v(hand="234067m22p345s678s")
    assert not any(y.id == "AkaDora" for y in v.yaku)
    assert any("0m counted as plain five" in n and "§2.1" in n for n in v.notes)
    assert any(o.id == "red_fives" for o in v.options)


def test_fu_details_say_each_item_in_words():
    v = _v(hand="111m234p456p789s55s", win="3p")
    assert v.fu_details == ((30, "base fu, closed hand won on a discard (20 + 10)"),
                            (8, "concealed triplet of terminals or honours"), (2, "closed wait"))
    assert _v(hand=CHIITOI, win="6z", riichi=False).fu_details == ((25, "seven pairs"),)


def test_no_yaku_is_an_empty_call_for_a_win():
    v = hand_value("wrc-2025", NO_YAKU_OPEN, win="8s", melds=["chi 123m"], discarder="S", seat="W",
                   honba=2, deposits=1)
    assert v.no_yaku and v.foul == "empty-call-win"
    assert v.payments == {"E": 0, "S": 0, "W": 0, "N": 0}
    lib = handbook.default_library()
    assert [r.foul for r in v.foul_rows] == [r.foul for r in lib.rulesets["wrc-2025"].rows("empty-call-win")]
    assert len(v.foul_rows) == 2  # vocal only / showing the hand


@pytest.mark.parametrize("ruleset", ["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_every_ruleset_names_its_empty_call_row(ruleset):
    v = hand_value(ruleset, NO_YAKU_OPEN, win="8s", melds=["chi 123m"], discarder="S", seat="W")
    assert v.no_yaku and v.foul == "empty-call-win"
    assert handbook.default_library().rulesets[ruleset].rows(v.foul)


def test_open_tanyao_is_no_yaku_under_ema():
    v = hand_value("ema-rcr", NO_YAKU_OPEN, win="8s", melds=["chi 234m"], discarder="S", seat="W")
    assert v.no_yaku and v.foul == "empty-call-win"
    assert any("does not count with an open hand" in n for n in v.notes)


def test_ema_one_yaku_with_five_counters_pays_nothing():
    v = hand_value("ema-rcr", "111m234p567p789s99s", win="9s", discarder="S", seat="W", riichi=True, honba=5)
    assert v.no_yaku and v.foul == "empty-call-win" and set(v.payments.values()) == {0}
    assert any("§3.4.11" in n for n in v.notes)
    assert [y.id for y in v.yaku] == ["Riichi"]


def test_ema_single_two_han_yaku_is_not_two_yaku():
    v = hand_value("ema-rcr", CHIITOI, win="6z", discarder="E", seat="S", honba=6)
    assert v.no_yaku  # one reading: two different yaku (seven pairs is one yaku of 2 han)
    assert any("two yaku are needed" in n for n in v.notes)
    assert not any("two han from yaku" in n for n in v.notes)


def test_kazoe_and_kiriage_notes_cite_their_source():
    assert any("counted yakuman" in n for n in _v(ruleset="ema-rcr", hand=NINE_GATES_FREE, win="5m", tsumo=True,
                                                  discarder=None, dora=["8m"]).notes)
    notes = _v(dora=["1m"]).notes
    assert any("rounded up to mangan" in n and "secondary sources" in n for n in notes)
    notes = _v(ruleset="ema-rcr", dora=["1m"]).notes
    assert any("not rounded up to mangan" in n for n in notes)


def test_azrm_notes_say_it_follows_the_wrc_rules():
    v = _v(ruleset="azrm", dora=["1m"])
    assert any("AZRM §1.3" in n for n in v.notes)


def test_a_profile_can_turn_kiriage_off_and_double_wind_pair_to_four(content_copy):
    text = (content_copy / "scoring.toml").read_text(encoding="utf-8")
    text = text.replace('[profile.option.kiriage]\nvalue = true\nbasis = "public"',
                        '[profile.option.kiriage]\nvalue = false\nbasis = "public"', 1)
    text = text.replace('[profile.option.double_wind_pair_fu]\nvalue = 2', '[profile.option.double_wind_pair_fu]\nvalue = 4', 1)
    (content_copy / "scoring.toml").write_text(text, encoding="utf-8")
    lib = handbook.load_library(content_copy, index=False)
    v = _v(dora=["1m"], library=lib)
    assert (v.limit, v.points, v.payments["S"]) == (None, "7,700", -7700)
    w = _v(hand="111m567m345p678s11z", seat="E", library=lib)
    assert (w.fu, w.points) == (50, "2,400")  # 30 + 8 + 4 = 42 -> 50; 50 × 8 × 6 = 2,400


# --- bad input --------------------------------------------------------------------------------

BAD = [
    ("unknown-ruleset", dict(ruleset="wrc-2099"), "ruleset"),
    ("unknown-suit", dict(hand="234567m22p345s678q"), "hand: unknown suit letter 'q'"),
    ("honour-8z", dict(hand="234567m22p345s88z", win="8z"), "hand: 8z"),
    ("no-suit", dict(hand="234567m22p345s678"), "hand"),
    ("not-a-tile", dict(hand="234567m22p345s67x8s"), "hand"),
    ("five-of-a-tile", dict(hand="22222m567m345s678s", win="8s"), "hand: 2m is counted 5 times"),
    ("five-with-indicators", dict(dora=["2m", "2m", "2m", "2m"]), "dora: 2m is counted 5 times"),
    ("win-not-in-hand", dict(win="9s"), "win"),
    ("win-two-tiles", dict(win="88s"), "win"),
    ("thirteen-tiles", dict(hand="234567m22p345s67s", win="7s"), "hand: 14 tiles needed with no melds, 13 given"),
    ("tiles-with-melds", dict(hand="234567m22p345s678s", melds=["pon 555z"]), "hand: 11 tiles needed with 1 meld, 14 given"),
    ("not-complete", dict(hand="234567m22p345s679s", win="9s"), "hand: not a complete hand"),
    ("not-complete-far", dict(hand="13579m2468p1357s1z", win="1z"), "hand: not a complete hand — "),
    ("discarder-is-seat", dict(discarder="W"), "discarder"),
    ("discarder-with-tsumo", dict(tsumo=True), "discarder"),
    ("discarder-missing", dict(discarder=None), "discarder"),
    ("discarder-unknown", dict(discarder="X"), "discarder"),
    ("ippatsu-without-riichi", dict(riichi=False, ippatsu=True), "ippatsu"),
    ("unknown-seat", dict(seat="East"), "seat"),
    ("unknown-round-wind", dict(round_wind="Q"), "round_wind"),
    ("negative-honba", dict(honba=-1), "honba"),
    ("bool-deposits", dict(deposits=True), "deposits"),
    ("meld-kind", dict(hand="234567m22p345s", melds=["peng 555z"]), "melds: unknown kind 'peng'"),
    ("meld-shape", dict(hand="234567m22p345s", melds=["chi 135m"]), "melds"),
    ("melds-as-text", dict(melds="pon 555z"), "melds"),
    ("riichi-open", dict(hand="234567m22p345s", win="5s", melds=["pon 555z"]), "riichi"),
    ("rinshan-on-ron", dict(rinshan=True), "rinshan"),
    ("chankan-on-tsumo", dict(tsumo=True, discarder=None, chankan=True), "chankan"),
    ("two-red-fives", dict(ruleset="rakkii-nomi-2026", hand="234007m22p345s678s"), "hand: 0m"),
]


@pytest.mark.parametrize(("kw", "says"), [pytest.param(kw, says, id=i) for i, kw, says in BAD])
def test_bad_input_names_the_argument(kw, says):
    with pytest.raises(ValueError) as info:
        _v(**kw)
    assert str(info.value).startswith(says.split(":")[0]) and says in str(info.value)


def test_one_tile_from_tenpai_is_said_in_words():
    with pytest.raises(ValueError, match="hand: not a complete hand — 1 tile from tenpai"):
        _v(hand="234567m22p345s19s1z", win="1z")


def test_tenpai_hand_is_said_in_words():
    with pytest.raises(ValueError, match="it is tenpai"):
        _v(hand="234567m22p345s679s", win="9s")


# --- properties -------------------------------------------------------------------------------

WINNING = [  # (hand, win, melds, closed)
    (PINFU, "8s", (), True),
    (CHIITOI, "6z", (), True),
    ("111m234p456p789s55s", "3p", (), True),
    ("234m567m22p345s", "5s", ("pon 555z",), False),
    ("234m11p555z666z777z", "1p", (), True),
    ("234m567m22p678s", "8s", ("ankan 2222s",), True),
    (NINE_GATES_FREE, "5m", (), True),
]


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(WINNING), st.sampled_from(["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"]),
       st.sampled_from("ESWN"), st.integers(0, 3), st.booleans(), st.integers(0, 12), st.integers(0, 6),
       st.booleans())
def test_payments_sum_to_the_deposits_and_the_winner_gets_what_the_others_pay(
        shape, ruleset, seat, by, is_tsumo, honba, deposits, riichi):
    hand, win, melds, closed = shape
    discarder = None if is_tsumo else "ESWN"[("ESWN".index(seat) + 1 + by % 3) % 4]
    v = hand_value(ruleset, hand, win=win, melds=melds, tsumo=is_tsumo, discarder=discarder, seat=seat,
                   riichi=riichi and closed, honba=honba, deposits=deposits)
    assert sum(v.payments.values()) == (0 if v.no_yaku else 1000 * deposits)
    others = [s for s in "ESWN" if s != seat]
    if v.no_yaku:
        assert set(v.payments.values()) == {0}
        return
    assert v.payments[seat] == -sum(v.payments[s] for s in others) + 1000 * deposits
    assert all(v.payments[s] <= 0 for s in others)
    payers = [s for s in others if v.payments[s] < 0]
    assert payers == (others if is_tsumo else [discarder])
    # the counters: 300 each on a ron, 100 from each payer on a tsumo
    bare = hand_value(ruleset, hand, win=win, melds=melds, tsumo=is_tsumo, discarder=discarder, seat=seat,
                      riichi=riichi and closed)
    assert v.payments[seat] - bare.payments[seat] == 300 * honba + 1000 * deposits
    assert v.points == bare.points


# --- issue 45: impossible hands refused, EMA §3.3.7, notes that match what was counted ---------

KOKUSHI = "19m19p19s12345677z"  # waits on 1m, holds none: the robbed quad has the other copies


def test_rinshan_needs_a_quad_among_the_melds():
    with pytest.raises(ValueError, match=r"^rinshan: .*quad"):
        _v(tsumo=True, discarder=None, rinshan=True, riichi=False, melds=["pon 222s"],
           hand="234567m22p345s", win="5s")
    with pytest.raises(ValueError, match=r"^rinshan: "):
        _v(tsumo=True, discarder=None, rinshan=True)


def test_ippatsu_cannot_go_with_rinshan():
    with pytest.raises(ValueError, match=r"^ippatsu: not together with rinshan"):
        _v(tsumo=True, discarder=None, rinshan=True, ippatsu=True, hand="234567m22p345s", win="5s",
           melds=["ankan 2222s"])


def test_chankan_refused_when_the_hand_holds_another_copy_of_the_robbed_tile():
    with pytest.raises(ValueError, match=r"^chankan: the hand holds [23] of 8s"):
        _v(chankan=True, hand="234567m88s678s345p", win="8s", riichi=False)
    assert _v(chankan=True, riichi=False).han >= 1  # the robbed tile alone is fine


def test_ema_thirteen_orphans_may_rob_a_concealed_quad_citing_3_3_7():
    v = hand_value("ema-rcr", KOKUSHI, win="1m", discarder="S", seat="W", chankan=True)
    option = {o.id: o for o in v.options}["kokushi_robs_concealed_kan"]
    assert option.value is True and option.ref == ("ema-rcr", "3.3.7")
    assert any("may rob a concealed quad" in n and "§3.3.7" in n for n in v.notes)


def test_red_five_note_only_where_red_fives_were_counted():
    counted = hand_value("rakkii-nomi-2026", "234067m22p345s678s", win="8s", discarder="S", seat="W", riichi=True)
    assert any(y.id == "AkaDora" for y in counted.yaku)
    assert any(n.startswith("Red fives count as dora") for n in counted.notes)
    yakuman = hand_value("rakkii-nomi-2026", "111m999m111p99s", win="9s", tsumo=True, seat="W",
                         melds=["ankan 0555p"])  # four concealed triplets with a red five
    assert yakuman.limit and "yakuman" in yakuman.limit
    assert not any(n.startswith("Red fives count as dora") for n in yakuman.notes)


def test_ema_yakuman_that_do_not_add_up_are_not_listed_at_13_each():
    # all honours (tsuuiisou) + big three dragons (daisangen): EMA RCR 2008-2012 counts one yakuman
    v = hand_value("ema-rcr", "555666777z111z22z", win="2z", tsumo=True, seat="W")
    assert v.han == 13
    assert sum(y.han for y in v.yaku if not y.is_dora) == v.han
    assert any("do not add up" in n for n in v.notes)
    w = hand_value("wrc-2025", "555666777z111z22z", win="2z", tsumo=True, seat="W")
    assert w.han == 13 * len(w.yaku) == sum(y.han for y in w.yaku)  # WRC: several yakuman add up
