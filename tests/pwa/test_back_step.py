"""The PWA's back arrow steps back through the browser's history as the served app's does
(issue 27): the build puts the page script before Flutter's engine in ``flutter_bootstrap.js``.
Checked on a stand-in folder (no build needed); tests/e2e/test_back.py walks it in Chromium."""

from __future__ import annotations

from tests.support.pwa_harness import pwa_build

from handbook.ui.webclient import HISTORY_BACK


def test_build_step_puts_the_script_first_once(tmp_path):
    (tmp_path / "flutter_bootstrap.js").write_text("_flutter.loader.load({});\n", encoding="utf-8")
    pwa_build.back_arrow_history(tmp_path)
    pwa_build.back_arrow_history(tmp_path)  # a second run adds nothing
    js = (tmp_path / "flutter_bootstrap.js").read_text(encoding="utf-8")
    assert js.startswith(HISTORY_BACK) and js.count(HISTORY_BACK) == 1
    assert js.endswith("_flutter.loader.load({});\n")
