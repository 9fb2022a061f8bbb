"""Names, clubs and notes chosen to confuse the ledger: a ``~`` in a name, joiners that are part
of a spelling, a formula after a separator inside a CSV cell."""

from __future__ import annotations

import csv
import datetime
import io

import pytest
from hypothesis import given, strategies as st

from handbook.ledger import Ledger, csv_cell, csv_uncell, player_key, split_player_key
from handbook.storage import open_db

NOTEN = "Noten Riichi"
DAY = datetime.date(2026, 4, 1)


@pytest.fixture
def ledger(tmp_path, library):
    return Ledger(open_db(tmp_path / "ledger.json"), library)


# --- a "~" in a name is not a club -------------------------------------------------------------

def test_a_tilde_in_the_name_is_not_a_club(ledger):
    ledger.add("Ann~C1", DAY, "azrm", NOTEN)
    ledger.add("Ann", DAY, "azrm", NOTEN, club="C1")
    ledger.add("Ann", DAY, "azrm", NOTEN, club="C1")
    players = {(p.name, p.club): p for p in ledger.players()}
    assert set(players) == {("Ann~C1", None), ("Ann", "C1")}
    tilde, club = players[("Ann~C1", None)], players[("Ann", "C1")]
    assert (tilde.strikes, club.strikes) == (1, 2)
    assert tilde.key != club.key
    assert ledger.player(tilde.key).name == "Ann~C1" and ledger.player(tilde.key).club is None
    assert ledger.player(club.key).club == "C1"
    assert ledger.status(tilde.key, DAY).strikes_today == 1
    assert ledger.status(club.key, DAY).strikes_today == 2
    assert [r.player for r in ledger.records(tilde.key)] == ["Ann~C1"]


def test_keys_without_tilde_or_percent_are_as_before():
    assert player_key("Alice Smith", "AZ-1") == "Alice Smith~AZ-1"
    assert player_key("Bo") == "Bo"


@given(st.text(min_size=1, max_size=12).filter(lambda t: t.strip()),
       st.one_of(st.none(), st.text(min_size=1, max_size=8).filter(lambda t: t.strip())))
def test_a_key_gives_back_its_name_and_club(name, club):
    name, club = " ".join(name.split()), (" ".join(club.split()) if club else None)
    got_name, got_club = split_player_key(player_key(name, club))
    assert player_key(got_name, got_club) == player_key(name, club)


# --- joiners that spell a name are kept, the ones that only hide are dropped -------------------

@pytest.mark.parametrize("name", ["\U0001F468\u200d\U0001F469\u200d\U0001F467",  # one family
                                  "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian, ZWNJ
                                  "\u0915\u094d\u200d\u0937"])  # Devanagari, ZWJ after the virama
def test_a_joiner_that_is_part_of_the_spelling_is_kept(ledger, name):
    rec = ledger.add(name, DAY, "azrm", NOTEN)
    assert rec.player == name
    without = name.replace("\u200d", "").replace("\u200c", "")
    ledger.add(without, DAY, "azrm", NOTEN)
    assert len(ledger.players()) == 2  # written without the joiner it is another name


# --- a formula after a separator inside a cell --------------------------------------------------

@pytest.mark.parametrize("note", ["Semi;=1+1", "a,+1", "tab\t-2", "pipe|@SUM(A1)", "line\n=1",
                                  "q;\"=1+1"])
def test_no_spreadsheet_separator_starts_a_formula_inside_a_cell(ledger, tmp_path, library, note):
    ledger.add("Semi", DAY, "azrm", NOTEN, note=note)
    text = ledger.export_csv()
    for sep in (",", ";", "\t", "|"):
        for row in csv.reader(io.StringIO(text), delimiter=sep):
            for cell in row:
                assert not cell.lstrip('"').startswith(("=", "+", "-", "@")), (sep, cell)
    other = Ledger(open_db(tmp_path / "other.json"), library)
    assert other.import_text(text, "csv").added == 1
    assert other.records()[0].note == note


@given(st.text(alphabet=st.sampled_from(list("ab;,|\t\r\n=+-@'\"")), max_size=12))
def test_csv_cell_round_trips_any_text(text):
    assert csv_uncell(csv_cell(text)) == text
