"""What is particular to a Flutter web page (Flet's client) under Playwright, and nothing else.

* Flutter draws on a canvas. Its ARIA tree (``flt-semantics-host``) appears only after a click on
  the hidden 1 px ``flt-semantics-placeholder``, which comes with the first frame:
  :func:`enable_semantics`, :func:`wait_for_first_frame`.
* Typing: a tap moves the focus to Flutter's own editing ``<input>``/``<textarea>``; ``fill()``
  right after load loses the text, and keys sent at once after the tap are dropped. So: tap, see
  the editing element take the focus, let Flutter settle ~300 ms, type key by key, and check the
  editing element holds the text (retried), then wait until the answers to every key have
  arrived (:func:`wait_until_quiet`): :func:`type_text`.
* The box's text lives in the ARIA node some of the time and in the focused editing element the
  rest: :func:`wait_for_value` accepts either.
* :func:`aria_dump` for failure messages; :data:`FIRST_FRAME_EVENT_JS` records Flutter's own
  first-frame event for start-up timings.

See ``docs/flet-notes.md`` ("Browser tests") for where these rules come from.
"""

from __future__ import annotations

import contextlib
import os
import re

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

#: Multiplies every wait (a busy 2-core box or CI may be slower): ``HANDBOOK_E2E_SLOW=2``.
SLOW = float(os.environ.get("HANDBOOK_E2E_SLOW", "1") or 1)

SEMANTICS_NODE = "flt-semantics-host flt-semantics"
PLACEHOLDER = "flt-semantics-placeholder"
#: Flutter's editing element while a text box has the focus
EDITING = "input:focus, textarea:focus"
#: Flutter's own first-frame event, recorded as ``window.__flutterFirstFrame`` (ms since navigation)
FIRST_FRAME_EVENT_JS = ("window.addEventListener('flutter-first-frame',"
                        " () => { window.__flutterFirstFrame = performance.now(); }, { once: true });")
#: Records in ``window.__searchBoxSeen`` when (ms from the navigation start) the first screen's
#: search box -- a text field whose ARIA label starts with "Search" -- appears in Flutter's ARIA
#: tree. A MutationObserver sees it as Flutter writes it; a test's own wait (``expect``) polls
#: at growing intervals (up to a second apart), so it notices up to a second later. A test that
#: awaits the promise ``window.__searchBoxShown`` (:data:`AWAIT_SEARCH_BOX_JS`) hears of it at once.
SEARCH_BOX_SEEN_JS = """(() => {
  let shown;
  window.__searchBoxShown = new Promise((resolve) => { shown = resolve; });
  const seen = () => Array.from(document.querySelectorAll('[data-semantics-role="text-field"]'))
    .some((e) => (e.getAttribute('aria-label') || '').startsWith('Search'));
  const observer = new MutationObserver(() => {
    if (window.__searchBoxSeen === undefined && seen()) {
      window.__searchBoxSeen = performance.now();
      observer.disconnect();
      shown(window.__searchBoxSeen);
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true,
                               attributeFilter: ['aria-label'] });
})();"""
#: Resolves with ``window.__searchBoxSeen`` as soon as the page records it (for ``page.evaluate``).
AWAIT_SEARCH_BOX_JS = "window.__searchBoxShown"
#: Turns Flutter's ARIA tree on from inside the page: clicks the semantics placeholder as soon as
#: it is there (every 16 ms until the first node appears), as :func:`enable_semantics` does from the
#: test, without the test's round trips. For start-up timings, with :data:`SEARCH_BOX_SEEN_JS`.
ENABLE_SEMANTICS_JS = """(() => {
  const timer = setInterval(() => {
    if (document.querySelector('__NODE__')) { clearInterval(timer); return; }
    const placeholder = document.querySelector('__PLACEHOLDER__');
    if (placeholder) placeholder.click();
  }, 16);
})();""".replace("__NODE__", SEMANTICS_NODE).replace("__PLACEHOLDER__", PLACEHOLDER)
#: how long Flutter needs after a tap before it takes keys (docs/flet-notes.md: click, wait ~300 ms, type)
TYPING_SETTLE_MS = 300


def enable_semantics(page: Page, timeout_s: float) -> None:
    """Turn Flutter's ARIA tree on: wait for the placeholder (the first frame), click it until
    semantics nodes appear. Raises ``AssertionError`` after ``timeout_s``."""
    nodes = page.locator(SEMANTICS_NODE).first
    placeholder = page.locator(PLACEHOLDER).first
    expect(placeholder.or_(nodes), "Flutter's first frame (its semantics placeholder)").to_be_attached(
        timeout=timeout_s * 1000)
    for _ in range(max(3, int(timeout_s))):
        if nodes.count():
            return
        # dispatched from JS: the placeholder is 1 px and off-screen
        with contextlib.suppress(PlaywrightError):
            placeholder.evaluate("e => e.click()", timeout=1000)
        with contextlib.suppress(AssertionError):
            expect(nodes).to_be_attached(timeout=1000)
            return
    expect(nodes, "Flutter's ARIA tree after clicks on its placeholder").to_be_attached(timeout=1000)


