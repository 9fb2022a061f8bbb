"""What an index keeps between queries and between runs: the memo of recent query words, its
building state as plain data (for :mod:`handbook.core.index_cache`), and the paused collector
while it is built."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections import defaultdict

from handbook.core.model import Hit
from handbook.core.search.doc import Doc


@contextlib.contextmanager
def paused_gc():
    """Pause Python's cyclic garbage collector while the content is read and indexed: tens of
    thousands of small acyclic objects (dicts, tuples, strings) would otherwise set off ~50
    collections that find nothing to free (~8 ms of a start). Restored after; a collector that
    was already off stays off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


_KEPT: list[bool] = []


def keep_loaded() -> bool:
    """Move every object alive now out of the cyclic garbage collector's way for the rest of the
    process (:func:`gc.freeze`, after a collection): called once the shared content and its search
    index are loaded, which live as long as the process, so that the collections searches set off
    no longer walk them (search p95 about 9 % lower in ``make bench``). Only the first call in a
    process freezes (later ones would keep the garbage of the sessions between them for good);
    returns whether this call did."""
    if _KEPT:
        return False
    _KEPT.append(True)
    gc.collect()
    gc.freeze()
    return True


UNIT_MEMO = 4096  # query words (and Japanese segments) whose matches an index keeps


def _memoised(match):
    """``match`` (a query word's or segment's ``{doc: score}``, which callers only read) kept
    for the last :data:`UNIT_MEMO` distinct arguments."""
    memo: dict[tuple, dict[int, float]] = {}

    def memoised(*args):
        found = memo.get(args)
        if found is None:
            if len(memo) >= UNIT_MEMO:
                try:
                    del memo[next(iter(memo))]  # the oldest
                except (KeyError, RuntimeError, StopIteration):  # another search's thread evicted it
                    pass
            found = memo[args] = match(*args)
        return found

    memoised.__doc__ = match.__doc__
    memoised.cache_clear = memo.clear  # type: ignore[attr-defined]  (as functools' caches)
    return memoised


class Keeping:
    """The parts of :class:`~handbook.core.search.SearchIndex` about keeping: per-process state,
    the memo, the building's state as plain data."""

    _STATE = ("docs", "_postings", "_sections", "_row_refs", "_ja_pending", "_rows_of", "_romaji", "_keys",
              "_fuzzy_keys", "_stems", "_idf_n", "_kind_rank", "_groups", "_ref_words", "_covered")
    _DOC_FIELDS = ("ruleset", "titles", "title_stems", "exact", "listed", "foul", "cites", "lifts", "editions")
    _HIT_FIELDS = ("kind", "ruleset", "ref", "title", "subtitle", "score", "row")

    def _ready(self) -> None:
        """The parts of an index that are per process or built on first use (see the methods
        named in the comments)."""
        self._ja_lock = threading.Lock()
        self._deletion_tables: dict[tuple[int, int], dict[str, list[str]]] = {}  # see _typo_matches
        self._spelled: dict[str, str] = {}  # see spelled_word
        self._ja_whole: dict[str, int] = {}  # see _ja_rarity
        self._scopes: dict[tuple[str | None, bool], frozenset[int]] = {}
        self._scoped: dict[tuple[str | None, bool], dict[str, dict[int, float]]] = {}  # see _scoped_postings
        self._titles_in_scope: dict[tuple[str | None, bool], dict[str, tuple[int, ...]]] = {}  # see _scoped_titles
        self._ja_char_fields: dict[str, dict[int, float]] | None = None
        # a query's words come again and again (typed letter by letter, a query refined): the docs
        # each word or Japanese segment matches are kept, typo matching included
        self.latin_unit = _memoised(type(self).latin_unit.__get__(self))
        self.japanese_unit = _memoised(type(self).japanese_unit.__get__(self))

    def state(self) -> dict:
        """What the building made, as plain dicts, lists, tuples, sets, strings and numbers (for
        :mod:`marshal`; see :mod:`handbook.core.index_cache`); :meth:`from_state` makes the same
        index from it. Raises ``RuntimeError`` once a Japanese query has built the Japanese
        tables (the fields they are built from are not kept)."""
        if "_ja_grams" in vars(self):
            raise RuntimeError("the state of an index is taken before its first Japanese query")
        out = {name: getattr(self, name) for name in self._STATE}
        out["docs"] = [(tuple(getattr(doc.hit, f) for f in self._HIT_FIELDS),
                        *(getattr(doc, f) for f in self._DOC_FIELDS)) for doc in self.docs]
        for name in ("_postings", "_sections", "_row_refs", "_rows_of", "_stems"):
            out[name] = dict(out[name])
        return out

    @classmethod
    def from_state(cls, state: dict) -> "Keeping":
        """The index :meth:`state` was taken from. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on a state that is not one."""
        self = cls.__new__(cls)
        with paused_gc():
            self.docs = [Doc(Hit(*hit), *rest) for hit, *rest in state["docs"]]
            self._postings = defaultdict(dict, state["_postings"])
            for name in ("_sections", "_row_refs", "_rows_of", "_stems"):
                setattr(self, name, defaultdict(list, state[name]))
            for name in ("_ja_pending", "_romaji", "_keys", "_fuzzy_keys", "_idf_n", "_kind_rank", "_groups",
                         "_ref_words", "_covered"):
                setattr(self, name, state[name])
        if len(self._kind_rank) != len(self.docs) or len(self._groups) != len(self.docs):
            raise ValueError("the state's documents and their ranks do not match")
        self._ready()
        return self

    def clear_memo(self) -> None:
        """Forget the matches kept for recent query words (the next search matches every word
        from scratch, as the first search of a word does)."""
        self.latin_unit.cache_clear()
        self.japanese_unit.cache_clear()

