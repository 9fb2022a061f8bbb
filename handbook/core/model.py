"""The content model: frozen dataclasses for rulesets, sections, penalty rows and glossary terms.

Pure Python: this module imports neither flet nor tinydb. Instances are built by
:func:`handbook.core.load.load_library` and never change afterwards.
"""

from __future__ import annotations

import datetime
import enum
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal


class Penalty(enum.StrEnum):
    """The kinds of penalty the rulesets give, from mildest to most severe (by declaration order).

    ``minor_chombo`` is AZRM's Minor Chombo (continue) or (Kyoku restart), 10P (AZRM §1.4);
    ``dead_hand`` is a dead hand (AZRM: Minor Chombo (Dead Hand), 10P); ``point_penalty`` is a
    deduction in P (1P = 1,000 table points) with no other effect on the hand.
    ``disqualification`` is a tournament's disqualification (EMA RCR, WRC 2025 tables); ``ban``
    is AZRM's Ban, a permanent exclusion from competitive games (AZRM §1.4, §9.4).
    """

    NONE = "none"
    WARNING = "warning"
    REDEAL = "redeal"
    DEAD_HAND = "dead_hand"
    MINOR_CHOMBO = "minor_chombo"
    CHOMBO = "chombo"
    POINT_PENALTY = "point_penalty"
    DISCRETION = "discretion"
    DISQUALIFICATION = "disqualification"
    BAN = "ban"


@dataclass(frozen=True, slots=True)
class Chapter:
    """A chapter heading of a ruleset's rule text (``ref`` "2", ``title`` "Shuffling and Drawing")."""

    ref: str
    title: str
    text: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """One numbered section of rule text.

    ``ref`` is the source's number ("2.4", "3.4.6"); ``title`` the English title as the source
    words it; ``title_ja`` the Japanese subtitle or ``None`` where the source has none; ``text`` the
    full text, paragraphs separated by blank lines, list items starting with ``- `` or ``1. ``.

    The handbook's own notes, never part of ``text``: ``conflict`` says where this section and
    another part of the same ruleset disagree (``conflict_with`` the foul ids of the penalty rows
    it disagrees with; each of those rows flags it back); ``interpretations`` how the handbook
    reads what the text leaves open; ``edition_notes`` where another edition of the ruleset gives
    a different answer (public sources, named in the note); ``search`` the words people use for what
    the section answers (:class:`SearchWords`), the handbook's, for search only and never shown.
    """

    ruleset: str
    ref: str
    title: str
    title_ja: str | None
    text: str
    chapter: str
    conflict: str | None = None
    conflict_with: tuple[str, ...] = ()
    interpretations: tuple[str, ...] = ()
    edition_notes: tuple[str, ...] = ()
    search: "SearchWords | None" = None


