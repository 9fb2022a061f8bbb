"""The study store: progress, bookmarks and recent lookups, kept on the device.

* **What it keeps**: one progress record per card id (:class:`~handbook.study.scheduler.Progress`,
  what :func:`handbook.study.scheduler.answer` returns), bookmarks and recent lookups
  (:class:`Entry`: a rule section, a penalty foul or a glossary term), and export/import of them.
  :class:`StudyStore` asks :mod:`handbook.study.scheduler` what an answer does and which card
  comes next, and never computes an interval itself.
* **Storage** is the ledger's (:mod:`handbook.storage`) in a file or key of its own: the TinyDB
  file ``data_dir()/study.json`` in the served app, the SharedPreferences key
  ``riichi-judge-handbook.study`` in the browser build. Tables: ``progress`` (one document per card
  id), ``bookmarks`` and ``recent``.
* **Bad input** loses nothing: a progress document that does not have the expected shape is
  skipped and named in :attr:`StudyStore.problems` (the deck goes on); a card or entry that left
  the content is not shown or counted, and its stored record is left as it is (a later release
  that brings the entry back finds its progress).

Times are timezone-aware UTC ``datetime`` (fsrs requires it); "today" is the device's local day.
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from fsrs import Rating, Scheduler

from handbook.core.load import default_library
from handbook.core.model import Hit, Library
from handbook.paths import data_dir
from handbook.storage import open_db, transaction
from handbook.study import scheduler as sched
from handbook.study.deck import Card
from handbook.study.scheduler import ISO_SCHEMA, Counts, Progress, aware_utc, rating_of, utcnow

if TYPE_CHECKING:  # pragma: no cover
    from tinydb import TinyDB

T = TypeVar("T")

STUDY_FILE = "study.json"
PREFS_KEY = "riichi-judge-handbook.study"
EXPORT_FORMAT = "riichi-judge-handbook/study"
EXPORT_VERSION = 1
#: entries kept in the recent list (the search page shows them while its box is empty)
RECENT_KEEP = 20
ENTRY_KINDS = ("rule", "penalty", "term")
#: the largest study file an import reads (bytes; an export of every card of every deck is a
#: few hundred kB). Larger files are refused before they are parsed.
MAX_IMPORT_BYTES = 2 * 1024 * 1024

ENTRY_SCHEMA = {
    "type": "object",
    "required": ["kind", "ref", "at"],
    "properties": {
        "kind": {"enum": list(ENTRY_KINDS)},
        "ruleset": {"type": ["string", "null"], "maxLength": 100},
        "ref": {"type": "string", "minLength": 1, "maxLength": 300},
        "at": ISO_SCHEMA,
    },
}


@functools.cache
def _entry_check():
    """The compiled check of a bookmark or recent entry (compiled on first use)."""
    import fastjsonschema

    return fastjsonschema.compile(ENTRY_SCHEMA)


# ------------------------------------------------------------------ records


@dataclass(frozen=True, slots=True)
class Entry:
    """A bookmarked or recently opened entry: ``kind`` "rule" (``ref`` a section ref), "penalty"
    (``ref`` a foul id) or "term" (``ref`` a term id, ``ruleset`` ``None``); ``at`` when."""

    kind: str
    ruleset: str | None
    ref: str
    at: datetime.datetime | None = None

    @property
    def key(self) -> tuple[str, str | None, str]:
        return (self.kind, self.ruleset, self.ref)

    @property
    def route(self) -> str:
        """The screen of this entry, the same as a search result's (:attr:`Hit.route`)."""
        return Hit(self.kind, self.ruleset, self.ref, "").route  # type: ignore[arg-type]

    def title(self, library: Library) -> str | None:
        """What a list shows ("AZRM §2.4 Wrongly revealing tiles"); ``None`` when the entry left
        the content."""
        if self.kind == "term":
            try:
                t = library.term(self.ref)
            except KeyError:
                return None
            return f"{t.term} · {t.japanese}" if t.japanese else t.term
        rs = library.rulesets.get(self.ruleset or "")
        if rs is None:
            return None
        if self.kind == "rule":
            if not rs.has_section(self.ref):
                return None
            return f"{rs.short} §{self.ref} {rs.section(self.ref).title}"
        rows = rs.rows(self.ref)
        return f"{rs.short}: {rows[0].foul}" if rows else None

    def to_doc(self) -> dict[str, Any]:
        return {"kind": self.kind, "ruleset": self.ruleset, "ref": self.ref,
                "at": (self.at or utcnow()).isoformat()}

    @classmethod
    def from_doc(cls, doc: Any) -> "Entry":
        from fastjsonschema import JsonSchemaException

        try:
            _entry_check()(doc)
            at = datetime.datetime.fromisoformat(doc["at"])
        except JsonSchemaException as exc:
            raise ValueError(exc.message) from None
        if at.tzinfo is None:
            raise ValueError("the date has no time zone")
        return cls(doc["kind"], doc.get("ruleset"), doc["ref"], at)


