"""Which builder draws each route of :data:`handbook.ui.routes.ROUTES`, and :func:`build_view`.

The app's top: it reaches every view module; no view imports it. A view module is imported
when its first screen is built (the app's start imports only what its first screen draws).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping

import flet as ft

from handbook.ui import routes
from handbook.ui.context import AppContext

ViewBuilder = Callable[..., ft.View]

#: route name -> (module in handbook.ui.views, builder function)
_BUILDER_NAMES: Mapping[str, tuple[str, str]] = {
    "search": ("search", "build"),
    "what-happened": ("incidents", "build_index"),
    "what-happened-category": ("incidents", "build_category"),
    "rules": ("rules", "build_index"),
    "ruleset": ("rules", "build_ruleset"),
    "editions": ("rules", "build_editions"),
    "section": ("rules", "build_section"),
    "penalties": ("penalties", "build_index"),
    "penalty-table": ("penalties", "build_table"),
    "foul": ("penalties", "build_foul"),
    "glossary": ("glossary", "build_index"),
    "term": ("glossary", "build_term"),
    "tools": ("calculators", "build_tools"),
    "chombo": ("calculators", "build_chombo"),
    "revealed": ("calculators", "build_revealed"),
    "strikes": ("calculators", "build_strikes"),
    "final": ("final", "build_final"),
    "hand": ("hand", "build_hand"),
    "yaku-list": ("scoring", "build_yaku_list"),
    "yaku": ("scoring", "build_yaku"),
    "payments": ("scoring", "build_payments"),
    "ledger": ("ledger", "build_ledger"),
    "player": ("ledger", "build_player"),
    "incidents": ("incidents_day", "build_incidents"),
    "record": ("record", "build_record"),
    "study": ("study", "build_study"),
    "study-progress": ("study", "build_progress"),
    "exam": ("study", "build_exam"),
    "bookmarks": ("study", "build_bookmarks"),
    "not-found": ("common", "build_not_found"),
}


def _builder(module: str, name: str) -> ViewBuilder:
    return getattr(importlib.import_module(f"handbook.ui.views.{module}"), name)


class _Builders(Mapping[str, ViewBuilder]):
    """Read-only route name -> builder; a view module is imported on first look-up."""

    def __getitem__(self, key: str) -> ViewBuilder:
        return _builder(*_BUILDER_NAMES[key])

    def __iter__(self) -> Iterator[str]:
        return iter(_BUILDER_NAMES)

    def __len__(self) -> int:
        return len(_BUILDER_NAMES)


#: route name -> builder (see the view-builder contract in :mod:`handbook.ui.routes`)
BUILDERS: Mapping[str, ViewBuilder] = _Builders()


def build_view(ctx: AppContext, route: str | None) -> ft.View:
    """The :class:`ft.View` for ``route``: parse it, put path and query on ``ctx``, call the
    builder. A route declared ``JUDGE`` (the judge gate, :mod:`handbook.ui.routes`) shows the
    passphrase screen instead while the session may not see the judge's data, and once it may,
    the AppBar's lock button (when a gate is active) — here, once, for every screen. A builder
    that raises ``KeyError``/``LookupError`` (unknown ruleset, section, term) gives the
    not-found screen instead."""
    m = routes.match(route)
    ctx.route = m.path
    ctx.query = dict(m.query)
    if m.route.needs_judge:
        from handbook.ui.gate import lock_action, passphrase_view

        if not ctx.judged:
            return passphrase_view(ctx, m.route)
    try:
        view = BUILDERS[m.name](ctx, **m.params)
    except LookupError as exc:
        return BUILDERS["not-found"](ctx, missing=m.path, reason=str(exc))
    if m.route.needs_judge and view.appbar is not None:
        view.appbar.actions = [*lock_action(ctx, m.route), *(view.appbar.actions or [])]
    return view
