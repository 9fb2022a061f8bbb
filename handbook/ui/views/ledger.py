"""The player ledger: ``/ledger`` (players, add a record, export/import) and ``/ledger/<player>``
(a player's records with revoke + Undo, and their AZRM strike-window countdown).

``<player>`` is :attr:`handbook.ledger.Player.key` (the name, plus ``~club`` when there is a club
id), URL-encoded. ``/ledger?player=<key>`` opens the form with that player filled in.

Accessible names: "Player", "Club id (optional)", "Date", "Pick the date", "Ruleset", "Foul",
"Strike (the judge decides)", "Points (the judge decides)", "Table/round note", "Add record",
"Export JSON", "Export CSV", "Import a file", "Remove record", "Undo".

Storage: :func:`handbook.ui.gate.judged_ledger` gives the app's ledger (``ctx.stores``) — the JSON file in the data
folder (shared by every browser tab in server mode), or SharedPreferences in the browser build
(loaded asynchronously; the screen shows a spinner until then). A damaged data file that was
moved aside is reported in a banner.
"""

from __future__ import annotations

import datetime
from collections.abc import Awaitable, Callable

import flet as ft

from handbook import ledger as ledger_mod
from handbook.core.model import PenaltyRow
from handbook.ledger import Ledger, LedgerImportError, Player, Record
from handbook.storage import off_loop
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.errors import readable
from handbook.ui.gate import judged_ledger
from handbook.ui.routes import build_route
from handbook.ui.widgets import (
    BODY_SIZE as BODY,
    MEDIUM,
    SMALL_SIZE as SMALL,
    badge,
    captioned,
    default_ruleset,
    error_box,
    icon_button,
    named,
    strike_status_controls,
    empty_note,
    nav_tile,
    show_snack,    tall_style,
)


from handbook.ui.ledger_parts import (  # noqa: F401 - player_label, damage_text, ... are this screen's names too
    player_label, row_label, strike_note, picked_bytes, needs_judge_points, judge_answers,
    ledger_damage_banner, damage_text, write_error, unreadable_note, refused_dialog,
    section_heading, in_browser, export_controls,
    EXPORT_FOLDER,
)


def _loading(ctx: AppContext, title: str) -> ft.View:
    return ctx.view(route=ctx.route, title=title, controls=[
        ft.Row([ft.ProgressRing(), ft.Text(ctx._("Opening the ledger…"), size=BODY)], spacing=16)])


# ------------------------------------------------------------------ /ledger

def build_ledger(ctx: AppContext) -> ft.View:
    """Players, the form to add a record, export and import."""
    _ = ctx._
    ledger = judged_ledger(ctx)
    if ledger is None:
        return _loading(ctx, _("Ledger"))
    players = _PlayerList(ctx, ledger)
    form = _RecordForm(ctx, ledger, on_added=players.refill)
    importer = _Importer(ctx, ledger, on_imported=players.refill)
    export_out = ft.Column()
    controls: list[ft.Control] = [
        *ledger_damage_banner(ctx, ledger),
        *unreadable_note(ctx, ledger),
        ft.TextButton(_("The day's incidents"), icon=ft.Icons.LIST_ALT, height=TOUCH, key="open-incidents",
                      on_click=lambda e: ctx.navigate("/incidents")),
        section_heading(_("Players")),
        *players.controls(),
        section_heading(_("Add a record")),
        *form.controls(),
        section_heading(_("Export and import")),
        export_controls(ctx, ledger, None, export_out),
        export_out,
        *importer.controls(),
    ]
    return ctx.view(route=ctx.route, title=_("Ledger"), controls=controls)


#: players listed at first, and added by each "Show more players" (a ledger of a whole season
#: may hold thousands: each is a row the browser lays out)
PLAYERS_SHOWN = 50
#: records of one player shown at first, newest first, and added by each "Show older records"
RECORDS_SHOWN = 100


