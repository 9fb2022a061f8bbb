"""``make test``'s units of work for pytest-xdist (both runs: ``--dist loadscope``).

pytest-xdist's ``loadscope`` hands each worker whole units -- by default a test module -- so that a
module's shared set-up (its served app, its page with the app loaded: ``tests/e2e/conftest.py``;
its module fixtures) is made once rather than once per worker that took one of its tests
(``worksteal`` splits modules at the end of the run; each split cost a page load, ~2.5 CPU-s, or a
served app). The units here:

* an offline-PWA test (``tests/pwa``): each alone (nothing is shared; each is a first visit);
* the layout walk (``tests/e2e/test_layout_walk.py``): one unit per window and language, the
  tests that share one page (its ``walker``);
* a test of :data:`OWN_UNITS` (each opens its own browser profile and is long: the "What
  happened?" walk's ruleset and language): each alone;
* any other test: its module.

Units are handed out in the order the tests are collected, one at a time to the worker that is
nearly done; :func:`heaviest_first` puts the longest units first (a long unit taken last would
run alone at the end).

(``--dist loadgroup`` would say the same with marks, but pytest-xdist 3.8 cannot rename the
tests of a group under pytest 9.)
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

WALK = "tests/e2e/test_layout_walk.py"
#: tests that are units of their own (a test id, or the start of one: all its parameters)
OWN_UNITS = ("tests/e2e/test_what_happened.py::",)
#: the longest units, longest first: a test file, or the start of test ids. Browser run (four
#: workers on two cores): test_handbook ~100 s, each offline test ~50 s, each ruleset and language
#: of the "What happened?" walk ~30-40 s, the Japanese screens ~70 s, each window of the layout
#: walk ~50 s, the calculators ~35-45 s, each CanvasKit variant ~35 s, the offline deep links
#: ~35 s, the hand checker ~30 s; the others (~25 s or less) follow in collection order. The other
#: run (two workers): the search's judge module (its recall floors: ~41,000 searches, ~70 CPU-s, in
#: one module fixture), the "not covered" check (~13 CPU-s), the crash faults (~9 s). (Split into a
#: test per ruleset, the floors searched each query once per test: the search's memo of a query's
#: reading no longer held it from one ruleset to the next, and the floors took far longer.)
HEAVIEST = ("tests/e2e/test_handbook.py", "tests/pwa/test_offline.py",
            "tests/e2e/test_what_happened.py::test_every_foul_in_three_taps",
            "tests/e2e/test_japanese_browser.py", WALK, "tests/e2e/test_tools.py", "tests/pwa/test_variants.py",
            "tests/pwa/test_offline_deep_links.py", "tests/e2e/test_hand.py",
            "tests/core/test_search_judge.py", "tests/core/test_search_coverage.py", "tests/ledger/test_crash_faults.py")


def _rank(nodeid: str) -> int:
    path = nodeid.partition("::")[0]
    for n, heavy in enumerate(HEAVIEST):
        if heavy == path or ("::" in heavy and nodeid.startswith(heavy)):
            return n
    return len(HEAVIEST)


def heaviest_first(items: list) -> None:
    """Sort ``items`` (stable) so that the tests of :data:`HEAVIEST` come first, in that order."""
    items.sort(key=lambda item: _rank(item.nodeid))


def unit(nodeid: str) -> str:
    """The unit of work the test ``nodeid`` belongs to (this module's docstring): the test itself
    under tests/pwa and in :data:`OWN_UNITS`, ``<walk>::<window>-<language>`` in the layout walk,
    otherwise its module."""
    path, _, name = nodeid.partition("::")
    if path.startswith("tests/pwa/") or nodeid.startswith(OWN_UNITS):
        return nodeid
    if path == WALK and "[" in name:
        return f"{path}::{name.split('[', 1)[1].split('-chromium-', 1)[0]}"
    return path


class BrowserScopes(LoadScopeScheduling):
    """:class:`xdist.scheduler.LoadScopeScheduling` whose units are :func:`unit`'s."""

    def _split_scope(self, nodeid: str) -> str:
        return unit(nodeid)
