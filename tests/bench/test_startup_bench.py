"""Start-up figures (``make bench``): seconds from starting the server process to the app's first
screen in headless Chromium, and the server's peak memory.

Each of the 5 rounds starts a fresh ``python -m handbook serve`` on a free port (its own process group)
and stops the clock when the app's first screen is in Flutter's ARIA tree (the search box labelled
"Search"). The browser is as a judge's would be: Chromium is launched once, before the rounds, and each
round's tab -- a fresh profile, so an empty HTTP cache: a first visit -- is open before the server
starts (off the clock). The tab is sent to the app as soon as ``GET /`` answers (polled every 10 ms).

What is timed is the app's, not the test tool's: the page itself turns Flutter's ARIA tree on as its
first frame comes (``ENABLE_SEMANTICS_JS``) and records when the search box appears
(``SEARCH_BOX_SEEN_JS``: ``performance.now()``, counted from ``performance.timeOrigin``, the
navigation's start). The goal figure is that record. The test hears of it
(``AWAIT_SEARCH_BOX_JS``) ~0.1 s later: the answer travels through DevTools while Flutter draws
its next frames; that figure is printed too.

Between rounds (off the clock) the round's server serves a search and a section page, then its peak
resident memory is read: ``VmHWM`` of the server process and its children from ``/proc``, summed.

Goals (issues 3 and 15): median ≤ 2 s and peak ≤ 150 MB on this machine. The figures are printed and kept in
``benchmark.extra_info``; ``HANDBOOK_BENCH_STRICT=1`` turns a missed goal into a failure.
"""

from __future__ import annotations

import os
import statistics
import time

import pytest
from tests.support.flutter_web import (  # noqa: E402
    AWAIT_SEARCH_BOX_JS,
    ENABLE_SEMANTICS_JS,
    FIRST_FRAME_EVENT_JS,
    SEARCH_BOX_SEEN_JS,
)
from tests.support.browser_harness import (  # noqa: E402
    CHROMIUM,
    Handbook,
    RequestLog,
    Watchdog,
    launch_browser,
    new_context,
    peak_rss_mb,
    start_server,
    stop_server,
    wait_until_answering,
)

pytestmark = pytest.mark.browser

GOAL_SECONDS = 2.0
GOAL_MB = 150.0
ROUNDS = 5
#: Off the clock before each round: the last round's tab and server wind down, the new tab settles.
SETTLE_S = 1.0


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


