"""Japanese verbs typed in romaji (handbook.core.search.romaji): their forms, and a romaji sentence
meeting the rows that say the act in English."""

from __future__ import annotations

import pytest

from handbook.core.search.romaji import GROUPS, VERBS, forms


@pytest.mark.parametrize(("verb", "kind", "some"), [
    ("kakusu", "5", {"kakushita", "kakushiteta", "kakusanakatta", "kakusazu", "kakushichatta"}),
    ("shitagau", "5", {"shitagatta", "shitagawanai", "shitagawanakatta", "shitagaimasen"}),
    ("kaeru", "5", {"kaetta", "kaecchatta", "kaeranai"}),
    ("matsu", "5", {"machi", "matta", "matanai"}),
    ("yomu", "5", {"yonda", "yonde", "yomanai"}),
    ("okureru", "1", {"okureta", "okurete", "okurenai", "okurechatta"}),
])
def test_the_forms_of_a_verb(verb, kind, some):
    assert some <= set(forms(verb, kind))


@pytest.mark.parametrize(("verb", "kind", "field"), [("kaku", "3", "kind"), ("tabe", "1", "ichidan"),
                                                     ("xyz", "5", "godan")])
def test_a_verb_of_no_known_class_is_refused(verb, kind, field):
    with pytest.raises(ValueError, match=field):
        forms(verb, kind)


def test_every_verb_joins_its_english_word():
    words = {g[0] for g in GROUPS}
    assert words == {word for _v, _k, word in VERBS}
    assert all(len(g) > 5 for g in GROUPS)


@pytest.mark.parametrize(("query", "ruleset", "want"), [
    ("gofun okureta", "wrc-2025", "late"),                      # was five minutes late
    ("chuuto de kaecchatta hito no ten wa dou naru", "azrm", "forfeiting-hanchan"),  # went home midway
])
def test_a_romaji_sentence_meets_the_row_that_says_it_in_english(library, query, ruleset, want):
    found = [h.ref for h in library.search(query, ruleset=ruleset) if h.kind in ("rule", "penalty")][:3]
    assert want in found, found


def test_an_english_word_gains_no_romaji_synonyms(library):
    index = library.warm()
    assert not any(k.startswith("kakus") for k in index._candidates("hide", False))


@pytest.mark.parametrize(("query", "ruleset", "want"), [
    # a count of tiles with the counter mai (枚), in digits or in romaji numbers
    ("tehai ga juugo mai", "wrc-2025", "penalty:wrong-tile-count"),
    ("tehai ga 15mai", "azrm", "penalty:wrong-tile-count"),
    ("tehai ga juusanmai janai", "wrc-2025", "penalty:wrong-tile-count"),
    ("misehai 3 mai, not in riichi", "wrc-2025-lower", "penalty:revealed-tiles"),
])
def test_a_count_of_tiles_in_romaji_is_read_as_tiles(library, query, ruleset, want):
    hits = [f"{h.kind}:{h.ref}" for h in library.search(query, ruleset=ruleset) if h.kind in ("rule", "penalty")]
    assert want in hits[:3], hits[:3]


@pytest.mark.parametrize(("text", "read"), [
    ("juugomai", "15 tiles"), ("yon mai", "4 tiles"), ("15mai", "15 tiles"), ("juu mai", "10 tiles"),
    ("mainichi", "mainichi"), ("umai", "umai"), ("1.5mai", "1.5mai"),
])
def test_the_romaji_tile_counter(text, read):
    from handbook.core.search.ranking import _ROMAJI_TILES, _tiles

    assert _ROMAJI_TILES.sub(_tiles, text) == read