@dataclass(frozen=True, slots=True)
class SearchWords:
    """How people ask for what a section answers, in the handbook's words (the sources give EMA's
    sections no Japanese, and nobody types "Precedence and timing when claiming a tile"): search
    uses them to reach the section and never shows them as the source's.

    ``terms`` glossary term ids whose every name (English, Japanese, kana, romaji, aliases) reaches
    the section; ``japanese`` the Japanese judges use; ``reading`` kana readings (their romaji are
    derived); ``romaji`` spellings people type; ``aliases`` the ways people describe the question or
    incident in English.
    """

    terms: tuple[str, ...] = ()
    japanese: tuple[str, ...] = ()
    reading: tuple[str, ...] = ()
    romaji: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One row of a penalty table, as the source words it.

    ``id`` is the foul's slug, the same in every ruleset; ``penalty`` the penalty text of this
    ruleset's column; ``kind`` and ``points`` (P, 1P = 1,000 table points) its structured reading
    where the source gives one clear outcome, else ``None``; ``strike`` whether it adds an AZRM
    Strike (AZRM §1.4; ``None`` outside AZRM or where the judge decides). For a two-column table
    ``compare_penalty`` is the other column's text under ``compare_label`` and ``differs`` says
    whether the two columns differ (in the penalty, not in a remark one column adds).

    ``condition`` is when the penalty applies, shown with the row in a list ("determined only at
    Ron/Tsumo or Ryuukyoku"). The handbook's own notes, never part of ``foul`` or ``penalty``:
    ``conflict`` where this row and a section of the same ruleset disagree (``conflict_with`` that
    section's ref, which flags this row back); ``interpretations`` how the handbook reads what the
    source leaves open; ``edition_notes`` where another edition gives a different answer.
    """

    ruleset: str
    id: str
    foul: str
    penalty: str
    ref: str | None
    category: str
    kind: Penalty | None = None
    points: int | None = None
    strike: bool | None = None
    note: str | None = None
    compare_label: str | None = None
    compare_penalty: str | None = None
    differs: bool = False
    index: int = 0
    condition: str | None = None
    conflict: str | None = None
    conflict_with: str | None = None
    interpretations: tuple[str, ...] = ()
    edition_notes: tuple[str, ...] = ()

    @property
    def flagged(self) -> bool:
        """Whether a list showing this row should mark it: a conflict inside its ruleset or an
        interpretation by the handbook."""
        return bool(self.conflict or self.interpretations)


@dataclass(frozen=True, slots=True)
class Term:
    """A bilingual glossary term.

    ``term`` is the English concept as the source spells it ("Kui-kae"); ``japanese`` as in the
    source ("喰い替え"), ``None`` where the source says N/A; ``reading`` in kana; ``romaji`` the
    spellings people type; ``refs`` the sections that use it as ``(ruleset, section ref)`` pairs.

    ``provenance`` says whose words ``definition`` is: ``"source"`` — the source's own words, word
    for word, from the ruleset ``source`` names (its glossary); ``"handbook"`` — written by the
    handbook (shown as a "Handbook note"), every fact citing a section or a named public source;
    its ``§`` references are to ``source``. ``explanation`` is always the handbook's.
    ``examples`` are the worked numbers of the text as calculator calls (:class:`WorkedExample`).
    """

    id: str
    term: str
    japanese: str | None
    reading: str | None
    definition: str
    provenance: Literal["source", "handbook"] = "handbook"
    romaji: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    explanation: str | None = None
    source: str | None = None
    refs: tuple[tuple[str, str], ...] = ()
    see_also: tuple[str, ...] = ()
    examples: tuple["WorkedExample", ...] = ()


@dataclass(frozen=True, slots=True)
class WorkedExample:
    """A number a glossary text states, as a calculator call that must give it: ``says`` the words
    of the definition or explanation it proves ("+20,000 each"); ``tool`` ``"final_score"``,
    ``"chombo"`` or ``"revealed_tiles"`` (the public functions of :mod:`handbook`); ``args`` their
    keyword arguments; ``expect`` ``{path: value}`` where a path names a field of the result
    (``"rows.E.uma"``: the East row's uma in P; ``"payments.S"``; ``"points"``)."""

    says: str
    tool: str
    args: Mapping[str, Any] = field(default_factory=dict, compare=False)
    expect: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True)
class Foul:
    """A foul as one concept across rulesets: every penalty row whose ``id`` is this foul's id.

    The sources name a foul only in English, each table in its own words (``PenaltyRow.foul``);
    these names are the handbook's: ``name`` a short English name, ``japanese`` the Japanese that
    judges use (the first is the one shown; later ones are other spellings and the everyday words
    for it, 誤ロン, 空ポン, 遅刻), ``reading`` kana, ``romaji`` the spellings people type,
    ``aliases`` the ways people describe the incident, ``terms`` the glossary terms naming it.
    ``covered_by`` says where a ruleset whose table has no row for this foul deals with it, as
    ``(ruleset id, "penalty:<foul id>" | "rule:<section ref>")`` pairs (EMA has no row for a wrong
    draw; its "Wrongly revealing or picking tiles" rows cover it). ``category`` is the id of its
    :class:`FoulCategory` (the "What happened?" browser's group: ``"tiles"``, ``"calls"``, …).
    """

    id: str
    name: str
    japanese: tuple[str, ...] = ()
    reading: tuple[str, ...] = ()
    romaji: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    covered_by: tuple[tuple[str, str], ...] = ()
    category: str = ""


@dataclass(frozen=True, slots=True)
class FoulCategory:
    """A group of fouls for the "What happened?" browser (``content/fouls.toml``,
    ``[[category]]``): ``id`` a slug, ``name`` the handbook's English name (its translation in
    ``content/<lang>/handbook.toml``). :attr:`Library.foul_categories` keeps the file's order."""

    id: str
    name: str


@dataclass(frozen=True, slots=True)
class Revision:
    """One entry of a source's own revision history (AZRM's "Revision History"), its words."""

    revision: str
    date: datetime.date | None
    changes: tuple[str, ...]


EditionStatus = Literal["this", "earlier", "later"]


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition of a ruleset, for its Editions page.

    ``status`` is ``"this"`` for the edition the handbook's text follows, ``"earlier"`` or
    ``"later"`` for others; ``changes`` what the edition says or changed; ``cite`` where these facts
    come from — the source's own revision history (``from_source``) or a named public source
    (``"EMA announcement, 2016"``), never the handbook's source files for a public fact; ``note``
    the short note shown on the rows (``rows``: foul ids), sections (``sections``: refs) and tools
    (``tools``: ``"chombo"``) whose answer this edition changes; ``kinds``, when given, narrows
    ``rows`` to the rows of those penalty kinds (the chombo rows of a foul split by circumstance).
    """

    name: str
    status: EditionStatus
    changes: tuple[str, ...]
    cite: str
    date: datetime.date | None = None
    from_source: bool = False
    note: str | None = None
    rows: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()
    ruleset: str = ""
    kinds: tuple[Penalty, ...] = ()

    @property
    def text(self) -> str:
        """Everything a search over this edition should match: name, date, changes, note, cite."""
        parts = [self.name, self.date.isoformat() if self.date else "", *self.changes,
                 self.note or "", self.cite]
        return " ".join(p for p in parts if p)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A ruleset or tournament profile: its rule text and its penalty table.

    ``sections`` are in document order (empty for a ruleset that is only a table); ``penalties``
    in source order. ``base`` names the ruleset a tournament profile modifies. ``editions``
    lists the ruleset's editions, newest first (the source's revision history and public edition
    history; a ruleset that uses another's penalty table also lists that table's editions);
    ``interpretations`` the handbook's readings that apply to several rows or a calculator.
    ``table`` is the id of the ruleset whose penalty table this one uses (its own id, or the
    ``penalties`` it names): the rows' ``ref`` numbers belong to that ruleset's rules (Rakkii Nomi
    2026 cites WRC 2025 chapter 12.3). ``edition_short`` is the edition in a few words, for
    :attr:`label`.
    """

    id: str
    title: str
    short: str
    edition: str
    source: str
    date: datetime.date | None = None
    note: str | None = None
    base: str | None = None
    preface: str | None = None
    chapters: tuple[Chapter, ...] = ()
    sections: tuple[Section, ...] = ()
    penalties: tuple[PenaltyRow, ...] = ()
    revisions: tuple[Revision, ...] = ()
    editions: tuple[Edition, ...] = ()
    interpretations: tuple["Interpretation", ...] = ()
    table: str = ""
    edition_short: str = ""
    _by_ref: Mapping[str, Section] = field(default_factory=dict, repr=False, compare=False)

    @property
    def label(self) -> str:
        """The ruleset's name with the edition its text is: "EMA RCR — text before 2016"."""
        return f"{self.short} — {self.edition_short}" if self.edition_short else self.short

    def notes_for_tool(self, tool: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The handbook's notes for calculator ``tool`` (``"chombo"``) of this ruleset:
        ``(interpretations, edition notes)``, each a tuple of plain sentences."""
        return (tuple(i.text for i in self.interpretations if tool in i.tools),
                tuple(e.note for e in self.editions if e.note and tool in e.tools))

    def section(self, ref: str) -> Section:
        """The section numbered ``ref``; raises ``KeyError`` if this ruleset has none."""
        return self._by_ref[ref]

    def has_section(self, ref: str) -> bool:
        return ref in self._by_ref

    def chapter_sections(self, chapter_ref: str) -> list[Section]:
        return [s for s in self.sections if s.chapter == chapter_ref]

    def rows(self, foul_id: str) -> list[PenaltyRow]:
        """Every row of this ruleset's table for the foul ``foul_id`` (several where the source
        splits one foul by circumstance)."""
        return [r for r in self.penalties if r.id == foul_id]

    def rows_citing(self, section_ref: str) -> list[PenaltyRow]:
        """The penalty rows whose ``ref`` is ``section_ref`` or one of its subsections."""
        out = []
        for r in self.penalties:
            if r.ref and (r.ref == section_ref or r.ref.startswith(section_ref + " ")
                          or r.ref.startswith(section_ref + ".")):
                out.append(r)
        return out


@dataclass(frozen=True, slots=True)
class Interpretation:
    """A reading the handbook makes where the ruleset's text leaves a question open, applying to
    the penalty rows ``rows`` (foul ids) and the calculators ``tools`` (``"chombo"``)."""

    text: str
    rows: tuple[str, ...] = ()
    tools: tuple[str, ...] = ()


HitKind = Literal["rule", "penalty", "term", "yaku"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result.

    ``ref`` is the section ref for a rule, the foul id for a penalty, the term id for a term, the
    ``mahjong`` package's class name for a yaku (``"Pinfu"``); ``ruleset`` is ``None`` for terms
    (and for a yaku found without a ruleset chosen). Only ``"rule"`` and ``"penalty"`` hits are rulings. ``subtitle`` is the Japanese subtitle (rules, terms) or the
    penalty text (penalties); ``score`` orders results (higher is better).
    """

    kind: HitKind
    ruleset: str | None
    ref: str
    title: str
    subtitle: str | None = None
    score: float = 0.0
    row: int | None = None

    @property
    def route(self) -> str:
        """The app route that shows this result (``/rules/azrm/2.4``, ``/glossary/kui-kae``)."""
        if self.kind == "rule":
            return f"/rules/{self.ruleset}/{self.ref}"
        if self.kind == "penalty":
            return f"/penalties/{self.ruleset}/{self.ref}"
        if self.kind == "yaku":
            return f"/tools/yaku/{self.ref}" + (f"?ruleset={self.ruleset}" if self.ruleset else "")
        return f"/glossary/{self.ref}"


@dataclass(frozen=True)
class Library:
    """Everything the handbook shows: rulesets by id and the glossary, with one search over them."""

    rulesets: Mapping[str, Ruleset]
    glossary: Sequence[Term]
    fouls: Mapping[str, Foul] = field(default_factory=dict)
    #: the fouls' categories in the order the "What happened?" browser lists them
    foul_categories: Sequence[FoulCategory] = ()
    #: builds the search index (``handbook.core.search.SearchIndex``; :func:`load_library` passes it)
    _index_factory: Callable[["Library"], Any] | None = field(repr=False, compare=False, default=None)
    _index: Any = field(repr=False, compare=False, default=None)
    _index_lock: threading.Lock = field(repr=False, compare=False, default_factory=threading.Lock)
    #: the numbers the calculators use (``handbook.core.rulings_data.Rulings``; content/rulings.toml)
    rulings: Any = field(repr=False, compare=False, default=None)
    #: scoring profiles by ruleset id (``handbook.core.scoring_data.Profile``; content/scoring.toml)
    scoring: Mapping[str, Any] = field(repr=False, compare=False, default_factory=dict)
    #: the handbook's own words in other languages: ``{lang: {English: translation}}``
    #: (``content/<lang>/handbook.toml``, :mod:`handbook.core.texts`)
    translations: Mapping[str, Mapping[str, str]] = field(repr=False, compare=False, default_factory=dict)

    def __getstate__(self) -> dict:
        """What a pickle keeps (the offline app's content snapshot): the content, not the search
        index or its lock, which are made again where it is loaded."""
        state = dict(self.__dict__)
        state["_index"] = None
        state.pop("_index_lock", None)
        return state

    def __setstate__(self, state: dict) -> None:
        for key, value in {**state, "_index_lock": threading.Lock()}.items():
            object.__setattr__(self, key, value)

    def search(self, query: str, *, ruleset: str | None = None, limit: int = 20) -> list[Hit]:
        """Rule sections, penalty rows and glossary terms matching ``query``, best first, then the
        yaku the query names (kind ``"yaku"``, at most :data:`~handbook.core.search.index.YAKU_HITS`,
        kept within ``limit``: "pinfu", 平和, "sanshoku open how many han").

        ``ruleset`` narrows rules and penalties to one ruleset id (terms are always included);
        raises ``ValueError`` naming the argument for an unknown ruleset or a ``limit`` below 1.
        """
        if ruleset is not None and (not isinstance(ruleset, str) or ruleset not in self.rulesets):
            raise ValueError(
                f"ruleset: unknown ruleset {ruleset!r}; allowed: None or one of {', '.join(sorted(self.rulesets))}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit: must be a whole number of at least 1, got {limit!r}")
        from handbook.core.search.index import with_yaku

        return with_yaku(self, query, ruleset, self.warm().search(query, ruleset=ruleset, limit=limit), limit)

    def elsewhere(self, query: str, ruleset: str, *, limit: int = 5) -> list[Hit]:
        """What other rulesets say where ``ruleset`` has nothing: penalty rows of other rulesets
        for the fouls ``query`` finds that ``ruleset``'s table lacks (AZRM has no rule on being
        late: the EMA and WRC rows), best first; empty when ``ruleset`` covers them.

        Raises ``ValueError`` naming the argument for an unknown ruleset or a ``limit`` below 1."""
        if not isinstance(ruleset, str) or ruleset not in self.rulesets:
            raise ValueError(
                f"ruleset: unknown ruleset {ruleset!r}; allowed: one of {', '.join(sorted(self.rulesets))}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit: must be a whole number of at least 1, got {limit!r}")
        return self.warm().elsewhere(query, ruleset, limit=limit)

    def matching(self, query: str, *, kind: str, ruleset: str | None = None, names_only: bool = False) -> list[Hit]:
        """The entries of one ``kind`` (``"penalty"``, ``"rule"`` or ``"term"``) matching every
        word of ``query`` the way :meth:`search` matches (spelling, kana/romaji, stems, synonyms,
        typos, a foul's names: "chombo", 見せ牌 and "misehai" find the rows that have them), in
        index order: a table's filter. ``ruleset`` narrows rows and sections to one ruleset;
        ``names_only`` keeps to names and aliases (a glossary filter), not definitions or text.
        Empty for an empty query. Raises ``ValueError`` naming the argument for an unknown kind
        or ruleset."""
        if kind not in ("penalty", "rule", "term"):
            raise ValueError(f"kind: must be one of 'penalty', 'rule', 'term', got {kind!r}")
        if ruleset is not None and (not isinstance(ruleset, str) or ruleset not in self.rulesets):
            raise ValueError(
                f"ruleset: unknown ruleset {ruleset!r}; allowed: None or one of {', '.join(sorted(self.rulesets))}")
        index = self.warm()
        least = index.weights.alias * 0.5 if names_only else 0.0
        return index.matching(query, kind=kind, ruleset=ruleset, least=least)

    def covered_here(self, ruleset: str, target: str) -> list[Foul]:
        """The fouls ``ruleset``'s table has no row for that the handbook reads as dealt with by
        ``target`` (``"penalty:<foul id>"`` or ``"rule:<section ref>"``): ``Foul.covered_by``."""
        return [f for f in self.fouls.values() if (ruleset, target) in f.covered_by]

    def search_editions(self, query: str, *, ruleset: str | None = None) -> list[str]:
        """Ids of the rulesets whose edition history matches ``query`` ("2016", "edition",
        "WRC 2015"), best first: the search screen links their Editions pages.

        Raises ``ValueError`` naming the argument for an unknown ruleset."""
        if ruleset is not None and (not isinstance(ruleset, str) or ruleset not in self.rulesets):
            raise ValueError(
                f"ruleset: unknown ruleset {ruleset!r}; allowed: None or one of {', '.join(sorted(self.rulesets))}")
        return self.warm().editions(query, ruleset)

    def warm(self) -> Any:
        """Build the search index (a ``handbook.core.search.SearchIndex``) now if it is not built
        yet (``load_library(index=False)`` leaves it to the first search), and return it. Safe to
        call from several threads. Raises ``RuntimeError`` for a Library made without
        :func:`handbook.load_library` (it has no index factory)."""
        index = self._index
        if index is None:
            if self._index_factory is None:
                raise RuntimeError("this Library has no search index: make it with handbook.load_library()")
            with self._index_lock:
                index = self._index
                if index is None:
                    index = self._index_factory(self)
                    object.__setattr__(self, "_index", index)
        return index

    def term(self, term_id: str) -> Term:
        """The glossary term ``term_id``; raises ``KeyError`` if there is none."""
        for t in self.glossary:
            if t.id == term_id:
                return t
        raise KeyError(term_id)

    def foul(self, foul_id: str) -> dict[str, list[PenaltyRow]]:
        """The rows for one foul in every ruleset that has it: ``{ruleset id: [rows]}``."""
        out: dict[str, list[PenaltyRow]] = {}
        for rs in self.rulesets.values():
            rows = rs.rows(foul_id)
            if rows:
                out[rs.id] = rows
        return out

    def terms_citing(self, ruleset: str, section_ref: str) -> list[Term]:
        return [t for t in self.glossary if (ruleset, section_ref) in t.refs]
