"""Search over rule sections, penalty rows and glossary terms, in the words a judge types.

Normalisation makes the spellings people type meet the spellings the sources use:

* Unicode NFKC (full- and half-width forms fold together), case folding, katakana to hiragana;
* romaji: macrons to doubled vowels (ū -> uu), then long vowels collapsed (ryuukyoku, ryūkyoku and
  ryukyoku meet; taahai/tahai, shouhai/shohai), ``m`` before b/p/m as ``n`` (chombo/chonbo,
  tempai/tenpai), hyphenated and spaced words also indexed joined (kui-kae/kuikae);
* Japanese: small kana as full-size, long-vowel marks and doubled vowels collapsed (ショーハイ,
  ショウハイ and しょうはい meet; チヨンボ and チョンボ), ヅ as ツ, and the kanji spellings judges
  mix (喰/食, 自摸/ツモ, 和了/アガリ);
* English: Snowball stems (revealed/revealing/reveal) and, for the query, the dictionary lemma
  from simplemma (took -> take, drew -> draw, fell -> fall); filler words are dropped;
* a typo in a word of five or more letters is tolerated (RapidFuzz, Damerau-Levenshtein distance 1,
  2 for words of nine or more letters); the last word of a query also matches as a prefix, so
  results come as the user types;
* Japanese is matched as a substring of the Japanese fields, and a Japanese name found inside a
  longer query (携帯が鳴った contains 携帯) counts as a match.

Penalty rows are indexed with their foul's names (``content/fouls.toml``: English, Japanese,
kana, romaji and the ways people describe the incident) and the romaji of the glossary terms
naming the foul, so every ruleset's row is reached in any of those words, including the WRC
tables, whose source has no Japanese. Sections are indexed with their ``search`` words (the
handbook's, never shown: the glossary terms they name, Japanese, kana, romaji, descriptions) and,
more weakly, the Japanese, kana and romaji of every glossary term that cites them, so EMA's
sections, which have no Japanese subtitle, are reached in Japanese and romaji too.

A Japanese sentence is also matched by its content words (kanji and katakana runs; a run no field
holds, 和了放棄中, by its longest part some field holds); romaji particles (ni, wo, ga, ka…) are
filler; words read as one romaji name fall back to the words one by one where the chosen ruleset
lacks the name.

Ranking: every field has a weight (a title or term beats an alias, which beats a definition,
which beats body text); each query word counts by how rare it is in the corpus (idf), and a
document's score is scaled by the share of the query it matches, so an entry matching more of the
query ranks first and a filler or unknown word never empties the list. With a ruleset chosen,
only that ruleset's entries (and terms) are scored, so the decision is made per ruleset. A query
found as a phrase in a title, or equal to a name, gets a bonus; a term or a penalty row matched by
name lifts the sections it cites; ``2.4``, ``§3.4.6`` and WRC's ``12.3.1 (2)`` go straight to the
section or the rows that carry that reference (after a ruleset's name, "EMA 3.3.2", that ruleset's
first). "never", "didn't", "forgot" and "not" count as one word for the name bonuses.
"""

from __future__ import annotations

import bisect
import contextlib
import gc
import functools
import math
import re
import threading
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import snowballstemmer

try:  # kana -> romaji for the readings (pure Python); without it romaji come from content alone
    from jaconv import kana2alphabet as _kana2alphabet
except ImportError:  # pragma: no cover - a trimmed build
    _kana2alphabet = None

from handbook.core.model import Hit

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library

# Filler words: dropped from queries and from the index. Words that tell fouls apart (before,
# after, out, during, without, not, no, too) are kept.
STOPWORDS = frozenset("""
a an the of to in on at for and or is are be by with from as it its this that what when how does do
if into then than but was were been being am has have had having did done doing got get gets getting
just also very really so same such there here he she him her his hers they them their theirs we us
our you your yours i me my mine one ones some any all another other who whom which while still even
again already can could would should will shall may might must let lets about because s t
ni wo ga ka wa mo ne yo de tte
""".split())  # the last line: Japanese particles typed in romaji ("agari houki tte nani", "ato ni")

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
    ("leave", "break", "toilet", "bathroom", "restroom"),
    ("argue", "dispute", "disagree", "appeal", "protest", "fuman", "fufuku", "monku"),
    ("shout", "yell", "speak", "utter", "voice", "vocal"),
    ("sideways", "rotate", "horizontal", "tilt"),
    ("hide", "conceal", "hidden", "secret"),
    ("talk", "chat", "comment", "conversation", "chatter", "tell"),
    ("mix", "merge", "slide", "insert"),
    ("wipe", "sweep", "destroy", "scramble", "shuffle", "mess"),
    ("earbud", "earphone", "headphone", "headset"),
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
)

_MACRONS = str.maketrans({"ā": "aa", "ī": "ii", "ū": "uu", "ē": "ee", "ō": "ou", "â": "aa",
                          "î": "ii", "û": "uu", "ê": "ee", "ô": "ou"})
_M_BEFORE = re.compile(r"m(?=[bpm])")
_ROMAJI_CHANGES = re.compile(r"[-'’]|m[bpm]|ou|oo|uu|aa|ii|ee")  # what romaji_key rewrites
_WORD = re.compile(r"[0-9a-z]+(?:[-'’][0-9a-z]+)*")
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u30fc\u3005]+")
# the content words of a Japanese sentence: runs of kanji (the stem of a verb or noun without its
# okurigana: 鳴いた -> 鳴, 倒して -> 倒) and runs of katakana (ロン, テンパイ); hiragana runs are
# particles and verb endings
_JA_WORD = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3005]+|[\u30a1-\u30fa\u30fc]{2,}")
_REF = re.compile(r"^§?\s*([0-9]+(?:\.[0-9]+)*)\s*(?:\(\s*([0-9]+)\s*\))?$")

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


# --- Japanese ------------------------------------------------------------------------------------

_SMALL_KANA = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖづ", "あいうえおつやゆよわかけつ")
# the kanji spellings judges mix, written the one way (after katakana became hiragana)
_JA_VARIANTS = (("喰", "食"), ("自摸", "つも"), ("和了", "あがり"), ("錯和", "ちよんぼ"))
_VOWEL = {}
for _vowel, _row in zip("aiueo", ("あかがさざただなはばぱまやらわ", "いきぎしじちぢにひびぴみり",
                                 "うくぐすずつづぬふぶぷむゆる", "えけげせぜてでねへべぺめれ",
                                 "おこごそぞとどのほぼぽもよろを"), strict=True):
    for _k in _row:
        _VOWEL[_k] = _vowel
_LONG = {"a": "あ", "i": "い", "u": "う", "e": "えい", "o": "おう"}  # a vowel kana that lengthens
# a vowel kana after a kana (or kanji): the only place where the long-vowel loop can drop one
_LONG_VOWEL_AT = re.compile(r"[\u3041-\u30ff\u3400-\u9fff][あいうえお]")


@functools.lru_cache(maxsize=4096)
def kana_fold(text: str) -> str:
    """A folded Japanese string (see :func:`fold`) in its spelling-insensitive form: small kana
    full-size, ー and doubled vowels dropped (しょうはい, ショーハイ -> しよはい), ヅ as ツ, and
    喰/食, 自摸/ツモ, 和了/アガリ, 錯和/チョンボ written one way."""
    if len(text) > 64:  # a long field: only its Japanese runs change (the rest is copied)
        return _CJK.sub(_kana_fold_run, text)
    return _kana_fold(text)


def _kana_fold_run(m: re.Match) -> str:
    return _kana_fold(m.group(0))


def _kana_fold(text: str) -> str:
    for a, b in _JA_VARIANTS:
        if a in text:
            text = text.replace(a, b)
    text = text.translate(_SMALL_KANA).replace("ー", "")
    if not _LONG_VOWEL_AT.search(text):
        return text
    out: list[str] = []
    for c in text:
        if out and c in "あいうえお" and c in _LONG.get(_VOWEL.get(out[-1], ""), ""):
            continue
        out.append(c)
    return "".join(out)


# --- latin words ---------------------------------------------------------------------------------


@functools.lru_cache(maxsize=8192)
def romaji_key(word: str) -> str:
    """The spelling-insensitive key of one folded latin word: long vowels collapsed, ``m`` before
    b/p/m as ``n``, hyphens and apostrophes dropped (``ryūkyoku``, ``ryuukyoku`` and ``ryukyoku``
    all give ``ryukyoku``; ``chombo`` gives ``chonbo``)."""
    if not _ROMAJI_CHANGES.search(word):  # most English words: nothing below applies
        return word
    word = word.replace("-", "").replace("'", "").replace("’", "")
    word = _M_BEFORE.sub("n", word)
    prev = None
    while prev != word:
        prev = word
        word = word.replace("ou", "o").replace("oo", "o").replace("uu", "u").replace(
            "aa", "a").replace("ii", "i").replace("ee", "e")
    return word


