"""rulesets.toml: the ids API.md promises, titles, editions, sources and the tournament profile."""

from __future__ import annotations

import datetime

API_IDS = {"azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"}


def test_ruleset_ids_are_exactly_the_api_ones(library):
    assert set(library.rulesets) == API_IDS


def test_every_ruleset_has_title_edition_and_source(library, seeds_dir):
    for rs in library.rulesets.values():
        assert rs.title.strip() and rs.short.strip() and rs.edition.strip()
        for name in (s.strip() for s in rs.source.split(",")):
            assert (seeds_dir / name).is_file(), (rs.id, name)


def test_sources_match_the_seed_readme(library):
    assert library.rulesets["azrm"].source == "000_bc6b2cad94d87a93.txt"
    assert set(s.strip() for s in library.rulesets["ema-rcr"].source.split(",")) == {
        "001_1ec3b385faa21f3e.txt", "002_ada199b6fc1e124d.txt", "004_8a64e1e87cf6ece1.txt"}
    for rid in ("wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"):
        assert library.rulesets[rid].source == "003_44b6687a59e4be07.txt"


def test_azrm_edition_and_date(library, azrm_source_revisions):
    azrm = library.rulesets["azrm"]
    assert "0.4" in azrm.edition
    assert azrm.date == datetime.date(2026, 4, 20)
    # the source's Revision History: 0.4 April 20, 0.3 April 16, 0.2 April 15, 0.1 April 13 2026
    assert [r.revision for r in azrm.revisions] == [rev for rev, _, _ in azrm_source_revisions]
    for r, (_, date, changes) in zip(azrm.revisions, azrm_source_revisions, strict=True):
        assert r.date == datetime.datetime.strptime(date, "%B %d, %Y").date()
        assert list(r.changes) == changes


def test_rakkii_nomi_is_a_profile_on_wrc_2025(library):
    rakkii = library.rulesets["rakkii-nomi-2026"]
    assert rakkii.base == "wrc-2025"
    # "Rakkii Nomi Spring 2026 will be using the lower penalties found in the table below."
    lower = library.rulesets["wrc-2025-lower"]
    assert [(r.id, r.foul, r.penalty, r.ref) for r in rakkii.penalties] == [
        (r.id, r.foul, r.penalty, r.ref) for r in lower.penalties]


def test_only_the_profile_has_a_base(library):
    assert {rid for rid, rs in library.rulesets.items() if rs.base} == {"rakkii-nomi-2026"}


def test_tables_only_rulesets_have_no_sections(library):
    assert library.rulesets["wrc-2025"].sections == ()
    assert library.rulesets["wrc-2025-lower"].sections == ()
    for rid in ("azrm", "ema-rcr", "rakkii-nomi-2026"):
        assert library.rulesets[rid].sections
    for rs in library.rulesets.values():
        assert rs.penalties, rs.id
