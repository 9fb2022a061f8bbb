"""The study scheduler: what an answer does to a card, and which card of a deck comes next.

Scheduling is the Free Spaced Repetition Scheduler (the ``fsrs`` package, the algorithm Anki
uses): :func:`answer` hands a card's state and the rating (Again, Hard, Good, Easy) to
``fsrs.Scheduler.review_card`` and keeps what it returns; the app never computes an interval
itself. The queues (:func:`due_cards`, :func:`new_cards`, :func:`next_card`) and the tallies
(:func:`counts`, :func:`most_missed`) read a deck (:mod:`handbook.study.deck`) and the progress
records by card id (``{card id: Progress}``) that :class:`handbook.study.store.StudyStore` keeps.

Pure Python: this module stores nothing and imports neither flet nor tinydb (nor
:mod:`handbook.storage`). Times are timezone-aware UTC ``datetime`` (fsrs requires it); "today"
is the device's local day.
"""

from __future__ import annotations

import datetime
import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

from handbook.study.deck import KINDS, Card

UTC = datetime.timezone.utc
#: new cards introduced per day and deck before "more new cards" is asked for (Anki's default)
NEW_PER_DAY = 20
#: a learning card due within this time is shown when nothing else is due (Anki's learn-ahead limit)
LEARN_AHEAD = datetime.timedelta(minutes=20)
#: the ratings by name, in button order
RATINGS: dict[str, Rating] = {"again": Rating.Again, "hard": Rating.Hard, "good": Rating.Good,
                              "easy": Rating.Easy}

#: a stored date and time (ISO 8601 text)
ISO_SCHEMA = {"type": "string", "minLength": 10, "maxLength": 40}
#: the shape of a stored progress record (:meth:`Progress.to_doc`)
PROGRESS_SCHEMA = {
    "type": "object",
    "required": ["card", "state", "due", "reviews", "lapses"],
    "properties": {
        "card": {"type": "string", "minLength": 1, "maxLength": 300},
        "state": {"type": "integer", "enum": [s.value for s in State]},
        "step": {"type": ["integer", "null"], "minimum": 0},
        "stability": {"type": ["number", "null"], "minimum": 0},
        "difficulty": {"type": ["number", "null"], "minimum": 0},
        "due": ISO_SCHEMA,
        "last_review": {"type": ["string", "null"], "maxLength": 40},
        "reviews": {"type": "integer", "minimum": 0},
        "lapses": {"type": "integer", "minimum": 0},
        "last_rating": {"type": ["integer", "null"], "minimum": 1, "maximum": 4},
        "first": {"type": ["string", "null"], "maxLength": 40},
    },
}


@functools.cache
def _progress_check():
    """The compiled check of a progress document (compiled on first use: the app's first screen
    is drawn before any stored document is read)."""
    import fastjsonschema

    return fastjsonschema.compile(PROGRESS_SCHEMA)


def utcnow() -> datetime.datetime:
    return datetime.datetime.now(UTC)


def aware_utc(when: datetime.datetime | None) -> datetime.datetime:
    """``when`` in UTC (``None``: now). Raises ``ValueError`` naming ``now`` for a naive datetime."""
    if when is None:
        return utcnow()
    if when.tzinfo is None:
        raise ValueError(f"now: must be timezone-aware, got the naive datetime {when.isoformat()}")
    return when.astimezone(UTC)


def end_of_local_day(now: datetime.datetime) -> datetime.datetime:
    """The last moment of ``now``'s day on the device's clock, in UTC."""
    local = now.astimezone()
    end = datetime.datetime.combine(local.date() + datetime.timedelta(days=1), datetime.time(),
                                    tzinfo=local.tzinfo)
    return (end - datetime.timedelta(microseconds=1)).astimezone(UTC)


def rating_of(value: Rating | int | str) -> Rating:
    """``Rating.Good``, ``3`` or ``"good"`` → ``Rating.Good``; anything else is a ``ValueError``."""
    if isinstance(value, Rating):
        return value
    if isinstance(value, str) and value.lower() in RATINGS:
        return RATINGS[value.lower()]
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 4:
        return Rating(value)
    raise ValueError(f"rating: got {value!r}; allowed: 'again', 'hard', 'good', 'easy' or 1–4")


@dataclass(frozen=True, slots=True)
class Progress:
    """A card's stored state: the fsrs card (``state``, ``step``, ``stability``, ``difficulty``,
    ``due``, ``last_review``) plus counts — ``reviews`` answers, ``lapses`` answers rated Again,
    ``last_rating`` (1–4) and ``first`` (the local date of the first answer)."""

    card: str
    fsrs: FsrsCard
    reviews: int = 0
    lapses: int = 0
    last_rating: int | None = None
    first: datetime.date | None = None

    @property
    def due(self) -> datetime.datetime:
        return self.fsrs.due

    @property
    def last_answered(self) -> datetime.datetime:
        """When the card was last answered (the earliest time there is when never)."""
        return self.fsrs.last_review or datetime.datetime.min.replace(tzinfo=UTC)

    def to_doc(self) -> dict[str, Any]:
        d = dict(self.fsrs.to_dict())
        d.pop("card_id", None)
        d.update(card=self.card, reviews=self.reviews, lapses=self.lapses, last_rating=self.last_rating,
                 first=self.first.isoformat() if self.first else None)
        return d

    @classmethod
    def from_doc(cls, doc: Any) -> "Progress":
        """Raises ``ValueError`` saying what is wrong with a document of the wrong shape."""
        from fastjsonschema import JsonSchemaException

        try:
            _progress_check()(doc)
        except JsonSchemaException as exc:
            raise ValueError(exc.message) from None
        try:
            card = FsrsCard.from_dict({**doc, "card_id": 0, "step": doc.get("step"),
                                       "stability": doc.get("stability"), "difficulty": doc.get("difficulty"),
                                       "last_review": doc.get("last_review")})
            first = datetime.date.fromisoformat(doc["first"]) if doc.get("first") else None
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad date or state: {exc}") from None
        if card.due.tzinfo is None or (card.last_review is not None and card.last_review.tzinfo is None):
            raise ValueError("a date has no time zone")
        return cls(doc["card"], card, doc["reviews"], doc["lapses"], doc.get("last_rating"), first)


