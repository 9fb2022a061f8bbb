"""The harness's own rules, without a browser: which requests count as leaving 127.0.0.1, ports, and
the browser run's units of work."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.browser_harness import RESERVED_PORTS, free_port, is_allowed_request
from tests.support.scheduling import HEAVIEST, unit

RIVE = "https://cdn.jsdelivr.net/npm/@rive-app/flutter-native-wasm@44.0.0/wasm/rive_native.js"


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:43121/",
    "http://127.0.0.1:43121/canvaskit/skwasm.wasm",
    "ws://127.0.0.1:43121/ws",
    "http://localhost:8000/assets/fonts/NotoSansJP-Regular.ttf",
    "blob:http://127.0.0.1:43121/5528ff65-cecc-4492-8c4b-3d629044cb75",
    "data:image/png;base64,iVBORw0KGgo=",
    "http://127.0.0.1:43121/rive-native-not-bundled/wasm/rive_native.js",
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
    RIVE,
])
def test_anything_else_leaves_the_machine(url):
    assert not is_allowed_request(url)


def test_the_served_client_names_no_cdn_for_rive():
    """The served app answers main.dart.js with a copy that asks its own origin for Rive."""
    import flet_web
    from flet_web.fastapi.flet_static_files import FletStaticFiles

    from handbook.ui.webclient import RIVE_CDN, RIVE_LOCAL, install_local_rive

    assert install_local_rive()
    full, stat = FletStaticFiles.lookup_path(object.__new__(FletStaticFiles), "main.dart.js")
    js = open(full, encoding="utf-8").read()
    assert not RIVE_CDN.search(js) and RIVE_LOCAL in js and stat.st_size == len(js.encode())
    original = open(flet_web.get_package_web_dir() + "/main.dart.js", encoding="utf-8").read()
    assert len(RIVE_CDN.findall(original)) == 1
    # Chromium runs the WebAssembly build (skwasm): same fix, same length
    full, stat = FletStaticFiles.lookup_path(object.__new__(FletStaticFiles), "main.dart.wasm")
    wasm = open(full, "rb").read()
    assert b"@rive-app/flutter-native-wasm" not in wasm and RIVE_LOCAL[:-1].encode() in wasm
    assert len(wasm) == len(open(flet_web.get_package_web_dir() + "/main.dart.wasm", "rb").read())


def test_the_served_bootstrap_asks_for_single_threaded_skwasm():
    """flutter_bootstrap.js is answered with a copy whose loader configuration forces skwasm onto
    one thread; a script without the configuration (Flet changed) is refused, not passed on."""
    import flet_web
    from flet_web.fastapi.flet_static_files import FletStaticFiles

    from handbook.ui.webclient import HISTORY_BACK, PRELOAD_WASM, install_local_rive, single_threaded_skwasm

    assert install_local_rive()
    full, _ = FletStaticFiles.lookup_path(object.__new__(FletStaticFiles), "flutter_bootstrap.js")
    served = open(full, encoding="utf-8").read()
    original = open(flet_web.get_package_web_dir() + "/flutter_bootstrap.js", encoding="utf-8").read()
    assert "forceSingleThreadedSkwasm: true" in served and "forceSingleThreadedSkwasm: true" not in original
    # ... and is preceded by the back arrow's history script (handbook.ui.webclient.with_history_back)
    # and the wasm entrypoint's preload (handbook.ui.webclient.preloading_wasm)
    assert served.startswith(HISTORY_BACK + PRELOAD_WASM)
    assert served.removeprefix(HISTORY_BACK + PRELOAD_WASM).replace("\n    forceSingleThreadedSkwasm: true,", "") == original
    with pytest.raises(ValueError, match="flutter_bootstrap.js"):
        single_threaded_skwasm("_flutter.loader.load({config: {}});")


def test_free_port_avoids_the_developer_ports():
    for _ in range(20):
        assert free_port() not in RESERVED_PORTS


def test_the_browser_run_is_shared_out_in_units_that_keep_what_tests_share():
    """tests.support.scheduling: a PWA test is a unit alone, the layout walk one unit per window and
    language (one page each), each ruleset and language of the "What happened?" walk alone, any
    other test goes with its module (the recall floors share one module fixture); the files it
    names as the longest exist."""
    walk = "tests/e2e/test_layout_walk.py::test_screen_survives_the_window_and_text_size"
    assert (unit(f"{walk}[360-text200-ja-JP-chromium-search:/]") == unit(f"{walk}[360-text200-ja-JP-chromium-tools:/tools]")
            == "tests/e2e/test_layout_walk.py::360-text200-ja-JP")
    assert unit(f"{walk}[412x915-ja-JP-chromium-search:/]") != unit(f"{walk}[360-text200-ja-JP-chromium-search:/]")
    assert (unit("tests/pwa/test_offline.py::test_offline_pwa[chromium]")
            != unit("tests/pwa/test_offline.py::test_new_build_replaces_the_old_cache[chromium]"))
    assert (unit("tests/e2e/test_tools.py::test_strike_window_and_a_bad_date[chromium]")
            == unit("tests/e2e/test_tools.py::test_end_of_hanchan_scores_to_result[chromium]") == "tests/e2e/test_tools.py")
    walk = "tests/e2e/test_what_happened.py::test_every_foul_in_three_taps"
    assert unit(f"{walk}[chromium-azrm-en-US]") == f"{walk}[chromium-azrm-en-US]" != unit(f"{walk}[chromium-azrm-ja-JP]")
    floor = "tests/core/test_search_judge.py::test_recall_at_3_does_not_fall_below_the_floor"
    assert unit(f"{floor}[azrm]") == unit(f"{floor}[ema-rcr]") == "tests/core/test_search_judge.py"
    root = Path(__file__).resolve().parents[2]
    assert [path for path in HEAVIEST if not (root / path.partition("::")[0]).is_file()] == []
