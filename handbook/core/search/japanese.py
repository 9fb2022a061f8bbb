"""Japanese handling: spelling-insensitive kana (small kana, long vowels, kanji variants), the
romaji of kana names (jaconv), and the character pairs and name parts of Japanese fields."""

from __future__ import annotations

import functools
import re

try:  # kana -> romaji for the readings (pure Python); without it romaji come from content alone
    from jaconv import kana2alphabet as _kana2alphabet
except ImportError:  # pragma: no cover - a trimmed build
    _kana2alphabet = None

from handbook.core.search.folding import CJK_RUN, fold, romaji_key

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
        return CJK_RUN.sub(_kana_fold_run, text)
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


@functools.lru_cache(maxsize=8192)
def ja_parts(text: str) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """A Japanese field's folded form, its character pairs, and its name parts (split at ・ and /)."""
    folded = kana_fold(fold(text))
    grams = tuple(dict.fromkeys(g for run in CJK_RUN.findall(folded) for g in bigrams(run)))
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


NO_DOCS: dict[int, float] = {}  # a unit matching nothing (shared: never changed)
LONGEST_NAME = 24  # characters: longer Japanese names are matched as substrings of the fields only


def bigrams(run: str) -> list[str]:
    """The overlapping character pairs of a Japanese run (one character gives itself)."""
    return [run[i:i + 2] for i in range(len(run) - 1)] if len(run) > 1 else [run]


@functools.lru_cache(maxsize=4096)
def exact_forms(*texts: str) -> tuple[str, ...]:
    """The folded strings a query must equal for an exact match, and their spelling-insensitive keys."""
    out: list[str] = []
    for t in texts:
        out += _forms_of(t)
    return tuple(dict.fromkeys(out))


@functools.lru_cache(maxsize=8192)
def _forms_of(text: str) -> tuple[str, ...]:
    """:func:`exact_forms` of one text (a foul's names come again in every table's rows)."""
    f = fold(text)
    out = [f, " ".join(romaji_key(w) for w in f.split())]
    if not f.isascii():
        out.append(kana_fold(f))
    return tuple(out)

def term_japanese(t) -> tuple[str, ...]:
    """A glossary term's Japanese spellings and kana readings (``喰い替え/食い替え``: each)."""
    return (*(t.japanese or "").split("/"), *(t.reading or "").split("/"))

