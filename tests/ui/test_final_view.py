"""The end-of-hanchan screen and the calculator changes, built in-process on a stub page and
driven through their event handlers (tests/e2e/test_tools.py drives them in Chromium)."""

from __future__ import annotations

import pytest
from tests.support.uihelpers import Event, texts, walk

import handbook
from handbook.ui.screens import build_view
from handbook.ui import calculator_parts
from handbook.ui.views import calculators as calc
from handbook.ui.views import final


def by_key(view, key):
    found = [c for c in walk(view) if getattr(c, "key", None) == key]
    assert found, f"no control with key {key!r}"
    return found[0]


def shown(view) -> str:
    return "\n".join(texts(view))


def type_into(view, key, value):
    box = by_key(view, key)
    box.value = value
    box.on_change(Event(box))


# --- data helpers ---------------------------------------------------------------------------------

@pytest.mark.parametrize("typed,value", [("25000", 25000), ("25,000", 25000), ("\u221212,300", -12300),
                                         ("-3000", -3000), ("25 000", 25000), ("+100", 100)])
def test_parse_points(typed, value):
    assert final.parse_points(typed, "scores: E") == value


@pytest.mark.parametrize("typed", ["", "25k", "2,50,00", "--3", "1.5"])
def test_parse_points_refuses_and_names_the_box(typed):
    with pytest.raises(ValueError, match=r"^scores: E: "):
        final.parse_points(typed, "scores: E")


@pytest.mark.parametrize("typed,grouped", [("25000", "25,000"), ("-25000", "\u221225,000"), ("2500", "2,500"),
                                           ("25,0001", "250,001"), ("-", "\u2212"), ("", "")])
def test_group_as_typed(typed, grouped):
    assert final.group_as_typed(typed) == grouped


def test_flip_sign_round_trips():
    assert final.flip_sign("25,000") == "\u221225,000"
    assert final.flip_sign(final.flip_sign("25,000")) == "25,000"


def test_sum_error_text_says_by_how_much():
    with pytest.raises(handbook.ScoreSumError) as info:
        handbook.final_score("wrc-2025", {"E": 40000, "S": 30000, "W": 20000, "N": 29000})
    text = final.sum_error_text(info.value, lambda s: s)
    assert "1,000 short — one riichi stick not counted?" in text and "120,000" in text


def test_final_text_has_a_line_per_seat_and_the_rules(library):
    f = handbook.final_score("ema-rcr", {"E": 22000, "S": 45000, "W": 16000, "N": 35000}, deposits=2)
    lines = final.final_text(f, library, lambda s: s).splitlines()
    assert lines[0] == "End of hanchan — EMA RCR (EMA RCR §3.6)"
    assert lines[2] == ("South: rank 1, 45,000 table points, uma +30P, riichi sticks +2P, penalty 0P, "
                        "final +47P")
    assert "EMA RCR §3.6.1" in lines[-1] and "to the winner" in lines[-1]


# --- /tools/final ---------------------------------------------------------------------------------

def test_final_screen_from_typed_scores(ctx):
    v = build_view(ctx, "/tools/final?ruleset=ema-rcr")
    assert "Enter the four table scores." in shown(v)
    for seat, score in zip("ESWN", ["22000", "45000", "16000", "38000"], strict=True):
        type_into(v, f"score-{seat}", score)
    assert by_key(v, "score-S").value == "45000"
    by_key(v, "score-S").on_blur(Event(by_key(v, "score-S")))
    assert by_key(v, "score-S").value == "45,000"  # grouped when the box loses focus
    assert "1,000 over" in shown(v)             # 121,000 and no sticks left: one too many
    type_into(v, "score-N", "36000")
    assert "1,000 short — one riichi stick not counted?" in shown(v)
    type_into(v, "score-N", "37000")
    text = shown(v)
    assert "South: rank 1, final +45P" in text and "North: rank 2, final +17P" in text
    assert "(EMA RCR §3.6.1)" in text and "(EMA RCR §3.6)" in text
    type_into(v, "pen-S", "20")
    assert "South: rank 1, final +25P" in shown(v)


