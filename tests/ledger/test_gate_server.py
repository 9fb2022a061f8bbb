"""The judge gate on a real server, spoken to in Flet's own websocket protocol (no browser), as an
attacker on the hall's network would: wrong passphrases are counted per peer address as the
server's transport saw it, whatever the client writes into ``page.client_ip`` or an
``X-Forwarded-For`` header; one address's failures hold no other address.

Each client connects from its own loopback address (127.0.0.x: every one of them is this
machine's), registers a session on ``/ledger``, answers the server's method calls with "nothing
stored", and types into the passphrase box and taps "Open the ledger" as the Flutter client's
messages would.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from typing import Any

import msgpack
import pytest
import uvicorn
import websockets
from flet.messaging.protocol import decode_ext_from_msgpack

from handbook import access
from handbook.ledger import Ledger
from handbook.storage import open_db
from handbook.ui.app import create_app, server_config
from handbook.ui.stores import Stores
from tests.support.record_probes import LOCKED_ROUTES as CRAFTED
from tests.support.record_probes import RECORD_TEXTS as SECRETS

REGISTER, PATCH, EVENT, PROPS, INVOKE = 1, 2, 3, 4, 5
PAGE_ID = 1
TIMEOUT_S = 20.0
#: after an answer whose message did not change, how long to wait for the ledger to open
QUIET_S = 2.0
PASS = "east-wind-judge"
WRONG = "That is not the judge passphrase."
LOCKED = "Too many wrong attempts."


def _pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def _unpack(frame: bytes) -> tuple[int, Any] | None:
    if not frame or frame[0] != 0x00:
        return None
    action, body = msgpack.unpackb(frame[1:], ext_hook=decode_ext_from_msgpack, strict_map_key=False)
    return action, body


def _walk(obj: Any, keys: dict[str, int], texts: list[str]) -> None:
    """Note every control's ``key`` (control id) and every text in a patch."""
    if isinstance(obj, dict):
        if isinstance(obj.get("_i"), int) and isinstance(obj.get("key"), str):
            keys[obj["key"]] = obj["_i"]
        for v in obj.values():
            _walk(v, keys, texts)
    elif isinstance(obj, list):
        for v in obj:
            _walk(v, keys, texts)
    elif isinstance(obj, str):
        texts.append(obj)


def _ids(obj: Any, out: set[int]) -> None:
    """Note every control id (``_i``) in a patch."""
    if isinstance(obj, dict):
        if isinstance(obj.get("_i"), int):
            out.add(obj["_i"])
        for v in obj.values():
            _ids(v, out)
    elif isinstance(obj, list):
        for v in obj:
            _ids(v, out)


class Client:
    """One browser session from the loopback address ``address``."""

    def __init__(self, port: int, address: str, headers: dict[str, str] | None = None,
                 route: str = "/ledger") -> None:
        self.port, self.address, self.headers, self.route = port, address, headers or {}, route
        #: every text the server has sent this session
        self.seen: list[str] = []
        self.keys: dict[str, int] = {}
        #: every control id the server has sent this session
        self.ids: set[int] = set()
        self.ws: Any = None

    async def __aenter__(self) -> "Client":
        self.ws = await websockets.connect(f"ws://127.0.0.1:{self.port}/ws", max_size=None,
                                           local_addr=(self.address, 0),
                                           additional_headers=self.headers,
                                           open_timeout=TIMEOUT_S)
        await self.ws.send(_pack(REGISTER, {"session_id": None, "page_name": "", "page": {
            "route": self.route, "width": 412.0, "height": 915.0, "web": True}}))
        await self.until("Judge passphrase")
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.ws.close()

    async def until(self, *wanted: str) -> str:
        """Read the server's messages (answering its method calls) until a patch shows one of
        ``wanted`` (any patch at all when none is given); returns the text that did."""
        deadline = time.monotonic() + TIMEOUT_S
        while True:
            frame = await asyncio.wait_for(self.ws.recv(), max(0.1, deadline - time.monotonic()))
            msg = _unpack(frame)
            if msg is None:
                continue
            action, body = msg
            if action == INVOKE:
                await self.ws.send(_pack(INVOKE, {"control_id": body["control_id"],
                                                  "call_id": body["call_id"], "result": None,
                                                  "error": None}))
            elif action in (PATCH, REGISTER):
                texts: list[str] = []
                _walk(body, self.keys, texts)
                _ids(body, self.ids)
                self.seen += texts
                if not wanted:
                    return "\n".join(texts)
                for t in texts:
                    if any(w in t for w in wanted):
                        return t

    async def forge_client_ip(self, value: str) -> None:
        """What a lying client sends: the page's ``client_ip`` property, overwritten."""
        await self.ws.send(_pack(PROPS, {"id": PAGE_ID, "props": {"client_ip": value}}))

    async def give(self, passphrase: str, *, follow_s: float = QUIET_S) -> str:
        """Type ``passphrase`` and tap "Open the ledger"; returns every text of the patch that
        follows (a message shows in it when it changed; "Secret Sam" when the ledger opened).
        When that patch shows no message, waits up to ``follow_s`` seconds for the ledger opening
        in a patch of its own; 0 for a guess whose answer is not read (a repeated wrong answer
        changes no message, so it has no second patch to wait for)."""
        await self.ws.send(_pack(PROPS, {"id": self.keys["passphrase"], "props": {"value": passphrase}}))
        await self.ws.send(_pack(EVENT, {"target": self.keys["unlock"], "name": "click", "data": None}))
        shown = [await self.until()]  # the box is emptied after every answer: there is a patch
        while follow_s and not any(w in shown[-1] for w in (WRONG, LOCKED, "Secret Sam")):
            try:  # the screen rebuilt after a right answer follows in a patch of its own
                shown.append(await asyncio.wait_for(self.until(), follow_s))
            except asyncio.TimeoutError:
                break
        return "\n".join(shown)


