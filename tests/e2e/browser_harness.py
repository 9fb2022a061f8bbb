"""The real-browser harness: the served app in its own process group, Debian's Chromium, and a page helper.

Plain functions and one helper class, so that the pytest fixtures (``tests/e2e/conftest.py``) and the
start-up benchmark (``tests/bench/test_startup_bench.py``) drive the app the same way.

How Flet 1.0.5 routes URLs: the web server's default ``route_url_strategy`` is ``"path"``, so a route is
the URL's path — ``http://127.0.0.1:P/rules/azrm/2.4`` is the route ``/rules/azrm/2.4`` and
``/search?q=chombo`` is ``/search`` with its query (there is no ``#/``). The server answers unknown
route-like paths with ``index.html`` and the Flutter client reports ``page.route`` to Python;
``push_route`` does ``history.pushState``, so the browser's back button walks the routes.

Rules learnt on this machine (see ``/work/shared/docs/FLET-NOTES.md``):

* Chromium is Debian's ``/usr/bin/chromium`` driven by PyPI Playwright (never ``playwright install``),
  with flags that keep it from reaching out.
* Flutter draws on a canvas; its ARIA tree only appears after a click on the hidden
  ``flt-semantics-placeholder``. Tests assert on that tree, never on pixels.
* ``fill()`` right after load loses text: click the box, wait ~300 ms, type; retry a dropped first tap.
* A server is started with ``start_new_session=True`` and its whole process group is killed.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Ports a developer's own ``make run`` (8550) or Flet's defaults (8551) may hold: never used by tests.
RESERVED_PORTS = {8550, 8551}
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
#: Phone width first (the issue: 412 px), a tall phone screen.
PHONE_VIEWPORT = {"width": 412, "height": 915}

#: Multiplies every wait (CI machines or a busy 2-core box may be slower): ``HANDBOOK_E2E_SLOW=2``.
SLOW = float(os.environ.get("HANDBOOK_E2E_SLOW", "1") or 1)
FIRST_FRAME_TIMEOUT_S = 15 * SLOW
UI_TIMEOUT_S = 10 * SLOW
SERVER_START_TIMEOUT_S = 60 * SLOW


# --------------------------------------------------------------------------------------------- requests

def is_allowed_request(url: str) -> bool:
    """Whether a request the page made may be made by an offline handbook.

    Allowed: anything on 127.0.0.1/localhost (http, https, ws, wss), ``data:`` URLs, and ``blob:`` URLs
    whose origin is local. Nothing else: the served app points Flet's one outside request
    (``rive_native.js`` from jsDelivr) at its own origin (``handbook.ui.webclient``).
    """
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme == "data":
        return True
    if scheme == "blob":
        return is_allowed_request(url[len("blob:"):])
    if scheme in {"http", "https", "ws", "wss"} and (parts.hostname or "") in LOCAL_HOSTS:
        return True
    return False


# ------------------------------------------------------------------------------------------------ server

def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now (never 8550/8551)."""
    for _ in range(50):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in RESERVED_PORTS:
            return port
    raise RuntimeError("no free port found")  # pragma: no cover


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    data_dir: Path
    log_path: Path
    started_at: float  # time.monotonic() just before Popen
    answered_at: float | None = None  # time.monotonic() when the port first answered HTTP 200
    _log: object = field(default=None, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.proc.pid

    def url(self, route: str = "/") -> str:
        """The URL that opens ``route`` (Flet's path strategy: the route *is* the path)."""
        if not route.startswith("/"):
            route = "/" + route
        return self.base_url + route

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:])


def server_command(port: int) -> list[str]:
    """``python -m handbook serve`` with the interpreter running the tests (the project's venv)."""
    venv_python = ROOT / ".venv" / "bin" / "python"
    python = sys.executable if sys.prefix != sys.base_prefix or not venv_python.exists() else str(venv_python)
    return [python, "-m", "handbook", "serve", "--host", "127.0.0.1", "--port", str(port)]


