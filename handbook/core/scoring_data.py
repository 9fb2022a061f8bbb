"""Scoring profiles: ``content/scoring.toml`` read against its closed schema.

One profile per ruleset says, for every scoring option where rulesets differ (red fives, open
tanyao, rounding up to mangan, counted yakuman, double yakuman, Nagashi Mangan, thirteen orphans
robbing a concealed quad, fu details, EMA RCR's two-yaku minimum), what the ruleset does and on
what authority: the ruleset's own text (``basis = "source"`` with a section ``ref``), a named
public source (``"public"``), or the handbook's assumption (``"assumption"``). A profile may
``follow`` another (AZRM follows the WRC rulebook, AZRM §1.3) and change some options.

Pure Python; :mod:`handbook.core.load` checks it with the rest of the content (codes HB070–HB072)
and :func:`handbook.core.hand.hand_value` uses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from handbook.core.texts import N_, Note

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Ruleset
    from handbook.core.problems import Collector

FILE = "scoring.toml"
BASES = ("source", "public", "assumption")

#: every option a profile must settle: its JSON Schema for ``value``, and its name in words
OPTIONS: dict[str, tuple[dict[str, Any], str]] = {
    "red_fives": ({"type": "boolean"}, "Red fives (aka dora)"),
    "open_tanyao": ({"type": "boolean"}, "Open tanyao (kuitan)"),
    "kiriage": ({"type": "boolean"}, "Rounding up to mangan (kiriage mangan)"),
    "kazoe": ({"enum": ["yakuman", "sanbaiman"]}, "Counted yakuman (kazoe yakuman)"),
    "double_yakuman": ({"enum": ["none", "combined", "daisuushii", "all"]}, "Double yakuman"),
    "nagashi_mangan": ({"type": "boolean"}, "Nagashi Mangan"),
    "kokushi_robs_concealed_kan": ({"type": "boolean"}, "Thirteen orphans robbing a concealed quad"),
    "open_pinfu_fu": ({"type": "boolean"}, "Open pinfu shape: 2 fu (30 fu)"),
    "double_wind_pair_fu": ({"enum": [2, 4]}, "Fu for a pair of a double wind"),
    "two_yaku_counters": ({"type": "integer", "minimum": 0}, "Two yaku needed from this many counters"),
}

_OPTION = {"type": "object", "additionalProperties": False, "required": ["value", "basis", "cite"],
           "properties": {"value": {}, "basis": {"enum": list(BASES)},
                          "ref": {"type": "string", "pattern": r"^[a-z0-9-]+:[0-9]+(\.[0-9]+)*$"},
                          "cite": {"type": "string", "minLength": 1}}}
SCHEMAS: dict[str, Any] = {
    "scoring": {"type": "object", "additionalProperties": False, "required": ["profile"],
                "properties": {"profile": {"type": "array"}}},
    "profile": {"type": "object", "additionalProperties": False, "required": ["ruleset"],
                "properties": {"ruleset": {"type": "string"}, "follows": {"type": "string"},
                               "follows_ref": {"type": "string", "minLength": 1},
                               "empty_call_foul": {"type": "string", "minLength": 1},
                               "option": {"type": "object"}}},
    "options": {"type": "object", "additionalProperties": False,
                "properties": {k: {"type": "object"} for k in OPTIONS}},
    "option": _OPTION,
    **{f"value {k}": schema for k, (schema, _name) in OPTIONS.items()},
}


@dataclass(frozen=True, slots=True)
class Option:
    """One scoring option of one ruleset: ``value``; ``basis`` ``"source"`` (the ruleset's own
    text, ``ref`` = ``(ruleset id, section ref)``), ``"public"`` (a named public source, in
    ``cite``) or ``"assumption"`` (the handbook's); ``cite`` says what the source says, in words;
    ``via`` the ruleset whose profile this one follows for it (``None``: its own)."""

    id: str
    value: Any
    basis: str
    cite: str
    ref: tuple[str, str] | None = None
    via: str | None = None

    @property
    def name(self) -> str:
        return OPTIONS[self.id][1]

    def source(self) -> str:
        """The source in words: ``"Rakkii Nomi 2026 §2.1: …"``, ``"WRC 2025 rules: …"`` or
        ``"the handbook's assumption: …"``."""
        if self.basis == "assumption":
            return Note(N_("the handbook's assumption: {cite}"), cite=self.cite)
        return self.cite


@dataclass(frozen=True, slots=True)
class Profile:
    """What one ruleset counts: ``options`` by id (all of :data:`OPTIONS`), the foul id of its
    penalty table's rows for an empty call for a win (``None`` where it has none), and the
    ruleset it follows (``follows``, with where it says so) if any."""

    ruleset: str
    options: Mapping[str, Option]
    empty_call_foul: str | None
    follows: str | None = None
    follows_ref: str | None = None

    def __getitem__(self, key: str) -> Option:
        return self.options[key]


def check_scoring(col: "Collector", root: Path, rulesets: Mapping[str, "Ruleset"],
                  known: set[str] | None = None) -> Mapping[str, Profile]:
    """Read ``scoring.toml`` (a missing file: no profiles) against its closed schema.

    Codes: HB001–HB005 (file and schema); HB070 a profile names an unknown ruleset, is listed
    twice, follows a ruleset without a profile (or one that follows another) or leaves an
    option unsettled; HB071 an option's ``ref`` names no section of that ruleset, or a
    ``"source"`` option has none; HB072 ``empty_call_foul`` is not a foul of the ruleset's table."""
    known = set(rulesets) if known is None else known
    path = root / FILE
    if not path.is_file():
        return MappingProxyType({})
    doc = col.read(path)
    if doc is None or not col.check_with(SCHEMAS, "scoring", doc, FILE, ""):
        return MappingProxyType({})
    raws: dict[str, tuple[str, dict]] = {}
    for i, raw in enumerate(doc["profile"]):
        rid = raw.get("ruleset") if isinstance(raw, dict) and isinstance(raw.get("ruleset"), str) else f"#{i + 1}"
        entry = f"profile {rid}"
        if not col.check_with(SCHEMAS, "profile", raw, FILE, entry):
            continue
        if rid not in known:
            col.add("HB070", FILE, entry, f"ruleset {rid!r} is not a listed ruleset")
        elif rid in raws:
            col.add("HB070", FILE, entry, "this ruleset has a profile already")
        elif rid in rulesets:
            raws[rid] = (entry, raw)
    own = {rid: _options(col, entry, raw.get("option", {}), rulesets, rid) for rid, (entry, raw) in raws.items()}
    out: dict[str, Profile] = {}
    for rid, (entry, raw) in raws.items():
        options = own[rid]
        if options is None:
            continue
        base = raw.get("follows")
        merged: dict[str, Option] = {}
        if base is not None:
            if base not in raws or "follows" in raws[base][1]:
                col.add("HB070", FILE, entry, f"follows {base!r}, which has no profile of its own "
                        "(a profile may only follow one that follows no other)")
                continue
            if own[base] is None:
                continue
            merged = {k: _via(o, base) for k, o in own[base].items()}
        merged.update(options)
        missing = [k for k in OPTIONS if k not in merged]
        if missing:
            col.add("HB070", FILE, entry, f"no {', '.join(missing)}: settle it or follow a ruleset that does")
            continue
        foul = raw.get("empty_call_foul")
        if foul is not None and not any(r.id == foul for r in rulesets[rid].penalties):
            col.add("HB072", FILE, entry, f"empty_call_foul {foul!r} is not a foul of the {rid} penalty table")
            continue
        out[rid] = Profile(rid, MappingProxyType({k: merged[k] for k in OPTIONS}), foul, base,
                           raw.get("follows_ref"))
    return MappingProxyType(out)


def _via(option: Option, base: str) -> Option:
    return Option(option.id, option.value, option.basis, option.cite, option.ref, option.via or base)


def _options(col, entry: str, raw: Any, rulesets: Mapping[str, "Ruleset"], rid: str) -> dict[str, Option] | None:
    if not col.check_with(SCHEMAS, "options", raw, FILE, f"{entry} option"):
        return None
    out: dict[str, Option] = {}
    ok = True
    for key, opt in raw.items():
        where = f"{entry} option {key}"
        if not col.check_with(SCHEMAS, "option", opt, FILE, where) \
                or not col.check_with(SCHEMAS, f"value {key}", opt["value"], FILE, where + " value"):
            ok = False
            continue
        ref = None
        if "ref" in opt:
            rs_id, sec = opt["ref"].split(":", 1)
            rs = rulesets.get(rs_id)
            if rs is None or not rs.has_section(sec):
                col.add("HB071", FILE, where, f"ref {opt['ref']!r} names no section of {rs_id}")
                ok = False
                continue
            ref = (rs_id, sec)
        elif opt["basis"] == "source":
            col.add("HB071", FILE, where, "basis \"source\" needs a ref (ruleset:section)")
            ok = False
            continue
        out[key] = Option(key, opt["value"], opt["basis"], opt["cite"], ref)
    return out if ok else None


__all__ = ["BASES", "OPTIONS", "Option", "Profile", "check_scoring"]
