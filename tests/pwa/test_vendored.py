"""The pure-Python dependencies the PWA carries (workaround 4), checked under CPython.

``workaround_vendored_dependencies`` copies the handbook's dependencies into a fresh
``__pypackages__`` without compiled modules; here a separate ``python -I -S`` (no site-packages:
only the standard library and that folder) imports them the way the app does. For rapidfuzz
this proves the pure-Python fallback: ``import rapidfuzz; from rapidfuzz import process;
from rapidfuzz.distance import DamerauLevenshtein`` work with no ``.so`` and
``RAPIDFUZZ_IMPLEMENTATION=python``. The trimmed snowballstemmer must stem exactly as the full one,
and Babel must still format dates and numbers in English and Japanese. simplemma (the search's
English lemmatiser) keeps only its English dictionary and lemmatises as the installed package.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from tests.support.pwa_harness import ROOT, pwa_build

CHECK = r"""
import json, os, sys
pkgs = sys.argv[1]
sys.path[:0] = [pkgs, sys.argv[2]]
out = {}

import rapidfuzz
from rapidfuzz import process, fuzz, utils
from rapidfuzz.distance import DamerauLevenshtein
out["rapidfuzz_file"] = rapidfuzz.__file__
out["rapidfuzz_impl"] = sorted(m for m in sys.modules if m.startswith("rapidfuzz") and
                               (m.endswith("_py") or m.endswith("_cpp") or "cpp" in m))
out["dl"] = DamerauLevenshtein.distance("chombo", "cohmbo")
out["best"] = process.extractOne("chonbo", ["chombo", "riichi", "kan"], scorer=fuzz.WRatio)[0]

import snowballstemmer
words = ["penalties", "revealed", "calling", "discarded", "tiles", "chombo", "winning"]
out["stems"] = snowballstemmer.stemmer("english").stemWords(words)
out["stemmers"] = snowballstemmer.algorithms()

import datetime
from babel.dates import format_date
from babel.numbers import format_decimal
out["dates"] = [format_date(datetime.date(2026, 4, 20), locale=l) for l in ("en", "ja", "ja_JP", "en_GB")]
out["numbers"] = [format_decimal(-1234.5, locale=l) for l in ("en", "ja")]

import msgpack
out["msgpack"] = msgpack.Packer.__module__
assert msgpack.unpackb(msgpack.packb({"a": [1, 2.5, "見"]})) == {"a": [1, 2.5, "見"]}

import tinydb, fastjsonschema, platformdirs, filelock, repath, six
v = fastjsonschema.compile({"type": "object", "required": ["n"]})
v({"n": 1})

import datetime as _dt
import fsrs
sched = fsrs.Scheduler(enable_fuzzing=False)
t0 = _dt.datetime(2026, 5, 1, tzinfo=_dt.timezone.utc)
out["fsrs"] = [sched.review_card(fsrs.Card(card_id=0, due=t0), r, review_datetime=t0)[0].due.isoformat()
               for r in fsrs.Rating]
out["fsrs_file"] = fsrs.__file__
out["fsrs_optimizer"] = os.path.exists(os.path.join(os.path.dirname(fsrs.__file__), "optimizer.py"))

import simplemma
from simplemma.strategies.dictionaries import dictionary_factory
out["simplemma_file"] = simplemma.__file__
out["lemma_languages"] = sorted(dictionary_factory.SUPPORTED_LANGUAGES)
out["lemmas"] = [simplemma.lemmatize(w, lang="en") for w in ("took", "drew", "fell", "tiles")]
from handbook.core import search as _search
out["lemmatizer"] = _search.warm_lemmatizer()
import jaconv
out["jaconv_file"] = jaconv.__file__
out["romaji"] = _search.romaji_of("ちゅうざ")

import handbook
lib = handbook.load_library()
import handbook.study.store
out["deck"] = len(handbook.study_deck("azrm", library=lib))
out["search"] = lib.search("chonbo")[0].ref
import mahjong
v = handbook.hand_value("rakkii-nomi-2026", "234067m22p345s678s", win="8s", discarder="S", seat="W",
                        riichi=True, library=lib)
