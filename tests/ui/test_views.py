"""Every screen built as the app builds it (stub page): key controls, accessible names, links,
and a serialisation pass through Flet's own patch encoder."""

from __future__ import annotations

import asyncio

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack
from tests.support.uihelpers import Event, StubPage, find, texts, walk

from handbook.ui import routes, screens
from handbook.ui.context import AppContext
from handbook.ui.context import screen_title

#: every screen of the route table (its example path), then more content on the same screens
ALL_ROUTES = [r.sample for r in (*routes.ROUTES, routes.NOT_FOUND)] + [
    "/search?q=empty%20call", "/rules/ema-rcr", "/rules/rakkii-nomi-2026", "/rules/wrc-2025",
    "/rules/ema-rcr/3.4.6", "/penalties/wrc-2025-lower", "/penalties/rakkii-nomi-2026", "/penalties/azrm",
    "/penalties/ema-rcr", "/glossary/kui-kae", "/rules/azrm/editions", "/rules/wrc-2025/editions",
    "/rules/wrc-2025-lower/editions", "/rules/rakkii-nomi-2026/editions", "/glossary/dead-hand",
    "/penalties/ema-rcr/calling-with-dead-hand", "/tools/chombo?ruleset=ema-rcr",
]


def build(ctx, route):
    return screens.build_view(ctx, route)


@pytest.mark.parametrize("route", ALL_ROUTES)
def test_every_screen_builds_and_serialises(ctx, route):
    view = build(ctx, route)
    assert isinstance(view, ft.View)
    assert view.route == routes.split_route(route)[0]
    assert isinstance(view.appbar, ft.AppBar) and screen_title(view)
    # phone width: the bottom bar with the five destinations
    assert [d.label for d in view.navigation_bar.destinations] == [
        "Search", "Rules", "Penalties", "Glossary", "Tools"]
    assert find(view.appbar, ft.IconButton, tooltip="Theme: System")
    # icon buttons are announced by name (Flutter web ignores an IconButton's tooltip)
    assert find(view.appbar, ft.Semantics, label="Theme: System", button=True)
    patch, added, _ = ObjectPatch.from_diff(None, view, control_cls=BaseControl)
    for c in added:
        c.before_update()  # Flet's own validation of every control
    assert msgpack.packb(patch.to_message(), default=configure_encode_object_for_msgpack(BaseControl))


def test_wide_window_uses_a_rail(library):
    ctx = AppContext(page=StubPage(width=1280, height=800), library=library)
    view = build(ctx, "/rules/azrm/2.4")
    assert view.navigation_bar is None
    rail = find(view, ft.NavigationRail)[0]
    assert [d.label for d in rail.destinations] == ["Search", "Rules", "Penalties", "Glossary", "Tools"]
    assert rail.selected_index == 1


def test_unknown_entries_show_not_found(ctx):
    for route in ("/rules/azrm/99.9", "/rules/nope", "/glossary/nope", "/penalties/azrm/nope"):
        view = build(ctx, route)
        assert screen_title(view) == "Not found", route


def test_home_has_search_box_and_ruleset_picker(ctx, library):
    view = build(ctx, "/")
    box = find(view, ft.TextField, label="Search")[0]
    assert box.autofocus
    assert find(build(ctx, "/search?q=x"), ft.TextField, label="Search")[0].autofocus
    picker = find(view, ft.Dropdown, label="Ruleset")[0]
    assert find(view, ft.Semantics, label="Ruleset: All rulesets")[0].content is picker
    assert [o.text for o in picker.options] == ["All rulesets", *[rs.short for rs in library.rulesets.values()]]
    assert picker.value == "__all__"
    assert view.appbar.leading is None  # top-level screen: no back arrow


def test_typing_shows_one_ranked_list_with_each_kind_labelled(ctx):
    view = build(ctx, "/")
    box = find(view, ft.TextField, label="Search")[0]
    box.value = "見せ牌"
    box.on_change(Event(box))
    shown = texts(view)
    assert {"PENALTY", "RULE", "TERM"} <= set(shown)
    assert not any(s.startswith(("Rules (", "Penalties (", "Glossary (")) for s in shown)  # no groups
    assert "AZRM" in shown and "§2.4" in shown and "見せ牌" in shown
    tiles = [t for t in find(view, ft.ListTile) if t.data == "/rules/azrm/2.4"]
    assert tiles


def test_search_route_prefills_and_shows_penalty_text(ctx, library):
    view = build(ctx, "/search?q=revealed%20tiles")
    assert find(view, ft.TextField, label="Search")[0].value == "revealed tiles"
    shown = texts(view)
    assert shown.index("PENALTY") < shown.index("RULE")  # the core's first hit, a penalty, comes first
    row = library.rulesets["azrm"].rows("revealed-tiles")[1]  # 1 or 2 tiles: the row the bare words fit first
    assert row.penalty in shown


def test_show_all_expands_a_group(ctx):
    view = build(ctx, "/search?q=riichi")
    more = [b for b in find(view, ft.TextButton) if str(b.content).startswith("Show all")]
    assert more
    before = len(find(view, ft.ListTile))
    more[0].on_click(Event(more[0]))
    assert len(find(view, ft.ListTile)) > before