@dataclass
class ImportResult:
    """What :meth:`StudyStore.import_json` did: cards ``added``, ``updated`` (the file's answer
    was newer), ``kept`` (ours was as new or newer), ``bookmarks`` added, and ``skipped``
    (one reason per record that could not be read)."""

    added: int = 0
    updated: int = 0
    kept: int = 0
    bookmarks: int = 0
    skipped: list[str] = field(default_factory=list)


class StudyImportError(ValueError):
    """The file is not a study-progress export (nothing was imported)."""


# ------------------------------------------------------------------ the store


class StudyStore:
    """Progress of every card, bookmarks and recent lookups in one TinyDB database.

    ``scheduler`` is the ``fsrs.Scheduler`` to use (default: fsrs's own defaults — desired
    retention 0.9, learning steps 1 and 10 minutes, interval fuzzing on).
    """

    def __init__(self, db: "TinyDB", library: Library | None = None, *,
                 scheduler: Scheduler | None = None) -> None:
        if library is None:
            library = default_library()
        self.db = db
        self.library = library
        self.scheduler = scheduler or Scheduler()
        #: one sentence per stored record that was skipped because it could not be read
        self.problems: list[str] = []

    # ----------------------------------------------------------- progress
    def progress(self) -> dict[str, Progress]:
        """Every readable progress record by card id; unreadable ones are skipped and reported in
        :attr:`problems`."""
        out: dict[str, Progress] = {}
        problems: list[str] = []
        for doc in self.db.table("progress").all():
            try:
                p = Progress.from_doc(dict(doc))
            except ValueError as exc:
                card = doc.get("card") if isinstance(doc, dict) else None
                problems.append(f"progress record {doc.doc_id} ({card or 'no card id'}): {exc}")
                continue
            out[p.card] = p
        self.problems = problems
        return out

    def review(self, card: Card | str, rating: Rating | int | str, *,
               now: datetime.datetime | None = None) -> Progress:
        """Record an answer: :func:`handbook.study.scheduler.answer` schedules the card from its
        stored state (a new card starts as fsrs's new card, due now) and the result is stored. Returns the new :class:`Progress`.

        Raises ``ValueError`` for a rating other than Again/Hard/Good/Easy (or 1–4) or a naive
        ``now``."""
        card_id = card.id if isinstance(card, Card) else str(card)
        r = rating_of(rating)
        when = aware_utc(now)
        with transaction(self.db) as db:
            table = db.table("progress")
            docs = [d for d in table.all() if isinstance(d, dict) and d.get("card") == card_id]
            old: Progress | None = None
            for d in docs:
                try:
                    old = Progress.from_doc(dict(d))
                except ValueError:
                    continue  # a damaged record is replaced by this answer
            new = sched.answer(card_id, old, r, when, self.scheduler)
            if docs:
                table.remove(doc_ids=[d.doc_id for d in docs])
            table.insert(new.to_doc())
        return new

    def forget(self, card_ids: Iterable[str]) -> int:
        """Drop the progress of ``card_ids`` (they become new); returns how many records went."""
        ids = set(card_ids)
        with transaction(self.db) as db:
            table = db.table("progress")
            gone = [d.doc_id for d in table.all() if isinstance(d, dict) and d.get("card") in ids]
            table.remove(doc_ids=gone)
        return len(gone)

    # ----------------------------------------------------------- queues (handbook.study.scheduler)
    def due_cards(self, deck: Sequence[Card], now: datetime.datetime | None = None, *,
                  until: datetime.datetime | None = None) -> list[Card]:
        """Answered cards of ``deck`` due by ``until`` (default: now), soonest first."""
        when = aware_utc(now)
        return sched.due_cards(deck, self.progress(), until or when)

    def new_cards(self, deck: Sequence[Card]) -> list[Card]:
        """Cards of ``deck`` never answered, in deck order."""
        return sched.new_cards(deck, self.progress())

    def new_today(self, deck: Sequence[Card], now: datetime.datetime | None = None) -> int:
        """How many cards of ``deck`` were answered for the first time today (local day)."""
        return sched.new_today(deck, self.progress(), aware_utc(now))

    def next_card(self, deck: Sequence[Card], now: datetime.datetime | None = None, *,
                  new_limit: int = sched.NEW_PER_DAY) -> Card | None:
        """What to show next (:func:`handbook.study.scheduler.next_card`): the most overdue card;
        else a new card while fewer than ``new_limit`` were started today; else a learning card
        due within :data:`~handbook.study.scheduler.LEARN_AHEAD`; else ``None`` (done for now)."""
        when = aware_utc(now)
        return sched.next_card(deck, self.progress(), when, new_limit=new_limit)

    def counts(self, deck: Sequence[Card], now: datetime.datetime | None = None) -> dict[str, Counts]:
        """:class:`~handbook.study.scheduler.Counts` per card kind of ``deck`` (kinds in
        :data:`~handbook.study.deck.KINDS` order, present ones only), with ``"all"`` last."""
        when = aware_utc(now)
        return sched.counts(deck, self.progress(), when)

    def most_missed(self, deck: Sequence[Card], limit: int = 10) -> list[tuple[Card, Progress]]:
        """Cards of ``deck`` answered Again at least once, most lapses first (then most recent)."""
        return sched.most_missed(deck, self.progress(), limit)

    # ----------------------------------------------------------- bookmarks and recent
    def _entries(self, table: str) -> list[Entry]:
        out = []
        for doc in self.db.table(table).all():
            try:
                out.append(Entry.from_doc(dict(doc)))
            except ValueError as exc:
                self.problems.append(f"{table} record {doc.doc_id}: {exc}")
        return out

    def _live(self, entries: Iterable[Entry]) -> list[Entry]:
        return [e for e in entries if e.title(self.library) is not None]

    def bookmarks(self) -> list[Entry]:
        """Bookmarked entries still in the content, newest first."""
        entries = self._entries("bookmarks")
        return self._live(sorted(entries, key=lambda e: e.at or utcnow(), reverse=True))

    def is_bookmarked(self, kind: str, ruleset: str | None, ref: str) -> bool:
        return any(e.key == (kind, ruleset, ref) for e in self._entries("bookmarks"))

    def set_bookmark(self, kind: str, ruleset: str | None, ref: str, on: bool, *,
                     now: datetime.datetime | None = None) -> bool:
        """Bookmark (``on``) or un-bookmark an entry; returns whether it is bookmarked now.
        Raises ``ValueError`` for a ``kind`` other than "rule", "penalty" or "term"."""
        entry = _entry(kind, ruleset, ref, now)
        with transaction(self.db) as db:
            table = db.table("bookmarks")
            same = [d.doc_id for d in table.all() if (d.get("kind"), d.get("ruleset"), d.get("ref")) == entry.key]
            if same:
                table.remove(doc_ids=same)
            if on:
                table.insert(entry.to_doc())
        return on

    def opened(self, kind: str, ruleset: str | None, ref: str, *,
               now: datetime.datetime | None = None) -> None:
        """Note that an entry was opened: it moves to the top of the recent list, which keeps
        the last :data:`RECENT_KEEP` distinct entries."""
        entry = _entry(kind, ruleset, ref, now)
        with transaction(self.db) as db:
            table = db.table("recent")
            docs = table.all()
            drop = [d.doc_id for d in docs if (d.get("kind"), d.get("ruleset"), d.get("ref")) == entry.key]
            rest = [d for d in docs if d.doc_id not in drop]
            rest.sort(key=lambda d: str(d.get("at", "")), reverse=True)
            drop += [d.doc_id for d in rest[RECENT_KEEP - 1:]]
            if drop:
                table.remove(doc_ids=drop)
            table.insert(entry.to_doc())

    def recent(self, limit: int = RECENT_KEEP) -> list[Entry]:
        """The entries opened last, newest first (only those still in the content)."""
        entries = sorted(self._entries("recent"), key=lambda e: e.at or utcnow(), reverse=True)
        return self._live(entries)[:limit]

    # ----------------------------------------------------------- export / import
    def export_json(self) -> str:
        """Every readable progress record and bookmark as JSON text (``format``
        "riichi-judge-handbook/study", ``version`` 1)."""
        progress = [p.to_doc() for p in self.progress().values()]
        marks = [e.to_doc() for e in self._entries("bookmarks")]
        return json.dumps({"format": EXPORT_FORMAT, "version": EXPORT_VERSION,
                           "exported": utcnow().isoformat(), "progress": progress, "bookmarks": marks},
                          ensure_ascii=False, indent=1)

    def import_json(self, text: str | bytes) -> ImportResult:
        """Merge an export into this store: for a card in both, the record answered last wins;
        bookmarks are added. A record that cannot be read is skipped and named in
        ``ImportResult.skipped``. Raises :class:`StudyImportError` (nothing imported) when the
        text is larger than :data:`MAX_IMPORT_BYTES`, not JSON or not a study export.

        Everything is checked first and then stored in one write (one transaction), so the cost
        grows with the size of the file, not with its square; the app calls it in a worker
        thread (:func:`handbook.storage.off_loop`)."""
        result = ImportResult()
        incoming, marks = _read_export(text, result)
        with transaction(self.db) as db:
            stored = db.storage.read() or {}
            _merge_progress(stored.setdefault("progress", {}), incoming, result)
            _merge_bookmarks(stored.setdefault("bookmarks", {}), marks, result)
            if result.added or result.updated or result.bookmarks:
                db.storage.write(stored)  # one write
        return result


