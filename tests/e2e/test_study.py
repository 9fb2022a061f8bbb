"""Self-study in headless Chromium against the served app: answer a card, reload, the progress is
kept (the server's study file); the star on a section lands in Bookmarks and in the recent list."""

from __future__ import annotations

import handbook
from tests.support.studyclock import good_is_due_today


def test_answer_a_card_reload_and_the_progress_is_kept(hb):
    deck = handbook.study_deck("ema-rcr")
    first = deck[0]
    hb.open("/study?ruleset=ema-rcr", ready="Show answer")
    hb.wait_for_text(f"Due today: 0 · New: {len(deck)} · Learned: 0")
    assert hb.has_text(first.prompt)
    hb.click_button("Show answer", then="Same foul in other rulesets")
    assert hb.has_text(first.answer.splitlines()[0])
    # Good on a new card: fsrs's second learning step (10 minutes), so it is due today -- unless
    # the day ends within those minutes
    due_today = good_is_due_today()
    after = (f"Due today: 1 · New: {len(deck) - 1} · Learned: 0" if due_today
             else f"Due today: 0 · New: {len(deck) - 1} · Learned: 1")
    hb.click_button("Good", exact=True, then=after)
    assert hb.has_text(deck[1].prompt)
    hb.screenshot("study-after-good")
    hb.reload(ready="Show answer")
    hb.wait_for_text(after)
    hb.click_button("Progress", then="Answered wrong most often")
    hb.wait_for_text("Penalties: 0 learned · 1 due" if due_today else "Penalties: 1 learned · 0 due")


def test_star_a_section_then_find_it_in_bookmarks_and_recent(hb):
    hb.open("/rules/azrm/2.4", ready="Bookmark")
    hb.click_button("Bookmark", exact=True, role="switch", then=hb.page.get_by_role(
        "switch", name="Bookmark", checked=True))
    hb.navigate("/bookmarks", ready="AZRM §2.4")
    hb.navigate("/", ready="Recently opened")
    assert hb.has_text("AZRM §2.4")
