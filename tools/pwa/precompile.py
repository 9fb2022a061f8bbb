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

# what the first screens do at start: load the content, search it, format a date, fuzzy-match
lib = handbook.load_library()
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

# --- 2. compile what was imported -------------------------------------------------------------
stdlib_used, app_used = set(), set()
for mod in list(sys.modules.values()):
    path = getattr(mod, "__file__", None) or ""
    if not path.endswith(".py"):
        continue
    if path.startswith(STDLIB + "/"):
        stdlib_used.add(path[len(STDLIB) + 1:])
    elif path.startswith(APP + "/"):
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
    for info in zin.infolist():
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
          "stdlib_compiled": n_std, "app_compiled": n_app, "import_failures": failed}
with open(WORK + "/precompile.json", "w", encoding="utf-8") as fh:
    json.dump(report, fh, indent=2)
print(f"precompiled {n_std} standard-library and {n_app} app modules "
      f"(Python {report['python']}, magic {report['magic']})")
