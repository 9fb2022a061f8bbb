"""Input no judge types but a client can send: a score of 30 digits, a riichi-stick count of
thousands of digits, a search query of megabytes. Each is refused in words or bounded; none
crashes the session."""

from __future__ import annotations

import time

import pytest
from tests.support.uihelpers import Event, texts, walk

from handbook.ui.routes import MAX_ROUTE_CHARS, split_route
from handbook.ui.screens import build_view
from handbook.ui.views import calculators as calc
from handbook.ui.views import final
from handbook.ui.views.search import MAX_QUERY_CHARS


def by_key(view, key):
    return next(c for c in walk(view) if getattr(c, "key", None) == key)


def type_into(view, key, value):
    box = by_key(view, key)
    box.value = value
    box.on_change(Event(box))


@pytest.mark.parametrize("digits", [26, 30, 400, 5000])
def test_a_score_of_many_digits_is_refused_in_words(ctx, digits):
    v = build_view(ctx, "/tools/final?ruleset=ema-rcr")
    type_into(v, "score-E", "9" * digits)
    for seat in "SWN":
        type_into(v, f"score-{seat}", "30000")
    box = by_key(v, "score-E")
    box.on_blur(Event(box))
    shown = "\n".join(texts(v))
    assert "Enter East's table points as a whole number" in shown


@pytest.mark.parametrize("route", ["/tools/final?e=" + "9" * 30 + "&s=1&w=1&n=1",
                                   "/tools/final?e=30000&s=30000&w=30000&n=30000&sticks=" + "9" * 5000,
                                   "/tools/final?e=30000&s=30000&w=30000&n=30000&pe=" + "9" * 40])
def test_an_address_with_huge_numbers_shows_the_screen(ctx, route):
    v = build_view(ctx, route)
    assert "Something went wrong" not in "\n".join(texts(v))


def test_points_are_bounded():
    assert final.parse_points("99,999,999", "scores: E") == 99_999_999
    with pytest.raises(ValueError, match=r"^scores: E: "):
        final.parse_points("100,000,000", "scores: E")
    with pytest.raises(ValueError, match=r"^tiles: "):
        calc.parse_tiles("9" * 5000)


def test_a_route_is_cut_before_it_is_parsed():
    path, query = split_route("/search?q=" + "a" * 4_000_000)
    assert path == "/search" and len(query["q"]) < MAX_ROUTE_CHARS
    assert split_route(123) == ("/", {})  # type: ignore[arg-type]


def test_a_query_of_megabytes_is_searched_cut_and_quickly(ctx):
    started = time.perf_counter()
    v = build_view(ctx, "/search?q=" + "chombo " * 600_000)
    box = by_key(v, "search-box")
    assert len(box.value) <= MAX_QUERY_CHARS
    box.value = "riichi " * 600_000
    box.on_change(Event(box))
    assert len(ctx.query["q"]) <= MAX_QUERY_CHARS
    assert time.perf_counter() - started < 30  # generous: the work done is bounded, not timed here
