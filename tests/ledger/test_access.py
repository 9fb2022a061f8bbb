"""The judge passphrase (handbook.access): when a gate is needed, how attempts are limited."""

from __future__ import annotations

import pytest

from handbook import access
from handbook.access import Gate, Verdict, gate_for


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@pytest.mark.parametrize("host,loop", [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                       ("127.0.0.2", True), ("0.0.0.0", False), ("::", False),
                                       ("192.168.1.5", False), ("example.org", False)])
def test_loopback_hosts(host, loop):
    assert access.is_loopback(host) is loop


def test_no_gate_on_loopback_without_a_passphrase():
    assert gate_for("127.0.0.1", None, {}).gate is None


def test_a_passphrase_is_generated_beyond_loopback():
    setup = gate_for("0.0.0.0", None, {})
    assert setup.gate is not None and setup.generated
    assert setup.gate.check(setup.generated).ok
    assert not setup.gate.check("wrong-passphrase").ok
    other = gate_for("0.0.0.0", None, {})
    assert other.generated != setup.generated


def test_given_on_the_command_line_or_in_the_environment():
    cli = gate_for("0.0.0.0", "tonpuu-east-wind", {access.ENV_PASSPHRASE: "from-the-env"})
    assert cli.generated is None and cli.gate.check("tonpuu-east-wind").ok
    assert not cli.gate.check("from-the-env").ok
    env = gate_for("127.0.0.1", None, {access.ENV_PASSPHRASE: "from-the-env"})
    assert env.gate is not None and env.gate.check(" from-the-env ").ok


@pytest.mark.parametrize("bad", ["short", "", "x" * 201])
def test_a_bad_passphrase_is_refused_with_its_rule(bad):
    with pytest.raises(ValueError, match="passphrase: must be 8 to 200 characters"):
        gate_for("0.0.0.0", bad, {})


def test_failed_attempts_lock_the_client_out_with_growing_waits():
    clock = Clock()
    gate = Gate("right-passphrase", clock=clock)
    for _ in range(access.FREE_FAILURES - 1):
        assert gate.check("nope", "10.0.0.9").verdict is Verdict.WRONG
    a = gate.check("nope", "10.0.0.9")
    assert a.verdict is Verdict.LOCKED and a.wait_s == access.BASE_LOCKOUT_S
    # while locked even the right passphrase is not compared
    assert gate.check("right-passphrase", "10.0.0.9").verdict is Verdict.LOCKED
    # another client is not affected
    assert gate.check("right-passphrase", "10.0.0.7").ok
    clock.t += access.BASE_LOCKOUT_S + 1
    b = gate.check("nope", "10.0.0.9")
    assert b.verdict is Verdict.LOCKED and b.wait_s == 2 * access.BASE_LOCKOUT_S
    clock.t += 10_000
    for _ in range(20):
        gate.check("nope", "10.0.0.9")
        clock.t += 10_000
    assert gate.check("nope", "10.0.0.9").wait_s == access.MAX_LOCKOUT_S
    clock.t += access.MAX_LOCKOUT_S
    assert gate.check("right-passphrase", "10.0.0.9").ok
    assert gate.wait_s("10.0.0.9") == 0
    assert gate.check("nope", "10.0.0.9").verdict is Verdict.WRONG  # the count starts again


def _fill_the_global_window(gate, first=1):
    """GLOBAL_FAILURES_PER_MINUTE wrong answers, from that many addresses (each under its own
    lockout threshold): what an attacker with many addresses does."""
    n = access.GLOBAL_FAILURES_PER_MINUTE
    for i in range(first, first + n):
        assert gate.check("guess-guess", f"10.1.{i // 250}.{i % 250 + 1}").verdict is Verdict.WRONG
    return n


def test_the_global_cap_holds_whatever_the_address():
    clock = Clock()
    gate = Gate("right-passphrase", clock=clock)
    _fill_the_global_window(gate)
    # an address that already failed once may not guess on: not compared, not counted
    answer = gate.check("right-passphrase", "10.1.0.2")
    assert answer.verdict is Verdict.BUSY and answer.wait_s == access.GLOBAL_WINDOW_S
    # a fresh address is compared once; its wrong answer then holds it too
    assert gate.check("guess-again", "10.2.0.1").verdict is Verdict.WRONG
    assert gate.check("guess-again", "10.2.0.1").verdict is Verdict.BUSY
    # the window moves on: a minute later the addresses may try again
    clock.t += access.GLOBAL_WINDOW_S
    assert gate.check("right-passphrase", "10.1.0.2").ok


