// ---- Riichi Judge Handbook (put into python-worker.js by tools/pwa/build.py, load_python_from_snapshot)
// Start Python from the memory snapshot the build took right after the app's imports
// (pyodide/snapshot.bin.gz): Pyodide's interpreter start-up and the app's imports are skipped.
// Only when the page said the service worker controls it (the snapshot then comes from the
// precache; the first visit starts Python as before instead of downloading it twice). Anything
// unexpected -- no DecompressionStream, a failed download, a snapshot Pyodide refuses -- starts
// Python as before too. The Python side redoes what the snapshot froze from the build machine
// (handbook.startup.resume_after_memory_snapshot, called by the boot script).
self.rjhFetchSnapshot = function () {
  if (typeof DecompressionStream === "undefined") {
    return Promise.resolve(null);
  }
  return fetch(new URL("pyodide/snapshot.bin.gz", self.location.href))
    .then((response) => response.ok ?
      new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer() : null)
    .then((buffer) => buffer === null ? null : new Uint8Array(buffer))
    .catch((error) => {
      console.warn("Python memory snapshot not loaded:", error);
      return null;
    });
};

// Flet's loadPyodide(options), from the snapshot when there is one. With it Pyodide is ready
// sooner and spends less of the CPU getting there, so the app archive is fetched meanwhile
// (self.rjhArchive, unpacked by rjhUnpackArchive once Pyodide is ready). Without it (a first
// visit) the archive is fetched at once too: on a venue's network its 3 MB (1.3 s at 20 Mbit/s)
// then arrive while Pyodide starts instead of after. Not before the snapshot is read: the
// worker's thread is busy decompressing it (even importing pyodide.mjs waits for that).
self.rjhLoadPyodide = async function (loadPyodide, options) {
  // a first visit: Pyodide's module fetched compressed (gunzip_fetch.js, rjhImportGunzipped)
  const module = await self.rjhPyodideModule;
  if (module) {
    options = Object.assign({}, options, { createPyodideModule: module });
  }
  if (!self.rjhSnapshot && !self.rjhArchive) {   // a first visit asked for it already
    self.rjhArchive = self.rjhFetchArchive(self.appPackageUrl, self.flet_js.args);
  }
  const snapshot = await self.rjhSnapshot;   // null unless the page asked for it
  if (snapshot) {
    self.rjhArchive = self.rjhFetchArchive(self.appPackageUrl, self.flet_js.args);
    try {
      const pyodide = await loadPyodide(Object.assign({}, options, { _loadSnapshot: snapshot }));
      self.flet_js.rjh_snapshot = true;
      console.log("Python started from its memory snapshot");
      return pyodide;
    } catch (error) {
      console.warn("Python memory snapshot not used:", error);
    }
  }
  return loadPyodide(options);
};
