"""Japanese verbs typed in romaji, conjugated, as the English words the rules use for the same act.

A player who types Japanese in romaji conjugates: "kakushiteta" (was hiding), "shitagawanakatta"
(did not follow), "gofun okureta" (was five minutes late), "kaecchatta" (went home). Each verb of
the table's everyday acts is listed once, in its dictionary form with its conjugation class, beside
the English word the rule texts use for the act (hide, follow, late, leave); :func:`forms` writes
out its forms, and :data:`GROUPS` gives them to
:data:`handbook.core.search.folding.ROMAJI_VERB_OF`, so that a romaji sentence meets the rows and
sections that say it in English (one way: the English word gains no romaji synonyms). A negative
form ("shitagawanai", does not follow) still names the act: the rows name it with its negation.

The verbs are the acts the rules' fouls and sections name (hiding, paying, counting, waiting,
mixing, being late, leaving, ...), not words of any one query; left out are verbs whose forms are
other common words (iru/ireru: "ita" is also "was there"; kiku's "kiichatta" a typo of "kicchatta")
and verbs the content's own romaji names already use (mekuru, kuzusu, dasu).
"""

from __future__ import annotations

#: (dictionary form, class, the English word) -- class "1": ichidan (taberu: tabe-ta, tabe-nai);
#: "5": godan (kaku: kai-ta, kaka-nai), told by its last syllable
VERBS: tuple[tuple[str, str, str], ...] = (
    ("kakusu", "5", "hide"), ("kaesu", "5", "return"), ("modosu", "5", "return"),
    ("kaeru", "5", "leave"), ("oku", "5", "place"), ("harau", "5", "pay"),
    ("yomu", "5", "read"), ("yomitoru", "5", "read"), ("sawaru", "5", "touch"), ("ugokasu", "5", "move"),
    ("kazoeru", "1", "count"), ("hanasu", "5", "talk"), ("shaberu", "5", "talk"), ("tsukau", "5", "use"),
    ("matsu", "5", "wait"), ("tomeru", "1", "stop"), ("tsuzukeru", "1", "continue"),
    ("machigaeru", "1", "mistake"), ("kuzureru", "1", "collapse"),
    ("otosu", "5", "drop"), ("mazeru", "1", "mix"), ("damasu", "5", "cheat"),
    ("tasukeru", "1", "help"), ("okureru", "1", "late"), ("shitagau", "5", "follow"),
    ("nozoku", "5", "look"), ("oshieru", "1", "tell"), ("morau", "5", "receive"),
    ("narabu", "5", "order"), ("naraberu", "1", "order"), ("tateru", "1", "stand"), ("tatsu", "5", "stand"),
    ("wasureru", "1", "forget"), ("nusumu", "5", "steal"), ("kowasu", "5", "destroy"),
)

#: godan: the last syllable -> (its i-row, a-row, past, te-form, "-chatta" form)
_GODAN = {
    "su": ("shi", "sa", "shita", "shite", "shichatta"),
    "ku": ("ki", "ka", "ita", "ite", "ichatta"),
    "gu": ("gi", "ga", "ida", "ide", "ijatta"),
    "tsu": ("chi", "ta", "tta", "tte", "cchatta"),
    "ru": ("ri", "ra", "tta", "tte", "cchatta"),
    "mu": ("mi", "ma", "nda", "nde", "njatta"),
    "bu": ("bi", "ba", "nda", "nde", "njatta"),
    "nu": ("ni", "na", "nda", "nde", "njatta"),
    "u": ("i", "wa", "tta", "tte", "cchatta"),
}


def forms(verb: str, kind: str) -> tuple[str, ...]:
    """The romaji forms of ``verb`` (dictionary form) of class ``kind`` ("1" ichidan, "5" godan):
    ``forms("kakusu", "5")`` -> kakusu, kakushi, kakushita, kakushite, kakushiteta, kakushiteru,
    kakusanai, kakusanakatta, kakusazu, kakusareta, kakushichatta, kakushimasu, ...

    :raises ValueError: ``kind`` is neither "1" nor "5", or a godan verb ends in no syllable of
        :data:`_GODAN`."""
    if kind == "1":
        if not verb.endswith("ru"):
            raise ValueError(f"verb {verb!r}: an ichidan verb ends in 'ru'")
        stem = verb[:-2]
        i = a = stem
        ta, te, chatta = stem + "ta", stem + "te", stem + "chatta"
        passive = stem + "rareta"
    elif kind == "5":
        ending = next((e for e in ("tsu", "su", "ku", "gu", "ru", "mu", "bu", "nu", "u") if verb.endswith(e)), None)
        if ending is None:
            raise ValueError(f"verb {verb!r}: a godan verb ends in one of {sorted(_GODAN)}")
        stem = verb[:-len(ending)]
        i, a, ta, te, chatta = (stem + x for x in _GODAN[ending])
        passive = a + "reta"
    else:
        raise ValueError(f"kind {kind!r}: one of '1' (ichidan), '5' (godan)")
    out = (verb, i, ta, te, te + "ta", te + "ru", ta + "ra", a + "nai", a + "nakatta", a + "nakute",
           a + "zu", a + "zuni", passive, chatta, i + "masu", i + "mashita", i + "masen")
    return tuple(dict.fromkeys(f for f in out if len(f) >= 3))


#: each English word with the romaji forms of its verbs
GROUPS: tuple[tuple[str, ...], ...] = tuple(
    (english, *dict.fromkeys(f for verb, kind, word in VERBS if word == english for f in forms(verb, kind)))
    for english in dict.fromkeys(word for _verb, _kind, word in VERBS))
