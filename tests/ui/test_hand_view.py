"""The hand checker screen (/tools/hand) built on a stub page: the tile keyboard, taps that build a
hand, the value in large type, payments per seat, yaku in the reader's language, the no-yaku ruling
with its penalty rows, deep links both ways, and the state's plain logic."""

from __future__ import annotations

import flet as ft
import pytest
from tests.support.uihelpers import StubPage, find, texts

import handbook
from handbook import i18n
from handbook.ui.context import screen_title
from handbook.ui import screens
from handbook.ui.context import AppContext
from handbook.ui.views.hand import HandState, keys_for, meld_from_key, tile_name

DEEP = "/tools/hand?ruleset=wrc-2025&hand=234567m22p345s678s&win=8s&riichi=1&seat=W&discarder=S"


def _tap(view, key: str) -> None:
    hits = [c for c in find(view, ft.Container) if c.key == key] or \
        [c for c in find(view, ft.FilledButton) + find(view, ft.OutlinedButton) + find(view, ft.FilledTonalButton)
         if c.key == key]
    assert hits, key
    hits[0].on_click(None)


def _value(view) -> str:
    return find(view, ft.Semantics, key="value")[0].label


def test_deep_link_shows_the_value_and_payments(ctx):
    view = screens.build_view(ctx, DEEP)
    assert screen_title(view) == "Hand value"
    assert _value(view) == "Value: 3,900 (3 han 30 fu)"
    labels = [s.label for s in find(view, ft.Semantics) if s.label]
    assert "South: \u22123,900" in labels and "West — winner: +3,900" in labels
    shown = texts(view)
    assert "Riichi" in shown and "All simples (tanyao)" in shown and "Pinfu" in shown


def test_keyboard_has_34_tiles_and_red_fives_only_where_the_ruleset_has_them():
    assert sum(len(keys_for(s, False)) for s in "mpsz") == 34
    assert sum(len(keys_for(s, True)) for s in "mpsz") == 37
    assert tile_name("0p", i18n.ENGLISH) == "Red 5 Circles" and tile_name("6z", i18n.ENGLISH) == "Green dragon"


def test_red_five_key_appears_for_rakkii(ctx):
    view = screens.build_view(ctx, "/tools/hand?ruleset=rakkii-nomi-2026")
    keys = [c.key for c in find(view, ft.Container) if (c.key or "").startswith("key-")]
    assert "key-0m" in keys and len(keys) == 10
    view = screens.build_view(ctx, "/tools/hand?ruleset=wrc-2025")
    assert "key-0m" not in [c.key for c in find(view, ft.Container)]


def test_taps_build_a_hand_and_say_what_is_missing(ctx):
    view = screens.build_view(ctx, "/tools/hand?ruleset=wrc-2025&seat=W&discarder=S")
    assert "14 tiles needed with these melds, 0 given." in texts(view)
    for code in ("2m", "3m", "4m", "5m", "6m", "7m"):
        _tap(view, f"key-{code}")
    _tap(view, "suit-p")
    _tap(view, "key-2p")
    _tap(view, "key-2p")
    _tap(view, "suit-s")
    for code in ("3s", "4s", "5s", "6s", "7s"):
        _tap(view, f"key-{code}")
    assert "13 given" in " ".join(texts(view))
    _tap(view, "key-8s")
    assert _value(view) == "Value: 2,000 (2 han 30 fu)"  # pinfu + tanyao, no riichi
    _tap(view, "cond-riichi")
    assert _value(view) == "Value: 3,900 (3 han 30 fu)"
    _tap(view, "win-tsumo")
    assert _value(view) == "Value: 1,300/2,600 (4 han 20 fu)"
    assert ctx.query["hand"] == "234567m22p345678s" and ctx.query["tsumo"] == "1"
    _tap(view, "undo")
    _tap(view, "key-6s")  # 234567m22p34567s + 6s: not complete
    assert any("Not a complete hand" in t for t in texts(view))


def test_melds_from_keys():
    assert meld_from_key("pon", "5z") == "pon 555z"
    assert meld_from_key("chi", "3m") == "chi 345m"
    assert meld_from_key("chi", "8m") is None and meld_from_key("chi", "1z") is None
    assert meld_from_key("ankan", "0p") == "ankan 0555p"
    s = HandState("wrc-2025")
    assert s.add("pon", "5z") is None and s.needed == 11
    s.undo()
    assert s.melds == [] and s.needed == 14


def test_no_yaku_shows_the_empty_call_rows_linked(ctx, navigated):
    view = screens.build_view(ctx, "/tools/hand?ruleset=wrc-2025&hand=567m22p345s678s&win=8s&melds=chi+123m"
                                   "&seat=W&discarder=S")
    assert _value(view) == "No yaku: nothing is paid"
    rows = [c for c in find(view, ft.ListTile) if (c.key or "").startswith("foul-row-")]
    assert len(rows) == 2  # vocal only / showing the hand
    rows[0].on_click(None)
    assert navigated[-1] == "/penalties/wrc-2025/empty-call-win"


