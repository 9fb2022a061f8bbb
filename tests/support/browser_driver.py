"""The one browser driver of the served-app and PWA tests: a page of the handbook in Chromium,
read and driven through Flutter's ARIA tree with Playwright's own waiting (``expect``).

The browser comes from pytest-playwright's fixtures (``tests/conftest.py`` points them at Debian's
``/usr/bin/chromium`` with the flags that keep it off the network); the Flutter-specific parts are
in :mod:`flutter_web`. Both kinds of server (``tests/e2e/browser_harness.py``: ``python -m handbook
serve``; ``tests/pwa/pwa_harness.py``: the static PWA) give :class:`FlutterApp` their ``url(route)``.
"""

from __future__ import annotations

import contextlib
import re
import socket
import warnings
from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit

from tests.support import flutter_web
from tests.support.flutter_web import SLOW
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM = "/usr/bin/chromium"
#: Flags that keep Chromium from reaching out (docs/flet-notes.md); never `playwright install`.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: Phone width first (412 px), a tall phone screen.
PHONE_VIEWPORT = {"width": 412, "height": 915}
#: Ports a developer's own ``make run`` (8550) or Flet's default (8551) may hold: never used by tests.
RESERVED_PORTS = {8550, 8551}

FIRST_FRAME_TIMEOUT_S = 15 * SLOW
UI_TIMEOUT_S = 10 * SLOW