out["mahjong_file"] = mahjong.__file__
out["hand"] = [v.han, v.fu, v.points, v.payments["S"]]

out["files"] = sorted({os.path.dirname(m.__file__).split(os.sep)[-1] for m in
                       (rapidfuzz, snowballstemmer, msgpack, tinydb, fastjsonschema, platformdirs,
                        filelock)})
out["outside"] = sorted(n for n, m in sys.modules.items()
                        if getattr(m, "__file__", None) and "site-packages" in m.__file__)
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def vendored(tmp_path_factory):
    stage = tmp_path_factory.mktemp("vendored")
    versions = pwa_build.workaround_vendored_dependencies(stage)
    return stage / "__pypackages__", versions


def test_no_compiled_modules(vendored):
    pkgs, versions = vendored
    assert set(versions) == set(pwa_build.VENDORED)
    compiled = [p for p in pkgs.rglob("*") if p.suffix in (".so", ".pyd")]
    assert not compiled, compiled
    assert not list(pkgs.rglob("__pycache__"))


def test_pure_python_copies_work_under_cpython(vendored):
    pkgs, _ = vendored
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["RAPIDFUZZ_IMPLEMENTATION"] = "python"
    res = subprocess.run([sys.executable, "-I", "-S", "-c", CHECK, str(pkgs), str(ROOT)],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["rapidfuzz_file"].startswith(str(pkgs))
    assert not [m for m in out["rapidfuzz_impl"] if "cpp" in m], out["rapidfuzz_impl"]
    assert out["dl"] == 1 and out["best"] == "chombo"
    assert out["stemmers"] == ["english"]
    assert out["msgpack"] == "msgpack.fallback"
    assert out["search"], "the handbook's search found nothing"
    # the search's kana -> romaji (jaconv) comes from the vendored copy
    assert out["jaconv_file"].startswith(str(pkgs)) and out["romaji"] == "chuuza"
    assert out["outside"] == [], f"imported from site-packages: {out['outside']}"
    assert out["dates"][0] == "Apr 20, 2026" and out["dates"][1] == "2026/04/20"
    # the study scheduler: the vendored fsrs schedules exactly as the installed one
    import datetime

    import fsrs

    assert out["fsrs_file"].startswith(str(pkgs)) and not out["fsrs_optimizer"]
    sched = fsrs.Scheduler(enable_fuzzing=False)
    t0 = datetime.datetime(2026, 5, 1, tzinfo=datetime.timezone.utc)
    assert out["fsrs"] == [sched.review_card(fsrs.Card(card_id=0, due=t0), r, review_datetime=t0)[0].due.isoformat()
                           for r in fsrs.Rating]
    assert out["deck"] > 0
    # the hand checker: the vendored mahjong package counts riichi, pinfu, tanyao and a red five
    assert out["mahjong_file"].startswith(str(pkgs)) and out["hand"] == [4, 30, "8,000", -8000]  # 4-30 rounded up

    # the search's lemmatiser: English only, and it lemmatises exactly as the installed one
    import simplemma

    assert out["simplemma_file"].startswith(str(pkgs))
    assert out["lemma_languages"] == ["en"] and out["lemmatizer"] is True
    assert out["lemmas"] == [simplemma.lemmatize(w, lang="en") for w in ("took", "drew", "fell", "tiles")]
    assert out["lemmas"][0] == "take"

    # the trimmed stemmer stems exactly as the full package does
    import snowballstemmer

    words = ["penalties", "revealed", "calling", "discarded", "tiles", "chombo", "winning"]
    assert out["stems"] == snowballstemmer.stemmer("english").stemWords(words)


def test_simplemma_keeps_only_english(vendored):
    pkgs, _ = vendored
    data = sorted(p.name for p in pkgs.rglob("*.plzma"))
    assert data == ["en.plzma"], data
