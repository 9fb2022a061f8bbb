"""Text folding: the one form every field and every query is compared in (NFKC, case, macrons,
katakana as hiragana), romaji keys, English stems and lemmas, stopwords, negation and the synonym
classes judges use at the table. See :mod:`handbook.core.search` for the whole picture."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections import Counter

import snowballstemmer

from handbook.core.search.romaji import GROUPS as ROMAJI_VERB_GROUPS

STOPWORDS = frozenset("""
a an the of to in on at for and or is are be by with from as it its this that what when how does do
if into then than but was were been being am has have had having did done doing got get gets getting
just also very really so same such there here he she him her his hers they them their theirs we us
our you your yours i me my mine one ones some any all another other who whom which while still even
again already can could would should will shall may might must let lets about because s t
ni wo ga ka wa mo ne yo de tte
kedo keredo dakedo nanoni noni shita shite shiteta shiteru suru desu deshita datta
""".split())  # the last lines: Japanese particles and the verb "to do" typed in romaji ("agari houki tte
# nani", "ato ni", "pon shita kedo")

# Words judges use for the same thing at the table; a query word also matches its group's other
# words, a little below its own spelling. Romaji verb forms join their English group (taoshita,
# iwanakatta, kitta: the same words in a sentence typed in romaji). Only what holds in every
# ruleset's language goes here.
SYNONYMS: tuple[tuple[str, ...], ...] = (
    ("show", "reveal", "expose", "flip", "display", "open",
     "taosu", "taoshita", "taoshi", "akete", "akeru", "mieta", "miechatta", "mieru", "miseta"),
    ("wrong", "incorrect", "invalid", "false", "mistaken", "bad", "error", "mistake"),
    ("early", "premature", "fast", "soon", "quick"),
    ("slow", "delay", "stall", "dawdle"),
    ("forget", "without", "missing", "omit", "skip", "never", "nashi", "wasure", "wasureta"),
    ("call", "claim", "declare", "announce", "say", "iu", "itta", "iwazu", "iwanai", "iwanakatta", "hassei"),
    ("take", "draw", "pick", "grab", "toru", "totta", "tori"),
    ("discard", "throw", "kiru", "kitta", "sute", "suteta", "dahai"),
    ("knock", "fall", "collapse", "drop", "topple", "spill"),
    ("phone", "mobile", "cellphone", "smartphone", "cell"),
    ("device", "electronic", "gadget", "smartwatch", "watch", "earphone", "headphone", "walkman"),
    ("stick", "deposit", "bet", "kyoutaku", "tenbou", "riichibou"),
    ("kan", "kong", "quad"), ("pon", "pung", "triplet"), ("chii", "chi", "chow", "sequence"),
    ("dealer", "east", "oya"),
    ("cheat", "cheating", "stack"),
    ("leave", "break", "toilet", "bathroom", "restroom", "smoke", "cigarette", "outside"),
    ("deal", "distribute", "distribution"),
    ("argue", "dispute", "disagree", "appeal", "protest", "fuman", "fufuku", "monku"),
    ("shout", "yell", "speak", "utter", "voice", "vocal"),
    ("sideways", "rotate", "horizontal", "tilt"),
    ("hide", "conceal", "hidden", "secret"),
    ("talk", "chat", "comment", "conversation", "chatter", "tell"),
    ("mix", "merge", "slide", "insert"),
    ("wipe", "sweep", "destroy", "scramble", "shuffle", "mess"),
    ("earbud", "earphone", "headphone", "headset"),
    # what players bring to the table (a foreign object there)
    ("bag", "handbag", "backpack", "rucksack", "purse", "wallet"),
    ("drink", "bottle", "cup", "coffee", "beverage", "beer"),
    ("wall", "mountain", "yama"),
    ("tenpai", "ready"), ("noten", "unready"),
    ("riichi", "reach"),
    ("furiten", "sacred"),
    ("tile", "hai"),
    # romaji words for the table's everyday actions and things (a query typed as a Japanese
    # sentence: "tehai wo taoshita", "riichi tte iwanakatta", "taku wo tataku")
    ("hand", "tehai"), ("table", "taku"), ("tap", "tataku", "bang"), ("silent", "damatte", "mugon"),
    ("priority", "precedence", "yuusen"), ("ruling", "saitei"), ("order", "junban"), ("place", "basho"),
    ("inaudible", "kikoenai"),
    # a verb and its noun where the English stemmer keeps them apart ("suspended" / "suspension")
    # (a word already in a group above goes there: a stem has one group)
    ("suspend", "suspension"), ("disqualify", "disqualification"), ("intervene", "intervention"),
    ("repeat", "repetition"), ("permit", "permission"), ("penalty", "penalize", "penalise"),
    ("sign", "signature"),
)

_MACRONS = str.maketrans({"ā": "aa", "ī": "ii", "ū": "uu", "ē": "ee", "ō": "ou", "â": "aa",
                          "î": "ii", "û": "uu", "ê": "ee", "ô": "ou"})
_M_BEFORE = re.compile(r"m(?=[bpm])")
ROMAJI_CHANGES = re.compile(r"[-'’]|m[bpm]|ou|oo|uu|aa|ii|ee")  # what romaji_key rewrites
WORD = re.compile(r"[0-9a-z]+(?:[-'’][0-9a-z]+)*")
CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u30fc\u3005]+")
# the content words of a Japanese sentence: runs of kanji (the stem of a verb or noun without its
# okurigana: 鳴いた -> 鳴, 倒して -> 倒) and runs of katakana (ロン, テンパイ); hiragana runs are
# particles and verb endings
JA_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3005]+|[\u30a1-\u30fa\u30fc]{2,}")
SECTION_REF = re.compile(r"^§?\s*([0-9]+(?:\.[0-9]+)*)\s*(?:\(\s*([0-9]+)\s*\))?$")

_stemmer = snowballstemmer.stemmer("english")


_KATA_TO_HIRA = {o: o - 0x60 for o in range(0x30A1, 0x30F7)}


@functools.lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """NFKC, case-folded, macrons written out, katakana as hiragana: the form every field and
    every query is compared in."""
    if text.isascii():
        return text.lower()
    text = unicodedata.normalize("NFKC", text).casefold()
    if _HAS_MACRON.search(text):
        text = text.translate(_MACRONS)
    if _HAS_KATAKANA.search(text):
        text = text.translate(_KATA_TO_HIRA)
    # drop remaining combining accents (é -> e) but keep kana voicing marks intact
    decomposed = unicodedata.normalize("NFD", text)
    if len(decomposed) != len(text):
        marks = _accent_marks()
        text = unicodedata.normalize("NFC", marks.sub("", decomposed) if marks.search(decomposed) else decomposed)
    return text


_HAS_MACRON = re.compile("[āīūēōâîûêô]")  # the keys of _MACRONS
_HAS_KATAKANA = re.compile("[\u30a1-\u30f6]")  # the keys of _KATA_TO_HIRA


@functools.lru_cache(maxsize=1)
def _accent_marks() -> re.Pattern:
    """Every combining mark below U+3000 (accents; not the kana voicing marks), as one class."""
    marks = [c for c in map(chr, range(0x3000)) if unicodedata.combining(c)]
    return re.compile("[" + "".join(re.escape(c) for c in marks) + "]")



# --- latin words ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def romaji_key(word: str) -> str:
    """The spelling-insensitive key of one folded latin word: long vowels collapsed, ``m`` before
    b/p/m as ``n``, hyphens and apostrophes dropped (``ryūkyoku``, ``ryuukyoku`` and ``ryukyoku``
    all give ``ryukyoku``; ``chombo`` gives ``chonbo``)."""
    if not ROMAJI_CHANGES.search(word):  # most English words: nothing below applies
        return word
    word = word.replace("-", "").replace("'", "").replace("’", "")
    word = _M_BEFORE.sub("n", word)
    prev = None
    while prev != word:
        prev = word
        word = word.replace("ou", "o").replace("oo", "o").replace("uu", "u").replace(
            "aa", "a").replace("ii", "i").replace("ee", "e")
    return word


@functools.lru_cache(maxsize=4096)
def words(text: str) -> tuple[str, ...]:
    """Folded latin words of ``text``; hyphenated words give their parts and the joined form
    (memoised: a query's words are read by its units and again by its name bonuses)."""
    out: list[str] = []
    for m in WORD.finditer(fold(text)):
        w = m.group(0)
        if "-" in w or "'" in w or "’" in w:
            parts = re.split(r"[-'’]", w)
            out.extend(p for p in parts if p)
            if "-" in w:
                out.append(w.replace("-", ""))
        else:
            out.append(w)
    return tuple(out)


# romaji verb endings -> the noun form the content's names use (tsumotta -> tsumo, agatta ->
# agari, naita -> naki, sarashita -> sarashi, yonda -> yomi, tsumorimashita -> tsumori): Japanese
# verbs typed in romaji ("agatta ato ni tsumotta"), tried longest ending first
_ROMAJI_VERB_ENDINGS = (
    ("mashita", ("",)), ("masen", ("",)), ("masu", ("",)),
    ("shita", ("shi",)), ("shite", ("shi",)), ("chatta", ("",)), ("chatte", ("",)),
    ("ttara", ("", "ri", "chi")), ("tteru", ("", "ri", "chi")),
    ("tta", ("", "ri", "chi")), ("tte", ("", "ri", "chi")),
    ("ita", ("ki", "gi")), ("ite", ("ki", "gi")), ("ida", ("gi",)), ("ide", ("gi",)),
    ("nda", ("mi", "bi", "ni")), ("nde", ("mi", "bi", "ni")),
    ("eta", ("e",)), ("ete", ("e",)),
)


@functools.lru_cache(maxsize=4096)
def romaji_bases(key: str) -> tuple[str, ...]:
    """The noun forms a romaji verb form may stand for (``tsumotta`` -> ``tsumo``, ``tsumori``,
    ``tsumochi``); empty for a word with no verb ending. The caller keeps those the index knows."""
    for ending, tails in _ROMAJI_VERB_ENDINGS:
        if key.endswith(ending) and len(key) - len(ending) >= 2:
            stem = key[: -len(ending)]
            return tuple(stem + t for t in tails if len(stem + t) >= 3)
    return ()


@functools.lru_cache(maxsize=8192)
def stem_of(key: str) -> str:
    """Snowball English stem of a key (numbers and mixed keys stay as they are); memoised, as the
    pure-Python stemmer costs ~30 µs a word."""
    return _stemmer.stemWord(key) if key.isalpha() else key


# the ways a name or an incident says something was not done, as one word for the name bonuses:
# "never said riichi" meets "did not say riichi" ("without" is left out: it names what is missing,
# "riichi without the deposit")
_NEGATION = {stem_of(romaji_key(w)): "not" for w in (
    "not", "no", "never", "didn", "don", "doesn", "wasn", "isn", "hasn", "haven", "cannot",
    "forgot", "forget", "forgetting", "forgotten", "missing", "omit", "omitted")}


@functools.lru_cache(maxsize=8192)
def stems(text: str) -> tuple[str, ...]:
    """The stemmed, spelling-insensitive keys of ``text``'s words, stopwords left out, the ways of
    saying "not" as ``not``."""
    out = (stem_of(romaji_key(w)) for w in words(text) if w not in STOPWORDS and "-" not in w)
    return tuple(_NEGATION.get(x, x) for x in out)




_lemmatizer_state: list = []  # [callable or None], filled on first use


def _lemmatizer():
    """simplemma's English lemmatiser, loaded on first use (its dictionary takes ~0.1 s to load);
    ``None`` where it cannot be loaded, and the Snowball stems carry the search alone."""
    if not _lemmatizer_state:
        try:
            import simplemma

            simplemma.lemmatize("took", lang="en")  # loads the English dictionary now
            _lemmatizer_state.append(functools.partial(simplemma.lemmatize, lang="en"))
        except Exception:  # noqa: BLE001 - no lemmatiser (a trimmed build): stems alone
            _lemmatizer_state.append(None)
    return _lemmatizer_state[0]


def warm_lemmatizer() -> bool:
    """Load the English lemmatiser now (the app does this after its first frame); True if it is there."""
    return _lemmatizer() is not None


@functools.lru_cache(maxsize=4096)
def known_english(word: str) -> bool:
    """Whether simplemma's English dictionary has ``word`` (an English word is no typo); False
    where simplemma is not installed."""
    if _lemmatizer() is None:
        return False
    import simplemma

    try:
        return simplemma.is_known(word, lang="en")
    except Exception:  # noqa: BLE001 - a lemmatiser failure must not break search
        return False


@functools.lru_cache(maxsize=4096)
def lemma(word: str) -> str:
    """The dictionary form of an English word (``took`` -> ``take``, ``drew`` -> ``draw``); the
    word itself where simplemma does not know it or is not installed."""
    lemmatize = _lemmatizer()
    if lemmatize is None or not word.isalpha():
        return word
    try:
        return lemmatize(word).lower()
    except Exception:  # noqa: BLE001 - a lemmatiser failure must not break search
        return word


SYNONYM_OF: dict[str, tuple[str, ...]] = {}
for _group in SYNONYMS:
    _stems_of_group = tuple(dict.fromkeys(_stemmer.stemWord(w) for w in _group))
    for _s in _stems_of_group:
        SYNONYM_OF[_s] = tuple(x for x in _stems_of_group if x != _s)

#: a romaji verb form's stem -> its English word's stem and that word's synonyms
#: (:mod:`handbook.core.search.romaji`); one way: the English word gains no romaji synonyms, and a
#: form :data:`SYNONYMS` has already keeps its group there
ROMAJI_VERB_OF: dict[str, tuple[str, ...]] = {}
for _english, *_romaji in ROMAJI_VERB_GROUPS:
    _home = _stemmer.stemWord(_english)
    for _f in _romaji:
        _s = _stemmer.stemWord(romaji_key(_f))
        if _s not in SYNONYM_OF and _s != _home:
            ROMAJI_VERB_OF.setdefault(_s, (_home, *SYNONYM_OF.get(_home, ())))


@functools.lru_cache(maxsize=1024)
def typed_keys(typed: tuple[str, ...]) -> frozenset[str]:
    """The spelling-insensitive keys of typed romaji names, each written as one word."""
    return frozenset(romaji_key(fold(t).replace(" ", "")) for t in typed)


@functools.lru_cache(maxsize=8192)
def key_counts(text: str) -> tuple[tuple[str, float], ...]:
    """The spelling-insensitive keys of ``text``'s words (stopwords left out), each with the
    weight factor of its count (``1 + 0.3 ln n``);
    memoised, as the fouls' names and aliases are indexed once for every table's rows."""
    counts: dict[str, int] = {}
    get = counts.get
    token_keys = _TOKEN_KEYS
    # each distinct token once, with its count (a key's first occurrence keeps its place)
    for token, n in Counter(WORD.findall(fold(text))).items():
        keys = token_keys.get(token)
        if keys is None:
            keys = token_keys[token] = _token_keys(token)
        for key in keys:
            counts[key] = get(key, 0) + n
    return tuple((key, _count_factor(n)) for key, n in counts.items())


_TOKEN_KEYS: dict[str, tuple[str, ...]] = {}  # a folded token -> its keys (see _token_keys)


def _token_keys(token: str) -> tuple[str, ...]:
    """The spelling-insensitive keys of one folded token of :data:`WORD` (a hyphenated token
    gives its parts and the joined form), stopwords left out."""
    parts = words(token) if ("-" in token or "'" in token or "’" in token) else (token,)
    return tuple(romaji_key(w) for w in parts if w not in STOPWORDS)


@functools.lru_cache(maxsize=256)
def _count_factor(n: int) -> float:
    """The weight factor of a word that comes ``n`` times in a field: ``1 + 0.3 ln n``."""
    return 1.0 + 0.3 * math.log(n)





def deletions_of(word: str, depth: int) -> frozenset[str]:
    """``word`` and every string made by deleting ``depth`` or fewer of its characters."""
    out = {word}
    frontier = out
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        out = out | frontier
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def damerau_levenshtein():
    """RapidFuzz's Damerau-Levenshtein distance, imported by the first typo (~10 ms of a start
    that may never need it)."""
    from rapidfuzz.distance import DamerauLevenshtein

    return DamerauLevenshtein.distance


def contains_run(seq: tuple[str, ...], sub: tuple[str, ...]) -> bool:
    n = len(sub)
    return any(seq[i:i + n] == sub for i in range(len(seq) - n + 1))


_REF_IN = re.compile(r"([0-9]+(?:\.[0-9]+)+)\s*(?:\(\s*([0-9]+)\s*\))?")


def ref_keys(ref: str) -> list[tuple[str, str | None]]:
    """The (section number, item) pairs a source reference names: ``"12.3.1 (2)"`` ->
    ``[("12.3.1", "2")]``, ``"3.3.8, 3.4.7"`` -> ``[("3.3.8", None), ("3.4.7", None)]``,
    ``"Regular penalty 12.3.6 (4)"`` -> ``[("12.3.6", "4")]``; a bare section number ("2.2")
    gives itself."""
    out = [(m.group(1), m.group(2)) for m in _REF_IN.finditer(ref)]
    if not out and ref.strip().isdigit():
        out.append((ref.strip(), None))
    return out

