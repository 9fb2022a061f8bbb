"""What was done and what was not: the steps of an incident a query says were missing.

A bag of words reads "she turned the tile sideways and put the stick out but never said riichi"
as a match for every row that names a sideways tile, a stick or saying riichi -- the three rows
of a Riichi declaration missing one of its steps (AZRM §6.1, EMA RCR 3.4.9, WRC 2025 12.3.x) --
while the incident has exactly one of them: the step the query negates. So the query and each
penalty row's foul are read for a few *steps* a foul is often named by the absence of:

* ``speak`` -- saying it out loud (say, said, announce, vocal; 発声, 言わ, コール); "silent"
  and 無言 are that step negated;
* ``sideways`` -- the declaration tile turned sideways (sideways, rotate, yoko; 横);
* ``deposit`` -- the 1,000-point riichi deposit (deposit, stick, bet, tenbou; リーチ棒, 供託);
* ``reveal`` -- tiles shown (reveal, show, open, expose; 開け, 見せ, 倒);
* ``into_hand`` -- a drawn tile put into the hand ("into his hand"; 手牌に入れ).

("an open hand" is a melded hand, not a shown one; a step named as a time, "before revealing",
is neither done nor missing. Some phrases tell a step missing without a negation before its
word: "no word", "said nothing", "tile not turned", "discarded normally"; and a negation goes on past "or":
"didn't turn a tile or put a stick down".) A step is *negated* when a negation (not, never, no, without, didn't, forgot to; ず, ない, なし)
governs it: in English the first word after the negation that is not a filler ("the", "his",
"actually", a number) or a general verb ("put", "place", "make"); in Japanese a negative ending
a few characters after the step's word, within one clause; in romaji a verb's negative ending on
the step's word or on one of the next three words of its clause ("iwanakatta", "yoko ni
shinakatta", "bou nashi", "tenbou dasu no wasureta"). Otherwise a step named is *done*.

Then (:func:`factor`): a row whose foul lacks a step the query says was missing ranks higher; a
row whose foul lacks a step the query says was done, or that names as done a step the query
says was missing, ranks lower. Everything else keeps its score. The steps and their words are
the rules' own (the riichi declaration's three steps, AZRM §6.1; tiles "not put into hand",
WRC 2025 12.3.x), not any one query's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from handbook.core.search.folding import fold

#: step -> its English words (folded, matched as whole words or, ending in ``*``, as prefixes)
_EN_WORDS: dict[str, tuple[str, ...]] = {
    "speak": ("say", "said", "says", "saying", "speak*", "spoke*", "voice*", "vocal*", "announc*",
              "shout*", "utter*", "yell*"),
    "sideways": ("sideways", "rotat*", "yoko", "tilt*", "horizontal*", "sideway"),
    "deposit": ("deposit*", "stick", "sticks", "bet", "tenbou", "tenbo", "kyoutaku", "tenbos"),
    "reveal": ("reveal*", "show", "showed", "shown", "showing", "shows", "opened", "opening",
               "expos*", "flip*"),
}
#: words that, in English, are that step negated on their own
_EN_NEGATED: dict[str, tuple[str, ...]] = {"speak": ("silent", "silently", "wordless*")}
#: "no word", "without a word": the step ``speak`` negated ("word" alone is no step: a call's
#: "wrong word" was spoken)
_EN_NO_WORD = re.compile(r"\b(?:no|without\s+(?:a|any)|not\s+(?:a|one|any))\s+words?\b")
#: "into his hand", "in the hand": the step ``into_hand`` (a phrase: "hand" alone is every foul)
_EN_INTO_HAND = re.compile(r"\b(?:in|into)\s+(?:(?:his|her|their|the|its|my|own)\s+)*(?:hand|tehai)\b")

#: a tile turned ("did not turn the tile", "turned her discard"): the step ``sideways`` ("turn" alone
#: is a general verb: "turn the hand over")
_EN_TURNED_TILE = re.compile(r"\bturn(?:ed|ing|s)?(\s+(?:the\s+|his\s+|her\s+|their\s+|a\s+)?)(?:tile|discard)\b")

#: the tile said not turned after it ("tile not turned", "discard was never rotated"), or put down
#: upright ("discarded normally", "put it down straight"): the step ``sideways`` missing
_EN_TILE_NOT_TURNED = re.compile(r"\b(?:tile|discard)\s+(?:was\s+|is\s+|got\s+)?(?:not|never|wasnt|isnt)\s+"
                                 r"(?:turn(?:ed)?|rotated|sideways)\b"
                                 r"|\b(?:discard\w*|threw|thrown|placed|put|laid)\s+(?:it\s+|the\s+tile\s+|her\s+tile\s+"
                                 r"|his\s+tile\s+)?(?:normally|upright|straight|as\s+usual)\b")

#: negations, and what may stand between a negation and the step it governs
_EN_NEGATION = frozenset({"not", "never", "no", "without", "didnt", "didn", "doesnt", "dont", "hasnt",
                          "havent", "hadnt", "wasnt", "isnt", "wont", "cant", "couldnt", "neither",
                          "nor", "forgot", "forgets", "forgetting", "forget", "failed", "fails",
                          "failing"})
_EN_FILLER = frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "any", "to", "it", "out",
                        "actually", "actualy", "acutally", "really", "even", "ever", "yet", "properly",
                        "clearly", "loud", "aloud", "anything", "first", "also", "him", "them", "up",
                        "riichi", "reach", "richi", "point", "points", "pt", "1", "000", "1000", "one",
                        "thousand", "single", "down", "on", "table", "formal", "there", "tile", "tiles",
                        "discard", "discarded"})
#: a step named as a time ("before revealing", "after saying", "late reveal"): neither done nor missing
_EN_TIMING = frozenset({"before", "after", "until", "till", "when", "while", "late"})
#: a negated step followed by one of these ("did not show the tiles before discarding") was done
#: out of order, not left out
_EN_ORDER = frozenset({"before", "until", "till", "untill"})
#: a step said to be done badly, not left out ("not speaking clearly": a confusing call)
_EN_BADLY = frozenset({"clearly", "properly", "correctly", "loudly", "enough", "well", "right"})
_EN_GENERAL_VERB = re.compile(r"^(?:put|puts|putting|plac\w*|pay\w*|giv\w*|gave|mak\w*|made|do|did|done|"
                              r"does|hav\w*|had|got|get\w*|us\w*|lay\w*|laid|leav\w*|left|turn\w*|set)$")

#: step -> its Japanese words (folded: katakana as hiragana)
_JA_WORDS: dict[str, tuple[str, ...]] = {
    "speak": ("発声", "言わ", "言っ", "言い", "宣言", "コール", "声"),
    "sideways": ("横", "曲げ"),
    "deposit": ("リーチ棒", "供託", "点棒", "千点棒", "棒"),
    "reveal": ("開け", "見せ", "倒", "公開", "晒", "さらさ", "オープン"),
    "into_hand": ("手牌に入れ", "手牌には入れ", "手に入れ", "手の中に入れ", "手牌に混ぜ", "手牌に加え"),
}
_JA_NEGATED: dict[str, tuple[str, ...]] = {"speak": ("無言", "黙って", "無発声", "ダマ")}
#: a negative ending within a few characters of the step's word, in the same clause
_JA_NEGATIVE = re.compile(r"^[^、。,.!?！？がけどで]{0,6}?(?:ず|ない|なし|無し|なかっ|ません|忘れ)")


#: step -> its romaji words, as club players type Japanese (a verb's stem with its endings: "iwanakatta"
#: is 言わなかった, "misete" 見せて, "yoko ni shite" 横にして, "bou mo dashita" 棒も出した)
_ROMAJI_STEP: dict[str, str] = {
    "speak": r"iwa(?:na\w*|zu\w*)?|itta|iimashita|iu|hassei\w*|sengen\w*|koe|kooru|kouru",
    "sideways": r"yoko\w*|mage(?:te|ta|na\w*|zu\w*)?",
    "deposit": r"bou|riichibou|riichibo|tenbou|kyoutaku|kyotaku",
    "reveal": r"mise(?:te|ta|ru|na\w*|zu\w*)?|ake(?:te|ta|na\w*|zu\w*)|tao(?:shi|sa|su)\w*|sara(?:shi|sa|su)\w*|oopun",
}
#: a romaji negative ending (言わなかった iwanakatta, 出さず dasazu, しない shinai, なし nashi)
_ROMAJI_NEGATIVE = re.compile(r"(?:nakatta|nakat|nai|naide|nakute|zu|zuni|masen\w*|nashi)$|^wasure")  # or forgot
#: what ends a romaji clause: a negative after it governs nothing before it ("... kedo yoko ni shita")
_ROMAJI_CLAUSE_END = frozenset({"kedo", "keredo", "ga", "demo", "shikashi", "but", "and", "then"})


#: any step's romaji word, each step a named group (one match a word)
_ROMAJI_ANY = re.compile("|".join(f"(?P<{step}>{words})" for step, words in _ROMAJI_STEP.items()))
_ROMAJI_ANY_WORD = re.compile(r"\b(?:" + _ROMAJI_ANY.pattern + r")\b")


def _romaji(folded: str, done: set[str], missing: set[str]) -> None:
    """The steps of a query typed in romaji: a step's word, negated by its own ending
    ("iwanakatta", "misezu") or by a negative within the next three words of its clause ("yoko ni
    shinakatta", "bou nashi"); otherwise done ("yoko ni shite", "bou mo dashita")."""
    if _ROMAJI_ANY_WORD.search(folded) is None:
        return
    tokens = _TOKEN.findall(folded)
    for i, tok in enumerate(tokens):
        m = _ROMAJI_ANY.fullmatch(tok)
        if m is None:
            continue
        negated = _ROMAJI_NEGATIVE.search(tok) is not None
        for nxt in tokens[i + 1:i + 4]:
            if negated or nxt in _ROMAJI_CLAUSE_END:
                break
            negated = _ROMAJI_NEGATIVE.search(nxt) is not None
        (missing if negated else done).add(m.lastgroup)


def _en_word_re(words: tuple[str, ...]) -> re.Pattern:
    parts = [re.escape(w[:-1]) + r"\w*" if w.endswith("*") else re.escape(w) for w in words]
    return re.compile(r"^(?:" + "|".join(parts) + r")$")


_EN_STEP = {step: _en_word_re(ws) for step, ws in _EN_WORDS.items()}
_EN_STEP_NEGATED = {step: _en_word_re(ws) for step, ws in _EN_NEGATED.items()}
_JA_STEP = {step: tuple(fold(w) for w in ws) for step, ws in _JA_WORDS.items()}
_JA_STEP_NEGATED = {step: tuple(fold(w) for w in ws) for step, ws in _JA_NEGATED.items()}
_TOKEN = re.compile(r"[a-z0-9]+")
_HINTS = tuple({w.rstrip("*")[:4] for ws in _EN_WORDS.values() for w in ws} | {"silen", "hand", "tehai", "turn"}
               | {w for ws in (*_JA_STEP.values(), *_JA_STEP_NEGATED.values()) for w in ws})


def _actually(word: str) -> bool:
    """"actually" however typed ("actualy", "acctually", "acutally")."""
    return 7 <= len(word) <= 10 and word.startswith(("act", "acc", "acu", "akt")) and word.endswith("ly")


def _en_step(word: str) -> str | None:
    for step, pattern in _EN_STEP.items():
        if pattern.match(word):
            return step
    return None


def _negated_after_or(tokens: list[str], j: int, governed: set[int], missing: set[str]) -> None:
    """The steps after "or" / "nor" that a negation governing ``tokens[j]`` goes on to."""
    k = j + 1
    while k < min(j + 4, len(tokens)) and tokens[k] not in ("or", "nor"):
        k += 1
    if k >= len(tokens) or tokens[k] not in ("or", "nor"):
        return
    for m in range(k + 1, min(k + 6, len(tokens))):
        word = tokens[m]
        if word in _EN_FILLER or _EN_GENERAL_VERB.match(word):
            continue
        step = _en_step(word)
        if step is not None:
            governed.add(m)
            missing.add(step)
        return


def _en_phrases(text: str, done: set[str], missing: set[str]) -> str:
    """The steps told by phrases rather than by a negation and a word ("into his hand", "no word",
    "tile not turned", "discarded normally"); ``text`` with a turned tile read as rotated and the
    unturned one taken out."""
    if "turn" in text:
        text = _EN_TURNED_TILE.sub(r"\1 rotated tile", text)
    for m in _EN_INTO_HAND.finditer(text):
        before = text[:m.start()].split()[-3:]
        (missing if any(w in _EN_NEGATION for w in before) else done).add("into_hand")
    if "word" in text and _EN_NO_WORD.search(text):
        missing.add("speak")
    if _EN_TILE_NOT_TURNED.search(text):
        missing.add("sideways")
        text = _EN_TILE_NOT_TURNED.sub(" ", text)
    return text


def _english(folded: str, done: set[str], missing: set[str]) -> None:
    text = _en_phrases(folded.replace("'", "").replace("\u2019", ""), done, missing)
    tokens = _TOKEN.findall(text)
    governed: set[int] = set()
    for i, tok in enumerate(tokens):
        if tok not in _EN_NEGATION:
            continue
        for j in range(i + 1, min(i + 8, len(tokens))):
            word = tokens[j]
            if word in _EN_FILLER or _EN_GENERAL_VERB.match(word) or _actually(word):
                continue
            step = _en_step(word)
            if step is not None:
                governed.add(j)
                later = tokens[j + 1:j + 5]
                # "not shown ... before discarding": done late, not left out
                if (not later or later[0] not in _EN_BADLY) and not any(w in _EN_ORDER for w in later):
                    missing.add(step)
                    # "didn't turn a tile or put a stick down": the negation goes on past "or"
                    _negated_after_or(tokens, j, governed, missing)
            break
    for i, tok in enumerate(tokens):
        if i in governed or (i and tokens[i - 1] in _EN_TIMING):
            continue
        if tokens[i + 1:i + 2] == ["nothing"]:  # "said nothing", "showed nothing": the step left out
            step = _en_step(tok)
            if step is not None:
                missing.add(step)
                continue
        for step, pattern in _EN_STEP_NEGATED.items():
            if pattern.match(tok):
                missing.add(step)
        step = _en_step(tok)
        if step is not None:
            done.add(step)


def _japanese(folded: str, done: set[str], missing: set[str]) -> None:
    for step, ws in _JA_STEP_NEGATED.items():
        if any(w in folded for w in ws):
            missing.add(step)
    for step, ws in _JA_STEP.items():
        for w in ws:
            start = folded.find(w)
            while start >= 0:
                end = start + len(w)
                (missing if _JA_NEGATIVE.match(folded[end:]) else done).add(step)
                start = folded.find(w, end)


#: what the rules say or do not ("the AZRM document doesn't say anything about pao", "the rules
#: say nothing"): the rule book's words, not a step of the incident
#: the rule book named as the one who says something ("the AZRM document doesn't say", "rules say")
RULE_BOOK = r"\b(?:rules?|rulebook|book|document|text|azrm|ema|wrc|rcr)\s+(?:\w+\s+)?"
_RULES_SAY = re.compile(RULE_BOOK + r"(?:says?|said|mentions?|(?:does|do)\s*n['’]?t\s+(?:say|mention)|(?:does|do)\s+not\s+"
                        r"(?:say|mention))\b")


@lru_cache(maxsize=4096)
def steps(folded: str) -> tuple[frozenset[str], frozenset[str]]:
    """``(done, missing)``: the steps ``folded`` (a query or a foul as
    :func:`~handbook.core.search.folding.fold` gives it) names as done and as missing. A step
    both done and missing (named twice) counts as missing only.

    "put the stick out but never said riichi" -> ``({"deposit"}, {"speak"})``."""
    done: set[str] = set()
    missing: set[str] = set()
    if any(h in folded for h in _HINTS):
        if "say" in folded or "mention" in folded:
            folded = _RULES_SAY.sub(" ", folded)
        _english(folded, done, missing)
        if not folded.isascii():
            _japanese(folded, done, missing)
    _romaji(folded, done, missing)  # gated by its own words
    return frozenset(done - missing), frozenset(missing)


def factor(query: tuple[frozenset[str], frozenset[str]], foul: tuple[frozenset[str], frozenset[str]],
           *, match: float, contradiction: float) -> float:
    """How much a row whose foul names the steps ``foul`` (``(done, missing)``) gains or loses
    for a query naming ``query``: times ``match`` when the foul lacks every step the query says
    was missing (a row lacking one of two missing steps is no better a match than the rest);
    times ``contradiction`` for each step the foul lacks that the query says was done, and each
    step the foul names as done that the query says was missing."""
    q_done, q_missing = query
    f_done, f_missing = foul
    out = 1.0
    if f_missing and q_missing <= f_missing:
        out *= match
    out *= contradiction ** (len(f_missing & q_done) + len(f_done & q_missing))
    return out
