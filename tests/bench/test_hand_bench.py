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


# --- the browser: the last tap to the value on the screen ---------------------------------------------

#: the hand typed on the tile keyboard (English suit tab, Japanese suit tab, digits), the last
#: digit completing it: 234567m 22p 345678s, a win on the 8 of bamboo
TYPED = [(("萬 Characters", "萬子"), "m", "234567"), (("筒 Circles", "筒子"), "p", "22"),
         (("索 Bamboo", "索子"), "s", "345678")]
SUIT_WORD = {"en": {"m": "Characters", "p": "Circles", "s": "Bamboo"}, "ja": {"m": "萬子", "p": "筒子", "s": "索子"}}
#: (locale, the value line's first word, "Remove last")
LOCALES = [("en-US", "Value", "Remove last"), ("ja-JP", "点数", "一つ戻す")]
SCREEN_GOAL_S = 0.2
SCREEN_TAPS = 15  # the completing tap, timed this many times per language

#: resolves with the time (performance.now(), ms) from the next pointer-down anywhere on the page to
#: the first frame whose ARIA tree holds ``needle`` (Flutter writes it with the frame that draws it)
_TIMER_JS = """(needle) => {
  window.__tap = new Promise((resolve) => {
    let t0 = null;
    window.addEventListener('pointerdown', () => { t0 = performance.now(); }, {capture: true, once: true});
    const holds = () => [...document.querySelectorAll('flt-semantics')].some(
      (e) => (e.getAttribute('aria-label') || e.textContent || '').includes(needle));
    const obs = new MutationObserver(() => {
      if (t0 !== null && holds()) { obs.disconnect(); resolve(performance.now() - t0); }
    });
    obs.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
  });
}"""


def test_screen_shows_the_value_after_the_last_tap(benchmark, tmp_path, capsys):
    """``/tools/hand`` served and opened in headless Chromium at 412×915, in English and in
    Japanese: a hand tapped in on the tile keyboard, then the completing tap timed from its
    pointer-down in the page to the frame that shows the value (goal: ≤ 0.2 s), again and again
    (the last tile removed and tapped again)."""
    import pytest
    from tests.support.browser_harness import (CHROMIUM, Handbook, launch_browser, new_context, start_server,
                                               stop_server)

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`)")
    from playwright.sync_api import sync_playwright

    srv = start_server(tmp_path / "data", tmp_path / "server.log")
    times: dict[str, list[float]] = {}

    def run() -> None:
        with sync_playwright() as pw:
            browser = launch_browser(pw)
            try:
                for locale, word, remove in LOCALES:
                    lang = locale[:2]
                    ctx = new_context(browser, locale=locale, reduced_motion="no-preference")  # a phone's default
                    hb = Handbook(ctx.new_page(), srv)
                    hb.open("/tools/hand?ruleset=wrc-2025&seat=W&discarder=S",
                            ready=SUIT_WORD[lang]["m"])
                    last = None
                    for (tab_en, tab_ja), suit, digits in TYPED:
                        hb.click_button(tab_en if lang == "en" else tab_ja, exact=True)
                        for i, d in enumerate(digits):
                            button = hb.role("button", f"{d} {SUIT_WORD[lang][suit]}", exact=True)
                            if suit == "s" and i == len(digits) - 1:
                                last = button
                                break
                            button.click()
                            hb.page.wait_for_timeout(150)
                    got = times.setdefault(lang, [])
                    for _ in range(SCREEN_TAPS):
                        hb.page.evaluate(_TIMER_JS, f"{word}: ")
                        last.click()
                        got.append(hb.page.evaluate("window.__tap") / 1000)
                        hb.click_button(remove, gone=f"{word}: ")
                        hb.page.wait_for_timeout(300)
                    ctx.close()
            finally:
                browser.close()

    try:
        benchmark.pedantic(run, rounds=1, iterations=1)
    finally:
        stop_server(srv)
    lines = []
    for lang, got in times.items():
        p50, p95 = _pct(got, 0.5), _pct(got, 0.95)
        benchmark.extra_info[f"screen_{lang}_p50_s"] = round(p50, 3)
        benchmark.extra_info[f"screen_{lang}_p95_s"] = round(p95, 3)
        lines.append(f"{lang}: p50 {p50:.3f} s, p95 {p95:.3f} s, max {max(got):.3f} s ({len(got)} taps)")
    with capsys.disabled():
        print("\n/tools/hand at 412×915, the last tap (pointer-down) to the value on the screen: "
              + "; ".join(lines) + f" (goal ≤ {SCREEN_GOAL_S} s)")
    if _strict():
        assert all(_pct(got, 0.95) <= SCREEN_GOAL_S for got in times.values()), lines
