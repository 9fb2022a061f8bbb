"""The search's documents: one per rule section, penalty row and glossary term."""

from __future__ import annotations

from dataclasses import dataclass

from handbook.core.model import Hit
from handbook.core.search.folding import contains_run

@dataclass(slots=True)
class Doc:
    hit: Hit
    ruleset: str | None
    titles: tuple[str, ...]        # folded strings for phrase bonuses
    title_stems: tuple[tuple[str, ...], ...]  # stemmed keys of the title words, in order
    exact: tuple[str, ...]         # folded strings whose equality with the query is a strong match
    listed: bool                   # shown in unfiltered search (False for a borrowed table)
    foul: str | None = None        # a penalty row's foul id
    cites: tuple[int, ...] = ()    # a term's or row's sections (doc ids): a match by name lifts them
    lifts: tuple[int, ...] = ()    # a term's fouls' rows (doc ids): a match by name lifts them too
    editions: bool = False         # a ruleset's Editions page: found only by :meth:`SearchIndex.editions`
    exact_set: frozenset[str] = frozenset()  # ``exact`` as a set
    stem_set: frozenset[str] = frozenset()   # every stem of ``title_stems``
    pairs: frozenset[tuple[str, str]] = frozenset()  # adjacent stems of ``title_stems``

    def __post_init__(self) -> None:
        self.exact_set = frozenset(self.exact)
        self.stem_set = frozenset(w for t in self.title_stems for w in t)
        self.pairs = frozenset(p for t in self.title_stems for p in zip(t, t[1:], strict=False))

    def has_phrase(self, qstems: tuple[str, ...]) -> bool:
        """Whether one title holds ``qstems`` in a row (all of them among its stems, see
        ``stem_set``): one or two stems are looked up, longer runs checked title by title."""
        n = len(qstems)
        if n == 1:
            return qstems[0] in self.stem_set
        if n == 2:
            return qstems in self.pairs
        pairs = self.pairs
        if not all(p in pairs for p in zip(qstems, qstems[1:], strict=False)):
            return False
        return any(contains_run(t, qstems) for t in self.title_stems)


KIND_ORDER = {"term": 0, "rule": 1, "penalty": 2}


def with_score(hit: Hit, score: float) -> Hit:
    """``hit`` with its ``score`` (rounded to 3 places)."""
    return Hit(hit.kind, hit.ruleset, hit.ref, hit.title, hit.subtitle, round(score, 3), hit.row)
