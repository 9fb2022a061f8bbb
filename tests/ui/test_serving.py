"""The served app's repairs of Flet 1.0.5 (handbook.ui.serving): a crash shows the plain-words
screen and never a traceback, a session whose socket dropped mid-send is released, no FastAPI
docs routes, no trusted proxy headers."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
import urllib.request

import pytest
from tests.support.uihelpers import StubPage, texts

from handbook.ui import serving
from handbook.ui.app import HandbookApp, Preferences


def _session(sent: list):
    from flet.messaging.connection import Connection
    from flet.messaging.session import Session
    from flet.pubsub.pubsub_hub import PubSubHub

    class Conn(Connection):
        def send_message(self, message):
            sent.append(message)

    conn = Conn()
    conn.pubsubhub = PubSubHub(loop=asyncio.get_running_loop())
    return Session(conn)


def test_a_crash_sends_no_traceback_to_the_browser():
    serving.install_crash_screen()

    async def run():
        sent: list = []
        session = _session(sent)
        session.error("boom\nTraceback (most recent call last):\n  File \"/srv/handbook/x.py\"")
        return sent

    [message] = asyncio.run(run())
    text = str(message.body)
    assert "Traceback" not in text and "/srv/handbook" not in text and "boom" not in text
    assert serving.CRASH_SENTENCE in text


def test_a_crash_in_a_session_of_the_app_shows_its_plain_words_screen(library):
    serving.install_crash_screen()

    async def run():
        sent: list = []
        session = _session(sent)
        page = StubPage(route="/glossary")
        app = HandbookApp(page, library, prefs=Preferences(None))
        await app.start()
        serving.register_crash_screen(session.page, app)
        app.page = session.page  # the app's page is the session's
        shown: list = []
        app.show_crash = lambda: shown.append(True)  # noqa: E731 - what the session would show
        session.error("boom\nTraceback")
        return sent, shown

    sent, shown = asyncio.run(run())
    assert shown == [True] and sent == []


def test_the_crash_screen_says_it_in_plain_words(library):
    page = StubPage(route="/glossary")
    app = HandbookApp(page, library, prefs=Preferences(None))
    asyncio.run(app.start())
    app.show_crash()
    words = " ".join(texts(page.views[-1]))
    assert "This screen could not be shown. Nothing was changed or lost." in words
    assert "Traceback" not in words


@pytest.mark.parametrize("route", [123, None, ["/ledger"], {"a": 1}, 1.5])
def test_a_route_that_is_not_text_shows_the_search_screen(library, route):
    page = StubPage(route="/")
    app = HandbookApp(page, library, prefs=Preferences(None))
    asyncio.run(app.start())
    app.on_route_change(type("RouteChange", (), {"route": route})())
    words = " ".join(texts(page.views[-1]))
    assert "Something went wrong" not in words and "Search" in words


def test_a_socket_dropped_while_sending_releases_its_session(monkeypatch):
    from flet_web.fastapi.flet_app import FletApp
    from flet_web.fastapi.flet_app_manager import app_manager
    from websockets.exceptions import ConnectionClosedError

    async def sends_into_a_dropped_socket(self, websocket):
        raise ConnectionClosedError(None, None)

    monkeypatch.setattr(FletApp, "handle", sends_into_a_dropped_socket)
    released: list = []

    async def disconnect_session(session_id, timeout):
        released.append((session_id, timeout))

    monkeypatch.setattr(app_manager, "disconnect_session", disconnect_session)
    assert serving.install_session_release()
    conn = FletApp.__new__(FletApp)
    conn._FletApp__session = type("S", (), {"id": "abc", "connection": conn})()
    conn._FletApp__session_timeout_seconds = 600
    conn._FletApp__get_unique_session_id = lambda sid: f"_{sid}_hash"
    asyncio.run(FletApp.handle(conn, websocket=None))  # no exception reaches uvicorn
    assert released == [("_abc_hash", 600)]


def test_an_eviction_round_hands_the_memory_back_once(monkeypatch):
    from flet_web.fastapi.flet_app_manager import FletAppManager

    deleted: list[str] = []

    async def delete_session(self, session_id):
        deleted.append(session_id)

    monkeypatch.setattr(FletAppManager, "delete_session", delete_session)
    monkeypatch.setattr(serving, "TRIM_DELAY_S", 0.05)
    trims: list[bool] = []
    monkeypatch.setattr(serving, "hand_back_memory", lambda: trims.append(True) or True)
    assert serving.install_memory_return()
    assert serving.install_memory_return()  # idempotent: wrapped once

    async def evict() -> None:
        manager = FletAppManager()
        for sid in ("a", "b", "c"):  # one round deletes three sessions
            await manager.delete_session(sid)
        assert trims == []  # not while the round is still deleting
        await asyncio.sleep(0.2)

    asyncio.run(evict())
    assert deleted == ["a", "b", "c"] and trims == [True]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(app, port):
    import uvicorn

    from handbook.ui.app import server_config

    server = uvicorn.Server(server_config(app, "127.0.0.1", port))  # what `serve` runs
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    return server, thread


def test_forwarded_headers_are_not_trusted_even_from_loopback():
    async def echo_client(scope, receive, send):
        if scope["type"] != "http":
            return
        body = json.dumps({"client": scope["client"][0], "scheme": scope["scheme"]}).encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    port = _free_port()
    server, thread = _serve(echo_client, port)
    try:
        req = urllib.request.Request(f"http://127.0.0.1:{port}/", headers={
            "X-Forwarded-For": "10.9.9.9", "X-Forwarded-Proto": "https"})
        seen = json.loads(urllib.request.urlopen(req, timeout=10).read())
    finally:
        server.should_exit = True
        thread.join(10)
    assert seen == {"client": "127.0.0.1", "scheme": "http"}


def test_no_fastapi_docs_are_served(tmp_path):
    pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    async def main(page):  # pragma: no cover - never opened
        pass

    from handbook.ui.app import asgi_app

    with TestClient(asgi_app(main)) as client:  # what `serve` serves
        for path in ("/docs", "/redoc", "/openapi.json", "/docs/oauth2-redirect"):
            r = client.get(path)
            body = r.text.lower()
            assert "swagger" not in body and "redoc" not in body and '"openapi"' not in body, path


def test_the_rive_script_is_answered_at_the_apps_origin(monkeypatch, tmp_path):
    """Every page load asked for rive_native.js under a folder that was not served: a 404 in the
    server's log each time. It is answered now, with a runtime that never finishes loading."""
    from handbook.ui import webclient

    monkeypatch.setenv("HANDBOOK_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(webclient, "_patched", {})
    targets = webclient._rewritten_client()
    for script in webclient.RIVE_SCRIPTS:
        stub = targets[webclient.RIVE_LOCAL + script].read_text(encoding="utf-8")
        assert "window.RiveNative" in stub and "new Promise(function () {})" in stub
    monkeypatch.setattr(webclient, "_patched", {})
    again = webclient._rewritten_client()  # the copies kept in the cache serve the next start
    assert (webclient.RIVE_LOCAL + webclient.RIVE_SCRIPTS[0]) in again


def test_serve_runs_again_on_the_c_allocator_once():
    from handbook.__main__ import system_allocator_command

    argv = ["/usr/bin/python3", "-m", "handbook", "serve", "--port", "8550"]
    again = system_allocator_command(argv, {"PATH": "/bin"}, platform="linux", ignore_environment=False)
    assert again == (argv, {"PATH": "/bin", "PYTHONMALLOC": "malloc"})
    # once it runs so, or for another command, another system, an allocator the user chose, or
    # an environment Python ignores (which would never end): nothing to do
    assert system_allocator_command(argv, again[1], platform="linux", ignore_environment=False) is None
    assert system_allocator_command(["python", "-m", "handbook", "check"], {}, platform="linux",
                                    ignore_environment=False) is None
    assert system_allocator_command(argv, {}, platform="darwin", ignore_environment=False) is None
    assert system_allocator_command(argv, {"PYTHONMALLOC": "pymalloc_debug"}, platform="linux",
                                    ignore_environment=False) is None
    assert system_allocator_command(argv, {}, platform="linux", ignore_environment=True) is None


def test_a_session_looks_for_controls_it_does_not_have_a_few_times_a_window(monkeypatch):
    """An event for a control id the session does not have made Flet walk the whole page (about
    30 ms on a long screen): a burst of them froze every session. Each session walks at most
    UNKNOWN_WALKS times per window; a control in the index and on the page needs no walk."""
    import weakref

    import flet as ft
    from flet.messaging.session import Session

    assert serving.install_event_budget()
    assert serving.install_event_budget()  # idempotent: wrapped once
    walked: list[int] = []
    monkeypatch.setattr(Session, "_Session__find_live_control",
                        lambda self, value, control_id, *a, **k: walked.append(control_id))
    monkeypatch.setattr(Session, "_Session__is_mounted_control", lambda self, control: True)
    now = [1000.0]
    monkeypatch.setattr("time.monotonic", lambda: now[0])
    session = object.__new__(Session)
    session._Session__index = weakref.WeakValueDictionary()
    session._Session__page = None
    other = object.__new__(Session)
    other._Session__index = weakref.WeakValueDictionary()
    other._Session__page = None

    known = ft.Text("here")
    session._Session__index[7] = known
    for _ in range(3 * serving.UNKNOWN_WALKS):
        assert session._Session__resolve_event_control(12345) is None
    assert len(walked) == serving.UNKNOWN_WALKS
    assert session._Session__resolve_event_control(7) is known  # found without a walk
    assert len(walked) == serving.UNKNOWN_WALKS
    other._Session__resolve_event_control(12345)  # another session has its own budget
    assert len(walked) == serving.UNKNOWN_WALKS + 1
    now[0] += serving.UNKNOWN_WINDOW_S + 0.1  # a new window: the session may look again
    session._Session__resolve_event_control(12345)
    assert len(walked) == serving.UNKNOWN_WALKS + 2


def test_a_connection_that_makes_no_session_ends(monkeypatch):
    """Repair 6: a socket whose first message fails (an event before the register message) ends
    (Flet's handler had waited on its send loop for ever, ~78 kB kept per socket); a socket that
    never registers is closed after REGISTER_TIMEOUT_S; one address keeps at most
    SESSIONLESS_PER_PEER of them open."""
    import msgpack
    import websockets

    from handbook.ui.app import asgi_app

    assert serving.install()
    monkeypatch.setattr(serving, "REGISTER_TIMEOUT_S", 3.0)
    monkeypatch.setattr(serving, "SESSIONLESS_PER_PEER", 3)

    async def main(page):  # pragma: no cover - never registered
        pass

    port = _free_port()
    server, thread = _serve(asgi_app(main), port)
    url = f"ws://127.0.0.1:{port}/ws"

    async def closed_within(ws, seconds: float) -> bool:
        try:
            await asyncio.wait_for(ws.recv(), seconds)
        except websockets.exceptions.ConnectionClosed:
            return True
        except asyncio.TimeoutError:
            return False
        return False

    async def run() -> tuple[bool, list[bool], bool]:
        early = await websockets.connect(url)
        await early.send(b"\x00" + msgpack.packb([3, {"target": 1, "name": "click", "data": None}]))
        event_first = await closed_within(early, 5)
        idle = [await websockets.connect(url) for _ in range(5)]
        at_once = list(await asyncio.gather(*(closed_within(ws, 1.0) for ws in idle)))
        later = all(await asyncio.gather(*(closed_within(ws, 6) for ws in idle[:3])))
        return event_first, at_once, later

    try:
        event_first, at_once, later = asyncio.run(run())
    finally:
        server.should_exit = True
        thread.join(10)
    assert event_first  # the handler ended: the server closed the socket
    assert at_once == [False, False, False, True, True]  # the 4th and 5th from one address at once
    assert later  # the three others once REGISTER_TIMEOUT_S passed without a session


# --- the hall's network: headers, Origin, session caps (handbook.ui.serving.HallGuard) -------------

def _client(app):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    return TestClient(app)


def _served(**guard):
    pytest.importorskip("httpx")

    async def main(page):  # pragma: no cover - the page is not driven here
        pass

    from handbook.ui.app import asgi_app

    return asgi_app(main, guard=guard)


@pytest.mark.parametrize("path", ["/", "/index.html", "/ledger", "/rules/azrm/2.4", "/manifest.json",
                                  "/flutter_bootstrap.js", "/no-such-file.txt", "/docs"])
def test_every_answer_carries_the_security_headers(path):
    with _client(_served()) as client:
        r = client.get(path)
    assert r.headers["x-content-type-options"] == "nosniff", path
    assert r.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in r.headers["content-security-policy"]
    assert r.headers["x-frame-options"] == "DENY"


def test_a_cross_origin_websocket_is_refused_and_the_apps_own_is_taken():
    from starlette.websockets import WebSocketDisconnect

    with _client(_served(origins=["https://judge.example"])) as client:
        for origin in ("http://evil.example", "http://testserver.evil.example", "null",
                       "https://judge.example.evil"):
            with pytest.raises(WebSocketDisconnect):
                with client.websocket_connect("/ws", headers={"origin": origin}):
                    pass
        for origin in ("http://testserver", "https://judge.example"):
            with client.websocket_connect("/ws", headers={"origin": origin}) as ws:
                ws.close()


def test_bad_origins_and_caps_are_refused_with_the_field_named():
    from handbook.ui.serving import HallGuard

    with pytest.raises(ValueError, match="origin: 'judge.example' must be scheme://host"):
        HallGuard(None, origins=["judge.example"])
    with pytest.raises(ValueError, match="per_address: must be a whole number of at least 1"):
        HallGuard(None, per_address=0)


def test_past_the_cap_the_page_says_why_and_a_websocket_is_refused(monkeypatch):
    from starlette.websockets import WebSocketDisconnect

    from handbook.ui import serving

    monkeypatch.setattr(serving, "_owners", {"s1": "testclient", "s2": "testclient", "s3": "10.0.0.9"})
    with _client(_served(per_address=2, total=10)) as client:
        r = client.get("/ledger")
        assert r.status_code == 503 and "already has 2 handbook sessions" in r.text
        assert r.headers["x-content-type-options"] == "nosniff"
        with pytest.raises(WebSocketDisconnect):
            with client.websocket_connect("/ws"):
                pass
        assert client.get("/manifest.json").status_code == 200  # files are still served
    monkeypatch.setattr(serving, "_owners", {f"s{i}": f"10.0.0.{i}" for i in range(3)})
    with _client(_served(per_address=2, total=3)) as client:
        r = client.get("/")
        assert r.status_code == 503 and "server already has 3 sessions" in r.text
        r = client.get("/", headers={"accept-language": "ja-JP,ja;q=0.9"})
        assert r.status_code == 503 and 'lang="ja"' in r.text and "3" in r.text
        assert "The server already has" not in r.text
    monkeypatch.setattr(serving, "_owners", {"s1": "testclient"})
    with _client(_served(per_address=2, total=3)) as client:
        assert client.get("/").status_code == 200