def words(text: str) -> list[str]:
    """Folded latin words of ``text``; hyphenated words give their parts and the joined form."""
    out: list[str] = []
    for m in _WORD.finditer(fold(text)):
        w = m.group(0)
        if "-" in w or "'" in w or "’" in w:
            parts = re.split(r"[-'’]", w)
            out.extend(p for p in parts if p)
            if "-" in w:
                out.append(w.replace("-", ""))
        else:
            out.append(w)
    return out


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
def _stem(key: str) -> str:
    """Snowball English stem of a key (numbers and mixed keys stay as they are); memoised, as the
    pure-Python stemmer costs ~30 µs a word."""
    return _stemmer.stemWord(key) if key.isalpha() else key


# the ways a name or an incident says something was not done, as one word for the name bonuses:
# "never said riichi" meets "did not say riichi" ("without" is left out: it names what is missing,
# "riichi without the deposit")
_NEGATION = {_stem(romaji_key(w)): "not" for w in (
    "not", "no", "never", "didn", "don", "doesn", "wasn", "isn", "hasn", "haven", "cannot",
    "forgot", "forget", "forgetting", "forgotten", "missing", "omit", "omitted")}


@functools.lru_cache(maxsize=8192)
def stems(text: str) -> tuple[str, ...]:
    """The stemmed, spelling-insensitive keys of ``text``'s words, stopwords left out, the ways of
    saying "not" as ``not``."""
    out = (_stem(romaji_key(w)) for w in words(text) if w not in STOPWORDS and "-" not in w)
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


_SYNONYM_OF: dict[str, tuple[str, ...]] = {}
for _group in SYNONYMS:
    _stems_of_group = tuple(dict.fromkeys(_stemmer.stemWord(w) for w in _group))
    for _s in _stems_of_group:
        _SYNONYM_OF[_s] = tuple(x for x in _stems_of_group if x != _s)


@functools.lru_cache(maxsize=1024)
def _typed_keys(typed: tuple[str, ...]) -> frozenset[str]:
    """The spelling-insensitive keys of typed romaji names, each written as one word."""
    return frozenset(romaji_key(fold(t).replace(" ", "")) for t in typed)


@functools.lru_cache(maxsize=8192)
def _key_counts(text: str) -> tuple[tuple[str, float], ...]:
    """The spelling-insensitive keys of ``text``'s words (stopwords left out), each with the
    weight factor of its count (``1 + 0.3 ln n``);
    memoised, as the fouls' names and aliases are indexed once for every table's rows."""
    counts: dict[str, int] = {}
    get = counts.get
    token_keys = _TOKEN_KEYS
    # each distinct token once, with its count (a key's first occurrence keeps its place)
    for token, n in Counter(_WORD.findall(fold(text))).items():
        keys = token_keys.get(token)
        if keys is None:
            keys = token_keys[token] = _token_keys(token)
        for key in keys:
            counts[key] = get(key, 0) + n
    return tuple((key, _count_factor(n)) for key, n in counts.items())


_TOKEN_KEYS: dict[str, tuple[str, ...]] = {}  # a folded token -> its keys (see _token_keys)


def _token_keys(token: str) -> tuple[str, ...]:
    """The spelling-insensitive keys of one folded token of :data:`_WORD` (a hyphenated token
    gives its parts and the joined form), stopwords left out."""
    parts = words(token) if ("-" in token or "'" in token or "’" in token) else (token,)
    return tuple(romaji_key(w) for w in parts if w not in STOPWORDS)


@functools.lru_cache(maxsize=256)
def _count_factor(n: int) -> float:
    """The weight factor of a word that comes ``n`` times in a field: ``1 + 0.3 ln n``."""
    return 1.0 + 0.3 * math.log(n)


@functools.lru_cache(maxsize=8192)
def _ja_parts(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """A Japanese field's folded form, its character pairs, and its name parts (split at ・ and /)."""
    folded = kana_fold(fold(text))
    grams = tuple(dict.fromkeys(g for run in _CJK.findall(folded) for g in _bigrams(run)))
    parts = tuple(p for p in re.split(r"[・/、()（） ]+", folded) if len(p) >= 2 and not p.isascii())
    return folded, grams, parts


_KANA_ONLY = re.compile(r"^[\u3041-\u3096\u30fc\s]+$")


@functools.lru_cache(maxsize=4096)
def romaji_of(japanese: str) -> str | None:
    """The romaji of a Japanese name written in kana (``じょうほうでんたつ`` -> ``jouhoudentatsu``,
    ``ちゅうざ`` -> ``chuuza``), through jaconv; ``None`` for kanji or without jaconv."""
    hira = fold(japanese)
    if _kana2alphabet is None or not _KANA_ONLY.match(hira):
        return None
    return _kana2alphabet(hira).replace("-", "").replace(" ", "")


_NO_DOCS: dict[int, float] = {}  # a unit matching nothing (shared: never changed)
_LONGEST_NAME = 24  # characters: longer Japanese names are matched as substrings of the fields only


def _bigrams(run: str) -> list[str]:
    """The overlapping character pairs of a Japanese run (one character gives itself)."""
    return [run[i:i + 2] for i in range(len(run) - 1)] if len(run) > 1 else [run]


@functools.lru_cache(maxsize=4096)
def _forms(*texts: str) -> tuple[str, ...]:
    """The folded strings a query must equal for an exact match, and their spelling-insensitive keys."""
    out: list[str] = []
    for t in texts:
        out += _forms_of(t)
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=8192)
def _forms_of(text: str) -> tuple[str, ...]:
    """:func:`_forms` of one text (a foul's names come again in every table's rows)."""
    f = fold(text)
    out = [f, " ".join(romaji_key(w) for w in f.split())]
    if not f.isascii():
        out.append(kana_fold(f))
    return tuple(out)


def _deletions(word: str, depth: int) -> frozenset[str]:
    """``word`` and every string made by deleting ``depth`` or fewer of its characters."""
    out = {word}
    frontier = out
    for _ in range(depth):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        out = out | frontier
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def _damerau_levenshtein():
    """RapidFuzz's Damerau-Levenshtein distance, imported by the first typo (~10 ms of a start
    that may never need it)."""
    from rapidfuzz.distance import DamerauLevenshtein

    return DamerauLevenshtein.distance


def _contains(seq: tuple[str, ...], sub: tuple[str, ...]) -> bool:
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


def _term_japanese(t) -> tuple[str, ...]:
    """A glossary term's Japanese spellings and kana readings (``喰い替え/食い替え``: each)."""
    return (*(t.japanese or "").split("/"), *(t.reading or "").split("/"))


@dataclass(slots=True)
class _Doc:
    hit: Hit
    ruleset: str | None
    titles: tuple[str, ...]        # folded strings for phrase bonuses
    title_stems: tuple[tuple[str, ...], ...]  # stemmed keys of the title words, in order
    exact: tuple[str, ...]         # folded strings whose equality with the query is a strong match
    listed: bool                   # shown in unfiltered search (False for a borrowed table)
    foul: str | None = None        # a penalty row's foul id
    cites: tuple[int, ...] = ()    # a term's or row's sections (doc ids): a match by name lifts them
    lifts: tuple[int, ...] = ()    # a term's fouls' rows (doc ids): a match by name lifts them too
    editions: bool = False         # a ruleset's Editions page: found only by :meth:`SearchIndex.editions`
    exact_set: frozenset[str] = frozenset()  # ``exact`` as a set
    stem_set: frozenset[str] = frozenset()   # every stem of ``title_stems``
    pairs: frozenset[tuple[str, str]] = frozenset()  # adjacent stems of ``title_stems``

    def __post_init__(self) -> None:
        self.exact_set = frozenset(self.exact)
        self.stem_set = frozenset(w for t in self.title_stems for w in t)
        self.pairs = frozenset(p for t in self.title_stems for p in zip(t, t[1:], strict=False))

    def has_phrase(self, qstems: tuple[str, ...]) -> bool:
        """Whether one title holds ``qstems`` in a row (all of them among its stems, see
        ``stem_set``): one or two stems are looked up, longer runs checked title by title."""
        n = len(qstems)
        if n == 1:
            return qstems[0] in self.stem_set
        if n == 2:
            return qstems in self.pairs
        pairs = self.pairs
        if not all(p in pairs for p in zip(qstems, qstems[1:], strict=False)):
            return False
        return any(_contains(t, qstems) for t in self.title_stems)


