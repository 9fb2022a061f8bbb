"""Faults a clumsy user, a damaged disk or a hostile file can cause: none loses a record, each is
refused or reported with a clear message."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest

from handbook import ledger as ledger_mod
from handbook.ledger import Ledger, LedgerImportError, csv_cell, csv_uncell
from handbook.storage import open_db

NOTEN = "Noten Riichi"
FORMULAS = ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3", "@SUM(A1)", "'=already quoted",
            "'plain apostrophe", "=", "'"]


@pytest.fixture
def path(tmp_path):
    return tmp_path / "ledger.json"


@pytest.fixture
def ledger(path, library):
    return Ledger(open_db(path), library)


# --- CSV formula injection ----------------------------------------------------------------------

def test_no_exported_cell_starts_like_a_formula_and_import_gives_the_same_text(ledger, tmp_path,
                                                                              library):
    for i, text in enumerate(FORMULAS):
        ledger.add(f"{text} p{i}", "2026-04-01", "azrm", NOTEN, club=text[:40], note=text)
    exported = ledger.export_csv()
    for row in csv.reader(io.StringIO(exported)):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@", "\t", "\r")), cell
    other = Ledger(open_db(tmp_path / "other.json"), library)
    assert other.import_text(exported, "csv").added == len(FORMULAS)
    assert other.records() == ledger.records()
    assert sorted(r.note for r in other.records()) == sorted(FORMULAS)


@pytest.mark.parametrize("text", FORMULAS + ["", "plain", "O'Brien", "-", "''", "'''="])
def test_csv_cell_round_trip(text):
    assert csv_uncell(csv_cell(text)) == text
    assert not csv_cell(text).startswith(("=", "+", "-", "@"))
