"""The Flet app: :func:`create_app` (the app factory), :func:`main` and :func:`serve`.

``python -m handbook serve --host H --port P`` calls :func:`serve`; ``main.py`` at the repository
root runs :func:`main` for ``flet run`` / ``flet publish`` / ``flet build``.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from handbook.core.search import warm_lemmatizer

from handbook import i18n
from handbook.core.model import Library
from handbook.paths import ASSETS_DIR
from handbook.startup import mark
from handbook.ui.context import (
    THEME_DARK,
    THEME_LIGHT,
    THEME_SYSTEM,
    WIDE,
    AppContext,
    Settings,
    theme_mode,
)
from handbook.ui.routes import build_view, split_route

log = logging.getLogger(__name__)

FONT_FAMILY = "NotoSansJP"
FONTS = {FONT_FAMILY: "fonts/NotoSansJP-Regular.ttf"}
SEED_COLOR = "#1B5E20"  # felt green, the same as [tool.flet] icon_background
PREFS_TIMEOUT = 3.0
#: how long set_url waits for the browser to report the new route, then lets frames pass
URL_CONFIRM_TIMEOUT = 1.0
URL_SETTLE_S = 0.15


def page_fonts() -> dict[str, str]:
    """What ``page.fonts`` loads: :data:`FONTS`, less the families the web engine already loaded
    before its first frame (``HANDBOOK_ENGINE_FONTS``, comma-separated; the offline app's build
    sets it, tools/pwa/build.py) -- loading one again costs a download, a parse and a relayout."""
    loaded = {f.strip() for f in os.environ.get("HANDBOOK_ENGINE_FONTS", "").split(",")}
    return {family: path for family, path in FONTS.items() if family not in loaded}


def make_theme(dark: bool = False) -> ft.Theme:
    """The light or dark theme: Noto Sans JP everywhere (Japanese renders offline). Flutter
    derives the dark colour scheme from the seed itself when the theme is ``page.dark_theme``."""
    return ft.Theme(
        color_scheme_seed=SEED_COLOR,
        font_family=FONT_FAMILY,
        visual_density=ft.VisualDensity.STANDARD,
    )


class Preferences:
    """Settings persisted with Flet's ``SharedPreferences`` service (localStorage on the web).

    Every call is guarded: a client that does not answer in time (or a test stub without the
    service) leaves the defaults in place instead of blocking the app.
    """

    def __init__(self, service: Any | None):
        self.service = service

    async def _call(self, name: str, *args: Any) -> Any:
        if self.service is None:
            return None
        try:
            return await asyncio.wait_for(getattr(self.service, name)(*args), PREFS_TIMEOUT)
        except Exception as exc:  # noqa: BLE001 - storage is optional
            log.warning("SharedPreferences.%s failed: %s", name, exc)
            return None

    async def load(self, library: Library) -> Settings:
        s = Settings()
        # one round trip to the client for the three, not three in a row (start-up time)
        ruleset, theme, locale = await asyncio.gather(
            self._call("get", Settings.KEY_RULESET), self._call("get", Settings.KEY_THEME),
            self._call("get", Settings.KEY_LOCALE))
        if isinstance(ruleset, str) and ruleset in library.rulesets:
            s.ruleset = ruleset
        if theme in (THEME_SYSTEM, THEME_LIGHT, THEME_DARK):
            s.theme = theme
        if isinstance(locale, str) and locale:
            s.locale = locale
        return s

    async def save(self, s: Settings) -> None:
        await self._call("set", Settings.KEY_RULESET, s.ruleset or "")
        await self._call("set", Settings.KEY_THEME, s.theme)
        await self._call("set", Settings.KEY_LOCALE, s.locale)


class HandbookApp:
    """One browser session: settings, the current screen, and routing.

    Exactly one :class:`ft.View` is shown at a time (the screen for ``page.route``); Back in the
    browser changes the route and the screen is rebuilt from it, so deep links and history work
    the same way.
    """

    def __init__(self, page: ft.Page, library: Library, *, prefs: Preferences | None = None):
        self.page = page
        self.library = library
        self.prefs = prefs or Preferences(None)
        self.settings = Settings()
        self._silent: str | None = None
        self._silent_seen = asyncio.Event()
        self._wide: bool | None = None
        self.ctx = AppContext(
            page=page,
            library=library,
            settings=self.settings,
            _=i18n.gettext,
            navigator=self.navigate,
            on_settings_change=self.prefs.save,
            refresher=self.refresh,
            url_setter=self.set_url,
        )

    # ------------------------------------------------------------------ setup
    def configure_page(self) -> None:
        page = self.page
        page.title = i18n.gettext("Riichi Judge Handbook")
        page.fonts = page_fonts()
        page.theme = make_theme(dark=False)
        page.dark_theme = make_theme(dark=True)
        page.theme_mode = theme_mode(self.settings.theme)
        page.padding = 0
        page.on_route_change = self.on_route_change
        page.on_view_pop = self.on_view_pop
        page.on_resize = self.on_resize
        page.on_platform_brightness_change = self.on_brightness

    async def start(self) -> None:
        self.settings = await self.prefs.load(self.library)
        self.ctx.settings = self.settings
        i18n.set_locale(self.settings.locale)
        self.configure_page()
        self.render(self.page.route or "/")

    # ---------------------------------------------------------------- routing
    def render(self, route: str) -> None:
        """Build and show the screen for ``route``."""
        self._wide = self.ctx.wide
        view = build_view(self.ctx, route)
        self.page.views.clear()
        self.page.views.append(view)
        self.page.update()

    async def navigate(self, route: str) -> None:
        if route == self.page.route:
            self.render(route)
            return
        await self.page.push_route(route)

    async def set_url(self, route: str) -> None:
        """Push ``route`` to the address bar and history without rebuilding the screen.

        Returns once the browser has reported the new route and a few frames have passed: a
        second push right after (the search screen records its query, then opens a result) could
        otherwise land in the same frame, and the browser would keep only the last entry.
        """
        self._silent = route
        self._silent_seen = asyncio.Event()
        await self.page.push_route(route)
        try:
            await asyncio.wait_for(self._silent_seen.wait(), URL_CONFIRM_TIMEOUT)
        except asyncio.TimeoutError:
            log.debug("no route change reported for %s", route)
        await asyncio.sleep(URL_SETTLE_S)

    async def refresh(self) -> None:
        self.render(self.ctx.current_route())

    def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        route = e.route if getattr(e, "route", None) is not None else self.page.route
        if self._silent is not None and route == self._silent:
            # the screen already shows this state: only note the new address
            self._silent = None
            self._silent_seen.set()
            path, query = split_route(route)
            self.ctx.route, self.ctx.query = path, query
            return
        self._silent = None
        self.render(route)

    async def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        from handbook.ui.routes import parent_route

        await self.navigate(parent_route(self.page.route) or "/")

    def on_resize(self, e: Any) -> None:
        # switch between the bottom bar and the side rail when the width crosses WIDE
        wide = self.ctx.wide
        if self._wide is not None and wide != self._wide:
            self.render(self.ctx.current_route())

    def on_brightness(self, e: Any) -> None:
        if self.settings.theme == THEME_SYSTEM:
            self.render(self.ctx.current_route())


def create_app(library: Library | None = None) -> Callable[[ft.Page], Awaitable[None]]:
    """The app's ``main(page)`` for ``ft.run``, showing ``library`` (default: the shipped
    content, loaded once)."""

    async def app_main(page: ft.Page) -> None:
        from handbook import default_library

        lib = library if library is not None else default_library()
        mark("content_ready")
        try:
            service: Any = ft.SharedPreferences()
        except Exception:  # noqa: BLE001 - no page context (tests)
            service = None
        app = HandbookApp(page, lib, prefs=Preferences(service))
        await app.start()
        mark("screen_built")
        # the search index is built after the first frame, before the first keystroke needs it
        await asyncio.sleep(0)
        lib.warm()
        await asyncio.sleep(0)
        warm_lemmatizer()

    return app_main


#: ``main(page)`` with the shipped content.
main = create_app()


#: first path segments of the app's own routes (see handbook.ui.routes.ROUTES)
APP_ROUTE_ROOTS = frozenset({"search", "rules", "penalties", "glossary", "tools", "ledger"})


def spa_fallback_wanted(path: str) -> bool:
    """Whether the web server should answer ``path`` with ``index.html``.

    Flet's static server only falls back to ``index.html`` for paths without a file extension, so
    a deep link to ``/rules/azrm/2.4`` (extension ".4") would be a 404. Every path under one of
    the app's routes is a screen, never a file.
    """
    first = path.strip("/").split("/", 1)[0]
    return first in APP_ROUTE_ROOTS


def install_spa_fallback() -> bool:
    """Patch flet-web's static files so app routes with dots in them load the app (True when the
    patch is in place)."""
    try:
        from flet_web.fastapi.flet_static_files import FletStaticFiles
    except ImportError:  # pragma: no cover - flet-web is what serves the app
        return False
    if getattr(FletStaticFiles.lookup_path, "_handbook_patched", False):
        return True
    original = FletStaticFiles.lookup_path

    def lookup_path(self, path: str):
        full_path, stat_result = original(self, path)
        if stat_result is None and spa_fallback_wanted(path):
            return original(self, "index.html")
        return full_path, stat_result

    lookup_path._handbook_patched = True  # type: ignore[attr-defined]
    FletStaticFiles.lookup_path = lookup_path  # type: ignore[method-assign]
    return True


def serve(host: str = "127.0.0.1", port: int = 8550) -> None:
    """Serve the app as a local web server at http://host:port (no browser is opened; works
    offline: CanvasKit and fonts come from the local flet-web package, not a CDN)."""
    # WEB_BROWSER would open a browser window unless Flet is told it is a server
    os.environ["FLET_FORCE_WEB_SERVER"] = "true"
    install_spa_fallback()
    ft.run(main, host=host, port=port, view=ft.AppView.WEB_BROWSER, assets_dir=str(ASSETS_DIR),
           no_cdn=True)


__all__ = ["HandbookApp", "Preferences", "create_app", "main", "make_theme", "serve", "WIDE"]