@pytest.fixture
def server(library, tmp_path, monkeypatch):
    """The app served on a free loopback port with a gate, as ``serve`` builds it (the peer
    address middleware, uvicorn configured by ``server_config``); yields a starter taking the
    trusted proxies."""
    from handbook.ui.app import asgi_app

    monkeypatch.setenv("HANDBOOK_DATA_DIR", str(tmp_path / "data"))
    ledger = Ledger(open_db(tmp_path / "data" / "ledger.json"), library)
    ledger.add("Secret Sam", "2026-04-01", "azrm", "Noten Riichi")
    gate = access.Gate(PASS)
    access.configure(gate)
    running: list[tuple[uvicorn.Server, threading.Thread]] = []

    def start(trusted: tuple[str, ...] = ()) -> int:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        app = asgi_app(create_app(library, stores=Stores(library, ledger=ledger)))
        srv = uvicorn.Server(server_config(app, "127.0.0.1", port, trusted))
        thread = threading.Thread(target=srv.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + TIMEOUT_S
        while not srv.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)
        running.append((srv, thread))
        return port

    start.gate = gate  # type: ignore[attr-defined]
    yield start
    for srv, thread in running:
        srv.should_exit = True
        thread.join(10)
    access.configure(None)


def test_a_forged_client_ip_neither_resets_nor_avoids_the_lockout(server):
    port = server()
    gate = server.gate

    async def attack() -> None:
        async with Client(port, "127.0.0.21") as c:
            for i in range(access.FREE_FAILURES):
                await c.forge_client_ip(f"10.0.0.{i + 1}")
                said = await c.give(f"guess-number-{i}", follow_s=0)
            assert LOCKED in said
            await c.forge_client_ip("10.0.0.200")
            assert "Secret Sam" not in await c.give(PASS)  # not even compared
        # a new session from the same address (the "ten sessions" attack) is held too
        async with Client(port, "127.0.0.21") as again:
            await again.forge_client_ip("10.0.0.201")
            assert LOCKED in await again.give(PASS)

    asyncio.run(attack())
    assert gate.wait_s("127.0.0.21") > 0
    assert all(gate.wait_s(f"10.0.0.{i}") == 0 for i in range(1, 202))


def test_one_addresss_failures_do_not_lock_out_another(server):
    port = server()

    async def both() -> None:
        async with Client(port, "127.0.0.31") as attacker:
            for i in range(access.FREE_FAILURES):
                said = await attacker.give(f"guess-number-{i}", follow_s=0)
            assert LOCKED in said
        async with Client(port, "127.0.0.32") as judge:
            await judge.forge_client_ip("127.0.0.31")  # naming the locked address changes nothing
            assert "Secret Sam" in await judge.give(PASS)

    asyncio.run(both())


@pytest.mark.parametrize("trusted,counted", [((), "127.0.0.1"), (("127.0.0.0/8",), "10.9.8.7")])
def test_x_forwarded_for_is_believed_only_from_a_trusted_proxy(server, trusted, counted):
    port = server(trusted)

    async def one() -> None:
        async with Client(port, "127.0.0.1", {"X-Forwarded-For": "10.9.8.7"}) as c:
            assert WRONG in await c.give("not-the-passphrase")

    asyncio.run(one())
    gate = server.gate
    for _ in range(access.FREE_FAILURES - 1):
        gate.check("not-the-passphrase", counted)
    assert gate.wait_s(counted) > 0  # the one wrong answer above was counted against it


