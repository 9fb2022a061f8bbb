"""The fields of a ledger record: player keys, text and date checks, CSV cells (:mod:`handbook.ledger`
re-exports them)."""

from __future__ import annotations

import datetime
import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from handbook.core.model import Penalty
from handbook.core.strikes import SUSPENSION_DAYS, WINDOW_DAYS



#: the longest player name, club, note and other text a record keeps, and the most P
MAX_NAME, MAX_CLUB, MAX_NOTE, MAX_TEXT, MAX_POINTS = 80, 40, 500, 300, 1000
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
ID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")
_TRUE = {"true", "yes", "1"}
_FALSE = {"false", "no", "0"}


def short_repr(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "'")


_ESCAPE_MID = re.compile(r"([,;\t|\r\n])(?=[=+\-@\t\r'\"])")
_UNESCAPE_MID = re.compile(r"([,;\t|\r\n])'(?=[=+\-@\t\r'\"])")


def csv_cell(text: str) -> str:
    """``text`` as a CSV cell no spreadsheet runs as a formula: a cell starting with ``=``,
    ``+``, ``-``, ``@``, a tab, a carriage return or ``'`` gets a leading ``'``, and so does
    each of those (or a ``"``) that follows a separator inside the text (``,``, ``;``, a tab,
    ``|``, a line break): ``Semi;=1+1`` is written ``Semi;'=1+1``, which a spreadsheet that
    splits on ``;`` shows as text. :func:`csv_uncell` undoes it exactly."""
    if text.startswith(_FORMULA_START):
        text = "'" + text
    return _ESCAPE_MID.sub(r"\1'", text)


def csv_uncell(text: str) -> str:
    """The text :func:`csv_cell` was given: each ``'`` it added (at the start, or after a
    separator, before what would have been escaped) is dropped; anything else is returned
    unchanged."""
    if "'" not in text:  # nothing was added (most cells)
        return text
    if text.startswith("'") and text[1:].startswith(_FORMULA_START):
        text = text[1:]
    return _UNESCAPE_MID.sub(r"\1", text)


#: characters a spreadsheet may split a line on (or that end one, or quote): a cell holding
#: one is quoted, whichever separator the spreadsheet guesses
_CSV_QUOTE_IF = frozenset(',;\t|"\r\n')


def csv_line(cells: Sequence[str]) -> str:
    """One CSV line (RFC 4180, ``\\r\\n``), quoting every cell that holds one of
    :data:`_CSV_QUOTE_IF`."""
    return ",".join('"' + c.replace('"', '""') + '"' if not _CSV_QUOTE_IF.isdisjoint(c) else c
                    for c in cells) + "\r\n"


