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
* :func:`open_app` / :func:`reload_app` load the page and wait for the first frame of the app,
  with start-up timings.

The page is driven by the one driver of the browser tests, :class:`browser_driver.FlutterApp`
(``App`` here); the Flutter-specific parts are in :mod:`flutter_web`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from filelock import FileLock
from tests.support.browser_driver import CHROMIUM, CHROMIUM_FLAGS, PHONE_VIEWPORT, RESERVED_PORTS, free_port
from tests.support.browser_driver import FlutterApp as App
from tests.support.flutter_web import FIRST_FRAME_EVENT_JS, SLOW

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "pwa"

from tools.pwa import build as pwa_build  # noqa: E402 - the project root is on pytest's pythonpath
from tools.pwa.serve import Link, StaticServer  # noqa: E402

__all__ = ["App", "BUILD", "pwa_build", "CHROMIUM", "PwaServer", "Requests", "ROOT", "SLOW", "Timings",
           "build_info", "ensure_build", "is_local", "launch", "launch_profile", "netlog_app_requests", "new_context",
           "open_app", "precache_files", "reload_app", "VARIANTS", "wait_for_service_worker", "Link",
           "SLOW_NETWORK", "Throttle", "TIMED_FETCH_JS", "NOT_BLINK_JS", "extras_files", "wait_for_extras"]

#: First load: 38 MB over loopback plus Pyodide; generous for a busy 2-core machine.
FIRST_LOAD_TIMEOUT_S = 120 * SLOW
#: A reload from the service worker.
RELOAD_TIMEOUT_S = 60 * SLOW
#: The app's first screen is there when its search box is in Flutter's ARIA tree.
READY_ROLE, READY_LABEL = "textbox", "Search"


# ------------------------------------------------------------------------------------------ build