def labelled_node(page: Page) -> Locator:
    """Any node of the ARIA tree with a name (an ``aria-label`` or text)."""
    host = page.locator("flt-semantics-host")
    return host.locator("[aria-label]:not([aria-label=''])").or_(
        host.locator("flt-semantics").filter(has_text=re.compile(r"\S"))).first


def wait_for_first_frame(page: Page, *, ready: Locator | None = None, timeout_s: float) -> None:
    """The app's first frame: the ARIA tree is on and shows ``ready`` (by default any named node)."""
    enable_semantics(page, timeout_s)
    expect(ready if ready is not None else labelled_node(page),
           "the app's first frame in the ARIA tree").to_be_attached(timeout=timeout_s * 1000)


def type_text(page: Page, box: Locator, text: str, *, clear: bool = True, attempts: int = 3) -> None:
    """Type ``text`` into the text box ``box`` (see the module docstring); ``AssertionError`` when
    it does not take after ``attempts`` tries."""
    editing = page.locator(EDITING)
    for _ in range(attempts):
        with contextlib.suppress(PlaywrightError):
            box.click(timeout=10_000 * SLOW)
        try:
            expect(editing).to_be_attached(timeout=2000 * SLOW)
        except AssertionError:
            continue  # the tap was dropped: no editing element has the focus
        page.wait_for_timeout(TYPING_SETTLE_MS)
        if clear:
            page.keyboard.press("Control+A")
            page.keyboard.press("Delete")
        page.keyboard.type(text, delay=20)
        with contextlib.suppress(AssertionError):
            expect(editing).to_have_value(text, timeout=3000 * SLOW)
            wait_until_quiet(page)
            return
    raise AssertionError(f"could not type {text!r} into {box} on {page.url}")


#: Resolves once Flutter's ARIA tree has not changed for ``quiet`` ms (or after ``limit`` ms).
_QUIET_JS = """([quiet, limit]) => new Promise((resolve) => {
  const host = document.querySelector('flt-semantics-host') || document.body;
  let timer = setTimeout(done, quiet);
  const watch = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(done, quiet); });
  const give_up = setTimeout(done, limit);
  function done() { watch.disconnect(); clearTimeout(timer); clearTimeout(give_up); resolve(true); }
  watch.observe(host, {subtree: true, childList: true, attributes: true, characterData: true});
})"""


def wait_until_quiet(page: Page, quiet_ms: int = 400, limit_ms: int = 5000) -> None:
    """Wait until the screen stops changing: every key typed is a change event the server answers
    with new results, and under load those answers arrive after the last key. A tap on a result
    row while they still arrive lands on a row being replaced (Playwright then scrolls the list
    to find it again). Waits at most ``limit_ms``."""
    page.evaluate(_QUIET_JS, [int(quiet_ms * SLOW), int(limit_ms * SLOW)])


def wait_for_value(page: Page, label: str, value: str, timeout_s: float) -> None:
    """Wait until the text box labelled ``label`` holds ``value``: in its ARIA node, or in the
    focused editing element that stands in for it."""
    page.wait_for_function(
        """([label, value]) => {
          const a = document.activeElement;
          if (a && ['INPUT', 'TEXTAREA'].includes(a.tagName) && a.value === value) return true;
          return [...document.querySelectorAll('flt-semantics-host input, flt-semantics-host textarea')]
            .some(e => e.getAttribute('aria-label') === label && e.value === value);
        }""", arg=[label, value], polling=150, timeout=timeout_s * 1000)


def aria_dump(page: Page) -> str:
    """What the ARIA tree says, one node a line (role, label, text, state): for failure messages.
    Bounded in time: a page whose main thread is stuck answers no ``evaluate``."""
    try:
        handle = page.wait_for_function(f"() => ({{v: ({_ARIA_DUMP_JS})()}})", timeout=5000)
        return handle.json_value()["v"]
    except Exception as exc:  # noqa: BLE001 - diagnostics only
        return f"(no ARIA tree: {exc})"


_ARIA_DUMP_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return '(ARIA tree not enabled)';
  const out = [];
  for (const el of host.querySelectorAll('*')) {
    const role = el.getAttribute('role') || (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' ? 'textbox' : '');
    const label = (el.getAttribute('aria-label') || '').trim();
    let text = '';
    for (const n of el.childNodes) if (n.nodeType === 3) text += n.textContent;
    text = text.trim();
    const extra = [];
    if (el.getAttribute('aria-checked')) extra.push('checked=' + el.getAttribute('aria-checked'));
    if (el.getAttribute('aria-selected')) extra.push('selected=' + el.getAttribute('aria-selected'));
    if (el.value) extra.push('value=' + JSON.stringify(el.value));
    if (role || label || text) out.push([role, label && JSON.stringify(label), text && JSON.stringify(text), ...extra].filter(Boolean).join(' '));
  }
  return out.join('\\n') || '(empty ARIA tree)';
}"""
