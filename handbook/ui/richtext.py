"""Rule text on screen: paragraphs and lists with their § references marked, and a 48-px button
under each paragraph for every reference it holds (a link inside a line is only as tall as the line)."""

from __future__ import annotations

from collections.abc import Sequence

import flet as ft

from handbook.ui.context import TOUCH, AppContext
from handbook.ui.text import Block, Segment, blocks, segments

BODY_SIZE = 16


def link_style() -> ft.TextStyle:
    return ft.TextStyle(color=ft.Colors.PRIMARY, decoration=ft.TextDecoration.UNDERLINE,
                        weight=ft.FontWeight.W_600)


def ref_style() -> ft.TextStyle:
    """A § reference inside a paragraph: marked, not underlined (it is not itself tappable: the
    paragraph's link buttons are, :func:`link_buttons`)."""
    return ft.TextStyle(color=ft.Colors.PRIMARY, weight=ft.FontWeight.W_600)


def spans(ctx: "AppContext", segs: Sequence[Segment]) -> list[ft.TextSpan]:
    """TextSpans for ``segs``, the references marked (:func:`ref_style`). They are not tappable: a
    link inside a line of text is as tall as the line (30-33 px at 412 px wide), under the 48 px a
    finger needs; :func:`link_buttons` gives each its own target."""
    return [ft.TextSpan(s.text, style=ref_style()) if s.is_link else ft.TextSpan(s.text) for s in segs]


#: a link button as tall as its label needs, at least TOUCH px: a one-line 14-px label (20 px) and
#: 14 px above and below (a fixed height would cut its text at 200 %)
_LINK_BUTTON = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8, vertical=(TOUCH - 20) // 2))


def link_buttons(ctx: "AppContext", segs: Sequence[Segment]) -> list[ft.Control]:
    """One 48-px button per distinct link of ``segs``, in order, named by the reference's text
    ("§4.1", "AZRM §2.4"), opening its section."""
    out: list[ft.Control] = []
    seen: set[str] = set()
    for s in segs:
        if not s.is_link or s.route in seen:
            continue
        seen.add(s.route)

        def go(e, r=s.route):
            ctx.navigate(r)

        out.append(ft.TextButton(
            content=ft.Text(s.text, style=link_style()), icon=ft.Icons.ARROW_FORWARD, on_click=go, data=s.route,
            style=_LINK_BUTTON))
    return out


def rich_text(ctx: "AppContext", text: str, *, ruleset: str | None, size: int = BODY_SIZE,
              selectable: bool = False, expand: bool | int | None = None, **kw) -> ft.Control:
    """``text`` with its section references marked, and under it a row of 48-px buttons, one per
    reference (:func:`link_buttons`); ``kw`` go to the text (``color``)."""
    segs = segments(text, ruleset=ruleset, library=ctx.library)
    if not any(s.is_link for s in segs):
        return ft.Text(text, size=size, selectable=selectable, expand=expand, **kw)
    body = ft.Text(spans=spans(ctx, segs), size=size, selectable=selectable, **kw)
    return ft.Column([body, ft.Row(link_buttons(ctx, segs), spacing=4, run_spacing=0, wrap=True)],
                     spacing=0, tight=True, expand=expand)


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
