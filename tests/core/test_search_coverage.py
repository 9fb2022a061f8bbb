""""Not covered by <ruleset>" only when true (Library.elsewhere): a ruleset that has rows for a
foul, or reads it as dealt with in its rules (``covered_by``), is never said not to cover it."""

from __future__ import annotations


def test_no_false_not_covered_claim_for_any_foul_in_any_ruleset(library):
    false = []
    checked = 0
    for foul in library.fouls.values():
        for rs in library.rulesets:
            covered = bool(library.rulesets[rs].rows(foul.id)) or any(r == rs for r, _ in foul.covered_by)
            if not covered:
                continue
            for q in (foul.name, *foul.aliases, *foul.japanese, *foul.romaji):
                checked += 1
                others = library.elsewhere(q, rs)
                if others:
                    false.append(f"{rs}: {q!r} -> {[(h.ruleset, h.ref) for h in others][:2]}")
    assert checked > 1000
    assert not false, f"{len(false)} false 'not covered' claims:\n" + "\n".join(false[:20])


def test_what_a_ruleset_lacks_is_still_shown_from_the_others(library):
    # AZRM has no rule on being late: EMA's and WRC's rows
    for q in ("player arrived late", "late 15 minutes", "遅刻"):
        assert {(h.ruleset, h.ref) for h in library.elsewhere(q, "azrm")} >= {("ema-rcr", "late"), ("wrc-2025", "late")}, q


def test_a_ruleset_with_its_own_rows_for_the_incident_is_not_passed_over(library):
    # Rakkii Nomi has its own revealed-tiles rows (the WRC lower column)
    assert library.elsewhere("player showed a tile when discarding", "rakkii-nomi-2026") == []
    # a weak third hit of the chosen ruleset does not hide what it lacks
    assert library.elsewhere("late 15 minutes", "azrm")
