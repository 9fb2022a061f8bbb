"""Helpers for the offline-PWA tests and benchmarks: build, serve, launch, record, time.

* :func:`ensure_build` builds ``build/pwa/`` with ``tools/pwa/build.py`` when it is missing or
  older than the sources (so ``pytest tests/pwa`` works without ``make pwa`` first).
* :class:`PwaServer` serves the build from a thread on a free port (never 8550/8551) and can be
  stopped mid-test: the app must then run from its service worker alone.
* :func:`launch` starts Debian's Chromium with the flags that keep it off the network, plus a
  NetLog file: Chromium's own record of every request, including those of the Python worker and
  the service worker, which :func:`netlog_app_requests` reads back.
* :class:`Requests` records what Playwright sees; :func:`is_local` is the rule every request of
  the app must pass (127.0.0.1 only -- no exception, see :func:`is_local`).
* :func:`open_app` / :func:`reload_app` load the page and wait for the first frame of the app.

* :class:`App` drives Flutter's ARIA tree (semantics on, find by role and name, tap with a retry,
  type into a box), with the habits FLET-NOTES.md records: click the hidden semantics
  placeholder, click a field and wait ~300 ms before typing, retry a dropped first tap, assert on
  the ARIA tree and not on pixels, wait ~0.8 s before a screenshot.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "pwa"
TOOLS = ROOT / "tools" / "pwa"

CHROMIUM = "/usr/bin/chromium"
#: Flags that keep Chromium from reaching out (FLET-NOTES.md); never `playwright install`.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE_VIEWPORT = {"width": 412, "height": 915}
#: A developer's `make run` (8550) and Flet's default (8551): never used by tests.
RESERVED_PORTS = {8550, 8551}
#: Multiplies every wait on a slow machine: ``HANDBOOK_E2E_SLOW=2``.
SLOW = float(os.environ.get("HANDBOOK_E2E_SLOW", "1") or 1)
UI_TIMEOUT_S = 15 * SLOW


def free_port() -> int:
    """A free TCP port on 127.0.0.1, chosen now (never 8550/8551)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in RESERVED_PORTS:
            return port


def _load_tool(name: str):
    """tools/pwa/<name>.py as module ``pwa_<name>`` (the folder is no package)."""
    spec = importlib.util.spec_from_file_location(f"pwa_{name}", TOOLS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


pwa_build = _load_tool("build")
StaticServer = _load_tool("serve").StaticServer

__all__ = ["App", "BUILD", "pwa_build", "CHROMIUM", "PwaServer", "Requests", "ROOT", "SLOW", "Timings",
           "build_info", "ensure_build", "is_local", "launch", "launch_profile", "netlog_app_requests", "new_context",
           "open_app", "precache_files", "reload_app", "wait_for_service_worker"]

#: First load: 38 MB over loopback plus Pyodide; generous for a busy 2-core machine.
FIRST_LOAD_TIMEOUT_S = 120 * SLOW
#: A reload from the service worker.
RELOAD_TIMEOUT_S = 60 * SLOW
#: The app's first screen is there when its search box is in Flutter's ARIA tree.
READY_ROLE, READY_LABEL = "textbox", "Search"


# ------------------------------------------------------------------------------------------ build

def ensure_build(out: Path = BUILD) -> Path:
    """Build ``out`` with tools/pwa/build.py unless it is up to date with the sources."""
    if pwa_build.is_stale(out, ROOT):
        res = subprocess.run([sys.executable, str(TOOLS / "build.py"), "--out", str(out)],
                             cwd=ROOT, capture_output=True, text=True, timeout=900)
        if res.returncode != 0:
            raise RuntimeError(f"tools/pwa/build.py failed ({res.returncode}):\n"
                               f"{res.stdout[-3000:]}\n{res.stderr[-3000:]}")
    return out


def build_info(out: Path = BUILD) -> dict:
    return json.loads((out / "build-info.json").read_text(encoding="utf-8"))


def precache_files(out: Path = BUILD, variant: str = "chromium") -> list[str]:
    """The files sw.js precaches for ``variant`` ("chromium" or "full"), read from sw.js itself."""
    text = (out / "sw.js").read_text(encoding="utf-8")
    core = json.loads(text.split("const CORE = ", 1)[1].split(";\n", 1)[0])
    canvaskit = json.loads(text.split("const CANVASKIT = ", 1)[1].split(";\n", 1)[0])
    return core + canvaskit[variant]


# ----------------------------------------------------------------------------------------- server

class PwaServer:
    """``build/pwa`` served from a thread on 127.0.0.1 and a free port; ``stop()`` takes it away."""

    def __init__(self, directory: Path = BUILD, port: int | None = None):
        port = port or free_port()
        assert port not in RESERVED_PORTS
        self.static = StaticServer(directory, "127.0.0.1", port).start()
        self.port = port
        self.running = True

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, route: str = "/") -> str:
        return self.base_url + (route if route.startswith("/") else "/" + route)

    def answers(self) -> bool:
        try:
            with urllib.request.urlopen(self.base_url + "/", timeout=2) as resp:
                return resp.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def stop(self) -> None:
        if self.running:
            self.static.stop()
            self.running = False


