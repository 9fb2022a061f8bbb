"""docs/adding-a-ruleset.md, walked in a copy of the content: every TOML block of the checklist is
written into the file its first line names, then `check`, the search and the new ruleset's screens
must work."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import flet as ft
import pytest
from tests.support.uihelpers import StubPage, texts

import handbook
from handbook.__main__ import main as cli
from handbook.ui import screens
from handbook.ui.context import AppContext, Settings

ROOT = Path(handbook.__file__).resolve().parent.parent
CHECKLIST = ROOT / "docs" / "adding-a-ruleset.md"
BLOCK = re.compile(r"```toml\n# (content/[^\n]+)\n(.*?)```", re.S)


def checklist_blocks() -> list[tuple[str, str]]:
    """(file, TOML) for every block of the checklist, in order."""
    return BLOCK.findall(CHECKLIST.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def new_content(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("added")
    shutil.copytree(ROOT / "content", root / "content")
    for rel, toml in checklist_blocks():
        path = root / rel
        with open(path, "a", encoding="utf-8") as fh:  # rulesets.toml is appended to; the others are new
            fh.write("\n" + toml)
    return root / "content"


@pytest.fixture(scope="module")
def new_library(new_content) -> handbook.Library:
    return handbook.load_library(new_content)


def test_the_checklist_names_the_files_it_adds():
    files = [rel for rel, _ in checklist_blocks()]
    assert files == ["content/rulesets.toml", "content/rules/club-2027.toml", "content/penalties/club-2027.toml",
                     "content/ja/handbook.toml"]


def test_check_passes_on_the_added_ruleset(new_content, capsys):
    assert cli(["check", str(new_content)]) == 0
    assert "club-2027" in set(handbook.load_library(new_content).rulesets)


def test_search_reaches_the_new_rows_in_english_and_japanese(new_library):
    for query in ("phone rang at the table", "携帯が鳴った"):
        first = new_library.search(query, ruleset="club-2027")[0]
        assert (first.kind, first.ruleset, first.ref) == ("penalty", "club-2027", "phone-ringing"), query


@pytest.mark.parametrize("route", ["/rules/club-2027", "/rules/club-2027/1.1", "/penalties/club-2027",
                                   "/penalties/club-2027/phone-ringing", "/search?q=phone&ruleset=club-2027"])
def test_the_new_rulesets_screens_build(new_library, route):
    ctx = AppContext(page=StubPage(), library=new_library, settings=Settings(), navigator=lambda r: None,
                     on_settings_change=lambda s: None)
    view = screens.build_view(ctx, route)
    assert isinstance(view, ft.View)
    shown = " ".join(texts(view))
    assert "Club 2027" in shown or "Example Club Rules 2027" in shown, route
    assert "Not found" not in shown, route
