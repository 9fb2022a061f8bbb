"""The evaluation sets as the field keeps them (issue 43): ``tests/eval/manifest.toml`` lists the
sets, each a folder of queries and judgements in the BEIR layout::

    [[set]]
    name = "real-forum-texts"        # optional: the set's name (default: its folder's name)
    path = "real-forum-texts"        # the set's folder, relative to the manifest (or absolute)
    split = "test"                   # the split measured: qrels/<split>.tsv (a list names several)

    <set>/queries.jsonl              # one JSON object a line: {"id": ..., "text": ..., "lang": ...}
    <set>/qrels/<split>.tsv          # query-id <TAB> ruleset <TAB> answer ("penalty:<foul id>" or
                                     #   "rule:<section ref>"); a first line naming the columns is skipped

:func:`load_splits` reads every listed split into :class:`tests.support.evalset.Case` objects (a
query judged under several rulesets is one case, its answers per ruleset), so the recall and the
page benchmark read both layouts the same way. Without a manifest it gives ``None`` and the callers
use the older files (``tests/support/evalset.py``).
"""

from __future__ import annotations

import csv
import json
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from tests.support.evalset import Case

MANIFEST = Path(__file__).resolve().parents[1] / "eval" / "manifest.toml"
HEADER = ("query-id", "ruleset", "answer")


@dataclass(frozen=True)
class Split:
    """One split of one set: its ``name`` ("real-forum-texts/test"), and its cases."""

    name: str
    split: str
    cases: tuple[Case, ...]


def _queries(path: Path) -> dict[str, tuple[str, str]]:
    out = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            q = json.loads(line)
            qid = q.get("id", q.get("_id"))
            if qid is None or "text" not in q:
                raise ValueError(f"{path}:{n}: a query needs `id` and `text`")
            out[str(qid)] = (q["text"], q.get("lang", ""))
    return out


def read_split(set_dir: Path, split: str) -> list[Case]:
    """The cases of ``set_dir``'s ``split``: each judged query, its answers per ruleset, in the
    order of ``queries.jsonl``. ``ValueError`` naming the file and line for a judgement of a query
    the set does not hold, or a line without three columns."""
    queries = _queries(set_dir / "queries.jsonl")
    qrels = set_dir / "qrels" / f"{split}.tsv"
    expect: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    with open(qrels, encoding="utf-8", newline="") as fh:
        for n, row in enumerate(csv.reader(fh, delimiter="\t"), 1):
            if not row or (n == 1 and tuple(c.strip().lower() for c in row[:3]) == HEADER):
                continue
            if len(row) < 3:
                raise ValueError(f"{qrels}:{n}: needs query-id, ruleset and answer")
            qid, ruleset, answer = (c.strip() for c in row[:3])
            if qid not in queries:
                raise ValueError(f"{qrels}:{n}: query {qid!r} is not in queries.jsonl")
            expect[qid][ruleset].add(answer)
    return [Case(queries[q][0], queries[q][1], split, {rs: frozenset(a) for rs, a in expect[q].items()})
            for q in queries if q in expect]


def load_splits(manifest: Path = MANIFEST, *, only: str | None = "test") -> list[Split] | None:
    """Every split the manifest lists (``only``: just the splits of that name, ``None`` for all),
    or ``None`` when there is no manifest."""
    if not manifest.is_file():
        return None
    with open(manifest, "rb") as fh:
        doc = tomllib.load(fh)
    out = []
    for entry in doc.get("set", doc.get("sets", [])):
        set_dir = Path(entry["path"])
        if not set_dir.is_absolute():
            set_dir = manifest.parent / set_dir
        splits = entry.get("split", "test")
        for split in [splits] if isinstance(splits, str) else splits:
            if only is not None and split != only:
                continue
            name = f"{entry.get('name', set_dir.name)}/{split}"
            out.append(Split(name, split, tuple(read_split(set_dir, split))))
    return out
