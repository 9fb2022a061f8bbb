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
the UI can show it. The report is kept with the data until someone acknowledges it
(:func:`acknowledge_damage`): in ``<name>.notice.json`` beside the file (written *before* the
file is moved aside), or under ``<key>.notice`` in the preferences. When the disk is full:

* the notice cannot be written → the damaged file stays where it is (the next start finds it
  again) and the records that could be recovered are served from memory;
* the notice is written and the file moved aside, but the recovered records cannot be written
  back → the notice says so (``unsaved``); the next start recovers them again from the file
  that was moved aside, and the first write that succeeds puts them back in the data file.

``handbook.core`` never imports this module (nor tinydb).
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
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from tinydb import TinyDB
from tinydb.storages import Storage

DEFAULT_FILE = "ledger.json"
PREFS_KEY = "riichi-judge-handbook.ledger"
NOTICE_FORMAT = "riichi-judge-handbook/damage-notice"
NOT_WRITTEN_YET = "not written back yet"
LOCK_TIMEOUT = 30.0  # seconds a writer waits for another before giving up with an error

Data = dict[str, dict[str, dict[str, Any]]]


@dataclass(frozen=True, slots=True)
class DamageReport:
    """A data file (or stored value) that could not be read as it was.

    ``source`` is the file path or preferences key that was damaged; ``moved_to`` where the
    damaged original now is (a file path or a preferences key; ``source`` itself when it could
    not be moved); ``reason`` what was wrong; ``recovered`` how many records were kept;
    ``dropped`` how many entries could not be kept; ``when`` the local time it was found (ISO
    8601); ``unsaved`` why the recovery is not finished yet — the damaged file could not be
    moved aside or the recovered records could not be written back (e.g. "No space left on
    device") — and empty once it is.
    """

    source: str
    moved_to: str
    reason: str
    recovered: int = 0
    dropped: int = 0
    when: str = ""
    unsaved: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: Any) -> "DamageReport | None":
        """A report read back from a notice; ``None`` for anything that is not one."""
        if not isinstance(raw, dict):
            return None
        names = {f.name: f.type for f in fields(cls)}
        values = {k: v for k, v in raw.items() if k in names}
        if not all(isinstance(values.get(k), str) for k in ("source", "moved_to", "reason")):
            return None
        for k in ("recovered", "dropped"):
            if not isinstance(values.get(k, 0), int) or isinstance(values.get(k), bool):
                return None
        for k in ("when", "unsaved"):
            if not isinstance(values.get(k, ""), str):
                return None
        return cls(**values)

    def message(self) -> str:
        """One English sentence for a banner (the UI translates its own wording)."""
        kept = f"{self.recovered} record(s) recovered" if self.recovered else "started with an empty ledger"
        return (f"The ledger data at {self.source} could not be read ({self.reason}); "
                f"it was moved aside to {self.moved_to} and {kept}.")


