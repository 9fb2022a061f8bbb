"""Helpers for the calculator and ledger screen tests: a stub page, control-tree walking,
fake events, the browser build's preferences."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from typing import Any

from flet.controls.base_control import BaseControl

from tests.support.uihelpers import FakePrefs, walk  # noqa: F401 - one tree walker and one FakePrefs for all view tests
from tests.support.uihelpers import StubPage as Page  # noqa: F401 - one stub page for all view tests




class Event:
    def __init__(self, control: Any, data: Any = None) -> None:
        self.control = control
        self.data = data


def visible_texts(control: Any) -> str:
    """Every string shown (text values, labels, semantics labels) under visible controls, joined."""
    out: list[str] = []

    def visit(obj: Any) -> None:
        if isinstance(obj, BaseControl):
            if getattr(obj, "visible", True) is False:
                return
            for name in ("value", "text", "label", "semantics_label", "content"):
                v = getattr(obj, name, None)
                if isinstance(v, str) and v:
                    out.append(v)
            for f in dataclasses.fields(obj):
                if f.name.startswith("_") or f.name in ("parent", "data"):
                    continue
                visit(getattr(obj, f.name, None))
        elif isinstance(obj, (list, tuple)):
            for item in obj:
                visit(item)

    visit(control)
    return "\n".join(out)


def by_key(control: Any, key: str) -> Any:
    found = [c for c in walk(control) if getattr(c, "key", None) == key]
    assert found, f"no control with key {key!r}"
    return found[0]


def by_label(control: Any, label: str) -> Any:
    found = [c for c in walk(control) if getattr(c, "label", None) == label]
    assert found, f"no control labelled {label!r}"
    return found[0]


def fire(handler, event: Any) -> Any:
    """Call a Flet event handler, running it if it is a coroutine function."""
    result = handler(event)
    if inspect.isawaitable(result):
        return asyncio.run(result)
    return result


class FakePicker:
    """Stands in for ``ft.FilePicker``: answers ``pick_files`` with the given files and records
    ``save_file`` calls."""

    files: list = []
    saved: list = []
    kw: dict = {}

    def __init__(self, *a, **kw) -> None:
        pass

    async def pick_files(self, *a, **kw):
        FakePicker.kw = kw
        return list(FakePicker.files)

    async def save_file(self, *a, **kw):
        FakePicker.saved.append(kw)
        return None


def import_file(view: Any, picker: type[FakePicker], data: bytes, name: str) -> None:
    """Tap "Import a file" on the ledger screen ``view`` with the browser sending ``data`` as ``name``."""
    import flet as ft

    picker.files = [ft.FilePickerFile(id=0, name=name, size=len(data), bytes=data)]
    fire(by_key(view, "import").on_click, None)




def revoke_on_page(view: Any, record_id: str, reason: str = "given by mistake") -> Any:
    """On a player's page: tap the record's Revoke, type ``reason``, tap Revoke (what a judge does)."""
    fire(by_key(view, f"revoke-{record_id}").on_click, None)
    by_key(view, "revoke-reason").value = reason
    return fire(by_key(view, "revoke-confirm").on_click, None)
