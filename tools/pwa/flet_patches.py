"""Every edit of Flet's published web app and of Pyodide, as data: one :class:`~handbook.patching.Patch`
record each (target file, anchor, replacement, why, when it can go), applied by
:func:`apply_stage` -- every anchor checked before anything is written, every mismatch reported at
once -- and listed by ``python -m tools.pwa verify`` (:func:`verify`) against the installed Flet.

Stages, in the order the build applies them (``tools/pwa/build.py``): ``publish`` right after
``flet publish``; ``snapshot`` when the memory snapshot was taken; ``fonts`` once the fonts are
cut; ``service-worker`` when the service worker is written; ``first-visit`` with the list of
compressed files. Within a target the records apply in the order of :data:`PATCHES`; several
put text before the same anchor and leave it in place.

The edits that are not anchored in a file of Flet's -- the build manifest and Pyodide cache that
keep ``flet publish`` off the network, the vendored dependencies, the install lists taken out of
the app archive -- are the ``workaround_*`` functions of ``build.py`` and ``stage.py``.
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from handbook.patching import APPLIED, Outcome, Patch, apply_patches, plan
from handbook.ui.webclient import RIVE_JS, RIVE_WASM, SKWASM_ONE_THREAD, WASM_GC_PROBE
from tools.pwa.config import HERE, PYODIDE_VERSION

WORKER = "python-worker.js"
STAGES = ("publish", "snapshot", "fonts", "service-worker", "first-visit")


def _js(name: str) -> str:
    """A script of this folder, appended to one of Flet's."""
    return (HERE / name).read_text(encoding="utf-8")


#: Start-up marks: the worker posts {name, t} on this BroadcastChannel (t in ms since the epoch,
#: ``performance.timeOrigin + performance.now()``); the benchmarks listen (tests/pwa/pwa_harness.py)
#: and so does the page, which registers the service worker once the first screen is built.
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


SW_REGISTRATION = """<script>
    __GUNZIP_FETCH__
    if (!(navigator.serviceWorker && navigator.serviceWorker.controller)) {
      self.rjhGunzipFetch(/*__RJH_GZ__*/[], document.baseURI);
    }
    if ('serviceWorker' in navigator) {
      var rjhRegister = function () {
        if (rjhRegister.done) {
          return;
        }
        rjhRegister.done = true;
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
      };
      // The precache waits until the app's first screen is built (the start-up mark of the Python
      // worker), so a first visit does not share the network with it; without BroadcastChannel
      // at once, and at the latest 2 minutes after the page loaded (a phone that slow still gets
      // its precache). A page the worker already controls checks for an update at once.
      var rjhMarks = typeof BroadcastChannel !== 'undefined';
      if (rjhMarks) {
        new BroadcastChannel('__MARK_CHANNEL__').addEventListener('message', function (e) {
          if (e.data && e.data.name === 'screen_built') {
            rjhRegister();
          }
        });
      }
      window.addEventListener('load', function () {
        setTimeout(rjhRegister, navigator.serviceWorker.controller || !rjhMarks ? 0 : 120000);
      });
      // Once a worker controls the page (it is then ready offline), it may fetch the extras that
      // only make later starts faster (sw.js EXTRAS: the memory snapshot).
      var rjhExtras = function () {
        if (navigator.serviceWorker.controller) {
          navigator.serviceWorker.controller.postMessage({ rjh: 'extras' });
        }
      };
      navigator.serviceWorker.addEventListener('controllerchange', rjhExtras);
      window.addEventListener('load', rjhExtras);
    }
  </script>
""".replace("__WASM_GC_PROBE__", WASM_GC_PROBE)




#: Pyodide 314.0.7's restore, minified in pyodide.mjs: ``function Ae(e,t,n){let i=e.API,s;return
#: t&&(s=i.restoreSnapshot(t))`` -- e the Emscripten module, t the snapshot.
_SNAPSHOT_RESTORE = re.compile(
    r"function (\w+)\((\w),(\w),(\w)\)\{let (\w)=\2\.API,(\w);return \3&&\(\6=\5\.restoreSnapshot\(\3\)\)")


