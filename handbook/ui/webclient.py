"""Flet 1.0.5's compiled web client asks a CDN for one script; here it is pointed at our origin.

Flet's web client (``flet_web/web/main.dart.js``) bundles the rive_native Flutter plugin, whose
start-up code appends ``<script src="https://cdn.jsdelivr.net/npm/@rive-app/
flutter-native-wasm@44.0.0/wasm/rive_native.js">`` on every page load, whatever ``no_cdn`` says.
Offline that request fails harmlessly; online it loads code from a CDN for animations this app
never shows, and tells a third party that someone opened the handbook. :func:`without_rive_cdn`
points the base URL at a same-origin folder that is not shipped (:data:`RIVE_LOCAL`): the
script fails to load exactly as it does offline, and no request leaves the app's origin.

Used twice: by the served app (:func:`install_local_rive`, which patches flet-web's static files
to answer ``main.dart.js`` and ``main.dart.wasm`` with rewritten copies) and by the PWA build
(``tools/pwa/build.py``, workaround 6).

Delete when: Flet loads rive_native lazily (or from its own origin).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

RIVE_CDN = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/"
RIVE_LOCAL = "rive-native-not-bundled/"
#: the same for the WebAssembly build (``main.dart.wasm``, which Chromium runs with the skwasm
#: renderer): a string of the same length, so the binary's layout is unchanged
RIVE_LOCAL_WASM = RIVE_LOCAL + "_" * (len(RIVE_CDN) - len(RIVE_LOCAL) - 1) + "/"
MAIN_JS = "main.dart.js"
MAIN_WASM = "main.dart.wasm"


def without_rive_cdn(js: str) -> str:
    """``main.dart.js`` with the Rive CDN base URL replaced by :data:`RIVE_LOCAL`.

    ``ValueError`` unless the text names the CDN exactly once (Flet changed: look again)."""
    n = js.count(RIVE_CDN)
    if n != 1:
        raise ValueError(f"main.dart.js: expected one {RIVE_CDN!r}, found {n} -- has Flet changed?")
    return js.replace(RIVE_CDN, RIVE_LOCAL)


def without_rive_cdn_wasm(data: bytes) -> bytes:
    """``main.dart.wasm`` with the Rive CDN base URL replaced by :data:`RIVE_LOCAL_WASM` (the
    same number of bytes). ``ValueError`` unless the binary names the CDN exactly once."""
    cdn = RIVE_CDN.encode("ascii")
    n = data.count(cdn)
    if n != 1:
        raise ValueError(f"main.dart.wasm: expected one {RIVE_CDN!r}, found {n} -- has Flet changed?")
    return data.replace(cdn, RIVE_LOCAL_WASM.encode("ascii"))


_patched: dict[str, Path] = {}


def _rewritten_client() -> dict[str, Path]:
    """Private copies of flet-web's ``main.dart.js`` and ``main.dart.wasm`` without the CDN
    (made once per process, in a folder only this user can write, removed at exit)."""
    if _patched:
        return _patched
    try:
        from flet_web import get_package_web_dir
    except ImportError:  # pragma: no cover
        return {}
    web = Path(get_package_web_dir())
    folder = Path(tempfile.mkdtemp(prefix="riichi-handbook-web-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / MAIN_JS).write_text(without_rive_cdn((web / MAIN_JS).read_text(encoding="utf-8")),
                                  encoding="utf-8")
    if (web / MAIN_WASM).exists():
        (folder / MAIN_WASM).write_bytes(without_rive_cdn_wasm((web / MAIN_WASM).read_bytes()))
    _patched.update({p.name: p for p in folder.iterdir()})
    return _patched


def install_local_rive() -> bool:
    """Patch flet-web's static files so the served app's client (``main.dart.js`` and
    ``main.dart.wasm``) asks no CDN
    (True when the patch is in place)."""
    import os

    try:
        from flet_web.fastapi.flet_static_files import FletStaticFiles
    except ImportError:  # pragma: no cover - flet-web is what serves the app
        return False
    if getattr(FletStaticFiles.lookup_path, "_handbook_rive", False):
        return True
    targets = _rewritten_client()
    if not targets:  # pragma: no cover
        return False
    original = FletStaticFiles.lookup_path

    def lookup_path(self, path: str):
        target = targets.get(path.lstrip("/"))
        if target is not None:
            return str(target), os.stat(target)
        return original(self, path)

    lookup_path._handbook_rive = True  # type: ignore[attr-defined]
    lookup_path._handbook_patched = getattr(original, "_handbook_patched", False)  # type: ignore[attr-defined]
    FletStaticFiles.lookup_path = lookup_path  # type: ignore[method-assign]
    return True
