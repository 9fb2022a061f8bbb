"""Runs INSIDE Pyodide (under Node.js, see run_pyodide.mjs), called by tools/pwa/build.py.

Why: Pyodide 314.0.7's ``python_stdlib.zip`` holds ``.py`` sources only, and so do the app and its
vendored packages, so every start in the browser compiles all of them again (seconds on a phone).
Compiling once at build time, with the very Pyodide the PWA ships, cuts that out.

What:
1. import the app's modules the way a start does (handbook and everything it imports, the flet
   controls its source names, the Pyodide connection, loading and searching the content) -- a
   smoke test of the vendored packages under Pyodide's CPython, too: an error there is reported
   by the build, which then ships sources only (a handbook module that does not import here is
   only listed);
2. every module that got imported from a ``.py`` file is compiled to an unchecked-hash ``.pyc``:
   - standard library: ``.py`` replaced by a sourceless ``.pyc`` in a new python_stdlib.zip;
   - ``__pypackages__``: ``.py`` replaced by a sourceless ``.pyc`` next to it;
   - the app (``main.py``, ``handbook``): ``__pycache__/*.cpython-314.pyc`` beside the source
     (tracebacks keep their source lines);
   modules nothing imported at start stay as source: correct either way, and smaller.

Mounts: /mnt/app = the staged app folder (changed in place); /mnt/work = the folder with the
original python_stdlib.zip (read) where python_stdlib.pyc.zip and precompile.json are written.
"""

import importlib
import importlib.util
import json
import os
import pkgutil
import py_compile
import re
import sys
import types
import zipfile

APP = "/mnt/app"
WORK = "/mnt/work"
STDLIB = "/lib/python314.zip"      # where Pyodide mounts python_stdlib.zip
RUNTIME_HOME = "/home/pyodide"     # where the browser unpacks app.tar.gz (shown in tracebacks)
MODE = py_compile.PycInvalidationMode.UNCHECKED_HASH

sys.dont_write_bytecode = True   # no timestamp-based __pycache__ in the staged app
sys.path[:0] = [APP + "/__pypackages__", APP]
os.chdir(APP)

# --- 1. trace the imports of a start --------------------------------------------------------
flet_js = types.ModuleType("flet_js")  # the browser's JS bridge; only needs to exist here
sys.modules["flet_js"] = flet_js

import flet  # noqa: E402
import flet.messaging.pyodide_connection  # noqa: E402,F401

import handbook  # noqa: E402

failed = []
for info in pkgutil.walk_packages(handbook.__path__, "handbook."):
    try:
        importlib.import_module(info.name)
    except Exception as exc:  # a module that only imports in a server/CLI context
        failed.append(f"{info.name}: {type(exc).__name__}: {exc}")

# the flet controls the app's source names (flet loads controls lazily on attribute access)
names = set()
for dirpath, _dirs, files in os.walk(APP + "/handbook"):
    for f in files:
        if f.endswith(".py"):
            with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                names.update(re.findall(r"\bft\.([A-Z]\w*)", fh.read()))
if os.path.exists("main.py"):
    with open("main.py", encoding="utf-8") as fh:
        names.update(re.findall(r"\bft\.([A-Z]\w*)", fh.read()))
for name in sorted(names):
    getattr(flet, name, None)

# what the first screens do at start: load the content (from the build's snapshot, checked
# against the TOML), search it, format a date, fuzzy-match
checks = {}
lib = handbook.load_library()
shipped = handbook.default_library()
from handbook.core import snapshot  # noqa: E402

checks["snapshot"] = snapshot.load_shipped() is not None and shipped == lib
lib.search("chonbo")
lib.search("見せ牌")
try:
    import datetime

    from handbook import i18n

    for loc in ("en", "ja"):
        tr = i18n.translator(loc)
        tr.format_date(datetime.date(2026, 4, 20))
        tr.format_decimal(-2.5)
except ImportError:
    pass
from rapidfuzz import process  # noqa: E402,F401
from rapidfuzz.distance import DamerauLevenshtein  # noqa: E402,F401

# the search's English lemmatiser (simplemma, lzma-compressed dictionary): loads under Pyodide?
try:
    import simplemma

    from handbook.core.search import warm_lemmatizer

    checks["lemmatizer"] = warm_lemmatizer()
    checks["lemma_took"] = simplemma.lemmatize("took", lang="en")
except Exception as exc:  # noqa: BLE001 - reported by the build; the search falls back to stems
    checks["lemmatizer"] = False
    checks["lemmatizer_error"] = f"{type(exc).__name__}: {exc}"
compiled_at_start = {n for n, m in sys.modules.items() if (getattr(m, "__file__", "") or "").endswith(".py")}

# --- 1b. what else the standard library must keep --------------------------------------------
# python_stdlib.zip is pruned to the modules something can import: what a start imported (above),
# what Flet's worker boot script uses, and every module named by an import statement anywhere in
# the app or its vendored packages (a screen's or a function's late import), with what those
# import in turn.
import ast  # noqa: E402

