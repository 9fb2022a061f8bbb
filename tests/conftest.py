"""Shared fixtures for the whole test suite.

* ``library`` — the shipped content, loaded once per session with :func:`handbook.load_library`.
* ``content_copy`` — a private copy of the shipped ``content/`` folder under ``tmp_path``, so a
  test can break one file and load the copy.
* ``seeds_dir`` — the folder of source documents the content was transcribed from.
* ``browser_type_launch_args`` / ``browser_context_args`` — pytest-playwright's fixtures pointed at
  Debian's ``/usr/bin/chromium`` with the flags that keep it off the network (never
  ``playwright install``), at phone width; the browser tests (``tests/e2e``, ``tests/pwa``) use its
  ``browser``, ``context`` and ``page``. A missing chromium skips them, or fails them under ``CI``.

The browser tests run last: pytest-playwright keeps Playwright's event loop running in this thread
from the first of them to the end of the session, and tests that call ``asyncio.run`` cannot
follow them.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from tests.support.browser_driver import CHROMIUM, CHROMIUM_FLAGS, PHONE_VIEWPORT

import handbook

ROOT = Path(handbook.__file__).resolve().parent.parent
# the compiled schema validators are cached in the temp folder, not the user's cache dir
os.environ.setdefault("HANDBOOK_CACHE_DIR", str(Path(tempfile.gettempdir()) / "riichi-judge-handbook-test-cache"))
CONTENT_DIR = ROOT / "content"
# the source documents live next to the checkout (../shared/seeds); SEEDS_DIR overrides
SEEDS_DIR = Path(os.environ.get("SEEDS_DIR", ROOT.parent / "shared" / "seeds"))


@pytest.fixture(scope="session")
def root_dir() -> Path:
    """The repository root (the folder that holds ``handbook/`` and ``content/``)."""
    return ROOT


@pytest.fixture(scope="session")
def content_dir() -> Path:
    """The shipped content folder (never modify it: use ``content_copy``)."""
    return CONTENT_DIR


@pytest.fixture(scope="session")
def library() -> handbook.Library:
    """The shipped content, parsed, validated and indexed once per session."""
    return handbook.load_library()


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    """A fresh copy of the shipped content folder that a test may break."""
    dest = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, dest)
    return dest


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    """The source documents (skips the test where they are not available)."""
    if not (SEEDS_DIR / "000_bc6b2cad94d87a93.txt").is_file():
        pytest.skip(f"source documents not found in {SEEDS_DIR} (set SEEDS_DIR)")
    return SEEDS_DIR


@pytest.fixture(scope="session", autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every test (and every server a test starts) keeps user data in a private folder, never in
    the developer's own data directory."""
    path = tmp_path_factory.mktemp("user-data")
    old = {k: os.environ.get(k) for k in ("HANDBOOK_DATA_DIR", "FLET_APP_STORAGE_DATA")}
    os.environ["HANDBOOK_DATA_DIR"] = str(path)
    os.environ.pop("FLET_APP_STORAGE_DATA", None)
    yield path
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


#: what ``handbook.ui.app.serve`` sets in the process environment for Flet (the session timeout
#: Flet's web app reads) and what the offline app's worker sets for the page
SERVE_ENVIRONMENT = ("FLET_SESSION_TIMEOUT", "HANDBOOK_ENGINE_FONTS")


@pytest.fixture(autouse=True)
def _serve_environment_restored():
    """A test that calls ``serve`` (with Flet's ``run`` stubbed) leaves the environment as it
    found it: what serve sets would change later tests (``page_fonts`` reads it)."""
    old = {k: os.environ.get(k) for k in SERVE_ENVIRONMENT}
    app = sys.modules.get("handbook.ui.app")
    fonts = set(app.ENGINE_FONTS) if app is not None else None
    yield
    if app is not None and fonts is not None:
        app.ENGINE_FONTS.clear()
        app.ENGINE_FONTS.update(fonts)
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The browser and PWA tests last (see the module docstring), the longest of them first
    (:func:`tests.support.scheduling.heaviest_first`); the order is otherwise kept."""
    from tests.support.scheduling import heaviest_first

    heaviest_first(items)
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None
               or item.get_closest_marker("pwa") is not None)


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist's: unknown with -p no:xdist
def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadscope`` (``make test``'s browser run), the units of
    :mod:`tests.support.scheduling`; pytest-xdist's own scheduler otherwise."""
    if config.getvalue("dist") != "loadscope":
        return None
    from tests.support.scheduling import BrowserScopes

    return BrowserScopes(config, log)


@pytest.fixture(scope="session")
def browser_type_launch_args() -> dict:
    """Debian's chromium, headless, off the network (pytest-playwright launches it)."""
    if not os.path.exists(CHROMIUM):
        message = (f"{CHROMIUM} is missing: install Debian's chromium (`make chromium` or "
                   f"`apt-get install chromium`); never `playwright install`")
        if _ci():
            pytest.fail(f"CI is set and {message}", pytrace=False)
        pytest.skip(message)
    return {"executable_path": CHROMIUM, "args": CHROMIUM_FLAGS, "headless": True}


@pytest.fixture(scope="session")
def browser_context_args() -> dict:
    """A fresh profile per test at phone width, in English (service workers: see the folders'
    conftest files)."""
    return {"viewport": PHONE_VIEWPORT, "locale": "en-US"}
