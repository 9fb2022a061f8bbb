"""Flet 1.0.5's compiled web client, served with two fixes: no CDN, and skwasm on one thread.

Flet's web client (``flet_web/web/main.dart.js``) bundles the rive_native Flutter plugin, whose
start-up code appends a ``<script>`` for ``wasm/rive_native.js`` under the jsDelivr address of the
npm package ``@rive-app/flutter-native-wasm`` on every page load, whatever ``no_cdn`` says.
Offline that request fails harmlessly; online it loads code from a CDN for animations this app
never shows, and tells a third party that someone opened the handbook. :func:`without_rive_cdn`
points the base URL at a same-origin folder (:data:`RIVE_LOCAL`) where the served app answers
``wasm/rive_native.js`` with :data:`RIVE_STUB_JS`: a ``RiveNative`` that never finishes loading,
as the CDN's script never does offline -- no request leaves the app's origin, and the server
logs no 404 on every page load.

The served app also answers ``flutter_bootstrap.js`` with a copy that asks for single-threaded
skwasm (:func:`single_threaded_skwasm`) and starts downloading the wasm entrypoint at once
(:func:`preloading_wasm`). Flet's server sends COOP/COEP headers, so the page is
cross-origin isolated and Flutter would pick multi-threaded skwasm, whose main thread and raster
worker share a glyph cache without a lock: while text changes (a judge typing a search) the heap
is corrupted and the tab freezes for good, its main thread spinning (flutter/flutter#190039, fixed
after the Flutter that Flet 1.0.5 ships; seen here as pages that stopped answering in ~1 % of
browser tests). CanvasKit would avoid it too but doubles the time to the first frame.

Used twice: by the served app (:func:`install_local_rive`, which patches flet-web's static files
to answer ``main.dart.js`` and ``main.dart.wasm`` with rewritten copies) and by the PWA build
(``tools/pwa/flet_patches.py`` applies the same records), which also runs skwasm on Chromium.

Delete when: Flet loads rive_native lazily (or from its own origin), and ships a Flutter with
the fix of flutter/flutter#190039.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import tempfile
import sys
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

from handbook.patching import APPLIED, Lenient, Patch, patch_content

#: the Rive runtime's remote base URL as the client names it (any host, any package version)
RIVE_CDN = re.compile(r"https://[A-Za-z0-9.-]+/npm/@rive-app/flutter-native-wasm@[0-9][0-9A-Za-z.-]*/")
RIVE_LOCAL = "rive-native-not-bundled/"
#: the scripts the Rive plugin asks for under :data:`RIVE_LOCAL` (the second if the first gives
#: nothing), answered with :data:`RIVE_STUB_JS`
RIVE_SCRIPTS = ("wasm/rive_native.js", "wasm_compatibility/rive_native.js")
#: what the served app answers for :data:`RIVE_SCRIPTS`: the plugin calls ``window.RiveNative()``
#: once the script has loaded and waits for the promise, which never settles -- the plugin waits
#: as it does for a script that never loads (the app shows no Rive animation)
RIVE_STUB_JS = ("// Riichi Judge Handbook: the Rive runtime is not bundled (no screen animates with it).\n"
                "window.RiveNative = function () { return new Promise(function () {}); };\n")
MAIN_JS = "main.dart.js"
MAIN_WASM = "main.dart.wasm"
BOOTSTRAP_JS = "flutter_bootstrap.js"
#: where flet-web's bootstrap script opens the engine configuration it passes to Flutter's loader
FLUTTER_CONFIG = "var flutterConfig = {"


_RIVE_WHY = ("Flet's client loads rive_native.js from jsDelivr at every start (a request off the "
             "device, for animations the app never shows)")
_RIVE_GOES = "Flet loads rive_native lazily, or from its own origin"


def _local_rive_bytes(m: re.Match, _context) -> bytes:
    url = m.group(0)
    return (RIVE_LOCAL[:-1] + "_" * (len(url) - len(RIVE_LOCAL)) + "/").encode("ascii")


#: The served client's patches (:mod:`handbook.patching`), which the PWA build applies too. None
#: is essential: without them the app still starts -- asking a CDN, or with the multi-threaded
#: skwasm that can freeze a tab -- and the served app says so when it starts.
RIVE_JS = Patch(
    "the Rive runtime at the app's own origin", MAIN_JS, RIVE_CDN, RIVE_LOCAL,
    why=_RIVE_WHY, remove_when=_RIVE_GOES, essential=False)
RIVE_WASM = Patch(
    "the Rive runtime at the app's own origin (the dart2wasm build, byte for byte)", MAIN_WASM,
    re.compile(RIVE_CDN.pattern.encode("ascii")), _local_rive_bytes,
    why=_RIVE_WHY, remove_when=_RIVE_GOES, essential=False)
SKWASM_ONE_THREAD = Patch(
    "skwasm on one thread", BOOTSTRAP_JS, FLUTTER_CONFIG,
    FLUTTER_CONFIG + "\n    forceSingleThreadedSkwasm: true,",
    why="multi-threaded skwasm races on its glyph cache while text changes and freezes the tab "
        "(flutter/flutter#190039)",
    remove_when="Flet ships a Flutter with the fix of flutter/flutter#190039", essential=False)
CLIENT_PATCHES = (RIVE_JS, RIVE_WASM, SKWASM_ONE_THREAD)


def _strict(content, patch: Patch):
    new, (outcome,) = patch_content(content, [patch])
    if outcome.status != APPLIED:
        raise ValueError(f"{patch.target}: {outcome.detail} -- has Flet changed?")
    return new


def without_rive_cdn(js: str) -> str:
    """``main.dart.js`` with the Rive runtime's remote base URL replaced by :data:`RIVE_LOCAL`.

    ``ValueError`` unless the text names that URL exactly once (Flet changed: look again)."""
    return _strict(js, RIVE_JS)


def without_rive_cdn_wasm(data: bytes) -> bytes:
    """``main.dart.wasm`` (which Chromium runs with the skwasm renderer, served and in the PWA) with the same URL
    replaced by :data:`RIVE_LOCAL` padded to the same number of bytes, so the binary's layout is
    unchanged. ``ValueError`` unless the binary names the URL exactly once."""
    return _strict(data, RIVE_WASM)


def single_threaded_skwasm(js: str) -> str:
    """flet-web's ``flutter_bootstrap.js`` with ``forceSingleThreadedSkwasm: true`` in the
    configuration it gives Flutter's loader (see the module's docstring for why).

    ``ValueError`` unless the script opens that configuration exactly once (Flet changed: look
    again)."""
    return _strict(js, SKWASM_ONE_THREAD)


#: Flutter's loader's test for WebAssembly GC (flutter_bootstrap.js): a module using a GC type,
#: which only a browser with WasmGC validates (JavaScript, for the scripts that decide as it does)
WASM_GC_PROBE = "new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 95, 1, 120, 0])"

#: Fetched at once where the wasm build will run (Chromium with WebAssembly GC): Flutter's loader
#: asks for main.dart.wasm only after main.dart.mjs is imported, while skwasm.wasm downloads
PRELOAD_WASM = """(() => {
  const gc = WebAssembly.validate(__WASM_GC_PROBE__);
  const blink = navigator.vendor === "Google Inc." || navigator.userAgent.includes("Edg/");
  if (!gc || !blink) return;
  const link = (rel, href, as) => {
    const l = Object.assign(document.createElement("link"), {rel, href: new URL(href, document.baseURI).href});
    if (as) Object.assign(l, {as, crossOrigin: "anonymous"});
    document.head.appendChild(l);
  };
  link("preload", "main.dart.wasm", "fetch");
  link("modulepreload", "main.dart.mjs");
})();
""".replace("__WASM_GC_PROBE__", WASM_GC_PROBE)


def preloading_wasm(js: str) -> str:
    """``flutter_bootstrap.js`` that starts downloading the wasm build's entrypoint at once
    (:data:`PRELOAD_WASM`)."""
    return PRELOAD_WASM + js


#: The query key that marks a route pushed by the app's back arrow (:data:`HISTORY_BACK`).
BACK_MARK = "back-step"

#: Makes the app's back arrow a step back through the browser's own history. Flet cannot call
#: ``history.back()``, so the arrow pushes its target route with :data:`BACK_MARK` in the query;
#: Flutter writes that as ``history.pushState``, which this script answers instead: with
#: ``history.back()`` when the tab holds an earlier entry of this app (the browser pops it and
#: tells Flutter, as its own back button would), or, on the first entry of the visit (a deep
#: link: nothing of the app to go back to), by replacing this entry with the marked route (the
#: parent screen) and telling Flutter with a ``popstate``. So the arrow never adds an entry, and
#: one back gesture is one step back. Each entry's depth in the visit is kept in its history state
#: (``hbDepth``: 0 for the entry the app was opened on), which a reload keeps.
HISTORY_BACK = """(() => {
  const MARK = "__MARK__";
  const h = window.history;
  const push = h.pushState.bind(h);
  const replace = h.replaceState.bind(h);
  const depth = () => (h.state && typeof h.state.hbDepth === "number" ? h.state.hbDepth : 0);
  const tagged = (state, d) =>
    state !== null && typeof state === "object" ? Object.assign({}, state, { hbDepth: d }) : state;
  h.pushState = function (state, title, url) {
    const to = url == null ? null : new URL(url, window.location.href);
    if (!to || !to.searchParams.has(MARK)) return push(tagged(state, depth() + 1), title, url);
    if (depth() > 0) { h.back(); return; }
    to.searchParams.delete(MARK);
    replace(tagged(state, 0), title, to.pathname + to.search + to.hash);
    window.dispatchEvent(new PopStateEvent("popstate", { state: h.state }));
  };
  h.replaceState = function (state, title, url) {
    return replace(tagged(state, depth()), title, url);
  };
})();
""".replace("__MARK__", BACK_MARK)


def back_step_route(target: str) -> str:
    """The route the back arrow pushes: ``target`` (where to go when the tab holds nothing of
    the app to go back to) marked with :data:`BACK_MARK` for :data:`HISTORY_BACK`."""
    parts = urlsplit(target or "/")
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != BACK_MARK]
    return (parts.path or "/") + "?" + urlencode([*query, (BACK_MARK, "1")])


def back_step_target(route: str | None) -> str | None:
    """``route`` without :data:`BACK_MARK` when it is a back arrow's push, else ``None``."""
    parts = urlsplit(route or "/")
    query = parse_qsl(parts.query, keep_blank_values=True)
    if not any(k == BACK_MARK for k, _v in query):
        return None
    rest = urlencode([(k, v) for k, v in query if k != BACK_MARK])
    return (parts.path or "/") + (f"?{rest}" if rest else "")


