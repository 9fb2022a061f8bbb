"""Fixtures for the offline-PWA tests (``tests/pwa``, marked ``pwa``).

* ``pwa_dir`` (session): ``build/pwa/``, built by ``tools/pwa/build.py`` first when it is missing
  or older than the sources (so these tests need no ``make pwa`` before them);
* ``browser_context_args`` (session): pytest-playwright's contexts at phone size with service
  workers allowed, reduced motion (the browser itself: ``tests/conftest.py``);
* ``artifacts`` (session): where screenshots go (``$HANDBOOK_PWA_ARTIFACTS`` or a temporary
  folder printed in the test output).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.pwa_harness import CONTEXT_OPTIONS, artifacts_dir, ensure_build  # noqa: E402

PWA_DIR = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        if PWA_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.pwa)


@pytest.fixture(scope="session")
def pwa_dir() -> Path:
    return ensure_build()


@pytest.fixture(scope="session")
def browser_context_args() -> dict:
    """:data:`CONTEXT_OPTIONS`, preferring reduced motion as the served-app tests do
    (``browser_harness.CONTEXT_ARGS``): Flutter's screen transitions, drawn frame by frame in
    software, cost the offline route walk ~14 CPU-s. The hand checker's offline test
    (``browser_context_args`` marker) and the CanvasKit variants (their own contexts) keep the
    animations, the default path."""
    return {**CONTEXT_OPTIONS, "reduced_motion": "reduce"}


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory) -> Path:
    path = artifacts_dir(tmp_path_factory)
    print(f"\nPWA screenshots: {path}")
    return path
