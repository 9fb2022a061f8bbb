"""The browser run's units of work for pytest-xdist (``make test``: ``--dist loadscope``).

pytest-xdist's ``loadscope`` hands each worker whole units -- by default a test module -- so that a
module's shared set-up (its served app, its page with the app loaded: ``tests/e2e/conftest.py``)
is made once rather than once per worker that took one of its tests (``worksteal`` splits modules
at the end of the run; each split cost a page load, ~2.5 CPU-s, or a served app). The units here:

* an offline-PWA test (``tests/pwa``): each alone (nothing is shared; each is a first visit);
* the layout walk (``tests/e2e/test_layout_walk.py``): one unit per window and language, the
  tests that share one page (its ``walker``);
* any other browser test: its module.

Units are handed out in the order the tests are collected, one at a time to the worker that is
nearly done; :func:`heaviest_first` puts the longest units first (the browser run's longest
first: a long unit taken last would run alone at the end).

(``--dist loadgroup`` would say the same with marks, but pytest-xdist 3.8 cannot rename the
tests of a group under pytest 9.)
"""

from __future__ import annotations

from xdist.scheduler import LoadScopeScheduling

WALK = "tests/e2e/test_layout_walk.py"
#: the longest units, longest first (their time in a four-worker run on two cores: test_handbook
#: ~100 s, each offline test ~50 s, the Japanese screens ~70 s, each window of the walk ~50 s, the
#: calculators ~35-45 s, each CanvasKit variant ~35 s, the offline deep links ~35 s, the hand
#: checker ~30 s); the others (~25 s or less) follow in collection order
HEAVIEST = ("tests/e2e/test_handbook.py", "tests/pwa/test_offline.py", "tests/e2e/test_japanese_browser.py",
            WALK, "tests/e2e/test_tools.py", "tests/pwa/test_variants.py", "tests/pwa/test_offline_deep_links.py",
            "tests/e2e/test_hand.py")


def heaviest_first(items: list) -> None:
    """Sort the browser run's ``items`` (stable) so that the modules of :data:`HEAVIEST` come first, in
    that order."""
    rank = {path: n for n, path in enumerate(HEAVIEST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(HEAVIEST)))


def unit(nodeid: str) -> str:
    """The unit of work the test ``nodeid`` belongs to (this module's docstring): the test itself
    under tests/pwa, ``<walk>::<window>-<language>`` in the layout walk, otherwise its module."""
    path, _, name = nodeid.partition("::")
    if path.startswith("tests/pwa/"):
        return nodeid
    if path == WALK and "[" in name:
        return f"{path}::{name.split('[', 1)[1].split('-chromium-', 1)[0]}"
    return path


class BrowserScopes(LoadScopeScheduling):
    """:class:`xdist.scheduler.LoadScopeScheduling` whose units are :func:`unit`'s."""

    def _split_scope(self, nodeid: str) -> str:
        return unit(nodeid)
