// ---- Riichi Judge Handbook (tools/pwa/build.py, compressed_first_visit) --------------------------
// On a first visit no service worker answers yet, and a static host may or may not send
// "Content-Encoding: gzip": so the page and the Python worker ask for "<file>.gz" themselves,
// for every file the build stored compressed beside the plain one (the WebAssembly of Pyodide
// and Flutter, the fonts, ...), and decompress it with the browser's DecompressionStream --
// about a third of the bytes. A host that does send the encoding has the browser decode it
// already; a missing ".gz" or any error falls back to the plain file. Not once the service
// worker controls the page: it answers from its precache (and the code cache of the WebAssembly
// compiled from it stays valid).
self.rjhGunzipFetch = function (paths, base) {
  if (typeof DecompressionStream === "undefined" || self.rjhGunzipping || !self.fetch) {
    return;
  }
  self.rjhGunzipping = true;
  const TYPES = { wasm: "application/wasm", js: "text/javascript", mjs: "text/javascript",
    json: "application/json", ttf: "font/ttf", otf: "font/otf", bin: "application/octet-stream" };
  const wanted = new Set(paths.map((p) => new URL(p, base).href));
  const original = self.fetch.bind(self);
  // Pyodide's WebAssembly and standard library: self.rjhPythonFilesIn resolves once both have
  // been read whole (or failed), so the app archive is asked for after them (first_visit_order.js)
  const watched = new Map(["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"].map((p) => {
    let resolve;
    const done = new Promise((r) => resolve = r);
    return [new URL(p, base).href, { done, resolve }];
  }));
  self.rjhPythonFilesIn = Promise.all([...watched.values()].map((w) => w.done));
  const track = (href, response, body) => {
    const w = watched.get(href);
    if (!w) {
      return body;
    }
    if (!response.ok || !body) {
      w.resolve();
      return body;
    }
    return body.pipeThrough(new TransformStream({ flush() { w.resolve(); } }));
  };
  self.fetch = function (input, init) {
    const request = typeof input === "object" && !(input instanceof URL) ? input : null;
    const href = new URL(request ? request.url : String(input), base).href.split(/[?#]/)[0];
    const method = ((init && init.method) || (request && request.method) || "GET").toUpperCase();
    if (!wanted.has(href) || method !== "GET" || (request && request.headers.has("range"))) {
      if (!watched.has(href) || method !== "GET") {
        return original(input, init);
      }
      return original(input, init).then((response) => response.body && response.ok ?
        new Response(track(href, response, response.body),
          { status: response.status, statusText: response.statusText, headers: response.headers }) :
        (track(href, response, null), response),
      (error) => { watched.get(href).resolve(); throw error; });
    }
    // the plain file after all: a watched one counts as arrived once it answers
    const plain = () => {
      const answer = original(input, init);
      const w = watched.get(href);
      if (w) {
        answer.then(w.resolve, w.resolve);
      }
      return answer;
    };
    return original(href + ".gz", { credentials: "same-origin" }).then((response) => {
      if (!response.ok || !response.body) {
        return plain();
      }
      const decoded = /gzip/i.test(response.headers.get("Content-Encoding") || "");
      const type = TYPES[href.split(".").pop()] || "application/octet-stream";
      return new Response(track(href, response,
        decoded ? response.body : response.body.pipeThrough(new DecompressionStream("gzip"))),
        { status: 200, headers: { "Content-Type": type } });
    }, plain);
  };
};

// The app archive on a first visit: asked for once Pyodide's WebAssembly and standard library
// are in (self.rjhPythonFilesIn; at most 10 s later, should Pyodide never ask for them), not
// beside them, so they arrive sooner on a slow network: Pyodide starts while the archive comes.
// The mark "archive_fetched" then lets the page load Flutter's files (early_worker.js).
self.rjhFetchArchiveAfterPython = function (appPackageUrl, args) {
  const pythonFiles = self.rjhPythonFilesIn ?
    Promise.race([self.rjhPythonFilesIn, new Promise((resolve) => setTimeout(resolve, 10000))]) :
    Promise.resolve();
  const mark = () => self.flet_js && self.flet_js.mark && self.flet_js.mark("archive_fetched");
  return pythonFiles.then(() => self.rjhFetchArchive(appPackageUrl, args))
    .then((archive) => { mark(); return archive; }, (error) => { mark(); throw error; });
};

// Pyodide loads pyodide.asm.mjs with import(), which the fetch above never sees: a first visit
// downloaded its 1.25 MB plain. So the worker fetches it through the fetch above (its .gz,
// 0.26 MB) and imports it from a blob: URL (it locates its files through Pyodide's locateFile,
// not its own URL); rjhLoadPyodide hands it to loadPyodide (option createPyodideModule).
// Null -- Pyodide imports the plain file as before -- without the fetch above or on any error.
self.rjhImportGunzipped = function (url) {
  if (!self.rjhGunzipping || typeof URL.createObjectURL !== "function") {
    return Promise.resolve(null);
  }
  return self.fetch(url)
    .then((response) => response.ok ? response.text() : null)
    .then((text) => text === null ? null :
      import(URL.createObjectURL(new Blob([text], { type: "text/javascript" }))))
    .then((module) => (module && typeof module.default === "function") ? module.default : null)
    .catch((error) => {
      console.warn("pyodide.asm.mjs left to Pyodide:", error);
      return null;
    });
};
