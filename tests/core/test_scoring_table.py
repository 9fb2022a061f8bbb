"""``handbook.payment_table`` and ``handbook.yaku_list`` (issue 45).

The payment table is checked cell by cell against the ``mahjong`` package (every han 1–13, every
fu, dealer and non-dealer, ron and tsumo, with counters) under each ruleset's profile, the package
being configured here from the profile's option values; and against two published tables:

- mjstars.net, "Beginner's Lesson 17 — Scoring System Basics" (https://www.mjstars.net/beginner-s-lesson-17-1):
  the limit hands, mangan to yakuman, non-dealer and dealer, ron and tsumo;
- the r/Mahjong post on memorising the score table (reddit r/Mahjong 1jsl5e8, as stored at
  http://80.67.176.140:8084/settings/update/?hide_hls_notification=on&redirect=r%2FMahjong%231jsl5e8):
  20, 25, 30, 40, 50 and 60 fu at 1–4 han, non-dealer tsumo and ron and dealer ron, without
  rounding up (its 4 han 30 fu is 2,000/3,900, 7,700, 11,600).
"""

from __future__ import annotations

import pytest
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator

import handbook
from handbook.core.scoring_table import FUS, HANS

RULESETS = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026")


def _package(ruleset, han, fu, dealer, tsumo):
    p = handbook.default_library().scoring[ruleset]
    rules = OptionalRules(has_open_tanyao=bool(p["open_tanyao"].value), has_aka_dora=bool(p["red_fives"].value),
                          kiriage=bool(p["kiriage"].value),
                          kazoe_limit=HandConstants.KAZOE_LIMITED if p["kazoe"].value == "yakuman"
                          else HandConstants.KAZOE_SANBAIMAN)
    return ScoresCalculator.calculate_scores(han, fu, HandConfig(is_tsumo=tsumo, player_wind=27 if dealer else 29,
                                                                 round_wind=27, options=rules))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_cell_agrees_with_the_package(ruleset):
    table = handbook.payment_table(ruleset)
    cells = 0
    for han in HANS:
        for fu in FUS:
            for dealer in (False, True):
                for tsumo in (False, True):
                    c = _package(ruleset, han, fu, dealer, tsumo)
                    main, extra = int(c["main"]), int(c["additional"])
                    want = (f"{main:,}" if not tsumo else f"{main:,} all" if dealer else f"{extra:,}/{main:,}")
                    assert table.points(han, fu, dealer=dealer, tsumo=tsumo) == want, (han, fu, dealer, tsumo)
                    for honba in (0, 2):
                        paid = table.payments(han, fu, dealer=dealer, tsumo=tsumo, honba=honba)
                        if not tsumo:
                            assert paid == {"discarder": main + 300 * honba}
                        elif dealer:
                            assert paid == {"non_dealer": main + 100 * honba}
                        else:
                            assert paid == {"dealer": main + 100 * honba, "non_dealer": extra + 100 * honba}
                    cells += 1
    assert cells == 13 * 11 * 4


#: mjstars.net Beginner's Lesson 17: han -> (non-dealer ron, non-dealer tsumo, dealer ron, dealer tsumo)
MJSTARS_LIMITS = {
    5: ("8,000", "2,000/4,000", "12,000", "4,000 all"),
    6: ("12,000", "3,000/6,000", "18,000", "6,000 all"), 7: ("12,000", "3,000/6,000", "18,000", "6,000 all"),
    8: ("16,000", "4,000/8,000", "24,000", "8,000 all"), 10: ("16,000", "4,000/8,000", "24,000", "8,000 all"),
    11: ("24,000", "6,000/12,000", "36,000", "12,000 all"), 12: ("24,000", "6,000/12,000", "36,000", "12,000 all"),
}
MJSTARS_YAKUMAN = ("32,000", "8,000/16,000", "48,000", "16,000 all")

#: the r/Mahjong table: (fu, han) -> (non-dealer tsumo, non-dealer ron, dealer ron); None: not in the table
REDDIT = {
    (30, 1): ("300/500", "1,000", "1,500"), (30, 2): ("500/1,000", "2,000", "2,900"),
    (30, 3): ("1,000/2,000", "3,900", "5,800"), (30, 4): ("2,000/3,900", "7,700", "11,600"),
    (40, 1): ("400/700", "1,300", "2,000"), (40, 2): ("700/1,300", "2,600", "3,900"),
    (40, 3): ("1,300/2,600", "5,200", "7,700"),
    (20, 2): ("400/700", None, None), (20, 3): ("700/1,300", None, None), (20, 4): ("1,300/2,600", None, None),
    (25, 2): (None, "1,600", "2,400"), (25, 3): ("800/1,600", "3,200", "4,800"),
    (25, 4): ("1,600/3,200", "6,400", "9,600"),
    (50, 1): ("400/800", "1,600", "2,400"), (50, 2): ("800/1,600", "3,200", "4,800"),
    (50, 3): ("1,600/3,200", "6,400", "9,600"),
    (60, 1): ("500/1,000", "2,000", "2,900"), (60, 2): ("1,000/2,000", "3,900", "5,800"),
    (60, 3): ("2,000/3,900", "7,700", "11,600"),
}