def _timestamp(now: datetime.datetime | None = None) -> str:
    return (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")


def _now_iso() -> str:
    return datetime.datetime.now().astimezone().replace(microsecond=0).isoformat()


def notices_text(reports: list[DamageReport]) -> str:
    """The JSON text of a damage notice holding ``reports``."""
    return json.dumps({"format": NOTICE_FORMAT, "version": 1,
                       "notices": [r.to_json() for r in reports]}, ensure_ascii=False, indent=1)


def parse_notices(text: Any) -> list[DamageReport]:
    """The reports of a damage notice's text; an unreadable notice gives none."""
    try:
        raw = json.loads(text) if isinstance(text, (str, bytes)) else None
    except (ValueError, RecursionError):
        return []
    if not isinstance(raw, dict) or raw.get("format") != NOTICE_FORMAT:
        return []
    items = raw.get("notices")
    out = [DamageReport.from_json(r) for r in items] if isinstance(items, list) else []
    return [r for r in out if r is not None]


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
    :class:`DamageReport` when the file had to be moved aside (at start-up or on a later read, or
    at an earlier start and not yet acknowledged); ``damages`` all of them, oldest first. They
    are kept in ``notice_path`` (``<stem>.notice.json``) until :meth:`acknowledge_damage`.
    """

    def __init__(self, path: str | os.PathLike[str], *, lock_timeout: float = LOCK_TIMEOUT) -> None:
        from filelock import FileLock

        super().__init__()
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.notice_path = self.path.with_name(self.path.stem + ".notice.json")
        self.lock = FileLock(str(self.path) + ".lock", timeout=lock_timeout)
        self._notices: list[DamageReport] = []  # kept in notice_path
        self._unkept: list[DamageReport] = []  # the notice itself could not be written
        #: records recovered from a damaged file that are not in the data file yet (disk full)
        self._recovered: Data | None = None
        self._unmoved = False  # the damaged file is still at self.path
        self._pending_report: DamageReport | None = None
        with self.lock:
            self.stale_removed = remove_stale_temp_files(self.path)
            self._notices = self._read_notices()
            self._resume_recovery()
            self._load_checked()

    # the damage notice ------------------------------------------------------------------------
    @property
    def damages(self) -> list[DamageReport]:
        """Every unacknowledged damage report, oldest first."""
        return [*self._notices, *self._unkept]

    @property
    def damage(self) -> DamageReport | None:
        """The latest unacknowledged damage report, or ``None``."""
        found = self.damages
        return found[-1] if found else None

    @damage.setter
    def damage(self, report: DamageReport | None) -> None:
        if report is None:
            self.acknowledge_damage()
        else:
            self._unkept.append(report)

    def acknowledge_damage(self) -> None:
        """The judge has read the reports: forget them (the notice file is removed). A recovery
        that is not finished (``unsaved``) stays, and so does its report."""
        with self.lock:
            self._unkept = [r for r in self._unkept if r.unsaved]
            keep = [r for r in self._notices if r.unsaved]
            try:
                if keep:
                    atomic_write_text(self.notice_path, notices_text(keep))
                else:
                    self.notice_path.unlink(missing_ok=True)
            except OSError:
                return  # still shown; acknowledged again later
            self._notices = keep

    def _read_notices(self) -> list[DamageReport]:
        try:
            return parse_notices(self.notice_path.read_bytes())
        except OSError:
            return []

    def _save_notices(self, reports: list[DamageReport]) -> None:
        atomic_write_text(self.notice_path, notices_text(reports))
        self._notices = list(reports)

    def _resume_recovery(self) -> None:
        """An earlier start moved a damaged file aside but could not write the recovered records
        back (disk full): recover them again from the moved file, and write them if possible."""
        pending = [r for r in self._notices if r.unsaved]
        if not pending:
            return
        if self.path.exists():  # written after all (only the notice was not updated)
            self._finish_notices()
            return
        report = pending[-1]
        try:
            raw = json.loads(Path(report.moved_to).read_bytes().decode("utf-8-sig"))
        except (OSError, ValueError, RecursionError):
            raw = None
        data = check_shape(raw)[0] if raw is not None else {}
        if not any(data.values()):
            self._finish_notices()  # nothing left to write back
            return
        self._recovered = data
        self._write_recovered(data)

    def _write_recovered(self, data: Data) -> None:
        """Write recovered records into the data file; on an error keep serving them from memory
        and note why in the report."""
        try:
            atomic_write_text(self.path, json.dumps(data, ensure_ascii=False, sort_keys=True))
        except OSError as exc:
            why = exc.strerror or str(exc)
            self._notices = [replace(r, unsaved=why) if r.unsaved else r for r in self._notices]
            with contextlib.suppress(OSError):
                self._save_notices(self._notices)
            return
        self._recovered = None
        self._finish_notices()

    def _finish_notices(self) -> None:
        self._recovered = None
        if any(r.unsaved for r in self._notices):
            self._notices = [replace(r, unsaved="") for r in self._notices]
            with contextlib.suppress(OSError):  # a stale "unsaved" only matters without the file
                self._save_notices(self._notices)

    def version(self) -> tuple[int, int, int] | None:
        """Which version of the data file :meth:`read` would give: ``(inode, mtime in ns,
        size)``. Every write replaces the file (a new inode, a new time), so a reader may keep
        what it parsed while this stays the same. ``None`` while the data is served from memory
        (a recovery waiting for disk space) or the file cannot be looked at: read it again."""
        if self._recovered is not None or self._unmoved:
            return None
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return (0, 0, -1)
        except OSError:
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size)

    # TinyDB's interface ---------------------------------------------------------------------
    def read(self) -> Data | None:
        if self._recovered is not None:  # not in the data file yet (disk full): from memory
            return copy.deepcopy(self._recovered)
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
            if self._unmoved:  # the damaged original must be moved aside before anything replaces it
                self._move_aside()
            atomic_write_text(self.path, text)
            if self._recovered is not None:  # the recovered records are in the file now
                self._finish_notices()

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
        """Move the damaged file aside (never delete it), keep a notice of it, write back what
        could be recovered. Raises nothing for a full disk: what cannot be written yet is
        served from memory and finished later (see the module's docstring)."""
        report = DamageReport(str(self.path), str(self.path), reason, kept, dropped, when=_now_iso(),
                              unsaved=NOT_WRITTEN_YET)
        self._recovered = data
        self._unmoved = True
        self._pending_report = report
        try:
            self._move_aside()
        except OSError:
            return data or None  # the damaged file stays where it is, reported from memory
        if data:
            self._write_recovered(data)
        else:
            self._finish_notices()
        return data or None

    def _move_aside(self) -> None:
        """The notice first (so that any later start knows), then the rename. ``OSError`` when
        the notice cannot be written: then nothing was moved and the report is kept in memory."""
        report = self._pending_report
        assert report is not None
        if report in self._unkept:
            self._unkept.remove(report)
        target = damaged_name(self.path)
        try:
            self._save_notices([*self._notices, replace(report, moved_to=str(target))])
        except OSError as exc:
            self._pending_report = replace(report, unsaved=exc.strerror or str(exc))
            self._unkept.append(self._pending_report)
            raise
        os.replace(self.path, target)  # moved, never deleted
        _fsync_dir(self.path.parent)
        self._unmoved = False


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
    ``page.run_task``); writes are sent in order and each sends the latest text. Damage reports
    are kept under ``<key>.notice`` until :meth:`acknowledge_damage`.
    """

    def __init__(self, prefs: Any, key: str, data: Data | None,
                 run_task: Callable[..., Any], damage: DamageReport | None = None,
                 notices: list[DamageReport] | None = None) -> None:
        super().__init__()
        self.prefs = prefs
        self.key = key
        self.notice_key = key + ".notice"
        self._data = data
        self._text = json.dumps(data, ensure_ascii=False) if data is not None else None
        self._run_task = run_task
        self._writes = 0
        self._send_lock: asyncio.Lock | None = None
        self._notices: list[DamageReport] = list(notices or [])
        if damage is not None and damage not in self._notices:
            self._notices.append(damage)
        self.lock = threading.RLock()

    @property
    def damages(self) -> list[DamageReport]:
        return list(self._notices)

    @property
    def damage(self) -> DamageReport | None:
        return self._notices[-1] if self._notices else None

    @damage.setter
    def damage(self, report: DamageReport | None) -> None:
        if report is None:
            self.acknowledge_damage()
        else:
            self._notices.append(report)

    def acknowledge_damage(self) -> None:
        """Forget the reports here and in the preferences."""
        self._notices = []

        async def forget() -> None:
            with contextlib.suppress(Exception):
                await self.prefs.remove(self.notice_key)

        self._run_task(forget)

    @classmethod
    async def load(cls, prefs: Any, run_task: Callable[..., Any], key: str = PREFS_KEY) -> "PrefsStorage":
        raw = await prefs.get(key)
        damage = None
        notices = parse_notices(await prefs.get(key + ".notice"))
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
                damage = DamageReport(key, target, reason, kept, dropped, when=_now_iso())
                await prefs.set(key + ".notice", notices_text([*notices, damage]))  # first
                await prefs.set(target, raw if isinstance(raw, str) else json.dumps(raw))
                if data:
                    await prefs.set(key, json.dumps(data, ensure_ascii=False))
                else:
                    await prefs.remove(key)
                    data = None
        return cls(prefs, key, data or None, run_task, damage, notices)

    def version(self) -> int:
        """How many writes this storage has taken (see :meth:`AtomicJSONStorage.version`)."""
        return self._writes

    def read(self) -> Data | None:
        return copy.deepcopy(self._data) if self._data is not None else None

    def write(self, data: Data) -> None:
        self._writes += 1
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


async def off_loop(fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """Run ``fn(*args, **kwargs)`` — a ledger write, an import, a read of a large file — in a
    worker thread (``asyncio.to_thread``) and return its result (or raise its exception), so that
    the served app's event loop, shared by every browser session, keeps answering the others
    meanwhile. In Pyodide (no threads; the storage is in memory there) it is called directly."""
    if is_web():
        return fn(*args, **kwargs)
    return await asyncio.to_thread(fn, *args, **kwargs)


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


def data_version(db: TinyDB) -> object | None:
    """A value that changes whenever ``db``'s stored data may have changed (in this process or
    another), for a reader that keeps what it parsed: equal values mean the same data. ``None``
    when the storage cannot tell: read again."""
    version = getattr(db.storage, "version", None)
    return version() if callable(version) else None


def damage_of(db: TinyDB) -> DamageReport | None:
    """The :class:`DamageReport` of ``db``'s storage, if its data had to be moved aside."""
    return getattr(db.storage, "damage", None)


def damages_of(db: TinyDB) -> list[DamageReport]:
    """Every unacknowledged :class:`DamageReport` of ``db``'s storage, oldest first (they survive
    a restart until :func:`acknowledge_damage`)."""
    found = getattr(db.storage, "damages", None)
    if found is None:
        one = damage_of(db)
        return [one] if one is not None else []
    return list(found)


def acknowledge_damage(db: TinyDB) -> None:
    """The reports have been read: stop keeping them (a recovery still waiting for disk space
    stays reported)."""
    ack = getattr(db.storage, "acknowledge_damage", None)
    if ack is not None:
        ack()
    elif hasattr(db.storage, "damage"):
        db.storage.damage = None
