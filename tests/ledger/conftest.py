"""Fixtures for the ledger and calculator screen tests: a stub page, an AppContext, a private
ledger in a temporary folder (never the developer's data folder)."""

from __future__ import annotations

import pytest
from tests.support.ledgerhelpers import FakePicker, Page

from handbook.ledger import Ledger
from handbook.storage import open_db
from handbook.ui.context import AppContext, Settings


@pytest.fixture
def page() -> Page:
    return Page()


@pytest.fixture
def navigated() -> list[str]:
    return []


@pytest.fixture
def ctx(library, page, navigated) -> AppContext:
    return AppContext(page=page, library=library, settings=Settings(), navigator=navigated.append)


@pytest.fixture
def app_ledger(tmp_path, library, monkeypatch, ctx):
    """The ledger the screens of ``ctx`` use, in a temporary data folder (exports go there too)."""
    monkeypatch.delenv("FLET_APP_STORAGE_DATA", raising=False)
    monkeypatch.setenv("HANDBOOK_DATA_DIR", str(tmp_path / "data"))
    led = Ledger(open_db(tmp_path / "data" / "ledger.json"), library)
    ctx.stores.ledger = led
    return led


@pytest.fixture
def picker(monkeypatch):
    """``ft.FilePicker`` replaced by :class:`ledgerhelpers.FakePicker` (set ``picker.files``)."""
    import flet as ft

    FakePicker.files, FakePicker.saved = [], []
    monkeypatch.setattr(ft, "FilePicker", FakePicker)
    return FakePicker
