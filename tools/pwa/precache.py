"""What the service worker precaches: the files, which of them compressed, the renderer variant
of each browser, the cache name, and the files pruned from the build."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import zlib
from pathlib import Path

from tools.pwa.config import HERE
from tools.pwa.flet_patches import apply_stage
from tools.pwa import security
from tools.pwa.node_steps import MEMORY_SNAPSHOT


# Files flet publish copies that this app never loads.
PRUNE = (
    "canvaskit/wimp.js", "canvaskit/wimp.wasm",        # skwasm variants the loader is never
    "canvaskit/experimental_webparagraph",              # configured to pick
    "flutter.js", "flutter.js.map",                     # inlined in flutter_bootstrap.js
    "pyodide/python", "pyodide/python.bat", "pyodide/python.exe", "pyodide/python_cli_entry.mjs",
    "pyodide/ffi.d.ts", "pyodide/pyodide.d.ts", "pyodide/package.json",
    "pyodide/pyodide.js",                               # the classic-script build; the worker imports .mjs
)
# Flet's logo icons, unless the app's assets/icons replaced them (the manifest names pwa-*.png)
FLET_ICONS = ("icons/icon-192.png", "icons/icon-512.png", "icons/icon-maskable-192.png",
              "icons/icon-maskable-512.png", "icons/apple-touch-icon-192.png")
PRUNE_GLOBS = ("canvaskit/**/*.symbols", "pyodide/micropip-*.whl", "pyodide/packaging-*.whl")

# Kept in the build (fetched only if a screen needs them) but not precached.
NOT_PRECACHED = (
    "sw.js", "build-info.json", security.HEADERS_FILE,   # _headers: for the host, no page asks
    "assets/NOTICES",                                   # licence page only
    "assets/packages/media_kit", "assets/packages/record_web", "assets/packages/wakelock_plus",
    "assets/packages/flutter_map",                      # controls this app does not use
    "fonts/README.md", "fonts/OFL.txt",                 # licence beside the font, not loaded
    *FLET_ICONS,                                        # home-screen/tab icons: fetched online
    "icon.png",                                         # the app's icon for `flet build`
)
#: What Flutter's loader runs, per browser (the page picks the same in SW_REGISTRATION and the
#: service worker precaches only that variant's files besides the core):
RENDERER_VARIANTS = {
    # Blink with WebAssembly GC and WebGL (Chrome, Edge, Samsung Internet, Android WebView >= 119):
    # dart2wasm + skwasm, on one thread (workaround 7); first frame about twice as soon as CanvasKit
    "skwasm": ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm.js", "canvaskit/skwasm.wasm"],
    # the same Blink without ImageDecoder or V8's break iterators (skwasm with its own ICU)
    "skwasm_heavy": ["main.dart.wasm", "main.dart.mjs", "canvaskit/skwasm_heavy.js",
                     "canvaskit/skwasm_heavy.wasm"],
    # Blink without WasmGC (Chrome < 119): dart2js + the CanvasKit that uses Chromium's ICU
    "chromium": ["main.dart.js", "canvaskit/chromium/canvaskit.js", "canvaskit/chromium/canvaskit.wasm"],
    # Safari and Firefox (Flutter's default wasmAllowList keeps them on dart2js) and the rest
    "full": ["main.dart.js", "canvaskit/canvaskit.js", "canvaskit/canvaskit.wasm"],
}


def prune(out: Path, root: Path) -> None:
    for rel in FLET_ICONS:
        if not (root / "assets" / rel).is_file():
            (out / rel).unlink(missing_ok=True)
    for rel in PRUNE:
        p = out / rel
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    for pattern in PRUNE_GLOBS:
        for p in out.glob(pattern):
            p.unlink()



#: Precached files stored gzip-compressed (when that saves a fifth or more): CanvasKit and skwasm,
#: the fonts and Pyodide's lock file -- 4.2 MB less to download and keep on the phone, no slower to
#: start (skwasm.wasm stored plain was no faster either: 5.2 s against 5.9 s and 5.2 s against
#: 4.2 s offline, alternating, 4 and 6 rounds). Since the memory snapshot (8 MB compressed) also
#: Flutter's main.dart.wasm / main.dart.js and pyodide.asm.mjs, 6-8 MB less, or the precache would
#: be 34-37 MB: main.dart.wasm stored compressed cost about 0.1 s of the offline reload here (the
#: search box at 2.08 s against 1.94 s, 4 rounds each), Flutter's start having time to spare
#: while Python starts. Pyodide's WebAssembly, which Python's start waits for, is downloaded
#: compressed (3.4 MB instead of 9.6) but stored decompressed (:data:`INFLATED`). The first visit
#: asks for the same ``.gz`` files itself (:func:`compressed_first_visit`).
GZIP_PRECACHED = ("canvaskit/", "fonts/", "assets/", "pyodide/pyodide-lock.json",
                  "main.dart.wasm", "main.dart.js", "main.dart.mjs", "pyodide/pyodide.asm.mjs",
                  "pyodide/pyodide.mjs", "pyodide/pyodide.asm.wasm")
#: Downloaded as ``.gz`` but stored decompressed by the service worker: compressing Pyodide's
#: WebAssembly in the cache made the offline reload 1.3 s slower (compiled again at every start).
#: Flutter's main.dart.wasm and skwasm.wasm stored so too: Flutter's first frame came sooner in
#: 9 of 10 offline reloads alternating with the build before (medians 0.94 s against 1.07 s at load
#: 1.5-3.8, 1.32 against 1.57 s at load 4-6), the search box in 8 of 10 (3.13 against 3.27 s, 5.24
#: against 5.55 s); the download is the same, the phone keeps 7.8 MB more. (An earlier trial, with
#: pyodide.asm.mjs as well, in a loaded spell, had found no gain: 5.57 s against 4.76 s.)
#: CanvasKit (Safari and Firefox) is left compressed: not measured.
INFLATED = ("pyodide/pyodide.asm.wasm", "main.dart.wasm", "canvaskit/skwasm.wasm")


def gzip_precache(out: Path, files: list[str]) -> list[str]:
    """Write ``<file>.gz`` (gzip -9, reproducible; one already there holding the file's bytes is
    kept) beside each precached file named by :data:`GZIP_PRECACHED` and return the list with
    those names instead: the service worker stores the compressed copy and decompresses it for
    the page (sw.js, GZIPPED). The plain files stay in the build for browsers without
    DecompressionStream and for visits without the service worker."""
    result = []
    for rel in files:
        path = out / rel
        if rel.endswith(".gz") or not rel.startswith(GZIP_PRECACHED):
            result.append(rel)
            continue
        data = path.read_bytes()
        gz = out / (rel + ".gz")
        kept = _compressed_copy(gz, data)
        packed = kept if kept is not None else gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) > 0.8 * len(data):
            result.append(rel)
            continue
        if kept is None:
            gz.write_bytes(packed)
        result.append(rel + ".gz")
    return result


def _compressed_copy(path: Path, data: bytes) -> bytes | None:
    """The ``.gz`` already at ``path`` when it holds ``data`` (a build copied and given a new
    sw.js, as the PWA tests do), else None: gzip -9 of the 23 files again costs ~4 CPU-s for the
    same bytes."""
    try:
        packed = path.read_bytes()
        return packed if gzip.decompress(packed) == data else None
    except (OSError, EOFError, gzip.BadGzipFile, zlib.error):
        return None


#: Not precached but fetched once the app is ready offline (sw.js EXTRAS): the memory snapshot of
#: Python (8 MB) makes every later start about 1 s sooner, but the app works offline without it,
#: and on a venue's network it would delay "Ready offline" by 3 s (20 Mbit/s).
EXTRAS = (MEMORY_SNAPSHOT,)


def write_service_worker(out: Path, *, first_visit: bool = True) -> tuple[list[str], dict[str, list[str]], str]:
    """``sw.js`` from the template with the precache lists of ``out`` and a cache name that is
    a hash of those files' contents (and of the template): a new build gets a new cache.
    ``first_visit``: also give the page and the worker the list of compressed files (the
    "first-visit" patches; False for a build that has them already)."""
    template = (HERE / "sw.js").read_text(encoding="utf-8")
    core, variants = precache_lists(out)
    extras = [f for f in core if f in EXTRAS]
    core = gzip_precache(out, [f for f in core if f not in EXTRAS])
    variants = {k: gzip_precache(out, v) for k, v in variants.items()}
    every = sorted({*core, *extras, *(f for files in variants.values() for f in files)})
    gzipped = sorted(f[:-3] for f in every if f.endswith(".gz") and (out / f[:-3]).is_file())
    if first_visit:   # the page and the worker ask for them too
        apply_stage(out, "first-visit", {"gzipped": gzipped})
    # the page's last edit: its CSP names its inline scripts by hash (tools/pwa/security.py)
    security.apply(out)
    cache_name = "rjh-precache-" + content_hash(out, every, extra=template)[:16]
    sw = (template
          .replace("__CACHE_NAME__", cache_name)
          .replace("__PRECACHE__", json.dumps(core, indent=2))
          .replace("__VARIANTS__", json.dumps(variants, indent=2))
          .replace("__EXTRAS__", json.dumps(extras))
          .replace("__INFLATED__", json.dumps([f for f in INFLATED if f in gzipped]))
          .replace("__GZIPPED__", json.dumps(gzipped)))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    return core, variants, cache_name


def precache_lists(out: Path) -> tuple[list[str], dict[str, list[str]]]:
    """(files every browser needs, {renderer variant: its files}) as URLs relative to the root."""
    variant_files = {f for files in RENDERER_VARIANTS.values() for f in files}
    core = []
    for p in sorted(out.rglob("*")):
        if not p.is_file():
            continue
        rel = p.relative_to(out).as_posix()
        if rel.endswith(".gz") and (out / rel[:-3]).is_file():
            continue  # a compressed copy written by gzip_precache (for a rebuilt sw.js)
        if rel in variant_files or any(rel == x or rel.startswith(x + "/") for x in NOT_PRECACHED):
            continue
        core.append(rel)
    variants = {k: [f for f in v if (out / f).is_file()] for k, v in RENDERER_VARIANTS.items()}
    return core, variants


def content_hash(out: Path, files: list[str], extra: str = "") -> str:
    h = hashlib.sha256(extra.encode())
    for rel in sorted(files):
        h.update(rel.encode() + b"\0")
        h.update(hashlib.sha256((out / rel).read_bytes()).digest())
    return h.hexdigest()


