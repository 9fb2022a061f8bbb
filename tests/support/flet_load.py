"""A bounded load on the served app, spoken in Flet's own websocket protocol (no browser).

Each :class:`FletClient` is one browser session as the Flutter client would make it: it connects to
``ws://127.0.0.1:<port>/ws``, registers (``REGISTER_CLIENT`` with the page's route and size),
answers the server's method calls (``SharedPreferences.get`` and the like) with "nothing stored",
and then sends what a judge's taps send: a route change (``UPDATE_CONTROL_PROPS`` of the page's
``route`` + its ``route_change`` event) or, on the ledger screen, typed values and a click on
"Add record" (found by the controls' ``key`` in the patches the server sent). A request's
response time runs from sending it to the server's next ``PATCH_CONTROL``.

Wire format (flet 1.0.5, ``flet_web.fastapi.flet_app``): one websocket binary frame per message,
``0x00`` + MessagePack ``[action, body]``; actions 1 register, 2 patch, 3 event, 4 props,
5 invoke method, 6 session crashed. Loopback only; every client is bounded in time.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack
import websockets
from flet.messaging.protocol import decode_ext_from_msgpack

REGISTER, PATCH, EVENT, PROPS, INVOKE, CRASHED = 1, 2, 3, 4, 5, 6
PAGE_ID = 1  # the page is always control 1 of a session
RESPONSE_TIMEOUT_S = 20.0

ROUTES = ["/", "/search?q=chombo", "/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C", "/search?q=phone+rang",
          "/rules/azrm", "/rules/azrm/2.4", "/penalties/wrc-2025", "/penalties/ema-rcr",
          "/glossary", "/glossary/kui-kae", "/tools/strikes", "/tools/final", "/ledger"]


def pack(action: int, body: Any) -> bytes:
    return b"\x00" + msgpack.packb([action, body])


def unpack(frame: bytes) -> tuple[int, Any] | None:
    if not frame or frame[0] != 0x00:
        return None
    action, body = msgpack.unpackb(frame[1:], ext_hook=decode_ext_from_msgpack,
                                   strict_map_key=False)
    return action, body


def _keys(obj: Any, found: dict[str, int]) -> None:
    """Every control with a ``key`` in a patch: key → control id."""
    if isinstance(obj, dict):
        if isinstance(obj.get("key"), str) and isinstance(obj.get("_i"), int) and "_c" in obj:
            found[obj["key"]] = obj["_i"]
        for v in obj.values():
            _keys(v, found)
    elif isinstance(obj, list):
        for v in obj:
            _keys(v, found)


@dataclass
class Figures:
    """What the clients saw, together."""

    sessions: int = 0
    requests: int = 0
    errors: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)  # seconds, every answered request
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # screen or action → seconds
    first_screen: list[float] = field(default_factory=list)  # register → first screen
    records_added: int = 0

    def percentile(self, values: list[float], p: float) -> float:
        if not values:
            return float("nan")
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class FletClient:
    """One session in Flet's protocol."""

    def __init__(self, port: int, figures: Figures, name: str) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.figures = figures
        self.name = name
        self.ws: Any = None
        self.session_id: str | None = None
        self.keys: dict[str, int] = {}
        self._patched = asyncio.Event()
        self._reader: asyncio.Task | None = None
        self.crashed: str | None = None
        self.route = ""
        #: the local address the socket is bound to (``("127.0.0.2", 0)``: another peer address)
        self.local_addr: tuple[str, int] | None = None

    async def connect(self, route: str, session_id: str | None = None) -> str:
        """Register (a new session, or the old one again with ``session_id``); returns the
        session id the server answered with, once the first screen's patch has arrived."""
        extra = {"local_addr": self.local_addr} if self.local_addr else {}
        self.ws = await websockets.connect(self.url, max_size=None, open_timeout=RESPONSE_TIMEOUT_S, **extra)
        self._patched.clear()
        started = time.perf_counter()
        await self.ws.send(pack(REGISTER, {"session_id": session_id, "page_name": "",
                                           "page": {"route": route, "width": 412.0,
                                                    "height": 915.0, "web": True}}))
        frame = await asyncio.wait_for(self.ws.recv(), RESPONSE_TIMEOUT_S)
        action, body = unpack(frame) or (None, None)
        if action != REGISTER or body.get("error"):
            raise RuntimeError(f"register refused: {body!r:.200}")
        self.session_id = body["session_id"]
        self.route = route
        self._reader = asyncio.create_task(self._read())
        if session_id is None or self.session_id != session_id:  # a new session renders its screen
            await asyncio.wait_for(self._patched.wait(), RESPONSE_TIMEOUT_S)
            self.figures.first_screen.append(time.perf_counter() - started)
        return self.session_id

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                msg = unpack(frame)
                if msg is None:
                    continue
                action, body = msg
                if action == INVOKE:  # a client-side service: answer "nothing stored / done"
                    await self.ws.send(pack(INVOKE, {"control_id": body["control_id"],
                                                     "call_id": body["call_id"], "result": None,
                                                     "error": None}))
                elif action == PATCH:
                    _keys(body, self.keys)
                    self._patched.set()
                elif action == CRASHED:
                    self.crashed = str(body)[:200]
                    self._patched.set()
        except websockets.ConnectionClosed:
            pass

    async def _request(self, kind: str, *messages: bytes) -> float:
        self._patched.clear()
        started = time.perf_counter()
        for m in messages:
            await self.ws.send(m)
        await asyncio.wait_for(self._patched.wait(), RESPONSE_TIMEOUT_S)
        if self.crashed:
            raise RuntimeError(f"session crashed: {self.crashed}")
        took = time.perf_counter() - started
        self.figures.times.append(took)
        self.figures.by_kind.setdefault(kind, []).append(took)
        self.figures.requests += 1
        return took

    async def navigate(self, route: str) -> float:
        """Open ``route`` (a different one than the screen shown: the same screen again would
        change nothing, and Flet sends no patch for no change)."""
        assert route != self.route, route
        self.route = route
        kind = route.split("?")[0].split("/")[1] or "search"
        return await self._request(
            kind,
            pack(PROPS, {"id": PAGE_ID, "props": {"route": route}}),
            pack(EVENT, {"target": PAGE_ID, "name": "route_change", "data": {"route": route}}))

    async def add_record(self, player: str, foul_option: str) -> float:
        """On the ledger screen: type the player, choose the foul, tap Add record."""
        for key in ("player-name", "foul", "add-record"):
            if key not in self.keys:
                raise RuntimeError(f"the ledger screen has no control {key!r}")
        await self.ws.send(pack(PROPS, {"id": self.keys["player-name"], "props": {"value": player}}))
        await self._request("choose foul", pack(PROPS, {"id": self.keys["foul"], "props": {"value": foul_option}}),
                            pack(EVENT, {"target": self.keys["foul"], "name": "select",
                                         "data": foul_option}))
        took = await self._request("add record", pack(EVENT, {"target": self.keys["add-record"], "name": "click",
                                                "data": None}))
        self.figures.records_added += 1
        return took

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


