#!/usr/bin/env python3
"""Build the static, installable, offline PWA of Riichi Judge Handbook into ``build/pwa/``.

    .venv/bin/python tools/pwa/build.py           # build (what `make pwa` runs)
    .venv/bin/python tools/pwa/build.py --check   # exit 1 when build/pwa is missing or stale

Python runs in the browser (Pyodide 314.0.7, shipped inside the ``flet-web`` wheel); the page is
``flet publish --no-cdn`` from Flet 1.0.5. Nothing is downloaded: every file comes from the
project's virtualenv, i.e. from PyPI.

The steps, in order (see :func:`build`):

1. stage the app folder that ``flet publish`` packs into ``app.tar.gz``: ``main.py``, the
   ``handbook`` package, ``content/`` (validated, and compiled into ``content.snapshot``),
   compiled ``locales/`` and ``assets/`` (which Flet copies to the web root instead) -- never
   ``.venv``, ``tests``, ``build``, ``.git``, ``docs``;
2. the WORKAROUNDS for Flet 1.0.5, one function each, named ``workaround_*``; each docstring
   says which upstream behaviour it works around and when it can be deleted:

   ==  ======================================  ============================================
   1   :func:`workaround_build_manifest`        python-build manifest fetched from GitHub
   2   :func:`workaround_pyodide_cache`         Pyodide downloaded from GitHub/jsDelivr
   3   :func:`workaround_pyodide_module_url`    bare module specifier "pyodide/pyodide.mjs"
   4   :func:`workaround_vendored_dependencies` micropip installing from PyPI in the browser
       + :func:`workaround_no_install_lists`
   5   :func:`workaround_service_worker`        Flet's service worker caches nothing
   6   :func:`workaround_rive_cdn_script`       a script from jsDelivr at every start
   7   :func:`workaround_skwasm_threads`        multi-threaded skwasm freezing tabs
   8   :func:`workaround_snapshot_memory`       a memory snapshot larger than Pyodide's memory
   ==  ======================================  ============================================

   (1-5 are the five fixes of FLET-NOTES.md, "Static offline PWA"; 6-8 were found here.)
3. speed: bytecode precompiled with the same Pyodide under Node.js (:func:`precompile_bytecode`,
   optional: without Node.js the build ships sources and starts slower), which also cuts
   ``python_stdlib.zip`` to the modules something can import and checks that the content
   snapshot and simplemma's dictionary load under Pyodide; the Python worker started with the
   page (:func:`start_python_early`); the app archive unpacked from memory
   (:func:`fast_app_unpack`), or better by the worker's JavaScript (:func:`unpack_app_archive_in_js`);
   start-up marks for ``make bench`` (:func:`instrument_startup_marks`); Python started from a
   memory snapshot taken after the app's imports (:func:`make_memory_snapshot`,
   :func:`load_python_from_snapshot`; also Node.js, optional like the bytecode);
4. drop files the page never loads; cut Noto Sans JP and Material Icons to what the app draws and
   load the Japanese font with the engine (:func:`subset_fonts`, fontTools); write the web app
   manifest and icons, and the precaching service worker (``tools/pwa/sw.js``) whose cache name is
   a hash of the precached files; each browser precaches the one client build Flutter's loader
   runs there (:data:`RENDERER_VARIANTS`: dart2wasm + skwasm on Chromium, dart2js + CanvasKit
   elsewhere), the renderers and the fonts gzip-compressed (:func:`gzip_precache`);
5. write ``build/pwa/build-info.json`` (input hash for the staleness check, precache size).

Serve ``build/pwa/`` with any static web server that sends ``.mjs`` as JavaScript and ``.wasm``
as ``application/wasm`` (``python3 tools/pwa/serve.py`` does).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.metadata as md
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from handbook.ui.webclient import (  # noqa: F401 - RIVE_CDN for tests
    FONT_FAMILY,
    FONTS,
    RIVE_CDN,
    UNUSED_FONT_FAMILIES,
    WASM_GC_PROBE,
    engine_font_manifest,
    single_threaded_skwasm,
    without_rive_cdn,
    with_history_back,
    without_rive_cdn_wasm,
)

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
# gojūon order and search its kana romaji).
VENDORED = ("flet", "msgpack", "repath", "six", "tinydb", "babel", "rapidfuzz", "fastjsonschema",
            "snowballstemmer", "platformdirs", "filelock", "fsrs", "typing_extensions", "simplemma",
            "jaconv", "budoux")
UI_LOCALES = ("en", "ja")       # the UI's languages
#: Babel locale data kept: the UI languages, the parents Babel resolves them through, British
#: English (a judge's device setting); any other locale falls back to "en" (handbook.i18n)
BABEL_LOCALES = ("root", "en", "en_001", "en_150", "en_GB", "en_US_POSIX", "ja", "ja_JP")
STEMMERS_KEPT = ("english",)    # snowballstemmer languages kept
LEMMA_LANGUAGES = ("en",)       # simplemma dictionaries kept (data/<lang>.plzma; 54 ship, 19 MB)


def log(msg: str) -> None:
    print(f"[pwa] {msg}", flush=True)


# =============================================================================================
# 1. The app folder
# =============================================================================================
def _copy_tree(src: Path, dst: Path, *, skip_suffixes: tuple[str, ...] = SKIP_SUFFIXES) -> None:
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if any(part in SKIP_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if path.is_dir() or path.name.endswith(skip_suffixes):
            continue
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def stage_app(root: Path, stage: Path) -> None:
    """Copy what the app needs at run time into ``stage`` (the folder ``flet publish`` packs)."""
    if not (root / "main.py").is_file():
        raise SystemExit(f"{root / 'main.py'} is missing: the PWA runs main.py ([tool.flet.app])")
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    for item in APP_ITEMS:
        src = root / item
        if src.is_dir():
            _copy_tree(src, stage / item)
        elif src.is_file():
            shutil.copy2(src, stage / item)
    compile_catalogs(root / "locales", stage / "locales")


def compile_content(stage: Path) -> int:
    """Load and validate the staged content (a content error fails the build) and write it as
    ``content/content.snapshot`` (:mod:`handbook.core.snapshot`): the browser then starts without
    parsing TOML, compiling the schema validators and checking references (~0.25 s a start
    under Pyodide here). Returns the snapshot's size in bytes."""
    from handbook.core import snapshot
    from handbook.core.load import ContentError, load_library

    try:
        library = load_library(stage / "content", index=False)
    except ContentError as exc:
        raise SystemExit(f"the content does not validate:\n{exc}") from None
    path = snapshot.write(library, stage / "content")
    log(f"content compiled: {path.relative_to(stage)} ({path.stat().st_size:,} bytes)")
    return path.stat().st_size


