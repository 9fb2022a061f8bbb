"""The search's evaluation sets (``tests/eval/``), kept as retrieval sets are (BEIR): one folder per set
with ``queries.jsonl`` (``_id``, ``text``, ``lang`` and what the set adds: ``origin``, ``style``,
``kind``, ``source``), ``qrels/<split>.tsv`` (``query-id``, ``ruleset``, ``answer``, ``score``; an
answer is ``penalty:<foul id>`` or ``rule:<ref>``, any one of a ruleset's answers among the first three
rulings counts) and a ``datasheet.md`` (who wrote it, how, from what, when, measured once on which
commit). ``tests/eval/manifest.toml`` lists the sets; this module reads them for the tests, ``make
bench`` and ``make model`` (which trains on ``train`` splits only and chooses its weights on ``dev``).

A ``test`` split is measured once per change of the search and never trained or tuned on.
"""

from __future__ import annotations

import csv
import hashlib
import json
import tomllib
from dataclasses import dataclass
from pathlib import Path

#: the evaluation sets' folder and their list
EVAL_DIR = Path(__file__).resolve().parents[1] / "tests" / "eval"
MANIFEST = EVAL_DIR / "manifest.toml"
#: the splits a set may have: ``train`` (models learn from it), ``dev`` (weights are chosen on it),
#: ``test`` (measured once per change, never trained or tuned on)
SPLITS = ("train", "dev", "test")


@dataclass(frozen=True)
class EvalSet:
    """One set of the manifest: ``name`` (its folder), ``kind`` (``"written"`` or ``"real"``), ``splits``
    it has, and ``description``."""

    name: str
    kind: str
    splits: tuple[str, ...]
    description: str

    @property
    def path(self) -> Path:
        return EVAL_DIR / self.name


@dataclass(frozen=True)
class Case:
    """A query and its judgements: ``expect`` maps each ruleset that covers the incident to the answers
    that count; ``set`` and ``split`` say where it comes from; ``origin`` the part of the set it came
    from (a set's own grouping, e.g. the file it was first written in)."""

    id: str
    query: str
    lang: str
    set: str
    split: str
    expect: dict[str, frozenset[str]]
    origin: str = ""


def sets() -> list[EvalSet]:
    """Every set of the manifest, in its order. ``ValueError`` naming the set for a split the set's
    folder lacks, a folder without a datasheet, or an unknown split."""
    with open(MANIFEST, "rb") as fh:
        doc = tomllib.load(fh)
    out = []
    for entry in doc["set"]:
        s = EvalSet(entry["name"], entry["kind"], tuple(entry["splits"]), entry.get("description", ""))
        for split in s.splits:
            if split not in SPLITS:
                raise ValueError(f"{MANIFEST.name} [{s.name}]: split {split!r} is not one of {', '.join(SPLITS)}")
            if not (s.path / "qrels" / f"{split}.tsv").is_file():
                raise ValueError(f"{MANIFEST.name} [{s.name}]: no qrels/{split}.tsv")
        if not (s.path / "datasheet.md").is_file():
            raise ValueError(f"{MANIFEST.name} [{s.name}]: no datasheet.md")
        out.append(s)
    return out


def qrels_files(split: str | None = None) -> list[Path]:
    """The judgement files of every set (of ``split`` only when given), with each set's queries."""
    files = []
    for s in sets():
        for sp in s.splits:
            if split is None or sp == split:
                files += [s.path / "queries.jsonl", s.path / "qrels" / f"{sp}.tsv"]
    return files


def load(*, split: str | None = None, name: str | None = None, kind: str | None = None) -> list[Case]:
    """The cases of every set, narrowed to a ``split``, a set ``name`` and a ``kind`` when given, in the
    order of the manifest and of each set's ``queries.jsonl``."""
    cases: list[Case] = []
    for s in sets():
        if (name is not None and s.name != name) or (kind is not None and s.kind != kind):
            continue
        queries = {}
        with open(s.path / "queries.jsonl", encoding="utf-8") as fh:
            for line in fh:
                if line.strip():
                    q = json.loads(line)
                    queries[q["_id"]] = q
        for sp in s.splits:
            if split is not None and sp != split:
                continue
            judged: dict[str, dict[str, set[str]]] = {}
            with open(s.path / "qrels" / f"{sp}.tsv", encoding="utf-8", newline="") as fh:
                for row in csv.DictReader(fh, delimiter="\t"):
                    if int(row["score"]) > 0:
                        judged.setdefault(row["query-id"], {}).setdefault(row["ruleset"], set()).add(row["answer"])
            for qid, q in queries.items():
                if qid in judged:
                    cases.append(Case(qid, q["text"], q["lang"], s.name, sp,
                                      {rs: frozenset(a) for rs, a in judged[qid].items()}, q.get("origin", "")))
    return cases


def digest(files) -> str:
    """SHA-256 over the bytes of ``files`` (names and contents, in the order given)."""
    h = hashlib.sha256()
    for f in files:
        h.update(Path(f).relative_to(EVAL_DIR.parents[1]).as_posix().encode() + b"\0")
        h.update(Path(f).read_bytes())
    return h.hexdigest()
