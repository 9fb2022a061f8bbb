"""Foul ids shared across rulesets, and every § link in every text."""

from __future__ import annotations

import re

import pytest

import handbook

LINK = re.compile(r"§\s?(\d+(?:\.\d+)*)")
TABLES = ("azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower")


@pytest.mark.parametrize(("foul_id", "wording"), [
    ("wrong-tile-count", r"too many or too few tiles"),
    ("revealed-tiles", r"reveal|tiles|dealing"),
    ("empty-call-win", r"empty call for (a win|ron/tsumo)"),
    ("swap-calling", r"swap.calling"),
    ("noten-riichi", r"noten riichi"),
    ("cheating", r"cheating|circumventing"),
])
def test_the_same_foul_has_the_same_id_in_every_table(library, foul_id, wording):
    for rid in TABLES:
        rows = library.rulesets[rid].rows(foul_id)
        assert rows, (rid, foul_id)
        assert any(re.search(wording, f"{r.foul} {r.category}", re.I) for r in rows), (rid, [r.foul for r in rows])


def test_a_foul_the_sources_name_alike_carries_one_id(library):
    """Within each table the fouls above are not spread over other ids."""
    for rid in TABLES:
        for r in library.rulesets[rid].penalties:
            if re.search(r"too many or too few tiles", r.foul, re.I):
                assert r.id == "wrong-tile-count", (rid, r.foul)
            if re.search(r"^swap.calling", r.foul, re.I):
                assert r.id == "swap-calling", (rid, r.foul)
            if re.fullmatch(r"cheating", r.foul, re.I):
                assert r.id == "cheating", (rid, r.foul)


def test_ids_are_shared_widely(library):
    """Most WRC fouls are named in another table too (a later screen compares them)."""
    wrc = {r.id for r in library.rulesets["wrc-2025"].penalties}
    others = {r.id for rid in ("azrm", "ema-rcr") for r in library.rulesets[rid].penalties}
    assert len(wrc & others) >= 15


def test_rows_of_one_id_differ_in_wording(library):
    """Rows that share an id must be told apart by their foul text (content/README.md)."""
    for rs in library.rulesets.values():
        fouls = [r.foul for r in rs.penalties]
        assert len(fouls) == len(set(fouls)), rs.id


# --- § links -------------------------------------------------------------------------------------------

def _texts(lib: handbook.Library):
    """(where, ruleset whose sections a § names, text) for every text a screen shows."""
    for rs in lib.rulesets.values():
        if rs.preface:
            yield f"{rs.id} preface", rs.id, rs.preface
        for ch in rs.chapters:
            yield f"{rs.id} chapter {ch.ref}", rs.id, ch.text
        for s in rs.sections:
            yield f"{rs.id} §{s.ref}", rs.id, s.text
        for r in rs.penalties:
            if rs.id in ("wrc-2025-lower", "rakkii-nomi-2026"):
                continue  # the rows of wrc-2025's table, checked there
            yield f"{rs.id} row {r.foul}", rs.id, r.note or ""
    for t in lib.glossary:
        yield f"term {t.id}", t.source, f"{t.definition}\n{t.explanation or ''}"


def test_every_section_link_resolves(library):
    bad = []
    for where, rid, text in _texts(library):
        for m in LINK.finditer(text):
            if not library.rulesets[rid].has_section(m.group(1)):
                bad.append(f"{where}: {m.group(0)} is not a section of {rid}")
    assert not bad, "\n".join(bad)


def test_some_links_exist(library):
    """The check above is not vacuous."""
    assert sum(len(LINK.findall(text)) for _, _, text in _texts(library)) > 50


def test_penalty_refs_name_sections(library):
    """AZRM and EMA rows cite sections of their own rule text ("3.3.8, 3.4.7" cites two)."""
    for rid in ("azrm", "ema-rcr"):
        rs = library.rulesets[rid]
        for r in rs.penalties:
            if r.ref:
                for ref in r.ref.split(","):
                    assert rs.has_section(ref.strip()), (rid, r.foul, r.ref)


def test_every_link_in_calculator_notes_resolves(library):
    bad = []
    for rid in library.rulesets:
        notes = list(handbook.chombo(rid, "S", library=library).notes)
        for source in handbook.SOURCES:
            for n in (1, 3, 5, 7, 136):
                notes += handbook.revealed_tiles(rid, n, source=source, library=library).notes
        notes += handbook.revealed_tiles(rid, 1, during_deal=True, library=library).notes
        for note in dict.fromkeys(notes):
            for m in LINK.finditer(note):
                if not library.rulesets[rid].has_section(m.group(1)):
                    bad.append(f"{rid}: {note!r}")
    assert not bad, "\n".join(bad)
