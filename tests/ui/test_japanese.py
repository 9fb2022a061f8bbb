"""The screens in Japanese, per session: the catalogue as shipped (locales/ja, compiled by make),
two sessions in two languages, the platform's language as the default, the remembered choice,
counts through ngettext, titles that lead with the Japanese, the glossary in gojūon order, and
core errors that never reach a Japanese reader in English."""

from __future__ import annotations

import asyncio
import datetime
import re
import unicodedata

import flet as ft
import pytest
from tests.support.uihelpers import StubPage, find, texts

import handbook
from handbook import i18n
from handbook.ui import screens
from handbook.ui.app import HandbookApp, Preferences
from handbook.ui.context import AppContext, Settings
from handbook.ui.errors import UNKNOWN, readable
from handbook.ui.titles import kana_key
from handbook.ui.views import calculators as calc
from handbook.ui.views import final
from handbook.ui.views import glossary

JA = i18n.translator("ja")


@pytest.fixture(autouse=True)
def _compiled():
    if i18n.translator("ja")("Search") == "Search":
        pytest.fail("locales/ja/LC_MESSAGES/messages.mo is not compiled: run `make i18n` (make test does it)")


def ctx_in(library, translator, **kw) -> AppContext:
    return AppContext(page=StubPage(), library=library, translator=translator, **kw)


def nav(view) -> list[str]:
    return [d.label for d in view.navigation_bar.destinations]


def test_two_sessions_two_languages(library):
    en, ja = ctx_in(library, i18n.ENGLISH), ctx_in(library, JA)
    assert nav(screens.build_view(ja, "/")) == ["検索", "ルール", "罰則", "用語集", "ツール"]
    assert nav(screens.build_view(en, "/")) == ["Search", "Rules", "Penalties", "Glossary", "Tools"]
    # switching one session leaves the other alone
    en.set_language("ja")
    assert nav(screens.build_view(en, "/"))[0] == "検索" and ja.settings.locale is None
    assert nav(screens.build_view(ctx_in(library, i18n.ENGLISH), "/"))[0] == "Search"
    with pytest.raises(ValueError, match="locale: must be one of en, ja, got 'fr'"):
        en.set_language("fr")


def test_the_switch_is_named_in_the_language_it_switches_to(library):
    assert ctx_in(library, i18n.ENGLISH).language_label() == "日本語で表示"
    assert ctx_in(library, JA).language_label() == "Show in English"
    view = screens.build_view(ctx_in(library, JA), "/rules/azrm/2.4")
    assert find(view, ft.IconButton, tooltip="Show in English")  # on every screen's app bar


class DevicePage(StubPage):
    """A page whose client reports the device's locales (Flet's ``get_device_info``)."""

    def __init__(self, *locales: str):
        super().__init__()
        self.locales = [ft.Locale(*loc.split("-")) for loc in locales]

    async def get_device_info(self):
        return type("Info", (), {"locales": self.locales})()


def start(library, page, prefs):
    app = HandbookApp(page, library, prefs=Preferences(prefs))
    asyncio.run(app.start())
    return app


class Prefs(dict):
    async def get(self, key):
        return dict.get(self, key)

    async def set(self, key, value):
        self[key] = value


def test_the_device_language_is_the_default_until_one_is_chosen(library):
    prefs = Prefs()
    page = DevicePage("fr-FR", "ja-JP")
    app = start(library, page, prefs)
    assert app.ctx.translator.language == "ja" and nav(page.views[0])[1] == "ルール"
    assert page.locale_configuration.current_locale.language_code == "ja"
    assert page.title == "リーチ麻雀 審判ハンドブック"
    # an English phone gets English; what the user chose wins over the device and is remembered
    assert start(library, DevicePage("en-GB"), Prefs()).ctx.translator.language == "en"
    app.ctx.set_language("en")
    asyncio.run(asyncio.sleep(0))
    assert prefs[Settings.KEY_LOCALE] == "en"
    again = start(library, DevicePage("ja-JP"), prefs)
    assert again.ctx.translator.language == "en"
    # a client that does not answer: English
    assert start(library, StubPage(), Prefs()).ctx.translator.language == "en"


def test_counts_use_plural_forms(library):
    assert i18n.ENGLISH.ngettext("{n} record", "{n} records", 1).format(n=1) == "1 record"
    assert i18n.ENGLISH.ngettext("{n} record", "{n} records", 2).format(n=2) == "2 records"
    assert JA.ngettext("{n} record", "{n} records", 1).format(n=1) == "記録1件"
    assert JA.ngettext("{n} record", "{n} records", 7).format(n=7) == "記録7件"
    view = screens.build_view(ctx_in(library, JA), "/glossary")
    n = len(library.glossary)
    assert f"{n}語中{n}語" in texts(view)


