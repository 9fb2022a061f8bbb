"""The end of the hanchan: table points, uma, riichi sticks left and point penalties → final P.

Pure functions over the content: the starting points, the uma, where riichi sticks left on the
table go and the sections they come from are ``[[final_score]]`` entries of
``content/rulings.toml``. Points are in **P** (1P = 1,000 table points); table scores in table
points. Arithmetic is exact (fractions) until the result is handed back as ``float``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from handbook.core.rulings import SEATS, FinalSpec, check_ruleset, loaded_library, rulings_of
from handbook.core.texts import N_, Note

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library

STICK = 1000  # one riichi deposit, table points
PLACE_NAMES = {1: "first", 2: "second", 3: "third", 4: "fourth"}


@dataclass(frozen=True, slots=True)
class FinalRow:
    """One seat's result. ``table`` the table points given; ``rank`` 1–4 (tied players share the
    better rank); ``uma`` and ``deposits`` P received (uma may be negative); ``penalty`` P
    deducted; ``final`` P: ``(table − start) / 1000 + deposits + uma − penalty``."""

    seat: str
    table: int
    rank: int
    uma: float
    deposits: float
    penalty: int
    final: float


@dataclass(frozen=True, slots=True)
class FinalScore:
    """The end of one hanchan. ``rows`` one per seat in the order E, S, W, N; ``start`` the
    ruleset's starting table points; ``ref`` the section the procedure comes from; ``notes`` what
    the judge should know (deposits lost, ties, a source's example that disagrees with its rule).

    Beyond the API: ``ruleset``; ``uma_scheme`` (P for places 1–4); ``deposits_to`` (``"winner"``,
    ``"first"`` or ``"lost"``); ``sticks`` riichi sticks left; ``deposits_lost`` P that go to no
    one; ``sources`` ``{"procedure"|"start"|"uma"|"deposits"|"penalties": (ruleset id, ref)}``."""

    rows: tuple[FinalRow, ...]
    start: int
    ref: str
    notes: tuple[str, ...] = ()
    ruleset: str = ""
    uma_scheme: tuple[int, ...] = ()
    deposits_to: str = ""
    sticks: int = 0
    deposits_lost: float = 0.0
    sources: Mapping[str, tuple[str, str]] | None = None
    edition: str | None = None


class ScoreSumError(ValueError):
    """The four scores plus the riichi sticks do not add up to four starting scores.

    ``off`` is the difference in table points (negative: short); ``expected`` and ``total`` the
    two totals; ``sticks`` how many riichi sticks the difference would be, if it is whole sticks."""

    def __init__(self, message: str, *, off: int, expected: int, total: int, sticks: int | None):
        super().__init__(message)
        self.off, self.expected, self.total, self.sticks = off, expected, total, sticks


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seat_map(name: str, value: object, *, full: bool) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{name}: must map seat winds ({', '.join(SEATS)}) to whole numbers, "
                         f"got {value!r} ({type(value).__name__})")
    unknown = [k for k in value if k not in SEATS]
    if unknown:
        raise ValueError(f"{name}: unknown seat {unknown[0]!r}; allowed: {', '.join(SEATS)}")
    missing = [s for s in SEATS if s not in value]
    if full and missing:
        raise ValueError(f"{name}: every seat needs a score; missing {', '.join(missing)} "
                         f"(allowed seats: {', '.join(SEATS)})")
    for seat, v in value.items():
        if not _whole(v):
            raise ValueError(f"{name}: {seat} must be a whole number, got {v!r} ({type(v).__name__})")
    return {s: int(value.get(s, 0)) for s in SEATS}


def _sum_message(diff: int, expected: int, total: int, deposits: int, start: int) -> tuple[str, int | None]:
    n = abs(diff)
    word = "short" if diff < 0 else "over"
    sticks = n // STICK if n % STICK == 0 else None
    hint = ""
    if diff < 0 and sticks:
        hint = " — one riichi stick not counted?" if sticks == 1 else f" — {sticks} riichi sticks not counted?"
    elif diff > 0 and sticks and sticks <= deposits:
        hint = (" — a riichi stick counted twice (in a score and as left on the table)?" if sticks == 1
                else f" — {sticks} riichi sticks counted twice (in a score and as left on the table)?")
    msg = (f"scores: the four scores plus the riichi sticks left ({deposits} × 1,000) must add up to "
           f"{expected:,} (4 × {start:,}); they add up to {total:,}: {n:,} {word}{hint}")
    return msg, sticks


def final_editions(ruleset: str, *, library: "Library | None" = None) -> dict[str | None, str]:
    """The editions :func:`final_score` can follow for ``ruleset``: ``{None: the source's text,
    edition id: its name}`` (EMA RCR adds ``"2016"``). Raises ``ValueError`` for an unknown ruleset."""
    lib = library or loaded_library()
    data = rulings_of(lib).final
    rid = check_ruleset(ruleset, data, "final_score")
    spec = data[rid]
    out: dict[str | None, str] = {None: spec.edition_name or lib.rulesets[rid].edition}
    out.update({k: v["name"] for k, v in spec.editions.items()})
    return out


def final_score(ruleset: str, scores: Mapping[str, int], *, deposits: int = 0,
                penalties: Mapping[str, int] | None = None, edition: str | None = None,
                library: "Library | None" = None, check_sum: bool = True) -> FinalScore:
    """The result of a hanchan per seat: rank, uma, riichi sticks left, penalties, final P.

    ``scores`` the table points of each seat wind ``"E"``, ``"S"``, ``"W"``, ``"N"`` at the end
    (may be negative); ``deposits`` riichi sticks (1,000 table points each) still on the table;
    ``penalties`` P to deduct per seat (point penalties and chombo points; ≥ 0; a seat left out
    has none).

    Ranks come from table points; tied players share the better rank and share equally the sum of
    their places' uma, and the sticks where the sticks go to first place. Sticks left: EMA RCR §3.6
    — the winner; Rakkii Nomi 2026 §2.2 — first place; WRC 2025 — lost; AZRM follows the WRC
    procedure (§1.3). Uma: EMA RCR §3.6.1 +30/+10/−10/−30 P; WRC 2025 +15/+5/−5/−15 P. Where a
    source's worked example disagrees with its rule (EMA RCR §3.6.1: two tied first "each gets
    15,000"), the rule is followed and the example named in ``notes``.

    Raises ``ValueError`` naming the argument, the value and what is allowed: an unknown ruleset;
    ``scores`` without exactly the four seats or with a value that is not a whole number;
    ``deposits`` not a whole number ≥ 0; ``penalties`` with an unknown seat or a value that is not
    a whole number ≥ 0. Raises :class:`ScoreSumError` (a ``ValueError``) when the four scores plus
    1,000 × ``deposits`` are not four times the starting points, saying by how much ("1,000 short —
    one riichi stick not counted?"); with ``check_sum=False`` it computes anyway from the scores
    as given (the judge's call when a score sheet cannot be corrected at the table: the finals
    then do not sum to zero by as many P as the total is off).

    ``edition`` (default ``None``: the text the handbook follows) names another edition a public
    source states (:func:`final_editions`; EMA RCR ``"2016"``: a chombo is 20P after uma, entered
    under ``penalties``); its notes come first. ``ValueError`` names the allowed editions otherwise.
    """
    lib = library or loaded_library()
    data = rulings_of(lib).final
    rid = check_ruleset(ruleset, data, "final_score")
    spec: FinalSpec = data[rid]
    if edition is not None and (not isinstance(edition, str) or edition not in spec.editions):
        raise ValueError(f"edition: {edition!r} is not an edition the {rid} end of hanchan can follow; allowed: "
                         f"None (the text this handbook follows){''.join(', ' + repr(k) for k in spec.editions)}")
    table = _seat_map("scores", scores, full=True)
    if not _whole(deposits) or deposits < 0:
        raise ValueError(f"deposits: must be a whole number of riichi sticks, 0 or more, got {deposits!r}")
    pen = _seat_map("penalties", penalties if penalties is not None else {}, full=False)
    negative = [s for s in SEATS if pen[s] < 0]
    if negative:
        raise ValueError(f"penalties: {negative[0]} must be 0 or more P (a deduction), got {pen[negative[0]]!r}")

    expected = 4 * spec.start
    total = sum(table.values()) + STICK * deposits
    if total != expected and check_sum:
        msg, sticks = _sum_message(total - expected, expected, total, deposits, spec.start)
        raise ScoreSumError(msg, off=total - expected, expected=expected, total=total, sticks=sticks)

    ranks = {s: 1 + sum(1 for o in SEATS if table[o] > table[s]) for s in SEATS}
    uma: dict[str, Fraction] = {}
    groups: dict[int, list[str]] = {}
    for s in SEATS:
        groups.setdefault(ranks[s], []).append(s)
    for rank, seats in groups.items():
        places = range(rank, rank + len(seats))
        share = Fraction(sum(spec.uma[p - 1] for p in places), len(seats))
        for s in seats:
            uma[s] = share
    dep = dict.fromkeys(SEATS, Fraction(0))
    lost = Fraction(0)
    if spec.deposits == "lost":
        lost = Fraction(deposits)
    else:
        for s in groups[1]:
            dep[s] = Fraction(deposits, len(groups[1]))

    rows = []
    for s in SEATS:
        final = Fraction(table[s] - spec.start, 1000) + dep[s] + uma[s] - pen[s]
        rows.append(FinalRow(seat=s, table=table[s], rank=ranks[s], uma=float(uma[s]),
                             deposits=float(dep[s]), penalty=pen[s], final=float(final)))

    notes = _notes(spec, table, deposits, groups, uma)
    if edition is not None:
        notes = tuple(spec.editions[edition]["notes"]) + notes
    return FinalScore(rows=tuple(rows), start=spec.start, ref=spec.ref, notes=notes,
                      ruleset=rid, uma_scheme=spec.uma, deposits_to=spec.deposits, sticks=deposits,
                      deposits_lost=float(lost), sources=spec.sources, edition=edition)


def _notes(spec: FinalSpec, table: Mapping[str, int], deposits: int, groups: Mapping[int, list[str]],
           uma: Mapping[str, Fraction]) -> tuple[str, ...]:
    """What the result needs said: the ruleset's notes, where the riichi sticks went, each tie
    and how its uma was split, and a source example the rule overrides."""
    notes = list(spec.notes)
    if deposits and spec.deposits == "lost":
        notes.append(Note(N_("1 riichi stick left on the table (1P) is lost: it goes to no one.")) if deposits == 1
                     else Note(N_("{n} riichi sticks left on the table ({n}P) are lost: they go to no one."), n=deposits))
    elif deposits and len(groups[1]) > 1:
        notes.append(Note(N_("The riichi sticks left ({n}P) are shared by the players tied first: {each} each."),
                          n=deposits, each=_p(Fraction(deposits, len(groups[1])))))
    for rank, seats in sorted(groups.items()):
        if len(seats) > 1:
            places = tuple(range(rank, rank + len(seats)))
            names = Note(N_("{first} and {second}"), first=", ".join(seats[:-1]), second=seats[-1])
            notes.append(Note(N_("{seats} are tied on {points}: they share rank {rank} and split the uma of "
                                 "places {first}–{last}: {each} each."),
                              seats=names, points=f"{table[seats[0]]:,}", rank=rank, first=places[0], last=places[-1],
                              each=_p(uma[seats[0]])))
            for ex in spec.examples:
                if ex.tied == places and Fraction(ex.uma) != uma[seats[0]]:
                    notes.append(Note(N_("{example} This result follows the rule: {each} each."),
                                      example=ex.text, each=_p(uma[seats[0]])))
    return tuple(dict.fromkeys(notes))


def _p(x: Fraction) -> str:
    """+20P, −7.5P, 0P, +0.333…P (to 0.1 where not exact)."""
    sign = "+" if x > 0 else "\u2212" if x < 0 else ""
    a = abs(x)
    text = f"{a.numerator // a.denominator}" if a.denominator == 1 else f"{float(a):.1f}".rstrip("0").rstrip(".")
    return f"{sign}{text}P"
