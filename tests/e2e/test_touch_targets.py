"""Touch targets and names on the seven main screens at 412 x 915 (issue 16): every control a judge
can tap is at least 48 x 48 px and has an accessible name; the app-bar
arrow goes back to the search results; at 200 % text nothing of the search and section screens is cut
off. Measured through Flutter's ARIA tree (bounding boxes of its semantics nodes)."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

MIN = 48
SCREENS = {
    "search": ("/search?q=chombo", "Chombo"),
    "section": ("/rules/azrm/2.4", "Wrongly revealing tiles"),
    "penalty-table": ("/penalties/wrc-2025", "Only differences"),
    "chombo": ("/tools/chombo?ruleset=azrm", "Points deducted"),
    "revealed": ("/tools/revealed?ruleset=azrm", "Penalty"),
    "glossary": ("/glossary", "Filter"),
    "ledger": ("/ledger", "Add record"),
    "hand": ("/tools/hand?ruleset=rakkii-nomi-2026&hand=234067m22p345s678s&win=8s&riichi=1&seat=W&discarder=S",
             "Value"),
}

#: every interactive node of the ARIA tree with its box and name
CONTROLS_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  const roles = ['button','link','switch','checkbox','radio','tab','textbox','combobox','slider','menuitem'];
  const out = [];
  for (const el of host.querySelectorAll('*')) {
    const role = el.getAttribute('role') || '';
    const tag = el.tagName.toLowerCase();
    if (!(roles.includes(role) || tag === 'input' || tag === 'textarea' || el.hasAttribute('flt-tappable'))) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const name = (el.getAttribute('aria-label') || el.innerText || el.getAttribute('placeholder') || '').trim();
    out.push({role: role || tag, name: name.slice(0, 80), w: r.width, h: r.height, y: r.y});
  }
  return out;
}"""


def measure(hb, *, steps: int = 6) -> dict[tuple[str, str], tuple[float, float]]:
    """The largest box seen for each control while the screen's list is scrolled through (a control
    half out of view has a clipped box; scrolled fully into view it shows its real size)."""
    seen: dict[tuple[str, str], tuple[float, float]] = {}
    vw, vh = hb.page.viewport_size["width"], hb.page.viewport_size["height"]
    for step in range(steps):
        hb.page.wait_for_timeout(600)
        for c in hb.page.evaluate(CONTROLS_JS):
            key = (c["role"], c["name"])
            if step and step == steps - 1 and key not in seen:
                continue  # first come into view at the last step: maybe only partly on screen
            w, h = seen.get(key, (0, 0))
            seen[key] = (max(w, c["w"]), max(h, c["h"]))
        if step + 1 < steps:
            hb.page.mouse.move(vw / 2, vh / 2)
            hb.page.mouse.wheel(0, vh * 0.45)
    return seen


def problems(seen) -> list[str]:
    out = []
    for (role, name), (w, h) in sorted(seen.items()):
        if not name:
            out.append(f"{role} without a name ({w:.0f} x {h:.0f})")
        elif w < MIN - 0.5 or h < MIN - 0.5:
            out.append(f"{role} {name!r} is {w:.0f} x {h:.0f} px")
    return out


@pytest.mark.parametrize("screen", list(SCREENS))
def test_every_control_is_48px_and_named(hb, screen):
    route, ready = SCREENS[screen]
    hb.open(route, ready=ready)
    seen = measure(hb)
    assert len(seen) >= 6, f"too few controls found on {route}: {seen}"
    bad = problems(seen)
    hb.screenshot(f"targets-{screen}")
    assert not bad, f"on {route} at 412 x 915:\n  " + "\n  ".join(bad)


def test_arrow_goes_back_to_the_results(hb):
    hb.open("/", ready="Search")
    hb.type_into("Search", "見せ牌")
    hb.tap(hb.find("AZRM", "§2.4", "Wrongly revealing tiles"),
           route="/rules/azrm/2.4")
    hb.click_button("Back", exact=True, route=re.compile(r"/search\?q="))
    hb.find("AZRM", "§2.4", "Wrongly revealing tiles")  # the results, not the chapter list


@pytest.mark.parametrize("screen", ["search", "section", "revealed"])
def test_text_at_200_percent_is_not_cut_off(browser, server, artifacts_dir, screen):
    """Chromium's device scale 2 at half the width stands in for a phone's 200 % text: the screen
    must still show every control's name in full (a name cut off shrinks the node)."""
    from tests.support.browser_harness import Handbook, new_context

    ctx = new_context(browser, viewport={"width": 412, "height": 915})
    try:
        page = ctx.new_page()
        hb = Handbook(page, server, artifacts_dir)
        route, ready = SCREENS[screen]
        hb.open(route, ready=ready)
        # Flutter's own text scale follows the browser's font size setting
        page.evaluate("() => { document.documentElement.style.fontSize = '32px'; }")
        page.wait_for_timeout(1200)
        hb.screenshot(f"text200-{screen}")
        seen = measure(hb, steps=3)
        bad = [p for p in problems(seen) if "without a name" not in p]
        assert not bad, "\n".join(bad)
    finally:
        ctx.close()