@pytest.fixture(scope="module")
def bench_browser():
    if not os.path.exists(CHROMIUM):
        message = f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`)"
        if _ci():
            pytest.fail(f"CI is set and {message}", pytrace=False)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = launch_browser(pw)
        try:
            yield browser
        finally:
            browser.close()


def test_startup_to_first_frame(benchmark, bench_browser, tmp_path, capsys):
    state: dict = {}
    phases: list[dict[str, float]] = []
    rss: list[float] = []
    offenders: list[str] = []

    def finish_round():
        """Off the clock: exercise the last round's server a little, read its peak memory, stop it."""
        srv, ctx, hb, log = (state.pop(k, None) for k in ("server", "context", "hb", "log"))
        if srv is None:
            return
        try:
            if hb is None:
                raise AssertionError("the round ended before its page opened")
            hb.enable_semantics()
            hb.type_into("Search", "見せ牌")
            hb.wait_for_text("Wrongly revealing tiles")
            hb.open("/rules/azrm/2.4", ready="見せ牌")
        except AssertionError as exc:  # the figures still count; say what failed
            print(f"\n(warning: exercising the server after round {len(rss) + 1} failed: "
                  f"{str(exc).splitlines()[0]})")
        rss.append(peak_rss_mb(srv.pid))
        ctx.close()
        offenders.extend(log.offenders())
        stop_server(srv)

    def open_tab():
        """Off the clock: the next round's tab, open before its server starts."""
        ctx = new_context(bench_browser)
        for script in (FIRST_FRAME_EVENT_JS, ENABLE_SEMANTICS_JS, SEARCH_BOX_SEEN_JS):
            ctx.add_init_script(script)
        state.update(context=ctx, log=RequestLog().attach(ctx), page=ctx.new_page())

    def one_round():
        n = len(phases) + 1
        srv = start_server(tmp_path / f"data-{n}", tmp_path / f"server-{n}.log", wait=False)
        state["server"] = srv
        wait_until_answering(srv, every=0.01)
        page = state.pop("page")
        state["hb"] = Handbook(page, srv)
        t_goto = time.monotonic()
        page.goto(srv.url("/"), wait_until="commit")
        seen_ms = page.evaluate(AWAIT_SEARCH_BOX_JS)    # the Watchdog ends a page that never shows it
        t_ready = time.monotonic()
        flutter_ms, origin_ms = page.evaluate("[window.__flutterFirstFrame ?? null, performance.timeOrigin]")
        # the page's clock starts at its navigation (epoch ms): that moment, from the process start
        origin_s = origin_ms / 1000 - (time.time() - time.monotonic()) - srv.started_at
        phases.append({
            "port_answers_s": srv.answered_at - srv.started_at,
            # Flutter's own first-frame event, and the search box, as the page recorded them
            "flutter_frame_s": (origin_s + flutter_ms / 1000) if flutter_ms else float("nan"),
            "search_box_seen_s": origin_s + seen_ms / 1000,
            "first_app_frame_s": t_ready - srv.started_at,
            "page_load_to_app_frame_s": t_ready - t_goto,
        })

    def setup():
        finish_round()
        open_tab()
        time.sleep(SETTLE_S)

    try:
        # a page that stops answering fails the benchmark instead of blocking `make bench`
        with Watchdog(limit=ROUNDS * 120):
            benchmark.pedantic(one_round, setup=setup, rounds=ROUNDS, iterations=1, warmup_rounds=0)
    finally:
        finish_round()
        if state.get("context") is not None:  # the last setup's tab, or an error mid-round
            state.pop("context").close()

    median_s = statistics.median(p["search_box_seen_s"] for p in phases)
    peak_mb = max(rss) if rss else float("nan")
    medians = {k: round(statistics.median(p[k] for p in phases), 3) for k in phases[0]}
    benchmark.extra_info.update({
        "rounds": len(phases),
        "first_frame_median_s": round(median_s, 3),
        "first_frame_s": [round(p["search_box_seen_s"], 3) for p in phases],
        "test_noticed_s": [round(p["first_app_frame_s"], 3) for p in phases],
        "phase_medians_s": medians,
        "peak_rss_mb": round(peak_mb, 1),
        "peak_rss_mb_per_round": [round(x, 1) for x in rss],
        "goal_s": GOAL_SECONDS,
        "goal_mb": GOAL_MB,
        "goal_s_met": median_s <= GOAL_SECONDS,
        "goal_mb_met": peak_mb <= GOAL_MB,
    })
    with capsys.disabled():  # `make bench` shows the figures
        per_round = ", ".join(f"{p['search_box_seen_s']:.2f}" for p in phases)
        per_round_mb = ", ".join(f"{x:.1f}" for x in rss)
        per_round_noticed = ", ".join(f"{p['first_app_frame_s']:.2f}" for p in phases)
        print(
            f"\nstart-up to the first screen (its search box, as the page saw it): median {median_s:.2f} s "
            f"over {len(phases)} rounds ({per_round}); goal ≤ {GOAL_SECONDS:.0f} s"
            f"\n  phases (median, from process start): port answers {medians['port_answers_s']:.2f} s, "
            f"Flutter's first frame {medians['flutter_frame_s']:.2f} s, search box "
            f"{medians['search_box_seen_s']:.2f} s"
            f"\n  the test heard of it (DevTools' round trip while Flutter draws): median "
            f"{medians['first_app_frame_s']:.2f} s ({per_round_noticed}); page load to then "
            f"{medians['page_load_to_app_frame_s']:.2f} s"
            f"\nserver peak RSS (VmHWM, process tree): {peak_mb:.1f} MB "
            f"(per round: {per_round_mb}); goal ≤ {GOAL_MB:.0f} MB"
        )
    assert not offenders, f"requests left 127.0.0.1: {sorted(set(offenders))}"
    if os.environ.get("HANDBOOK_BENCH_STRICT", "") not in {"", "0"}:
        assert median_s <= GOAL_SECONDS, f"median start-up {median_s:.2f} s > {GOAL_SECONDS} s"
        assert peak_mb <= GOAL_MB, f"peak RSS {peak_mb:.1f} MB > {GOAL_MB} MB"
