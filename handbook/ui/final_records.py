"""End of hanchan's penalty column filled from the day's records: the judge names the table (and
the hanchan) or the four players by seat; the recorded, unrevoked point penalties
(:meth:`handbook.ledger.Ledger.penalty_lines`) go to the seat of their player, each line naming
its record (player, foul, P); a record whose player sits at none of the four seats is said, never
dropped.

This is the judge's data: the part shows the records only to a session that may see the ledger
(:meth:`handbook.ui.stores.Stores.may_read`); a locked session on a served app gets the passphrase
box in place (the typed scores stay), and ``/tools/final`` is declared ``JUDGE_PARTS``.

:func:`place_lines`, :func:`fill_values` and :func:`penalty_line_texts` are plain functions (no
flet) so tests can check them without a page.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import flet as ft

from handbook.core.rulings import SEATS
from handbook.i18n import N_
from handbook.storage import is_web
from handbook.ui.context import AppContext
from handbook.ui.errors import readable
from handbook.ui.gate import judged_ledger, passphrase_controls
from handbook.ui.widgets import BODY_SIZE, SMALL_SIZE, field_above, tall_style

if TYPE_CHECKING:  # the ledger is imported when the records are first asked for
    from handbook.core.model import Library
    from handbook.ledger import Ledger, Record

SEAT_NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
#: the highest hanchan number the box takes (the ledger's :data:`handbook.ledger.MAX_HANCHAN`)
MAX_HANCHAN = 99
#: the longest table name the box takes (the ledger's :data:`handbook.ledger.MAX_TABLE`)
MAX_TABLE = 20


@dataclass(frozen=True)
class Placed:
    """The day's point penalties of one table (or of the four players): ``by_seat`` the records of
    each seat's player (E, S, W, N; a seat without a named player or penalty has none),
    ``unplaced`` those of a player named at no seat, in the order they were made."""

    by_seat: Mapping[str, Sequence["Record"]]
    unplaced: Sequence["Record"] = ()
    table: str | None = None
    hanchan: int | None = None
    players: Mapping[str, str] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.by_seat.values()) + len(self.unplaced)

    def points(self, seat: str) -> int:
        """P of the seat's records (1P = 1,000 table points)."""
        return sum(r.points or 0 for r in self.by_seat.get(seat, ()))


def place_lines(ledger: "Ledger", day: datetime.date, table: str | None, hanchan: int | None,
                players: Mapping[str, str]) -> Placed:
    """The point penalties of ``day`` at ``table`` (and ``hanchan``; ``table`` ``None``: the named
    players' at any table) placed at the seat (``"E"``… ``"N"``) whose player in ``players`` the
    record names (without case; a player named at two seats counts at the first). ``ValueError``
    (from :meth:`~handbook.ledger.Ledger.penalty_lines`) naming ``table`` when neither a table
    nor a player is given, or ``hanchan``."""
    named = {s: (players.get(s) or "").strip() for s in SEATS}
    named = {s: n for s, n in named.items() if n}
    every = ledger.penalty_lines(day, table, hanchan, players=None if table else list(named.values()))
    by_seat: dict[str, list[Record]] = {s: [] for s in SEATS}
    placed: set[str] = set()
    for seat, name in named.items():
        for r in ledger.penalty_lines(day, table, hanchan, players=[name]):
            if r.id not in placed:
                by_seat[seat].append(r)
                placed.add(r.id)
    return Placed(by_seat=by_seat, unplaced=[r for r in every if r.id not in placed], table=table,
                  hanchan=hanchan, players=named)


def fill_values(placed: Placed) -> dict[str, str]:
    """The penalty column as the boxes show it: each seat's P as text, empty for none."""
    return {s: str(placed.points(s)) if placed.points(s) else "" for s in SEATS}


def record_text(r: "Record", library: "Library", _: Callable[[str], str]) -> str:
    """"Ann Smith — Noten Riichi (AZRM), 30P": the record's player, foul, ruleset and P."""
    rs = library.rulesets.get(r.ruleset)
    return _("{player} — {foul} ({ruleset}), {points}P").format(
        player=r.player + (f" ({r.club})" if r.club else ""), foul=r.foul,
        ruleset=rs.short if rs else r.ruleset, points=r.points)


def penalty_line_texts(penalties: Mapping[str, int], placed: Placed | None, library: "Library",
                       _: Callable[[str], str]) -> list[str]:
    """Each penalty line of the final score, seat by seat: the records behind a seat's penalty
    ("East: Ann Smith — Noten Riichi (AZRM), 30P (record)"), and P typed by hand where the box
    is not the records' sum. ``penalties``: P per seat as computed (the boxes)."""
    out: list[str] = []
    for seat in SEATS:
        name = _(SEAT_NAMES[seat])
        recs = list(placed.by_seat.get(seat, ())) if placed else []
        for r in recs:
            out.append(_("{seat}: {record} (record)").format(seat=name, record=record_text(r, library, _)))
        given = penalties.get(seat, 0)
        from_records = sum(r.points or 0 for r in recs)
        if given != from_records:
            if recs:
                out.append(_("{seat}: {points}P as typed in the box (the records give {records}P)").format(
                    seat=name, points=given, records=from_records))
            else:
                out.append(_("{seat}: {points}P typed by hand").format(seat=name, points=given))
    return out


