"""What a client of the served app may and may not make the server do: an import reads only the
bytes the browser sent (never a path it names), within a size cap; export goes to the browser."""

from __future__ import annotations

import flet as ft
import pytest
from tests.support.ledgerhelpers import by_key, fire, visible_texts, walk

from handbook import ledger as ledger_mod
from handbook.ui.screens import build_view


def _import(v):
    fire(by_key(v, "import").on_click, None)


def test_import_never_opens_a_path_the_client_names(ctx, app_ledger, picker, tmp_path):
    secret = tmp_path / "server-secret.csv"
    secret.write_text("player,date,ruleset,foul\nTOP-SECRET,2026-04-01,azrm,Noten Riichi\n")
    picker.files = [ft.FilePickerFile(id=0, name="x.csv", size=10, path=str(secret), bytes=None)]
    v = build_view(ctx, "/ledger")
    _import(v)
    text = visible_texts(v)
    assert "TOP-SECRET" not in text and "server-secret" not in text
    assert "The browser sent no file contents" in text
    assert app_ledger.records() == []
    assert picker.kw.get("with_data") is True


def test_import_reads_the_bytes_the_browser_sent(ctx, app_ledger, picker):
    data = b"player,date,ruleset,foul\nIan,2026-04-01,azrm,Noten Riichi\n"
    picker.files = [ft.FilePickerFile(id=0, name="in.csv", size=len(data), path="/etc/passwd",
                                      bytes=data)]
    v = build_view(ctx, "/ledger")
    _import(v)
    assert [r.player for r in app_ledger.records()] == ["Ian"]
    assert "Imported 1 record from in.csv" in visible_texts(v)


@pytest.mark.parametrize("claimed", ["size", "bytes"])
def test_import_refuses_a_file_over_the_cap(ctx, app_ledger, picker, claimed):
    cap = ledger_mod.MAX_IMPORT_BYTES
    big = b"player,date,ruleset,foul\n" + b"x" * (cap + 1) if claimed == "bytes" else b"player\n"
    size = len(big) if claimed == "bytes" else cap + 1
    picker.files = [ft.FilePickerFile(id=0, name="big.csv", size=size, bytes=big)]
    v = build_view(ctx, "/ledger")
    _import(v)
    assert "is larger than" in visible_texts(v)
    assert app_ledger.records() == []


def test_import_text_api_refuses_oversized_text(app_ledger):
    with pytest.raises(ledger_mod.LedgerImportError, match="larger than"):
        app_ledger.import_text("x" * (ledger_mod.MAX_IMPORT_BYTES + 1), "csv")


def test_export_in_the_served_app_goes_to_the_browser(ctx, app_ledger, picker, page, tmp_path):
    app_ledger.add("Jo", "2026-04-01", "azrm", "Noten Riichi")
    page.web = True
    v = build_view(ctx, "/ledger/Jo")
    csv_button = next(c for c in walk(v) if isinstance(c, ft.OutlinedButton)
                      and c.content == "Export CSV")
    fire(csv_button.on_click, None)
    [saved] = picker.saved
    assert saved["file_name"].startswith("ledger-Jo-") and saved["file_name"].endswith(".csv")
    assert b"Jo,,2026-04-01,azrm" in saved["src_bytes"]
    assert not (tmp_path / "data" / "exports").exists()
    assert "Exported 1 record as ledger-Jo-" in visible_texts(v)
    assert str(tmp_path) not in visible_texts(v)
