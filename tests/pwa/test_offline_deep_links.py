"""Bookmarks opened cold in the offline PWA: with the server stopped and the browser offline, a
bookmarked rule section opens (the service worker answers every navigation with the cached
index.html and the app routes to the screen), then a bookmarked hand is counted in the browser
(Pyodide, the vendored ``mahjong`` package), and a tap on the tile keyboard counts it again.
One first visit for both: each deep link is a cold start from the service worker."""

from __future__ import annotations

import pytest
from tests.support.pwa_harness import App, PwaServer, Requests, open_app, wait_for_service_worker

pytestmark = pytest.mark.pwa

SECTION = "/rules/azrm/2.4"
HAND = "/tools/hand?ruleset=rakkii-nomi-2026&hand=234067m22p345s678s&win=8s&riichi=1&seat=W&discarder=S"


@pytest.mark.browser_context_args(reduced_motion="no-preference")  # the animated screens (conftest.py)
def test_offline_deep_links_to_a_section_and_a_hand(pwa_dir, context, page, artifacts):
    server = PwaServer(pwa_dir)
    requests = Requests().attach(context)
    try:
        app = App(page, server, artifacts)
        open_app(app)
        wait_for_service_worker(page)
        server.stop()
        context.set_offline(True)

        response = page.goto(server.url(SECTION), wait_until="commit")
        assert response is not None and response.from_service_worker
        app.enable_semantics()
        app.role("heading", "Wrongly revealing tiles", timeout=60)
        assert app.route() == SECTION

        response = page.goto(server.url(HAND), wait_until="commit")
        assert response is not None and response.from_service_worker
        app.enable_semantics()
        app.wait_for_text("Value: 8,000 (Mangan · 4 han 30 fu)", timeout=90)  # riichi, pinfu, tanyao, red five
        app.click_button("Remove last", then="13 given")
        app.click_button("索 Bamboo", exact=True)
        app.click_button("9 Bamboo", exact=True, then="Not a complete hand")
        app.click_button("Remove last", then="13 given")
        app.click_button("8 Bamboo", exact=True, then="Value: 8,000 (Mangan · 4 han 30 fu)")
        app.screenshot("offline-hand")
    finally:
        server.stop()
    assert not requests.outside(), requests.outside()
