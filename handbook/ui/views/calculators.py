"""PLACEHOLDER — the calculators agent replaces this module.

Builders follow the contract at the top of :mod:`handbook.ui.routes`:
``build_tools`` (/tools), ``build_chombo`` (/tools/chombo), ``build_revealed`` (/tools/revealed),
``build_strikes`` (/tools/strikes), each ``(ctx: AppContext) -> ft.View``.
"""

from __future__ import annotations

import flet as ft

from handbook.ui.context import AppContext


def _coming_soon(ctx: AppContext, title: str, *, back: bool = True) -> ft.View:
    _ = ctx._
    return ctx.view(route=ctx.route, title=title, back=back, controls=[ft.Text(_("Coming soon"))])


def build_tools(ctx: AppContext) -> ft.View:
    _ = ctx._
    items = [
        (_("Chombo settlement"), "/tools/chombo"),
        (_("Revealed tiles"), "/tools/revealed"),
        (_("Strikes"), "/tools/strikes"),
        (_("Ledger"), "/ledger"),
    ]
    return ctx.view(
        route=ctx.route, title=_("Tools"), back=False,
        controls=[ft.ListTile(title=ft.Text(label), on_click=lambda e, r=route: ctx.navigate(r),
                              min_height=56) for label, route in items],
    )


def build_chombo(ctx: AppContext) -> ft.View:
    return _coming_soon(ctx, ctx._("Chombo settlement"))


def build_revealed(ctx: AppContext) -> ft.View:
    return _coming_soon(ctx, ctx._("Revealed tiles"))


def build_strikes(ctx: AppContext) -> ft.View:
    return _coming_soon(ctx, ctx._("Strikes"))
