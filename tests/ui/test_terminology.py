"""The terminology table (content/terminology.toml) is what the Japanese screens say: every
translated message that names a concept of the table uses the table's word, never a word it
avoids (警告 for Warning, 和了者 for the game's winner, 連荘 for a dealer who stays after a
chombo), and the glossary term each choice names carries the same word."""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

from handbook.core.terminology import load_terminology, problems

ROOT = Path(__file__).resolve().parents[2]


def _pairs():
    with open(ROOT / "locales" / "ja" / "LC_MESSAGES" / "messages.po", "rb") as fh:
        cat = read_po(fh)
    for m in cat:
        if not m.id or not m.string:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        strings = (m.string,) if isinstance(m.string, str) else m.string
        for en in ids:
            for ja in strings:
                if ja:
                    yield en, ja


def test_every_choice_names_its_source():
    table = load_terminology()
    assert len(table) >= 10
    for c in table:
        assert c.source.strip() and c.japanese.strip()
    assert {c.id for c in table} >= {"warning", "dead-hand", "chombo", "strike", "suspension", "uma",
                                     "riichi-deposit", "game-winner"}
    # the AZRM glossary first
    assert next(c for c in table if c.id == "warning").japanese == "注意"


def test_the_catalog_uses_the_tables_words():
    bad = problems(_pairs())
    assert not bad, "\n".join(f"{en!r} -> {ja!r}: {why}" for en, ja, why in bad)


def test_the_glossary_carries_the_tables_words(library):
    for c in load_terminology():
        if c.glossary:
            ja = library.term(c.glossary).japanese or ""
            assert any(w in ja for w in (c.japanese, *c.forms)), (c.id, ja)


def test_a_word_the_table_avoids_is_caught():
    table = load_terminology()
    assert problems([("Warning", "警告")], table)
    assert problems([("to the winner", "和了者へ")], table)
    assert problems([("The dealer stays (no rotation).", "親はそのまま（連荘）です。")], table)
    assert not problems([("Warning", "注意")], table)
