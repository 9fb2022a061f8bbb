
// ---- Riichi Judge Handbook (appended by tools/pwa/build.py, start_python_early) ---------------
// Start the Python worker (Pyodide, the app archive, the app's imports) while the page is still
// loading main.dart.js and CanvasKit, instead of after Flutter's first frame: Flet's jsConnect
// above creates the worker only when Dart asks for it. When Dart connects, the running worker is
// handed over with every message it sent meanwhile. If Dart passes arguments that change how
// Python starts (a script, dependencies, another module or archive), the early worker is
// dropped and Flet's own jsConnect starts one as before.
;(function () {  // ";": python.js ends without one
  if (typeof flet === "undefined" || !flet.pyodide || typeof Worker === "undefined") {
    return;
  }
  const base = flet.entrypointBaseUrl.endsWith("/") ?
    flet.entrypointBaseUrl.slice(0, -1) : flet.entrypointBaseUrl;
  const controlled = !!(navigator.serviceWorker && navigator.serviceWorker.controller);
  const early = { worker: new Worker(base + "/python-worker.js", { type: "module" }), events: [],
    openFlutterGate: () => {} };
  // A first visit (no service worker answers yet): Flutter's files wait until the worker has
  // Pyodide, the standard library and the app archive (its mark "archive_fetched"). On a venue's
  // network both share one downlink, and Python's files lead the longer road to the first screen
  // (Pyodide's start and the app's imports, ~3 s of CPU after them); Flutter compiles its
  // WebAssembly as it arrives. flutter_bootstrap.js waits for globalThis.rjhFlutterGate; it opens
  // at once on a message that Python failed, and after 10 s whatever happens.
  if (!controlled && typeof BroadcastChannel !== "undefined") {
    globalThis.rjhFlutterGate = new Promise((resolve) => {
      const marks = new BroadcastChannel("rjh-startup");   // flet_patches.MARK_CHANNEL
      const timer = setTimeout(() => early.openFlutterGate(), 10000);
      early.openFlutterGate = () => {
        early.openFlutterGate = () => {};
        clearTimeout(timer);
        marks.close();
        resolve();
      };
      marks.onmessage = (event) => {
        if (event.data && event.data.name === "archive_fetched") {
          early.openFlutterGate();
        }
      };
    });
  }
  early.worker.onmessage = (event) => {
    if (typeof event.data === "string") {   // "initialized", or Python's start failed
      early.openFlutterGate();
    }
    early.events.push(event);
  };
  early.worker.addEventListener("error", () => early.openFlutterGate());   // the worker did not load
  early.worker.postMessage({
    pyodideUrl: flet.pyodideUrl || "pyodide/pyodide.mjs",
    args: {},
    documentUrl: _documentUrl,
    appPackageUrl: flet.appPackageUrl,
    micropipIncludePre: flet.micropipIncludePre,
    pythonModuleName: flet.pythonModuleName,
    // the service worker controls the page: Python can start from its precached memory snapshot
    rjhSnapshot: controlled,
    // no service worker answers yet: the worker asks for the compressed files itself
    rjhControlled: controlled
  });
  const STARTUP_ARGS = ["script", "dependencies", "app_package_url", "python_module_name",
    "micropip_include_pre"];
  const fletConnect = globalThis.jsConnect;
  globalThis.jsConnect = async function (appId, args, dartOnMessage) {
    const worker = early.worker;
    early.worker = null;
    const keys = args && typeof args === "object" ? Object.keys(args) : [];
    if (worker === null || keys.some((k) => STARTUP_ARGS.includes(k))) {
      if (worker !== null) {
        worker.terminate();
      }
      return fletConnect(appId, args, dartOnMessage);
    }
    console.log(`Python worker started early: ${appId}`);
    const app = { dartOnMessage: dartOnMessage, worker: worker };
    _apps[appId] = app;
    let error;
    const pythonInitialized = new Promise((resolve) => app.onPythonInitialized = resolve);
    const onmessage = (event) => {
      if (typeof event.data === "string") {
        if (event.data != "initialized") {
          error = event.data;
        }
        app.onPythonInitialized();
      } else {
        app.dartOnMessage(event.data);
      }
    };
    worker.onmessage = onmessage;
    early.events.splice(0).forEach(onmessage);
    await pythonInitialized;
    if (error) {
      console.error("Python worker init error:", error);
      await jsDisconnect(appId);
      throw error;
    }
    console.log(`Python worker initialized: ${appId}`);
  };
})();
