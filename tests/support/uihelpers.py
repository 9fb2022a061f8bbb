"""Helpers for the view tests: a stub page, control-tree walking, fake events."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from typing import Any

from flet.controls.base_control import BaseControl


class StubPage:
    """What the views and the app use of ``ft.Page``: size, views, route, update, dialogs,
    run_task, push_route."""

    def __init__(self, width: float = 412, height: float = 915, route: str = "/"):
        self.width = width
        self.height = height
        self.route = route
        self.views: list[Any] = []
        self.pushed: list[str] = []
        self.updates = 0
        self.platform_brightness = None
        self.theme_mode = None
        self.on_route_change = None
        self.dialogs: list[Any] = []

    def show_dialog(self, dialog: Any) -> None:
        dialog.open = True
        self.dialogs.append(dialog)

    def pop_dialog(self) -> Any:
        open_ = [d for d in self.dialogs if d.open]
        if not open_:
            return None
        open_[-1].open = False
        return open_[-1]

    def update(self, *controls: Any) -> None:
        self.updates += 1

    def run_task(self, fn, *args, **kwargs):
        """Run ``fn`` at once (no event loop running) or as a task of the running loop."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(fn(*args, **kwargs))
        return loop.create_task(fn(*args, **kwargs))

    async def push_route(self, route: str, **kwargs: Any) -> None:
        self.pushed.append(route)
        self.route = route
        if self.on_route_change is not None:
            self.on_route_change(type("RouteChange", (), {"route": route})())


def walk(control: Any) -> Iterator[BaseControl]:
    """Every control under ``control`` (itself included), depth first, in screen order."""
    seen: set[int] = set()

    def visit(obj: Any) -> Iterator[BaseControl]:
        if isinstance(obj, BaseControl):
            if id(obj) in seen:
                return
            seen.add(id(obj))
            yield obj
            for f in dataclasses.fields(obj):
                if f.name.startswith("_") or f.name in ("parent", "data"):
                    continue
                yield from visit(getattr(obj, f.name, None))
        elif isinstance(obj, (list, tuple)):
            for item in obj:
                yield from visit(item)

    yield from visit(control)


def texts(control: Any) -> list[str]:
    """Every string a screen shows (Text values, span texts, labels, tooltips)."""
    out: list[str] = []
    for c in walk(control):
        for name in ("value", "text", "label", "tooltip", "semantics_label", "hint_text"):
            v = getattr(c, name, None)
            if isinstance(v, str) and v:
                out.append(v)
    return out


def find(control: Any, cls: type, **attrs: Any) -> list[Any]:
    """Controls of type ``cls`` whose attributes equal ``attrs``."""
    return [c for c in walk(control) if isinstance(c, cls)
            and all(getattr(c, k, None) == v for k, v in attrs.items())]


class Event:
    """A stand-in for a Flet control event: ``e.control`` and ``e.data``."""

    def __init__(self, control: Any, data: Any = None):
        self.control = control
        self.data = data


class FakePrefs:
    """The async API of ``ft.SharedPreferences`` (the browser build's storage) over a dict;
    ``fail=True`` answers every call as a client that never replies would (a ``TimeoutError``)."""

    def __init__(self, values=None, fail: bool = False):
        self.values = dict(values or {})
        self.fail = fail

    def _check(self) -> None:
        if self.fail:
            raise TimeoutError("no client")

    async def get(self, key):
        self._check()
        return self.values.get(key)

    async def set(self, key, value):
        self._check()
        self.values[key] = value
        return True

    async def remove(self, key):
        self._check()
        return self.values.pop(key, None) is not None
