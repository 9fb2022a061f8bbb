"""The served app's memory on a hall's network (issue 46, ``make bench``; figures in
docs/security.md, "Memory"). Each test starts ``python -m handbook serve`` on 127.0.0.1 (as
``make run`` does: glibc's allocator) with disconnected sessions kept ``EXPIRY_S`` seconds, and
speaks Flet's websocket protocol to it (tests/support/flet_load.py; no browser). RSS is the
server process's resident set (``/proc/<pid>/status``), in MB (10^6 bytes).

* ``test_memory_per_idle_session``: 60 sessions opened (30 from 127.0.0.1, 30 from 127.0.0.2:
  the per-address cap is 40) and kept connected, idle: MB a session; then closed and expired:
  back to the settled level?
* ``test_waves_of_dropped_sessions_come_back``: 6 waves of 60 sessions whose sockets are reset
  while the server is still sending their first screen (spread over 127.0.0.2-127.0.0.7), each
  wave's sessions left to expire: after every wave the server's memory is within
  :data:`SLACK_MB` of its settled level (after the first wave).
* ``test_a_thousand_connection_attempts_from_one_address``: 1,000 websocket connection attempts
  from 127.0.0.1, 100 at a time and each kept open until the flood ends, while a judge on
  127.0.0.2 opens the app: the server stays under :data:`FLOOD_LIMIT_MB` (sampled every 0.1 s
  through the flood) and the judge's first screen comes in at most :data:`JUDGE_LIMIT_S`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import struct
import threading
import time
from pathlib import Path

import pytest
import websockets

from handbook.ui.serving import MAX_SESSIONS_PER_ADDRESS, SESSIONLESS_PER_PEER
from tests.support.flet_load import RESPONSE_TIMEOUT_S, Figures, FletClient, pack

EXPIRY_S = 15          # FLET_SESSION_TIMEOUT of these servers; flet-web evicts every 10 s
SETTLE_S = EXPIRY_S + 16   # expiry, the evictor's next round (every 10 s), the trim a second later
SLACK_MB = 60
FLOOD_LIMIT_MB = 300
JUDGE_LIMIT_S = 1.0
ROUTES = ["/", "/penalties/wrc-2025", "/glossary", "/rules/azrm", "/penalties/ema-rcr", "/tools/strikes"]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return round(int(line.split()[1]) * 1024 / 1e6, 1)
    raise RuntimeError(f"no VmRSS for {pid}")


@contextlib.contextmanager
def served(tmp_path: Path, name: str, **env: str):
    from tests.support.browser_harness import start_server, stop_server

    old = {k: os.environ.get(k) for k in {"FLET_SESSION_TIMEOUT": str(EXPIRY_S), **env}}
    os.environ.update({"FLET_SESSION_TIMEOUT": str(EXPIRY_S), **env})
    try:
        server = start_server(tmp_path / f"{name}-data", tmp_path / f"{name}.log")
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    try:
        yield server
    finally:
        stop_server(server)


async def settled(server) -> float:
    """Warm the server (a few screens, each session left to expire) and return its RSS then."""
    for route in ROUTES:
        c = FletClient(server.port, Figures(), "warm")
        await c.connect(route)
        await c.close()
    await asyncio.sleep(SETTLE_S)
    return rss_mb(server.pid)


async def _drop_one(port: int, route: str, address: str) -> bool | str:
    """Register from ``address``, wait for the first bytes of the server's answer, then reset the
    socket (RST) while the first screen is still being sent."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), RESPONSE_TIMEOUT_S)
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        writer.close()
        return head.split(b"\r\n", 1)[0].decode("latin-1")
    payload = pack(1, {"session_id": None, "page_name": "",
                       "page": {"route": route, "width": 412.0, "height": 915.0, "web": True}})
    mask = os.urandom(4)
    header = bytes([0x82]) + (bytes([0x80 | len(payload)]) if len(payload) < 126
                              else bytes([0x80 | 126]) + struct.pack(">H", len(payload)))
    writer.write(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
    await writer.drain()
    with contextlib.suppress(asyncio.TimeoutError):
        await asyncio.wait_for(reader.read(1), RESPONSE_TIMEOUT_S)
    writer.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
    return True


def test_memory_per_idle_session(benchmark, tmp_path):
    n_per_address = 30
    figures: dict = {}

    async def probe(server) -> None:
        base = await settled(server)
        clients = []
        for i in range(2 * n_per_address):
            c = FletClient(server.port, Figures(), f"idle{i}")
            c.local_addr = ("127.0.0.1" if i % 2 else "127.0.0.2", 0)
            await c.connect(ROUTES[i % len(ROUTES)])
            clients.append(c)
        await asyncio.sleep(5)
        open_ = rss_mb(server.pid)
        for c in clients:
            await c.close()
        await asyncio.sleep(SETTLE_S)
        after = rss_mb(server.pid)
        figures.update({"sessions": len(clients), "settled MB": base, "with the sessions open MB": open_,
                        "MB a session": round((open_ - base) / len(clients), 2),
                        "after they expired MB": after, "above settled MB": round(after - base, 1)})

    with served(tmp_path, "idle") as server:
        benchmark.pedantic(lambda: asyncio.run(probe(server)), rounds=1, iterations=1)
    print(f"\nidle sessions: {figures}")
    benchmark.extra_info.update(figures)
    assert figures["above settled MB"] <= SLACK_MB, figures


def test_waves_of_dropped_sessions_come_back(benchmark, tmp_path):
    waves, per_wave = 6, 60
    addresses = [f"127.0.0.{k}" for k in range(2, 8)]
    figures: dict = {"after each wave MB": [], "dropped": 0}

    async def probe(server) -> None:
        figures["idle MB"] = await settled(server)
        for w in range(waves):
            done = await asyncio.gather(*(_drop_one(server.port, ROUTES[i % len(ROUTES)], addresses[i % len(addresses)])
                                          for i in range(per_wave)), return_exceptions=True)
            figures["dropped"] += sum(1 for d in done if d is True)
            figures.setdefault("dropped by wave", []).append(sum(1 for d in done if d is True))
            for d in done:
                if d is not True:
                    why = d if isinstance(d, str) else type(d).__name__
                    figures.setdefault("not dropped", {}).setdefault(why, 0)
                    figures["not dropped"][why] += 1
            if w == 0:
                await asyncio.sleep(3)
                figures["right after the first wave MB"] = rss_mb(server.pid)
            await asyncio.sleep(SETTLE_S)
            figures["after each wave MB"].append(rss_mb(server.pid))

    with served(tmp_path, "waves") as server:
        benchmark.pedantic(lambda: asyncio.run(probe(server)), rounds=1, iterations=1)
    level = figures["after each wave MB"][0]
    figures["settled level MB"] = level
    figures["worst above settled MB"] = round(max(figures["after each wave MB"]) - level, 1)
    figures["last above idle MB"] = round(figures["after each wave MB"][-1] - figures["idle MB"], 1)
    print(f"\nwaves of dropped sessions: {figures}")
    benchmark.extra_info.update({k: v for k, v in figures.items() if not isinstance(v, list)})
    assert figures["dropped"] >= waves * per_wave * 0.9, figures
    assert figures["worst above settled MB"] <= SLACK_MB, figures


def test_a_thousand_connection_attempts_from_one_address(benchmark, tmp_path):
    attempts, at_once = 1000, 100
    figures: dict = {}

    async def attempt(port: int, held: list) -> str:
        try:
            ws = await websockets.connect(f"ws://127.0.0.1:{port}/ws", open_timeout=RESPONSE_TIMEOUT_S,
                                          local_addr=("127.0.0.1", 0))
        except websockets.InvalidStatus:
            return "refused"
        except (OSError, asyncio.TimeoutError, websockets.WebSocketException):
            return "failed"
        held.append(ws)
        with contextlib.suppress(Exception):
            await ws.send(pack(1, {"session_id": None, "page_name": "",
                                   "page": {"route": "/", "width": 412.0, "height": 915.0, "web": True}}))
            await asyncio.wait_for(ws.recv(), RESPONSE_TIMEOUT_S)
            return "session"
        return "closed"

    async def probe(server) -> None:
        figures["settled MB"] = await settled(server)
        peak = [0.0]
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                with contextlib.suppress(OSError, RuntimeError):
                    peak[0] = max(peak[0], rss_mb(server.pid))
                time.sleep(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        held: list = []
        outcomes: dict[str, int] = {}

        async def flood() -> None:
            for start in range(0, attempts, at_once):
                done = await asyncio.gather(*(attempt(server.port, held) for _ in range(min(at_once, attempts - start))))
                for d in done:
                    outcomes[d] = outcomes.get(d, 0) + 1

        async def judge() -> float:
            await asyncio.sleep(1.0)   # the flood under way
            c = FletClient(server.port, Figures(), "judge")
            c.local_addr = ("127.0.0.2", 0)
            t0 = time.perf_counter()
            await c.connect("/")
            took = time.perf_counter() - t0
            await c.close()
            return took

        flooding = asyncio.create_task(flood())
        figures["judge on 127.0.0.2 s"] = round(await judge(), 3)
        await flooding
        figures["during the flood, peak MB"] = peak[0]
        figures["with the flood's sockets open MB"] = rss_mb(server.pid)
        for ws in held:
            with contextlib.suppress(Exception):
                await ws.close()
        stop.set()
        sampler.join(timeout=2)
        figures["attempts"] = attempts
        figures.update(outcomes)

    with served(tmp_path, "flood") as server:
        benchmark.pedantic(lambda: asyncio.run(probe(server)), rounds=1, iterations=1)
    print(f"\n1,000 connection attempts: {figures}")
    benchmark.extra_info.update(figures)
    assert figures["during the flood, peak MB"] < FLOOD_LIMIT_MB, figures
    assert figures["judge on 127.0.0.2 s"] <= JUDGE_LIMIT_S, figures
    # the cap is checked when a websocket is accepted and counted once it has registered: a burst
    # overshoots it by the sockets still registering, at most SESSIONLESS_PER_PEER (repair 6)
    assert figures.get("session", 0) <= MAX_SESSIONS_PER_ADDRESS + SESSIONLESS_PER_PEER, (
        f"the per-address cap did not hold: {figures}")


pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