def compile_catalogs(src: Path, dst: Path) -> None:
    """``locales/<lang>/LC_MESSAGES/*.po`` -> ``.mo`` (the compiled catalogs are not committed)."""
    if not src.is_dir():
        return
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(src.glob("*/LC_MESSAGES/*.po")):
        mo = dst / po.relative_to(src).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        with mo.open("wb") as f:
            write_mo(f, catalog)
        log(f"compiled {po.relative_to(src.parent)}")


# =============================================================================================
# 2. The workarounds for Flet 1.0.5 (delete each when Flet fixes its behaviour)
# =============================================================================================
def workaround_build_manifest(work: Path) -> Path:
    """WORKAROUND 1 -- the Python build manifest.

    Upstream behaviour: ``flet publish`` resolves the Python version from python-build's
    ``manifest.json``, which ``flet_cli/utils/python_versions.py:_load_manifest`` downloads from
    github.com/flet-dev/python-build releases (nothing in the wheels carries it). Flet reads a
    local file instead when ``FLET_PYTHON_BUILD_MANIFEST`` names one, so we write one that maps
    Python 3.14 to the Pyodide that flet-web bundles.

    Delete when: flet-cli ships the manifest in its wheel (or falls back to the Pyodide in
    flet-web). Then also drop FLET_PYTHON_BUILD_MANIFEST from :func:`run_flet_publish`.
    """
    path = work / "python-build-manifest.json"
    manifest = {
        "default_python_version": PYTHON_SHORT,
        "pythons": {
            PYTHON_SHORT: {
                "full_version": PYTHON_FULL,
                "pyodide_version": PYODIDE_VERSION,
                "android_abis": ["arm64-v8a", "x86_64"],  # unused by `publish`
                "prerelease": False,
            }
        },
    }
    path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return path


def workaround_pyodide_cache(cache_root: Path) -> Path:
    """WORKAROUND 2 -- the Pyodide runtime cache.

    Upstream behaviour: with ``--no-cdn``, ``flet_cli/utils/pyodide.py:ensure_pyodide`` downloads
    ``pyodide-core-<v>.tar.bz2`` from GitHub and micropip from jsDelivr unless
    ``$FLET_CACHE_DIR/pyodide/<v>/pyodide-lock.json`` says ``"info": {"version": "<v>"}`` -- and it
    wipes the folder when that key is missing. The flet-web wheel already carries the same
    Pyodide (with the micropip wheel), but its lock file lacks ``info.version``. We copy it into a
    build-local cache and add the key.

    Delete when: ``flet publish --no-cdn`` uses ``flet_web/web/pyodide`` directly. Then also drop
    FLET_CACHE_DIR from :func:`run_flet_publish`.
    """
    from flet_web import get_package_web_dir

    src = Path(get_package_web_dir()) / "pyodide"
    dst = cache_root / "pyodide" / PYODIDE_VERSION
    if dst.exists():
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    lock_path = dst / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    lock.setdefault("info", {})["version"] = PYODIDE_VERSION
    lock_path.write_text(json.dumps(lock), encoding="utf-8")
    return dst


def workaround_pyodide_module_url(out: Path) -> None:
    """WORKAROUND 3 -- the Pyodide module URL.

    Upstream behaviour: ``flet_web/patch_index.py:patch_index_html`` writes
    ``flet.pyodideUrl="pyodide/pyodide.mjs"`` for ``--no-cdn`` builds; ``python-worker.js`` passes
    it to ``import()``, and browsers reject it as a bare module specifier ("Failed to resolve
    module specifier"). A relative URL (``./``) resolves against the worker script.

    Delete when: Flet writes a ``./``-relative (or absolute) URL itself.
    """
    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    fixed, n = re.subn(r'flet\.pyodideUrl\s*=\s*"pyodide/pyodide\.mjs"',
                       'flet.pyodideUrl="./pyodide/pyodide.mjs"', html)
    if n == 0 and 'flet.pyodideUrl="./pyodide/pyodide.mjs"' not in html:
        raise SystemExit("index.html: flet.pyodideUrl not found -- has Flet's index.html changed?")
    index.write_text(fixed, encoding="utf-8")


def workaround_vendored_dependencies(stage: Path) -> dict[str, str]:
    """WORKAROUND 4a -- the dependencies micropip would fetch.

    Upstream behaviour: ``python-worker.js`` runs ``micropip.install(...)`` on the app's
    ``requirements.txt`` and ``[project].dependencies``, which fetches wheels from PyPI (and from
    Pyodide's CDN) in the browser on every start: no network, no app. The worker puts the app's
    ``__pypackages__`` first on ``sys.path``, so we put pure-Python copies of every dependency
    there (with their ``.dist-info`` so ``importlib.metadata`` finds them) and, in
    :func:`workaround_no_install_lists`, take the install lists out of the archive, so micropip
    is never even loaded.

    Trimmed on the way: compiled modules (rapidfuzz and msgpack fall back to their pure-Python
    implementations), type stubs, Babel's locale data beyond root/en/ja, snowballstemmer's
    stemmers beyond English, simplemma's dictionaries beyond English, flet's test/server/CLI modules that Pyodide never imports, and fsrs's
    optimizer (torch; the app only schedules).

    Delete when: Flet can bundle dependencies into a published app (it does for ``flet build``).
    """
    pkgs = stage / "__pypackages__"
    pkgs.mkdir(parents=True, exist_ok=True)
    versions: dict[str, str] = {}
    for name in VENDORED:
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            raise SystemExit(f"{name} is not installed: run this script with the project's "
                             f"virtualenv (.venv/bin/python tools/pwa/build.py)") from None
        versions[name] = dist.version
        _vendor_distribution(dist, pkgs)
    _cut_snowballstemmer(pkgs / "snowballstemmer")
    return versions