async def judge(port: int, figures: Figures, n: int, seconds: float, foul_option: str,
                think: tuple[float, float], seed: int) -> FletClient:
    """One judge for ``seconds``: opens the app, then moves between screens (and adds a ledger
    record about one request in eight), waiting ``think`` seconds between requests. Returns the
    client, disconnected."""
    rng = random.Random(seed)
    client = FletClient(port, figures, f"judge{n}")
    deadline = time.monotonic() + seconds
    try:
        await client.connect(rng.choice(ROUTES))
        figures.sessions += 1
        i = 0
        while time.monotonic() < deadline:
            await asyncio.sleep(rng.uniform(*think))
            i += 1
            if i % 8 == 0:
                if client.route != "/ledger":
                    await client.navigate("/ledger")
                await client.add_record(f"Load player {n}", foul_option)
            else:
                await client.navigate(rng.choice([r for r in ROUTES if r != client.route]))
    except Exception as exc:  # noqa: BLE001 - every failure is counted, none stops the others
        figures.errors.append(f"judge{n}: {type(exc).__name__}: {exc}"[:300])
    finally:
        await client.close()
    return client


async def reconnects(port: int, session_ids: list[str]) -> int:
    """How many of ``session_ids`` the server still keeps: each is offered back as a reconnecting
    browser would; a kept one is resumed under the same id, an expired one is replaced."""
    kept = 0
    for sid in session_ids:
        client = FletClient(port, Figures(), "reconnect")
        try:
            got = await client.connect("/", session_id=sid)
            kept += got == sid
        finally:
            await client.close()
    return kept