def test_choosing_a_ruleset_filters_and_is_remembered(ctx):
    view = build(ctx, "/search?q=empty%20call")
    picker = find(view, ft.Dropdown, label="Ruleset")[0]
    picker.value = "ema-rcr"
    picker.on_select(Event(picker))
    assert ctx.settings.ruleset == "ema-rcr" and ctx.saved  # saved through on_settings_change
    assert find(view, ft.Semantics, label="Ruleset: EMA RCR")  # the picker names the choice
    def result_texts():
        return [x for t in find(view, ft.ListTile) for x in texts(t)]

    shown = result_texts()
    assert "EMA RCR" in shown and "AZRM" not in shown
    picker.value = "__all__"
    picker.on_select(Event(picker))
    assert ctx.ruleset is None
    assert "AZRM" in result_texts()


def test_tapping_a_result_records_the_query_then_opens_it(ctx, page, navigated):
    recorded: list[str] = []
    ctx.url_setter = recorded.append
    view = build(ctx, "/")
    box = find(view, ft.TextField, label="Search")[0]
    box.value = "見せ牌"
    box.on_change(Event(box))
    tile = [t for t in find(view, ft.ListTile) if t.data == "/rules/azrm/2.4"][0]
    import asyncio
    import inspect
    assert inspect.iscoroutinefunction(tile.on_click)  # Flet awaits only coroutine functions
    asyncio.run(tile.on_click(Event(tile)))
    assert recorded == ["/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C"]
    assert navigated == ["/rules/azrm/2.4"]


def test_section_page(ctx, library, navigated):
    view = build(ctx, "/rules/azrm/2.4")
    shown = texts(view)
    for s in ("§2.4", "Wrongly revealing tiles", "見せ牌", "AZRM"):
        assert s in shown
    assert "4 penalties cite §2.4" in shown  # the count in words, not "(4)" after the reference
    assert "Chombo 30P" in shown and "Adds a Strike" in shown
    assert "Misehai" in shown  # glossary term citing the section
    assert screen_title(view) == "AZRM §2.4"
    back = view.appbar.leading
    assert isinstance(back, ft.Semantics) and back.label == "Back" and back.button
    assert back.content.tooltip == "Back"
    back.content.on_click(Event(back.content))  # a pointer tap
    assert navigated[-1] == "/rules/azrm"
    back.on_tap(Event(back))  # a screen reader's tap
    assert navigated[-2:] == ["/rules/azrm", "/rules/azrm"]


def test_section_links_are_tappable(ctx, navigated):
    view = build(ctx, "/rules/azrm/6.1")
    # the reference is marked in the text, and tapped on a 48-px button under it: a link inside
    # a line of text is only as tall as the line (issue 47)
    refs = [s for s in walk(view) if isinstance(s, ft.TextSpan) and s.text == "§4.1"]
    assert refs and not [s for s in walk(view) if isinstance(s, ft.TextSpan) and s.on_click]
    links = [b for b in find(view, ft.TextButton) if (b.data or "").startswith("/rules/")]
    assert [(b.content.value, b.data) for b in links] == [("§4.1", "/rules/azrm/4.1")]
    links[0].on_click(Event(links[0]))
    assert navigated == ["/rules/azrm/4.1"]
    # also listed as a full-size row below the text
    assert [t for t in find(view, ft.ListTile) if t.data == "/rules/azrm/4.1"]


def test_ruleset_page_lists_chapters_with_japanese(ctx, library):
    view = build(ctx, "/rules/azrm")
    shown = texts(view)
    assert "2. Shuffling and Drawing" in shown
    assert "§2.4  Wrongly revealing tiles" in shown and "見せ牌" in shown
    routes_listed = [t.data for t in find(view, ft.ListTile) if (t.data or "").startswith("/rules/azrm/")]
    assert routes_listed == ["/rules/azrm/editions"] + [f"/rules/azrm/{s.ref}" for s in library.rulesets["azrm"].sections]


def test_wrc_table_side_by_side_with_differences_marked(ctx, library):
    view = build(ctx, "/penalties/wrc-2025")
    rows = library.rulesets["wrc-2025"].penalties
    shown = texts(view)
    assert shown.count("World Championship") >= len(rows) and shown.count("Lower") >= len(rows)
    assert shown.count("Differs") == sum(r.differs for r in rows)
    assert find(view, ft.TextField, label="Filter")
    switch = find(view, ft.Switch, label="Only differences")[0]
    switch.value = True
    asyncio.run(switch.on_change(Event(switch)))
    assert f"{sum(r.differs for r in rows)} of {len(rows)} rows" in texts(view)
    field = find(view, ft.TextField, label="Filter")[0]
    field.value = "qqqq"
    field.on_change(Event(field))
    assert "No rows match the filter." in texts(view)


def test_one_column_table_has_no_column_labels(ctx):
    shown = texts(build(ctx, "/penalties/azrm"))
    assert "World Championship" not in shown and "Differs" not in shown
    assert "Strike" in shown