def clean_text(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


#: what stands for itself in a :func:`player_key` only when escaped (``%`` first, so that
#: unescaping is exact): a ``~`` in a name or club id must never read as the club separator
_KEY_ESCAPES = (("%", "%25"), ("~", "%7E"))


def _key_part(text: str) -> str:
    for plain, escaped in _KEY_ESCAPES:
        text = text.replace(plain, escaped)
    return text


def _unkey_part(text: str) -> str:
    for plain, escaped in reversed(_KEY_ESCAPES):
        text = re.sub(re.escape(escaped), lambda _m, plain=plain: plain, text, flags=re.IGNORECASE)
    return text


#: names and texts remembered by the checks: a season's players and clubs, many thousands
_MEMO = 1 << 16


@functools.lru_cache(maxsize=_MEMO)
def player_key(name: str, club: str | None = None) -> str:
    """The key a player is found by: the name, plus ``~club`` when there is a club id. A ``~``
    (or ``%``) inside the name or club id is written ``%7E`` (``%25``), so player "Ann~C1" and
    player "Ann" of club "C1" have two keys (``Ann%7EC1`` and ``Ann~C1``) and two Strike counts;
    a key without either character is the name as it always was."""
    name, club = clean_text(visible_text(name)), clean_text(visible_text(club or ""))
    return f"{_key_part(name)}~{_key_part(club)}" if club else _key_part(name)


def split_player_key(key: str) -> tuple[str, str | None]:
    """``(name, club)`` of a :func:`player_key` (``club`` ``None`` without one): the inverse of
    :func:`player_key` for the keys it makes."""
    name, sep, club = key.partition("~")
    return _unkey_part(name), (_unkey_part(club) or None) if sep else None


def fold_key(key: str) -> str:
    return key.casefold()


def _has_control(text: str) -> bool:
    return any(unicodedata.category(c) in ("Cc", "Cs") for c in text)


_ZWNJ, _ZWJ = "\u200c", "\u200d"


def _pictographic(c: str) -> bool:
    """An emoji or a part of one (what a zero-width joiner joins into one picture)."""
    o = ord(c)
    return o >= 0x1F000 or 0x2190 <= o <= 0x2BFF or o == 0xFE0F or unicodedata.category(c) == "So"


def _joiner_spells(text: str, i: int) -> bool:
    """Whether the zero-width (non-)joiner at ``text[i]`` is part of the spelling: after a
    virama (Indic conjuncts, RFC 5892 CONTEXTJ), between letters of a joining script such as
    Arabic (Persian's ZWNJ), or inside an emoji sequence (a family is one picture). Between Latin
    letters it changes nothing on screen, and is dropped."""
    prev = text[i - 1] if i > 0 else ""
    nxt = text[i + 1] if i + 1 < len(text) else ""
    if prev and unicodedata.combining(prev) == 9:
        return True
    if prev and nxt and "AL" in (unicodedata.bidirectional(prev), unicodedata.bidirectional(nxt)):
        return True
    return any(c and _pictographic(c) for c in (prev, nxt))


def visible_text(text: str) -> str:
    """``text`` without the invisible format characters that would split one player in two
    (zero-width spaces, word joiners, right-to-left marks and overrides, the BOM): two spellings
    of one name that look the same on screen must be the same player, and one Strike count.
    A zero-width joiner or non-joiner that is part of the spelling is kept
    (:func:`_joiner_spells`): a family emoji, a Persian or an Indic name written without it is
    another name."""
    if text.isascii():
        return text
    return "".join(c for i, c in enumerate(text)
                   if unicodedata.category(c) != "Cf"
                   or (c in (_ZWNJ, _ZWJ) and _joiner_spells(text, i)))


# --- field checks (shared by add() and import) ---------------------------------------------

class FieldError(Exception):
    pass


def check_text(value: object, name: str, *, limit: int, required: bool, multiline: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise FieldError(f"{name} must be text, got {short_repr(value)}")
    if len(value) > 4 * limit + 64:  # far too long whatever spaces it holds: not worth cleaning
        raise FieldError(f"{name} is longer than {limit} characters")
    ok, checked = _text_checked(value, name, limit, required, multiline)
    if not ok:
        raise FieldError(checked)
    return checked


@functools.lru_cache(maxsize=_MEMO)
def _text_checked(value: str, name: str, limit: int, required: bool, multiline: bool
                  ) -> tuple[bool, str]:
    """``(True, the clean text)`` or ``(False, what is wrong)``; kept for the texts an import
    repeats on thousands of lines (player names, fouls, clubs)."""
    try:
        return True, _text_uncached(value, name, limit=limit, required=required, multiline=multiline)
    except FieldError as exc:
        return False, str(exc)


def _text_uncached(value: str, name: str, *, limit: int, required: bool, multiline: bool) -> str:
    if any(0xD800 <= ord(c) <= 0xDFFF for c in value):
        raise FieldError(f"{name} contains a lone surrogate (\\ud800-\\udfff), which is not a character")
    value = value.strip() if multiline else clean_text(value)
    if name in ("player", "club"):
        value = clean_text(visible_text(value))
    if required and not value:
        raise FieldError(f"{name} is empty")
    if len(value) > limit:
        raise FieldError(f"{name} is longer than {limit} characters")
    if _has_control(value.replace("\n", "").replace("\t", "") if multiline else value):
        raise FieldError(f"{name} contains control characters")
    return value


def parse_date(value: object, name: str = "date") -> datetime.date:
    """``YYYY-MM-DD`` (or a ``datetime.date``) → date; ``ValueError`` naming ``name`` otherwise."""
    try:
        return check_date(value, name)
    except FieldError as exc:
        raise ValueError(str(exc)) from None


def check_date(value: object, name: str = "date") -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str) and _DATE_RE.fullmatch(value.strip()):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise FieldError(f"{name} {value!r} is not a date (YYYY-MM-DD)")


#: the earliest and latest day a record may carry: the 30-day window ending on it, the 14-day
#: Suspension starting on it and the day its Strike drops out of the window (AZRM §1.4) must all
#: be calendar days
FIRST_DAY = datetime.date.min + datetime.timedelta(days=WINDOW_DAYS - 1)
LAST_DAY = datetime.date.max - datetime.timedelta(days=max(WINDOW_DAYS, SUSPENSION_DAYS - 1))


def record_day(value: object) -> datetime.date:
    if isinstance(value, str):  # an import's dates repeat: a tournament's days
        ok, day_or_error = _record_day_of_text(value)
        if not ok:
            raise FieldError(day_or_error)
        return day_or_error
    return _record_day_checked(value)


@functools.lru_cache(maxsize=4096)
def _record_day_of_text(value: str) -> tuple[bool, Any]:
    try:
        return True, _record_day_checked(value)
    except FieldError as exc:
        return False, str(exc)


def _record_day_checked(value: object) -> datetime.date:
    day = check_date(value, "date")
    if not FIRST_DAY <= day <= LAST_DAY:
        raise FieldError(f"date {day.isoformat()} is outside the calendar the AZRM strike window can "
                   f"use (its 30-day window and 14-day Suspension); allowed: "
                   f"{FIRST_DAY.isoformat()} to {LAST_DAY.isoformat()}")
    return day


def created_at(value: object) -> datetime.datetime:
    if value is None or value == "":
        return datetime.datetime.now(datetime.UTC).replace(microsecond=0)
    if isinstance(value, datetime.datetime):
        dt = value
    elif isinstance(value, str):
        try:
            dt = datetime.datetime.fromisoformat(value.strip())
        except ValueError:
            raise FieldError(f"created {value!r} is not a date and time (ISO 8601, e.g. "
                       "2026-04-20T19:30:00+00:00)") from None
    else:
        raise FieldError(f"created {value!r} is not a date and time (ISO 8601)")
    return dt if dt.tzinfo else dt.replace(tzinfo=datetime.UTC)


def parse_bool(value: object, name: str, *, csv_text: bool) -> bool | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if csv_text and isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    raise FieldError(f"{name} {value!r} is not true or false")


def parse_points(value: object, *, csv_text: bool) -> int | None:
    if value is None or value == "":
        return None
    if csv_text and isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
        raise FieldError(f"points {value!r} is not a whole number of P from 0 to {MAX_POINTS}")
    return value


def parse_kind(value: object) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or value not in {p.value for p in Penalty}:
        raise FieldError(f"kind {value!r} is not one of {', '.join(p.value for p in Penalty)}")
    return value


MAX_TABLE = 20
MAX_HANCHAN = 99


def check_table(value: object) -> str | None:
    """A table as given (text; ``None`` or blank: not said); ``FieldError`` naming ``table``."""
    if value is None:
        return None
    return check_text(value, "table", limit=MAX_TABLE, required=False) or None


def check_hanchan(value: object, *, csv_text: bool = False) -> int | None:
    """A hanchan number, 1 to :data:`MAX_HANCHAN` (``None``: not said); ``FieldError`` naming
    ``hanchan``."""
    if value is None or (csv_text and isinstance(value, str) and not value.strip()):
        return None
    if csv_text and isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HANCHAN:
        raise FieldError(f"hanchan: must be a whole number from 1 to {MAX_HANCHAN}, got "
                         f"{short_repr(value)}")
    return value


def short_id(value: object) -> str:
    return short_repr(value)
REQUIRED = ("player", "date", "ruleset", "foul")
MAX_PROBLEMS = 20  # an import error lists at most this many problems
#: the largest file an import reads (bytes; a season's ledger of a few thousand records is well
#: under it). Larger files are refused before they are parsed.
MAX_IMPORT_BYTES = 2 * 1024 * 1024


class LedgerImportError(ValueError):
    """An import was refused. ``problems`` lists every ``"line N: …"`` / ``"entry N: …"`` found
    (at most :data:`MAX_PROBLEMS`); the message starts with the first."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = list(problems)
        more = "" if len(self.problems) == 1 else f" (and {len(self.problems) - 1} more problem(s))"
        super().__init__(f"{self.problems[0]}{more}; nothing was imported")

    def __reduce__(self) -> tuple[type[LedgerImportError], tuple[list[str]]]:
        # pickled whole: an import's own process hands it back (:mod:`handbook.ledger.isolated`)
        return type(self), (self.problems,)


#: a CSV cell starting with one of these is run as a formula by spreadsheets (OWASP "CSV
#: injection"); the apostrophe is escaped too so that unescaping is exact
# --- the ledger ----------------------------------------------------------------------------
