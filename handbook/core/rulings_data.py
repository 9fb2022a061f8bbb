"""The calculators' data: ``content/rulings.toml`` read against its closed schema (revealed-tile
bands, chombo settlement, final-score procedure), with the penalty rows it cites resolved.

Pure Python; used by :mod:`handbook.core.load` (which checks it with the rest of the content) and by
the calculators in :mod:`handbook.core.rulings` and :mod:`handbook.core.final`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from handbook.core.model import Penalty

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import PenaltyRow, Ruleset
    from handbook.core.problems import Collector

SOURCES = ("hand", "wall", "dead_wall", "opponent_hand")
SEATS = ("E", "S", "W", "N")
MAX_TILES = 136


@dataclass(frozen=True, slots=True)
class Choice:
    """One outcome the source leaves to the referee's call: ``penalty``, ``points`` (P),
    ``wording`` as the source words it, ``ref`` where it is written, ``when`` the circumstance
    the source names for it (its row's foul text), if any."""

    penalty: Penalty
    points: int
    wording: str
    ref: str
    when: str | None = None


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
    wording: str | None = None
    choices: tuple[Choice, ...] = ()


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
    final: Mapping[str, "FinalSpec"] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Example:
    """A worked example a source gives for tied players: the places ``tied`` (1–4) and the uma
    (P) it says each of them gets; ``text`` says where and what, for the notes."""

    tied: tuple[int, ...]
    uma: int | float
    text: str
    source: tuple[str, str]


@dataclass(frozen=True, slots=True)
class FinalSpec:
    """How one ruleset finishes a hanchan (``content/rulings.toml``, ``[[final_score]]``).

    ``start`` table points each player starts with; ``uma`` P for places 1–4 (sums to 0);
    ``deposits`` who takes riichi sticks left on the table: ``"winner"`` (EMA RCR §3.6),
    ``"first"`` (Rakkii Nomi §2.2) or ``"lost"`` (WRC 2025); ``sources`` maps ``"procedure"``,
    ``"uma"``, ``"deposits"`` and, where the data cites one, ``"start"`` and ``"penalties"`` to
    ``(ruleset id, section ref)``
    (a ruleset that follows another's procedure cites that ruleset's sections)."""

    ruleset: str
    ref: str
    start: int
    uma: tuple[int, ...]
    deposits: str
    sources: Mapping[str, tuple[str, str]]
    notes: tuple[str, ...] = ()
    own_notes: tuple[str, ...] = ()
    examples: tuple[Example, ...] = ()
    edition_name: str | None = None
    editions: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)


DEPOSIT_RULES = ("winner", "first", "lost")
FINAL_SCHEMA = {
    "type": "object", "additionalProperties": False, "required": ["ruleset", "ref"],
    "properties": {
        "ruleset": {"type": "string"}, "ref": {"type": "string", "minLength": 1},
        "follows": {"type": "string", "minLength": 1},
        "start": {"type": "integer", "minimum": 1},
        "uma": {"type": "array", "minItems": 4, "maxItems": 4, "items": {"type": "integer"}},
        "deposits": {"enum": list(DEPOSIT_RULES)},
        **{k: {"type": "string", "minLength": 1}
           for k in ("start_ref", "uma_ref", "deposits_ref", "penalties_ref")},
        "notes": {"type": "array", "items": {"type": "string", "minLength": 1}},
        "example": {"type": "array", "items": {
            "type": "object", "additionalProperties": False, "required": ["tied", "uma", "text"],
            "properties": {"tied": {"type": "array", "minItems": 2, "maxItems": 4,
                                    "items": {"type": "integer", "minimum": 1, "maximum": 4}},
                           "uma": {"type": "number"}, "ref": {"type": "string", "minLength": 1},
                           "text": {"type": "string", "minLength": 1}}}},
        "edition_name": {"type": "string", "minLength": 1},
        "editions": {"type": "object", "additionalProperties": {
            "type": "object", "additionalProperties": False, "required": ["name", "cite", "notes"],
            "properties": {"name": {"type": "string", "minLength": 1}, "cite": {"type": "string", "minLength": 1},
                           "notes": {"type": "array", "items": {"type": "string", "minLength": 1}}}}},
    },
}


