"""The AZRM strike window: Suspensions and the Ban (AZRM §1.4), read literally.

AZRM §1.4: "Every foul that is not a Warning or a Minor Chombo (continue) will result in a Strike";
a **Suspension** "when more than 2 Strikes are recorded against a player in a single day, or more
than 5 Strikes are recorded over a rolling 1-month period (30 days, inclusive of both end days)",
lasting "2 weeks, starting on the day of suspension and including the end date"; a **Ban** "when
more than 2 Suspensions have been issued".

The literal reading implemented here, where the text leaves room:

* Every Strike counts toward every threshold: Strikes that caused one Suspension still count
  toward the next one while they stay in the window.
* A Suspension is issued at the moment a threshold is *crossed*: the Strike that makes the day's
  count 3, or the one that makes the 30-day count 6. Staying above a threshold issues nothing more;
  falling back to it and crossing again issues a new Suspension. Two different Strikes that cross
  the two different thresholds issue two Suspensions.
* A Suspension runs 14 days: its first day is the day it is issued, its last day 13 days later.
* The Ban follows the third Suspension (more than 2).
"""

from __future__ import annotations

import datetime
from collections import Counter
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


def _as_date(value: object, i: int) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    raise ValueError(f"strikes: item {i} must be a datetime.date, got {value!r} ({type(value).__name__})")


def suspension_dates(strikes: Iterable[datetime.date]) -> list[datetime.date]:
    """The day each Suspension was issued, in order, for Strikes on the given days (AZRM §1.4,
    literal reading: a Suspension at each crossing of either threshold). Raises ``ValueError``
    for an item that is not a ``datetime.date``."""
    days = sorted(_as_date(d, i) for i, d in enumerate(strikes))
    per_day = Counter(days)
    issued: list[datetime.date] = []
    for day in sorted(per_day):
        before = sum(n for d, n in per_day.items()
                     if day - datetime.timedelta(days=WINDOW_DAYS - 1) <= d < day)
        for k in range(1, per_day[day] + 1):
            crosses_day = k == DAY_LIMIT + 1
            crosses_window = before + k - 1 <= WINDOW_LIMIT < before + k
            if crosses_day or crosses_window:
                issued.append(day)
    return issued


def strike_status(strikes: Iterable[datetime.date], on: datetime.date) -> StrikeStatus:
    """A player's Strike window, Suspension and Ban countdown on ``on`` (AZRM §1.4, literal reading:
    see the module docstring).

    ``strikes`` holds one date per Strike (repeat a date for several Strikes that day); Strikes
    dated after ``on`` are not counted. The window is ``[on − 29 days, on]``. Raises ``ValueError``
    naming the argument when ``on`` or an item of ``strikes`` is not a ``datetime.date``.
    """
    if isinstance(on, datetime.datetime) or not isinstance(on, datetime.date):
        raise ValueError(f"on: must be a datetime.date, got {on!r} ({type(on).__name__})")
    if isinstance(strikes, (str, bytes)):
        raise ValueError("strikes: must be an iterable of datetime.date, got a string")
    days = [d for d in (_as_date(x, i) for i, x in enumerate(strikes)) if d <= on]
    window_start = on - datetime.timedelta(days=WINDOW_DAYS - 1)
    in_window = sorted(d for d in days if d >= window_start)
    today = sum(1 for d in days if d == on)

    issued = suspension_dates(days)
    spans = tuple((d, d + datetime.timedelta(days=SUSPENSION_DAYS - 1)) for d in issued)
    current = [s for s in spans if s[0] <= on <= s[1]]
    suspended = bool(current)
    banned = len(issued) > BAN_LIMIT
    start, end = (current[-1] if current else (None, None))

    if suspended or banned:
        until = 0
    else:
        options = [DAY_LIMIT + 1 - today]  # today <= 2 here, or a crossing today would suspend
        if len(in_window) <= WINDOW_LIMIT:
            options.append(WINDOW_LIMIT + 1 - len(in_window))
        until = max(1, min(options))

    next_drop = in_window[0] + datetime.timedelta(days=WINDOW_DAYS) if in_window else None
    return StrikeStatus(
        on=on, strikes_today=today, strikes_in_window=len(in_window), window_start=window_start,
        strikes_until_suspension=until, suspended=suspended, suspension_start=start,
        suspension_end=end, suspensions=len(issued), banned=banned, next_drop_out=next_drop,
        suspension_days=spans)
