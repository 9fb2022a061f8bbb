"""Search over rule sections, penalty rows and glossary terms.

Normalisation makes the spellings people type meet the spellings the sources use:

* Unicode NFKC (full- and half-width forms fold together), case folding, katakana to hiragana;
* romaji: macrons to doubled vowels (ū -> uu), then long vowels collapsed (ryuukyoku, ryūkyoku and
  ryukyoku meet; taahai/tahai, shouhai/shohai), ``m`` before b/p/m as ``n`` (chombo/chonbo,
  tempai/tenpai), hyphenated and spaced words also indexed joined (kui-kae/kuikae);
* English words stemmed with Snowball (revealed/revealing/reveal);
* a typo in a word of five or more letters is tolerated (RapidFuzz, Damerau-Levenshtein distance 1,
  2 for words of nine or more letters); the last word of a query also matches as a prefix, so
  results come as the user types;
* Japanese (kanji, kana) is matched as a substring of the Japanese fields and the text.

Ranking: every field has a weight (a title or term beats a definition, which beats body text); a
document must match every query word; a query found as a phrase in a title, or equal to a term or
its romaji, gets a bonus; ``2.4`` or ``§2.4`` finds that section first.
"""

from __future__ import annotations

import bisect
import math
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import snowballstemmer
from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

from handbook.core.model import Hit

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library

STOPWORDS = frozenset(
    "a an the of to in on at for and or is are be by with from as it its this that what when how "
    "does do if into".split())

_MACRONS = str.maketrans({"ā": "aa", "ī": "ii", "ū": "uu", "ē": "ee", "ō": "ou", "â": "aa",
                          "î": "ii", "û": "uu", "ê": "ee", "ô": "ou"})
_M_BEFORE = re.compile(r"m(?=[bpm])")
_WORD = re.compile(r"[0-9a-z]+(?:[-'’][0-9a-z]+)*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u30fc\u3005]+")
_REF = re.compile(r"^§?\s*([0-9]+(?:\.[0-9]+)+|[0-9]+)$")

_stemmer = snowballstemmer.stemmer("english")


_KATA_TO_HIRA = {o: o - 0x60 for o in range(0x30A1, 0x30F7)}


def fold(text: str) -> str:
    """NFKC, case-folded, macrons written out, katakana as hiragana: the form every field and
    every query is compared in."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text).casefold().translate(_MACRONS).translate(_KATA_TO_HIRA)
    # drop remaining combining accents (é -> e) but keep kana voicing marks intact
    decomposed = unicodedata.normalize("NFD", text)
    if len(decomposed) != len(text):
        text = unicodedata.normalize(
            "NFC", "".join(c for c in decomposed if not (unicodedata.combining(c) and ord(c) < 0x3000)))
    return text


_key_cache: dict[str, str] = {}


def romaji_key(word: str) -> str:
    """The spelling-insensitive key of one folded latin word: long vowels collapsed, ``m`` before
    b/p/m as ``n``, hyphens and apostrophes dropped (``ryūkyoku``, ``ryuukyoku`` and ``ryukyoku``
    all give ``ryukyoku``; ``chombo`` gives ``chonbo``)."""
    key = _key_cache.get(word)
    if key is None:
        key = _key_cache[word] = _romaji_key(word)
    return key


def _romaji_key(word: str) -> str:
    word = word.replace("-", "").replace("'", "").replace("’", "")
    word = _M_BEFORE.sub("n", word)
    prev = None
    while prev != word:
        prev = word
        word = word.replace("ou", "o").replace("oo", "o").replace("uu", "u").replace(
            "aa", "a").replace("ii", "i").replace("ee", "e")
    return word


def words(text: str) -> list[str]:
    """Folded latin words of ``text``; hyphenated words give their parts and the joined form."""
    out: list[str] = []
    for m in _WORD.finditer(fold(text)):
        w = m.group(0)
        if "-" in w or "'" in w or "’" in w:
            parts = re.split(r"[-'’]", w)
            out.extend(p for p in parts if p)
            if "-" in w:
                out.append(w.replace("-", ""))
        else:
            out.append(w)
    return out


_stem_cache: dict[str, str] = {}


def _stem(key: str) -> str:
    """Snowball English stem of a key (numbers and mixed keys stay as they are); memoised, as the
    pure-Python stemmer costs ~30 µs a word."""
    out = _stem_cache.get(key)
    if out is None:
        out = _stem_cache[key] = _stemmer.stemWord(key) if key.isalpha() else key
    return out


def stems(text: str) -> tuple[str, ...]:
    """The stemmed, spelling-insensitive keys of ``text``'s words, stopwords left out."""
    return tuple(_stem(romaji_key(w)) for w in words(text) if w not in STOPWORDS and "-" not in w)


