"""Where the player ledger lives: TinyDB behind one small adapter.

Two backends, chosen by :func:`open_app_db` from ``sys.platform``:

* :class:`AtomicJSONStorage` — a JSON file, by default ``handbook.paths.data_dir()/ledger.json``
  (``FLET_APP_STORAGE_DATA`` when Flet sets it). Every write goes to a temporary file in the same
  folder, is flushed and fsync'ed, then replaces the old file with ``os.replace`` — a write that
  fails half-way leaves the old file as it was. Writers in several processes (or several browser
  tabs served by one process) are serialised by a ``filelock.FileLock`` beside the file; use
  :func:`transaction` around every read-modify-write so each one re-reads the file under the lock
  and nobody's write is lost.
* :class:`PrefsStorage` — on the web (Pyodide, ``sys.platform == "emscripten"``) the same JSON
  text is kept in Flet's ``SharedPreferences`` (localStorage). Its API is async and TinyDB's is
  sync, so the text is loaded once at start-up into memory and every write is written through
  with ``page.run_task(prefs.set, ...)``.

Nothing is ever deleted: a data file that cannot be read (bad JSON, not TinyDB's shape) is moved
aside as ``<name>.damaged-YYYYMMDD-HHMMSS.json``, the documents that still have the right shape
are kept, and the storage's ``damage`` attribute (a :class:`DamageReport`) says what happened so
the UI can show it. ``handbook.core`` never imports this module (nor tinydb).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import datetime
import json
import os
import sys
import tempfile
import threading
import weakref
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

DEFAULT_FILE = "ledger.json"
PREFS_KEY = "riichi-judge-handbook.ledger"
LOCK_TIMEOUT = 30.0  # seconds a writer waits for another before giving up with an error

Data = dict[str, dict[str, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class DamageReport:
    """A data file (or stored value) that could not be read as it was.

    ``source`` is the file path or preferences key that was damaged; ``moved_to`` where the
    damaged original now is (a file path or a preferences key); ``reason`` what was wrong;
    ``recovered`` how many records were kept; ``dropped`` how many entries could not be kept.
    """

    source: str
    moved_to: str
    reason: str
    recovered: int = 0
    dropped: int = 0

    def message(self) -> str:
        """One English sentence for a banner (the UI translates its own wording)."""
        kept = f"{self.recovered} record(s) recovered" if self.recovered else "started with an empty ledger"
        return (f"The ledger data at {self.source} could not be read ({self.reason}); "
                f"it was moved aside to {self.moved_to} and {kept}.")


def _timestamp(now: datetime.datetime | None = None) -> str:
    return (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")


def check_shape(raw: Any) -> tuple[Data, int, int, list[str]]:
    """Keep what has TinyDB's shape ``{table: {"<int id>": {document}}}``.

    Returns ``(kept data, documents kept, entries dropped, reasons)``; ``reasons`` is empty when
    ``raw`` was entirely well formed.
    """
    if not isinstance(raw, dict):
        return {}, 0, 1, [f"the top level is a JSON {type(raw).__name__}, not an object of tables"]
    kept: Data = {}
    count = dropped = 0
    reasons: list[str] = []
    for table, docs in raw.items():
        if not isinstance(docs, dict):
            dropped += 1
            reasons.append(f"table {table!r} is not an object of documents")
            continue
        good: dict[str, dict[str, Any]] = {}
        for doc_id, doc in docs.items():
            if not (isinstance(doc_id, str) and doc_id.isdigit()) or not isinstance(doc, dict):
                dropped += 1
                reasons.append(f"table {table!r} entry {doc_id!r} is not a document")
                continue
            good[doc_id] = doc
            count += 1
        kept[table] = good
    return kept, count, dropped, reasons


def _reason_text(reasons: list[str]) -> str:
    if len(reasons) <= 2:
        return "; ".join(reasons)
    return f"{reasons[0]}; {reasons[1]}; and {len(reasons) - 2} more"


# --- the file backend ----------------------------------------------------------------------

def _fsync_dir(folder: Path) -> None:
    """Make the rename itself durable (POSIX); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def atomic_write_text(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` atomically: temp file in the same folder, fsync, os.replace.

    If anything fails before the replace, the old file is untouched and the temp file removed.
    """
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _fsync_dir(folder)


def remove_stale_temp_files(path: Path) -> int:
    """Delete the temp files (``.<name>.*.tmp``) a write killed half-way left beside ``path``;
    each is a partial copy the write never put in place. Call it holding the file's lock, so
    that no write in progress can own one. Returns how many were removed."""
    removed = 0
    for tmp in path.parent.glob(f".{path.name}.*.tmp"):
        try:
            tmp.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def damaged_name(path: Path, now: datetime.datetime | None = None) -> Path:
    """``ledger.json`` → ``ledger.damaged-YYYYMMDD-HHMMSS.json`` (``-2``, ``-3``… if taken)."""
    stem = f"{path.stem}.damaged-{_timestamp(now)}"
    candidate = path.with_name(stem + ".json")
    n = 2
    while candidate.exists():
        candidate = path.with_name(f"{stem}-{n}.json")
        n += 1
    return candidate


class AtomicJSONStorage(Storage):
    """TinyDB storage in one JSON file, written atomically and locked across processes.

    ``lock`` is the cross-process ``FileLock`` (``<file>.lock``); :func:`transaction` holds it
    around a read-modify-write, and :meth:`write` takes it too (it is re-entrant). ``damage`` is a
    :class:`DamageReport` when the file had to be moved aside (at start-up or on a later read).
    """

    def __init__(self, path: str | os.PathLike[str], *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        from filelock import FileLock

        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = FileLock(str(self.path) + ".lock", timeout=lock_timeout)
        self.damage: DamageReport | None = None
        with self.lock:
            self.stale_removed = remove_stale_temp_files(self.path)
            self._load_checked()

    # TinyDB's interface ---------------------------------------------------------------------
    def read(self) -> Data | None:
        try:
            text = self.path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            return None
        except (OSError, ValueError):  # unreadable or not UTF-8 now: the checked path says why
            with self.lock:
                return self._load_checked()
        if not text.strip():
            return None
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):
            # damaged after start-up (someone edited the file): set it aside, keep going
            with self.lock:
                return self._load_checked()
        data, _, dropped, _ = check_shape(raw)
        if dropped:
            with self.lock:
                return self._load_checked()
        return data

    def write(self, data: Data) -> None:
        text = json.dumps(data, ensure_ascii=False, sort_keys=True)
        with self.lock:
            atomic_write_text(self.path, text)

    # start-up check ---------------------------------------------------------------------------
    def _load_checked(self) -> Data | None:
        """Read the file under the lock; move it aside if it is damaged (keeping what is good)."""
        try:
            raw_bytes = self.path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            return self._quarantine(f"it could not be read: {exc.strerror or exc}", {}, 0, 0)
        if not raw_bytes.strip():
            return None
        try:
            raw = json.loads(raw_bytes.decode("utf-8-sig"))  # a BOM some editors add is fine
        except UnicodeDecodeError as exc:
            return self._quarantine(f"it is not UTF-8 text (byte {exc.start})", {}, 0, 1)
        except json.JSONDecodeError as exc:
            return self._quarantine(f"bad JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}",
                                    {}, 0, 1)
        except RecursionError:
            return self._quarantine("it is nested too deeply to be a ledger", {}, 0, 1)
        except ValueError as exc:  # e.g. a number of more than 4,300 digits
            return self._quarantine(f"it holds a value that cannot be read ({exc})", {}, 0, 1)
        data, kept, dropped, reasons = check_shape(raw)
        if dropped:
            return self._quarantine(_reason_text(reasons), data, kept, dropped)
        return data

    def _quarantine(self, reason: str, data: Data, kept: int, dropped: int) -> Data | None:
        target = damaged_name(self.path)
        os.replace(self.path, target)  # moved, never deleted
        _fsync_dir(self.path.parent)
        if data:
            atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, sort_keys=True))
        self.damage = DamageReport(str(self.path), str(target), reason, kept, dropped)
        return data or None


def default_path() -> Path:
    """``handbook.paths.data_dir()/ledger.json``."""
    from handbook.paths import data_dir

    return data_dir() / DEFAULT_FILE


def open_db(path: str | os.PathLike[str] | None = None) -> TinyDB:
    """Open the ledger database in a JSON file (default :func:`default_path`).

    A damaged file is moved aside first; ``db.storage.damage`` then holds the
    :class:`DamageReport` (``None`` when all was well).
    """
    return TinyDB(str(path or default_path()), storage=AtomicJSONStorage)


# --- the web backend -----------------------------------------------------------------------

class PrefsStorage(Storage):
    """TinyDB storage kept in Flet's ``SharedPreferences`` under one key (the web build).

    Build it with :meth:`load` (async: it reads the stored text once). ``read`` answers from
    memory; ``write`` updates memory and schedules ``prefs.set`` through ``run_task`` (normally
    ``page.run_task``); writes are sent in order and each sends the latest text.
    """

    def __init__(self, prefs: Any, key: str, data: Data | None,
                 run_task: Callable[..., Any], damage: DamageReport | None = None) -> None:
        super().__init__()
        self.prefs = prefs
        self.key = key
        self._data = data
        self._text = json.dumps(data, ensure_ascii=False) if data is not None else None
        self._run_task = run_task
        self._send_lock: asyncio.Lock | None = None
        self.damage = damage
        self.lock = threading.RLock()

    @classmethod
    async def load(cls, prefs: Any, run_task: Callable[..., Any], key: str = PREFS_KEY) -> "PrefsStorage":
        raw = await prefs.get(key)
        damage = None
        data: Data | None = None
        if raw is not None and raw != "":
            reason, kept, dropped = "", 0, 0
            if not isinstance(raw, str):
                reason, dropped = f"the stored value is a {type(raw).__name__}, not JSON text", 1
            else:
                try:
                    parsed = json.loads(raw)
                except ValueError as exc:
                    reason, dropped = f"bad JSON: {exc}", 1
                else:
                    data, kept, dropped, reasons = check_shape(parsed)
                    reason = _reason_text(reasons)
            if dropped:
                target = f"{key}.damaged-{_timestamp()}"
                await prefs.set(target, raw if isinstance(raw, str) else json.dumps(raw))
                damage = DamageReport(key, target, reason, kept, dropped)
                if data:
                    await prefs.set(key, json.dumps(data, ensure_ascii=False))
                else:
                    await prefs.remove(key)
                    data = None
        return cls(prefs, key, data or None, run_task, damage)

    def read(self) -> Data | None:
        return copy.deepcopy(self._data) if self._data is not None else None

    def write(self, data: Data) -> None:
        self._text = json.dumps(data, ensure_ascii=False)
        self._data = json.loads(self._text)
        self._run_task(self._send)

    async def _send(self) -> None:
        if self._send_lock is None:
            self._send_lock = asyncio.Lock()
        async with self._send_lock:
            if self._text is not None:
                await self.prefs.set(self.key, self._text)


async def open_prefs_db(prefs: Any, run_task: Callable[..., Awaitable[Any]], key: str = PREFS_KEY) -> TinyDB:
    """Open the ledger database kept in ``prefs`` (an ``ft.SharedPreferences``)."""
    storage = await PrefsStorage.load(prefs, run_task, key)
    return TinyDB(storage=_Given(storage))


class _Given:
    """TinyDB instantiates its storage class itself: hand it an already built instance."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage

    def __call__(self, *args: Any, **kwargs: Any) -> Storage:
        return self._storage


def is_web() -> bool:
    """True in the browser build (Pyodide)."""
    return sys.platform == "emscripten"


async def open_app_db(page: Any = None, path: str | os.PathLike[str] | None = None) -> TinyDB:
    """The app's ledger database: SharedPreferences in Pyodide, else the JSON file."""
    if is_web():
        import flet as ft

        return await open_prefs_db(ft.SharedPreferences(), page.run_task)
    return open_db(path)


# --- transactions --------------------------------------------------------------------------

#: one lock per storage object, kept only while the storage lives (an ``id()`` could be reused)
_thread_locks: "weakref.WeakKeyDictionary[Storage, threading.RLock]" = weakref.WeakKeyDictionary()
_thread_locks_guard = threading.Lock()


def _thread_lock(db: TinyDB) -> threading.RLock:
    with _thread_locks_guard:
        return _thread_locks.setdefault(db.storage, threading.RLock())


def forget_cache(db: TinyDB) -> None:
    """Drop what TinyDB remembers between calls (query results, the next document id), so the
    next operation reads the stored data again — another process may have written since."""
    for table in list(db._tables.values()):  # noqa: SLF001 - TinyDB has no public way
        table.clear_cache()
        table._next_id = None  # noqa: SLF001


@contextlib.contextmanager
def transaction(db: TinyDB) -> Iterator[TinyDB]:
    """Hold the storage's lock (threads and processes) around a read-modify-write.

    Inside, TinyDB's caches are dropped first, so every operation re-reads the stored data.
    """
    storage = db.storage
    with _thread_lock(db):
        lock = getattr(storage, "lock", None)
        with (lock if lock is not None else contextlib.nullcontext()):
            forget_cache(db)
            try:
                yield db
            finally:
                forget_cache(db)


def damage_of(db: TinyDB) -> DamageReport | None:
    """The :class:`DamageReport` of ``db``'s storage, if its data had to be moved aside."""
    return getattr(db.storage, "damage", None)
