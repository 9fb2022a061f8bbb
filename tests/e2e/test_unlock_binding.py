"""The judge's unlock is bound to the browser that gave the passphrase (issue 46).

A served app with a passphrase; a judge opens the ledger in Chromium. Flet resumes a
disconnected session for whoever names its session id (kept in the tab's ``sessionStorage`` as
``_flet_session_id``) from the same address with the same user agent -- every Playwright context
of this Chromium is that. So:

* another browser context (no storage of its own) that replays the judge's session id takes up
  the judge's session (Flet says so: the id stays the same) and gets the passphrase screen, never
  the ledger;
* the judge's own tab, reloaded, stays unlocked (its storage holds the unlock token);
* once the session has expired (``FLET_SESSION_TIMEOUT`` 4 s here; Flet evicts every 10 s), the
  same browser, token and all, gets a new session and the passphrase screen.
"""

from __future__ import annotations

import os
import time

import pytest
from playwright.sync_api import expect
from tests.support.browser_harness import Handbook, new_context, start_server, stop_server

from handbook.ledger import Ledger
from handbook.storage import open_db

PASS = "east-wind-judge"
PLAYER = "Secret Sam"
EXPIRY_S = 4
SESSION_ID_JS = "() => window.sessionStorage.getItem('_flet_session_id')"
#: what a replayed tab holds before the app starts: the judge's session id, nothing else
REPLAY_JS = "window.sessionStorage.setItem('_flet_session_id', %r);"


def _server(tmp_path, name: str, **env: str):
    import handbook

    data = tmp_path / f"{name}-data"
    data.mkdir(parents=True)
    ledger = Ledger(open_db(data / "ledger.json"), handbook.load_library())
    ledger.add(PLAYER, "2026-04-01", "azrm", "Noten Riichi")
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return start_server(data, tmp_path / f"{name}.log")
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.fixture(scope="module")
def gated(tmp_path_factory):
    server = _server(tmp_path_factory.mktemp("unlock"), "gated", HANDBOOK_PASSPHRASE=PASS)
    yield server
    stop_server(server)


@pytest.fixture(scope="module")
def expiring(tmp_path_factory):
    server = _server(tmp_path_factory.mktemp("unlock-expiry"), "expiring", HANDBOOK_PASSPHRASE=PASS,
                     FLET_SESSION_TIMEOUT=str(EXPIRY_S))
    yield server
    stop_server(server)


def _unlocked_judge(browser, server) -> tuple[Handbook, object]:
    """A judge's browser on ``/ledger``, the passphrase given, the ledger showing."""
    context = new_context(browser)
    hb = Handbook(context.new_page(), server)
    hb.open("/ledger", ready="Judge passphrase")
    hb.enable_semantics()
    hb.type_into("Judge passphrase", PASS)
    hb.click_button("Open the ledger", then=PLAYER)
    return hb, context


def _wait_for_token(hb: Handbook) -> None:
    """The unlock token reaches the browser's storage a moment after the ledger opens."""
    hb.page.wait_for_function("() => Object.keys(localStorage).some(k => k.endsWith('rjh.unlock'))",
                              timeout=10_000)


def _locked(hb: Handbook) -> None:
    hb.enable_semantics()
    hb.wait_for_text("Judge passphrase")
    hb.page.wait_for_timeout(2500)  # long enough for a resume to open it, were it to
    assert not hb.has_text(PLAYER), "the ledger showed without the passphrase"
    expect(hb.role("textbox", "Judge passphrase")).to_be_attached()


def test_a_replayed_session_id_from_another_browser_gets_the_passphrase_screen(browser, gated):
    judge, judge_context = _unlocked_judge(browser, gated)
    _wait_for_token(judge)
    stolen = judge.page.evaluate(SESSION_ID_JS)
    assert stolen
    judge.page.close()  # the judge's phone locks its screen: the session waits, disconnected
    time.sleep(1.0)
    other = new_context(browser)  # same Chromium, same address, same user agent; no storage
    try:
        other.add_init_script(REPLAY_JS % stolen)
        thief = Handbook(other.new_page(), gated)
        thief.open("/ledger", ready="Judge passphrase")
        assert thief.page.evaluate(SESSION_ID_JS) == stolen, "Flet did not resume the session"
        _locked(thief)
        # the player's page, named in the URL, is not opened either
        thief.navigate(f"/ledger/{PLAYER.replace(' ', '%20')}")
        _locked(thief)
    finally:
        other.close()
        judge_context.close()


def test_the_judges_own_browser_stays_unlocked_after_a_reload(browser, gated):
    judge, context = _unlocked_judge(browser, gated)
    try:
        _wait_for_token(judge)
        before = judge.page.evaluate(SESSION_ID_JS)
        judge.reload(ready=PLAYER)
        assert judge.page.evaluate(SESSION_ID_JS) == before  # the same session, resumed
        judge.enable_semantics()
        judge.wait_for_text(PLAYER)
        assert not judge.has_text("Judge passphrase")
    finally:
        context.close()


def test_after_the_sessions_expiry_the_same_browser_is_locked(browser, expiring):
    judge, context = _unlocked_judge(browser, expiring)
    try:
        _wait_for_token(judge)
        old = judge.page.evaluate(SESSION_ID_JS)
        judge.page.close()
        time.sleep(EXPIRY_S + 12)  # the expiry, then Flet's next eviction round (every 10 s)
        context.add_init_script(REPLAY_JS % old)  # the tab comes back with its old id and token
        back = Handbook(context.new_page(), expiring)
        back.open("/ledger", ready="Judge passphrase")
        assert back.page.evaluate("() => Object.keys(localStorage).some(k => k.endsWith('rjh.unlock'))")
        assert back.page.evaluate(SESSION_ID_JS) != old, "the expired session was resumed"
        _locked(back)
    finally:
        context.close()
