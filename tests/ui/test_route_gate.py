"""The judge gate as a property of the route table: every route that reads the ledger or the
study store (progress, bookmarks, recent lookups) declares it, and with a gate active a session
that has not given the passphrase is handed none of it — ``JUDGE`` routes show the passphrase
screen, the open parts of ``JUDGE_PARTS`` routes stay empty."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from tests.support.uihelpers import Event, texts, walk

from handbook import access
from handbook.study.deck import study_deck
from handbook.ledger import Ledger
from handbook.storage import open_db
from handbook.study.store import StudyStore
from handbook.ui import routes
from handbook.ui.context import AppContext, Settings
from handbook.ui.screens import build_view
from handbook.ui.stores import Stores
from tests.support.uihelpers import StubPage

PASS = "east-wind-judge"
SUSPENDED = "Sam Suspended"


class Watched:
    """A store that notes every use of it (``log``), then does what the store does."""

    def __init__(self, store: Any, name: str, log: list[str]) -> None:
        object.__setattr__(self, "_store", store)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_log", log)

    def __getattr__(self, attr: str) -> Any:
        self._log.append(f"{self._name}.{attr}")
        return getattr(self._store, attr)


@pytest.fixture
def data(library, tmp_path, monkeypatch):
    """A ledger with a suspended player and a study store with a bookmark, a recent lookup and
    a reviewed card, both watched; yields ``(stores, log, study)``."""
    monkeypatch.setenv("HANDBOOK_DATA_DIR", str(tmp_path / "data"))
    ledger = Ledger(open_db(tmp_path / "ledger.json"), library)
    day = datetime.date.today() - datetime.timedelta(days=2)
    for _ in range(3):
        ledger.add(SUSPENDED, day, "azrm", "Noten Riichi")
    study = StudyStore(open_db(tmp_path / "study.json"), library)
    study.set_bookmark("term", None, "misehai", True)
    study.opened("rule", "azrm", "2.4")
    study.review(study_deck("azrm", library=library)[0], "again")
    log: list[str] = []
    stores = Stores(library, ledger=Watched(ledger, "ledger", log),
                    study=Watched(study, "study", log))
    return stores, log, study


def shown(view: Any) -> str:
    """Every text of a screen, one a line."""
    return "\n".join(texts(view))


def session(library, stores: Stores, *, judge: bool = False) -> AppContext:
    return AppContext(page=StubPage(), library=library, settings=Settings(), stores=stores,
                      navigator=lambda route: None, judge=judge)


@pytest.fixture
def gated():
    access.configure(access.Gate(PASS))
    yield
    access.configure(None)


def test_every_route_declares_a_gate():
    assert {r.gate for r in routes.ROUTES} <= set(routes.GATES)
    with pytest.raises(ValueError, match="gate must be one of open, judge, judge-parts"):
        routes.Route("/x", "x", gate="maybe")


def test_a_route_that_reads_the_judges_data_declares_it(library, data):
    """Opened by the judge (no gate: everything is shown), a route that uses the ledger or the
    study store must not be declared OPEN."""
    stores, log, _ = data
    undeclared = []
    for route in routes.ROUTES:
        log.clear()
        build_view(session(library, stores), route.sample)
        if log and route.gate == routes.OPEN:
            undeclared.append((route.pattern, sorted(set(log))))
    assert undeclared == []


def test_a_session_without_the_passphrase_is_handed_none_of_it(library, data, gated):
    stores, log, _ = data
    for route in routes.ROUTES:
        log.clear()
        text = shown(build_view(session(library, stores), route.sample))
        assert log == [], route.pattern
        assert SUSPENDED not in text and "Recently opened" not in text, route.pattern
        assert ("Judge passphrase" in text) == route.needs_judge, route.pattern


@pytest.mark.parametrize("route", ["/study", "/study/progress", "/bookmarks"])
def test_study_screens_ask_for_the_passphrase_then_open(library, data, gated, route):
    stores, log, _ = data
    ctx = session(library, stores)
    refreshed: list[bool] = []
    ctx.refresher = lambda: refreshed.append(True)
    v = build_view(ctx, route)
    assert "Judge passphrase" in shown(v) and not log
    box = next(c for c in walk(v) if getattr(c, "key", None) == "passphrase")
    button = next(c for c in walk(v) if getattr(c, "key", None) == "unlock")
    box.value = PASS
    button.on_click(Event(button))
    assert ctx.judge and refreshed
    v = build_view(ctx, route)
    assert "Judge passphrase" not in shown(v) and log
    lock = next(c for c in walk(v) if getattr(c, "key", None) == "lock")
    assert lock.tooltip == "Lock study data"
    lock.on_click(Event(lock))
    assert not ctx.judge and "Judge passphrase" in shown(build_view(ctx, route))


def test_players_do_not_see_the_judges_recent_lookups_or_add_to_them(library, data, gated):
    stores, _, study = data
    judge = session(library, stores, judge=True)
    player = session(library, stores)
    assert "Recently opened" in shown(build_view(judge, "/"))
    assert "Recently opened" not in shown(build_view(player, "/"))
    before = [(e.kind, e.ref) for e in study.recent()]
    for route in ("/glossary/misehai", "/rules/azrm/1.4", "/penalties/wrc-2025/revealed-tiles"):
        v = build_view(player, route)
        assert not [c for c in walk(v) if getattr(c, "key", None) == "bookmark"], route
    assert [(e.kind, e.ref) for e in study.recent()] == before


def test_locked_strikes_of_a_ledger_player_say_so_instead_of_not_suspended(library, data, gated):
    stores, _, _ = data
    route = "/tools/strikes?player=" + SUSPENDED.replace(" ", "%20")
    player = session(library, stores)
    text = shown(build_view(player, route))
    assert "Not suspended" not in text and "Standing" not in text
    assert "The ledger is locked" in text and "Judge passphrase" in text
    judge = session(library, stores, judge=True)
    assert "Standing: Suspended" in shown(build_view(judge, route))


def test_end_of_hanchan_fills_penalties_from_the_ledger_only_for_the_judge(library, data, gated):
    """/tools/final is JUDGE_PARTS: the calculator is open, the day's penalty lines of a table
    are the judge's. Without the passphrase none is shown (nor the ledger touched) even when the
    address asks for the table; the passphrase in place fills the penalty column."""
    stores, log, _ = data
    stores.ledger.add("Tina Table", datetime.date.today(), "azrm", "Noten Riichi", table="7")
    log.clear()
    route = "/tools/final?ruleset=azrm&table=7&e=22000&s=45000&w=16000&n=37000"
    player = session(library, stores)
    v = build_view(player, route)
    text = shown(v)
    assert log == [] and "Tina Table" not in text and "Noten Riichi" not in text
    assert "North: rank" in text  # the calculator itself works
    assert "Judge passphrase" in text  # offered in place, the scores stay
    box = next(c for c in walk(v) if getattr(c, "key", None) == "passphrase")
    button = next(c for c in walk(v) if getattr(c, "key", None) == "unlock")
    box.value = PASS
    button.on_click(Event(button))
    text = shown(v)
    assert player.judge and "Tina Table — Noten Riichi (AZRM), 30P" in text and log
    assert "Tina Table" in shown(build_view(session(library, stores, judge=True), route))
