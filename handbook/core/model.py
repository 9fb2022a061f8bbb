"""The content model: frozen dataclasses for rulesets, sections, penalty rows and glossary terms.

Pure Python: this module imports neither flet nor tinydb. Instances are built by
:func:`handbook.core.load.load_library` and never change afterwards.
"""

from __future__ import annotations

import datetime
import enum
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.search import SearchIndex


class Penalty(enum.StrEnum):
    """The kinds of penalty the rulesets give, from mildest to most severe (by declaration order).

    ``minor_chombo`` is AZRM's Minor Chombo (continue) or (Kyoku restart), 10P (AZRM §1.4);
    ``dead_hand`` is a dead hand (AZRM: Minor Chombo (Dead Hand), 10P); ``point_penalty`` is a
    deduction in P (1P = 1,000 table points) with no other effect on the hand.
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
    """

    ruleset: str
    ref: str
    title: str
    title_ja: str | None
    text: str
    chapter: str


@dataclass(frozen=True, slots=True)
class PenaltyRow:
    """One row of a penalty table, as the source words it.

    ``id`` is the foul's slug, the same in every ruleset; ``penalty`` the penalty text of this
    ruleset's column; ``kind`` and ``points`` (P, 1P = 1,000 table points) its structured reading
    where the source gives one clear outcome, else ``None``; ``strike`` whether it adds an AZRM
    Strike (AZRM §1.4; ``None`` outside AZRM or where the judge decides). For a two-column table
    ``compare_penalty`` is the other column's text under ``compare_label`` and ``differs`` says
    whether the two columns differ.
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


@dataclass(frozen=True, slots=True)
class Term:
    """A bilingual glossary term.

    ``term`` is the English concept as the source spells it ("Kui-kae"); ``japanese`` as in the
    source ("喰い替え"), ``None`` where the source says N/A; ``reading`` in kana; ``romaji`` the
    spellings people type; ``refs`` the sections that use it as ``(ruleset, section ref)`` pairs.
    """

    id: str
    term: str
    japanese: str | None
    reading: str | None
    definition: str
    romaji: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    explanation: str | None = None
    source: str | None = None
    refs: tuple[tuple[str, str], ...] = ()
    see_also: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Foul:
    """A foul as one concept across rulesets: every penalty row whose ``id`` is this foul's id.

    The sources name a foul only in English, each table in its own words (``PenaltyRow.foul``);
    these names are the handbook's: ``name`` a short English name, ``japanese`` the Japanese that
    judges use (the first is the one shown; later ones are other spellings and the everyday words
    for it, 誤ロン, 空ポン, 遅刻), ``reading`` kana, ``romaji`` the spellings people type,
    ``aliases`` the ways people describe the incident, ``terms`` the glossary terms naming it.
    """

    id: str
    name: str
    japanese: tuple[str, ...] = ()
    reading: tuple[str, ...] = ()
    romaji: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Revision:
    revision: str
    date: datetime.date | None
    changes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A ruleset or tournament profile: its rule text and its penalty table.

    ``sections`` are in document order (empty for a ruleset that is only a table); ``penalties``
    in source order. ``base`` names the ruleset a tournament profile modifies.
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
    _by_ref: Mapping[str, Section] = field(default_factory=dict, repr=False, compare=False)

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


_INDEX_LOCK = threading.Lock()

HitKind = Literal["rule", "penalty", "term"]


@dataclass(frozen=True, slots=True)
class Hit:
    """One search result.

    ``ref`` is the section ref for a rule, the foul id for a penalty, the term id for a term;
    ``ruleset`` is ``None`` for terms. ``subtitle`` is the Japanese subtitle (rules, terms) or the
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
        return f"/glossary/{self.ref}"


@dataclass(frozen=True)
class Library:
    """Everything the handbook shows: rulesets by id and the glossary, with one search over them."""

    rulesets: Mapping[str, Ruleset]
    glossary: Sequence[Term]
    fouls: Mapping[str, Foul] = field(default_factory=dict)
    _index: "SearchIndex" = field(repr=False, compare=False, default=None)  # type: ignore[assignment]
    _rulings: object = field(repr=False, compare=False, default=None)

    def search(self, query: str, *, ruleset: str | None = None, limit: int = 20) -> list[Hit]:
        """Rule sections, penalty rows and glossary terms matching ``query``, best first.

        ``ruleset`` narrows rules and penalties to one ruleset id (terms are always included);
        raises ``ValueError`` naming the argument for an unknown ruleset or a ``limit`` below 1.
        """
        if ruleset is not None and (not isinstance(ruleset, str) or ruleset not in self.rulesets):
            raise ValueError(
                f"ruleset: unknown ruleset {ruleset!r}; allowed: None or one of {', '.join(sorted(self.rulesets))}")
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise ValueError(f"limit: must be a whole number of at least 1, got {limit!r}")
        return self.warm().search(query, ruleset=ruleset, limit=limit)

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

    def warm(self) -> "SearchIndex":
        """Build the search index now if it is not built yet (``load_library(index=False)``
        leaves it to the first search), and return it. Safe to call from several threads."""
        index = self._index
        if index is None:
            with _INDEX_LOCK:
                index = self._index
                if index is None:
                    from handbook.core.search import SearchIndex

                    index = SearchIndex(self)
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
