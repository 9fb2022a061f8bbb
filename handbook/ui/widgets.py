"""Flet building blocks shared by the screens: rule text with § links, result rows, badges."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import flet as ft

from handbook.ui.text import Block, Segment, blocks, segments

if TYPE_CHECKING:  # pragma: no cover
    from handbook.ui.context import AppContext

BODY_SIZE = 16
SMALL_SIZE = 14


def link_style() -> ft.TextStyle:
    return ft.TextStyle(color=ft.Colors.PRIMARY, decoration=ft.TextDecoration.UNDERLINE,
                        weight=ft.FontWeight.W_600)


def spans(ctx: "AppContext", segs: Sequence[Segment]) -> list[ft.TextSpan]:
    """TextSpans for ``segs``: links navigate to their section (accessible name "§4.1")."""
    out: list[ft.TextSpan] = []
    for s in segs:
        if s.is_link:
            route = s.route

            def go(e, r=route):
                ctx.navigate(r)

            out.append(ft.TextSpan(s.text, style=link_style(), on_click=go, semantics_label=s.text))
        else:
            out.append(ft.TextSpan(s.text))
    return out


def rich_text(ctx: "AppContext", text: str, *, ruleset: str | None, size: int = BODY_SIZE,
              selectable: bool = False, **kw) -> ft.Text:
    """``text`` with its section references as tappable links."""
    segs = segments(text, ruleset=ruleset, library=ctx.library)
    if not any(s.is_link for s in segs):
        return ft.Text(text, size=size, selectable=selectable, **kw)
    return ft.Text(spans=spans(ctx, segs), size=size, selectable=selectable, **kw)


def block_control(ctx: "AppContext", block: Block, *, ruleset: str | None) -> ft.Control:
    """One paragraph or list item of rule text."""
    body = rich_text(ctx, block.text, ruleset=ruleset, expand=True)
    if block.kind == "para":
        return ft.Container(content=body, padding=ft.Padding.only(top=4, bottom=4))
    marker = block.marker if block.kind == "number" else "•"
    return ft.Row(
        controls=[ft.Container(content=ft.Text(marker, size=BODY_SIZE), width=24), body],
        vertical_alignment=ft.CrossAxisAlignment.START,
        spacing=4,
        margin=ft.Margin.only(left=8 + 20 * block.level),
    )


def rule_text(ctx: "AppContext", text: str, *, ruleset: str | None) -> list[ft.Control]:
    """A section's full text: paragraphs and lists, § references as links."""
    return [block_control(ctx, b, ruleset=ruleset) for b in blocks(text)]


def badge(text: str, *, color: str | None = None, bgcolor: str | None = None,
          tooltip: str | None = None) -> ft.Control:
    """A small rounded label ("AZRM", "Strike", "Differs")."""
    return ft.Container(
        content=ft.Text(text, size=12, weight=ft.FontWeight.W_600,
                        color=color or ft.Colors.ON_SECONDARY_CONTAINER),
        bgcolor=bgcolor or ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        border_radius=8,
        tooltip=tooltip,
    )


def section_heading(text: str, *, count: int | None = None) -> ft.Control:
    """A group heading in a list ("Rules (3)"); announced as a heading."""
    label = text if count is None else f"{text} ({count})"
    return ft.Semantics(
        header=True,
        content=ft.Container(
            content=ft.Text(label, size=SMALL_SIZE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
            padding=ft.Padding.only(left=4, top=16, bottom=4),
        ),
    )


def nav_tile(ctx: "AppContext", title: str, route: str, *, subtitle: str | Sequence[str] | None = None,
             leading: ft.Control | None = None, trailing: ft.Control | None = None,
             key: str | None = None, title_size: int = BODY_SIZE) -> ft.ListTile:
    """A list row (min. 56 px high) that opens ``route``; its accessible name is its text."""
    if isinstance(subtitle, str):
        sub: ft.Control | None = ft.Text(subtitle, size=SMALL_SIZE)
    elif subtitle:
        sub = ft.Column([ft.Text(s, size=SMALL_SIZE) for s in subtitle if s], spacing=2, tight=True)
    else:
        sub = None
    return ft.ListTile(
        title=ft.Text(title, size=title_size, weight=ft.FontWeight.W_500),
        subtitle=sub,
        leading=leading,
        trailing=trailing,
        on_click=lambda e, r=route: ctx.navigate(r),
        min_height=56,
        content_padding=ft.Padding.symmetric(horizontal=8),
        key=key,
        data=route,
    )


def filter_field(ctx: "AppContext", on_change: Callable[[str], None], *, value: str = "",
                 hint: str | None = None) -> ft.TextField:
    """The filter box of a list screen (accessible name "Filter")."""
    def changed(e):
        on_change(e.control.value or "")

    return ft.TextField(
        label=ctx._("Filter"),
        value=value,
        hint_text=hint,
        prefix_icon=ft.Icons.FILTER_LIST,
        on_change=changed,
        dense=False,
        border=ft.OutlineInputBorder(border_radius=12),
        text_size=BODY_SIZE,
    )


def empty_note(text: str) -> ft.Control:
    return ft.Container(content=ft.Text(text, size=BODY_SIZE, italic=True,
                                        color=ft.Colors.ON_SURFACE_VARIANT),
                        padding=ft.Padding.symmetric(vertical=16, horizontal=8))


def refresh(*controls: ft.Control) -> None:
    """Send changed ``controls`` to the client; controls not on a page (view tests) are skipped."""
    for c in controls:
        try:
            page = c.page
        except RuntimeError:
            continue
        page.update(c)
