"""The search evaluation sets (``tests/core/search_eval*.toml``): judge incidents typed as people
type them, with the rulings a judge needs under each ruleset, and recall@3 over them.

Each set was written from the sources, not from the search (the first splits, ``dev`` and
``heldout``, alongside it; every later one by a writer who saw neither the search nor
``content/fouls.toml`` nor the other sets): everyday English, Japanese and romaji, each case
naming, per ruleset that covers the incident, the penalty rows (``penalty:<foul id>``) and sections
(``rule:<ref>``) that answer it; any one counts. Each split was measured once before its misses
were looked at; once they have been, it is no longer blind and a fresh measure needs a fresh set.
The figures of every split, round by round, are in ``docs/benchmarks.md``.
"""

from __future__ import annotations

import tomllib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

#: the evaluation sets live beside the search tests
EVAL_DIR = Path(__file__).resolve().parents[1] / "core"
EVAL_FILE = EVAL_DIR / "search_eval.toml"
UNSEEN_FILE = EVAL_DIR / "search_eval_unseen.toml"
FRESH_FILE = EVAL_DIR / "search_eval_fresh.toml"
SEALED_FILE = EVAL_DIR / "search_eval_sealed.toml"
FINAL_FILE = EVAL_DIR / "search_eval_final.toml"
LAST_FILE = EVAL_DIR / "search_eval_last.toml"
CHECK_FILE = EVAL_DIR / "search_eval_check.toml"
ROUND3_FILE = EVAL_DIR / "search_eval_round3.toml"
ROUND3B_FILE = EVAL_DIR / "search_eval_round3b.toml"
ROUND3C_FILE = EVAL_DIR / "search_eval_round3c.toml"
ROUND3D_FILE = EVAL_DIR / "search_eval_round3d.toml"
ROUND3E_FILE = EVAL_DIR / "search_eval_round3e.toml"
ROUND3F_FILE = EVAL_DIR / "search_eval_round3f.toml"
ROUND3G_FILE = EVAL_DIR / "search_eval_round3g.toml"
ROUND3H_FILE = EVAL_DIR / "search_eval_round3h.toml"
ROUND3I_FILE = EVAL_DIR / "search_eval_round3i.toml"
ROUND3J_FILE = EVAL_DIR / "search_eval_round3j.toml"
ROUND3K_FILE = EVAL_DIR / "search_eval_round3k.toml"
ROUND3L_FILE = EVAL_DIR / "search_eval_round3l.toml"
ROUND3M_FILE = EVAL_DIR / "search_eval_round3m.toml"
ROUND3N_FILE = EVAL_DIR / "search_eval_round3n.toml"
ROUND3O_FILE = EVAL_DIR / "search_eval_round3o.toml"
ROUND3P_FILE = EVAL_DIR / "search_eval_round3p.toml"
ROUND3Q_FILE = EVAL_DIR / "search_eval_round3q.toml"
ROUND3R_FILE = EVAL_DIR / "search_eval_round3r.toml"
ROUND3S_FILE = EVAL_DIR / "search_eval_round3s.toml"
ROUND3T_FILE = EVAL_DIR / "search_eval_round3t.toml"
ROUND3U_FILE = EVAL_DIR / "search_eval_round3u.toml"
ROUND3V_FILE = EVAL_DIR / "search_eval_round3v.toml"
ROUND3W_FILE = EVAL_DIR / "search_eval_round3w.toml"
ROUND3X_FILE = EVAL_DIR / "search_eval_round3x.toml"
ROUND3Y_FILE = EVAL_DIR / "search_eval_round3y.toml"
#: the newest split: the one the page benchmark types (tests/bench/test_search_page_bench.py)
NEWEST_FILE = ROUND3Y_FILE
#: the splits, in the order they were written
SPLITS = ("dev", "heldout", "blind", "unseen", "fresh", "sealed", "final", "last", "check", "round3", "round3b",
          "round3c", "round3d", "round3e", "round3f", "round3g", "round3h", "round3i",
          "round3j", "round3k", "round3l", "round3m", "round3n", "round3o", "round3p", "round3q", "round3r", "round3s", "round3t", "round3u", "round3v", "round3w", "round3x", "round3y")


@dataclass(frozen=True)
class Case:
    query: str
    lang: str
    split: str
    expect: dict[str, frozenset[str]]


def load_cases(path: Path | None = None) -> list[Case]:
    """The cases of ``path``, or of every evaluation file when it is None."""
    cases = []
    for one in (EVAL_FILE, UNSEEN_FILE, FRESH_FILE, SEALED_FILE, FINAL_FILE, LAST_FILE, CHECK_FILE,
                                ROUND3_FILE, ROUND3B_FILE, ROUND3C_FILE, ROUND3D_FILE, ROUND3E_FILE, ROUND3F_FILE, ROUND3G_FILE,
                                ROUND3H_FILE, ROUND3I_FILE, ROUND3J_FILE, ROUND3K_FILE,
                                ROUND3L_FILE, ROUND3M_FILE, ROUND3N_FILE,
                                ROUND3O_FILE, ROUND3P_FILE, ROUND3Q_FILE, ROUND3R_FILE, ROUND3S_FILE, ROUND3T_FILE, ROUND3U_FILE, ROUND3V_FILE, ROUND3W_FILE, ROUND3X_FILE, ROUND3Y_FILE) if path is None else (path,):
        with open(one, "rb") as fh:
            doc = tomllib.load(fh)
        cases += [Case(c["query"], c["lang"], c["split"], {rs: frozenset(v) for rs, v in c["expect"].items()})
                  for c in doc["case"]]
    return cases


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


def table(per: dict[str, Recall]) -> str:
    lines = [f"{rs:18} {r.hits:4}/{r.total:<4} {100 * r.rate:5.1f} %" for rs, r in sorted(per.items())]
    return "\n".join(lines)