def _final_specs(col, file: str, raws: Mapping[str, tuple[str, dict]]) -> dict[str, FinalSpec]:
    """Resolve ``follows`` (one level: the followed entry gives the start, uma and deposit rule
    this one leaves out, citing its own sections; notes are not inherited) and check (HB050)."""
    out: dict[str, FinalSpec] = {}
    for rid, (entry, raw) in raws.items():
        merged: dict[str, Any] = {}
        sources: dict[str, tuple[str, str]] = {}
        notes: list[str] = []
        base = raw.get("follows")
        if base is not None:
            if base not in raws:
                col.add("HB050", file, entry, f"follows {base!r}, which has no final_score entry")
                continue
            braw = raws[base][1]
            if "follows" in braw:
                col.add("HB050", file, entry, f"follows {base!r}, which itself follows another ruleset")
                continue
            merged.update(braw)
            sources.update({k: (base, braw[k + "_ref"]) for k in ("start", "uma", "deposits", "penalties")
                            if k + "_ref" in braw})
            sources.update({k: (base, braw["ref"]) for k in ("uma", "deposits") if k not in sources})
        merged.update({k: v for k, v in raw.items() if k != "notes"})
        notes += raw.get("notes", [])
        for k in ("uma", "deposits"):
            if k in raw:
                sources[k] = (rid, raw.get(k + "_ref", raw["ref"]))
        if "start_ref" in raw:
            sources["start"] = (rid, raw["start_ref"])
        if "penalties_ref" in raw:
            sources["penalties"] = (rid, raw["penalties_ref"])
        sources["procedure"] = (rid, raw["ref"])
        missing = [k for k in ("start", "uma", "deposits") if k not in merged]
        if missing:
            col.add("HB050", file, entry, f"no {', '.join(missing)}: give it or follow a ruleset that has it")
            continue
        uma = tuple(merged["uma"])
        if sum(uma) != 0 or list(uma) != sorted(uma, reverse=True):
            col.add("HB050", file, entry, f"uma {list(uma)} must fall from first to fourth place and add up to 0")
            continue
        examples = []
        for ex in raw.get("example", []):
            tied = tuple(ex["tied"])
            if list(tied) != list(range(tied[0], tied[0] + len(tied))) or tied[-1] > 4:
                col.add("HB050", file, entry, f"example tied places {list(tied)} are not consecutive places 1–4")
                break
            examples.append(Example(tied, ex["uma"], ex["text"], (rid, ex.get("ref", raw["ref"]))))
        else:
            out[rid] = FinalSpec(ruleset=rid, ref=raw["ref"], start=merged["start"], uma=uma,
                                 deposits=merged["deposits"], sources=MappingProxyType(sources),
                                 notes=tuple(dict.fromkeys(notes)), own_notes=tuple(raw.get("notes", ())),
                                 examples=tuple(examples), edition_name=raw.get("edition_name"),
                                 editions=MappingProxyType(dict(raw.get("editions", {}))))
    return out


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
        "notes": _STRS, "wording": {"type": "string", "minLength": 1},
        "choices": {"type": "array", "minItems": 2, "items": {
            "type": "object", "additionalProperties": False, "required": [],
            "properties": {"row": {"type": "string", "minLength": 1}, "penalty": {"enum": _KINDS},
                           "points": {"type": "integer", "minimum": 0},
                           "wording": {"type": "string", "minLength": 1},
                           "ref": {"type": "string", "minLength": 1}}}},
    },
}
SCHEMAS = {
    "band": _BAND,
    "rulings": {"type": "object", "additionalProperties": False, "required": [],
                "properties": {"revealed_tiles": {"type": "array"}, "chombo": {"type": "array"},
                               "final_score": {"type": "array"}}},
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
            "notes": _STRS, "points_note": {"type": "string", "minLength": 1},
            "payment": {"type": "object", "additionalProperties": False,
                        "required": ["to_dealer", "to_others", "dealer_pays_each"],
                        "properties": {k: {"type": "integer", "minimum": 0}
                                       for k in ("to_dealer", "to_others", "dealer_pays_each")}},
            # a later (or earlier) edition a public source states: its id -> what it changes
            "editions": {"type": "object", "additionalProperties": {
                "type": "object", "additionalProperties": False, "required": ["name", "cite", "points", "notes"],
                "properties": {"name": {"type": "string", "minLength": 1}, "cite": {"type": "string", "minLength": 1},
                               "points": {"type": "integer", "minimum": 0}, "payment": {"type": "boolean"},
                               "ref": {"type": "string", "minLength": 1},
                               "points_note": {"type": "string", "minLength": 1}, "notes": _STRS}}},
            "edition_name": {"type": "string", "minLength": 1},
        },
    },
    "final_score": FINAL_SCHEMA,
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
    choices = []
    for j, c in enumerate(raw.get("choices", ())):
        crow = _find_row(rs, c["row"]) if "row" in c else None
        if "row" in c and crow is None:
            col.add("HB050", file, entry, f"choice {j + 1}: row {c['row']!r} is not a foul in the {rs.id} penalty table")
            return None
        ckind = c.get("penalty") or (crow.kind.value if crow and crow.kind else None)
        cwording = c.get("wording") or (crow.penalty if crow else None)
        if ckind is None or not cwording:
            col.add("HB005", file, entry, f"choice {j + 1}: give `penalty` and `wording`, or cite a `row` that has them")
            return None
        choices.append(Choice(Penalty(ckind), int(c.get("points", crow.points if crow and crow.points else 0)),
                              cwording, c.get("ref") or (crow.ref if crow and crow.ref else default_ref),
                              crow.foul if crow else None))
    return _Band(min=lo, max=hi, sources=tuple(raw.get("sources", SOURCES)), penalty=Penalty(kind),
                 points=int(points), strike=bool(row.strike) if row and row.strike else False,
                 ref=raw.get("ref") or (row.ref if row and row.ref else default_ref),
                 notes=tuple(raw.get("notes", ())), foul=row.foul if row else None,
                 wording=raw.get("wording") or (row.penalty if row and row.penalty else None),
                 choices=tuple(choices))


