"""Which language leads a bilingual title, and the glossary's order in each language.

The rules are English with the Japanese subtitle where the source has one; glossary terms have an
English term, a Japanese term and a kana reading. A screen in English leads with the English and
shows the Japanese beneath; a screen in Japanese leads with the Japanese (the English beneath, so
a judge can still cite the source's words). Where the source has no Japanese, the English leads
in both.

Sort order of the glossary in Japanese: gojūon (あいうえお) order of the kana reading
(``Term.reading``). Babel ships no collation and ICU (PyICU) is a compiled library that neither
the PWA (Pyodide) nor a plain ``pip install`` here can count on, so the order is computed from the
reading itself, the way a Japanese dictionary orders its headwords:

1. katakana is folded to hiragana (チョンボ → ちょんぼ: the script does not change the order);
2. primary key: the reading with voicing marks removed (が → か, ぱ → は), small kana made full
   size (ょ → よ) and the long-vowel mark ー dropped — Unicode's hiragana block is in gojūon order
   once these are folded;
3. ties: plain before voiced before half-voiced, full size before small (the reading as folded to
   hiragana, compared by code point), then the English term.

Terms without a reading (the source gives no Japanese) follow, in English alphabetical order.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING

import jaconv

from handbook.core.model import Section, Term
from handbook.core.search import fold

if TYPE_CHECKING:
    from handbook.ui.context import AppContext

#: small kana → full size (hiragana; katakana is folded before)
_SMALL = str.maketrans("ぁぃぅぇぉっゃゅょゎゕゖ", "あいうえおつやゆよわかけ")


def japanese_first(ctx: "AppContext") -> bool:
    """Whether this session's screens lead with the Japanese."""
    return ctx.translator.language == "ja"


def section_title(ctx: "AppContext", sec: Section) -> tuple[str, str | None]:
    """``(title, subtitle)`` of a rule section: the Japanese subtitle first in Japanese where the
    source has one, else the English title with the Japanese beneath."""
    if japanese_first(ctx) and sec.title_ja:
        return sec.title_ja, sec.title
    return sec.title, sec.title_ja


def term_title(ctx: "AppContext", t: Term) -> tuple[str, str | None]:
    """``(title, subtitle)`` of a glossary term: "Kui-kae" / "喰い替え · くいかえ" in English,
    "喰い替え" / "くいかえ · Kui-kae" in Japanese (English leads where the source has no Japanese)."""
    if japanese_first(ctx) and t.japanese:
        return t.japanese, " · ".join(x for x in (t.reading, t.term) if x)
    return t.term, " · ".join(x for x in (t.japanese, t.reading) if x) or None


def kana_key(reading: str) -> tuple[str, str]:
    """The gojūon sort key of a kana reading (see the module's docstring): ``(primary, tie)``."""
    hira = jaconv.kata2hira(unicodedata.normalize("NFKC", reading))
    base = "".join(c for c in unicodedata.normalize("NFD", hira) if c not in "\u3099\u309a")
    primary = unicodedata.normalize("NFC", base).translate(_SMALL).replace("ー", "")
    return primary, hira


def sorted_terms(terms: Iterable[Term], language: str = "en") -> list[Term]:
    """The glossary's order: English alphabetical (case-insensitive) in English; gojūon order of
    the reading in Japanese (terms without a reading last, alphabetically)."""
    if language != "ja":
        return sorted(terms, key=lambda t: fold(t.term))
    return sorted(terms, key=lambda t: (0, *kana_key(t.reading), fold(t.term)) if t.reading
                  else (1, "", "", fold(t.term)))


__all__ = ["japanese_first", "kana_key", "section_title", "sorted_terms", "term_title"]
