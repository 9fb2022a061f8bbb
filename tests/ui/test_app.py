"""The app object on a stub page: settings restored from SharedPreferences, routing, deep links,
the silent URL update of the search box; and the i18n helpers."""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path

import flet as ft
import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from tests.support.uihelpers import FakePrefs, StubPage, find

from handbook import i18n
from handbook.ui.context import screen_title
from handbook.paths import ASSETS_DIR
from handbook.ui.app import FONTS, HandbookApp, Preferences, create_app, install_spa_fallback, make_theme



def start(library, *, route="/", width=412, prefs=None):
    page = StubPage(width=width, route=route)
    app = HandbookApp(page, library, prefs=Preferences(prefs))
    asyncio.run(app.start())
    page.on_route_change = app.on_route_change
    return app, page


def test_start_configures_fonts_and_themes(library):
    app, page = start(library)
    assert page.fonts == FONTS == {"NotoSansJP": "fonts/NotoSansJP-Regular.ttf"}
    assert (ASSETS_DIR / FONTS["NotoSansJP"]).is_file()
    assert page.theme.font_family == page.dark_theme.font_family == "NotoSansJP"
    assert page.theme_mode == ft.ThemeMode.SYSTEM  # default follows the system
    assert page.title == "Riichi Judge Handbook"
    assert [v.route for v in page.views] == ["/"]


def test_deep_link_opens_that_screen(library):
    app, page = start(library, route="/rules/azrm/2.4")
    assert [v.route for v in page.views] == ["/rules/azrm/2.4"]
    assert screen_title(page.views[0]) == "AZRM §2.4"


def test_settings_restored_and_saved(library):
    prefs = FakePrefs({"rjh.ruleset": "azrm", "rjh.theme": "dark"})
    app, page = start(library, prefs=prefs)
    assert app.ctx.ruleset == "azrm"
    assert page.theme_mode == ft.ThemeMode.DARK
    picker = find(page.views[0], ft.Dropdown, label="Ruleset")[0]
    assert picker.value == "azrm"

    async def choose():
        app.ctx.set_ruleset("wrc-2025")
        app.ctx.set_theme("light")
        await asyncio.sleep(0.01)

    asyncio.run(choose())
    assert prefs.values["rjh.ruleset"] == "wrc-2025" and prefs.values["rjh.theme"] == "light"


def test_bad_or_missing_prefs_fall_back_to_defaults(library):
    app, page = start(library, prefs=FakePrefs({"rjh.ruleset": "gone", "rjh.theme": "purple"}))
    assert app.ctx.ruleset is None and page.theme_mode == ft.ThemeMode.SYSTEM
    app, page = start(library, prefs=FakePrefs(fail=True))
    assert app.ctx.ruleset is None and page.views


def test_route_change_rebuilds_and_back_goes_up(library):
    app, page = start(library)
    asyncio.run(app.navigate("/glossary/misehai"))
    assert page.pushed == ["/glossary/misehai"]
    assert page.views[0].route == "/glossary/misehai"
    # the browser's back button: the route changes, the screen follows
    app.on_route_change(type("E", (), {"route": "/rules/azrm"})())
    assert page.views[0].route == "/rules/azrm"


def test_silent_url_keeps_the_screen(library):
    app, page = start(library)
    view = page.views[0]
    asyncio.run(app.set_url("/search?q=kuikae"))
    assert page.pushed == ["/search?q=kuikae"]
    assert page.views[0] is view  # not rebuilt: the search box keeps its focus and text
    assert app.ctx.query == {"q": "kuikae"}
    app.on_route_change(type("E", (), {"route": "/"})())
    assert page.views[0] is not view


def test_resize_across_the_breakpoint_switches_navigation(library):
    app, page = start(library)
    assert page.views[0].navigation_bar is not None
    page.width = 1280
    app.on_resize(None)
    assert page.views[0].navigation_bar is None and find(page.views[0], ft.NavigationRail)


def test_create_app_returns_a_coroutine_function(library):
    main = create_app(library)
    assert asyncio.iscoroutinefunction(main)
    page = StubPage(route="/glossary")
    asyncio.run(main(page))
    assert page.views[0].route == "/glossary"


def test_themes_build():
    assert make_theme(False).font_family == make_theme(True).font_family == "NotoSansJP"


def test_spa_fallback_patch_installs():
    assert install_spa_fallback() is True
    assert install_spa_fallback() is True  # idempotent


# ----------------------------------------------------------------------------- i18n


@pytest.fixture
def ja_catalogue(tmp_path):
    cat = Catalog(locale="ja", domain="messages")
    cat.add("Search", "検索")
    cat.add("Theme: {choice}", "テーマ: {choice}")
    cat.add("System", "システム")
    path = tmp_path / "ja" / "LC_MESSAGES"
    path.mkdir(parents=True)
    with open(path / "messages.mo", "wb") as f:
        write_mo(f, cat)
    return tmp_path


