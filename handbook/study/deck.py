"""Study cards drawn from the content: what a player practises before a tournament.

Pure Python: this module imports neither flet nor tinydb (nor the scheduler; scheduling lives in
:mod:`handbook.study.scheduler`, the stored progress in :mod:`handbook.study.store`).

:func:`study_deck` gives the cards of one ruleset (a tournament's):

=============  =========================================  ==========================================
kind           prompt                                     answer
=============  =========================================  ==========================================
``penalty``    the foul, as the table words it (after     the penalty as the source words it, with
               its category where the category names      the row's reference ("§" only before a
               the foul: EMA)                             section of the cited ruleset)
``difference`` the foul of a row whose two columns        both columns: this ruleset's and the
               differ (WRC 2025 World Championship /      other one (``PenaltyRow.compare_label``)
               lower)
``section``    a section's title ("which section          ``§`` and the section number
               covers…?")
``term``       the English glossary term                  the Japanese, with its kana reading
``reading``    the Japanese of a glossary term            the English term and the kana reading
``yaku``       a yaku's name (English and Japanese)       its han closed and open under the ruleset
                                                          (or that it needs a concealed hand)
``payment``    "30 fu 3 han, dealer, tsumo?"              "2,000 all" (the ruleset's payment table)
=============  =========================================  ==========================================

Card ids are what progress is stored against, so they are built from the *identity of the
entry*, never from its position in a list: a row inserted above another, or a reordered table,
leaves every other id unchanged.

* penalty / difference: ``penalty:<ruleset>:<foul id>:<digest>`` where the digest is 8 hex digits
  of SHA-1 over the foul text folded for comparison (Unicode NFKC, case-folded, runs of blanks made
  one space). Several rows of one table may share a foul id (the source splits a foul by
  circumstance) and the foul text is unique within a table, so the pair is unique. A change of
  spacing or capitals keeps the id; a reworded foul is a new card.
* section: ``section:<ruleset>:<section ref>``; term and reading: ``term:<term id>`` and
  ``reading:<term id>`` (term ids are slugs that the content keeps stable).
* yaku: ``yaku:<ruleset>:<yaku id>`` (the ``mahjong`` package's class name); payment:
  ``payment:<ruleset>:<han>:<fu>:<dealer|non-dealer>:<ron|tsumo>`` (``fu`` 0 for a limit row, where the
  fu do not matter).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from handbook.core.load import default_library
from handbook.core.model import Library, PenaltyRow, Ruleset, Section, Term

#: every card kind, in the order a deck lists them
KINDS: tuple[str, ...] = ("penalty", "difference", "section", "term", "reading", "yaku", "payment")

#: the payment cards' fu rows (the common ones) and limit rows (han)
PAYMENT_FUS = (20, 25, 30, 40, 50, 60)
PAYMENT_LIMITS = (5, 6, 8, 11, 13)


@dataclass(frozen=True, slots=True)
class Card:
    """One study card.

    ``id`` is unique in the deck and the same for the same entry on every load and every
    release that keeps the entry (see the module docstring for how it is made); ``kind`` one of
    :data:`KINDS`; ``prompt`` and ``answer`` the two sides (plain text, the answer may hold
    several lines); ``ruleset`` the ruleset id (``None`` for a term); ``ref`` the foul id
    (penalty, difference), the section ref (section) or the term id (term, reading).

    ``cite`` is where the answer comes from as the source numbers it (``"12.3.1 (2)"``,
    ``"2.4"``), ``None`` where the source gives no reference, and ``source`` the ruleset id that
    reference belongs to (for a term: the first section that uses it); ``foul`` is the row's foul text for
    penalty and difference cards (it tells rows of one foul id apart), else ``None``.
    """

    id: str
    kind: str
    prompt: str
    answer: str
    ruleset: str | None
    ref: str
    cite: str | None = None
    foul: str | None = None
    source: str | None = None

    @property
    def route(self) -> str:
        """The app route of the entry the card was made from (``/penalties/azrm/chombo``)."""
        if self.kind in ("penalty", "difference"):
            return f"/penalties/{self.ruleset}/{self.ref}"
        if self.kind == "section":
            return f"/rules/{self.ruleset}/{self.ref}"
        if self.kind == "yaku":
            return f"/tools/yaku/{self.ref}?ruleset={self.ruleset}"
        if self.kind == "payment":
            han, fu = self.ref.split(":")[:2]
            return f"/tools/payments?ruleset={self.ruleset}&han={han}" + (f"&fu={fu}" if fu != "0" else "")
        return f"/glossary/{self.ref}"


def fold_text(text: str) -> str:
    """``text`` as compared for a card id: NFKC, case-folded, blanks collapsed, trimmed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip().casefold()


