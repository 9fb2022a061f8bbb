"""The build steps that run Pyodide under Node.js (optional: without Node.js the PWA ships sources
and starts Python without a snapshot, about 1-2 s slower): bytecode compiled with the Pyodide the
PWA ships, and the memory snapshot of Python taken after the app's imports."""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import tarfile
from pathlib import Path

from tools.pwa.config import HERE, log


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



#: Where the snapshot goes, gzip-compressed (the worker decompresses it: tools/pwa/memory_snapshot.js).
MEMORY_SNAPSHOT = "pyodide/snapshot.bin.gz"
#: gzip level of the snapshot: 36 MiB of memory took 4.4 CPU-s at -9 and 0.8 at -6 for 1.2 % more
#: (8.60 -> 8.71 MB), fetched in the background once the app is ready offline (sw.js EXTRAS), so
#: neither the first visit nor "Ready offline" waits for those bytes.
SNAPSHOT_GZIP_LEVEL = 6


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
    packed = gzip.compress(data, compresslevel=SNAPSHOT_GZIP_LEVEL, mtime=0)
    (out / MEMORY_SNAPSHOT).write_bytes(packed)
    shutil.rmtree(snap_dir)
    log(f"memory snapshot: {len(data) / 2**20:.1f} MiB, {len(packed) / 2**20:.1f} MiB compressed")
    return {"bytes": len(data), "gzip_bytes": len(packed)}, None
