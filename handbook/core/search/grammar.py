"""A small incident grammar: the order of events, negations and counts a bag of words misses, read
from the whole query and named by the words the rules use, added to the query before it is ranked.

How incidents are told is otherwise learned from labelled examples (:mod:`handbook.core.search.learned`).
The structures kept here are the ones the learned ranking does not make redundant: each was left
out in turn and measured on the ``dev`` splits of ``tests/eval``, and each incident the tests tell
was checked at the search's level; the rules the model made redundant (a called group told by its
tile kinds, the called tile placed wrong, passing information, tiles exposed from another hand, a
tenpai declaration the hand contradicts, a group shown with a wrong tile, a late reveal, a discard
from the hand in riichi, a dead hand in riichi, a chii from across, a group named by its tiles, a
called tile left in the pond) were removed.

The structures, each matched by its shape rather than its spelling:

* *several players win on one discard* -- a count of two or more (two, 2, both, several,
  multiple, 二人, 両方) with an actor (people, players, opponents; 人, 家) and a win (ron, win,
  mahjong, agari; ロン, 和了, アガリ) in any order ("two people called ron", "both players declared
  ron on the same tile", "2人がロンした"), or a deal-in to two ("dealt in to both W and N") -- which the rules call multiple winners or double ron
  (Rakkii Nomi 2026 §2.3, EMA RCR on head bump);
* *a call or a win by a player whose hand is already dead* -- a dead hand (dead hand, 和了放棄,
  アガリ放棄) said before a call (pon, chii, kan, riichi, called) or a win (ron, tsumo, mahjong),
  or the call followed by "with a dead hand" ("dead hand declared riichi", "already has a dead
  hand from too many tiles and now calls pon") -- the rows "Calling with a dead hand" and
  "Declaring a win with a dead hand" (AZRM §4.3, WRC 2025 dead-hand rows);
* *a tsumo declared after the discard* -- a discard, then tsumo ("discarded, then said tsumo on
  the tile he had drawn", 捨ててからツモと言った) -- the row "Tsumo win declared after discarding" (WRC 2025);
* *a call made once the next player had drawn* -- a call, then after a draw ("said pon after West
  had already drawn his tile") -- calling too late (AZRM §3.1, EMA RCR §3.3.1: a discard can be
  claimed until the next player draws);
* *a call by a player in riichi* -- the state (in riichi, a riichi player, after declaring riichi;
  リーチ者, リーチ後, 立直中), then within the sentence a pon, chii or open kan ("player in riichi
  called pon on the dealer's discard", リーチ者がポンと発声した); the call, then the state ("minkan
  in riichi"); or the state in a sentence of its own and the call in the next by the same seat
  or by nobody named ("W is in riichi. E discarded 9s, W said pon") -- calling during riichi
  (AZRM §6.4);
* *swap calling told by the tiles* -- a pon or chii of a tile named, then a discard of that tile
  or, after a chii, of the tile at the sequence's other end ("pon'd 7p, then threw another 7p",
  "chii'd 2p with 3p4p and discarded 5p") -- kuikae (AZRM §5.3, EMA RCR 3.3.2);
* *play after the hand has ended* -- a win declared, then a draw or a discard ("after the dealer
  declared tsumo, South drew the next tile", ロンの発声の後にツモった) -- playing after the end of
  the kyoku (AZRM §7.2, WRC 2025);
* *a payment or score found wrong afterwards* -- a payment or a score, and its being found out
  later ("paid 7700, two hands later we worked out it was 5200", 支払いが済んでしまった) -- the
  rule that scoring and payment errors are corrected as soon as they are discovered (AZRM §9.3);
* *riichi after an open call* -- a pon or chii, then riichi ("had called pon earlier and then
  said reach", ポンしてリーチ), or riichi "with a chi on the table" -- riichi with an open hand (AZRM §6.3);
* *a draw out of turn* -- a draw, then whose turn it was or that the player before had not
  discarded ("drew a tile when it was actually my turn", "drew ... North hadn't even discarded")
  -- playing out of turn (AZRM §2.5);
* *two calls at once* -- two different calls on one tile or at one time ("pon and ron at the
  same time", "my chii and West's pon on the same tile") -- the priority of calls (AZRM §3.2,
  EMA RCR §3.3.1).
* *one call or win said for another* ("said ron instead of tsumo", "said ron ... meant tsumo",
  "said ron on a tile he drew himself") -- a confusing win declaration, or a confusing call;
* *a riichi only said* -- the sideways tile and the stick both said to be missing (the steps of
  :mod:`handbook.core.search.negation`) -- the empty riichi declaration (AZRM §6.1); *one step
  missing and another done* ("put out the stick and turned the tile but never said riichi") --
  the row of that step, which words shared with other fouls ("put", "out", "turned") would bury;
* *a question about what a player with a dead hand may still do* (choose discards, be tenpai,
  get the deposit back; 和了放棄になった人は…もらえますか) -- the dead hand's own rule (AZRM §1.4's
  Minor Chombo (Dead Hand), EMA RCR 3.4.7);
* *a kan, then a discard without the replacement tile* -- too few tiles (AZRM §2.2);
* *a call corrected at once into another* ("chii no i mean pon", "ポン、いやチー") -- changing a
  call;
* *a call taken back, no other in its place* ("called pon, then said 'sorry, no'", "said riichi
  and then changed his mind", "wants to take the riichi back") -- the empty call, the empty
  riichi, the empty closed kan (AZRM §4.1, §6.1);
(The declarations below are read by :mod:`handbook.core.search.declarations`.)
* *a win declared with a hand that is not complete* ("declared ron but he was noten",
  ノーテンなのにツモ宣言, ロン宣言して倒したらノーテンだった) -- the empty call for a win (AZRM §4.1);
* *a player in riichi found noten* (リーチした人がノーテン, テンパってないのにリーチ) -- noten riichi;
Japanese and romaji say the riichi state as リーチしてから, リーチのあと and "riichi kara", a win
before play as ロンのあとに, a declaration changed as ノーテンって言ってから、やっぱりテンパイ, one
the hand contradicts as テンパイなのにノーテンと言った, a win only said as ロンって言ったけど手牌は
開けてない, and a draw out of turn as 上家が切る前にツモった; romaji as "chii to pon douji" (at once),
"agarihouki nanoni naita" (called with a dead hand), "ankan to itte yameta" (a call taken back),
"tenpai shite nai no ni riichi".
The readers see tiles (:mod:`handbook.core.search.tiles`) written in words in their short form ("the 7 of circles", "5 pin" -> 7p,
5p), so a structure told by tiles reads either way.
The end of a hand for play after it includes an exhaustive draw ("the hand ended in ryuukyoku
and South drew another tile", 流局後にツモった).

Before any of these, the *setting* an incident log opens with is dropped
(:func:`handbook.core.search.setting.drop_setting`).

The state and the order of events matter: "dead hand" after "riichi" ("noten riichi, is that a
dead hand?") reads nothing, nor does a tsumo before a discard.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from handbook.core.search.declarations import EMPTY_WIN, NOTEN_RIICHI, said_instead
from handbook.core.search.folding import fold
from handbook.core.search.calls import (
    CALL_WORD, PON_CHII, SAME_TILE_DISCARDED, call_kind, swap_by_tiles)
from handbook.core.search.tiles import short_tiles
from handbook.core.search.conditions import NUMBER_WORDS, ROMAJI_NUMBERS
from handbook.core.search.negation import RULE_BOOK, steps

_COUNT = r"(?:two|2|both|three|3|several|multiple|more than one)"
_ACTOR = r"(?:people|persons|players|opponents|guys|of them|winners|hands)"
_WIN = r"(?:ron|rons|ronned|win|wins|won|winning|mahjong|agari|agatta|hora)"
_SEAT = r"(?:east|south|west|north|toimen|shimocha|kamicha|[eswn])"  # a seat as incidents name it
_SEVERAL_WIN_EN = re.compile(
    rf"\b{_COUNT}\s+(?:\w+\s+)?{_ACTOR}\b(?:\s+\w+){{0,6}}?\s+{_WIN}\b"
    rf"|\b{_WIN}\b(?:\s+\w+){{0,6}}?\s+(?:by|from)\s+{_COUNT}\s+{_ACTOR}\b"
    rf"|\b(?:both|two|2)\s+{_WIN}\b"
    # two seats named: "S and N both said ron", "both East and West won on it"
    rf"|\b{_SEAT}\s+(?:and|&)\s+{_SEAT}\b(?:\s+\w+){{0,3}}?\s+{_WIN}\b"
    # "dealt in to both W and N", "dealt into two players"
    r"|\bdealt?\s+in(?:\s+to|to)?\s+(?:both|two|2)\b")

_SEVERAL_WIN_JA = re.compile(r"(二人|2人|ふたり|両方|二家|2家|複数|同時|3人|三人|三家)[^。]{0,6}(ロン|ろん|和了|アガリ|あがり|上がり|あが)")

_DEAD = (r"(?:dead\s+hand|deadhand|agari\s*houki|agari\s*hoki|和了放棄|あがり放棄|あがりほうき|死に手|しにて"
         r"|\bshin(?:i|de|da|deru|deiru)\s*te\b"  # 死に手, 死んでる手 in romaji
         r"|\bhand\s+(?:was|is|had\s+been|has\s+been|got|became)\s+(?:ruled\s+|declared\s+|made\s+|called\s+)?dead\b"
         r"|\b(?:declared|ruled|made|called|pronounced)\s+(?:his\s+|her\s+|their\s+|the\s+|my\s+)?hand\s+dead\b)")
#: the next sentence, when it goes on with the same player's story ("... a dead hand. Now she declared riichi")
_GOES_ON = (r"(?:[^.。;]{0,60}?[.。]\s*(?:now|then|later|afterwards|next|after\s+that|still"
             r"|(?:he|she|they)\s+(?:wants?|wanted|tries|tried|then|now|later|also))\b)?")
_CALL = (r"(?:pon|pong|ponned|chii|chi|chow|kan|kong|riichi|reach|rii?chi|calls?|called|calling|naita|naite|naku"
         r"|ぽん|ちー|かん|りーち|立直|鳴)")
_SELF_WIN = r"(?:ron|ronned|tsumo|tsumoed|mahjong|win|wins|won|winning|agari|hora|ろん|つも|和了|あがり)"
# the state first, then (within a sentence) the action; or the action "with a dead hand"
_DEAD_THEN_CALL = re.compile(rf"{_DEAD}{_GOES_ON}[^.。;]{{0,60}}?(?<![a-z]){_CALL}(?![a-z])"
                             rf"|(?<![a-z]){_CALL}(?![a-z])[^.。;]{{0,30}}?\bwith\s+(?:a\s+|his\s+|her\s+)?{_DEAD}")
_DEAD_THEN_WIN = re.compile(rf"{_DEAD}{_GOES_ON}[^.。;]{{0,60}}?(?<![a-z]){_SELF_WIN}(?![a-z])"
                            rf"|(?<![a-z]){_SELF_WIN}(?![a-z])[^.。;]{{0,30}}?\bwith\s+(?:a\s+|his\s+|her\s+)?{_DEAD}")
_DISCARD_THEN_TSUMO = re.compile(
    r"(?<![a-z])(?:discar\w*|dicard\w*|threw|thrown|dropped)(?!\s+(?:nothing|no\b))[^.;?]{0,50}?(?<![a-z])tsumo(?![a-z])"
    # in Japanese ツモ is also the draw: only a declared tsumo ("ツモと言った", ツモ和了), after a discard made
    r"|(?:打牌|捨て|切っ|つも切り)(?!せず|ずに|ない|ていない)[^。]{0,20}?(?:つも(?:[」』]|と)|つも和了|つもあがり|つも宣言)"
    # the tsumo told first: "said tsumo but he had already discarded"; in romaji "tsumo agari, dahai
    # shita ato" (after discarding), "dahai shite kara tsumo"
    r"|(?<![a-z])tsumo(?![a-z])[^.;?]{0,60}?\b(?:already|allready|had(?:\s+already)?)\s+(?:discar\w*|threw|thrown)\b"
    r"|(?<![a-z])tsumo(?![a-z])[^.;?]{0,30}?\b(?:dahai|sutehai|sute(?:ta|te)?|kit(?:ta|te))\s+(?:\w+\s+)?(?:ato|atode|kara)\b"
    r"|\b(?:dahai|sutehai|sute(?:ta|te)?|kit(?:ta|te)|tsumogiri)\s+(?:\w+\s+)?(?:ato|atode|kara)\b[^.;?]{0,30}?(?<![a-z])tsumo(?![a-z])")

# a call made once the next player had drawn: the call, then "after" and a draw
_CALL_AFTER_DRAW = re.compile(
    r"(?<![a-z])ron(?![a-z])[^.;?]{0,30}?\bbut\s+(?:\w+\s+){1,2}(?:had\s+)?(?:already\s+)?(?:drawn|drew)\b|"
    r"(?<![a-z])(?:pon|pong|ponned|chii|chi|chow|kan|kong|called|calls?|claimed|claims?)(?![a-z])"
    r"[^.;?]{0,20}?\b(?:after|when|once|but)\b[^.;?]{0,30}?\b(?:had\s+|has\s+|already\s+|allready\s+)*"
    r"(?:drawn|drew|draws|picked|taken\s+(?:his|her|their|a)\s+tile|took\s+(?:his|her|their|a)\s+tile)\b"
    # the draw told first: "West drew his tile before North's pon call"
    r"|\b(?:drew|drawn|draws)\b[^.;?]{0,40}?\bbefore\b[^.;?]{0,30}?(?<![a-z])(?:pon|pong|chii|chi|chow|kan|kong|ron)"
    r"(?![a-z])"
    # in romaji: "pon tte itta kedo shimocha ga mou tsumotteta" (had already drawn)
    r"|(?<![a-z])(?:pon|chii|chi|kan|ron)(?![a-z])[^.;?]{0,40}?\bmou\s+(?:tsumot\w*|tsumo\s+shi\w*|hii\w*)")
# tiles shown that are not the player's own: an opponent's hand, another seat's tiles, the dead wall
_SEAT = r"(?:opponent|opponents|other\s+player|another\s+player|someone\s+else|neighbou?r|east|south|west|north|" \
        r"kamicha|shimocha|toimen|dealer)"

# a player in riichi (the state), then a pon or a chii (a kan can be allowed: AZRM §6.6); "declared
# riichi after pon" is riichi with an open hand
_IN_RIICHI = (r"(?:\bin\s+(?:riichi|rii|richi)\b|\briichi\s+player|\bafter\s+(?:\w+\s+){0,2}riichi|\b(?:declared|called|in\s+a)\s+riichi"
              r"|\bunder\s+riichi|\briichi(?:'?d|ed)\b|りーち者|りーち後|りーち中|りーちした|立直者|立直後|立直中"
              # romaji: "riichi shite kara" (after declaring riichi), "riichi chuu" (during riichi)
              r"|\b(?:riichi|reach|richi)\s+(?:shite|shita|shiteta|shiteru)(?:\s+(?:kara|ato|go))?\b"
              r"|\b(?:riichi|reach|richi)\s*(?:chuu|chu|go)\b"
              # after declaring riichi: "riichi kara (no) pon", リーチしてから, リーチのあと
              r"|\b(?:riichi|reach|richi)\s+(?:kara|ato|no\s+ato)\b|(?:りーち|立直)(?:して|の(?:後|あと)|から))")
#: the calls a player in riichi may not make (a closed kan may be allowed: AZRM §6.6)
_OPEN_CALLS = rf"{PON_CHII}|minkan|daiminkan|open\s+kan|kakan|shouminkan|shominkan|added\s+kan"
_OPEN_CALL = rf"(?:{_OPEN_CALLS})"
_RIICHI_THEN_CALL = re.compile(
    rf"{_IN_RIICHI}(?:(?!\b(?:after|before|with)\b|前)[^.。;?]){{0,60}}?(?:(?<![a-z]){_OPEN_CALL}(?![a-z])|ぽん|ちー|みんかん|明槓|大明槓|加槓)")
#: those calls, and "called kan" when the state is said first or after
_OPEN_CALL_ALTS = rf"{_OPEN_CALLS}|called\s+kan"
#: the state said in a sentence of its own ("W is in riichi."), then the call in the next one
_RIICHI_SENTENCE_THEN_CALL = re.compile(
    rf"(?P<who>\b\w+\s+)?(?:is|was|had\s+been|has\s+been)\s+{_IN_RIICHI}[^.。;?]{{0,30}}?[.;]\s+"
    rf"[^.。;?]{{0,50}}?(?P<caller>\b\w+\s+)?(?:(?:said|says|called|declared|calls)\s+)?(?<![a-z])(?:{_OPEN_CALL_ALTS})(?![a-z])")
#: the call, then the state: "minkan in riichi", "pon'd while in riichi", "chii during riichi"
_CALL_IN_RIICHI = re.compile(
    rf"(?<![a-z])(?:{_OPEN_CALL_ALTS})(?![a-z])[^.。;?]{{0,25}}?\b(?:in|during|while|under)\s+(?:\w+\s+){{0,2}}?"
    r"(?:riichi|rii|richi)\b")
# a win declared, then a draw or a discard by someone: play after the end of the hand
_END = r"(?:ron|tsumo|mahjong|agari|ryuu?kyoku|exhaustive\s+draw)"
_PLAYED = (r"(?:\b(?:drew|draws|drawn|discarded|picked\s+up|took|grabbed)\b|\bnext\s+tile\b"
           r"|\b(?:said|called|declared)\s+(?:pon|pong|chii|chi|chow|kan|kong)\b)")
_WIN_THEN_PLAY = re.compile(
    rf"\b(?:after|once|when)\b[^.;?]{{0,30}}?(?<![a-z]){_END}(?![a-z])[^.;?]{{0,50}}?{_PLAYED}"
    rf"|\b(?:declared|said|called)\s+(?:tsumo|mahjong)\b[^.;?]{{0,12}}?\b(?:and\s+)?then\b[^.;?]{{0,30}}?{_PLAYED}"
    rf"|\b(?:hand|kyoku|round)\s+(?:had\s+)?ended\b[^.;?]{{0,40}}?{_PLAYED}"
    r"|(?:ろん|つも|和了|あがり|流局|りゅうきょく)[^。]{0,8}?(?:後|あと)[^。]{0,20}?(?:つもっ|つもる|引い|取っ|捨て|打牌)")
# an open call, then riichi (the reverse of a call by a player in riichi)
_CALL_THEN_RIICHI = re.compile(
    rf"(?<![a-z])(?:{PON_CHII}|open\s+kan|daiminkan)(?![a-z])[^.;?]{{0,40}}?"
    r"\b(?:then|later|afterwards|and|but)\b[^.;?]{0,30}?(?<![a-z])(?:riichi|reach|declared\s+riichi)(?![a-z])"
    r"|\b(?:riichi|reach)\b[^.;?]{0,20}?\bafter\s+(?:\w+\s+){0,2}(?:pon|chii|chi|calling|a\s+call|an\s+open)"
    r"|\b(?:riichi|reach)\s+with\s+(?:a|an|one|his|her|two)\s+(?:pon|chii|chi|chow|open\s+\w+|called\s+\w+|meld)\b"
    r"|(?:ぽん|ちー|鳴いて|鳴き)[^。]{0,15}?(?:りーち|立直)")
# a draw out of turn: a draw, then whose turn it was (or that the player before had not discarded)
_DRAW_OUT_OF_TURN = re.compile(
    r"\b(?:drew|draws|drawn|took|grabbed|picked)\b[^.;?]{0,80}?"
    r"(?:\bwhen\s+it\s+was\s+(?:actually\s+|really\s+)?(?:\w+'?s|my|his|her|their)\s+turn"
    r"|\bnot\s+(?:yet\s+)?(?:his|her|their|my)\s+turn"
    r"|\b(?:had\s*n'?t|hadnt|had\s+not)\s+(?:even\s+|yet\s+)?(?:discarded|drawn)"
    r"|\bbefore\s+(?:\w+\s+){1,2}(?:had\s+)?(?:discarded|drawn)\b)")
# two calls on one discard at the same time: which call has priority
_AT_ONCE = re.compile(r"\bsame\s+(?:time|tile|discard|moment)\b|\bat\s+once\b|\bsimultaneous\w*|\bsecond\s+after\b"
                      r"|同時|同じ牌|どうじ|\bdouji\b|\bdoji\b|\bonaji\s+hai\b")
#: "a second later": at once when said by another player ("I said chii, then toimen said pon a
#: second later"), a call changed when by the same one ("said chii, then a second later pon")
_MOMENT_LATER = re.compile(r"\b(?:a\s+|one\s+|split\s+|half\s+a\s+)?(?:second|moment)\s+later\b")
_CALLER = re.compile(rf"\b(?P<who>{_SEAT}|i|he|she|my|his|her)\s+(?:(?:\w+\s+){{0,2}}?"
                     r"(?:said|called|declared|says|calls|shouted)\s+['\"’]?)?$")
#: the caller told by a possessive is the one told by a pronoun ("my chii came after he said pon")
_WHO = {"my": "i", "his": "he", "her": "she"}
#: one call told after the other, by another player: "my chii came after he had already said pon"
_ORDER = re.compile(r"\b(?:after|then|before|already|first)\b")


_TWO_CALLERS = re.compile(r"\b(?:two|2|both)\s+(?:people|players|persons|of\s+them|opponents)\s+(?:\w+\s+)?"
                          r"(?:called|call|said|claimed|want\w*)\b[^.;?]{0,40}?\bsame\s+(?:tile|discard)\b")
_OTHER_CALLER = re.compile(r"\b(?:someone\s+else|another\s+player|the\s+other\s+player|other\s+player)\s+(?:also\s+)?"
                           r"(?:said|called|declared|shouted)\b")


def _calls_at_once(folded: str) -> bool:
    """Two different calls (pon and chii, ron and pon) said to be on one tile or at one time, or
    by two players a moment apart."""
    if _TWO_CALLERS.search(folded) is not None:
        return True
    calls = list(CALL_WORD.finditer(folded))
    if len({call_kind(m.group(0)) for m in calls}) < 2:
        return False
    if _AT_ONCE.search(folded) is not None or _OTHER_CALLER.search(folded) is not None:
        return True
    if _MOMENT_LATER.search(folded) is None and _ORDER.search(folded) is None:
        return False
    callers = {_WHO.get(who.group("who"), who.group("who")) for m in calls
               if (who := _CALLER.search(folded, max(0, m.start() - 30), m.start())) is not None}
    return len(callers) >= 2


# a payment or a score, found wrong afterwards
_PAID = r"(?:\bpa(?:id|yed|yment|yments)\b|\bpaying\b|\bscor(?:e|es|ing)\b|\bpoints\b|支払|点数|精算)"
_LATER = (r"(?:\blater\b|\bafterwards\b|\bafter\s+the\s+(?:hand|game|hanchan|round)\b|\b(?:worked|found)\s+out\b"
          r"|\bdiscovered\b|\bnoticed\b|\balready\s+(?:started|paid|payed)\b|済んで|済ん|後で|後から|気づ)")
_PAID_FOUND_LATER = re.compile(rf"{_PAID}[^.。;?]{{0,80}}?{_LATER}|{_LATER}[^.。;?]{{0,40}}?{_PAID}")


# a question about what a player with a dead hand may still do (choose discards, be tenpai, get the
# riichi deposit back): the dead hand's own rule (AZRM §1.4, EMA RCR 3.4.7), not a foul
_MAY_DO = (r"(?:discard\w*|chose|choose|pick|riichi|reach|call|calls|pon|chii|kan|tenpai|noten|win|ron|tsumo|show|display"
           r"|get\s+(?:\w+\s+){0,2}back|tsumogiri)")
_DEAD_QUESTION = re.compile(
    rf"{_DEAD}[^.。;?]{{0,40}}?\b(?:can|could|may|still|allowed\s+to|have\s+to|must)\b[^.;?]{{0,30}}?\b{_MAY_DO}\b"
    rf"|\b(?:can|could|may|does|do|must)\s+(?:i|you|he|she|they|a|the|player)\b[^.;?]{{0,30}}?{_DEAD}[^.;?]{{0,40}}?\b{_MAY_DO}\b"
    rf"|\bwith\s+a\s+{_DEAD}\s+(?:do|can|may|must)\s+(?:i|you|he|she|they)\b[^.;?]{{0,30}}?\b{_MAY_DO}\b"
    rf"|{_DEAD}[^。]{{0,30}}?(?:もらえ|返して|返され|捨て牌を選|選べ|てんぱい|聴牌|りーち|鳴け)"
    rf"|{_DEAD}[^.;?]{{0,30}}?\b{_MAY_DO}\s+(?:dekiru|dekimasu|shite\s*(?:mo\s*)?ii)\b")  # in romaji


# a player with a dead hand declaring tenpai at the draw
_DEAD_SAYS_TENPAI = re.compile(
    rf"{_DEAD}[^?]{{0,60}}?\b(?:saying|said|says|declar\w*|claim\w*|call\w*|announc\w*)\s+(?:\w+\s+)?(?:tenpai|tempai)\b"
    r"|(?:和了放棄|あがり放棄)[^。]{0,30}?(?:てんぱい|聴牌)(?:宣言|と(?:言|宣言))")









# a draw before the player before had discarded: 上家が切る前にツモった
_JA_DRAW_BEFORE_DISCARD = re.compile(r"(?:切る|捨てる|打牌する|打牌の)前に[^。]{0,8}?(?:つも|引い|取っ)")

#: a ron on the tile added to a pon ("East added a 4th 7p to his pon and I said ron on it"):
#: robbing the kan (chankan, EMA RCR 3.3.6)
_RON_ON_ADDED_TILE = re.compile(
    r"\b(?:add\w*|aded|put\w*|upgrad\w*|extend\w*|made)\b[^.;?]{0,30}?\b(?:4th|fourth|another)\b[^.;?]{0,20}?"
    r"\b(?:to|onto|on)\s+(?:his|her|their|the|a|its)\s+(?:pon|pong|triplet)\b[^.;?]{0,60}?(?<![a-z])ron(?![a-z])"
    r"|(?<![a-z])(?:kakan|shouminkan|shominkan|added\s+kan)(?![a-z])[^.;?]{0,40}?(?<![a-z])ron(?![a-z])"
    r"|(?<![a-z])ron(?![a-z])[^.;?]{0,30}?(?<![a-z])(?:kakan|shouminkan|shominkan|added\s+kan)(?![a-z])")


#: a player in riichi found not ready, told in English ("dealer in riichi, exhaustive draw, he
#: flips his hand and he is noten"): a noten riichi
_RIICHI_FOUND_NOTEN = re.compile(
    rf"{_IN_RIICHI}[^?]{{0,100}}?\b(?:is\s+|was\s+|turned\s+out\s+(?:to\s+be\s+)?|found\s+(?:to\s+be\s+)?)"
    r"(?:actually\s+|in\s+fact\s+|really\s+)?(?:noten|not\s+tenpai)\b")

#: a number of counters on the table ("six honba", "7本場"): from five on, EMA RCR 3.4.11's two-yaku
#: minimum applies, in the rule's own words
_COUNTERS = re.compile(r"(?<![0-9a-z])(?P<n>\d+|five|six|seven|eight|nine|ten|go|roku|nana|hachi|kyuu|juu)"
                       r"\s*(?:honba|hon\s+ba|counters?|本場|ほんば)")
_NUMBER = {**NUMBER_WORDS, **ROMAJI_NUMBERS}  # and in romaji


def _five_counters_or_more(folded: str) -> bool:
    """Five counters (honba) or more on the table, told as a number."""
    for m in _COUNTERS.finditer(folded):
        n = m.group("n")
        if (int(n) if n.isdigit() else _NUMBER[n]) >= 5:
            return True
    return False


#: the rules said not to settle something ("the AZRM document doesn't say anything about pao",
#: "not covered by the rules"): what a ruleset says of its own completeness (AZRM §11.2)
_RULES_SILENT = re.compile(
    rf"(?i){RULE_BOOK}(?:says?\s+nothing|is\s+silent"
    r"|are\s+silent|(?:does|do)\s*n['’]?t\s+(?:say|mention|cover)|(?:does|do)\s+not\s+(?:say|mention|cover))\b"
    r"|\bnot\s+(?:in|covered\s+(?:in|by)|written\s+in|mentioned\s+in)\s+(?:the\s+|our\s+|these\s+|this\s+)?"
    r"(?:\w+\s+)?(?:rules?|rulebook|document)\b")


def without_rules_talk(query: str) -> str:
    """``query`` without what it says the rules do not say ("the AZRM document doesn't say
    anything about pao" -> "the  anything about pao"): the document's words, not the incident's
    (its "say" is no call; :func:`concepts` reads the structure itself)."""
    return _RULES_SILENT.sub(" ", query)


#: a dead hand's words, for the quick test of the structures that hold one (:data:`_DEAD`)
_DEAD_HINTS = ("dead", "houki", "hoki", "放棄", "ほうき", "死に手", "しにて", "shin")
#: (a quick test: one of these is in the query, the structure, the words the rules use for it)
RULES: tuple[tuple[tuple[str, ...], re.Pattern, str], ...] = (
    (("ron", "win", "won", "mahjong", "agari", "agatta", "hora", "dealt", "deal in", "ろん", "和了", "あが", "上が"),
     _SEVERAL_WIN_EN, "double ron multiple winners"),
    (("ろん", "和了", "あが", "上が"), _SEVERAL_WIN_JA, "ダブロン"),
    (_DEAD_HINTS, _DEAD_THEN_CALL, "calling with a dead hand"),
    (_DEAD_HINTS, _DEAD_THEN_WIN, "declaring a win with a dead hand"),
    (_DEAD_HINTS, _DEAD_QUESTION, "what a dead hand may still do minor chombo dead hand"),
    (("tsumo", "つも"), _DISCARD_THEN_TSUMO, "tsumo win declared after discarding"),
    (("same", "identical", "同じ", "onaji", "onnaji"), SAME_TILE_DISCARDED, "swap calling kuikae"),
    (("rule", "book", "document", "text", "azrm", "ema", "wrc", "rcr"), _RULES_SILENT, "rules not exhaustive"),
    (("ron",), _RON_ON_ADDED_TILE, "robbing a kan chankan"),
    (("drawn", "drew", "draws", "picked", "took", "taken", "mou"), _CALL_AFTER_DRAW,
     "calling too late after the next player has drawn"),
    (("ron", "tsumo", "mahjong", "agari", "ended", "ryu", "exhaustive", "ろん", "つも", "和了", "あがり", "流局",
      "りゅうきょく"), _WIN_THEN_PLAY,
     "playing after the end of the kyoku"),
    (("pa", "scor", "points", "支払", "点数", "精算"), _PAID_FOUND_LATER,
     "scoring and payment errors corrected as soon as discovered"),
    (("riichi", "reach", "りーち", "立直"), _CALL_THEN_RIICHI, "riichi with an open hand"),
    (("drew", "draws", "drawn", "took", "grabbed", "picked"), _DRAW_OUT_OF_TURN, "playing out of turn"),
    (("dead", "houki", "hoki", "放棄", "ほうき"), _DEAD_SAYS_TENPAI, "wrong tenpai or noten declaration"),
    (("りーち", "立直", "riichi", "reach"), NOTEN_RIICHI, "noten riichi"),
    (("noten", "not tenpai"), _RIICHI_FOUND_NOTEN, "noten riichi"),
    (("前に",), _JA_DRAW_BEFORE_DISCARD, "playing out of turn"),
)
#: (the structure that needs a second one in the same clause, the words): tiles that are not the
#: player's own, exposed ("West drew before North's pon call; West says the tile was already in
#: West's hand" tells of a draw and a hand in two clauses, no tiles exposed)
_CLAUSE_END = re.compile(r"[.;?!。！？]")
PAIRED: tuple[tuple[re.Pattern, re.Pattern, str], ...] = ()


def _empty_riichi(folded: str) -> bool:
    """A riichi missing two of AZRM §6.1's three steps: only said (the sideways tile and the stick
    missing), or only a tile turned or a stick put out ("koe mo dasazu tenbou mo okazu ni yoko ni
    kitta dake")."""
    _done, missing = steps(folded)
    return len(missing & _RIICHI_STEP_FOUL.keys()) == 2


#: the riichi declaration's steps (AZRM §6.1: say it, turn the tile, put out the deposit) -> the
#: words of the foul where that step alone is missing
_RIICHI_STEP_FOUL = {"speak": "riichi without saying riichi", "sideways": "riichi discard not turned sideways",
                     "deposit": "riichi without the deposit"}


def _riichi_step_missing(folded: str) -> str | None:
    """A riichi whose one missing step is told and another step said done ("put out the stick
    and turned the tile but never said riichi"): the foul of that step; the words the query
    shares with other fouls ("put", "turned", "out") then weigh less than its structure."""
    done, missing = steps(folded)
    riichi_missing = missing & _RIICHI_STEP_FOUL.keys()
    if len(riichi_missing) != 1 or not done & _RIICHI_STEP_FOUL.keys():
        return None
    return _RIICHI_STEP_FOUL[next(iter(riichi_missing))]










# a kan, then a discard with no replacement tile drawn: the hand is a tile short
_KAN_NO_REPLACEMENT = re.compile(
    r"(?<![a-z])(?:kan|kong|ankan|minkan|kakan|daiminkan|shouminkan)(?![a-z])[^.;?]{0,60}?"
    r"\b(?:discard\w*|threw|cut)\b[^.;?]{0,30}?\b(?:without|before)\s+(?:taking|drawing|picking)\s+"
    r"(?:up\s+)?(?:the\s+|a\s+|his\s+|her\s+)?(?:rinshan|replacement|dead\s+wall)")


# a call corrected at once into another: "chii no i mean pon", "pon - sorry, chii", "ポン、いやチー"
_CORRECTED = re.compile(r"\b(?:no|sorry|i\s+mean|i\s+meant|wait|oops|correction|chang\w*\s+(?:it\s+)?to"
                        r"|correct\w*\s+(?:it\s+|himself\s+|herself\s+)?to)\b|いや|じゃなくて|ではなく|やっぱり")


def _call_corrected(folded: str) -> bool:
    """A call word, a self-correction within a few words, and another call word."""
    for first in CALL_WORD.finditer(folded):
        fix = _CORRECTED.search(folded, first.end(), first.end() + 48)
        if fix is None or re.search(r"[.;?。]", folded[first.end():fix.start()]):
            continue
        second = CALL_WORD.search(folded, fix.end(), fix.end() + 16)
        if second is not None and call_kind(second.group(0)) != call_kind(first.group(0)):
            return True
    return False




# a call taken back with no other call in its place ("called pon, then said 'sorry, no'", "said
# riichi and then changed his mind"): an empty call
_WITHDRAWN = re.compile(r"\b(?:sorry|never\s*mind|nevermind|cancel\w*|withdr[ae]w\w*|retract\w*|yameta|yamete"
                        r"|torikeshi\w*"
                        r"|t(?:ook|ake|akes|aking)\s+(?:it|that|the\s+\w+)\s+back|t(?:ook|ake|akes)\s+back"
                        r"|chang\w*\s+(?:his|her|their|my)\s+mind|wait,?\s+no)\b|[\"'“‘]\s*no,?\s+wait\b"
                        r"|やめた|やめて|取り消|取消")
_CLOSED_KAN = re.compile(r"\b(?:closed|concealed|ankan)\b|\bown\s+turn\b|暗|あんかん")
_RIICHI_WORD = re.compile(r"(?<![a-z])(?:riichi|reach|richi)(?![a-z])")


def _call_withdrawn(folded: str) -> str | None:
    """A pon, chii, kan or riichi said and taken back, no other call said after it."""
    for first in (*CALL_WORD.finditer(folded), *_RIICHI_WORD.finditer(folded)):
        kind = call_kind(first.group(0))
        if kind == "ron":
            continue
        back = _WITHDRAWN.search(folded, max(0, first.start() - 12), first.end() + 120)
        if back is None or CALL_WORD.search(folded, first.end(), back.start()) is not None:
            continue
        if CALL_WORD.search(folded, back.end(), back.end() + 20) is not None:
            continue  # taken back for another call: changing it
        if kind in ("riichi", "reach", "richi"):
            return "empty riichi declaration"
        if kind == "kan" and _CLOSED_KAN.search(folded, max(0, first.start() - 20), back.start()):
            return "empty closed kan declaration"
        return "empty call for chii pon or kan"
    return None


#: a seat as incidents name it -> the seat ("W" and "West" are one player)
_SEAT_OF = {"e": "east", "east": "east", "s": "south", "south": "south", "w": "west", "west": "west",
            "n": "north", "north": "north"}


def _riichi_player_calls(folded: str) -> bool:
    """A pon, chii or open kan by a player in riichi: the state, then the call in the same
    sentence; the call, then "in riichi"; or the state in a sentence of its own ("W is in
    riichi.") and the call in the next, by the same seat or by nobody named."""
    if _RIICHI_THEN_CALL.search(folded) or _CALL_IN_RIICHI.search(folded):
        return True
    for m in _RIICHI_SENTENCE_THEN_CALL.finditer(folded):
        who = _SEAT_OF.get((m.group("who") or "").strip())
        caller = _SEAT_OF.get((m.group("caller") or "").strip())
        if who is None or caller is None or who == caller:
            return True
    return False


_DEAD_TOLD = re.compile(_DEAD)


def _empty_win(folded: str) -> bool:
    """A win declared with a hand that is not complete or only said (:data:`EMPTY_WIN`); not by a
    player whose hand is dead (that is declaring a win with a dead hand)."""
    return EMPTY_WIN.search(folded) is not None and _DEAD_TOLD.search(folded) is None


def _when(test: Callable[[str], object], words: str) -> Callable[[str], str | None]:
    """A reader giving ``words`` when ``test`` holds (a truth value, or a pattern's match)."""
    return lambda folded: words if test(folded) else None


#: the structures read by code, not one pattern: (a quick test: one of these is in the query, "" is
#: always; the reader, giving the words the rules use or None; what, said in the query already,
#: makes the words needless -- None: the words themselves, "": nothing)
READERS: tuple[tuple[tuple[str, ...], Callable[[str], str | None], str | None], ...] = (
    (("",), _when(_calls_at_once, "simultaneous calls priority of calls"), "priority of calls"),
    (("riichi", "reach", "りーち", "立直", "yoko", "sideways"), _when(_empty_riichi, "empty riichi declaration"),
     "empty riichi"),
    (("riichi", "reach", "richi", "りーち", "立直"), _riichi_step_missing, None),
    (("riichi", "rii", "richi", "reach", "りーち", "立直"), _when(_riichi_player_calls, "calling during riichi"), None),
    (("pon", "pong", "chi", "chow"), _when(swap_by_tiles, "swap calling kuikae"), None),
    (("kan", "kong"), _when(_KAN_NO_REPLACEMENT.search, "too few tiles"), None),
    (("pon", "chi", "chow", "ron", "kan", "kong", "ぽん", "ちー", "ろん", "かん"), _when(_call_corrected, "changing a call"), None),
    (("sorry", "mind", "cancel", "withdr", "retract", "back", "wait", "yame", "torikeshi", "やめ", "取り消", "取消"),
     _call_withdrawn, ""),
    (("ron", "tsumo", "mahjong", "ろん", "つも", "taoshi"), _when(_empty_win, "empty call for a win"), None),
    (("honba", "hon ba", "counter", "本場", "ほんば"), _when(_five_counters_or_more, "five or more counters"),
     "five or more counters"),
    (("instead", "meant", "means", "wanted to say", "should have", "tsumori", "drew", "drawn", "own draw", "kawari",
      "tsumott", "tsumo shita", "tsumo on", "self", "つも"), said_instead, None),
)


#: EMA RCR's word for a pon, read as one ("he said pung on my 4p")
_PUNG = re.compile(r"(?<![a-z])pung(?:ed|['’]d)?(?![a-z])")


def concepts(folded: str) -> list[str]:
    """The words of every structure ``folded`` (a query as
    :func:`~handbook.core.search.folding.fold` gives it) holds and does not say already: "two
    people called ron" -> ``["double ron multiple winners"]``; none -> ``[]``."""
    if "pung" in folded:
        folded = _PUNG.sub("pon", folded)
    found = [words for hints, pattern, words in RULES
             if any(h in folded for h in hints) and pattern.search(folded) and fold(words) not in folded]
    found += [words for first, second, words in PAIRED
              if first.search(folded) and any(first.search(part) and second.search(part)
                                              for part in _CLAUSE_END.split(folded))
              and fold(words) not in folded]
    tiled = short_tiles(folded)
    for hints, read, said in READERS:
        if any(h in folded for h in hints) and (not said or said not in folded):
            words = read(tiled)
            if words and (said is not None or words not in folded):
                found.append(words)
    return found


def expand(folded: str) -> str:
    """``folded`` with its :func:`concepts` appended (folded): "two people called ron" -> "two
    people called ron double ron multiple winners"."""
    extra = concepts(folded)
    return f"{folded} {fold(' '.join(extra))}" if extra else folded
