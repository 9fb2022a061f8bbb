"""The served app for the browser tests: ``python -m handbook serve`` in its own process group on a
free port, what counts as a request that leaves the machine, and a watchdog for a page that freezes.

The page itself is driven by the one driver, :class:`browser_driver.FlutterApp` (``Handbook`` here
adds what is particular to the served app: a frozen renderer is killed before the page is loaded
again); the browser comes from pytest-playwright's fixtures (``tests/conftest.py``). The start-up
benchmark (``tests/bench/test_startup_bench.py``) uses the same functions.

How Flet 1.0.5 routes URLs: the web server's default ``route_url_strategy`` is ``"path"``, so a route is
the URL's path — ``http://127.0.0.1:P/rules/azrm/2.4`` is the route ``/rules/azrm/2.4`` and
``/search?q=chombo`` is ``/search`` with its query (there is no ``#/``). The server answers unknown
route-like paths with ``index.html`` and the Flutter client reports ``page.route`` to Python;
``push_route`` does ``history.pushState``, so the browser's back button walks the routes.
A server is started with ``start_new_session=True`` and its whole process group is killed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from tests.support.browser_driver import (  # noqa: F401 - the names the benchmarks and tests import from here
    CHROMIUM,
    CHROMIUM_FLAGS,
    FIRST_FRAME_TIMEOUT_S,
    HUNG_PAGES,
    PHONE_VIEWPORT,
    RESERVED_PORTS,
    UI_TIMEOUT_S,
    FlutterApp,
    free_port,
    safe_name,
)
from tests.support.flutter_web import SLOW

ROOT = Path(__file__).resolve().parents[2]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
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


#: the judge's passphrase of a served app started with the gate (``env={"HANDBOOK_PASSPHRASE": …}``;
#: the e2e fixture ``gated_server``)
JUDGE_PASSPHRASE = "east-wind-judge"


def start_server(data_dir: Path, log_path: Path, *, wait: bool = True,
                 env: dict[str, str] | None = None) -> Server:
    """Start the served app on a free port in its own process group (``start_new_session=True``).

    ``FLET_APP_STORAGE_DATA`` and ``HANDBOOK_DATA_DIR`` both point at ``data_dir`` so no test touches the
    developer's own data; ``env`` more variables for the server alone (``HANDBOOK_PASSPHRASE``: a
    served app with the judge's gate). With ``wait`` it returns once ``GET /`` answers 200.
    """
    data_dir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    extra, env = env or {}, dict(os.environ)
    # Flet lets these override the host and port we pass: make sure they cannot.
    for var in ("FLET_SERVER_PORT", "FLET_SERVER_IP", "FLET_DISPLAY_URL_PREFIX"):
        env.pop(var, None)
    env["FLET_APP_STORAGE_DATA"] = str(data_dir)
    env["HANDBOOK_DATA_DIR"] = str(data_dir)
    env.setdefault("PYTHONUNBUFFERED", "1")
    # as `make run` starts it: on the C library's allocator from the start (`serve` would
    # otherwise run itself once more to get there; handbook.__main__.system_allocator_command)
    env.setdefault("PYTHONMALLOC", "malloc")
    env.update(extra)
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


def wait_until_answering(server: Server, timeout: float = SERVER_START_TIMEOUT_S, *,
                         every: float = 0.05) -> None:
    """Poll ``GET /`` (``every`` seconds) until it answers 200; fail with the server's log if it dies
    or never answers."""
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
        time.sleep(every)
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

def launch_browser(playwright):
    """Debian's Chromium, headless, with the flags that keep it off the network (for the benchmarks,
    which run their own Playwright; the tests use pytest-playwright's ``browser``)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, headless=True)


#: What every served-app page gets: phone width, English, no service worker (in server mode the
#: app needs none, and a worker's own fetches would bypass the request log the tests check), and
#: the system setting "reduce motion" (a phone's "remove animations"): Flutter then changes screens
#: and scrolls without the transition and scroll-bar animations that software rendering draws
#: frame by frame -- a screen change costs ~0.1-0.5 CPU-s instead of 0.5-0.8. The offline hand
#: checker and CanvasKit tests (tests/pwa) and the benchmarks keep the animations, the default path.
CONTEXT_ARGS = {"viewport": PHONE_VIEWPORT, "locale": "en-US", "service_workers": "block", "reduced_motion": "reduce"}


def new_context(browser, **kwargs):
    """A fresh browser profile at phone width (see :data:`CONTEXT_ARGS`)."""
    return browser.new_context(**{**CONTEXT_ARGS, **kwargs})


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


class Handbook(FlutterApp):
    """A page of the served handbook (:class:`browser_driver.FlutterApp`); a tab that froze while
    loading is ended with its renderer first (a tab whose renderer spins does not close)."""

    #: the screens :meth:`start_at` goes by, each with a text it shows once built (in English; a
    #: Handbook of a Japanese page is given its own)
    WAYPOINTS = {"/": "Search", "/tools": "Chombo settlement"}

    def __init__(self, page, server: Server, shots_dir: Path | None = None,
                 waypoints: dict[str, str] | None = None) -> None:
        super().__init__(page, server, shots_dir)
        self.waypoints = waypoints or self.WAYPOINTS

    def _replace_hung_page(self, route: str) -> None:
        kill_spinning_renderers()
        super()._replace_hung_page(route)

    def start_at(self, route: str, *, ready: str | None = None) -> Handbook:
        """``route``'s screen built anew inside the loaded app (:meth:`navigate`); when the app
        shows that route already (typing a query keeps ``/``), by way of the Tools screen, since
        the same route again builds nothing."""
        if self.route() == route:
            away = "/" if route == "/tools" else "/tools"
            self.navigate(away, ready=self.waypoints[away])
        self.navigate(route, ready=ready)
        return self