def _keep_vendored_file(dist_name: str, rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    if rel.startswith("../") or "__pycache__" in parts:
        return False
    if name.endswith((".pyc", ".so", ".pyd", ".pyi", ".pyx", ".pxd", ".c", ".cpp", ".h")):
        return False
    if ".dist-info/" in rel:
        return name in ("METADATA", "top_level.txt") or name.startswith(("LICENSE", "COPYING"))
    if dist_name == "flet" and (parts[1:2] in (["testing"], ["fastapi"])
                                or rel in ("flet/pytest_plugin.py", "flet/cli.py")):
        return False
    if dist_name == "fsrs" and rel == "fsrs/optimizer.py":
        return False  # loaded lazily, only for fitting parameters with torch: never in the app
    if dist_name == "rapidfuzz" and (not name.endswith(".py") or "__pyinstaller" in parts):
        return False
    if dist_name == "babel" and parts[:2] == ["babel", "locale-data"]:
        return name.removesuffix(".dat") in BABEL_LOCALES
    if dist_name == "simplemma" and name.endswith(".plzma"):
        # simplemma lists its languages from the files in data/: English alone is then what it
        # supports. The dictionaries are lzma-compressed pickles; Pyodide 314 has _lzma
        # built in, so they load unchanged (tests/pwa/test_vendored.py).
        return name.removesuffix(".plzma") in LEMMA_LANGUAGES
    if dist_name == "snowballstemmer" and name.endswith("_stemmer.py"):
        return name.removesuffix("_stemmer.py") in STEMMERS_KEPT
    return True


def _vendor_distribution(dist: md.Distribution, pkgs: Path) -> None:
    base = Path(dist.locate_file(""))
    for file in dist.files or ():
        rel = str(file).replace(os.sep, "/")
        if not _keep_vendored_file(dist.metadata["Name"].lower(), rel):
            continue
        src = base / rel
        if src.is_file():
            target = pkgs / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def _cut_snowballstemmer(pkg: Path) -> None:
    """Keep only the stemmers in STEMMERS_KEPT: ``__init__`` imports every language eagerly, so
    drop the import and table lines of the others (the public API ``stemmer()`` and
    ``algorithms()`` is unchanged)."""
    init = pkg / "__init__.py"
    kept = {f"{lang}_stemmer" for lang in STEMMERS_KEPT}
    out = []
    for line in init.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*from \.(\w+_stemmer) import \w+$", line)
        if m and m.group(1) not in kept:
            continue
        m = re.match(r"\s*'(\w+)': \w+Stemmer,$", line)
        if m and m.group(1) not in STEMMERS_KEPT:
            continue
        out.append(line)
    init.write_text("\n".join(out) + "\n", encoding="utf-8")


def workaround_no_install_lists(out: Path) -> None:
    """WORKAROUND 4b -- keep micropip idle: rewrite ``app.tar.gz`` without ``requirements.txt``
    (written by ``flet publish`` from ``[project].dependencies``) and ``pyproject.toml`` (whose
    dependencies the worker would also install). See :func:`workaround_vendored_dependencies`.
    """
    archive = out / "app.tar.gz"
    dropped = {"requirements.txt", "pyproject.toml"}
    buf = io.BytesIO()
    with tarfile.open(archive, "r:gz") as src, \
            gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9, mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as dst:
        for member in sorted(src.getmembers(), key=lambda m: m.name):
            if member.name.lstrip("./") in dropped:
                continue
            member.mtime = 0                       # reproducible archive, stable cache name
            member.uid = member.gid = 0
            member.uname = member.gname = ""
            dst.addfile(member, src.extractfile(member) if member.isfile() else None)
    archive.write_bytes(buf.getvalue())


def check_archive(archive: Path) -> None:
    with tarfile.open(archive, "r:gz") as tar:
        names = {n.lstrip("/") for n in tar.getnames()}
    for required in ("main.py", "handbook/__init__.py", "__pypackages__/flet/__init__.py"):
        if required not in names and required + "c" not in names:   # .pyc when precompiled
            raise SystemExit(f"{archive} lacks {required}")
    for forbidden in ("requirements.txt", "pyproject.toml"):
        if forbidden in names:
            raise SystemExit(f"{archive} still has {forbidden}: micropip would go online")


def workaround_service_worker(out: Path) -> tuple[list[str], dict[str, list[str]], str]:
    """WORKAROUND 5 -- a service worker that caches.

    Upstream behaviour: Flet's ``flutter_service_worker.js`` only unregisters itself (Flutter's
    own service worker is deprecated, flutter/flutter#156910), so nothing is cached and the app
    cannot start offline; and ``flutter_bootstrap.js`` asks Flutter's loader to register that
    worker whenever *any* worker is registered for the scope, which would replace ours.

    Here: remove the loader's ``serviceWorkerSettings``, delete ``flutter_service_worker.js``,
    register ``sw.js`` from index.html, and write ``sw.js`` from ``tools/pwa/sw.js`` (versioned
    precache named from a hash of the precached files, cache-first, navigations answered with
    the cached index.html, old caches deleted on activate).
    Returns (core files, {renderer variant: files}, cache name).

    Delete when: Flet ships an offline service worker for published apps.
    """
    bootstrap = out / "flutter_bootstrap.js"
    js = bootstrap.read_text(encoding="utf-8")
    js, n = re.subn(r"\n\s*serviceWorkerSettings:\s*\{[^{}]*\},", "", js)
    if n != 1:
        raise SystemExit("flutter_bootstrap.js: serviceWorkerSettings not found -- has Flet changed?")
    bootstrap.write_text(js, encoding="utf-8")
    (out / "flutter_service_worker.js").unlink(missing_ok=True)

    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    anchor = '<script src="flutter_bootstrap.js" async></script>'
    if anchor not in html:
        raise SystemExit("index.html: flutter_bootstrap.js script tag not found -- has Flet changed?")
    html = html.replace(anchor, SW_REGISTRATION + "  " + anchor)
    index.write_text(html, encoding="utf-8")

    return write_service_worker(out)


#: Precached files stored gzip-compressed (when that saves a fifth or more): CanvasKit and skwasm,
#: the fonts and Pyodide's lock file -- 4.2 MB less to download and keep on the phone, no slower to
#: start (skwasm.wasm stored plain was no faster either: 5.2 s against 5.9 s and 5.2 s against
#: 4.2 s offline, alternating, 4 and 6 rounds). Since the memory snapshot (8 MB compressed) also
#: Flutter's main.dart.wasm / main.dart.js and pyodide.asm.mjs, 6-8 MB less, or the precache would
#: be 34-37 MB: main.dart.wasm stored compressed cost about 0.1 s of the offline reload here (the
#: search box at 2.08 s against 1.94 s, 4 rounds each), Flutter's start having time to spare
#: while Python starts. Not Pyodide's WebAssembly, which Python's start waits for: compressing it
#: with the Flutter builds (before the snapshot) made the offline reload 1.3 s slower.
GZIP_PRECACHED = ("canvaskit/", "fonts/", "assets/fonts/", "pyodide/pyodide-lock.json",
                  "main.dart.wasm", "main.dart.js", "pyodide/pyodide.asm.mjs")


def gzip_precache(out: Path, files: list[str]) -> list[str]:
    """Write ``<file>.gz`` (gzip -9, reproducible) beside each precached file named by
    :data:`GZIP_PRECACHED` and return the list with those names instead: the service worker stores the compressed
    copy and decompresses it for the page (sw.js, GZIPPED). The plain files stay in the build
    for browsers without DecompressionStream and for visits without the service worker."""
    result = []
    for rel in files:
        path = out / rel
        if rel.endswith(".gz") or not rel.startswith(GZIP_PRECACHED):
            result.append(rel)
            continue
        data = path.read_bytes()
        packed = gzip.compress(data, compresslevel=9, mtime=0)
        if len(packed) <= 0.8 * len(data):
            (out / (rel + ".gz")).write_bytes(packed)
            result.append(rel + ".gz")
        else:
            result.append(rel)
    return result


def write_service_worker(out: Path) -> tuple[list[str], dict[str, list[str]], str]:
    """``sw.js`` from the template with the precache lists of ``out`` and a cache name that is
    a hash of those files' contents (and of the template): a new build gets a new cache."""
    template = (HERE / "sw.js").read_text(encoding="utf-8")
    core, variants = precache_lists(out)
    core = gzip_precache(out, core)
    variants = {k: gzip_precache(out, v) for k, v in variants.items()}
    every = sorted({*core, *(f for files in variants.values() for f in files)})
    cache_name = "rjh-precache-" + content_hash(out, every, extra=template)[:16]
    sw = (template
          .replace("__CACHE_NAME__", cache_name)
          .replace("__PRECACHE__", json.dumps(core, indent=2))
          .replace("__VARIANTS__", json.dumps(variants, indent=2))
          .replace("__GZIPPED__", json.dumps(sorted(
              f[:-3] for f in every if f.endswith(".gz") and (out / f[:-3]).is_file()))))
    (out / "sw.js").write_text(sw, encoding="utf-8")
    return core, variants, cache_name


def workaround_rive_cdn_script(out: Path) -> None:
    """WORKAROUND 6 (not in FLET-NOTES) -- a script from a CDN at every start.

    Upstream behaviour: Flet's web client bundles the rive_native Flutter plugin, whose start-up
    code (compiled into main.dart.js) appends ``<script src="https://cdn.jsdelivr.net/npm/
    @rive-app/flutter-native-wasm@44.0.0/wasm/rive_native.js">``. The served app has the same
    problem; both use :func:`handbook.ui.webclient.without_rive_cdn`, which points the base URL
    at a same-origin folder that is not shipped: the script fails to load exactly as it does
    offline, and no request leaves the app's origin.

    The dart2wasm build (``main.dart.wasm``, which Chromium runs with skwasm) names the same URL;
    :func:`handbook.ui.webclient.without_rive_cdn_wasm` replaces it there byte for byte.

    Delete when: Flet loads rive_native lazily (or from its own origin).
    """
    main_js = out / "main.dart.js"
    main_wasm = out / "main.dart.wasm"
    try:
        js = without_rive_cdn(main_js.read_text(encoding="utf-8"))
        wasm = without_rive_cdn_wasm(main_wasm.read_bytes()) if main_wasm.is_file() else None
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    main_js.write_text(js, encoding="utf-8")
    if wasm is not None:
        main_wasm.write_bytes(wasm)


def workaround_skwasm_threads(out: Path) -> None:
    """WORKAROUND 7 (not in FLET-NOTES) -- skwasm on the page's thread.

    Upstream behaviour: Flutter's loader runs skwasm multi-threaded whenever the page is
    cross-origin isolated (a host sending COOP/COEP, as Flet's own server does), and the
    multi-threaded skwasm of the Flutter in Flet 1.0.5 races on its glyph cache while text
    changes: the heap is corrupted and the tab freezes (flutter/flutter#190039). The served app
    already asks for single-threaded skwasm; :func:`handbook.ui.webclient.single_threaded_skwasm`
    puts ``forceSingleThreadedSkwasm: true`` into the PWA's loader configuration too, so the
    PWA is safe on any host.

    Delete when: Flet ships a Flutter with the fix of flutter/flutter#190039.
    """
    bootstrap = out / "flutter_bootstrap.js"
    try:
        js = single_threaded_skwasm(bootstrap.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise SystemExit(str(exc)) from None
    bootstrap.write_text(js, encoding="utf-8")


def back_arrow_history(out: Path) -> None:
    """The back arrow steps back through the browser's history (not a Flet workaround: the
    app's own behaviour, as in the served app). Prepends
    :data:`handbook.ui.webclient.HISTORY_BACK` to ``flutter_bootstrap.js``, so it runs before
    Flutter's engine writes its first history entry."""
    bootstrap = out / "flutter_bootstrap.js"
    bootstrap.write_text(with_history_back(bootstrap.read_text(encoding="utf-8")), encoding="utf-8")


# The page tells the worker which build Flutter's loader (flutter_bootstrap.js, FlutterLoader.load)
# will run, by the loader's own tests, so each browser precaches only what it uses (one of
# RENDERER_VARIANTS): Blink with WasmGC and WebGL gets dart2wasm + skwasm ("skwasm_heavy" when it
# lacks ImageDecoder or V8's break iterators); everything else gets dart2js + CanvasKit, the
# smaller "chromium" CanvasKit on Blink with ImageDecoder and the break iterators, the "full" one
# elsewhere (Safari, Firefox: the loader's default wasmAllowList keeps them off WebAssembly GC).
SW_REGISTRATION = """<script>
    if ('serviceWorker' in navigator) {
      window.addEventListener('load', function () {
        var blink = navigator.vendor === 'Google Inc.' || navigator.userAgent.includes('Edg/');
        var native = blink && typeof ImageDecoder !== 'undefined' &&
          typeof Intl.v8BreakIterator !== 'undefined' && typeof Intl.Segmenter !== 'undefined';
        var wasmGC = false, webGL = false;
        try {
          wasmGC = WebAssembly.validate(__WASM_GC_PROBE__);
        } catch (e) { /* no WebAssembly */ }
        if (blink && wasmGC) {
          var canvas = document.createElement('canvas');
          canvas.width = canvas.height = 1;
          webGL = !!(canvas.getContext('webgl2') || canvas.getContext('webgl'));
        }
        var variant = blink && wasmGC && webGL ? (native ? 'skwasm' : 'skwasm_heavy')
          : (native ? 'chromium' : 'full');
        navigator.serviceWorker.register('sw.js?variant=' + variant)
          .catch(function (e) { console.warn('service worker not registered:', e); });
      });
    }
  </script>
""".replace("__WASM_GC_PROBE__", WASM_GC_PROBE)


# =============================================================================================
# 3. Start-up speed: the Python worker starts with the page; where the time goes
# =============================================================================================
def start_python_early(out: Path) -> None:
    """Start Python while Flutter loads: append ``tools/pwa/early_worker.js`` to ``python.js``.

    Flet's ``jsConnect`` creates the Python worker only once Flutter has started and asks for
    it, so Pyodide, the app archive and the app's imports (2-3 s here) all wait for
    main.dart.js and CanvasKit. The appended script starts the same worker with the same
    message as soon as the page runs ``python.js`` and hands it over when Dart connects.
    """
    path = out / "python.js"
    js = path.read_text(encoding="utf-8")
    if "globalThis.jsConnect = async function" not in js or "let _apps" not in js \
            or "let _documentUrl" not in js:
        raise SystemExit("python.js: jsConnect/_apps/_documentUrl not found -- has Flet changed?")
    path.write_text(js + (HERE / "early_worker.js").read_text(encoding="utf-8"), encoding="utf-8")


#: Startup marks: the worker posts {name, t} on this BroadcastChannel (t in ms since the epoch,
#: ``performance.timeOrigin + performance.now()``); nothing listens in the app itself, the
#: benchmarks do (tests/pwa/pwa_harness.py).
MARK_CHANNEL = "rjh-startup"
_WORKER_MARKS = (
    # (anchor in python-worker.js, text put before it)
    ("self.flet_js = {}; // namespace for Python global functions\n",
     None),  # the mark function is defined right after this line
    ("        self.pyodide.registerJsModule(\"flet_js\", flet_js);\n",
     "        self.flet_js.mark(\"pyodide_ready\");\n"),
    ('        pkgs_path = "__pypackages__"\n',
     '        flet_js.mark("archive_unpacked")\n'),
    ("        await self.flet_js.start_connection(self.receiveCallback);\n",
     "        self.flet_js.mark(\"app_module_run\");\n"),
)
_MARK_FUNCTION = (
    "self.flet_js.mark = function (name) {\n"
    "    try {\n"
    f"        (self.rjhMarks = self.rjhMarks || new BroadcastChannel(\"{MARK_CHANNEL}\"))\n"
    "            .postMessage({ name: String(name), t: performance.timeOrigin + performance.now() });\n"
    "    } catch (e) { /* marks are for the benchmarks only */ }\n"
    "};\n"
    "self.flet_js.mark(\"worker_started\");\n"
)


_UNPACK_CALL = "            await response.unpack_archive(format=_archive_format)\n"
_FAST_UNPACK = """\
            if _archive_format == "gztar":
                # tools/pwa/build.py fast_app_unpack: files written straight from memory
                import io as _io, tarfile as _tarfile
                _made = set()
                with _tarfile.open(fileobj=_io.BytesIO(await response.bytes()), mode="r:gz") as _tar:
                    for _m in _tar:
                        _name = os.path.normpath(_m.name.lstrip("/"))
                        if _name == ".." or _name.startswith("../"):
                            raise ValueError(f"app archive: {_m.name!r} points outside the app")
                        if _m.isdir():
                            os.makedirs(_name, exist_ok=True)
                        elif _m.isfile():
                            _dir = os.path.dirname(_name)
                            if _dir and _dir not in _made:
                                os.makedirs(_dir, exist_ok=True)
                                _made.add(_dir)
                            with open(_name, "wb") as _f:
                                _f.write(_tar.extractfile(_m).read())
            else:
"""


def _edit_worker(out: Path, edits: tuple[tuple[str, str], ...], append: str = "") -> None:
    """Edit ``python-worker.js``: each (anchor, replacement) of ``edits`` in turn, the anchor
    found exactly once (``SystemExit`` otherwise: Flet's worker changed), then ``append`` at
    the end (the JavaScript the edits call)."""
    path = out / "python-worker.js"
    js = path.read_text(encoding="utf-8")
    for anchor, replacement in edits:
        if js.count(anchor) != 1:
            raise SystemExit(f"python-worker.js: {anchor.strip()!r} not found -- has Flet changed?")
        js = js.replace(anchor, replacement)
    path.write_text(js + append, encoding="utf-8")


def fast_app_unpack(out: Path) -> None:
    """Unpack ``app.tar.gz`` in the browser about twice as fast: Flet's boot calls
    ``response.unpack_archive``, i.e. ``shutil.unpack_archive`` with tarfile's extraction filter,
    which sets modes and times file by file (0.26-0.37 s for the ~600 files under Pyodide in
    Node.js here); writing the regular files straight from memory took 0.15-0.18 s. Only our
    own archive is unpacked this way (gztar; a path leaving the app folder is refused)."""
    _edit_worker(out, ((_UNPACK_CALL, _FAST_UNPACK + "    " + _UNPACK_CALL),))


_JS_UNPACK_EDITS = (
    # (anchor in python-worker.js, its replacement)
    ("        self.pyodide.registerJsModule(\"flet_js\", flet_js);\n",
     "        self.pyodide.registerJsModule(\"flet_js\", flet_js);\n"
     "        self.flet_js.rjh_unpacked = self.rjhUnpackArchive(self.pyodide, await (self.rjhArchive ||\n"
     "            self.rjhFetchArchive(self.appPackageUrl, self.flet_js.args)));\n"),
    # the boot script's own download becomes the "elif"
    ('        if "script" not in py_args:\n',
     '        if getattr(flet_js, "rjh_unpacked", False):\n'
     '            print("App archive unpacked by the worker")\n'
     '        elif "script" not in py_args:\n'),
)


def unpack_app_archive_in_js(out: Path) -> None:
    """Download, gunzip and unpack ``app.tar.gz`` in the worker's JavaScript
    (``tools/pwa/app_archive.js``) instead of in Python: Flet's boot script copies the archive
    into Python, gunzips it with zlib compiled to WebAssembly and unpacks it with ``tarfile``;
    the browser's own DecompressionStream and writes straight into Pyodide's file system did
    the same 0.35 s sooner here (offline reload, median of 8 alternating rounds, load 4-6:
    archive unpacked 0.54 s after Pyodide was ready instead of 0.89 s). The boot script skips
    its own download when the files are there, and does it as before when this did not work
    out. Starting the download while Pyodide loaded was slower: Pyodide was ready 0.5 s later
    (the same two cores), which cost more than it saved -- except when Python starts from its
    memory snapshot (:func:`load_python_from_snapshot`), which starts the download itself
    (``self.rjhArchive``)."""
    _edit_worker(out, _JS_UNPACK_EDITS, append=(HERE / "app_archive.js").read_text(encoding="utf-8"))


def declare_engine_fonts(out: Path) -> None:
    """Tell the app which font families Flutter loaded before its first frame (those
    :func:`subset_fonts` lists in FontManifest.json): the Python boot sets
    ``HANDBOOK_ENGINE_FONTS``, and ``handbook.ui.app.page_fonts`` leaves them out of
    ``page.fonts`` instead of downloading and parsing them a second time."""
    families = [f["family"] for f in json.loads(
        (out / "assets" / "FontManifest.json").read_text(encoding="utf-8"))]
    anchor = '        pkgs_path = "__pypackages__"\n'
    line = f'        os.environ["HANDBOOK_ENGINE_FONTS"] = {",".join(families)!r}\n'
    _edit_worker(out, ((anchor, line + anchor),))


def instrument_startup_marks(out: Path) -> None:
    """Let the benchmarks see where start-up time goes: the Python worker marks
    ``worker_started``, ``pyodide_ready``, ``archive_unpacked`` and ``app_module_run`` (the app
    module has run: its imports are done), and the app marks ``imports_done``,
    ``content_ready`` and ``screen_built`` (``handbook.startup.mark``). Costs nothing when no
    one listens."""
    _edit_worker(out, tuple((anchor, anchor + _MARK_FUNCTION if before is None else before + anchor)
                            for anchor, before in _WORKER_MARKS))


# =============================================================================================
# 3b. Start-up speed: bytecode compiled at build time
# =============================================================================================
NODE_MIN_MAJOR = 18  # what Pyodide 314.0.7's package.json asks for


def _node() -> str | None:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        return None
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=30)
        major = int(out.stdout.strip().lstrip("v").split(".")[0])
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    return node if major >= NODE_MIN_MAJOR else None


def _without_node(what: str) -> str:
    """Say that ``what`` is skipped because Node.js is missing; returns why, for build-info.json."""
    why = f"Node.js >= {NODE_MIN_MAJOR} not found"
    log(f"WARNING: {why}: {what} (slower start-up)")
    return why


def _output_tail(res: subprocess.CompletedProcess, lines: int) -> str:
    """The last ``lines`` lines a failed Node.js step printed, each cut to 300 characters: Node.js
    prints the source line an error came from, and pyodide.asm.mjs is minified to one line."""
    out = (res.stdout + res.stderr).strip().splitlines()
    return "\n".join(line[:300] for line in out[-lines:])


def precompile_bytecode(stage: Path, work: Path) -> tuple[Path | None, str | None]:
    """Compile the modules a start imports to ``.pyc`` with the Pyodide the PWA ships, run
    under Node.js (``tools/pwa/precompile.py`` says what and why). Returns (the compiled
    ``python_stdlib.zip`` to put in the build, None) -- or (None, why not) when Node.js >= 18 is
    missing or the step failed: the build then ships sources only and starts slower (about 1-2 s
    on this machine), which is still a working PWA. ``apt-get install nodejs`` gives Node.js.

    Not a workaround but a speed-up: Pyodide 314.0.7's standard library and the app are
    ``.py`` only, so without this each start compiles them again in the browser.
    """
    node = _node()
    if node is None:
        return None, _without_node("no precompiled bytecode")
    from flet_web import get_package_web_dir

    pyodide = Path(get_package_web_dir()) / "pyodide"
    pc = work / "precompile"
    if pc.exists():
        shutil.rmtree(pc)
    pc.mkdir(parents=True)
    shutil.copy2(pyodide / "python_stdlib.zip", pc / "python_stdlib.zip")
    backup = work / "app-sources"   # to restore the stage if the step fails half-way
    if backup.exists():
        shutil.rmtree(backup)
    shutil.copytree(stage, backup)
    cmd = [node, str(HERE / "run_pyodide.mjs"), str(pyodide), str(HERE / "precompile.py"),
           f"{stage}=/mnt/app", f"{pc}=/mnt/work"]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0 or not (pc / "precompile.json").is_file():
        shutil.rmtree(stage)
        shutil.move(str(backup), str(stage))
        output = res.stdout + res.stderr
        tail = _output_tail(res, 15)
        # "python:" -- the app or a vendored package fails under Pyodide's Python (a real bug);
        # "node:" -- this Node.js could not run Pyodide at all (only a slower start-up)
        kind = "python" if "Traceback (most recent call last)" in output else "node"
        log(f"WARNING: precompiling under Pyodide failed ({kind}); shipping sources only:\n{tail}")
        return None, f"{kind}: {tail}"
    shutil.rmtree(backup)
    report = json.loads((pc / "precompile.json").read_text(encoding="utf-8"))
    log(res.stdout.strip().splitlines()[-1])
    for problem in report["import_failures"]:
        log(f"WARNING: does not import under Pyodide: {problem}")
    return pc / "python_stdlib.pyc.zip", None


# =============================================================================================
# 3c. Start-up speed: Python starts from a memory snapshot taken after the app's imports
# =============================================================================================
#: Pyodide 314.0.7's restore, minified in pyodide.mjs: ``function Ae(e,t,n){let i=e.API,s;return
#: t&&(s=i.restoreSnapshot(t))`` -- e the Emscripten module, t the snapshot.
_SNAPSHOT_RESTORE = re.compile(
    r"function (\w+)\((\w),(\w),(\w)\)\{let (\w)=\2\.API,(\w);return \3&&\(\6=\5\.restoreSnapshot\(\3\)\)")


def workaround_snapshot_memory(out: Path) -> None:
    """WORKAROUND 8 (not in FLET-NOTES) -- a memory snapshot larger than Pyodide's first memory.

    Upstream behaviour: Pyodide 314.0.7 restores a snapshot (``loadPyodide({_loadSnapshot})``)
    by copying it over the module's memory as instantiated, 30 MiB; it counts on Emscripten's
    ``INITIAL_MEMORY`` setting for more, which this build (memory exported by the module, not
    imported) ignores. A snapshot taken after the app's imports is 36 MiB: "RangeError: offset is
    out of bounds". Here the restore first grows the memory to the snapshot's size with the
    module's own ``_emscripten_resize_heap``, which also renews the heap views.

    Delete when: Pyodide grows the memory before restoring a snapshot.
    """
    path = out / "pyodide" / "pyodide.mjs"
    js = path.read_text(encoding="utf-8")
    found = _SNAPSHOT_RESTORE.findall(js)
    if len(found) != 1:
        raise SystemExit("pyodide.mjs: the snapshot restore not found -- has Pyodide changed?")
    _fn, module, snapshot, _opts, _api, _result = found[0]
    js = _SNAPSHOT_RESTORE.sub(
        lambda m: m.group(0).replace(
            "return ", f"{snapshot}&&{module}.HEAP8.length<{snapshot}.length&&"
                       f"{module}._emscripten_resize_heap({snapshot}.length);return ", 1), js)
    path.write_text(js, encoding="utf-8")


#: Where the snapshot goes, gzip-compressed (the worker decompresses it: tools/pwa/memory_snapshot.js).
MEMORY_SNAPSHOT = "pyodide/snapshot.bin.gz"


def make_memory_snapshot(out: Path, work: Path) -> tuple[dict | None, str | None]:
    """Take the memory snapshot the offline app's Python starts from: Pyodide (the build's own
    ``pyodide/`` folder, final) runs under Node.js with app.tar.gz unpacked where the browser
    unpacks it, imports what a start imports (``tools/pwa/snapshot_warm.py``) and hands over its
    memory (``tools/pwa/snapshot.mjs``); a second Pyodide restored from it runs
    ``tools/pwa/snapshot_check.py``. Written to :data:`MEMORY_SNAPSHOT`.

    Returns ({"bytes": size, "gzip_bytes": size}, None), or (None, why not) when Node.js is
    missing or a step failed: the app then starts Python as before, about 0.5 s slower.

    Why: Pyodide's start (~0.4 s) and the imports of Flet and the app (~0.5 s) were most of the
    offline reload; a restore is a copy. Two things a snapshot freezes are redone in the browser
    (:func:`handbook.startup.resume_after_memory_snapshot`): the random seed and the time zone.
    """
    node = _node()
    if node is None:
        return None, _without_node("no memory snapshot")
    snap_dir = work / "snapshot"
    if snap_dir.exists():
        shutil.rmtree(snap_dir)
    app = snap_dir / "app"
    app.mkdir(parents=True)
    with tarfile.open(out / "app.tar.gz", "r:gz") as tar:
        tar.extractall(app, filter="data")
    raw = snap_dir / "snapshot.bin"
    cmd = [node, str(HERE / "snapshot.mjs"), str(out / "pyodide"), str(app),
           str(HERE / "snapshot_warm.py"), str(HERE / "snapshot_check.py"), str(raw)]
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0 or not raw.is_file():
        tail = _output_tail(res, 12)
        log(f"WARNING: no memory snapshot (slower start-up):\n{tail}")
        return None, tail
    data = raw.read_bytes()
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    (out / MEMORY_SNAPSHOT).write_bytes(packed)
    shutil.rmtree(snap_dir)
    log(f"memory snapshot: {len(data) / 2**20:.1f} MiB, {len(packed) / 2**20:.1f} MiB compressed")
    return {"bytes": len(data), "gzip_bytes": len(packed)}, None


_SNAPSHOT_EDITS = (
    # (anchor in python-worker.js, its replacement)
    ("        self.pyodide = await loadPyodide({\n",
     "        self.pyodide = await self.rjhLoadPyodide(loadPyodide, {\n"),
    ("        self.pythonModuleName = event.data.pythonModuleName;\n",
     "        self.pythonModuleName = event.data.pythonModuleName;\n"
     "        self.rjhSnapshot = event.data.rjhSnapshot ? self.rjhFetchSnapshot() : null;\n"),
    ('        pkgs_path = "__pypackages__"\n',
     '        if getattr(flet_js, "rjh_snapshot", False):\n'
     '            from handbook.startup import resume_after_memory_snapshot\n'
     '            resume_after_memory_snapshot()\n'
     '        pkgs_path = "__pypackages__"\n'),
)


def load_python_from_snapshot(out: Path) -> None:
    """Let the worker start Python from :data:`MEMORY_SNAPSHOT` (``tools/pwa/memory_snapshot.js``):
    fetched as soon as the page's first message says the service worker controls it (the
    early worker, ``tools/pwa/early_worker.js``), given to ``loadPyodide`` as ``_loadSnapshot``,
    and the boot script calls :func:`handbook.startup.resume_after_memory_snapshot` once the app's
    files are unpacked. Without a snapshot, or when Pyodide refuses it, Python starts as before."""
    _edit_worker(out, _SNAPSHOT_EDITS, append=(HERE / "memory_snapshot.js").read_text(encoding="utf-8"))


# =============================================================================================
# 4. flet publish, pruning, manifest, icons
# =============================================================================================
def run_flet_publish(stage: Path, out: Path, manifest: Path, cache_root: Path) -> None:
    env = dict(os.environ)
    env["FLET_PYTHON_BUILD_MANIFEST"] = str(manifest)   # workaround 1
    env["FLET_CACHE_DIR"] = str(cache_root)              # workaround 2
    env.pop("FLET_WEB_PATH", None)
    cmd = [
        sys.executable, "-m", "flet.cli", "publish", str(stage / "main.py"),
        "--distpath", str(out),
        "--no-cdn",
        # Flutter's loader picks the build: dart2wasm + skwasm where it can (Blink with WasmGC),
        # dart2js + CanvasKit elsewhere (see RENDERER_VARIANTS)
        "--web-renderer", "auto",
        "--route-url-strategy", "path",
        "--app-name", APP_NAME,
        "--app-short-name", APP_SHORT_NAME,
        "--app-description", APP_DESCRIPTION,
        "--pwa-theme-color", THEME_COLOR,
        "--pwa-background-color", BACKGROUND_COLOR,
    ]
    log("flet publish --no-cdn (Flet %s)" % md.version("flet"))
    res = subprocess.run(cmd, cwd=stage, env=env, capture_output=True, text=True)
    if res.returncode != 0:
        sys.stderr.write(res.stdout + res.stderr)
        raise SystemExit(f"flet publish failed ({res.returncode})")


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
    "sw.js", "build-info.json",
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


def _draw_fallback_icon(size: int):
    """A plain tile on the theme colour, for a checkout without handbook/ui/make_icons.py."""
    from PIL import Image, ImageDraw

    n = size * 4
    img = Image.new("RGB", (n, n), THEME_COLOR)
    d = ImageDraw.Draw(img)
    w, h = n * 0.40, n * 0.54            # inside the central 80 % safe zone of a maskable icon
    x0, y0 = (n - w) / 2, (n - h) / 2
    d.rounded_rectangle((x0, y0 + n * 0.03, x0 + w, y0 + h + n * 0.03), int(n * 0.06), fill="#C8C4B4")
    d.rounded_rectangle((x0, y0, x0 + w, y0 + h), int(n * 0.06), fill="#FAF8F0")
    return img.resize((size, size), Image.LANCZOS)


def write_icons(out: Path, root: Path) -> None:
    """``icons/pwa-192.png`` and ``icons/pwa-512.png`` for the manifest, drawn at build time with
    Pillow (a flet-cli dependency): the app icon of ``handbook/ui/make_icons.py`` (判 on a tile)
    in its maskable form -- full-bleed background, artwork inside the 80 % safe zone -- so
    "any maskable" is honest. Also a favicon when the app's assets bring none."""
    maker = root / "handbook" / "ui" / "make_icons.py"
    draw = _draw_fallback_icon
    if maker.is_file():
        spec = importlib.util.spec_from_file_location("_handbook_make_icons", maker)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(root))  # it imports handbook.paths
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(root))

        def draw(size: int):
            return module.draw(size, maskable=True)

    (out / "icons").mkdir(exist_ok=True)
    for size in ICON_SIZES:
        draw(size).convert("RGB").save(out / "icons" / f"pwa-{size}.png", optimize=True)
    if not (root / "assets" / "favicon.png").is_file():
        draw(64).convert("RGB").save(out / "favicon.png", optimize=True)