# ---------------------------------------------------------------------------------------- browser

def launch(playwright, netlog: Path | None = None):
    """Debian's Chromium with the offline flags (+ a NetLog of every request when ``netlog``)."""
    args = list(CHROMIUM_FLAGS)
    if netlog is not None:
        args += [f"--log-net-log={netlog}", "--net-log-capture-mode=Default"]
    return playwright.chromium.launch(executable_path=CHROMIUM, args=args, headless=True)


CONTEXT_OPTIONS = {"viewport": PHONE_VIEWPORT, "locale": "en-US", "service_workers": "allow"}
_FIRST_FRAME_JS = ("window.addEventListener('flutter-first-frame',"
                   " () => { window.__flutterFirstFrame = performance.now(); }, { once: true });"
                   # start-up marks of the Python worker and the app (tools/pwa/build.py,
                   # instrument_startup_marks): ms since this document's navigation start
                   "window.__rjhPhases = {};"
                   "try { new BroadcastChannel('rjh-startup').onmessage = (e) => {"
                   " window.__rjhPhases[e.data.name] = e.data.t - performance.timeOrigin; };"
                   "} catch (e) {}")


def new_context(browser):
    """A fresh incognito-like profile (empty caches and storage) at phone size, service workers
    allowed."""
    context = browser.new_context(**CONTEXT_OPTIONS)
    context.add_init_script(_FIRST_FRAME_JS)
    return context


def launch_profile(playwright, profile: Path, netlog: Path | None = None):
    """Chromium with a fresh on-disk profile in ``profile`` (not incognito, so Chromium judges
    installability as on a phone); returns the context. Closing it closes the browser (and
    finishes the NetLog)."""
    args = list(CHROMIUM_FLAGS)
    if netlog is not None:
        args += [f"--log-net-log={netlog}", "--net-log-capture-mode=Default"]
    context = playwright.chromium.launch_persistent_context(
        str(profile), executable_path=CHROMIUM, args=args, headless=True, **CONTEXT_OPTIONS)
    context.add_init_script(_FIRST_FRAME_JS)
    return context


def is_local(url: str) -> bool:
    """127.0.0.1 (or a data:/blob: URL of it) and nothing else.

    No exception is needed: Flet's one known outside request, ``rive_native.js`` from
    cdn.jsdelivr.net, is pointed at the app's own origin by tools/pwa/build.py
    (``workaround_rive_cdn_script``), where it fails harmlessly -- see :data:`KNOWN_FAILURES`.
    """
    parts = urlsplit(url)
    if parts.scheme in ("data", "about", "chrome-error"):
        return True
    if parts.scheme == "blob":
        return is_local(url[len("blob:"):])
    return parts.scheme in ("http", "https", "ws", "wss") and parts.hostname == "127.0.0.1"


#: Requests (all on 127.0.0.1) allowed to fail -- online with 404, offline with a network error:
#: Flet's web client asks for the Rive animation runtime at start-up (the "known harmless
#: rive_native.js failure"); the build points it at a folder it does not ship.
#: Flutter's Noto fallback fonts (``assets/fonts/noto*/...woff2``) are no longer asked for: the
#: build loads Noto Sans JP with the engine, also as Flutter's default family (subset_fonts), so
#: such a request -- some glyph the font lacks -- fails the tests.
KNOWN_FAILURES = (
    re.compile(r"/rive-native-not-bundled/wasm/rive_native\.js"),
)


