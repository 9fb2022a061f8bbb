"""The app in Japanese in headless Chromium: a browser whose language is Japanese gets Japanese
screens without choosing; the language switch in the app bar; two tabs of one served app in two
languages at once (the language belongs to the session, not to the server).

Uses the e2e fixtures (``conftest.py``): Debian's chromium, the served app on a free port, every
request kept on 127.0.0.1. The tests of one Japanese browser share the module's page with the app
loaded (``loaded_ja``), each reaching its screens inside the app.
"""

from __future__ import annotations

from tests.support.browser_harness import Handbook

NAV_JA = ("検索", "ルール", "罰則", "用語集", "ツール")
NAV_EN = ("Search", "Rules", "Penalties", "Glossary", "Tools")


def _lines(hb: Handbook, needle: str) -> list[str]:
    return [line for line in hb.aria_dump().splitlines() if needle in line]


def test_a_japanese_browser_gets_japanese_screens(loaded_ja):
    hb = loaded_ja.start_at("/", ready="ルール")
    for label in NAV_JA:
        hb.wait_for_text(label, exact=True)
    assert not hb.has_text("Penalties", exact=True)
    # a calculator's result in Japanese, the field's words: 錯和（チョンボ）, 減点, ストライク
    hb.navigate("/tools/revealed?ruleset=azrm&tiles=5", ready="罰則: 錯和（チョンボ）")
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
    # (ready on the home screen's first tile: the browse list below it can be pushed off the first
    # screen by the entries opened last, and what is off screen is not in the ARIA tree)
    third.open("/", ready="何が起きましたか？")
    third.page.close()
    # and back: on a Japanese screen the button says it in English
    ja.page.bring_to_front()
    ja.click_button("Show in English", exact=True, then="Penalty table only")


# --- every screen kind in Japanese: no English outside the sources' own words ----------------------

import re  # noqa: E402

import handbook  # noqa: E402

#: one route of every screen kind, with a Japanese text that shows the screen is ready
SCREENS = [
    ("/", "検索"),
    ("/rules", "罰則表のみ"),
    ("/rules/ema-rcr", "2016年より前の原文"),
    ("/rules/ema-rcr/3.4.6", "§3.4.6"),
    ("/rules/ema-rcr/editions", "EMA RCR 2016"),
    ("/penalties", "罰則"),
    ("/penalties/wrc-2025", "罰則"),
    ("/penalties/ema-rcr/empty-call-win", "Empty call for a win, if the hand is still concealed"),
    ("/penalties/ema-rcr/revealed-tiles", "Few tiles"),  # a covered-by reading
    ("/glossary", "用語集"),
    ("/glossary/uma", "ウマ"),
    ("/glossary/chombo-payment", "満貫払い"),
    ("/tools", "錯和（チョンボ）の精算"),
    ("/tools/chombo?ruleset=ema-rcr", "錯和（チョンボ）の精算"),
    ("/tools/revealed?ruleset=wrc-2025&tiles=2", "見せ牌"),
    ("/tools/final?ruleset=ema-rcr&e=40000&s=40000&w=25000&n=15000", "半荘終了"),
    ("/tools/strikes", "ストライク"),
    ("/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C", "見せ牌"),
    ("/study", "学習"),
    ("/study/progress", "進み具合"),
    ("/study/exam", "試験"),
    ("/bookmarks", "ブックマーク"),
    ("/x/1", "見つかりません"),  # the not-found screen shows the path it was given
    # the hand checker: a computed hand (a red five: a note and the options' citations) and a hand
    # without yaku (the empty-call ruling); the result card is below the keyboard (scrolled to)
    ("/tools/hand?ruleset=rakkii-nomi-2026&hand=234m406p678s23455s&win=5s&seat=S&discarder=W", "点数: 2,600"),
    ("/tools/hand?ruleset=ema-rcr&hand=567m22p345s678s&win=8s&melds=chi+123m&seat=W&discarder=S",
     "役なし：支払いはありません"),
]

#: screens whose lower part is read too (scrolled a screenful at a time)
SCROLLED = {"/tools/hand": 4, "/ledger": 3}

_WORD = re.compile(r"[A-Za-z][A-Za-z’'-]{2,}")