def write_web_manifest(out: Path, root: Path) -> None:
    """manifest.json (what makes Chromium offer "Install app") and the matching tags in
    index.html (theme colour; the iOS home-screen icon)."""
    manifest = {
        "id": "./",
        "name": APP_NAME,
        "short_name": APP_SHORT_NAME,
        "description": APP_DESCRIPTION,
        "lang": "en",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "categories": ["reference", "sports"],
        "prefer_related_applications": False,
        "icons": [
            {"src": f"icons/pwa-{s}.png", "sizes": f"{s}x{s}", "type": "image/png",
             "purpose": "any maskable"}
            for s in ICON_SIZES
        ],
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                       encoding="utf-8")
    index = out / "index.html"
    html = index.read_text(encoding="utf-8")
    if not (out / "icons" / "apple-touch-icon-192.png").is_file():  # the app's assets bring one
        html = html.replace('href="icons/apple-touch-icon-192.png"', 'href="icons/pwa-192.png"')
    html = re.sub(r'<meta name="apple-mobile-web-app-status-bar-style" content="[^"]*">',
                  '<meta name="apple-mobile-web-app-status-bar-style" content="default">', html)
    if 'name="theme-color"' not in html:
        html = html.replace('<link rel="manifest" href="manifest.json">',
                            f'<link rel="manifest" href="manifest.json">\n'
                            f'  <meta name="theme-color" content="{THEME_COLOR}">')
    index.write_text(html, encoding="utf-8")


