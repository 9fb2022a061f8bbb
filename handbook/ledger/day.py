"""The day's records of the ledger: the incidents of a day (by table), the point penalties of a
table and hanchan for End of hanchan, the organiser's CSV, and the same-incident check. A part of
:class:`handbook.ledger.Ledger` (it inherits :class:`DayRecords`), kept apart so that each module
stays readable; see there for storage and fields."""

from __future__ import annotations

import datetime
from collections.abc import Iterable

from handbook.ledger.fields import (
    MAX_CLUB, MAX_NAME, FieldError, check_hanchan, check_table, check_text, clean_text, created_at,
    csv_cell, csv_line, fold_key, record_day, short_id, visible_text,
)
from handbook.ledger.records import Record

#: the columns of :meth:`DayRecords.incidents_csv`
INCIDENT_COLUMNS = ("time", "table", "hanchan", "player", "club", "ruleset", "foul", "penalty",
                    "points", "strike", "reason", "revoked")


class DayRecords:
    """The day's queries of :class:`handbook.ledger.Ledger` (which provides ``records``, ``row``
    and the snapshot they read)."""

    def incidents(self, date: datetime.date | str, table: str | None = None) -> list[Record]:
        """The records of ``date`` (revoked ones included, marked by :attr:`Record.revoked`) in
        the order they were made; with ``table``, only those of that table (matched without
        case). ``ValueError`` naming ``date`` or ``table``."""
        try:
            day = record_day(date)
            where = check_table(table)
        except FieldError as exc:
            raise ValueError(str(exc)) from None
        out = [r for r in self.records() if r.date == day
               and (where is None or (r.table is not None and r.table.casefold() == where.casefold()))]
        return sorted(out, key=lambda r: (r.created, r.id))

    def penalties_for(self, date: datetime.date | str, table: str,
                      hanchan: int | None = None) -> dict[str, int]:
        """The point penalties recorded at ``table`` on ``date`` (and in ``hanchan``, when
        given): P (1P = 1,000 table points) per player (:attr:`Record.player_key`), summed over
        the records that count (not revoked) and give points. ``ValueError`` naming ``date``,
        ``table`` (required) or ``hanchan``."""
        if table is None or (isinstance(table, str) and not table.strip()):
            raise ValueError("table: give the table the penalties were recorded at")
        out: dict[str, int] = {}
        for r in self.penalty_lines(date, table, hanchan):
            out[r.player_key] = out.get(r.player_key, 0) + (r.points or 0)
        return out

    def penalty_lines(self, date: datetime.date | str, table: str | None = None,
                      hanchan: int | None = None, *, players: Iterable[str] | None = None) -> list[Record]:
        """The records behind :meth:`penalties_for`, one line each, in the order they were made:
        the point penalties of ``date`` that count (not revoked) and give points (P, 1P = 1,000
        table points, in :attr:`Record.points`; each names its :attr:`Record.id`,
        :attr:`Record.player` and :attr:`Record.foul`). ``table`` keeps those recorded at that
        table (without case); ``hanchan`` (1 to :data:`MAX_HANCHAN`) those of that hanchan (a
        record that does not say its hanchan is then left out); ``players`` (names or
        :attr:`Player.key` values, without case; blank ones are ignored) those of these players.
        At least one of ``table`` and ``players`` must be given. ``ValueError`` naming ``date``,
        ``table`` (too long, or neither it nor a player given), ``hanchan`` or ``players`` (not
        a list of text, or a name too long or with control characters)."""
        try:
            day = record_day(date)
            where = check_table(table)
            game = check_hanchan(hanchan)
        except FieldError as exc:
            raise ValueError(str(exc)) from None
        who: set[str] | None = None
        if players is not None:
            if isinstance(players, str) or not isinstance(players, Iterable):
                raise ValueError(f"players: give a list of player names, got {short_id(players)}")
            who = set()
            for name in players:
                if not isinstance(name, str):
                    raise ValueError(f"players: a player's name is text, got {short_id(name)}")
                if not name.strip():
                    continue
                try:
                    who.add(fold_key(check_text(name, "players", limit=MAX_NAME + MAX_CLUB + 1,
                                                required=True)))
                except FieldError as exc:
                    raise ValueError(str(exc)) from None
            if not who and where is None:
                who = None
        if where is None and who is None:
            raise ValueError("table: give the table the penalties were recorded at, or the players")
        return [r for r in self.incidents(day, where)
                if r.counts and r.points is not None and (game is None or r.hanchan == game)
                and (who is None or fold_key(r.player_key) in who or fold_key(r.player) in who)]

    def incidents_csv(self, date: datetime.date | str, table: str | None = None) -> str:
        """The day's incidents (:meth:`incidents`) as CSV for the organiser: one line each, by
        time, with :data:`INCIDENT_COLUMNS`; ``revoked`` holds the revocation's time and reason
        (empty for a record that counts). Cells are escaped as in :meth:`export_csv` (no formula
        runs in a spreadsheet). ``ValueError`` as :meth:`incidents`."""
        lines = [csv_line(INCIDENT_COLUMNS)]
        for r in self.incidents(date, table):
            cells = [r.created.isoformat(), r.table or "", "" if r.hanchan is None else str(r.hanchan),
                     r.player, r.club or "", r.ruleset, r.foul, r.penalty,
                     "" if r.points is None else str(r.points), "true" if r.strike and r.counts else "false",
                     r.reason, "" if r.revoked is None else f"{r.revoked.time.isoformat()} {r.revoked.reason}"]
            lines.append(csv_line([csv_cell(c) for c in cells]))
        return "".join(lines)

    def same_incident(self, player: str, ruleset: str, foul: str, *,
                      now: datetime.datetime | None = None,
                      within: datetime.timedelta = datetime.timedelta(minutes=1)) -> list[Record]:
        """Records that may be the same incident as one about to be made: the same player (without
        case) and row, made less than ``within`` before ``now``, not revoked."""
        row = self.row(ruleset, foul)
        when = created_at(now)
        key = fold_key(clean_text(visible_text(player))) if isinstance(player, str) else ""
        return [r for r in self._snapshot().by_player().get(key, ())
                if r.counts and r.ruleset == row.ruleset and r.foul == row.foul
                and abs(when - r.created) < within]
