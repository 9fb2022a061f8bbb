"""Pieces the calculator screens share (``/tools/...``): the ruleset and edition pickers, the
result card, bullet notes and signed table points."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import flet as ft

from handbook import i18n
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.routes import section_route
from handbook.ui.text import ref_label
from handbook.ui.widgets import (
    SMALL_SIZE,
    BODY_SIZE,
    named,
)



def signed(n: int, locale: str | None = None) -> str:
    """+4,000 / −8,000 / 0 with ``locale``'s separators (the session's: ``ctx.locale``)."""
    if n > 0:
        return "+" + i18n.format_decimal(n, locale=locale)
    if n < 0:
        return "\u2212" + i18n.format_decimal(-n, locale=locale)
    return "0"


def ruleset_picker(ctx: AppContext, value: str, on_pick: Callable[[str], None],
                    ids: Sequence[str] | None = None) -> ft.Dropdown:
    _ = ctx._
    ids = list(ids or ctx.library.rulesets)

    def picked(e):
        on_pick(e.control.value)

    return named(ft.Dropdown(
        label=_("Ruleset"), value=value, expand=True, text_size=BODY_SIZE,
        options=[ft.DropdownOption(key=r, text=ctx.library.rulesets[r].short) for r in ids],
        on_select=picked, key="ruleset",
    ))


def card(controls: list[ft.Control], *, key: str = "result") -> ft.Container:
    return ft.Container(
        content=ft.Column(controls=controls, spacing=12, tight=True),
        padding=16, border_radius=16, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        margin=ft.Margin.only(top=8), key=key,
    )


def notes_list(notes: Sequence[str]) -> list[ft.Control]:
    return [ft.Row([ft.Text("•", size=BODY_SIZE), ft.Text(n, size=BODY_SIZE, expand=True)],
                   vertical_alignment=ft.CrossAxisAlignment.START, spacing=8) for n in notes]


SOURCE_EDITION = "source"


def edition_picker(ctx: AppContext, editions: dict, chosen: str | None, on_select) -> list[ft.Control]:
    """An "Edition" dropdown where ``editions`` (``{None: the source's text, id: name}``) offers
    more than the source's text; nothing otherwise."""
    if len(editions) < 2:
        return []
    _ = ctx._
    # the source's text first; its name already says it is the handbook's source
    options = [ft.DropdownOption(key=SOURCE_EDITION, text=ctx.hb(editions[None]))]
    options += [ft.DropdownOption(key=k, text=_("{edition} — a later edition (public source)").format(edition=ctx.hb(name)))
                for k, name in editions.items() if k is not None]
    return [named(ft.Dropdown(label=_("Edition"), value=chosen or SOURCE_EDITION, options=options, expand=True,
                              text_size=BODY_SIZE, on_select=on_select, key="edition"))]


__all__ = ["SOURCE_EDITION", "card", "edition_picker", "notes_list", "ruleset_picker", "signed"]


def option_source(ctx: AppContext, option) -> list[ft.Control]:
    """A scoring option's source (``content/scoring.toml``): a link to the section where the ruleset
    says it, else its words marked as a public source or the handbook's assumption; ``[]`` for none."""
    if option is None:
        return []
    _ = ctx._
    if option.ref:
        rs_id, ref = option.ref
        label = _("Rule: {where}").format(where=f"{ctx.short(rs_id)} {ref_label(ref)}")
        return [ft.TextButton(content=label, icon=ft.Icons.MENU_BOOK_OUTLINED, height=TOUCH,
                              on_click=lambda e: ctx.navigate(section_route(rs_id, ref)))]
    kind = _("Handbook's assumption") if option.basis == "assumption" else _("Public source")
    return [ft.Text(f"{kind}: {ctx.hb(option.cite)}", size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)]
