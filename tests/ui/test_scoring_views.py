"""The yaku reference (/tools/yaku, /tools/yaku/<id>) and the payment table (/tools/payments), built
on a stub page, in English and Japanese; the hand checker's links to them and the glossary's."""

from __future__ import annotations

import flet as ft
import pytest
from tests.support.uihelpers import StubPage, find, texts

import handbook
from handbook import i18n
from handbook.ui import screens
from handbook.ui.context import AppContext, screen_title


@pytest.fixture
def ja(library, navigated) -> AppContext:
    return AppContext(page=StubPage(), library=library, translator=i18n.translator("ja"), navigator=navigated.append)


def view_index(view, key: str) -> int:
    return [getattr(c, "key", None) for c in find(view, ft.Control)].index(key)


def _keyed(view, prefix: str) -> list:
    return [c for c in find(view, ft.Control) if isinstance(getattr(c, "key", None), str) and c.key.startswith(prefix)]


def test_yaku_list_has_every_yaku_of_the_ruleset_and_opens_one(ctx, navigated):
    view = screens.build_view(ctx, "/tools/yaku?ruleset=ema-rcr")
    assert screen_title(view) == "Yaku of EMA RCR"
    ids = {c.key[5:] for c in _keyed(view, "yaku-")}
    assert ids == {y.id for y in handbook.yaku_list("ema-rcr")}
    pinfu = [c for c in find(view, ft.ListTile) if c.key == "yaku-Pinfu"][0]
    pinfu.on_click(None)
    assert navigated[-1] == "/tools/yaku/Pinfu?ruleset=ema-rcr"
    shown = texts(view)
    assert "平和 · ぴんふ · pinfu" in shown and "1 han, concealed hand only" in shown


def test_a_yaku_page_shows_names_han_sample_and_each_ruleset(ctx):
    view = screens.build_view(ctx, "/tools/yaku/Tanyao?ruleset=ema-rcr")
    shown = texts(view)
    assert "All simples (tanyao)" in shown and "断幺九" in shown and "たんやお" in shown and "tanyao" in shown
    assert "1 han, concealed hand only" in shown  # EMA RCR 2008-2012: kuitan nashi
    labels = [s.label for s in find(view, ft.Semantics) if s.label]
    assert "WRC 2025: 1 han, open or closed" in labels and "EMA RCR: 1 han, concealed hand only" in labels
    assert "5 Characters" in labels  # the sample hand's tiles, named
    assert [c for c in find(view, ft.FilledTonalButton) if c.key == "check-sample"]


def test_a_yakuman_page_and_a_differing_double(ctx):
    shown = texts(screens.build_view(ctx, "/tools/yaku/DaiSuushii?ruleset=ema-rcr"))
    assert "Double yakuman" in shown
    labels = [s.label for s in find(screens.build_view(ctx, "/tools/yaku/DaiSuushii?ruleset=ema-rcr"), ft.Semantics)
              if s.label]
    assert "WRC 2025: Yakuman" in labels


def test_the_sample_opens_in_the_hand_checker_with_that_yaku(ctx, navigated):
    view = screens.build_view(ctx, "/tools/yaku/Sanshoku?ruleset=wrc-2025")
    [c for c in find(view, ft.FilledTonalButton) if c.key == "check-sample"][0].on_click(None)
    hand = screens.build_view(ctx, navigated[-1])
    assert "Mixed triple sequence (sanshoku doujun)" in texts(hand)


def test_payment_table_marks_the_cell_and_rounds_up_per_ruleset(ctx):
    view = screens.build_view(ctx, "/tools/payments?ruleset=wrc-2025&han=4&fu=30")
    assert _keyed(view, "cell-4-30-marked") and _keyed(view, "cell-this-hand")
    assert view_index(view, "cell-this-hand") < view_index(view, "fu")  # the asked-for cell comes first
    labels = [s.label for s in find(view, ft.Semantics) if s.label]
    assert "Non-dealer ron: 8,000" in labels and "Dealer tsumo: 4,000 all" in labels
    assert "Rounded up to mangan" in texts(view)
    ema = screens.build_view(ctx, "/tools/payments?ruleset=ema-rcr&han=4&fu=30")
    labels = [s.label for s in find(ema, ft.Semantics) if s.label]
    assert "Non-dealer ron: 7,700" in labels and "Non-dealer tsumo: 2,000/3,900" in labels
    assert any(c.key == "honba-line" for c in find(ema, ft.Text))


def test_hand_checker_links_to_its_yaku_and_its_cell(ctx, navigated):
    view = screens.build_view(ctx, "/tools/hand?ruleset=wrc-2025&hand=234567m22p345s678s&win=8s&riichi=1&seat=W"
                                   "&discarder=S")
    [c for c in find(view, ft.Container) if c.key == "yaku-link-Pinfu"][0].on_click(None)
    assert navigated[-1] == "/tools/yaku/Pinfu?ruleset=wrc-2025"
    [c for c in find(view, ft.TextButton) if c.key == "to-payment-cell"][0].on_click(None)
    assert navigated[-1] == "/tools/payments?ruleset=wrc-2025&han=3&fu=30"


def test_glossary_links_to_the_yaku(ctx, navigated):
    view = screens.build_view(ctx, "/glossary/seven-pairs")
    [c for c in find(view, ft.ListTile) if c.key == "term-yaku"][0].on_click(None)
    assert navigated[-1].startswith("/tools/yaku/Chiitoitsu?ruleset=")


def test_japanese_screens_are_japanese(ja):
    shown = texts(screens.build_view(ja, "/tools/yaku/Pinfu?ruleset=wrc-2025"))
    assert "平和" in shown and "Fully concealed hand" not in "\n".join(shown)
    title = screen_title(screens.build_view(ja, "/tools/payments?ruleset=wrc-2025"))
    assert title and all(w not in title for w in ("Payment", "table"))
    labels = [s.label for s in find(screens.build_view(ja, "/tools/payments?ruleset=wrc-2025&fu=30"), ft.Semantics)
              if s.label]
    assert any("オール" in x for x in labels)


def test_search_screen_lists_the_yaku_and_opens_it(ctx, navigated):
    from handbook.ui.views import search

    groups = dict(search.run_search(ctx.library, "sanshoku open how many han"))
    assert [r.route for r in groups["yaku"]][0] == "/tools/yaku/Sanshoku"
    view = screens.build_view(ctx, "/search?q=pinfu")
    assert "Pinfu" in texts(view)
    import asyncio
    import inspect

    tiles = [c for c in find(view, ft.ListTile) if c.data == "/tools/yaku/Pinfu"]
    assert tiles, [c.data for c in find(view, ft.ListTile)]
    result = tiles[0].on_click(None)
    if inspect.isawaitable(result):
        asyncio.run(result)
    assert navigated[-1] == "/tools/yaku/Pinfu"
