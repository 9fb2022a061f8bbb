"""What a player declares, read against what the hand was: a tenpai or noten declaration the hand
contradicts or that is changed (AZRM §7.6, §7.7), a win declared with a hand that is not complete
(the empty call for a win, AZRM §4.1), a riichi by a hand that was not ready (noten riichi), and a
call or win said with the wrong word (a ron on the player's own draw, "reach" for riichi: the
confusing call, AZRM §4.2), in English, Japanese and romaji (read by
:mod:`handbook.core.search.grammar`)."""

from __future__ import annotations

import re

from handbook.core.search.calls import call_kind

# a tenpai or noten declaration that the hand contradicts: "turned his hand up as tenpai but he is
# noten", "was tenpai but declared noten", "said noten, then ... said actually tenpai"
_READY = r"(?:tenpai|tempai|noten|not\s+tenpai|not\s+ready|ready)"
_DECLARED = r"(?:declared|declares|said|says|called|announced|claimed|showed|turned\s+(?:\w+\s+)?hand\s+(?:up|over)\s+as)"


#: a hand's state named, or the end of the sentence
_STATE = re.compile(rf"(?<![a-z]){_READY}(?![a-z])|[.;?]")


def _ready(word: str | None) -> bool | None:
    return None if word is None else not (word.startswith("no") or word.startswith("not"))










# a hand that is not ready (tenpai) or not complete, in Japanese: ノーテン, テンパってない, 和了れてない
_JA_NOT_READY = (r"(?:のーてん|不聴|てんぱって(?:い)?な|てんぱいして(?:い)?な|てんぱいじゃな|聴牌して(?:い)?な"
                 r"|和了れて(?:い)?な|あがれて(?:い)?な|上がれて(?:い)?な|あがって(?:い)?な|和了って(?:い)?な)")
# a player in riichi found noten (at the exhaustive draw): リーチした人がノーテン, テンパってないのにリーチ
_ROMAJI_NOT_READY = r"(?:noten|tenpai\s+(?:shite\s+)?(?:i)?nai|tenpatte\s*(?:i)?nai|tenpai\s+ja\s*nai)"
NOTEN_RIICHI = re.compile(rf"(?:りーち|立直)(?:した|して|者|をかけ)[^。]{{0,15}}?{_JA_NOT_READY}"
                          rf"|{_JA_NOT_READY}[^。]{{0,6}}?(?:のに|けど|まま)[^。]{{0,6}}?(?:りーち|立直)"
                          rf"|\b{_ROMAJI_NOT_READY}\s+(?:na\s*no\s*ni|no\s*ni|nanoni|kedo|dakedo)\s+(?:riichi|reach)\b")
# a win declared with a hand that is not complete: "declared ron but he was noten", ノーテンなのにツモ宣言
_WIN_WORD = r"(?:ron|tsumo|mahjong)"
_NOT_WON = (r"(?:noten|not\s+tenpai|not\s+(?:a\s+)?(?:complete|winning|win)\b|(?:was|is)\s*n['’]?t\s+"
            r"(?:tenpai|complete|a\s+(?:complete|winning)\s+hand|a\s+win)"
            r"|(?:one\s+|a\s+)?(?:tile\s+)?short\s+of\s+(?:tenpai|a\s+win|winning|a\s+complete\s+hand))")
EMPTY_WIN = re.compile(
    rf"\b(?:declared|said|called|shouted|announced)\s+{_WIN_WORD}\b[^.;?]{{0,40}}?(?:\b(?:but|though|although|and)\b|,)"
    rf"[^.;?]{{0,30}}?{_NOT_WON}"
    rf"|\b(?:was|is|being)\s+{_NOT_WON}[^.;?]{{0,20}}?\bbut\s+(?:\w+\s+){{0,2}}?(?:declared|said|called)\s+{_WIN_WORD}\b"
    rf"|{_JA_NOT_READY}[^。]{{0,8}}?(?:のに|けど)[^。]{{0,6}}?(?:ろん|つも(?:と|って|宣言|和了|あがり))"
    rf"|(?:ろん|つも)(?:と|って)?(?:言|宣言|発声)[^。]{{0,20}}?{_JA_NOT_READY}"
    # only said, the hand not shown: "said ron out loud but didn't knock over his hand",
    # "ron said out loud, hand not shown", ロンって言っちゃったけど手牌は開けてない
    r"|\b(?:said|says|called|declared|shouted)\s+['\"“]?(?:ron|tsumo)\b[^.;?]{0,40}?\b(?:did\s*n['’]?t|didnt|without|never)"
    r"\s+(?:\w+\s+){0,2}?(?:knock|show|reveal|open|turn|flip|push)\w*"
    r"|\b(?:ron|tsumo)\b[^.;?]{0,30}?\bhand\s+(?:not\s+(?:shown|revealed|opened)|(?:still|stayed|remained)\s+"
    r"(?:closed|concealed|hidden|standing|face\s+down))"
    r"|(?:ろん|つも)(?:と|って|の声を?)?(?:言|宣言|発声|かけ)[^。]{0,20}?"
    r"(?:倒して(?:い)?な|開けて(?:い)?な|見せて(?:い)?な|伏せたまま)"
    # in romaji: the win said or the hand laid down, then not a win ("tehai wo taoshita kedo agari
    # janai"), or only said ("ron tte itta kedo tehai akete nai")
    r"|\b(?:ron|tsumo|tehai\s+(?:wo\s+|o\s+)?taoshi\w*)\b[^.;?]{0,40}?\b(?:kedo|keredo|dakedo|demo|nanoni)\s+"
    r"(?:\w+\s+){0,2}?(?:agari\s*(?:ja|de\s*wa|dewa)\s*na\w*|(?:agatte|agarete)\s*(?:i)?na\w*|noten)\b"
    r"|\b(?:ron|tsumo)\s+(?:tte|to)\s+(?:itta|iimashita|sengen\w*)\b[^.;?]{0,30}?"
    r"\b(?:akete|misete|taoshite)\s*(?:i)?na(?:i|katta)\b")


