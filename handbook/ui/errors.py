"""Bad input, said in words: the ``ValueError`` texts of the core and of the screens' parsers name
a field and what was wrong (``"tiles: must be a whole number from 1 to 136, got ''"``) — that is
their API and stays so. A screen shows :func:`readable` instead: a sentence that says what to do
("Enter a number of tiles from 1 to 136."), through gettext like every other string.

The error's *code* is the field it names, the text before the first ``": "`` (``tiles``,
``scores: S``, ``strikes``): that is how the core says which argument was wrong
(docs/API.md, "Bad input"), and :data:`MESSAGES` turns each one into a sentence of the reader's
language. A text without a field prefix and without a pattern is already a sentence for the
reader (the screens raise those through gettext). In a language other than English a coded error that no pattern knows is
never shown in English: the reader gets :data:`UNKNOWN` in their language (the English text
stays in the server's log).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

from handbook.i18n import N_

log = logging.getLogger(__name__)

#: seat winds as the error texts name them
_SEATS = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}

#: (pattern on the ValueError text, the sentence shown); the sentence may use the pattern's groups
#: and ``{seat}`` (the translated seat wind of a ``seat`` group)
MESSAGES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), m) for p, m in (
    # the hand calculator's (handbook.hand_value; "melds: 5m is counted 5 times across …" before "melds: ")
    (r"^hand: (?P<need>\d+) tiles needed with .*, (?P<given>\d+) given",
     N_("{need} tiles needed with these melds, {given} given.")),
    (r"^hand: not a complete hand — it is tenpai", N_("Not a complete hand: it is tenpai, one tile from a win.")),
    (r"^hand: not a complete hand — (?P<n>\d+) tiles? from tenpai",
     N_("Not a complete hand: {n} tile(s) from tenpai.")),
    (r"^\w+: (?P<tile>\w+) is counted (?P<n>\d+) times across",
     N_("{tile} is counted {n} times with the melds and indicators: there are 4 of each tile.")),
    (r"one red five of each suit", N_("The set has one red five of each suit.")),
    (r"^(double_)?riichi: not with an open meld", N_("Riichi needs a concealed hand: no chi, pon or open kan.")),
    (r"^ippatsu: ", N_("Ippatsu needs riichi.")),
    (r"^(rinshan|haitei): ", N_("This condition is a win by tsumo: choose Tsumo.")),
    (r"^(chankan|houtei): ", N_("This condition is a win by ron: choose Ron.")),
    (r"^discarder: ", N_("Choose who discarded the winning tile: another seat than the winner's.")),
    (r"^melds: ", N_("That meld is not a chi, pon or kan.")),
    # the other calculators', the ledger's and the final score's
    (r"^tiles: ", N_("Enter a number of tiles from 1 to 136.")),
    (r"^strikes: item (?P<n>\d+), '?(?P<value>[^',]*)'?, is not a date",
     N_("Strike date {n}, “{value}”, is not a date: write each date as year-month-day, e.g. 2026-04-20.")),
    (r"^strikes: item (?P<n>\d+), (?P<value>[\d-]+), is too early",
     N_("Strike date {n}, {value}, is too early for the handbook's calendar: check the year.")),
    (r"^strikes: item (?P<n>\d+), (?P<value>[\d-]+), is too late",
     N_("Strike date {n}, {value}, is too late for the handbook's calendar: check the year.")),
    (r"^on: .* is too (early|late)", N_("The day to check is outside the handbook's calendar: check the year.")),
    (r"^on: ", N_("Enter the day to check as year-month-day, e.g. 2026-04-20.")),
    (r"^scores: (?P<seat>[ESWN])\b", N_("Enter {seat}'s table points as a whole number, e.g. 25,000 or −3,000.")),
    (r"^penalties: (?P<seat>[ESWN]) must be 0 or more",
     N_("{seat}'s penalty is a deduction: enter it as 0 or more P, without a minus sign.")),
    (r"^penalties: (?P<seat>[ESWN])\b", N_("Enter {seat}'s penalty as a whole number of P, or leave the box empty.")),
    (r"^deposits: ", N_("Enter the riichi sticks left on the table as 0 or more.")),
    (r"^offender: ", N_("Choose the offender's seat: East, South, West or North.")),
    (r"^foul: .* has no chombo row", N_("This foul is not a chombo in the chosen ruleset: choose another foul.")),
    (r"^foul: .* is not a foul", N_("Choose the foul from the ruleset's penalty table.")),
    (r"^ruleset: ", N_("This ruleset has no rule for this calculator: choose another ruleset.")),
    (r"^player is empty", N_("Enter the player's name.")),
    (r"^date .* is not a date", N_("Enter the date as year-month-day, e.g. 2026-04-20.")),
    (r"^hanchan\b", N_("Enter the hanchan as a number from 1 to 99, or leave the box empty.")),
    (r"^(player|club|note|table|reason) is longer than (?P<limit>\d+)", N_("That text is too long: at most {limit} characters.")),
    (r"^points: the row gives (?P<points>\d+)P", N_("This row gives {points}P itself: leave the points box empty.")),
    (r"^points: ", N_("Enter the points as a whole number of P, e.g. 10.")),
    (r"^source: ", N_("Choose where the tiles came from: hand, wall, dead wall or an opponent's hand.")),
    (r"^strike: only AZRM", N_("Only AZRM records are Strikes: leave Strike off for this ruleset.")),
    (r"^strike: .* leaves the Strike to the judge", N_("Say whether this is a Strike: the row leaves it to the judge.")),
    (r"^strike: ", N_("This row decides whether it is a Strike (AZRM §1.4): leave the choice as the row says.")),
    (r"^foul: .* names \d+ rows", N_("Choose the foul from the list.")),
    (r"^foul: ", N_("Choose the foul from the ruleset's penalty table.")),
    (r"^(scores|penalties): ", N_("Enter the four table scores as whole numbers.")),
))

#: what a reader of another language than English sees for a coded error no pattern knows
UNKNOWN = N_("That could not be done with what was entered: check the boxes and try again.")

_CODED = re.compile(r"^[a-z_]+(: [ESWN])?: ")


def error_code(error: BaseException | str) -> str | None:
    """The field a core ``ValueError`` names (``"tiles"``, ``"scores"``), ``None`` for a text
    that is already a sentence for the reader."""
    m = _CODED.match(str(error))
    return m.group(0).split(":", 1)[0] if m else None


def readable(error: BaseException | str, _: Callable[[str], str]) -> str:
    """The sentence a screen shows for ``error`` (a ``ValueError`` or its text), in the current
    language: the matching sentence of :data:`MESSAGES`, else the text without its ``field: ``
    prefix, starting with a capital letter."""
    text = str(error)
    for pattern, message in MESSAGES:
        m = pattern.search(text)
        if m:
            values = dict(m.groupdict())
            if values.get("seat"):
                values["seat"] = _(_SEATS[values["seat"]])
            return _(message).format(**values)
    if error_code(text) is None:  # already a sentence for the reader
        return text[:1].upper() + text[1:]
    if getattr(_, "language", "en") != "en":
        log.info("no sentence for %r; shown as %r", text, UNKNOWN)
        return _(UNKNOWN)
    rest = _CODED.sub("", text)
    return rest[:1].upper() + rest[1:]


__all__ = ["MESSAGES", "UNKNOWN", "error_code", "readable"]
