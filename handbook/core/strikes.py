"""The AZRM strike window: Suspensions and the Ban (AZRM §1.4), read literally.

AZRM §1.4: "Every foul that is not a Warning or a Minor Chombo (continue) will result in a Strike";
a **Suspension** "when more than 2 Strikes are recorded against a player in a single day, or more
than 5 Strikes are recorded over a rolling 1-month period (30 days, inclusive of both end days)",
lasting "2 weeks, starting on the day of suspension and including the end date"; a **Ban** "when
more than 2 Suspensions have been issued".

The reading implemented here, where the text leaves room (the club president and their
designated officials decide, §1.4's last paragraph):

* Strikes are recorded in date order. When, with a Strike, more than 2 Strikes stand on its day or
  more than 5 in the 30-day window ending on its day, §1.4's condition is met and a Suspension is
  issued starting that day.
* Again for every later Strike recorded while the condition still holds — so a player back from a
  Suspension with 6 Strikes still in the window is suspended again by the next one — except while
  a Suspension is already in force (Strikes recorded during one issue no second one).
* Every Strike counts toward every threshold: Strikes that caused one Suspension still count
  toward the next one while they stay in the window.
* A Suspension runs 14 days: its first day is the day it is issued, its last day 13 days later.
* The Ban follows the third Suspension (more than 2).
* Dates run from 0001-01-30 to 9999-12-01, so that the window, a Suspension and the day the
  oldest Strike drops out all stay in the calendar; earlier or later dates raise ``ValueError``.
"""

from __future__ import annotations

import bisect
import datetime
from collections.abc import Iterable
from dataclasses import dataclass

DAY_LIMIT = 2          # more than 2 Strikes in a single day
WINDOW_LIMIT = 5       # more than 5 Strikes in the rolling window
WINDOW_DAYS = 30       # the window, both end days included
SUSPENSION_DAYS = 14   # 2 weeks, start and end days included
BAN_LIMIT = 2          # more than 2 Suspensions


@dataclass(frozen=True, slots=True)
class StrikeStatus:
    """A player's standing under AZRM §1.4 on one day.

    Counts are numbers of Strikes; dates are calendar days, both ends inclusive.
    ``strikes_until_suspension`` is how many more Strikes recorded on ``on`` would issue a
    Suspension (0 while suspended or banned); ``next_drop_out`` the first day on which the oldest
    Strike in the window no longer counts; ``suspension_days`` every issued Suspension as
    ``(first day, last day)``.
    """

    on: datetime.date
    strikes_today: int
    strikes_in_window: int
    window_start: datetime.date
    strikes_until_suspension: int
    suspended: bool
    suspension_start: datetime.date | None
    suspension_end: datetime.date | None
    suspensions: int
    banned: bool
    next_drop_out: datetime.date | None
    suspension_days: tuple[tuple[datetime.date, datetime.date], ...]


FIRST_DAY = datetime.date.min + datetime.timedelta(days=WINDOW_DAYS - 1)  # 0001-01-30
LAST_DAY = datetime.date.max - datetime.timedelta(days=WINDOW_DAYS)      # 9999-12-01
_RANGE = f"allowed dates: {FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}"


def _as_date(value: object, i: int) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    raise ValueError(f"strikes: item {i} must be a datetime.date, got {value!r} ({type(value).__name__})")


def _dates(strikes: object) -> list[datetime.date]:
    if isinstance(strikes, (str, bytes)) or not isinstance(strikes, Iterable):
        raise ValueError(f"strikes: must be an iterable of datetime.date (one per Strike), got {strikes!r} "
                         f"({type(strikes).__name__})")
    return [_as_date(x, i) for i, x in enumerate(strikes)]


def _in_calendar(days: Iterable[datetime.date]) -> None:
    for i, d in enumerate(days):
        if d < FIRST_DAY:
            raise ValueError(f"strikes: item {i}, {d.isoformat()}, is too early: its 30-day window would start "
                             f"before {datetime.date.min.isoformat()}; {_RANGE}")
        if d > LAST_DAY:
            raise ValueError(f"strikes: item {i}, {d.isoformat()}, is too late: a Suspension or the window's "
                             f"drop-out day would leave the calendar; {_RANGE}")


