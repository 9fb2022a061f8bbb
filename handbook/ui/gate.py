"""The judge passphrase on screen: :func:`passphrase_view`, which
:func:`handbook.ui.screens.build_view` shows instead of every route declared ``JUDGE`` in the
route table (:mod:`handbook.ui.routes`) until the session gave the passphrase;
:func:`passphrase_controls`, the same box for a screen that offers to unlock in place (the strike
calculator asked for a ledger player); :func:`lock_action`, the AppBar's "Lock" button.

Who may see the judge's data is ``ctx.judged`` (:class:`handbook.ui.context.AppContext`): no
gate is active (127.0.0.1 without a passphrase, the PWA), or this session gave the passphrase —
which it keeps until it ends or the judge taps "Lock" (``ctx.judge``). The check itself, and
how wrong answers are limited (per peer address as the server saw it, and over the whole
server), live in :mod:`handbook.access` (no flet).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import flet as ft

from handbook import access
from handbook.i18n import N_
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.routes import Route

if TYPE_CHECKING:  # the ledger module is imported when a ledger screen first opens
    from handbook.ledger import Ledger

BODY, SMALL = 16, 14

#: the title of the passphrase screen shown for a gated route, by route name
_TITLES = {"ledger": N_("Ledger"), "player": N_("Ledger"), "study": N_("Study"),
           "study-progress": N_("Progress"), "bookmarks": N_("Bookmarks"),
           "record": N_("Record this ruling"), "incidents": N_("Ledger")}
LEDGER_LOCKED = N_("The ledger holds players' names and penalties. Give the judge passphrase "
                   "to open it.")
STUDY_LOCKED = N_("On this server, study progress, bookmarks and recent lookups are the judge's. "
                  "Give the judge passphrase to open them.")


def judge_ok(ctx: AppContext) -> bool:
    """Whether this session may see the judge's data (``ctx.judged``)."""
    return ctx.judged


def judged_ledger(ctx: AppContext) -> Ledger | None:
    """The app's ledger for this session: ``None`` for a session that has not given the judge
    passphrase (the stores hand it to a judged session only), and while the browser build is
    still loading it (the screen is rebuilt when it is ready)."""
    return ctx.stores.ledger_for(ctx)


def client_of(ctx: AppContext) -> str:
    """Who failed attempts are counted against: the peer address the server saw when this
    session's websocket connected (``ctx.peer``), never a page property a client can set."""
    return ctx.peer


def lock_action(ctx: AppContext, route: Route | None = None) -> list[ft.Control]:
    """An AppBar button that locks the judge's data again for this session — "Lock the ledger"
    on a ledger screen, "Lock study data" elsewhere — only when a gate is active and the session
    gave the passphrase. :func:`handbook.ui.screens.build_view` adds it to every ``JUDGE``
    screen."""
    if access.current() is None or not ctx.judge:
        return []
    label = ctx._("Lock study data")
    if route is None or route.pattern.startswith("/ledger"):
        label = ctx._("Lock the ledger")

    def lock(e=None) -> None:
        ctx.judge = False
        # the page's dialogs and snack bars ("Record removed ... Undo") are not the screen's:
        # closed with the judge's screen
        while ctx.page.pop_dialog() is not None:
            pass
        ctx.refresh()

    return [ft.Semantics(label=label, button=True, exclude_semantics=True,
                         on_tap=lock, content=ft.IconButton(
                             icon=ft.Icons.LOCK_OUTLINE, tooltip=label,
                             on_click=lock, key="lock"))]


def passphrase_controls(ctx: AppContext, button: str | None = None,
                        on_open: Callable[[], None] | None = None, *,
                        autofocus: bool = True) -> list[ft.Control]:
    """The passphrase box, its message and the button (``button``: its label, default "Open the
    ledger"); on the right answer the session is judged and ``on_open`` runs (default: the
    current screen is rebuilt). ``autofocus=False`` where the screen is for something else too
    (the phone's keyboard stays down)."""
    _ = ctx._
    box = ft.TextField(label=_("Judge passphrase"), password=True, can_reveal_password=True,
                       autofocus=autofocus, text_size=BODY, key="passphrase")
    message = ft.Text("", size=SMALL, color=ft.Colors.ERROR, key="passphrase-error")

    def opened() -> None:
        ctx.judge = True
        message.value = ""
        (on_open or ctx.refresh)()

    def submit(e=None) -> None:
        gate = access.current()
        if gate is None:
            opened()
            return
        answer = gate.check(box.value or "", client_of(ctx))
        box.value = ""
        if answer.ok:
            opened()
            return
        seconds = int(answer.wait_s + 0.999)
        if answer.verdict is access.Verdict.LOCKED:
            message.value = _("Too many wrong attempts. Try again in {seconds} s.").format(seconds=seconds)
        elif answer.verdict is access.Verdict.BUSY:
            message.value = _("Too many wrong attempts on this server just now. Try again in "
                              "{seconds} s.").format(seconds=seconds)
        else:
            message.value = _("That is not the judge passphrase.")
        ctx.page.update()

    box.on_submit = submit
    return [box, message,
            ft.Row([ft.FilledButton(button or _("Open the ledger"), icon=ft.Icons.LOCK_OPEN,
                                    height=TOUCH, on_click=submit, key="unlock")])]


def passphrase_view(ctx: AppContext, route: Route) -> ft.View:
    """What a session that has not given the passphrase sees instead of the ``JUDGE`` screen
    ``route``; on the right answer that screen is built, open."""
    _ = ctx._
    ledger = route.pattern.startswith(("/ledger", "/record", "/incidents"))
    title = _(_TITLES.get(route.name, N_("Judge passphrase")))
    return ctx.view(route=ctx.route, title=title, controls=[
        ft.Row([ft.Icon(ft.Icons.LOCK_OUTLINE),
                ft.Text(_(LEDGER_LOCKED if ledger else STUDY_LOCKED), size=BODY, expand=True)],
               vertical_alignment=ft.CrossAxisAlignment.START),
        ft.Text(_("The judge who started the server has it: it is printed when the server "
                  "starts."), size=SMALL, color=ft.Colors.ON_SURFACE_VARIANT),
        *passphrase_controls(ctx, None if ledger else _("Unlock")),
    ])
