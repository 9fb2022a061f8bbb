"""Browsers that do not get skwasm still start offline: dart2js + CanvasKit, precached for them.

Chromium here runs the skwasm build (``test_offline.py``). Flutter's loader gives other browsers
``main.dart.js`` with CanvasKit, and the page must name the same build to the service worker
(``sw.js?variant=...``, tools/pwa/build.py ``SW_REGISTRATION``), or the browser would find its
renderer missing offline. The same Chromium is made to look like

* Firefox (its user agent, an empty ``navigator.vendor``): Flutter's default ``wasmAllowList``
  keeps Gecko (and WebKit) on dart2js, with the full CanvasKit -> variant "full";
* a Chrome without WebAssembly GC (before 119; the loader's WasmGC probe answers false):
  dart2js with the "chromium" CanvasKit -> variant "chromium".

Each: first visit online, the worker precaches its variant; the server is stopped, the network
switched off, the page reloaded: the app's first screen appears and no request left 127.0.0.1.
"""

from __future__ import annotations

import pytest
from tests.support.flutter_web import FIRST_FRAME_EVENT_JS
from tests.support.pwa_harness import CONTEXT_OPTIONS, App, PwaServer, Requests, open_app, reload_app, wait_for_service_worker

FIREFOX_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0"
FIREFOX_JS = "Object.defineProperty(Navigator.prototype, 'vendor', { get: () => '' });"
#: Flutter's (and the page's) WasmGC probe is a 15-byte module; answer it as a Chrome < 119 would
NO_WASM_GC_JS = """(() => {
  const validate = WebAssembly.validate;
  WebAssembly.validate = (bytes) => (bytes.length === 15 && bytes[11] === 95) ? false : validate(bytes);
})();"""

CASES = {
    "firefox": ({"user_agent": FIREFOX_UA}, FIREFOX_JS, "full", "/canvaskit/canvaskit.wasm"),
    "chrome-without-wasm-gc": ({}, NO_WASM_GC_JS, "chromium", "/canvaskit/chromium/canvaskit.wasm"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_canvaskit_fallback_offline(pwa_dir, browser, case):
    options, init_js, variant, canvaskit = CASES[case]
    context = browser.new_context(**{**CONTEXT_OPTIONS, **options})
    context.add_init_script(init_js)
    context.add_init_script(FIRST_FRAME_EVENT_JS)
    requests = Requests().attach(context)
    server = PwaServer(pwa_dir)
    try:
        page = context.new_page()
        app = App(page, server)
        open_app(app)
        sw = wait_for_service_worker(page)
        assert sw["script"] == server.url(f"/sw.js?variant={variant}"), sw["script"]
        loaded = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        assert any(u.endswith("/main.dart.js") for u in loaded), "Flutter did not run main.dart.js"
        # (a first visit asks for the compressed copy: tools/pwa/gunzip_fetch.js)
        assert any(u.endswith((canvaskit, canvaskit + ".gz")) for u in loaded), f"{canvaskit} not loaded"
        assert not [u for u in loaded if u.endswith(("/main.dart.wasm", "/skwasm.wasm"))]

        server.stop()
        context.set_offline(True)
        reload_app(app)   # the search box of the first screen, from the precache alone
        assert page.evaluate("!!navigator.serviceWorker.controller")
    finally:
        server.stop()
        context.close()
    assert not requests.outside(), requests.outside()
    assert not requests.unexpected_failures(), requests.unexpected_failures()
