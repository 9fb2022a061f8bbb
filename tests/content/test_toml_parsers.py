"""The content loader parses with tomli's compiled wheel where it is installed (the served app)
and with the standard library's tomllib where it is not (the offline app builds its snapshot on
the host, but a trimmed install falls back): both must read every content file the same."""

from __future__ import annotations

import tomllib

import pytest

from handbook.core import problems


def test_every_content_file_parses_the_same_with_both_parsers(root_dir):
    tomli = pytest.importorskip("tomli")
    assert problems.tomllib is tomli, "the loader should use tomli where it is installed"
    files = sorted((root_dir / "content").rglob("*.toml"))
    assert len(files) >= 10
    for path in files:
        text = path.read_text("utf-8")
        assert tomli.loads(text) == tomllib.loads(text), path.name


@pytest.mark.parametrize("bad", ['a = "unterminated\n', "a = 1\na = 2\n", "[x]\nb = [1,\n", 'c = "\\q"\n'])
def test_both_parsers_refuse_the_same_bad_toml(bad):
    tomli = pytest.importorskip("tomli")
    with pytest.raises(tomllib.TOMLDecodeError):
        tomllib.loads(bad)
    with pytest.raises(tomli.TOMLDecodeError):
        tomli.loads(bad)
