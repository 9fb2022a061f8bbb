"""Calculators a judge runs at the table: revealed tiles and chombo settlement.

Pure functions over the content: the thresholds, penalties and payments come from
``content/rulings.toml`` and the penalty rows it cites, not from constants here. Points are in
**P** (1P = 1,000 table points, taken from the offender's final, tournament or season score);
payments are in table points.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from handbook.core.model import Penalty

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.load import _Collector
    from handbook.core.model import Library, PenaltyRow, Ruleset

SOURCES = ("hand", "wall", "dead_wall", "opponent_hand")
SEATS = ("E", "S", "W", "N")
MAX_TILES = 136


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


# --- the rulings data ------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class _Band:
    min: int
    max: int | None
    sources: tuple[str, ...]
    penalty: Penalty
    points: int
    strike: bool
    ref: str
    notes: tuple[str, ...]
    foul: str | None


@dataclass(frozen=True, slots=True)
class _Revealed:
    ref: str
    during_deal: _Band
    bands: tuple[_Band, ...]
    notes: tuple[str, ...]
    wall_notes: tuple[str, ...]


@dataclass(frozen=True)
class Rulings:
    revealed: Mapping[str, _Revealed] = field(default_factory=dict)
    chombo: Mapping[str, dict[str, Any]] = field(default_factory=dict)


def _find_row(rs: "Ruleset", foul: str) -> "PenaltyRow | None":
    for r in rs.penalties:
        if r.foul == foul:
            return r
    return None


_KINDS = [p.value for p in Penalty]
_STRS = {"type": "array", "items": {"type": "string", "minLength": 1}}
_BAND = {
    "type": "object", "additionalProperties": False, "required": [],
    "properties": {
        "min": {"type": "integer", "minimum": 1, "maximum": MAX_TILES},
        "max": {"type": "integer", "minimum": 1, "maximum": MAX_TILES},
        "sources": {"type": "array", "items": {"enum": list(SOURCES)}, "minItems": 1},
        "penalty": {"enum": _KINDS}, "points": {"type": "integer", "minimum": 0},
        "row": {"type": "string", "minLength": 1}, "ref": {"type": "string", "minLength": 1},
        "notes": _STRS,
    },
}
SCHEMAS = {
    "band": _BAND,
    "rulings": {"type": "object", "additionalProperties": False, "required": [],
                "properties": {"revealed_tiles": {"type": "array"}, "chombo": {"type": "array"}}},
    "revealed_tiles": {
        "type": "object", "additionalProperties": False,
        "required": ["ruleset", "ref", "during_deal", "band"],
        "properties": {
            "ruleset": {"type": "string"}, "ref": {"type": "string", "minLength": 1},
            "notes": _STRS, "wall_notes": _STRS, "during_deal": {"type": "object"},
            "band": {"type": "array", "minItems": 1},
        },
    },
    "chombo": {
        "type": "object", "additionalProperties": False,
        "required": ["ruleset", "ref", "redeal", "deposits_returned", "honba_added", "dealer_rotates"],
        "properties": {
            "ruleset": {"type": "string"}, "ref": {"type": "string", "minLength": 1},
            "points": {"type": "integer", "minimum": 0}, "strike": {"type": "boolean"},
            "redeal": {"type": "boolean"}, "deposits_returned": {"type": "boolean"},
            "honba_added": {"type": "boolean"}, "dealer_rotates": {"type": "boolean"},
            "notes": _STRS,
            "payment": {"type": "object", "additionalProperties": False,
                        "required": ["to_dealer", "to_others", "dealer_pays_each"],
                        "properties": {k: {"type": "integer", "minimum": 0}
                                       for k in ("to_dealer", "to_others", "dealer_pays_each")}},
        },
    },
}


def _band(col, file: str, entry: str, rs: "Ruleset", raw: dict, default_ref: str) -> _Band | None:
    row = None
    if "row" in raw:
        row = _find_row(rs, raw["row"])
        if row is None:
            col.add("HB050", file, entry, f"row {raw['row']!r} is not a foul in the {rs.id} penalty table")
            return None
    kind = raw.get("penalty") or (row.kind.value if row and row.kind else None)
    if kind is None:
        col.add("HB005", file, entry, "no penalty: give `penalty` or cite a `row` that has a kind")
        return None
    points = raw.get("points", row.points if row and row.points is not None else 0)
    lo, hi = raw.get("min", 1), raw.get("max")
    if hi is not None and hi < lo:
        col.add("HB050", file, entry, f"max {hi} is below min {lo}")
        return None
    return _Band(min=lo, max=hi, sources=tuple(raw.get("sources", SOURCES)), penalty=Penalty(kind),
                 points=int(points), strike=bool(row.strike) if row and row.strike else False,
                 ref=raw.get("ref") or (row.ref if row and row.ref else default_ref),
                 notes=tuple(raw.get("notes", ())), foul=row.foul if row else None)


def check_rulings(col: "_Collector", root: Path, rulesets: Mapping[str, "Ruleset"],
                  known: set[str] | None = None) -> Rulings:
    """Read ``rulings.toml`` against its closed schema (codes HB001–HB005, HB050) for
    :func:`revealed_tiles` and :func:`chombo`. Entries for a ruleset that is listed but failed
    its own checks (``known`` but not in ``rulesets``) are skipped without a second report."""
    known = set(rulesets) if known is None else known
    path = root / "rulings.toml"
    if not path.is_file():
        return Rulings()
    file = col.rel(path)
    doc = col.read(path)
    if doc is None or not col.check_with(SCHEMAS, "rulings", doc, file, ""):
        return Rulings()

    def entries(kind: str):
        """``(ruleset id, entry name, raw)`` for each entry of ``kind`` that passes its schema,
        names a listed ruleset and is the first for that ruleset."""
        seen: set[str] = set()
        for i, raw in enumerate(doc.get(kind, [])):
            rid = raw.get("ruleset") if isinstance(raw, dict) and isinstance(raw.get("ruleset"), str) else f"#{i + 1}"
            entry = f"{kind} {rid}"
            if not col.check_with(SCHEMAS, kind, raw, file, entry):
                continue
            if rid not in known:
                col.add("HB050", file, entry, f"ruleset {rid!r} is not a listed ruleset")
            elif rid in seen:
                col.add("HB050", file, entry, f"this ruleset has a {kind} entry already")
            elif rid in rulesets:
                seen.add(rid)
                yield rid, entry, raw

    revealed: dict[str, _Revealed] = {}
    for rid, entry, raw in entries("revealed_tiles"):
        rs, ref = rulesets[rid], raw["ref"]
        parts = [(entry + " during_deal", raw["during_deal"])] + [
            (f"{entry} band {j + 1}", b) for j, b in enumerate(raw["band"])]
        if not all([col.check_with(SCHEMAS, "band", b, file, e) for e, b in parts]):
            continue
        deal, *bands = [_band(col, file, e, rs, b, ref) for e, b in parts]
        if deal is None or any(b is None for b in bands):
            continue
        for src in SOURCES:
            covered = sorted((b.min, b.max or MAX_TILES) for b in bands if src in b.sources)
            expect = 1
            for lo, hi in covered:
                if lo != expect:
                    break
                expect = hi + 1
            if expect != MAX_TILES + 1:
                col.add("HB050", file, entry, f"bands for source {src!r} do not cover 1–{MAX_TILES} tiles without gaps or overlaps")
                break
        revealed[rid] = _Revealed(ref, deal, tuple(bands), tuple(raw.get("notes", ())),
                                  tuple(raw.get("wall_notes", ())))
    chombo_specs = {rid: raw for rid, _entry, raw in entries("chombo")}
    return Rulings(MappingProxyType(revealed), MappingProxyType(chombo_specs))


def _library() -> "Library":
    from handbook import default_library

    return default_library()


def _rulings(lib: "Library") -> Rulings:
    return lib._rulings


def _check_ruleset(ruleset: object, known: Mapping[str, Any], what: str) -> str:
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
    lib = library or _library()
    data = _rulings(lib).revealed
    rid = _check_ruleset(ruleset, data, "revealed_tiles")
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
                  ref=b.ref, notes=tuple(dict.fromkeys(notes)), ruleset=rid, foul=b.foul)


def chombo(ruleset: str, offender: str, *, library: "Library | None" = None) -> ChomboSettlement:
    """How a chombo by the player in seat ``offender`` (``"E"``, ``"S"``, ``"W"``, ``"N"``; East is
    the dealer) is settled.

    EMA RCR §3.4.6: a mangan-sized payment in table points (a non-dealer pays 4,000 to East and
    2,000 to each other player; East pays 4,000 to each). WRC 2025: 30P (lower column 20P) from
    the tournament score, no payment. AZRM §1.4: Chombo 30P from the Season Points, table score
    unchanged, a Strike. In each, the hand is re-dealt, riichi deposits go back to their owners, no
    honba is added and the dealer does not rotate. Raises ``ValueError`` for an unknown ruleset
    or seat.
    """
    lib = library or _library()
    data = _rulings(lib).chombo
    rid = _check_ruleset(ruleset, data, "chombo")
    if offender not in SEATS:
        raise ValueError(f"offender: must be a seat wind, one of {', '.join(SEATS)} (East is the dealer), got {offender!r}")
    spec = data[rid]
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
        payments=MappingProxyType(payments), points=int(spec.get("points", 0)),
        strike=bool(spec.get("strike", False)), redeal=bool(spec["redeal"]),
        deposits_returned=bool(spec["deposits_returned"]), honba_added=bool(spec["honba_added"]),
        dealer_rotates=bool(spec["dealer_rotates"]), ref=spec["ref"],
        notes=tuple(spec.get("notes", ())), ruleset=rid)
