"""Provenance: the glossary keeps the sources' words apart from the handbook's.

A term marked ``provenance = "source"`` has a definition found word for word in its ruleset's
source document (checked here with the seeds, and by ``python -m handbook check --sources``);
every other term is marked as the handbook's. Handbook texts state no fact the audit found
without a source (a mangan's value, the noten payment, where deposits go).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import handbook
from handbook.core.provenance import verify_sources

from tests.support import seedparse  # tests/content/seedparse.py


def test_every_term_is_marked(library):
    assert {t.provenance for t in library.glossary} <= {"source", "handbook"}
    assert all(t.provenance in ("source", "handbook") for t in library.glossary)


def test_the_azrm_glossary_terms_are_the_source_and_no_others(library, azrm_source_glossary):
    concepts = {c for c, _, _ in azrm_source_glossary}
    source_terms = {t.term for t in library.glossary if t.provenance == "source"}
    assert source_terms == concepts
    assert len(source_terms) == 24
    assert all(t.source == "azrm" for t in library.glossary if t.provenance == "source")


def test_every_source_definition_is_found_word_for_word(library, seeds_dir):
    for t in library.glossary:
        if t.provenance != "source":
            continue
        files = [f.strip() for f in library.rulesets[t.source].source.split(",")]
        texts = [seedparse.norm_ws(seedparse.read(seeds_dir, f)) for f in files]
        assert any(seedparse.norm_ws(t.definition) in x for x in texts), t.id


def test_the_check_finds_every_source_definition(library, seeds_dir):
    assert verify_sources(library, seeds_dir) == []


def test_a_handbook_definition_marked_as_source_is_caught(content_copy, seeds_dir):
    path = content_copy / "glossary.toml"
    text = path.read_text(encoding="utf-8")
    block = text[text.index('id = "mangan"'):]
    block = block[:block.index("[[term]]")] if "[[term]]" in block else block
    path.write_text(text.replace(block, block.replace('provenance = "handbook"', 'provenance = "source"')),
                    encoding="utf-8")
    lib = handbook.load_library(content_copy)
    problems = verify_sources(lib, seeds_dir)
    assert [(p.code, p.entry) for p in problems] == [("HB044", "mangan")]
    assert "word for word" in problems[0].message


def test_a_source_definition_changed_by_one_word_is_caught(content_copy, seeds_dir):
    path = content_copy / "glossary.toml"
    text = path.read_text(encoding="utf-8")
    old = "The player before one, or to one’s left."
    assert text.count(old) == 1
    path.write_text(text.replace(old, "The player before one, or to one’s right."), encoding="utf-8")
    problems = verify_sources(handbook.load_library(content_copy), seeds_dir)
    assert [(p.code, p.entry) for p in problems] == [("HB044", "kamicha")]


def test_verify_sources_names_a_missing_folder(library, tmp_path):
    with pytest.raises(ValueError, match="sources_dir"):
        verify_sources(library, tmp_path / "nowhere")


def test_check_with_sources_verifies_and_fails(root_dir, content_copy, seeds_dir):
    env = dict(os.environ, PYTHONPATH=str(root_dir))
    env.pop("HANDBOOK_SOURCES", None)
    ok = subprocess.run([sys.executable, "-m", "handbook", "check", "--sources", str(seeds_dir)],
                        cwd=root_dir, env=env, capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "24 source definitions found word for word" in ok.stdout
    path = content_copy / "glossary.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("The player before one, or to one’s left.",
                                 "The player to one's left."), encoding="utf-8")
    bad = subprocess.run([sys.executable, "-m", "handbook", "check", str(content_copy),
                          "--sources", str(seeds_dir)],
                         cwd=root_dir, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1
    assert "HB044 glossary.toml [kamicha]" in bad.stdout


# --- what the audit removed: facts no source here gives ----------------------------------------

UNSOURCED = [
    re.compile(r"8,000"),                      # a mangan's value
    re.compile(r"12,000|32,000|48,000"),       # dealer mangan, yakuman values
    re.compile(r"3,000 points the noten"),     # the noten payment
    re.compile(r"deposits go to the next winner"),
    re.compile(r"usually a 100-point stick"),
    re.compile(r"136 playing pieces"),
]


def test_handbook_texts_state_none_of_the_unsourced_facts(library):
    for t in library.glossary:
        for text in (t.definition, t.explanation or ""):
            for pat in UNSOURCED:
                assert not pat.search(text), (t.id, pat.pattern)


def test_the_dead_hand_entry_shows_both_sides_of_the_ema_conflict(library):
    t = library.term("dead-hand")
    text = t.definition + " " + (t.explanation or "")
    assert "3.4.6" in text and "20-point" in text
    assert "does not choose" in text
