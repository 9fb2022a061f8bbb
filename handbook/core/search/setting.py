"""The *setting* an incident log opens with -- where and when, not what: the table, the game,
the kyoku and the honba ("Table 7, South 2, 1 honba: ...", "T3 E4:", "12卓 東2局1本場："). It is
dropped before a query is read (:func:`drop_setting`): its numbers are not section references
and its seat wind is not an actor."""

from __future__ import annotations

import re

_SEP = r"[\s,;:/()\[\]\-–—.：、，（）]*"
_SETTING_ITEM = (r"(?:(?:table|tbl|tisch|t)\s*(?:no\.?\s*|#\s*)?\d+"
                 r"|(?:round|hanchan|game|match|session)\s*#?\s*\d+"
                 r"|(?:east|south|west|north|ton|nan|sha|pei|[eswn])\s*[1-4](?:\s*kyoku)?(?![\d.])"
                 r"|\d+\s*(?:honba|bonba|hb)\b|all[\s-]*last|orasu"
                 r"|第?\s*\d+\s*(?:卓|回戦|半荘)|[東南西北]\s*[1-4一二三四]\s*局|\d+\s*本場|オーラス)")
#: the setting an incident log opens with: one or more items (table, game, kyoku, honba) and the
#: separator after them (a lone item must be followed by punctuation)
_SETTING = re.compile(rf"^\s*{_SETTING_ITEM}(?:(?P<more>{_SEP}){_SETTING_ITEM})*(?P<end>{_SEP})", re.IGNORECASE)
_PUNCT = re.compile(r"[,;:()\[\]\-–—.：、，（）]")


def drop_setting(query: str) -> str:
    """``query`` without the setting its log opens with (table, game, kyoku, honba; see the module
    docstring): "Table 7, South 2, 1 honba: West showed a tile" -> "West showed a tile". A query
    that is nothing but a setting ("1 honba") is kept whole: then it is what is asked about."""
    m = _SETTING.match(query)
    if m is None or m.end() == len(query):
        return query
    if m.group("more") is None and not _PUNCT.search(m.group("end")):
        return query  # one item run into the sentence ("East 2 tiles shown"): not a log's setting
    return query[m.end():]