def test_option_source_links_to_the_rule(ctx, navigated):
    view = screens.build_view(ctx, "/tools/hand?ruleset=rakkii-nomi-2026&hand=234067m22p345s678s&win=8s"
                                   "&riichi=1&seat=W&discarder=S")
    assert _value(view) == "Value: 8,000 (Mangan · 4 han 30 fu)"  # WRC rounds 4 han 30 fu up (scoring.toml)
    link = [b for b in find(view, ft.TextButton) if b.content == "Rule: Rakkii Nomi 2026 §2.1"]
    assert link
    link[0].on_click(None)
    assert navigated[-1] == "/rules/rakkii-nomi-2026/2.1"


def test_state_round_trips_through_the_query():
    s = HandState.from_query({"hand": "234567m22p345s", "melds": "pon 555z", "win": "5s", "tsumo": "1",
                              "seat": "S", "honba": "2", "dora": "1m", "riichi": "0", "ippatsu": "1"},
                             "wrc-2025")
    again = HandState.from_query(s.query(), "wrc-2025")
    assert again.query() == s.query()
    assert s.kwargs()["win"] == "5s" and s.kwargs()["discarder"] is None and s.kwargs()["ippatsu"]


@pytest.fixture
def ja_ctx(library, navigated) -> AppContext:
    return AppContext(page=StubPage(), library=library, translator=i18n.translator("ja"), navigator=navigated.append)


def test_japanese_yaku_names(ja_ctx):
    view = screens.build_view(ja_ctx, DEEP)
    shown = texts(view)
    assert "立直" in shown and "平和" in shown and "断幺九" in shown
    assert screen_title(view) != "Hand value"


def test_japanese_screen_shows_the_handbooks_notes_and_citations_in_japanese(ja_ctx, library):
    """The notes built in code and the scoring profiles' citations are the handbook's words: in
    Japanese they are Japanese (content/ja/handbook.toml and the catalog); hand_value keeps English."""
    route = "/tools/hand?ruleset=rakkii-nomi-2026&hand=234m406p678s23455s&win=5s&seat=S&discarder=W"
    shown = "\n".join(texts(screens.build_view(ja_ctx, route)))
    assert "赤五はドラに数えます（0p） — Rakkii Nomi 2026 §2.1: 各色の五のうち1枚が赤五" in shown
    assert "Red fives count as dora" not in shown and "one five of each suit is red" not in shown
    # an option of the followed profile: its citation and whose rules are followed, in Japanese
    shown = "\n".join(texts(screens.build_view(ja_ctx, "/tools/hand?ruleset=azrm&hand=567m22p345s678s"
                                                        "&win=8s&melds=chi+234m&seat=W&discarder=S")))
    assert "喰いタン（副露した断么九）を認めます" in shown and "AZRMはWRCのルールブックに従います（AZRM §1.3）" in shown
    assert "open tanyao (kuitan) is allowed" not in shown and "follows the WRC rulebook" not in shown
    # the assumptions in the option list, and the no-yaku ruling
    shown = "\n".join(texts(screens.build_view(ja_ctx, "/tools/hand?ruleset=wrc-2025&hand=567m22p345s678s&win=8s"
                                                        "&melds=chi+123m&seat=W&discarder=S")))
    assert "役なしでの和了宣言は誤ロン・誤ツモ（空振り）です" in shown and "A win declared" not in shown
    assert "ほかに符のない副露手には2符を加えて30符" in shown and "as current rule books count it" not in shown
    english = handbook.hand_value("rakkii-nomi-2026", "234m406p678s23455s", win="5s", seat="S", discarder="W",
                                  library=library)
    assert english.notes == ("Red fives count as dora (0p) — Rakkii Nomi 2026 §2.1: one five of each suit is "
                             "red; each red five is worth one dora.",)


def test_a_dealer_tsumo_says_all_in_the_readers_language(ctx, ja_ctx):
    route = "/tools/hand?ruleset=wrc-2025&hand=234567m22p345s678s&win=8s&tsumo=1&riichi=1&seat=E"
    assert _value(screens.build_view(ctx, route)).startswith("Value: 2,600 all")
    assert "2,600オール" in _value(screens.build_view(ja_ctx, route))


def test_a_hostile_hand_link_is_cut_to_what_a_hand_holds():
    from handbook.ui.views.hand import MAX_HAND_TILES, MAX_INDICATORS, MAX_MELDS, HandState

    s = HandState.from_query({"hand": "1m" * 950, "dora": "5p" * 400, "ura": "5p" * 400,
                              "melds": ",".join(["pon 555p"] * 200)}, "azrm")
    assert len(s.tiles) == MAX_HAND_TILES == 14
    assert len(s.dora) == len(s.ura) == MAX_INDICATORS == 5
    assert len(s.melds) == MAX_MELDS == 4
    real = HandState.from_query({"hand": "1m 2m 3m 4p 5p 6p 7s 8s 9s 1z 1z 1z 2z 2z", "win": "2z",
                                 "melds": "", "dora": "1m 2m 3m 4m 5m"}, "azrm")
    assert len(real.tiles) == 14 and len(real.dora) == 5  # spaced notation still fits