def digest(text: str) -> str:
    """8 hex digits of SHA-1 over :func:`fold_text` of ``text`` (stable across processes)."""
    return hashlib.sha1(fold_text(text).encode("utf-8")).hexdigest()[:8]


def penalty_card_id(ruleset: str, foul_id: str, foul: str) -> str:
    """``penalty:<ruleset>:<foul id>:<digest of the foul text>``."""
    return f"penalty:{ruleset}:{foul_id}:{digest(foul)}"


def difference_card_id(ruleset: str, foul_id: str, foul: str) -> str:
    """``difference:<ruleset>:<foul id>:<digest of the foul text>``."""
    return f"difference:{ruleset}:{foul_id}:{digest(foul)}"


_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)+)")


def cited_ruleset(ruleset: Ruleset, ref: str | None, library: Library | None = None) -> Ruleset:
    """The ruleset a penalty row's ``ref`` belongs to: ``ruleset`` itself where the ref names one of
    its sections or it keeps its own table, else the ruleset whose table it uses (Rakkii Nomi
    2026's rows cite WRC 2025 chapter 12.3, not its own §1–§4)."""
    if not ref or library is None or not ruleset.table or ruleset.table == ruleset.id:
        return ruleset
    lead = _NUMBER.search(ref)
    if lead and ruleset.has_section(lead.group(1)):
        return ruleset
    return library.rulesets.get(ruleset.table, ruleset)


def ref_text(ruleset: Ruleset, ref: str | None) -> str:
    """``ruleset``'s short name and ``ref``, with "§" before each number that is a section of
    ``ruleset`` (and before no other: WRC 2025 chapter numbers are not sections of any ruleset
    the handbook has the text of)."""
    if not ref:
        return ruleset.short
    marked = _NUMBER.sub(lambda m: f"§{m.group(1)}" if ruleset.has_section(m.group(1)) else m.group(1), ref)
    return f"{ruleset.short} {marked}"


def _fouls_are_categories(ruleset: Ruleset) -> bool:
    # EMA's table groups sub-cases under a foul ("Wrongly revealing or picking tiles" / "Few tiles");
    # AZRM's and WRC's categories are chapters ("Shuffling and Drawing")
    return any(r.foul == r.category for r in ruleset.penalties)


def penalty_prompt(ruleset: Ruleset, row: PenaltyRow) -> str:
    """The question side of a penalty card: the row's foul, after its category where the table's
    categories name the foul and the row only names a circumstance (EMA's "Wrongly revealing or
    picking tiles: Few tiles", not "Few tiles", which would read as too few tiles in hand)."""
    if (_fouls_are_categories(ruleset) and row.category
            and fold_text(row.category) not in fold_text(row.foul)):
        return f"{row.category}: {row.foul}"
    return row.foul