def _issue(days: list[datetime.date]) -> list[datetime.date]:
    """The day of each Suspension for sorted Strike ``days`` (module docstring's reading)."""
    issued: list[datetime.date] = []
    span = datetime.timedelta(days=SUSPENSION_DAYS - 1)
    for i, day in enumerate(days):
        on_day = i + 1 - bisect.bisect_left(days, day)
        in_window = i + 1 - bisect.bisect_left(days, day - datetime.timedelta(days=WINDOW_DAYS - 1))
        if on_day > DAY_LIMIT or in_window > WINDOW_LIMIT:
            if not (issued and issued[-1] <= day <= issued[-1] + span):
                issued.append(day)
    return issued


def suspension_dates(strikes: Iterable[datetime.date]) -> list[datetime.date]:
    """The day each Suspension was issued, in order, for Strikes on the given days (AZRM §1.4 as
    the module docstring reads it: a Suspension for each Strike recorded while more than 2 stand on
    its day or more than 5 in its 30-day window, unless one is in force). Raises ``ValueError``
    naming ``strikes`` for an item that is not a ``datetime.date`` or lies outside
    0001-01-30 … 9999-12-01."""
    days = sorted(_dates(strikes))
    _in_calendar(days)
    return _issue(days)


def strike_status(strikes: Iterable[datetime.date], on: datetime.date) -> StrikeStatus:
    """A player's Strike window, Suspension and Ban countdown on ``on`` (AZRM §1.4, read as the
    module docstring says; the club's officials decide).

    ``strikes`` holds one date per Strike (repeat a date for several Strikes that day); Strikes
    dated after ``on`` are not counted. The window is ``[on − 29 days, on]``. Raises ``ValueError``
    naming the argument when ``strikes`` is not an iterable of ``datetime.date`` (``None``, a
    string), when ``on`` is not a ``datetime.date``, or when ``on`` or a counted Strike lies outside
    0001-01-30 … 9999-12-01 (the window, a Suspension or the drop-out day would leave the calendar).
    """
    if isinstance(on, datetime.datetime) or not isinstance(on, datetime.date):
        raise ValueError(f"on: must be a datetime.date, got {on!r} ({type(on).__name__})")
    if not FIRST_DAY <= on <= LAST_DAY:
        raise ValueError(f"on: {on.isoformat()} is too {'early' if on < FIRST_DAY else 'late'}: the 30-day window "
                         f"or a Suspension would leave the calendar; {_RANGE}")
    days = sorted(d for d in _dates(strikes) if d <= on)
    _in_calendar(days)
    window_start = on - datetime.timedelta(days=WINDOW_DAYS - 1)
    in_window = [d for d in days if d >= window_start]
    today = sum(1 for d in days if d == on)

    issued = _issue(days)
    spans = tuple((d, d + datetime.timedelta(days=SUSPENSION_DAYS - 1)) for d in issued)
    current = [s for s in spans if s[0] <= on <= s[1]]
    suspended = bool(current)
    banned = len(issued) > BAN_LIMIT
    start, end = (current[-1] if current else (None, None))

    if suspended or banned:
        until = 0
    else:  # the next Strike on `on` meets the condition as soon as either count passes its limit
        until = max(1, min(DAY_LIMIT + 1 - today, WINDOW_LIMIT + 1 - len(in_window)))

    next_drop = in_window[0] + datetime.timedelta(days=WINDOW_DAYS) if in_window else None
    return StrikeStatus(
        on=on, strikes_today=today, strikes_in_window=len(in_window), window_start=window_start,
        strikes_until_suspension=until, suspended=suspended, suspension_start=start,
        suspension_end=end, suspensions=len(issued), banned=banned, next_drop_out=next_drop,
        suspension_days=spans)
