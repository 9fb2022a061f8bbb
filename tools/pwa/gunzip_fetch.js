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
  self.fetch = function (input, init) {
    const request = typeof input === "object" && !(input instanceof URL) ? input : null;
    const href = new URL(request ? request.url : String(input), base).href.split(/[?#]/)[0];
    const method = ((init && init.method) || (request && request.method) || "GET").toUpperCase();
    if (!wanted.has(href) || method !== "GET" || (request && request.headers.has("range"))) {
      return original(input, init);
    }
    return original(href + ".gz", { credentials: "same-origin" }).then((response) => {
      if (!response.ok || !response.body) {
        return original(input, init);
      }
      const decoded = /gzip/i.test(response.headers.get("Content-Encoding") || "");
      const type = TYPES[href.split(".").pop()] || "application/octet-stream";
      return new Response(decoded ? response.body : response.body.pipeThrough(new DecompressionStream("gzip")),
        { status: 200, headers: { "Content-Type": type } });
    }, () => original(input, init));
  };
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