def with_history_back(js: str) -> str:
    """``flutter_bootstrap.js`` that first installs :data:`HISTORY_BACK` (before Flutter's engine
    starts, so every entry it writes carries its depth)."""
    if HISTORY_BACK in js:
        return js
    return HISTORY_BACK + js


#: The app's font, drawn everywhere (Japanese renders offline): family -> path under assets/
FONT_FAMILY = "NotoSansJP"
FONTS = {FONT_FAMILY: "fonts/NotoSansJP-Regular.ttf"}

#: Font families in Flet's FontManifest.json that this app never draws with. Flutter downloads
#: every family listed there before its first frame, so listing them costs time and space.
UNUSED_FONT_FAMILIES = (
    "packages/flutter_math_fork/",            # KaTeX fonts for LaTeX in Markdown
    "packages/cupertino_icons/",              # iOS-style icons: no screen uses ft.CupertinoIcons
)
FONT_MANIFEST = "assets/FontManifest.json"


def engine_font_manifest(families: list[dict], family: str, asset: str) -> list[dict]:
    """Flet's FontManifest.json family list without :data:`UNUSED_FONT_FAMILIES`, with the app's
    font (``family`` at ``asset``, a URL relative to ``<base>/assets/``) listed first, and again as
    "Roboto": Flutter's default family, which the first screen is laid out with once while
    MaterialApp animates from its default theme to the page's. With Roboto alone, the Japanese of
    that frame made Flutter ask for its Noto fallback fonts and lay the screen out again as each
    arrived. Flutter loads every font listed here before its first frame, so the page's own
    ``page.fonts`` need not load it again (``HANDBOOK_ENGINE_FONTS``)."""
    ours = [{"asset": asset}]
    kept = [f for f in families if not f["family"].startswith(UNUSED_FONT_FAMILIES)
            and f["family"] not in (family, "Roboto")]
    return [{"family": family, "fonts": ours}, {"family": "Roboto", "fonts": ours}, *kept]


