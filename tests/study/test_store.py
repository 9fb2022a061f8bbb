"""Study progress: fsrs moves the due dates, the store keeps them, bad records are skipped,
bookmarks and recent lookups, export and import."""

from __future__ import annotations

import datetime
import json

import pytest
from fsrs import Card as FsrsCard
from fsrs import Rating, Scheduler, State

import handbook
from handbook.storage import open_db
from handbook.study.scheduler import LEARN_AHEAD, exam_cards, rating_of
from handbook.study.store import RECENT_KEEP, StudyImportError, StudyStore

UTC = datetime.timezone.utc
T0 = datetime.datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def plain_scheduler() -> Scheduler:
    # fuzzing off so that two schedulers given the same history agree to the second
    return Scheduler(enable_fuzzing=False)


@pytest.fixture
def deck(library):
    return handbook.study_deck("wrc-2025", library=library)


@pytest.fixture
def store(tmp_path, library):
    return StudyStore(open_db(tmp_path / "study.json"), library, scheduler=plain_scheduler())


def reopen(tmp_path, library) -> StudyStore:
    return StudyStore(open_db(tmp_path / "study.json"), library, scheduler=plain_scheduler())


@pytest.mark.parametrize("rating", list(Rating))
def test_first_answer_is_scheduled_as_fsrs_says(store, deck, rating):
    expected, _ = plain_scheduler().review_card(FsrsCard(card_id=0, due=T0), rating, review_datetime=T0)
    got = store.review(deck[0], rating, now=T0)
    assert got.due == expected.due
    assert got.fsrs.state == expected.state and got.fsrs.stability == expected.stability
    assert got.due > T0


@pytest.mark.parametrize("rating", list(Rating))
def test_a_later_answer_follows_fsrs_from_the_stored_state(tmp_path, library, deck, rating):
    store = reopen(tmp_path, library)
    ref = plain_scheduler()
    card = FsrsCard(card_id=0, due=T0)
    when = T0
    for r in (Rating.Good, Rating.Good, rating):  # through learning into review, then `rating`
        card, _ = ref.review_card(card, r, review_datetime=when)
        store = reopen(tmp_path, library)  # every answer goes through the file
        got = store.review(deck[3].id, r, now=when)
        assert got.due == card.due and got.fsrs.state == card.state
        assert got.fsrs.difficulty == pytest.approx(card.difficulty)
        when = card.due
    assert reopen(tmp_path, library).progress()[deck[3].id].due == card.due


def test_ratings_order_the_intervals_of_a_review_card(store, deck):
    # a card in the Review state: Again < Hard < Good < Easy, as fsrs computes them
    ref = plain_scheduler()
    card = FsrsCard(card_id=0, due=T0)
    card, _ = ref.review_card(card, Rating.Good, review_datetime=T0)
    card, _ = ref.review_card(card, Rating.Good, review_datetime=card.due)
    assert card.state == State.Review
    when = card.due
    dues = {r: ref.review_card(card, r, review_datetime=when)[0].due for r in Rating}
    assert dues[Rating.Again] < dues[Rating.Hard] < dues[Rating.Good] < dues[Rating.Easy]


def test_counts_and_queues(store, deck):
    counts = store.counts(deck, now=T0)
    assert counts["all"].new == len(deck) and counts["all"].due == 0
    assert counts["penalty"].total == sum(c.kind == "penalty" for c in deck)
    assert store.next_card(deck, now=T0) == deck[0]  # nothing due: the first new card
    store.review(deck[0], "again", now=T0)  # due again in a minute (a learning step)
    assert store.next_card(deck, now=T0) == deck[1]  # not due yet: the next new card
    later = T0 + datetime.timedelta(minutes=2)
    assert store.next_card(deck, now=later) == deck[0]  # due now: it comes first
    counts = store.counts(deck, now=later)
    assert counts["penalty"].due == 1 and counts["penalty"].new == counts["penalty"].total - 1
    # new cards stop at the daily limit, then learning cards within the learn-ahead limit come
    assert store.next_card(deck, now=T0, new_limit=1) == deck[0]
    assert store.next_card(deck, now=T0 - LEARN_AHEAD * 2, new_limit=1) is None


def test_a_card_answered_easy_counts_as_learned(store, deck):
    store.review(deck[1], "easy", now=T0)
    c = store.counts(deck, now=T0)
    assert c["penalty"].learned == 1 and c["all"].learned == 1


def test_most_missed(store, deck):
    for _ in range(3):
        store.review(deck[5], Rating.Again, now=T0)
    store.review(deck[6], Rating.Again, now=T0)
    store.review(deck[7], Rating.Good, now=T0)
    missed = store.most_missed(deck)
    assert [(c.id, p.lapses) for c, p in missed] == [(deck[5].id, 3), (deck[6].id, 1)]


def test_damaged_record_is_skipped_and_reported(tmp_path, library, deck, store):
    store.review(deck[0], "good", now=T0)
    store.review(deck[1], "good", now=T0)
    path = tmp_path / "study.json"
    data = json.loads(path.read_text())
    first_key = sorted(data["progress"])[0]
    data["progress"][first_key]["due"] = 12  # not a date
    data["progress"]["99"] = {"card": deck[2].id, "state": 7, "due": "x", "reviews": 1, "lapses": 0}
    path.write_text(json.dumps(data))
    again = reopen(tmp_path, library)
    prog = again.progress()
    assert set(prog) == {deck[1].id}
    assert len(again.problems) == 2 and all("progress record" in p for p in again.problems)
    # the deck goes on: the damaged card is new again and can be answered
    assert again.next_card(deck, now=T0) == deck[0]
    again.review(deck[0], "good", now=T0)
    assert deck[0].id in again.progress()


