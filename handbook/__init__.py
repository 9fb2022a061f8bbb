"""Riichi Judge Handbook: the public API (see the README and docs).

>>> lib = load_library()
>>> [(h.kind, h.ref) for h in lib.search("見せ牌")[:2]]
[('term', 'misehai'), ('rule', '2.4')]
>>> revealed_tiles("azrm", 3).points
10
"""

from __future__ import annotations

#: the public API by the ``handbook.core`` module that defines it, imported on first use: the
#: served app opens its port before it loads any content, and the offline app's first screen
#: needs none of the calculators
_LAZY = {
    "ContentError": "load", "Problem": "load", "default_library": "load", "load_library": "load",
    "Chapter": "model", "Hit": "model", "Library": "model", "Penalty": "model",
    "PenaltyRow": "model", "Ruleset": "model", "Section": "model", "Term": "model",
    "FinalRow": "final", "FinalScore": "final", "ScoreSumError": "final", "final_score": "final",
    "SEATS": "rulings", "SOURCES": "rulings", "ChomboSettlement": "rulings", "Choice": "rulings",
    "Ruling": "rulings", "chombo": "rulings", "chombo_fouls": "rulings", "revealed_tiles": "rulings",
    "StrikeStatus": "strikes", "strike_status": "strikes",
    "Card": "study", "study_deck": "study",
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'handbook' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"handbook.core.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Card", "Chapter", "ChomboSettlement", "Choice", "ContentError", "FinalRow", "FinalScore", "Hit",
    "Library", "Penalty", "PenaltyRow", "Problem", "Ruleset", "Ruling", "SEATS", "SOURCES",
    "ScoreSumError", "Section", "StrikeStatus", "Term", "chombo", "chombo_fouls", "default_library",
    "final_score", "load_library", "revealed_tiles", "strike_status", "study_deck",
]