def test_the_global_cap_never_locks_out_a_judge_on_another_address():
    clock = Clock()
    gate = Gate("right-passphrase", clock=clock)
    assert gate.check("right-passphrase", "192.168.1.20").ok  # the judge's phone, earlier
    _fill_the_global_window(gate)
    # a judge on an address with no wrong answers gets in at once
    assert gate.check("right-passphrase", "192.168.1.30").ok
    # one who unlocked before gets in even after a typo of their own
    assert gate.check("typo-typo", "192.168.1.20").verdict is Verdict.WRONG
    assert gate.check("right-passphrase", "192.168.1.20").ok


def test_ipv6_addresses_of_one_64_network_are_one_for_the_global_cap():
    gate = Gate("right-passphrase", clock=Clock())
    assert gate.check("guess-guess", "2001:db8:1:2::1").verdict is Verdict.WRONG
    _fill_the_global_window(gate, first=2)
    # a device takes any address of its /64: a new one is not a fresh client
    assert gate.check("guess-guess", "2001:db8:1:2::99").verdict is Verdict.BUSY
    assert gate.check("guess-guess", "2001:db8:1:3::1").verdict is Verdict.WRONG


def test_ipv4_mapped_addresses_count_as_their_ipv4_address():
    gate = Gate("right-passphrase", clock=Clock())
    for _ in range(access.FREE_FAILURES):
        gate.check("guess-guess", "::ffff:10.0.0.5")
    assert gate.check("right-passphrase", "10.0.0.5").verdict is Verdict.LOCKED


def test_trusted_proxies_are_addresses_or_networks_only():
    assert access.trusted_proxies(None) == ()
    assert access.trusted_proxies("127.0.0.1, 10.0.0.0/8") == ("127.0.0.1", "10.0.0.0/8")
    assert access.trusted_proxies(["::1"]) == ("::1",)
    for bad in ("*", "proxy.local"):
        with pytest.raises(ValueError, match="trusted proxy: .* is not an IP address or network"):
            access.trusted_proxies(bad)


def test_generated_passphrases_are_easy_to_type():
    p = access.generate()
    assert len(p) == 14 and all(c in access.ALPHABET + "-" for c in p)


# --- on screen ------------------------------------------------------------------------------------

from tests.support.ledgerhelpers import by_key, fire, revoke_on_page, visible_texts, walk  # noqa: E402

from handbook.ui.screens import build_view  # noqa: E402

PASS = "east-wind-judge"


@pytest.fixture
def gated(monkeypatch):
    clock = Clock()
    gate = Gate(PASS, clock=clock)
    access.configure(gate)
    yield clock
    access.configure(None)


def _try(v, text):
    by_key(v, "passphrase").value = text
    fire(by_key(v, "unlock").on_click, None)


def test_ledger_screens_ask_for_the_passphrase_and_show_no_names(ctx, app_ledger, gated):
    app_ledger.add("Secret Sam", "2026-04-01", "azrm", "Noten Riichi")
    for route in ("/ledger", "/ledger/Secret%20Sam", "/tools/strikes?player=Secret%20Sam"):
        text = visible_texts(build_view(ctx, route))
        assert "Secret Sam" not in text and "2026-04-01" not in text, route
    assert "Judge passphrase" in visible_texts(build_view(ctx, "/ledger/Secret%20Sam"))
    # the handbook pages stay open
    assert "Judge passphrase" not in visible_texts(build_view(ctx, "/rules/azrm/2.4"))


def test_the_right_passphrase_opens_the_ledger_for_this_session(ctx, app_ledger, gated):
    app_ledger.add("Secret Sam", "2026-04-01", "azrm", "Noten Riichi")
    v = build_view(ctx, "/ledger")
    _try(v, "not-it-at-all")
    assert "That is not the judge passphrase." in visible_texts(v)
    assert ctx.judge is False
    _try(v, PASS)
    assert ctx.judge is True
    assert "Secret Sam" in visible_texts(build_view(ctx, "/ledger"))
    v = build_view(ctx, "/ledger/Secret%20Sam")
    fire(by_key(v, "lock").on_click, None)
    assert ctx.judge is False
    assert "Secret Sam" not in visible_texts(build_view(ctx, "/ledger"))


