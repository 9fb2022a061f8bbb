"""Every path the app uses, in one place.

Content that Python reads ships inside the package data (``content/`` next to the ``handbook``
package in a checkout; web builds copy it). User data lives in the platform's data directory:
``FLET_APP_STORAGE_DATA`` when Flet sets it (``flet run`` and built apps), else
``HANDBOOK_DATA_DIR``, else ``~/.local/share/riichi-judge-handbook`` (platformdirs' user data dir).
Caches that only save time (the compiled content-schema validators) live in the user cache dir:
``HANDBOOK_CACHE_DIR`` (empty: no cache), else ``~/.cache/riichi-judge-handbook``.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent
#: the shipped content (another folder is passed by argument: ``load_library(dir)``, ``check DIR``)
CONTENT_DIR = ROOT_DIR / "content"
LOCALES_DIR = ROOT_DIR / "locales"
ASSETS_DIR = ROOT_DIR / "assets"
APP_NAME = "riichi-judge-handbook"


def data_dir() -> Path:
    """The writable folder for the ledger and settings (created on first use)."""
    env = os.environ.get("FLET_APP_STORAGE_DATA") or os.environ.get("HANDBOOK_DATA_DIR")
    if env:
        path = Path(env)
    else:
        try:
            from platformdirs import user_data_dir

            path = Path(user_data_dir(APP_NAME, appauthor=False))
        except ImportError:  # pragma: no cover - platformdirs ships with flet's dependencies
            path = Path.home() / ".local" / "share" / APP_NAME
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path | None:
    """The folder for caches that only save time (never created here), or ``None`` for none:
    ``HANDBOOK_CACHE_DIR`` (set but empty: no cache), else platformdirs' user cache dir; none in
    the browser build (Pyodide), whose file system does not outlive the page."""
    env = os.environ.get("HANDBOOK_CACHE_DIR")
    if env is not None:
        return Path(env) if env.strip() else None
    if sys.platform == "emscripten":
        return None
    try:
        from platformdirs import user_cache_dir
    except ImportError:  # pragma: no cover - platformdirs ships with flet's dependencies
        return None
    return Path(user_cache_dir(APP_NAME, appauthor=False))


def write_cache_file(path: Path, data: bytes) -> bool:
    """Write ``data`` to the cache file ``path`` whole or not at all (a temporary file renamed into
    place: a start reading it meanwhile sees the old file or the new one, never half); True when
    written. A read-only or full disk is left alone (a cache only saves time): False."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        return False
    return True
