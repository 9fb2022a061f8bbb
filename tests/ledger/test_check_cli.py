"""``python -m handbook check`` on broken content: every problem is a coded line, never a
traceback; a missing glossary.toml or rulings.toml is a problem, not "ok"."""

from __future__ import annotations

import pytest

from handbook.__main__ import main


@pytest.mark.parametrize("name,data,expected", [
    ("glossary.toml", b"term = \"\xff\xfe bad\"\n", "not UTF-8 text at byte 8"),
    ("glossary.toml", "[[term]]\nid = 'x'\n".encode("utf-16"), "looks like UTF-16"),
    ("rulings.toml", b"a = " + b"[" * 50_000 + b"]" * 50_000 + b"\n", "nested too deeply"),
])
def test_check_reports_unreadable_files_without_a_traceback(content_copy, capsys, name, data,
                                                            expected):
    (content_copy / name).write_bytes(data)
    assert main(["check", str(content_copy)]) == 1
    out = capsys.readouterr()
    assert f"HB001 {name}" in out.out and expected in out.out
    assert "Traceback" not in out.out + out.err


@pytest.mark.parametrize("name", ["glossary.toml", "rulings.toml"])
def test_check_reports_a_missing_file(content_copy, capsys, name):
    (content_copy / name).unlink()
    assert main(["check", str(content_copy)]) == 1
    out = capsys.readouterr().out
    assert name in out and "the file is missing" in out
