"""The player ledger: penalties a judge records against players, and their AZRM Strikes.

A record is one penalty given to one player on one day under one ruleset: the foul is a row of
that ruleset's penalty table (its id and its text), the penalty text, kind and points (P) are
copied from the row when the record is made, and ``strike`` says whether it counts as an AZRM
Strike (AZRM §1.4). For AZRM the row decides (``strike = true/false`` in
``content/penalties/azrm.toml``); where the row leaves the penalty to the judge's discretion the
judge says yes or no. Outside AZRM nothing is a Strike.

:meth:`Ledger.status` feeds a player's Strike dates to :func:`handbook.strike_status`.

Records are stored through :mod:`handbook.storage` (a TinyDB table ``records``); every change
runs inside :func:`handbook.storage.transaction`, so two tabs or processes never lose each
other's records. Export writes JSON or CSV; import validates every field of every entry first and
then inserts everything in one write — a bad file is refused with :class:`LedgerImportError`
naming the line (CSV, JSON syntax) or entry (JSON) and the reason, and nothing stored changes.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from handbook.core.load import default_library
from handbook.core.strikes import StrikeStatus, strike_status
from handbook.storage import (
    DamageReport,
    acknowledge_damage,
    damage_of,
    damages_of,
    data_version,
    transaction,
)

from handbook.core.model import PenaltyRow
# the record's fields and the record itself live in their own modules; their names are the ledger's
from handbook.ledger.fields import (
    FIRST_DAY as FIRST_DAY, LAST_DAY as LAST_DAY, MAX_CLUB, MAX_NAME, MAX_NOTE,
    MAX_POINTS as MAX_POINTS, MAX_TEXT, ID_RE, FieldError, check_text, clean_text, created_at,
    csv_cell as csv_cell, csv_line, csv_uncell, fold_key, parse_bool,
    parse_date as parse_date, parse_kind, parse_points, player_key, record_day, split_player_key, visible_text,
    MAX_TABLE as MAX_TABLE, MAX_HANCHAN as MAX_HANCHAN, check_table, check_hanchan, short_id,
    LedgerImportError as LedgerImportError, REQUIRED as REQUIRED, MAX_PROBLEMS as MAX_PROBLEMS, MAX_IMPORT_BYTES as MAX_IMPORT_BYTES,
)
from handbook.ledger.day import INCIDENT_COLUMNS as INCIDENT_COLUMNS, DayRecords
from handbook.ledger.records import (
    STRIKE_RULESET, V1_FIELDS, ContentIds, ImportResult, Player, Record, Revocation, export_name,
    from_doc, is_strike_record, player_of, replace_record, revocation_of,
    strike_dates_of as strike_dates_of, Snapshot,
)

if TYPE_CHECKING:  # pragma: no cover
    from tinydb import TinyDB

    from handbook.core.model import Library

TABLE = "records"
FORMAT = "riichi-judge-handbook/ledger"
#: the format an export writes when a record holds a table, hanchan, reason or revocation; an
#: export without any of them is written as version 1, which every release reads. The previous
#: release refuses a version 2 JSON file ("version 2 is not supported (this app reads version 1)")
#: and a CSV file with the new columns ("unknown column(s) 'table', …"), importing nothing.
VERSION = 2
READS = (1, 2)

FIELDS = (*V1_FIELDS, "table", "hanchan", "reason", "revoked", "revoked_reason")
#: a JSON entry's fields (``revoked`` is one object there; CSV splits it into two columns)
JSON_FIELDS = FIELDS[:-1]
#: the longest table name (characters) and the highest hanchan number



class Ledger(DayRecords):
    """Records in a TinyDB database (see :func:`handbook.storage.open_db`), checked against a
    content :class:`~handbook.Library` (default: the shipped content)."""

    def __init__(self, db: "TinyDB", library: "Library | None" = None) -> None:
        if library is None:
            library = default_library()
        self.db = db
        self.library = library
        #: stored documents the last read skipped: ``(document id, reason)``; they stay in the
        #: file unchanged (a newer version's record, a hand edit) and the UI reports them
        self.unreadable: list[tuple[int, str]] = []
        self._snap: Snapshot | None = None
        #: imports running in a process of their own (:func:`import_isolated`): until they end,
        #: readers keep the records as they stood rather than parse the file the import rewrote
        self._importing = 0
        #: each ruleset's penalty rows by their foul text, as an import matches them
        self._fouls: dict[str, dict[str, PenaltyRow]] = {}

    @property
    def damage(self) -> DamageReport | None:
        """Set when the stored data was damaged and moved aside (show it); it survives a restart
        until :meth:`acknowledge_damage`."""
        return damage_of(self.db)

    @property
    def damages(self) -> list[DamageReport]:
        """Every damage report not yet acknowledged, oldest first."""
        return damages_of(self.db)

    def acknowledge_damage(self) -> None:
        """The judge has read the damage reports: stop showing them, here and after a restart
        (one whose recovery still waits for disk space stays)."""
        acknowledge_damage(self.db)

    @property
    def _table(self):
        return self.db.table(TABLE)

    # content ----------------------------------------------------------------------------------
    def rows(self, ruleset: str) -> list["PenaltyRow"]:
        """The penalty rows a foul can be chosen from, in source order."""
        rs = self.library.rulesets.get(ruleset) if isinstance(ruleset, str) else None
        if rs is None:
            raise ValueError(f"ruleset: unknown ruleset {ruleset!r}; allowed: "
                             f"{', '.join(self.library.rulesets)}")
        return list(rs.penalties)

    def row(self, ruleset: str, foul: str) -> "PenaltyRow":
        """The row of ``ruleset``'s table whose foul text (or, if unique, foul id) is ``foul``."""
        rows = self.rows(ruleset)
        for r in rows:
            if r.foul == foul:
                return r
        by_id = [r for r in rows if r.id == foul]
        if len(by_id) == 1:
            return by_id[0]
        if by_id:
            raise ValueError(f"foul: {foul!r} names {len(by_id)} rows of the {ruleset} table; "
                             "give the foul text")
        raise ValueError(f"foul: {foul!r} is not a foul in the {ruleset} penalty table")

    @staticmethod
    def strike_of(row: "PenaltyRow", judged: bool | None = None) -> bool:
        """Whether a record of ``row`` is a Strike: the AZRM row says, or for a row that leaves
        it to the judge, ``judged`` does. Outside AZRM: never. ``ValueError`` when the judge's
        answer is needed and missing, or contradicts the row."""
        if row.ruleset != STRIKE_RULESET:
            if judged:
                raise ValueError(f"strike: only AZRM records are Strikes ({row.ruleset} has none)")
            return False
        if row.strike is None:
            if judged is None:
                raise ValueError(f"strike: the AZRM row {row.foul!r} leaves the Strike to the "
                                 "judge; say yes or no")
            return bool(judged)
        if judged is not None and bool(judged) != row.strike:
            raise ValueError(f"strike: the AZRM row {row.foul!r} is "
                             f"{'a Strike' if row.strike else 'not a Strike'} (§1.4), got {judged!r}")
        return row.strike

    # reading ----------------------------------------------------------------------------------
    def _snapshot(self) -> "Snapshot":
        """The stored records, parsed once per version of the stored data (see
        :func:`handbook.storage.data_version`): a ledger of 60,000 records is read and parsed
        again only after someone wrote it, not on every screen."""
        version = data_version(self.db)
        snap = self._snap
        if snap is not None and self._importing:
            # another process is importing: its records are handed over when it ends
            # (adopt); parsing the file it rewrote would hold every session up for seconds
            self.unreadable = snap.unreadable
            return snap
        if version is not None and snap is not None and snap.version == version:
            self.unreadable = snap.unreadable
            return snap
        out = []
        unreadable = []
        for doc in self._table.all():  # all() always re-reads the storage
            try:
                out.append((doc.doc_id, from_doc(doc)))
            except (KeyError, TypeError, ValueError, OverflowError, FieldError) as exc:
                # a stored document this version cannot read is left untouched, and reported
                unreadable.append((doc.doc_id, str(exc)))
        self.unreadable = unreadable
        snap = Snapshot(version, out, unreadable)
        if version is not None:
            self._snap = snap
        return snap

    def ready(self) -> bool:
        """Whether :meth:`records` and :meth:`players` would answer from records already parsed
        (nobody wrote since the last read): a screen may then call them on the event loop; if
        not, it reads them in a worker thread first (a large ledger takes seconds to parse)."""
        version = data_version(self.db)
        return version is not None and self._snap is not None and self._snap.version == version

    def adopt(self, version: object, pairs: list[tuple[int, Record]],
              unreadable: list[tuple[int, str]], players: list[Player] | None = None) -> None:
        """Take the records another process read (or wrote) for the data of ``version``, if that
        is still the stored data: the next read need not parse them again. ``players``: their
        players as :meth:`players` lists them, when the other process worked them out too."""
        if version is not None and version == data_version(self.db):
            self._snap = Snapshot(version, pairs, unreadable, players)
            self.unreadable = unreadable

    def _all(self) -> list[tuple[int, Record]]:
        return self._snapshot().pairs

    def records(self, player: str | None = None) -> list[Record]:
        """Every record (or one player's, by :attr:`Player.key`), oldest first."""
        snap = self._snapshot()
        if player is None:
            return list(snap.ordered())
        return list(snap.by_player().get(fold_key(clean_text(visible_text(player))), ()))

    def players(self) -> list[Player]:
        """Every player with at least one record, by name."""
        return list(self._snapshot().players())

    def player(self, key: str) -> Player | None:
        """The player whose :attr:`Player.key` is ``key`` (without case), or ``None``."""
        recs = self._snapshot().by_player().get(fold_key(player_key(*split_player_key(key))))
        return player_of(recs) if recs else None

    def strike_dates(self, player: str) -> list[datetime.date]:
        """The day of each Strike of ``player`` (AZRM records with ``strike`` true), oldest first."""
        return [r.date for r in self.records(player) if is_strike_record(r)]

    def status(self, player: str, on: datetime.date) -> StrikeStatus:
        """``player``'s AZRM §1.4 standing on ``on`` (:func:`handbook.strike_status`)."""
        return strike_status(self.strike_dates(player), on)

    # changing ---------------------------------------------------------------------------------
    def add(self, player: str, date: datetime.date | str, ruleset: str, foul: str, *,
            club: str | None = None, note: str = "", strike: bool | None = None,
            points: int | None = None, created: datetime.datetime | None = None,
            table: str | None = None, hanchan: int | None = None, reason: str = "") -> Record:
        """Record the foul ``foul`` (a row's foul text, or a foul id that names one row) of
        ``ruleset`` against ``player`` on ``date``. ``strike`` is needed only for an AZRM row left
        to the judge; ``points`` only where the row gives no number (the judge's decision).
        ``table`` (text, at most :data:`MAX_TABLE` characters) and ``hanchan`` (1 to
        :data:`MAX_HANCHAN`) say where it happened; ``reason`` what happened.
        Raises ``ValueError`` naming the argument."""
        try:
            name = check_text(player, "player", limit=MAX_NAME, required=True)
            club_id = check_text(club, "club", limit=MAX_CLUB, required=False) or None
            day = record_day(date)
            text = check_text(note, "note", limit=MAX_NOTE, required=False, multiline=True)
            made = created_at(created)
            where = check_table(table)
            game = check_hanchan(hanchan)
            why = check_text(reason, "reason", limit=MAX_NOTE, required=False, multiline=True)
        except FieldError as exc:
            raise ValueError(str(exc)) from None
        row = self.row(ruleset, foul)
        is_strike = self.strike_of(row, strike)
        if points is not None:
            if row.points is not None and points != row.points:
                raise ValueError(f"points: the row gives {row.points}P; only a row without a number "
                                 "takes the judge's points")
            try:
                points = parse_points(points, csv_text=False)
            except FieldError as exc:
                raise ValueError(f"points: {exc}") from None
        rec = Record(id=uuid.uuid4().hex, player=name, club=club_id, date=day, ruleset=row.ruleset,
                     foul_id=row.id, foul=row.foul, penalty=row.penalty,
                     kind=row.kind.value if row.kind else None,
                     points=points if points is not None else row.points, strike=is_strike,
                     note=text, created=made, table=where, hanchan=game, reason=why)
        with transaction(self.db):
            rec = self._same_spelling(rec)
            self._table.insert(rec.to_json())
        return rec

    def _same_spelling(self, rec: Record) -> Record:
        """Use the stored spelling of a player already in the ledger (matched without case)."""
        found = self._snapshot().by_player().get(fold_key(rec.player_key))
        if found:
            r = found[0]
            if (r.player, r.club) != (rec.player, rec.club):
                return replace_record(rec, player=r.player, club=r.club)
        return rec

    def remove(self, record_id: str) -> Record:
        """Remove one record; returns it so the UI can offer Undo (:meth:`restore`).
        ``KeyError`` if there is no such record."""
        with transaction(self.db):
            for doc_id, rec in self._all():
                if rec.id == record_id:
                    self._table.remove(doc_ids=[doc_id])
                    return rec
        raise KeyError(record_id)

    def restore(self, record: Record) -> Record:
        """Put back a removed record (Undo); a no-op if it is already there."""
        with transaction(self.db):
            if not any(r.id == record.id for _, r in self._all()):
                self._table.insert(record.to_json())
        return record

    def _find(self, record_id: object) -> tuple[int, Record]:
        if not isinstance(record_id, str) or not ID_RE.fullmatch(record_id):
            raise ValueError(f"record_id: {short_id(record_id)} is not a record id (1–64 letters, "
                             "digits, '-' or '_')")
        for doc_id, rec in self._all():
            if rec.id == record_id:
                return doc_id, rec
        raise ValueError(f"record_id: no record with id {record_id!r} in the ledger")

    def _store(self, doc_id: int, rec: Record) -> None:
        self._table.update(rec.to_json(), doc_ids=[doc_id])

    def revoke(self, record_id: str, reason: str, *, now: datetime.datetime | None = None) -> Record:
        """Revoke a record given by mistake or overturned on appeal: it stays in the player's
        history, marked with the time (``now``, default the clock) and ``reason``, and counts for
        nothing (no Strike, no points). Returns the revoked record. ``ValueError`` naming
        ``record_id`` (not an id, no such record, already revoked) or ``reason`` (empty, too
        long). Undo: :meth:`unrevoke`."""
        try:
            why = check_text(reason, "reason", limit=MAX_NOTE, required=True, multiline=True)
            when = created_at(now)
        except FieldError as exc:
            raise ValueError(str(exc)) from None
        with transaction(self.db):
            doc_id, rec = self._find(record_id)
            if rec.revoked is not None:
                raise ValueError(f"record_id: record {record_id!r} was already revoked at "
                                 f"{rec.revoked.time.isoformat()} ({rec.revoked.reason})")
            new = replace_record(rec, revoked=Revocation(when, why))
            self._store(doc_id, new)
        return new

    def unrevoke(self, record_id: str) -> Record:
        """Undo :meth:`revoke`: the record counts again. ``ValueError`` naming ``record_id``
        (not an id, no such record, not revoked)."""
        with transaction(self.db):
            doc_id, rec = self._find(record_id)
            if rec.revoked is None:
                raise ValueError(f"record_id: record {record_id!r} is not revoked")
            new = replace_record(rec, revoked=None)
            self._store(doc_id, new)
        return new

    # export -------------------------------------------------------------------------------------
    def export_json(self, player: str | None = None) -> str:
        """The ledger (or one player's records) as JSON text, importable by :meth:`import_json`."""
        recs = self.records(player)
        full = any(r.extended for r in recs)
        doc = {"format": FORMAT, "version": VERSION if full else 1,
               "exported": datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat(),
               "player": player,
               "records": [r.to_json() if full else r.to_json_v1() for r in recs]}
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"

    def export_csv(self, player: str | None = None) -> str:
        """The ledger (or one player's records) as CSV text with a header line of :data:`FIELDS`.
        No cell starts with what a spreadsheet runs as a formula (:func:`csv_cell`), and a cell
        holding a separator some spreadsheet splits on (``,``, ``;``, a tab, ``|``) is quoted, so
        one that splits on ``;`` keeps ``Semi;=1+1`` one cell instead of running ``=1+1``.
        :meth:`import_csv` gives back the same text."""
        recs = self.records(player)
        fields = FIELDS if any(r.extended for r in recs) else V1_FIELDS
        lines = [csv_line(fields)]
        for r in recs:
            cells = r.to_csv()
            lines.append(csv_line([cells[f] for f in fields]))
        return "".join(lines)

    def export_file(self, folder: str | Path, fmt: Literal["json", "csv"], player: str | None = None,
                    *, now: datetime.datetime | None = None) -> Path:
        """Write an export into ``folder`` and return its path
        (``ledger-<player>-YYYYMMDD-HHMMSS.<fmt>``)."""
        from handbook.storage import atomic_write_text

        if fmt not in ("json", "csv"):
            raise ValueError(f"fmt: must be 'json' or 'csv', got {fmt!r}")
        text = self.export_json(player) if fmt == "json" else self.export_csv(player)
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / export_name(fmt, player, now=now)
        atomic_write_text(path, text)
        return path

    # import -------------------------------------------------------------------------------------
    def import_text(self, text: str | bytes, fmt: Literal["json", "csv"] | None = None,
                    name: str = "") -> ImportResult:
        """Import JSON or CSV (``fmt``, or guessed from ``name``'s extension / the first
        character). Raises :class:`LedgerImportError`; nothing changes then (also for a file
        larger than :data:`MAX_IMPORT_BYTES`)."""
        size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
        if size > MAX_IMPORT_BYTES:
            raise LedgerImportError([f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB "
                                     f"({size:,} bytes)"])
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise LedgerImportError([f"the file is not UTF-8 text (byte {exc.start})"]) from None
        text = text.removeprefix("\ufeff")
        if fmt is None:
            lower = name.lower()
            if lower.endswith(".csv"):
                fmt = "csv"
            elif lower.endswith(".json"):
                fmt = "json"
            else:
                fmt = "json" if text.lstrip()[:1] in ("{", "[") else "csv"
        if fmt == "json":
            return self.import_json(text)
        if fmt == "csv":
            return self.import_csv(text)
        raise ValueError(f"fmt: must be 'json' or 'csv', got {fmt!r}")

    def import_json(self, text: str) -> ImportResult:
        """Import an export of :meth:`export_json` (or a bare list of records)."""
        if not text.strip():
            raise LedgerImportError(["the file is empty"])
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise LedgerImportError([f"line {exc.lineno}, column {exc.colno}: not valid JSON "
                                     f"({exc.msg})"]) from None
        except RecursionError:
            raise LedgerImportError(["the JSON is nested too deeply to be a ledger"]) from None
        except ValueError:  # a number of more than 4,300 digits
            raise LedgerImportError(["the JSON holds a number too long to be a ledger value"]) from None
        if isinstance(doc, dict):
            extra = set(doc) - {"format", "version", "exported", "player", "records"}
            if extra:
                raise LedgerImportError([f"unknown top-level key(s) {', '.join(sorted(map(repr, extra)))}"])
            if doc.get("format", FORMAT) != FORMAT:
                raise LedgerImportError([f"format {doc.get('format')!r} is not {FORMAT!r}"])
            if doc.get("version", VERSION) not in READS or isinstance(doc.get("version"), bool):
                raise LedgerImportError([f"version {doc.get('version')!r} is not supported "
                                         f"(this app reads versions {', '.join(map(str, READS))})"])
            entries = doc.get("records")
            if not isinstance(entries, list):
                raise LedgerImportError(["'records' is missing or is not a list"])
        elif isinstance(doc, list):
            entries = doc
        else:
            raise LedgerImportError([f"the top level is a JSON {type(doc).__name__}; expected an "
                                     "object with 'records' or a list of records"])
        items = []
        for i, e in enumerate(entries, start=1):
            where = f"entry {i}"
            if not isinstance(e, dict):
                items.append((where, None, f"is a JSON {type(e).__name__}, not an object"))
            else:
                items.append((where, e, None))
        return self._import(items, csv_text=False)

    def import_csv(self, text: str) -> ImportResult:
        """Import an export of :meth:`export_csv`: a header line naming columns from
        :data:`FIELDS` (``player``, ``date``, ``ruleset``, ``foul`` required), one record a line."""
        if not text.strip():
            raise LedgerImportError(["the file is empty"])
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(reader)
        except csv.Error as exc:
            raise LedgerImportError([f"line 1: {exc}"]) from None
        header = [h.strip() for h in header]
        unknown = [h for h in header if h not in FIELDS]
        missing = [f for f in REQUIRED if f not in header]
        dup = sorted({h for h in header if header.count(h) > 1})
        problems = []
        if unknown:
            problems.append(f"line 1: unknown column(s) {', '.join(map(repr, unknown))}; "
                            f"allowed: {', '.join(FIELDS)}")
        if missing:
            problems.append(f"line 1: missing column(s) {', '.join(map(repr, missing))}")
        if dup:
            problems.append(f"line 1: column(s) {', '.join(map(repr, dup))} appear more than once")
        if problems:
            raise LedgerImportError(problems)
        items: list[tuple[str, dict | None, str | None]] = []
        line = reader.line_num
        while True:
            start = line + 1
            try:
                values = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                raise LedgerImportError([f"line {start}: {exc}"]) from None
            line = reader.line_num
            if not any(v.strip() for v in values):
                continue  # blank line
            where = f"line {start}"
            if len(values) != len(header):
                items.append((where, None, f"has {len(values)} value(s) but the header has "
                                           f"{len(header)} column(s)"))
                continue
            items.append((where, {h: csv_uncell(v) for h, v in zip(header, values, strict=True)}, None))
        return self._import(items, csv_text=True)

    def _import(self, items: list[tuple[str, dict | None, str | None]], *, csv_text: bool) -> ImportResult:
        if not items:
            raise LedgerImportError(["the file holds no records"])
        recs, derived = self._checked(items, csv_text=csv_text)
        problems: list[str] = []
        with transaction(self.db):
            stored = {r.id: r for _, r in self._all()}
            new, skipped = [], 0
            for where, rec in recs:
                old = stored.get(rec.id)
                if old is None:
                    new.append(rec)
                elif old == rec or rec.id in derived:
                    skipped += 1
                else:
                    problems.append(f"{where}: id {rec.id!r} is already in the ledger with other "
                                    "contents")
            if problems:
                raise LedgerImportError(problems[:MAX_PROBLEMS])
            if new:
                before = self._snapshot()
                ids = self._table.insert_multiple([r.to_json() for r in new])  # one write
                # the records just written are known: the next screen need not parse them again
                version = data_version(self.db)
                if version is not None and self._snap is before:
                    self._snap = Snapshot(version, [*before.pairs, *zip(ids, new, strict=True)],
                                           before.unreadable)
        return ImportResult(added=len(new), skipped=skipped, records=tuple(new))

    def _checked(self, items: list[tuple[str, dict | None, str | None]], *, csv_text: bool
                 ) -> tuple[list[tuple[str, Record]], set[str]]:
        """Every entry checked (``(where, record)``) and the ids derived from content; raises
        :class:`LedgerImportError` listing up to ``MAX_PROBLEMS`` problems (ids twice included)."""
        problems: list[str] = []
        recs: list[tuple[str, Record]] = []
        content_ids = ContentIds()
        derived: set[str] = set()
        # one clock reading for the records that come without "created": one import, one moment
        now = created_at(None)
        for where, raw, error in items:
            if error:
                problems.append(f"{where}: {error}")
                continue
            try:
                rec = self._check_entry(raw, csv_text=csv_text, now=now, content_ids=content_ids)
            except FieldError as exc:
                problems.append(f"{where}: {exc}")
            else:
                if raw.get("id") in (None, ""):
                    derived.add(rec.id)
                recs.append((where, rec))
            if len(problems) >= MAX_PROBLEMS:
                break
        seen: dict[str, str] = {}
        for where, rec in recs:
            if rec.id in seen:
                problems.append(f"{where}: id {rec.id!r} appears twice (also {seen[rec.id]})")
            seen.setdefault(rec.id, where)
        if problems:
            raise LedgerImportError(problems[:MAX_PROBLEMS])
        return recs, derived

    def _check_entry(self, raw: Mapping[str, Any], *, csv_text: bool,
                     now: datetime.datetime | None = None,
                     content_ids: ContentIds | None = None) -> Record:
        """The record of one imported entry; ``now``: its ``created`` when it has none. An entry
        without an id gets one made from its content by ``content_ids`` (the file's
        :class:`~handbook.ledger.records.ContentIds`) when given, else the id ``""``."""
        allowed = JSON_FIELDS if not csv_text else FIELDS
        unknown = [k for k in raw if k not in allowed]
        if unknown:
            raise FieldError(f"unknown field(s) {', '.join(map(repr, unknown))}")
        missing = [k for k in REQUIRED if raw.get(k) in (None, "")]
        if missing:
            raise FieldError(f"{', '.join(missing)} is missing")
        rid = raw.get("id") or ""
        if rid != "" and (not isinstance(rid, str) or not ID_RE.fullmatch(rid)):
            raise FieldError(f"id {rid!r} is not an id (1–64 letters, digits, '-' or '_')")
        name = check_text(raw["player"], "player", limit=MAX_NAME, required=True)
        club = check_text(raw.get("club"), "club", limit=MAX_CLUB, required=False) or None
        day = record_day(raw["date"])
        ruleset = raw["ruleset"]
        if not isinstance(ruleset, str) or ruleset not in self.library.rulesets:
            raise FieldError(f"ruleset {ruleset!r} is not one of {', '.join(self.library.rulesets)}")
        foul = check_text(raw["foul"], "foul", limit=MAX_TEXT, required=True)
        fouls = self._fouls.get(ruleset)
        if fouls is None:
            fouls = {}
            for r in self.library.rulesets[ruleset].penalties:
                fouls.setdefault(clean_text(r.foul), r)
            self._fouls[ruleset] = fouls
        row = fouls.get(foul)
        if row is None:
            raise FieldError(f"foul {foul!r} is not a foul in the {ruleset} penalty table")
        foul_id = raw.get("foul_id")
        if foul_id not in (None, "") and foul_id != row.id:
            raise FieldError(f"foul_id {foul_id!r} does not match the foul {row.foul!r} (id {row.id!r})")
        penalty = check_text(raw.get("penalty"), "penalty", limit=MAX_TEXT, required=False) or row.penalty
        kind = parse_kind(raw.get("kind")) if raw.get("kind") not in (None, "") else (
            row.kind.value if row.kind else None)
        pts = parse_points(raw.get("points"), csv_text=csv_text)
        points = pts if pts is not None else row.points
        judged = parse_bool(raw.get("strike"), "strike", csv_text=csv_text)
        try:
            strike = self.strike_of(row, judged)
        except ValueError as exc:
            raise FieldError(str(exc)) from None
        note = check_text(raw.get("note"), "note", limit=MAX_NOTE, required=False, multiline=True)
        created = now if now is not None and raw.get("created") in (None, "") else created_at(raw.get("created"))
        table = check_table(raw.get("table"))
        hanchan = check_hanchan(raw.get("hanchan"), csv_text=csv_text)
        reason = check_text(raw.get("reason"), "reason", limit=MAX_NOTE, required=False, multiline=True)
        if csv_text:
            when, why = raw.get("revoked") or "", raw.get("revoked_reason") or ""
            if bool(when) != bool(why.strip()):
                raise FieldError("revoked and revoked_reason go together (a time and a reason)")
            revoked = revocation_of({"time": when, "reason": why} if when else None)
        else:
            revoked = revocation_of(raw.get("revoked"))
        if not rid and content_ids is not None:  # made here: building the record twice cost 0.5 s a season
            content = (name, club, day, ruleset, row.id, row.foul, penalty, points, strike, note)
            if table is not None or hanchan is not None or reason or revoked is not None:
                content = (*content, table, hanchan, reason,
                           None if revoked is None else revoked.time.isoformat())
            rid = content_ids(content)
        return Record(rid, name, club, day, ruleset, row.id, row.foul, penalty, kind, points, strike, note,
                      created, table, hanchan, reason, revoked)


# the large import in a process of its own (imports Ledger from here, so it comes last)
from handbook.ledger.isolated import (  # noqa: E402, F401
    IMPORT_NICENESS, PROCESS_IMPORT_BYTES, REBUILD_CHUNK, import_isolated,
)
