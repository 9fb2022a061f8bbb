"""The judge passphrase on screen: :func:`judge_ok` says whether this session may see the ledger
(and study data); :func:`passphrase_view` is the screen shown instead until it may.

The check itself lives in :mod:`handbook.access` (no flet). A session that gave the passphrase
keeps it until it ends or the judge taps "Lock" (``ctx.judge``). With no gate configured (on
127.0.0.1 without a passphrase, in the PWA) every session may.
"""

from __future__ import annotations

import flet as ft

from handbook import access
from handbook.ledger import Ledger
from handbook.ui.context import TOUCH, AppContext

BODY, SMALL = 16, 14


def judge_ok(ctx: AppContext) -> bool:
    """Whether this session may read and change the ledger."""
    return access.current() is None or bool(getattr(ctx, "judge", False))


def judged_ledger(ctx: AppContext) -> Ledger | None:
    """The app's ledger for this session: ``None`` for a session that has not given the judge
    passphrase (so no screen shows ledger data to it), and while the browser build is still
    loading it (the screen is rebuilt when it is ready)."""
    return ctx.stores.ledger_for(ctx) if judge_ok(ctx) else None


def client_of(ctx: AppContext) -> str:
    """Who failed attempts are counted against: the browser's IP address as Flet reports it."""
    return str(getattr(ctx.page, "client_ip", None) or "")


def lock_action(ctx: AppContext) -> list[ft.Control]:
    """An AppBar button "Lock the ledger" (only when a gate is active and the session is open)."""
    if access.current() is None or not getattr(ctx, "judge", False):
        return []

    def lock(e=None) -> None:
        ctx.judge = False
        ctx.refresh()

    return [ft.Semantics(label=ctx._("Lock the ledger"), button=True, exclude_semantics=True,
                         on_tap=lock, content=ft.IconButton(
                             icon=ft.Icons.LOCK_OUTLINE, tooltip=ctx._("Lock the ledger"),
                             on_click=lock, key="lock"))]


def passphrase_view(ctx: AppContext, title: str) -> ft.View:
    """Asks for the judge passphrase; on success the current screen is rebuilt, open."""
    _ = ctx._
    gate = access.current()
    box = ft.TextField(label=_("Judge passphrase"), password=True, can_reveal_password=True,
                       autofocus=True, text_size=BODY, key="passphrase")
    message = ft.Text("", size=SMALL, color=ft.Colors.ERROR, key="passphrase-error")

    def submit(e=None) -> None:
        if gate is None:
            ctx.judge = True
            ctx.refresh()
            return
        answer = gate.check(box.value or "", client_of(ctx))
        box.value = ""
        if answer.ok:
            ctx.judge = True
            message.value = ""
            ctx.refresh()
            return
        if answer.verdict is access.Verdict.LOCKED:
            message.value = _("Too many wrong attempts. Try again in {seconds} s.").format(
                seconds=int(answer.wait_s + 0.999))
        else:
            message.value = _("That is not the judge passphrase.")
        ctx.page.update()

    box.on_submit = submit
    return ctx.view(route=ctx.route, title=title, controls=[
        ft.Row([ft.Icon(ft.Icons.LOCK_OUTLINE),
                ft.Text(_("The ledger holds players' names and penalties. Give the judge "
                          "passphrase to open it."), size=BODY, expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.START),
        ft.Text(_("The judge who started the server has it: it is printed when the server "
                  "starts."), size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        box,
        message,
        ft.Row([ft.FilledButton(_("Open the ledger"), icon=ft.Icons.LOCK_OPEN, height=TOUCH,
                                on_click=submit, key="unlock")]),
    ])
