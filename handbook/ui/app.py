"""The Flet app: :func:`create_app` (the app factory), :func:`main` and :func:`serve`.

``python -m handbook serve --host H --port P`` calls :func:`serve`; ``main.py`` at the repository
root runs :func:`main` for ``flet run`` / ``flet publish`` / ``flet build``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import flet as ft

from handbook.core.search import keep_loaded, warm_lemmatizer

from handbook import access, i18n
from handbook.core.load import default_library
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
    apply_locale,
    theme_mode,
)
from handbook.ui.routes import APP_ROUTE_ROOTS, MAX_ROUTE_CHARS, parent_route, split_route
from handbook.ui.screens import build_view
from handbook.ui.stores import Stores
from handbook.ui.webclient import FONT_FAMILY, FONTS, back_step_route, back_step_target

log = logging.getLogger(__name__)

SEED_COLOR = "#1B5E20"  # felt green, the same as [tool.flet] icon_background
PREFS_TIMEOUT = 3.0
#: how long set_url waits for the browser to report the new route, then lets frames pass
URL_CONFIRM_TIMEOUT = 1.0
URL_SETTLE_S = 0.15
#: how long the back arrow's push waits for the browser's step back before showing its target
BACK_STEP_WAIT_S = 1.5
#: seconds a disconnected browser session is kept for it to reconnect (Flet's default is an hour,
#: ~0.7 MB a session). Ten minutes covers a phone whose screen locks between two tables; after
#: that the browser starts a fresh session on the same screen (the ledger is on disk, not in the
#: session; only unsaved typing and a given judge passphrase are asked again).
#: ``FLET_SESSION_TIMEOUT`` in the environment (seconds) overrides it.
SESSION_TIMEOUT_S = 600


#: font families the served web client's engine loads before its first frame (set by :func:`serve`
#: once it serves a client whose FontManifest lists them; the offline app's worker says the same
#: through ``HANDBOOK_ENGINE_FONTS``)
ENGINE_FONTS: set[str] = set()


def page_fonts() -> dict[str, str]:
    """What ``page.fonts`` loads: :data:`FONTS`, less the families the web engine already loaded
    before its first frame (:data:`ENGINE_FONTS`, which :func:`serve` fills, and
    ``HANDBOOK_ENGINE_FONTS``, comma-separated, which the offline app's worker sets: both list the
    font in the engine's FontManifest.json) -- loading one again costs a download, a parse and a
    relayout."""
    loaded = {f.strip() for f in os.environ.get("HANDBOOK_ENGINE_FONTS", "").split(",")} | ENGINE_FONTS
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

    async def get(self, key: str) -> Any:
        """The value stored under ``key``; ``None`` when there is none or the storage did not
        answer in time (:data:`PREFS_TIMEOUT`)."""
        return await self._call("get", key)

    async def set(self, key: str, value: Any) -> bool:
        """Store ``value`` under ``key``; True when the storage said it did."""
        return bool(await self._call("set", key, value))

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
        if isinstance(locale, str) and locale in i18n.SUPPORTED_LOCALES:
            s.locale = locale
        return s

    async def save(self, s: Settings) -> None:
        await self._call("set", Settings.KEY_RULESET, s.ruleset or "")
        await self._call("set", Settings.KEY_THEME, s.theme)
        # "" = never chosen: follow the browser's or phone's language
        await self._call("set", Settings.KEY_LOCALE, s.locale or "")


async def platform_language(page: Any) -> str:
    """The UI language the browser or phone prefers (``navigator.languages`` on the web, the
    system's locales in an app), "en" when it is not one the UI offers or the client does not say
    in time (:data:`PREFS_TIMEOUT`)."""
    getter = getattr(page, "get_device_info", None)
    if getter is None:
        return i18n.DEFAULT_LOCALE
    try:
        info = await asyncio.wait_for(getter(), PREFS_TIMEOUT)
    except Exception as exc:  # noqa: BLE001 - the language is a preference, never a failure
        log.warning("device info unavailable: %s", exc)
        return i18n.DEFAULT_LOCALE
    tags: list[str | None] = [
        "_".join(x for x in (loc.language_code, loc.country_code) if x)
        for loc in (getattr(info, "locales", None) or [])]
    tags += [getattr(info, "language", None), *(getattr(info, "languages", None) or [])]
    return i18n.preferred_language(tags)


class HandbookApp:
    """One browser session: settings, the current screen, and routing.

    Exactly one :class:`ft.View` is shown at a time (the screen for ``page.route``); Back in the
    browser changes the route and the screen is rebuilt from it, so deep links and history work
    the same way.
    """

    def __init__(self, page: ft.Page, library: Library, *, prefs: Preferences | None = None,
                 stores: Stores | None = None, peer: str = ""):
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
            navigator=self.navigate,
            on_settings_change=self.prefs.save,
            refresher=self.refresh,
            url_setter=self.set_url,
            backer=self.go_back,
            stores=stores or Stores(library),
            peer=peer,
            preferences=self.prefs,
        )
        #: the routes shown in this session, oldest first (the in-app history the arrow goes back in)
        self.history: list[str] = []
        self._going_back: str | None = None
        #: the route the client reported last (a back arrow's marked push included)
        self._route_seen: str | None = None
        from handbook.ui.serving import register_crash_screen, register_resume_guard

        register_crash_screen(page, self)
        # a new connection taking up this session is locked out of the judge's data until its
        # browser shows the unlock token (handbook.ui.gate.suspend / resume)
        register_resume_guard(page, self.suspend)

    # ------------------------------------------------------------------ setup
    def configure_page(self) -> None:
        page = self.page
        apply_locale(page, self.ctx.translator)
        page.fonts = page_fonts()
        page.theme = make_theme(dark=False)
        page.dark_theme = make_theme(dark=True)
        page.theme_mode = theme_mode(self.settings.theme)
        page.padding = 0
        page.on_route_change = self.on_route_change
        page.on_view_pop = self.on_view_pop
        page.on_resize = self.on_resize
        page.on_platform_brightness_change = self.on_brightness
        page.on_locale_change = self.on_locale_change
        page.on_connect = self.on_connect

    async def start(self) -> None:
        # the saved settings and the device's language in one round trip to the client
        self.settings, device_language = await asyncio.gather(
            self.prefs.load(self.library), platform_language(self.page))
        self.ctx.settings = self.settings
        locale = self.settings.locale or device_language
        self.ctx.translator = i18n.translator(locale)
        self.configure_page()
        route = client_route(self.page.route)
        self.note_route(route)
        self.render(route)

    # ---------------------------------------------------------------- routing
    def render(self, route: str) -> None:
        """Build and show the screen for ``route``."""
        route = client_route(route)
        self._wide = self.ctx.wide
        try:
            view = build_view(self.ctx, route)
        except Exception:  # noqa: BLE001 - a screen that fails shows a message, never a crash
            log.exception("screen %s failed", route)
            view = error_view(self.ctx, route)
        self.page.views.clear()
        self.page.views.append(view)
        self.page.update()

    async def navigate(self, route: str) -> None:
        if route == self.page.route:
            self.render(route)
            return
        await self.page.push_route(route)

    def note_route(self, route: str) -> None:
        """Keep :attr:`history` in step with the browser: a route equal to the one before the
        current is a step back (the arrow's, or the browser's back button); any other a step on."""
        if self._going_back is not None and route == self._going_back:
            self._going_back = None
            self.history.pop()
        elif len(self.history) >= 2 and route == self.history[-2]:
            self.history.pop()
        elif not self.history or route != self.history[-1]:
            self.history.append(route)

    async def go_back(self, up: str | None = None) -> None:
        """The AppBar arrow: the screen the judge came from; up to ``up`` (default: the parent
        screen in the route table) when there is none (the app was opened on this screen, e.g.
        from a deep link).

        In a browser the arrow is a step back through the browser's own history, as the back
        button or the phone's back gesture is, so it adds no entry for them to bounce back to:
        the page's script (:data:`handbook.ui.webclient.HISTORY_BACK`) answers the marked push
        with ``history.back()``, or, on the visit's first entry, by replacing it with ``up``.
        Elsewhere (a phone app), the screen before in this session's :attr:`history`."""
        up = up or parent_route(self.page.route) or "/"
        if getattr(self.page, "web", False):
            await self.page.push_route(back_step_route(up))
            return
        if len(self.history) >= 2:
            self._going_back = self.history[-2]
            await self.navigate(self._going_back)
            return
        await self.navigate(up)

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

    def suspend(self) -> None:
        """A new connection is taking up this disconnected session (before its page is sent):
        the judge's screen is locked (:func:`handbook.ui.gate.suspend`) and the screen built
        again, locked."""
        from handbook.ui import gate

        if gate.suspend(self.ctx):
            self.render(self.ctx.current_route())

    async def on_connect(self, e: Any = None) -> None:
        """The browser came back on a new connection: the judge's screen opens again when its
        storage holds the unlock token (:func:`handbook.ui.gate.resume`)."""
        from handbook.ui import gate

        if await gate.resume(self.ctx):
            self.render(self.ctx.current_route())

    def show_crash(self) -> None:
        """What the session shows when one of its handlers raised (the details are in the
        server's log, never in the browser): the plain-words screen of :func:`error_view`."""
        self.page.views.clear()
        self.page.views.append(error_view(self.ctx, self.ctx.route or "/"))
        self.page.update()

    def on_route_change(self, e: ft.RouteChangeEvent) -> None:
        route = client_route(getattr(e, "route", None) if getattr(e, "route", None) is not None
                             else self.page.route)
        self._route_seen = route
        if back_step_target(route) is not None:
            # the arrow's push: the page's script turns it into a step back, which reports the
            # route it lands on; a client without the script shows the arrow's target instead
            self.page.run_task(self._back_step_fallback, route)
            return
        self.note_route(route)
        if self._silent is not None and route == self._silent:
            # the screen already shows this state: only note the new address
            self._silent = None
            self._silent_seen.set()
            path, query = split_route(route)
            self.ctx.route, self.ctx.query = path, query
            return
        self._silent = None
        self.render(route)

    async def _back_step_fallback(self, route: str) -> None:
        """Show the back arrow's target when no step back followed its push within
        :data:`BACK_STEP_WAIT_S` (a web client without :data:`handbook.ui.webclient.HISTORY_BACK`)."""
        await asyncio.sleep(BACK_STEP_WAIT_S)
        if self._route_seen == route:
            target = back_step_target(route) or "/"
            log.warning("no step back followed the back arrow: showing %s", target)
            self.note_route(target)
            self.render(target)

    async def on_view_pop(self, e: ft.ViewPopEvent) -> None:
        await self.go_back()

    def on_resize(self, e: Any) -> None:
        # switch between the bottom bar and the side rail when the width crosses WIDE
        wide = self.ctx.wide
        if self._wide is not None and wide != self._wide:
            self.render(self.ctx.current_route())

    def on_locale_change(self, e: Any) -> None:
        """The phone's or browser's language changed: follow it unless the user chose one."""
        if self.settings.locale:
            return
        lang = i18n.preferred_language(
            "_".join(x for x in (loc.language_code, loc.country_code) if x) for loc in (e.locales or []))
        if lang != self.ctx.translator.language:
            self.ctx.translator = i18n.translator(lang)
            apply_locale(self.page, self.ctx.translator)
            self.render(self.ctx.current_route())

    def on_brightness(self, e: Any) -> None:
        if self.settings.theme == THEME_SYSTEM:
            self.render(self.ctx.current_route())


def client_route(route: object) -> str:
    """The route a client sent, as one the screens can take: text of at most
    :data:`MAX_ROUTE_CHARS` characters (anything else -- a number, a list, nothing -- is the
    search screen, ``"/"``)."""
    if not isinstance(route, str) or not route:
        return "/"
    return route[:MAX_ROUTE_CHARS]


def error_view(ctx: AppContext, route: str) -> ft.View:
    """What a screen that failed to build shows instead of a crash (the details go to the
    server's log, not to the browser)."""
    _ = ctx._
    return ctx.view(route=ctx.route, title=_("Something went wrong"), back="/", controls=[
        ft.Text(_("This screen could not be shown. Nothing was changed or lost."), size=16),
        ft.Text(client_route(route)[:200], size=14, selectable=True),
        ft.FilledButton(_("Go to search"), icon=ft.Icons.SEARCH, height=48,
                        on_click=lambda e: ctx.navigate("/")),
    ])


def create_app(library: Library | None = None, *, stores: Stores | None = None
               ) -> Callable[[ft.Page], Awaitable[None]]:
    """The app's ``main(page)`` for ``ft.run``, showing ``library`` (default: the shipped
    content, loaded once) and keeping user data in ``stores`` (default: the data folder, or the
    browser's SharedPreferences in the browser build), shared by every session of this app."""
    shared: list[Stores] = [stores] if stores is not None else []
    making = threading.Lock()

    def shared_stores(lib: Library) -> Stores:
        with making:
            if not shared:
                shared.append(Stores(lib))
        return shared[0]

    async def app_main(page: ft.Page) -> None:
        from handbook.ui.serving import install_crash_screen

        install_crash_screen()  # a crash shows the plain-words screen, never a traceback
        lib = library if library is not None else default_library()
        mark("content_ready")
        try:
            service: Any = ft.SharedPreferences()
        except Exception:  # noqa: BLE001 - no page context (tests)
            service = None
        # the address the server saw this session's websocket come from (set by PeerAddress in
        # the connection's task, which started this one), kept on the server side
        app = HandbookApp(page, lib, prefs=Preferences(service), stores=shared_stores(lib),
                          peer=access.peer())
        await app.start()
        mark("screen_built")
        # the search index is built after the first frame, before the first keystroke needs it
        await asyncio.sleep(0)
        lib.warm()
        await asyncio.sleep(0)
        warm_lemmatizer()
        # the content, its index and the lemmatiser live as long as the process: out of the
        # garbage collector's way from now on (the first session only)
        keep_loaded()

    def prepare() -> None:
        """What a session does before its first screen, done without one: load the content, make
        the theme and build the first screen once, off screen, for nobody -- which imports the
        modules it needs (Flet imports a control's module when the app first names it) and opens
        the study store it shows (recent lookups) in the shared :class:`Stores`."""
        lib = library if library is not None else default_library()
        make_theme()
        build_view(AppContext(page=_OffscreenPage(), library=lib, stores=shared_stores(lib)), "/")

    app_main.prepare = prepare  # type: ignore[attr-defined]
    return app_main


class _OffscreenPage:
    """The page of a screen built for nobody (:func:`prepare_first_session`): a phone's size."""

    width, height, route = 412, 915, "/"


#: ``main(page)`` with the shipped content.
main = create_app()


def prepare_first_session() -> None:
    """Do now what the first session of a new server would otherwise do while its browser
    waits for the first screen (``main.prepare()``): load the shipped content, import the theme's
    module (Flet's largest, ~75 ms) and build the first screen once for nobody, which imports the
    Flet controls it uses and opens the study store (~60 ms more) -- ~230 ms in all here, kept
    for every later session. :func:`serve` runs this in a thread once its port answers, while the
    browser is still starting Flutter (~1 s in which the server has little to do). The search
    index and the lemmatiser's dictionary are left to the session, after its first screen: done
    here too, they slowed the browser's start more than they saved (two cores)."""
    main.prepare()  # type: ignore[attr-defined]


def _prepare_when_answering(host: str, port: int, timeout: float = 60.0) -> None:
    """:func:`prepare_first_session` as soon as ``host:port`` takes connections (or never, when
    it does not within ``timeout`` seconds); errors are logged, never raised: a session does
    the same work itself."""
    import socket
    import time

    target = "127.0.0.1" if host in ("", "0.0.0.0") else "::1" if host == "::" else host
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            socket.create_connection((target, port), timeout=1.0).close()
            break
        except OSError:
            time.sleep(0.02)
    else:
        return
    try:
        prepare_first_session()
    except Exception:  # noqa: BLE001 - the first session will meet (and report) the same problem
        log.exception("preparing the first session failed")


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
    if getattr(FletStaticFiles.lookup_path, "handbook_patched", False):
        return True
    original = FletStaticFiles.lookup_path

    def lookup_path(self, path: str):
        full_path, stat_result = original(self, path)
        if stat_result is None and spa_fallback_wanted(path):
            return original(self, "index.html")
        return full_path, stat_result

    lookup_path.handbook_patched = True  # type: ignore[attr-defined]
    FletStaticFiles.lookup_path = lookup_path  # type: ignore[method-assign]
    return True


def serve(host: str = "127.0.0.1", port: int = 8550, passphrase: str | None = None,
          trusted_proxy: str | list[str] | None = None, allowed_origins: list[str] | None = None,
          max_sessions: int | None = None, max_sessions_per_address: int | None = None) -> None:
    """Serve the app as a local web server at http://host:port (no browser is opened; works
    offline: CanvasKit and fonts come from the local flet-web package, not a CDN).

    The judge's data (the ledger; study progress, bookmarks, recent lookups) asks for the judge
    passphrase (:mod:`handbook.access`) when ``passphrase`` or ``HANDBOOK_PASSPHRASE`` gives one,
    or when ``host`` is not a loopback address — then one is generated and printed here. Wrong
    answers are counted per peer address as the server's transport saw it; ``trusted_proxy``
    (addresses or networks, :func:`handbook.access.trusted_proxies`; default none) names the
    reverse proxies whose ``X-Forwarded-For`` is believed instead. ``ValueError`` for a
    passphrase shorter than 8 characters or a proxy that is not an address or network.

    The app's websocket takes pages of its own host only, and of ``allowed_origins`` (a reverse
    proxy's ``https://judge.example``); sessions are capped per address and in all
    (``max_sessions_per_address``, ``max_sessions``; defaults in
    :class:`handbook.ui.serving.HallGuard`); every page carries the security headers. See
    docs/security.md. ``ValueError`` for an origin that is not ``scheme://host[:port]`` or a cap
    below 1.

    A disconnected session is kept :data:`SESSION_TIMEOUT_S` seconds (10 minutes) unless
    ``FLET_SESSION_TIMEOUT`` in the environment says otherwise (read by Flet)."""
    proxies = access.trusted_proxies(trusted_proxy)
    from handbook.ui.serving import HallGuard

    guard = dict(origins=tuple(allowed_origins or ()), per_address=max_sessions_per_address,
                 total=max_sessions)
    HallGuard(None, **guard)  # a bad origin or cap is refused before anything starts
    setup = access.gate_for(host, passphrase)
    access.configure(setup.gate)
    if setup.generated:
        print(f"Judge passphrase for the ledger and study data: {setup.generated}\n"
              f"(served beyond this machine at {host}; choose your own with --passphrase or "
              f"{access.ENV_PASSPHRASE})", flush=True)
    elif setup.gate is not None:
        print("The ledger and study data ask for the judge passphrase you gave.", flush=True)
    install_spa_fallback()
    from handbook.ui import serving
    from handbook.ui.webclient import install_local_rive

    # sessions freed after a dropped socket, no traceback to a browser, no docs routes, no
    # trusted proxy headers, quiet disconnects (see handbook.ui.serving)
    serving.install()

    # Flet's client would fetch rive_native.js from a CDN on every load; the engine loads our font
    if install_local_rive():
        ENGINE_FONTS.add(FONT_FAMILY)
    threading.Thread(target=_prepare_when_answering, args=(host, port), daemon=True,
                     name="prepare-first-session").start()
    run_asgi(asgi_app(guard=guard), host, port, proxies)


def asgi_app(app_main: Callable[[ft.Page], Awaitable[None]] | None = None, *,
             guard: dict[str, Any] | None = None) -> Any:
    """The served app (``app_main``, default :data:`main`) as an ASGI application: Flet's own
    (static files, the websocket, uploads; :func:`handbook.ui.serving.web_app`, without
    FastAPI's docs routes, a disconnected session kept :data:`SESSION_TIMEOUT_S` seconds) inside
    :class:`handbook.access.PeerAddress`, so each session knows the address its websocket
    came from, inside :class:`handbook.ui.serving.HallGuard` (``guard``: its keyword arguments;
    the origin check, the session caps, the security headers)."""
    from handbook.ui.serving import HallGuard, install_resume_guard, install_session_owners, web_app

    install_session_owners()
    install_resume_guard()  # a resumed session stays locked until its browser shows the token
    return HallGuard(access.PeerAddress(web_app(app_main or main, assets_dir=str(ASSETS_DIR),
                                                session_timeout_seconds=SESSION_TIMEOUT_S)),
                     **(guard or {}))


def server_config(app: Any, host: str, port: int, trusted: tuple[str, ...] = ()) -> Any:
    """uvicorn's configuration for serving ``app`` at ``host:port`` as Flet's ``ft.run`` would
    (the same websocket implementation and log level), except for one setting: uvicorn believes
    ``X-Forwarded-For`` only from the ``trusted`` proxies — by default from none (uvicorn's own
    default trusts it from 127.0.0.1, so a client on the server's machine could name any
    address)."""
    import uvicorn

    flet_level = logging.getLogger("flet").getEffectiveLevel()
    if flet_level in (logging.CRITICAL, logging.NOTSET):
        flet_level = logging.CRITICAL
    return uvicorn.Config(app, host=host, port=port, ws="websockets-sansio",
                          log_level=logging.getLevelName(flet_level).lower(),
                          proxy_headers=bool(trusted), forwarded_allow_ips=list(trusted), server_header=False)


def run_asgi(app: Any, host: str, port: int, trusted: tuple[str, ...] = ()) -> None:
    """Serve ``app`` (:func:`server_config`) until interrupted; Ctrl+C ends it quietly (uvicorn
    shuts down, then raises the interrupt again)."""
    import uvicorn

    try:
        uvicorn.Server(server_config(app, host, port, trusted)).run()
    except KeyboardInterrupt:
        pass


__all__ = ["HandbookApp", "Preferences", "platform_language", "create_app", "main", "make_theme", "serve", "WIDE"]
