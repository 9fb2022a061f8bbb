"""The offline PWA under the served app's security policy (issue 46; tools/pwa/security.py).

In headless Debian Chromium at phone size:

* ``test_the_pwa_runs_offline_under_its_policy``: the build's page carries the CSP ``<meta>``
  (inline scripts by hash, no ``'unsafe-inline'`` script, no websocket, nothing from another
  origin) and ``no-referrer``; the static server sends ``_headers`` (CSP with
  ``frame-ancestors 'none'``, nosniff, ``X-Frame-Options``). Under both, the app loads, shows its
  search box, becomes ready offline, and with the server gone and the network off reloads from
  its service worker and answers a search -- with no CSP violation reported, while a script
  injected into the page afterwards is refused (the policy is in force, not just present).
* ``test_another_site_cannot_frame_the_pwa``: a page of another origin framing the app gets
  nothing from a host that sends the headers (Chromium refuses the frame), and from a host that
  sends none the frame guard stops the app and says so, with a link that opens it on its own.
"""

from __future__ import annotations

import re
import urllib.request

from tests.support.pwa_harness import App, PwaServer, open_app, reload_app, wait_for_service_worker
from tools.pwa import security
from tools.pwa.serve import StaticServer

#: every CSP violation the page sees, logged to the console (the page's own listener)
VIOLATIONS_JS = """document.addEventListener('securitypolicyviolation', (e) =>
  console.error('CSP violation: ' + e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '')));"""
INJECT_JS = """() => { const s = document.createElement('script'); s.textContent = 'window.rjhInjected = 1';
  document.head.appendChild(s); return window.rjhInjected === 1; }"""


def _csp_lines(console: list[str]) -> list[str]:
    return [m for m in console if "CSP violation" in m or "Content Security Policy" in m]


def test_the_pwa_runs_offline_under_its_policy(pwa_dir, page, context):
    index = (pwa_dir / "index.html").read_text(encoding="utf-8")
    meta = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]+)">', index)
    assert meta, "index.html has no CSP <meta>"
    assert index.index("Content-Security-Policy") < index.index("<script"), "the policy must come before every script"
    policy = meta.group(1).replace("&#x27;", "'")
    script_src = next(d for d in policy.split("; ") if d.startswith("script-src "))
    assert "'unsafe-inline'" not in script_src and "'sha256-" in script_src, script_src
    assert "frame-ancestors" not in policy, "ignored in a <meta> (Chromium says so in the console)"
    assert not re.search(r"\b(https?|wss?):", policy), f"the PWA talks to no other origin or server: {policy}"
    assert '<meta name="referrer" content="no-referrer">' in index
    context.add_init_script(VIOLATIONS_JS)
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.on("pageerror", lambda e: errors.append(str(e)))

    server = PwaServer(pwa_dir)
    try:
        with urllib.request.urlopen(server.url("/"), timeout=10) as r:
            headers = r.headers
        assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
        assert headers["Content-Security-Policy"] == security.header_policy()
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["X-Frame-Options"] == "DENY"
        assert headers["Referrer-Policy"] == "no-referrer"

        app = App(page, server)
        open_app(app)   # the search box is in the ARIA tree
        app.wait_for_text("Ready offline")
        wait_for_service_worker(page)
        app.type_into("Search", "chombo")
        app.find("Chombo")
        server.stop()
        context.set_offline(True)
        reload_app(app)
        assert page.evaluate("!!navigator.serviceWorker.controller")
        app.type_into("Search", "見せ牌")
        app.find("AZRM", "§2.4", "Wrongly revealing tiles")
        assert not _csp_lines(console), f"the app broke its own policy: {_csp_lines(console)}"
        assert not errors, errors
        # ... and the policy is in force: an injected inline script does not run
        assert page.evaluate(INJECT_JS) is False
        page.wait_for_timeout(200)
        assert any("script-src" in m for m in _csp_lines(console)), console[-10:]
    finally:
        server.stop()


FRAMING_PAGE = '<!doctype html><title>another site</title><iframe id="f" src="{url}" width="400" height="800"></iframe>'


def test_another_site_cannot_frame_the_pwa(pwa_dir, page, tmp_path):
    other = tmp_path / "other-site"
    other.mkdir()
    with_headers = PwaServer(pwa_dir)
    bare = StaticServer(pwa_dir, headers=False).start()   # a host that sends no headers
    try:
        (other / "a.html").write_text(FRAMING_PAGE.format(url=with_headers.url("/")), encoding="utf-8")
        (other / "b.html").write_text(FRAMING_PAGE.format(url=bare.url), encoding="utf-8")
        # localhost is another origin (and another site) than 127.0.0.1
        with StaticServer(other, host="127.0.0.1", headers=False) as site:
            site_url = f"http://localhost:{site.port}"
            console: list[str] = []
            page.on("console", lambda m: console.append(m.text))
            page.goto(f"{site_url}/a.html")
            page.wait_for_timeout(1500)
            framed = next(f for f in page.frames if f is not page.main_frame)
            # refused by frame-ancestors 'none' (and X-Frame-Options): an error page, nothing of the app
            assert framed.url.startswith("chrome-error://"), (framed.url, console)
            assert any("frame-ancestors" in m or "X-Frame-Options" in m for m in console), console

            page.goto(f"{site_url}/b.html")
            frame = page.frame_locator("#f")
            guard = frame.get_by_text("The handbook cannot be opened inside another site's page.")
            guard.wait_for(timeout=30_000)
            link = frame.get_by_role("link", name="Open the handbook on its own")
            assert link.get_attribute("target") == "_top"
            assert link.get_attribute("href").startswith(bare.url)
            page.wait_for_timeout(1500)
            inner = next(f for f in page.frames if f is not page.main_frame)
            assert inner.query_selector("flutter-view") is None, "the app started inside the frame"
            assert inner.evaluate("typeof _flutter") == "undefined", "Flutter's loader ran inside the frame"
    finally:
        with_headers.stop()
        bare.stop()
