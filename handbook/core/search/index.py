"""The inverted index: every rule section, penalty row and glossary term as a document, its
fields weighted (:class:`~handbook.core.search.ranking.Weights`), built once at load time; the
Japanese tables and the names' tables are built on first use."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import TYPE_CHECKING

from handbook.core.model import Hit
from handbook.core.search.cache import Keeping, paused_gc
from handbook.core.search.doc import KIND_ORDER, Doc
from handbook.core.search.folding import key_counts, stem_of, typed_keys, fold, ref_keys, romaji_key, stems, words
from handbook.core.search.japanese import exact_forms, ja_parts, term_japanese, kana_fold, romaji_of
from handbook.core.search.matching import QueryMatching
from handbook.core.search.ranking import W, RankingMixin

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library


class SearchIndex(RankingMixin, QueryMatching, Keeping):
    """An inverted index over a :class:`~handbook.core.model.Library`, built once at load time."""

    def __init__(self, library: "Library") -> None:
        self.docs: list[Doc] = []
        self._postings: dict[str, dict[int, float]] = defaultdict(dict)
        self._sections: dict[str, list[int]] = defaultdict(list)   # section ref -> rule docs
        self._row_refs: dict[tuple[str, str | None], list[int]] = defaultdict(list)
        # the Japanese fields, their names and character pairs (_ja_fields, _ja_name_index,
        # _field_grams, _ja_grams) are built by the first query with Japanese in it: see _build_ja
        self._ja_pending: list[tuple[int, str, float, bool]] = []
        self._foul_templates: dict[str, dict[str, float]] = {}  # foul id -> postings of its names
        self._row_templates: dict[tuple, dict[str, float]] = {}  # a row's text -> its postings
        self._rows_of: dict[tuple[str, str], list[int]] = defaultdict(list)  # (ruleset, foul) -> docs
        self._covered: set[tuple[str, str]] = set()  # (ruleset, foul): dealt with there without rows (covered_by)
        self._romaji: set[str] = set()  # romaji names written as one word (kuikae, ryukyoku)
        with paused_gc():
            self._build(library)
        # the building's scratch tables
        del self._foul_templates, self._row_templates, self._glossary, self._fouls_of_term
        self._keys = sorted(self._postings)
        self._fuzzy_keys = [k for k in self._keys if len(k) >= 4 and k.isalpha()]
        self._stems: dict[str, list[str]] = defaultdict(list)
        for k in self._keys:
            self._stems[stem_of(k)].append(k)
        self._idf_n = len(self.docs)
        self._kind_rank = [KIND_ORDER[doc.hit.kind] for doc in self.docs]  # ties: terms, rules, rows
        # the result a document counts for: its own, or its foul's in its ruleset (one per row page)
        self._groups = [(doc.hit.kind, doc.ruleset, doc.hit.ref) if doc.hit.kind == "penalty" else (d,)
                        for d, doc in enumerate(self.docs)]
        # words that may stand before a reference ("EMA 3.3.2", "section 2.4"): rulesets' names
        self._ref_words: dict[str, frozenset[str]] = defaultdict(frozenset)
        for rs in library.rulesets.values():
            for w in (*words(rs.id), *words(getattr(rs, "short", "") or "")):
                self._ref_words[w] = self._ref_words[w] | {rs.id}
        for w in ("section", "sec", "rule", "rules", "article", "art", "no"):
            self._ref_words[w] = frozenset()
        self._ref_words = dict(self._ref_words)
        self._ready()

    # --- building --------------------------------------------------------------------------

    def _add(self, doc_id: int, text: str | None, weight: float) -> None:
        if not text:
            return
        post = self._postings
        for key, factor in key_counts(text):
            score = weight * factor
            docs = post[key]
            cur = docs.get(doc_id)
            docs[doc_id] = score if cur is None else max(cur, score) + min(cur, score) * 0.2

    def _foul_template(self, foul) -> dict[str, float]:
        """A foul's names indexed into a scratch document: ``{key: score}`` to copy into each row."""
        postings, self._postings = self._postings, defaultdict(dict)
        try:
            self._add(0, foul.name, W.foul_name)
            self._add_typed_romaji(0, foul.romaji)
            for x in foul.aliases:
                self._add(0, x, W.foul_alias)
            for x in (*foul.japanese, *foul.reading):
                self._add_romaji(0, x, foul.romaji)
            own = {key: docs[0] for key, docs in self._postings.items()}
            # the glossary terms naming the foul ("riichi tegiri" -> discarding from the hand in
            # riichi): their romaji names the foul's own do not have, each as one word, less for a
            # term naming many fouls
            self._postings = defaultdict(dict)
            for tid in foul.terms:
                t = self._glossary.get(tid)
                if t is not None:
                    w = W.foul_term / math.sqrt(self._fouls_of_term[tid])
                    for x in t.romaji:
                        self._add(0, x.replace("-", "").replace(" ", ""), w)
                    for x in term_japanese(t):
                        if x:
                            self._add_romaji_w(0, x, t.romaji, w)
            for key, docs in self._postings.items():
                own.setdefault(key, docs[0])
            return own
        finally:
            self._postings = postings

    def _foul_names(self, foul) -> dict[str, float]:
        """:meth:`_foul_template` of ``foul``, made once: the foul's names are the same in every
        table's rows and in whatever covers it (``covered_by``)."""
        names = self._foul_templates.get(foul.id)
        if names is None:
            names = self._foul_templates[foul.id] = self._foul_template(foul)
        return names

    def _row_template(self, r, foul) -> dict[str, float]:
        """A penalty row's words and its foul's names indexed into a scratch document:
        ``{key: score}`` to copy into every row with the same text."""
        sig = (r.foul, r.id, r.penalty, r.category, r.note, getattr(r, "condition", None))
        template = self._row_templates.get(sig)
        if template is not None:
            return template
        names = self._foul_names(foul) if foul else None
        postings, self._postings = self._postings, defaultdict(dict)
        try:
            self._add(0, r.foul, W.title)
            self._add(0, r.id.replace("-", " "), W.alias * 0.5)
            self._add(0, r.penalty, W.penalty)
            self._add(0, r.category, W.category)
            self._add(0, r.note, W.text)
            self._add(0, getattr(r, "condition", None), W.text)
            if names is not None:
                self._copy_postings(0, names)
            template = self._row_templates[sig] = {key: docs[0] for key, docs in self._postings.items()}
        finally:
            self._postings = postings
        return template

    def _copy_postings(self, doc_id: int, template: dict[str, float], *, new: bool = False) -> None:
        """Add ``template``'s postings to ``doc_id`` (``new``: a document with no postings yet)."""
        post = self._postings
        if new:
            for key, score in template.items():
                post[key][doc_id] = score
            return
        for key, score in template.items():
            docs = post[key]
            cur = docs.get(doc_id)
            docs[doc_id] = score if cur is None else max(cur, score) + min(cur, score) * 0.2

    def _add_typed_romaji(self, doc_id: int, spellings: tuple[str, ...]) -> None:
        """The romaji spellings people type for a name, as words and written as one word."""
        for x in spellings:
            self._romaji.add(romaji_key(fold(x).replace(" ", "").replace("-", "")))
            self._add(doc_id, x, W.term)
            self._add(doc_id, x.replace(" ", ""), W.term)

    def _add_romaji(self, doc_id: int, kana: str, typed: tuple[str, ...] = ()) -> None:
        """The romaji of a kana name (see :func:`romaji_of`), indexed like the typed ones; a name
        joined by a particle (てんぱいせんげんのへんこう) also gives its parts (henkou)."""
        romaji = self._add_romaji_w(doc_id, kana, typed, W.term)
        if not romaji:
            return
        self._romaji.add(romaji_key(romaji))
        parts = [romaji_of(p) for p in re.split(r"[のをがに]", fold(kana)) if len(p) >= 2]
        if len(parts) > 1:
            self._add(doc_id, " ".join(p for p in parts if p), W.alias)

    def _add_romaji_w(self, doc_id: int, kana: str, typed: tuple[str, ...], weight: float) -> str | None:
        """The romaji of a kana name at ``weight``, where no typed spelling gives it (returned
        when added)."""
        romaji = romaji_of(kana)
        if not romaji or romaji_key(romaji) in typed_keys(typed):
            return None
        self._add(doc_id, romaji, weight)
        return romaji

    def _add_ja(self, doc_id: int, text: str | None, weight: float, *, name: bool = False) -> None:
        """A Japanese-bearing field: matched as a substring; a ``name`` (split at ・ and /) is also
        looked for inside longer queries."""
        if not text or text.isascii():
            return
        self._ja_pending.append((doc_id, text, weight, name))

    _JA_TABLES = frozenset({"_ja_fields", "_ja_name_index", "_ja_name_starts", "_field_grams", "_ja_grams",
                            "_ja_pair_units"})
    _NAME_TABLES = frozenset({"_exact_docs", "_pair_docs", "_title_doc", "_title_len"})

    def __getattr__(self, name: str):
        # only called for an attribute not set yet: the Japanese tables before the first
        # Japanese query (an English-only session never builds them), the names' tables before
        # the first search
        if name in SearchIndex._JA_TABLES:
            self._build_ja()
            return self.__dict__[name]
        if name in SearchIndex._NAME_TABLES:
            self._build_names()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_names(self) -> None:
        """The names' inverted tables for the name bonuses (~2 ms, once): each exact form and
        pair of adjacent title stems -> the documents that have it, in document order; every title
        numbered across the documents, with its document and its length (in stems)."""
        exact: dict[str, list[int]] = defaultdict(list)
        pair: dict[tuple[str, str], list[int]] = defaultdict(list)
        title_doc: list[int] = []
        title_len: list[int] = []
        for d, doc in enumerate(self.docs):
            for f in doc.exact_set:
                exact[f].append(d)
            for p in doc.pairs:
                pair[p].append(d)
            for t in doc.title_stems:
                title_doc.append(d)
                title_len.append(len(t))
        self._title_doc, self._title_len = title_doc, title_len
        self._pair_docs = dict(pair)
        self._exact_docs = dict(exact)  # last: name_bonuses reads it first

    def _scoped_titles(self, ruleset: str | None, editions: bool) -> dict[str, tuple[int, ...]]:
        """Each title stem -> the titles (numbered as in ``_title_doc``) of the documents a search
        with ``ruleset`` may show that hold it, a title once for each time it holds the stem (so
        that counting them is one C-level ``Counter.update``; built on first use, per ruleset)."""
        key = (ruleset, editions)
        table = self._titles_in_scope.get(key)
        if table is None:
            scope = self._scope(ruleset, editions)
            built: dict[str, list[int]] = defaultdict(list)
            g = 0
            for d, doc in enumerate(self.docs):
                if d not in scope:
                    g += len(doc.title_stems)
                    continue
                for t in doc.title_stems:
                    for w in t:
                        built[w].append(g)
                    g += 1
            table = self._titles_in_scope[key] = {w: tuple(gs) for w, gs in built.items()}
        return table

    def _build_ja(self) -> None:
        """The Japanese tables from the fields :meth:`_add_ja` recorded (~15 ms, once)."""
        with self._ja_lock:
            if "_ja_grams" in self.__dict__:  # built meanwhile by another thread
                return
            fields: list[tuple[str, int, float]] = []  # kana-folded Japanese text, doc, weight
            names: dict[str, list[tuple[int, float]]] = defaultdict(list)  # name -> docs
            field_grams: dict[str, list[int]] = defaultdict(list)  # character pair -> field numbers
            grams: dict[str, dict[int, float]] = defaultdict(dict)  # kana-folded bigram -> docs
            # a two-character word -> the docs holding it, as _ja_containing gives them
            pair_units: dict[str, dict[int, float]] = defaultdict(dict)
            for doc_id, text, weight, name in self._ja_pending:
                folded, grams_of_text, parts = ja_parts(text)
                field = len(fields)
                fields.append((folded, doc_id, weight))
                for g in grams_of_text:
                    field_grams[g].append(field)
                    docs = grams[g]
                    if weight > docs.get(doc_id, 0.0):
                        docs[doc_id] = weight
                    if len(g) == 2:
                        unit = pair_units[g]
                        s = weight * (2.0 if folded == g else 1.0)
                        if s > unit.get(doc_id, 0.0):
                            unit[doc_id] = s
                if name:
                    for part in parts:
                        names[part].append((doc_id, weight))
            self._ja_fields, self._ja_name_index, self._field_grams = fields, names, field_grams
            # the first two characters of every name of 3 or more: where a name inside a sentence may start
            self._ja_name_starts = frozenset(n[:2] for n in names if len(n) >= 3)
            self._ja_pair_units = dict(pair_units)
            self._ja_grams = grams  # last: its presence says the tables are whole
            self._ja_pending = []

    def _new(self, doc: Doc) -> int:
        self.docs.append(doc)
        return len(self.docs) - 1

    def _build(self, lib: "Library") -> None:
        fouls = getattr(lib, "fouls", {}) or {}
        self._glossary = {t.id: t for t in lib.glossary}
        self._fouls_of_term: dict[str, int] = defaultdict(int)
        for f in fouls.values():
            for tid in f.terms:
                self._fouls_of_term[tid] += 1
        for rs in lib.rulesets.values():
            self._index_sections(rs)
        rule_doc = {(d.ruleset, d.hit.ref): i for i, d in enumerate(self.docs) if d.hit.kind == "rule"}
        self._index_rows(lib, fouls, rule_doc)
        rows_of_foul: dict[str, list[int]] = defaultdict(list)
        for (_rs, fid), ds in self._rows_of.items():
            rows_of_foul[fid].extend(ds)
        for t in lib.glossary:
            self._index_term(t, fouls, rule_doc, rows_of_foul)
        self._index_section_words(lib, rule_doc)
        self._index_covered(fouls, rule_doc)

    def _index_covered(self, fouls, rule_doc: dict[tuple, int]) -> None:
        """A foul's names, at ``Weights.covered_share``, in the rows and sections that cover it in a
        ruleset whose table has no row for it (``Foul.covered_by``: "wrong draw" reaches EMA's
        "Wrongly revealing or picking tiles" rows)."""
        for foul in fouls.values():
            if not foul.covered_by:
                continue
            scaled = {key: score * W.covered_share for key, score in self._foul_names(foul).items()}
            for rid, target in foul.covered_by:
                self._covered.add((rid, foul.id))
                kind, _, ref = target.partition(":")
                docs = self._rows_of.get((rid, ref), ()) if kind == "penalty" else (
                    (rule_doc[(rid, ref)],) if (rid, ref) in rule_doc else ())
                for d in docs:
                    self._copy_postings(d, scaled)
                    for x in (*foul.japanese, *foul.reading):
                        self._add_ja(d, x, W.alias * W.covered_share, name=True)

    def _index_section_words(self, lib: "Library", rule_doc: dict[tuple, int]) -> None:
        """The words people use for what a section answers: its ``search`` words (the handbook's,
        ``content/README.md``), the names of the glossary terms those name, and the Japanese, kana
        and romaji of every glossary term that cites the section (EMA's sections have no Japanese
        subtitle: ポン reaches EMA §3.3.4 through the term pon); a term citing many sections of one
        ruleset gives each of them less."""
        terms = {t.id: t for t in lib.glossary}
        for t in lib.glossary:
            per_ruleset: dict[str, int] = defaultdict(int)
            for rs, _ref in t.refs:
                per_ruleset[rs] += 1
            japanese = [x for x in term_japanese(t) if x]
            own = {kana_fold(fold(x)) for x in japanese}
            for key in t.refs:
                d = rule_doc.get(key)
                if d is None:
                    continue
                w = W.linked / math.sqrt(per_ruleset[key[0]])
                subtitle = lib.rulesets[key[0]].section(key[1]).title_ja
                if subtitle and own & {kana_fold(fold(x)) for x in re.split(r"[・/]", subtitle)}:
                    w = W.title  # the term is the section's own subtitle (AZRM §2.4 見せ牌): its reading too
                for x in japanese:
                    self._add_ja(d, x, w, name=True)
                    self._add_romaji_w(d, x, t.romaji, w)
                for x in t.romaji:  # as one word: "kui-kae" adds kuikae, not kui and kae again
                    self._add(d, x.replace("-", "").replace(" ", ""), w)
        self._index_search_words(lib, rule_doc, terms)

    def _index_search_words(self, lib: "Library", rule_doc: dict[tuple, int], terms: dict) -> None:
        """Each section's own ``search`` words, and the names of the glossary terms they name."""
        for rs in lib.rulesets.values():
            for sec in rs.sections:
                words_ = sec.search
                d = rule_doc.get((rs.id, sec.ref))
                if words_ is None or d is None:
                    continue
                for tid in words_.terms:
                    t = terms.get(tid)
                    if t is None:
                        continue
                    for x in (t.term, *t.aliases):
                        self._add(d, x, W.search_alias)
                    for x in t.romaji:
                        self._add(d, x, W.search_name)
                    for x in term_japanese(t):
                        self._add_ja(d, x, W.search_name, name=True)
                        self._add_romaji_w(d, x, t.romaji, W.search_name)
                for x in words_.aliases:
                    self._add(d, x, W.search_alias)
                for x in words_.romaji:
                    self._add(d, x, W.search_name)
                    self._add(d, x.replace(" ", ""), W.search_name)
                for x in (*words_.japanese, *words_.reading):
                    self._add_ja(d, x, W.search_name, name=True)
                    self._add_romaji_w(d, x, words_.romaji, W.search_name)

    def _index_sections(self, rs) -> None:
        """A ruleset's sections, and its Editions page when it has one."""
        for s in rs.sections:
            d = self._new(Doc(
                Hit("rule", rs.id, s.ref, s.title, s.title_ja), rs.id,
                titles=(fold(s.title),), title_stems=(stems(s.title),),
                exact=exact_forms(s.title, *(s.title_ja or "").split("・")), listed=True))
            self._add(d, s.title, W.title)
            self._add(d, s.text, W.text * 2.0)
            self._add_ja(d, s.title_ja, W.title, name=True)
            self._add_ja(d, s.text, W.text)
            self._sections[s.ref].append(d)
        editions = getattr(rs, "editions", ())
        if editions:
            # the Editions page (/rules/<id>/editions): "2016", "edition", "WRC 2015"; a ruleset
            # that borrows another's editions lists them only when it is chosen
            d = self._new(Doc(
                Hit("rule", rs.id, "editions", "Editions", None), rs.id,
                titles=("editions",), title_stems=(stems("Editions"),), exact=exact_forms("Editions"),
                listed=all(e.ruleset in ("", rs.id) for e in editions), editions=True))
            self._add(d, "editions edition history", W.title)
            for e in editions:
                self._add(d, e.text, W.definition)

    def _index_rows(self, lib: "Library", fouls, rule_doc: dict[tuple, int]) -> None:
        """Every table's penalty rows; a profile's borrowed rows are listed once."""
        # the source's own Japanese for a foul: the subtitles of the sections its rows cite (AZRM
        # §2.3 自摸の対象牌の間違い), given to that foul's rows in every table
        cited_ja: dict[str, list[str]] = defaultdict(list)
        for rs in lib.rulesets.values():
            for r in rs.penalties:
                for ref, _item in ref_keys(r.ref or ""):
                    if rs.has_section(ref) and rs.section(ref).title_ja:
                        cited_ja[r.id].append(rs.section(ref).title_ja)
        seen_tables: set[tuple[str, int, str]] = set()
        for rs in lib.rulesets.values():
            for r in rs.penalties:
                # a profile that borrows another ruleset's column repeats its rows: list them once
                sig = (r.foul, r.index, r.penalty)
                listed = sig not in seen_tables
                seen_tables.add(sig)
                self._index_row(rs, r, fouls.get(r.id), listed, rule_doc, cited_ja.get(r.id, ()))

    def _index_row(self, rs, r, foul, listed: bool, rule_doc: dict[tuple, int], cited_ja) -> None:
        cited = tuple(rule_doc[(rs.id, ref)] for ref, _item in ref_keys(r.ref or "")
                      if (rs.id, ref) in rule_doc)
        names = (r.foul, *((foul.name, *foul.aliases) if foul else ()))
        d = self._new(Doc(
            Hit("penalty", rs.id, r.id, r.foul, r.penalty, row=r.index), rs.id,
            titles=tuple(fold(x) for x in names), title_stems=tuple(stems(x) for x in names),
            exact=exact_forms(*names, *((*foul.japanese, *foul.reading, *foul.romaji) if foul else ())),
            listed=listed, foul=r.id, cites=cited))
        # a row the same in several tables (WRC and its lower column, Rakkii Nomi): indexed once, copied
        self._copy_postings(d, self._row_template(r, foul), new=True)
        if foul:
            for x in (*foul.japanese, *foul.reading):
                self._add_ja(d, x, W.term, name=True)
        for x in dict.fromkeys(cited_ja):
            self._add_ja(d, x, W.alias, name=True)
        for ref, item in ref_keys(r.ref or ""):
            self._row_refs[(ref, item)].append(d)
            if item is not None:
                self._row_refs[(ref, None)].append(d)
        self._rows_of[(rs.id, r.id)].append(d)

    def _index_term(self, t, fouls, rule_doc: dict[tuple, int], rows_of_foul: dict[str, list[int]]) -> None:
        names = (t.term, *t.romaji)
        japanese = term_japanese(t)
        d = self._new(Doc(
            Hit("term", None, t.id, t.term, t.japanese), None,
            titles=tuple(fold(x) for x in (t.term, *t.aliases)),
            title_stems=tuple(stems(x) for x in (t.term, *t.romaji, *t.aliases)),
            exact=exact_forms(*(x for x in (*names, *japanese, *t.aliases) if x))
            + tuple(fold(x).replace(" ", "").replace("-", "") for x in names),
            listed=True, cites=tuple(rule_doc[r] for r in t.refs if r in rule_doc),
            lifts=tuple(x for f in fouls.values() if t.id in f.terms for x in rows_of_foul[f.id])))
        self._add(d, t.term, W.term)
        self._add_typed_romaji(d, t.romaji)
        for a in t.aliases:
            self._add(d, a, W.alias)
        self._add(d, t.definition, W.definition)
        self._add(d, t.explanation, W.text)
        for x in japanese:
            self._add_ja(d, x, W.term, name=True)
            self._add_romaji(d, x, t.romaji)
        self._add_ja(d, t.definition, W.definition)
        self._add_ja(d, t.explanation, W.text)

    # --- querying --------------------------------------------------------------------------


