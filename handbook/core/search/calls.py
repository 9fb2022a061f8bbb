"""Calls told in an incident, read by :mod:`handbook.core.search.grammar`: the forms of a call word
("pon'd", "chow", ぽん) and the call each names; two structures told by the tiles of a call --
a group laid out that the call cannot make (an invalid group) and a discard the swap-calling rule
forbids (kuikae); and a call whose tile was never taken."""

from __future__ import annotations

import re

from handbook.core.search.tiles import TILE, tile

#: every form of a pon or a chii as typed (pon'd, chi'd: the apostrophe needed, "pond" is the discards)
PON_CHII = r"pon|pong|ponned|pon['’]d|chii|chi|chow|chi['’]d"
#: a call word, as typed (two calls on one discard at the same time: which call has priority)
CALL_WORD = re.compile(rf"(?<![a-z])(?:{PON_CHII}|ron|kan|kong|ankan|minkan|daiminkan|kakan)(?![a-z])"
                        r"|ぽん|ちー|ろん|かん")

#: each form of a call word -> the call
_KIND = {"pong": "pon", "ponned": "pon", "pon'd": "pon", "pon’d": "pon", "ぽん": "pon", "chi": "chii", "chow": "chii",
         "chi'd": "chii", "chi’d": "chii", "ちー": "chii", "ろん": "ron", "kong": "kan", "かん": "kan",
         "ankan": "kan", "minkan": "kan", "daiminkan": "kan", "kakan": "kan"}


def call_kind(word: str) -> str:
    return _KIND.get(word, word)








# swap calling told by the tiles: a pon or chii of one tile, then a discard of that tile or, after
# a chii, of the tile at the sequence's other end ("pon'd 7p, then threw another 7p", "chii'd 2p
# with 3p4p and discarded 5p") -- kuikae (AZRM §5.3, EMA RCR 3.3.2, WRC 2025)
_CALLED_TILE = re.compile(
    rf"(?<![a-z])(?P<call>{PON_CHII})(?![a-z])[^.;?]{{0,20}}?(?<![0-9a-z])(?P<tile>{TILE})"
    rf"(?:\s+(?:with|using|from\s+\w+\s+with)\s+(?P<with>[1-9](?:\s?[mps])?[\s,/+-]*(?:and\s+)?[1-9]\s?[mps]))?")
_DISCARDED_TILE = re.compile(
    rf"(?<!the\s)(?<!a\s)\b(?:discard\w*|discar\w*|dicard\w*|threw|throw\w*|thrown|cut|cutting|toss\w*|dropped|played)\b(?:\s+\w+){{0,2}}?\s+(?P<tile>{TILE})")


def swap_by_tiles(folded: str) -> bool:
    """A pon or chii of a tile named, then a discard of a tile the swap-calling rule forbids."""
    for call in _CALLED_TILE.finditer(folded):
        called = tile(call.group("tile"))
        forbidden = {called}
        with_tiles = call.group("with")
        if with_tiles and call_kind(call.group("call")) == "chii":
            numbers = [int(c) for c in re.findall(r"[1-9]", with_tiles)]
            seq = sorted([called[0], *numbers])
            if len(numbers) == 2 and seq == list(range(seq[0], seq[0] + 3)):
                if called[0] == seq[0] and seq[2] < 9:
                    forbidden.add((seq[2] + 1, called[1]))
                elif called[0] == seq[2] and seq[0] > 1:
                    forbidden.add((seq[0] - 1, called[1]))
        discard = _DISCARDED_TILE.search(folded, call.end(), call.end() + 90)
        if discard is not None and tile(discard.group("tile")) in forbidden:
            return True
    return False







#: swap calling told without the tiles: a call, then the same tile as the called one discarded
#: ("called pon and then discarded the same tile", ポンした牌と同じ牌を切った, "onaji hai wo kitta")
SAME_TILE_DISCARDED = re.compile(
    rf"(?<![a-z])(?:{PON_CHII}|called)(?![a-z])[^.;?]{{0,40}}?\b(?:discard\w*|threw|thrown|cut)\s+(?:\w+\s+)?"
    r"(?:the\s+)?(?:same|identical)\s+tile\b"
    r"|(?:ぽん|ちー)[^。]{0,12}?同じ牌を[^。]{0,6}?(?:切|捨|打)"
    r"|(?<![a-z])(?:pon|chii)(?![a-z])[^.;?]{0,30}?\b(?:onaji|onnaji)\s+hai\s+(?:wo\s+|o\s+)?(?:\w+\s+){0,2}?"
    r"(?:kitta|kiru|kitte|sute\w*|dahai)\b")

