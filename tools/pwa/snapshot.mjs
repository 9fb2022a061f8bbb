// Make and check the offline app's Python memory snapshot under Node.js (tools/pwa/build.py,
// make_memory_snapshot).
//
//   node tools/pwa/snapshot.mjs <pyodide dir> <app dir> <warm.py> <check.py> <snapshot file>
//
// 1. Pyodide from <pyodide dir> (the build's own: the pyodide.asm.wasm and python_stdlib.zip the
//    app ships) starts with `_makeSnapshot`, with <app dir> (app.tar.gz unpacked) mounted where the
//    browser unpacks it, /home/pyodide; <warm.py> imports what a start imports; the folder is
//    unmounted and `makeMemorySnapshot()` written to <snapshot file>.
// 2. A second Pyodide starts from that file, as the browser's worker does, with the folder mounted
//    again, and runs <check.py>. Exit code 1 and the error on stderr when either step fails.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, appDir, warmScript, checkScript, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const HOME = "/home/pyodide";

const mountApp = (pyodide) => {
  pyodide.FS.mkdirTree(HOME);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: appDir }, HOME);
};

const maker = await loadPyodide({ indexURL: `${pyodideDir}/`, _makeSnapshot: true });
mountApp(maker);
maker.runPython(readFileSync(warmScript, "utf8"), { filename: "snapshot_warm.py" });
maker.FS.unmount(HOME);
const snapshot = maker.makeMemorySnapshot();
writeFileSync(out, snapshot);

const restored = await loadPyodide({ indexURL: `${pyodideDir}/`, _loadSnapshot: readFileSync(out) });
mountApp(restored);
restored.runPython(readFileSync(checkScript, "utf8"), { filename: "snapshot_check.py" });
console.log(`memory snapshot: ${snapshot.length} bytes, checked`);
