"""PLACEHOLDER — the ledger agent replaces this module.

Builders follow the contract at the top of :mod:`handbook.ui.routes`:
``build_ledger`` (/ledger) ``(ctx) -> ft.View`` and ``build_player`` (/ledger/<player>)
``(ctx, player: str) -> ft.View``.
"""

from __future__ import annotations

import flet as ft

from handbook.ui.context import AppContext


def build_ledger(ctx: AppContext) -> ft.View:
    _ = ctx._
    return ctx.view(route=ctx.route, title=_("Ledger"), controls=[ft.Text(_("Coming soon"))])


def build_player(ctx: AppContext, player: str) -> ft.View:
    _ = ctx._
    return ctx.view(route=ctx.route, title=player, controls=[ft.Text(_("Coming soon"))])
