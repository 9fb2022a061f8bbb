"""The learned part of the ranking: how people tell an incident, learned from labelled examples.

A linear model (one-vs-rest logistic regression over TF-IDF features) is trained at build time with
scikit-learn on the ``train`` splits of ``tests/eval`` (``make model``, :mod:`tools.searchmodel`) and
shipped as data: ``handbook/core/search/model.json.gz`` holds its classes, biases, and for each
feature its idf and the weights it gives to classes, plus its provenance (``meta``: the hash of the
data it learned from, of this module's feature code, scikit-learn's version, its figures on ``dev``).
Here it is evaluated in plain Python, so the offline PWA runs it without scikit-learn.

A class is an answer a judge needs: ``penalty:<foul id>`` (the same foul in every ruleset) or
``<ruleset>/rule:<ref>`` (one ruleset's section).

**Features** (:func:`features`, the one function both training and this module use): the query folded
as the lexical search folds it (NFKC, case, katakana as hiragana, Japanese spelling variants), then
its Latin words, word pairs, and the character 3-5-grams of each word (with its edges), numbers left out, and for each
run of Japanese the character 1-3-grams. Counts are sublinear (1 + log tf), weighted by idf and
scaled to unit length, as scikit-learn's ``TfidfVectorizer(sublinear_tf=True)`` does.

**Long texts** (:meth:`LearnedModel.probabilities`): a text of several sentences or clauses is also
scored clause by clause, and each class keeps the best of its whole-text and clause scores: the
clause that holds the foul decides, and the table, round, names and scores around it do not dilute
it.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import json
import math
import re
import sys
from array import array
from functools import lru_cache
from pathlib import Path

from handbook.core.search.folding import fold, lemma
from handbook.core.search.japanese import kana_fold

#: the shipped model
MODEL_FILE = Path(__file__).with_name("model.json.gz")
#: the version of :func:`features`: a change to the features makes the shipped model stale
FEATURES_VERSION = 1
#: the lengths of the character n-grams of a Latin word
CHAR_SIZES = (4,)

_LATIN = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\u3005]+")
#: where a long text is cut into clauses: sentence ends, and commas or semicolons between clauses
_CLAUSE = re.compile(r"(?<=[.!?。！？;；])\s+|(?<=[、，])\s*|(?<=,)(?!\d)\s*|\s+(?:and then|but|then|so|because|after that)\s+|\n+")
#: a text shorter than this is scored whole only
_CLAUSE_MIN_CHARS = 60


@lru_cache(maxsize=4096)
def features(text: str) -> tuple[str, ...]:
    """The features of ``text`` (a query or a training example), with repeats (term counts)."""
    t = kana_fold(fold(text))
    out: list[str] = []
    latin = _LATIN.findall(t)
    latin = [w for w in latin if not w.isdigit()]  # a number is a quantity (conditions), not a word
    for w in latin:
        out.append("w:" + w)
        base = lemma(w)
        if base != w:
            out.append("w:" + base)
        if len(w) > 2:
            padded = f" {w} "
            for n in CHAR_SIZES:
                out.extend("c:" + padded[i:i + n] for i in range(len(padded) - n + 1))
    out.extend(f"b:{a} {b}" for a, b in zip(latin, latin[1:], strict=False))
    for run in _JAPANESE.findall(t):
        for n in (1, 2, 3):
            out.extend("j:" + run[i:i + n] for i in range(len(run) - n + 1))
    return tuple(out)


def clauses(text: str) -> list[str]:
    """The clauses of a long text (sentences, and parts between commas or "and then"), each at least
    a few words; ``[]`` for a short text."""
    if len(text) < _CLAUSE_MIN_CHARS:
        return []
    parts = [p.strip() for p in _CLAUSE.split(text) if p and p.strip()]
    merged: list[str] = []
    for p in parts:  # a fragment of one or two words joins the clause before it
        if merged and (len(p) < 12 or len(merged[-1]) < 12):
            merged[-1] = f"{merged[-1]} {p}"
        else:
            merged.append(p)
    return merged if len(merged) > 1 else []


class LearnedModel:
    """A trained model: ``classes`` (answer ids), ``bias`` per class, and for each feature (by its
    number in ``feature_ids``) its ``idf`` and its weights ``cls[k]``, ``w[k] / scale`` for ``k`` in
    ``offsets[j]`` … ``offsets[j + 1]``; ``meta`` its provenance.

    The file is gzip-compressed JSON whose arrays are little-endian bytes in base64 (``idf``: float32,
    ``offsets``: uint32, ``cls``: uint8 or uint16, ``w``: int16), so that reading it costs a few
    milliseconds and no object per weight."""

    def __init__(self, doc: dict) -> None:
        self.meta = doc["meta"]
        self.classes: list[str] = doc["classes"]
        self.bias: list[float] = doc["bias"]
        self.scale = float(doc["scale"])
        names = doc["features"].split("\n") if doc["features"] else []
        self.feature_ids = dict(zip(names, range(len(names)), strict=True))
        self.idf = _array("f", doc["idf"])
        self.offsets = _array("I", doc["offsets"])
        self.cls = _array("H" if len(self.classes) > 255 else "B", doc["cls"])
        self.w = _array("h", doc["w"])
        if len(self.idf) != len(names) or len(self.offsets) != len(names) + 1 or len(self.cls) != len(self.w):
            raise ValueError("the model's arrays do not match its features")
        self.index = {c: i for i, c in enumerate(self.classes)}

    @classmethod
    def load(cls, path: str | Path = MODEL_FILE) -> "LearnedModel":
        """Reads a model file. ``ValueError`` naming the file when it is damaged or was made for
        another version of :func:`features`."""
        try:
            with gzip.open(path, "rt", encoding="utf-8") as fh:
                doc = json.load(fh)
            if doc.get("meta", {}).get("features_version") != FEATURES_VERSION:
                raise ValueError(f"features version {doc.get('meta', {}).get('features_version')!r}, this code "
                                 f"reads {FEATURES_VERSION} (run `make model`)")
            return cls(doc)
        except (OSError, EOFError, ValueError, KeyError, TypeError, binascii.Error) as e:
            raise ValueError(f"{path}: not a search model of this version ({e})") from e

    def logits(self, text: str) -> dict[int, float]:
        """``{class index: logit}`` for the classes any feature of ``text`` reaches (the others stay
        at their bias)."""
        ids = self.feature_ids
        counts: dict[int, int] = {}
        for f in features(text):
            j = ids.get(f)
            if j is not None:
                counts[j] = counts.get(j, 0) + 1
        if not counts:
            return {}
        idf, offsets, cls, w = self.idf, self.offsets, self.cls, self.w
        vec = [(j, idf[j] * (1.0 + math.log(n))) for j, n in counts.items()]
        norm = math.sqrt(sum(x * x for _, x in vec)) * self.scale
        acc = [0.0] * len(self.classes)
        for j, x in vec:
            a, b = offsets[j], offsets[j + 1]
            for c, wk in zip(cls[a:b], w[a:b], strict=True):
                acc[c] += x * wk
        bias = self.bias
        return {c: v / norm + bias[c] for c, v in enumerate(acc) if v}

    def probabilities(self, text: str) -> dict[str, float]:
        """``{class: probability}`` for ``text``; a long text keeps each class's best over the whole
        text and its clauses (see the module's docstring). Classes below 1 % are left out."""
        return dict(_probabilities(self, text))


def _array(code: str, b64: str) -> array:
    a = array(code)
    a.frombytes(base64.b64decode(b64))
    if sys.byteorder == "big":  # pragma: no cover - the file is little-endian
        a.byteswap()
    return a


@lru_cache(maxsize=2048)
def _probabilities(model: LearnedModel, text: str) -> tuple[tuple[str, float], ...]:
    best = model.logits(text)
    for clause in clauses(text):
        for c, v in model.logits(clause).items():
            if v > best.get(c, -math.inf):
                best[c] = v
    classes = model.classes
    out = []
    for c, v in best.items():
        p = 1.0 / (1.0 + math.exp(-v)) if v > -30 else 0.0
        if p >= 0.01:
            out.append((classes[c], p))
    return tuple(out)


_loaded: LearnedModel | None = None


def shipped() -> LearnedModel | None:
    """The shipped model, read once; ``None`` where the file is absent (a trimmed build): the search
    then ranks by its lexical stages alone."""
    global _loaded
    if _loaded is None and MODEL_FILE.is_file():
        _loaded = LearnedModel.load(MODEL_FILE)
    return _loaded