def test_end_of_hanchan_sends_no_penalty_line_of_the_ledger_without_the_passphrase(server, library, tmp_path):
    """/tools/final asked for a table whose penalties are recorded today: what the server sends a
    session without the passphrase holds the calculator and the passphrase box, never the
    record's player or foul; given the passphrase, the line arrives."""
    import datetime

    other = Ledger(open_db(tmp_path / "data" / "ledger.json"), library)  # another judge's tab
    other.add("Secret Sam", datetime.date.today(), "azrm", "Noten Riichi", table="7", reason="noten")
    port = server()

    async def look() -> None:
        route = "/tools/final?ruleset=azrm&table=7&e=22000&s=45000&w=16000&n=37000"
        async with Client(port, "127.0.0.41", route=route) as c:
            await asyncio.sleep(QUIET_S)  # anything the screen would send after its first patch
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(c.until("Secret Sam"), QUIET_S)
            sent = "\n".join(c.seen)
            assert "End of hanchan" in sent and "North: rank" in sent
            assert "Secret Sam" not in sent and "Noten Riichi" not in sent and "noten" not in sent
            assert "Secret Sam — Noten Riichi (AZRM), 30P" in await c.give(PASS)

    asyncio.run(look())


def _file_hash(path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


async def _blind_fire(c: Client) -> int:
    """What an attacker does without the screen: the events a control takes (tap, Enter, a
    changed value, a choice), sent to every control id the server sent and to the next ids past
    the highest (controls it may hold and not show); returns how many were sent."""
    top = max(c.ids | {PAGE_ID})
    sent = 0
    for target in sorted(c.ids | set(range(top + 1, top + 7))):
        for name, data in (("click", None), ("submit", "x"), ("change", "x"), ("select", "x")):
            await c.ws.send(_pack(EVENT, {"target": target, "name": name, "data": data}))
            sent += 1
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(c.until(*SECRETS), QUIET_S)
    return sent


def test_a_locked_session_reaches_no_record_nor_changes_one(server, library, tmp_path):
    """Issue 44's new actions on a served app with a gate: a session without the passphrase that
    asks for ``/record`` (crafted queries), the player's page (Revoke, Restore), the day's
    incidents or End of hanchan's fill from records, and then fires every event at every control
    id, receives no record's text and changes nothing in the ledger file; the same record form,
    the passphrase given, shows and saves (the probe can see both)."""
    import datetime

    path = tmp_path / "data" / "ledger.json"
    other = Ledger(open_db(path), library)  # another judge's tab
    today = datetime.date.today()
    other.add("Secret Sam", today, "azrm", "Noten Riichi", table="7", hanchan=1, reason="noten at table 7")
    gone = other.add("Revoked Rita", today, "azrm", "Noten Riichi", table="7", hanchan=1)
    other.revoke(gone.id, "recorded against the wrong player")
    port = server()
    before = _file_hash(path)

    async def probe() -> None:
        for n, route in enumerate(CRAFTED):
            async with Client(port, f"127.0.0.{60 + n}", route=route) as c:
                assert "save-record" not in c.keys, route
                fired = await _blind_fire(c)
                assert fired > 0
                leaked = [s for s in SECRETS if any(s in t for t in c.seen)]
                assert not leaked, (route[:80], leaked)
                assert "Save record" not in c.seen, route[:80]
            assert _file_hash(path) == before, route[:80]
        # the passphrase given: the same form shows and saves (so the probe sees a change)
        async with Client(port, "127.0.0.90", route=CRAFTED[0]) as judge:
            assert "Save record" in await judge.give(PASS)
            box = judge.keys["record-player"]
            await judge.ws.send(_pack(PROPS, {"id": box, "props": {"value": "Judge Made"}}))
            await judge.ws.send(_pack(EVENT, {"target": judge.keys["save-record"], "name": "click", "data": None}))
            await judge.until("Recorded: Judge Made")

    asyncio.run(probe())
    assert _file_hash(path) != before
    records = Ledger(open_db(path), library).records()
    assert sorted(r.player for r in records) == ["Judge Made", "Revoked Rita", "Secret Sam", "Secret Sam"]
    assert [r.revoked is not None for r in records if r.player == "Revoked Rita"] == [True]