# =============================================================================================
# 5. Precache list, cache name, staleness
# =============================================================================================
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


def input_files(root: Path) -> list[Path]:
    """Every file whose change makes a new build necessary."""
    files: list[Path] = []
    for item in (*APP_ITEMS, "tools/pwa"):
        p = root / item
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files += [f for f in p.rglob("*") if f.is_file()
                      and not any(part in SKIP_DIRS for part in f.relative_to(root).parts)
                      and not f.name.endswith((".pyc", ".pyo"))]
    return sorted(files)


def inputs_hash(root: Path = ROOT) -> str:
    h = hashlib.sha256()
    for name in ("flet", "flet-web", "flet-cli", *VENDORED):
        try:
            h.update(f"{name}=={md.version(name)}\n".encode())
        except md.PackageNotFoundError:
            h.update(f"{name}==?\n".encode())
    for f in input_files(root):
        h.update(f.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def is_stale(out: Path = DEFAULT_OUT, root: Path = ROOT) -> bool:
    """True when ``out`` has no complete build of the current sources."""
    info = out / "build-info.json"
    if not info.is_file() or not (out / "sw.js").is_file():
        return True
    try:
        return json.loads(info.read_text(encoding="utf-8")).get("inputs") != inputs_hash(root)
    except (OSError, ValueError):
        return True


def file_size(out: Path, files: list[str]) -> int:
    return sum((out / f).stat().st_size for f in files)


# =============================================================================================
def build(root: Path = ROOT, out: Path = DEFAULT_OUT, work: Path = DEFAULT_WORK,
          precompile: bool = True) -> dict:
    """Build the PWA into ``out``; returns the build info (also written to build-info.json)."""
    t0 = time.monotonic()
    if md.version("flet") != FLET_VERSION:
        raise SystemExit(f"flet {FLET_VERSION} expected, found {md.version('flet')}: "
                         "the workarounds here depend on its exact layout")
    inputs = inputs_hash(root)
    work.mkdir(parents=True, exist_ok=True)
    stage = work / "app"
    cache_root = work / "flet-cache"

    log(f"staging the app folder from {root}")
    stage_app(root, stage)
    snapshot_bytes = compile_content(stage)
    versions = workaround_vendored_dependencies(stage)
    stdlib_pyc, precompile_error = (precompile_bytecode(stage, work) if precompile
                                    else (None, "--no-precompile"))
    report_path = work / "precompile" / "precompile.json"
    pyodide_report = (json.loads(report_path.read_text(encoding="utf-8"))
                      if stdlib_pyc is not None and report_path.is_file() else {})
    manifest = workaround_build_manifest(work)
    workaround_pyodide_cache(cache_root)

    if str(stage).startswith(str(out)):
        raise SystemExit(f"the staging folder {stage} must not start with {out} (see DEFAULT_WORK)")
    run_flet_publish(stage, out, manifest, cache_root)
    workaround_pyodide_module_url(out)
    workaround_no_install_lists(out)
    workaround_rive_cdn_script(out)
    workaround_skwasm_threads(out)
    back_arrow_history(out)
    start_python_early(out)
    fast_app_unpack(out)
    unpack_app_archive_in_js(out)
    instrument_startup_marks(out)
    check_archive(out / "app.tar.gz")
    if stdlib_pyc is not None:
        shutil.copy2(stdlib_pyc, out / "pyodide" / "python_stdlib.zip")
    prune(out, root)
    workaround_snapshot_memory(out)
    # after the last change to app.tar.gz and pyodide/: the snapshot is of exactly these files
    memory_snapshot, snapshot_error = (make_memory_snapshot(out, work) if precompile
                                       else (None, "--no-precompile"))
    if memory_snapshot is not None:
        load_python_from_snapshot(out)
    trim_font_manifest(out)
    fonts = subset_fonts(out, root)
    declare_engine_fonts(out)
    write_icons(out, root)
    write_web_manifest(out, root)

    core, variants, cache_name = workaround_service_worker(out)

    sizes = {k: file_size(out, core + v) for k, v in variants.items()}
    info = {
        "app": APP_NAME,
        "inputs": inputs,
        "cache": cache_name,
        "flet": md.version("flet"),
        "pyodide": PYODIDE_VERSION,
        "vendored": versions,
        "precompiled": stdlib_pyc is not None,
        "precompile_error": precompile_error,
        "fonts": fonts,
        "content_snapshot_bytes": snapshot_bytes,
        "memory_snapshot": memory_snapshot,
        "memory_snapshot_error": snapshot_error,
        # what the build saw under Pyodide (tools/pwa/precompile.py): the lemmatiser loads, ...
        "pyodide_checks": pyodide_report.get("checks", {}),
        "stdlib_dropped": pyodide_report.get("stdlib_dropped"),
        "precache_files": {k: len(core) + len(v) for k, v in variants.items()},
        "precache_bytes": sizes,
        "app_tar_gz_bytes": (out / "app.tar.gz").stat().st_size,
        "build_bytes": sum(p.stat().st_size for p in out.rglob("*") if p.is_file()),
        "build_seconds": round(time.monotonic() - t0, 1),
    }
    (out / "build-info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    mb = 1024 * 1024
    log(f"done in {info['build_seconds']} s: {out}")
    log(f"precache: {sizes['skwasm'] / mb:.1f} MB on Chromium (skwasm), {sizes['full'] / mb:.1f} MB on "
        f"Safari/Firefox ({info['precache_files']['skwasm']} files); app.tar.gz "
        f"{info['app_tar_gz_bytes'] / mb:.2f} MB; build folder {info['build_bytes'] / mb:.1f} MB")
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (build/pwa)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the project folder")
    parser.add_argument("--work", type=Path, default=None, help="scratch folder (build/stage-pwa)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the output is missing or older than the sources")
    parser.add_argument("--if-stale", action="store_true", help="build only when stale")
    parser.add_argument("--no-precompile", action="store_true",
                        help="ship .py sources only (no Node.js step; slower start-up)")
    args = parser.parse_args(argv)
    root, out = args.root.resolve(), args.out.resolve()
    work = (args.work or out.parent / ("stage-" + out.name)).resolve()
    if args.check:
        stale = is_stale(out, root)
        print("stale" if stale else "up to date")
        return 1 if stale else 0
    if args.if_stale and not is_stale(out, root):
        log(f"{out} is up to date")
        return 0
    build(root, out, work, precompile=not args.no_precompile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