TERM_LIFT = 0.3   # share of a matching term's or row's score given to each section it cites
ROW_LIFT = 0.15   # share of a matching term's score given to the rows of the fouls naming it
LIFT_LEAST = 0.5  # share of LIFT_STRENGTH below which a match lifts nothing (a passing word)
LIFT_STRENGTH = 5.0  # the least average field weight of a match that lifts (a name, not a passing word)
EXACT_BONUS, PHRASE_BONUS, TITLE_SHARE_BONUS, PAIR_BONUS = 40.0, 12.0, 8.0, 6.0
BONUS_POOL = 120  # how many of the best-scored documents are weighed for the name bonuses
# field weights
W_TITLE, W_TERM, W_ALIAS, W_CATEGORY, W_PENALTY, W_DEF, W_TEXT = 10.0, 12.0, 9.0, 1.5, 2.0, 3.0, 1.0
W_FOUL_NAME, W_FOUL_ALIAS = 9.0, 6.0
W_LINKED = 3.0  # a glossary term's Japanese and romaji in a section it cites (divided by sqrt of its sections)
COVERED_SHARE = 0.75  # share of a foul's names given to what covers it in a ruleset without its rows
W_FOUL_TERM = 5.0  # a glossary term's names in the rows of a foul it names (divided by sqrt of its fouls)
W_SEARCH_NAME, W_SEARCH_ALIAS = 6.0, 4.5  # a section's search words: Japanese/romaji names, descriptions
QUESTION_RULE_BOOST = 1.5
_HOW_MANY = re.compile(r"\bhow (many|much)\b")
JA_SENTENCE = 5  # characters: a Japanese query this long is also matched word by word
MIX_SHARE = 0.9  # see SearchIndex._mix_kinds
_QUESTION = re.compile(r"^(can|could|what|who|whom|how|when|is|are|does|do|should|which|why|may)\b|\?$|"
                       r"とは$|(ですか|ますか|か)[?？]?$|(どう|いつ|誰|だれ|なに|何|意味)|"
                       r"\bmean(s|ing)?\b|\bdefin(e|ition)\b|\bexplain|\b(nani|dou|itsu|dare)\b|"
                       r"(,|\band)\s+(can|could|do|does|is|are|who|what|how|should)\s+(i|you|he|she|they|we|it|the|a)\b")


