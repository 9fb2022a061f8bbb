"""What every view builder receives: :class:`AppContext`, plus the shared screen chrome.

A view builder is a plain function ``build(ctx: AppContext, **params) -> ft.View`` (see the
contract at the top of :mod:`handbook.ui.routes`). ``ctx.view(...)`` wraps a screen's controls in
the app's standard :class:`ft.View`: the AppBar (title, back button, theme switch) and the
navigation bar (bottom bar on a phone, a rail on a wide window), so every screen looks the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from handbook.core.model import Library
from handbook import access, i18n
from handbook.core.texts import Note
from handbook.i18n import Translator
from handbook.ui.routes import parent_route, section_root
from handbook.ui.stores import Stores

log = logging.getLogger(__name__)

#: Window width (logical px) from which the navigation bar becomes a side rail.
WIDE = 840
#: Most readable text column on a wide window.
MAX_CONTENT_WIDTH = 760
#: Smallest touch target (Material: 48 x 48 logical px).
TOUCH = 48

THEME_SYSTEM, THEME_LIGHT, THEME_DARK = "system", "light", "dark"


@dataclass
class Settings:
    """What the user chose, remembered across launches (SharedPreferences).

    ``ruleset`` is the chosen ruleset (tournament) id, ``None`` for all rulesets; ``theme`` is
    ``"system"`` (the default: follow the device), ``"light"`` or ``"dark"``; ``locale`` the UI
    language the user chose (``"en"``, ``"ja"``), ``None`` until they choose: the screens then
    follow the browser's or phone's language.
    """

    ruleset: str | None = None
    theme: str = THEME_SYSTEM
    locale: str | None = None

    #: SharedPreferences keys
    KEY_RULESET = "rjh.ruleset"
    KEY_THEME = "rjh.theme"
    KEY_LOCALE = "rjh.locale"


@dataclass(frozen=True)
class NavItem:
    """One destination of the navigation bar: ``label`` is also its accessible name."""

    label: str
    route: str
    icon: Any
    selected_icon: Any


def nav_items(_: Callable[[str], str] = i18n.ENGLISH) -> list[NavItem]:
    """The five destinations, in bar order (each a route without a parent in
    :data:`handbook.ui.routes.ROUTES`)."""
    return [
        NavItem(_("Search"), "/", ft.Icons.SEARCH_OUTLINED, ft.Icons.SEARCH),
        NavItem(_("Rules"), "/rules", ft.Icons.MENU_BOOK_OUTLINED, ft.Icons.MENU_BOOK),
        NavItem(_("Penalties"), "/penalties", ft.Icons.GAVEL_OUTLINED, ft.Icons.GAVEL),
        NavItem(_("Glossary"), "/glossary", ft.Icons.TRANSLATE_OUTLINED, ft.Icons.TRANSLATE),
        NavItem(_("Tools"), "/tools", ft.Icons.CALCULATE_OUTLINED, ft.Icons.CALCULATE),
    ]


def nav_index(route: str) -> int:
    """Which navigation destination ``route`` belongs to (0 = Search): the one at the top of its
    chain of parents in the route table."""
    root = section_root(route)
    for i, item in enumerate(nav_items(lambda s: s)):
        if item.route == root:
            return i
    return 0


@dataclass
class AppContext:
    """Everything a view builder may use.

    - ``page``: the :class:`ft.Page` (a stub in tests: only ``width``, ``views``, ``update()`` are
      relied on, plus ``push_route`` for navigation);
    - ``library``: the loaded content (:class:`handbook.Library`);
    - ``settings``: the remembered :class:`Settings`; ``ruleset`` is the chosen ruleset id or
      ``None`` for all rulesets;
    - ``_``: the session's :class:`handbook.i18n.Translator`: ``_("text")`` for every
      user-visible string, ``_.ngettext(...)`` for counts, ``_.format_date`` /
      ``_.format_decimal`` for dates and numbers in the session's locale (``translator`` holds
      it; each session has its own, so two browser tabs can show two languages);
    - ``route``: the current route path (no query), ``query``: its query parameters;
    - ``navigate(route)``: go to another screen (pushes browser history, so Back works);
    - ``await set_url(route)``: record ``route`` in the history without rebuilding the screen;
    - ``back()``: back to where the judge came from, else up to ``parent`` of the current screen;
    - ``refresh()``: rebuild the current screen (after changing settings);
    - ``set_ruleset(id | None)``, ``set_theme("system" | "light" | "dark")``,
      ``set_language("en" | "ja")``: change and remember;
    - ``view(...)``: the standard screen chrome (use it so all screens look alike);
    - ``judge``: this session gave the judge passphrase; ``judged``: it may see the judge's data
      (no gate is active, or it gave the passphrase: :mod:`handbook.access`);
    - ``peer``: the address this session's websocket came from, as the server saw it
      (:func:`handbook.access.peer`; ``""`` outside a served app) — never a page property;
    - ``stores``: the ledger and the study store (:class:`handbook.ui.stores.Stores`);
    - ``unlock_digest``, ``preferences``: what binds a given passphrase to this browser
      (:mod:`handbook.ui.gate`).
    """

    page: Any
    library: Library
    settings: Settings = field(default_factory=Settings)
    translator: Translator = i18n.ENGLISH
    route: str = "/"
    query: Mapping[str, str] = field(default_factory=dict)
    navigator: Callable[[str], Any] | None = None
    on_settings_change: Callable[[Settings], Any] | None = None
    refresher: Callable[[], Any] | None = None
    url_setter: Callable[[str], Any] | None = None
    #: this session gave the judge passphrase (handbook.access; see handbook.ui.gate)
    judge: bool = False
    #: the peer address the server saw when this session connected (handbook.access.peer)
    peer: str = ""
    #: the SHA-256 of the unlock token this session's browser holds, ``None`` until one was
    #: stored after the passphrase (handbook.access, "The unlock is bound to the browser")
    unlock_digest: bytes | None = None
    #: the browser's own storage (handbook.ui.app.Preferences: ``await get(key)``,
    #: ``await set(key, value)``); ``None`` in tests without one
    preferences: Any = None
    backer: Callable[[str | None], Any] | None = None
    #: this session's table and hanchan for the day's records ("day", "table", "hanchan"): the
    #: next "Record this ruling" starts with them (handbook.ui.views.record)
    desk: dict[str, str] = field(default_factory=dict)
    #: the ledger and the study store (one per app, shared by its sessions; tests pass their own)
    stores: Stores = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.stores is None:
            self.stores = Stores(self.library)

    # ----------------------------------------------------------------- state
    @property
    def _(self) -> Translator:
        """This session's translator: call it as gettext; ``.ngettext``, ``.format_date``,
        ``.format_decimal`` in the session's language."""
        return self.translator

    @property
    def locale(self) -> str:
        """The session's UI language ("en", "ja")."""
        return self.translator.locale

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The singular or plural translation for count ``n`` in the session's language."""
        return self.translator.ngettext(singular, plural, n)

    @property
    def judged(self) -> bool:
        """Whether this session may see the judge's data (the ledger; study progress, bookmarks
        and recent lookups): no gate is active, or the session gave the passphrase."""
        return access.current() is None or bool(self.judge)

    @property
    def ruleset(self) -> str | None:
        """The chosen ruleset (tournament) id, ``None`` when all rulesets are searched."""
        rs = self.settings.ruleset
        return rs if rs in self.library.rulesets else None

    @property
    def wide(self) -> bool:
        """True on a desktop-width window (navigation rail instead of the bottom bar)."""
        width = getattr(self.page, "width", None)
        return bool(width) and width >= WIDE

    @property
    def dark(self) -> bool:
        """Whether the dark theme is showing now (the system's choice unless the user chose)."""
        if self.settings.theme == THEME_DARK:
            return True
        if self.settings.theme == THEME_LIGHT:
            return False
        brightness = getattr(self.page, "platform_brightness", None)
        return brightness == ft.Brightness.DARK

    def short(self, ruleset_id: str | None) -> str:
        """A ruleset's short name ("AZRM"), or "All rulesets" for ``None``."""
        if ruleset_id is None:
            return self._("All rulesets")
        rs = self.library.rulesets.get(ruleset_id)
        return rs.short if rs else ruleset_id

    def hb(self, text: str | None) -> str | None:
        """The handbook's own words in the session's language: a sentence built in code
        (:class:`handbook.core.texts.Note`) through the screens' catalog, its fields in turn;
        a content text through ``content/<lang>/handbook.toml``. The sources' words (not in the
        translations) and English stay as they are."""
        if text is None:
            return None
        if isinstance(text, Note):
            fields = {k: self.hb(v) if isinstance(v, str) else v for k, v in text.fields.items()}
            return self._(text.template).format(**fields)
        lang = self._.language
        if lang == "en":
            return text
        return self.library.translations.get(lang, {}).get(text.strip(), text)

    def label(self, ruleset_id: str) -> str:
        """A ruleset's name with the edition its text is, in the session's language
        ("EMA RCR — text before 2016", "EMA RCR — 2016年より前の原文")."""
        rs = self.library.rulesets[ruleset_id]
        return f"{rs.short} — {self.hb(rs.edition_short)}" if rs.edition_short else rs.short

    # ------------------------------------------------------------ navigation
    def navigate(self, route: str) -> None:
        """Show ``route`` ("/rules/azrm/2.4"); adds a browser-history entry."""
        if self.navigator is not None:
            _run(self.navigator(route))
            return
        push = getattr(self.page, "push_route", None)
        if push is not None:
            _run(push(route))

    def remember(self, **state: str | None) -> None:
        """Keep a screen's live state (the typed query, a filter) in ``query`` so that a rebuild
        of the same screen — the window crossing the phone/desktop width, the system theme
        changing — shows it again. ``None`` or "" forgets a key. The address bar is unchanged."""
        q = dict(self.query)
        for k, v in state.items():
            if v:
                q[k] = v
            else:
                q.pop(k, None)
        self.query = q

    def current_route(self) -> str:
        """The current screen's route with its remembered state as the query."""
        from urllib.parse import urlencode

        return self.route + ("?" + urlencode(self.query) if self.query else "")

    async def set_url(self, route: str) -> None:
        """Put ``route`` in the address bar and the history *without* rebuilding the screen
        (the search box records its query this way, so Back returns to the results)."""
        if self.url_setter is not None:
            result = self.url_setter(route)
            if inspect.isawaitable(result):
                await result

    def back(self, up: str | None = None) -> None:
        """The AppBar arrow: back to the screen the judge came from (the app's ``backer``: a step
        back through the browser's history, or the in-app history in a phone app); up to ``up``
        (default: the parent screen) when there is none (a deep link)."""
        if self.backer is not None:
            _run(self.backer(up))
            return
        self.navigate(up or parent_route(self.route) or "/")

    def refresh(self) -> None:
        """Rebuild the current screen."""
        if self.refresher is not None:
            _run(self.refresher())

    def set_ruleset(self, ruleset_id: str | None) -> None:
        """Choose the ruleset (tournament) searches are narrowed to; ``None`` for all. Remembered."""
        if ruleset_id is not None and ruleset_id not in self.library.rulesets:
            raise ValueError(f"ruleset: unknown ruleset {ruleset_id!r}")
        self.settings.ruleset = ruleset_id
        self._settings_changed()

    def set_theme(self, theme: str) -> None:
        """``"system"``, ``"light"`` or ``"dark"``; applied at once and remembered."""
        if theme not in (THEME_SYSTEM, THEME_LIGHT, THEME_DARK):
            raise ValueError(f"theme: must be 'system', 'light' or 'dark', got {theme!r}")
        self.settings.theme = theme
        if hasattr(self.page, "theme_mode"):
            self.page.theme_mode = theme_mode(theme)
        self._settings_changed()

    def set_language(self, locale: str) -> None:
        """Show this session in ``locale`` (one of :data:`handbook.i18n.SUPPORTED_LOCALES`) and
        remember it on the device; the current screen is rebuilt in that language. Other
        sessions (browser tabs) keep theirs. ``ValueError`` for a language the UI does not offer."""
        if locale not in i18n.SUPPORTED_LOCALES:
            raise ValueError(f"locale: must be one of {', '.join(i18n.SUPPORTED_LOCALES)}, got {locale!r}")
        self.settings.locale = locale
        self.translator = i18n.translator(locale)
        apply_locale(self.page, self.translator)
        self._settings_changed()
        self.refresh()

    def _settings_changed(self) -> None:
        if self.on_settings_change is not None:
            _run(self.on_settings_change(self.settings))

    # ---------------------------------------------------------------- chrome
    def theme_label(self) -> str:
        """The theme button's accessible name, the choice included: "Theme: System"."""
        _ = self._
        names = {THEME_LIGHT: _("Light"), THEME_DARK: _("Dark"), THEME_SYSTEM: _("System")}
        return _("Theme: {choice}").format(choice=names.get(self.settings.theme, names[THEME_SYSTEM]))

    def theme_switch(self) -> ft.Control:
        """The AppBar's theme button (48 x 48, accessible name "Theme: System" / "Theme: Light" /
        "Theme: Dark"): opens a choice of Light, Dark and System (follow the device), remembered."""
        _ = self._
        icons = {THEME_LIGHT: ft.Icons.LIGHT_MODE_OUTLINED, THEME_DARK: ft.Icons.DARK_MODE_OUTLINED,
                 THEME_SYSTEM: ft.Icons.BRIGHTNESS_AUTO_OUTLINED}

        def choose(theme: str) -> None:
            self.set_theme(theme)
            with contextlib.suppress(Exception):
                self.page.pop_dialog()
            button.icon = icons[theme]
            button.tooltip = wrapper.label = self.theme_label()
            with contextlib.suppress(Exception):
                self.page.update()

        def open_choice(e=None) -> None:
            options = []
            for theme, name in ((THEME_LIGHT, _("Light")), (THEME_DARK, _("Dark")),
                                (THEME_SYSTEM, _("System (follow the device)"))):
                chosen = self.settings.theme == theme
                options.append(ft.Semantics(
                    selected=chosen, button=True, label=name, exclude_semantics=True,
                    on_tap=lambda e, t=theme: choose(t),
                    content=ft.ListTile(
                        leading=ft.Icon(icons[theme]), title=ft.Text(name),
                        trailing=ft.Icon(ft.Icons.CHECK) if chosen else None, selected=chosen,
                        min_height=56, on_click=lambda e, t=theme: choose(t), key=f"theme-{theme}")))
            dialog = ft.AlertDialog(title=ft.Text(_("Theme")), content=ft.Column(options, tight=True, spacing=0),
                                    actions=[ft.TextButton(_("Cancel"), height=TOUCH,
                                                           on_click=lambda e: self.page.pop_dialog())])
            self.page.show_dialog(dialog)

        button = ft.IconButton(icon=icons.get(self.settings.theme, icons[THEME_SYSTEM]),
                               tooltip=self.theme_label(), on_click=open_choice, key="theme-switch")
        wrapper = labelled(button, on_tap=open_choice)
        return wrapper

    def language_label(self) -> str:
        """The language button's accessible name and tooltip: what it does, said in the language
        it switches to ("日本語で表示" on an English screen, "Show in English" on a Japanese one),
        so a reader who cannot read the screen's language still finds their own."""
        return i18n.SWITCH_TO[self.next_language()]

    def next_language(self) -> str:
        """The language the language button switches to (the next of the offered ones)."""
        offered = i18n.SUPPORTED_LOCALES
        here = self.translator.language
        return offered[(offered.index(here) + 1) % len(offered)] if here in offered else offered[0]

    def language_switch(self) -> ft.Control:
        """The AppBar's language button (48 x 48, a globe): one tap shows this session in the
        other language (English ⇄ 日本語) and remembers the choice on the device. A toggle rather
        than a menu: two languages, one hand, and a dialog closing while the locale changes
        under it was seen to stay on screen in Flutter web."""
        def switch(e=None) -> None:
            self.set_language(self.next_language())

        button = ft.IconButton(icon=ft.Icons.LANGUAGE, tooltip=self.language_label(),
                               on_click=switch, key="language-switch")
        return labelled(button, on_tap=switch)

    def back_button(self, target: str | None = None) -> ft.Control:
        """An AppBar back arrow (accessible name "Back"): back to where the judge came from, or
        up to ``target`` (default: the parent screen) when the app was opened on this screen."""
        def go(_e=None):
            self.back(target)

        return labelled(ft.IconButton(icon=ft.Icons.ARROW_BACK, tooltip=self._("Back"), on_click=go),
                        on_tap=go)

    def navigation_bar(self) -> ft.NavigationBar:
        """The bottom bar: Search, Rules, Penalties, Glossary, Tools."""
        items = nav_items(self._)

        def change(e):
            self.navigate(items[int(e.control.selected_index)].route)

        return ft.NavigationBar(
            selected_index=nav_index(self.route),
            destinations=[
                ft.NavigationBarDestination(icon=i.icon, selected_icon=i.selected_icon, label=i.label)
                for i in items
            ],
            on_change=change,
            label_behavior=ft.NavigationBarLabelBehavior.ALWAYS_SHOW,
        )

    def navigation_rail(self) -> ft.NavigationRail:
        """The same destinations as a side rail for wide windows."""
        items = nav_items(self._)

        def change(e):
            self.navigate(items[int(e.control.selected_index)].route)

        return ft.NavigationRail(
            selected_index=nav_index(self.route),
            label_type=ft.NavigationRailLabelType.ALL,
            destinations=[
                ft.NavigationRailDestination(icon=i.icon, selected_icon=i.selected_icon, label=i.label)
                for i in items
            ],
            on_change=change,
            min_width=88,
        )

    def view(
        self,
        route: str,
        title: str,
        controls: Sequence[ft.Control],
        *,
        back: bool | str = True,
        actions: Sequence[ft.Control] = (),
        header: Sequence[ft.Control] = (),
        scroll: bool = True,
        floating_action_button: ft.FloatingActionButton | None = None,
        bar: ft.Control | None = None,
    ) -> ft.View:
        """The standard screen: the AppBar (back arrow, ``actions``, language and theme switches)
        with the ``title`` under it (:func:`title_bar`), the
        ``header`` controls fixed at the top, then ``controls`` in a scrolling list (``scroll``)
        or a plain column, and the navigation bar or rail.

        ``back``: ``True`` for an arrow back (up to the parent route after a deep link), a route
        string for the screen to go up to instead of the parent, ``False`` for none (top-level screens).
        ``bar``: the screen's own :func:`title_bar` of ``title``, for a screen that hides it at times.
        """
        leading = None
        if back:
            leading = self.back_button(back if isinstance(back, str) else None)
        appbar = ft.AppBar(
            leading=leading,
            automatically_imply_leading=False,
            actions=[*actions, self.language_switch(), self.theme_switch()],
        )
        # the title scrolls away with the screen (at 200 % text a long one takes several lines);
        # above fixed controls (a search or filter box) it stays with them
        bar = bar or title_bar(title)
        fixed = [bar, *header] if header else []
        listed = list(controls) if header else [bar, *controls]
        if scroll:
            body: ft.Control = ft.ListView(controls=listed, expand=True, spacing=4,
                                           padding=ft.Padding.only(top=0 if header else 4, bottom=24), key="body")
        else:
            body = ft.Column(controls=listed, expand=True, spacing=4)
        column = ft.Column(controls=[*fixed, body], expand=True, spacing=8,
                           horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        content: ft.Control = ft.Container(
            content=column, expand=True, padding=ft.Padding.symmetric(horizontal=12, vertical=0))
        if self.wide:
            centred = ft.Row(
                controls=[ft.Container(content=column, width=MAX_CONTENT_WIDTH,
                                       padding=ft.Padding.symmetric(horizontal=16, vertical=0))],
                alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.STRETCH,
                expand=True,
            )
            body_row = ft.Row(
                controls=[self.navigation_rail(), ft.VerticalDivider(width=1), centred],
                expand=True, spacing=0, vertical_alignment=ft.CrossAxisAlignment.STRETCH,
            )
            return ft.View(route=route, appbar=appbar, controls=[body_row], padding=0, spacing=0)
        return ft.View(route=route, appbar=appbar, controls=[content], padding=0, spacing=0,
                       navigation_bar=self.navigation_bar())


#: the size of a screen's title under the AppBar (Material's title-large)
TITLE_SIZE = 22


def title_bar(title: str) -> ft.Control:
    """The screen's title, under the AppBar's icons, scrolling with the screen (Material's
    "large top app bar" without the collapsing): Flutter's
    AppBar has a fixed 56 px toolbar that cuts a title beside the icons to one line ("Rakkii Nomi
    20…", "リーチ麻雀 審判ハンドブ…" -- the app's own name) and at 200 % text to a word or two. Here
    the title has the window's width and wraps (at word boundaries; Japanese at the space between
    phrases), at any text size. Announced as a heading; :func:`screen_title` reads it."""
    return ft.Semantics(header=True, key="title-bar", content=ft.Container(
        ft.Text(title, size=TITLE_SIZE, weight=ft.FontWeight.W_500, key="title"),
        padding=ft.Padding.only(left=4, right=4, bottom=4)))


def screen_title(view: ft.View) -> str | None:
    """The title a view built by :meth:`AppContext.view` shows at its top (:func:`title_bar`)."""
    todo: list[Any] = list(view.controls or [])
    while todo:
        c = todo.pop(0)
        if isinstance(c, ft.Text) and c.key == "title":
            return c.value
        content = getattr(c, "content", None)
        if content is not None:
            todo.append(content)
        todo.extend(getattr(c, "controls", None) or [])
    return None


def labelled(button: ft.IconButton, *, on_tap: Callable | None = None,
             toggled: bool | None = None) -> ft.Semantics:
    """``button`` announced as one button named by its tooltip.

    Flutter web does not name an IconButton after its tooltip, so screen readers (and browser
    tests) would find an unnamed button. The wrapper carries the name and the tap action; a
    pointer tap still reaches the button itself.
    """
    button.width = button.width or TOUCH
    button.height = button.height or TOUCH
    return ft.Semantics(label=button.tooltip if isinstance(button.tooltip, str) else None, button=True,
                        toggled=toggled, exclude_semantics=True, on_tap=on_tap, content=button)


def apply_locale(page: Any, translator: Translator) -> None:
    """Tell Flutter the session's language: Material's own texts (date picker, "OK", tooltips)
    and the text shaping follow ``page.locale_configuration``; the tab's title too."""
    if page is None:
        return
    supported = [ft.Locale("en", "US"), ft.Locale("ja", "JP")]
    current = supported[1] if translator.language == "ja" else supported[0]
    page.locale_configuration = ft.LocaleConfiguration(supported_locales=supported, current_locale=current)
    page.title = translator("Riichi Judge Handbook")


def theme_mode(theme: str) -> ft.ThemeMode:
    return {THEME_LIGHT: ft.ThemeMode.LIGHT, THEME_DARK: ft.ThemeMode.DARK}.get(theme, ft.ThemeMode.SYSTEM)


def _run(result: Any) -> None:
    """Run ``result`` if it is awaitable (on the running loop), else nothing."""
    if inspect.isawaitable(result):
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            asyncio.run(_await(result))
            return
        loop.create_task(_await(result))


async def _await(aw: Any) -> None:
    try:
        await aw
    except Exception:  # pragma: no cover - logged, never crashes the UI
        log.exception("background task failed")


def heading(text: str, *, level: int = 2, size: int | None = None, **kw: Any) -> ft.Control:
    """A section heading that screen readers announce as one."""
    sizes = {1: 22, 2: 18, 3: 16}
    return ft.Semantics(
        header=True, heading_level=level,
        content=ft.Text(text, size=size or sizes.get(level, 16), weight=ft.FontWeight.W_600, **kw))


def tile(title: str, *, subtitle: str | None = None, on_click: Callable | None = None,
         leading: Any = None, trailing: Any = None, key: str | None = None,
         tooltip: str | None = None) -> ft.ListTile:
    """A tappable list row at least 56 px high (accessible name: its title, then subtitle)."""
    return ft.ListTile(
        title=ft.Text(title),
        subtitle=ft.Text(subtitle) if subtitle else None,
        leading=leading,
        trailing=trailing,
        on_click=on_click,
        min_height=56,
        key=key,
        tooltip=tooltip,
    )
