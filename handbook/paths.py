"""Every path the app uses, in one place.

Content that Python reads ships inside the package data (``content/`` next to the ``handbook``
package in a checkout; web builds copy it). User data lives in the platform's data directory:
``FLET_APP_STORAGE_DATA`` when Flet sets it (``flet run`` and built apps), else
``HANDBOOK_DATA_DIR``, else ``~/.local/share/riichi-judge-handbook`` (platformdirs' user data dir).
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent
CONTENT_DIR = Path(os.environ.get("HANDBOOK_CONTENT_DIR", ROOT_DIR / "content"))
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
