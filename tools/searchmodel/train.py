"""Trains the search's learned model (``make model``): one-vs-rest logistic regression (scikit-learn)
over the features of :func:`handbook.core.search.learned.features`, on the ``train`` splits of
``tests/eval`` (never a ``test`` split), written as ``handbook/core/search/model.json.gz`` with its
provenance. See :mod:`handbook.core.search.learned` for what is shipped and how it is read.

A class is an answer: ``penalty:<foul id>`` (one foul in every ruleset) or ``<ruleset>/rule:<ref>``.
Each training text is one example whose labels are every answer any ruleset lists for it.

The file is kept small (≤ 1 MB): a feature seen in fewer than ``MIN_DF`` training texts is dropped,
weights smaller than ``PRUNE`` are dropped, and the rest are stored as integers (``SCALE``).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

import handbook.core.search.learned as learned
from tools import evaldata

#: the least number of training texts a feature is seen in
MIN_DF = 2
#: the inverse of logistic regression's regularisation strength
C = 16.0
#: weights of smaller magnitude are dropped from the shipped file
PRUNE = 0.3
#: weights are stored as round(w * SCALE)
SCALE = 100
#: a class with fewer training texts is not learned
MIN_CLASS = 2


def label(ruleset: str, answer: str) -> str:
    """The class of ``answer`` (``penalty:<id>`` or ``rule:<ref>``) under ``ruleset``."""
    return answer if answer.startswith("penalty:") else f"{ruleset}/{answer}"


def examples(cases) -> tuple[list[str], list[set[str]]]:
    """The training texts and their labels (every answer any ruleset lists for the text)."""
    texts, labels = [], []
    for c in cases:
        texts.append(c.query)
        labels.append({label(rs, a) for rs, want in c.expect.items() for a in want})
    return texts, labels


def fit(texts: list[str], labels: list[set[str]]):
    """The vectoriser and the one-vs-rest classifier fitted on ``texts``."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.preprocessing import MultiLabelBinarizer

    counts: dict[str, int] = {}
    for ls in labels:
        for x in ls:
            counts[x] = counts.get(x, 0) + 1
    keep = sorted(x for x, n in counts.items() if n >= MIN_CLASS)
    mlb = MultiLabelBinarizer(classes=keep)
    y = mlb.fit_transform([ls & set(keep) for ls in labels])
    vec = TfidfVectorizer(analyzer=learned.features, sublinear_tf=True, min_df=MIN_DF, norm="l2")
    x = vec.fit_transform(texts)
    clf = OneVsRestClassifier(LogisticRegression(C=C, solver="liblinear", max_iter=200), n_jobs=1)
    clf.fit(x, y)
    return vec, clf, keep


def export(vec, clf, classes: list[str], meta: dict, prune: float = None) -> dict:
    """The shipped form of a fitted model (see :class:`handbook.core.search.learned.LearnedModel`):
    every feature with a weight of at least ``prune`` in magnitude, its idf and those weights as
    integers (``round(w * SCALE)``)."""
    import base64
    from array import array

    import numpy as np

    prune = PRUNE if prune is None else prune
    coef = np.vstack([e.coef_.ravel() for e in clf.estimators_])  # (classes, features)
    bias = [round(float(e.intercept_[0]), 4) for e in clf.estimators_]
    names, idf, offsets = [], array("f"), array("I", [0])
    cls, w = array("H" if len(classes) > 255 else "B"), array("h")
    for j, name in enumerate(vec.get_feature_names_out()):
        col = coef[:, j]
        nz = np.nonzero(np.abs(col) >= prune)[0]
        if not len(nz):
            continue
        names.append(str(name))
        idf.append(float(vec.idf_[j]))
        for c in nz:
            cls.append(int(c))
            w.append(max(-32768, min(32767, int(round(float(col[c]) * SCALE)))))
        offsets.append(len(w))

    def b64(a: array) -> str:
        if sys.byteorder == "big":  # pragma: no cover
            a.byteswap()
        return base64.b64encode(a.tobytes()).decode()

    return {"meta": {**meta, "features": len(names), "weights": len(w)}, "classes": classes, "bias": bias,
            "scale": SCALE, "features": "\n".join(names), "idf": b64(idf), "offsets": b64(offsets),
            "cls": b64(cls), "w": b64(w)}


def code_digest() -> str:
    """SHA-256 of the feature code and of this training code: the model is stale when either changes."""
    h = hashlib.sha256()
    for f in (Path(learned.__file__), Path(__file__)):
        h.update(f.read_bytes())
    return h.hexdigest()


def provenance() -> dict:
    """What the shipped model must match: the data's and the code's hashes."""
    return {"data_sha256": evaldata.digest(evaldata.qrels_files("train")), "code_sha256": code_digest(),
            "features_version": learned.FEATURES_VERSION}


def main(argv: list[str]) -> int:
    import sklearn

    out = Path(argv[0]) if argv else learned.MODEL_FILE
    t0 = time.time()
    train = evaldata.load(split="train")
    texts, labels = examples(train)
    vec, clf, classes = fit(texts, labels)
    meta = {"name": "riichi-judge-handbook search model", "model": "one-vs-rest logistic regression over TF-IDF",
            "library": f"scikit-learn {sklearn.__version__}", "C": C, "min_df": MIN_DF, "prune": PRUNE,
            "trained_on": sorted({f"{c.set}/train" for c in train}), "train_texts": len(texts),
            "classes": len(classes), **provenance()}
    doc = export(vec, clf, classes, meta)
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    with open(out, "wb") as fh:  # mtime 0: the same model makes the same bytes
        with gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, compresslevel=9) as gz:
            gz.write(data)
    print(f"model: {len(texts)} texts, {len(classes)} classes, {doc['meta']['features']} features, "
          f"{out.stat().st_size / 1e6:.2f} MB, {time.time() - t0:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