@dataclass(frozen=True, slots=True)
class Counts:
    """Cards of one kind in a deck: ``learned`` (answered, not due today), ``due`` (answered, due
    by the end of today) and ``new`` (never answered); they add up to ``total``."""

    learned: int = 0
    due: int = 0
    new: int = 0

    @property
    def total(self) -> int:
        return self.learned + self.due + self.new


#: the progress records a store holds, by card id
ProgressById = Mapping[str, Progress]


def answer(card_id: str, old: Progress | None, rating: Rating | int | str, when: datetime.datetime,
           scheduler: Scheduler) -> Progress:
    """The card's state after an answer at ``when`` (aware): fsrs schedules it from ``old`` (a new
    card, ``old`` ``None``, starts as fsrs's new card, due now); ``reviews`` counts one more,
    ``lapses`` one more for Again, ``first`` is ``when``'s local date on the first answer.

    Raises ``ValueError`` naming ``rating`` for a rating other than Again/Hard/Good/Easy (or 1–4)."""
    r = rating_of(rating)
    fcard = old.fsrs if old else FsrsCard(card_id=0, due=when)
    updated, _log = scheduler.review_card(fcard, r, review_datetime=when)
    first = old.first if old and old.first else when.astimezone().date()
    return Progress(card_id, updated, (old.reviews if old else 0) + 1,
                    (old.lapses if old else 0) + (r == Rating.Again), int(r), first)


def due_cards(deck: Sequence[Card], progress: ProgressById, until: datetime.datetime) -> list[Card]:
    """Answered cards of ``deck`` due by ``until``, soonest first."""
    due = [(progress[c.id].due, i, c) for i, c in enumerate(deck)
           if c.id in progress and progress[c.id].due <= until]
    return [c for _, _, c in sorted(due)]


def new_cards(deck: Sequence[Card], progress: ProgressById) -> list[Card]:
    """Cards of ``deck`` never answered, in deck order."""
    return [c for c in deck if c.id not in progress]


def new_today(deck: Sequence[Card], progress: ProgressById, now: datetime.datetime) -> int:
    """How many cards of ``deck`` were answered for the first time on ``now``'s local day."""
    today = now.astimezone().date()
    ids = {c.id for c in deck}
    return sum(1 for p in progress.values() if p.card in ids and p.first == today)


def next_card(deck: Sequence[Card], progress: ProgressById, now: datetime.datetime, *,
              new_limit: int = NEW_PER_DAY) -> Card | None:
    """What to show next: the most overdue card; else a new card while fewer than ``new_limit``
    were started today; else a learning card due within :data:`LEARN_AHEAD`; else ``None`` (done
    for now)."""
    due = due_cards(deck, progress, now)
    if due:
        return due[0]
    if new_today(deck, progress, now) < new_limit:
        new = new_cards(deck, progress)
        if new:
            return new[0]
    ahead = due_cards(deck, progress, now + LEARN_AHEAD)
    return ahead[0] if ahead else None


def counts(deck: Sequence[Card], progress: ProgressById, now: datetime.datetime) -> dict[str, Counts]:
    """:class:`Counts` per card kind of ``deck`` (kinds in :data:`~handbook.study.deck.KINDS`
    order, present ones only), with ``"all"`` last."""
    end = end_of_local_day(now)
    tally: dict[str, list[int]] = {}
    for c in deck:
        t = tally.setdefault(c.kind, [0, 0, 0])
        p = progress.get(c.id)
        t[2 if p is None else 1 if p.due <= end else 0] += 1
    out = {k: Counts(*tally[k]) for k in KINDS if k in tally}
    out.update({k: Counts(*v) for k, v in tally.items() if k not in out})
    out["all"] = Counts(*(sum(v[i] for v in tally.values()) for i in range(3)))
    return out


def most_missed(deck: Sequence[Card], progress: ProgressById, limit: int = 10) -> list[tuple[Card, Progress]]:
    """Cards of ``deck`` answered Again at least once, most lapses first (then most recent)."""
    missed = [(c, progress[c.id]) for c in deck if c.id in progress and progress[c.id].lapses > 0]
    missed.sort(key=lambda cp: (-cp[1].lapses, -(cp[1].fsrs.last_review or cp[1].due).timestamp()))
    return missed[:limit]


def exam_cards(deck: Sequence[Card], n: int = 20, *, rng: random.Random | None = None) -> list[Card]:
    """``n`` cards of ``deck`` drawn at random without repeats (all of them when the deck is
    smaller) for an exam: answered once, scored, not scheduled."""
    pick = rng or random.Random()
    return pick.sample(list(deck), min(n, len(deck)))


__all__ = ["Counts", "LEARN_AHEAD", "NEW_PER_DAY", "PROGRESS_SCHEMA", "Progress", "ProgressById", "RATINGS",
           "UTC", "answer", "aware_utc", "counts", "due_cards", "end_of_local_day", "exam_cards",
           "most_missed", "new_cards", "new_today", "next_card", "rating_of", "utcnow"]