def test_a_translator_switches_every_string(ja_catalogue, library):
    ja = i18n.translator("ja_JP", localedir=ja_catalogue)
    assert ja.locale == "ja_JP" and ja.language == "ja"
    assert ja("Search") == "検索"
    assert ja("Rules") == "Rules"  # untranslated: English source
    assert "ja" in i18n.available_locales(str(ja_catalogue))
    # screens pick it up from the context without changes
    from handbook.ui import screens
    from handbook.ui.context import AppContext

    ctx = AppContext(page=StubPage(), library=library, translator=ja)
    view = screens.build_view(ctx, "/")
    assert find(view, ft.TextField, label="検索")
    assert find(view, ft.IconButton, tooltip="テーマ: システム")
    assert view.navigation_bar.destinations[0].label == "検索"
    # nothing global changed: another session is still in English
    other = AppContext(page=StubPage(), library=library)
    assert screens.build_view(other, "/").navigation_bar.destinations[0].label == "Search"


def test_unknown_locale_falls_back_to_english():
    xx = i18n.translator("xx")
    assert xx.locale == "xx" and xx("Search") == "Search"
    assert xx.format_decimal(30000) == "30,000"  # Babel does not know it: English formats


def test_language_of_the_platform():
    assert i18n.language_of("ja-JP") == "ja" and i18n.language_of("en_GB") == "en"
    assert i18n.language_of("fr") == "en" and i18n.language_of(None) == "en"
    assert i18n.preferred_language(["fr-FR", "ja-JP", "en-US"]) == "ja"
    assert i18n.preferred_language(["de", None]) == "en"


def test_formatting_helpers():
    assert i18n.format_decimal(30000, locale="en") == "30,000"
    assert i18n.format_decimal(-2.5, locale="de") == "-2,5"
    d = datetime.date(2026, 4, 20)
    assert i18n.format_date(d, locale="en") == "Apr 20, 2026"
    assert i18n.format_date(d, locale="ja") == "2026/04/20"
    assert i18n.format_number(1000) == "1,000"
    assert i18n.translator("ja").format_date(d, "long") == "2026年4月20日"
    assert i18n.translator("de").format_decimal(-2.5) == "-2,5"


def test_rotating_keeps_what_was_typed(library):
    """A phone turned sideways crosses the desktop width: the screen is rebuilt with the rail,
    and the typed query and filters survive."""
    from tests.support.uihelpers import Event

    app, page = start(library)
    box = find(page.views[0], ft.TextField, label="Search")[0]
    box.value = "kuikae"
    box.on_change(Event(box))
    page.width = 915
    app.on_resize(None)
    assert find(page.views[0], ft.NavigationRail)
    assert find(page.views[0], ft.TextField, label="Search")[0].value == "kuikae"

    asyncio.run(app.navigate("/penalties/wrc-2025"))
    field = find(page.views[0], ft.TextField, label="Filter")[0]
    field.value = "chonbo"
    field.on_change(Event(field))
    switch = find(page.views[0], ft.Switch, label="Only differences")[0]
    switch.value = True
    asyncio.run(switch.on_change(Event(switch)))
    page.width = 412
    app.on_resize(None)
    view = page.views[0]
    assert view.navigation_bar is not None
    assert find(view, ft.TextField, label="Filter")[0].value == "chonbo"
    assert find(view, ft.Switch, label="Only differences")[0].value is True


def test_the_first_session_is_prepared_once_the_port_answers(monkeypatch):
    """serve's thread waits for the port to take connections, then prepares; a port that never
    answers (within the time given) prepares nothing."""
    import socket
    import threading

    import handbook.ui.app as app

    prepared = threading.Event()
    monkeypatch.setattr(app, "prepare_first_session", prepared.set)
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()
    app._prepare_when_answering("127.0.0.1", port, timeout=0.3)
    assert not prepared.is_set()

    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    waiting = threading.Thread(target=app._prepare_when_answering, args=("127.0.0.1", port, 10.0))
    waiting.start()
    assert not prepared.wait(0.2)          # bound but not listening yet: no connection taken
    listening.listen()
    waiting.join(10)
    listening.close()
    assert prepared.is_set()


def test_preparing_loads_what_the_first_screen_needs(tmp_path):
    """In a fresh interpreter (nothing imported by other tests): before preparing, the theme's
    and the first screen's modules are not imported, no content is loaded and no study store is
    open; after, they are, and a session's first screen then imports no module at all (a control
    added to the first screen is imported by preparing too)."""
    import os
    import subprocess
    import sys

    script = """
import sys
from tests.support.uihelpers import StubPage
from handbook.core import load
from handbook.ui import app
state = lambda: ("flet.controls.theme" in sys.modules, "handbook.ui.views.search" in sys.modules,
                 load.default_library.cache_info().currsize)
before = state()
app.prepare_first_session()
print(before, state())
from handbook.ui.context import AppContext
from handbook.ui.screens import build_view
from handbook.ui.context import screen_title
imported = set(sys.modules)
view = build_view(AppContext(page=StubPage(), library=load.default_library()), "/")
print(sorted(set(sys.modules) - imported), type(view).__name__)
"""
    env = {**os.environ, "HANDBOOK_DATA_DIR": str(tmp_path), "FLET_APP_STORAGE_DATA": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env,
                         cwd=Path(__file__).resolve().parents[2])  # `python -c` imports from its folder
    assert out.returncode == 0, out.stderr[-2000:]
    prepared, first_screen = out.stdout.splitlines()
    assert prepared.split() == ["(False,", "False,", "0)", "(True,", "True,", "1)"], out.stdout
    assert first_screen == "[] View", out.stdout
    assert (tmp_path / "study.json.lock").exists()   # its lock: the study store was opened in the data folder
