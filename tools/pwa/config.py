"""Where the PWA build reads and writes, what the app is called, and the versions the patches
are written for (``tools/pwa``: see ``build.py``)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_OUT = ROOT / "build" / "pwa"
# Not "build/pwa-…": flet publish skips every file whose path *string* starts with the output
# folder's (flet/utils/files.py:is_within_directory uses os.path.commonprefix), which would pack
# an empty app.
DEFAULT_WORK = ROOT / "build" / "stage-pwa"

# ---------------------------------------------------------------------------------------------
# What the app is called and looks like when installed: read from pyproject.toml ([tool.flet],
# [tool.flet.web]) so `flet build` and the PWA agree; the defaults are the same values.
# ---------------------------------------------------------------------------------------------
def _pyproject(root: Path = ROOT) -> dict:
    import tomllib

    try:
        return tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except OSError:
        return {}


_PP = _pyproject()
_FLET = _PP.get("tool", {}).get("flet", {})
_WEB = _FLET.get("web", {})
APP_NAME = _FLET.get("product", "Riichi Judge Handbook")
APP_SHORT_NAME = _WEB.get("pwa_short_name", "Judge Handbook")
APP_DESCRIPTION = _PP.get("project", {}).get(
    "description", "An offline judge handbook for competitive riichi mahjong")
THEME_COLOR = _WEB.get("pwa_theme_color", "#1B5E20")            # felt green, as the app icon
BACKGROUND_COLOR = _WEB.get("pwa_background_color", "#FFFFFF")  # the splash screen
ICON_SIZES = (192, 512)          # icons/pwa-192.png, icons/pwa-512.png (drawn at build time)

# ---------------------------------------------------------------------------------------------
# Versions this build is written for (the workarounds depend on Flet's exact layout)
# ---------------------------------------------------------------------------------------------
FLET_VERSION = "1.0.5"
PYTHON_SHORT = "3.14"
PYTHON_FULL = "3.14.2"         # pyodide-lock.json "info.python" of Pyodide 314.0.7
PYODIDE_VERSION = "314.0.7"

# The app folder: what Python in the browser gets (everything else stays out of app.tar.gz).
APP_ITEMS = ("main.py", "handbook", "content", "locales", "assets", "pyproject.toml")
SKIP_DIRS = {"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
SKIP_SUFFIXES = (".pyc", ".pyo", ".po", ".pot")   # .po are compiled to .mo at staging

# Distributions put into the app's __pypackages__ (pure Python only). flet needs msgpack and
# repath (which needs six) in Pyodide; the rest are the handbook's own [project] dependencies
# (fsrs, the study scheduler, imports typing_extensions; jaconv gives the Japanese titles their
# gojūon order and search its kana romaji; mahjong counts a hand's yaku, han and fu; budoux finds
# Japanese phrase boundaries).
VENDORED = ("flet", "msgpack", "repath", "six", "tinydb", "babel", "rapidfuzz", "fastjsonschema",
            "snowballstemmer", "platformdirs", "filelock", "fsrs", "typing_extensions", "simplemma",
            "jaconv", "mahjong", "budoux")
UI_LOCALES = ("en", "ja")       # the UI's languages
#: Babel locale data kept: the UI languages, the parents Babel resolves them through, British
#: English (a judge's device setting); any other locale falls back to "en" (handbook.i18n)
BABEL_LOCALES = ("root", "en", "en_001", "en_150", "en_GB", "en_US_POSIX", "ja", "ja_JP")
STEMMERS_KEPT = ("english",)    # snowballstemmer languages kept
LEMMA_LANGUAGES = ("en",)       # simplemma dictionaries kept (data/<lang>.plzma; 54 ship, 19 MB)


def log(msg: str) -> None:
    print(f"[pwa] {msg}", flush=True)