def test_a_card_that_left_the_content_is_not_counted(store, deck):
    store.review("penalty:wrc-2025:no-longer-there:00000000", "again", now=T0)
    assert store.counts(deck, now=T0)["all"].total == len(deck)
    assert store.most_missed(deck) == []
    assert "penalty:wrc-2025:no-longer-there:00000000" in store.progress()  # kept, not deleted


def test_rating_and_time_errors(store, deck):
    with pytest.raises(ValueError, match="rating: got 'ok'"):
        store.review(deck[0], "ok", now=T0)
    with pytest.raises(ValueError, match="rating"):
        rating_of(0)
    with pytest.raises(ValueError, match="now: must be timezone-aware"):
        store.review(deck[0], "good", now=datetime.datetime(2026, 5, 1))


def test_bookmarks_and_recent(tmp_path, library, store):
    assert store.set_bookmark("rule", "azrm", "2.4", True, now=T0)
    store.set_bookmark("penalty", "wrc-2025", "wrong-tile-count", True, now=T0 + datetime.timedelta(1))
    store.set_bookmark("term", "azrm", "kui-kae", True, now=T0)  # a term belongs to no ruleset
    assert store.is_bookmarked("term", None, "kui-kae")
    again = reopen(tmp_path, library)
    assert [e.route for e in again.bookmarks()][0] == "/penalties/wrc-2025/wrong-tile-count"
    assert {e.route for e in again.bookmarks()} == {
        "/rules/azrm/2.4", "/penalties/wrc-2025/wrong-tile-count", "/glossary/kui-kae"}
    again.set_bookmark("rule", "azrm", "2.4", False)
    assert not again.is_bookmarked("rule", "azrm", "2.4")
    with pytest.raises(ValueError, match="kind: got 'chapter'"):
        again.set_bookmark("chapter", "azrm", "2", True)

    sections = library.rulesets["azrm"].sections
    for i, sec in enumerate(sections[:RECENT_KEEP + 5]):
        store.opened("rule", "azrm", sec.ref, now=T0 + datetime.timedelta(minutes=i))
    store.opened("rule", "azrm", sections[0].ref, now=T0 + datetime.timedelta(hours=5))  # opened again
    recent = reopen(tmp_path, library).recent()
    assert len(recent) == RECENT_KEEP
    assert recent[0].ref == sections[0].ref
    assert len({e.key for e in recent}) == RECENT_KEEP
    assert len(store.db.table("recent")) == RECENT_KEEP
    store.opened("rule", "azrm", "99.9", now=T0 + datetime.timedelta(hours=6))  # not in the content
    assert store.recent()[0].ref == sections[0].ref
    assert recent[0].title(library).startswith("AZRM §")


def test_export_then_import_into_an_empty_store(tmp_path, library, store, deck):
    store.review(deck[0], "good", now=T0)
    store.review(deck[1], "again", now=T0)
    store.set_bookmark("term", None, "kui-kae", True, now=T0)
    text = store.export_json()
    other = StudyStore(open_db(tmp_path / "other.json"), library, scheduler=plain_scheduler())
    res = other.import_json(text)
    assert (res.added, res.updated, res.kept, res.bookmarks, res.skipped) == (2, 0, 0, 1, [])
    assert {k: p.to_doc() for k, p in other.progress().items()} == \
        {k: p.to_doc() for k, p in store.progress().items()}
    # importing again changes nothing; a newer answer in the file wins
    assert other.import_json(text).kept == 2
    store.review(deck[0], "easy", now=T0 + datetime.timedelta(days=2))
    res = other.import_json(store.export_json())
    assert res.updated == 1 and other.progress()[deck[0].id].reviews == 2


def test_import_skips_bad_records_and_refuses_other_files(store, deck):
    good = {"card": deck[0].id, "state": 1, "step": 0, "stability": None, "difficulty": None,
            "due": T0.isoformat(), "last_review": None, "reviews": 0, "lapses": 0}
    text = json.dumps({"format": "riichi-judge-handbook/study", "version": 1,
                       "progress": [good, {"card": "x"}, "nonsense"], "bookmarks": [{"kind": "chapter"}]})
    res = store.import_json(text)
    assert res.added == 1 and len(res.skipped) == 3
    assert res.skipped[0].startswith("progress 2")
    for bad in ("{", "[]", json.dumps({"format": "riichi-judge-handbook/study", "version": 9})):
        with pytest.raises(StudyImportError):
            store.import_json(bad)
    with pytest.raises(StudyImportError, match="UTF-8"):
        store.import_json(b"\xff\xfe")


def test_exam_draws_distinct_cards(deck):
    import random

    picked = exam_cards(deck, 20, rng=random.Random(1))
    assert len(picked) == 20 == len({c.id for c in picked})
    assert len(exam_cards(deck[:5], 20)) == 5