# one call or win said for another, or the right call said with a word that is not one of the valid
# terms (AZRM §4.2, EMA RCR "Wrong word", WRC 12.3.3): "said ron instead of tsumo", "called pon
# instead of chii", "says 'reach' instead of riichi", "chii no kawari ni 'chow' tte itta"
_CALLS = r"ron|tsumo|pon|pong|pung|chii|chi|chow|kan|kong|riichi|reach|mahjong|agari"
_Q = r"['\"’“”「」]?"
_INSTEAD = re.compile(rf"(?<![a-z]){_Q}(?P<a>{_CALLS}){_Q}(?![a-z])[^.;?]{{0,12}}?\binstead\s+of\s+"
                      rf"(?:\w+\s+)?{_Q}(?P<b>{_CALLS})(?![a-z])"
                      rf"|\b(?P<b4>{_CALLS})\s+no\s+kawari\s+ni\s+{_Q}(?P<a4>{_CALLS}){_Q}\s*(?:tte|to)\s+i")
#: the same call said with another word: a call word's other forms ("chow" for chii)
_WORD_KIND = {"reach": "riichi", "pung": "pon", "mahjong": "agari"}
_WINS = {"ron", "tsumo", "agari"}
#: one said, the other meant: "said ron ... clearly meant tsumo", "tsumo no tsumori de ron to itta"
_MEANT = re.compile(r"(?<![a-z])(?P<a>ron|tsumo|pon|chii|chi|kan)(?![a-z])['\"’]?[^.;?]{0,50}?\b(?:meant|means|wanted\s+to\s+say"
                    r"|should\s+have\s+(?:been|said))\s+(?P<b>ron|tsumo|pon|chii|chi|kan)(?![a-z])"
                    r"|\b(?P<b2>ron|tsumo|pon|chii|chi|kan)\s+no\s+tsumori\s+de\s+(?P<a2>ron|tsumo|pon|chii|chi|kan)\b"
                    # "agari tte itta kedo ron no tsumori datta": said one, meant the other
                    r"|\b(?P<a3>ron|tsumo|pon|chii|chi|kan|agari)\s+(?:tte|to)\s+(?:itta|iimashita|itchatta)\b[^.;?]{0,20}?"
                    r"\b(?P<b3>ron|tsumo|pon|chii|chi|kan)\s+no\s+tsumori\b")
#: a ron said on a tile the player drew ("said ron on a tile he drew himself", "said ron when he'd
#: drawn the winning tile himself", "jibun de tsumotta noni ron tte itta", 自分でツモったのにロンと言った),
#: or a tsumo said on another player's discard
_SELF = r"(?:himself|herself|themselves|his\s+own|her\s+own|their\s+own|own\s+draw|self[- ]?(?:drawn?|drew))"
_WRONG_WIN_WORD = re.compile(
    r"(?<![a-z])ron(?![a-z])['\"’]?\s+on\s+(?:a|the)\s+tile\s+(?:he|she|they)\s+(?:had\s+)?(?:just\s+)?drew\b"
    rf"|(?<![a-z])ron(?![a-z])[^.;?]{{0,40}}?\b(?:drew|drawn|draw|picked|pulled)\b[^.;?]{{0,30}}?\b{_SELF}"
    rf"|(?<![a-z])ron(?![a-z])[^.;?]{{0,20}}?\b{_SELF}"
    r"|\btsumo(?:tta|tte|shita|\s+shita|\s+shite)\b[^.;?]{0,15}?\b(?:noni|nanoni|kedo)\s+ron\s*(?:tte|to)\s+i"
    r"|(?:自分で)?つも(?:った|して|した)[^。]{0,6}?(?:のに|けど)[^。]{0,4}?ろん(?:と|って)"
    r"|(?<![a-z])tsumo(?![a-z])['\"’]?\s+on\s+(?:a|an|the|my|his|her|their|someone['’]?s|another\s+player['’]?s)"
    r"\s+(?:\w+\s+)?discard")


def said_instead(folded: str) -> str | None:
    """One call or win said where another was meant, or the right one said with another word
    ("said ron instead of tsumo", "said ron ... meant tsumo", "said ron on a tile he drew himself",
    "says 'reach' instead of riichi"): the words of the confusing call or win declaration."""
    if _WRONG_WIN_WORD.search(folded):
        return "confusing win declaration"
    m = _INSTEAD.search(folded) or _MEANT.search(folded)
    if m is None:
        return None
    groups = m.groupdict()
    a, b = next((groups[x], groups[y]) for x, y in (("a", "b"), ("a2", "b2"), ("a3", "b3"), ("a4", "b4"))
                if groups.get(x))
    if a == b:
        return None
    kinds = {_WORD_KIND.get(w, call_kind(w)) for w in (a, b)}
    return "confusing win declaration" if kinds <= _WINS and len(kinds) == 2 else "confusing call"