def penalty_card(ruleset: Ruleset, row: PenaltyRow, library: Library | None = None) -> Card:
    """The ``penalty`` card of ``row``: prompt the foul (:func:`penalty_prompt`); answer the
    penalty and its reference, cited to the ruleset the reference belongs to
    (:func:`cited_ruleset`)."""
    penalty = row.penalty or "(the source gives no penalty)"
    cited = cited_ruleset(ruleset, row.ref, library)
    return Card(penalty_card_id(ruleset.id, row.id, row.foul), "penalty", penalty_prompt(ruleset, row),
                f"{penalty}\n{ref_text(cited, row.ref)}", ruleset.id, row.id, row.ref, row.foul, cited.id)


def difference_card(ruleset: Ruleset, row: PenaltyRow, library: Library | None = None) -> Card:
    """The ``difference`` card of a two-column row whose columns differ: both columns."""
    answer = (f"{ruleset.short}: {row.penalty or '—'}\n"
              f"{row.compare_label or 'Other column'}: {row.compare_penalty or '—'}")
    cited = cited_ruleset(ruleset, row.ref, library)
    return Card(difference_card_id(ruleset.id, row.id, row.foul), "difference", penalty_prompt(ruleset, row),
                answer, ruleset.id, row.id, row.ref, row.foul, cited.id)


def section_card(ruleset: Ruleset, section: Section) -> Card:
    """The ``section`` card: the section's title (and Japanese subtitle) asks for its number."""
    prompt = section.title + (f"\n{section.title_ja}" if section.title_ja else "")
    return Card(f"section:{ruleset.id}:{section.ref}", "section", prompt,
                f"{ruleset.short} §{section.ref}", ruleset.id, section.ref, section.ref, None, ruleset.id)


def _japanese(term: Term) -> str:
    return f"{term.japanese}\n{term.reading}" if term.reading and term.reading != term.japanese \
        else term.japanese or ""


def term_cards(term: Term) -> list[Card]:
    """A bilingual term's two cards: English → Japanese (with the reading), and Japanese →
    English; none for a term without Japanese."""
    if not term.japanese:
        return []
    source, cite = term.refs[0] if term.refs else (None, None)
    reading = f"\n{term.reading}" if term.reading and term.reading != term.japanese else ""
    return [
        Card(f"term:{term.id}", "term", term.term, _japanese(term), None, term.id, cite, None, source),
        Card(f"reading:{term.id}", "reading", term.japanese, f"{term.term}{reading}", None, term.id, cite, None,
             source),
    ]


def _han_words(y) -> str:
    if y.yakuman:
        word = "Double yakuman" if y.han_closed >= 26 else "Yakuman"
        return word if y.han_open else f"{word}, concealed hand only"
    if y.han_open is None:
        return f"{y.han_closed} han, concealed hand only"
    if y.han_open == y.han_closed:
        return f"{y.han_closed} han, open or closed"
    return f"{y.han_closed} han closed, {y.han_open} open"


def yaku_cards(rs: Ruleset, library: Library) -> list[Card]:
    """One ``yaku`` card per yaku of the ruleset's scoring profile (dora entries left out): the
    names ask for the han closed and open (:func:`handbook.yaku_list`)."""
    from handbook.core.scoring_table import yaku_list

    if rs.id not in library.scoring:
        return []
    return [Card(f"yaku:{rs.id}:{y.id}", "yaku", f"{y.name}\n{y.name_ja}", _han_words(y), rs.id, y.id, None, None,
                 rs.id) for y in yaku_list(rs.id, library=library) if not y.dora]


def _possible(han: int, fu: int, tsumo: bool) -> bool:
    if fu == 20:    # pinfu tsumo: 2 han at least, never a ron
        return tsumo and han >= 2
    if fu == 25:    # seven pairs: 2 han (3 by tsumo with menzen tsumo)
        return han >= (3 if tsumo else 2)
    return True


