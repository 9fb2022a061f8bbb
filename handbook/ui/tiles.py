"""Tiles drawn with text, shared by the hand checker and the yaku reference: the number over
萬 筒 索, the honours as 東 南 西 北 白 發 中, a red five red with a dot. No data logic."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from handbook.i18n import N_

SUIT_NAMES = {"m": N_("Characters"), "p": N_("Circles"), "s": N_("Bamboo"), "z": N_("Honours")}
SUIT_GLYPHS = {"m": "萬", "p": "筒", "s": "索"}
SUIT_COLOURS = {"m": "#B71C1C", "p": "#0D47A1", "s": "#1B5E20"}
HONOURS = ("東", "南", "西", "北", "白", "發", "中")
HONOUR_NAMES = (N_("East wind"), N_("South wind"), N_("West wind"), N_("North wind"), N_("White dragon"),
                N_("Green dragon"), N_("Red dragon"))
HONOUR_COLOURS = ("#212121",) * 4 + ("#546E7A", "#1B5E20", "#B71C1C")


def tile_name(code: str, _: Callable[[str], str]) -> str:
    """A tile's accessible name: "5 Circles", "Red 5 Circles", "East wind"."""
    digit, suit = code[0], code[1]
    if suit == "z":
        return _(HONOUR_NAMES[int(digit) - 1])
    if digit == "0":
        return _("Red 5 {suit}").format(suit=_(SUIT_NAMES[suit]))
    return f"{digit} {_(SUIT_NAMES[suit])}"


def tile_face(code: str, *, width: int, height: int) -> ft.Control:
    """A tile drawn with text: the number over 萬/筒/索, an honour's character, a red five red
    with a dot (told apart without colour too). Light like a real tile in either theme.

    ``width`` x ``height`` px at 100 % text: the face is its text with padding (lines one font size
    tall, a little more for a number over its suit; a CJK glyph is one font size wide), not a fixed
    box, so at 200 % text the tile grows with its glyphs instead of cutting them."""
    digit, suit = code[0], code[1]
    if suit == "z":
        i = int(digit) - 1
        size = height * 0.5
        spans = [ft.TextSpan(HONOURS[i], ft.TextStyle(size=size, height=1.0, weight=ft.FontWeight.W_700,
                                                      color=HONOUR_COLOURS[i]))]
        glyph_w, text_h = size, size
    else:
        red = digit == "0"
        big, small = height * 0.36, height * 0.26
        spans = [ft.TextSpan("5•" if red else digit, ft.TextStyle(size=big, height=1.1, weight=ft.FontWeight.W_800,
                                                                  color="#D50000" if red else "#212121")),
                 ft.TextSpan("\n" + SUIT_GLYPHS[suit], ft.TextStyle(
                     size=small, height=1.15, weight=ft.FontWeight.W_600,
                     color="#D50000" if red else SUIT_COLOURS[suit]))]
        glyph_w, text_h = max(small, big * (1.0 if red else 0.6)), big * 1.1 + small * 1.15
    pad_x, pad_y = max(1.0, (width - 2 - glyph_w) / 2), max(1.0, (height - 2 - text_h) / 2)
    return ft.Container(content=ft.Text(spans=spans, text_align=ft.TextAlign.CENTER),
                        padding=ft.Padding.symmetric(horizontal=pad_x, vertical=pad_y),
                        bgcolor="#FFFBF2", border=_TILE_BORDER, border_radius=6)


_TILE_BORDER = ft.Border.all(1, "#9E9E9E")


__all__ = ["HONOURS", "HONOUR_COLOURS", "HONOUR_NAMES", "SUIT_COLOURS", "SUIT_GLYPHS", "SUIT_NAMES", "tile_face",
           "tile_name"]
