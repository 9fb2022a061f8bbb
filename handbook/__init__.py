"""Riichi Judge Handbook: the public API (see the README and docs).

>>> lib = load_library()
>>> [(h.kind, h.ref) for h in lib.search("見せ牌")[:2]]
[('term', 'misehai'), ('rule', '2.4')]
>>> revealed_tiles("azrm", 3).points
10
"""

from __future__ import annotations

from handbook.core.load import ContentError, Problem, default_library, load_library
from handbook.core.model import Chapter, Hit, Library, Penalty, PenaltyRow, Ruleset, Section, Term
from handbook.core.final import FinalRow, FinalScore, ScoreSumError, final_editions, final_score
from handbook.core.rulings import (
    SEATS,
    SOURCES,
    ChomboSettlement,
    Choice,
    Ruling,
    chombo,
    chombo_editions,
    chombo_fouls,
    revealed_tiles,
)
from handbook.core.strikes import StrikeStatus, strike_status
from handbook.core.hand import HandValue, Yaku, hand_value
from handbook.study.deck import Card, study_deck
from handbook.core.scoring_table import PaymentTable, YakuInfo, payment_table, yaku_list

__all__ = [
    "Card", "Chapter", "ChomboSettlement", "Choice", "ContentError", "FinalRow", "FinalScore", "Hit",
    "Library", "Penalty", "PenaltyRow", "Problem", "Ruleset", "Ruling", "SEATS", "SOURCES",
    "ScoreSumError", "Section", "StrikeStatus", "Term", "chombo", "chombo_editions", "chombo_fouls",
    "default_library", "final_editions", "final_score", "hand_value", "HandValue", "Yaku", "load_library",
    "revealed_tiles", "strike_status", "study_deck", "PaymentTable", "YakuInfo", "payment_table", "yaku_list",
]

