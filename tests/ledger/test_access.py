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


def test_generated_passphrases_are_easy_to_type():
    p = access.generate()
    assert len(p) == 14 and all(c in access.ALPHABET + "-" for c in p)


# --- on screen ------------------------------------------------------------------------------------

from tests.support.ledgerhelpers import by_key, fire, visible_texts  # noqa: E402

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
    monkeypatch.setattr(app_mod, "asgi_app", lambda: "the app")
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

    monkeypatch.setattr(app_mod, "asgi_app", lambda: None)
    monkeypatch.setattr(app_mod, "run_asgi", lambda *a, **kw: None)
    monkeypatch.delenv("FLET_FORCE_WEB_SERVER", raising=False)
    monkeypatch.delenv(access.ENV_PASSPHRASE, raising=False)
    try:
        assert main(["serve", "--host", "0.0.0.0", "--passphrase", "abc"]) == 2
        assert "passphrase: must be 8 to 200 characters" in capsys.readouterr().err
        assert main(["serve", "--passphrase", "long-enough-one"]) == 0
        assert access.current().check("long-enough-one").ok
    finally:
        access.configure(None)
