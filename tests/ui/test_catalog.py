"""Catalog hygiene: locales/messages.pot holds exactly the messages the screens use (`make i18n`),
and every one of them has a Japanese translation that is not fuzzy, keeps the placeholders and
has the plural form Japanese has (one)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "locales" / "messages.pot"
#: every language the UI offers besides English (the source language)
TRANSLATED = ("ja",)
HOW_TO = ("run `make i18n` (it adds new messages to locales/{lang}/LC_MESSAGES/messages.po), then "
          "write the translation in that file's msgstr (msgstr[0] for a plural), remove any "
          "`#, fuzzy` line after checking the text, and run `make i18n` again to compile it")


def _read(path: Path) -> Catalog:
    with open(path, "rb") as fh:
        return read_po(fh)


def _ids(path: Path) -> set[str]:
    return {m.id if isinstance(m.id, str) else m.id[0] for m in _read(path) if m.id}


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[a-z_]*\}", text))


def test_template_is_up_to_date(tmp_path):
    out = tmp_path / "messages.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run([str(pybabel), "extract", "-F", "pyproject.toml", "-k", "N_", "-o", str(out), "."],
                   cwd=ROOT, check=True, capture_output=True, timeout=120)
    current, committed = _ids(out), _ids(TEMPLATE)
    assert current, "no messages extracted: the screens must wrap their strings in _()"
    missing, stale = current - committed, committed - current
    assert not missing and not stale, (
        f"locales/messages.pot is out of date (run `make i18n`): "
        f"missing {sorted(missing)[:10]}, stale {sorted(stale)[:10]}")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang):
    """A new English string fails here until it has a reviewed translation."""
    po = ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po"
    assert po.is_file(), f"{po.relative_to(ROOT)} is missing: " + HOW_TO.format(lang=lang)
    catalog = _read(po)
    assert not catalog.fuzzy, f"{po.relative_to(ROOT)}: the header is marked fuzzy (pybabel compile skips it)"
    translated = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog if m.id}
    template = [m for m in _read(TEMPLATE) if m.id]
    untranslated, fuzzy = [], []
    for m in template:
        key = m.id if isinstance(m.id, str) else m.id[0]
        t = translated.get(key)
        strings = () if t is None else (t.string,) if isinstance(t.string, str) else t.string
        if t is None or not strings or not all(strings):
            untranslated.append(key)
        elif t.fuzzy:
            fuzzy.append(key)
    problems = []
    if untranslated:
        problems.append(f"{len(untranslated)} message(s) of locales/messages.pot have no {lang} translation:\n"
                        + "\n".join(f"  msgid {k!r}" for k in untranslated))
    if fuzzy:
        problems.append(f"{len(fuzzy)} {lang} translation(s) are fuzzy (guessed by `pybabel update`, not "
                        f"checked):\n" + "\n".join(f"  msgid {k!r}" for k in fuzzy))
    assert not problems, "\n".join(problems) + "\nTo fix: " + HOW_TO.format(lang=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_placeholders_and_plural_forms(lang):
    catalog = _read(ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po")
    assert catalog.num_plurals == 1  # Japanese: one form for every count
    wrong = []
    for m in catalog:
        if not m.id or not m.string:
            continue
        ids = [m.id] if isinstance(m.id, str) else list(m.id)
        strings = [m.string] if isinstance(m.string, str) else list(m.string)
        assert len(strings) == (1 if isinstance(m.id, str) else catalog.num_plurals), m.id
        wanted = set().union(*map(_placeholders, ids))
        for s in strings:
            if _placeholders(s) != wanted:
                wrong.append(f"{ids[0]!r}: {sorted(_placeholders(s))} instead of {sorted(wanted)}")
    assert not wrong, "translations with other placeholders than the English:\n" + "\n".join(wrong)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogue_is_current(lang):
    """`make run` / `make test` / `make pwa` compile the .po: the .mo the app reads is not older
    than the .po it comes from (a stale .mo would show yesterday's text)."""
    po = ROOT / "locales" / lang / "LC_MESSAGES" / "messages.po"
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo.relative_to(ROOT)} is not compiled: run `make i18n` (or make run / make test)"
    assert mo.stat().st_mtime >= po.stat().st_mtime, f"{mo.relative_to(ROOT)} is older than its .po: run `make i18n`"
