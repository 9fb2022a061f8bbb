#!/usr/bin/env python3
"""Serve the static PWA (``build/pwa/``) for a quick look or for the browser tests.

    python3 tools/pwa/serve.py [--dir build/pwa] [--host 127.0.0.1] [--port 0]

Any static web server will do in production, as long as it sends ``.mjs`` as JavaScript and
``.wasm`` as ``application/wasm`` (Python 3.11's ``http.server`` guesses both from the system's
MIME table, which may lack them), and answers a page request for a path that is no file
(``/rules/azrm/2.4``) with ``index.html``, as the service worker does offline. ``--port 0`` picks
a free port. Phones need HTTPS (or localhost) for the service worker and the install prompt.

Every answer carries the headers of the build's ``_headers`` file (the served app's security
headers: ``tools/pwa/security.py``), as a host that reads that file sends them; ``--no-headers``
(``StaticServer(headers=False)``) serves as a host that sends none.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import posixpath
import shutil
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

MIME = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".webmanifest": "application/manifest+json",
        ".ttf": "font/ttf", ".otf": "font/otf", ".woff2": "font/woff2"}


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME}

    def send_head(self):
        path = urlsplit(self.path).path
        local = Path(self.translate_path(path))
        navigation = "text/html" in self.headers.get("Accept", "")
        if not local.exists() and (navigation or not posixpath.splitext(path)[1]):
            self.path = "/index.html"  # a client-side route (/rules/azrm/2.4)
        return super().send_head()

    def end_headers(self):
        if urlsplit(self.path).path.endswith("/sw.js"):
            self.send_header("Cache-Control", "no-cache")
        for name, value in self.server.headers:
            self.send_header(name, value)
        super().end_headers()

    def copyfile(self, source, outputfile):
        """Send the body; paced by the server's :class:`Link` when it has one, and recorded in its
        :attr:`StaticServer.transfers` (the benchmarks count what a first visit downloads)."""
        link, sent = self.server.link, 0
        if link is None:
            before = source.tell()
            shutil.copyfileobj(source, outputfile)
            sent = source.tell() - before
        else:
            while chunk := source.read(link.CHUNK):
                link.wait(len(chunk))
                outputfile.write(chunk)
                sent += len(chunk)
        self.server.record(urlsplit(self.path).path, sent)

    def log_message(self, format, *args):  # quiet
        pass


def host_headers(directory: Path) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs ``directory/_headers`` gives every path (``/*``); none when
    the build has no such file."""
    path = directory / "_headers"
    if not path.is_file():
        return []
    pairs, current = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[:1].isspace():
            current = line.strip()
        elif current == "/*" and ":" in line:
            name, value = line.strip().split(":", 1)
            pairs.append((name.strip(), value.strip()))
    return pairs


class Link:
    """One shared downlink of ``bytes_per_s`` for every response of the server (a venue's Wi-Fi:
    the page, the Python worker and the service worker share it), paced in chunks."""

    CHUNK = 16 * 1024

    def __init__(self, bytes_per_s: float):
        self.rate = bytes_per_s
        self.lock = threading.Lock()
        self.free_at = time.monotonic()

    def wait(self, n: int) -> None:
        with self.lock:
            now = time.monotonic()
            start = max(now, self.free_at)
            self.free_at = start + n / self.rate
            delay = self.free_at - now
        if delay > 0:
            time.sleep(delay)


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    link: Link | None = None
    transfers: list | None = None
    headers: tuple = ()

    def record(self, path: str, sent: int) -> None:
        if self.transfers is not None:
            self.transfers.append((time.time(), path, sent))

    def handle_error(self, request, client_address):
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return  # the browser went away mid-transfer (a reload, or the server being stopped)
        super().handle_error(request, client_address)


class StaticServer:
    """A threaded static server on ``host`` (a free port unless ``port`` is given);
    ``start()``, ``stop()``, ``url``; the tests stop it to prove the app runs offline. With a
    :class:`Link` every response shares its bandwidth (the benchmarks' slow network).
    ``headers``: send the ``(name, value)`` pairs of ``directory/_headers`` with every answer."""

    def __init__(self, directory: str | Path, host: str = "127.0.0.1", port: int = 0,
                 link: Link | None = None, headers: bool = True):
        handler = functools.partial(Handler, directory=str(directory))
        self.httpd = _Server((host, port), handler)
        self.httpd.link = link
        self.httpd.headers = tuple(host_headers(Path(directory))) if headers else ()
        #: (time.time() when the body was sent, path, body bytes) of every response
        self.transfers: list[tuple[float, str, int]] = []
        self.httpd.transfers = self.transfers
        self.host, self.port = self.httpd.server_address[:2]
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> "StaticServer":
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="pwa-static",
                                       daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        if self.thread is not None:
            self.httpd.shutdown()
            self.thread.join(timeout=10)
            self.thread = None
        self.httpd.server_close()

    def __enter__(self) -> "StaticServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main() -> None:
    root = Path(__file__).resolve().parents[2]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", default=str(root / "build" / "pwa"))
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--no-headers", action="store_true", help="send none of _headers (a bare host)")
    args = parser.parse_args()
    server = StaticServer(args.dir, args.host, args.port, headers=not args.no_headers)
    print(f"serving {args.dir} at {server.url} (Ctrl-C to stop)", flush=True)
    try:
        server.httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.httpd.server_close()


if __name__ == "__main__":
    main()
