"""Tiles as incidents write them: "5m", "5 pin", "the 7 of circles", a group "5m 5m 6m" or
"556m" (read by :mod:`handbook.core.search.grammar`)."""

from __future__ import annotations

import re

#: a suit as written after a number -> its letter
SUIT = {"m": "m", "man": "m", "manzu": "m", "p": "p", "pin": "p", "pinzu": "p", "s": "s", "sou": "s", "souzu": "s"}
SUITS = "|".join(sorted(SUIT, key=len, reverse=True))  # the longest first: "manzu" before "man", "m"
#: one tile, short form ("7p", "5 pin")
TILE = rf"[1-9]\s?(?:{SUITS})(?![a-z])"
_TILE_PARTS = re.compile(rf"([1-9])\s?({SUITS})(?![a-z])")


def tile(text: str) -> tuple[int, str] | None:
    """The first tile of ``text`` as (number, suit letter): ``"7 pin"`` -> ``(7, "p")``."""
    m = _TILE_PARTS.search(text)
    return None if m is None else (int(m.group(1)), SUIT[m.group(2)])


#: a group's tiles written out: "5m 5m 6m", "5m5m6m", "2-3-5m", "556m" (three or four of one suit)
GROUP = re.compile(r"(?<![0-9a-z.])((?:[1-9][mps][\s,/-]*){2,3}[1-9][mps]|(?:[1-9][\s,/-]*){2,3}[1-9][mps]|[1-9]{3,4}[mps])(?![0-9a-z])")


def group_tiles(written: str) -> list[tuple[int, str]] | None:
    """``"5m 5m 6m"`` -> ``[(5, "m"), (5, "m"), (6, "m")]``; ``"556m"`` and ``"2-3-5m"`` take the
    suit given after them; None when digits end without a suit or there are not 3 or 4 tiles."""
    tiles = re.findall(r"([1-9]+)([mps])?", re.sub(r"[\s,/-]", "", written))
    out: list[tuple[int, str]] = []
    pending: list[int] = []
    for digits, suit in tiles:
        pending += [int(c) for c in digits]
        if suit:
            out += [(n, suit) for n in pending]
            pending = []
    return out if not pending and 3 <= len(out) <= 4 else None


# a tile written in words ("the 6 of characters", "7 of circles", "5 pin") -> its short form ("6m",
# "7p", "5p"), so that the structures told by tiles read either way
_SUIT_WORD = {"circle": "p", "circles": "p", "dot": "p", "dots": "p", "pin": "p", "pins": "p", "pinzu": "p",
              "bamboo": "s", "bamboos": "s", "bam": "s", "bams": "s", "stick": "s", "sticks": "s", "sou": "s",
              "souzu": "s", "character": "m", "characters": "m", "crak": "m", "craks": "m", "crack": "m",
              "cracks": "m", "man": "m", "manzu": "m", "wan": "m"}
_NUMBER_WORD = {"one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
                "eight": "8", "nine": "9"}
_TILE_WORDS = re.compile(r"\b(?:red\s+)?([1-9]|one|two|three|four|five|six|seven|eight|nine)\s+(?:of\s+)?("
                         + "|".join(sorted(_SUIT_WORD, key=len, reverse=True)) + r")\b")


def short_tiles(folded: str) -> str:
    """``folded`` with its tiles written in words in their short form ("7 of circles" -> "7p")."""
    if not any(w in folded for w in (" of ", " pin", " man", " sou")):
        return folded
    return _TILE_WORDS.sub(lambda m: _NUMBER_WORD.get(m.group(1), m.group(1)) + _SUIT_WORD[m.group(2)], folded)