def test_dates_and_numbers_in_the_session_locale(library):
    today = datetime.date(2026, 4, 12)
    strikes = [datetime.date(2026, 4, 10)] * 3
    status = handbook.strike_status(strikes, today)
    shown_ja = " ".join(texts(ft.Column(calc.strike_status_controls(ctx_in(library, JA), status))))
    shown_en = " ".join(texts(ft.Column(calc.strike_status_controls(ctx_in(library, i18n.ENGLISH), status))))
    assert "2026/04/10〜2026/04/23（両日を含む）" in shown_ja
    assert "Apr 10, 2026 to Apr 23, 2026 (both included)" in shown_en


def test_a_calculator_result_in_japanese(library):
    view = screens.build_view(ctx_in(library, JA), "/tools/revealed?ruleset=azrm&tiles=5")
    shown = texts(view)
    assert "錯和（チョンボ）" in shown and "減点" in shown and "ストライク" in shown
    assert "Chombo" not in shown and "Points deducted" not in shown


def test_section_and_term_titles_lead_with_the_japanese(library):
    sec = library.rulesets["azrm"].section("2.4")
    assert sec.title_ja
    ja_view = screens.build_view(ctx_in(library, JA), "/rules/azrm/2.4")
    en_view = screens.build_view(ctx_in(library, i18n.ENGLISH), "/rules/azrm/2.4")
    heading = lambda v: [s for s in find(v, ft.Semantics) if s.heading_level == 1][0].content.value  # noqa: E731
    assert heading(ja_view) == sec.title_ja and sec.title in texts(ja_view)
    assert heading(en_view) == sec.title
    term = library.term("kui-kae")
    ja_term = screens.build_view(ctx_in(library, JA), "/glossary/kui-kae")
    assert heading(ja_term) == term.japanese and term.term in texts(ja_term)
    # where the source has no Japanese the English leads in Japanese too
    bare = next(t for t in library.glossary if not t.japanese)
    assert heading(screens.build_view(ctx_in(library, JA), f"/glossary/{bare.id}")) == bare.term


def test_glossary_in_gojuon_order(library):
    terms = glossary.sorted_terms(library.glossary, "ja")
    with_reading = [t for t in terms if t.reading]
    assert with_reading and terms[:len(with_reading)] == with_reading  # no reading: last
    keys = [kana_key(t.reading)[0] for t in with_reading]
    assert keys == sorted(keys)
    # the primary key is the reading in plain hiragana: katakana, voicing and small kana folded
    assert kana_key("チョンボ")[0] == "ちよんほ" and kana_key("バン")[0] == "はん"
    assert kana_key("オーラス")[0] == "おらす"
    first = [unicodedata.normalize("NFKC", k[:1]) for k in keys]
    assert first[0] == "あ" and first == sorted(first)
    # the Japanese screen lists them in that order; English stays alphabetical
    view = screens.build_view(ctx_in(library, JA), "/glossary")
    listed = [c.key for c in find(view, ft.ListTile) if str(c.key).startswith("term-")]
    assert listed[:3] == [f"term-{t.id}" for t in terms[:3]]
    en = [t.term.lower() for t in glossary.sorted_terms(library.glossary)]
    assert en == sorted(en)


@pytest.mark.parametrize("call", [
    lambda: calc.parse_tiles(""),
    lambda: handbook.revealed_tiles("azrm", 137),
    lambda: handbook.revealed_tiles("azrm", 3, source="floor"),
    lambda: calc.parse_strike_dates("2026-04-10 2026-13-40"),
    lambda: calc.parse_on("tomorrow"),
    lambda: handbook.strike_status([datetime.date(1, 1, 5)], datetime.date(1, 1, 5)),
    lambda: handbook.strike_status([], datetime.date(9999, 12, 30)),
    lambda: final.parse_points("abc", "scores: E"),
    lambda: handbook.final_score("ema-rcr", {"E": 30000, "S": 30000, "W": 30000, "N": 30000},
                                 penalties={"N": -3}),
    lambda: handbook.final_score("ema-rcr", {"E": 30000, "S": 30000, "W": 30000, "N": 30000}, deposits=-1),
    lambda: handbook.chombo("azrm", "X"),
    lambda: handbook.chombo("azrm", "E", foul="no-such-foul"),
    lambda: handbook.chombo("ema-rcr", "E", foul="late"),
    lambda: handbook.revealed_tiles("no-such-ruleset", 3),
    lambda: handbook.revealed_tiles("azrm", 3, during_deal="yes"),
], ids=["tiles-empty", "tiles-137", "source", "strike-date", "on-date", "too-early", "too-late", "score",
        "penalty-negative", "deposits", "seat", "foul", "not-chombo", "ruleset", "other-field"])
def test_core_errors_reach_a_japanese_reader_in_japanese(call):
    with pytest.raises(ValueError) as info:
        call()
    text = readable(info.value, JA)
    words = re.findall(r"[A-Za-z]{3,}", text)
    assert set(words) <= {"AZRM"}, f"{info.value!s} is shown as {text!r}"
    assert not re.match(r"^[a-z_]+: ", text)
    # the English reader still gets the specific sentence
    assert readable(info.value, i18n.ENGLISH) != UNKNOWN or "during_deal" in str(info.value)
