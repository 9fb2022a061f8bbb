"""``handbook.study_deck``: every penalty row, every difference and every bilingual term has its
card; ids are unique, equal across loads, and unchanged when unrelated entries are added."""

from __future__ import annotations

import os
import subprocess
import sys
import re
import textwrap
from collections import Counter

import pytest

import handbook
from handbook.study.deck import KINDS, digest


def _by_kind(deck, kind):
    return [c for c in deck if c.kind == kind]


@pytest.mark.parametrize("ruleset", ["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_every_row_difference_and_term_has_its_card(library, ruleset):
    rs = library.rulesets[ruleset]
    deck = handbook.study_deck(ruleset, library=library)

    ids = [c.id for c in deck]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    assert {c.kind for c in deck} <= set(KINDS)

    penalty = _by_kind(deck, "penalty")
    assert [(c.ref, c.foul) for c in penalty] == [(r.id, r.foul) for r in rs.penalties]
    for card, row in zip(penalty, rs.penalties, strict=True):
        assert card.prompt.endswith(row.foul)
        assert card.ruleset == ruleset and card.cite == row.ref
        assert card.answer.splitlines()[0] == (row.penalty or "(the source gives no penalty)")
        if row.ref:
            assert row.ref in card.answer.replace("§", "")  # the answer cites its reference

    differs = [r for r in rs.penalties if r.differs]
    diff_cards = _by_kind(deck, "difference")
    assert [(c.ref, c.foul) for c in diff_cards] == [(r.id, r.foul) for r in differs]
    for card, row in zip(diff_cards, differs, strict=True):
        assert row.penalty in card.answer and row.compare_penalty in card.answer
        assert row.compare_label in card.answer

    bilingual = [t for t in library.glossary if t.japanese]
    terms = _by_kind(deck, "term")
    assert [c.ref for c in terms] == [t.id for t in bilingual]
    for card, t in zip(terms, bilingual, strict=True):
        assert card.prompt == t.term and card.ruleset is None
        assert t.japanese in card.answer
        if t.reading:
            assert t.reading in card.answer
    assert [c.ref for c in _by_kind(deck, "reading")] == [t.id for t in bilingual]
    assert [c.ref for c in _by_kind(deck, "section")] == [s.ref for s in rs.sections]


def test_the_wrc_tables_have_differences(library):
    # the source highlights the rows where the lower column differs; the deck must carry them
    for rid in ("wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"):
        n = sum(r.differs for r in library.rulesets[rid].penalties)
        assert n > 0
        assert len(_by_kind(handbook.study_deck(rid, library=library), "difference")) == n
    assert not _by_kind(handbook.study_deck("azrm", library=library), "difference")


def test_ids_equal_across_two_loads(library):
    first = handbook.load_library()
    second = handbook.load_library()
    assert first is not second
    for rid in [None, *library.rulesets]:
        a = [(c.id, c.kind, c.prompt, c.answer) for c in handbook.study_deck(rid, library=first)]
        b = [(c.id, c.kind, c.prompt, c.answer) for c in handbook.study_deck(rid, library=second)]
        assert a == b


def test_ids_are_the_same_in_a_fresh_process(library, root_dir):
    # SHA-1, not hash(): Python salts str hashes per process
    code = "import handbook; print('\\n'.join(c.id for c in handbook.study_deck('wrc-2025')))"
    env = dict(os.environ, PYTHONPATH=str(root_dir), PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         timeout=120, check=True).stdout.split()
    assert out == [c.id for c in handbook.study_deck("wrc-2025", library=library)]


def test_all_rulesets_deck_holds_each_ruleset_and_terms_once(library):
    everything = handbook.study_deck(library=library)
    ids = [c.id for c in everything]
    assert len(ids) == len(set(ids))
    for rid in library.rulesets:
        own = {c.id for c in handbook.study_deck(rid, library=library)}
        assert own <= set(ids)
    assert len(_by_kind(everything, "term")) == sum(1 for t in library.glossary if t.japanese)


def test_ids_unchanged_when_an_unrelated_row_and_term_are_inserted(library, content_copy):
    before = {rid: [c.id for c in handbook.study_deck(rid, library=library)] for rid in library.rulesets}
    azrm = content_copy / "penalties" / "azrm.toml"
    text = azrm.read_text(encoding="utf-8")
    first_row = text.index("[[row]]")
    inserted = textwrap.dedent("""\
        [[row]]
        id = "deal-error"
        category = "Shuffling and Drawing"
        foul = "A new first row of the table"
        penalty = "Warning"
        ref = "2.1"

        """)
    azrm.write_text(text[:first_row] + inserted + text[first_row:], encoding="utf-8")
    glossary = content_copy / "glossary.toml"
    gtext = glossary.read_text(encoding="utf-8")
    first_term = gtext.index("[[term]]")
    term = textwrap.dedent("""\
        [[term]]
        id = "aaa-new-term"
        term = "Aaa new term"
        japanese = "新語"
        reading = "しんご"
        definition = "Inserted before every other term."
        provenance = "handbook"

        """)
    glossary.write_text(gtext[:first_term] + term + gtext[first_term:], encoding="utf-8")

    changed = handbook.load_library(content_copy)
    assert changed.rulesets["azrm"].penalties[0].foul == "A new first row of the table"
    for rid, ids in before.items():
        after = [c.id for c in handbook.study_deck(rid, library=changed)]
        assert set(ids) <= set(after), rid
        assert len(after) == len(ids) + (3 if rid == "azrm" else 2)  # the row; the term's two cards
    new = {c.id for c in handbook.study_deck("azrm", library=changed)} - set(before["azrm"])
    assert new == {"penalty:azrm:deal-error:" + digest("A new first row of the table"),
                   "term:aaa-new-term", "reading:aaa-new-term"}


def test_spacing_and_case_of_a_foul_keep_its_id():
    assert digest("Too many  or too few\ttiles") == digest("too many or too few tiles")
    assert digest("Too many or too few tiles") != digest("Too many tiles")


def test_unknown_ruleset_names_the_argument(library):
    with pytest.raises(ValueError, match=r"ruleset: unknown ruleset 'wrc'.*azrm"):
        handbook.study_deck("wrc", library=library)


def test_card_routes_open_their_entry(library):
    deck = handbook.study_deck("azrm", library=library)
    kinds = {c.kind: c for c in deck}
    assert kinds["penalty"].route.startswith("/penalties/azrm/")
    assert kinds["section"].route.startswith("/rules/azrm/")
    assert kinds["term"].route == f"/glossary/{kinds['term'].ref}"


def test_study_deck_imports_neither_flet_nor_tinydb(root_dir):
    code = textwrap.dedent("""
        import sys
        sys.modules["flet"] = None
        sys.modules["tinydb"] = None
        sys.modules["fsrs"] = None
        import handbook
        assert handbook.study_deck("azrm")
        print("ok")
    """)
    env = dict(os.environ, PYTHONPATH=str(root_dir))
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr[-2000:]


def _section_marks(line, library):
    """(ruleset, [section numbers marked §]) of an answer line that names a ruleset first."""
    shorts = sorted(((rs.short, rs) for rs in library.rulesets.values()), key=lambda p: -len(p[0]))
    for short, rs in shorts:
        if line.startswith(short + " ") or line.startswith(short + ":"):
            return rs, re.findall(r"§\s?(\d+(?:\.\d+)*)", line)
    return None, re.findall(r"§\s?(\d+(?:\.\d+)*)", line)


@pytest.mark.parametrize("ruleset", ["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_every_section_mark_names_a_section_of_the_ruleset_it_cites(library, ruleset):
    # Rakkii Nomi 2026's rows cite WRC 2025 chapter 12.3; its own document has §1–§4 only
    checked = 0
    for card in handbook.study_deck(ruleset, library=library):
        for line in card.answer.splitlines():
            cited, marks = _section_marks(line, library)
            if not marks:
                continue
            assert cited is not None, (card.id, line)
            for ref in marks:
                assert cited.has_section(ref), f"{card.id}: {line!r} marks §{ref}, not a section of {cited.id}"
                checked += 1
        if card.cite and card.source:
            lead = re.match(r"\d+(?:\.\d+)+", card.cite)
            src = library.rulesets[card.source]
            if lead and src.sections:
                assert src.has_section(lead.group(0)) or not src.penalties, (card.id, card.source, card.cite)
    if library.rulesets[ruleset].sections and ruleset != "rakkii-nomi-2026":
        assert checked  # the section cards and AZRM/EMA rows do carry §


def test_rakkii_cards_cite_the_wrc_2025_chapter(library):
    rows = [c for c in handbook.study_deck("rakkii-nomi-2026", library=library) if c.kind == "penalty"]
    cited = [c for c in rows if c.cite and c.cite[:1].isdigit()]
    assert cited
    for c in cited:
        assert c.source == "wrc-2025"
        assert c.answer.splitlines()[-1] == f"WRC 2025 {c.cite}"


def test_ema_prompts_keep_the_foul_their_circumstance_belongs_to(library):
    # "Few tiles → Not penalized" reads as too few tiles in hand (a dead hand): say which foul
    rs = library.rulesets["ema-rcr"]
    cards = {c.foul: c for c in handbook.study_deck("ema-rcr", library=library) if c.kind == "penalty"}
    bare = [r for r in rs.penalties if r.category.casefold() not in r.foul.casefold()]
    assert len([r for r in bare if r.foul.startswith(("If ", "During ", "Few "))]) == 5
    for row in bare:
        assert cards[row.foul].prompt == f"{row.category}: {row.foul}"


# --- issue 45: yaku and payment cards ---------------------------------------------------------

@pytest.mark.parametrize("ruleset", ["azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"])
def test_yaku_and_payment_cards_come_from_the_rulesets_tables(library, ruleset):
    deck = handbook.study_deck(ruleset, library=library)
    yaku = {c.ref: c for c in deck if c.kind == "yaku"}
    assert set(yaku) == {y.id for y in handbook.yaku_list(ruleset, library=library) if not y.dora}
    table = handbook.payment_table(ruleset, library=library)
    pay = {c.id: c for c in deck if c.kind == "payment"}
    card = pay[f"payment:{ruleset}:3:30:dealer:tsumo"]
    assert card.prompt == "30 fu 3 han, dealer, tsumo?" and card.answer == "2,000 all"
    assert card.answer == table.points(3, 30, dealer=True, tsumo=True)
    assert pay[f"payment:{ruleset}:5:0:non-dealer:ron"].answer == "8,000 (mangan)"
    assert f"payment:{ruleset}:2:20:non-dealer:ron" not in pay  # 20 fu is never a ron
    assert card.route == f"/tools/payments?ruleset={ruleset}&han=3&fu=30"
    assert yaku["Pinfu"].route == f"/tools/yaku/Pinfu?ruleset={ruleset}"


def test_yaku_answers_differ_where_the_rulesets_do(library):
    ema = {c.ref: c for c in handbook.study_deck("ema-rcr", library=library) if c.kind == "yaku"}
    wrc = {c.ref: c for c in handbook.study_deck("wrc-2025", library=library) if c.kind == "yaku"}
    assert ema["Tanyao"].answer == "1 han, concealed hand only" and wrc["Tanyao"].answer == "1 han, open or closed"
    assert wrc["Sanshoku"].answer == "2 han closed, 1 open"
    assert ema["DaiSuushii"].answer == "Double yakuman" and wrc["DaiSuushii"].answer == "Yakuman"


def test_yaku_and_payment_cards_are_scheduled_and_in_the_exam(library, tmp_path):
    import random

    from handbook.storage import open_db
    from handbook.study.scheduler import exam_cards
    from handbook.study.store import StudyStore

    deck = handbook.study_deck("wrc-2025", library=library)
    store = StudyStore(open_db(tmp_path / "study.json"), library)
    for kind in ("yaku", "payment"):
        card = next(c for c in deck if c.kind == kind)
        store.review(card, "good")
        done = store.progress()[card.id]
        assert done.reviews == 1 and done.last_rating == 3 and done.due > done.fsrs.last_review  # fsrs scheduled it
    kinds = {c.kind for seed in range(30) for c in exam_cards(deck, rng=random.Random(seed))}
    assert {"yaku", "payment"} <= kinds