# --- yaku (issue 45): a small matcher beside the index, not in it ---------------------------------

#: the most yaku hits a search adds
YAKU_HITS = 2
#: id(library) -> (library, its yaku keys), made on the first search that looks for a yaku
_YAKU_KEYS: dict[int, tuple["Library", list]] = {}


def _yaku_keys(library: "Library") -> list[tuple[str, str, str, tuple[str, ...]]]:
    """``(id, English, Japanese, keys)`` per yaku of any profile; keys are folded names without
    spaces: the English, the romaji in it ("sanshoku doujun"), the romaji's first word where it is
    long enough to name the yaku ("sanshoku"), the Japanese and the kana."""
    cached = _YAKU_KEYS.get(id(library))
    if cached is not None and cached[0] is library:
        return cached[1]
    from handbook.core.scoring_table import yaku_list

    def key(text: str) -> str:
        return re.sub(r"[\s\-'()・]", "", kana_fold(fold(text)))

    out, seen = [], set()
    for rid in library.scoring:
        for y in yaku_list(rid, library=library):
            if y.id in seen:
                continue
            seen.add(y.id)
            inner = re.findall(r"\(([^)]*)\)", y.name)
            outer = re.sub(r"\s*\([^)]*\)", "", y.name)
            names = {outer, y.name, y.romaji, *inner, y.name_ja, y.reading}
            first = y.romaji.split(" ")[0]
            if len(first) >= 6:
                names.add(first)
            keys = tuple(sorted({k for k in map(key, names) if len(k) >= (2 if re.search(r"[^a-z0-9]", k) else 4)},
                                key=len, reverse=True))
            out.append((y.id, y.name, y.name_ja, keys))
    if len(_YAKU_KEYS) > 8:  # libraries of tests and content edits: keep the last few
        _YAKU_KEYS.clear()
    _YAKU_KEYS[id(library)] = (library, out)
    return out


