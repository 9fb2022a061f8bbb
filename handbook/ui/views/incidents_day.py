"""The day's incidents (``/incidents``): the judge's records of one day by time, with table and
hanchan, filterable by table, exported as CSV for the organiser."""


from __future__ import annotations

import datetime

import flet as ft

from handbook import ledger as ledger_mod
from handbook.ledger import Record
from handbook.storage import off_loop
from handbook.ui.context import AppContext
from handbook.ui.errors import readable
from handbook.ui.gate import judged_ledger
from handbook.ui.ledger_parts import EXPORT_FOLDER, in_browser, player_label
from handbook.ui.widgets import (
    BODY_SIZE as BODY,
    SMALL_SIZE as SMALL,
    error_box,
    empty_note,
    tall_style,
)




def _loading(ctx: AppContext, title: str) -> ft.View:
    return ctx.view(route=ctx.route, title=title, controls=[
        ft.Row([ft.ProgressRing(), ft.Text(ctx._("Opening the ledger…"), size=BODY)], spacing=16)])


# ------------------------------------------------------------------ /incidents

def build_incidents(ctx: AppContext) -> ft.View:
    """The day's incidents (``?date=YYYY-MM-DD``, default today) by time, with table and hanchan,
    filterable by table; CSV export for the organiser (:meth:`Ledger.incidents_csv`)."""
    _ = ctx._
    ledger = judged_ledger(ctx)
    if ledger is None:
        return _loading(ctx, _("The day's incidents"))
    try:
        day = ledger_mod.parse_date(ctx.query.get("date") or datetime.date.today().isoformat())
    except ValueError:
        day = datetime.date.today()
    listing = ft.Column(spacing=8, key="incidents")
    out = ft.Column()
    table = ft.TextField(label=_("Filter by table"), max_length=ledger_mod.MAX_TABLE, key="incidents-table",
                         dense=False)

    def fill(e=None) -> None:
        try:
            recs = ledger.incidents(day, (table.value or "").strip() or None)
        except ValueError as exc:
            listing.controls = [error_box(readable(exc, _))]
        else:
            listing.controls = [_incident_card(ctx, r) for r in recs] or [
                empty_note(_("No incidents recorded on this day."))]
        if e is not None:
            ctx.page.update()

    table.on_change = fill
    fill()

    async def export(e) -> None:
        where = (table.value or "").strip() or None
        try:
            text = await off_loop(ledger.incidents_csv, day, where)
            import re

            name = f"incidents-{day.isoformat()}" + (
                "-" + (re.sub(r"[^\w.-]+", "_", where).strip("_.") or "table") if where else "") + ".csv"
            if in_browser(ctx):
                await ft.FilePicker().save_file(file_name=name, src_bytes=text.encode("utf-8"))
                msg = _("Exported as {name}").format(name=name)
            else:
                from handbook.paths import data_dir
                from handbook.storage import atomic_write_text

                folder = data_dir() / EXPORT_FOLDER
                folder.mkdir(parents=True, exist_ok=True)
                await off_loop(atomic_write_text, folder / name, text)
                msg = _("Exported to {path}").format(path=str(folder / name))
        except (OSError, ValueError) as exc:
            out.controls = [error_box(_("Export failed: {reason}").format(reason=str(exc)))]
            ctx.page.update()
            return
        out.controls = [ft.Text(msg, size=SMALL, selectable=True, key="incidents-export-result")]
        ctx.page.update()

    controls: list[ft.Control] = [
        ft.Text(_.format_date(day), size=BODY, weight=ft.FontWeight.W_600),
        table,
        listing,
        ft.OutlinedButton(_("Export CSV"), icon=ft.Icons.TABLE_VIEW, style=tall_style(), on_click=export,
                          key="incidents-export"),
        out,
    ]
    return ctx.view(route=ctx.route, title=_("The day's incidents"), controls=controls)


def _incident_card(ctx: AppContext, r: Record) -> ft.Control:
    _ = ctx._
    where = " · ".join(t for t in (r.created.astimezone().strftime("%H:%M"),
                                   _("Table {table}").format(table=r.table) if r.table else "",
                                   _("Hanchan {n}").format(n=r.hanchan) if r.hanchan else "") if t)
    lines: list[ft.Control] = [
        ft.Text(where, size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(f"{player_label(r)} — {r.foul}", size=BODY, weight=ft.FontWeight.W_600),
        ft.Text(r.penalty + (f" ({r.points}P)" if r.points is not None else ""), size=BODY),
    ]
    if r.reason:
        lines.append(ft.Text(r.reason, size=SMALL))
    if r.revoked is not None:
        lines.append(ft.Text(_("Revoked {when}: {reason}").format(
            when=_.format_date(r.revoked.time.date()), reason=r.revoked.reason),
            size=SMALL, weight=ft.FontWeight.W_700, color=ft.Colors.ERROR))
    return ft.Container(content=ft.Column(lines, spacing=4, tight=True), padding=12, border_radius=12,
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT), key=f"incident-{r.id}")