class RecordsPart:
    """The "Penalties from the day's records" part of End of hanchan. ``on_fill(values, placed)``
    gets the penalty column (:func:`fill_values`) and the lines; ``query``: ``table`` and
    ``hanchan`` fill it on opening."""

    def __init__(self, ctx: AppContext, on_fill: Callable[[dict[str, str], Placed], None]) -> None:
        _ = ctx._
        self.ctx = ctx
        self.on_fill = on_fill
        q = ctx.query
        self.asked = bool((q.get("table") or "").strip())
        self.open = self.asked
        self.slot = ft.Column(spacing=8, key="records-part")
        self.table = ft.TextField(label=_("Table (name or number)"), value=(q.get("table") or "")[:MAX_TABLE],
                                  width=150, key="records-table", text_size=BODY_SIZE, on_submit=self.fill,
                                  input_filter=ft.InputFilter(regex_string=rf"^.{{0,{MAX_TABLE}}}$", allow=True,
                                                              replacement_string=""))
        hanchan = q.get("hanchan") or ""
        self.hanchan = ft.TextField(label=_("Hanchan (optional)"),
                                    value=hanchan if hanchan.isascii() and hanchan.isdigit() else "",
                                    keyboard_type=ft.KeyboardType.NUMBER, width=150,
                                    key="records-hanchan", text_size=BODY_SIZE, on_submit=self.fill,
                                    input_filter=ft.InputFilter(regex_string=r"^[0-9]{0,2}$", allow=True,
                                                                replacement_string=""))
        self.players = {s: ft.TextField(label=_("{seat} — player").format(seat=_(SEAT_NAMES[s])),
                                        width=184, key=f"records-player-{s}", text_size=BODY_SIZE,
                                        on_submit=self.fill) for s in SEATS}
        self.lines = ft.Column(spacing=6, key="record-lines")
        self.render()
        if self.asked and ctx.stores.may_read(ctx):
            self.fill()

    # ------------------------------------------------------------------ the controls
    def control(self) -> ft.Control:
        return self.slot

    def render(self) -> None:
        _ = self.ctx._
        head = ft.Text(_("Penalties from the day's records"), size=BODY_SIZE, weight=ft.FontWeight.W_600)
        if not self.open:
            self.slot.controls = [ft.Row([ft.OutlinedButton(
                _("Fill penalties from the day's records"), icon=ft.Icons.RECEIPT_LONG_OUTLINED,
                style=tall_style(), on_click=self.show, key="records-open")], wrap=True)]
        elif not self.ctx.stores.may_read(self.ctx):
            self.slot.controls = [head, ft.Row([
                ft.Icon(ft.Icons.LOCK_OUTLINE),
                ft.Text(_("The day's records are the judge's: give the judge passphrase to fill the "
                          "penalties from them. The calculator works without it."),
                        size=BODY_SIZE, expand=True, key="records-locked")],
                vertical_alignment=ft.CrossAxisAlignment.START),
                *passphrase_controls(self.ctx, _("Unlock"), self.unlocked, autofocus=False)]
        else:
            boxes = [field_above(_("{seat} — player").format(seat=_(SEAT_NAMES[s])), self.players[s])
                     for s in SEATS]
            self.slot.controls = [
                head,
                ft.Text(_("Today's point penalties of the table (and hanchan) fill the penalty column; "
                          "name the players by seat to put each at its seat, or name only the players."),
                        size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
                ft.Row([field_above(_("Table (name or number)"), self.table), field_above(_("Hanchan (optional)"), self.hanchan)],
                       wrap=True, spacing=8, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.END),
                ft.Row(boxes, wrap=True, spacing=8, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.END),
                ft.Row([ft.FilledTonalButton(_("Fill the penalty column"), icon=ft.Icons.DOWNLOAD,
                                             style=tall_style(), on_click=self.fill, key="records-fill")],
                       wrap=True),
                self.lines,
            ]

    def show(self, e=None) -> None:
        self.open = True
        self.render()
        self.ctx.page.update()

    def unlocked(self) -> None:
        """The passphrase was right: the part opens in place (the typed scores stay)."""
        self.render()
        if (self.table.value or "").strip():
            self.fill()
        self.ctx.page.update()

    # ------------------------------------------------------------------ filling
    def fill(self, e=None) -> None:
        if not self.ctx.stores.may_read(self.ctx):
            return
        if is_web() and self.ctx.stores.ledger is None:  # the browser build opens it asynchronously
            async def opened() -> None:
                self.fill_from(await self.ctx.stores.open_ledger(self.ctx.page))
                self.ctx.page.update()

            self.ctx.page.run_task(opened)
            return
        ledger = judged_ledger(self.ctx)
        if ledger is not None:
            self.fill_from(ledger)
        if e is not None:
            self.ctx.page.update()

    def fill_from(self, ledger: "Ledger") -> None:
        _ = self.ctx._
        table = (self.table.value or "").strip() or None
        players = {s: self.players[s].value or "" for s in SEATS}
        raw = (self.hanchan.value or "").strip()
        if raw and (not raw.isdigit() or not 1 <= int(raw) <= MAX_HANCHAN):
            self.lines.controls = [self.warning(_("Hanchan: a whole number from 1 to {n}.").format(n=MAX_HANCHAN))]
            return
        hanchan = int(raw) if raw else None
        if table is None and not any(v.strip() for v in players.values()):
            self.lines.controls = [self.warning(_("Name the table, or the players by seat."))]
            return
        try:
            placed = place_lines(ledger, datetime.date.today(), table, hanchan, players)
        except (OSError, ValueError) as exc:
            self.lines.controls = [self.warning(readable(exc, _))]
            return
        self.lines.controls = self.line_controls(placed)
        self.on_fill(fill_values(placed), placed)

    def line_controls(self, placed: Placed) -> list[ft.Control]:
        _ = self.ctx._
        lib = self.ctx.library
        if not placed.count:
            if placed.table is None:
                text = _("No point penalties recorded today for these players.")
            elif placed.hanchan is None:
                text = _("No point penalties recorded at table {table} today.").format(table=placed.table)
            else:
                text = _("No point penalties recorded at table {table} in hanchan {n} today.").format(
                    table=placed.table, n=placed.hanchan)
            return [ft.Text(text, size=BODY_SIZE, italic=True, key="records-none")]
        out: list[ft.Control] = []
        for seat in SEATS:
            for r in placed.by_seat.get(seat, ()):
                text = _("{seat}: {record}").format(seat=_(SEAT_NAMES[seat]), record=record_text(r, lib, _))
                out.append(ft.Row([ft.Icon(ft.Icons.RECEIPT_LONG_OUTLINED, size=20, color=ft.Colors.PRIMARY),
                                   ft.Text(text, size=BODY_SIZE, expand=True)],
                                  key=f"record-line-{r.id}", vertical_alignment=ft.CrossAxisAlignment.START))
        for r in placed.unplaced:
            out.append(self.warning(_("Not at any of the four seats: {record}. It is not in the penalty column "
                                      "until you say where {player} sits.").format(
                record=record_text(r, lib, _), player=r.player), key=f"record-unplaced-{r.id}",
                below=self.seat_buttons(r)))
        if any(placed.by_seat.values()):
            out.append(ft.Text(_("Filled from the records; the penalty boxes stay editable."), size=SMALL_SIZE,
                               italic=True, color=ft.Colors.ON_SURFACE_VARIANT, key="records-filled"))
        return out

    def seat_buttons(self, r: "Record") -> ft.Control:
        """"Seat of Ann Smith": East, South, West, North (named "Ann Smith sits East", …) -- a tap
        names the player at that seat and fills again."""
        _ = self.ctx._

        def at(seat: str) -> Callable[[object], None]:
            def pick(e=None) -> None:
                self.players[seat].value = r.player
                self.fill(e)
            return pick

        label = _("Seat of {player}").format(player=r.player)
        return ft.Column([
            ft.Text(label, size=SMALL_SIZE, weight=ft.FontWeight.W_600, color=ft.Colors.ON_TERTIARY_CONTAINER),
            # each button named with the player ("Bob Lee sits North"): one line's "North" is not another's
            ft.Row([ft.Semantics(label=_("{player} sits {seat}").format(player=r.player, seat=_(SEAT_NAMES[s])),
                                 button=True, exclude_semantics=True, on_tap=at(s),
                                 content=ft.OutlinedButton(_(SEAT_NAMES[s]), style=tall_style(), on_click=at(s),
                                                           key=f"seat-{s}-{r.id}"))
                    for s in SEATS], wrap=True, spacing=8, run_spacing=8),
        ], spacing=4, tight=True)

    @staticmethod
    def warning(text: str, *, key: str = "records-warning", below: ft.Control | None = None) -> ft.Control:
        body: list[ft.Control] = [ft.Row(
            [ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_TERTIARY_CONTAINER),
             ft.Text(text, size=BODY_SIZE, color=ft.Colors.ON_TERTIARY_CONTAINER, expand=True)],
            vertical_alignment=ft.CrossAxisAlignment.START)]
        if below is not None:
            body.append(below)
        return ft.Container(content=ft.Column(body, spacing=8, tight=True),
                            bgcolor=ft.Colors.TERTIARY_CONTAINER, padding=12, border_radius=12, key=key)

