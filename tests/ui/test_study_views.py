"""The study screens built as the app builds them (stub page): answer a card, progress bars,
exam score, the star on entry pages, the bookmarks list and the recent list on the search page."""

from __future__ import annotations

import flet as ft
import msgpack
import pytest
from flet.controls.base_control import BaseControl
from flet.controls.object_patch import ObjectPatch
from flet.messaging.protocol import configure_encode_object_for_msgpack
from tests.support.uihelpers import Event, find, texts, walk

from handbook.storage import open_db
from handbook.study.store import StudyStore
from handbook.ui import routes, screens


@pytest.fixture
def store(tmp_path, library, ctx):
    """The study store the screens of ``ctx`` use, in a temporary file."""
    s = StudyStore(open_db(tmp_path / "study.json"), library)
    ctx.stores.study = s
    return s


def keyed(view, key):
    found = [c for c in walk(view) if getattr(c, "key", None) == key]
    assert found, f"no control with key {key!r}"
    return found[0]


def tap(control):
    control.on_click(Event(control))


@pytest.mark.parametrize("route", ["/study", "/study?ruleset=wrc-2025", "/study/progress?ruleset=azrm",
                                   "/study/exam?ruleset=rakkii-nomi-2026", "/bookmarks"])
def test_study_screens_build_and_serialise(ctx, store, route):
    view = screens.build_view(ctx, route)
    assert isinstance(view, ft.View) and view.route == routes.split_route(route)[0]
    patch, added, _ = ObjectPatch.from_diff(None, view, control_cls=BaseControl)
    for c in added:
        c.before_update()
    assert msgpack.packb(patch.to_message(), default=configure_encode_object_for_msgpack(BaseControl))


def test_answer_a_card_and_the_next_one_comes(ctx, store, library):
    view = screens.build_view(ctx, "/study?ruleset=wrc-2025")
    first_prompt = keyed(view, "card-prompt").value
    assert first_prompt == library.rulesets["wrc-2025"].penalties[0].foul
    assert "Due today: 0" in keyed(view, "study-summary").value
    tap(keyed(view, "show-answer"))
    answer = keyed(view, "card-answer").value
    assert answer.startswith(library.rulesets["wrc-2025"].penalties[0].penalty)
    shown = texts(view)
    assert "Same foul in other rulesets" in " ".join(shown)
    assert any("AZRM" == t for t in shown)  # the same foul in AZRM's table
    tap(keyed(view, "rate-good"))
    assert len(store.progress()) == 1
    assert keyed(view, "card-prompt").value != first_prompt


def test_again_comes_back_and_counts_as_missed(ctx, store):
    view = screens.build_view(ctx, "/study?ruleset=azrm")
    tap(keyed(view, "show-answer"))
    tap(keyed(view, "rate-again"))
    prog = list(store.progress().values())
    assert prog[0].lapses == 1
    view = screens.build_view(ctx, "/study/progress?ruleset=azrm")
    shown = " ".join(texts(view))
    assert "Again: 1 of 1 answers" in shown
    assert "Penalties: 0 learned · 1 due" in shown


def test_exam_scores_twenty_cards_without_scheduling(ctx, store):
    view = screens.build_view(ctx, "/study/exam?ruleset=ema-rcr")
    for i in range(20):
        assert keyed(view, "exam-count").value == f"Question {i + 1} of 20"
        tap([c for c in walk(view) if isinstance(c, ft.FilledButton)][0])  # Show answer
        tap(keyed(view, "exam-knew" if i % 4 else "exam-missed"))
    assert keyed(view, "exam-score").value == "Score: 15 of 20"
    assert store.progress() == {}


def test_star_bookmarks_and_recent_list(ctx, store, library):
    view = screens.build_view(ctx, "/rules/azrm/2.4")
    star = find(view.appbar, ft.Semantics, label="Bookmark", toggled=False)
    assert star
    star[0].on_tap(None)
    assert store.is_bookmarked("rule", "azrm", "2.4")
    screens.build_view(ctx, "/glossary/kui-kae")
    screens.build_view(ctx, "/penalties/wrc-2025/wrong-tile-count")
    marks = screens.build_view(ctx, "/bookmarks")
    assert any("AZRM §2.4" in t for t in texts(marks))
    home = screens.build_view(ctx, "/")
    shown = texts(home)
    i = shown.index("Recently opened (3)")
    assert "WRC 2025: Too many or too few tiles" in shown[i + 1]
    assert find(screens.build_view(ctx, "/rules/azrm/2.4").appbar, ft.Semantics, label="Bookmark", toggled=True)
    # a search with text shows results, not the recent list
    results = screens.build_view(ctx, "/search?q=chombo")
    assert not any(t.startswith("Recently opened") for t in texts(results))


def test_exam_count_stays_while_the_answer_shows(ctx, store):
    view = screens.build_view(ctx, "/study/exam?ruleset=azrm")
    tap([c for c in walk(view) if isinstance(c, ft.FilledButton)][0])  # Show answer
    assert keyed(view, "exam-knew")  # the answer is showing
    assert keyed(view, "exam-count").value == "Question 1 of 20"
    tap(keyed(view, "exam-knew"))
    assert keyed(view, "exam-count").value == "Question 2 of 20"
