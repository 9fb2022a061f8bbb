"""Flet building blocks shared by the screens: rule text with § links, result rows, badges."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import flet as ft

from handbook.i18n import N_
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


#: the handbook's own notes, each kind with its label, icon and colours (never the source's words)
NOTE_KINDS: dict[str, tuple[str, str, str, str]] = {
    # kind: (label, icon, background, foreground)
    "conflict": (N_("Conflict in the rules"), ft.Icons.WARNING_AMBER, ft.Colors.ERROR_CONTAINER,
                 ft.Colors.ON_ERROR_CONTAINER),
    "interpretation": (N_("Handbook's reading"), ft.Icons.LIGHTBULB_OUTLINE, ft.Colors.TERTIARY_CONTAINER,
                       ft.Colors.ON_TERTIARY_CONTAINER),
    "edition": (N_("Other editions"), ft.Icons.HISTORY, ft.Colors.SECONDARY_CONTAINER,
                ft.Colors.ON_SECONDARY_CONTAINER),
    "handbook": (N_("Handbook note"), ft.Icons.EDIT_NOTE, ft.Colors.SURFACE_CONTAINER_HIGHEST,
                 ft.Colors.ON_SURFACE),
}


def note_box(ctx: "AppContext", kind: str, text: str, *, ruleset: str | None,
             size: int = SMALL_SIZE, key: str | None = None) -> ft.Control:
    """A note the handbook adds (``kind``: conflict, interpretation, edition, handbook), labelled
    so a judge never takes it for the source's words; § references in it are links."""
    label, icon, bg, fg = NOTE_KINDS[kind]
    head = ft.Row([ft.Icon(icon, size=18, color=fg),
                   ft.Text(ctx._(label), size=12, weight=ft.FontWeight.BOLD, color=fg)],
                  spacing=6, tight=True)
    return ft.Container(
        content=ft.Column([head, rich_text(ctx, text, ruleset=ruleset, size=size, color=fg)],
                          spacing=4, tight=True),
        bgcolor=bg, border_radius=8, padding=ft.Padding.all(10), key=key,
    )


def note_badge(ctx: "AppContext", kind: str) -> ft.Control:
    """The short mark of a note kind for a list row ("Conflict in the rules")."""
    label, icon, bg, fg = NOTE_KINDS[kind]
    return ft.Container(
        content=ft.Row([ft.Icon(icon, size=14, color=fg),
                        ft.Text(ctx._(label), size=12, weight=ft.FontWeight.W_600, color=fg)],
                       spacing=4, tight=True),
        bgcolor=bg, border_radius=8, padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def handbook_notes(ctx: "AppContext", *, ruleset: str | None, conflict: str | None = None,
                   interpretations: Sequence[str] = (), edition_notes: Sequence[str] = ()) -> list[ft.Control]:
    """The note boxes of an entry: its conflict, then the handbook's readings, then edition notes."""
    out: list[ft.Control] = []
    if conflict:
        out.append(note_box(ctx, "conflict", conflict, ruleset=ruleset))
    out += [note_box(ctx, "interpretation", t, ruleset=ruleset) for t in interpretations]
    out += [note_box(ctx, "edition", t, ruleset=ruleset) for t in edition_notes]
    return out