#: the app's own way to another route (:meth:`FlutterApp.navigate`): a history entry and the
#: popstate event Flutter's router follows, as it follows the browser's back and forward
_PUSH_ROUTE_JS = """(route) => {
  const s = history.state || {};
  const n = typeof s.serialCount === 'number' ? s.serialCount + 1 : 1;
  history.pushState({serialCount: n, state: null, hbDepth: s.hbDepth || 0}, '', route);
  window.dispatchEvent(new PopStateEvent('popstate', {state: history.state}));
}"""
#: what the screen says, to tell when another screen is shown: every node's label and text
_SCREEN_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return '';
  const out = [];
  for (const el of host.querySelectorAll('*')) out.push(el.getAttribute('aria-label') || '');
  return out.join('|') + '#' + host.innerText;
}"""

#: Pages that froze while loading and were loaded again (see :meth:`FlutterApp.open`).
HUNG_PAGES: list[str] = []


class Served(Protocol):
    def url(self, route: str = "/") -> str: ...


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now (never 8550/8551)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in RESERVED_PORTS:
            return port
    raise RuntimeError("no free port found")  # pragma: no cover


def safe_name(name: str) -> str:
    """``name`` as a file name: letters (any script), digits, ``_ . -``; the rest becomes ``_``."""
    return re.sub(r"[^\w.-]+", "_", name).strip("_") or "page"


def route_of(url: str) -> str:
    """The route a URL shows: path plus query (Flet's path strategy)."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


class FlutterApp:
    """One page of the handbook (served or PWA): open routes, find nodes by role and name, tap
    with a retry, type, and wait with ``expect``. ``page`` is public for what the helpers do not
    cover (the mouse wheel, downloads, file choosers)."""

    def __init__(self, page: Page, server: Served, shots_dir: Path | None = None) -> None:
        self.page = page
        self.server = server
        self.shots_dir = shots_dir
        self.response = None  # the HTTP response of the last open()

    # -- where ------------------------------------------------------------------------------------------

    def url(self, route: str = "/") -> str:
        return self.server.url(route)

    def route(self) -> str:
        """The route the browser shows: path plus query."""
        return route_of(self.page.url)

    def route_is(self, route: str | re.Pattern) -> re.Pattern:
        """A URL pattern for ``route`` (a route string, or a pattern over the route)."""
        pattern = route.pattern if isinstance(route, re.Pattern) else re.escape(route) + "$"
        return re.compile("^" + re.escape(self.url("/").rstrip("/")) + pattern.lstrip("^"))

    def wait_for_route(self, route: str | re.Pattern, timeout: float = UI_TIMEOUT_S) -> None:
        expect(self.page).to_have_url(self.route_is(route), timeout=timeout * 1000)

    # -- loading ------------------------------------------------------------------------------------------

    def open(self, route: str = "/", *, ready: str | Locator | None = None,
             timeout: float = FIRST_FRAME_TIMEOUT_S, wait_until: str = "domcontentloaded") -> FlutterApp:
        """Load ``route`` as a fresh page load and wait for the app's first frame (``ready``: a text
        or a locator to wait for; by default any named node). A page that froze while loading
        (its main thread spinning; seen in ~1-2 % of loads on a busy machine) is loaded once more
        in a new tab of the same profile; a second freeze fails."""
        for attempt in (1, 2):
            self.response = self.page.goto(self.url(route), wait_until=wait_until, timeout=timeout * 1000)
            try:
                self.wait_for_first_frame(ready=ready, timeout=timeout)
                return self
            except AssertionError:
                if attempt == 2 or self.responsive():
                    raise self._failure(f"no first frame of {route} within {timeout:.0f} s") from None
                self._replace_hung_page(route)
        return self  # pragma: no cover - the loop returns or raises

    def navigate(self, route: str, *, ready: str | None = None, timeout: float = 5 * SLOW) -> FlutterApp:
        """Go to ``route`` inside the app already loaded, as its own links do (a history entry and
        the popstate event Flutter's router follows), without loading the page again (~2 s of
        Flutter's start saved); the screen is built by the server as for a load. With no app
        loaded yet, or when the screen does not change (or ``ready`` does not show) within
        ``timeout``, the route is loaded with :meth:`open`."""
        if urlsplit(self.page.url).netloc != urlsplit(self.url("/")).netloc:
            return self.open(route, ready=ready)
        before = self.page.evaluate(_SCREEN_JS)
        self.page.evaluate(_PUSH_ROUTE_JS, route)
        try:
            self.page.wait_for_function(f"(before) => ({_SCREEN_JS})() !== before", arg=before, polling=100,
                                        timeout=timeout * 1000)
            if ready is not None:
                expect(self.text_locator(ready).first).to_be_attached(timeout=timeout * 1000)
            return self
        except (AssertionError, PlaywrightTimeoutError):
            return self.open(route, ready=ready)

    def reload(self, *, ready: str | Locator | None = None, timeout: float = FIRST_FRAME_TIMEOUT_S,
               wait_until: str = "domcontentloaded") -> FlutterApp:
        self.page.reload(wait_until=wait_until, timeout=timeout * 1000)
        self.wait_for_first_frame(ready=ready, timeout=timeout)
        return self

    def back(self, timeout: float = UI_TIMEOUT_S) -> None:
        """The browser's back button."""
        self.page.go_back(wait_until="commit", timeout=timeout * 1000)

    def enable_semantics(self, timeout: float = FIRST_FRAME_TIMEOUT_S) -> None:
        flutter_web.enable_semantics(self.page, timeout)

    def wait_until_quiet(self, quiet_ms: int = 400, limit_ms: int = 5000) -> None:
        """Wait until the screen stops changing (:func:`flutter_web.wait_until_quiet`)."""
        flutter_web.wait_until_quiet(self.page, quiet_ms, limit_ms)

    def wait_for_first_frame(self, *, ready: str | Locator | None = None,
                             timeout: float = FIRST_FRAME_TIMEOUT_S) -> None:
        if isinstance(ready, str):
            ready = self.text_locator(ready).first
        flutter_web.wait_for_first_frame(self.page, ready=ready, timeout_s=timeout)

    def responsive(self, timeout: float = 10 * SLOW) -> bool:
        """Whether the page's main thread still runs scripts (a hung Flutter page does not)."""
        try:
            self.page.wait_for_function("() => true", polling=100, timeout=timeout * 1000)
            return True
        except Exception:  # noqa: BLE001 - TimeoutError or a crashed target
            return False

    def _replace_hung_page(self, route: str) -> None:
        HUNG_PAGES.append(f"{route} ({self.page.url})")
        warnings.warn(f"the page froze while loading {route}: its main thread stopped running scripts; "
                      f"retried once in a new tab", RuntimeWarning, stacklevel=3)
        context = self.page.context
        with contextlib.suppress(Exception):
            self.page.close(run_before_unload=False)
        self.page = context.new_page()

    # -- reading the ARIA tree ------------------------------------------------------------------------------

    def aria_dump(self) -> str:
        return flutter_web.aria_dump(self.page)

    def _failure(self, what: str) -> AssertionError:
        if not self.responsive(timeout=3):
            return AssertionError(f"{what} on {self.page.url}: THE PAGE IS FROZEN (its main thread stopped "
                                  f"running scripts)")
        return AssertionError(f"{what} on {self.page.url}; the ARIA tree says:\n{self.aria_dump()}")

    def _expect(self, check, what: str) -> None:
        """Run an ``expect(...)`` assertion; on failure, say ``what`` with the ARIA tree."""
        try:
            check()
        except AssertionError:
            raise self._failure(what) from None

    def text_locator(self, text: str, *, exact: bool = False) -> Locator:
        """Nodes whose text or accessible label holds ``text``."""
        return self.page.get_by_text(text, exact=exact).or_(self.page.get_by_label(text, exact=exact))

    def has_text(self, text: str, *, exact: bool = False) -> bool:
        """Whether a node's text or label holds ``text`` right now."""
        return self.text_locator(text, exact=exact).count() > 0

    def wait_for_text(self, text: str, *, exact: bool = False, timeout: float = UI_TIMEOUT_S) -> None:
        """Wait until a node's text or label in the ARIA tree holds ``text``."""
        self._expect(lambda: expect(self.text_locator(text, exact=exact).first).to_be_attached(
            timeout=timeout * 1000), f"{text!r} did not appear within {timeout:.0f} s")

    def wait_for_no_text(self, text: str, *, exact: bool = False, timeout: float = UI_TIMEOUT_S) -> None:
        """Wait until no node's text or label holds ``text``."""
        self._expect(lambda: expect(self.text_locator(text, exact=exact)).to_have_count(
            0, timeout=timeout * 1000), f"{text!r} is still shown after {timeout:.0f} s")

    def role(self, role: str, name: str | re.Pattern, *, exact: bool = False,
             timeout: float = UI_TIMEOUT_S) -> Locator:
        """The first visible node with this ARIA role and accessible name (waits for it)."""
        loc = self.page.get_by_role(role, name=name, exact=exact).filter(visible=True).first
        self._expect(lambda: expect(loc).to_be_visible(timeout=timeout * 1000),
                     f"no visible {role} named {name!r} within {timeout:.0f} s")
        return loc

    def find(self, *parts: str, roles: tuple[str, ...] = ("button",), timeout: float = UI_TIMEOUT_S) -> Locator:
        """The first visible node with one of ``roles`` whose accessible name holds every one of
        ``parts`` (e.g. ``find("AZRM", "§2.4", "Wrongly revealing tiles")`` for one result row). The
        locator is resolved again at each use: Flutter replaces its semantics nodes as the screen
        updates."""
        pattern = re.compile("".join(f"(?=[\\s\\S]*{re.escape(p)})" for p in parts))
        loc = None
        for role in roles:
            one = self.page.get_by_role(role, name=pattern)
            loc = one if loc is None else loc.or_(one)
        loc = loc.filter(visible=True).first
        self._expect(lambda: expect(loc).to_be_visible(timeout=timeout * 1000),
                     f"no {'/'.join(roles)} whose name holds {list(parts)} within {timeout:.0f} s")
        return loc

    def name_of(self, locator: Locator) -> str:
        """A node's accessible name as Flutter writes it: ``aria-label``, else its text."""
        return locator.evaluate("e => (e.getAttribute('aria-label') || e.textContent || '').trim()",
                                timeout=UI_TIMEOUT_S * 1000)

    def wait_for_name(self, locator: Locator, text: str, *, timeout: float = UI_TIMEOUT_S) -> None:
        """Wait until the accessible name of ``locator`` holds ``text``."""
        self._expect(lambda: expect(locator).to_have_accessible_name(re.compile(re.escape(text)),
                                                                     timeout=timeout * 1000),
                     f"the name of {locator} does not hold {text!r} after {timeout:.0f} s")

    def wait_for_value(self, label: str, value: str, *, timeout: float = UI_TIMEOUT_S) -> None:
        """Wait until the text box labelled ``label`` holds ``value``; half-way through, the box is
        tapped once, as a screen-reader user would (Flutter shows the text when it has focus)."""
        try:
            flutter_web.wait_for_value(self.page, label, value, timeout / 2)
            return
        except Exception:  # noqa: BLE001 - Playwright's TimeoutError
            with contextlib.suppress(Exception):
                self.role("textbox", label, timeout=1).click(timeout=2000)
        try:
            flutter_web.wait_for_value(self.page, label, value, timeout / 2)
        except Exception:  # noqa: BLE001
            raise self._failure(f"the box {label!r} does not hold {value!r}") from None

    # -- acting ---------------------------------------------------------------------------------------------

    def tap(self, locator: Locator, *, then: str | Locator | None = None, route: str | re.Pattern | None = None,
            gone: str | None = None, attempts: int = 3, timeout: float = 1.5 * UI_TIMEOUT_S) -> None:
        """Click ``locator``, then expect ``then`` (a text that appears, or a locator that comes
        into the ARIA tree), ``route`` (the browser's route), or ``gone`` (a text that disappears); when it
        does not follow, tap again: Flutter sometimes drops the first tap after a frame change."""
        per_try = max(2.0, timeout / attempts) * 1000
        if isinstance(then, str):
            then = self.text_locator(then).first
        checks = []
        if then is not None:
            checks.append(lambda: expect(then).to_be_attached(timeout=per_try))
        if route is not None:
            checks.append(lambda: expect(self.page).to_have_url(self.route_is(route), timeout=per_try))
        if gone is not None:
            checks.append(lambda: expect(self.text_locator(gone)).to_have_count(0, timeout=per_try))
        for _ in range(attempts):
            with contextlib.suppress(Exception):
                locator.click(timeout=per_try)
            try:
                for check in checks:
                    check()
                return
            except AssertionError:
                continue
        what = " and ".join(x for x in (then is not None and f"{then}", route and f"route {route}",
                                        gone and f"{gone!r} gone") if x)
        raise self._failure(f"after {attempts} taps, {what} did not follow")

    def click_button(self, name: str, *, exact: bool = False, role: str = "button", **expected) -> None:
        """Tap the control named ``name`` (role button by default), retrying a dropped tap;
        ``then``/``route``/``gone`` as for :meth:`tap`."""
        self.tap(self.role(role, name, exact=exact), **expected)

    def type_into(self, label: str, text: str, *, clear: bool = True) -> None:
        """Type ``text`` into the text box labelled ``label``."""
        try:
            flutter_web.type_text(self.page, self.role("textbox", label), text, clear=clear)
        except AssertionError:
            raise self._failure(f"could not type {text!r} into the box {label!r}") from None

    def screenshot(self, name: str) -> Path | None:
        """A PNG of the page in the screenshot folder, once the page is idle (a screenshot taken
        right after a tap can show the previous frame)."""
        if self.shots_dir is None:
            return None
        self.page.wait_for_timeout(800)
        path = self.shots_dir / f"{safe_name(name)}.png"
        self.page.screenshot(path=str(path))
        return path
