// Run a Python script inside Pyodide under Node.js (used by tools/pwa/build.py at build time).
//
//   node tools/pwa/run_pyodide.mjs <pyodide dir> <script.py> <host dir>=<mount point> ...
//
// The Pyodide is the one the PWA ships (flet_web/web/pyodide), so bytecode compiled here has the
// browser's exact Python version and magic number. Host folders are mounted with NODEFS.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [pyodideDir, script, ...mounts] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
for (const spec of mounts) {
  const [host, target] = spec.split("=");
  pyodide.FS.mkdirTree(target);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: host }, target);
}
await pyodide.runPythonAsync(readFileSync(script, "utf8"));
