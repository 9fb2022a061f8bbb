"""A ledger record, a player's summary, an import's result, and how records are read from and
written to their stored documents (:mod:`handbook.ledger` re-exports them)."""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from handbook.ledger.fields import (
    FieldError, fold_key, short_repr, csv_cell, player_key,
)

#: the one ruleset whose records can be Strikes (AZRM §1.4)
STRIKE_RULESET = "azrm"
IMPORT_NS = uuid.UUID("6f1c2a52-8a43-4c1e-9a0e-3b7d2f0c9e11")  # ids of entries imported without one
_DOC_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,), "player": (str,), "club": (str, type(None)), "date": (str,), "ruleset": (str,),
    "foul_id": (str,), "foul": (str,), "penalty": (str,), "kind": (str, type(None)),
    "points": (int, type(None)), "strike": (bool,), "note": (str,), "created": (str,),
    "table": (str, type(None)), "hanchan": (int, type(None)), "reason": (str,),
    "revoked": (dict, type(None))}
#: the fields a record of the first ledger format (version 1) holds
V1_FIELDS = ("id", "player", "club", "date", "ruleset", "foul_id", "foul", "penalty", "kind",
             "points", "strike", "note", "created")


@dataclass(frozen=True, slots=True)
class Revocation:
    """A record's revocation: when (timezone-aware) and why (the judge's words, never empty)."""

    time: datetime.datetime
    reason: str


@dataclass(frozen=True, slots=True)
class Record:
    """One penalty recorded against a player.

    ``date`` is the day of the foul; ``points`` P (1P = 1,000 table points) or ``None`` where the
    source gives no number; ``kind`` a :class:`handbook.Penalty` value or ``None``; ``created``
    when the record was made (timezone-aware).
    """

    id: str
    player: str
    club: str | None
    date: datetime.date
    ruleset: str
    foul_id: str
    foul: str
    penalty: str
    kind: str | None
    points: int | None
    strike: bool
    note: str
    created: datetime.datetime
    #: where it happened: the table (text, e.g. ``"7"``), the hanchan (1, 2, …); ``None``: not said
    table: str | None = None
    hanchan: int | None = None
    #: what happened, in the judge's words
    reason: str = ""
    #: set when the record was revoked: it then counts for nothing (no Strike, no points) but
    #: stays in the player's history
    revoked: Revocation | None = None

    @property
    def player_key(self) -> str:
        return player_key(self.player, self.club)

    @property
    def counts(self) -> bool:
        """Whether the record counts (it is not revoked)."""
        return self.revoked is None

    @property
    def extended(self) -> bool:
        """Whether the record holds anything the version 1 format cannot (table, hanchan,
        reason, revocation)."""
        return (self.table is not None or self.hanchan is not None or bool(self.reason)
                or self.revoked is not None)

    def to_json(self) -> dict[str, Any]:
        """The record as JSON values (dates as ``YYYY-MM-DD``, ``created`` as ISO 8601)."""
        return {"id": self.id, "player": self.player, "club": self.club,
                "date": self.date.isoformat(), "ruleset": self.ruleset, "foul_id": self.foul_id,
                "foul": self.foul, "penalty": self.penalty, "kind": self.kind,
                "points": self.points, "strike": self.strike, "note": self.note,
                "created": self.created.isoformat(), "table": self.table, "hanchan": self.hanchan,
                "reason": self.reason,
                "revoked": None if self.revoked is None else {
                    "time": self.revoked.time.isoformat(), "reason": self.revoked.reason}}

    def to_json_v1(self) -> dict[str, Any]:
        """The record in the version 1 format (:data:`V1_FIELDS` only)."""
        d = self.to_json()
        return {k: d[k] for k in V1_FIELDS}

    def to_csv(self) -> dict[str, str]:
        """The record as CSV cells; text that a spreadsheet would run as a formula is escaped
        (:func:`csv_cell`)."""
        d = self.to_json()
        rv = d.pop("revoked")
        d["revoked"] = "" if rv is None else rv["time"]
        d["revoked_reason"] = "" if rv is None else rv["reason"]
        return {k: csv_cell("" if v is None else "true" if v is True else "false" if v is False
                            else str(v))
                for k, v in d.items()}


@dataclass(frozen=True, slots=True)
class Player:
    """A player in the ledger: ``key`` identifies them (name, plus ``~club`` when they have a
    club id); ``records`` and ``strikes`` are counts."""

    key: str
    name: str
    club: str | None
    records: int = 0
    strikes: int = 0
    last: datetime.date | None = None


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import did: ``added`` records stored, ``skipped`` already in the ledger."""

    added: int
    skipped: int
    records: tuple[Record, ...] = field(default=())


def player_of(recs: list[Record]) -> Player:
    """The :class:`Player` of one player's records (oldest first): named as the first."""
    first = recs[0]
    return Player(key=first.player_key, name=first.player, club=first.club, records=len(recs),
                  strikes=sum(1 for r in recs if is_strike_record(r)), last=max(r.date for r in recs))