_patched: dict[str, Path] = {}


def _rewritten_client() -> dict[str, Path]:
    """Private copies of flet-web's ``main.dart.js`` and ``main.dart.wasm`` without the CDN, of
    ``flutter_bootstrap.js`` asking for single-threaded skwasm, and of ``assets/FontManifest.json``
    listing the app's font (:func:`engine_font_manifest`), by the path they are served at.

    Made once and kept in the user cache dir (``paths.cache_dir()``), in a folder named by a
    hash of flet-web's files (name, size, time) and of this module, so an upgrade or a change of
    the rewriting makes new copies: rewriting the 17 MB took ~0.13 s of every start before the
    port opened. Without a cache dir (or one that cannot be written): once per process, in a
    temporary folder only this user can write, removed at exit."""
    if _patched:
        return _patched
    try:
        from flet_web import get_package_web_dir
    except ImportError:  # pragma: no cover
        return {}
    web = Path(get_package_web_dir())
    names = (MAIN_JS, BOOTSTRAP_JS, MAIN_WASM, FONT_MANIFEST)
    cached = _cached_client_folder(web, names)
    stubs = tuple(RIVE_LOCAL + script for script in RIVE_SCRIPTS)
    if cached is not None and all((cached / n).is_file() for n in names if (web / n).exists()) \
            and all((cached / n).is_file() for n in stubs):
        _patched.update({n: cached / n for n in (*names, *stubs) if (cached / n).is_file()})
        return _patched
    folder = Path(tempfile.mkdtemp(prefix="riichi-handbook-web-",
                                   dir=cached.parent if cached is not None else None))
    made: dict[str, Path] = {}

    def keep(path: str, data: bytes | str) -> None:
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        made[path] = target

    def text(path: str) -> str:
        return (web / path).read_text(encoding="utf-8")

    # a patch that no longer matches (a Flet upgrade) is left out with a warning: none is essential
    lenient = Lenient()
    keep(MAIN_JS, lenient.patch(text(MAIN_JS), [RIVE_JS]))
    keep(BOOTSTRAP_JS, with_history_back(preloading_wasm(lenient.patch(text(BOOTSTRAP_JS), [SKWASM_ONE_THREAD]))))
    if (web / MAIN_WASM).exists():
        keep(MAIN_WASM, lenient.patch((web / MAIN_WASM).read_bytes(), [RIVE_WASM]))
    for script in RIVE_SCRIPTS:
        keep(RIVE_LOCAL + script, RIVE_STUB_JS)
    for warning in lenient.warnings:
        print(f"WARNING: Flet's web client: {warning}", file=sys.stderr, flush=True)
    keep(FONT_MANIFEST, json.dumps(
        engine_font_manifest(json.loads(text(FONT_MANIFEST)), FONT_FAMILY, "../" + FONTS[FONT_FAMILY])))
    if cached is not None:
        try:
            os.replace(folder, cached)      # whole or not at all, for a start reading it meanwhile
            made = {n: cached / n for n in made}
        except OSError:  # another start made it first (or the disk refused): use this copy
            atexit.register(shutil.rmtree, folder, True)
    else:
        atexit.register(shutil.rmtree, folder, True)
    _patched.update(made)
    return _patched


