"""Recall@3 of the search over the evaluation sets of ``tests/eval`` (read by :mod:`tools.evaldata`,
which says how the sets are kept): for each case and each ruleset it lists, whether one of the
answers it accepts is among the first three rulings (sections and penalty rows, not glossary terms)
of the search narrowed to that ruleset."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from tools.evaldata import Case, load, sets

__all__ = ["Case", "Recall", "first_rulings", "load", "load_cases", "recall_at_3", "sets", "table"]


def load_cases(*, split: str | None = None, name: str | None = None, kind: str | None = None) -> list[Case]:
    """The cases of the evaluation sets (see :func:`tools.evaldata.load`)."""
    return load(split=split, name=name, kind=kind)


def first_rulings(library, query: str, ruleset: str, n: int = 3) -> list[str]:
    """The first ``n`` rulings (sections and penalty rows, not glossary terms or yaku) of the
    search narrowed to ``ruleset``, as ``kind:ref``."""
    hits = library.search(query, ruleset=ruleset)
    return [f"{h.kind}:{h.ref}" for h in hits if h.kind in ("rule", "penalty")][:n]


@dataclass
class Recall:
    hits: int = 0
    total: int = 0

    @property
    def rate(self) -> float:
        return self.hits / self.total if self.total else 1.0


def recall_at_3(library, cases: list[Case]) -> tuple[dict[str, Recall], list[tuple[Case, str, list[str]]]]:
    """Recall@3 per ruleset over ``cases`` (a case counts once for each ruleset it lists), and the
    misses as ``(case, ruleset, the first three rulings found)``."""
    per: dict[str, Recall] = defaultdict(Recall)
    misses = []
    for case in cases:
        for rs, want in case.expect.items():
            got = first_rulings(library, case.query, rs)
            per[rs].total += 1
            if want & set(got):
                per[rs].hits += 1
            else:
                misses.append((case, rs, got))
    return dict(per), misses


def by_language(library, cases: list[Case]) -> dict[str, Recall]:
    """Recall@3 over ``cases`` per language (every ruleset's pairs together)."""
    out: dict[str, Recall] = defaultdict(Recall)
    for lang in sorted({c.lang for c in cases}):
        per, _ = recall_at_3(library, [c for c in cases if c.lang == lang])
        out[lang] = Recall(sum(r.hits for r in per.values()), sum(r.total for r in per.values()))
    return dict(out)


def table(per: dict[str, Recall]) -> str:
    lines = [f"{rs:18} {r.hits:4}/{r.total:<4} {100 * r.rate:5.1f} %" for rs, r in sorted(per.items())]
    return "\n".join(lines)