def _forms(*texts: str) -> tuple[str, ...]:
    """The folded strings a query must equal for an exact match, and their spelling-insensitive keys."""
    out: list[str] = []
    for t in texts:
        f = fold(t)
        out += [f, " ".join(romaji_key(w) for w in f.split())]
    return tuple(dict.fromkeys(out))


def _contains(seq: tuple[str, ...], sub: tuple[str, ...]) -> bool:
    n = len(sub)
    return any(seq[i:i + n] == sub for i in range(len(seq) - n + 1))


@dataclass(slots=True)
class _Doc:
    hit: Hit
    ruleset: str | None
    titles: tuple[str, ...]        # folded strings for phrase bonuses
    title_stems: tuple[tuple[str, ...], ...]  # stemmed keys of the title words, in order
    exact: tuple[str, ...]         # folded strings whose equality with the query is a strong match
    japanese: tuple[tuple[str, float], ...]  # folded Japanese-bearing fields with weights
    listed: bool                   # shown in unfiltered search (False for a borrowed table)
    cites: tuple[int, ...] = ()    # a term's sections (doc ids): a match on the term lifts them


TERM_LIFT = 0.3  # share of a matching term's score given to each section it cites
LIFT_MIN = 5.0   # the least score of a term that lifts its sections
# field weights
W_TITLE, W_TERM, W_ALIAS, W_CATEGORY, W_PENALTY, W_DEF, W_TEXT = 10.0, 12.0, 9.0, 1.5, 2.0, 3.0, 1.0


