"""Catalog hygiene: locales/messages.pot holds exactly the messages the screens use (`make i18n`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]


def _ids(path: Path) -> set[str]:
    with open(path, "rb") as fh:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fh) if m.id}


def test_template_is_up_to_date(tmp_path):
    out = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "extract", "-F", "pyproject.toml", "-k", "N_", "-o", str(out), "."],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    current, committed = _ids(out), _ids(ROOT / "locales" / "messages.pot")
    assert current, "no messages extracted: the screens must wrap their strings in _()"
    missing, stale = current - committed, committed - current
    assert not missing and not stale, (
        f"locales/messages.pot is out of date (run `make i18n`): "
        f"missing {sorted(missing)[:10]}, stale {sorted(stale)[:10]}")
