"""Pieces both ledger screens share (``/ledger`` and ``/ledger/<player>``): labels of players and
rows, the damage and unreadable-file notices, write errors, the import refusal and the export buttons."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from handbook import ledger as ledger_mod
from handbook.core.model import Penalty, PenaltyRow
from handbook.ledger import Ledger, Player, Record
from handbook.storage import DamageReport, is_web, off_loop
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.widgets import (
    damage_banner,
    BODY_SIZE as BODY,
    MEDIUM,
    SMALL_SIZE as SMALL,
    error_box,
    show_snack,    tall_style,
)


EXPORT_FOLDER = "exports"


# ------------------------------------------------------------------ data helpers (no flet)

def player_label(p: Player | Record) -> str:
    name = p.name if isinstance(p, Player) else p.player
    return f"{name} ({p.club})" if p.club else name


def row_label(row: PenaltyRow) -> str:
    return f"{row.foul} — {row.penalty}" if row.penalty else row.foul


def strike_note(row: PenaltyRow, _: Callable[[str], str]) -> str:
    """What the ledger will record as the Strike for ``row``."""
    if row.ruleset != ledger_mod.STRIKE_RULESET:
        return _("Not a Strike (Strikes are AZRM's)")
    if row.strike is None:
        return _("The judge decides whether this is a Strike")
    return _("Strike (AZRM §1.4)") if row.strike else _("Not a Strike (AZRM §1.4)")


def picked_bytes(f: ft.FilePickerFile, _: Callable[[str], str]) -> tuple[bytes, str | None]:
    """The contents of a picked file as the client sent them, or ``(b"", message)``.

    Only ``f.bytes`` is read (the picker is opened with ``with_data=True``, in the served app, the
    PWA and a native app alike). ``f.path`` is never opened: in the served app it names a file on
    the *server*, chosen by whoever controls the browser. Files over
    :data:`handbook.ledger.MAX_IMPORT_BYTES` are refused, by the size the client reports and by
    the bytes received.
    """
    cap = ledger_mod.MAX_IMPORT_BYTES
    size = max(f.size or 0, len(f.bytes or b""))
    if size > cap:
        return b"", _("{name} is larger than {mb} MB; nothing was imported.").format(
            name=f.name, mb=cap // (1024 * 1024))
    if f.bytes is None:
        return b"", _("The browser sent no file contents for {name}; nothing was imported.").format(
            name=f.name)
    return bytes(f.bytes), None


def needs_judge_points(row: PenaltyRow) -> bool:
    return row.points is None and row.kind in (None, Penalty.DISCRETION, Penalty.POINT_PENALTY)


# ------------------------------------------------------------------ shared pieces

def judge_answers(_: Callable[[str], str], asks_strike: bool, strike_choice: ft.SegmentedButton,
                  points_box: ft.TextField, *, max_digits: int | None = None,
                  shown: int | None = None) -> tuple[bool | None, int | None]:
    """The judge's answers where a row leaves them open (AZRM §1.4): whether it is a Strike
    (``None`` when not asked) and the points in P (``None`` when the box is hidden or empty).
    ``ValueError`` when the Strike is asked but not answered, or the points are not a whole
    number (of at most ``max_digits`` digits; the message quotes ``shown`` characters of it)."""
    strike = None
    if asks_strike:
        if not strike_choice.selected:
            raise ValueError(_("Say whether this is a Strike: the row leaves it to the judge."))
        strike = strike_choice.selected[0] == "yes"
    points = None
    text = (points_box.value or "").strip()
    if points_box.visible and text:
        if not text.isdigit() or (max_digits is not None and len(text) > max_digits):
            raise ValueError(f"points: {text[:shown]!r} is not a whole number of P")
        points = int(text)
    return strike, points


def ledger_damage_banner(ctx: AppContext, ledger: Ledger) -> list[ft.Control]:
    reports = ledger.damages
    if not reports:
        return []
    _ = ctx._
    texts = [damage_text(ctx, d) for d in reports]
    # read: not shown again, in any tab or after a restart
    return [damage_banner(ctx, texts, "damage-banner", ledger.acknowledge_damage)]


def damage_text(ctx: AppContext, d: DamageReport) -> str:
    """What the banner says about one damaged data file."""
    _ = ctx._
    text = _.ngettext("The ledger data could not be read ({reason}). Nothing was deleted: the damaged "
                      "copy is at {path}. {recovered} record was recovered.",
                      "The ledger data could not be read ({reason}). Nothing was deleted: the damaged "
                      "copy is at {path}. {recovered} records were recovered.", d.recovered).format(
        reason=d.reason, path=d.moved_to, recovered=d.recovered)
    if d.unsaved:
        text += " " + _("The recovery is not finished ({problem}): the recovered records are "
                        "shown but not saved yet. Free some space; the app finishes it by "
                        "itself.").format(problem=d.unsaved)
    return text


def write_error(ctx: AppContext, exc: OSError) -> str:
    """What the judge reads when the ledger could not be saved (read-only folder, full disk,
    another writer holding the file): nothing changed, nothing is lost."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return ctx._("Could not save to the ledger ({reason}). Nothing was changed and nothing was "
                 "lost; what you typed is still here. Free some space or make the data folder "
                 "writable, then try again.").format(reason=reason)


