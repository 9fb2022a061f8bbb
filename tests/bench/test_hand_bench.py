"""Hand checker speed figures (``make bench``; skipped by ordinary runs through ``--benchmark-skip``).

* ``handbook.hand_value`` over a set of hands (closed and open, seven pairs, limits, yakuman, no
  yaku): per call, median and p95;
* the hand checker screen's work for the tap that completes a hand (``/tools/hand``, built on a stub
  page as the view tests build it): the hand counted and the value line and result drawn, i.e. the
  server's share of "≤ 0.2 s after the last tap" (goal: p95 ≤ 50 ms, leaving the rest to the
  connection and the browser's frame).

``HANDBOOK_BENCH_STRICT=1`` turns a missed goal into a failure.
"""

from __future__ import annotations

import os
import time

import flet as ft

import handbook
from tests.support.uihelpers import StubPage, find  # noqa: E402

HANDS = [
    ("wrc-2025", "234567m22p345s678s", dict(win="8s", discarder="S", seat="W", riichi=True)),
    ("rakkii-nomi-2026", "234067m22p345s678s", dict(win="8s", tsumo=True, seat="E", riichi=True, dora=["1p"])),
    ("ema-rcr", "1133m5577p2244s66z", dict(win="6z", discarder="E", seat="S")),
    ("wrc-2025", "11223345678999m", dict(win="5m", tsumo=True, seat="W", riichi=True, dora=["8m"])),
    ("wrc-2025", "234m11p555z666z777z", dict(win="1p", discarder="S", seat="W")),
    ("azrm", "234m567m22p345s", dict(win="5s", melds=["pon 555z"], tsumo=True, seat="N", honba=3)),
    ("wrc-2025", "567m22p345s678s", dict(win="8s", melds=["chi 123m"], discarder="S", seat="W")),
]
HAND_P95_GOAL_MS = 20.0
TAP_P95_GOAL_MS = 50.0


def _pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def _strict() -> bool:
    return os.environ.get("HANDBOOK_BENCH_STRICT") == "1"


def test_hand_value_per_call(benchmark, capsys):
    times: list[float] = []

    def run_all():
        for ruleset, hand, kw in HANDS:
            t0 = time.perf_counter()
            handbook.hand_value(ruleset, hand, **kw)
            times.append((time.perf_counter() - t0) * 1000)

    run_all()
    times.clear()
    benchmark.pedantic(run_all, rounds=30, iterations=1)
    p50, p95 = _pct(times, 0.5), _pct(times, 0.95)
    benchmark.extra_info.update({"per_call_p50_ms": round(p50, 3), "per_call_p95_ms": round(p95, 3),
                                 "goal_p95_ms": HAND_P95_GOAL_MS})
    with capsys.disabled():
        print(f"\nhand_value per call: p50 {p50:.2f} ms, p95 {p95:.2f} ms (goal p95 ≤ {HAND_P95_GOAL_MS} ms)")
    if _strict():
        assert p95 <= HAND_P95_GOAL_MS


def test_screen_tap_that_completes_a_hand(benchmark, capsys):
    from handbook.ui import screens
    from handbook.ui.context import AppContext

    page = StubPage()
    ctx = AppContext(page=page, library=handbook.load_library())
    view = screens.build_view(ctx, "/tools/hand?ruleset=wrc-2025&hand=234567m22p345s67s&seat=W&discarder=S"
                                   "&riichi=1")
    next(c for c in find(view, ft.OutlinedButton) if c.key == "suit-s").on_click(None)
    key = next(c for c in find(view, ft.Container) if c.key == "key-8s")
    undo = next(c for c in find(view, ft.OutlinedButton) if c.key == "undo")
    key.on_click(None)
    assert find(view, ft.Semantics, key="value")[0].label == "Value: 3,900 (3 han 30 fu)"
    undo.on_click(None)
    # in the app the result card is drawn by a task after the value line is sent: timed apart
    page.run_task = lambda fn, *a, **kw: None
    times: list[float] = []

    def tap_and_undo():
        t0 = time.perf_counter()
        key.on_click(None)
        times.append((time.perf_counter() - t0) * 1000)
        undo.on_click(None)

    for _ in range(3):
        tap_and_undo()
    times.clear()
    benchmark.pedantic(tap_and_undo, rounds=40, iterations=1)
    p50, p95 = _pct(times, 0.5), _pct(times, 0.95)
    benchmark.extra_info.update({"tap_p50_ms": round(p50, 2), "tap_p95_ms": round(p95, 2),
                                 "goal_p95_ms": TAP_P95_GOAL_MS})
    from handbook.ui.views import hand as hand_view

    value = handbook.hand_value("wrc-2025", "234567m22p345s678s", win="8s", discarder="S", seat="W", riichi=True)
    card: list[float] = []
    for _ in range(20):
        t0 = time.perf_counter()
        hand_view._result_card(ctx, value, hand_view.HandState("wrc-2025"))
        card.append((time.perf_counter() - t0) * 1000)
    benchmark.extra_info["result_card_p50_ms"] = round(_pct(card, 0.5), 2)
    with capsys.disabled():
        print(f"\n/tools/hand, the completing tap on the server (value line): p50 {p50:.1f} ms, p95 {p95:.1f} ms "
              f"(goal p95 ≤ {TAP_P95_GOAL_MS} ms); the result card after it: p50 {_pct(card, 0.5):.1f} ms")
    if _strict():
        assert p95 <= TAP_P95_GOAL_MS
