"""Ranking: a query goes through :data:`STAGES` in order, each a function of the index and the
query's :class:`Ranking` (references, word scores, lifts, question boost, name bonuses, order,
spread), with every weight in :class:`Weights`."""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property

from handbook.core.model import Hit
from handbook.core.search.doc import KIND_ORDER, with_score
from handbook.core.search.folding import SECTION_REF, STOPWORDS, fold, romaji_key, stems, words
from handbook.core.search.grammar import concepts, without_rules_talk
from handbook.core.search.conditions import ROMAJI_NUMBERS
from handbook.core.search.setting import drop_setting
from handbook.core.search.japanese import kana_fold
from handbook.core.search.learned import shipped as shipped_model
from handbook.core.search.negation import factor as step_factor
from handbook.core.search.negation import steps


@dataclass(frozen=True)
class Weights:
    """Every weight of the search in one place: the field weights the index is built with and the
    shares and bonuses the ranking stages apply. A title or term beats an alias, which beats a
    definition, which beats body text."""

    # field weights (indexing)
    title: float = 10.0
    term: float = 12.0
    alias: float = 9.0
    category: float = 1.5
    penalty: float = 2.0
    definition: float = 3.0
    text: float = 1.0
    foul_name: float = 9.0
    foul_alias: float = 6.0
    #: a glossary term's Japanese and romaji in a section it cites (divided by sqrt of its sections)
    linked: float = 3.0
    #: share of a foul's names given to what covers it in a ruleset without its rows
    covered_share: float = 0.75
    #: a glossary term's names in the rows of a foul it names (divided by sqrt of its fouls)
    foul_term: float = 5.0
    #: a section's search words: Japanese/romaji names, descriptions
    search_name: float = 6.0
    search_alias: float = 4.5
    # references typed in the query ("2.4", "EMA 3.3.2", "12.3.1 (2)")
    ref_section: float = 100.0
    ref_row: float = 90.0
    ref_named: float = 20.0  # the named ruleset's section or row first
    ref_chapter: float = 50.0  # a bare number: a chapter-level section
    # lifting what a name cites
    term_lift: float = 0.3   # share of a matching term's or row's score given to each section it cites
    row_lift: float = 0.15   # share of a matching term's score given to the rows of the fouls naming it
    lift_least: float = 0.5  # share of lift_strength below which a match lifts nothing (a passing word)
    lift_strength: float = 5.0  # the least average field weight of a match that lifts (a name, not a passing word)
    question_rule_boost: float = 1.5  # a question wants the rule text more than a penalty row
    # name bonuses
    exact_bonus: float = 40.0
    exact_term_factor: float = 2.5  # a glossary term named exactly comes first
    phrase_bonus: float = 12.0
    title_share_bonus: float = 8.0
    pair_bonus: float = 6.0
    bonus_pool: int = 120  # how many of the best-scored documents are weighed for the name bonuses
    # the steps an incident says were done or missing (:mod:`handbook.core.search.negation`)
    #: a row lacking every step the query says was missing (an explicit negation is strong evidence)
    step_match: float = 2.0
    step_contradiction: float = 0.4  # a row lacking a step the query says was done (or the reverse)
    # the learned model (:mod:`handbook.core.search.learned`), fused with the lexical ranking: a
    # ruling's score is its lexical score as a share of the best one, plus ``learned`` times the
    # model's probability for it
    learned: float = 3.0
    #: a query of this many words or fewer is a name, ranked by the lexical stages alone; the learned
    #: weight grows to its whole over the next word (see ``_incident_share``)
    learned_from: float = 2.0
    # spreading the list
    repeated_foul: float = 0.5  # across rulesets, the same foul's rows after the first count this share
    mix_share: float = 0.9  # see RankingMixin.mix_kinds
    covered_close: float = 0.5  # see RankingMixin.elsewhere: a ruling this close to the first one counts as found
    covered_margin: float = 1.2  # see RankingMixin.elsewhere: what a ruleset lacks beats what it covers by this much


#: the weights the search uses
WEIGHTS = Weights()
W = WEIGHTS

