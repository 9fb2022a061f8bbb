"""``/record?ruleset=…&row=…``: "Record this ruling" — the record form filled from a penalty row
(a foul's page, a search result's row, the revealed-tiles and chombo results).

Query: ``ruleset`` (id), ``row`` (the row's :attr:`~handbook.core.model.PenaltyRow.index` in that
ruleset's table), optional ``q`` (the start of the reason: the search query or the calculator's
input), ``strike`` (``yes``/``no``: preselects the judge's choice where an AZRM row leaves the
Strike open), ``points`` (P, for a row that gives no number). Built by
:func:`handbook.ui.routes.record_route`. A query that names no row (unknown ruleset or row, a
number out of range) shows what is wrong and offers no Save: nothing can be written from it.

The judge adds the player (matching ledger players listed under the box as they type, each a
48 px tap target), table and hanchan (optional; kept in the session for the day: the next record
starts with them, ``ctx.desk``) and the reason. Save is one tap; a record of the same player and
row made less than a minute before (:meth:`handbook.ledger.Ledger.same_incident`) asks first
("Record anyway" / "Cancel"). "Recorded: <player> — <foul>" is shown once the write returned
(the file is flushed and replaced before :meth:`~handbook.ledger.Ledger.add` returns), with Undo
(the record is revoked, never deleted).

``chombo=usual`` instead of ``row`` (:func:`handbook.ui.routes.chombo_record_route`, the chombo
calculator's usual chombo, which is no one row of the table): the ruleset's chombo rows
(:func:`handbook.chombo_fouls`) are listed, each a 48 px tap that opens the form of that row.

Accessible names: "Player", "Table (optional)", "Hanchan (optional)", "What happened (reason)",
"Strike", "No Strike", "Points (the judge decides)", "Save record", "Record anyway", "Cancel",
"Undo", "Open the player's page".
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping

import flet as ft

import handbook
from handbook import ledger as ledger_mod
from handbook.core.model import Library, PenaltyRow
from handbook.ledger import Ledger, Player, Record
from handbook.storage import off_loop
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.errors import readable
from handbook.ui.gate import judged_ledger
from handbook.ui.ledger_parts import judge_answers, needs_judge_points, player_label, strike_note, write_error
from handbook.ui.routes import build_route, record_route
from handbook.ui.text import ref_label
from handbook.ui.widgets import (
    BODY_SIZE as BODY, MEDIUM, SMALL_SIZE as SMALL, captioned, error_box, field_above, show_snack, tall_style)

#: players suggested under the box at most
SUGGESTED = 5
#: the table and hanchan boxes' width (px): both side by side at 360 px
BOX_W = 160
#: the longest row number read from a query (digits); more is not a row
_ROW_DIGITS = 4


# ------------------------------------------------------------------ data helpers (no flet)

def row_from_query(library: Library, query: Mapping[str, str]) -> PenaltyRow:
    """The penalty row a ``/record`` query names. ``ValueError`` naming ``ruleset`` (missing or
    unknown; the allowed ids listed) or ``row`` (missing, not a whole number, not a row of that
    ruleset's table)."""
    rid = query.get("ruleset", "")
    rs = library.rulesets.get(rid) if isinstance(rid, str) else None
    if rs is None:
        shown = rid[:40] + ("…" if len(rid) > 40 else "")
        raise ValueError(f"ruleset: unknown ruleset {shown!r}; allowed: {', '.join(library.rulesets)}")
    text = (query.get("row") or "").strip()
    if not text.isdigit() or len(text) > _ROW_DIGITS or not text.isascii():
        raise ValueError(f"row: {text[:20]!r} is not a row number of the {rs.id} penalty table "
                         f"(0 to {len(rs.penalties) - 1})")
    index = int(text)
    for r in rs.penalties:
        if r.index == index:
            return r
    raise ValueError(f"row: {index} is not a row number of the {rs.id} penalty table "
                     f"(0 to {len(rs.penalties) - 1})")


def chombo_rows(library: Library, query: Mapping[str, str]) -> list[PenaltyRow]:
    """The chombo rows a ``/record?ruleset=…&chombo=usual`` query offers (the first row of each
    foul whose row gives a chombo, :func:`handbook.chombo_fouls`). ``ValueError`` naming
    ``ruleset`` (missing, unknown, or without chombo rows)."""
    rid = query.get("ruleset", "")
    rs = library.rulesets.get(rid) if isinstance(rid, str) else None
    if rs is None:
        shown = rid[:40] + ("…" if len(rid) > 40 else "")
        raise ValueError(f"ruleset: unknown ruleset {shown!r}; allowed: {', '.join(library.rulesets)}")
    rows = handbook.chombo_fouls(rs.id, library=library)
    if not rows:
        raise ValueError(f"ruleset: the {rs.id} penalty table has no chombo row")
    return rows


def suggestions(players: list[Player], typed: str, limit: int = SUGGESTED) -> list[Player]:
    """Ledger players whose name (or club) starts with, then contains, ``typed`` (without case);
    none for an empty box or one that already names exactly one player."""
    t = typed.strip().casefold()
    if not t:
        return []
    starts = [p for p in players if p.name.casefold().startswith(t)]
    inside = [p for p in players if p not in starts
              and (t in p.name.casefold() or (p.club and t in p.club.casefold()))]
    found = (starts + inside)[:limit]
    if len(found) == 1 and found[0].name.casefold() == t:
        return []
    return found


def desk_for(desk: dict[str, str], today: datetime.date) -> tuple[str, str]:
    """The session's table and hanchan if they were given today, else blank."""
    if desk.get("day") != today.isoformat():
        return "", ""
    return desk.get("table", ""), desk.get("hanchan", "")


# ------------------------------------------------------------------ /record

def build_record(ctx: AppContext) -> ft.View:
    """The record form filled from the row the query names (see the module's doc)."""
    _ = ctx._
    title = _("Record this ruling")
    ledger = judged_ledger(ctx)
    if ledger is None:
        return ctx.view(route=ctx.route, title=title, controls=[
            ft.Row([ft.ProgressRing(), ft.Text(_("Opening the ledger…"), size=BODY)], spacing=16)])
    try:
        if ctx.query.get("chombo") == "usual" and not ctx.query.get("row"):
            return ctx.view(route=ctx.route, title=title, controls=_chombo_picker(
                ctx, chombo_rows(ctx.library, ctx.query)))
        row = row_from_query(ctx.library, ctx.query)
    except ValueError as exc:
        why = (_("the link names no ruleset of the handbook.") if str(exc).startswith("ruleset:")
               else _("the link names no row of the {ruleset} penalty table.").format(
                   ruleset=ctx.short(ctx.query.get("ruleset"))))
        return ctx.view(route=ctx.route, title=title, controls=[
            ft.Container(error_box(_("This ruling cannot be recorded: {reason}").format(reason=why)),
                         key="record-refused"),
            ft.Text(_("Nothing was saved. Open the ruling again from the search, a foul's page or "
                      "a calculator."), size=BODY),
            ft.Row([ft.FilledButton(_("Open the ledger"), icon=ft.Icons.MENU_BOOK, style=tall_style(),
                                    on_click=lambda e: ctx.navigate("/ledger"))], wrap=True),
        ])
    form = _RecordRuling(ctx, ledger, row)
    return ctx.view(route=ctx.route, title=title, controls=form.controls())


def _chombo_picker(ctx: AppContext, rows: list[PenaltyRow]) -> list[ft.Control]:
    """The usual chombo is no one row of the table: which chombo row it was, each a tap that
    opens the form of that row (the reason's start kept)."""
    _ = ctx._
    rid = rows[0].ruleset
    q = ctx.query.get("q") or ""

    def tile(r: PenaltyRow) -> ft.Control:
        where = " ".join(x for x in (ctx.short(rid), ref_label(r.ref) if r.ref else "") if x)
        return ft.ListTile(
            title=ft.Text(r.foul, size=BODY, weight=ft.FontWeight.W_500),
            subtitle=ft.Text(f"{r.penalty} · {where}" if r.penalty else where, size=SMALL),
            leading=ft.Icon(ft.Icons.EDIT_NOTE), min_height=TOUCH, key=f"chombo-row-{r.index}",
            content_padding=ft.Padding.symmetric(horizontal=8),
            on_click=lambda e, r=r: ctx.navigate(record_route(rid, r.index, q=q)))

    return [
        ft.Container(ft.Column([
            ft.Text(ctx.short(rid), size=SMALL, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY),
            ft.Text(_("Chombo"), size=MEDIUM, weight=ft.FontWeight.W_700),
            ft.Text(_("A record names the foul of the penalty table. Which foul was it?"), size=BODY),
        ], spacing=4, tight=True), padding=12, border_radius=12, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
            key="record-summary"),
        ft.Column([tile(r) for r in rows], spacing=0, key="chombo-rows"),
    ]


class _RecordRuling:
    """The form's state: the row, the judge's answers, a save in progress."""

    def __init__(self, ctx: AppContext, ledger: Ledger, row: PenaltyRow) -> None:
        _ = ctx._
        self.ctx, self.ledger, self.row = ctx, ledger, row
        self.today = datetime.date.today()
        self.saving = False
        self.club: str | None = None  # set when a suggested player (with a club id) was tapped
        self.players: list[Player] | None = None
        q = ctx.query
        table, hanchan = desk_for(ctx.desk, self.today)
        self.name_box = ft.TextField(label=_("Player"), autofocus=True, text_size=BODY, key="record-player",
                                     on_change=self.typed, prefix_icon=ft.Icons.PERSON)
        self.suggested = ft.Column(spacing=0, key="player-suggestions")
        # captions above the boxes (field_above): a floating label wider than a narrow box broke
        # mid-word at 200 % text ("Table (o / ptional)")
        self.table_box = ft.TextField(label=_("Table (optional)"), value=table, text_size=BODY, width=BOX_W,
                                      key="record-table")
        self.hanchan_box = ft.TextField(label=_("Hanchan (optional)"), value=hanchan, text_size=BODY,
                                        width=BOX_W, keyboard_type=ft.KeyboardType.NUMBER, key="record-hanchan",
                                        input_filter=ft.InputFilter(regex_string=r"^[0-9]{0,2}$", allow=True,
                                                                    replacement_string=""))
        self.reason_box = ft.TextField(label=_("What happened (reason)"), multiline=True, min_lines=1,
                                       max_lines=4, text_size=BODY, key="record-reason",
                                       value=(q.get("q") or "")[:ledger_mod.MAX_NOTE],
                                       max_length=ledger_mod.MAX_NOTE)
        self.strike_choice = ft.SegmentedButton(
            segments=[ft.Segment(value="yes", label=ft.Text(_("Strike"))),
                      ft.Segment(value="no", label=ft.Text(_("No Strike")))],
            selected=[q["strike"]] if q.get("strike") in ("yes", "no") else [],
            allow_empty_selection=True, show_selected_icon=False, expand=True, key="record-strike")
        self.asks_strike = row.ruleset == ledger_mod.STRIKE_RULESET and row.strike is None
        points = (q.get("points") or "").strip()
        self.points_box = ft.TextField(
            label=_("Points (the judge decides)"), width=BOX_W, suffix="P", key="record-points",
            value=points if points.isdigit() and len(points) <= 4 else "",
            keyboard_type=ft.KeyboardType.NUMBER, visible=needs_judge_points(row))
        self.error = ft.Column(key="record-error")
        self.done = ft.Column(key="record-done")

    # ---- the screen
    def controls(self) -> list[ft.Control]:
        _ = self.ctx._
        return [
            self.summary(),
            *([captioned(_("Strike (the judge decides)"), ft.Row([self.strike_choice]))] if self.asks_strike else []),
            self.points_part(),
            self.name_box,
            self.suggested,
            ft.Row([field_above(_("Table (optional)"), self.table_box),
                    field_above(_("Hanchan (optional)"), self.hanchan_box)],
                   wrap=True, spacing=12, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.END),
            self.reason_box,
            self.error,
            ft.Row([ft.FilledButton(_("Save record"), icon=ft.Icons.SAVE, style=tall_style(),
                                    on_click=self.save_tapped, key="save-record")], wrap=True),
            self.done,
        ]

    def points_part(self) -> ft.Control:
        """The judge's points (a row that gives no number), captioned above the box."""
        part = field_above(self.ctx._("Points (the judge decides)"), self.points_box)
        part.visible = self.points_box.visible
        return part

    def summary(self) -> ft.Control:
        """The ruling being recorded: ruleset and §, foul, the condition that chose the row,
        penalty, points and Strike."""
        ctx, _, row = self.ctx, self.ctx._, self.row
        where = " ".join(x for x in (ctx.short(row.ruleset), ref_label(row.ref) if row.ref else "") if x)
        lines: list[ft.Control] = [
            ft.Text(where, size=SMALL, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY),
            ft.Text(row.foul, size=BODY, weight=ft.FontWeight.W_600, key="record-foul"),
        ]
        if row.condition:
            lines.append(ft.Text(row.condition, size=SMALL, italic=True, color=ft.Colors.ON_SURFACE_VARIANT))
        lines.append(ft.Text(row.penalty or _("(no penalty text)"), size=MEDIUM, weight=ft.FontWeight.W_700,
                             key="record-penalty"))
        facts = []
        if row.points is not None and f"{row.points}P" not in (row.penalty or ""):
            facts.append(f"{row.points}P")
        facts.append(strike_note(row, _))
        lines.append(ft.Text(" · ".join(facts), size=SMALL, key="record-strike-note"))
        lines.append(ft.Text(_("Date: {date}").format(date=_.format_date(self.today)), size=SMALL,
                             color=ft.Colors.ON_SURFACE_VARIANT))
        return ft.Container(ft.Column(lines, spacing=4, tight=True), padding=12, border_radius=12,
                            bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, key="record-summary")

    # ---- the player box and its suggestions
    def typed(self, e=None) -> None:
        self.club = None
        if self.players is None:
            self.players = self.ledger.players()
        self.fill_suggestions()
        self.ctx.page.update()

    def fill_suggestions(self) -> None:
        found = suggestions(self.players or [], self.name_box.value or "")
        self.suggested.controls = [self.suggestion(p) for p in found]

    def suggestion(self, p: Player) -> ft.Control:
        def pick(e=None) -> None:
            self.name_box.value, self.club = p.name, p.club
            self.suggested.controls = []
            self.ctx.page.update()

        return ft.ListTile(title=ft.Text(player_label(p), size=BODY), leading=ft.Icon(ft.Icons.PERSON_OUTLINE),
                           min_height=TOUCH, on_click=pick, key=f"suggest-{p.key}",
                           content_padding=ft.Padding.symmetric(horizontal=8))

    # ---- saving
    def answers(self) -> dict[str, object]:
        """``Ledger.add``'s keyword arguments from the form; ``ValueError`` for a missing Strike
        answer or points that are not a whole number."""
        _ = self.ctx._
        strike, points = judge_answers(_, self.asks_strike, self.strike_choice, self.points_box,
                                       max_digits=4, shown=10)
        hanchan_text = (self.hanchan_box.value or "").strip()
        if hanchan_text and not hanchan_text.isdigit():
            raise ValueError(f"hanchan: {hanchan_text[:10]!r} is not a hanchan number (1 to {ledger_mod.MAX_HANCHAN})")
        return {"club": self.club, "strike": strike, "points": points,
                "table": (self.table_box.value or "").strip() or None,
                "hanchan": int(hanchan_text) if hanchan_text else None,
                "reason": self.reason_box.value or ""}

    async def save_tapped(self, e=None) -> None:
        if self.saving:
            return  # a second tap while the first record is being written
        self.saving = True
        try:
            await self.save(check=True)
        finally:
            self.saving = False

    async def save(self, *, check: bool) -> None:
        """Check, warn about a possible same incident (``check``), write, confirm."""
        ctx, _ = self.ctx, self.ctx._
        if judged_ledger(ctx) is None:  # locked meanwhile (another tab's Lock, the session ended)
            return
        self.error.controls = []
        name = self.name_box.value or ""
        try:
            kw = self.answers()
            if check:
                same = await off_loop(self.ledger.same_incident, name, self.row.ruleset, self.row.foul)
                if same:
                    self.warn(same[-1])
                    ctx.page.update()
                    return
            rec = await off_loop(self.ledger.add, name, self.today, self.row.ruleset, self.row.foul, **kw)
        except ValueError as exc:
            self.error.controls = [error_box(readable(exc, _))]
        except OSError as exc:
            self.error.controls = [error_box(write_error(ctx, exc))]
        else:
            self.saved(rec)
        ctx.page.update()

    def warn(self, earlier: Record) -> None:
        """Nothing saved yet: the judge chooses "Record anyway" or "Cancel"."""
        ctx, _ = self.ctx, self.ctx._

        def cancel(e=None) -> None:
            ctx.page.pop_dialog()

        async def anyway(e=None) -> None:
            ctx.page.pop_dialog()
            if self.saving:
                return
            self.saving = True
            try:
                await self.save(check=False)
            finally:
                self.saving = False

        when = earlier.created.astimezone().strftime("%H:%M:%S")
        ctx.page.show_dialog(ft.AlertDialog(
            key="same-incident",
            title=ft.Text(_("The same incident?")),
            content=ft.Text(_("{player} already has a record of “{foul}”, made at {time} (less than a "
                              "minute ago, perhaps by another judge). It may be the same incident. "
                              "Nothing is saved until you choose.").format(
                player=earlier.player, foul=earlier.foul, time=when), size=BODY),
            actions=[ft.TextButton(_("Cancel"), on_click=cancel, height=TOUCH, key="same-cancel"),
                     ft.FilledButton(_("Record anyway"), on_click=anyway, height=TOUCH, key="same-anyway")],
        ))

    def saved(self, rec: Record) -> None:
        """The write returned: keep table and hanchan for the day, say so, offer Undo."""
        ctx, _ = self.ctx, self.ctx._
        ctx.desk.update(day=self.today.isoformat(), table=rec.table or "",
                        hanchan=str(rec.hanchan) if rec.hanchan else "")
        route = build_route("player", player=rec.player_key)
        message = _("Recorded: {player} — {foul}").format(player=rec.player, foul=rec.foul)
        self.done.controls = [
            ft.Text(message, size=BODY, weight=ft.FontWeight.W_600, key="record-saved"),
            ft.Row([ft.OutlinedButton(_("Open the player's page"), icon=ft.Icons.PERSON, style=tall_style(),
                                      on_click=lambda e: ctx.navigate(route), key="open-player")], wrap=True),
        ]
        self.name_box.value, self.club = "", None
        self.suggested.controls = []
        self.players = None

        def undo(e=None) -> None:
            if judged_ledger(ctx) is not None:
                ctx.page.run_task(self.undo, rec, message)

        show_snack(ctx, message, action=_("Undo"), on_action=undo)

    async def undo(self, rec: Record, message: str) -> None:
        """Undo: the record just made is revoked (it stays in the history, marked; never deleted)."""
        ctx, _ = self.ctx, self.ctx._
        try:
            await off_loop(self.ledger.revoke, rec.id, _("Undone right after it was recorded"))
        except ValueError:  # revoked meanwhile in another tab
            pass
        except OSError as exc:
            self.error.controls = [error_box(write_error(ctx, exc))]
            ctx.page.update()
            return
        self.done.controls = [ft.Text(_("Undone: {player} — {foul} (revoked)").format(
            player=rec.player, foul=rec.foul), size=BODY, key="record-undone")]
        ctx.page.update()

