"""The served app killed with SIGKILL while judges write to it (issue 46, "proof for the records").

Unlike :mod:`tests.support.faultload` (writer processes calling :class:`handbook.ledger.Ledger`),
this drives ``python -m handbook serve`` itself, over Flet's websocket protocol
(:class:`tests.support.flet_load.FletClient`: no browser), as judges' phones would:

* judge **A** adds records on ``/ledger`` as fast as the screen acknowledges them;
* judge **B** adds records too and revokes each once it is acknowledged, on the player's
  page (``revoke-<id>``, a reason, ``revoke-confirm``);
* judge **C** imports ledger files of :data:`IMPORT_SIZE` records (JSON, ids ``<batch>-<n>``)
  through "Import a file" (the file picker answered with the file's bytes; a file this large is
  imported in a process of its own, :func:`handbook.ledger.isolated.import_isolated`).

Each player name is used once, so a message names exactly one record. A change counts as
*acknowledged* only when the judge's screen said so: "Recorded: <player> — <foul>" (said after
the write returned, handbook/ui/views/ledger.py), "Record revoked: <player>, <foul>",
"Imported <n> records from <file>; …".

:func:`kill_round` starts the server on the data folder (a restart, from the second round on),
lets the judges work, kills the server's whole process group with SIGKILL (half the rounds a
random moment after judge C's import began), then checks the file as the kill left it (valid
JSON? temp files?), starts the server again on the same folder and compares with
:func:`verdict`: every acknowledged record on disk, every acknowledged revocation still there,
each import whole or absent (and whole if acknowledged), and the damage banner on ``/ledger``
exactly when a data file was set aside.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import websockets

from tests.support.faultload import IMPORT_SIZE, import_text
from tests.support.flet_load import EVENT, INVOKE, PATCH, PROPS, RESPONSE_TIMEOUT_S, Figures, FletClient, pack, unpack

#: the foul option the judges choose on the ledger form (an AZRM penalty-table row)
FOUL_OPTION = "Noten Riichi — Chombo 30P"
FOUL = "Noten Riichi"


def foul_option_key(ruleset: str = "azrm") -> str:
    """The ledger form's option key (the penalty row's index) of :data:`FOUL` in ``ruleset``."""
    import handbook

    rows = handbook.default_library().rulesets[ruleset].penalties
    return str(next(r.index for r in rows if r.foul == FOUL))


def _walk(obj: Any, texts: list[str], keys: dict[str, int]) -> None:
    """Every text of a patch into ``texts``, every control with a ``key`` into ``keys`` (its id)."""
    if isinstance(obj, str):
        texts.append(obj)
    elif isinstance(obj, dict):
        if isinstance(obj.get("key"), str) and isinstance(obj.get("_i"), int) and "_c" in obj:
            keys[obj["key"]] = obj["_i"]
        for v in obj.values():
            _walk(v, texts, keys)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _walk(v, texts, keys)


@dataclass
class Acks:
    """What the judges' screens said was done (players of records added, players whose record was
    revoked, import batches), and what was begun."""

    added: set[str] = field(default_factory=set)
    revoked: set[str] = field(default_factory=set)
    revoking: set[str] = field(default_factory=set)   # confirm tapped (killed then: either way)
    imports_started: set[str] = field(default_factory=set)
    imported: set[str] = field(default_factory=set)

    def heard(self, text: str) -> None:
        """Take one text the server sent to a judge's screen."""
        if text.startswith("Recorded: ") and " — " in text:
            self.added.add(text[len("Recorded: "):].rsplit(" — ", 1)[0])
        elif text.startswith("Record revoked: ") and ", " in text:
            self.revoked.add(text[len("Record revoked: "):].rsplit(", ", 1)[0])
        elif text.startswith("Imported ") and " from " in text and text.endswith("already in the ledger."):
            name = text.split(" from ", 1)[1].rsplit("; ", 1)[0]
            self.imported.add(name.removesuffix(".json"))


