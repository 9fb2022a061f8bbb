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

**Bound to the browser** (:mod:`handbook.access`, "The unlock is bound to the browser"): on the
right answer :func:`bind_unlock` makes sure the browser's storage (SharedPreferences,
:data:`KEY_UNLOCK`) holds an unlock token and keeps only its digest on the session
(``ctx.unlock_digest``). When a new connection takes up a disconnected session (a reload, a phone
waking, or someone replaying the session id), :func:`suspend` locks it before its first screen
is sent (:func:`handbook.ui.serving.install_resume_guard`); :func:`resume` then reads the token
from that connection's browser and opens the session again only when it matches. One token per
browser (tabs share it); "Lock" forgets the digest, so only the passphrase opens that session
again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import flet as ft

from handbook import access
from handbook.i18n import N_
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.routes import Route

if TYPE_CHECKING:  # the ledger module is imported when a ledger screen first opens
    from handbook.ledger import Ledger

log = logging.getLogger(__name__)

BODY, SMALL = 16, 14
#: where the browser keeps its unlock token (SharedPreferences: localStorage on the web)
KEY_UNLOCK = "rjh.unlock"

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
        ctx.unlock_digest = None  # only the passphrase opens this session again
        _close_judge_screen(ctx)
        ctx.refresh()

    return [ft.Semantics(label=label, button=True, exclude_semantics=True,
                         on_tap=lock, content=ft.IconButton(
                             icon=ft.Icons.LOCK_OUTLINE, tooltip=label,
                             on_click=lock, key="lock"))]


def _close_judge_screen(ctx: AppContext) -> None:
    ctx.judge = False
    # the page's dialogs and snack bars ("Record removed ... Undo") are not the screen's:
    # closed with the judge's screen
    pop = getattr(ctx.page, "pop_dialog", None)
    while pop is not None and pop() is not None:
        pass


async def bind_unlock(ctx: AppContext) -> bool:
    """After the right passphrase: the browser's storage gets an unlock token
    (:func:`handbook.access.new_unlock_token`; the one it holds already is kept, so tabs share
    it) and the session keeps its digest. True when the token is in the browser's storage; False
    when there is no gate, no storage, the storage did not answer (the session is then locked if
    it is ever resumed) or the session was locked meanwhile."""
    prefs = ctx.preferences
    if prefs is None or access.current() is None or not ctx.judge:
        return False
    held = await prefs.get(KEY_UNLOCK)
    token = held if access.is_unlock_token(held) else access.new_unlock_token()
    if token != held and not await prefs.set(KEY_UNLOCK, token):
        return False
    if not ctx.judge:
        return False
    ctx.unlock_digest = access.token_digest(token)
    return True


def suspend(ctx: AppContext) -> bool:
    """A new connection is taking up this disconnected session: lock it until that browser shows
    its unlock token (:func:`resume`). The digest is kept; a judge screen's route is cut to one
    that names no player (the new connection reports its own route). Synchronous: it runs before
    the session's page is sent. True when the session was open."""
    if access.current() is None or not ctx.judge:
        return False
    _close_judge_screen(ctx)
    from handbook.ui.routes import match

    m = match(ctx.current_route())
    if m.route.needs_judge:
        safe = m.path if "<" not in m.route.pattern else (m.route.parent or "/")
        ctx.route, ctx.query = safe, {}
        if hasattr(ctx.page, "route"):
            ctx.page.route = safe
    return True


async def resume(ctx: AppContext) -> bool:
    """After :func:`suspend`, once the new connection is up: open the session again when that
    browser's storage holds the token whose digest the session kept. True when it was opened."""
    digest = ctx.unlock_digest
    if digest is None or ctx.judge or access.current() is None or ctx.preferences is None:
        return False
    token = await ctx.preferences.get(KEY_UNLOCK)
    if ctx.judge or ctx.unlock_digest is not digest or not access.token_matches(token, digest):
        return False
    ctx.judge = True
    return True


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
        if access.current() is not None and ctx.preferences is not None:
            _run_later(bind_unlock(ctx))
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


_pending: set[asyncio.Task] = set()


def _run_later(coro: Coroutine[Any, Any, Any]) -> None:
    """Run ``coro`` on the running loop, its failure logged (outside a loop: not at all)."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        coro.close()
        return
    task = loop.create_task(coro)
    _pending.add(task)

    def done(t: asyncio.Task) -> None:
        _pending.discard(t)
        if not t.cancelled() and t.exception() is not None:
            log.warning("the unlock token could not be stored: %r", t.exception())

    task.add_done_callback(done)


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
