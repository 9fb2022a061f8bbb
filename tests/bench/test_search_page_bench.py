"""The ruling on the first screen (``make bench``): how often the page, not only the core, shows a
judge the ruling for an incident without scrolling, per ruleset, beside the core's recall@3.

The app is served (``python -m handbook serve``) and opened in headless Chromium at 412×915 (a
phone) with a ruleset remembered (the picker's setting in the browser's storage), one profile per
ruleset. The incidents are every :data:`STEP`-th query of every test split the evaluation manifest
lists (``tests/eval/manifest.toml``, read by ``tools.evaldata``), each split's figures apart. Each is typed into the search box as a judge would; once the results
settle, the ruling counts as seen when a result the case names for that ruleset -- a penalty row
(its title and penalty) or a section (its § and title, with the penalties citing it) -- is one
node of Flutter's ARIA tree lying wholly between the ruleset picker and the navigation bar.

Goal (issue 22): ≥ 90 % in every ruleset. The figures are printed and kept in
``benchmark.extra_info``; ``HANDBOOK_BENCH_STRICT=1`` turns a missed goal into a failure.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import defaultdict

import pytest
from tests.support.browser_harness import CHROMIUM, Handbook, launch_browser, new_context, start_server, stop_server  # noqa: E402
from tests.support.first_screen import RULESET_KEY, START_TEXT, settled, wholly_shown  # noqa: E402
from tests.support.evalset import Case, load_cases, recall_at_3, sets  # noqa: E402

import handbook  # noqa: E402
from handbook.ui.views.search import ranked_results  # noqa: E402

pytestmark = pytest.mark.browser

GOAL = 0.90
#: every STEP-th case of the split is typed (about 20 incidents per ruleset of a 220-case split)
STEP = int(os.environ.get("HANDBOOK_PAGE_BENCH_STEP", "8"))
def _wanted(library, ruleset: str, answers) -> list[tuple[str, ...]]:
    """For each answer of a case, the texts one result node must hold to show it."""
    rs = library.rulesets[ruleset]
    out = []
    for answer in answers:
        kind, _, ref = answer.partition(":")
        if kind == "penalty":
            out += [(r.foul, r.penalty) for r in rs.rows(ref) if r.penalty]
        elif rs.has_section(ref):
            out.append((f"§{ref}", rs.section(ref).title))
    return out


def measured_splits() -> list[tuple[str, list[Case]]]:
    """``[(split name, its cases), …]``: the test split of every set of the manifest that has one."""
    return [(f"{s.name}/test", load_cases(name=s.name, split="test")) for s in sets() if "test" in s.splits]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`)")
    tmp = tmp_path_factory.mktemp("page-bench")
    srv = start_server(tmp / "data", tmp / "server.log")
    try:
        yield srv
    finally:
        stop_server(srv)


def test_the_ruling_is_on_the_first_screen(benchmark, served, capsys):
    library = handbook.load_library()
    splits = measured_splits()
    # (split, ruleset) -> [seen, typed]
    seen: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    missed: list[str] = []

    def run() -> None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = launch_browser(pw)
            try:
                for ruleset in library.rulesets:
                    ctx = new_context(browser, reduced_motion="no-preference")  # a phone's default
                    ctx.add_init_script(f"localStorage.setItem('{RULESET_KEY}', JSON.stringify('{ruleset}'))")
                    hb = Handbook(ctx.new_page(), served)
                    hb.open("/", ready="Search")
                    for name, cases in splits:
                        for case in cases[::STEP]:
                            if ruleset not in case.expect:
                                continue
                            ok = _seen_on_first_screen(hb, library, ruleset, case)
                            seen[name, ruleset][0] += ok
                            seen[name, ruleset][1] += 1
                            if not ok:
                                missed.append(f"{name} {ruleset}: {case.query!r}")
                            sys.__stdout__.write(f"{name} {ruleset}: {'seen' if ok else 'not seen'}: {case.query!r}\n")
                            sys.__stdout__.flush()
                    ctx.close()
            finally:
                browser.close()

    benchmark.pedantic(run, rounds=1, iterations=1)
    lines = [f"{'split':28} {'ruleset':18} {'first screen':>14} {'recall@3 (core)':>17}"]
    for name, cases in splits:
        per, _misses = recall_at_3(library, cases)
        for rs in library.rulesets:
            if (name, rs) not in seen:
                continue
            ok, total = seen[name, rs]
            lines.append(f"{name:28} {rs:18} {ok:3}/{total:<3} {100 * ok / total:5.1f} %   "
                         f"{per[rs].hits:4}/{per[rs].total:<4} {100 * per[rs].rate:5.1f} %")
        benchmark.extra_info.setdefault("recall_at_3", {})[name] = {rs: r.rate for rs, r in per.items()}
    with capsys.disabled():
        print("\nthe ruling fully visible at 412×915 without scrolling (every "
              f"{STEP}th query of each split), and the core's recall@3:")
        print("\n".join(lines))
        if missed:
            print("not on the first screen: " + "; ".join(missed[:30]))
    benchmark.extra_info["first_screen"] = {f"{n} {rs}": ok / total for (n, rs), (ok, total) in seen.items()}
    if os.environ.get("HANDBOOK_BENCH_STRICT") == "1":
        assert all(ok / total >= GOAL for ok, total in seen.values()), lines


def _seen_on_first_screen(hb, library, ruleset: str, case: Case) -> bool:
    """Types ``case`` (from the start screen) and says whether a result it names for ``ruleset``
    lies wholly on the first screen."""
    # from the start screen, so that the last query's results are gone first
    hb.type_into("Search", "")
    hb.wait_for_text(START_TEXT)
    # the search box holds one line: a text of several paragraphs (real players' posts) is typed
    # as a paste into it leaves it, its line breaks as spaces
    typed = " ".join(case.query.split())
    hb.type_into("Search", typed)
    hb.wait_for_no_text(START_TEXT)
    # the page has caught up with the last keystroke when the first result the core gives for the
    # whole query is there (a busy server lags behind typing)
    first = ranked_results(library, typed, ruleset)[:1]
    if first:
        with contextlib.suppress(AssertionError):
            hb.wait_for_text(first[0].title, timeout=20)
    snap = settled(hb.page)
    return any(wholly_shown(snap, want) for want in _wanted(library, ruleset, case.expect[ruleset]))
