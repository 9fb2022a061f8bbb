"""Fixtures for the offline-PWA tests (``tests/pwa``, marked ``pwa``).

* ``pwa_dir`` (session): ``build/pwa/``, built by ``tools/pwa/build.py`` first when it is missing
  or older than the sources (so these tests need no ``make pwa`` before them);
* ``chromium`` (session): the path of Debian's chromium; the tests are skipped when it is missing,
  unless ``CI`` is set, where that is a failure;
* ``artifacts`` (session): where screenshots go (``$HANDBOOK_PWA_ARTIFACTS`` or a temporary
  folder printed in the test output).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pwa_harness import CHROMIUM, artifacts_dir, ensure_build  # noqa: E402

PWA_DIR = Path(__file__).resolve().parent


def _ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if PWA_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.pwa)


@pytest.fixture(scope="session")
def pwa_dir() -> Path:
    return ensure_build()


@pytest.fixture(scope="session")
def chromium() -> str:
    if not os.path.exists(CHROMIUM):
        message = (f"{CHROMIUM} is missing: install Debian's chromium (`make chromium`); "
                   "never `playwright install`")
        if _ci():
            pytest.fail(f"CI is set and {message}", pytrace=False)
        pytest.skip(message)
    return CHROMIUM


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    path = artifacts_dir(tmp_path_factory)
    print(f"\nPWA screenshots: {path}")
    return path