_QUESTION = re.compile(r"^(can|could|what|who|whom|how|when|is|are|does|do|should|which|why|may)\b|\?$|"
                       r"とは$|(ですか|ますか|か)[?？]?$|(どう|いつ|誰|だれ|なに|何|意味)|"
                       r"\bmean(s|ing)?\b|\bdefin(e|ition)\b|\bexplain|\b(nani|dou|itsu|dare)\b|"
                       r"(,|\band)\s+(can|could|do|does|is|are|who|what|how|should)\s+(i|you|he|she|they|we|it|the|a)\b")



@dataclass(slots=True)
class Ranking:
    """One query on its way through :data:`STAGES`: the folded query ``q``, the typed ``raw``
    query, the scope, and what each stage leaves for the next (``{doc: score}``, the query's
    units and latin part, how strongly each document matched, the best result per group, and
    the ranked ``(score, doc)`` list)."""

    q: str
    raw: str
    ruleset: str | None
    editions: bool
    typed: str = ""
    scores: dict[int, float] = field(default_factory=dict)
    units: list = field(default_factory=list)
    latin: str = ""
    joined: bool = False
    strength: dict[int, float] = field(default_factory=dict)
    factors: dict[int, float] = field(default_factory=dict)
    best: dict = field(default_factory=dict)
    out: list[tuple[float, int]] = field(default_factory=list)


#: where a sentence ends: what an incident tells is read apart from the question it ends with
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*")

#: a count of minutes ("15 minutes", "15分"): its number is a quantity, read by the rows'
#: conditions (:mod:`handbook.core.search.conditions`), not a word ("15 tiles" is another foul)
_MINUTES = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*(?=(?:mins?|minutes?)\b|分)")


#: a count of tiles in romaji, with the counter mai (枚): "15mai", "juugo mai", "ichimai" -> "15 tiles"
_ROMAJI_TILES = re.compile(r"(?<![\w.])(\d{1,2}|(?:juu)?(?:ichi|ni|san|yon|go|roku|nana|hachi|kyuu)|juu)\s?mai\b")


def _tiles(m: re.Match) -> str:
    n = m.group(1)
    if not n.isdigit():
        n = str((10 if n.startswith("juu") and n != "juu" else 0) + ROMAJI_NUMBERS[n.removeprefix("juu") or "juu"])
    return f"{n} tiles"


#: the grammar's words for a question about what the rules leave unsaid
_RULES_NOT_EXHAUSTIVE = "rules not exhaustive"


def read_incident(index, r: Ranking) -> None:
    """Structures a bag of words misses (several players winning on one discard), named in the
    rules' words and added to the query (:mod:`handbook.core.search.grammar`), once the setting
    of an incident log (table, kyoku, honba) is dropped and two words written as one are written
    apart ("riichistick") and a count of tiles in romaji read as one ("15mai" -> 15 tiles); the
    grammar reads the query with its typos mended ("caled" -> called);
    a number of minutes is left to the rows' conditions."""
    q = drop_setting(r.q)
    if q is not r.q:
        r.q, r.raw, r.typed = q, drop_setting(r.raw), drop_setting(r.typed)
    r.q = index.split_compounds(r.q)
    if "mai" in r.q:
        r.q = _ROMAJI_TILES.sub(_tiles, r.q)
    if "分" in r.q or "min" in r.q:
        r.q = _MINUTES.sub("", r.q)
    extra = concepts(index.spelled(r.q))
    if _RULES_NOT_EXHAUSTIVE in extra:
        r.q, r.raw = without_rules_talk(r.q), without_rules_talk(r.raw)
    if extra:
        r.q = f"{r.q} {fold(' '.join(extra))}"
        r.raw = f"{r.raw} {' '.join(extra)}"


def score_references(index, r: Ranking) -> None:
    """Section and row references in the query ("2.4", "EMA 3.3.2") and the query's units."""
    r.scores, r.units, r.latin, r.joined = index.ref_scores(r.q, r.raw, ruleset=r.ruleset, editions=r.editions)


