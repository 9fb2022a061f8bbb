"""The harness's own rules, without a browser: which requests count as leaving 127.0.0.1, and ports."""

from __future__ import annotations

import pytest
from browser_harness import RESERVED_PORTS, free_port, is_allowed_request, is_known_harmless_request

RIVE = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/wasm/rive_native.js"


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:43121/",
    "http://127.0.0.1:43121/canvaskit/skwasm.wasm",
    "ws://127.0.0.1:43121/ws",
    "http://localhost:8000/assets/fonts/NotoSansJP-Regular.ttf",
    "blob:http://127.0.0.1:43121/5528ff65-cecc-4492-8c4b-3d629044cb75",
    "data:image/png;base64,iVBORw0KGgo=",
    RIVE,
])
def test_local_requests_and_the_known_one_are_allowed(url):
    assert is_allowed_request(url)


@pytest.mark.parametrize("url", [
    "https://www.gstatic.com/flutter-canvaskit/abc/canvaskit.wasm",
    "https://fonts.gstatic.com/s/notosansjp/v52/x.woff2",
    "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/wasm/rive_native.wasm",
    "https://cdn.jsdelivr.net/npm/pyodide@0.27.0/pyodide.js",
    "http://127.0.0.1.evil.example/",
    "blob:https://example.com/1234",
    "http://192.168.1.5:8550/",
])
def test_anything_else_leaves_the_machine(url):
    assert not is_allowed_request(url)


def test_only_rive_native_js_is_the_known_harmless_request():
    assert is_known_harmless_request(RIVE)
    assert not is_known_harmless_request(RIVE.replace("https:", "http:"))
    assert not is_known_harmless_request(RIVE.replace("rive_native.js", "rive_native.wasm"))


def test_free_port_avoids_the_developer_ports():
    for _ in range(20):
        assert free_port() not in RESERVED_PORTS
