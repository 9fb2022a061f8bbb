"""Study data under stress: a large progress file is imported in one write, a file over the cap
is refused unread, a damaged study.json is reported on the study screens, and answering a card
on a full disk says so instead of crashing the session."""

from __future__ import annotations

import datetime
import errno
import json

import pytest

from handbook import storage
from handbook.study.deck import study_deck
from handbook.storage import open_db
from handbook.study.store import MAX_IMPORT_BYTES, StudyImportError, StudyStore
from tests.support.uihelpers import Event, StubPage, texts, walk  # noqa: E402

UTC = datetime.timezone.utc


@pytest.fixture
def store(tmp_path, library):
    return StudyStore(open_db(tmp_path / "study.json"), library)


def _export(library, n: int) -> str:
    """A study export of ``n`` answered cards."""
    when = datetime.datetime(2026, 4, 1, 10, tzinfo=UTC)
    progress = [{"card": f"card-{i}", "state": 2, "step": None, "stability": 3.0, "difficulty": 5.0,
                 "due": (when + datetime.timedelta(days=3)).isoformat(), "last_review": when.isoformat(),
                 "reviews": 1, "lapses": 0, "last_rating": 3, "first": "2026-04-01"} for i in range(n)]
    return json.dumps({"format": "riichi-judge-handbook/study", "version": 1, "exported": when.isoformat(),
                       "progress": progress, "bookmarks": []})


def test_a_large_import_is_stored_in_one_write(store, library, monkeypatch):
    text = _export(library, 1500)  # ~450 kB, the file that froze every session for 21 s
    writes: list[int] = []
    real = storage.atomic_write_text

    def counted(path, data):
        writes.append(len(data))
        real(path, data)

    monkeypatch.setattr(storage, "atomic_write_text", counted)
    result = store.import_json(text)
    assert result.added == 1500 and not result.skipped
    assert len(writes) == 1
    assert len(store.progress()) == 1500
    again = store.import_json(text)  # the same file again: nothing newer, nothing written
    assert (again.added, again.updated, again.kept) == (0, 0, 1500) and len(writes) == 1


def test_a_newer_answer_replaces_the_stored_one(store, library):
    deck = study_deck("azrm", library=library)
    store.review(deck[0], "again", now=datetime.datetime(2026, 4, 1, tzinfo=UTC))
    doc = json.loads(store.export_json())
    doc["progress"][0]["last_review"] = "2026-05-01T00:00:00+00:00"
    doc["progress"][0]["lapses"] = 7
    result = store.import_json(json.dumps(doc))
    assert result.updated == 1
    [p] = store.progress().values()
    assert p.lapses == 7


def test_a_file_over_the_cap_is_refused_unread(store):
    with pytest.raises(StudyImportError, match="larger than 2 MB"):
        store.import_json(b" " * (MAX_IMPORT_BYTES + 1))


def _ctx(library, store):
    from handbook.ui.context import AppContext, Settings

    ctx = AppContext(page=StubPage(), library=library, settings=Settings(), navigator=lambda r: None)
    ctx.stores.study = store
    return ctx


def test_a_damaged_study_file_is_reported_on_the_study_screens(tmp_path, library):
    from handbook.ui.screens import build_view

    path = tmp_path / "study.json"
    path.write_text('{"progress": {"1": {"card": "x"}}, "bookmarks": [1, 2]}', encoding="utf-8")
    store = StudyStore(open_db(path), library)
    ctx = _ctx(library, store)
    for route in ("/study", "/study/progress", "/bookmarks"):
        shown = " ".join(texts(build_view(ctx, route)))
        assert "Your study progress could not be read" in shown, route
        assert "Nothing was deleted" in shown and "damaged" in shown
    view = build_view(ctx, "/study")
    dismiss = next(c for c in walk(view) if getattr(c, "content", None) == "Dismiss")
    dismiss.on_click(Event(dismiss))
    assert "Your study progress could not be read" not in " ".join(texts(build_view(ctx, "/study")))


def test_answering_a_card_on_a_full_disk_says_so(store, library, monkeypatch):
    from handbook.ui.screens import build_view

    ctx = _ctx(library, store)
    view = build_view(ctx, "/study?ruleset=azrm")
    show = next(c for c in walk(view) if getattr(c, "key", None) == "show-answer")
    show.on_click(Event(show))

    def full(path, text):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(storage, "atomic_write_text", full)
    good = next(c for c in walk(view) if getattr(c, "key", None) == "rate-good")
    good.on_click(Event(good))  # no exception: the session goes on
    shown = " ".join(texts(view))
    assert "could not be saved (No space left on device)" in shown
    assert any(getattr(c, "key", None) == "rate-good" for c in walk(view))  # the card is still there
