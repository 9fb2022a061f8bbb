"""How the search index is built and kept (handbook.core.search): the parts built on first use
and the memos give the same results as building and matching afresh."""

from __future__ import annotations

import threading

import pytest

from handbook.core.search import cache, folding
from handbook.core.search import SearchIndex

QUERIES = [("見せ牌", None), ("手牌を倒して見せてしまった", "azrm"), ("ショーハイ", None), ("chombo", "azrm"),
           ("revaeled", None), ("obstrcution", None), ("mumbled something and grabbed the tile", "wrc-2025"),
           ("kuikae", "rakkii-nomi-2026"), ("携帯が鳴った", "ema-rcr"), ("12.3.1 (2)", None)]


def _ranked(index: SearchIndex) -> list:
    return [[(h.kind, h.ruleset, h.ref, h.score) for h in index.search(q, ruleset=r)] for q, r in QUERIES]


@pytest.fixture(scope="module")
def fresh_results(library):
    """Every query on an index without memos (each word matched afresh)."""
    saved = cache._memoised
    cache._memoised = lambda match: match
    try:
        return _ranked(SearchIndex(library))
    finally:
        cache._memoised = saved


def test_japanese_tables_are_built_by_the_first_japanese_query(library):
    index = SearchIndex(library)
    assert "_ja_grams" not in vars(index) and index._ja_pending
    index.search("chombo")
    assert "_ja_grams" not in vars(index), "an English query built the Japanese tables"
    assert any(h.ref == "2.4" for h in index.search("見せ牌"))
    assert "_ja_grams" in vars(index) and not index._ja_pending


