"""The learned part of the search (:mod:`handbook.core.search.learned`): the shipped model matches the
data and code it was trained from (``make model`` retrains it), is small, never learned from a test
split, is read in plain Python, and a damaged or missing file is named or done without."""

from __future__ import annotations

import gzip
import json

import pytest

import handbook
from handbook.core.search import learned
from tests.support.evalset import load_cases
from tools.searchmodel import train


@pytest.fixture(scope="module")
def model():
    return learned.LearnedModel.load()


def test_the_shipped_model_matches_its_training_data_and_code(model):
    """Fails when a train split, the feature code or the training code changed since `make model`."""
    want = train.provenance()
    got = {k: model.meta.get(k) for k in want}
    assert got == want, "the shipped model is stale: run `make model`"


def test_the_model_file_is_small_and_says_where_it_comes_from(model):
    assert learned.MODEL_FILE.stat().st_size <= 1_000_000
    for key in ("library", "trained_on", "data_sha256", "code_sha256", "train_texts", "classes"):
        assert model.meta.get(key), key
    assert model.meta["library"].startswith("scikit-learn ")
    assert all(name.endswith("/train") for name in model.meta["trained_on"])


def test_no_test_query_is_also_a_training_query():
    train_texts = {c.query.strip().casefold() for c in load_cases(split="train")}
    leaked = [c.query for c in load_cases(split="test") if c.query.strip().casefold() in train_texts]
    assert not leaked, leaked[:5]


def test_every_class_of_the_model_is_an_answer_of_the_content(model, library):
    answers = set()
    for rs in library.rulesets.values():
        answers |= {f"penalty:{r.id}" for r in rs.penalties} | {f"{rs.id}/rule:{s.ref}" for s in rs.sections}
    assert set(model.classes) <= answers, set(model.classes) - answers


def test_a_long_story_is_decided_by_the_clause_that_holds_the_foul(model):
    clause = "his phone rang in his pocket"
    story = ("Sorry, long one. Table 6, South 2, two honba, East was on 31,200 and I was last on 18,000. "
             f"We were all tired after lunch, {clause}, and then the hand went on as normal. Scores were fine after.")
    def best_row(text):
        return max((p, c) for c, p in model.probabilities(text).items() if c.startswith("penalty:"))

    p_alone, alone = best_row(clause)
    p_story, story_best = best_row(story)
    assert story_best == alone == "penalty:phone-ringing"
    assert p_story >= 0.9 * p_alone


def test_clauses_cut_long_texts_only():
    assert learned.clauses("showed tiles") == []
    parts = learned.clauses("Table 3, East 1. North drew early before the discard was finished, and then he said sorry.")
    assert len(parts) >= 2


def test_a_damaged_model_file_is_named(tmp_path):
    bad = tmp_path / "model.json.gz"
    bad.write_bytes(b"not gzip")
    with pytest.raises(ValueError, match="model.json.gz"):
        learned.LearnedModel.load(bad)
    with gzip.open(bad, "wt") as fh:
        json.dump({"meta": {"features_version": -1}}, fh)
    with pytest.raises(ValueError, match="features version"):
        learned.LearnedModel.load(bad)


def test_the_search_works_without_a_model(monkeypatch, tmp_path):
    monkeypatch.setattr(learned, "MODEL_FILE", tmp_path / "absent.json.gz")
    monkeypatch.setattr(learned, "_loaded", None)
    lib = handbook.load_library()
    hits = lib.search("showed his tiles by accident", ruleset="azrm")
    assert [h.ref for h in hits if h.kind != "term"][:1] == ["revealed-tiles"] or "2.4" in [h.ref for h in hits[:3]]


def test_the_model_finds_what_the_words_alone_miss(library, monkeypatch):
    """An incident told without a word of the rows' names: the fused ranking finds the row."""
    query = "my smartwatch buzzed on my wrist during the hand"
    with_model = [h.ref for h in library.search(query, ruleset="ema-rcr") if h.kind != "term"][:3]
    assert "electronic-device" in with_model