def _four(table, han, fu):
    return (table.points(han, fu, dealer=False, tsumo=False), table.points(han, fu, dealer=False, tsumo=True),
            table.points(han, fu, dealer=True, tsumo=False), table.points(han, fu, dealer=True, tsumo=True))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_limits_agree_with_mjstars(ruleset):
    table = handbook.payment_table(ruleset)
    for han, want in MJSTARS_LIMITS.items():
        assert _four(table, han, 30) == want, han
    counted = handbook.default_library().scoring[ruleset]["kazoe"].value == "yakuman"
    assert (_four(table, 13, 30) == MJSTARS_YAKUMAN) == counted
    assert table.limit(13, 30) == ("yakuman" if counted else "sanbaiman")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_cells_agree_with_the_reddit_table_where_the_ruleset_does_not_round_up(ruleset):
    table = handbook.payment_table(ruleset)
    rounds_up = bool(handbook.default_library().scoring[ruleset]["kiriage"].value)
    for (fu, han), (tsumo, ron, dealer_ron) in REDDIT.items():
        got = (table.points(han, fu, dealer=False, tsumo=True), table.points(han, fu, dealer=False, tsumo=False),
               table.points(han, fu, dealer=True, tsumo=False))
        want = (tsumo, ron, dealer_ron)
        if rounds_up and (han, fu) in ((4, 30), (3, 60)):
            assert got == ("2,000/4,000", "8,000", "12,000") and table.rounded_up(han, fu)
            continue
        assert all(w is None or g == w for g, w in zip(got, want, strict=True)), (fu, han, got, want)


def test_payments_shapes_and_honba():
    t = handbook.payment_table("wrc-2025")
    assert t.points(3, 30, dealer=True, tsumo=True) == "2,000 all"
    assert t.points(4, 40, dealer=False, tsumo=False) == "8,000" and t.limit(4, 40) == "mangan"
    assert t.payments(3, 30, dealer=False, tsumo=True, honba=1) == {"dealer": 2100, "non_dealer": 1100}
    assert t.payments(2, 30, dealer=False, tsumo=False, honba=3) == {"discarder": 2900}


@pytest.mark.parametrize(("call", "argument"), [
    (lambda t: t.points(0, 30, dealer=False, tsumo=False), "han"),
    (lambda t: t.points(True, 30, dealer=False, tsumo=False), "han"),
    (lambda t: t.points(2, 35, dealer=False, tsumo=False), "fu"),
    (lambda t: t.points(2, 120, dealer=False, tsumo=False), "fu"),
    (lambda t: t.points(2, 30, dealer="yes", tsumo=False), "dealer"),
    (lambda t: t.payments(2, 30, dealer=False, tsumo=False, honba=-1), "honba"),
])
def test_bad_arguments_are_named(call, argument):
    with pytest.raises(ValueError, match=rf"^{argument}: "):
        call(handbook.payment_table("azrm"))


def test_unknown_ruleset_is_named():
    for fn in (handbook.payment_table, handbook.yaku_list):
        with pytest.raises(ValueError, match="^ruleset: "):
            fn("wrc-2099")


# --- the yaku list ----------------------------------------------------------------------------

@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_sample_hand_scores_its_yaku(ruleset):
    for y in handbook.yaku_list(ruleset):
        assert y.name and y.name_ja and y.reading and y.romaji, y.id
        if y.sample is None:
            continue
        v = handbook.hand_value(ruleset, y.sample.hand, **y.sample.kwargs())
        assert y.id in {x.id for x in v.yaku}, (y.id, [x.id for x in v.yaku])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_list_covers_what_the_checker_counts(ruleset):
    """Every yaku the package counted for any sample hand, the dora entries and the yakuman of a
    blind-set hand are in the ruleset's list."""
    import tomllib
    from pathlib import Path

    listed = {y.id for y in handbook.yaku_list(ruleset)}
    seen = set()
    for name in ("hands_blind.toml", "hands_blind2.toml"):
        for h in tomllib.loads((Path(__file__).parent / name).read_text(encoding="utf-8"))["hand"]:
            if h["ruleset"] != ruleset or "error" in h:
                continue
            kw = {k: h[k] for k in ("win", "melds", "tsumo", "discarder", "seat", "round_wind", "riichi",
                                    "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei", "dora",
                                    "ura", "honba", "deposits") if k in h}
            try:
                seen |= {y.id for y in handbook.hand_value(ruleset, h["hand"], **kw).yaku}
            except ValueError:
                continue
    assert seen and seen <= listed, seen - listed


def test_rulesets_differ_where_their_profiles_do():
    ema = {y.id: y for y in handbook.yaku_list("ema-rcr")}
    wrc = {y.id: y for y in handbook.yaku_list("wrc-2025")}
    rakkii = {y.id: y for y in handbook.yaku_list("rakkii-nomi-2026")}
    assert ema["Tanyao"].han_open is None and wrc["Tanyao"].han_open == 1
    assert ema["DaiSuushii"].han_closed == 26 and wrc["DaiSuushii"].han_closed == 13
    assert "AkaDora" in rakkii and "AkaDora" not in wrc and "NagashiMangan" in rakkii and "NagashiMangan" not in wrc
    assert wrc["Pinfu"].han_open is None and wrc["Sanshoku"].han_open == 1 and wrc["Sanshoku"].han_closed == 2
    assert wrc["KokushiMusou"].yakuman and not wrc["Pinfu"].yakuman
    assert any("§3.3.7" in n for n in ema["KokushiMusou"].notes)
    assert all(n for y in wrc.values() for n in y.notes)
