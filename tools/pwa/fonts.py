"""Fonts cut to what the app draws (fontTools), and Flet's font manifest trimmed."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from handbook.ui.webclient import FONT_FAMILY, FONTS, UNUSED_FONT_FAMILIES, engine_font_manifest
from tools.pwa.config import log


def trim_font_manifest(out: Path) -> None:
    path = out / "assets" / "FontManifest.json"
    families = json.loads(path.read_text(encoding="utf-8"))
    kept = []
    for family in families:
        if family["family"].startswith(UNUSED_FONT_FAMILIES):
            for font in family["fonts"]:
                (out / "assets" / font["asset"]).unlink(missing_ok=True)
        else:
            kept.append(family)
    path.write_text(json.dumps(kept), encoding="utf-8")
    for package in ("flutter_math_fork", "cupertino_icons"):
        shutil.rmtree(out / "assets" / "packages" / package, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# Fonts cut to what the app draws (fontTools, pinned in pyproject.toml's [build] extra)
# ---------------------------------------------------------------------------------------------
APP_FONT_FAMILY = FONT_FAMILY
APP_FONT = FONTS[FONT_FAMILY]   # relative to the web root
#: Always in the Japanese subset besides every character of content/, locales/ and handbook/:
#: ASCII, Latin-1 and Latin Extended-A (romaji with macrons: ryūkyoku), general punctuation,
#: arrows, CJK punctuation, hiragana, katakana (+ phonetic extensions), full- and half-width
#: forms, the JIS X 0208 non-kanji rows and level-1 kanji (the 2,965 everyday kanji a user types).
FONT_RANGES = ((0x20, 0x7E), (0xA0, 0x17F), (0x2000, 0x206F), (0x2190, 0x21FF), (0x3000, 0x30FF),
               (0x31F0, 0x31FF), (0xFF00, 0xFFEF))
JIS_ROWS = range(1, 48)        # JIS X 0208 rows 1-15: symbols and kana; 16-47: level-1 kanji
TEXT_SOURCES = ("content", "locales", "handbook", "main.py")
TEXT_SUFFIXES = (".toml", ".po", ".pot", ".py")
#: Material icons Flutter's own widgets draw (back arrow, dropdown arrows, date picker, chips,
#: search, overflow menus, expansion tiles, text-field clear/visibility): kept besides every
#: ``Icons.NAME`` the app's source names.
FRAMEWORK_ICONS = (
    "arrow_back", "arrow_back_ios", "arrow_forward", "arrow_forward_ios", "arrow_drop_down",
    "arrow_drop_up", "arrow_upward", "arrow_downward", "close", "cancel", "clear", "menu",
    "more_vert", "more_horiz", "search", "check", "check_box", "check_box_outline_blank",
    "chevron_left", "chevron_right", "keyboard_arrow_left", "keyboard_arrow_right",
    "keyboard_arrow_down", "keyboard_arrow_up", "expand_more", "expand_less", "edit",
    "calendar_today", "date_range", "access_time", "keyboard", "keyboard_outlined", "visibility",
    "visibility_off", "error", "error_outline", "info_outline", "drag_handle", "add", "remove",
    "refresh", "done", "radio_button_checked", "radio_button_unchecked",
)

#: Flutter icon names that are another icon's glyph (Icons.copy is Icons.content_copy)
ICON_ALIASES = {"copy": "content_copy", "cut": "content_cut", "paste": "content_paste"}


def font_characters(root: Path) -> set[str]:
    """Every character the Japanese font must draw (see FONT_RANGES and JIS_ROWS)."""
    chars = {chr(c) for lo, hi in FONT_RANGES for c in range(lo, hi + 1)}
    for row in JIS_ROWS:
        for cell in range(1, 95):
            try:
                chars.add(bytes([0xA0 + row, 0xA0 + cell]).decode("euc_jp"))
            except UnicodeDecodeError:
                pass
    for item in TEXT_SOURCES:
        p = root / item
        files = [p] if p.is_file() else sorted(p.rglob("*")) if p.is_dir() else []
        for f in files:
            if f.is_file() and f.suffix in TEXT_SUFFIXES and "__pycache__" not in f.parts:
                chars.update(f.read_text(encoding="utf-8"))
    return {c for c in chars if c.isprintable() or c == " "}


def app_icon_names(root: Path) -> set[str]:
    """``Icons.NAME`` in the app's source, lower-cased (``GAVEL_OUTLINED`` -> ``gavel_outlined``)."""
    names: set[str] = set()
    for f in [root / "main.py", *sorted((root / "handbook").rglob("*.py"))]:
        if f.is_file():
            names.update(n.lower() for n in re.findall(r"\bIcons\.([A-Z0-9_]+)\b",
                                                        f.read_text(encoding="utf-8")))
    return names


