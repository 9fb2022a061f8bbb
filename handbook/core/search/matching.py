"""Matching a query's words against the index: each latin word by its keys (exact, stem, lemma,
synonym class, romaji verb form, prefix, typo) and each Japanese segment or content word by the
Japanese fields; a unit is ``{doc: score}`` with the number of documents it matches."""

from __future__ import annotations

import bisect
import math
import re
import unicodedata
from collections import defaultdict

from handbook.core.model import Hit
from handbook.core.search.doc import Doc
from handbook.core.search.folding import (
    CJK_RUN, JA_WORD, ROMAJI_CHANGES, SYNONYM_OF, WORD, ROMAJI_VERB_OF, STOPWORDS, damerau_levenshtein, deletions_of, known_english,
    stem_of, fold, lemma, romaji_bases, romaji_key, words)
from handbook.core.search.japanese import LONGEST_NAME, NO_DOCS, bigrams, kana_fold

_HOW_MANY = re.compile(r"\bhow (many|much)\b")
JA_SENTENCE = 5  # characters: a Japanese query this long is also matched word by word
FEW_FOULS = 3  # fouls: a name inside a Japanese sentence naming no more counts as a word of it



#: the words a player declares at the table, which a 4-letter typo is read as ("tsmo" -> tsumo; other
#: 4-letter typos stay as typed: "ronn" is no "rond")
_DECLARED = frozenset({"tsumo", "riichi", "tenpai", "noten", "chombo", "chonbo"})
#: the word a player calls, after a verb of calling: one typo from a call word is read as it ("called
#: pom on a dragon" -> pon, "said rom" -> ron), unless it is a stopword ("said can I")
_CALLED = re.compile(r"\b(?:call(?:ed|s|ing)?|said|says|say|declared?|declares|shouted|yelled)\s+['\"“]?([a-z]{3,5})\b")
_CALL_WORDS = ("pon", "chii", "chi", "kan", "ron", "tsumo", "riichi")

def _call_word(m: re.Match) -> str:
    """A :data:`_CALLED` match with its word read as the one call word it is one typo from."""
    word = m.group(1)
    if word in _CALL_WORDS or word in STOPWORDS:
        return m.group(0)
    distance = damerau_levenshtein()
    near = [c for c in _CALL_WORDS if distance(word, c) == 1]
    return m.group(0)[:m.start(1) - m.start(0)] + near[0] if len(near) == 1 else m.group(0)