def unreadable_note(ctx: AppContext, ledger: Ledger) -> list[ft.Control]:
    """A notice for stored records this version cannot read (left in the file, not shown)."""
    bad = ledger.unreadable
    if not bad:
        return []
    doc_id, reason = bad[0]
    text = ctx.ngettext("{n} stored record could not be read and is not shown; it is kept "
                        "unchanged in the data file. Entry {id}: {reason}.",
                        "{n} stored records could not be read and are not shown; they are kept "
                        "unchanged in the data file. First: entry {id}: {reason}.", len(bad)).format(
        n=len(bad), id=doc_id, reason=reason)
    return [ft.Container(key="unreadable", bgcolor=ft.Colors.ERROR_CONTAINER, padding=12,
                         border_radius=12, content=ft.Row(
                             [ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
                              ft.Text(text, size=SMALL, expand=True,
                                      color=ft.Colors.ON_ERROR_CONTAINER)],
                             vertical_alignment=ft.CrossAxisAlignment.START))]


def refused_dialog(ctx: AppContext, name: str, problems: list[str]) -> None:
    """A dialog listing why a file was refused (nothing was imported)."""
    _ = ctx._

    def close(e) -> None:
        ctx.page.pop_dialog()

    dlg = ft.AlertDialog(
        title=ft.Text(_("File not imported")),
        content=ft.Column([
            ft.Text(_("{name}: nothing was imported and the ledger is unchanged.").format(name=name),
                    size=BODY),
            *[ft.Text("• " + p, size=SMALL) for p in problems],
        ], tight=True, spacing=6),
        actions=[ft.TextButton(_("OK"), on_click=close, height=TOUCH)],
    )
    ctx.page.show_dialog(dlg)


def section_heading(text: str) -> ft.Control:
    return ft.Semantics(header=True, content=ft.Container(
        content=ft.Text(text, size=MEDIUM - 2, weight=ft.FontWeight.W_700, color=ft.Colors.PRIMARY),
        padding=ft.Padding.only(top=12, bottom=4)))


def in_browser(ctx: AppContext) -> bool:
    """Whether the user's files live in a browser (the served app, the PWA) rather than on the
    machine running this Python (a native app)."""
    return is_web() or bool(getattr(ctx.page, "web", False))


def export_controls(ctx: AppContext, ledger: Ledger, player: str | None,
                     out: ft.Column) -> ft.Control:
    _ = ctx._

    async def export(fmt: str) -> None:
        out.controls = []
        try:
            if in_browser(ctx):
                # the browser is the client: the file goes to it, never to the server's disk
                text = await off_loop(ledger.export_json if fmt == "json" else ledger.export_csv,
                                      player)
                name = ledger_mod.export_name(fmt, player)
                await ft.FilePicker().save_file(file_name=name, src_bytes=text.encode("utf-8"))
                n = len(ledger.records(player))
                msg = _.ngettext("Exported {n} record as {name}", "Exported {n} records as {name}",
                                 n).format(n=n, name=name)
            else:
                from handbook.paths import data_dir

                path = await off_loop(ledger.export_file, data_dir() / EXPORT_FOLDER, fmt,  # type: ignore[arg-type]
                                      player)
                n = len(ledger.records(player))
                msg = _.ngettext("Exported {n} record to {path}", "Exported {n} records to {path}",
                                 n).format(n=n, path=str(path))
        except (OSError, ValueError) as exc:
            out.controls = [error_box(_("Export failed: {reason}").format(reason=str(exc)))]
            ctx.page.update()
            return
        out.controls = [ft.Text(msg, size=SMALL, selectable=True, key="export-result")]
        show_snack(ctx, msg)
        ctx.page.update()

    async def as_json(e) -> None:
        await export("json")

    async def as_csv(e) -> None:
        await export("csv")

    return ft.Row(
        controls=[
            ft.OutlinedButton(_("Export JSON"), icon=ft.Icons.DOWNLOAD, style=tall_style(), on_click=as_json),
            ft.OutlinedButton(_("Export CSV"), icon=ft.Icons.TABLE_VIEW, style=tall_style(), on_click=as_csv),
        ],
        wrap=True, spacing=8, run_spacing=8,
    )


__all__ = ["damage_text", "export_controls", "in_browser", "ledger_damage_banner", "needs_judge_points", "picked_bytes", "player_label", "refused_dialog", "row_label", "section_heading", "strike_note", "unreadable_note", "write_error"]