def _subset(src: Path, dst: Path, unicodes: set[int]) -> tuple[int, int]:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.hinting = False          # Flutter's renderer does not use TrueType hinting
    options.notdef_outline = True
    font = TTFont(src)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes))
    subsetter.subset(font)
    dst.parent.mkdir(parents=True, exist_ok=True)
    font.save(dst)
    return len(font.getBestCmap()), dst.stat().st_size


def subset_fonts(out: Path, root: Path) -> dict:
    """Cut the two big fonts to what the app draws, and load Noto Sans JP with the engine.

    * Noto Sans JP (5.5 MB, 17,000 glyphs) -> kana, JIS level-1 kanji, Latin with macrons and
      every character of the content, the catalogs and the UI source (:func:`font_characters`);
      a character outside it (a rare kanji typed into the search) still shows, drawn by the
      browser's fallback, only without this font.
    * MaterialIcons-Regular.otf (1.3 MB, every Material icon) -> the icons the app names and
      those Flutter's own widgets draw (:data:`FRAMEWORK_ICONS`), in all four styles.
    * Noto Sans JP is listed in ``assets/FontManifest.json`` (at the URL ``page.fonts`` uses, so
      one file is downloaded and precached): Flutter loads the fonts listed there before its
      first frame. It is listed as "Roboto" too, in place of Flet's roboto.woff2: Flutter's
      default family, which the app's first screen is laid out with once while MaterialApp
      animates from its default theme to the page's. With Roboto alone, the Japanese of that
      frame made Flutter ask for its Noto fallback fonts (``assets/fonts/notosans{jp,sc,kr,
      symbols}/...woff2``: 404 online, failed requests offline) and lay the screen out again as
      each arrived; now every glyph is found and nothing is asked for.
    Returns {file: [glyphs, bytes]} for build-info.json.
    """
    from fontTools.ttLib import TTFont

    report = {}
    src = root / "assets" / APP_FONT
    if src.is_file():
        chars = font_characters(root)
        cmap = TTFont(src).getBestCmap()
        missing = sorted(c for c in chars if ord(c) not in cmap and ord(c) > 0x7F
                         and not any(lo <= ord(c) <= hi for lo, hi in FONT_RANGES))
        if missing:
            log(f"note: {len(missing)} characters of the app are not in {APP_FONT}: "
                f"{''.join(missing[:40])}")
        report[APP_FONT] = _subset(src, out / APP_FONT, {ord(c) for c in chars})
        manifest_path = out / "assets" / "FontManifest.json"
        families = json.loads(manifest_path.read_text(encoding="utf-8"))
        for family in families:
            if family["family"] == "Roboto":   # Flet's roboto.woff2 is no longer loaded
                for font in family["fonts"]:
                    (out / "assets" / font["asset"]).unlink(missing_ok=True)
        # FontManifest assets resolve against <base>/assets/: "../" reaches the web root
        families = engine_font_manifest(families, APP_FONT_FAMILY, "../" + APP_FONT)
        manifest_path.write_text(json.dumps(families), encoding="utf-8")

    icons_rel = "assets/fonts/MaterialIcons-Regular.otf"
    icons = out / icons_rel
    if icons.is_file():
        font = TTFont(icons)
        by_name = {name: code for code, name in font.getBestCmap().items()}
        styles = ("baseline", "outlined", "rounded", "sharp")
        codes, unknown = {0x20}, []
        for name in sorted(set(FRAMEWORK_ICONS) | app_icon_names(root)):
            base = next((name.removesuffix("_" + st) for st in styles[1:]
                         if name.endswith("_" + st)), name)
            base = ICON_ALIASES.get(base, base)
            glyph = ("_" + base) if base[:1].isdigit() else base
            found = [by_name[f"{glyph}_{st}"] for st in styles if f"{glyph}_{st}" in by_name]
            if not found:
                unknown.append(name)
            codes.update(found)   # every style: a later screen may use another one
        if unknown:
            raise SystemExit(f"{icons_rel}: no glyph for the icons {unknown} "
                             "(a Flutter alias missing from ICON_ALIASES?)")
        report[icons_rel] = _subset(icons, icons, codes)
    return report


