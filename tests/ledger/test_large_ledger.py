"""A season's ledger on the screens: the players list and a player's records come a page at a
time (the browser lays out every row it is sent), a player can be found by name, and records not
parsed yet are read in a worker thread while the screen says so."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.support.ledgerhelpers import by_key, visible_texts, walk

from handbook.ui.screens import build_view
from handbook.ui.views.ledger import PLAYERS_SHOWN, RECORDS_SHOWN

NOTEN = "Noten Riichi"


def _season(ledger, players: int, records_of_one: int = 0) -> None:
    lines = ["player,date,ruleset,foul"]
    lines += [f"Player {i:04d},2026-04-01,azrm,{NOTEN}" for i in range(players)]
    lines += [f"Busy,2026-04-{1 + i % 28:02d},azrm,{NOTEN}" for i in range(records_of_one)]
    ledger.import_text("\n".join(lines) + "\n", "csv")


def _player_rows(view) -> list[str]:
    return [c.key for c in walk(view) if isinstance(getattr(c, "key", None), str)
            and c.key.startswith("player-") and c.key != "player-name"]


def test_the_players_come_a_page_at_a_time_and_can_be_found(ctx, app_ledger):
    _season(app_ledger, PLAYERS_SHOWN * 2 + 7)
    v = build_view(ctx, "/ledger")
    assert len(_player_rows(v)) == PLAYERS_SHOWN
    more = by_key(v, "more-players")
    more.on_click(None)
    assert len(_player_rows(v)) == PLAYERS_SHOWN * 2
    find = by_key(v, "find-player")
    assert find.visible
    find.value = "player 0100"
    find.on_change(None)
    assert _player_rows(v) == ["player-Player 0100"]
    find.value = "nobody"
    find.on_change(None)
    assert "No player matches “nobody”." in visible_texts(v)


def test_a_player_with_many_records_shows_the_newest_first_a_page_at_a_time(ctx, app_ledger):
    _season(app_ledger, 0, RECORDS_SHOWN + 20)
    v = build_view(ctx, "/ledger/Busy")
    cards = [c for c in walk(v) if str(getattr(c, "key", "")).startswith("record-")]
    assert len(cards) == RECORDS_SHOWN
    by_key(v, "more-records").on_click(None)
    cards = [c for c in walk(v) if str(getattr(c, "key", "")).startswith("record-")]
    assert len(cards) == RECORDS_SHOWN + 20


def test_records_not_read_yet_are_read_off_the_event_loop(ctx, app_ledger, tmp_path, library):
    from handbook.ledger import Ledger
    from handbook.storage import open_db

    _season(app_ledger, 3)
    cold = Ledger(open_db(tmp_path / "data" / "ledger.json"), library)  # a server just started
    ctx.stores.ledger = cold
    assert not cold.ready()

    async def open_ledger():
        v = build_view(ctx, "/ledger")  # inside the event loop, as a session builds it
        first = visible_texts(v)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if _player_rows(v):
                break
        return first, _player_rows(v)

    first, rows = asyncio.run(open_ledger())
    assert "Opening the ledger…" in first
    assert len(rows) == 3 and cold.ready()


def test_a_large_import_runs_in_a_process_of_its_own(tmp_path, library, monkeypatch):
    """In a thread, 60,000 records held the interpreter's lock for tens of seconds and every
    other session waited; a large file is imported by another process, and what it stored is
    handed back without parsing the file again."""
    from handbook.ledger import Ledger, isolated
    from handbook.storage import open_db

    led = Ledger(open_db(tmp_path / "ledger.json"), library)
    text = "player,date,ruleset,foul\n" + "".join(f"P{i},2026-04-01,azrm,{NOTEN}\n" for i in range(300))
    monkeypatch.setattr(isolated, "PROCESS_IMPORT_BYTES", 1024)
    in_this_process: list = []
    monkeypatch.setattr(Ledger, "import_text", lambda *a, **k: in_this_process.append(a))
    result = asyncio.run(isolated.import_isolated(led, text.encode(), name="season.csv"))
    assert in_this_process == []
    assert result.added == 300
    assert led.ready() and len(led.players()) == 300
    # the records handed back are the ledger's own, the ones added named in the result
    assert [r.player for r in result.records] == [f"P{i}" for i in range(300)]
    assert set(result.records) == set(led.records())
    # and its players, as the import's process listed them, are the ones the file holds
    assert led.players() == Ledger(open_db(tmp_path / "ledger.json"), library).players()


def test_the_import_process_runs_on_pythons_own_allocator_and_finds_the_package():
    """The server runs on the C library's allocator; the import's process must not (63,549
    records took 10.5 s there against 8.8 s), and it imports the same ``handbook`` whatever the
    working folder."""
    from pathlib import Path

    import handbook
    from handbook.ledger.isolated import child_environ

    env = child_environ({"PYTHONMALLOC": "malloc", "PATH": "/bin", "PYTHONPATH": "/x"})
    assert "PYTHONMALLOC" not in env and env["PATH"] == "/bin"
    root = str(Path(handbook.__file__).resolve().parents[1])
    assert env["PYTHONPATH"].split(os.pathsep) == [root, "/x"]


def test_a_refused_file_is_refused_from_the_import_process_too(tmp_path, library, monkeypatch):
    """The import's process hands its error back: the judge sees the same line and reason, and
    nothing stored changes."""
    from handbook.ledger import Ledger, LedgerImportError, isolated
    from handbook.storage import open_db

    led = Ledger(open_db(tmp_path / "ledger.json"), library)
    led.add("Ann", "2026-04-01", "azrm", NOTEN)
    rows = "".join(f"P{i},2026-04-01,azrm,{NOTEN}\n" for i in range(200))
    text = "player,date,ruleset,foul\n" + rows + "Bob,not a date,azrm,x\n"
    monkeypatch.setattr(isolated, "PROCESS_IMPORT_BYTES", 1024)
    with pytest.raises(LedgerImportError, match="line 202"):
        asyncio.run(isolated.import_isolated(led, text.encode(), name="season.csv"))
    assert [r.player for r in Ledger(open_db(tmp_path / "ledger.json"), library).records()] == ["Ann"]


def test_while_another_process_imports_readers_keep_the_records_as_they_stood(tmp_path, library):
    """The import's own process rewrites the file; until its records are handed over, the
    server's readers do not parse that file again (seconds for a season, every session waiting)."""
    from handbook.ledger import Ledger
    from handbook.storage import open_db

    path = tmp_path / "ledger.json"
    led = Ledger(open_db(path), library)
    led.add("Ann", "2026-04-01", "azrm", NOTEN)
    assert len(led.records()) == 1
    other = Ledger(open_db(path), library)  # what the import's process does to the file
    led._importing += 1  # noqa: SLF001 - as import_isolated does while the other process runs
    other.add("Bob", "2026-04-02", "azrm", NOTEN)
    assert [r.player for r in led.records()] == ["Ann"]
    led._importing -= 1  # noqa: SLF001
    assert [r.player for r in led.records()] == ["Ann", "Bob"]
