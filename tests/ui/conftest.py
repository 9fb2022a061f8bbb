"""Fixtures for the view tests: the shipped library, a stub page and an AppContext on it.

Views are built exactly as the app builds them, on a stub page object (uihelpers.StubPage) that
records navigation instead of talking to a browser.
"""

from __future__ import annotations

import pytest
from tests.support.uihelpers import StubPage

import handbook
from handbook.ui.context import AppContext, Settings


@pytest.fixture(scope="session")
def library() -> handbook.Library:
    return handbook.load_library()


@pytest.fixture
def page() -> StubPage:
    return StubPage()


@pytest.fixture
def navigated() -> list[str]:
    return []


@pytest.fixture
def ctx(library, page, navigated) -> AppContext:
    saved: list[Settings] = []
    c = AppContext(page=page, library=library, settings=Settings(),
                   navigator=navigated.append, on_settings_change=saved.append)
    c.saved = saved  # type: ignore[attr-defined]
    return c