BOOT = ("runpy", "traceback", "pyodide.http", "urllib.parse", "shutil", "tarfile", "gzip", "zipfile",
        "tomllib", "pyodide.ffi", "pyodide.code", "pyodide.webloop", "asyncio", "encodings.idna",
        "encodings.utf_8_sig", "encodings.latin_1", "encodings.ascii", "encodings.utf_16",
        "encodings.utf_32", "encodings.cp1252", "encodings.raw_unicode_escape",
        "encodings.unicode_escape")
named = set(BOOT)
for dirpath, _dirs, files in os.walk(APP):
    for f in files:
        if not f.endswith(".py"):
            continue
        try:
            with open(os.path.join(dirpath, f), "rb") as fh:
                tree = ast.parse(fh.read())
        except (SyntaxError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                named.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                named.add(node.module)
                named.update(f"{node.module}.{a.name}" for a in node.names)
for name in sorted(named):
    top = name.split(".")[0]
    if top in ("handbook", "main") or top in sys.modules and name in sys.modules:
        continue
    try:
        importlib.import_module(name)
    except BaseException:  # noqa: BLE001 - not a module, or one only for another platform
        pass
# a tarball unpack, as the worker does with app.tar.gz (tarfile/shutil import more on use)
import io  # noqa: E402
import shutil  # noqa: E402
import tarfile  # noqa: E402

_buf = io.BytesIO()
with tarfile.open(fileobj=_buf, mode="w:gz") as _t:
    _info = tarfile.TarInfo("x.txt")
    _t.addfile(_info, io.BytesIO(b""))
with open("/tmp/boot.tar.gz", "wb") as _fh:
    _fh.write(_buf.getvalue())
shutil.unpack_archive("/tmp/boot.tar.gz", "/tmp/boot", format="gztar")

# --- 2. compile what was imported -------------------------------------------------------------
stdlib_used, stdlib_kept, app_used = set(), set(), set()
for name, mod in list(sys.modules.items()):
    path = getattr(mod, "__file__", None) or ""
    if not path.endswith(".py"):
        continue
    if path.startswith(STDLIB + "/"):
        stdlib_kept.add(path[len(STDLIB) + 1:])
        if name in compiled_at_start:
            stdlib_used.add(path[len(STDLIB) + 1:])
    elif path.startswith(APP + "/") and name in compiled_at_start:
        app_used.add(path)

n_app = 0
for path in sorted(app_used):
    rel = os.path.relpath(path, APP)
    display = f"{RUNTIME_HOME}/{rel}"
    if rel.startswith("__pypackages__/"):
        py_compile.compile(path, cfile=path + "c", dfile=display, doraise=True, invalidation_mode=MODE)
        os.remove(path)
    else:
        py_compile.compile(path, cfile=importlib.util.cache_from_source(path), dfile=display,
                           doraise=True, invalidation_mode=MODE)
    n_app += 1

os.makedirs("/tmp/pyc", exist_ok=True)
n_std = 0
with zipfile.ZipFile(WORK + "/python_stdlib.zip") as zin, \
        zipfile.ZipFile(WORK + "/python_stdlib.pyc.zip", "w", zipfile.ZIP_DEFLATED,
                        compresslevel=9) as zout:
    n_dropped = 0
    for info in zin.infolist():
        if (info.filename.endswith(".py") and info.filename not in stdlib_kept
                and not info.filename.startswith(("pyodide/", "_pyodide/"))):  # JS calls into them
            n_dropped += 1      # nothing in the app, its packages or the boot imports it
            continue
        data = zin.read(info)
        if info.filename in stdlib_used:
            src, out = "/tmp/pyc/m.py", "/tmp/pyc/m.pyc"
            with open(src, "wb") as fh:
                fh.write(data)
            py_compile.compile(src, cfile=out, dfile=f"{STDLIB}/{info.filename}", doraise=True,
                               invalidation_mode=MODE)
            with open(out, "rb") as fh:
                data = fh.read()
            name = info.filename[:-3] + ".pyc"
            n_std += 1
        else:
            name = info.filename
        entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        entry.external_attr = info.external_attr
        entry.compress_type = zipfile.ZIP_DEFLATED if not name.endswith("/") else zipfile.ZIP_STORED
        zout.writestr(entry, data)

report = {"python": sys.version.split()[0], "magic": importlib.util.MAGIC_NUMBER.hex(),
          "stdlib_compiled": n_std, "stdlib_dropped": n_dropped, "app_compiled": n_app,
          "import_failures": failed, "checks": checks}
with open(WORK + "/precompile.json", "w", encoding="utf-8") as fh:
    json.dump(report, fh, indent=2)
print(f"precompiled {n_std} standard-library and {n_app} app modules, left {n_dropped} unused "
      "standard-library modules out "
      f"(Python {report['python']}, magic {report['magic']})")
