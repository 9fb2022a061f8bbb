"""The served handbook in headless Chromium (issue 3, "Tests and evidence").

Each test gets a fresh browser profile (empty localStorage, so default settings) on the one server of
the session -- or, for the tests that only read (search, open, go back, filter), the module's one page
with the app already loaded (``loaded``) -- and checks what a judge sees through Flutter's ARIA tree:
search in Japanese and romaji, open a result, read the section title and its Japanese subtitle, follow
a § link, go back with the browser, open deep links directly, switch the ruleset and the theme and
find both remembered. Every request the page makes is recorded; a test whose page reached beyond
127.0.0.1 fails (``tests/e2e/conftest.py``).
"""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from tests.support.flutter_web import SLOW
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

NAV = ("Search", "Rules", "Penalties", "Glossary", "Tools")


def heading(hb, text: str):
    """The heading (any level) whose name holds ``text``."""
    return hb.role("heading", text)


def tab_selected(hb, name: str) -> bool:
    tab = hb.find(name, roles=("tab",))
    return tab.get_attribute("aria-selected") == "true"


# ------------------------------------------------------------------------------------------- home


def test_home_shows_search_box_and_navigation(loaded):
    hb = loaded.start_at("/", ready="Browse")
    hb.role("textbox", "Search")
    for name in NAV:
        hb.find(name, roles=("tab", "button"))
    assert tab_selected(hb, "Search")
    hb.screenshot("home")


# ----------------------------------------------------------------------------------------- search


@pytest.mark.parametrize(
    ("query", "ref", "title", "title_ja"),
    [
        pytest.param("見せ牌", "2.4", "Wrongly revealing tiles", "見せ牌", id="japanese-misehai"),
        pytest.param("kuikae", "5.3", "Swap calling (Kui-kae)", "喰い替え", id="romaji-kuikae"),
        pytest.param("revealed", "2.4", "Wrongly revealing tiles", "見せ牌", id="english-revealed"),
    ],
)
def test_search_opens_the_section_and_back_returns_to_results(loaded, query, ref, title, title_ja):
    hb = loaded.start_at("/", ready="Browse")
    hb.type_into("Search", query)
    # the result row names its ruleset and §, so that often no tap is needed
    result = hb.find("AZRM", f"§{ref}", title)
    hb.tap(result, route=f"/rules/azrm/{ref}")

    heading(hb, title)
    hb.wait_for_text(title_ja)
    hb.wait_for_text(f"§{ref}")
    assert tab_selected(hb, "Rules")
    hb.screenshot(f"section-{ref}-from-{query}")

    # the browser's back button returns to the results of the same query
    hb.back()
    hb.wait_for_route(f"/search?q={quote(query, safe='')}")
    hb.find("AZRM", f"§{ref}", title)


def test_japanese_results_in_one_ranked_list_each_labelled(loaded):
    hb = loaded.start_at("/", ready="Browse")
    hb.type_into("Search", "見せ牌")
    hb.find("RULE", "AZRM", "§2.4", "Wrongly revealing tiles")  # the rule
    # the foul across rulesets, a table whose source has no Japanese among them
    hb.find("PENALTY", "WRC 2025", "見せ牌")
    hb.find("TERM", "Misehai", "見せ牌")  # the glossary term: English, Japanese
    assert not hb.has_text("Rules ("), "results are one ranked list, not groups by kind"
    hb.screenshot("search-misehai")


# ------------------------------------------------------------------------------ § links and back


def test_section_link_opens_the_section_and_back_returns(loaded):
    hb = loaded.start_at("/rules/azrm/5.1", ready="Invalid group")
    heading(hb, "Invalid group")
    hb.wait_for_text("晒し間違い")

    # "(§4.1)" at the end of the text is a link of its own
    link = hb.page.get_by_text("§4.1", exact=True)
    hb.tap(link.first, route="/rules/azrm/4.1")
    heading(hb, "Empty Call and changing a call")
    hb.wait_for_text("空行為")
    hb.wait_for_no_text("晒し間違い")

    hb.back()
    hb.wait_for_route("/rules/azrm/5.1")
    heading(hb, "Invalid group")
    hb.wait_for_text("晒し間違い")
    hb.wait_for_no_text("空行為", exact=True)


# ------------------------------------------------------------------------------------- deep links


@pytest.mark.parametrize(
    ("route", "tab", "expected"),
    [
        pytest.param("/rules/azrm/2.4", "Rules",
                     ("Wrongly revealing tiles", "見せ牌", "§2.4", "4 penalties cite §2.4"), id="section"),
        pytest.param("/glossary/kui-kae", "Glossary", ("Kui-kae", "喰い替え", "くいかえ"), id="term"),
        pytest.param("/penalties/wrc-2025/wrong-tile-count", "Penalties",
                     ("Too many or too few tiles", "World Championship", "Chonbo 30P", "Lower", "Dead hand",
                      "Differs"), id="penalty-row"),
        pytest.param("/search?q=chombo", "Search", ("Chombo", "§3.4.6"), id="search-query"),
    ],
)
def test_deep_link_opens_directly(hb, route, tab, expected):
    hb.open(route)
    status = hb.response.status if hb.response else None
    assert status == 200, f"GET {route} answered {status}, not the app"
    for text in expected:
        hb.wait_for_text(text)
    assert hb.route() == route, f"opening {route} moved the browser to {hb.page.url}"
    assert tab_selected(hb, tab)
    if route.startswith("/search"):
        hb.wait_for_value("Search", "chombo")