def test_repeated_wrong_answers_are_locked_out_on_screen(ctx, app_ledger, gated):
    v = build_view(ctx, "/ledger")
    for _ in range(access.FREE_FAILURES):
        _try(v, "guess-guess")
    assert "Too many wrong attempts. Try again in 30 s." in visible_texts(v)
    _try(v, PASS)
    assert ctx.judge is False
    gated.t += access.BASE_LOCKOUT_S
    _try(v, PASS)
    assert ctx.judge is True


def test_the_server_wide_cap_on_screen_and_the_peer_it_counts(ctx, app_ledger, gated):
    ctx.peer = "10.3.0.1"
    ctx.page.client_ip = "10.3.0.99"  # what the browser says is never counted
    v = build_view(ctx, "/ledger")
    _try(v, "guess-guess")
    gate = access.current()
    assert gate.check(PASS, "10.3.0.99").ok  # that address has no failures
    _fill_the_global_window(gate)
    _try(v, PASS)
    assert ctx.judge is False
    assert "Too many wrong attempts on this server just now. Try again in 60 s." in visible_texts(v)
    gated.t += access.GLOBAL_WINDOW_S
    _try(v, PASS)
    assert ctx.judge is True


def test_without_a_gate_nothing_changes(ctx, app_ledger):
    access.configure(None)
    app_ledger.add("Open Olly", "2026-04-01", "azrm", "Noten Riichi")
    assert "Open Olly" in visible_texts(build_view(ctx, "/ledger"))
    assert "Judge passphrase" not in visible_texts(build_view(ctx, "/ledger"))


def test_serve_prints_a_generated_passphrase_beyond_loopback(monkeypatch, capsys):
    from handbook.ui import app as app_mod

    ran = {}
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    monkeypatch.delenv(access.ENV_PASSPHRASE, raising=False)
    monkeypatch.setattr(app_mod, "asgi_app", lambda **kw: "the app")
    monkeypatch.setattr(app_mod, "run_asgi", lambda app, host, port, trusted: ran.update(
        app=app, host=host, trusted=trusted))
    try:
        app_mod.serve(host="0.0.0.0", port=1)
        out = capsys.readouterr().out
        gate = access.current()
        assert gate is not None and ran["host"] == "0.0.0.0" and ran["trusted"] == ()
        printed = out.split("Judge passphrase for the ledger and study data: ")[1].split()[0]
        assert gate.check(printed).ok
        app_mod.serve(host="127.0.0.1", port=1)
        assert access.current() is None and "passphrase" not in capsys.readouterr().out
    finally:
        access.configure(None)


def test_cli_refuses_a_short_passphrase(monkeypatch, capsys):
    from handbook.__main__ import main
    from handbook.ui import app as app_mod

    monkeypatch.setattr(app_mod, "asgi_app", lambda **kw: None)
    monkeypatch.setattr(app_mod, "run_asgi", lambda *a, **kw: None)
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    monkeypatch.delenv(access.ENV_PASSPHRASE, raising=False)
    try:
        assert main(["serve", "--host", "0.0.0.0", "--passphrase", "abc"]) == 2
        assert "passphrase: must be 8 to 200 characters" in capsys.readouterr().err
        assert main(["serve", "--passphrase", "long-enough-one"]) == 0
        assert access.current().check("long-enough-one").ok
        assert main(["serve", "--trusted-proxy", "*"]) == 2
        assert "trusted proxy: '*' is not an IP address" in capsys.readouterr().err
    finally:
        access.configure(None)


def test_a_locked_session_cannot_undo_a_removal(ctx, app_ledger, gated, page):
    """The snack bar's Undo is the page's, not the screen's: after Lock it is closed and writes
    nothing, and once used it writes nothing again (a client may tap it as often as it likes)."""
    import flet as ft

    kept = app_ledger.add("Secret Sam", "2026-04-01", "azrm", "Noten Riichi")
    other = app_ledger.add("Secret Sam", "2026-04-02", "azrm", "Empty call for Ron/Tsumo")
    v = build_view(ctx, "/ledger")
    _try(v, PASS)
    v = build_view(ctx, "/ledger/Secret%20Sam")
    revoke_on_page(v, kept.id)
    snack = page.dialogs[-1]
    [undo] = [b for b in walk(snack) if isinstance(b, ft.TextButton) and b.content == "Undo"]
    fire(by_key(v, "lock").on_click, None)
    assert ctx.judge is False and not snack.open
    fire(undo.on_click, None)  # a forged tap on the closed snack bar
    assert [r.id for r in app_ledger.records() if r.counts] == [other.id]
    # unlocked again: the stale Undo still writes nothing (it belongs to the screen before the Lock)
    _try(build_view(ctx, "/ledger"), PASS)
    fire(undo.on_click, None)
    assert [r.id for r in app_ledger.records() if r.counts] == [other.id]


