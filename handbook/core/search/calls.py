"""Calls told in an incident, read by :mod:`handbook.core.search.grammar`: the forms of a call word
("pon'd", "chow", ぽん) and the call each names; two structures told by the tiles of a call --
a group laid out that the call cannot make (an invalid group) and a discard the swap-calling rule
forbids (kuikae); and a call whose tile was never taken."""

from __future__ import annotations

import re

from handbook.core.search.tiles import GROUP, TILE, group_tiles, tile

#: every form of a pon or a chii as typed (pon'd, chi'd: the apostrophe needed, "pond" is the discards)
_PON_CHII = r"pon|pong|ponned|pon['’]d|chii|chi|chow|chi['’]d"
#: a call word, as typed (two calls on one discard at the same time: which call has priority)
_CALL_WORD = re.compile(rf"(?<![a-z])(?:{_PON_CHII}|ron|kan|kong|ankan|minkan|daiminkan|kakan)(?![a-z])"
                        r"|ぽん|ちー|ろん|かん")

#: each form of a call word -> the call
_KIND = {"pong": "pon", "ponned": "pon", "pon'd": "pon", "pon’d": "pon", "ぽん": "pon", "chi": "chii", "chow": "chii",
         "chi'd": "chii", "chi’d": "chii", "ちー": "chii", "ろん": "ron", "kong": "kan", "かん": "kan",
         "ankan": "kan", "minkan": "kan", "daiminkan": "kan", "kakan": "kan"}


def _call_kind(word: str) -> str:
    return _KIND.get(word, word)


#: the two tiles a pon or a chii is shown with ("pon shown with 3m and 4m", "chii with 3p 7p"), no
#: third one after them
_SHOWN_PAIR = re.compile(
    rf"(?<![a-z])(?P<call>{_PON_CHII})(?![a-z])[^.;?]{{0,25}}?\b(?:with|using|showed|showing|exposed|revealed"
    rf"|put\s+out|laid\s+out)\s+(?:(?:a|the|his|her|only)\s+)?(?P<a>{TILE})\s*(?:and\s+|&\s*|\+\s*|,\s*|/\s*)?"
    rf"(?P<b>{TILE})(?!\s*(?:and\s+|,\s*|&\s*|\+\s*)?[1-9])")


def _pair_cannot_make(kind: str, a: tuple[int, str], b: tuple[int, str]) -> bool:
    """Whether the two tiles from the hand cannot make the call with any tile: a pon needs two
    alike, a chii two of one suit one or two apart."""
    if kind == "pon":
        return a != b
    return a[1] != b[1] or abs(a[0] - b[0]) not in (1, 2)


def invalid_group(folded: str) -> bool:
    """A pon, chii or kan followed (within a few words) by tiles written out that do not make it,
    or a pon or chii shown with two tiles that cannot make it."""
    for m in _SHOWN_PAIR.finditer(folded):
        a, b = tile(m.group("a")), tile(m.group("b"))
        if a is not None and b is not None and _pair_cannot_make(_call_kind(m.group("call")), a, b):
            return True
    for call in _CALL_WORD.finditer(folded):
        kind = _call_kind(call.group(0))
        group = GROUP.search(folded, call.end(), call.end() + 40)
        if kind == "ron" or group is None:
            continue
        gap = folded[call.end():group.start()]
        # "chii on the 3s and put out 3s-5s-6s": the tiles shown for the call, not a later event
        if re.search(r"[.;?。]|\b(?:then|and|with|discard\w*|threw)\b", gap) and not re.search(
                r"^[^.;?。]{0,20}\band\s+(?:put\s+out|laid\s+out|show\w*|expos\w*|reveal\w*)\s+$", gap):
            continue
        tiles = group_tiles(group.group(1))
        if tiles is None:
            continue
        numbers = sorted(n for n, _ in tiles)
        if len({suit for _, suit in tiles}) != 1 or len(tiles) != (4 if kind == "kan" else 3):
            return True
        if numbers != (list(range(numbers[0], numbers[0] + 3)) if kind == "chii" else [numbers[0]] * len(numbers)):
            return True
    return False


# swap calling told by the tiles: a pon or chii of one tile, then a discard of that tile or, after
# a chii, of the tile at the sequence's other end ("pon'd 7p, then threw another 7p", "chii'd 2p
# with 3p4p and discarded 5p") -- kuikae (AZRM §5.3, EMA RCR 3.3.2, WRC 2025)
_CALLED_TILE = re.compile(
    rf"(?<![a-z])(?P<call>{_PON_CHII})(?![a-z])[^.;?]{{0,20}}?(?<![0-9a-z])(?P<tile>{TILE})"
    rf"(?:\s+(?:with|using|from\s+\w+\s+with)\s+(?P<with>[1-9](?:\s?[mps])?[\s,/+-]*(?:and\s+)?[1-9]\s?[mps]))?")
