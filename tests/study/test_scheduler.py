"""The study scheduler on its own: answers and queues from a plain ``{card id: Progress}`` dict, with
no store and no TinyDB, agreeing with the store that uses it."""

from __future__ import annotations

import datetime
import subprocess
import sys

import pytest
from fsrs import Rating, Scheduler

import handbook
from handbook.storage import open_db
from handbook.study import scheduler
from handbook.study.store import StudyStore

UTC = datetime.timezone.utc
T0 = datetime.datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def deck(library):
    return handbook.study_deck("azrm", library=library)


def plain() -> Scheduler:
    return Scheduler(enable_fuzzing=False)


def test_answers_and_queues_from_a_plain_dict(deck):
    progress: dict[str, scheduler.Progress] = {}
    assert scheduler.next_card(deck, progress, T0) == deck[0]  # nothing answered: the first new card
    first = scheduler.answer(deck[0].id, None, "again", T0, plain())
    assert (first.reviews, first.lapses, first.last_rating, first.first) == (1, 1, 1, T0.astimezone().date())
    progress[first.card] = first
    second = scheduler.answer(deck[0].id, first, Rating.Good, first.due, plain())
    assert (second.reviews, second.lapses, second.last_rating) == (2, 1, 3)
    assert second.due > first.due
    progress[second.card] = second
    assert scheduler.new_cards(deck, progress) == list(deck[1:])
    assert scheduler.new_today(deck, progress, T0) == 1
    assert scheduler.due_cards(deck, progress, second.due) == [deck[0]]
    assert scheduler.due_cards(deck, progress, second.due - datetime.timedelta(seconds=1)) == []
    # the day's new cards used up: nothing due, so the learning card within LEARN_AHEAD, else nothing
    early = second.due - scheduler.LEARN_AHEAD - datetime.timedelta(seconds=1)
    assert scheduler.next_card(deck, progress, early, new_limit=1) is None
    soon = second.due - scheduler.LEARN_AHEAD / 2
    assert scheduler.next_card(deck, progress, soon, new_limit=1) == deck[0]
    assert scheduler.most_missed(deck, progress) == [(deck[0], second)]
    counts = scheduler.counts(deck, progress, T0)
    assert counts["all"].total == len(deck) and counts["all"].new == len(deck) - 1
    assert counts[deck[0].kind].due + counts[deck[0].kind].learned == 1


def test_the_store_schedules_what_the_scheduler_computes(tmp_path, library, deck):
    store = StudyStore(open_db(tmp_path / "study.json"), library, scheduler=plain())
    stored = store.review(deck[2], "hard", now=T0)
    assert stored == scheduler.answer(deck[2].id, None, "hard", T0, plain())
    assert store.progress() == {deck[2].id: stored}
    assert store.next_card(deck, T0) == scheduler.next_card(deck, store.progress(), T0)
    assert store.counts(deck, T0) == scheduler.counts(deck, store.progress(), T0)


@pytest.mark.parametrize("bad, name", [("so-so", "rating"), (0, "rating"), (True, "rating")])
def test_a_bad_rating_is_refused_by_name(deck, bad, name):
    with pytest.raises(ValueError, match=rf"^{name}: "):
        scheduler.answer(deck[0].id, None, bad, T0, plain())


def test_a_naive_time_is_refused_by_name():
    with pytest.raises(ValueError, match=r"^now: must be timezone-aware"):
        scheduler.aware_utc(datetime.datetime(2026, 5, 1, 9, 0))


def _run_without_tinydb(root_dir, line: str) -> subprocess.CompletedProcess:
    code = f"import sys\nsys.modules['flet'] = None\nsys.modules['tinydb'] = None\n{line}\nprint('ok')"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root_dir, timeout=120)


def test_the_scheduler_imports_neither_flet_nor_tinydb(root_dir):
    res = _run_without_tinydb(root_dir, "from handbook.study import scheduler")
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-2000:]
    # the same check refuses the store, which does need tinydb
    assert _run_without_tinydb(root_dir, "from handbook.study import store").returncode != 0
