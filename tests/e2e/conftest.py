"""Fixtures for the real-browser tests: one served app per session, one Chromium, a fresh page per test.

* ``server`` (session): ``python -m handbook serve --host 127.0.0.1 --port P`` on a free port P chosen at
  run time (never 8550/8551), in its own process group, with ``FLET_APP_STORAGE_DATA`` and
  ``HANDBOOK_DATA_DIR`` pointing at a temporary folder; the group is killed at the end.
* ``browser`` (module): Debian's ``/usr/bin/chromium`` through PyPI Playwright. Missing browser: the
  tests are skipped with a message, unless ``CI`` is set, where that is a failure.
* ``context`` / ``page`` (per test): a fresh profile at phone width that records every request and
  WebSocket; at teardown the test fails if any left 127.0.0.1 (no exception).
* ``hb``: a :class:`browser_harness.Handbook` on that page — ``open(route)``, ``enable_semantics()``,
  ``type_into(label, text)``, ``click_button(name)``, ``wait_for_text(text)``, ``screenshot(name)``.

Screenshots (and, for a failed test, a screenshot and the ARIA tree) go to a temporary folder printed at
the end of the run, or to ``$HANDBOOK_E2E_ARTIFACTS`` when set.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser_harness import (  # noqa: E402
    CHROMIUM,
    HUNG_PAGES,
    Handbook,
    RequestLog,
    Watchdog,
    safe_name,
    launch_browser,
    new_context,
    start_server,
    stop_server,
)

E2E_DIR = Path(__file__).resolve().parent


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


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
def chromium_path() -> str:
    if not os.path.exists(CHROMIUM):
        message = (f"{CHROMIUM} is missing: install Debian's chromium (`make chromium` or "
                   f"`apt-get install chromium`); never `playwright install`")
        if _ci():
            pytest.fail(f"CI is set and {message}", pytrace=False)
        pytest.skip(message)
    return CHROMIUM


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
def browser(chromium_path):
    """Chromium for one test module. Playwright's sync API keeps an asyncio loop running in this
    thread while it is open, so it is closed before the next module (whose tests may call
    ``asyncio.run``) starts."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = launch_browser(pw)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def context(browser):
    """A fresh browser profile (empty localStorage and cache) at phone width, recording every request."""
    ctx = new_context(browser)
    log = RequestLog().attach(ctx)
    ctx.request_log = log
    with Watchdog() as watchdog:
        try:
            yield ctx
        finally:
            ctx.close()
    if watchdog.fired:
        pytest.fail(f"the test ran past {watchdog.limit:.0f} s: a page stopped answering (its main thread "
                    f"spun); its renderer was killed", pytrace=False)
    offenders = log.offenders()
    if offenders:
        pytest.fail("the page made requests that left 127.0.0.1:\n  " + "\n  ".join(offenders), pytrace=False)


@pytest.fixture
def page(context):
    return context.new_page()


@pytest.fixture
def hb(request, page, server, artifacts_dir) -> Handbook:
    """The handbook on a fresh page (not yet loaded: call ``hb.open(route)``)."""
    handbook = Handbook(page, server, artifacts_dir)
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
