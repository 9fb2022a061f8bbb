"""Screens and pieces shared by several areas."""

from __future__ import annotations

import flet as ft

from handbook.ui.context import AppContext


def build_not_found(ctx: AppContext, missing: str = "", reason: str = "") -> ft.View:
    """Shown for a route or an entry that does not exist (a stale deep link)."""
    _ = ctx._
    return ctx.view(
        route=ctx.route,
        title=_("Not found"),
        back="/",
        controls=[
            ft.Text(_("There is nothing at this address."), size=16),
            ft.Text(missing),
            ft.FilledButton(_("Go to search"), icon=ft.Icons.SEARCH, on_click=lambda e: ctx.navigate("/"),
                            height=48),
        ],
    )