def export_name(fmt: str, player: str | None = None, *,
                now: datetime.datetime | None = None) -> str:
    """``ledger-<player>-YYYYMMDD-HHMMSS.<fmt>``: a file name safe on every system."""
    stamp = (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")
    who = "" if player is None else "-" + (re.sub(r"[^\w.-]+", "_", player).strip("_.") or "player")
    return f"ledger{who[:60]}-{stamp}.{fmt}"


def uuid5_hex(name: str) -> str:
    """``uuid.uuid5(IMPORT_NS, name).hex``, without building two UUID objects per entry (an
    import of 60,000 lines makes 60,000 of them)."""
    digest = bytearray(hashlib.sha1(IMPORT_NS.bytes + name.encode("utf-8")).digest()[:16])
    digest[6] = (digest[6] & 0x0F) | 0x50  # version 5
    digest[8] = (digest[8] & 0x3F) | 0x80  # RFC 4122 variant
    return digest.hex()


class ContentIds:
    """Ids for the entries of one imported file that came without one, made from what each
    records and how many identical entries came before it in the same file: importing the same
    file again finds the same ids and adds nothing, while two identical fouls on one day stay two
    records. Call it with ``(player, club, day, ruleset, foul id, foul, penalty, points, Strike,
    note)``; it returns a 32-digit hex id (a UUID 5)."""

    def __init__(self) -> None:
        self.bases: dict[tuple, str] = {}  # content -> the text its ids are made from
        self.counts: dict[str, int] = {}  # that text -> entries with it so far

    def __call__(self, content: tuple) -> str:
        basis = self.bases.get(content)
        if basis is None:
            player, club, day, *rest = content
            basis = self.bases[content] = json.dumps([fold_key(player_key(player, club)), day.isoformat(), *rest],
                                                     ensure_ascii=True)
        n = self.counts[basis] = self.counts.get(basis, 0) + 1
        return uuid5_hex(f"{basis}#{n}")


def is_strike_record(r: Record) -> bool:
    """Whether ``r`` counts as a Strike: an AZRM record with ``strike`` true, not revoked."""
    return r.ruleset == STRIKE_RULESET and r.strike and r.revoked is None


def replace_record(rec: Record, **changes: Any) -> Record:
    d = {f: getattr(rec, f) for f in Record.__slots__}
    d.update(changes)
    return Record(**d)


DOC_OPTIONAL = {"club": None, "penalty": "", "kind": None, "points": None, "strike": False,
                "note": "", "table": None, "hanchan": None, "reason": "", "revoked": None}


def revocation_of(value: Any) -> Revocation | None:
    """A stored or imported ``revoked`` value (``{"time": ISO 8601, "reason": text}`` or
    ``None``) -> :class:`Revocation`; ``FieldError`` naming what is wrong."""
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"time", "reason"}:
        raise FieldError("revoked must be null or an object with 'time' and 'reason'")
    t, why = value["time"], value["reason"]
    if not isinstance(t, str) or not isinstance(why, str) or not why.strip():
        raise FieldError("revoked needs a time (text) and a reason (not empty)")
    try:
        when = datetime.datetime.fromisoformat(t)
    except ValueError as exc:
        raise FieldError(f"revoked time: {exc}") from None
    return Revocation(when if when.tzinfo else when.replace(tzinfo=datetime.UTC), why)


def from_doc(doc: Mapping[str, Any]) -> Record:
    """A stored document → :class:`Record`; ``FieldError`` naming the field when one is missing or of
    the wrong type (``"player": 123``), so that one bad document never breaks the others."""
    values: dict[str, Any] = {}
    for name, types in _DOC_TYPES.items():
        if name not in doc:
            if name not in DOC_OPTIONAL:
                raise FieldError(f"{name} is missing")
            values[name] = DOC_OPTIONAL[name]
            continue
        v = doc[name]
        if not isinstance(v, types) or (name in ("points", "hanchan") and isinstance(v, bool)):
            raise FieldError(f"{name} {short_repr(v)} is a JSON {type(v).__name__}, not "
                       f"{' or '.join('null' if t is type(None) else t.__name__ for t in types)}")
        values[name] = v
    try:
        created = datetime.datetime.fromisoformat(values["created"])
        day = datetime.date.fromisoformat(values["date"])
    except ValueError as exc:
        raise FieldError(str(exc)) from None
    return Record(id=values["id"], player=values["player"], club=values["club"] or None,
                  date=day, ruleset=values["ruleset"], foul_id=values["foul_id"],
                  foul=values["foul"], penalty=values["penalty"], kind=values["kind"],
                  points=values["points"], strike=values["strike"], note=values["note"],
                  created=created if created.tzinfo else created.replace(tzinfo=datetime.UTC),
                  table=values["table"], hanchan=values["hanchan"], reason=values["reason"],
                  revoked=revocation_of(values["revoked"]))


def strike_dates_of(records: Iterable[Record]) -> list[datetime.date]:
    """The Strike days among ``records`` (AZRM records with ``strike`` true)."""
    return sorted(r.date for r in records if is_strike_record(r))


class Snapshot:
    """The records of one version of the stored data, with what the screens ask of them worked
    out once: in date order, by player (folded :func:`player_key`), the players."""

    def __init__(self, version: object, pairs: list[tuple[int, Record]],
                 unreadable: list[tuple[int, str]], players: list[Player] | None = None) -> None:
        self.version = version
        self.pairs = pairs
        self.unreadable = unreadable
        self._ordered: list[Record] | None = None
        self._by_player: dict[str, list[Record]] | None = None
        self._players = players

    def ordered(self) -> list[Record]:
        if self._ordered is None:
            self._ordered = sorted((r for _, r in self.pairs), key=lambda r: (r.date, r.created, r.id))
        return self._ordered

    def by_player(self) -> dict[str, list[Record]]:
        if self._by_player is None:
            found: dict[str, list[Record]] = {}
            keys: dict[tuple[str, str | None], str] = {}
            for r in self.ordered():
                k = keys.get((r.player, r.club))
                if k is None:
                    k = keys[(r.player, r.club)] = fold_key(r.player_key)
                found.setdefault(k, []).append(r)
            self._by_player = found
        return self._by_player

    def players(self) -> list[Player]:
        if self._players is None:
            out = [player_of(recs) for recs in self.by_player().values()]
            self._players = sorted(out, key=lambda p: (p.name.casefold(), (p.club or "").casefold()))
        return self._players