def payment_cards(rs: Ruleset, library: Library) -> list[Card]:
    """``payment`` cards from the ruleset's payment table (:func:`handbook.payment_table`): 1–4 han
    at the common fu (:data:`PAYMENT_FUS`, cells that cannot occur left out) and the limits
    (:data:`PAYMENT_LIMITS`), for non-dealer and dealer, ron and tsumo."""
    from handbook.core.scoring_table import payment_table

    if rs.id not in library.scoring:
        return []
    table = payment_table(rs.id, library=library)
    cells = [(h, f) for f in PAYMENT_FUS for h in range(1, 5)] + [(h, 0) for h in PAYMENT_LIMITS]
    out = []
    for han, fu in cells:
        for dealer in (False, True):
            for tsumo in (False, True):
                if fu and not _possible(han, fu, tsumo):
                    continue
                who, how = ("dealer" if dealer else "non-dealer"), ("tsumo" if tsumo else "ron")
                points = table.points(han, fu or 30, dealer=dealer, tsumo=tsumo)
                limit = table.limit(han, fu or 30)
                label = (f"{han}+ han" if han == 13 else f"{han} han") if not fu else f"{fu} fu {han} han"
                answer = points + (f" ({limit})" if limit else "")
                out.append(Card(f"payment:{rs.id}:{han}:{fu}:{who}:{how}", "payment", f"{label}, {who}, {how}?",
                                answer, rs.id, f"{han}:{fu}:{who}:{how}", None, None, rs.id))
    return out


def _ruleset_cards(rs: Ruleset, library: Library) -> Iterable[Card]:
    for row in rs.penalties:
        yield penalty_card(rs, row, library)
    for row in rs.penalties:
        if row.differs:
            yield difference_card(rs, row, library)
    for sec in rs.sections:
        yield section_card(rs, sec)
    yield from yaku_cards(rs, library)
    yield from payment_cards(rs, library)


def study_deck(ruleset: str | None = None, *, library: Library | None = None) -> list["Card"]:
    """The cards for studying ``ruleset`` (a tournament's ruleset id), in :data:`KINDS` order.

    One ``penalty`` card per row of the ruleset's penalty table, one ``difference`` card per row
    of a two-column table (WRC 2025) whose columns differ, one ``section`` card per section of its
    rule text, a ``term`` and a ``reading`` card per glossary term that has Japanese, a ``yaku``
    card per yaku of its scoring profile and ``payment`` cards from its payment table.
    ``ruleset=None`` gives the cards of every ruleset (the terms once). ``library`` defaults to
    the shipped content (:func:`handbook.default_library`).

    Raises ``ValueError`` naming ``ruleset`` and the allowed ids for an unknown ruleset.
    Ids: see the module docstring; they are unique in the returned deck.
    """
    if library is None:
        library = default_library()
    if ruleset is not None and (not isinstance(ruleset, str) or ruleset not in library.rulesets):
        raise ValueError(f"ruleset: unknown ruleset {ruleset!r}; allowed: None or one of "
                         f"{', '.join(sorted(library.rulesets))}")
    chosen = [library.rulesets[ruleset]] if ruleset is not None else list(library.rulesets.values())
    cards: list[Card] = []
    for rs in chosen:
        cards.extend(_ruleset_cards(rs, library))
    for term in library.glossary:
        cards.extend(term_cards(term))
    order = {k: i for i, k in enumerate(KINDS)}
    cards.sort(key=lambda c: order[c.kind])  # stable: source order within a kind
    seen: set[str] = set()
    for c in cards:
        if c.id in seen:  # two rows of one table with the same foul text: the content is wrong
            raise ValueError(f"ruleset {c.ruleset}: two {c.kind} cards would share the id {c.id!r} "
                             f"(the foul text {c.foul!r} appears twice under {c.ref!r})")
        seen.add(c.id)
    return cards


__all__ = ["Card", "KINDS", "PAYMENT_FUS", "PAYMENT_LIMITS", "cited_ruleset", "difference_card", "digest", "fold_text",
           "payment_cards", "penalty_card", "penalty_prompt", "ref_text", "section_card", "study_deck", "term_cards",
           "yaku_cards"]