def is_known_failure(url: str) -> bool:
    path = urlsplit(url).path
    return is_local(url) and any(p.fullmatch(path) for p in KNOWN_FAILURES)


@dataclass
class Requests:
    """Every request Playwright reports for a context (pages, workers, service worker)."""

    urls: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)

    def attach(self, context) -> Requests:
        context.on("request", lambda r: self.urls.append(r.url))
        context.on("requestfailed", lambda r: self.failed.append((r.url, r.failure or "")))
        return self

    def outside(self) -> list[str]:
        return sorted({u for u in self.urls if not is_local(u)})

    def unexpected_failures(self) -> list[tuple[str, str]]:
        """Failed requests other than :data:`KNOWN_FAILURES` and those a reload cancelled
        (``net::ERR_ABORTED``)."""
        return sorted({(u, why) for u, why in self.failed
                       if not is_known_failure(u) and "ERR_ABORTED" not in why})

    def mark(self) -> int:
        return len(self.urls)


def netlog_app_requests(netlog: Path, origin: str) -> tuple[list[str], list[str]]:
    """(every URL the app requested; every URL Chromium requested for its own purposes) from a
    NetLog file. A request is the app's when its initiator is the app's origin (what the page,
    the Python worker and the service worker fetch) or when it is a top-level navigation.
    Chromium's own requests (component updater, account check, autofill field-type queries
    about the page's text boxes) have no initiator ("not an origin") and are not the app's."""
    data = json.loads(netlog.read_text(encoding="utf-8", errors="replace"))
    types = {v: k for k, v in data["constants"]["logEventTypes"].items()}
    app, browser = [], []
    for event in data["events"]:
        params = event.get("params") or {}
        if types.get(event["type"]) != "URL_REQUEST_START_JOB" or "url" not in params:
            continue
        mine = (str(params.get("initiator", "")).startswith(origin)
                or params.get("request_type") == "main frame")
        (app if mine else browser).append(params["url"])
    return app, browser


# ------------------------------------------------------------------------------------ first frame

#: The start-up phases, in order, as :attr:`Timings.phases` names them.
PHASES = ("worker_started", "pyodide_ready", "archive_unpacked", "imports_done", "app_module_run",
          "flutter_frame", "content_ready", "screen_built", "app_frame")


@dataclass
class Timings:
    """Seconds from the start of a (re)load: Flutter's first frame (``flutter-first-frame``) and
    the app's first frame (its screen, with the search box, in the ARIA tree); ``phases``: every
    start-up mark seen (:data:`PHASES`), in seconds from the navigation start."""

    flutter_frame_s: float
    app_frame_s: float
    phases: dict = field(default_factory=dict)


def _wait_ready(hb: "App", t0: float, timeout: float, ready: tuple[str, str]) -> Timings:
    hb.enable_semantics(timeout=timeout)
    hb.role(*ready, timeout=max(1.0, timeout - (time.monotonic() - t0)))
    t_app = time.monotonic() - t0
    # performance.now() counts from this document's navigation start
    ff_ms = hb.page.evaluate("window.__flutterFirstFrame || null")
    marks = hb.page.evaluate("window.__rjhPhases || {}") or {}
    phases = {k: round(v / 1000, 3) for k, v in marks.items()}
    if ff_ms:
        phases["flutter_frame"] = round(ff_ms / 1000, 3)
    phases["app_frame"] = round(t_app, 3)
    return Timings(flutter_frame_s=(ff_ms or 0) / 1000, app_frame_s=t_app, phases=phases)


def open_app(hb: "App", route: str = "/", timeout: float = FIRST_LOAD_TIMEOUT_S,
             ready: tuple[str, str] = (READY_ROLE, READY_LABEL)) -> Timings:
    """Load ``route``; wait until the ``ready`` (role, name) node is in the ARIA tree."""
    t0 = time.monotonic()
    hb.page.goto(hb.url(route), wait_until="commit", timeout=timeout * 1000)
    return _wait_ready(hb, t0, timeout, ready)


