""""What happened?": every foul of a ruleset by category, each with where its ruling is — the data
of the search page's browser (search page → What happened? → a category → the foul: three taps).

A ruleset lists a foul when its table has rows of it (the ruling is those rows: ``"penalty:<foul
id>"``) or when the foul's ``covered_by`` names where that ruleset deals with it (the first target
named: another foul's rows, ``"penalty:<id>"``, or a section, ``"rule:<ref>"``; EMA's table has no
wrong-draw row, its "Wrongly revealing or picking tiles" rows answer it). The categories are
``content/fouls.toml``'s ``[[category]]`` entries in file order, the fouls in the file's order
within each; a category with no foul in the ruleset is left out. Pure Python: no flet.
"""

from __future__ import annotations

from dataclasses import dataclass

from handbook.core.model import Foul, FoulCategory, Library


@dataclass(frozen=True)
class Incident:
    """One foul as the browser lists it for a ruleset: the ``foul``, the ``ruleset`` whose ruling
    the tap opens, its ``target`` (``"penalty:<foul id>"`` or ``"rule:<section ref>"``) and whether
    it is ``covered`` (the ruleset has no row of its own: the handbook's reading, ``covered_by``)."""

    foul: Foul
    ruleset: str
    target: str
    covered: bool = False


def incident(library: Library, ruleset: str | None, foul: Foul) -> Incident | None:
    """Where ``foul``'s ruling is in ``ruleset`` (``None`` where the ruleset neither has rows of
    it nor names a cover); with ``ruleset`` ``None``, the rows of the first ruleset that has them
    (their page shows the same foul in every other ruleset)."""
    if ruleset is None:
        rid = next((rs.id for rs in library.rulesets.values() if rs.rows(foul.id)), None)
        return Incident(foul, rid, f"penalty:{foul.id}") if rid else None
    rs = library.rulesets[ruleset]
    if rs.rows(foul.id):
        return Incident(foul, ruleset, f"penalty:{foul.id}")
    target = next((t for rid, t in foul.covered_by if rid == ruleset), None)
    return Incident(foul, ruleset, target, covered=True) if target else None


def browse(library: Library, ruleset: str | None = None) -> list[tuple[FoulCategory, list[Incident]]]:
    """``[(category, [Incident, …]), …]``: every foul ``ruleset`` rules on (every foul of every
    table for ``None``), by category. ``ValueError`` naming the argument for an unknown ruleset."""
    if ruleset is not None and ruleset not in library.rulesets:
        raise ValueError(f"ruleset: unknown ruleset {ruleset!r}; allowed: None or one of "
                         f"{', '.join(sorted(library.rulesets))}")
    out = []
    for cat in library.foul_categories:
        found = [i for f in library.fouls.values() if f.category == cat.id
                 for i in (incident(library, ruleset, f),) if i is not None]
        if found:
            out.append((cat, found))
    return out


def category(library: Library, category_id: str) -> FoulCategory:
    """The category ``category_id``; ``KeyError`` naming it when there is none."""
    for c in library.foul_categories:
        if c.id == category_id:
            return c
    raise KeyError(f"category: no foul category {category_id!r}")


__all__ = ["Incident", "browse", "category", "incident"]
