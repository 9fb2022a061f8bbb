"""A small incident grammar: structures a bag of words misses, read from the whole query and
named by the words the rules use, added to the query before it is ranked.

So far one structure: *several players win on one discard* -- a count of two or more (two, 2,
both, several, multiple, 二人, 両方) with an actor (people, players, opponents; 人, 家) and a win
(ron, win, mahjong, agari; ロン, 和了, アガリ) in any order ("two people called ron", "both
players declared ron on the same tile", "2人がロンした") -- which the rules call multiple winners
or double ron (Rakkii Nomi 2026 §2.3, EMA RCR on head bump). The structure, not the spelling, is
matched: any count word with any actor word and any win word.
"""

from __future__ import annotations

import re

from handbook.core.search.folding import fold

_COUNT = r"(?:two|2|both|three|3|several|multiple|more than one)"
_ACTOR = r"(?:people|persons|players|opponents|guys|of them|winners|hands)"
_WIN = r"(?:ron|rons|ronned|win|wins|won|winning|mahjong|agari|agatta|hora)"
_SEVERAL_WIN_EN = re.compile(
    rf"\b{_COUNT}\s+(?:\w+\s+)?{_ACTOR}\b(?:\s+\w+){{0,6}}?\s+{_WIN}\b"
    rf"|\b{_WIN}\b(?:\s+\w+){{0,6}}?\s+(?:by|from)\s+{_COUNT}\s+{_ACTOR}\b"
    rf"|\b(?:both|two|2)\s+{_WIN}\b")
_SEVERAL_WIN_JA = re.compile(r"(二人|2人|ふたり|両方|二家|2家|複数|同時|3人|三人|三家)[^。]{0,6}(ロン|ろん|和了|アガリ|あがり|上がり|あが)")

#: a win named somewhere in the query (every structure so far needs one): a quick test first
_WIN_HINTS = ("ron", "win", "won", "mahjong", "agari", "agatta", "hora", "ろん", "和了", "あが", "上が")
#: (the structure, the words the rules use for it)
RULES: tuple[tuple[re.Pattern, str], ...] = (
    (_SEVERAL_WIN_EN, "double ron multiple winners"),
    (_SEVERAL_WIN_JA, "ダブロン"),
)


def concepts(folded: str) -> list[str]:
    """The words of every structure ``folded`` (a query as
    :func:`~handbook.core.search.folding.fold` gives it) holds and does not say already: "two
    people called ron" -> ``["double ron multiple winners"]``; none -> ``[]``."""
    if not any(w in folded for w in _WIN_HINTS):  # most queries: no win named, nothing to read
        return []
    return [words for pattern, words in RULES if pattern.search(folded) and fold(words) not in folded]


def expand(folded: str) -> str:
    """``folded`` with its :func:`concepts` appended (folded): "two people called ron" -> "two
    people called ron double ron multiple winners"."""
    extra = concepts(folded)
    return f"{folded} {fold(' '.join(extra))}" if extra else folded