def _grow_before_restore(m: re.Match, _context: Mapping[str, Any]) -> str:
    module, snapshot = m.group(2), m.group(3)
    return m.group(0).replace("return ", f"{snapshot}&&{module}.HEAP8.length<{snapshot}.length&&"
                                         f"{module}._emscripten_resize_heap({snapshot}.length);return ", 1)


def _before(anchor: str, text: str):
    """A replacement that puts ``text`` before ``anchor`` (which stays, for the next record)."""
    return text + anchor


_REGISTER = '        self.pyodide.registerJsModule("flet_js", flet_js);\n'
_PKGS = '        pkgs_path = "__pypackages__"\n'
_MODULE_NAME = "        self.pythonModuleName = event.data.pythonModuleName;\n"
_BOOTSTRAP_TAG = '<script src="flutter_bootstrap.js" async></script>'
#: Flutter's loader call, the last statement of flutter_bootstrap.js
_FLUTTER_LOAD = re.compile(r"_flutter\.loader\.load\((\{[\s\S]*\})\);\s*$")
_FLET_PUBLISH = "Flet 1.0.5's published web app"

PATCHES: tuple[Patch, ...] = (
    # ---- publish -------------------------------------------------------------------------
    Patch("Pyodide's module URL relative to the worker", "index.html",
          re.compile(r'flet\.pyodideUrl\s*=\s*"pyodide/pyodide\.mjs"'), 'flet.pyodideUrl="./pyodide/pyodide.mjs"',
          why="flet publish --no-cdn writes the bare module specifier pyodide/pyodide.mjs, which "
              "browsers refuse to import()",
          remove_when="Flet writes a ./-relative (or absolute) URL itself"),
    RIVE_JS,
    RIVE_WASM,
    SKWASM_ONE_THREAD,
    Patch("start Python while Flutter loads", "python.js", "globalThis.jsConnect = async function",
          append=_js("early_worker.js"),
          why="Flet's jsConnect creates the Python worker only once Flutter has started and asks "
              "for it: Pyodide, the app archive and the imports all wait for Flutter",
          remove_when="Flet starts the worker with the page", essential=False),
    Patch("the early worker uses python.js's app table", "python.js", re.compile(r"\blet _apps\b"),
          why="early_worker.js hands its worker over through _apps and _documentUrl",
          remove_when="as the record before", essential=False),
    Patch("the early worker uses python.js's document URL", "python.js", re.compile(r"\blet _documentUrl\b"),
          why="see the record before", remove_when="as the record before", essential=False),
    Patch("unpack app.tar.gz straight from memory", WORKER, _UNPACK_CALL, _FAST_UNPACK + "    " + _UNPACK_CALL,
          why="shutil.unpack_archive with tarfile's filter sets modes and times file by file "
              "(0.26-0.37 s against 0.15-0.18 s)",
          remove_when="Flet unpacks the archive faster (or the worker's JavaScript always does it)",
          essential=False),
    Patch("fetch, gunzip and unpack the app archive in the worker's JavaScript", WORKER, _REGISTER,
          _REGISTER + "        self.flet_js.rjh_unpacked = self.rjhUnpackArchive(self.pyodide, await (self.rjhArchive ||\n"
                      "            self.rjhFetchArchive(self.appPackageUrl, self.flet_js.args)));\n",
          append=_js("app_archive.js"),
          why="Flet's boot script copies the archive into Python and gunzips it with zlib compiled to "
              "WebAssembly: 0.35 s slower than DecompressionStream and writes into Pyodide's files",
          remove_when="Flet unpacks the archive in JavaScript", essential=False),
    Patch("the boot script skips the archive the worker unpacked", WORKER, '        if "script" not in py_args:\n',
          '        if getattr(flet_js, "rjh_unpacked", False):\n'
          '            print("App archive unpacked by the worker")\n'
          '        elif "script" not in py_args:\n',
          why="see the record before", remove_when="as the record before", essential=False),
    Patch("start-up mark: worker started", WORKER, "self.flet_js = {}; // namespace for Python global functions\n",
          lambda m, _c: m.group(0) + _MARK_FUNCTION,
          why="make bench shows where start-up time goes", remove_when="never (our own instrument)",
          essential=False),
    Patch("start-up mark: Pyodide ready", WORKER, _REGISTER,
          lambda m, _c: _before(m.group(0), '        self.flet_js.mark("pyodide_ready");\n'),
          why="make bench", remove_when="never (our own instrument)", essential=False),
    Patch("start-up mark: archive unpacked", WORKER, _PKGS,
          lambda m, _c: _before(m.group(0), '        flet_js.mark("archive_unpacked")\n'),
          why="make bench", remove_when="never (our own instrument)", essential=False),
    Patch("start-up mark: app module run", WORKER, "        await self.flet_js.start_connection(self.receiveCallback);\n",
          lambda m, _c: _before(m.group(0), '        self.flet_js.mark("app_module_run");\n'),
          why="make bench; the page registers the service worker after the first screen",
          remove_when="never (our own instrument)", essential=False),
    Patch("grow Pyodide's memory before restoring a snapshot", "pyodide/pyodide.mjs", _SNAPSHOT_RESTORE,
          _grow_before_restore,
          why="Pyodide 314.0.7 copies a snapshot over its first memory (30 MiB); ours is 36 MiB: "
              "RangeError: offset is out of bounds",
          remove_when="Pyodide grows the memory before restoring a snapshot"),
    # ---- snapshot ------------------------------------------------------------------------
    Patch("Python from the memory snapshot", WORKER, "        self.pyodide = await loadPyodide({\n",
          "        self.pyodide = await self.rjhLoadPyodide(loadPyodide, {\n", append=_js("memory_snapshot.js"),
          why="Pyodide's start and the app's imports were most of the offline reload",
          remove_when="never (our own speed-up)", essential=False, stage="snapshot"),
    Patch("fetch the snapshot with the first message", WORKER, _MODULE_NAME,
          _MODULE_NAME + "        self.rjhSnapshot = event.data.rjhSnapshot ? self.rjhFetchSnapshot() : null;\n",
          why="see the record before", remove_when="as the record before", essential=False, stage="snapshot"),
    Patch("redo what the snapshot froze", WORKER, _PKGS,
          lambda m, _c: _before(m.group(0), '        if getattr(flet_js, "rjh_snapshot", False):\n'
                                            '            from handbook.startup import resume_after_memory_snapshot\n'
                                            '            resume_after_memory_snapshot()\n'),
          why="the random seed and the time zone of the build machine",
          remove_when="as the record before", essential=False, stage="snapshot"),
    # ---- fonts ---------------------------------------------------------------------------
    Patch("the fonts Flutter loaded are not loaded again", WORKER, _PKGS,
          lambda m, c: _before(m.group(0), f'        os.environ["HANDBOOK_ENGINE_FONTS"] = '
                                           f'{",".join(c.get("engine_fonts", ())) !r}\n'),
          why="page.fonts would download and parse Noto Sans JP a second time",
          remove_when="never (our own speed-up)", essential=False, stage="fonts"),
    # ---- service worker ------------------------------------------------------------------
    Patch("Flutter's loader registers no service worker of its own", "flutter_bootstrap.js",
          re.compile(r"\n\s*serviceWorkerSettings:\s*\{[^{}]*\},"), "",
          why="flutter_service_worker.js only unregisters itself, and the loader would replace ours "
              "with it (flutter/flutter#156910)",
          remove_when="Flet ships an offline service worker for published apps", stage="service-worker"),
    Patch("register sw.js; compressed files on a first visit", "index.html", _BOOTSTRAP_TAG,
          lambda m, _c: _registration() + "  " + m.group(0), append="",
          why="Flet's published app caches nothing: it cannot start offline",
          remove_when="Flet ships an offline service worker for published apps", stage="service-worker"),
    # ---- first visit ---------------------------------------------------------------------
    Patch("the page's list of compressed files", "index.html", "/*__RJH_GZ__*/[]",
          lambda m, c: json.dumps(c.get("gzipped", [])),
          why="a first visit downloads the .gz copies (static hosts may not compress)",
          remove_when="never (our own)", essential=False, stage="first-visit"),
    Patch("the Python worker asks for compressed files on a first visit", WORKER, _MODULE_NAME,
          lambda m, c: m.group(0) + "        if (event.data.rjhControlled === false) {\n"
                                    f"            self.rjhGunzipFetch({json.dumps(c.get('gzipped', []))}, self.location.href);\n"
                                    "            self.rjhPyodideModule = self.rjhImportGunzipped(new URL(\"pyodide.asm.mjs\",\n"
                                    "                new URL(self.pyodideUrl, self.location.href)).href);\n"
                                    "            self.rjhArchive = self.rjhFetchArchiveAfterPython(self.appPackageUrl, self.flet_js.args);\n"
                                    "        }\n",
          append=_js("gunzip_fetch.js"),
          why="Pyodide's WebAssembly is 9.6 MB, 3.4 MB compressed; pyodide.asm.mjs (imported, not fetched) 1.25 MB, "
              "0.26 MB; the app archive comes after Pyodide's own files",
          remove_when="never (our own)",
          essential=False, stage="first-visit"),
    Patch("Flutter's files come after Python's on a first visit", "flutter_bootstrap.js", _FLUTTER_LOAD,
          lambda m, _c: ("(globalThis.rjhFlutterGate || Promise.resolve()).then(() => _flutter.loader.load("
                         + m.group(1) + "));\n"),
          why="at 20 Mbit/s the page's and the worker's downloads share the link: Flutter's 5 MB "
              "beside Python's 9 MB delayed Pyodide's start, the longer road to the first screen "
              "(search box at 11.4 s; 9.2-9.9 s with Python's files first)",
          remove_when="never (our own)", essential=False, stage="first-visit"),
)