def yaku_hits(library: "Library", query: str, ruleset: str | None = None) -> list[Hit]:
    """The yaku whose name is in ``query`` (English, romaji, Japanese or kana, folded), longest
    name first, as hits of kind ``"yaku"`` (``ruleset`` kept for the route where it has a profile)."""
    if not isinstance(query, str) or not query.strip() or not library.scoring:
        return []
    q = re.sub(r"[\s\-'()・]", "", kana_fold(fold(query)))
    rid = ruleset if ruleset in library.scoring else None
    found = []
    for order, (yid, name, name_ja, keys) in enumerate(_yaku_keys(library)):
        best = next((k for k in keys if k in q), None)
        if best is not None:
            found.append((-len(best), order, Hit("yaku", rid, yid, name, name_ja, float(len(best)))))
    return [h for *_, h in sorted(found)][:YAKU_HITS]


def with_yaku(library: "Library", query: str, ruleset: str | None, hits: list[Hit], limit: int) -> list[Hit]:
    """``hits`` then :func:`yaku_hits`: the yaku take the last places where ``hits`` fill ``limit``,
    except in a short list (``limit`` of 5 or less), where they only fill free places."""
    extra = yaku_hits(library, query, ruleset)
    if not extra:
        return hits
    keep = max(len(hits), limit - len(extra)) if limit <= 5 else limit - len(extra)
    kept = hits[:keep]
    if kept:  # after the rulings, the scores still best first: never above the last one kept
        floor = kept[-1].score
        extra = [Hit(h.kind, h.ruleset, h.ref, h.title, h.subtitle, min(h.score, floor), h.row) for h in extra]
    return (kept + extra)[:limit]
