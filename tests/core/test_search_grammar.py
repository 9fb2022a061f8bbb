"""The incident grammar (handbook.core.search.grammar): structures a bag of words misses, named
in the rules' words."""

from __future__ import annotations

import pytest

from handbook.core.search import fold
from handbook.core.search.grammar import concepts


@pytest.mark.parametrize("query", [
    "two people called ron", "both players declared ron on the same tile", "ron by two players",
    "2 players won on the same discard", "2人がロンした", "二人同時にロン",
])
def test_several_players_winning_is_read_in_any_wording(query):
    assert concepts(fold(query)), query


@pytest.mark.parametrize("query", [
    "two tiles ron", "player called ron twice", "two people talked", "double ron", "ron", "both tiles fell",
])
def test_other_counts_and_actors_are_not(query):
    assert not concepts(fold(query)), query


@pytest.mark.parametrize("query", ["two people called ron", "both players declared ron", "2人がロンした"])
def test_several_winners_reach_rakkii_nomi_multiple_winners(library, query):
    rulings = [f"{h.kind}:{h.ref}" for h in library.search(query, ruleset="rakkii-nomi-2026") if h.kind != "term"]
    assert "rule:2.3" in rulings[:3], (query, rulings[:3])