def test_an_undo_puts_the_record_back_once(ctx, app_ledger, gated, page):
    import flet as ft

    kept = app_ledger.add("Secret Sam", "2026-04-01", "azrm", "Noten Riichi")
    _try(build_view(ctx, "/ledger"), PASS)
    v = build_view(ctx, "/ledger/Secret%20Sam")
    revoke_on_page(v, kept.id)
    [undo] = [b for b in walk(page.dialogs[-1]) if isinstance(b, ft.TextButton) and b.content == "Undo"]
    fire(undo.on_click, None)
    assert [r.id for r in app_ledger.records() if r.counts] == [kept.id]
    app_ledger.remove(kept.id)  # removed again, in another session
    fire(undo.on_click, None)   # the same Undo replayed
    assert app_ledger.records() == []


# --- "Record this ruling" (issue 44): the form is the judge's, the buttons to it lead to the passphrase

RECORD_ROUTES = [
    "/record?ruleset=azrm&row=9&q=showed%20four%20tiles",
    "/record?ruleset=no-such&row=1",
    "/record?ruleset=azrm&row=99999999999999999999999999&points=9999999",
    "/record?ruleset=%00%E2%80%AEazrm&row=%3Cscript%3E",
    "/record?ruleset=azrm&row=9&q=" + "%E2%80%AE" * 600,
]


@pytest.mark.parametrize("route", RECORD_ROUTES)
def test_the_record_form_asks_for_the_passphrase_whatever_the_query(ctx, app_ledger, gated, route):
    app_ledger.add("Secret Sam", "2026-04-01", "azrm", "Noten Riichi")
    v = build_view(ctx, route)
    text = visible_texts(v)
    assert "Judge passphrase" in text and "Secret Sam" not in text
    assert not [c for c in walk(v) if getattr(c, "key", None) in ("save-record", "record-player")]
    assert len(app_ledger.records()) == 1


def test_record_buttons_on_open_screens_lead_to_the_passphrase_then_the_form(ctx, app_ledger, gated, navigated):
    ctx.settings.ruleset = "azrm"
    targets = []
    for route in ("/search?q=I%20showed%20four%20tiles%20by%20accident", "/penalties/azrm/revealed-tiles",
                  "/tools/revealed?ruleset=azrm&tiles=4", "/tools/chombo?ruleset=azrm&foul=revealed-tiles"):
        v = build_view(ctx, route)
        buttons = [c for c in walk(v) if str(getattr(c, "key", "")).startswith("record-")
                   and isinstance(getattr(c, "data", None), str) and c.data.startswith("/record?")]
        assert buttons, route
        navigated.clear()
        fire(buttons[0].on_click, None)
        assert navigated and navigated[-1].startswith("/record?"), route
        targets.append(navigated[-1])
    for target in targets:
        v = build_view(ctx, target)
        assert "Judge passphrase" in visible_texts(v), target
    _try(build_view(ctx, targets[0]), PASS)
    v = build_view(ctx, targets[0])
    assert "Judge passphrase" not in visible_texts(v) and by_key(v, "save-record")
    assert by_key(v, "lock")  # the AppBar's Lock, as on every judge screen


def test_a_locked_session_saves_nothing_from_an_open_form_and_its_undo_is_dead(ctx, app_ledger, gated, page):
    import flet as ft

    _try(build_view(ctx, "/ledger"), PASS)
    v = build_view(ctx, "/record?ruleset=azrm&row=9")
    by_key(v, "record-player").value = "Secret Sam"
    fire(by_key(v, "save-record").on_click, None)
    [saved] = app_ledger.records()
    [undo] = [b for b in walk(page.dialogs[-1]) if isinstance(b, ft.TextButton) and b.content == "Undo"]
    fire(by_key(v, "lock").on_click, None)
    assert ctx.judge is False
    fire(undo.on_click, None)                        # a forged tap on the closed snack bar
    by_key(v, "record-player").value = "Forged Fred"
    fire(by_key(v, "save-record").on_click, None)    # a forged tap on the form left on screen
    assert [(r.id, r.counts) for r in app_ledger.records()] == [(saved.id, True)]