def test_foul_page_compares_rulesets(ctx, library):
    view = build(ctx, "/penalties/wrc-2025/revealed-tiles")
    shown = texts(view)
    # the count is of the rows shown under it, not of the rulesets
    others = {t.data for t in find(view, ft.ListTile)}
    shown_rows = [t for t in find(view, ft.ListTile)
                  if (t.data or "").startswith("/penalties/") and "/wrc-2025/" not in t.data]
    assert f"Same foul in other rulesets ({len(shown_rows)})" in shown and len(shown_rows) > 4
    assert {"/penalties/azrm/revealed-tiles", "/penalties/ema-rcr/revealed-tiles",
            "/penalties/wrc-2025-lower/revealed-tiles"} <= others
    azrm = build(ctx, "/penalties/azrm/revealed-tiles")
    assert [t for t in find(azrm, ft.ListTile) if t.data == "/rules/azrm/2.4"]  # read §2.4


def test_glossary_filter_and_term(ctx, library):
    view = build(ctx, "/glossary")
    assert f"{len(library.glossary)} of {len(library.glossary)} terms" in texts(view)
    field = find(view, ft.TextField, label="Filter")[0]
    field.value = "くいかえ"
    field.on_change(Event(field))
    assert [t.data for t in find(view, ft.ListTile)] == ["/glossary/kui-kae"]
    term = build(ctx, "/glossary/misehai")
    shown = texts(term)
    for s in ("Misehai", "見せ牌", "みせはい", "Definition", "Explanation", "See also (4)"):
        assert s in shown
    links = {b.content.value for b in find(term, ft.TextButton) if (b.data or "").startswith("/rules/")}
    assert {"AZRM §2.4", "§2.4"} <= links
    assert [t for t in find(term, ft.ListTile) if t.data == "/rules/azrm/2.4"]
    assert [t for t in find(term, ft.ListTile) if t.data == "/glossary/wall"]


def _choose_theme(page, view, name: str) -> None:
    """Open the theme button's choice and tap ``name``."""
    button = [b for b in find(view.appbar, ft.IconButton) if (b.tooltip or "").startswith("Theme: ")][0]
    button.on_click(Event(button))
    dialog = page.dialogs[-1]
    assert dialog.open
    option = [o for o in find(dialog, ft.Semantics) if o.label == name][0]
    option.on_tap(Event(option))
    assert not dialog.open


def test_theme_choice_light_dark_and_back_to_the_system(ctx, page):
    view = build(ctx, "/")
    assert ctx.settings.theme == "system" and find(view.appbar, ft.Semantics, label="Theme: System")
    _choose_theme(page, view, "Dark")
    assert ctx.settings.theme == "dark" and page.theme_mode == ft.ThemeMode.DARK
    assert ctx.saved[-1].theme == "dark"
    assert find(view.appbar, ft.Semantics, label="Theme: Dark")  # the name says the choice
    # the way back to following the device, remembered too
    _choose_theme(page, view, "System (follow the device)")
    assert ctx.settings.theme == "system" and page.theme_mode == ft.ThemeMode.SYSTEM
    assert ctx.saved[-1].theme == "system"
    _choose_theme(page, view, "Light")
    assert page.theme_mode == ft.ThemeMode.LIGHT and ctx.saved[-1].theme == "light"
    # every option a thumb can hit, the chosen one marked for screen readers
    button = find(view.appbar, ft.IconButton, tooltip="Theme: Light")[0]
    assert button.width >= 48 and button.height >= 48
    button.on_click(Event(button))
    options = {o.label: o for o in find(page.dialogs[-1], ft.Semantics) if o.button}
    assert set(options) == {"Light", "Dark", "System (follow the device)"}
    assert [n for n, o in options.items() if o.selected] == ["Light"]
    assert all(t.min_height >= 48 for t in find(page.dialogs[-1], ft.ListTile))


def test_touch_targets(ctx):
    for route in ("/", "/search?q=chombo", "/rules/azrm", "/penalties/wrc-2025", "/glossary"):
        view = build(ctx, route)
        for tile in find(view, ft.ListTile):
            if tile.on_click:
                assert (tile.min_height or 0) >= 48, route
        for b in find(view, ft.TextButton) + find(view, ft.OutlinedButton):
            assert (b.height or 48) >= 48, route


def test_enter_records_the_query_without_rebuilding(ctx, navigated):
    import asyncio
    recorded: list[str] = []
    ctx.url_setter = recorded.append
    view = build(ctx, "/")
    box = find(view, ft.TextField, label="Search")[0]
    box.value = "kuikae "
    asyncio.run(box.on_submit(Event(box)))
    assert recorded == ["/search?q=kuikae"] and navigated == []


def test_chapter_text_is_shown(ctx, library):
    ema = library.rulesets["ema-rcr"]
    chapter = next(c for c in ema.chapters if c.text)
    assert chapter.text.split(".")[0] in " ".join(texts(build(ctx, "/rules/ema-rcr")))