def score_words(index, r: Ranking) -> None:
    """Each unit's score by its rarity, scaled by the share of the query a document matches."""
    r.strength = index.unit_scores(r.scores, r.units, r.ruleset, r.editions)
    if not r.strength and r.joined:
        # words read as one romaji name ("agari houki ron") that this ruleset does not have:
        # the words one by one
        r.scores, r.units, r.latin, _ = index.ref_scores(r.q, r.raw, join=False, ruleset=r.ruleset,
                                                          editions=r.editions)
        r.strength = index.unit_scores(r.scores, r.units, r.ruleset, r.editions)


def lift_cited(index, r: Ranking) -> None:
    """A term or row matched by name lifts the sections (and rows) it cites."""
    index.lift(r.scores, r.strength)


def prefer_rules_for_questions(index, r: Ranking) -> None:
    """A question about the rules ("can I ron if I'm furiten", "アガリ放棄とは") wants the rule
    text more than a penalty row."""
    if _QUESTION.search(r.q):
        docs = index.docs
        for d in r.scores:
            if docs[d].hit.kind == "rule":
                r.scores[d] *= W.question_rule_boost


def weigh_steps(index, r: Ranking) -> None:
    """What was done and what was not, when the query says a step was missing: a penalty row
    whose foul lacks that step ("never said riichi" -> the row without saying it) ranks higher,
    one whose foul contradicts the query ranks lower (:mod:`handbook.core.search.negation`); a
    question says nothing was done. Kept in ``factors``, applied with the name bonuses (so
    that the right row of a foul stands for it)."""
    said = steps(r.q)
    if not said[1]:  # nothing said to be missing: a step merely named is no evidence
        return
    if _QUESTION.search(r.q):
        # "do I have to say tenpai?" asks, does not say what was done; an incident told before
        # its question ("turned the tile sideways, no stick. Is he in riichi?") says it
        told = " ".join(x for x in _SENTENCE_END.split(r.q) if x and not _QUESTION.search(x.strip()))
        said = (steps(told)[0] if told else frozenset(), said[1])
    row_steps = index.row_steps
    for d in r.scores:
        done = row_steps.get(d)
        if done is not None:
            f = step_factor(said, done, match=W.step_match, contradiction=W.step_contradiction)
            if f != 1.0:
                r.factors[d] = f


def name_bonuses(index, r: Ranking) -> None:
    """Bonuses for names matched exactly, as a phrase or by word pairs (then ``factors``); one
    result per group."""
    r.best = index.name_bonuses(r.scores, r.q, r.latin, r.ruleset, r.editions, r.factors)


def fuse_learned(index, r: Ranking) -> None:
    """The learned model's probabilities for the rulings (sections and rows) of the scope, fused with
    the lexical scores: each result's score becomes its share of the best lexical score plus
    ``Weights.learned`` times the model's probability for it (a ruling the words missed can come in
    on the model alone); glossary terms keep their share. A query that is a name (one or two words,
    see ``_incident_share``, or a title or name typed whole) is left to the lexical stages. Read from the text as typed, clause by
    clause for a long one (:mod:`handbook.core.search.learned`)."""
    learned = index.learned
    if learned is None or r.editions or not r.units:  # a reference ("2.4", "12.3.1") is no incident
        return
    model, docs_of = learned
    weight = W.learned * _incident_share(r.typed)
    if weight and index.named_exactly(r.q):
        weight = 0.0
    probs = model.probabilities(r.typed) if weight else None
    if not probs:
        return
    top = max((s for s, _d in r.best.values()), default=0.0) or 1.0
    best = {key: (s / top, d) for key, (s, d) in r.best.items()}
    scope = index.scope_of(r.ruleset)
    groups = index.groups
    for cls, p in probs.items():
        done = set()  # a foul's rows are one result per ruleset: its probability counts once there
        for d in docs_of.get(cls, ()):
            key = groups[d]
            if d in scope and key not in done:
                done.add(key)
                kept = best.get(key)
                best[key] = ((kept[0] if kept else 0.0) + weight * p, kept[1] if kept else d)
    r.best = best


_LATIN_WORD = re.compile(r"[^\W\d_]+", re.ASCII)
_JA_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _incident_share(typed: str) -> float:
    """How much of the learned weight a query gets: none for a name of one or two words (a name is
    the lexical stages' to match: its spellings, typos and prefixes), all of it from three words on
    (an incident told); a Japanese character counts as half a word."""
    n = len(_LATIN_WORD.findall(typed)) + len(_JA_CHAR.findall(typed)) / 2
    return min(1.0, max(0.0, (n - W.learned_from) / 1.0))


