"""Draw the app icons into ``assets/`` (run once after changing the design; needs Pillow):

    .venv/bin/python -m handbook.ui.make_icons

A white mahjong tile carrying 判 (judge) on the felt green of ``[tool.flet] icon_background``,
drawn with the bundled Noto Sans JP. Writes ``icon.png`` (``flet build``), ``favicon.png`` and
``icons/*.png`` (the web app and its PWA manifest; Flet serves these instead of its own).
"""

from __future__ import annotations

from pathlib import Path

from handbook.paths import ASSETS_DIR

GREEN = (27, 94, 32, 255)       # #1B5E20
TILE = (250, 248, 240, 255)
TILE_EDGE = (200, 196, 180, 255)
INK = (27, 94, 32, 255)
GLYPH = "判"


def draw(size: int, *, maskable: bool = False, rounded: bool = True):
    from PIL import Image, ImageDraw, ImageFont

    scale = 4  # draw large, then downsample for smooth edges
    s = size * scale
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    if maskable or not rounded:
        d.rectangle((0, 0, s, s), fill=GREEN)
    else:
        d.rounded_rectangle((0, 0, s - 1, s - 1), radius=int(s * 0.22), fill=GREEN)
    # the tile: 3:4, inside the maskable safe zone (central 80 %) when maskable
    zone = 0.62 if maskable else 0.74
    th = s * zone
    tw = th * 0.76
    x0, y0 = (s - tw) / 2, (s - th) / 2
    depth = s * 0.035
    d.rounded_rectangle((x0, y0 + depth, x0 + tw, y0 + th + depth), radius=int(s * 0.06), fill=TILE_EDGE)
    d.rounded_rectangle((x0, y0, x0 + tw, y0 + th), radius=int(s * 0.06), fill=TILE)
    font = ImageFont.truetype(str(ASSETS_DIR / "fonts" / "NotoSansJP-Regular.ttf"), int(th * 0.62))
    box = d.textbbox((0, 0), GLYPH, font=font)
    gw, gh = box[2] - box[0], box[3] - box[1]
    d.text((s / 2 - gw / 2 - box[0], y0 + th / 2 - gh / 2 - box[1]), GLYPH, font=font, fill=INK,
           stroke_width=int(s * 0.006), stroke_fill=INK)
    return img.resize((size, size), Image.LANCZOS)


def main(out: Path = ASSETS_DIR) -> list[Path]:
    icons = out / "icons"
    icons.mkdir(parents=True, exist_ok=True)
    written = []
    for path, size, kw in (
        (out / "icon.png", 1024, {"rounded": False}),
        (out / "favicon.png", 64, {}),
        (icons / "icon-192.png", 192, {}),
        (icons / "icon-512.png", 512, {}),
        (icons / "apple-touch-icon-192.png", 192, {"rounded": False}),
        (icons / "icon-maskable-192.png", 192, {"maskable": True}),
        (icons / "icon-maskable-512.png", 512, {"maskable": True}),
    ):
        draw(size, **kw).save(path, optimize=True)
        written.append(path)
    return written


if __name__ == "__main__":
    for p in main():
        print(p)