# ------------------------------------------------------------------------------ remembered settings


def ruleset_picker(hb):
    """The ruleset (tournament) picker: a control whose accessible name holds "Ruleset"."""
    return hb.find("Ruleset", roles=("button", "combobox", "textbox"))


def choose_ruleset(hb, short_name: str) -> None:
    hb.tap(ruleset_picker(hb), then="WRC lower")  # the open menu lists every ruleset
    option = (hb.page.get_by_role("button", name=short_name, exact=True)
              .or_(hb.page.get_by_role("menuitem", name=short_name, exact=True))
              .or_(hb.page.get_by_role("option", name=short_name, exact=True))).filter(visible=True).first
    hb.tap(option, gone="WRC lower")


def only_azrm_results(hb) -> None:
    """With AZRM chosen, "chombo" finds AZRM sections and no EMA RCR ones (with all rulesets, the
    best result is EMA RCR §3.4.6 "Chombo"); AZRM's first ruling is on the first screen."""
    hb.type_into("Search", "chombo")
    hb.find("AZRM", "§1.4", "Types of penalties")
    assert not hb.has_text("EMA RCR"), f"EMA RCR results with AZRM chosen:\n{hb.aria_dump()}"


def new_tab(hb, context):
    """A second tab of the same browser profile: a new Flet session, the same localStorage."""
    return type(hb)(context.new_page(), hb.server, hb.shots_dir)


def test_ruleset_choice_narrows_search_and_sticks_after_reload(hb, context):
    """The picker says which ruleset is chosen (its accessible name or value); the choice narrows
    the search; a reload and a new tab (a new session) keep it."""
    hb.open("/", ready="Search")
    hb.wait_for_name(ruleset_picker(hb), "All rulesets")
    hb.type_into("Search", "chombo")
    hb.find("EMA RCR", "§3.4.6", "Chombo")  # all rulesets: the default
    choose_ruleset(hb, "AZRM")
    hb.wait_for_name(ruleset_picker(hb), "AZRM")
    hb.wait_for_no_text("EMA RCR")
    only_azrm_results(hb)

    # a reload keeps it (Flet even keeps the tab's server session across a reload) ...
    hb.reload(ready="Search")
    only_azrm_results(hb)

    # ... and so does a new tab, a new session: the choice comes from the browser's storage
    other = new_tab(hb, context)
    other.open("/", ready="Search")
    other.wait_for_name(ruleset_picker(other), "AZRM")
    only_azrm_results(other)


def background_luminance(hb) -> float:
    """Mean luminance (0-255) of an empty strip of the screen, read back from a screenshot in the page."""
    png = hb.page.screenshot(clip={"x": 8, "y": 760, "width": 396, "height": 40})
    import base64

    data = base64.b64encode(png).decode()
    return hb.page.evaluate(
        """async (b64) => {
            const img = new Image();
            img.src = 'data:image/png;base64,' + b64;
            await img.decode();
            const c = document.createElement('canvas');
            c.width = img.width; c.height = img.height;
            const g = c.getContext('2d');
            g.drawImage(img, 0, 0);
            const d = g.getImageData(0, 0, c.width, c.height).data;
            let sum = 0;
            for (let i = 0; i < d.length; i += 4) sum += 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
            return sum / (d.length / 4);
        }""",
        data,
    )


def test_theme_choice_dark_then_back_to_the_system_is_remembered(hb, context):
    # the system (Chromium headless) prefers light; the fresh profile follows it
    hb.open("/glossary", ready="Filter")
    hb.role("button", "Theme: System")
    hb.page.wait_for_timeout(800)
    light = background_luminance(hb)
    assert light > 160, f"the light theme's background has luminance {light:.0f}"

    hb.click_button("Theme: System", then="System (follow the device)")
    hb.click_button("Dark", exact=True, then="Theme: Dark")
    hb.page.wait_for_timeout(800)
    dark = background_luminance(hb)
    assert dark < 96, f"after choosing dark the background has luminance {dark:.0f} (light: {light:.0f})"
    hb.screenshot("glossary-dark")

    other = new_tab(hb, context)
    other.open("/", ready="Search")
    other.role("button", "Theme: Dark")

    # the way back to following the device
    hb.click_button("Theme: Dark", then="System (follow the device)")
    hb.click_button("System (follow the device)", then="Theme: System")
    hb.page.wait_for_timeout(800)
    assert background_luminance(hb) > 160


# ------------------------------------------------------------------------- navigation and filters


