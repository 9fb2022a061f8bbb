"""Many browser sessions on one server: a slow ledger write in one session never holds up another
session's screen, and a disconnected session is not kept for an hour."""

from __future__ import annotations

import asyncio
import inspect
import os
import threading

import flet as ft
import pytest
from tests.support.ledgerhelpers import Event, Page, by_key, visible_texts

from handbook import storage
from handbook.ui.context import AppContext, Settings
from handbook.ui.screens import build_view

NOTEN = "Noten Riichi"
CSV = b"player,date,ruleset,foul\nUma,2026-04-02,azrm,Noten Riichi\nVic,2026-04-03,azrm,Noten Riichi\n"


def _session(ctx: AppContext) -> AppContext:
    """Another browser session of the app that ``ctx`` belongs to (the same ledger and study store)."""
    return AppContext(page=Page(), library=ctx.library, settings=Settings(), navigator=[].append,
                      stores=ctx.stores)


async def _call(handler, *args):
    result = handler(*args)
    if inspect.isawaitable(result):
        return await result
    return result


def _start_write(kind: str, ctx: AppContext, ledger, picker):
    """The handler of session A that writes: add a record, import a file, or revoke a record."""
    if kind == "revoke":
        rec = ledger.add("Tom", "2026-04-01", "azrm", NOTEN)
        page = build_view(ctx, "/ledger/Tom")
        by_key(page, f"revoke-{rec.id}").on_click(None)  # shows the reason field
        by_key(page, "revoke-reason").value = "given by mistake"
        return _call(by_key(page, "revoke-confirm").on_click, None)
    v = build_view(ctx, "/ledger")
    if kind == "import":
        picker.files = [ft.FilePickerFile(id=0, name="season.csv", size=len(CSV), bytes=CSV)]
        return _call(by_key(v, "import").on_click, None)
    by_key(v, "player-name").value = "Tom"
    pick = by_key(v, "foul")
    pick.value = str(ledger.row("azrm", NOTEN).index)
    pick.on_select(Event(pick))
    return _call(by_key(v, "add-record").on_click, None)


@pytest.mark.parametrize("kind", ["add", "import", "revoke"])
def test_a_slow_write_does_not_hold_up_another_sessions_handler(ctx, app_ledger, monkeypatch, picker,
                                                                 kind):
    started, release = threading.Event(), threading.Event()
    real_write = storage.atomic_write_text
    writes: list[str] = []

    def slow_write(path, text):  # a 50 MB ledger on a slow card, say
        if not started.is_set():
            started.set()
            release.wait(10)  # until session B has been served (10 s if the loop is blocked)
        writes.append(text)
        real_write(path, text)

    ctx_a, ctx_b = _session(ctx), _session(ctx)
    async def scenario() -> tuple[bool, str]:
        write = _start_write(kind, ctx_a, app_ledger, picker)  # nothing written yet (a coroutine)
        monkeypatch.setattr(storage, "atomic_write_text", slow_write)
        before = len([r for r in app_ledger.records() if r.counts])
        task = asyncio.ensure_future(write)
        await asyncio.to_thread(started.wait, 10)  # session A's write is under way
        # session B, meanwhile: opens the ledger, picks a ruleset, searches
        v = build_view(ctx_b, "/ledger")
        ruleset = by_key(v, "ruleset")
        ruleset.value = "wrc-2025"
        await _call(ruleset.on_select, Event(ruleset))
        shown = visible_texts(build_view(ctx_b, "/search?q=chombo"))
        a_still_writing = not task.done()
        release.set()
        await task
        return a_still_writing, shown, before

    a_still_writing, shown, before = asyncio.run(scenario())
    assert started.is_set() and writes, "session A never wrote"
    assert a_still_writing, "session B was served only after session A's write had finished"
    assert "Chombo" in shown or "chombo" in shown
    after = len([r for r in app_ledger.records() if r.counts])
    assert after == before + {"add": 1, "import": 2, "revoke": -1}[kind]


def test_a_write_error_in_the_worker_thread_still_reaches_the_screen(ctx, app_ledger,
                                                                     monkeypatch):
    import errno
    import os

    def full(path, text):
        assert threading.current_thread() is not threading.main_thread()  # off the loop
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    ctx = _session(ctx)
    v = build_view(ctx, "/ledger")
    monkeypatch.setattr(storage, "atomic_write_text", full)
    by_key(v, "player-name").value = "Wu"
    pick = by_key(v, "foul")
    pick.value = str(app_ledger.row("azrm", NOTEN).index)
    pick.on_select(Event(pick))
    asyncio.run(_call(by_key(v, "add-record").on_click, None))
    assert "Could not save to the ledger (No space left on device)" in visible_texts(v)
    assert app_ledger.records() == []