class _PlayerList:
    """The ledger's players, each a link to their page, :data:`PLAYERS_SHOWN` at a time, with a
    box that finds a player by name or club; :meth:`refill` again after a change. When the
    stored records have not been read yet (a large ledger, just imported or just opened), they
    are read in a worker thread while the screen shows "Opening the ledger…"."""

    def __init__(self, ctx: AppContext, ledger: Ledger):
        self.ctx, self.ledger = ctx, ledger
        _ = ctx._
        self.players: list[Player] = []
        self.shown = PLAYERS_SHOWN
        self.column = ft.Column(spacing=0, key="players")
        self.find = ft.TextField(label=_("Find a player"), prefix_icon=ft.Icons.PERSON_SEARCH,
                                 text_size=BODY, key="find-player", on_change=self.found, visible=False)
        if ledger.ready():
            self.fill(ledger.players())
        else:
            self.column.controls = [ft.Row([ft.ProgressRing(), ft.Text(_("Opening the ledger…"), size=BODY)],
                                           spacing=16)]
            ctx.page.run_task(self.refill_shown)

    def controls(self) -> list[ft.Control]:
        return [self.find, self.column]

    async def refill(self) -> None:
        """The players read again in a worker thread (other sessions keep working), then shown."""
        self.fill(await off_loop(self.ledger.players))

    async def refill_shown(self) -> None:
        await self.refill()
        self.ctx.page.update()

    def found(self, e) -> None:
        self.shown = PLAYERS_SHOWN
        self.fill(self.players)
        self.ctx.page.update()

    def more(self, e) -> None:
        self.shown += PLAYERS_SHOWN
        self.fill(self.players)
        self.ctx.page.update()

    def fill(self, players: list[Player]) -> None:
        _ = self.ctx._
        self.players = players
        self.find.visible = len(players) > PLAYERS_SHOWN or bool(self.find.value)
        if not players:
            self.column.controls = [empty_note(_("No records yet. Add the first one below."))]
            return
        wanted = " ".join((self.find.value or "").casefold().split())[:ledger_mod.MAX_NAME]
        matching = [p for p in players if wanted in player_label(p).casefold()] if wanted else players
        today = datetime.date.today()
        tiles: list[ft.Control] = [
            nav_tile(self.ctx, player_label(p), build_route("player", player=p.key),
                     subtitle=" · ".join([
                         _.ngettext("{n} record", "{n} records", p.records).format(n=p.records),
                         _.ngettext("{n} Strike", "{n} Strikes", p.strikes).format(n=p.strikes),
                         _("last {date}").format(date=_.format_date(p.last))]),
                     leading=ft.Icon(ft.Icons.PERSON_OUTLINE), key=f"player-{p.key}",
                     trailing=standing_badge(self.ctx, self.ledger.status(p.key, today)) if p.strikes else None)
            for p in matching[:self.shown]]
        if not matching:
            tiles.append(empty_note(_("No player matches “{text}”.").format(text=self.find.value.strip())))
        rest = len(matching) - self.shown
        if rest > 0:
            tiles.append(ft.TextButton(
                _.ngettext("Show more players ({n} more)", "Show more players ({n} more)", rest).format(n=rest),
                icon=ft.Icons.EXPAND_MORE, height=TOUCH, on_click=self.more, key="more-players"))
        self.column.controls = tiles


def standing_badge(ctx: AppContext, status) -> ft.Control | None:
    """"Banned" or "Suspended" (AZRM §1.4, on the day ``status`` is for) for the player list, so the
    judge sees it without opening the player; ``None`` for a player in good standing."""
    _ = ctx._
    if status.banned:
        text = _("Banned")
    elif status.suspended:
        text = _("Suspended")
    else:
        return None
    return badge(text, color=ft.Colors.ON_ERROR, bgcolor=ft.Colors.ERROR)