def reload_app(hb: "App", timeout: float = RELOAD_TIMEOUT_S,
               ready: tuple[str, str] = (READY_ROLE, READY_LABEL)) -> Timings:
    """Reload the page; wait until the ``ready`` (role, name) node is in the ARIA tree."""
    t0 = time.monotonic()
    hb.page.reload(wait_until="commit", timeout=timeout * 1000)
    return _wait_ready(hb, t0, timeout, ready)


_SW_STATE_JS = """async () => {
  const reg = await navigator.serviceWorker.getRegistration();
  const keys = await caches.keys();
  const sizes = {};
  for (const k of keys) sizes[k] = (await (await caches.open(k)).keys()).length;
  return {
    active: !!(reg && reg.active && reg.active.state === 'activated'),
    script: reg && reg.active ? reg.active.scriptURL : null,
    controlled: !!navigator.serviceWorker.controller,
    caches: sizes,
  };
}"""


def wait_for_service_worker(page, timeout: float = FIRST_LOAD_TIMEOUT_S) -> dict:
    """Wait until sw.js is activated (its install -- the whole precache -- done) and controls
    the page; returns its state: script URL, cache names and their entry counts."""
    deadline = time.monotonic() + timeout
    state: dict = {}
    while time.monotonic() < deadline:
        state = page.evaluate(_SW_STATE_JS)
        if state["active"] and state["controlled"]:
            return state
        page.wait_for_timeout(250)
    raise AssertionError(f"the service worker did not take control within {timeout:.0f} s: {state}")


def artifacts_dir(tmp_path_factory) -> Path:
    env = os.environ.get("HANDBOOK_PWA_ARTIFACTS")
    if env:
        path = Path(env)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("pwa-artifacts")


# ---------------------------------------------------------------------------- driving the ARIA tree