def _read_export(text: str | bytes, result: ImportResult) -> tuple[list[Progress], list[Entry]]:
    """The progress records and bookmarks of a study export (unreadable ones named in
    ``result.skipped``); :class:`StudyImportError` when it is not one."""
    size = len(text) if isinstance(text, bytes) else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_IMPORT_BYTES:
        raise StudyImportError(f"the file is larger than {MAX_IMPORT_BYTES // (1024 * 1024)} MB "
                               f"({size:,} bytes)")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise StudyImportError(f"the file is not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise StudyImportError(f"the file is not JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise StudyImportError(f"the file is not a study-progress export (format {EXPORT_FORMAT!r})")
    if data.get("version") != EXPORT_VERSION:
        raise StudyImportError(f"version {data.get('version')!r} is not one this app reads "
                               f"(it reads {EXPORT_VERSION})")
    progress_in, marks_in = data.get("progress") or [], data.get("bookmarks") or []
    if not isinstance(progress_in, list) or not isinstance(marks_in, list):
        raise StudyImportError("'progress' and 'bookmarks' must be lists")
    return (_readable(progress_in, Progress.from_doc, "progress", result.skipped),
            _readable(marks_in, Entry.from_doc, "bookmark", result.skipped))


def _readable(docs: list[Any], read: Callable[[Any], T], label: str, skipped: list[str]) -> list[T]:
    """Each of ``docs`` read by ``read``; one it refuses (``ValueError``) is left out and named in
    ``skipped`` ("progress 3: …", counting from 1)."""
    out: list[T] = []
    for i, doc in enumerate(docs):
        try:
            out.append(read(doc))
        except ValueError as exc:
            skipped.append(f"{label} {i + 1}: {exc}")
    return out


def _merge_progress(progress: dict[str, Any], incoming: list[Progress], result: ImportResult) -> None:
    """``incoming`` merged into the stored ``progress`` table (document id -> document): for a
    card in both, the record answered last wins."""
    ids_of: dict[str, list[str]] = {}  # card id -> its documents' ids
    mine: dict[str, Progress] = {}
    for doc_id, doc in progress.items():
        card = doc.get("card") if isinstance(doc, dict) else None
        if isinstance(card, str):
            ids_of.setdefault(card, []).append(doc_id)
            try:
                mine[card] = Progress.from_doc(dict(doc))
            except ValueError:
                pass
    next_id = max((int(k) for k in progress), default=0) + 1
    for p in incoming:
        ours = mine.get(p.card)
        if ours is None:
            result.added += 1
        elif p.last_answered > ours.last_answered:
            result.updated += 1
            for doc_id in ids_of.pop(p.card, []):
                progress.pop(doc_id, None)
        else:
            result.kept += 1
            continue
        progress[str(next_id)] = p.to_doc()
        ids_of.setdefault(p.card, []).append(str(next_id))
        next_id += 1
        mine[p.card] = p


def _merge_bookmarks(bookmarks: dict[str, Any], marks: list[Entry], result: ImportResult) -> None:
    """``marks`` added to the stored ``bookmarks`` table, each entry once."""
    have = {(d.get("kind"), d.get("ruleset"), d.get("ref")) for d in bookmarks.values() if isinstance(d, dict)}
    next_id = max((int(k) for k in bookmarks), default=0) + 1
    for e in marks:
        if e.key not in have:
            bookmarks[str(next_id)] = e.to_doc()
            next_id += 1
            have.add(e.key)
            result.bookmarks += 1


def _entry(kind: str, ruleset: str | None, ref: str, now: datetime.datetime | None) -> Entry:
    if kind not in ENTRY_KINDS:
        raise ValueError(f"kind: got {kind!r}; allowed: {', '.join(ENTRY_KINDS)}")
    return Entry(kind, None if kind == "term" else ruleset, ref, aware_utc(now))


# ------------------------------------------------------------------ the app's store

def open_study_db(path: str | None = None) -> "TinyDB":
    """The study database in a JSON file (default ``data_dir()/study.json``), written atomically
    by :mod:`handbook.storage` (a damaged file is moved aside and reported)."""
    return open_db(path or data_dir() / STUDY_FILE)


__all__ = ["EXPORT_FORMAT", "Entry", "ImportResult", "MAX_IMPORT_BYTES", "PREFS_KEY", "RECENT_KEEP",
           "StudyImportError", "StudyStore", "open_study_db"]
