"""A large ledger import in a process of its own, so the served app's other sessions keep answering.

Checking and storing 60,000 records is seconds of pure Python; in a thread of the server's process
it holds the interpreter's lock and every other session waits with it. :func:`import_isolated`
therefore runs an import of a file over :data:`PROCESS_IMPORT_BYTES` in a child Python
(``python -m handbook.ledger.isolated``), hands it the file over a pipe and takes back the ledger's
records as it left them, so the next screen does not parse the file again.

The child runs on Python's own allocator: the server runs on the C library's
(``PYTHONMALLOC=malloc``, :func:`handbook.__main__.system_allocator_command`) so that memory freed
by dropped sessions goes back to the system, but an import allocates millions of small objects
and pymalloc does that faster (``docs/benchmarks.md``). The child's
environment is therefore the server's without ``PYTHONMALLOC`` (:func:`child_environ`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from operator import attrgetter

from handbook.ledger import MAX_IMPORT_BYTES, ImportResult, Ledger, Player, Record

#: an import of a file larger than this (bytes) runs in a process of its own in the served app
#: (:func:`import_isolated`); smaller ones take well under a second in a worker thread
PROCESS_IMPORT_BYTES = 256 * 1024
#: how much lower the priority of an import's own process is (``os.nice``; 0 to 19)
IMPORT_NICENESS = 10
#: records rebuilt between two turns of the server's event loop (:func:`import_isolated`): about
#: 50 ms each on the server's allocator; with 2,000 the other sessions' turns in between added
#: a second to a season's import
REBUILD_CHUNK = 8000


def child_environ(environ: Mapping[str, str]) -> dict[str, str]:
    """The environment of an import's process: ``environ`` without ``PYTHONMALLOC`` (the child
    runs on Python's own allocator, see the module's docstring), and with the folder that holds
    the ``handbook`` package first on ``PYTHONPATH``, so the child imports the same code
    whatever the working folder."""
    env = {k: v for k, v in environ.items() if k != "PYTHONMALLOC"}
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    return env


#: a record's (a player's) fields as a tuple, in the order its constructor takes them
_record_fields = attrgetter(*Record.__slots__)
_player_fields = attrgetter(*Player.__slots__)

#: what an import's process hands back: the result, and the ledger as the import left it
#: (``(version, [(doc id, record fields)], unreadable, [player fields])``) or ``None``
Handed = tuple[ImportResult, "tuple[object, list, list, list] | None"]


def run_import(path: str, data: str | bytes, fmt: str | None, name: str) -> Handed:
    """In the import's own process: the import, and the records of the ledger as it left them,
    with its players. The process runs at a lower priority (:data:`IMPORT_NICENESS`): the judges
    using the app are answered first, the import takes what is left of the processor."""
    from handbook.storage import open_db

    if hasattr(os, "nice"):
        with contextlib.suppress(OSError):
            os.nice(IMPORT_NICENESS)
    ledger = Ledger(open_db(path))
    result = ledger.import_text(data, fmt, name=name)  # type: ignore[arg-type]
    snap = ledger._snap  # noqa: SLF001
    # records as plain tuples: unpickled in C on the server's side, where a dataclass's own
    # unpickling would hold the interpreter for seconds while other sessions wait
    result = ImportResult(result.added, result.skipped, ())
    if snap is None:
        return result, None
    return result, (snap.version, [(i, _record_fields(r)) for i, r in snap.pairs], snap.unreadable,
                    [_player_fields(p) for p in snap.players()])


async def _in_child(path: str, data: str | bytes, fmt: str | None, name: str) -> Handed:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "handbook.ledger.isolated",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        env=child_environ(os.environ))
    out, err = await proc.communicate(pickle.dumps((path, data, fmt, name), pickle.HIGHEST_PROTOCOL))
    if proc.returncode != 0 or not out:
        raise RuntimeError(f"the ledger import's process ended with status {proc.returncode}: "
                           f"{err.decode(errors='replace').strip()[-2000:]}")
    ok, value = pickle.loads(out)  # noqa: S301 - our own child, over our own pipe
    if not ok:
        raise value
    return value


async def import_isolated(ledger: Ledger, data: str | bytes, fmt: Literal["json", "csv"] | None = None,
                          name: str = "") -> ImportResult:
    """:meth:`Ledger.import_text` without holding up the served app's other sessions.

    A file over :data:`PROCESS_IMPORT_BYTES` is imported in a process of its own (see the
    module's docstring; the data file's lock keeps it safe against the server's own writes),
    and the records it stored are handed back. Smaller files, the browser build (Pyodide) and
    storages that are not a file are imported in a worker thread
    (:func:`handbook.storage.off_loop`). Raises what :meth:`Ledger.import_text` raises, and
    ``RuntimeError`` when the import's process dies. (From a process of its own, ``records``
    of the result is empty when the ledger changed meanwhile.)"""
    from handbook.storage import is_web, off_loop

    size = len(data)
    path = getattr(ledger.db.storage, "path", None)
    if is_web() or path is None or size <= PROCESS_IMPORT_BYTES or size > MAX_IMPORT_BYTES * 4:
        return await off_loop(ledger.import_text, data, fmt, name)
    ledger._snapshot()  # noqa: SLF001 - the records as they stand, for the readers meanwhile
    ledger._importing += 1  # noqa: SLF001
    try:
        result, snap = await _in_child(str(path), data, fmt, name)
        if snap is not None:
            version, rows, unreadable, players = snap
            pairs: list[tuple[int, Record]] = []
            for start in range(0, len(rows), REBUILD_CHUNK):  # other sessions answered in between
                pairs.extend((i, Record(*fields)) for i, fields in rows[start:start + REBUILD_CHUNK])
                await asyncio.sleep(0)
            # the players too: on the server's allocator, listing 9,000 of them took 1.6 s
            ledger.adopt(version, pairs, unreadable, [Player(*fields) for fields in players])
            # the records the import added are the last ones it stored
            result = ImportResult(result.added, result.skipped,
                                  tuple(r for _, r in pairs[len(pairs) - result.added:]))
    finally:
        ledger._importing -= 1  # noqa: SLF001
    return result


def main() -> int:
    """The import's process: reads ``(path, data, fmt, name)`` pickled on stdin, writes
    ``(True, result)`` or ``(False, exception)`` pickled on stdout."""
    out = sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but the answer on the pipe
    path, data, fmt, name = pickle.load(sys.stdin.buffer)  # noqa: S301 - from the server that started us
    try:
        answer: tuple[bool, object] = (True, run_import(path, data, fmt, name))
    except Exception as exc:  # noqa: BLE001 - handed to the server, which raises it
        answer = (False, exc)
    try:
        blob = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - an exception that does not pickle
        blob = pickle.dumps((False, RuntimeError(str(answer[1]))), pickle.HIGHEST_PROTOCOL)
    out.write(blob)
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
