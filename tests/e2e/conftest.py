"""Fixtures for the real-browser tests: one served app per session, pytest-playwright's browser and
a fresh page per test (``tests/conftest.py`` points them at Debian's chromium).

* ``server`` (session): ``python -m handbook serve --host 127.0.0.1 --port P`` on a free port P chosen at
  run time (never 8550/8551), in its own process group, with ``FLET_APP_STORAGE_DATA`` and
  ``HANDBOOK_DATA_DIR`` pointing at a temporary folder; the group is killed at the end.
* ``browser_context_args`` (session): phone width, English, service workers blocked (in server mode
  the app needs none, and a worker's own fetches would bypass the request log).
* ``gated_server`` (module) and ``gated_hb``: a served app with the judge's gate
  (``HANDBOOK_PASSPHRASE``) and a Handbook on it, as ``server`` and ``hb``.
* ``hb``: a :class:`browser_harness.Handbook` (the one driver, :class:`browser_driver.FlutterApp`)
  on pytest-playwright's ``page`` — ``open(route)``, ``type_into(label, text)``, ``click_button(name,
  then=...)``, ``wait_for_text(text)``, ``screenshot(name)``. Every request and WebSocket of the test's
  browser context is recorded (``hb.request_log``): the test fails if any left 127.0.0.1 (no exception), or if it ran past
  the watchdog's limit (a frozen page's renderer is killed).
* ``loaded``: a Handbook as ``hb``, on a page of the test module's own with the app already loaded,
  for the tests that only read (each reaches its screen inside the app: ``Handbook.start_at``);
  ``loaded_ja`` the same in a browser whose language is Japanese.

Screenshots (and, for a failed test, a screenshot and the ARIA tree) go to a temporary folder printed at
the end of the run, or to ``$HANDBOOK_E2E_ARTIFACTS`` when set.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.support.browser_harness import (  # noqa: E402
    CONTEXT_ARGS,
    HUNG_PAGES,
    JUDGE_PASSPHRASE,
    Handbook,
    RequestLog,
    Watchdog,
    new_context,
    safe_name,
    start_server,
    stop_server,
)

E2E_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Every test under tests/e2e drives a browser: mark it ``browser``."""
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)


@pytest.fixture(scope="session")
def artifacts_dir(tmp_path_factory) -> Path:
    env = os.environ.get("HANDBOOK_E2E_ARTIFACTS")
    if env:
        path = Path(env)
        path.mkdir(parents=True, exist_ok=True)
    else:
        path = tmp_path_factory.mktemp("e2e-artifacts")
    return path


@pytest.fixture(scope="session")
def browser_context_args() -> dict:
    return dict(CONTEXT_ARGS)


#: V8 compiles the served app's WebAssembly with its baseline compiler only (Liftoff): each test's
#: fresh profile would otherwise recompile main.dart.wasm and skwasm.wasm's hot code with TurboFan,
#: ~0.9 CPU-s per page load on pages that live a few seconds. The code run is the same; the offline
#: PWA tests, whose Python runs for long in WebAssembly, keep V8's defaults (their own browser).
E2E_JS_FLAGS = "--js-flags=--liftoff-only"


@pytest.fixture(scope="session")
def browser(launch_browser, browser_type_launch_args):
    """pytest-playwright's browser, launched for the served-app tests (:data:`E2E_JS_FLAGS`)."""
    browser = launch_browser(args=[*browser_type_launch_args["args"], E2E_JS_FLAGS])
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory, artifacts_dir):
    """The served app (session-wide), in its own process group on a free port."""
    data_dir = tmp_path_factory.mktemp("handbook-data")
    srv = start_server(data_dir, artifacts_dir / "server.log")
    try:
        yield srv
    finally:
        stop_server(srv)


@pytest.fixture(scope="module")
def module_server(request, tmp_path_factory, artifacts_dir):
    """A served app for one test module alone: what its tests choose and open (a ruleset, recent
    lookups in the server's data folder) does not reach the other browser tests' server."""
    srv = start_server(tmp_path_factory.mktemp("own-data"), artifacts_dir / f"server-{request.module.__name__}.log")
    try:
        yield srv
    finally:
        stop_server(srv)


@pytest.fixture(scope="module")
def gated_server(request, tmp_path_factory, artifacts_dir):
    """A served app for one test module with the judge's gate (``HANDBOOK_PASSPHRASE`` =
    :data:`browser_harness.JUDGE_PASSPHRASE`) and an empty data folder of its own."""
    srv = start_server(tmp_path_factory.mktemp("gated-data"), artifacts_dir / f"gated-{request.module.__name__}.log",
                       env={"HANDBOOK_PASSPHRASE": JUDGE_PASSPHRASE})
    try:
        yield srv
    finally:
        stop_server(srv)


