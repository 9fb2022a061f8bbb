#!/usr/bin/env python3
"""Build the static, installable, offline PWA of Riichi Judge Handbook into ``build/pwa/``.

    .venv/bin/python -m tools.pwa             # build (what `make pwa` runs)
    .venv/bin/python -m tools.pwa --check     # exit 1 when build/pwa is missing or stale
    .venv/bin/python -m tools.pwa verify      # try every patch on the installed Flet, list each

Python runs in the browser (Pyodide 314.0.7, shipped inside the ``flet-web`` wheel); the page is
``flet publish --no-cdn`` from Flet 1.0.5. Nothing is downloaded: every file comes from the
project's virtualenv, i.e. from PyPI.

Where things are (``tools/pwa/``):

* ``build.py`` (here): the steps in order (:func:`build`), the publish call, icons, manifest,
  staleness; workarounds 1-2 (the python-build manifest and Pyodide cache that keep ``flet
  publish`` off GitHub and jsDelivr);
* ``flet_patches.py``: every edit of Flet's and Pyodide's files as a record (target, anchor,
  replacement, why, when it can go), applied stage by stage by one engine
  (:mod:`handbook.patching`) that checks all anchors before writing and reports every mismatch;
* ``stage.py``: the app folder, the vendored dependencies (workaround 4), the install lists out
  of the archive; ``node_steps.py``: bytecode and the memory snapshot under Node.js;
  ``fonts.py``: fonts cut to what the app draws; ``precache.py``: the service worker's lists,
  compression and cache name; ``config.py``: names, versions, folders;
* JavaScript put into Flet's files: ``early_worker.js``, ``app_archive.js``,
  ``memory_snapshot.js``, ``gunzip_fetch.js``; the service worker template ``sw.js``.

A first visit downloads the compressed copies of the big files itself (``gunzip_fetch.js``) and
registers the service worker once the first screen is built; the service worker then precaches
the rest and the app says "Ready offline" (``handbook/ui/offline.py``).

Serve ``build/pwa/`` with any static web server that sends ``.mjs`` as JavaScript and ``.wasm``
as ``application/wasm`` (``python3 tools/pwa/serve.py`` does).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata as md
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from handbook.patching import report
from handbook.ui.webclient import RIVE_CDN, with_history_back  # noqa: F401 - RIVE_CDN for the tests
from tools.pwa.config import (  # noqa: F401 - HERE, ROOT, VENDORED for the tests
    APP_DESCRIPTION,
    APP_ITEMS,
    APP_NAME,
    APP_SHORT_NAME,
    BACKGROUND_COLOR,
    DEFAULT_OUT,
    DEFAULT_WORK,
    FLET_VERSION,
    HERE,
    ICON_SIZES,
    PYODIDE_VERSION,
    PYTHON_FULL,
    PYTHON_SHORT,
    ROOT,
    SKIP_DIRS,
    THEME_COLOR,
    VENDORED,
    log,
)
from tools.pwa.flet_patches import all_applied, apply_stage, verify
from tools.pwa.fonts import (  # noqa: F401 - APP_FONT*, ICON_ALIASES, app_icon_names, font_characters for the tests
    APP_FONT,
    APP_FONT_FAMILY,
    ICON_ALIASES,
    app_icon_names,
    font_characters,
    subset_fonts,
    trim_font_manifest,
)
from tools.pwa.node_steps import MEMORY_SNAPSHOT, make_memory_snapshot, precompile_bytecode  # noqa: F401
from tools.pwa.precache import EXTRAS, content_hash, prune, write_service_worker  # noqa: F401 - content_hash for the tests
from tools.pwa.stage import (  # noqa: F401 - workaround_vendored_dependencies for the tests
    check_archive,
    compile_content,
    stage_app,
    workaround_no_install_lists,
    workaround_vendored_dependencies,
)


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
# Staleness
# =============================================================================================
#: files of tools/pwa that do not change what the build writes (the static server of the tests)
NOT_BUILD_INPUTS = ("serve.py",)


def input_files(root: Path) -> list[Path]:
    """Every file whose change makes a new build necessary."""
    files: list[Path] = []
    for item in (*APP_ITEMS, "tools/pwa"):
        p = root / item
        if p.is_file():
            files.append(p)
        elif p.is_dir():
            files += [f for f in p.rglob("*") if f.is_file() and f.name not in NOT_BUILD_INPUTS
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




def back_arrow_history(out: Path) -> None:
    """The back arrow steps back through the browser's history (not a Flet workaround: the
    app's own behaviour, as in the served app). Prepends
    :data:`handbook.ui.webclient.HISTORY_BACK` to ``flutter_bootstrap.js``, so it runs before
    Flutter's engine writes its first history entry."""
    bootstrap = out / "flutter_bootstrap.js"
    bootstrap.write_text(with_history_back(bootstrap.read_text(encoding="utf-8")), encoding="utf-8")


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
    workaround_no_install_lists(out)
    # every edit of Flet's files is a record of flet_patches.PATCHES: all anchors are checked
    # before a stage writes anything, and every mismatch is listed (or see `python -m tools.pwa verify`)
    apply_stage(out, "publish")
    back_arrow_history(out)
    check_archive(out / "app.tar.gz")
    if stdlib_pyc is not None:
        shutil.copy2(stdlib_pyc, out / "pyodide" / "python_stdlib.zip")
    prune(out, root)
    # after the last change to app.tar.gz and pyodide/: the snapshot is of exactly these files
    memory_snapshot, snapshot_error = (make_memory_snapshot(out, work) if precompile
                                       else (None, "--no-precompile"))
    if memory_snapshot is not None:
        apply_stage(out, "snapshot")
    trim_font_manifest(out)
    fonts = subset_fonts(out, root)
    apply_stage(out, "fonts", {"engine_fonts": [f["family"] for f in json.loads(
        (out / "assets" / "FontManifest.json").read_text(encoding="utf-8"))]})
    write_icons(out, root)
    write_web_manifest(out, root)

    apply_stage(out, "service-worker")
    (out / "flutter_service_worker.js").unlink(missing_ok=True)   # it only unregisters itself
    core, variants, cache_name = write_service_worker(out)

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
        # fetched after "Ready offline": later starts only (precache.EXTRAS)
        "extras_bytes": sum((out / f).stat().st_size for f in EXTRAS if (out / f).is_file()),
        "app_tar_gz_bytes": (out / "app.tar.gz").stat().st_size,
        "build_bytes": sum(p.stat().st_size for p in out.rglob("*") if p.is_file()),
        "build_seconds": round(time.monotonic() - t0, 1),
    }
    (out / "build-info.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    mb = 1000 * 1000  # as issue 26's goals and `make bench` count (MiB were printed as "MB" before)
    log(f"done in {info['build_seconds']} s: {out}")
    log(f"precache: {sizes['skwasm'] / mb:.1f} MB on Chromium (skwasm), {sizes['full'] / mb:.1f} MB on "
        f"Safari/Firefox ({info['precache_files']['skwasm']} files); app.tar.gz "
        f"{info['app_tar_gz_bytes'] / mb:.2f} MB; build folder {info['build_bytes'] / mb:.1f} MB")
    return info


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["verify"]:
        return verify_main(argv[1:])
    if argv[:1] == ["build"]:
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="python -m tools.pwa", description=__doc__.splitlines()[1])
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


def verify_main(argv: list[str]) -> int:
    """``python -m tools.pwa verify [--web DIR]``: every patch record tried on Flet's web client
    (the installed flet-web's, or ``DIR``: another version's ``flet_web/web`` folder), listed as
    applied or mismatch; exit 1 when any mismatched. Nothing is written to ``DIR``."""
    parser = argparse.ArgumentParser(prog="python -m tools.pwa verify", description=verify_main.__doc__.split(":")[0])
    parser.add_argument("--web", type=Path, default=None,
                        help="a flet_web/web folder (default: the installed flet-web's)")
    args = parser.parse_args(argv)
    try:
        flet = md.version("flet")
    except md.PackageNotFoundError:
        flet = "?"
    outcomes = verify(args.web)
    print(f"Flet {flet} (written for {FLET_VERSION}), web client: {args.web or 'installed flet-web'}")
    print(report(outcomes))
    bad = sum(o.status != "applied" for o in outcomes)
    print(f"{len(outcomes) - bad} applied, {bad} mismatch")
    return 0 if all_applied(outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
