"""Translations for every user-visible string (gettext, Babel conventions).

Screens import ``_`` (and ``ngettext``) from here and wrap every string they show::

    from handbook.i18n import _
    ft.Text(_("Search"))

``_`` always looks up the *current* translation, so :func:`set_locale` switches the language of
every screen built afterwards without touching the screens. Catalogues live in
``locales/<lang>/LC_MESSAGES/messages.mo`` (domain ``messages``), compiled from ``.po`` files that
``pybabel`` keeps in step with ``locales/messages.pot``; a missing catalogue falls back to the
English source strings.

Number and date formatting for other screens: :func:`format_date`, :func:`format_decimal` and
:func:`format_number` wrap Babel's functions with the current locale.
"""

from __future__ import annotations

import datetime
import gettext as _gettext

from babel import Locale, UnknownLocaleError
from babel.dates import format_date as _babel_format_date
from babel.numbers import format_decimal as _babel_format_decimal

from handbook.paths import LOCALES_DIR

DOMAIN = "messages"
DEFAULT_LOCALE = "en"
#: Languages the UI offers (English is the source language; Japanese screens may follow).
SUPPORTED_LOCALES = ("en", "ja")

_translation: _gettext.NullTranslations = _gettext.NullTranslations()
_locale: str = DEFAULT_LOCALE


def _normalise(locale: str | None) -> str:
    if not locale:
        return DEFAULT_LOCALE
    return locale.replace("-", "_")


def set_locale(locale: str | None = None, *, localedir: str | None = None) -> str:
    """Switch the UI language to ``locale`` ("ja", "ja_JP", "en"); returns the locale in force.

    Unknown or untranslated locales fall back to the English source strings.
    """
    global _translation, _locale
    loc = _normalise(locale)
    languages = [loc]
    if "_" in loc:
        languages.append(loc.split("_", 1)[0])
    _translation = _gettext.translation(
        DOMAIN, localedir=str(localedir or LOCALES_DIR), languages=languages, fallback=True)
    _locale = loc
    return _locale


def get_locale() -> str:
    """The locale set by :func:`set_locale` ("en" by default)."""
    return _locale


def gettext(message: str) -> str:
    """The translation of ``message`` in the current locale."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural translation for count ``n``."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The translation of ``message`` in ``context`` (for words with several meanings)."""
    return _translation.pgettext(context, message)


_ = gettext
N_ = lambda message: message  # noqa: E731 - marks a string for extraction without translating it


def _babel_locale(locale: str | None) -> Locale:
    try:
        return Locale.parse(_normalise(locale or _locale))
    except (UnknownLocaleError, ValueError):
        return Locale.parse(DEFAULT_LOCALE)


def format_date(date: datetime.date, format: str = "medium", locale: str | None = None) -> str:
    """``date`` in the current (or given) locale: "Apr 20, 2026", "2026/04/20"."""
    return _babel_format_date(date, format=format, locale=_babel_locale(locale))


def format_decimal(number: float | int, format: str | None = None, locale: str | None = None) -> str:
    """``number`` with the current (or given) locale's separators: "1,000", "-2.5"."""
    return _babel_format_decimal(number, format=format, locale=_babel_locale(locale))


def format_number(number: float | int, locale: str | None = None) -> str:
    """Alias of :func:`format_decimal` without a pattern."""
    return format_decimal(number, locale=locale)


def available_locales(localedir: str | None = None) -> list[str]:
    """Locales with a compiled catalogue, plus the English source language."""
    from pathlib import Path

    base = Path(localedir or LOCALES_DIR)
    found = {DEFAULT_LOCALE}
    if base.is_dir():
        for p in base.iterdir():
            if (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
                found.add(p.name)
    return sorted(found)


__all__ = [
    "DEFAULT_LOCALE", "DOMAIN", "N_", "SUPPORTED_LOCALES", "_", "available_locales", "format_date",
    "format_decimal", "format_number", "get_locale", "gettext", "ngettext", "pgettext", "set_locale",
]