_DISCARDED_TILE = re.compile(
    rf"(?<!the\s)(?<!a\s)\b(?:discard\w*|discar\w*|dicard\w*|threw|throw\w*|thrown|cut|cutting|toss\w*|dropped|played)\b(?:\s+\w+){{0,2}}?\s+(?P<tile>{TILE})")


def swap_by_tiles(folded: str) -> bool:
    """A pon or chii of a tile named, then a discard of a tile the swap-calling rule forbids."""
    for call in _CALLED_TILE.finditer(folded):
        called = tile(call.group("tile"))
        forbidden = {called}
        with_tiles = call.group("with")
        if with_tiles and _call_kind(call.group("call")) == "chii":
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


# a call whose tile was never taken ("left the 7p in West's pond", "forgot to take the tile"; in romaji
# "pon shita kedo hai wo toranakatta")
#: a call, then (within the sentence) what became of its tile
_CALL_THEN = r"(?<![a-z])(?:pon|pong|{more}chii|chi|chow|kan|called|calls?|claimed)(?![a-z])[^.;?]{{0,80}}?"
_NOT_TAKEN = re.compile(
    _CALL_THEN.format(more="") +
    r"(?:\b(?:left|leaves|leaving)\b[^.;?]{0,30}?\b(?:in|on)\s+(?:the\s+|my\s+|his\s+|her\s+|their\s+|\w+'?s\s+)?"
    r"(?:pond|river|discards|kawa)\b"
    r"|\b(?:never\s+took|did\s*n'?t\s+take|didnt\s+take|not\s+take|forgot\s+to\s+take|without\s+taking)\s+"
    r"(?:the\s+)?(?:called|claimed)\s+tile\b"
    r"|\b(?:(?:hai|pai)\s+(?:wo\s+|o\s+)?)?(?:tora(?:nakatta|nai|naide|nakute|zu\w*)|totte\s+(?:i)?na(?:i|katta))\b)")
#: ... told more loosely ("never actually took the tile", "still in the discards"): only once the
#: call went on (a discard, the tiles shown), else it is a call said and not made
_NOT_TAKEN_LOOSE = re.compile(
    _CALL_THEN.format(more="ponned|") +
    r"(?:\b(?:never|did\s*n'?t|didnt|not|forgot\s+to|without)\s+(?:actually\s+|even\s+|acutally\s+)?"
    r"(?:took|take|taking|pick\w*\s+up)\s+(?:the\s+|that\s+)?(?:called\s+|claimed\s+|ponned\s+|[1-9]\s?[mps]\s+)?"
    r"(?:tile|it|[1-9](?:\s?[mps])?)\b"
    r"|\bstill\s+(?:\w+\s+){0,2}?(?:in|on)\s+(?:the\s+|his\s+|her\s+|their\s+|\w+'?s\s+)?(?:pond|river|discards|kawa)\b)")
_WENT_ON = re.compile(r"\b(?:discarded|discarding|threw|showed|revealed|laid|put\s+(?:\w+\s+){0,3}?(?:down|out))\b"
                      r"|\b(?:two|2|three|3|more)\s+(?:more\s+)?discards\b")


def not_taken(folded: str) -> bool:
    """A call whose tile was never taken (see :data:`_NOT_TAKEN`, :data:`_NOT_TAKEN_LOOSE`)."""
    return bool(_NOT_TAKEN.search(folded) or (_NOT_TAKEN_LOOSE.search(folded) and _WENT_ON.search(folded)))


#: a call shown as a group of the other kind, in Japanese or romaji: a pon laid out as a run
#: (ポンしたのに順子で晒した, "pon shita no ni shuntsu"), a chii as a triplet or a pair
KIND_MISMATCH = re.compile(r"ぽん[^。、,.?]{0,8}?(?:順子|しゅんつ)|ちー[^。、,.?]{0,8}?(?:刻子|こーつ|対子|といつ)"
                           r"|\bpon\b[^.;?]{0,20}?\bshuntsu\b|\bchii?\b[^.;?]{0,20}?\b(?:koutsu|kotsu|toitsu)\b")

#: swap calling told without the tiles: a call, then the same tile as the called one discarded
#: ("called pon and then discarded the same tile", ポンした牌と同じ牌を切った, "onaji hai wo kitta")
SAME_TILE_DISCARDED = re.compile(
    rf"(?<![a-z])(?:{_PON_CHII}|called)(?![a-z])[^.;?]{{0,40}}?\b(?:discard\w*|threw|thrown|cut)\s+(?:\w+\s+)?"
    r"(?:the\s+)?(?:same|identical)\s+tile\b"
    r"|(?:ぽん|ちー)[^。]{0,12}?同じ牌を[^。]{0,6}?(?:切|捨|打)"
    r"|(?<![a-z])(?:pon|chii)(?![a-z])[^.;?]{0,30}?\b(?:onaji|onnaji)\s+hai\s+(?:wo\s+|o\s+)?(?:\w+\s+){0,2}?"
    r"(?:kitta|kiru|kitte|sute\w*|dahai)\b")

