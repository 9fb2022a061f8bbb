"""When a card answered in a browser test falls due (shared by the served-app and offline tests)."""

from __future__ import annotations

import datetime


def good_is_due_today() -> bool:
    """Whether a new card rated Good now falls due before the device's day ends: fsrs's learning
    step is 10 minutes, so just before midnight it is due tomorrow (``handbook.study.scheduler`` counts a
    card as due today when it is due by the end of the local day)."""
    from fsrs import Card, Rating, Scheduler

    from handbook.study.scheduler import end_of_local_day

    now = datetime.datetime.now(datetime.UTC)
    card, _log = Scheduler().review_card(Card(), Rating.Good, now)
    return card.due <= end_of_local_day(now)