def start_server(data_dir: Path, log_path: Path, *, wait: bool = True) -> Server:
    """Start the served app on a free port in its own process group (``start_new_session=True``).

    ``FLET_APP_STORAGE_DATA`` and ``HANDBOOK_DATA_DIR`` both point at ``data_dir`` so no test touches the
    developer's own data. With ``wait`` it returns once ``GET /`` answers 200.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = dict(os.environ)
    # Flet lets these override the host and port we pass: make sure they cannot.
    for var in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "FLET_DISPLAY_URL_PREFIX"):
        env.pop(var, None)
    env["FLET_APP_STORAGE_DATA"] = str(data_dir)
    env["HANDBOOK_DATA_DIR"] = str(data_dir)
    env.setdefault("PYTHONUNBUFFERED", "1")
    log = open(log_path, "ab")  # noqa: SIM115 - closed by stop_server
    started = time.monotonic()
    proc = subprocess.Popen(
        server_command(port), cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=log,
        stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent,
    )
    server = Server(proc=proc, port=port, data_dir=data_dir, log_path=log_path, started_at=started, _log=log)
    if wait:
        try:
            wait_until_answering(server)
        except BaseException:
            stop_server(server)
            raise
    return server


def _die_with_parent() -> None:
    """In the server's process, before exec: ask Linux for SIGTERM when the test process dies.

    The fixtures kill the server's process group at the end; this covers a test run that is itself
    killed (``timeout``, a CI job cancelled), which runs no teardown and would leave the server behind.
    """
    with contextlib.suppress(Exception):
        import ctypes

        PR_SET_PDEATHSIG = 1
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def wait_until_answering(server: Server, timeout: float = SERVER_START_TIMEOUT_S) -> None:
    """Poll ``GET /`` until it answers 200; fail with the server's log if it dies or never answers."""
    deadline = time.monotonic() + timeout
    last_error: object = None
    while time.monotonic() < deadline:
        if server.proc.poll() is not None:
            raise RuntimeError(
                f"the server exited with code {server.proc.returncode} before answering on port "
                f"{server.port}; its log:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(server.base_url + "/", timeout=2) as resp:
                if resp.status == 200:
                    server.answered_at = time.monotonic()
                    return
                last_error = f"HTTP {resp.status}"
        except (urllib.error.URLError, ConnectionError, TimeoutError, OSError) as exc:
            last_error = exc
        time.sleep(0.05)
    raise RuntimeError(f"the server did not answer on port {server.port} within {timeout:.0f} s "
                       f"(last error: {last_error}); its log:\n{server.log_tail()}")


def process_tree(pid: int) -> list[int]:
    """``pid`` and all its descendants (read from /proc)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # the command name may hold spaces and parentheses: the ppid follows the last ')'
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    tree, todo = [], [pid]
    while todo:
        p = todo.pop()
        tree.append(p)
        todo.extend(children.get(p, []))
    return tree


def peak_rss_mb(pid: int) -> float:
    """Peak resident memory (``VmHWM``) of ``pid`` and its children, summed, in MB (MiB)."""
    total_kb = 0
    for p in process_tree(pid):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    total_kb += int(line.split()[1])
                    break
    return total_kb / 1024


def stop_server(server: Server) -> None:
    """Kill the server's whole process group: SIGTERM, then SIGKILL after 10 s."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(server.proc.pid, sig)
        try:
            server.proc.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    # anything else left in the group (a child holding the port) goes too
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(server.proc.pid, signal.SIGKILL)
    if server._log is not None:
        server._log.close()


# ----------------------------------------------------------------------------------------------- browser

def safe_name(name: str) -> str:
    """``name`` as a file name: letters (any script), digits, ``_ . -``; the rest becomes ``_``."""
    return re.sub(r"[^\w.-]+", "_", name).strip("_") or "page"


def launch_browser(playwright):
    """Debian's Chromium, headless, with the flags that keep it off the network."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)


def new_context(browser, **kwargs):
    """A fresh browser profile at phone width.

    Service workers are blocked: in server mode the app needs none, and a worker's own fetches would
    bypass the page's request log the tests check.
    """
    options = {"viewport": PHONE_VIEWPORT, "locale": "en-US", "service_workers": "block"}
    options.update(kwargs)
    return browser.new_context(**options)


#: Pages that froze while loading and were loaded again (see ``Handbook._replace_hung_page``).
HUNG_PAGES: list[str] = []
#: A test running longer than this is stuck (the longest take ~20 s on a busy 2-core machine).
TEST_HARD_LIMIT_S = 120 * SLOW


def renderer_pids() -> list[int]:
    """Chromium renderer processes started by this test process (through Playwright's driver)."""
    pids = []
    for pid in process_tree(os.getpid()):
        with contextlib.suppress(OSError):
            if b"--type=renderer" in Path(f"/proc/{pid}/cmdline").read_bytes():
                pids.append(pid)
    return pids


def kill_renderers() -> list[int]:
    """Kill this run's renderer processes: a page stuck in a busy loop answers no Playwright call, and
    its pending calls fail ("Target crashed") once its renderer is gone. The browser survives."""
    killed = []
    for pid in renderer_pids():
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    return killed


def _cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def kill_spinning_renderers(sample: float = 1.0, busy: float = 0.7) -> list[int]:
    """Kill only the renderers that keep a CPU busy (a frozen page spins its main thread), leaving the
    other tabs alone. Returns the killed pids."""
    hz = os.sysconf("SC_CLK_TCK")
    before = {}
    for pid in renderer_pids():
        with contextlib.suppress(OSError, ValueError, IndexError):
            before[pid] = _cpu_ticks(pid)
    time.sleep(sample)
    killed = []
    for pid, ticks in before.items():
        with contextlib.suppress(OSError, ValueError, IndexError):
            if (_cpu_ticks(pid) - ticks) / hz >= busy * sample:
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)
    return killed


class Watchdog:
    """Kills the renderers if a test runs past ``limit`` seconds, so that a frozen page fails one test
    instead of blocking the whole run (Playwright's ``evaluate`` has no timeout of its own)."""

    def __init__(self, limit: float = TEST_HARD_LIMIT_S) -> None:
        self.limit = limit
        self.fired = False
        self._timer: threading.Timer | None = None

    def _fire(self) -> None:
        self.fired = True
        if not kill_spinning_renderers():
            kill_renderers()

    def __enter__(self) -> Watchdog:
        self._timer = threading.Timer(self.limit, self._fire)
        self._timer.daemon = True
        self._timer.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._timer is not None:
            self._timer.cancel()


class RequestLog:
    """Every request (and WebSocket) a browser context makes, in order."""

    def __init__(self) -> None:
        self.urls: list[str] = []

    def attach(self, context) -> RequestLog:
        context.on("request", lambda req: self.urls.append(req.url))
        context.on("page", self._attach_page)
        for page in context.pages:
            self._attach_page(page)
        return self

    def _attach_page(self, page) -> None:
        page.on("websocket", lambda ws: self.urls.append(ws.url))

    def offenders(self) -> list[str]:
        """Requests that left 127.0.0.1."""
        return sorted({u for u in self.urls if not is_allowed_request(u)})


class Handbook:
    """One browser page on the served handbook, with helpers that read and drive Flutter's ARIA tree."""

    def __init__(self, page, server: Server, shots_dir: Path | None = None) -> None:
        self.page = page
        self.server = server
        self.shots_dir = shots_dir
        self.response = None  # the HTTP response of the last open()

    # -- navigation -----------------------------------------------------------------------------------

    def url(self, route: str = "/") -> str:
        return self.server.url(route)

    def eval(self, js: str, arg=None, *, timeout: float = 10 * SLOW):
        """``page.evaluate(js, arg)`` that gives up after ``timeout`` seconds.

        Playwright's ``evaluate`` waits for ever on a page whose main thread is stuck; ``wait_for_function``
        has a timeout the driver enforces, so the value is wrapped to be always truthy.
        """
        handle = self.page.wait_for_function(
            f"(arg) => ({{v: ({js})(arg)}})", arg=arg, polling=100, timeout=timeout * 1000)
        return handle.json_value()["v"]

    def responsive(self, timeout: float = 10 * SLOW) -> bool:
        """Whether the page's main thread still runs scripts (a hung Flutter page does not)."""
        try:
            self.page.wait_for_function("() => true", polling=100, timeout=timeout * 1000)
            return True
        except Exception:  # noqa: BLE001 - TimeoutError or a crashed target
            return False

    def _context(self) -> str:
        """The ARIA tree, plus the server log's tail when it shows a traceback: for failure messages."""
        if not self.responsive(timeout=3):
            return "THE PAGE IS FROZEN: its main thread stopped running scripts (no ARIA tree to show)"
        out = f"the ARIA tree says:\n{self.aria_dump()}"
        tail = self.server.log_tail(30)
        if "Traceback" in tail or "Error" in tail:
            out += f"\n--- server log ({self.server.log_path}) ---\n{tail}"
        return out

    def open(self, route: str = "/", *, ready: str | None = None,
             timeout: float = FIRST_FRAME_TIMEOUT_S) -> Handbook:
        """Load ``route`` as a fresh page load and wait for the app's first frame.

        The first frame is there when Flutter has attached its semantics placeholder, the ARIA tree is on
        and it shows something of the app (``ready``: a text to wait for; by default any labelled node).
        ``self.response`` keeps the HTTP response of the page load.
        """
        for attempt in (1, 2):
            self.response = self.page.goto(self.url(route), wait_until="domcontentloaded",
                                           timeout=timeout * 1000)
            try:
                self.wait_for_first_frame(ready=ready, timeout=timeout)
            except Exception:
                if attempt == 2 or self.responsive():
                    raise
                self._replace_hung_page(route)
                continue
            if self.responsive():
                return self
            if attempt == 2:
                raise AssertionError(f"the page froze twice while loading {route}: its main thread stopped "
                                     f"running scripts")
            self._replace_hung_page(route)
        return self  # pragma: no cover - the loop returns or raises

    def _replace_hung_page(self, route: str) -> None:
        """The page froze while loading (its main thread spins; seen in ~1-2 % of loads here): note it,
        and load once more in a new tab of the same profile. A second freeze fails the test."""
        HUNG_PAGES.append(f"{route} ({self.page.url})")
        warnings.warn(f"the page froze while loading {route}: its main thread stopped running scripts; "
                      f"retried once in a new tab", RuntimeWarning, stacklevel=3)
        context = self.page.context
        # a tab whose renderer spins does not close: end that renderer first
        kill_spinning_renderers()
        with contextlib.suppress(Exception):
            self.page.close()
        self.page = context.new_page()

    def reload(self, *, ready: str | None = None, timeout: float = FIRST_FRAME_TIMEOUT_S) -> Handbook:
        self.page.reload(wait_until="domcontentloaded", timeout=timeout * 1000)
        self.wait_for_first_frame(ready=ready, timeout=timeout)
        return self

    def back(self, timeout: float = UI_TIMEOUT_S) -> None:
        """The browser's back button."""
        self.page.go_back(wait_until="commit", timeout=timeout * 1000)

    def route(self) -> str:
        """The route the browser shows: path plus query (Flet's path strategy)."""
        parts = urlsplit(self.page.url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def wait_for_route(self, route: str, timeout: float = UI_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.route() == route:
                return
            self.page.wait_for_timeout(100)
        raise AssertionError(f"the browser's URL is {self.page.url}, expected the route {route}")

    # -- first frame and semantics --------------------------------------------------------------------

    def wait_for_first_frame(self, *, ready: str | None = None, timeout: float = FIRST_FRAME_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        self.enable_semantics(timeout=timeout)
        remaining = max(1.0, deadline - time.monotonic())
        if ready is not None:
            self.wait_for_text(ready, timeout=remaining)
            return
        # any node of the app with a name (text or label) in the ARIA tree
        while True:
            if self.eval(_HAS_LABELLED_NODE_JS):
                return
            if time.monotonic() > deadline:
                raise AssertionError(f"no first frame within {timeout:.0f} s on {self.page.url}; "
                                     f"{self._context()}")
            self.page.wait_for_timeout(100)

    def enable_semantics(self, timeout: float = FIRST_FRAME_TIMEOUT_S) -> None:
        """Turn Flutter's ARIA tree on: click the hidden ``flt-semantics-placeholder`` (retried)."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.eval(_SEMANTICS_STATE_JS)
            if state == "on":
                return
            if state == "placeholder":
                # dispatch the click from JS: the placeholder is 1 px and off-screen
                with contextlib.suppress(Exception):
                    self.page.locator("flt-semantics-placeholder").first.evaluate("e => e.click()")
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"Flutter's first frame (semantics placeholder) did not come within {timeout:.0f} s "
                    f"on {self.page.url} (state: {state})")
            self.page.wait_for_timeout(100)

    # -- reading the ARIA tree --------------------------------------------------------------------------

    def aria_dump(self) -> str:
        """What the ARIA tree says, one node a line (role, label, text): for failure messages."""
        try:
            return self.eval(_ARIA_DUMP_JS, timeout=5)
        except Exception as exc:  # noqa: BLE001 - diagnostics only
            return f"(no ARIA tree: {exc})"

    def text_locator(self, text: str, *, exact: bool = False):
        """Nodes whose text or accessible label holds ``text``."""
        by_text = self.page.get_by_text(text, exact=exact)
        by_label = self.page.get_by_label(text, exact=exact)
        return by_text.or_(by_label)

    def _wait(self, locator, state: str, timeout: float) -> bool:
        """``locator.wait_for(state)`` as a bool; bounded by Playwright's driver even on a frozen page."""
        try:
            locator.wait_for(state=state, timeout=max(1, timeout * 1000))
            return True
        except Exception:  # noqa: BLE001 - TimeoutError, or the page navigated away
            return False

    def has_text(self, text: str, *, exact: bool = False) -> bool:
        """Whether a node's text or label holds ``text`` right now."""
        return self._wait(self.text_locator(text, exact=exact).first, "attached", 0.2)

    def wait_for_text(self, text: str, *, exact: bool = False, timeout: float = UI_TIMEOUT_S) -> None:
        """Wait until a node's text or label in the ARIA tree holds ``text``."""
        if not self._wait(self.text_locator(text, exact=exact).first, "attached", timeout):
            raise AssertionError(
                f"{text!r} did not appear within {timeout:.0f} s on {self.page.url}; {self._context()}")

    def wait_for_no_text(self, text: str, *, exact: bool = False, timeout: float = UI_TIMEOUT_S) -> None:
        """Wait until no node's text or label holds ``text``."""
        if not self._wait(self.text_locator(text, exact=exact).first, "detached", timeout):
            raise AssertionError(
                f"{text!r} is still shown after {timeout:.0f} s on {self.page.url}; {self._context()}")

    def find(self, *parts: str, roles: tuple[str, ...] = ("button",), timeout: float = UI_TIMEOUT_S):
        """A locator for the nodes with one of ``roles`` whose accessible name holds every one of ``parts``
        (e.g. ``find("AZRM", "§2.4", "Wrongly revealing tiles")`` for one result row); waits until one
        is visible. The locator is resolved again at each use: Flutter replaces its semantics nodes as
        the screen updates."""
        pattern = re.compile("".join(f"(?=[\\s\\S]*{re.escape(p)})" for p in parts))
        loc = None
        for role in roles:
            one = self.page.get_by_role(role, name=pattern)
            loc = one if loc is None else loc.or_(one)
        loc = loc.filter(visible=True).first
        if not self._wait(loc, "visible", timeout):
            raise AssertionError(
                f"no {'/'.join(roles)} whose name holds {list(parts)} within {timeout:.0f} s on "
                f"{self.page.url}; {self._context()}")
        return loc

    def name_of(self, locator) -> str:
        """A node's accessible name as Flutter writes it: ``aria-label``, else its text."""
        return locator.evaluate("e => (e.getAttribute('aria-label') || e.textContent || '').trim()",
                                timeout=UI_TIMEOUT_S * 1000)

    def wait_for_value(self, label: str, value: str, *, timeout: float = UI_TIMEOUT_S) -> None:
        """Poll until the text box labelled ``label`` holds ``value``.

        Flutter web keeps the text in the ARIA tree's ``<input>`` only some of the time: while the box
        has focus the text often lives in Flutter's own editing ``<input class="flt-text-editing">``
        (the element that receives the keys), and the ARIA node's value stays empty. Either counts.
        Half-way through ``timeout`` the box is tapped once, as a screen-reader user would.
        """
        start = time.monotonic()
        deadline = start + timeout
        tapped = False
        seen = None
        while True:
            with contextlib.suppress(Exception):
                box = self.role("textbox", label, timeout=1)
                seen = box.input_value()
                if seen == value:
                    return
                editing = self.eval(_EDITING_VALUE_JS)
                if editing == value:
                    return
                seen = f"{seen!r} (focused editing element: {editing!r})"
                if not tapped and time.monotonic() > start + timeout / 2:
                    tapped = True
                    box.click(timeout=2000)
            if time.monotonic() > deadline:
                raise AssertionError(f"the box {label!r} holds {seen}, expected {value!r}, on {self.page.url}; "
                                     f"{self._context()}")
            self.page.wait_for_timeout(150)

    def wait_for_name(self, get_locator, text: str, *, timeout: float = UI_TIMEOUT_S) -> None:
        """Poll until the accessible name of ``get_locator()`` holds ``text``."""
        deadline = time.monotonic() + timeout
        seen = None
        while True:
            with contextlib.suppress(Exception):
                seen = self.name_of(get_locator())
                if text in seen:
                    return
            if time.monotonic() > deadline:
                raise AssertionError(f"the name {seen!r} does not hold {text!r} after {timeout:.0f} s on "
                                     f"{self.page.url}; {self._context()}")
            self.page.wait_for_timeout(150)

    def role(self, role: str, name: str, *, exact: bool = False, timeout: float = UI_TIMEOUT_S):
        """The first visible node with this ARIA role and accessible name (waits for it)."""
        loc = self.page.get_by_role(role, name=name, exact=exact).filter(visible=True).first
        if not self._wait(loc, "visible", timeout):
            raise AssertionError(
                f"no visible {role} named {name!r} within {timeout:.0f} s on {self.page.url}; "
                f"{self._context()}")
        return loc

    # -- acting ---------------------------------------------------------------------------------------

    def tap(self, locator, *, expect=None, attempts: int = 3, timeout: float = 1.5 * UI_TIMEOUT_S) -> None:
        """Click ``locator``; if ``expect`` (a text, or a callable returning bool) does not follow, tap again.

        Flutter sometimes drops the first tap after a frame change; a second tap fixes it.
        """
        per_try = max(2.0, timeout / attempts)
        for _attempt in range(attempts):
            with contextlib.suppress(Exception):
                locator.click(timeout=per_try * 1000)
            if expect is None:
                return
            deadline = time.monotonic() + per_try
            while time.monotonic() < deadline:
                ok = expect() if callable(expect) else self.has_text(expect)
                if ok:
                    return
                self.page.wait_for_timeout(150)
        what = expect if isinstance(expect, str) else getattr(expect, "__doc__", None) or "the expected change"
        raise AssertionError(f"after {attempts} taps, {what!r} did not follow on {self.page.url}; "
                             f"{self._context()}")

    def click_button(self, name: str, *, expect=None, exact: bool = False, role: str = "button") -> None:
        """Tap the control named ``name`` (role button by default), retrying a dropped tap."""
        self.tap(self.role(role, name, exact=exact), expect=expect)

    def type_into(self, label: str, text: str, *, clear: bool = True) -> None:
        """Type ``text`` into the text box labelled ``label`` (click, wait 300 ms, type; retried)."""
        for _attempt in range(3):
            box = self.role("textbox", label)
            with contextlib.suppress(Exception):
                box.click(timeout=UI_TIMEOUT_S * 1000)
            self.page.wait_for_timeout(300)
            if not self.eval(_EDITING_JS):
                continue  # the tap was dropped: no editing element has focus
            if clear:
                self.page.keyboard.press("Control+A")
                self.page.keyboard.press("Delete")
            self.page.keyboard.type(text, delay=20)
            deadline = time.monotonic() + 3 * SLOW
            while time.monotonic() < deadline:
                if self.eval(_EDITING_VALUE_JS) == text:
                    return
                self.page.wait_for_timeout(100)
        raise AssertionError(f"could not type {text!r} into the box {label!r} on {self.page.url}; "
                             f"{self._context()}")

    def screenshot(self, name: str) -> Path | None:
        """A PNG of the page in the session's screenshot folder (after ~0.8 s: the last frame settles)."""
        if self.shots_dir is None:
            return None
        self.page.wait_for_timeout(800)
        path = self.shots_dir / f"{safe_name(name)}.png"
        self.page.screenshot(path=str(path))
        return path


_SEMANTICS_STATE_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (host && host.querySelector('flt-semantics')) return 'on';
  if (document.querySelector('flt-semantics-placeholder')) return 'placeholder';
  return document.querySelector('flutter-view, flt-glass-pane') ? 'view' : 'loading';
}"""

_HAS_LABELLED_NODE_JS = """() => {
  const host = document.querySelector('flt-semantics-host');
  if (!host) return false;
  for (const el of host.querySelectorAll('*')) {
    if ((el.getAttribute('aria-label') || '').trim()) return true;
    for (const n of el.childNodes) if (n.nodeType === 3 && n.textContent.trim()) return true;
  }
  return false;
}"""

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

# Flutter's web text editing moves focus to an <input>/<textarea> of its own when a field is tapped.
_EDITING_JS = """() => {
  const a = document.activeElement;
  return !!a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA');
}"""
_EDITING_VALUE_JS = """() => {
  const a = document.activeElement;
  return a && (a.tagName === 'INPUT' || a.tagName === 'TEXTAREA') ? a.value : null;
}"""