def ensure_build(out: Path = BUILD) -> Path:
    """Build ``out`` with tools/pwa/build.py unless it is up to date with the sources. The test
    workers that need it at once (``pytest -n``) wait on one lock file next to ``out``: one builds,
    the others find it up to date."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(out.parent / f".{out.name}.lock"):
        if pwa_build.is_stale(out, ROOT):
            res = subprocess.run([sys.executable, "-m", "tools.pwa", "--out", str(out)],
                                 cwd=ROOT, capture_output=True, text=True, timeout=900)
            if res.returncode != 0:
                raise RuntimeError(f"python -m tools.pwa failed ({res.returncode}):\n"
                                   f"{res.stdout[-3000:]}\n{res.stderr[-3000:]}")
    return out


def build_info(out: Path = BUILD) -> dict:
    return json.loads((out / "build-info.json").read_text(encoding="utf-8"))


#: the service worker's renderer variants (tools/pwa/build.py RENDERER_VARIANTS): Chromium here
#: runs "skwasm"; "full" is what Safari and Firefox precache
VARIANTS = ("skwasm", "skwasm_heavy", "chromium", "full")


def extras_files(out: Path = BUILD) -> list[str]:
    """What sw.js fetches once the app is ready offline (the memory snapshot), read from sw.js."""
    text = (out / "sw.js").read_text(encoding="utf-8")
    return json.loads(text.split("const EXTRAS = ", 1)[1].split(";\n", 1)[0])


#: true once one cache holds every extra whole: (path, size) pairs. A cache entry is visible while
#: its body still streams in, so the bytes are read and counted.
_EXTRAS_CACHED_JS = """async (extras) => {
  for (const key of await caches.keys()) {
    const cache = await caches.open(key);
    let whole = true;
    for (const [path, size] of extras) {
      const hit = await cache.match(new URL(path, location.href).href);
      whole = whole && !!hit && (await hit.arrayBuffer()).byteLength === size;
    }
    if (whole) return true;
  }
  return false;
}"""


def wait_for_extras(page, out: Path = BUILD, timeout: float = FIRST_LOAD_TIMEOUT_S) -> None:
    """Wait until the service worker holds every one of :func:`extras_files` whole (it fetches them
    after "Ready offline")."""
    extras = [[f, (out / f).stat().st_size] for f in extras_files(out)]
    page.wait_for_function(_EXTRAS_CACHED_JS, arg=extras, polling=500, timeout=timeout * 1000)


def precache_files(out: Path = BUILD, variant: str = "skwasm") -> list[str]:
    """The files sw.js precaches for ``variant`` (one of :data:`VARIANTS`), read from sw.js itself."""
    text = (out / "sw.js").read_text(encoding="utf-8")
    core = json.loads(text.split("const CORE = ", 1)[1].split(";\n", 1)[0])
    variants = json.loads(text.split("const VARIANTS = ", 1)[1].split(";\n", 1)[0])
    return core + variants[variant]


# ----------------------------------------------------------------------------------------- server

class PwaServer:
    """``build/pwa`` served from a thread on 127.0.0.1 and a free port; ``stop()`` takes it away.
    ``link``: a :class:`Link` every response shares (a slow network's downlink)."""

    def __init__(self, directory: Path = BUILD, port: int | None = None, link: Link | None = None):
        port = port or free_port()
        assert port not in RESERVED_PORTS
        self.static = StaticServer(directory, "127.0.0.1", port, link=link).start()
        self.port = port
        self.running = True

    def bytes_sent(self, before: float | None = None) -> int:
        """Response bodies sent so far (or before ``before``, a ``time.time()``)."""
        return sum(n for t, _path, n in self.static.transfers if before is None or t <= before)

    def paths_sent(self, before: float | None = None) -> list[str]:
        return [path for t, path, _n in self.static.transfers if before is None or t <= before]

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

def _netlog_args(netlog: Path | None) -> list[str]:
    return [f"--log-net-log={netlog}", "--net-log-capture-mode=Default"] if netlog is not None else []


def launch(playwright, netlog: Path | None = None):
    """Debian's Chromium with the offline flags (+ a NetLog of every request when ``netlog``), for
    the benchmarks, which run their own Playwright; the tests use pytest-playwright's ``browser``."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS + _netlog_args(netlog),
                                      headless=True)


#: A fresh incognito-like profile (empty caches and storage) at phone size, service workers allowed.
CONTEXT_OPTIONS = {"viewport": PHONE_VIEWPORT, "locale": "en-US", "service_workers": "allow"}
#: start-up marks of the Python worker and the app (tools/pwa/build.py, instrument_startup_marks):
#: ms since this document's navigation start, in ``window.__rjhPhases``
STARTUP_PHASES_JS = ("window.__rjhPhases = {};"
                     "try { new BroadcastChannel('rjh-startup').onmessage = (e) => {"
                     " window.__rjhPhases[e.data.name] = e.data.t - performance.timeOrigin; };"
                     "} catch (e) {}")


def new_context(browser):
    """A context with :data:`CONTEXT_OPTIONS` that records Flutter's first frame."""
    context = browser.new_context(**CONTEXT_OPTIONS)
    context.add_init_script(FIRST_FRAME_EVENT_JS)
    context.add_init_script(STARTUP_PHASES_JS)
    return context


#: The first visit of a venue's Wi-Fi or a good 4G link: 20 Mbit/s down, 5 Mbit/s up, 40 ms
#: (Chromium's network emulation; bytes per second)
SLOW_NETWORK = {"offline": False, "latency": 40, "downloadThroughput": 20e6 / 8,
                "uploadThroughput": 5e6 / 8}


class Throttle:
    """Chromium's network emulation (``Network.emulateNetworkConditions``) on a page *and* on
    every worker it starts -- the Python worker and the service worker have their own DevTools
    targets, which a page's emulation does not reach: they are auto-attached from the page's
    session, paused at their start until throttled too. Chromium throttles each target on its
    own, so :class:`Link` (the server's side) makes them share one downlink, as on a real network.
    ``attached`` lists the (type, url) of every target throttled."""

    def __init__(self, context, page, conditions: dict = SLOW_NETWORK):
        self.conditions = conditions
        self.attached: list[tuple[str, str]] = []
        self.cdp = context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.send("Network.emulateNetworkConditions", conditions)
        self.cdp.on("Target.attachedToTarget", self._attached)
        self.cdp.send("Target.setAutoAttach", {"autoAttach": True, "waitForDebuggerOnStart": True,
                                               "flatten": False})

    def _attached(self, event: dict) -> None:
        session = event["sessionId"]

        def send(method: str, params: dict | None = None) -> None:
            message = json.dumps({"id": len(self.attached) * 10 + 1, "method": method, "params": params or {}})
            self.cdp.send("Target.sendMessageToTarget", {"sessionId": session, "message": message})

        try:
            send("Network.enable")
            send("Network.emulateNetworkConditions", self.conditions)
            self.attached.append((event["targetInfo"]["type"], event["targetInfo"]["url"]))
        finally:
            if event.get("waitingForDebugger"):
                send("Runtime.runIfWaitingForDebugger")


#: milliseconds a worker or page takes to download ``url`` (bypassing every cache)
TIMED_FETCH_JS = """async (u) => { const t = performance.now();
  const r = await fetch(u + (u.includes('?') ? '&' : '?') + 'nocache=' + Math.random(), {cache: 'no-store'});
  await r.arrayBuffer(); return performance.now() - t; }"""

#: Safari's and Firefox's build in Chromium: Flutter's loader (and the page's service-worker
#: registration) see no Blink, so they pick dart2js with the full CanvasKit, as those browsers do
NOT_BLINK_JS = "Object.defineProperty(Navigator.prototype, 'vendor', {get: () => ''});"


def launch_profile(browser_type, launch_args: dict, profile: Path, netlog: Path | None = None, **context_options):
    """Chromium (``browser_type`` with pytest-playwright's ``launch_args``) with a fresh on-disk
    profile in ``profile`` (not incognito, so Chromium judges installability as on a phone), with
    :data:`CONTEXT_OPTIONS` updated by ``context_options``; returns the context. Closing it closes
    the browser (and finishes the NetLog)."""
    options = {**launch_args, "args": [*launch_args.get("args", ()), *_netlog_args(netlog)]}
    context = browser_type.launch_persistent_context(str(profile), **options, **{**CONTEXT_OPTIONS, **context_options})
    context.add_init_script(FIRST_FRAME_EVENT_JS)
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
#: rive_native.js failure"); the build points it at a folder it does not ship (in main.dart.wasm,
#: the skwasm build, the folder's name is padded with underscores to the URL's length).
#: Flutter's Noto fallback fonts (``assets/fonts/noto*/...woff2``) are no longer asked for: the
#: build loads Noto Sans JP with the engine, also as Flutter's default family (subset_fonts), so
#: such a request -- some glyph the font lacks -- fails the tests.
KNOWN_FAILURES = (
    re.compile(r"/rive-native-not-bundled_*/wasm/rive_native\.js"),
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
          "flutter_frame", "content_ready", "screen_built", "search_box", "app_frame")


@dataclass
class Timings:
    """Seconds from the start of a (re)load: Flutter's first frame (``flutter-first-frame``) and
    the app's first frame (its screen, with the search box, in the ARIA tree); ``phases``: every
    start-up mark seen (:data:`PHASES`), in seconds from the navigation start."""

    flutter_frame_s: float
    app_frame_s: float
    phases: dict = field(default_factory=dict)
    #: the page's ``performance.timeOrigin`` (ms since the epoch): phase + origin = wall clock
    time_origin_ms: float = 0.0

    def wall_clock(self, phase: str) -> float | None:
        """``time.time()`` at which ``phase`` happened (None when it was not seen)."""
        t = self.phases.get(phase)
        return None if t is None or not self.time_origin_ms else self.time_origin_ms / 1000 + t


def _wait_ready(hb: App, t0: float, timeout: float, ready: tuple[str, str]) -> Timings:
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
    seen_ms = hb.page.evaluate("window.__searchBoxSeen ?? null")  # SEARCH_BOX_SEEN_JS, when installed
    if seen_ms:
        phases["search_box"] = round(seen_ms / 1000, 3)
    return Timings(flutter_frame_s=(ff_ms or 0) / 1000, app_frame_s=t_app, phases=phases,
                   time_origin_ms=hb.page.evaluate("performance.timeOrigin"))


def open_app(hb: App, route: str = "/", timeout: float = FIRST_LOAD_TIMEOUT_S,
             ready: tuple[str, str] = (READY_ROLE, READY_LABEL)) -> Timings:
    """Load ``route``; wait until the ``ready`` (role, name) node is in the ARIA tree."""
    t0 = time.monotonic()
    hb.page.goto(hb.url(route), wait_until="commit", timeout=timeout * 1000)
    return _wait_ready(hb, t0, timeout, ready)


def reload_app(hb: App, timeout: float = RELOAD_TIMEOUT_S,
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
    try:
        # the worker that controls the page is the registration's active one
        page.wait_for_function("() => navigator.serviceWorker.controller?.state === 'activated'",
                               polling=250, timeout=timeout * 1000)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError: say what the worker's state is
        raise AssertionError(f"the service worker did not take control within {timeout:.0f} s: "
                             f"{page.evaluate(_SW_STATE_JS)}") from None
    return page.evaluate(_SW_STATE_JS)


def artifacts_dir(tmp_path_factory) -> Path:
    env = os.environ.get("HANDBOOK_PWA_ARTIFACTS")
    if env:
        path = Path(env)
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("pwa-artifacts")


if __name__ == "__main__":
    # `make test` builds the PWA here while the tests that need no browser run (the build is
    # mostly one core's work; those tests leave a quarter of two cores idle)
    print(f"PWA build: {ensure_build()}")
