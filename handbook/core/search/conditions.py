"""Conditions: when one of a foul's several rows applies, read from the row's own wording, and the
same reading of a query, so that the numbers and states a judge types choose which row comes first.

A foul often has several rows in one table, told apart by a condition in the row's text: minutes
late ("Late by 1 to 10 min", "Being late by more than ten minutes": EMA RCR §5, WRC 2025 12.3.9),
tiles revealed ("Wrongly revealing tiles: 3 or 4 tiles": AZRM §2.4), vocal only or the hand shown
(WRC 2025 12.3.3), before or after the discard (WRC 2025 12.3.4), the drawn tile kept apart or put
into the hand (WRC 2025 12.3.1), the dead hand formally declared or not. :func:`read` turns such a
text into a :class:`Condition` (a number range with its unit, and states); :func:`fit` says how well
a row's condition fits the query's; :func:`order_rows` puts the rows that fit first, the source's
order kept otherwise; :func:`condition_label` is the part of a row's wording that tells it from
its siblings, for a list that shows them together.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field

from handbook.core.search.folding import stems

NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "twenty": 20, "thirty": 30, "half": 0.5, "a": 1, "an": 1,
}
#: the numbers one to ten typed in romaji (a count of tiles "juugo mai", of counters "roku honba")
ROMAJI_NUMBERS = {"ichi": 1, "ni": 2, "san": 3, "yon": 4, "go": 5, "roku": 6, "nana": 7, "hachi": 8, "kyuu": 9,
                  "juu": 10}
_NUM = r"(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|" \
       r"fifteen|sixteen|twenty|thirty)"
#: unit words -> the unit (minutes late, tiles)
_UNITS = (
    (re.compile(r"^\s*(?:-\s*)?(min|mins|minute|minutes|分)\b|^\s*分"), "min"),
    (re.compile(r"^\s*(?:-\s*)?(tile|tiles|枚|牌)\b|^\s*(枚|牌)"), "tile"),
    (re.compile(r"^\s*(?:-\s*)?(step|steps)\b"), "step"),
)
_RANGE = re.compile(
    rf"(?P<more>more than|over|above|beyond|exceeding|超え|以上)?\s*(?P<a>{_NUM})"
    rf"(?:\s*(?P<sep>to|-|–|~|〜|or)\s*(?P<b>{_NUM}))?"
    rf"(?P<ormore>\s*or more|\s*or over|\s*\+|\s*以上|\s*超)?")
_LESS = re.compile(rf"(less than|fewer than|under|within|未満|以内)\s*{_NUM}")

#: states a row or a query can name, each a set of patterns; an opposite pair cannot both hold
_STATES: tuple[tuple[str, tuple[str, ...]], ...] = (
    # the hand: a vocal call only, or the tiles shown
    ("vocal", (r"vocal only", r"not (?:formally )?shown", r"still concealed", r"tiles not revealed",
               r"hiding the hand", r"(?:only|just) (?:said|called|declared|shouted|announced)",
               r"(?:did ?n[o']?t|never|without) (?:show|reveal|open|flip|expose)(?:ing)?",
               r"hand (?:stayed|was) (?:closed|hidden|concealed)", r"発声のみ", r"声だけ", r"倒して(?:い)?ない")),
    ("shown", (r"showing the hand", r"hand (?:has been |was |is )?(?:shown|revealed|open(?:ed)?|exposed)",
               r"has been shown", r"(?:show|reveal|open|expose|flip|knock|put|lay|laid|turn)(?:s|ed|ing)? "
               r"(?:down |over )?(?:(?:his|her|their|the|its|my|all|whole) )*(?:hand|tiles)",
               r"hand (?:down|face up)", r"手牌を倒", r"倒した", r"倒牌", r"開けた")),
    # the discard: before it, or after it
    ("before-discard", (r"before (?:the |a |his |her |their )?discard(?:ing|ed)?", r"打牌前", r"切る前", r"捨てる前")),
    ("after-discard", (r"after (?:the |a |his |her |their )?discard(?:ing|ed)?", r"then discard(?:ing|ed)?",
                       r"(?:and|already) discard(?:ed)?", r"打牌後", r"打牌した後", r"切った後", r"捨てた後", r"打牌して")),
    # a drawn tile: kept apart, or put into the hand
    ("kept-apart", (r"not put into (?:the )?hand", r"keeping the tile apart", r"kept (?:it |the tile )?apart",
                    r"(?:did ?n[o']?t|never|without) (?:put|mix)(?:ing)? (?:it |the tile )?in", r"手牌に入れていない")),
    ("in-hand", (r"(?<!not )put into (?:the )?hand", r"mix(?:ed|ing)? (?:it |the tile )?into (?:the )?hand",
                 r"already included in the hand", r"(?:put|mixed) (?:it )?in(?:to)? (?:his|her|their|the) hand",
                 r"手牌に入れた", r"手牌に混ぜ")),
    # a dead hand: formally declared or not
    ("not-declared", (r"not formally declared", r"not declared dead", r"was not declared")),
    ("declared", (r"(?<!not )formally declared", r"(?<!not )declared (?:to be )?dead")),
    # when: during the deal, or the hand ending in a draw
    ("deal", (r"during (?:the )?deal(?:ing)?", r"配牌中", r"配牌時")),
    ("draw", (r"ends? in (?:a )?(?:draw|ryuu?kyoku)", r"ending in (?:a )?(?:draw|ryuu?kyoku)", r"流局")),
)
_OPPOSITE = {"vocal": "shown", "shown": "vocal", "before-discard": "after-discard",
             "after-discard": "before-discard", "kept-apart": "in-hand", "in-hand": "kept-apart",
             "not-declared": "declared", "declared": "not-declared"}
_STATE_RES = tuple((name, re.compile("|".join(f"(?:{p})" for p in pats))) for name, pats in _STATES)


@dataclass(frozen=True)
class Condition:
    """What a text says about when something applies: ``low``..``high`` (inclusive; ``inf`` open)
    in ``unit`` (``"min"`` minutes late, ``"tile"`` tiles, ``"step"``; ``None`` for no number)
    and ``states`` (``"vocal"``, ``"shown"``, ``"before-discard"``, ``"after-discard"``,
    ``"kept-apart"``, ``"in-hand"``, ``"declared"``, ``"not-declared"``, ``"deal"``, ``"draw"``)."""

    low: float | None = None
    high: float | None = None
    unit: str | None = None
    states: frozenset[str] = field(default_factory=frozenset)

    @property
    def empty(self) -> bool:
        return self.low is None and not self.states


def _number(text: str) -> float:
    return float(text) if text[0].isdigit() else float(NUMBER_WORDS[text])


def _unit_after(text: str) -> str | None:
    for pattern, unit in _UNITS:
        if pattern.match(text):
            return unit
    return None


def _normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().replace("’", "'")


def read(text: str | None) -> Condition:
    """The :class:`Condition` a row's wording or a query states: ``read("Late by 1 to 10 min")``
    is 1..10 ``min``; ``read("late 15 minutes")`` 15..15 ``min``; ``read("more than ten
    minutes")`` 10.001..inf; ``read("3 or 4 tiles")`` 3..4 ``tile``; ``read("15分遅刻")`` 15 ``min``;
    ``read("called ron but didn't show his hand")`` the state ``vocal``. The first number with a
    unit (or, without one, the first number) counts. An empty text gives an empty condition."""
    if not text:
        return Condition()
    t = _normalise(text)
    low, high, unit = _read_range(t)
    return Condition(low, high, unit, _read_states(t))


def _read_range(t: str) -> tuple[float | None, float | None, str | None]:
    """The first number range with a unit in a normalised text (or, without one, the first)."""
    low = high = None
    unit = None
    for m in _LESS.finditer(t):
        n = _number(m.group(2))
        u = _unit_after(t[m.end():])
        if u is not None or low is None:
            low, high, unit = 0.0, n if m.group(1) in ("within", "以内") else n - 1e-3, u
            if u is not None:
                return low, high, unit
    for m in _RANGE.finditer(t):
        if not m.group("a") or not _standalone(t, m):
            continue
        a = _number(m.group("a"))
        b = _number(m.group("b")) if m.group("b") else None
        u = _unit_after(t[m.end():]) or (_unit_after(t[m.end("a"):]) if b is None else None)
        if u is None and low is not None:
            continue
        more = m.group("more") or (m.group("ormore") or "").strip()
        if more in ("more than", "over", "above", "beyond", "exceeding", "超え", "超", "+"):
            low, high = a + 1e-3, math.inf
        elif more in ("or more", "or over", "以上"):
            low, high = a, math.inf
        elif b is not None:
            low, high = min(a, b), max(a, b)
        else:
            low = high = a
        unit = u
        if u is not None:
            break
    return low, high, unit


def _standalone(t: str, m: re.Match) -> bool:
    """Whether a number found stands alone: not inside a section reference ("12.3.1", "(4)") or
    a word ("10p")."""
    start, end = m.start("a"), m.end("a")
    if start > 0 and (t[start - 1].isalnum() or t[start - 1] in ".("):
        return False
    return "." not in m.group("a") and not (t[end:end + 1].isalpha() and t[end:end + 1] != "分")


def _read_states(t: str) -> frozenset[str]:
    states = {name for name, pattern in _STATE_RES if pattern.search(t)}
    # a negated state wins over the plain one it contains ("didn't show" is vocal, not shown)
    for a, b in (("vocal", "shown"), ("kept-apart", "in-hand"), ("not-declared", "declared")):
        if a in states and b in states:
            states.discard(b)
    return frozenset(states)


def fit(row: Condition, query: Condition) -> float:
    """How well a row's condition fits the query's: +2 when the query's number lies in the row's
    range (same unit, or either without one), -1 when outside it; +1 for each state both name, -1
    for each the query names whose opposite the row names; 0 when either says nothing."""
    score = 0.0
    if row.low is not None and query.low is not None and (row.unit is None or query.unit is None
                                                           or row.unit == query.unit):
        q = query.low if query.high == query.low or query.high == math.inf else (query.low + query.high) / 2
        score += 2.0 if row.low <= q <= row.high else -1.0
    for s in query.states:
        if s in row.states:
            score += 1.0
        elif _OPPOSITE.get(s) in row.states:
            score -= 1.0
    return score


def order_rows(rows: Sequence, query: str) -> list:
    """``rows`` (penalty rows of one foul in one ruleset, each with ``foul`` and optionally
    ``condition``) with those whose condition fits ``query`` best first (:func:`fit`), the
    source's order kept among equals; a query word in what tells a row from the others ("wrong
place") counts a quarter. "late 15 minutes" puts "Late by more than 10 min" first."""
    q = read(query)
    if len(rows) < 2:
        return list(rows)
    qstems = set(stems(query))
    scored = []
    for i, r in enumerate(rows):
        # the query's words in what tells the row from its siblings ("wrong place", "out of turn")
        shared = len(qstems & set(stems(condition_label(r, rows)))) if qstems else 0
        scored.append((-(fit(read(_row_text(r)), q) + 0.25 * shared), i, r))
    scored.sort(key=lambda x: (x[0], x[1]))
    return [r for _s, _i, r in scored]


def _row_text(row) -> str:
    return " ".join(x for x in (getattr(row, "foul", ""), getattr(row, "condition", None) or "") if x)


_BREAK = re.compile(r"[,:;(]|\s[-–—]\s")


def condition_label(row, siblings: Sequence) -> str:
    """The part of ``row.foul`` that tells it from the other rows of its foul (``siblings``, the
    row itself may be among them): "Late by 1 to 10 min" beside "Late by more than 10 min" gives
    "1 to 10 min"; "Empty call for a win (vocal only)" gives "vocal only"; a row alone, or one
    that shares nothing with the others, gives ``""`` (its title says it all)."""
    others = [s.foul for s in siblings if s is not row and s.foul != row.foul]
    if not others:
        return ""
    title = row.foul
    common = max(_common_words(title, o) for o in others)
    if common == 0:
        return ""
    head = title[:common]
    breaks = list(_BREAK.finditer(head))
    start = breaks[-1].end() if breaks else common
    label = title[start:].strip(" ,:;()-–—.")
    if label.endswith(")") or "(" in label and ")" not in label:
        label = label.strip("()")
    return label.replace("(", "").replace(")", "").strip() or ""


def _common_words(a: str, b: str) -> int:
    """Length of the common prefix of ``a`` and ``b``, backed off to a word boundary."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    if n == len(a) == len(b):
        return n
    while n > 0 and a[n - 1].isalnum() and (n >= len(a) or a[n].isalnum()):
        n -= 1
    return n