def order(index, r: Ranking) -> None:
    """Best first; ties: terms, then sections, then rows."""
    r.out = index.in_order(r.best.values())


def spread(index, r: Ranking) -> None:
    """Across rulesets, one foul's rows after the first count less; with a ruleset chosen, both
    kinds of ruling among the first three where they are close."""
    if r.ruleset is None:
        r.out = index.damp_repeated_fouls(r.out)
    elif not r.editions:
        r.out = index.mix_kinds(r.out)


#: the ranking, stage by stage
STAGES = (read_incident, score_references, score_words, lift_cited, prefer_rules_for_questions, weigh_steps,
          name_bonuses, fuse_learned, order, spread)


class RankingMixin:
    """The parts of :class:`~handbook.core.search.SearchIndex` that rank."""

    #: the weights this index ranks with
    weights = WEIGHTS

    def search(self, query: str, *, ruleset: str | None = None, limit: int = 20) -> list[Hit]:
        """See :meth:`handbook.core.model.Library.search`."""
        return [with_score(self.docs[d].hit, s) for s, d in self._ranked(query, ruleset)[:limit]]

    def _ranked(self, query: str, ruleset: str | None, *, editions: bool = False) -> list[tuple[float, int]]:
        if not isinstance(query, str):
            raise ValueError(f"query: must be a string, got {type(query).__name__}")
        q = fold(query).strip()
        if not q:
            return []
        r = Ranking(q, query, ruleset, editions, query)
        for stage in STAGES:
            stage(self, r)
        return r.out

    @cached_property
    def learned(self) -> tuple | None:
        """The shipped model (:func:`handbook.core.search.learned.shipped`) and, for each of its
        classes, the documents it stands for (``penalty:<foul>``: that foul's rows in every ruleset;
        ``<ruleset>/rule:<ref>``: that section); ``None`` without a model."""
        model = shipped_model()
        if model is None:
            return None
        docs_of: dict[str, list[int]] = defaultdict(list)
        for d, doc in enumerate(self.docs):
            hit = doc.hit
            if hit.kind == "penalty":
                docs_of[f"penalty:{hit.ref}"].append(d)
            elif hit.kind == "rule" and not doc.editions:
                docs_of[f"{doc.ruleset}/rule:{hit.ref}"].append(d)
        return model, dict(docs_of)

    def named_exactly(self, q: str) -> bool:
        """Whether the folded query ``q`` is a name or title of some entry, typed whole."""
        return q in self._exact_docs

    def scope_of(self, ruleset: str | None) -> frozenset[int]:
        """The documents a search narrowed to ``ruleset`` (``None``: every ruleset) ranks."""
        return self._scope(ruleset, False)

    @property
    def groups(self) -> list[tuple]:
        """Each document's result group (a penalty row counts for its foul in its ruleset)."""
        return self._groups

    @cached_property
    def row_steps(self) -> dict[int, tuple[frozenset[str], frozenset[str]]]:
        """Each penalty row's steps, read from its foul's title once per index (not through the
        query's cache, which a day of new incidents would turn over)."""
        return {d: steps(fold(doc.hit.title)) for d, doc in enumerate(self.docs) if doc.hit.kind == "penalty"}

    def mix_kinds(self, out: list[tuple[float, int]]) -> list[tuple[float, int]]:
        """With a ruleset chosen, the first three rulings show both kinds where both are close: the
        best section (or penalty row) missing from them takes the third place when it scores at
        least ``Weights.mix_share`` of the ruling it replaces (and is given that ruling's score)."""
        kind_rank = self._kind_rank  # 0 for a term, one number per kind of ruling
        rulings: list[int] = []  # the first three rulings
        first: set[int] = set()  # their kinds
        other = None  # the first ruling after them of another kind
        for i, (_s, d) in enumerate(out):
            kind = kind_rank[d]
            if kind == KIND_ORDER["term"]:
                continue
            if len(rulings) < 3:
                rulings.append(i)
                first.add(kind)
            elif len(first) > 1:
                return out
            elif kind not in first:
                other = i
                break
        if other is None:
            return out
        third = rulings[2]
        if out[other][0] < W.mix_share * out[third][0]:
            return out
        _s, moved = out.pop(other)
        out.insert(third, (out[third][0], moved))  # ranked as the ruling it replaces: scores stay in order
        return out

    def ref_scores(self, q: str, raw: str = "", *, join: bool = True, ruleset: str | None = None,
                    editions: bool = False) -> tuple[dict[int, float], list[tuple[dict[int, float], int, bool]], str, bool]:
        """Scores for a section or row reference in the query ("2.4", "§3", "12.3.1 (2)"), and
        the query's units and Latin part when it is not only a reference, and whether its words
        were read as one romaji name."""
        scores: dict[int, float] = defaultdict(float)
        ref = SECTION_REF.match(q)
        if ref is None and q[:1].isalpha():
            # "EMA 3.3.2", "AZRM section 2.4", "WRC 2025 12.3.1 (2)": the reference after the name
            tokens = q.split()
            named: set[str] = set()
            while len(tokens) > 1 and tokens[0].strip(":,").replace("-", "") in self._ref_words:
                named.update(self._ref_words[tokens.pop(0).strip(":,").replace("-", "")])
            bare = SECTION_REF.match(" ".join(tokens))
            if bare and ("." in bare.group(1) or bare.group(2) or tokens[0].startswith("§")):
                ref, q = bare, " ".join(tokens)
                for d in (*self._sections.get(ref.group(1), ()), *self._row_refs.get((ref.group(1), ref.group(2)), ())):
                    if self.docs[d].ruleset in named:  # "EMA 3.3.2": EMA's first
                        scores[d] += W.ref_named
        if ref and ("." in ref.group(1) or ref.group(2) or q.startswith("§")):
            for d in self._sections.get(ref.group(1), ()) if not ref.group(2) else ():
                scores[d] += W.ref_section
            for d in self._row_refs.get((ref.group(1), ref.group(2)), ()):
                scores[d] += W.ref_row
            return scores, [], "", False
        if ref:  # a bare number: a chapter-level section ("1" in Rakkii Nomi) or a word
            for d in self._sections.get(ref.group(1), ()):
                scores[d] += W.ref_chapter
        units, latin, joined = self._units(q, raw, join=join, ruleset=ruleset, editions=editions)
        return scores, units, latin, joined

    def unit_scores(self, scores: dict[int, float], units: list[tuple[dict[int, float], int, bool]], ruleset: str | None,
                     editions: bool) -> dict[int, float]:
        """Add each unit's score (counted by how rare it is; a unit that matches nothing anywhere
        is left out) to ``scores``; return how strongly each document matched (its average match, scaled by the share of the query it matched)."""
        known = [(u, math.log(1.0 + self._idf_n / (1.0 + n)), narrowed) for u, n, narrowed in units if n]
        total = sum(w for _, w, _ in known)
        strength: dict[int, float] = {}
        if not known:
            return strength
        matched: dict[int, float] = {}
        raw: dict[int, float] = {}
        scope = self._scope(ruleset, editions)
        for per, idf, narrowed in known:
            items = per.items() if narrowed else [(d, s) for d, s in per.items() if d in scope]
            if not raw:  # the first unit matching in the scope: every document is new
                raw = {d: idf * s for d, s in items}
                matched = dict.fromkeys(raw, idf)
                continue
            get = matched.get
            for d, s in items:
                m = get(d)
                if m is None:
                    matched[d] = idf
                    raw[d] = idf * s
                else:
                    matched[d] = m + idf
                    raw[d] += idf * s
        for d, r in raw.items():
            coverage = matched[d] / total
            scores[d] += r * coverage * coverage
            # a name matched by part of the query ("daburon ari") lifts by the share it matched
            strength[d] = r / matched[d] * coverage * coverage
        return strength

    def lift(self, scores: dict[int, float], strength: dict[int, float]) -> None:
        """A term or row matched by name lifts what it cites (見せ牌 -> AZRM §2.4; kuikae -> the
        swap-calling rows of every table); a row only lifts a section the query missed, and a
        term only lifts rows the query missed."""
        own = set(scores)
        least = W.lift_strength * W.lift_least
        for d, st in strength.items():
            if st >= least:
                share = min(1.0, st / W.lift_strength) ** 2
                sc = scores[d]
                doc = self.docs[d]
                for cited in doc.cites:
                    if doc.hit.kind == "term" or cited not in own:
                        scores[cited] += W.term_lift * share * sc
                for row in doc.lifts:
                    if row not in own:
                        scores[row] += W.row_lift * share * sc

    def name_bonuses(self, scores: dict[int, float], q: str, latin: str, ruleset: str | None,
                      editions: bool, factors: dict[int, float] | None = None) -> dict[tuple, tuple[float, int]]:
        """Bonuses for names matched exactly, as a phrase or by word pairs, each document's
        total then times its ``factors`` entry; one result per foul and ruleset (the foul's page
        shows all its rows)."""
        phrase = " ".join(w for w in words(latin) if w not in STOPWORDS) if latin.strip() else q
        compact = phrase.replace(" ", "")
        qkey = " ".join(romaji_key(w) for w in phrase.split())
        qja = kana_fold(q) if not q.isascii() else q
        qstems = stems(latin) if latin else ()
        qset = set(qstems)
        qpairs = set(zip(qstems, qstems[1:], strict=False))
        best: dict[tuple, tuple[float, int]] = {}
        qforms = {phrase, compact, qkey, q, qja} if phrase else set()
        scope = self._scope(ruleset, editions)
        in_scope = [(s, d) for d, s in scores.items() if d in scope]
        # the name bonuses are weighed for the best-scored documents only; the rest keep their score
        pool = ({d for _s, d in sorted(in_scope, reverse=True)[:W.bonus_pool]} if len(in_scope) > W.bonus_pool
                else None)
        # the documents a bonus can reach, from the names' inverted tables: named exactly, or
        # sharing a stem of the query (a phrase or a word pair needs a shared stem)
        exact_docs, pair_docs = self._exact_docs, self._pair_docs
        exact: set[int] = set()
        for f in qforms | _ja_names_apart(qja):
            exact.update(exact_docs.get(f, ()))
        sharing = self._title_shares(qset, ruleset, editions)
        pair_count: dict[int, int] = {}
        for p in qpairs:
            for d in pair_docs.get(p, ()):
                pair_count[d] = pair_count.get(d, 0) + 1
        # the documents weighed: named, and among the pool when there is one
        named = exact.union(sharing)
        if pool is not None:
            named &= pool
        docs, groups = self.docs, self._groups
        for s, d in in_scope:
            if d in named:
                doc = docs[d]
                if d in exact:
                    # a glossary term named exactly comes first: it explains the word and links on
                    s += W.exact_bonus * (W.exact_term_factor if doc.hit.kind == "term" else 1.0)
                elif qstems and doc.stem_set.issuperset(qstems) and doc.has_phrase(qstems):
                    s += W.phrase_bonus
                if d in pair_count:
                    # words that stand together in a name ("closed kan", "riichi stick")
                    s += W.pair_bonus * pair_count[d]
                if d in sharing:
                    s += W.title_share_bonus * sharing[d]
            if factors and d in factors:
                s *= factors[d]
            key = groups[d]
            kept = best.get(key)
            if kept is None or s > kept[0]:
                best[key] = (s, d)
        return best

    def _title_shares(self, qset: set[str], ruleset: str | None, editions: bool) -> dict[int, float]:
        """Each document of the scope with a title holding a stem of ``qset``: the largest share of
        one of its titles' stems that are in ``qset`` (a stem twice in a title counts twice)."""
        titles_of, title_doc, title_len = self._scoped_titles(ruleset, editions), self._title_doc, self._title_len
        per_title: Counter[int] = Counter()
        for w in qset:
            held = titles_of.get(w)
            if held:
                per_title.update(held)  # counted in C: a title once per time it holds the stem
        shares: dict[int, float] = {}
        get = shares.get
        for g, n in per_title.items():
            share = n / title_len[g]
            d = title_doc[g]
            if share > get(d, 0.0):
                shares[d] = share
        return shares

    def damp_repeated_fouls(self, out: list[tuple[float, int]]) -> list[tuple[float, int]]:
        """Across rulesets, the same foul's rows after the first count half, so that one foul's
        five tables do not push every section and term off the first screen."""
        seen_fouls: set[str] = set()
        damped = []
        for s, d in out:
            foul = self.docs[d].foul
            if foul is not None:
                if foul in seen_fouls:
                    s *= W.repeated_foul
                seen_fouls.add(foul)
            damped.append((s, d))
        return self.in_order(damped)

    def in_order(self, found) -> list[tuple[float, int]]:
        """``(score, doc)`` pairs best first; ties: terms, then sections, then rows, each in index order."""
        kind_rank = self._kind_rank
        keyed = [(-s, kind_rank[d], d) for s, d in found]
        keyed.sort()
        return [(-s, d) for s, _k, d in keyed]

    def editions(self, query: str, ruleset: str | None = None) -> list[str]:
        """The rulesets whose Editions page (``/rules/<id>/editions``) matches ``query`` ("2016",
        "edition", "WRC 2015"), best first; narrowed to ``ruleset`` when given."""
        ranked = self._ranked(query, ruleset, editions=True)
        return [self.docs[d].ruleset for s, d in ranked if self.docs[d].ruleset and s >= 0.5 * ranked[0][0]]

    def _covers(self, ruleset: str, foul: str) -> bool:
        """Whether ``ruleset`` has rows for ``foul`` or deals with it elsewhere (``covered_by``)."""
        return (ruleset, foul) in self._rows_of or (ruleset, foul) in self._covered

    def elsewhere(self, query: str, ruleset: str, *, limit: int = 5) -> list[Hit]:
        """Penalty rows of *other* rulesets for the fouls this query finds that ``ruleset``'s
        table has no row for ("not covered by AZRM — here is what WRC and EMA say"), best first,
        one row per foul and ruleset.

        A foul counts when one of its rows is among the first three rulings of the search over
        every ruleset and scores at least as well as the best ruling ``ruleset`` has for the query
        (or ``ruleset`` has none), at least ``Weights.covered_close`` of the first ruling, and
        ``Weights.covered_margin`` times the best of those first three that ``ruleset`` covers
        (its own section, a foul it has rows for or reads as dealt with elsewhere,
        ``Foul.covered_by``). Empty when ``ruleset`` covers what was found."""
        filtered = [x for x in self._ranked(query, ruleset) if self.docs[x[1]].hit.kind != "term"]
        unfiltered = [x for x in self._ranked(query, None) if self.docs[x[1]].hit.kind != "term"]
        own_best = filtered[0][0] if filtered else 0.0
        top = unfiltered[0][0] if unfiltered else 0.0
        close = [(s, self.docs[d]) for s, d in unfiltered[:3] if s >= W.covered_close * top]
        # the best of those rulings that ``ruleset`` covers: what it lacks must clearly beat it
        covered_best = max((s for s, doc in close if doc.ruleset == ruleset
                            or (doc.foul is not None and self._covers(ruleset, doc.foul))), default=0.0)
        fouls = [doc.foul for s, doc in close
                 if doc.foul is not None and s >= own_best and s >= W.covered_margin * covered_best
                 and not self._covers(ruleset, doc.foul)]
        picks: dict[tuple[str, str], tuple[float, int]] = {}
        for s, d in self._ranked(query, None):
            doc = self.docs[d]
            if doc.foul in fouls and doc.ruleset != ruleset:
                key = (doc.foul, doc.ruleset)
                if key not in picks:
                    picks[key] = (s, d)
        out = sorted(picks.values(), key=lambda x: (fouls.index(self.docs[x[1]].foul), -x[0]))
        return [with_score(self.docs[d].hit, s) for s, d in out[:limit]]


def _ja_names_apart(qja: str) -> set[str]:
    """The Japanese words of a query typed side by side ("ノーテンリーチ 流局 チョンボ"), of 3
    characters or more: each is named exactly, as a name typed alone would be."""
    if " " not in qja or qja.isascii():
        return set()
    return {seg for seg in qja.split() if len(seg) >= 3 and not seg.isascii()}