class SearchIndex:
    """An inverted index over a :class:`~handbook.core.model.Library`, built once at load time."""

    def __init__(self, library: "Library") -> None:
        self.docs: list[_Doc] = []
        self._postings: dict[str, dict[int, float]] = defaultdict(dict)
        self._by_ref: dict[str, list[int]] = defaultdict(list)
        self._build(library)
        self._keys = sorted(self._postings)
        self._fuzzy_keys = [k for k in self._keys if len(k) >= 4 and k.isalpha()]
        self._stems: dict[str, list[str]] = defaultdict(list)
        for k in self._keys:
            self._stems[_stem(k)].append(k)

    # --- building --------------------------------------------------------------------------

    def _add(self, doc_id: int, text: str | None, weight: float) -> None:
        if not text:
            return
        counts: dict[str, int] = defaultdict(int)
        for w in words(text):
            if w in STOPWORDS:
                continue
            counts[romaji_key(w)] += 1
        post = self._postings
        for key, n in counts.items():
            score = weight * (1.0 + 0.3 * math.log(n))
            cur = post[key].get(doc_id, 0.0)
            post[key][doc_id] = max(cur, score) + min(cur, score) * 0.2

    def _new(self, doc: _Doc) -> int:
        self.docs.append(doc)
        return len(self.docs) - 1

    def _build(self, lib: "Library") -> None:
        seen_tables: set[tuple[str, int, str]] = set()
        for rs in lib.rulesets.values():
            for s in rs.sections:
                d = self._new(_Doc(
                    Hit("rule", rs.id, s.ref, s.title, s.title_ja), rs.id,
                    titles=(fold(s.title),), title_stems=(stems(s.title),), exact=_forms(s.title),
                    japanese=tuple((fold(x), w) for x, w in ((s.title_ja or "", W_TITLE), (s.text, W_TEXT)) if x),
                    listed=True))
                self._add(d, s.title, W_TITLE)
                self._add(d, s.text, W_TEXT)
                self._by_ref[s.ref].append(d)
            for r in rs.penalties:
                # a profile that borrows another ruleset's column repeats its rows: list them once
                sig = (r.foul, r.index, r.penalty)
                listed = (r.foul, r.index, r.penalty) not in seen_tables
                seen_tables.add(sig)
                d = self._new(_Doc(
                    Hit("penalty", rs.id, r.id, r.foul, r.penalty, row=r.index), rs.id,
                    titles=(fold(r.foul),), title_stems=(stems(r.foul),), exact=_forms(r.foul),
                    japanese=(), listed=listed))
                self._add(d, r.foul, W_TITLE)
                self._add(d, r.id.replace("-", " "), W_ALIAS * 0.5)
                self._add(d, r.penalty, W_PENALTY)
                self._add(d, r.category, W_CATEGORY)
                self._add(d, r.note, W_TEXT)
        rule_doc = {(d.ruleset, d.hit.ref): i for i, d in enumerate(self.docs) if d.hit.kind == "rule"}
        for t in lib.glossary:
            names = (t.term, *t.romaji)
            d = self._new(_Doc(
                Hit("term", None, t.id, t.term, t.japanese), None,
                titles=tuple(fold(x) for x in (t.term, *t.aliases)),
                title_stems=tuple(stems(x) for x in (t.term, *t.romaji, *t.aliases)),
                exact=_forms(*(x for x in (*names, *(t.japanese or "").split("/"), t.reading or "",
                                           *t.aliases) if x))
                + tuple(fold(x).replace(" ", "").replace("-", "") for x in names),
                japanese=tuple((fold(x), w) for x, w in (
                    (t.japanese or "", W_TERM), (t.reading or "", W_TERM),
                    (t.definition, W_DEF), (t.explanation or "", W_TEXT)) if x),
                listed=True, cites=tuple(rule_doc[r] for r in t.refs if r in rule_doc)))
            self._add(d, t.term, W_TERM)
            for r in t.romaji:
                self._add(d, r, W_TERM)
                self._add(d, r.replace(" ", ""), W_TERM)
            for a in t.aliases:
                self._add(d, a, W_ALIAS)
            self._add(d, t.definition, W_DEF)
            self._add(d, t.explanation, W_TEXT)

    # --- querying --------------------------------------------------------------------------

    def _candidates(self, word: str, is_last: bool) -> dict[str, float]:
        """Index keys a query word matches, with the match quality (1 exact … 0.5 typo)."""
        key = romaji_key(word)
        found: dict[str, float] = {}
        if key in self._postings:
            found[key] = 1.0
        for k in self._stems.get(_stem(key), ()):
            found.setdefault(k, 0.95)
        if len(key) >= 2 and (is_last or len(key) >= 4):
            i = bisect.bisect_left(self._keys, key)
            quality = 0.8 if is_last else 0.6
            while i < len(self._keys) and self._keys[i].startswith(key):
                found.setdefault(self._keys[i], quality)
                i += 1
        if len(word) >= 5 and key.isalpha() and not any(q >= 0.95 for q in found.values()):
            limit = 2 if len(word) >= 9 else 1
            for k, dist, _ in process.extract(key, self._fuzzy_keys, scorer=DamerauLevenshtein.distance,
                                              score_cutoff=limit, limit=None):
                if abs(len(k) - len(key)) <= limit:
                    quality = 0.55 if dist == 1 else 0.45
                    found.setdefault(k, quality)
                    # the corrected word matches its other forms too (revaeled -> revealed -> revealing)
                    for other in self._stems.get(_stem(k), ()):
                        found.setdefault(other, quality * 0.95)
        return found

    def search(self, query: str, *, ruleset: str | None = None, limit: int = 20) -> list[Hit]:
        if not isinstance(query, str):
            raise ValueError(f"query: must be a string, got {type(query).__name__}")
        q = fold(query).strip()
        if not q:
            return []
        scores: dict[int, float] = defaultdict(float)
        required: list[dict[int, float]] = []

        ref = _REF.match(q)
        if ref:
            for d in self._by_ref.get(ref.group(1), ()):
                scores[d] += 100.0
        # Japanese: substring match on the Japanese-bearing fields
        for seg in _CJK.findall(q):
            per: dict[int, float] = {}
            for i, doc in enumerate(self.docs):
                best = 0.0
                for text, w in doc.japanese:
                    if seg in text:
                        bonus = 2.0 if text == seg or text.split("/")[0] == seg else 1.0
                        best = max(best, w * bonus)
                if best:
                    per[i] = best
            required.append(per)
        latin = _CJK.sub(" ", q)
        qwords = [w for w in words(latin) if w not in STOPWORDS] if not ref else []
        # hyphenated query words: match the joined form, not each part separately
        raw = [m.group(0) for m in _WORD.finditer(latin)]
        joined = [w.replace("-", "") for w in raw if "-" in w]
        if joined:
            parts = {p for w in raw if "-" in w for p in w.split("-")}
            qwords = [w for w in qwords if w not in parts and w not in joined] + joined
        for n, w in enumerate(qwords):
            per = {}
            for key, quality in self._candidates(w, n == len(qwords) - 1).items():
                for doc, weight in self._postings[key].items():
                    s = weight * quality
                    if s > per.get(doc, 0.0):
                        per[doc] = s
            required.append(per)

        if required:
            docs = set(required[0])
            for per in required[1:]:
                docs &= set(per)
            if not docs and len(required) > 2:  # forgive one unmatched word in a long query
                counts: dict[int, int] = defaultdict(int)
                for per in required:
                    for d in per:
                        counts[d] += 1
                docs = {d for d, c in counts.items() if c >= len(required) - 1}
            for d in docs:
                scores[d] += sum(per.get(d, 0.0) for per in required)

        # a term that matches lifts the sections it cites (見せ牌 / misehai -> AZRM §2.4)
        for d, sc in list(scores.items()):
            if sc >= LIFT_MIN:  # only a term matched by name, alias or definition, not in passing
                for cited in self.docs[d].cites:
                    scores[cited] += TERM_LIFT * sc

        phrase = " ".join(words(latin)) if latin.strip() else q
        compact = phrase.replace(" ", "")
        qkey = " ".join(romaji_key(w) for w in phrase.split())
        qstems = stems(latin) if not ref else ()
        qset = set(qstems)
        best: dict[tuple, tuple[float, int]] = {}
        for d, s in scores.items():
            doc = self.docs[d]
            if ruleset is None:
                if not doc.listed:
                    continue
            elif doc.ruleset is not None and doc.ruleset != ruleset:
                continue
            if phrase and any(phrase == t or compact == t or qkey == t for t in doc.exact) or q in doc.exact:
                s += 40.0
            elif qstems and any(_contains(t, qstems) for t in doc.title_stems):
                s += 12.0
            if qset and doc.title_stems:
                s += 8.0 * max(sum(1 for w in t if w in qset) / len(t) for t in doc.title_stems if t) \
                    if any(doc.title_stems) else 0.0
            # one result per foul and ruleset: the foul's page shows all its rows
            key = (doc.hit.kind, doc.ruleset, doc.hit.ref) if doc.hit.kind == "penalty" else (d,)
            if key not in best or s > best[key][0]:
                best[key] = (s, d)
        out = sorted(best.values(), key=lambda x: (-x[0], _KIND_ORDER[self.docs[x[1]].hit.kind], x[1]))
        return [_with_score(self.docs[d].hit, s) for s, d in out[:limit]]


_KIND_ORDER = {"term": 0, "rule": 1, "penalty": 2}


def _with_score(hit: Hit, score: float) -> Hit:
    return Hit(hit.kind, hit.ruleset, hit.ref, hit.title, hit.subtitle, round(score, 3), hit.row)