def _check_coverage(col: "Collector", file: str, entry: str, bands: list[_Band]) -> None:
    """HB050: for every source, the bands must cover 1–136 tiles without gaps or overlaps."""
    for src in SOURCES:
        covered = sorted((b.min, b.max or MAX_TILES) for b in bands if src in b.sources)
        expect = 1
        for lo, hi in covered:
            if lo != expect:
                break
            expect = hi + 1
        if expect != MAX_TILES + 1:
            col.add("HB050", file, entry, f"bands for source {src!r} do not cover 1–{MAX_TILES} tiles without gaps or overlaps")
            return


def check_rulings(col: "Collector", root: Path, rulesets: Mapping[str, "Ruleset"],
                  known: set[str] | None = None) -> Rulings:
    """Read ``rulings.toml`` against its closed schema (codes HB001–HB005, HB050) for
    :func:`revealed_tiles`, :func:`chombo` and :func:`handbook.core.final.final_score`. Entries for a ruleset that is listed but failed
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
        _check_coverage(col, file, entry, bands)
        revealed[rid] = _Revealed(ref, deal, tuple(bands), tuple(raw.get("notes", ())),
                                  tuple(raw.get("wall_notes", ())))
    chombo_specs = {rid: raw for rid, _entry, raw in entries("chombo")}
    final = _final_specs(col, file, {rid: (entry, raw) for rid, entry, raw in entries("final_score")})
    return Rulings(MappingProxyType(revealed), MappingProxyType(chombo_specs), MappingProxyType(final))
