"""Calculators a judge runs at the table: revealed tiles and chombo settlement.

Pure functions over the content: the thresholds, penalties and payments come from
``content/rulings.toml`` and the penalty rows it cites, not from constants here. Points are in
**P** (1P = 1,000 table points, taken from the offender's final, tournament or season score);
payments are in table points.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from handbook.core.load import default_library
from handbook.core.texts import N_, Note
from handbook.core.model import Penalty
from handbook.core.rulings_data import (  # noqa: F401 - re-exported: the rulings data's names
    MAX_TILES,
    SEATS,
    SOURCES,
    Choice,
    Example,
    FinalSpec,
    Rulings,
    check_rulings,
)

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library, PenaltyRow


@dataclass(frozen=True, slots=True)
class Ruling:
    """The penalty for one incident.

    ``points`` is P deducted from the offender (0 if none); ``strike`` whether it adds an AZRM
    Strike (always ``False`` outside AZRM); ``ref`` the section or chapter it comes from;
    ``notes`` what the judge must also do or may decide.
    """

    penalty: Penalty
    points: int
    strike: bool
    ref: str
    notes: tuple[str, ...] = ()
    ruleset: str = ""
    foul: str | None = None
    wording: str | None = None
    choices: tuple["Choice", ...] = ()


@dataclass(frozen=True, slots=True)
class ChomboSettlement:
    """How a chombo is settled.

    ``payments`` is the table-point change per seat wind (``"E"``, ``"S"``, ``"W"``, ``"N"``),
    summing to 0 (all four 0 where the ruleset deducts P instead); ``points`` the P deducted from
    the offender's final, tournament or season score; then what happens to the hand.
    """

    payments: Mapping[str, int]
    points: int
    strike: bool
    redeal: bool
    deposits_returned: bool
    honba_added: bool
    dealer_rotates: bool
    ref: str
    notes: tuple[str, ...] = ()
    ruleset: str = ""
    foul: str | None = None
    foul_id: str | None = None


def loaded_library() -> "Library":
    return default_library()


def rulings_of(lib: "Library") -> Rulings:
    return lib.rulings


def check_ruleset(ruleset: object, known: Mapping[str, Any], what: str) -> str:
    if not isinstance(ruleset, str) or ruleset not in known:
        raise ValueError(f"ruleset: {what} has no rule for {ruleset!r}; allowed: {', '.join(sorted(known))}")
    return ruleset


def revealed_tiles(ruleset: str, tiles: int, *, source: str = "hand", during_deal: bool = False,
                   library: "Library | None" = None) -> Ruling:
    """The penalty for wrongly revealing ``tiles`` tiles from ``source``.

    ``source`` is where the tiles came from: ``"hand"`` (the offender's own), ``"wall"``,
    ``"dead_wall"`` or ``"opponent_hand"``; ``during_deal`` whether it happened while dealing.
    Sources: AZRM §2.4 (1–2 tiles Warning, 3–4 Dead Hand 10P, more than 4 Chombo 30P); WRC 2025
    12.3.1 (4) and its lower column; EMA RCR §3.4.6–3.4.8 and its penalty table (where the tiles came
    from matters). Raises ``ValueError`` for an unknown ruleset, ``tiles`` not a whole number from
    1 to 136, or an unknown ``source``.
    """
    lib = library or loaded_library()
    data = rulings_of(lib).revealed
    rid = check_ruleset(ruleset, data, "revealed_tiles")
    if isinstance(tiles, bool) or not isinstance(tiles, int) or not 1 <= tiles <= MAX_TILES:
        raise ValueError(f"tiles: must be a whole number from 1 to {MAX_TILES}, got {tiles!r}")
    if source not in SOURCES:
        raise ValueError(f"source: must be one of {', '.join(SOURCES)}, got {source!r}")
    if not isinstance(during_deal, bool):
        raise ValueError(f"during_deal: must be True or False, got {during_deal!r}")
    spec = data[rid]
    if during_deal:
        b = spec.during_deal
    else:
        b = next(b for b in spec.bands
                 if source in b.sources and b.min <= tiles <= (b.max or MAX_TILES))
    notes = list(spec.notes) + list(b.notes)
    if source in ("wall", "dead_wall") and not during_deal:
        notes += spec.wall_notes
    return Ruling(penalty=b.penalty, points=b.points, strike=b.strike,
                  ref=b.ref, notes=tuple(dict.fromkeys(notes)), ruleset=rid, foul=b.foul,
                  wording=b.wording, choices=b.choices)


def chombo_fouls(ruleset: str, *, library: "Library | None" = None) -> list["PenaltyRow"]:
    """The fouls :func:`chombo` accepts for ``ruleset``: for each foul id of its penalty table that
    has a chombo row, the first such row (source order). Raises ``ValueError`` for an unknown
    ruleset."""
    lib = library or loaded_library()
    rid = check_ruleset(ruleset, rulings_of(lib).chombo, "chombo")
    out: dict[str, "PenaltyRow"] = {}
    for r in lib.rulesets[rid].penalties:
        if r.kind is Penalty.CHOMBO and r.id not in out:
            out[r.id] = r
    return list(out.values())


def chombo_editions(ruleset: str, *, library: "Library | None" = None) -> dict[str | None, str]:
    """The editions :func:`chombo` can settle ``ruleset``'s chombo by: ``{None: the source's text,
    edition id: its name}`` (EMA RCR: ``{None: "EMA RCR — text before 2016 …", "2016": "EMA RCR 2016
    …"}``); only ``{None: …}`` where no public source states another. Raises ``ValueError`` for an
    unknown ruleset."""
    lib = library or loaded_library()
    data = rulings_of(lib).chombo
    rid = check_ruleset(ruleset, data, "chombo")
    spec = data[rid]
    out: dict[str | None, str] = {None: spec.get("edition_name", lib.rulesets[rid].edition)}
    out.update({k: v["name"] for k, v in spec.get("editions", {}).items()})
    return out


def _edition_spec(rid: str, spec: dict, edition: str | None) -> dict:
    """``spec`` as ``edition`` changes it (``None``: unchanged); ``ValueError`` for an edition the
    ruleset does not have."""
    if edition is None:
        return spec
    eds = spec.get("editions", {})
    if not isinstance(edition, str) or edition not in eds:
        raise ValueError(f"edition: {edition!r} is not an edition the {rid} chombo can be settled by; allowed: "
                         f"None (the text this handbook follows){''.join(', ' + repr(k) for k in eds)}")
    ed = eds[edition]
    out = {**spec, "points": ed["points"], "notes": ed["notes"], "ref": ed.get("ref", spec["ref"])}
    out.pop("points_note", None)
    if "points_note" in ed:
        out["points_note"] = ed["points_note"]
    if not ed.get("payment", True):
        out.pop("payment", None)
    return out


def chombo(ruleset: str, offender: str, *, foul: str | None = None, edition: str | None = None,
           library: "Library | None" = None) -> ChomboSettlement:
    """How a chombo by the player in seat ``offender`` (``"E"``, ``"S"``, ``"W"``, ``"N"``; East is
    the dealer) is settled.

    EMA RCR §3.4.6: a mangan-sized payment in table points (a non-dealer pays 4,000 to East and
    2,000 to each other player; East pays 4,000 to each). WRC 2025: 30P (lower column 20P) from
    the tournament score, no payment. AZRM §1.4: Chombo 30P from the Season Points, table score
    unchanged, a Strike. In each, the hand is re-dealt, riichi deposits go back to their owners, no
    honba is added and the dealer does not rotate.

    ``foul`` is a ``PenaltyRow.id`` of the ruleset's table (``None``: the ruleset's usual chombo):
    the points (P), the Strike and the ref then come from that foul's first chombo row — e.g. the
    WRC lower column's "Declaring tenpai before the end (showing the hand) — Chonbo 30P" where the
    column's usual chombo is 20P; a row that says only "Chonbo" gives the usual points. Raises
    ``ValueError`` naming the argument, the value and the allowed values for an unknown ruleset or
    seat, a foul id the table lacks, or a foul whose rows hold no chombo.

    ``edition`` (default ``None``: the text the handbook follows) settles the chombo by another
    edition a public source states (:func:`chombo_editions`): ``"2016"`` for EMA RCR, where since
    1 April 2016 20,000 points (20P) come off the offender's score after uma and nothing is paid at
    the table. ``ValueError`` names the allowed editions of the ruleset for any other value.
    """
    lib = library or loaded_library()
    data = rulings_of(lib).chombo
    rid = check_ruleset(ruleset, data, "chombo")
    if offender not in SEATS:
        raise ValueError(f"offender: must be a seat wind, one of {', '.join(SEATS)} (East is the dealer), got {offender!r}")
    spec = _edition_spec(rid, data[rid], edition)
    points, strike, ref = int(spec.get("points", 0)), bool(spec.get("strike", False)), spec["ref"]
    notes = list(spec.get("notes", ()))
    row = None
    usual = points
    if foul is not None:
        allowed = [r.id for r in chombo_fouls(rid, library=lib)]
        rows = lib.rulesets[rid].rows(foul) if isinstance(foul, str) else []
        if not rows:
            raise ValueError(f"foul: {foul!r} is not a foul of the {rid} penalty table; allowed (fouls with a "
                             f"chombo row): None or one of {', '.join(allowed)}")
        row = next((r for r in rows if r.kind is Penalty.CHOMBO), None)
        if row is None:
            raise ValueError(f"foul: {foul!r} has no chombo row in the {rid} penalty table "
                             f"({'; '.join(f'{r.foul}: {r.penalty or chr(8212)}' for r in rows)}); allowed (fouls "
                             f"with a chombo row): None or one of {', '.join(allowed)}")
        if row.points is not None:
            points = row.points
        if row.strike is not None:
            strike = row.strike
        if leading_section(row.ref):
            ref = row.ref
        if row.points is None:
            notes.insert(0, Note(N_("The table says “{penalty}” without points: the usual chombo, {points}P."),
                                 penalty=row.penalty, points=points))
        elif points != usual:
            notes.insert(0, Note(N_("This foul's row gives {points}P; the ruleset's usual chombo is {usual}P."),
                                 points=points, usual=usual))
        notes.insert(0, Note(N_("The table: {foul} — {penalty}."), foul=row.foul, penalty=row.penalty))
    elif "points_note" in spec:
        notes.insert(0, spec["points_note"])
    pay = spec.get("payment", {})
    payments = dict.fromkeys(SEATS, 0)
    if pay:
        for seat in SEATS:
            if seat == offender:
                continue
            if offender == "E":
                amount = pay["dealer_pays_each"]
            else:
                amount = pay["to_dealer"] if seat == "E" else pay["to_others"]
            payments[seat] += amount
            payments[offender] -= amount
    return ChomboSettlement(
        payments=MappingProxyType(payments), points=points, strike=strike,
        redeal=bool(spec["redeal"]), deposits_returned=bool(spec["deposits_returned"]),
        honba_added=bool(spec["honba_added"]), dealer_rotates=bool(spec["dealer_rotates"]), ref=ref,
        notes=tuple(dict.fromkeys(notes)), ruleset=rid, foul=row.foul if row else None,
        foul_id=row.id if row else None)


def leading_section(ref: str | None) -> bool:
    """Whether a row's ref starts with a section number ("12.3.6 (4)", "2.2"), not a cross
    reference in words ("Wrongly revealing tiles")."""
    return bool(ref) and ref.strip()[:1].isdigit()
