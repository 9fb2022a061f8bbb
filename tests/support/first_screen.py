"""What a phone shows of the search's results without scrolling: the part of the screen between
the ruleset picker and the navigation bar, and the result nodes of Flutter's ARIA tree with their
top and bottom (used by the first-screen benchmark and the browser tests that ask for a ruling on
the first screen)."""

from __future__ import annotations

import time

#: the settings key the ruleset picker keeps its choice under (handbook.ui.context.Settings)
RULESET_KEY = "flutter.rjh.ruleset"
#: the start screen's first line (handbook.ui.views.search.start_controls)
START_TEXT = "Type a foul, a term or a section number"
#: ``{picker: the picker's bottom, nav: the navigation bar's top, nodes: [[text, top, bottom], …]}``
RESULTS_JS = """() => {
  const out = [];
  let picker = 0, nav = innerHeight;
  for (const e of document.querySelectorAll('flt-semantics')) {
    const r = e.getBoundingClientRect();
    const text = (e.getAttribute('aria-label') || e.innerText || '').replace(/\\s+/g, ' ');
    const role = e.getAttribute('role');
    if (role === 'button' && text.startsWith('Ruleset:')) picker = r.bottom;
    else if (role === 'tablist') nav = r.top;
    else if (role === 'button') out.push([text, r.top, r.bottom]);
  }
  return {picker, nav, nodes: out};
}"""


def settled(page, timeout: float = 15.0) -> dict:
    """:data:`RESULTS_JS` once the results have stopped changing (the same for 1.2 s), or after
    ``timeout`` seconds the last snapshot."""
    snaps: list[dict] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page.wait_for_timeout(300)
        snaps.append(page.evaluate(RESULTS_JS))
        if len(snaps) >= 5 and snaps[-1]["nodes"] and all(x == snaps[-1] for x in snaps[-5:]):
            break
    return snaps[-1] if snaps else {"picker": 0, "nav": 0, "nodes": []}


def wholly_shown(snap: dict, texts: tuple[str, ...]) -> bool:
    """Whether one node of ``snap`` holds every one of ``texts`` and lies wholly on the first screen."""
    top, bottom = snap["picker"], snap["nav"]
    return any(all(t in text for t in texts) and y0 >= top - 1 and y1 <= bottom + 1
               for text, y0, y1 in snap["nodes"])
