"""Flet building blocks shared by the screens: rule text with § links, result rows, badges."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import flet as ft

from handbook.i18n import N_
from handbook.ui.text import Block, Segment, blocks, segments

if TYPE_CHECKING:  # pragma: no cover
    from handbook.ui.context import AppContext

BODY_SIZE = 16
#: smallest touch target (Material: 48 x 48 logical px)
TOUCH_MIN = 48
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


def snack_bar(ctx: "AppContext", text: str, *, action: str | None = None,
              on_action: Callable | None = None, seconds: int | None = None) -> ft.SnackBar:
    """A message at the bottom of the screen whose buttons a thumb can hit: the ``action`` (e.g.
    "Undo") and a close button, each at least 48 px and named ("Close"). Flutter's own close icon
    and action button are 40 px tall on a desktop-class browser, and the close icon is unnamed."""
    def close(e=None) -> None:
        bar.open = False
        with contextlib.suppress(Exception):
            bar.update()

    def act(e) -> None:
        close()
        if on_action is not None:
            on_action(e)

    buttons: list[ft.Control] = []
    if action:
        buttons.append(ft.TextButton(action, on_click=act, height=48,
                                     style=ft.ButtonStyle(color=ft.Colors.INVERSE_PRIMARY)))
    close_button = ft.IconButton(icon=ft.Icons.CLOSE, icon_color=ft.Colors.ON_INVERSE_SURFACE,
                                 tooltip=ctx._("Close"), on_click=close, width=48, height=48)
    buttons.append(ft.Semantics(label=ctx._("Close"), button=True, exclude_semantics=True, on_tap=close,
                                content=close_button))
    bar = ft.SnackBar(
        content=ft.Row([ft.Text(text, expand=True), *buttons], spacing=4,
                       vertical_alignment=ft.CrossAxisAlignment.CENTER),
        duration=ft.Duration(seconds=seconds or (8 if action else 4)),
        padding=ft.Padding.only(left=16, right=4, top=4, bottom=4),
    )
    return bar


def show_snack(ctx: "AppContext", text: str, **kw) -> None:
    """Show :func:`snack_bar` (nothing on a page stub without dialogs)."""
    with contextlib.suppress(Exception):
        ctx.page.show_dialog(snack_bar(ctx, text, **kw))


def choice_buttons(options: Sequence[tuple[str, str]], selected: str, on_pick: Callable[[str], None], *,
                   key: str | None = None) -> ft.ResponsiveRow:
    """A one-of-several choice as buttons that wrap: two a row on a phone, all in one row from
    576 px; each at least 48 px tall, named by its text, the chosen one filled, ticked and marked
    selected for screen readers. Text never breaks mid-word (unlike a segmented button's narrow
    segments at 360 px or with large text)."""
    row = ft.ResponsiveRow(spacing=8, run_spacing=8, key=key)

    def fill() -> None:
        controls = []
        for value, label in options:
            chosen = value == row.data
            text = ft.Text(label, text_align=ft.TextAlign.CENTER, size=SMALL_SIZE + 1)
            style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8, vertical=14),
                                   shape=ft.RoundedRectangleBorder(radius=12))
            cls = ft.FilledButton if chosen else ft.OutlinedButton
            button = cls(content=text, icon=ft.Icons.CHECK if chosen else None, style=style,
                         on_click=lambda e, v=value: pick(v), key=f"{key}-{value}" if key else None)
            controls.append(ft.Semantics(selected=chosen, content=button, col={"xs": 6, "sm": 3}))
        row.controls = controls

    def pick(value: str) -> None:
        row.data = value
        fill()
        on_pick(value)

    row.data = selected
    fill()
    return row


def body_list(view: ft.Control) -> ft.ListView | None:
    """The scrolling list of a screen built by ``ctx.view`` (the ListView keyed "body")."""
    todo: list[ft.Control] = [view]
    while todo:
        c = todo.pop(0)
        if isinstance(c, ft.ListView) and c.key == "body":
            return c
        content = getattr(c, "content", None)
        if isinstance(content, ft.Control):
            todo.append(content)
        todo.extend(x for x in (getattr(c, "controls", None) or []) if isinstance(x, ft.Control))
    return None


async def scroll_to_top(view: ft.Control) -> None:
    """Scroll the screen's list back to its start (nothing when the view is not on a page)."""
    body = body_list(view)
    if body is None:
        return
    with contextlib.suppress(RuntimeError):  # not on a page (view tests)
        body.page  # noqa: B018 - raises RuntimeError when the control is not on a page
        await body.scroll_to(offset=0, duration=0)


def switch_row(switch: ft.Switch) -> ft.Control:
    """``switch`` (with its ``label``) on a row at least 48 px tall that toggles it anywhere, announced
    as one switch named by the label. A Flet ``Switch`` alone is 40 px tall on a desktop-class browser,
    and stretching it distorts its label."""
    handler = switch.on_change

    async def changed(e) -> None:
        wrapper.toggled = bool(switch.value)
        if handler is not None:
            result = handler(e)
            if inspect.isawaitable(result):
                await result

    async def toggle(e=None) -> None:
        switch.value = not switch.value
        await changed(type("Toggle", (), {"control": switch, "data": switch.value})())
        refresh(wrapper)

    switch.on_change = changed
    wrapper = ft.Semantics(
        label=switch.label if isinstance(switch.label, str) else None, toggled=bool(switch.value),
        exclude_semantics=True, on_tap=toggle,
        content=ft.ListTile(title=switch, on_click=toggle, min_height=TOUCH_MIN,
                            content_padding=ft.Padding.only(right=8)))
    return wrapper