def test_bottom_navigation_reaches_every_screen(loaded):
    hb = loaded.start_at("/", ready="Browse")
    for name, route, marker in (
        ("Rules", "/rules", "Arizona Riichi Mahjong"),
        ("Penalties", "/penalties", "World Championship and Lower side by side"),
        ("Glossary", "/glossary", "78 of 78 terms"),
        ("Tools", "/tools", "Chombo settlement"),
        ("Search", "/", "Browse"),
    ):
        hb.tap(hb.find(name, roles=("tab",)), route=route)
        hb.wait_for_text(marker)
        assert tab_selected(hb, name)


@pytest.mark.parametrize("text", ["喰い替え", "kuikae"], ids=["japanese", "romaji"])
def test_glossary_filter_in_either_script(loaded, text):
    hb = loaded.start_at("/glossary", ready="Filter")
    hb.wait_for_text("Chii")
    hb.type_into("Filter", text)
    hb.wait_for_no_text("Chii")
    hb.find("Kui-kae", "喰い替え")


# --------------------------------------------------------------------------------- the first load


def test_a_first_load_of_the_home_screen(hb):
    """What the first load of ``/`` gives a judge, checked on one load:

    * **the search box has focus** (issue 3): a judge types at once, no tap on the box needed.
      Focus lands on a text input: the ARIA node labelled "Search" or Flutter's own editing input
      (``flt-text-editing``, unlabelled) that stands in for the focused box; the proof is that keys
      typed without a tap give results;
    * **main.dart.wasm is preloaded and fetched once** (``handbook.ui.webclient.preloading_wasm``):
      where the wasm build runs it is asked for as the page starts (beside skwasm.wasm, not after
      main.dart.mjs), and the loader's own fetch uses that download: the 3 MB file is requested once;
    * **skwasm renders on the page thread without a worker**
      (``handbook.ui.webclient.single_threaded_skwasm``): the page is cross-origin isolated, which
      would otherwise start skwasm's raster worker and, with it, the glyph-cache race that freezes a
      tab while text changes (flutter/flutter#190039);
    * **no request leaves 127.0.0.1**: CanvasKit, fonts and the app come from the local server only
      -- rive_native.js included, which Flet's client would ask jsDelivr for
      (``handbook.ui.webclient``) -- also for the screens reached after it (a section and a term with
      Japanese: the Japanese font)."""
    workers = []
    hb.page.on("worker", lambda worker: workers.append(worker.url))
    hb.open("/", ready="Search")
    expect(hb.page.locator("input:focus, textarea:focus"), "a text input has focus after the first frame"
           ).to_be_attached(timeout=5000 * SLOW)
    preloads = hb.page.evaluate(
        "[...document.querySelectorAll('link[rel=preload], link[rel=modulepreload]')].map(l => l.href)")
    assert any(h.endswith("/main.dart.wasm") for h in preloads), preloads
    assert hb.page.evaluate("window.crossOriginIsolated") is True
    log = hb.request_log
    assert any(u.endswith("/skwasm.wasm") for u in log.urls), "not the skwasm renderer"

    hb.page.keyboard.type("chombo", delay=20)
    hb.find("EMA RCR", "§3.4.6", "Chombo")
    assert workers == []

    hb.type_into("Search", "見せ牌")
    hb.find("AZRM", "§2.4")
    hb.navigate("/rules/azrm/2.4", ready="見せ牌")
    hb.navigate("/glossary/kui-kae", ready="喰い替え")
    assert workers == []
    wasm = [u for u in log.urls if u.endswith("/main.dart.wasm")]
    assert len(wasm) == 1, wasm
    assert any(u.startswith(("ws://127.0.0.1", "ws://localhost")) for u in log.urls), "no WebSocket seen"
    assert log.offenders() == []
    # the engine loads the app's font first (handbook.ui.webclient.engine_font_manifest): no KaTeX,
    # no Cupertino icons, no Roboto, and no Noto fallback font is asked for, Japanese included
    unused = sorted({u for u in log.urls if re.search(r"KaTeX_|CupertinoIcons|roboto|/assets/fonts/noto[a-z]+/", u)})
    assert not unused, unused


# ------------------------------------------------------------------ the tournament's ruleset chosen


@pytest.mark.parametrize(("query", "foul"), [
    pytest.param("多牌", "wrong-tile-count", id="japanese"),
    pytest.param("showed his tiles by accident", "revealed-tiles", id="everyday-english"),
])
def test_with_rakkii_nomi_chosen_a_judges_words_open_the_wrc_lower_row(hb, library, query, foul):
    """Rakkii Nomi 2026 plays the WRC lower column: a Japanese word and an everyday description
    reach that row, and its page shows the lower penalty (read from the content)."""
    row = library.rulesets["wrc-2025-lower"].rows(foul)[0]
    assert library.rulesets["rakkii-nomi-2026"].rows(foul)[0].penalty == row.penalty
    hb.open("/", ready="Search")
    choose_ruleset(hb, "Rakkii Nomi 2026")
    hb.type_into("Search", query)
    result = hb.find("Rakkii Nomi 2026", row.foul)
    hb.tap(result, route=f"/penalties/rakkii-nomi-2026/{foul}")
    hb.wait_for_text(row.penalty)
    hb.screenshot(f"rakkii-{foul}")
