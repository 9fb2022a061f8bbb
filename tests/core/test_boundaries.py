"""Boundaries of the core: it imports neither flet nor tinydb, and search holds up on any input."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

BLOCKED_IMPORT = textwrap.dedent("""
    import sys
    sys.modules["flet"] = None      # `import flet` now raises ImportError
    sys.modules["tinydb"] = None
    import handbook.core.load, handbook.core.search, handbook.core.rulings, handbook.core.strikes
    import handbook
    import datetime
    lib = handbook.load_library()
    hits = lib.search("見せ牌")
    assert any(h.ref == "2.4" for h in hits), hits
    assert lib.search("chombo", ruleset="azrm")
    assert handbook.revealed_tiles("azrm", 3).penalty == "dead_hand"
    assert handbook.chombo("ema-rcr", "S").payments["E"] == 4000
    assert handbook.strike_status([], datetime.date(2026, 4, 20)).strikes_in_window == 0
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("flet", "tinydb") and sys.modules[m] is not None)
    assert not loaded, loaded
    assert not any(m.startswith("handbook.ui") for m in sys.modules), "the core imported the UI"
    print("ok")
""")


def _run(root_dir, code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root_dir) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", code], cwd=root_dir, env=env, capture_output=True, text=True,
                          timeout=120)


def test_core_imports_neither_flet_nor_tinydb(root_dir):
    done = _run(root_dir, BLOCKED_IMPORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


def test_blocking_works(root_dir):
    """The check above is meaningful: with flet blocked, importing it fails."""
    done = _run(root_dir, 'import sys; sys.modules["flet"] = None\nimport flet')
    assert done.returncode != 0 and "import of flet halted" in done.stderr


# --- search on any input -----------------------------------------------------------------------------

ALPHABET = st.sampled_from(
    list("abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.§-'’/()?!*\t")
    + list("ūōāŪÖéàü") + list("見せ牌多少喰い替え流局ちょんぼチョンボリーチ") + list("ＣＨＯＭＢＯﾁｮﾝﾎﾞｶﾞ　") + ["\u0301", "\u3099"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(query=st.one_of(st.text(ALPHABET, max_size=40), st.text(max_size=30)),
       limit=st.integers(min_value=1, max_value=60),
       ruleset=st.sampled_from([None, "azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"]))
def test_search_never_fails_and_respects_its_arguments(library, query, limit, ruleset):
    hits = library.search(query, ruleset=ruleset, limit=limit)
    assert isinstance(hits, list) and len(hits) <= limit
    if not query.strip():
        assert hits == []
    for h in hits:
        assert h.kind in ("rule", "penalty", "term", "yaku")
        if h.kind == "term":
            assert h.ruleset is None
        elif h.kind == "yaku":  # the chosen ruleset's yaku page, or none chosen
            assert h.ruleset == ruleset
        else:
            assert h.ruleset in library.rulesets
            if ruleset is not None:
                assert h.ruleset == ruleset
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("query", [
    "a" * 5000, "chombo " * 300, "§" * 100, "2." * 50, "1" * 200, "\x00\x01\x02", "\U0001f004",
    "🀄 mahjong", "ｶﾞｷﾞｸﾞ", "e\u0301", "Ⅻ ½ ﬁ", "' OR 1=1 --", ".*", "[", "(", "\\", "%s%d",
])
def test_odd_queries(library, query):
    hits = library.search(query, limit=10)
    assert isinstance(hits, list) and len(hits) <= 10


def test_a_long_query_still_finds_its_words(library):
    """One word that matches nothing does not hide a long query's answer."""
    hits = library.search("wrongly revealing tiles zzqx")
    assert ("rule", "azrm", "2.4") in [(h.kind, h.ruleset, h.ref) for h in hits[:5]]


def test_limit_boundaries(library):
    assert len(library.search("the", limit=1)) <= 1
    everything = library.search("tile", limit=10**9)
    assert len(everything) == len({(h.kind, h.ruleset, h.ref, h.row) for h in everything})
