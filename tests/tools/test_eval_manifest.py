"""The evaluation manifest's reader (tests/support/eval_manifest.py): BEIR-style queries and
judgements per set, read into the cases the recall and the page benchmark use."""

from __future__ import annotations

import json

import pytest
from tests.support.eval_manifest import load_splits, read_split


def _set(root, name, queries, qrels, header=True):
    d = root / name
    (d / "qrels").mkdir(parents=True)
    (d / "queries.jsonl").write_text("".join(json.dumps(q, ensure_ascii=False) + "\n" for q in queries),
                                     encoding="utf-8")
    lines = (["query-id\truleset\tanswer"] if header else []) + ["\t".join(r) for r in qrels]
    (d / "qrels" / "test.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return d


def test_a_manifest_of_two_sets(tmp_path):
    _set(tmp_path, "real", [{"id": "r1", "text": "誤ポンした", "lang": "ja"}, {"id": "r2", "text": "unjudged", "lang": "en"}],
         [("r1", "azrm", "penalty:empty-call-group"), ("r1", "azrm", "rule:5.1"), ("r1", "wrc-2025", "penalty:invalid-group")])
    _set(tmp_path, "synthetic", [{"_id": "s1", "text": "phone rang", "lang": "en"}],
         [("s1", "ema-rcr", "penalty:phone-ringing")], header=False)
    (tmp_path / "manifest.toml").write_text(
        '[[set]]\npath = "real"\nsplit = "test"\n\n[[set]]\nname = "synth"\npath = "synthetic"\nsplit = ["train", "test"]\n',
        encoding="utf-8")
    splits = load_splits(tmp_path / "manifest.toml")
    assert [s.name for s in splits] == ["real/test", "synth/test"]  # train splits are not measured
    (real,) = splits[0].cases
    assert real.query == "誤ポンした" and real.lang == "ja"
    assert real.expect == {"azrm": frozenset({"penalty:empty-call-group", "rule:5.1"}),
                           "wrc-2025": frozenset({"penalty:invalid-group"})}
    assert splits[1].cases[0].expect == {"ema-rcr": frozenset({"penalty:phone-ringing"})}


def test_no_manifest_is_none(tmp_path):
    assert load_splits(tmp_path / "manifest.toml") is None


def test_a_judgement_of_an_unknown_query_is_named(tmp_path):
    d = _set(tmp_path, "bad", [{"id": "q1", "text": "x"}], [("q9", "azrm", "rule:2.4")])
    with pytest.raises(ValueError, match=r"test.tsv:2: query 'q9'"):
        read_split(d, "test")