class Judge(FletClient):
    """A :class:`FletClient` that hands every text of the server's patches to ``acks``, answers
    the file picker with :attr:`file`, and can wait for a key or a text."""

    def __init__(self, port: int, name: str, acks: Acks) -> None:
        super().__init__(port, Figures(), name)
        self.acks = acks
        self.file: tuple[str, bytes] | None = None
        self.texts: list[str] = []

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                msg = unpack(frame)
                if msg is None:
                    continue
                action, body = msg
                if action == INVOKE:
                    result: Any = None
                    if body.get("name") == "pick_files" and self.file is not None:
                        name, data = self.file
                        result = [{"id": 0, "name": name, "size": len(data), "bytes": data}]
                    await self.ws.send(pack(INVOKE, {"control_id": body["control_id"], "call_id": body["call_id"],
                                                     "result": result, "error": None}))
                elif action == PATCH:
                    found: list[str] = []
                    _walk(body, found, self.keys)
                    for text in found:
                        self.acks.heard(text)
                    self.texts.extend(found)
                    self._patched.set()
        except (websockets.ConnectionClosed, OSError):
            pass

    async def until(self, what, timeout: float = RESPONSE_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while not what():
            self._patched.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: not seen in {timeout:.0f} s")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._patched.wait(), min(left, 0.5))

    async def key(self, key: str) -> int:
        await self.until(lambda: key in self.keys)
        return self.keys[key]

    async def set(self, key: str, value: Any, event: str | None = None) -> None:
        target = await self.key(key)
        await self.ws.send(pack(PROPS, {"id": target, "props": {"value": value}}))
        if event:
            await self.ws.send(pack(EVENT, {"target": target, "name": event, "data": value}))

    async def click(self, key: str) -> None:
        await self.ws.send(pack(EVENT, {"target": await self.key(key), "name": "click", "data": None}))

    async def open_form(self) -> None:
        """On ``/ledger``: the foul chosen (once per screen: it stays after a record). The
        dropdown's value is the penalty row's index (its option's key)."""
        target = await self.key("foul")
        value = foul_option_key()
        await self._request("choose foul", pack(PROPS, {"id": target, "props": {"value": value}}),
                            pack(EVENT, {"target": target, "name": "select", "data": value}))

    async def add(self, player: str) -> None:
        """Type ``player``, tap Add record, wait for "Recorded: <player> — …"."""
        await self.set("player-name", player)
        await self.click("add-record")
        await self.until(lambda: player in self.acks.added)

    async def revoke(self, player: str) -> None:
        """On the player's page: Revoke, a reason, Revoke; wait for "Record revoked: <player>, …"."""
        from handbook.ledger.fields import player_key

        await self.navigate("/ledger/" + quote(player_key(player), safe=""))
        await self.until(lambda: any(k.startswith("revoke-") and k not in ("revoke-reason", "revoke-confirm",
                                                                         "revoke-cancel") for k in self.keys))
        button = next(k for k in self.keys if k.startswith("revoke-")
                      and k not in ("revoke-reason", "revoke-confirm", "revoke-cancel"))
        for k in ("revoke-reason", "revoke-confirm"):
            self.keys.pop(k, None)
        await self.click(button)
        await self.set("revoke-reason", "entered for the wrong player", event="change")
        self.acks.revoking.add(player)
        await self.click("revoke-confirm")
        await self.until(lambda: player in self.acks.revoked)
        for k in [k for k in self.keys if k.startswith("revoke-")]:
            del self.keys[k]

    async def import_file(self, batch: str) -> None:
        self.file = (f"{batch}.json", import_text(batch).encode())
        self.acks.imports_started.add(batch)
        await self.click("import")
        await self.until(lambda: batch in self.acks.imported, timeout=120)


async def _adder(port: int, tag: str, acks: Acks, revoke_every: int = 0) -> None:
    judge = Judge(port, tag, acks)
    try:
        await judge.connect("/ledger")
        await judge.open_form()
        mine: list[str] = []
        i = 0
        while True:
            player = f"{tag} {i}"
            await judge.add(player)
            mine.append(player)
            i += 1
            if revoke_every and i % revoke_every == 0:
                await judge.revoke(mine.pop(0))
                await judge.navigate("/ledger")
                await judge.open_form()
    finally:
        await judge.close()


async def _importer(port: int, tag: str, acks: Acks, started: asyncio.Event) -> None:
    judge = Judge(port, tag, acks)
    try:
        await judge.connect("/ledger")
        for k in range(3):
            started.set()
            await judge.import_file(f"{tag}b{k}")
    finally:
        await judge.close()


@dataclass
class Round:
    """One round's figures."""

    mid_import: bool = False
    kill_after_s: float = 0.0
    valid_after_kill: bool = True
    temps_after_kill: int = 0
    errors: list[str] = field(default_factory=list)


MODES = ("import began", "import acknowledged", "revocation acknowledged")


async def _judges(port: int, tag: str, acks: Acks, rng: random.Random, kill, mode: str) -> Round:
    """The three judges on the server at ``port`` until ``kill()``; the judges' failures after the
    kill are expected. The kill comes, once judge A's first record is acknowledged (a loaded
    machine takes seconds to show the form): in a third of the rounds a random moment (0-2.5 s)
    after judge C's import began, in a third a moment after an import was acknowledged (the next
    one under way), else 0-3 s after judge B's first revocation was acknowledged."""
    rnd = Round(mid_import=False)
    started = asyncio.Event()
    before = set(acks.added)
    tasks = [asyncio.create_task(_adder(port, f"{tag}A", acks)),
             asyncio.create_task(_adder(port, f"{tag}B", acks, revoke_every=1)),
             asyncio.create_task(_importer(port, f"{tag}C", acks, started))]

    async def until(what, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while not what() and time.monotonic() < deadline and not all(t.done() for t in tasks):
            await asyncio.sleep(0.05)

    await until(lambda: acks.added - before, 60)
    t0 = time.monotonic()
    if mode == "import began":
        await until(started.is_set, RESPONSE_TIMEOUT_S)
        await asyncio.sleep(rng.uniform(0.0, 2.5))
    elif mode == "import acknowledged":
        await until(lambda: any(b.startswith(f"{tag}C") for b in acks.imported), 180)
        await asyncio.sleep(rng.uniform(0.0, 1.5))
    else:   # once judge B's revocation was acknowledged (its next one may be under way)
        await until(lambda: any(r.startswith(f"{tag}B") for r in acks.revoked), 60)
        await asyncio.sleep(rng.uniform(0.0, 3.0))
    for t in tasks:
        if t.done():   # a judge that stopped before the kill: a failure of the app, reported
            exc = t.exception()
            rnd.errors.append(f"before the kill: {type(exc).__name__}: {exc}"[:300] if exc else "ended early")
    rnd.kill_after_s = time.monotonic() - t0
    mine = {b for b in acks.imports_started if b.startswith(f"{tag}C")}
    rnd.mid_import = bool(mine - acks.imported)   # an import begun and not acknowledged: killed inside it
    kill()
    await asyncio.sleep(0.3)   # what was on the wire before the kill is read
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return rnd


def ledger_file(data_dir: Path) -> Path:
    return data_dir / "ledger.json"


def file_state(path: Path) -> tuple[bool, int]:
    """(``path`` is valid JSON or absent, temp files beside it) as the kill left them."""
    temps = len(list(path.parent.glob(f".{path.name}.*.tmp")))
    if not path.exists():
        return True, temps
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False, temps
    return True, temps


async def banner_shown(port: int) -> bool:
    """Whether ``/ledger`` shows the damage banner (a fresh judge opens it after the restart)."""
    judge = Judge(port, "after-restart", Acks())
    try:
        await judge.connect("/ledger")
        await judge.key("add-record")
        return "damage-banner" in judge.keys
    finally:
        await judge.close()


def verdict(data_dir: Path, acks: Acks) -> dict:
    """The ledger on disk (read as the restarted server reads it) against ``acks``."""
    from handbook.ledger import Ledger
    from handbook.storage import open_db

    ledger = Ledger(open_db(ledger_file(data_dir)))
    records = ledger.records()
    by_player = {r.player: r for r in records}
    ids = {r.id for r in records}
    lost = sorted(acks.added - set(by_player))
    undone = sorted(p for p in acks.revoked if p in by_player and by_player[p].revoked is None)
    partial, imports_lost, whole = [], [], 0
    for batch in sorted(acks.imports_started):
        have = sum(1 for i in range(IMPORT_SIZE) if f"{batch}-{i}" in ids)
        whole += have == IMPORT_SIZE
        if have not in (0, IMPORT_SIZE):
            partial.append((batch, have))
        if batch in acks.imported and have != IMPORT_SIZE:
            imports_lost.append(batch)
    set_aside = sorted(p.name for p in data_dir.glob("ledger.damaged-*"))
    return {"records": len(records), "acknowledged": len(acks.added), "lost": lost,
            "revocations acknowledged": len(acks.revoked), "revocations undone": undone,
            "imports started": len(acks.imports_started), "imports acknowledged": len(acks.imported),
            "imports whole": whole, "partial imports": partial, "acknowledged imports lost": imports_lost,
            "set aside": set_aside, "damages": [d.reason for d in ledger.damages]}


def damaged_restart(folder: Path, log: Path) -> dict:
    """The damage path: ``ledger.json`` cut at 60 % of its bytes (what a disk without an atomic
    rename could leave), the server started on it, ``/ledger`` opened: the file must be set aside
    (never deleted) and the damage banner shown."""
    from tests.support.browser_harness import start_server, stop_server

    path = ledger_file(folder)
    data = path.read_bytes()
    path.write_bytes(data[:int(len(data) * 0.6)])
    server = start_server(folder, log)
    try:
        shown = asyncio.run(banner_shown(server.port))
    finally:
        stop_server(server)
    aside = sorted(folder.glob("ledger.damaged-*"))
    return {"banner": shown, "set aside": [p.name for p in aside],
            "set aside whole": bool(aside) and aside[-1].read_bytes() == data[:int(len(data) * 0.6)]}


def run(data_dir: Path, logs: Path, rounds: int, seed: int = 46, per_folder: int = 5,
        damage: bool = True, modes: tuple[str, ...] = ()) -> dict:
    """``rounds`` kills of the served app with the three judges at work, each followed by a restart
    on the same folder; a fresh folder under ``data_dir`` every ``per_folder`` rounds (the ledger
    grows by the imports: every add rewrites the whole file). With ``damage``, each folder's file
    is then cut short and the server started on it (:func:`damaged_restart`). The figures, summed
    over the folders. ``modes``: when each round's kill comes (:data:`MODES`, in turn); by default
    one of them at random each round."""
    from tests.support.browser_harness import start_server, stop_server

    rng = random.Random(seed)
    figures: dict[str, Any] = {"kills": 0, "mid-import kills": 0, "invalid after kill": 0,
                               "temp files after kill": 0, "banner wrong": [], "judge errors": [],
                               "restart s": [], "acknowledged": 0, "lost": [], "revocations acknowledged": 0,
                               "revocations undone": [], "imports started": 0, "imports acknowledged": 0,
                               "imports whole": 0, "partial imports": [], "acknowledged imports lost": [],
                               "set aside": [], "temp files left": 0, "records at the end": 0,
                               "damaged files": []}
    for block in range(0, rounds, per_folder):
        folder = data_dir / f"folder-{block // per_folder}"
        acks = Acks()
        server = start_server(folder, logs / f"served-faults-{block}.log")
        try:
            for n in range(block, min(rounds, block + per_folder)):
                def kill(pid: int = server.pid) -> None:
                    with contextlib.suppress(ProcessLookupError):
                        os.killpg(pid, signal.SIGKILL)

                mode = modes[n % len(modes)] if modes else rng.choice(MODES)
                rnd = asyncio.run(_judges(server.port, f"k{n}", acks, rng, kill, mode))
                server.proc.wait(timeout=10)
                stop_server(server)   # the group's leftovers and the log file
                figures["kills"] += 1
                figures["mid-import kills"] += rnd.mid_import
                valid, temps = file_state(ledger_file(folder))
                figures["invalid after kill"] += not valid
                figures["temp files after kill"] += temps
                figures["judge errors"] += rnd.errors
                if n == min(rounds, block + per_folder) - 1:
                    break   # the folder's last kill: read as a restarted server reads it, below
                t0 = time.monotonic()
                server = start_server(folder, logs / f"served-faults-{n + 1}.log")
                figures["restart s"].append(time.monotonic() - t0)
                shown = asyncio.run(banner_shown(server.port))
                aside = sorted(p.name for p in folder.glob("ledger.damaged-*"))
                if shown != bool(aside):
                    figures["banner wrong"].append((n, shown, aside))
        finally:
            stop_server(server)
        seen = verdict(folder, acks)
        for k in ("acknowledged", "revocations acknowledged", "imports started", "imports acknowledged",
                  "imports whole"):
            figures[k] += seen[k]
        for k in ("lost", "revocations undone", "partial imports", "acknowledged imports lost", "set aside"):
            figures[k] += seen[k]
        figures["records at the end"] += seen["records"]
        figures["temp files left"] += len(list(folder.glob(".ledger.json.*.tmp")))
        if damage:
            figures["damaged files"].append(damaged_restart(folder, logs / f"served-damage-{block}.log"))
    restart = figures.pop("restart s")
    figures["restart s (max)"] = round(max(restart, default=0.0), 1)
    return figures


def held(figures: dict) -> bool:
    """Whether the records survived every kill: nothing acknowledged lost or undone, every file
    valid, no import half there, the banner where (and only where) a file was set aside. (A judge
    whose screen did not answer within RESPONSE_TIMEOUT_S before the kill is a figure of its own,
    ``judge errors``: slowness, not a lost record.)"""
    return (not figures["lost"] and not figures["revocations undone"] and not figures["partial imports"]
            and not figures["acknowledged imports lost"] and figures["invalid after kill"] == 0
            and not figures["banner wrong"] and figures["temp files left"] == 0
            and all(d["banner"] and d["set aside whole"] for d in figures["damaged files"]))