def _source_vocabulary(lib) -> set[str]:
    """Every word of the sources' own text the screens quote (rule text, penalty rows, the
    sources' glossary definitions, titles, citations), the glossary's English terms and romaji,
    and the names of rulesets: English that may stand on a Japanese screen."""
    parts: list[str] = []
    for rs in lib.rulesets.values():
        parts += [rs.title, rs.short, rs.source, rs.preface or ""]
        parts += [c.title + " " + c.text for c in rs.chapters]
        parts += [s.title + " " + s.text for s in rs.sections]
        parts += [" ".join(filter(None, (r.foul, r.penalty, r.category, r.note, r.condition, r.compare_label,
                                         r.compare_penalty, r.ref))) for r in rs.penalties]
        parts += [e.name + " " + e.cite + (" ".join(e.changes) if e.from_source else "") for e in rs.editions]
    for t in lib.glossary:
        parts += [t.term, *t.romaji]
        if t.provenance == "source":
            parts.append(t.definition)
    # what the Japanese of the handbook's own words keeps in Latin letters: names of sources, files
    # and options a citation quotes (Riichimi, kiriageMangan), never a word left untranslated by mistake
    # (content/ja is checked against the English it translates)
    parts += list(lib.translations.get("ja", {}).values())
    return {w.casefold() for p in parts for w in _WORD.findall(p)}


#: the ARIA dump's own words (roles, states), not the screen's
_ARIA = {"button", "checkbox", "tab", "heading", "link", "textbox", "group", "img", "slider", "switch",
         "checked", "selected", "value", "true", "false", "menu", "menuitem", "listbox", "option",
         "combobox", "dialog", "region", "radio", "list", "listitem", "text", "presentation",
         "generic", "tablist", "toolbar", "navigation", "main", "separator", "progressbar", "status",
         "alert", "spinbutton", "scrollbar", "tooltip", "none", "application", "document"}


def _english(hb: Handbook, route: str, allowed: set[str]) -> set[str]:
    """The English words on the screen shown, outside ``allowed``; a screen of :data:`SCROLLED`
    is read a screenful at a time down to its end (Flutter keeps only what is near in view)."""
    words: set[str] = set()
    steps = next((n for prefix, n in SCROLLED.items() if route.split("?")[0].startswith(prefix)), 0)
    for step in range(steps + 1):
        if step:
            hb.page.mouse.move(200, 600)
            hb.page.mouse.wheel(0, 800)
            hb.page.wait_for_timeout(700)
        words |= {w for w in _WORD.findall(hb.aria_dump().replace("\\n", " ").replace('"', " "))
                  if w.casefold() not in allowed}
    return words - _ARIA


def test_every_screen_kind_in_japanese_shows_english_only_in_the_sources_words(loaded_ja):
    allowed = _source_vocabulary(handbook.load_library())
    hb = loaded_ja
    found: dict[str, list[str]] = {}
    for route, ready in SCREENS:
        hb.start_at(route, ready=ready)  # inside the app: no page load each
        hb.wait_until_quiet()
        words = _english(hb, route, allowed)
        if route.startswith("/tools/hand"):
            hb.screenshot("ja-hand-" + route.split("ruleset=")[1].split("&")[0])
            # the ruleset's scoring options, opened: each with its citation or the handbook's assumption
            # (an ExpansionTile is no button in the semantics tree: tapped where it is, the card's
            # last line, once the screen is read down to its end)
            hb.page.mouse.click(160, 766)
            hb.wait_for_text("ハンドブックの仮定")
            words |= _english(hb, route, allowed)
        if words:
            found[route] = sorted(words)
    hb.screenshot("ja-screens")
    assert not found, "English outside the sources' words on Japanese screens:\n" + "\n".join(
        f"  {route}: {', '.join(ws)}" for route, ws in found.items())


def test_the_ledger_in_japanese_shows_english_only_in_the_sources_words(loaded_ja):
    """The ledger and a player's page after adding a record (on 127.0.0.1 with no passphrase set,
    nothing is asked): the form, the standing and the record in Japanese; the player's name and
    the penalty row (the source's words) may be English."""
    # the player's name (the judge typed it) and the export formats, written CSV and JSON in Japanese too
    allowed = _source_vocabulary(handbook.load_library()) | {"ida", "ito", "csv", "json"}
    hb = loaded_ja.start_at("/ledger", ready="記録を追加")
    hb.type_into("選手", "Ida Ito")
    box = hb.role("textbox", "反則")
    box.click()
    hb.page.wait_for_timeout(400)
    hb.page.keyboard.type("Noten", delay=30)
    hb.click_button("Noten Riichi — Chombo 30P", exact=True, then="ストライク（AZRM §1.4）")
    hb.click_button("記録を追加", exact=True, then="記録しました: ")
    found: dict[str, list[str]] = {}
    hb.start_at("/ledger", ready="記録を追加")  # the same route again: built anew
    hb.wait_until_quiet()
    if words := _english(hb, "/ledger", allowed):
        found["/ledger"] = sorted(words)
    hb.navigate("/ledger/Ida%20Ito", ready="期間内のストライク")
    hb.wait_until_quiet()
    if words := _english(hb, "/ledger/Ida%20Ito", allowed):
        found["/ledger/Ida%20Ito"] = sorted(words)
    hb.screenshot("ja-ledger-player")
    assert not found, "English outside the sources' words on Japanese ledger screens:\n" + "\n".join(
        f"  {route}: {', '.join(ws)}" for route, ws in found.items())
