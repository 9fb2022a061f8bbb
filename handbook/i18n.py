"""Translations for every user-visible string (gettext, Babel conventions), per session.

The language belongs to the *session*, not the process: in the served app every browser tab is a
session of its own, and two tabs may show two languages at once. So there is no current locale in
this module. A session holds a :class:`Translator` (``ctx._`` in the screens, see
:class:`handbook.ui.context.AppContext`)::

    _ = ctx._
    ft.Text(_("Search"))
    ft.Text(_.ngettext("{n} record", "{n} records", n).format(n=n))
    ft.Text(_.format_date(day))

A :class:`Translator` is callable as gettext, and carries ``ngettext``, ``pgettext`` and Babel's
date and number formatting in its own locale. :func:`translator` returns the one for a language
("ja", "ja_JP", "ja-JP", "en"); catalogues live in ``locales/<lang>/LC_MESSAGES/messages.mo``
(domain ``messages``), compiled by ``pybabel compile -d locales`` (``make run``, ``make test``,
``make pwa``) from ``.po`` files that ``make i18n`` keeps in step with ``locales/messages.pot``. A
missing catalogue or message falls back to the English source strings.

:func:`N_` marks a string for extraction where it is defined (a table of labels) and translated
where it is shown.
"""

from __future__ import annotations

import datetime
import functools
import gettext as _gettext
from collections.abc import Iterable
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.dates import format_date as _babel_format_date
from babel.dates import format_datetime as _babel_format_datetime
from babel.numbers import format_decimal as _babel_format_decimal

from handbook.paths import LOCALES_DIR

DOMAIN = "messages"
DEFAULT_LOCALE = "en"
#: Languages the UI offers, with the name each is offered under (its own name, so a reader finds
#: their language whatever language the screen is in).
SUPPORTED_LOCALES = ("en", "ja")
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}
#: what the language button says, in the language it switches to (not translated: a reader who
#: cannot read the screen's language must still recognise their own)
SWITCH_TO = {"en": "Show in English", "ja": "日本語で表示"}


def _normalise(locale: str | None) -> str:
    if not locale:
        return DEFAULT_LOCALE
    return locale.replace("-", "_")


def language_of(locale: str | None) -> str:
    """The supported UI language for a platform or browser locale: ``"ja-JP"`` → ``"ja"``,
    ``"en_GB"`` → ``"en"``; anything the UI does not offer → ``"en"``."""
    lang = _normalise(locale).split("_", 1)[0].lower()
    return lang if lang in SUPPORTED_LOCALES else DEFAULT_LOCALE


def preferred_language(locales: Iterable[str | None]) -> str:
    """The first of the platform's ``locales`` (most preferred first, e.g. ``navigator.languages``)
    that the UI offers, else English."""
    for loc in locales:
        lang = _normalise(loc).split("_", 1)[0].lower() if loc else ""
        if lang in SUPPORTED_LOCALES:
            return lang
    return DEFAULT_LOCALE


class Translator:
    """One language's strings and formats. Calling it translates a message (gettext).

    ``locale`` is the language in force ("en", "ja"); ``babel_locale`` the :class:`babel.Locale`
    dates and numbers are formatted in. Immutable and shared: sessions in the same language share
    one instance.
    """

    def __init__(self, locale: str, translation: _gettext.NullTranslations):
        self.locale = locale
        self.translation = translation
        try:
            self.babel_locale = Locale.parse(locale)
        except (UnknownLocaleError, ValueError):
            self.babel_locale = Locale.parse(DEFAULT_LOCALE)

    def __repr__(self) -> str:
        return f"Translator({self.locale!r})"

    @property
    def language(self) -> str:
        """The two-letter language code ("ja")."""
        return self.locale.split("_", 1)[0]

    def gettext(self, message: str) -> str:
        """The translation of ``message``."""
        return self.translation.gettext(message)

    __call__ = gettext

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form for count ``n`` (Japanese has one form; English two)."""
        return self.translation.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        """The translation of ``message`` in ``context`` (for words with several meanings)."""
        return self.translation.pgettext(context, message)

    def format_date(self, date: datetime.date, format: str = "medium") -> str:
        """``date`` in this locale: "Apr 20, 2026" (en), "2026/04/20" (ja)."""
        return _babel_format_date(date, format=format, locale=self.babel_locale)

    def format_datetime(self, moment: datetime.datetime, format: str = "short") -> str:
        """``moment`` (in its own time zone) in this locale: "4/20/26, 9:00 AM" (en),
        "2026/04/20 9:00" (ja)."""
        return _babel_format_datetime(moment, format=format, tzinfo=moment.tzinfo, locale=self.babel_locale)

    def format_decimal(self, number: float | int, format: str | None = None) -> str:
        """``number`` with this locale's separators: "30,000", "-2.5"."""
        return _babel_format_decimal(number, format=format, locale=self.babel_locale)


@functools.lru_cache(maxsize=16)
def _translator(locale: str, localedir: str) -> Translator:
    languages = [locale]
    if "_" in locale:
        languages.append(locale.split("_", 1)[0])
    translation = _gettext.translation(DOMAIN, localedir=localedir, languages=languages, fallback=True)
    return Translator(locale, translation)


def translator(locale: str | None = None, *, localedir: str | Path | None = None) -> Translator:
    """The :class:`Translator` for ``locale`` ("ja", "ja_JP", "ja-JP", "en"; ``None``: English).

    Unknown or untranslated locales give the English source strings (formats in that locale where
    Babel knows it, else English).
    """
    return _translator(_normalise(locale), str(localedir or LOCALES_DIR))


#: The English source strings (what a screen shows without a session, e.g. in a plain test).
ENGLISH = translator(DEFAULT_LOCALE)


def N_(message: str) -> str:
    """Marks ``message`` for extraction without translating it (translate where it is shown)."""
    return message


def format_date(date: datetime.date, format: str = "medium", locale: str | None = None) -> str:
    """``date`` in ``locale`` (English if none): "Apr 20, 2026", "2026/04/20"."""
    return translator(locale).format_date(date, format)


def format_decimal(number: float | int, format: str | None = None, locale: str | None = None) -> str:
    """``number`` with ``locale``'s separators (English if none): "1,000", "-2.5"."""
    return translator(locale).format_decimal(number, format)


def format_number(number: float | int, locale: str | None = None) -> str:
    """Alias of :func:`format_decimal` without a pattern."""
    return format_decimal(number, locale=locale)


def available_locales(localedir: str | Path | None = None) -> list[str]:
    """Locales with a compiled catalogue, plus the English source language."""
    base = Path(localedir or LOCALES_DIR)
    found = {DEFAULT_LOCALE}
    if base.is_dir():
        for p in base.iterdir():
            if (p / "LC_MESSAGES" / f"{DOMAIN}.mo").is_file():
                found.add(p.name)
    return sorted(found)


__all__ = [
    "DEFAULT_LOCALE", "DOMAIN", "ENGLISH", "LANGUAGE_NAMES", "N_", "SUPPORTED_LOCALES", "SWITCH_TO",
    "Translator",
    "available_locales", "format_date", "format_decimal", "format_number", "language_of",
    "preferred_language", "translator",
]