def test_japanese_tables_built_once_when_two_searches_start_together(library, fresh_results):
    index = SearchIndex(library)
    builds = []

    class Pending(list):
        def __iter__(self):  # read once per build of the tables
            builds.append(1)
            return super().__iter__()

    index._ja_pending = Pending(index._ja_pending)
    results = [None, None]
    start = threading.Barrier(2)

    def run(i):
        start.wait()
        results[i] = _ranked(index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results[0] == results[1] == fresh_results
    assert len(index._ja_fields) > 100 and builds == [1]  # the second caller found them built


def test_memoised_matches_give_the_same_results_again(library, fresh_results):
    index = SearchIndex(library)
    assert _ranked(index) == fresh_results
    assert _ranked(index) == fresh_results  # now from the memos


def test_the_memo_keeps_a_bounded_number_of_words(monkeypatch):
    monkeypatch.setattr(cache, "UNIT_MEMO", 3)
    calls = []
    memoised = cache._memoised(lambda w: calls.append(w) or {len(w): 1.0})
    for w in ["a", "bb", "a", "ccc", "dddd", "a"]:
        assert memoised(w) == {len(w): 1.0}
    assert calls == ["a", "bb", "ccc", "dddd", "a"]  # "a" was the oldest when "dddd" came


def _typo(word: str, n: int, seed: int) -> str:
    """``word`` with ``n`` random edits (insertion, deletion, substitution, transposition)."""
    import random

    rnd = random.Random(seed)
    for _ in range(n):
        op, i, c = rnd.randrange(4), rnd.randrange(len(word) + 1), rnd.choice("aeioustnr")
        if op == 0:
            word = word[:i] + c + word[i:]
        elif op == 1 and len(word) > 1:
            word = word[:i] + word[i + 1:]
        elif op == 2 and i < len(word):
            word = word[:i] + c + word[i + 1:]
        elif op == 3 and i + 1 < len(word):
            word = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return word


def test_typo_matches_are_those_of_a_scan_of_the_whole_vocabulary(library):
    from rapidfuzz import process
    from rapidfuzz.distance import DamerauLevenshtein

    index = SearchIndex(library)
    keys = index._fuzzy_keys
    words = {_typo(k, n, seed) for seed, k in enumerate(keys[::3]) for n in (1, 2, 3)}
    words |= {"revaeled", "obstrcution", "furitne", "atamahene", "mumbled", "understood", "declaired"}
    checked = 0
    for word in sorted(w for w in words if w.isalpha() and len(w) >= 3):
        for limit in (1, 2):
            scanned = [(k, d) for k, d, _ in process.extract(
                word, [k for k in keys if abs(len(k) - len(word)) <= limit],
                scorer=DamerauLevenshtein.distance, score_cutoff=limit, limit=None)]
            assert index._typo_matches(word, limit) == scanned, (word, limit)
            checked += bool(scanned)
    assert checked > 500


def test_name_bonus_tables_hold_each_document_under_its_names(library):
    index = SearchIndex(library)
    assert "_exact_docs" not in vars(index)
    index.search("chombo")
    for table, field in ((index._exact_docs, "exact_set"), (index._pair_docs, "pairs")):
        assert {(name, d) for name, ds in table.items() for d in ds} == {
            (name, d) for d, doc in enumerate(index.docs) for name in getattr(doc, field)}


@pytest.mark.parametrize("ruleset", [None, "azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_title_shares_are_those_of_a_scan_of_every_title(library, ruleset):
    index = SearchIndex(library)
    index.search("chombo")
    scope = index._scope(ruleset, False)
    stems = sorted({w for doc in index.docs for t in doc.title_stems for w in t})
    queries = [{"tile"}, {"call", "pon", "tile", "take", "not"}, {"dead", "hand"}, {"riichi", "stick"}, {"zzz"}]
    queries += [set(stems[i::97]) for i in range(0, 97, 7)]
    for qset in queries:
        scanned = {}
        for d in scope:
            for t in index.docs[d].title_stems:
                n = sum(t.count(w) for w in qset)
                if n:
                    scanned[d] = max(scanned.get(d, 0.0), n / len(t))
        assert index._title_shares(qset, ruleset, False) == scanned, sorted(qset)


def test_the_garbage_collector_is_back_after_loading_even_on_bad_content(tmp_path):
    import gc

    import handbook

    assert gc.isenabled()
    handbook.load_library(index=True)
    assert gc.isenabled()
    with pytest.raises(handbook.ContentError):
        handbook.load_library(tmp_path / "missing")
    assert gc.isenabled()
    gc.disable()
    try:
        handbook.load_library()
        assert not gc.isenabled(), "a collector the caller had turned off was turned on"
    finally:
        gc.enable()


def test_a_phrase_is_found_in_a_title_as_by_scanning_every_title(library):
    index = SearchIndex(library)
    runs = {run for doc in index.docs for t in doc.title_stems
            for n in (1, 2, 3) for run in zip(*(t[i:] for i in range(n)), strict=False)}
    runs |= {("tile", "tile"), ("dead", "hand", "tile"), ("hand", "dead")}
    checked = 0
    for doc in index.docs:
        for run in runs:
            if doc.stem_set.issuperset(run):
                scanned = any(folding.contains_run(t, run) for t in doc.title_stems)
                assert doc.has_phrase(run) == scanned, (doc.hit.ref, run)
                checked += 1
    assert checked > 1000


def test_fold_is_nfkc_casefold_without_accents_as_defined():
    """fold's shortcuts (no translation where nothing is to translate, accents found by one
    pattern) give what the definition gives, on every character up to U+3100 and on mixed text."""
    import random
    import unicodedata

    def defined(text: str) -> str:
        if text.isascii():
            return text.lower()
        text = unicodedata.normalize("NFKC", text).casefold().translate(folding._MACRONS).translate(
            folding._KATA_TO_HIRA)
        decomposed = unicodedata.normalize("NFD", text)
        if len(decomposed) != len(text):
            text = unicodedata.normalize("NFC", "".join(
                c for c in decomposed if not (unicodedata.combining(c) and ord(c) < 0x3000)))
        return text

    chars = [chr(c) for c in range(0x20, 0x3100)] + list("ｶﾞﾁｮﾝﾎﾞＣＨＯＭＢＯがぱヴゔ喰自摸")
    rnd = random.Random(8)
    texts = chars + ["".join(rnd.choice(chars) for _ in range(rnd.randrange(2, 12))) for _ in range(20000)]
    texts += ["Ryūkyoku", "İstanbul", "café ﬁnal", "ショーハイ", "チョンボ (錯和)", "Ｔｅｎｐａｉ"]
    for text in texts:
        assert folding.fold.__wrapped__(text) == defined(text), repr(text)


def test_short_japanese_words_are_found_as_by_scanning_every_field(library):
    """One- and two-character words (牌, 手牌) are looked up in tables built once; what they find,
    and in which order, is what scanning every Japanese field for the word finds."""
    index = SearchIndex(library)
    index.search("見せ牌")
    fields = index._ja_fields
    chars = sorted({c for text, _d, _w in fields for c in text if not c.isascii()})
    pairs = sorted({run[i:i + 2] for text, _d, _w in fields for run in folding.CJK_RUN.findall(text)
                    for i in range(len(run) - 1)})
    words = chars[::2] + pairs[::7] + ["牌", "手牌", "見せ", "ツモ", "つも", "x", "ぁ"]
    for word in words:
        scanned: dict[int, float] = {}
        for text, doc, w in fields:
            if word in text:
                s = w * (2.0 if text == word else 1.0)
                if s > scanned.get(doc, 0.0):
                    scanned[doc] = s
        found = index._ja_word_unit(word)
        assert list(found.items()) == list(scanned.items()), word
        assert index.japanese_unit(word) == found, word
    assert len(words) > 250