def _watched(request, handbook: Handbook, log: RequestLog, artifacts_dir: Path):
    """Runs one test on ``handbook`` (a generator for a fixture to yield from): the watchdog, a
    screenshot and the ARIA tree when the test failed, and a failure for a frozen page or a request
    that left 127.0.0.1 (in ``log``)."""
    with Watchdog() as watchdog:
        yield handbook
        rep = getattr(request.node, "rep_call", None)
        if rep is not None and rep.failed:
            name = safe_name(f"FAILED-{request.node.name}")
            try:
                (artifacts_dir / f"{name}.aria.txt").write_text(
                    f"{handbook.page.url}\n\n{handbook.aria_dump()}\n", encoding="utf-8")
                handbook.screenshot(name)
            except Exception:  # noqa: BLE001 - diagnostics only
                pass
    if watchdog.fired:
        pytest.fail(f"the test ran past {watchdog.limit:.0f} s: a page stopped answering (its main thread "
                    f"spun); its renderer was killed", pytrace=False)
    offenders = log.offenders()
    if offenders:
        pytest.fail("the page made requests that left 127.0.0.1:\n  " + "\n  ".join(offenders), pytrace=False)


@pytest.fixture
def hb(request, context, page, server, artifacts_dir) -> Handbook:
    """The handbook on a fresh page (not yet loaded: call ``hb.open(route)``)."""
    log = RequestLog().attach(context)
    handbook = Handbook(page, server, artifacts_dir)
    handbook.request_log = log  # type: ignore[attr-defined]
    yield from _watched(request, handbook, log, artifacts_dir)


@pytest.fixture
def gated_hb(request, context, page, gated_server, artifacts_dir) -> Handbook:
    """As ``hb``, on the module's served app with the judge's gate (``gated_server``)."""
    log = RequestLog().attach(context)
    handbook = Handbook(page, gated_server, artifacts_dir)
    handbook.request_log = log  # type: ignore[attr-defined]
    yield from _watched(request, handbook, log, artifacts_dir)


def _app_loaded(browser, server, artifacts_dir, waypoints: dict[str, str] | None = None, **context_args):
    """One profile and page (:func:`new_context` with ``context_args``) with the app loaded at
    ``/``, and the profile's request log; closed after (a generator). ``waypoints``: see
    :attr:`Handbook.WAYPOINTS` (the English ones when None)."""
    ctx = new_context(browser, **context_args)
    log = RequestLog().attach(ctx)
    handbook = Handbook(ctx.new_page(), server, artifacts_dir, waypoints)
    handbook.open("/", ready=handbook.waypoints["/"])
    yield handbook, log
    ctx.close()


@pytest.fixture(scope="module")
def _loaded_app(browser, server, artifacts_dir):
    """One profile and page per test module (per test worker) with the app loaded at ``/``."""
    yield from _app_loaded(browser, server, artifacts_dir)


@pytest.fixture(scope="module")
def _loaded_app_ja(browser, server, artifacts_dir):
    """As ``_loaded_app``, in a profile whose browser language is Japanese (navigator.language
    "ja-JP"): the app starts in Japanese without being asked."""
    yield from _app_loaded(browser, server, artifacts_dir, {"/": "ルール", "/tools": "錯和（チョンボ）の精算"},
                           locale="ja-JP")


@pytest.fixture
def loaded(request, _loaded_app, artifacts_dir) -> Handbook:
    """The handbook already loaded, shared by the tests of a module that only read -- search, open,
    go back, filter -- and change no setting: each reaches its first screen inside the app
    (:meth:`Handbook.start_at`), ~2 CPU-s of Flutter's start saved per test. Tests of a cold load,
    of focus on arrival, of remembered settings or of the requests a load makes use ``hb``."""
    handbook, log = _loaded_app
    yield from _watched(request, handbook, log, artifacts_dir)


@pytest.fixture
def loaded_ja(request, _loaded_app_ja, artifacts_dir) -> Handbook:
    """As ``loaded``, in Japanese: the module's page of a Japanese browser, the app already loaded."""
    handbook, log = _loaded_app_ja
    yield from _watched(request, handbook, log, artifacts_dir)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    # where the screenshots and the server log are, when browser tests ran
    for item_dir in getattr(config, "_e2e_artifacts", []):
        terminalreporter.write_line(f"e2e artifacts: {item_dir}")
    if HUNG_PAGES:
        terminalreporter.write_line(
            f"e2e: {len(HUNG_PAGES)} page load(s) froze (main thread stuck) and were retried once: "
            + "; ".join(HUNG_PAGES))


@pytest.fixture(autouse=True)
def _note_artifacts(request):
    if "hb" in request.fixturenames:
        dirs = request.config.__dict__.setdefault("_e2e_artifacts", [])
        path = request.getfixturevalue("artifacts_dir")
        if path not in dirs:
            dirs.append(path)