class _RecordForm:
    """The form that adds a record: player, club, date, ruleset, foul (with what its row says),
    the judge's Strike and points where the row leaves them open, a note. ``on_added`` runs
    after a record is stored."""

    def __init__(self, ctx: AppContext, ledger: Ledger, *, on_added: Callable[[], Awaitable[None]]):
        self.ctx, self.ledger, self.on_added = ctx, ledger, on_added
        self.saving = False
        _ = ctx._
        preset = ledger.player(ctx.query["player"]) if ctx.query.get("player") else None
        self.ruleset = default_ruleset(ctx.library, ctx.ruleset, ctx.query.get("ruleset"))
        self.row: PenaltyRow | None = None
        self.name_box = ft.TextField(label=_("Player"), value=preset.name if preset else "", text_size=BODY,
                                     key="player-name", autofill_hints=None)
        self.club_box = ft.TextField(label=_("Club id (optional)"), value=(preset.club or "") if preset else "",
                                     text_size=BODY, key="club")
        self.date_box = ft.TextField(label=_("Date"), value=datetime.date.today().isoformat(), expand=True,
                                     hint_text="YYYY-MM-DD", text_size=BODY, key="date")
        self.ruleset_pick = ft.Dropdown(
            label=_("Ruleset"), value=self.ruleset, expand=True, text_size=BODY, key="ruleset",
            options=[ft.DropdownOption(key=r, text=rs.short) for r, rs in ctx.library.rulesets.items()],
            on_select=self.pick_ruleset)
        self.foul_pick = ft.Dropdown(
            label=_("Foul"), expand=True, enable_filter=True, editable=True, menu_height=420, text_size=BODY,
            key="foul", on_select=self.pick_foul,
            # the menu's arrow: named, and 48 px square (a 32 px icon + its padding)
            trailing_icon=ft.Container(ft.Icon(ft.Icons.ARROW_DROP_DOWN, semantics_label=_("Show the fouls")),
                                       width=32, height=32))
        self.row_info = ft.Text("", size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT, key="row-info")
        self.strike_choice = ft.SegmentedButton(
            segments=[ft.Segment(value="yes", label=ft.Text(_("Strike"))),
                      ft.Segment(value="no", label=ft.Text(_("No Strike")))],
            selected=[], allow_empty_selection=True, show_selected_icon=False, expand=True,
            key="judge-strike")
        self.strike_switch = ft.Container(content=captioned(_("Strike (the judge decides)"),
                                                            ft.Row([self.strike_choice])), visible=False)
        self.points_box = ft.TextField(label=_("Points (the judge decides)"), visible=False, width=220,
                                       keyboard_type=ft.KeyboardType.NUMBER, suffix="P", key="judge-points")
        self.note_box = ft.TextField(label=_("Table/round note"), multiline=True, max_lines=3, text_size=BODY,
                                     key="note")
        self.error = ft.Column(key="form-error")
        self.fill_fouls()

    def controls(self) -> list[ft.Control]:
        _ = self.ctx._
        return [
            self.name_box,
            self.club_box,
            ft.Row([self.date_box, icon_button(ft.Icons.CALENDAR_MONTH, _("Pick the date"), self.open_date)],
                   vertical_alignment=ft.CrossAxisAlignment.START),
            ft.Row([named(self.ruleset_pick)]),
            ft.Row([named(self.foul_pick)]),
            self.row_info,
            self.strike_switch,
            self.points_box,
            self.note_box,
            self.error,
            ft.Row([ft.FilledButton(_("Add record"), icon=ft.Icons.ADD, style=tall_style(), on_click=self.add,
                                    key="add-record")], wrap=True),
        ]

    # ---- the foul and what its row leaves to the judge
    def fill_fouls(self) -> None:
        rows = self.ledger.rows(self.ruleset)
        # the box shows the foul alone (foul and penalty were cut at its edge, with no ellipsis, on a
        # phone); the menu shows both, wrapping, and the line under the box the whole row
        self.foul_pick.options = [ft.DropdownOption(key=str(r.index), text=r.foul,
                                                    content=ft.Text(row_label(r), size=BODY))
                                  for r in rows]
        self.foul_pick.value = None
        self.row = None
        self.show_row()

    def show_row(self) -> None:
        _, row = self.ctx._, self.row
        if row is None:
            self.row_info.value = _("Choose the foul from the ruleset's penalty table.")
            self.strike_switch.visible = self.points_box.visible = False
            return
        parts = [f"{row.foul}: {row.penalty or _('(no penalty text)')}"]
        if row.points is not None and f"{row.points}P" not in row.penalty:
            parts.append(f"{row.points}P")
        parts.append(strike_note(row, _))
        self.row_info.value = " · ".join(parts)
        self.strike_switch.visible = row.ruleset == ledger_mod.STRIKE_RULESET and row.strike is None
        self.strike_choice.selected = []
        self.points_box.visible = needs_judge_points(row)

    def pick_ruleset(self, e) -> None:
        self.ruleset = e.control.value
        self.fill_fouls()
        self.ctx.page.update()

    def pick_foul(self, e) -> None:
        rows = {str(r.index): r for r in self.ledger.rows(self.ruleset)}
        self.row = rows.get(e.control.value)
        self.show_row()
        self.ctx.page.update()

    # ---- the date
    def date_picked(self, e) -> None:
        v = e.control.value
        if v is not None:
            self.date_box.value = (v.date() if isinstance(v, datetime.datetime) else v).isoformat()
            self.ctx.page.update()

    def open_date(self, e) -> None:
        self.ctx.page.show_dialog(ft.DatePicker(
            first_date=datetime.datetime(2000, 1, 1), last_date=datetime.datetime(2100, 12, 31),
            help_text=self.ctx._("Date of the foul"), on_change=self.date_picked))

    # ---- adding
    def judged(self) -> tuple[bool | None, int | None]:
        """The judge's Strike and points where the row leaves them open; ``ValueError`` if missing."""
        return judge_answers(self.ctx._, self.strike_switch.visible, self.strike_choice, self.points_box)

    async def add(self, e) -> None:
        if self.saving:
            return  # a second tap while the first record is being written
        self.saving = True
        try:
            await self.save()
        finally:
            self.saving = False

    async def save(self) -> None:
        _ = self.ctx._
        self.error.controls = []
        try:
            if self.row is None:
                raise ValueError(_("Choose the foul from the list."))
            strike, points = self.judged()
            # written in a worker thread: other sessions keep working meanwhile
            rec = await off_loop(self.ledger.add, self.name_box.value or "", (self.date_box.value or "").strip(),
                                 self.row.ruleset, self.row.foul, club=self.club_box.value or None,
                                 note=self.note_box.value or "", strike=strike, points=points)
        except ValueError as exc:
            self.error.controls = [error_box(readable(exc, _))]
        except OSError as exc:
            self.error.controls = [error_box(write_error(self.ctx, exc))]
        else:
            self.note_box.value = ""
            await self.on_added()
            route = build_route("player", player=rec.player_key)
            # said once the write returned (flushed and fsynced: handbook/storage.py), naming whom
            show_snack(self.ctx, _("Recorded: {player} — {foul}").format(player=rec.player, foul=rec.foul),
                       action=_("Open"), on_action=lambda e: self.ctx.navigate(route))
        self.ctx.page.update()