def test_final_screen_sign_and_sticks_buttons(ctx):
    v = build_view(ctx, "/tools/final?ruleset=rakkii-nomi-2026&e=41000&s=30000&w=31000&n=20000")
    assert "1,000 over" in shown(v) or "2,000 short" in shown(v) or "not add up" in shown(v)
    by_key(v, "sign-N").on_click(None)          # 20,000 → −20,000: way off
    assert by_key(v, "score-N").value == "\u221220,000"
    by_key(v, "sign-N").on_click(None)
    type_into(v, "score-E", "38000")
    by_key(v, "more-sticks").on_click(None)     # 38 + 30 + 31 + 20 + 1 stick = 120
    text = shown(v)
    assert "East: rank 1, final +24P" in text   # 8 + 15 uma + 1 stick
    assert "(Rakkii Nomi 2026 §2.2)" in text


def test_tools_lists_end_of_hanchan(ctx, navigated):
    v = build_view(ctx, "/tools")
    by_key(v, "/tools/final").on_click(None)
    assert navigated[-1] == "/tools/final"


# --- chombo foul picker, revealed tiles choices, the reading sentence ------------------------------

def test_chombo_foul_picker_gives_the_rows_points(ctx):
    v = build_view(ctx, "/tools/chombo?ruleset=rakkii-nomi-2026")
    picker = by_key(v, "foul")
    assert picker.value == calc.USUAL and "Points deducted: 20P" in shown(v)
    picker.value = "premature-tenpai-declaration"
    picker.on_select(Event(picker))
    assert "Points deducted: 30P" in shown(v)


def test_revealed_wrc_deal_offers_both_calls(ctx):
    v = build_view(ctx, "/tools/revealed?ruleset=wrc-2025&tiles=2&deal=1")
    text = shown(v)
    assert "Penalty: Not penalized / Re-deal" in text and "The referee's call" in text
    v = build_view(ctx, "/tools/revealed?ruleset=wrc-2025&tiles=2")
    text = shown(v)
    assert "Penalty: Warning" in text and "Penalty: Warning /" not in text and "only if it is repeated" in text


def test_strikes_sentence_on_the_player_page_too(ctx):
    s = handbook.strike_status([], __import__("datetime").date(2026, 1, 1))
    out = "\n".join(texts(calc.strike_status_controls(ctx, s, literal=False)))
    assert "officials decide" in out


def test_the_ema_chombo_and_end_of_hanchan_offer_the_2016_edition_labelled(ctx):
    v = build_view(ctx, "/tools/chombo?ruleset=ema-rcr")
    text = shown(v)
    picker = by_key(v, "edition")
    assert "EMA RCR — text before 2016" in " ".join(o.text for o in picker.options)
    assert picker.value == calculator_parts.SOURCE_EDITION and "Payments (table points)" in text
    assert "Usual chombo (paid at the table, no P deducted)" in " ".join(o.text for o in by_key(v, "foul").options)
    v = build_view(ctx, "/tools/chombo?ruleset=ema-rcr&edition=2016")
    text = shown(v)
    assert "Points deducted: 20P" in text and "No payment: the table score is unchanged." in text
    v = build_view(ctx, "/tools/final?ruleset=ema-rcr&edition=2016&e=30000&s=30000&w=30000&n=30000")
    assert "(20P) per chombo come off the offender's score after uma" in shown(v)
    v = build_view(ctx, "/tools/chombo?ruleset=azrm")
    assert not any(getattr(c, "key", None) == "edition" for c in walk(v))  # no other edition stated


def test_the_rules_pages_say_the_edition(ctx):
    assert "EMA RCR — text before 2016" in shown(build_view(ctx, "/rules"))
    assert "EMA RCR — text before 2016" in shown(build_view(ctx, "/rules/ema-rcr"))