# --- disconnected sessions ------------------------------------------------------------------------

def _flet_session_timeout(given: int | None = None) -> int:
    """What flet-web's connection handler (one per browser connection) keeps a disconnected
    session for, as the installed Flet reads it (``given``: the app's argument)."""
    from flet_web.fastapi.flet_app import FletApp

    kwargs = {} if given is None else {"session_timeout_seconds": given}
    conn = FletApp(loop=None, executor=None, main=lambda page: None, before_main=None, **kwargs)
    return conn._FletApp__session_timeout_seconds  # noqa: SLF001 - Flet keeps it private


def _served_session_timeout(monkeypatch) -> int:
    """The expiry the served app (``asgi_app``, what ``serve`` serves) gives the connection
    handler of a browser that opens its websocket."""
    pytest.importorskip("httpx")
    import sys

    import flet_web.fastapi  # noqa: F401 - its `app` names a function; the module is in sys.modules
    from starlette.testclient import TestClient

    from handbook.ui.app import asgi_app

    given: list[int] = []

    class Recorder:
        def __init__(self, **kwargs):
            given.append(_flet_session_timeout(kwargs["session_timeout_seconds"]))

        async def handle(self, websocket):
            await websocket.accept()
            await websocket.close()

    monkeypatch.setattr(sys.modules["flet_web.fastapi.app"], "FletApp", Recorder)

    async def main(page):  # pragma: no cover - never run
        pass

    with TestClient(asgi_app(main)) as client, client.websocket_connect("/ws"):
        pass
    assert len(given) == 1
    return given[0]


def test_flets_own_default_keeps_a_disconnected_session_an_hour(monkeypatch):
    monkeypatch.delenv("FLET_SESSION_TIMEOUT", raising=False)
    assert _flet_session_timeout() == 3600  # what `serve` must change


def test_serve_keeps_a_disconnected_session_ten_minutes(monkeypatch):
    from handbook.ui.app import SESSION_TIMEOUT_S

    monkeypatch.delenv("FLET_SESSION_TIMEOUT", raising=False)
    assert SESSION_TIMEOUT_S == 600
    assert _served_session_timeout(monkeypatch) == 600


def test_the_environment_can_choose_another_expiry(monkeypatch):
    monkeypatch.setenv("FLET_SESSION_TIMEOUT", "120")
    assert _served_session_timeout(monkeypatch) == 120


def test_serving_writes_no_environment_variable(monkeypatch):
    """``serve`` configures the app by arguments; the environment it was started with stays
    as it was (nothing read later, by this app or a library, changes behind its back)."""
    from handbook.ui import app as app_mod

    monkeypatch.setenv("FLET_FORCE_WEB_SERVER", "false")
    monkeypatch.setattr(app_mod, "run_asgi", lambda *a, **kw: None)
    monkeypatch.setattr(app_mod.threading, "Thread", lambda *a, **kw: type("T", (), {"start": lambda self: None})())
    before = dict(os.environ)
    app_mod.serve("127.0.0.1", 8550)
    assert dict(os.environ) == before


def test_a_second_tap_while_the_record_is_being_written_adds_nothing(ctx, app_ledger,
                                                                    monkeypatch):
    started, release = threading.Event(), threading.Event()
    real_write = storage.atomic_write_text

    def slow_write(path, text):
        started.set()
        release.wait(10)
        real_write(path, text)

    ctx = _session(ctx)
    v = build_view(ctx, "/ledger")
    by_key(v, "player-name").value = "Xia"
    pick = by_key(v, "foul")
    pick.value = str(app_ledger.row("azrm", NOTEN).index)
    pick.on_select(Event(pick))
    button = by_key(v, "add-record")

    async def scenario() -> None:
        monkeypatch.setattr(storage, "atomic_write_text", slow_write)
        first = asyncio.ensure_future(_call(button.on_click, None))
        await asyncio.to_thread(started.wait, 10)
        await _call(button.on_click, None)  # the impatient second tap
        release.set()
        await first

    asyncio.run(scenario())
    assert [r.player for r in app_ledger.records()] == ["Xia"]
