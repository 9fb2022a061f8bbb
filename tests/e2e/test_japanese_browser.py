"""The app in Japanese in headless Chromium: a browser whose language is Japanese gets Japanese
screens without choosing; the language switch in the app bar; two tabs of one served app in two
languages at once (the language belongs to the session, not to the server).

Uses the e2e fixtures (``conftest.py``): Debian's chromium, the served app on a free port, every
request kept on 127.0.0.1.
"""

from __future__ import annotations

import pytest
from tests.support.browser_harness import Handbook, RequestLog, new_context

NAV_JA = ("検索", "ルール", "罰則", "用語集", "ツール")
NAV_EN = ("Search", "Rules", "Penalties", "Glossary", "Tools")


def _lines(hb: Handbook, needle: str) -> list[str]:
    return [line for line in hb.aria_dump().splitlines() if needle in line]


@pytest.fixture
def ja_context(browser):
    """A fresh profile whose browser language is Japanese (navigator.language "ja-JP")."""
    ctx = new_context(browser, locale="ja-JP")
    log = RequestLog().attach(ctx)
    try:
        yield ctx
    finally:
        ctx.close()
    assert not log.offenders(), log.offenders()


def test_a_japanese_browser_gets_japanese_screens(ja_context, server, artifacts_dir):
    hb = Handbook(ja_context.new_page(), server, artifacts_dir)
    hb.open("/", ready="ルール")
    for label in NAV_JA:
        hb.wait_for_text(label, exact=True)
    assert not hb.has_text("Penalties", exact=True)
    # a calculator's result in Japanese, the field's words: 錯和（チョンボ）, 減点, ストライク
    hb.open("/tools/revealed?ruleset=azrm&tiles=5", ready="罰則: 錯和（チョンボ）")
    assert _lines(hb, "減点: 30P") and _lines(hb, "ストライク: あり")
    # a bad input is said in Japanese, never as the core's English ValueError
    hb.type_into("見せた牌の枚数", "0")
    hb.wait_for_text("牌の枚数を1〜136で入力してください。")
    assert not hb.has_text("tiles:")


def test_two_tabs_two_languages(context, server, artifacts_dir):
    """One browser, two tabs of the same served app: the second switches to 日本語; the first
    stays in English while the second shows Japanese, both live."""
    en = Handbook(context.new_page(), server, artifacts_dir)
    en.open("/", ready="Rules")
    ja = Handbook(context.new_page(), server, artifacts_dir)
    ja.open("/tools", ready="Chombo settlement")
    ja.click_button("日本語で表示", exact=True, then="錯和（チョンボ）の精算")
    for label in NAV_JA:
        ja.wait_for_text(label, exact=True)
    # the first tab is untouched, and still builds new screens in English
    en.page.bring_to_front()
    en.click_button("Glossary", exact=True, role="tab", route="/glossary")
    en.wait_for_text(" of 78 terms")  # "78 of 78 terms": built after the other tab switched
    assert not en.has_text("用語集", exact=True)
    # ... while the second goes on in Japanese
    ja.page.bring_to_front()
    ja.click_button("ルール", exact=True, role="tab", route="/rules")
    ja.wait_for_text("罰則表のみ")
    # remembered on the device: a new tab of this browser opens in Japanese
    third = Handbook(context.new_page(), server, artifacts_dir)
    third.open("/", ready="用語集（英語 / 日本語）")
    third.page.close()
    # and back: on a Japanese screen the button says it in English
    ja.page.bring_to_front()
    ja.click_button("Show in English", exact=True, then="Penalty table only")