class QueryMatching:
    """The parts of :class:`~handbook.core.search.SearchIndex` that match a query's words."""

    def _candidates(self, word: str, is_last: bool) -> dict[str, float]:
        """Index keys a query word matches, with the match quality (1 exact … 0.5 typo)."""
        key = romaji_key(word)
        found: dict[str, float] = {}
        if key in self._postings:
            found[key] = 1.0
        for k in self._stems.get(stem_of(key), ()):
            found.setdefault(k, 0.95)
        base = lemma(word)
        if base != word:  # an irregular form: took -> take, drew -> draw
            bkey = romaji_key(base)
            if bkey in self._postings:
                found.setdefault(bkey, 0.95)
            for k in self._stems.get(stem_of(bkey), ()):
                found.setdefault(k, 0.9)
        bstem = stem_of(romaji_key(base))
        for other in SYNONYM_OF.get(bstem) or ROMAJI_VERB_OF.get(bstem, ()):
            for k in self._stems.get(other, ()):
                found.setdefault(k, 0.75)
        if key.isalpha() and not any(q >= 0.9 for q in found.values()):  # a romaji verb form: agatta -> agari
            found.update((b, 0.85) for b in romaji_bases(key) if b in self._postings)
        if len(key) >= 2 and (is_last or len(key) >= 4):
            i = bisect.bisect_left(self._keys, key)
            quality = 0.8 if is_last else 0.6
            while i < len(self._keys) and self._keys[i].startswith(key):
                found.setdefault(self._keys[i], quality)
                i += 1
        if len(word) >= 5 and key.isalpha() and not any(q >= 0.9 for q in found.values()):
            limit = 2 if len(word) >= 9 else 1
            for k, dist in self._typo_matches(key, limit):
                if abs(len(k) - len(key)) <= limit:
                    quality = 0.55 if dist == 1 else 0.45
                    found.setdefault(k, quality)
                    # the corrected word matches its other forms too (revaeled -> revealed -> revealing)
                    for other in self._stems.get(stem_of(k), ()):
                        found.setdefault(other, quality * 0.95)
        return found

    def _typo_matches(self, key: str, limit: int) -> list[tuple[str, int]]:
        """The typo-matching vocabulary's keys within ``limit`` edits of ``key`` (Damerau-Levenshtein
        distance, RapidFuzz), nearest first, then in key order.

        Only keys that share a string made by ``limit`` or fewer deletions with ``key`` can be within
        ``limit`` edits (each edit -- insertion, deletion, substitution, transposition -- is undone
        by deleting one character on each side at most): those few are measured, not the whole
        vocabulary."""
        variants = deletions_of(key, limit)
        near: set[str] = set()
        for length in range(max(4, len(key) - limit), len(key) + limit + 1):
            table = self._deletion_table(length, limit)
            for v in variants:
                found = table.get(v)
                if found is not None:
                    near.update(found)
        distance = damerau_levenshtein()
        out = []
        for k in near:
            dist = distance(key, k, score_cutoff=limit)
            if dist <= limit:
                out.append((dist, k))
        out.sort()
        return [(k, dist) for dist, k in out]

    def _deletion_table(self, length: int, depth: int) -> dict[str, list[str]]:
        """Every string made by ``depth`` or fewer deletions from a typo-matching key of ``length``
        letters -> those keys (built on first use, per length and depth)."""
        table = self._deletion_tables.get((length, depth))
        if table is None:
            built: dict[str, list[str]] = defaultdict(list)
            for k in self._fuzzy_keys:
                if len(k) == length:
                    for v in deletions_of(k, depth):
                        built[v].append(k)
            table = self._deletion_tables[(length, depth)] = dict(built)
        return table

    def latin_unit(self, word: str, is_last: bool, ruleset: str | None, editions: bool
                    ) -> tuple[dict[int, float], int, bool]:
        """A query word's unit: ``{doc: score}`` over the documents a search with ``ruleset`` may
        show (each doc's best matching key counts), how many documents of the whole corpus it
        matches (its rarity), and True (the unit is narrowed to the scope already)."""
        candidates = self._candidates(word, is_last)
        everywhere = self._postings
        if len(candidates) == 1:
            (only,) = candidates
            count = len(everywhere[only])
        else:
            count = len(set().union(*[everywhere[key] for key in candidates]))
        scoped = self._scoped_postings(ruleset, editions)
        per: dict[int, float] = {}
        for key, quality in candidates.items():
            postings = scoped.get(key)
            if not postings:
                continue
            if not per:  # the first key: every posting (all scores are positive)
                per = {doc: weight * quality for doc, weight in postings.items()}
                continue
            get = per.get
            for doc, weight in postings.items():
                s = weight * quality
                if s > get(doc, 0.0):
                    per[doc] = s
        return per, count, True

    def _scoped_postings(self, ruleset: str | None, editions: bool) -> dict[str, dict[int, float]]:
        """The postings narrowed to the documents a search with ``ruleset`` may show (built on
        first use, per ruleset; a key's postings all in the scope are shared, not copied)."""
        key = (ruleset, editions)
        scoped = self._scoped.get(key)
        if scoped is None:
            scope = self._scope(ruleset, editions)
            scoped = {}
            for k, docs in self._postings.items():
                mine = {d: w for d, w in docs.items() if d in scope}
                if mine:
                    scoped[k] = docs if len(mine) == len(docs) else mine
            self._scoped[key] = scoped
        return scoped

    def japanese_unit(self, seg: str) -> dict[int, float]:
        """Docs whose Japanese contains ``seg``, or whose Japanese name stands inside ``seg``, or
        (a sentence) that hold many of its character pairs; each doc's best match counts."""
        if len(seg) < 3:  # a short segment: only the fields holding it
            return self._ja_word_unit(seg)
        per: dict[int, float] = {}
        matches = [self._ja_containing(seg), self._ja_names_inside(seg), self._ja_pairs(seg)]
        for found in matches:
            for doc, s in found:
                if s > per.get(doc, 0.0):
                    per[doc] = s
        return per

    def _ja_rarity(self, seg: str, unit: dict[int, float]) -> int:
        """How many documents a Japanese segment's unit counts as matching, for its rarity: for a
        name (a foul's or a term's Japanese, typed alone between spaces), those whose Japanese
        holds it whole, as a latin word counts the documents holding it (ノーテンリーチ: the 13 with
        that name, not the 153 sharing a character pair with it); otherwise (a sentence, a word no
        name is) all the unit's documents."""
        if len(seg) < 3 or seg not in self._ja_name_index:
            return len(unit)
        whole = self._ja_whole.get(seg)
        if whole is None:
            whole = len({doc for doc, _s in self._ja_containing(seg)})
            if len(self._ja_whole) < 4096:
                self._ja_whole[seg] = whole
        return whole or len(unit)

    def _ja_word_unit(self, word: str) -> dict[int, float]:
        """Docs whose Japanese holds one content word of a sentence (a kanji stem, a katakana word),
        each doc's best field counting (a word of one or two characters: looked up, read only)."""
        if len(word) == 1:
            return self._ja_chars().get(word, NO_DOCS)
        if len(word) == 2:
            return self._ja_pair_units.get(word, NO_DOCS)
        per: dict[int, float] = {}
        for doc, s in self._ja_containing(word):
            if s > per.get(doc, 0.0):
                per[doc] = s
        return per

    def _ja_containing(self, seg: str):
        """Fields holding ``seg``, two characters or more (their rarest shared character pair
        narrows the scan)."""
        pairs = [self._field_grams.get(g, ()) for g in dict.fromkeys(bigrams(seg))]
        for i in min(pairs, key=len) if pairs else ():
            text, doc, w = self._ja_fields[i]
            if seg in text:
                yield doc, w * (2.0 if text == seg else 1.0)

    def _ja_chars(self) -> dict[str, dict[int, float]]:
        """Character -> the docs whose Japanese holds it, each with its best field's weight (twice
        a field that is this one character), in the order of their first field; for one-kanji
        words, built on first use."""
        chars = self._ja_char_fields
        if chars is None:
            units: dict[str, dict[int, float]] = defaultdict(dict)
            for text, doc, w in self._ja_fields:
                for c in set(text):
                    unit = units[c]
                    s = w * (2.0 if text == c else 1.0)
                    if s > unit.get(doc, 0.0):
                        unit[doc] = s
            chars = self._ja_char_fields = dict(units)
        return chars

    def _ja_names_inside(self, seg: str):
        """Names standing inside the query (携帯が鳴った holds 携帯): every piece looked up once."""
        names = self._ja_name_index
        for a in range(len(seg)):
            for b in range(a + 2, min(len(seg), a + LONGEST_NAME) + 1):
                if b - a < len(seg):
                    for doc, w in names.get(seg[a:b], ()):
                        yield doc, w * (0.4 + 0.6 * (b - a) / len(seg))

    def _few_fouls(self, unit: dict[int, float]) -> bool:
        """Whether the penalty rows among ``unit``'s documents are rows of :data:`FEW_FOULS` fouls
        or fewer (先ヅモ names one; テンパイ宣言 five, and says little on its own)."""
        docs = self.docs
        return len({docs[d].hit.ref for d in unit if docs[d].hit.kind == "penalty"}) <= FEW_FOULS

    def _names_within(self, seg: str) -> list[str]:
        """The names of 3 characters or more standing inside a sentence ``seg``, longest first,
        none overlapping one taken before."""
        names, starts = self._ja_name_index, self._ja_name_starts
        found = [(a, b) for a in range(len(seg) - 2) if seg[a:a + 2] in starts
                 for b in range(a + 3, min(len(seg), a + LONGEST_NAME) + 1)
                 if b - a < len(seg) and seg[a:b] in names]
        taken: list[tuple[int, int]] = []
        for a, b in sorted(found, key=lambda ab: ab[0] - ab[1]):
            if all(b <= x or a >= y for x, y in taken):
                taken.append((a, b))
        return [seg[a:b] for a, b in sorted(taken)]

    def _ja_pairs(self, seg: str):
        """A sentence (手牌を倒して見せてしまった): the share of its character pairs a field holds,
        each pair counted by its rarity; pairs found nowhere (particles) do not count."""
        grams = [self._ja_grams[g] for g in dict.fromkeys(bigrams(seg)) if g in self._ja_grams]
        weights = [(docs, math.log(1.0 + self._idf_n / (1.0 + len(docs)))) for docs in grams]
        total = sum(w for _d, w in weights)
        acc: dict[int, float] = defaultdict(float)
        for docs, idf in weights:
            for doc, w in docs.items():
                acc[doc] += idf * w
        for doc, a in acc.items():
            yield doc, 0.8 * a / total

    def _ja_sentence_units(self, q: str, raw: str) -> list[tuple[dict[int, float], int, bool]]:
        """The units of a Japanese sentence's content words (see :meth:`_units`), and of the names
        of a few fouls standing inside it."""
        out: list[tuple[dict[int, float], int, bool]] = []
        raw_cjk = CJK_RUN.findall(unicodedata.normalize("NFKC", raw))
        ja_words = list(dict.fromkeys(JA_WORD.findall(" ".join(raw_cjk))))
        if ja_words != raw_cjk:  # a sentence, not one word typed in katakana
            for w in ja_words:
                word = kana_fold(fold(w))
                unit = self._ja_word_unit(word)
                # a kanji run with a suffix or prefix no field has (和了放棄中, 配牌時): its
                # longest part that some field holds
                n = len(word) - 1
                while not unit and n >= 2:
                    for part in dict.fromkeys((word[:n], word[-n:])):
                        unit = self._ja_word_unit(part)
                        if unit:
                            break
                    n -= 1
                if unit:
                    out.append((unit, len(unit), False))
            # the name of a few fouls standing inside the sentence, across its words
            # (先ヅモして手牌に入れちゃった holds 先ヅモ: 先 and ヅモ) is a word of it too
            # (a run of kana alone, りゅうきょく, is one word: as リュウキョク, nothing inside it)
            folded_words = {kana_fold(fold(w)) for w in ja_words}
            for seg in CJK_RUN.findall(q) if ja_words else ():
                for name in self._names_within(kana_fold(seg)):
                    if not any(name in w for w in folded_words):
                        unit = self._ja_word_unit(name)
                        if unit and self._few_fouls(unit):
                            out.append((unit, len(unit), False))
        return out

    def _units(self, q: str, raw: str = "", *, join: bool = True, ruleset: str | None = None,
               editions: bool = False) -> tuple[list[tuple[dict[int, float], int, bool]], str, bool]:
        """The query's units (one per Japanese segment, per content word of a Japanese sentence
        and per latin word), each a ``{doc: score}`` with the number of documents it matches in
        the whole corpus and whether it is narrowed to ``ruleset``'s scope already, and the latin
        part of the query."""
        units: list[tuple[dict[int, float], int, bool]] = []
        for seg in CJK_RUN.findall(q):
            folded = kana_fold(seg)
            unit = self.japanese_unit(folded)
            units.append((unit, self._ja_rarity(folded, unit), False))
        if raw and sum(len(seg) for seg in CJK_RUN.findall(q)) >= JA_SENTENCE:
            units += self._ja_sentence_units(q, raw)
        latin = _HOW_MANY.sub("how", CJK_RUN.sub(" ", q))  # "how many" asks; "too many tiles" names
        qwords = [w for w in words(latin) if w not in STOPWORDS]
        # hyphenated query words: match the joined form, not each part separately
        raw = [m.group(0) for m in WORD.finditer(latin)]
        joined = [w.replace("-", "") for w in raw if "-" in w]
        if joined:
            parts = {p for w in raw if "-" in w for p in w.split("-")}
            qwords = [w for w in qwords if w not in parts and w not in joined] + joined
        qwords = list(dict.fromkeys(qwords))
        joined = False
        if join and 1 < len(qwords) <= 3 and romaji_key("".join(qwords)) in self._romaji:  # kui kae, ryuu kyoku
            qwords = ["".join(qwords)]
            joined = True
        for n, w in enumerate(qwords):
            units.append(self.latin_unit(w, n == len(qwords) - 1, ruleset, editions))
        return units, latin, joined

    def _knows(self, word: str) -> bool:
        """Whether the index has ``word``, as typed or by its stem."""
        key = romaji_key(word)
        return key in self._postings or stem_of(key) in self._stems

    def split_compounds(self, q: str) -> str:
        """``q`` (folded) with each word the index does not have but two of its words make written
        apart (:meth:`compound_parts`): "riichistick" -> "riichi stick"."""
        if not any(len(w) >= 8 for w in q.split()):
            return q
        return WORD.sub(lambda m: " ".join(self.compound_parts(m.group(0))), q)

    def compound_parts(self, word: str) -> tuple[str, ...]:
        """A word the index does not have, made of two it has ("riichistick" -> riichi, stick;
        "tenpaideclaration" -> tenpai, declaration), both 4 letters or more: the two (of several
        splits, the one whose shorter part is longest); else the word itself."""
        if len(word) < 8 or not word.isalpha():
            return (word,)
        if self._knows(word):
            return (word,)
        post = self._postings
        best = None
        for i in range(4, len(word) - 3):  # both parts 4 letters or more ("cheking" is no "che king")
            left, right = word[:i], word[i:]
            if romaji_key(left) in post and romaji_key(right) in post and left not in STOPWORDS \
                    and right not in STOPWORDS:
                shorter = min(len(left), len(right))
                if best is None or shorter > best[0]:
                    best = (shorter, left, right)
        return (word,) if best is None else (best[1], best[2])

    def spelled(self, q: str) -> str:
        """``q`` (folded) with each misspelt word written as the index's word it is one typo from
        ("forgot to take the caled tile" -> "called"), for the incident grammar, whose patterns
        name words exactly (the words' own matching forgives typos already: :meth:`_candidates`)."""
        if any(len(w) >= 4 for w in q.split()):
            q = WORD.sub(lambda m: self.spelled_word(m.group(0)), q)
        return _CALLED.sub(_call_word, q) if _CALLED.search(q) else q

    def spelled_word(self, word: str) -> str:
        """``word`` as the index spells it, when it is 5 letters or more (4 when it is a word a
        player declares: "tsmo" -> tsumo), neither the index nor English has it, and one word of
        the index (without romaji's long vowels, which its keys shorten) is nearest, one edit away
        (two from 9 letters): "caled" -> called, "tilles" -> tiles; else ``word``."""
        done = self._spelled.get(word)
        if done is not None:
            return done
        out = word
        if len(word) >= 4 and word.isalpha() and not self._knows(word) and not known_english(word):
            near = self._typo_matches(romaji_key(word), 2 if len(word) >= 9 else 1)
            best = [k for k, dist in near if dist == near[0][1]] if near else []
            if len(word) == 4:  # only a declared word ("tumo", its Kunrei spelling, is as near)
                best = [k for k in best if k in _DECLARED]
            if len(best) == 1 and ROMAJI_CHANGES.search(best[0]) is None:
                out = best[0]
        if len(self._spelled) < 8192:
            self._spelled[word] = out
        return out

    def _in_scope(self, doc: Doc, ruleset: str | None, editions: bool = False) -> bool:
        if doc.editions is not editions:
            return False
        if ruleset is None:
            return doc.listed
        return doc.ruleset is None or doc.ruleset == ruleset

    def _scope(self, ruleset: str | None, editions: bool) -> frozenset[int]:
        """The documents a search with this ``ruleset`` may show (computed once per ruleset)."""
        key = (ruleset, editions)
        scope = self._scopes.get(key)
        if scope is None:
            scope = self._scopes[key] = frozenset(
                i for i, doc in enumerate(self.docs) if self._in_scope(doc, ruleset, editions))
        return scope

    def matching(self, query: str, *, kind: str, ruleset: str | None = None, least: float = 0.0) -> list[Hit]:
        """The entries of one ``kind`` (``"penalty"`` rows of ``ruleset``'s table, ``"rule"``
        sections, ``"term"`` glossary terms) that match every word of ``query`` the way the search
        matches it (spelling, stems, synonyms, kana/romaji, typos, a foul's names), each word
        scoring at least ``least`` (a field weight: ``Weights.alias * 0.5`` keeps to names), in
        index order; a filter narrowed to one table. Empty for an empty query."""
        q = fold(query).strip()
        if not q:
            return []
        docs = self.docs
        allowed = {d for d in self._scope(ruleset, False) if docs[d].hit.kind == kind}
        for seg in CJK_RUN.findall(q):
            seg = kana_fold(seg)
            found = ({d for d, s in self._ja_containing(seg) if s >= least} if len(seg) > 1 else
                     {d for d, s in self._ja_word_unit(seg).items() if s >= least})
            found.update(d for d, s in self._ja_names_inside(seg) if s >= least)
            allowed &= found
            if not allowed:
                return []
        latin = CJK_RUN.sub(" ", q).strip()
        if latin:
            units, _latin, _joined = self._units(latin, "", ruleset=ruleset)
            for per, n, _narrowed in units:
                allowed &= {d for d, s in per.items() if s >= least} if n else set()
                if not allowed:
                    return []
        return [docs[d].hit for d in sorted(allowed)]
