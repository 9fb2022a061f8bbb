"""When the search is unsure: the two or three candidate rulings a judge chooses between, and the
question that separates them where the rows' own words say it.

:func:`candidates` takes the hits of a search narrowed to one ruleset (``Library.search(query,
ruleset=...)``; every :class:`~handbook.core.model.Hit` has its ``score``, higher is better) and
says whether the first screen should offer a choice:

* the **rulings** are the penalty and rule hits (glossary terms are never a ruling);
* a ruling is **close** to the best one when its score is at least :data:`CLOSE_RATIO` of the best
  ruling's score. The test is a *ratio* of scores, never a difference, so that it does not depend
  on the scale of the scores (the lexical ranking's are in the tens to hundreds; a fused ranking's
  may be below 1). A ranking whose scores are not proportional to its confidence (reciprocal rank
  fusion gives 1/(k+rank): the second is always within a few per cent of the first) needs its own
  value here: it is the one number to change;
* when only the best ruling is close but its foul has several rows in the ruleset that the query
  does not tell apart (:func:`~handbook.core.search.conditions.fit` gives the first rows the same
  fit: "called ron by mistake" says neither "vocal only" nor "showing the hand"), those rows are the
  candidates;
* at most :data:`MAX_CANDIDATES` candidates, best first; fewer than two: no choice (``None``).

The **question** comes from the candidates' rows (their foul text and ``condition``), read by
:func:`~handbook.core.search.conditions.read`: a pair of opposite states one row names and another
names the other way round (vocal only / the hand shown; before / after the discard; the drawn tile
kept apart / put into the hand; the dead hand declared / not), a number of tiles, minutes or steps
on which their ranges differ, or the deal named by some and not others. Each candidate then gets
its answer (the state or the range its row states). Where the rows say nothing that separates them,
the question is :data:`NO_QUESTION` ("Which of these happened?") and the answers are empty.
Questions and answers are English :class:`~handbook.core.texts.Note` templates marked for the
screens' catalog (a screen shows them with ``ctx.hb``). Pure Python: no flet.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from handbook.core.model import Hit, Library, PenaltyRow
from handbook.core.search.conditions import Condition, fit, order_rows, read
from handbook.core.texts import N_, Note

#: a ruling is close to the best when ``its score >= CLOSE_RATIO * the best ruling's score``
#: (a ratio, independent of the scores' scale; see the module's docstring before changing it)
CLOSE_RATIO = 0.75
#: the most candidates a choice shows
MAX_CANDIDATES = 3
#: the question when the rows say nothing that separates the candidates
NO_QUESTION = N_("Which of these happened?")

#: opposite states (conditions._STATES) -> (question, answer for the first state, for the second)
STATE_QUESTIONS: tuple[tuple[str, str, str, str, str], ...] = (
    ("vocal", "shown", N_("Was the call vocal only, or was the hand shown?"), N_("vocal only"), N_("hand shown")),
    ("before-discard", "after-discard", N_("Before or after the discard?"), N_("before the discard"),
     N_("after the discard")),
    ("kept-apart", "in-hand", N_("Was the drawn tile put into the hand?"), N_("kept apart"),
     N_("put into the hand")),
    ("not-declared", "declared", N_("Was the dead hand formally declared?"), N_("not declared"),
     N_("formally declared")),
)
#: a number's unit -> the question
UNIT_QUESTIONS = {"tile": N_("How many tiles?"), "min": N_("How many minutes?"), "step": N_("How many steps?")}
#: a number's unit -> the answer templates: one value, a range, more than, or more
UNIT_ANSWERS = {
    "tile": (N_("{n} tiles"), N_("{low} to {high} tiles"), N_("more than {n} tiles"), N_("{n} or more tiles")),
    "min": (N_("{n} min"), N_("{low} to {high} min"), N_("more than {n} min"), N_("{n} min or more")),
    "step": (N_("{n} steps"), N_("{low} to {high} steps"), N_("more than {n} steps"), N_("{n} steps or more")),
}
DEAL_QUESTION, DURING_DEAL, NOT_DURING_DEAL = (N_("During the deal?"), N_("during the deal"),
                                               N_("after the deal"))


@dataclass(frozen=True)
class Candidate:
    """One ruling offered: the ``hit`` (a penalty or rule hit), the penalty ``row`` it stands for
    (``None`` for a rule section) and its ``answer`` to the separating question ("vocal only",
    "3 to 4 tiles"; ``""`` where its row does not say)."""

    hit: Hit
    row: PenaltyRow | None
    answer: str = ""


@dataclass(frozen=True)
class Choice:
    """The candidates (two or three, best first) and the ``question`` that separates them
    (:data:`NO_QUESTION` where the rows do not say); ``separated`` is whether the rows said it."""

    candidates: tuple[Candidate, ...]
    question: str
    separated: bool


def _row_of(library: Library, hit: Hit) -> PenaltyRow | None:
    rs = library.rulesets.get(hit.ruleset or "")
    if rs is None or hit.kind != "penalty":
        return None
    rows = rs.rows(hit.ref)
    return next((r for r in rows if r.index == hit.row), rows[0] if rows else None)


def _row_text(row: PenaltyRow | None, hit: Hit) -> str:
    if row is None:
        return hit.title
    return " ".join(x for x in (row.foul, row.condition or "") if x)


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _range_answer(c: Condition) -> str:
    one, span, more, ormore = UNIT_ANSWERS[c.unit or "tile"]
    if c.low is None:
        return ""
    if c.high == math.inf:
        whole = float(c.low).is_integer()
        return Note(ormore, n=_number(c.low)) if whole else Note(more, n=_number(math.floor(c.low)))
    if c.low == c.high:
        return Note(one, n=_number(c.low))
    return Note(span, low=_number(c.low), high=_number(c.high))


def separate(conditions: Sequence[Condition]) -> tuple[str, tuple[str, ...]] | None:
    """The question that tells rows with these ``conditions`` apart and each one's answer, or
    ``None`` where they say nothing that does: a pair of opposite states named on both sides,
    then a number of one unit whose ranges differ, then the deal named by some rows only."""
    for a, b, question, ans_a, ans_b in STATE_QUESTIONS:
        if any(a in c.states for c in conditions) and any(b in c.states for c in conditions):
            return question, tuple(ans_a if a in c.states else ans_b if b in c.states else "" for c in conditions)
    units = {c.unit for c in conditions if c.low is not None and c.unit}
    if len(units) == 1:
        unit = units.pop()
        ranges = {(c.low, c.high) for c in conditions if c.unit == unit}
        if len(ranges) > 1:
            return UNIT_QUESTIONS[unit], tuple(_range_answer(c) if c.unit == unit else "" for c in conditions)
    deal = ["deal" in c.states for c in conditions]
    if any(deal) and not all(deal):
        return DEAL_QUESTION, tuple(DURING_DEAL if d else NOT_DURING_DEAL for d in deal)
    return None


def candidates(hits: Sequence[Hit], library: Library, *, query: str = "", ratio: float = CLOSE_RATIO,
               limit: int = MAX_CANDIDATES) -> Choice | None:
    """The choice the first screen offers for ``hits`` (a search narrowed to one ruleset, best
    first), or ``None`` when the best ruling stands alone (see the module's docstring).

    ``query`` (the text searched) decides whether the best foul's rows are told apart by it;
    ``ratio`` is the closeness threshold (default :data:`CLOSE_RATIO`), ``limit`` the most
    candidates (default :data:`MAX_CANDIDATES`). ``ValueError`` for a ``ratio`` outside (0, 1] or a
    ``limit`` below 2."""
    if not 0 < ratio <= 1:
        raise ValueError(f"ratio: must be above 0 and at most 1, got {ratio!r}")
    if limit < 2:
        raise ValueError(f"limit: must be 2 or more, got {limit!r}")
    rulings = [h for h in hits if h.kind in ("penalty", "rule")]
    if not rulings or rulings[0].score <= 0:
        return None
    best = rulings[0].score
    close = _distinct_rulings(library, [h for h in rulings if h.score >= ratio * best])[:limit]
    if len(close) >= 2:
        chosen = [Candidate(h, _row_of(library, h)) for h in close]
    else:
        chosen = _sibling_rows(library, rulings[0], query, limit)
        if len(chosen) < 2:
            return None
    found = separate([read(_row_text(c.row, c.hit)) for c in chosen])
    if found is None:
        return Choice(tuple(chosen), NO_QUESTION, False)
    question, answers = found
    return Choice(tuple(Candidate(c.hit, c.row, a) for c, a in zip(chosen, answers, strict=True)), question, True)


def _distinct_rulings(library: Library, hits: list[Hit]) -> list[Hit]:
    """``hits`` without a rule section that one of the penalty hits' rows cites (the section that
    governs a row is the same ruling, not a second one)."""
    fouls = {(h.ruleset, h.ref) for h in hits if h.kind == "penalty"}
    out = []
    for h in hits:
        rs = library.rulesets.get(h.ruleset or "")
        if h.kind == "rule" and rs is not None and any((rs.id, r.id) in fouls for r in rs.rows_citing(h.ref)):
            continue
        out.append(h)
    return out


def _sibling_rows(library: Library, hit: Hit, query: str, limit: int) -> list[Candidate]:
    """The best foul's rows the query does not tell apart: those that fit it as well as the
    first (in the order :func:`order_rows` gives), when the rows' words separate them."""
    rs = library.rulesets.get(hit.ruleset or "")
    if rs is None or hit.kind != "penalty":
        return []
    rows = order_rows(rs.rows(hit.ref), query)
    if len(rows) < 2:
        return []
    q = read(query)
    top = fit(read(_row_text(rows[0], hit)), q)
    tied = [r for r in rows if fit(read(_row_text(r, hit)), q) == top][:limit]
    if len(tied) < 2 or separate([read(_row_text(r, hit)) for r in tied]) is None:
        return []
    return [Candidate(hit, r) for r in tied]


__all__ = ["CLOSE_RATIO", "MAX_CANDIDATES", "NO_QUESTION", "Candidate", "Choice", "candidates", "separate"]