class _Importer:
    """"Import a file": the browser sends the file's bytes (never a path), the ledger checks every
    entry first; a refused file changes nothing and its problems are listed. ``on_imported`` runs
    after records were added."""

    def __init__(self, ctx: AppContext, ledger: Ledger, *, on_imported: Callable[[], Awaitable[None]]):
        self.ctx, self.ledger, self.on_imported = ctx, ledger, on_imported
        self.out = ft.Column(key="import-result")

    def controls(self) -> list[ft.Control]:
        return [ft.Row([ft.OutlinedButton(self.ctx._("Import a file"), icon=ft.Icons.UPLOAD_FILE, style=tall_style(),
                                          on_click=self.pick, key="import")], wrap=True),
                self.out]

    def show(self, *controls: ft.Control) -> None:
        self.out.controls = list(controls)
        self.ctx.page.update()

    async def pick(self, e) -> None:
        _ = self.ctx._
        self.out.controls = []
        try:
            files = await ft.FilePicker().pick_files(
                dialog_title=_("Import a ledger file"), file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json", "csv"], with_data=True)
        except Exception as exc:  # noqa: BLE001 - the client could not open a picker
            self.show(error_box(_("Could not open a file: {reason}").format(reason=str(exc))))
            return
        if not files:
            return
        data, problem = picked_bytes(files[0], _)
        if problem:
            self.show(error_box(problem))
            return
        await self.read(data, files[0].name)

    async def read(self, data: bytes, name: str) -> None:
        _ = self.ctx._
        try:
            # a worker thread, or for a large file a process of its own: other sessions keep answering
            result = await ledger_mod.import_isolated(self.ledger, data, name=name)
        except LedgerImportError as exc:
            text = _("{name} was not imported: {problems}").format(name=name, problems="; ".join(exc.problems))
            refused_dialog(self.ctx, name, exc.problems)
            self.show(error_box(text))
            return
        except ValueError as exc:
            self.show(error_box(readable(exc, _)))
            return
        except OSError as exc:
            self.show(error_box(write_error(self.ctx, exc)))
            return
        msg = _.ngettext("Imported {added} record from {name}; {skipped} already in the ledger.",
                         "Imported {added} records from {name}; {skipped} already in the ledger.",
                         result.added).format(
            added=result.added, name=name, skipped=result.skipped)
        await self.on_imported()
        show_snack(self.ctx, msg)
        self.show(ft.Text(msg, size=SMALL, key="import-ok"))


# ------------------------------------------------------------------ /ledger/<player>

def build_player(ctx: AppContext, player: str) -> ft.View:
    """One player's records (revoke with a reason, Undo) and their strike-window countdown today."""
    _ = ctx._
    ledger = judged_ledger(ctx)
    if ledger is None:
        return _loading(ctx, player)
    found = ledger.player(player)
    key = found.key if found else player
    title = player_label(found) if found else key.replace("~", " · ")
    page = _PlayerPage(ctx, ledger, key)
    export_out = ft.Column()
    controls: list[ft.Control] = [
        *ledger_damage_banner(ctx, ledger),
        *unreadable_note(ctx, ledger),
        page.countdown,
        ft.Row([
            ft.TextButton(_("Open in the strike calculator"), icon=ft.Icons.TIMER_OUTLINED,
                          height=TOUCH, on_click=lambda e: ctx.navigate(
                              "/tools/strikes?player=" + _quote(key))),
            ft.TextButton(_("Add a record"), icon=ft.Icons.ADD, height=TOUCH,
                          on_click=lambda e: ctx.navigate("/ledger?player=" + _quote(key))),
        ], wrap=True),
        section_heading(_("Records")),
        page.problem,
        page.total,
        page.records,
        section_heading(_("Export")),
        export_controls(ctx, ledger, key, export_out),
        export_out,
    ]
    return ctx.view(route=ctx.route, title=title, controls=controls)


class _PlayerPage:
    """The parts of a player's page that change: the countdown, the penalty total, the records
    (newest first, each with Revoke and a reason, or Restore when revoked; Undo in the snack bar) and a write error."""

    def __init__(self, ctx: AppContext, ledger: Ledger, key: str):
        self.ctx, self.ledger, self.key = ctx, ledger, key
        self.today = datetime.date.today()
        self.countdown = ft.Column(spacing=8, key="countdown")
        self.problem = ft.Column(key="write-error")
        self.records = ft.Column(spacing=8, key="records")
        self.total = ft.Column(key="penalty-total")
        self.shown = RECORDS_SHOWN
        #: the record whose revocation reason is being typed (its card shows the form)
        self.revoking: str | None = None
        self.fill()

    def ask_reason(self, rec: Record) -> None:
        """Revoke: the card asks why (a reason is required) before anything changes."""
        self.revoking = rec.id
        self.fill()
        self.ctx.page.update()

    def cancel_revoke(self, e=None) -> None:
        self.revoking = None
        self.fill()
        self.ctx.page.update()

    async def revoke(self, rec: Record, reason: str) -> None:
        """Revoke ``rec`` with ``reason`` (in a worker thread); Undo in the snack bar unrevokes."""
        _ = self.ctx._
        try:
            ok, revoked = await self.saved(self.ledger.revoke, rec.id, reason)
        except ValueError as exc:  # empty reason, or revoked meanwhile in another tab
            self.problem.controls = [error_box(readable(exc, _))]
            self.ctx.page.update()
            return
        self.revoking = None
        self.fill()
        if ok:
            def undo(e) -> None:
                if judged_ledger(self.ctx) is not None:
                    self.ctx.page.run_task(self.unrevoke, revoked)

            show_snack(self.ctx, _("Record revoked: {player}, {foul}").format(
                player=revoked.player, foul=revoked.foul), action=_("Undo"), on_action=undo)
        self.ctx.page.update()

    async def unrevoke(self, rec: Record) -> None:
        """The revocation undone: the record counts again (nothing once the session is locked)."""
        if judged_ledger(self.ctx) is None:
            return
        try:
            await self.saved(self.ledger.unrevoke, rec.id)
        except ValueError:  # restored meanwhile in another tab
            pass
        self.fill()
        self.ctx.page.update()

    def fill(self) -> None:
        ctx, _ = self.ctx, self.ctx._
        try:
            status = self.ledger.status(self.key, self.today)
        except (ValueError, OverflowError) as exc:  # a stored date the window cannot use
            self.countdown.controls = [error_box(_("The strike window cannot be worked out for this "
                                                   "player: {reason}").format(reason=str(exc)))]
        else:
            self.countdown.controls = [_countdown(ctx, status, self.today)]
        recs = list(reversed(self.ledger.records(self.key)))  # newest first
        self.total.controls = [penalty_total(ctx, recs)] if recs else []
        self.records.controls = ([_record_card(ctx, r, self) for r in recs[:self.shown]] if recs
                                 else [empty_note(_("No records for this player."))])
        rest = len(recs) - self.shown
        if rest > 0:
            self.records.controls.append(ft.TextButton(
                _.ngettext("Show older records ({n} more)", "Show older records ({n} more)", rest).format(n=rest),
                icon=ft.Icons.EXPAND_MORE, height=TOUCH, on_click=self.more, key="more-records"))

    def more(self, e) -> None:
        self.shown += RECORDS_SHOWN
        self.fill()
        self.ctx.page.update()

    async def saved(self, write: Callable[..., object], *args: object) -> tuple[bool, object]:
        """``write(*args)`` in a worker thread (other sessions keep working); a failed write shows
        what happened (nothing changed). ``(True, result)``, or ``(False, None)`` after a failure."""
        try:
            result = await off_loop(write, *args)
        except OSError as exc:
            self.problem.controls = [error_box(write_error(self.ctx, exc))]
            return False, None
        self.problem.controls = []
        return True, result


def _countdown(ctx: AppContext, status, today: datetime.date) -> ft.Control:
    _ = ctx._
    return ft.Container(
        content=ft.Column([
            ft.Text(_("AZRM strike window on {date}").format(date=_.format_date(today)),
                    size=SMALL, weight=ft.FontWeight.W_600),
            *strike_status_controls(ctx, status, literal=False)], spacing=12, tight=True),
        padding=16, border_radius=16, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST)


def _quote(s: str) -> str:
    from urllib.parse import quote

    return quote(s, safe="")


def penalty_total(ctx: AppContext, records: list[Record]) -> ft.Control:
    """The sum of the player's penalty points (P, from the records that carry a number) and how
    many records it counts."""
    _ = ctx._
    points = sum(r.points or 0 for r in records if r.counts)  # a revoked record counts for nothing
    counted = sum(1 for r in records if r.points and r.counts)
    value = f"{_.format_decimal(points)}P"
    note = _.ngettext("from {n} record with points", "from {n} records with points", counted).format(n=counted)
    label = _("Total penalty points")
    return ft.Semantics(label=f"{label}: {value} ({note})", container=True, content=ft.Row([
        ft.Text(label, size=BODY, weight=ft.FontWeight.W_600, expand=True),
        ft.Column([ft.Text(value, size=MEDIUM + 4, weight=ft.FontWeight.W_800),
                   ft.Text(note, size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT)],
                  spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.END),
    ]))


def _record_card(ctx: AppContext, r: Record, page: "_PlayerPage") -> ft.Control:
    _ = ctx._
    rs = ctx.library.rulesets.get(r.ruleset)
    facts = [_.format_date(r.date), rs.short if rs else r.ruleset]
    penalty = r.penalty + (f" ({r.points}P)" if r.points is not None and f"{r.points}P" not in r.penalty
                           else "")
    lines: list[ft.Control] = [
        ft.Text(" · ".join(facts), size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(r.foul, size=BODY, weight=ft.FontWeight.W_600),
        ft.Text(penalty, size=BODY),
    ]
    where = [t for t in (_("Table {table}").format(table=r.table) if r.table else "",
                         _("Hanchan {n}").format(n=r.hanchan) if r.hanchan else "") if t]
    if where:
        lines.insert(1, ft.Text(" · ".join(where), size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT))
    if r.revoked is not None:
        lines.append(ft.Text(_("Revoked {when}: {reason}").format(
            when=_.format_date(r.revoked.time.date()), reason=r.revoked.reason),
            size=SMALL, weight=ft.FontWeight.W_700, color=ft.Colors.ERROR))
    if r.reason:
        lines.append(ft.Text(r.reason, size=SMALL))
    if r.strike and r.counts:
        lines.append(ft.Container(
            content=ft.Text(_("Strike"), size=12, weight=ft.FontWeight.W_700,
                            color=ft.Colors.ON_ERROR_CONTAINER),
            bgcolor=ft.Colors.ERROR_CONTAINER, padding=ft.Padding.symmetric(horizontal=8, vertical=2),
            border_radius=8))
    if r.note:
        lines.append(ft.Text(r.note, size=SMALL, italic=True))

    if r.revoked is not None:
        async def on_unrevoke(e) -> None:
            await page.unrevoke(r)

        button = icon_button(ft.Icons.RESTORE, _("Restore record"), on_unrevoke, key=f"unrevoke-{r.id}")
    else:
        button = icon_button(ft.Icons.BLOCK, _("Revoke record"), lambda e: page.ask_reason(r),
                             key=f"revoke-{r.id}")
    if page.revoking == r.id:
        reason = ft.TextField(label=_("Why is it revoked?"), multiline=True, min_lines=1,
                              max_length=ledger_mod.MAX_NOTE, key="revoke-reason", autofocus=True)

        async def on_confirm(e) -> None:
            await page.revoke(r, reason.value or "")

        lines.append(reason)
        lines.append(ft.Row([
            ft.FilledButton(_("Revoke"), icon=ft.Icons.BLOCK, height=TOUCH, on_click=on_confirm,
                            key="revoke-confirm"),
            ft.TextButton(_("Cancel"), height=TOUCH, on_click=page.cancel_revoke, key="revoke-cancel"),
        ], wrap=True))

    return ft.Container(
        content=ft.Row([
            ft.Column(lines, spacing=4, expand=True, tight=True),
            button,
        ], vertical_alignment=ft.CrossAxisAlignment.START),
        padding=12, border_radius=12, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        key=f"record-{r.id}",
    )