class App:
    """One page of the PWA, driven through Flutter's ARIA tree."""

    def __init__(self, page, server: PwaServer, shots: Path | None = None):
        self.page = page
        self.server = server
        self.shots = shots

    def url(self, route: str = "/") -> str:
        return self.server.url(route)

    def route(self) -> str:
        parts = urlsplit(self.page.url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def aria(self) -> str:
        """The ARIA tree, one node a line: for failure messages."""
        with contextlib.suppress(Exception):
            return self.page.evaluate(_ARIA_DUMP_JS)
        return "(no ARIA tree)"

    def enable_semantics(self, timeout: float = UI_TIMEOUT_S) -> None:
        """Click the hidden ``flt-semantics-placeholder`` until Flutter's ARIA tree is on."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.page.evaluate(_SEMANTICS_STATE_JS)
            if state == "on":
                return
            if state == "placeholder":
                with contextlib.suppress(Exception):
                    self.page.locator("flt-semantics-placeholder").first.evaluate("e => e.click()")
            if time.monotonic() > deadline:
                raise AssertionError(f"no Flutter semantics within {timeout:.0f} s ({state})")
            self.page.wait_for_timeout(100)

    def role(self, role: str, name: str | re.Pattern, *, exact: bool = False,
             timeout: float = UI_TIMEOUT_S):
        """The first visible node with ``role`` and accessible name ``name`` (waits for it)."""
        loc = self.page.get_by_role(role, name=name, exact=exact)
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(Exception):
                for i in range(loc.count()):
                    if loc.nth(i).is_visible():
                        return loc.nth(i)
            if time.monotonic() > deadline:
                raise AssertionError(f"no visible {role} named {name!r} within {timeout:.0f} s on "
                                     f"{self.page.url}; the ARIA tree:\n{self.aria()}")
            self.page.wait_for_timeout(150)

    def find(self, *parts: str, roles=("button", "link", "tab"), timeout: float = UI_TIMEOUT_S):
        """A visible node with one of ``roles`` whose name holds every one of ``parts``."""
        pattern = re.compile("".join(f"(?=[\\s\\S]*{re.escape(p)})" for p in parts))
        loc = None
        for role in roles:
            one = self.page.get_by_role(role, name=pattern)
            loc = one if loc is None else loc.or_(one)
        loc = loc.filter(visible=True).first
        deadline = time.monotonic() + timeout
        while True:
            with contextlib.suppress(Exception):
                if loc.count():
                    return loc
            if time.monotonic() > deadline:
                raise AssertionError(f"no {'/'.join(roles)} named like {list(parts)} within "
                                     f"{timeout:.0f} s on {self.page.url}; the ARIA tree:\n"
                                     f"{self.aria()}")
            self.page.wait_for_timeout(150)

    def has_text(self, text: str) -> bool:
        with contextlib.suppress(Exception):
            return (self.page.get_by_text(text).or_(self.page.get_by_label(text)).count()) > 0
        return False

    def wait_for_text(self, text: str, timeout: float = UI_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while not self.has_text(text):
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} did not appear within {timeout:.0f} s on "
                                     f"{self.page.url}; the ARIA tree:\n{self.aria()}")
            self.page.wait_for_timeout(150)

    def tap(self, locator, *, expect, attempts: int = 3, timeout: float = UI_TIMEOUT_S) -> None:
        """Click ``locator`` until ``expect`` (a text, or a callable) holds: Flutter sometimes
        drops the first tap after a frame change."""
        per_try = max(2.0, timeout / attempts)
        for _ in range(attempts):
            with contextlib.suppress(Exception):
                locator.click(timeout=per_try * 1000)
            deadline = time.monotonic() + per_try
            while time.monotonic() < deadline:
                if expect() if callable(expect) else self.has_text(expect):
                    return
                self.page.wait_for_timeout(150)
        raise AssertionError(f"after {attempts} taps, {expect!r} did not follow on "
                             f"{self.page.url}; the ARIA tree:\n{self.aria()}")

    def type_into(self, label: str, text: str) -> None:
        """Type into the box labelled ``label``: click, wait 300 ms, select all, type (retried)."""
        for _ in range(3):
            box = self.role("textbox", label)
            with contextlib.suppress(Exception):
                box.click(timeout=UI_TIMEOUT_S * 1000)
            self.page.wait_for_timeout(300)
            if not self.page.evaluate(_EDITING_JS):
                continue  # the tap was dropped
            self.page.keyboard.press("Control+A")
            self.page.keyboard.press("Delete")
            self.page.keyboard.type(text, delay=20)
            deadline = time.monotonic() + 3 * SLOW
            while time.monotonic() < deadline:
                if self.page.evaluate(_EDITING_VALUE_JS) == text:
                    return
                self.page.wait_for_timeout(100)
        raise AssertionError(f"could not type {text!r} into {label!r}; the ARIA tree:\n"
                             f"{self.aria()}")

    def screenshot(self, name: str) -> Path | None:
        if self.shots is None:
            return None
        self.page.wait_for_timeout(800)  # the last frame settles
        path = self.shots / f"{name}.png"
        self.page.screenshot(path=str(path))
        return path


_SEMANTICS_STATE_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (host && host.querySelector('flt-semantics')) return 'on';
  if (document.querySelector('flt-semantics-placeholder')) return 'placeholder';
  return document.querySelector('flutter-view, flt-glass-pane') ? 'view' : 'loading';
}"""

_ARIA_DUMP_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return '(ARIA tree not enabled)';
  const out = [];
  for (const el of host.querySelectorAll('*')) {
    const role = el.getAttribute('role') || (['INPUT', 'TEXTAREA'].includes(el.tagName) ? 'textbox' : '');
    const label = (el.getAttribute('aria-label') || '').trim();
    let text = '';
    for (const n of el.childNodes) if (n.nodeType === 3) text += n.textContent;
    text = text.trim();
    if (role || label || text) out.push([role, label && JSON.stringify(label), text && JSON.stringify(text)].filter(Boolean).join(' '));
  }
  return out.join('\\n') || '(empty ARIA tree)';
}"""

_EDITING_JS = """() => {
  const a = document.activeElement;
  return !!a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA');
}"""

_EDITING_VALUE_JS = """() => {
  const a = document.activeElement;
  return a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA') ? a.value : null;
}"""