def _cached_client_folder(web: Path, names: tuple[str, ...]) -> Path | None:
    """Where :func:`_rewritten_client` keeps its copies (``None``: no cache dir)."""
    from handbook.paths import cache_dir

    base = cache_dir()
    if base is None:
        return None
    h = hashlib.sha256(Path(__file__).read_bytes())
    for name in names:
        try:
            st = (web / name).stat()
        except OSError:
            continue
        h.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base / f"client-{h.hexdigest()[:32]}"


def install_local_rive() -> bool:
    """Patch flet-web's static files so the served app's client (``main.dart.js`` and
    ``main.dart.wasm``) asks no CDN and runs skwasm on one thread (``flutter_bootstrap.js``)
    (True when the patch is in place)."""
    import os

    try:
        from flet_web.fastapi.flet_static_files import FletStaticFiles
    except ImportError:  # pragma: no cover - flet-web is what serves the app
        return False
    if getattr(FletStaticFiles.lookup_path, "handbook_rive", False):
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

    lookup_path.handbook_rive = True  # type: ignore[attr-defined]
    lookup_path.handbook_patched = getattr(original, "handbook_patched", False)  # type: ignore[attr-defined]
    FletStaticFiles.lookup_path = lookup_path  # type: ignore[method-assign]
    return True
