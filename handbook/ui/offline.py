""""Ready offline": whether the installed web app (the PWA) has everything it needs to work
without a network, so a judge knows when they can leave the venue's Wi-Fi.

The PWA's service worker (``tools/pwa/sw.js``) is activated only once every file of the app is
in its cache. It then says so on the BroadcastChannel :data:`CHANNEL`, and answers
:data:`STATUS_PATH` (a path no file has) while it is active -- which a start asks, since a
message sent before the app listened is lost. Only in the browser (Pyodide); the served app
needs its server anyway and shows nothing.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable

import flet as ft

from handbook.i18n import N_

#: the service worker's channel and status path (tools/pwa/sw.js: OFFLINE_CHANNEL, STATUS)
CHANNEL = "rjh-offline"
STATUS_PATH = "offline-ready"
SAVING = N_("Saving for offline use…")
READY = N_("Ready offline")


class OfflineStatus:
    """``ready`` once the service worker has the whole app; ``watch`` calls back when it becomes so."""

    def __init__(self) -> None:
        self.ready = False
        self.started = False
        self._watchers: list[Callable[[], None]] = []

    def watch(self, callback: Callable[[], None]) -> None:
        self._watchers.append(callback)

    def set_ready(self) -> None:
        if self.ready:
            return
        self.ready = True
        watchers, self._watchers = self._watchers, []
        for callback in watchers:
            try:
                callback()
            except Exception:  # noqa: BLE001 - a badge no longer on screen
                pass

    def start(self) -> bool:
        """Listen to the service worker (once; in the browser only). True when listening."""
        if self.started or sys.platform != "emscripten":
            return self.started
        self.started = True
        try:
            import asyncio

            import js  # Pyodide's bridge to the worker's JavaScript
            from pyodide.ffi import create_proxy
        except ImportError:
            return False

        def message(event) -> None:
            data = getattr(event, "data", None)
            if data is not None and getattr(data, "ready", False):
                self.set_ready()

        self._proxy = create_proxy(message)   # kept: the channel calls it later
        self._channel = js.BroadcastChannel.new(CHANNEL)
        self._channel.onmessage = self._proxy

        async def ask() -> None:
            try:
                response = await js.fetch(STATUS_PATH, js.Object.fromEntries([["cache", "no-store"]]))
                if response.ok and (await response.json()).ready:
                    self.set_ready()
            except Exception:  # noqa: BLE001 - no service worker yet: 404, or offline
                pass

        asyncio.ensure_future(ask())
        return True


#: the one status of this app (one browser tab, one Python)
STATUS = OfflineStatus()


def offline_badge(_: Callable[[str], str], status: OfflineStatus = STATUS) -> ft.Control | None:
    """A small label, "Saving for offline use…" until the app is cached, then "Ready offline"
    (with a check mark); ``None`` outside the installed web app. ``_`` translates."""
    if not status.start() and not status.ready:
        return None
    icon = ft.Icon(ft.Icons.OFFLINE_PIN if status.ready else ft.Icons.DOWNLOADING, size=18,
                   color=ft.Colors.PRIMARY)
    text = ft.Text(_(READY if status.ready else SAVING), size=13, color=ft.Colors.ON_SURFACE_VARIANT)
    row = ft.Row([icon, text], spacing=4, tight=True, key="offline-status")
    if not status.ready:
        ref = weakref.ref(row)

        def became_ready() -> None:
            shown = ref()
            if shown is None:
                return
            icon.icon = ft.Icons.OFFLINE_PIN
            text.value = _(READY)
            try:
                shown.update()
            except RuntimeError:  # not on a page (yet or any more)
                pass

        status.watch(became_ready)
    return row
