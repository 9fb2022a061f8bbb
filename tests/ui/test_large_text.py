"""Issue 27's small items, built in-process: titles that wrap, captions above End of hanchan's
boxes, its plain text read as text, "compute anyway", figures on lines of their own, and the
Japanese wording (no stray full stop, あり/なし, 多牌・少牌). The browser walk over every route kind
is tests/e2e/test_layout_walk.py."""

from __future__ import annotations

import flet as ft
import pytest
from tests.support.uihelpers import StubPage, find, texts, walk

import handbook
from handbook import i18n
from handbook.ui.context import AppContext, screen_title
from handbook.ui.screens import build_view
from handbook.ui.views import final


@pytest.fixture
def ja(library) -> AppContext:
    return AppContext(page=StubPage(), library=library, translator=i18n.translator("ja"))


def by_key(view, key):
    found = [c for c in walk(view) if getattr(c, "key", None) == key]
    assert found, f"no control with key {key!r}"
    return found[0]


def type_into(view, key, value):
    box = by_key(view, key)
    box.value = value
    box.on_change(type("E", (), {"control": box, "data": value})())


@pytest.mark.parametrize("route", ["/", "/rules/rakkii-nomi-2026", "/penalties/wrc-2025/revealed-tiles"])
def test_titles_wrap_instead_of_being_cut(ctx, route):
    view = build_view(ctx, route)
    title = by_key(view, "title")
    assert title.value == screen_title(view) and title.max_lines is None  # wraps, never cut
    # not in the AppBar, whose fixed 56 px toolbar cut it to one line
    assert view.appbar.title is None and by_key(view, "title-bar").header


def test_the_apps_own_japanese_name_is_whole(ja):
    assert screen_title(build_view(ja, "/")) == "リーチ麻雀 審判ハンドブック"


def test_end_of_hanchan_captions_sit_above_the_boxes(ctx):
    view = build_view(ctx, "/tools/final")
    for seat in ("E", "S", "W", "N"):
        for key in (f"score-{seat}", f"pen-{seat}"):
            box = by_key(view, key)
            assert box.label is None  # nothing floats inside the border
            merged = [m for m in find(view, ft.MergeSemantics) if box in list(walk(m))]
            caption = merged[0].content.controls[0]
            assert isinstance(caption, ft.Text) and caption.value.startswith(("East", "South", "West", "North"))


def test_end_of_hanchan_plain_text_is_read_as_text(ctx):
    view = build_view(ctx, "/tools/final?ruleset=ema-rcr&e=22000&s=45000&w=16000&n=37000")
    plain = by_key(view, "plain-text")
    wrapper = [s for s in find(view, ft.Semantics) if s.content is plain][0]
    assert wrapper.exclude_semantics and wrapper.label == plain.value and not wrapper.textfield


def test_compute_anyway_shows_the_result_and_by_how_much_it_is_off(ctx):
    view = build_view(ctx, "/tools/final?ruleset=ema-rcr&e=22000&s=45000&w=16000&n=36000")
    shown = "\n".join(texts(view))
    assert "1,000 short" in shown and "South: rank 1" not in shown
    button = by_key(view, "compute-anyway")
    button.on_click(None)
    shown = "\n".join(texts(view))
    assert "1,000 short" in shown  # still said, above the result
    assert by_key(view, "computed-anyway") and by_key(view, "final-S")
    assert "compute-anyway" not in [getattr(c, "key", None) for c in walk(view)]
    # scores that add up: no error, no note
    type_into(view, "score-N", "37000")
    assert "computed-anyway" not in [getattr(c, "key", None) for c in walk(view)]


def test_final_score_computes_anyway_when_asked(library):
    scores = {"E": 22000, "S": 45000, "W": 16000, "N": 36000}
    with pytest.raises(handbook.ScoreSumError):
        handbook.final_score("ema-rcr", scores, library=library)
    f = handbook.final_score("ema-rcr", scores, library=library, check_sum=False)
    assert [r.rank for r in f.rows] == [3, 1, 4, 2]
    assert round(sum(r.final for r in f.rows), 1) == -1.0  # off by the missing 1,000 points


def test_strike_figures_have_a_line_each(ctx):
    view = build_view(ctx, "/tools/strikes?dates=2026-04-01,2026-04-01&on=2026-04-01")
    for key in ("today", "in-window", "until", "suspensions", "banned"):
        line = by_key(view, key)
        row = line.content
        assert isinstance(row, ft.Row) and row.controls[0].expand  # the caption has the row's width


def test_japanese_sum_message_has_no_stray_full_stop(ja):
    exc = handbook.ScoreSumError("x", off=-1000, expected=100000, total=99000, sticks=1)
    text = final.sum_error_text(exc, ja._)
    assert "？." not in text and "？" in text
    exc = handbook.ScoreSumError("x", off=-500, expected=100000, total=99500, sticks=0)
    assert "不足。" in final.sum_error_text(exc, ja._)


def test_japanese_strike_reads_ari_nashi(ja):
    shown = texts(build_view(ja, "/tools/chombo?ruleset=azrm"))
    assert any(t.endswith("あり") for t in shown) and not any("はい" == t for t in shown)
    shown = texts(build_view(ja, "/tools/strikes?dates=2026-04-01&on=2026-04-01"))
    assert "いいえ" not in " ".join(shown)


def test_too_few_tiles_is_named_with_both_cases(ctx, ja):
    view = build_view(ja, "/penalties/azrm/wrong-tile-count")
    assert by_key(view, "foul-names").value.startswith("多牌・少牌 (たーはい・しょうはい)")
    assert by_key(build_view(ctx, "/penalties/wrc-2025/revealed-tiles"), "foul-names").value.startswith("見せ牌 (")


def test_japanese_strike_labels_wrap_between_phrases(ja, ctx):
    """Flutter breaks Japanese between any two characters ("出場停止までのスト|ライク" at 200 %
    text); the label's phrases are texts of their own in a wrapping row, so it breaks between them."""
    view = build_view(ja, "/tools/strikes?dates=2026-04-01&on=2026-04-01")
    label = by_key(view, "until").content.controls[0]
    assert isinstance(label, ft.Semantics) and label.expand and label.label == "出場停止までのストライク"
    assert label.exclude_semantics  # read as one text
    assert label.content.wrap and [t.value for t in label.content.controls] == ["出場停止までの", "ストライク"]
    # English labels stay one text, wrapping at spaces
    english = build_view(ctx, "/tools/strikes?dates=2026-04-01&on=2026-04-01")
    assert isinstance(by_key(english, "until").content.controls[0], ft.Text)


def test_the_chombo_result_names_the_picked_foul_in_full(ctx, library):
    """The foul picker shows one line, cut on a phone; the result names the foul whole (and
    names none for the usual chombo, whose points the result shows)."""
    row = next(r for r in handbook.chombo_fouls("wrc-2025", library=library) if len(r.foul) > 30)
    view = build_view(ctx, f"/tools/chombo?ruleset=wrc-2025&foul={row.id}")
    named = by_key(view, "chosen-foul")
    assert named.value == row.foul and named.max_lines is None
    usual = build_view(ctx, "/tools/chombo?ruleset=wrc-2025")
    assert not [c for c in walk(usual) if getattr(c, "key", None) == "chosen-foul"]