def _registration() -> str:
    return (SW_REGISTRATION.replace("__MARK_CHANNEL__", MARK_CHANNEL)
            .replace("__GUNZIP_FETCH__", _js("gunzip_fetch.js")))


def apply_stage(out: Path, stage: str, context: Mapping[str, Any] | None = None) -> list[Outcome]:
    """Apply the records of ``stage`` to the build in ``out`` (all or none:
    :class:`~handbook.patching.PatchMismatch` lists every anchor that failed)."""
    if stage not in STAGES:
        raise ValueError(f"stage: must be one of {', '.join(STAGES)}, got {stage!r}")
    return apply_patches(out, [p for p in PATCHES if p.stage == stage], context)


#: the files of Flet's web client the records edit (index.html: as flet publish writes it)
TARGETS = ("index.html", "flutter_bootstrap.js", "python.js", WORKER, "main.dart.js", "main.dart.wasm",
           "pyodide/pyodide.mjs")


def published_copy(web: Path, into: Path) -> Path:
    """The files :data:`TARGETS` from Flet's web client folder ``web`` (flet_web/web) in ``into``,
    index.html patched as ``flet publish --no-cdn`` patches it."""
    from flet.controls.types import RouteUrlStrategy, WebRenderer
    from flet_web.patch_index import patch_index_html

    for rel in TARGETS:
        if (web / rel).is_file():
            (into / rel).parent.mkdir(parents=True, exist_ok=True)
            (into / rel).write_bytes((web / rel).read_bytes())
    if (into / "index.html").is_file():
        patch_index_html(str(into / "index.html"), base_href="/", pyodide=True,
                         pyodide_version=PYODIDE_VERSION, app_package_url="app.tar.gz",
                         web_renderer=WebRenderer.AUTO, route_url_strategy=RouteUrlStrategy.PATH, no_cdn=True)
    return into


def verify(web: Path | None = None, patches: Sequence[Patch] = PATCHES) -> list[Outcome]:
    """Try every record on a copy of Flet's web client (``web``: a flet_web/web folder, by
    default the installed flet-web's): one outcome per record, in order; nothing is written there."""
    if web is None:
        from flet_web import get_package_web_dir

        web = Path(get_package_web_dir())
    context = {"engine_fonts": ["NotoSansJP"], "gzipped": ["pyodide/pyodide.asm.wasm"]}
    with tempfile.TemporaryDirectory(prefix="rjh-verify-") as tmp:
        return plan(published_copy(web, Path(tmp)), patches, context)[1]


def all_applied(outcomes: Sequence[Outcome]) -> bool:
    return all(o.status == APPLIED for o in outcomes)
