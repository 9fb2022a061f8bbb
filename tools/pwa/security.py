"""The offline PWA under the served app's security policy (issue 46).

A static host serves ``build/pwa/``: the build cannot make it send headers, so the page carries
what a page can carry, and ``_headers`` tells the host the rest.

* ``index.html`` gets, first in its ``<head>``:

  - ``<meta http-equiv="Content-Security-Policy">``: :data:`handbook.ui.serving.OFFLINE_CSP`
    (the served app's policy without the websocket) minus ``frame-ancestors``, which browsers
    ignore in a ``<meta>``, and with ``'unsafe-inline'`` scripts replaced by the SHA-256 of each
    inline ``<script>`` of the page (computed here, after the last edit of the page): a script
    injected into the page does not run. Scripts, WebAssembly (``'wasm-unsafe-eval'``), Flutter's
    and Pyodide's workers come from the app's own origin or ``blob:``; nothing from a CDN;
  - ``<meta name="referrer" content="no-referrer">`` (``Referrer-Policy`` as a page can say it);
  - a frame guard, the first script: framed by another site's page (a host that sends no
    ``frame-ancestors``), the page stops loading and says so (:data:`FRAMED_SENTENCE`, in English
    or Japanese as the browser prefers) with a link that opens the app on its own.

* ``_headers`` (the format Netlify and Cloudflare Pages read; ``tools/pwa/serve.py`` sends it too)
  lists what only a header can do: the CSP with ``frame-ancestors 'none'``,
  ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``, ``Referrer-Policy``.

:func:`apply` is idempotent (it removes what an earlier run put in the page) and is run by
``precache.write_service_worker`` after the page's last edit, before the cache name is hashed.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

from handbook.ui.serving import FRAMED_LINK, FRAMED_SENTENCE, OFFLINE_CSP, SECURITY_HEADERS

#: the file a static host reads its headers from (not precached: no page asks for it)
HEADERS_FILE = "_headers"
_MARK = "<!-- rjh-security -->"
_BLOCK = re.compile(r"[ \t]*" + re.escape(_MARK) + r"[\s\S]*?" + re.escape(_MARK) + r"\n?")
_INLINE_SCRIPT = re.compile(r"<script>([\s\S]*?)</script>")

_FRAME_GUARD = """
if (window.top !== window.self) {
  window.stop();
  var rjhFramed = __TEXTS__;
  var rjhText = rjhFramed[(navigator.language || '').slice(0, 2) === 'ja' ? 'ja' : 'en'];
  document.documentElement.innerHTML = '<body style="font:18px sans-serif;margin:2em"><p>' +
    rjhText[0] + '</p><p><a href="' + location.href.replace(/"/g, '%22') + '" target="_top">' +
    rjhText[1] + '</a></p></body>';
}
"""


def header_policy() -> str:
    """The CSP a static host sends as a header: :data:`OFFLINE_CSP` (``frame-ancestors 'none'``
    included)."""
    return OFFLINE_CSP


def meta_policy(inline_scripts: list[str]) -> str:
    """The CSP of the page's ``<meta>``: :data:`OFFLINE_CSP` without ``frame-ancestors`` and with
    ``inline_scripts`` (their text between ``<script>`` and ``</script>``) named by SHA-256 in
    place of ``'unsafe-inline'``."""
    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'"
                      for s in inline_scripts)
    out = []
    for directive in OFFLINE_CSP.split("; "):
        name = directive.split(" ", 1)[0]
        if name == "frame-ancestors":
            continue
        if name == "script-src":
            directive = re.sub(r"\s+", " ", directive.replace("'unsafe-inline'", hashes)).strip()
        out.append(directive)
    return "; ".join(out)


def framed_texts() -> dict[str, list[str]]:
    """{"en": [sentence, link], "ja": [...]} of the frame guard, HTML-escaped."""
    from handbook import i18n

    return {lang: [html.escape(i18n.translator(lang).gettext(m)) for m in (FRAMED_SENTENCE, FRAMED_LINK)]
            for lang in ("en", "ja")}


def headers_file() -> str:
    """``_headers``: every path gets the served app's headers (the CSP without the websocket)."""
    lines = ["/*"]
    for name, value in SECURITY_HEADERS:
        key = "-".join(w.capitalize() for w in name.decode().split("-"))
        text = header_policy() if name == b"content-security-policy" else value.decode()
        lines.append(f"  {key}: {text}")
    return "\n".join(lines) + "\n"


def apply(out: Path) -> str:
    """Put the policy into ``out/index.html`` and write ``out/_headers``; the meta policy."""
    index = out / "index.html"
    page = _BLOCK.sub("", index.read_text(encoding="utf-8"))
    guard = _FRAME_GUARD.replace("__TEXTS__", json.dumps(framed_texts(), ensure_ascii=False))
    scripts = [guard, *_INLINE_SCRIPT.findall(page)]
    policy = meta_policy(scripts)
    block = (f'{_MARK}\n  <meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">\n'
             f'  <meta name="referrer" content="no-referrer">\n'
             f'  <script>{guard}</script>\n  {_MARK}\n')
    anchor = re.search(r'<meta charset="UTF-8">\n', page, flags=re.IGNORECASE)
    if anchor is None:
        raise ValueError(f"{index}: no <meta charset=\"UTF-8\"> to put the security policy after")
    page = page[:anchor.end()] + "  " + block + page[anchor.end():]
    index.write_text(page, encoding="utf-8")
    (out / HEADERS_FILE).write_text(headers_file(), encoding="utf-8")
    return policy