@contextlib.contextmanager
def paused_gc():
    """Pause Python's cyclic garbage collector while the content is read and indexed: tens of
    thousands of small acyclic objects (dicts, tuples, strings) would otherwise set off ~50
    collections that find nothing to free (~8 ms of a start). Restored after; a collector that
    was already off stays off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


UNIT_MEMO = 4096  # query words (and Japanese segments) whose matches an index keeps


def _memoised(match):
    """``match`` (a query word's or segment's ``{doc: score}``, which callers only read) kept
    for the last :data:`UNIT_MEMO` distinct arguments."""
    memo: dict[tuple, dict[int, float]] = {}

    def memoised(*args):
        found = memo.get(args)
        if found is None:
            if len(memo) >= UNIT_MEMO:
                try:
                    del memo[next(iter(memo))]  # the oldest
                except (KeyError, RuntimeError, StopIteration):  # another search's thread evicted it
                    pass
            found = memo[args] = match(*args)
        return found

    memoised.__doc__ = match.__doc__
    memoised.cache_clear = memo.clear  # type: ignore[attr-defined]  (as functools' caches)
    return memoised


class SearchIndex:
    """An inverted index over a :class:`~handbook.core.model.Library`, built once at load time."""

    def __init__(self, library: "Library") -> None:
        self.docs: list[_Doc] = []
        self._postings: dict[str, dict[int, float]] = defaultdict(dict)
        self._sections: dict[str, list[int]] = defaultdict(list)   # section ref -> rule docs
        self._row_refs: dict[tuple[str, str | None], list[int]] = defaultdict(list)
        # the Japanese fields, their names and character pairs (_ja_fields, _ja_name_index,
        # _field_grams, _ja_grams) are built by the first query with Japanese in it: see _build_ja
        self._ja_pending: list[tuple[int, str, float, bool]] = []
        self._foul_templates: dict[str, dict[str, float]] = {}  # foul id -> postings of its names
        self._row_templates: dict[tuple, dict[str, float]] = {}  # a row's text -> its postings
        self._rows_of: dict[tuple[str, str], list[int]] = defaultdict(list)  # (ruleset, foul) -> docs
        self._romaji: set[str] = set()  # romaji names written as one word (kuikae, ryukyoku)
        with paused_gc():
            self._build(library)
        # the building's scratch tables
        del self._foul_templates, self._row_templates, self._glossary, self._fouls_of_term
        self._keys = sorted(self._postings)
        self._fuzzy_keys = [k for k in self._keys if len(k) >= 4 and k.isalpha()]
        self._stems: dict[str, list[str]] = defaultdict(list)
        for k in self._keys:
            self._stems[_stem(k)].append(k)
        self._idf_n = len(self.docs)
        self._kind_rank = [_KIND_ORDER[doc.hit.kind] for doc in self.docs]  # ties: terms, rules, rows
        # the result a document counts for: its own, or its foul's in its ruleset (one per row page)
        self._groups = [(doc.hit.kind, doc.ruleset, doc.hit.ref) if doc.hit.kind == "penalty" else (d,)
                        for d, doc in enumerate(self.docs)]
        # words that may stand before a reference ("EMA 3.3.2", "section 2.4"): rulesets' names
        self._ref_words: dict[str, frozenset[str]] = defaultdict(frozenset)
        for rs in library.rulesets.values():
            for w in (*words(rs.id), *words(getattr(rs, "short", "") or "")):
                self._ref_words[w] = self._ref_words[w] | {rs.id}
        for w in ("section", "sec", "rule", "rules", "article", "art", "no"):
            self._ref_words[w] = frozenset()
        self._ref_words = dict(self._ref_words)
        self._ready()

    #: what :meth:`state` keeps: everything the building made (the rest is per process or built on use)
    _STATE = ("docs", "_postings", "_sections", "_row_refs", "_ja_pending", "_rows_of", "_romaji", "_keys",
              "_fuzzy_keys", "_stems", "_idf_n", "_kind_rank", "_groups", "_ref_words")
    _DOC_FIELDS = ("ruleset", "titles", "title_stems", "exact", "listed", "foul", "cites", "lifts", "editions")
    _HIT_FIELDS = ("kind", "ruleset", "ref", "title", "subtitle", "score", "row")

    def _ready(self) -> None:
        """The parts of an index that are per process or built on first use (see the methods
        named in the comments)."""
        self._ja_lock = threading.Lock()
        self._deletion_tables: dict[tuple[int, int], dict[str, list[str]]] = {}  # see _typo_matches
        self._scopes: dict[tuple[str | None, bool], frozenset[int]] = {}
        self._scoped: dict[tuple[str | None, bool], dict[str, dict[int, float]]] = {}  # see _scoped_postings
        self._titles_in_scope: dict[tuple[str | None, bool], dict[str, list[tuple[int, int]]]] = {}  # see _scoped_titles
        self._ja_char_fields: dict[str, dict[int, float]] | None = None
        # a query's words come again and again (typed letter by letter, a query refined): the docs
        # each word or Japanese segment matches are kept, typo matching included
        self._latin_unit = _memoised(SearchIndex._latin_unit.__get__(self))
        self._japanese_unit = _memoised(SearchIndex._japanese_unit.__get__(self))

    def state(self) -> dict:
        """What the building made, as plain dicts, lists, tuples, sets, strings and numbers (for
        :mod:`marshal`; see :mod:`handbook.core.index_cache`); :meth:`from_state` makes the same
        index from it. Raises ``RuntimeError`` once a Japanese query has built the Japanese
        tables (the fields they are built from are not kept)."""
        if "_ja_grams" in vars(self):
            raise RuntimeError("the state of an index is taken before its first Japanese query")
        out = {name: getattr(self, name) for name in self._STATE}
        out["docs"] = [(tuple(getattr(doc.hit, f) for f in self._HIT_FIELDS),
                        *(getattr(doc, f) for f in self._DOC_FIELDS)) for doc in self.docs]
        for name in ("_postings", "_sections", "_row_refs", "_rows_of", "_stems"):
            out[name] = dict(out[name])
        return out

    @classmethod
    def from_state(cls, state: dict) -> "SearchIndex":
        """The index :meth:`state` was taken from. Raises ``KeyError``, ``TypeError`` or
        ``ValueError`` on a state that is not one."""
        self = cls.__new__(cls)
        with paused_gc():
            self.docs = [_Doc(Hit(*hit), *rest) for hit, *rest in state["docs"]]
            self._postings = defaultdict(dict, state["_postings"])
            for name in ("_sections", "_row_refs", "_rows_of", "_stems"):
                setattr(self, name, defaultdict(list, state[name]))
            for name in ("_ja_pending", "_romaji", "_keys", "_fuzzy_keys", "_idf_n", "_kind_rank", "_groups",
                         "_ref_words"):
                setattr(self, name, state[name])
        if len(self._kind_rank) != len(self.docs) or len(self._groups) != len(self.docs):
            raise ValueError("the state's documents and their ranks do not match")
        self._ready()
        return self

    def clear_memo(self) -> None:
        """Forget the matches kept for recent query words (the next search matches every word
        from scratch, as the first search of a word does)."""
        self._latin_unit.cache_clear()
        self._japanese_unit.cache_clear()

    # --- building --------------------------------------------------------------------------

    def _add(self, doc_id: int, text: str | None, weight: float) -> None:
        if not text:
            return
        post = self._postings
        for key, factor in _key_counts(text):
            score = weight * factor
            docs = post[key]
            cur = docs.get(doc_id)
            docs[doc_id] = score if cur is None else max(cur, score) + min(cur, score) * 0.2

    def _foul_template(self, foul) -> dict[str, float]:
        """A foul's names indexed into a scratch document: ``{key: score}`` to copy into each row."""
        postings, self._postings = self._postings, defaultdict(dict)
        try:
            self._add(0, foul.name, W_FOUL_NAME)
            self._add_typed_romaji(0, foul.romaji)
            for x in foul.aliases:
                self._add(0, x, W_FOUL_ALIAS)
            for x in (*foul.japanese, *foul.reading):
                self._add_romaji(0, x, foul.romaji)
            own = {key: docs[0] for key, docs in self._postings.items()}
            # the glossary terms naming the foul ("riichi tegiri" -> discarding from the hand in
            # riichi): their romaji names the foul's own do not have, each as one word, less for a
            # term naming many fouls
            self._postings = defaultdict(dict)
            for tid in foul.terms:
                t = self._glossary.get(tid)
                if t is not None:
                    w = W_FOUL_TERM / math.sqrt(self._fouls_of_term[tid])
                    for x in t.romaji:
                        self._add(0, x.replace("-", "").replace(" ", ""), w)
                    for x in _term_japanese(t):
                        if x:
                            self._add_romaji_w(0, x, t.romaji, w)
            for key, docs in self._postings.items():
                own.setdefault(key, docs[0])
            return own
        finally:
            self._postings = postings

    def _foul_names(self, foul) -> dict[str, float]:
        """:meth:`_foul_template` of ``foul``, made once: the foul's names are the same in every
        table's rows and in whatever covers it (``covered_by``)."""
        names = self._foul_templates.get(foul.id)
        if names is None:
            names = self._foul_templates[foul.id] = self._foul_template(foul)
        return names

    def _row_template(self, r, foul) -> dict[str, float]:
        """A penalty row's words and its foul's names indexed into a scratch document:
        ``{key: score}`` to copy into every row with the same text."""
        sig = (r.foul, r.id, r.penalty, r.category, r.note, getattr(r, "condition", None))
        template = self._row_templates.get(sig)
        if template is not None:
            return template
        names = self._foul_names(foul) if foul else None
        postings, self._postings = self._postings, defaultdict(dict)
        try:
            self._add(0, r.foul, W_TITLE)
            self._add(0, r.id.replace("-", " "), W_ALIAS * 0.5)
            self._add(0, r.penalty, W_PENALTY)
            self._add(0, r.category, W_CATEGORY)
            self._add(0, r.note, W_TEXT)
            self._add(0, getattr(r, "condition", None), W_TEXT)
            if names is not None:
                self._copy_postings(0, names)
            template = self._row_templates[sig] = {key: docs[0] for key, docs in self._postings.items()}
        finally:
            self._postings = postings
        return template

    def _copy_postings(self, doc_id: int, template: dict[str, float], *, new: bool = False) -> None:
        """Add ``template``'s postings to ``doc_id`` (``new``: a document with no postings yet)."""
        post = self._postings
        if new:
            for key, score in template.items():
                post[key][doc_id] = score
            return
        for key, score in template.items():
            docs = post[key]
            cur = docs.get(doc_id)
            docs[doc_id] = score if cur is None else max(cur, score) + min(cur, score) * 0.2

    def _add_typed_romaji(self, doc_id: int, spellings: tuple[str, ...]) -> None:
        """The romaji spellings people type for a name, as words and written as one word."""
        for x in spellings:
            self._romaji.add(romaji_key(fold(x).replace(" ", "").replace("-", "")))
            self._add(doc_id, x, W_TERM)
            self._add(doc_id, x.replace(" ", ""), W_TERM)

    def _add_romaji(self, doc_id: int, kana: str, typed: tuple[str, ...] = ()) -> None:
        """The romaji of a kana name (see :func:`romaji_of`), indexed like the typed ones; a name
        joined by a particle (てんぱいせんげんのへんこう) also gives its parts (henkou)."""
        romaji = self._add_romaji_w(doc_id, kana, typed, W_TERM)
        if not romaji:
            return
        self._romaji.add(romaji_key(romaji))
        parts = [romaji_of(p) for p in re.split(r"[のをがに]", fold(kana)) if len(p) >= 2]
        if len(parts) > 1:
            self._add(doc_id, " ".join(p for p in parts if p), W_ALIAS)

    def _add_romaji_w(self, doc_id: int, kana: str, typed: tuple[str, ...], weight: float) -> str | None:
        """The romaji of a kana name at ``weight``, where no typed spelling gives it (returned
        when added)."""
        romaji = romaji_of(kana)
        if not romaji or romaji_key(romaji) in _typed_keys(typed):
            return None
        self._add(doc_id, romaji, weight)
        return romaji

    def _add_ja(self, doc_id: int, text: str | None, weight: float, *, name: bool = False) -> None:
        """A Japanese-bearing field: matched as a substring; a ``name`` (split at ・ and /) is also
        looked for inside longer queries."""
        if not text or text.isascii():
            return
        self._ja_pending.append((doc_id, text, weight, name))

    _JA_TABLES = frozenset({"_ja_fields", "_ja_name_index", "_field_grams", "_ja_grams", "_ja_pair_units"})
    _NAME_TABLES = frozenset({"_exact_docs", "_pair_docs", "_title_doc", "_title_len"})

    def __getattr__(self, name: str):
        # only called for an attribute not set yet: the Japanese tables before the first
        # Japanese query (an English-only session never builds them), the names' tables before
        # the first search
        if name in SearchIndex._JA_TABLES:
            self._build_ja()
            return self.__dict__[name]
        if name in SearchIndex._NAME_TABLES:
            self._build_names()
            return self.__dict__[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _build_names(self) -> None:
        """The names' inverted tables for the name bonuses (~2 ms, once): each exact form and
        pair of adjacent title stems -> the documents that have it, in document order; every title
        numbered across the documents, with its document and its length (in stems)."""
        exact: dict[str, list[int]] = defaultdict(list)
        pair: dict[tuple[str, str], list[int]] = defaultdict(list)
        title_doc: list[int] = []
        title_len: list[int] = []
        for d, doc in enumerate(self.docs):
            for f in doc.exact_set:
                exact[f].append(d)
            for p in doc.pairs:
                pair[p].append(d)
            for t in doc.title_stems:
                title_doc.append(d)
                title_len.append(len(t))
        self._title_doc, self._title_len = title_doc, title_len
        self._pair_docs = dict(pair)
        self._exact_docs = dict(exact)  # last: _name_bonuses reads it first

    def _scoped_titles(self, ruleset: str | None, editions: bool) -> dict[str, list[tuple[int, int]]]:
        """Each title stem -> the titles (numbered as in ``_title_doc``) of the documents a search
        with ``ruleset`` may show that hold it, with how many times (built on first use, per ruleset)."""
        key = (ruleset, editions)
        table = self._titles_in_scope.get(key)
        if table is None:
            scope = self._scope(ruleset, editions)
            built: dict[str, list[tuple[int, int]]] = defaultdict(list)
            g = 0
            for d, doc in enumerate(self.docs):
                if d not in scope:
                    g += len(doc.title_stems)
                    continue
                for t in doc.title_stems:
                    for w in dict.fromkeys(t):
                        built[w].append((g, t.count(w)))
                    g += 1
            table = self._titles_in_scope[key] = dict(built)
        return table

    def _build_ja(self) -> None:
        """The Japanese tables from the fields :meth:`_add_ja` recorded (~15 ms, once)."""
        with self._ja_lock:
            if "_ja_grams" in self.__dict__:  # built meanwhile by another thread
                return
            fields: list[tuple[str, int, float]] = []  # kana-folded Japanese text, doc, weight
            names: dict[str, list[tuple[int, float]]] = defaultdict(list)  # name -> docs
            field_grams: dict[str, list[int]] = defaultdict(list)  # character pair -> field numbers
            grams: dict[str, dict[int, float]] = defaultdict(dict)  # kana-folded bigram -> docs
            # a two-character word -> the docs holding it, as _ja_containing gives them
            pair_units: dict[str, dict[int, float]] = defaultdict(dict)
            for doc_id, text, weight, name in self._ja_pending:
                folded, grams_of_text, parts = _ja_parts(text)
                field = len(fields)
                fields.append((folded, doc_id, weight))
                for g in grams_of_text:
                    field_grams[g].append(field)
                    docs = grams[g]
                    if weight > docs.get(doc_id, 0.0):
                        docs[doc_id] = weight
                    if len(g) == 2:
                        unit = pair_units[g]
                        s = weight * (2.0 if folded == g else 1.0)
                        if s > unit.get(doc_id, 0.0):
                            unit[doc_id] = s
                if name:
                    for part in parts:
                        names[part].append((doc_id, weight))
            self._ja_fields, self._ja_name_index, self._field_grams = fields, names, field_grams
            self._ja_pair_units = dict(pair_units)
            self._ja_grams = grams  # last: its presence says the tables are whole
            self._ja_pending = []

    def _new(self, doc: _Doc) -> int:
        self.docs.append(doc)
        return len(self.docs) - 1

    def _build(self, lib: "Library") -> None:
        fouls = getattr(lib, "fouls", {}) or {}
        self._glossary = {t.id: t for t in lib.glossary}
        self._fouls_of_term: dict[str, int] = defaultdict(int)
        for f in fouls.values():
            for tid in f.terms:
                self._fouls_of_term[tid] += 1
        for rs in lib.rulesets.values():
            self._index_sections(rs)
        rule_doc = {(d.ruleset, d.hit.ref): i for i, d in enumerate(self.docs) if d.hit.kind == "rule"}
        self._index_rows(lib, fouls, rule_doc)
        rows_of_foul: dict[str, list[int]] = defaultdict(list)
        for (_rs, fid), ds in self._rows_of.items():
            rows_of_foul[fid].extend(ds)
        for t in lib.glossary:
            self._index_term(t, fouls, rule_doc, rows_of_foul)
        self._index_section_words(lib, rule_doc)
        self._index_covered(fouls, rule_doc)

    def _index_covered(self, fouls, rule_doc: dict[tuple, int]) -> None:
        """A foul's names, at :data:`COVERED_SHARE`, in the rows and sections that cover it in a
        ruleset whose table has no row for it (``Foul.covered_by``: "wrong draw" reaches EMA's
        "Wrongly revealing or picking tiles" rows)."""
        for foul in fouls.values():
            if not foul.covered_by:
                continue
            scaled = {key: score * COVERED_SHARE for key, score in self._foul_names(foul).items()}
            for rid, target in foul.covered_by:
                kind, _, ref = target.partition(":")
                docs = self._rows_of.get((rid, ref), ()) if kind == "penalty" else (
                    (rule_doc[(rid, ref)],) if (rid, ref) in rule_doc else ())
                for d in docs:
                    self._copy_postings(d, scaled)
                    for x in (*foul.japanese, *foul.reading):
                        self._add_ja(d, x, W_ALIAS * COVERED_SHARE, name=True)

    def _index_section_words(self, lib: "Library", rule_doc: dict[tuple, int]) -> None:
        """The words people use for what a section answers: its ``search`` words (the handbook's,
        ``content/README.md``), the names of the glossary terms those name, and the Japanese, kana
        and romaji of every glossary term that cites the section (EMA's sections have no Japanese
        subtitle: ポン reaches EMA §3.3.4 through the term pon); a term citing many sections of one
        ruleset gives each of them less."""
        terms = {t.id: t for t in lib.glossary}
        for t in lib.glossary:
            per_ruleset: dict[str, int] = defaultdict(int)
            for rs, _ref in t.refs:
                per_ruleset[rs] += 1
            japanese = [x for x in _term_japanese(t) if x]
            own = {kana_fold(fold(x)) for x in japanese}
            for key in t.refs:
                d = rule_doc.get(key)
                if d is None:
                    continue
                w = W_LINKED / math.sqrt(per_ruleset[key[0]])
                subtitle = lib.rulesets[key[0]].section(key[1]).title_ja
                if subtitle and own & {kana_fold(fold(x)) for x in re.split(r"[・/]", subtitle)}:
                    w = W_TITLE  # the term is the section's own subtitle (AZRM §2.4 見せ牌): its reading too
                for x in japanese:
                    self._add_ja(d, x, w, name=True)
                    self._add_romaji_w(d, x, t.romaji, w)
                for x in t.romaji:  # as one word: "kui-kae" adds kuikae, not kui and kae again
                    self._add(d, x.replace("-", "").replace(" ", ""), w)
        self._index_search_words(lib, rule_doc, terms)

    def _index_search_words(self, lib: "Library", rule_doc: dict[tuple, int], terms: dict) -> None:
        """Each section's own ``search`` words, and the names of the glossary terms they name."""
        for rs in lib.rulesets.values():
            for sec in rs.sections:
                words_ = sec.search
                d = rule_doc.get((rs.id, sec.ref))
                if words_ is None or d is None:
                    continue
                for tid in words_.terms:
                    t = terms.get(tid)
                    if t is None:
                        continue
                    for x in (t.term, *t.aliases):
                        self._add(d, x, W_SEARCH_ALIAS)
                    for x in t.romaji:
                        self._add(d, x, W_SEARCH_NAME)
                    for x in _term_japanese(t):
                        self._add_ja(d, x, W_SEARCH_NAME, name=True)
                        self._add_romaji_w(d, x, t.romaji, W_SEARCH_NAME)
                for x in words_.aliases:
                    self._add(d, x, W_SEARCH_ALIAS)
                for x in words_.romaji:
                    self._add(d, x, W_SEARCH_NAME)
                    self._add(d, x.replace(" ", ""), W_SEARCH_NAME)
                for x in (*words_.japanese, *words_.reading):
                    self._add_ja(d, x, W_SEARCH_NAME, name=True)
                    self._add_romaji_w(d, x, words_.romaji, W_SEARCH_NAME)

    def _index_sections(self, rs) -> None:
        """A ruleset's sections, and its Editions page when it has one."""
        for s in rs.sections:
            d = self._new(_Doc(
                Hit("rule", rs.id, s.ref, s.title, s.title_ja), rs.id,
                titles=(fold(s.title),), title_stems=(stems(s.title),),
                exact=_forms(s.title, *(s.title_ja or "").split("・")), listed=True))
            self._add(d, s.title, W_TITLE)
            self._add(d, s.text, W_TEXT * 2.0)
            self._add_ja(d, s.title_ja, W_TITLE, name=True)
            self._add_ja(d, s.text, W_TEXT)
            self._sections[s.ref].append(d)
        editions = getattr(rs, "editions", ())
        if editions:
            # the Editions page (/rules/<id>/editions): "2016", "edition", "WRC 2015"; a ruleset
            # that borrows another's editions lists them only when it is chosen
            d = self._new(_Doc(
                Hit("rule", rs.id, "editions", "Editions", None), rs.id,
                titles=("editions",), title_stems=(stems("Editions"),), exact=_forms("Editions"),
                listed=all(e.ruleset in ("", rs.id) for e in editions), editions=True))
            self._add(d, "editions edition history", W_TITLE)
            for e in editions:
                self._add(d, e.text, W_DEF)

    def _index_rows(self, lib: "Library", fouls, rule_doc: dict[tuple, int]) -> None:
        """Every table's penalty rows; a profile's borrowed rows are listed once."""
        # the source's own Japanese for a foul: the subtitles of the sections its rows cite (AZRM
        # §2.3 自摸の対象牌の間違い), given to that foul's rows in every table
        cited_ja: dict[str, list[str]] = defaultdict(list)
        for rs in lib.rulesets.values():
            for r in rs.penalties:
                for ref, _item in ref_keys(r.ref or ""):
                    if rs.has_section(ref) and rs.section(ref).title_ja:
                        cited_ja[r.id].append(rs.section(ref).title_ja)
        seen_tables: set[tuple[str, int, str]] = set()
        for rs in lib.rulesets.values():
            for r in rs.penalties:
                # a profile that borrows another ruleset's column repeats its rows: list them once
                sig = (r.foul, r.index, r.penalty)
                listed = sig not in seen_tables
                seen_tables.add(sig)
                self._index_row(rs, r, fouls.get(r.id), listed, rule_doc, cited_ja.get(r.id, ()))

    def _index_row(self, rs, r, foul, listed: bool, rule_doc: dict[tuple, int], cited_ja) -> None:
        cited = tuple(rule_doc[(rs.id, ref)] for ref, _item in ref_keys(r.ref or "")
                      if (rs.id, ref) in rule_doc)
        names = (r.foul, *((foul.name, *foul.aliases) if foul else ()))
        d = self._new(_Doc(
            Hit("penalty", rs.id, r.id, r.foul, r.penalty, row=r.index), rs.id,
            titles=tuple(fold(x) for x in names), title_stems=tuple(stems(x) for x in names),
            exact=_forms(*names, *((*foul.japanese, *foul.reading, *foul.romaji) if foul else ())),
            listed=listed, foul=r.id, cites=cited))
        # a row the same in several tables (WRC and its lower column, Rakkii Nomi): indexed once, copied
        self._copy_postings(d, self._row_template(r, foul), new=True)
        if foul:
            for x in (*foul.japanese, *foul.reading):
                self._add_ja(d, x, W_TERM, name=True)
        for x in dict.fromkeys(cited_ja):
            self._add_ja(d, x, W_ALIAS, name=True)
        for ref, item in ref_keys(r.ref or ""):
            self._row_refs[(ref, item)].append(d)
            if item is not None:
                self._row_refs[(ref, None)].append(d)
        self._rows_of[(rs.id, r.id)].append(d)

    def _index_term(self, t, fouls, rule_doc: dict[tuple, int], rows_of_foul: dict[str, list[int]]) -> None:
        names = (t.term, *t.romaji)
        japanese = _term_japanese(t)
        d = self._new(_Doc(
            Hit("term", None, t.id, t.term, t.japanese), None,
            titles=tuple(fold(x) for x in (t.term, *t.aliases)),
            title_stems=tuple(stems(x) for x in (t.term, *t.romaji, *t.aliases)),
            exact=_forms(*(x for x in (*names, *japanese, *t.aliases) if x))
            + tuple(fold(x).replace(" ", "").replace("-", "") for x in names),
            listed=True, cites=tuple(rule_doc[r] for r in t.refs if r in rule_doc),
            lifts=tuple(x for f in fouls.values() if t.id in f.terms for x in rows_of_foul[f.id])))
        self._add(d, t.term, W_TERM)
        self._add_typed_romaji(d, t.romaji)
        for a in t.aliases:
            self._add(d, a, W_ALIAS)
        self._add(d, t.definition, W_DEF)
        self._add(d, t.explanation, W_TEXT)
        for x in japanese:
            self._add_ja(d, x, W_TERM, name=True)
            self._add_romaji(d, x, t.romaji)
        self._add_ja(d, t.definition, W_DEF)
        self._add_ja(d, t.explanation, W_TEXT)

    # --- querying --------------------------------------------------------------------------

    def _candidates(self, word: str, is_last: bool) -> dict[str, float]:
        """Index keys a query word matches, with the match quality (1 exact … 0.5 typo)."""
        key = romaji_key(word)
        found: dict[str, float] = {}
        if key in self._postings:
            found[key] = 1.0
        for k in self._stems.get(_stem(key), ()):
            found.setdefault(k, 0.95)
        base = lemma(word)
        if base != word:  # an irregular form: took -> take, drew -> draw
            bkey = romaji_key(base)
            if bkey in self._postings:
                found.setdefault(bkey, 0.95)
            for k in self._stems.get(_stem(bkey), ()):
                found.setdefault(k, 0.9)
        for other in _SYNONYM_OF.get(_stem(romaji_key(base)), ()):
            for k in self._stems.get(other, ()):
                found.setdefault(k, 0.75)
        if not found and key.isalpha():  # a romaji verb form: agatta -> agari
            found.update((b, 0.85) for b in romaji_bases(key) if b in self._postings)
        if len(key) >= 2 and (is_last or len(key) >= 4):
            i = bisect.bisect_left(self._keys, key)
            quality = 0.8 if is_last else 0.6
            while i < len(self._keys) and self._keys[i].startswith(key):
                found.setdefault(self._keys[i], quality)
                i += 1
        if len(word) >= 5 and key.isalpha() and not any(q >= 0.9 for q in found.values()):
            limit = 2 if len(word) >= 9 else 1
            for k, dist in self._typo_matches(key, limit):
                if abs(len(k) - len(key)) <= limit:
                    quality = 0.55 if dist == 1 else 0.45
                    found.setdefault(k, quality)
                    # the corrected word matches its other forms too (revaeled -> revealed -> revealing)
                    for other in self._stems.get(_stem(k), ()):
                        found.setdefault(other, quality * 0.95)
        return found

    def _typo_matches(self, key: str, limit: int) -> list[tuple[str, int]]:
        """The typo-matching vocabulary's keys within ``limit`` edits of ``key`` (Damerau-Levenshtein
        distance, RapidFuzz), nearest first, then in key order.

        Only keys that share a string made by ``limit`` or fewer deletions with ``key`` can be within
        ``limit`` edits (each edit -- insertion, deletion, substitution, transposition -- is undone
        by deleting one character on each side at most): those few are measured, not the whole
        vocabulary."""
        variants = _deletions(key, limit)
        near: set[str] = set()
        for length in range(max(4, len(key) - limit), len(key) + limit + 1):
            table = self._deletion_table(length, limit)
            for v in variants:
                found = table.get(v)
                if found is not None:
                    near.update(found)
        distance = _damerau_levenshtein()
        out = []
        for k in near:
            dist = distance(key, k, score_cutoff=limit)
            if dist <= limit:
                out.append((dist, k))
        out.sort()
        return [(k, dist) for dist, k in out]

    def _deletion_table(self, length: int, depth: int) -> dict[str, list[str]]:
        """Every string made by ``depth`` or fewer deletions from a typo-matching key of ``length``
        letters -> those keys (built on first use, per length and depth)."""
        table = self._deletion_tables.get((length, depth))
        if table is None:
            built: dict[str, list[str]] = defaultdict(list)
            for k in self._fuzzy_keys:
                if len(k) == length:
                    for v in _deletions(k, depth):
                        built[v].append(k)
            table = self._deletion_tables[(length, depth)] = dict(built)
        return table

    def _latin_unit(self, word: str, is_last: bool, ruleset: str | None, editions: bool
                    ) -> tuple[dict[int, float], int, bool]:
        """A query word's unit: ``{doc: score}`` over the documents a search with ``ruleset`` may
        show (each doc's best matching key counts), how many documents of the whole corpus it
        matches (its rarity), and True (the unit is narrowed to the scope already)."""
        candidates = self._candidates(word, is_last)
        everywhere = self._postings
        if len(candidates) == 1:
            (only,) = candidates
            count = len(everywhere[only])
        else:
            count = len(set().union(*[everywhere[key] for key in candidates]))
        scoped = self._scoped_postings(ruleset, editions)
        per: dict[int, float] = {}
        for key, quality in candidates.items():
            postings = scoped.get(key)
            if not postings:
                continue
            if not per:  # the first key: every posting (all scores are positive)
                per = {doc: weight * quality for doc, weight in postings.items()}
                continue
            get = per.get
            for doc, weight in postings.items():
                s = weight * quality
                if s > get(doc, 0.0):
                    per[doc] = s
        return per, count, True

    def _scoped_postings(self, ruleset: str | None, editions: bool) -> dict[str, dict[int, float]]:
        """The postings narrowed to the documents a search with ``ruleset`` may show (built on
        first use, per ruleset; a key's postings all in the scope are shared, not copied)."""
        key = (ruleset, editions)
        scoped = self._scoped.get(key)
        if scoped is None:
            scope = self._scope(ruleset, editions)
            scoped = {}
            for k, docs in self._postings.items():
                mine = {d: w for d, w in docs.items() if d in scope}
                if mine:
                    scoped[k] = docs if len(mine) == len(docs) else mine
            self._scoped[key] = scoped
        return scoped

    def _japanese_unit(self, seg: str) -> dict[int, float]:
        """Docs whose Japanese contains ``seg``, or whose Japanese name stands inside ``seg``, or
        (a sentence) that hold many of its character pairs; each doc's best match counts."""
        if len(seg) < 3:  # a short segment: only the fields holding it
            return self._ja_word_unit(seg)
        per: dict[int, float] = {}
        matches = [self._ja_containing(seg), self._ja_names_inside(seg), self._ja_pairs(seg)]
        for found in matches:
            for doc, s in found:
                if s > per.get(doc, 0.0):
                    per[doc] = s
        return per

    def _ja_word_unit(self, word: str) -> dict[int, float]:
        """Docs whose Japanese holds one content word of a sentence (a kanji stem, a katakana word),
        each doc's best field counting (a word of one or two characters: looked up, read only)."""
        if len(word) == 1:
            return self._ja_chars().get(word, _NO_DOCS)
        if len(word) == 2:
            return self._ja_pair_units.get(word, _NO_DOCS)
        per: dict[int, float] = {}
        for doc, s in self._ja_containing(word):
            if s > per.get(doc, 0.0):
                per[doc] = s
        return per

    def _ja_containing(self, seg: str):
        """Fields holding ``seg``, two characters or more (their rarest shared character pair
        narrows the scan)."""
        pairs = [self._field_grams.get(g, ()) for g in dict.fromkeys(_bigrams(seg))]
        for i in min(pairs, key=len) if pairs else ():
            text, doc, w = self._ja_fields[i]
            if seg in text:
                yield doc, w * (2.0 if text == seg else 1.0)

    def _ja_chars(self) -> dict[str, dict[int, float]]:
        """Character -> the docs whose Japanese holds it, each with its best field's weight (twice
        a field that is this one character), in the order of their first field; for one-kanji
        words, built on first use."""
        chars = self._ja_char_fields
        if chars is None:
            units: dict[str, dict[int, float]] = defaultdict(dict)
            for text, doc, w in self._ja_fields:
                for c in set(text):
                    unit = units[c]
                    s = w * (2.0 if text == c else 1.0)
                    if s > unit.get(doc, 0.0):
                        unit[doc] = s
            chars = self._ja_char_fields = dict(units)
        return chars

    def _ja_names_inside(self, seg: str):
        """Names standing inside the query (携帯が鳴った holds 携帯): every piece looked up once."""
        names = self._ja_name_index
        for a in range(len(seg)):
            for b in range(a + 2, min(len(seg), a + _LONGEST_NAME) + 1):
                if b - a < len(seg):
                    for doc, w in names.get(seg[a:b], ()):
                        yield doc, w * (0.4 + 0.6 * (b - a) / len(seg))

    def _ja_pairs(self, seg: str):
        """A sentence (手牌を倒して見せてしまった): the share of its character pairs a field holds,
        each pair counted by its rarity; pairs found nowhere (particles) do not count."""
        grams = [self._ja_grams[g] for g in dict.fromkeys(_bigrams(seg)) if g in self._ja_grams]
        weights = [(docs, math.log(1.0 + self._idf_n / (1.0 + len(docs)))) for docs in grams]
        total = sum(w for _d, w in weights)
        acc: dict[int, float] = defaultdict(float)
        for docs, idf in weights:
            for doc, w in docs.items():
                acc[doc] += idf * w
        for doc, a in acc.items():
            yield doc, 0.8 * a / total

    def _units(self, q: str, raw: str = "", *, join: bool = True, ruleset: str | None = None,
               editions: bool = False) -> tuple[list[tuple[dict[int, float], int, bool]], str, bool]:
        """The query's units (one per Japanese segment, per content word of a Japanese sentence
        and per latin word), each a ``{doc: score}`` with the number of documents it matches in
        the whole corpus and whether it is narrowed to ``ruleset``'s scope already, and the latin
        part of the query."""
        units: list[tuple[dict[int, float], int, bool]] = []
        for seg in _CJK.findall(q):
            unit = self._japanese_unit(kana_fold(seg))
            units.append((unit, len(unit), False))
        if raw and sum(len(seg) for seg in _CJK.findall(q)) >= JA_SENTENCE:
            raw_cjk = _CJK.findall(unicodedata.normalize("NFKC", raw))
            ja_words = list(dict.fromkeys(_JA_WORD.findall(" ".join(raw_cjk))))
            if ja_words != raw_cjk:  # a sentence, not one word typed in katakana
                for w in ja_words:
                    word = kana_fold(fold(w))
                    unit = self._ja_word_unit(word)
                    # a kanji run with a suffix or prefix no field has (和了放棄中, 配牌時): its
                    # longest part that some field holds
                    n = len(word) - 1
                    while not unit and n >= 2:
                        for part in dict.fromkeys((word[:n], word[-n:])):
                            unit = self._ja_word_unit(part)
                            if unit:
                                break
                        n -= 1
                    if unit:
                        units.append((unit, len(unit), False))
        latin = _HOW_MANY.sub("how", _CJK.sub(" ", q))  # "how many" asks; "too many tiles" names
        qwords = [w for w in words(latin) if w not in STOPWORDS]
        # hyphenated query words: match the joined form, not each part separately
        raw = [m.group(0) for m in _WORD.finditer(latin)]
        joined = [w.replace("-", "") for w in raw if "-" in w]
        if joined:
            parts = {p for w in raw if "-" in w for p in w.split("-")}
            qwords = [w for w in qwords if w not in parts and w not in joined] + joined
        qwords = list(dict.fromkeys(qwords))
        joined = False
        if join and 1 < len(qwords) <= 3 and romaji_key("".join(qwords)) in self._romaji:  # kui kae, ryuu kyoku
            qwords = ["".join(qwords)]
            joined = True
        for n, w in enumerate(qwords):
            units.append(self._latin_unit(w, n == len(qwords) - 1, ruleset, editions))
        return units, latin, joined

    def _in_scope(self, doc: _Doc, ruleset: str | None, editions: bool = False) -> bool:
        if doc.editions is not editions:
            return False
        if ruleset is None:
            return doc.listed
        return doc.ruleset is None or doc.ruleset == ruleset

    def _scope(self, ruleset: str | None, editions: bool) -> frozenset[int]:
        """The documents a search with this ``ruleset`` may show (computed once per ruleset)."""
        key = (ruleset, editions)
        scope = self._scopes.get(key)
        if scope is None:
            scope = self._scopes[key] = frozenset(
                i for i, doc in enumerate(self.docs) if self._in_scope(doc, ruleset, editions))
        return scope

    def search(self, query: str, *, ruleset: str | None = None, limit: int = 20) -> list[Hit]:
        """See :meth:`handbook.core.model.Library.search`."""
        return [_with_score(self.docs[d].hit, s) for s, d in self._ranked(query, ruleset)[:limit]]

    def _ranked(self, query: str, ruleset: str | None, *, editions: bool = False) -> list[tuple[float, int]]:
        if not isinstance(query, str):
            raise ValueError(f"query: must be a string, got {type(query).__name__}")
        q = fold(query).strip()
        if not q:
            return []
        scores, units, latin, joined = self._ref_scores(q, query, ruleset=ruleset, editions=editions)
        strength = self._unit_scores(scores, units, ruleset, editions)
        if not strength and joined:
            # words read as one romaji name ("agari houki ron") that this ruleset does not have:
            # the words one by one
            scores, units, latin, _ = self._ref_scores(q, query, join=False, ruleset=ruleset, editions=editions)
            strength = self._unit_scores(scores, units, ruleset, editions)
        self._lift(scores, strength)
        if _QUESTION.search(q):
            # a question about the rules ("can I ron if I'm furiten", "アガリ放棄とは") wants the
            # rule text more than a penalty row
            for d in scores:
                if self.docs[d].hit.kind == "rule":
                    scores[d] *= QUESTION_RULE_BOOST
        best = self._name_bonuses(scores, q, latin, ruleset, editions)
        out = self._in_order(best.values())
        if ruleset is None:
            out = self._damp_repeated_fouls(out)
        elif not editions:
            out = self._mix_kinds(out)
        return out

    def _mix_kinds(self, out: list[tuple[float, int]]) -> list[tuple[float, int]]:
        """With a ruleset chosen, the first three rulings show both kinds where both are close: the
        best section (or penalty row) missing from them takes the third place when it scores at
        least ``MIX_SHARE`` of the ruling it replaces (and is given that ruling's score)."""
        kind_rank = self._kind_rank  # 0 for a term, one number per kind of ruling
        rulings: list[int] = []  # the first three rulings
        first: set[int] = set()  # their kinds
        other = None  # the first ruling after them of another kind
        for i, (_s, d) in enumerate(out):
            kind = kind_rank[d]
            if kind == _KIND_ORDER["term"]:
                continue
            if len(rulings) < 3:
                rulings.append(i)
                first.add(kind)
            elif len(first) > 1:
                return out
            elif kind not in first:
                other = i
                break
        if other is None:
            return out
        third = rulings[2]
        if out[other][0] < MIX_SHARE * out[third][0]:
            return out
        _s, moved = out.pop(other)
        out.insert(third, (out[third][0], moved))  # ranked as the ruling it replaces: scores stay in order
        return out

    def _ref_scores(self, q: str, raw: str = "", *, join: bool = True, ruleset: str | None = None,
                    editions: bool = False) -> tuple[dict[int, float], list[tuple[dict[int, float], int, bool]], str, bool]:
        """Scores for a section or row reference in the query ("2.4", "§3", "12.3.1 (2)"), and
        the query's units and Latin part when it is not only a reference, and whether its words
        were read as one romaji name."""
        scores: dict[int, float] = defaultdict(float)
        ref = _REF.match(q)
        if ref is None and q[:1].isalpha():
            # "EMA 3.3.2", "AZRM section 2.4", "WRC 2025 12.3.1 (2)": the reference after the name
            tokens = q.split()
            named: set[str] = set()
            while len(tokens) > 1 and tokens[0].strip(":,").replace("-", "") in self._ref_words:
                named.update(self._ref_words[tokens.pop(0).strip(":,").replace("-", "")])
            bare = _REF.match(" ".join(tokens))
            if bare and ("." in bare.group(1) or bare.group(2) or tokens[0].startswith("§")):
                ref, q = bare, " ".join(tokens)
                for d in (*self._sections.get(ref.group(1), ()), *self._row_refs.get((ref.group(1), ref.group(2)), ())):
                    if self.docs[d].ruleset in named:  # "EMA 3.3.2": EMA's first
                        scores[d] += 20.0
        if ref and ("." in ref.group(1) or ref.group(2) or q.startswith("§")):
            for d in self._sections.get(ref.group(1), ()) if not ref.group(2) else ():
                scores[d] += 100.0
            for d in self._row_refs.get((ref.group(1), ref.group(2)), ()):
                scores[d] += 90.0
            return scores, [], "", False
        if ref:  # a bare number: a chapter-level section ("1" in Rakkii Nomi) or a word
            for d in self._sections.get(ref.group(1), ()):
                scores[d] += 50.0
        units, latin, joined = self._units(q, raw, join=join, ruleset=ruleset, editions=editions)
        return scores, units, latin, joined

    def _unit_scores(self, scores: dict[int, float], units: list[tuple[dict[int, float], int, bool]], ruleset: str | None,
                     editions: bool) -> dict[int, float]:
        """Add each unit's score (counted by how rare it is; a unit that matches nothing anywhere
        is left out) to ``scores``; return how strongly each document matched (its average match, scaled by the share of the query it matched)."""
        known = [(u, math.log(1.0 + self._idf_n / (1.0 + n)), narrowed) for u, n, narrowed in units if n]
        total = sum(w for _, w, _ in known)
        strength: dict[int, float] = {}
        if not known:
            return strength
        matched: dict[int, float] = {}
        raw: dict[int, float] = {}
        scope = self._scope(ruleset, editions)
        for per, idf, narrowed in known:
            items = per.items() if narrowed else [(d, s) for d, s in per.items() if d in scope]
            if not raw:  # the first unit matching in the scope: every document is new
                raw = {d: idf * s for d, s in items}
                matched = dict.fromkeys(raw, idf)
                continue
            get = matched.get
            for d, s in items:
                m = get(d)
                if m is None:
                    matched[d] = idf
                    raw[d] = idf * s
                else:
                    matched[d] = m + idf
                    raw[d] += idf * s
        for d, r in raw.items():
            coverage = matched[d] / total
            scores[d] += r * coverage * coverage
            # a name matched by part of the query ("daburon ari") lifts by the share it matched
            strength[d] = r / matched[d] * coverage * coverage
        return strength

    def _lift(self, scores: dict[int, float], strength: dict[int, float]) -> None:
        """A term or row matched by name lifts what it cites (見せ牌 -> AZRM §2.4; kuikae -> the
        swap-calling rows of every table); a row only lifts a section the query missed, and a
        term only lifts rows the query missed."""
        own = set(scores)
        least = LIFT_STRENGTH * LIFT_LEAST
        for d, st in strength.items():
            if st >= least:
                share = min(1.0, st / LIFT_STRENGTH) ** 2
                sc = scores[d]
                doc = self.docs[d]
                for cited in doc.cites:
                    if doc.hit.kind == "term" or cited not in own:
                        scores[cited] += TERM_LIFT * share * sc
                for row in doc.lifts:
                    if row not in own:
                        scores[row] += ROW_LIFT * share * sc

    def _name_bonuses(self, scores: dict[int, float], q: str, latin: str, ruleset: str | None,
                      editions: bool) -> dict[tuple, tuple[float, int]]:
        """Bonuses for names matched exactly, as a phrase or by word pairs; one result per foul
        and ruleset (the foul's page shows all its rows)."""
        phrase = " ".join(w for w in words(latin) if w not in STOPWORDS) if latin.strip() else q
        compact = phrase.replace(" ", "")
        qkey = " ".join(romaji_key(w) for w in phrase.split())
        qja = kana_fold(q) if not q.isascii() else q
        qstems = stems(latin) if latin else ()
        qset = set(qstems)
        qpairs = set(zip(qstems, qstems[1:], strict=False))
        best: dict[tuple, tuple[float, int]] = {}
        qforms = {phrase, compact, qkey, q, qja} if phrase else set()
        scope = self._scope(ruleset, editions)
        in_scope = [(s, d) for d, s in scores.items() if d in scope]
        # the name bonuses are weighed for the best-scored documents only; the rest keep their score
        pool = ({d for _s, d in sorted(in_scope, reverse=True)[:BONUS_POOL]} if len(in_scope) > BONUS_POOL
                else None)
        # the documents a bonus can reach, from the names' inverted tables: named exactly, or
        # sharing a stem of the query (a phrase or a word pair needs a shared stem)
        exact_docs, pair_docs = self._exact_docs, self._pair_docs
        exact: set[int] = set()
        for f in qforms:
            exact.update(exact_docs.get(f, ()))
        sharing = self._title_shares(qset, ruleset, editions)
        pair_count: dict[int, int] = {}
        for p in qpairs:
            for d in pair_docs.get(p, ()):
                pair_count[d] = pair_count.get(d, 0) + 1
        named = exact.union(sharing)
        docs, groups = self.docs, self._groups
        for s, d in in_scope:
            if d in named and (pool is None or d in pool):
                doc = docs[d]
                if d in exact:
                    # a glossary term named exactly comes first: it explains the word and links on
                    s += EXACT_BONUS * (2.5 if doc.hit.kind == "term" else 1.0)
                elif qstems and doc.stem_set.issuperset(qstems) and doc.has_phrase(qstems):
                    s += PHRASE_BONUS
                if d in pair_count:
                    # words that stand together in a name ("closed kan", "riichi stick")
                    s += PAIR_BONUS * pair_count[d]
                if d in sharing:
                    s += TITLE_SHARE_BONUS * sharing[d]
            key = groups[d]
            kept = best.get(key)
            if kept is None or s > kept[0]:
                best[key] = (s, d)
        return best

    def _title_shares(self, qset: set[str], ruleset: str | None, editions: bool) -> dict[int, float]:
        """Each document of the scope with a title holding a stem of ``qset``: the largest share of
        one of its titles' stems that are in ``qset`` (a stem twice in a title counts twice)."""
        titles_of, title_doc, title_len = self._scoped_titles(ruleset, editions), self._title_doc, self._title_len
        per_title: dict[int, int] = {}
        for w in qset:
            for g, n in titles_of.get(w, ()):
                per_title[g] = per_title.get(g, 0) + n
        shares: dict[int, float] = {}
        for g, n in per_title.items():
            d = title_doc[g]
            share = n / title_len[g]
            if share > shares.get(d, 0.0):
                shares[d] = share
        return shares

    def _damp_repeated_fouls(self, out: list[tuple[float, int]]) -> list[tuple[float, int]]:
        """Across rulesets, the same foul's rows after the first count half, so that one foul's
        five tables do not push every section and term off the first screen."""
        seen_fouls: set[str] = set()
        damped = []
        for s, d in out:
            foul = self.docs[d].foul
            if foul is not None:
                if foul in seen_fouls:
                    s *= 0.5
                seen_fouls.add(foul)
            damped.append((s, d))
        return self._in_order(damped)

    def _in_order(self, found) -> list[tuple[float, int]]:
        """``(score, doc)`` pairs best first; ties: terms, then sections, then rows, each in index order."""
        kind_rank = self._kind_rank
        keyed = [(-s, kind_rank[d], d) for s, d in found]
        keyed.sort()
        return [(-s, d) for s, _k, d in keyed]

    def editions(self, query: str, ruleset: str | None = None) -> list[str]:
        """The rulesets whose Editions page (``/rules/<id>/editions``) matches ``query`` ("2016",
        "edition", "WRC 2015"), best first; narrowed to ``ruleset`` when given."""
        ranked = self._ranked(query, ruleset, editions=True)
        return [self.docs[d].ruleset for s, d in ranked if self.docs[d].ruleset and s >= 0.5 * ranked[0][0]]

    def elsewhere(self, query: str, ruleset: str, *, limit: int = 5) -> list[Hit]:
        """Penalty rows of *other* rulesets for the fouls this query finds that ``ruleset``'s
        table has no row for ("not covered by AZRM — here is what WRC and EMA say"), best first,
        one row per foul and ruleset.

        A foul counts when one of its rows is among the first three rulings of the search over
        every ruleset and scores at least as well as the best ruling ``ruleset`` has for the query
        (or ``ruleset`` has none). Empty when ``ruleset`` covers what was found."""
        filtered = [x for x in self._ranked(query, ruleset) if self.docs[x[1]].hit.kind != "term"]
        unfiltered = [x for x in self._ranked(query, None) if self.docs[x[1]].hit.kind != "term"]
        own_best = filtered[0][0] if filtered else 0.0
        fouls = [self.docs[d].foul for s, d in unfiltered[:3]
                 if self.docs[d].foul is not None and s >= own_best
                 and (ruleset, self.docs[d].foul) not in self._rows_of]
        picks: dict[tuple[str, str], tuple[float, int]] = {}
        for s, d in self._ranked(query, None):
            doc = self.docs[d]
            if doc.foul in fouls and doc.ruleset != ruleset:
                key = (doc.foul, doc.ruleset)
                if key not in picks:
                    picks[key] = (s, d)
        out = sorted(picks.values(), key=lambda x: (fouls.index(self.docs[x[1]].foul), -x[0]))
        return [_with_score(self.docs[d].hit, s) for s, d in out[:limit]]


_KIND_ORDER = {"term": 0, "rule": 1, "penalty": 2}


def _with_score(hit: Hit, score: float) -> Hit:
    return Hit(hit.kind, hit.ruleset, hit.ref, hit.title, hit.subtitle, round(score, 3), hit.row)
