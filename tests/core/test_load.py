"""The loader: one failing content fixture per error code, and ``python -m handbook check``.

Each fixture is a copy of the shipped content with one thing broken (or one small entry added),
so it fails for exactly one reason. ``test_code_is_reported`` checks that loading it raises
:class:`handbook.ContentError` (a ``ValueError``) naming that code, the file and the entry;
``test_code_is_reported_alone`` checks that nothing else is reported (no knock-on problems that
send a club official looking for errors that are not there).

The codes come from the docstring of ``handbook/core/load.py``; a test checks that every code
listed there has a fixture here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

import handbook
from handbook.core import load as load_module

# --- editing helpers ----------------------------------------------------------------------------


class FixtureOutOfDate(RuntimeError):
    """The shipped content changed so that a fixture's edit no longer applies (never an xfail)."""


def _read(d: Path, rel: str) -> str:
    return (d / rel).read_text(encoding="utf-8")


def _write(d: Path, rel: str, text: str) -> None:
    (d / rel).parent.mkdir(parents=True, exist_ok=True)
    (d / rel).write_text(text, encoding="utf-8")


def replace_once(rel: str, old: str, new: str) -> Callable[[Path], None]:
    """A mutation replacing the one occurrence of ``old`` in ``rel`` (fails loudly if the
    shipped content changed so that ``old`` is not there exactly once)."""

    def mutate(d: Path) -> None:
        text = _read(d, rel)
        if text.count(old) != 1:
            raise FixtureOutOfDate(f"{old!r} occurs {text.count(old)} times in {rel}")
        _write(d, rel, text.replace(old, new))

    return mutate


def append(rel: str, extra: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        _write(d, rel, _read(d, rel) + "\n" + extra)

    return mutate


def prepend(rel: str, extra: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        _write(d, rel, extra + "\n" + _read(d, rel))

    return mutate


def new_file(rel: str, text: str) -> Callable[[Path], None]:
    def mutate(d: Path) -> None:
        if (d / rel).exists():
            raise FixtureOutOfDate(f"{rel} exists already")
        _write(d, rel, text)

    return mutate


def row_entry(table: str, row_id: str, *, appended: bool = False, foul: str | None = None) -> Callable[[Path], str]:
    """The loader's entry name for a penalty row, ``row N id`` (N counted in the shipped file)."""

    def entry(content: Path) -> str:
        rows = tomllib.loads(_read(content, f"penalties/{table}.toml"))["row"]
        if appended:
            return f"row {len(rows) + 1} {row_id}"
        n = next(i for i, r in enumerate(rows) if r["foul"] == foul)
        return f"row {n + 1} {row_id}"

    return entry


TERM = ('[[term]]\nid = "{id}"\nterm = "Test term"\ndefinition = "A term added by a test."\n'
        'provenance = "handbook"\n')
ROW = '[[row]]\nid = "obstruction"\ncategory = "Test"\nfoul = "A foul added by a test"\npenalty = "Warning"\n'
FOUL = '[[foul]]\nid = "{id}"\ncategory = "conduct"\nname = "A foul added by a test"\njapanese = ["試験"]\n'
RULESET = ('[[ruleset]]\nid = "{id}"\ntitle = "Test ruleset"\nshort = "Test"\nedition = "Test"\n'
           'source = "none"\n')

# --- the fixtures -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    code: str
    mutate: Callable[[Path], None]
    file: str
    entry: str | Callable[[Path], str] = ""
    message: str = ""  # a fragment the message must contain


CASES = [
    # HB001 a file cannot be read or is not valid TOML
    Case("hb001-glossary-not-toml", "HB001", append("glossary.toml", "this is = = not toml\n"),
         "glossary.toml", "", "not valid TOML"),
    Case("hb001-rules-not-toml", "HB001", append("rules/azrm.toml", "[[section]\nref = \n"),
         "rules/azrm.toml", "", "not valid TOML"),
    # HB002 an unknown key (the schema is closed)
    Case("hb002-section-unknown-key", "HB002",
         replace_once("rules/azrm.toml", 'title_ja = "見せ牌"\n', 'title_ja = "見せ牌"\ncolour = "red"\n'),
         "rules/azrm.toml", "2.4", "colour"),
    Case("hb002-section-search-unknown-key", "HB002",
         replace_once("rules/ema-rcr.toml", 'terms = ["atamahane", "sakizumo", "double-ron"]',
                      'terms = ["atamahane"]\ncolour = "red"'),
         "rules/ema-rcr.toml", "3.3.1 search", "colour"),
    Case("hb002-row-unknown-key", "HB002", append("penalties/ema-rcr.toml", ROW + 'colour = "red"\n'),
         "penalties/ema-rcr.toml", row_entry("ema-rcr", "obstruction", appended=True), "colour"),
    Case("hb002-term-unknown-key", "HB002", append("glossary.toml", TERM.format(id="test-term") + 'colour = "red"\n'),
         "glossary.toml", "test-term", "colour"),
    Case("hb002-rulesets-top-level", "HB002", prepend("rulesets.toml", 'colour = "red"\n'),
         "rulesets.toml", "", "colour"),
    Case("hb002-rules-top-level", "HB002", prepend("rules/ema-rcr.toml", 'colour = "red"\n'),
         "rules/ema-rcr.toml", "", "colour"),
    Case("hb002-ruleset-unknown-key", "HB002", append("rulesets.toml", RULESET.format(id="test-ruleset") + 'colour = "red"\n'),
         "rulesets.toml", "test-ruleset", "colour"),
    Case("hb002-rulings-band-unknown-key", "HB002",
         replace_once("rulings.toml", '{ min = 3, max = 4, row', '{ colour = "red", min = 3, max = 4, row'),
         "rulings.toml", "revealed_tiles azrm band 2", "colour"),
    # HB003 a required key is missing
    Case("hb003-section-missing-title", "HB003",
         replace_once("rules/azrm.toml", 'title = "Wrongly revealing tiles"\n', ""),
         "rules/azrm.toml", "2.4", "title"),
    Case("hb003-row-missing-penalty", "HB003",
         append("penalties/ema-rcr.toml", ROW.replace('penalty = "Warning"\n', "")),
         "penalties/ema-rcr.toml", row_entry("ema-rcr", "obstruction", appended=True), "penalty"),
    Case("hb003-term-missing-provenance", "HB003",
         append("glossary.toml", TERM.format(id="test-term").replace('provenance = "handbook"\n', '')),
         "glossary.toml", "test-term", "provenance"),
    Case("hb003-term-missing-definition", "HB003",
         append("glossary.toml", TERM.format(id="test-term").replace('definition = "A term added by a test."\n', "")),
         "glossary.toml", "test-term", "definition"),
    Case("hb003-ruleset-missing-source", "HB003",
         append("rulesets.toml", RULESET.format(id="test-ruleset").replace('source = "none"\n', "")),
         "rulesets.toml", "test-ruleset", "source"),
    # HB004 a value has the wrong type
    Case("hb004-row-points-string", "HB004", append("penalties/azrm.toml", ROW + 'points = "30"\n'),
         "penalties/azrm.toml", row_entry("azrm", "obstruction", appended=True), "points"),
    Case("hb004-term-romaji-string", "HB004", append("glossary.toml", TERM.format(id="test-term") + 'romaji = "tesuto"\n'),
         "glossary.toml", "test-term", "romaji"),
    Case("hb004-new-ruleset-date-string", "HB004",
         append("rulesets.toml", RULESET.format(id="test-ruleset") + 'date = "2026-04-20"\n'),
         "rulesets.toml", "test-ruleset", "date"),
    Case("hb004-azrm-date-string", "HB004", replace_once("rulesets.toml", "date = 2026-04-20\nsource", 'date = "2026-04-20"\nsource'),
         "rulesets.toml", "azrm", "date"),
    # HB005 a value is not allowed (bad slug, unknown penalty kind, empty text)
    Case("hb005-unknown-kind", "HB005", append("penalties/azrm.toml", ROW + 'kind = "yellow-card"\n'),
         "penalties/azrm.toml", row_entry("azrm", "obstruction", appended=True), "kind"),
    Case("hb005-bad-provenance", "HB005",
         append("glossary.toml", TERM.format(id="test-term").replace('"handbook"', '"ours"')),
         "glossary.toml", "test-term", "provenance"),
    Case("hb005-bad-slug", "HB005", append("glossary.toml", TERM.format(id="Test Term")),
         "glossary.toml", "Test Term", "id"),
    Case("hb005-empty-text", "HB005", append("rules/azrm.toml", '[[section]]\nref = "11.7"\ntitle = "Empty"\ntext = ""\n'),
         "rules/azrm.toml", "11.7", "text"),
    Case("hb005-rulings-unknown-penalty", "HB005",
         replace_once("rulings.toml", '{ min = 1, max = 2, row = "Wrongly revealing tiles", penalty = "warning"',
                      '{ min = 1, max = 2, row = "Wrongly revealing tiles", penalty = "yellow-card"'),
         "rulings.toml", "revealed_tiles wrc-2025 band 1", "yellow-card"),
    # HB010 a ruleset id is listed twice
    Case("hb010-duplicate-ruleset", "HB010", append("rulesets.toml", RULESET.format(id="ema-rcr")),
         "rulesets.toml", "ema-rcr", "twice"),
    # HB011 a ruleset names a base or penalty table that does not exist
    Case("hb011-missing-base", "HB011", replace_once("rulesets.toml", 'base = "wrc-2025"', 'base = "wrc-2099"'),
         "rulesets.toml", "rakkii-nomi-2026", "wrc-2099"),
    Case("hb011-missing-penalty-table", "HB011",
         append("rulesets.toml", RULESET.format(id="test-ruleset") + 'penalties = "wrc-2099"\n'),
         "rulesets.toml", "test-ruleset", "wrc-2099"),
    Case("hb011-term-source", "HB011", append("glossary.toml", TERM.format(id="test-term") + 'source = "wrc-2099"\n'),
         "glossary.toml", "test-term", "wrc-2099"),
    # HB012 a ruleset names a column its penalty table does not have
    Case("hb012-missing-column", "HB012",
         append("rulesets.toml", RULESET.format(id="test-ruleset") + 'penalties = "ema-rcr"\ncolumn = "lower"\n'),
         "penalties/ema-rcr.toml", "test-ruleset", "lower"),
    # HB013 a rule or penalty file belongs to no listed ruleset
    Case("hb013-orphan-penalties", "HB013", new_file("penalties/wrc-2031.toml", ROW),
         "penalties/wrc-2031.toml", "", "wrc-2031"),
    Case("hb013-orphan-rules", "HB013",
         new_file("rules/wrc-2031.toml", '[[section]]\nref = "1"\ntitle = "Preface"\ntext = "Text."\n'),
         "rules/wrc-2031.toml", "", "wrc-2031"),
    # HB020 a section ref appears twice in one ruleset
    Case("hb020-duplicate-section", "HB020",
         append("rules/azrm.toml", '[[section]]\nref = "11.6"\ntitle = "Contact, again"\ntext = "Text."\n'),
         "rules/azrm.toml", "11.6", "twice"),
    # HB021 a § reference in text points to no section of that ruleset
    Case("hb021-dangling-link", "HB021",
         replace_once("rules/azrm.toml", "Wrongly revealed tiles are returned to their original positions.",
                      "Wrongly revealed tiles are returned to their original positions (§9.9)."),
         "rules/azrm.toml", "2.4", "§9.9"),
    Case("hb021-link-to-other-ruleset", "HB021",
         replace_once("rules/ema-rcr.toml", "Tiles exposed from the wall are placed back in the wall.",
                      "Tiles exposed from the wall are placed back in the wall (§2.4)."),
         "rules/ema-rcr.toml", "3.4.8", "§2.4"),
    # HB022 a section belongs to no chapter
    Case("hb022-no-chapter", "HB022", append("rules/azrm.toml", '[[section]]\nref = "12.1"\ntitle = "Orphan"\ntext = "Text."\n'),
         "rules/azrm.toml", "12.1", "12"),
    # HB025 a section's search.terms names a glossary term that does not exist
    Case("hb025-search-unknown-term", "HB025",
         replace_once("rules/ema-rcr.toml", 'terms = ["atamahane", "sakizumo", "double-ron"]',
                      'terms = ["atamahane", "no-such-term"]'),
         "rules/ema-rcr.toml", "3.3.1", "no-such-term"),
    # HB023 a penalty row's ref names no section of its ruleset's rule text
    Case("hb023-row-ref-no-section", "HB023", append("penalties/azrm.toml", ROW + 'ref = "12.9"\n'),
         "penalties/azrm.toml", row_entry("azrm", "obstruction", appended=True), "12.9"),
    # HB030 a penalty row repeats a foul already in the table
    Case("hb030-duplicate-foul", "HB030", append("penalties/ema-rcr.toml", ROW.replace("A foul added by a test", "Cheating")),
         "penalties/ema-rcr.toml", row_entry("ema-rcr", "obstruction", appended=True), "Cheating"),
    # HB040 a glossary term id appears twice
    Case("hb040-duplicate-term", "HB040", append("glossary.toml", TERM.format(id="misehai")),
         "glossary.toml", "misehai", "twice"),
    # HB041 a see-also names a term that does not exist
    Case("hb041-missing-see-also", "HB041",
         append("glossary.toml", TERM.format(id="test-term") + 'see_also = ["misehai", "no-such-term"]\n'),
         "glossary.toml", "test-term", "no-such-term"),
    # HB042 a term's refs name a section that does not exist
    Case("hb042-missing-section", "HB042",
         append("glossary.toml", TERM.format(id="test-term") + 'refs = ["azrm:2.4", "azrm:9.9"]\n'),
         "glossary.toml", "test-term", "azrm:9.9"),
    Case("hb042-missing-ruleset", "HB042",
         append("glossary.toml", TERM.format(id="test-term") + 'refs = ["wrc-2099:1.1"]\n'),
         "glossary.toml", "test-term", "wrc-2099:1.1"),
    # HB014 an edition or interpretation names a row, section or calculator its ruleset lacks
    Case("hb014-history-unknown-row", "HB014",
         append("rulesets.toml", RULESET.format(id="test-ruleset")
                + '[[ruleset.history]]\nname = "Test 2020"\nstatus = "earlier"\nchanges = ["x"]\n'
                  'cite = "a test"\nnote = "n"\nrows = ["no-such-foul"]\n'),
         "rulesets.toml", "test-ruleset history 1", "no-such-foul"),
    Case("hb014-interpretation-unknown-row", "HB014",
         append("rulesets.toml", RULESET.format(id="test-ruleset")
                + '[[ruleset.interpretation]]\ntext = "A reading."\nrows = ["no-such-foul"]\n'),
         "rulesets.toml", "test-ruleset interpretation 1", "no-such-foul"),
    # HB024 a conflict is not flagged on both sides
    Case("hb024-row-conflict-not-flagged-back", "HB024",
         append("penalties/ema-rcr.toml", ROW + 'conflict = "Disagrees with §3.4.7."\nconflict_with = "3.4.7"\n'),
         "penalties/ema-rcr.toml", row_entry("ema-rcr", "obstruction", appended=True), "3.4.7"),
    Case("hb024-section-conflict-no-row", "HB024",
         replace_once("rules/ema-rcr.toml", 'conflict_with = ["calling-with-dead-hand", "empty-call-win"]',
                      'conflict_with = ["calling-with-dead-hand", "empty-call-win", "cheating"]'),
         "rules/ema-rcr.toml", "3.4.6", "cheating"),
    # HB043 a term marked as the source's words names no source
    Case("hb043-source-term-without-source", "HB043",
         append("glossary.toml", TERM.format(id="test-term").replace('"handbook"', '"source"')),
         "glossary.toml", "test-term", "provenance"),
    # HB050 a calculator ruling names an unknown ruleset or is inconsistent
    Case("hb050-band-missing-row", "HB050",
         replace_once("rulings.toml", 'row = "Wrongly revealing tiles: 3 or 4 tiles"', 'row = "Wrongly revealing tiles: three or four"'),
         "rulings.toml", "revealed_tiles azrm band 2", "three or four"),
    Case("hb050-band-gap", "HB050", replace_once("rulings.toml", "{ min = 3, max = 4, row", "{ min = 3, max = 3, row"),
         "rulings.toml", "revealed_tiles azrm", "gaps"),
    Case("hb050-band-overlap", "HB050", replace_once("rulings.toml", "{ min = 3, max = 4, row", "{ min = 2, max = 4, row"),
         "rulings.toml", "revealed_tiles azrm", "overlaps"),
    Case("hb050-band-missing-top", "HB050",
         replace_once("rulings.toml", '{ min = 7, row = "Wrongly revealing tiles", penalty = "chombo"',
                      '{ min = 7, max = 100, row = "Wrongly revealing tiles", penalty = "chombo"'),
         "rulings.toml", "revealed_tiles wrc-2025", "136"),
    Case("hb050-chombo-unknown-ruleset", "HB050",
         append("rulings.toml", '[[chombo]]\nruleset = "wrc-2099"\nref = "12.3"\npoints = 30\nstrike = false\n'
                'redeal = true\ndeposits_returned = true\nhonba_added = false\ndealer_rotates = false\n'),
         "rulings.toml", "chombo wrc-2099", "wrc-2099"),
    Case("hb050-revealed-unknown-ruleset", "HB050",
         append("rulings.toml", '[[revealed_tiles]]\nruleset = "wrc-2099"\nref = "1"\n'
                'during_deal = { penalty = "redeal" }\nband = [{ min = 1, penalty = "warning" }]\n'),
         "rulings.toml", "revealed_tiles wrc-2099", "wrc-2099"),
    # HB060 a penalty row's foul id has no entry in fouls.toml
    Case("hb060-row-without-foul", "HB060", append("penalties/ema-rcr.toml", ROW.replace('"obstruction"', '"test-foul"')),
         "penalties/ema-rcr.toml", row_entry("ema-rcr", "test-foul", appended=True), "test-foul"),
    # HB061 a foul id is listed twice in fouls.toml
    Case("hb061-duplicate-foul", "HB061", append("fouls.toml", FOUL.format(id="late")),
         "fouls.toml", "late", "twice"),
    # HB062 a foul names a glossary term that does not exist
    Case("hb062-foul-unknown-term", "HB062",
         replace_once("fouls.toml", 'terms = ["misehai", "wall", "dead-wall"]', 'terms = ["misehai", "no-such-term"]'),
         "fouls.toml", "revealed-tiles", "no-such-term"),
    # HB063 a foul in fouls.toml has no row in any penalty table
    Case("hb063-foul-without-rows", "HB063", append("fouls.toml", FOUL.format(id="test-foul")),
         "fouls.toml", "test-foul", "no penalty table"),
    # HB064 a foul's covered_by names an unknown ruleset, one with rows of the foul, or a missing target
    Case("hb064-covered-by-missing-section", "HB064",
         replace_once("fouls.toml", 'ema-rcr = ["rule:3.3.8"]\n\n[[foul]]\nid = "riichi-not-saying"',
                      'ema-rcr = ["rule:3.3.9"]\n\n[[foul]]\nid = "riichi-not-saying"'),
         "fouls.toml", "called-tile-placement", "rule:3.3.9"),
    Case("hb064-covered-by-ruleset-with-rows", "HB064",
         replace_once("fouls.toml", 'ema-rcr = ["penalty:revealed-tiles", "rule:3.4.8"]\n\n[[foul]]\nid = "revealed-tiles"',
                      'azrm = ["penalty:revealed-tiles"]\n\n[[foul]]\nid = "revealed-tiles"'),
         "fouls.toml", "wrong-draw", "has rows of this foul"),
    # HB065 a foul's category names no [[category]], a category is listed twice or has no foul
    Case("hb065-foul-unknown-category", "HB065",
         replace_once("fouls.toml", 'id = "phone-ringing"\ncategory = "devices"', 'id = "phone-ringing"\ncategory = "gadgets"'),
         "fouls.toml", "phone-ringing", "gadgets"),
    Case("hb065-category-listed-twice", "HB065",
         replace_once("fouls.toml", '[[category]]\nid = "riichi"', '[[category]]\nid = "calls"'),
         "fouls.toml", "category calls", "twice"),
    Case("hb065-category-without-fouls", "HB065",
         append("fouls.toml", '[[category]]\nid = "empty-one"\nname = "Nothing here"\n'),
         "fouls.toml", "category empty-one", "no foul"),
    # a foul without a category: the closed schema's missing key, naming the file and the entry
    Case("hb003-foul-without-category", "HB003",
         replace_once("fouls.toml", 'id = "late"\ncategory = "attendance"\n', 'id = "late"\n'),
         "fouls.toml", "late", "category"),
    # HB075 a translation file cannot be read or has an entry without its two texts
    Case("hb075-translation-without-english", "HB075",
         replace_once("ja/handbook.toml", 'en = "text before 2016"', 'fr = "text before 2016"'),
         "ja/handbook.toml", "", "needs exactly `en` and `ja`"),
    Case("hb064-covered-by-unknown-ruleset", "HB064",
         replace_once("fouls.toml", 'ema-rcr = ["penalty:revealed-tiles", "rule:3.4.8"]\n\n[[foul]]\nid = "revealed-tiles"',
                      'wrc-2099 = ["penalty:revealed-tiles"]\n\n[[foul]]\nid = "revealed-tiles"'),
         "fouls.toml", "wrong-draw", "wrc-2099"),
    # HB070 a scoring profile names an unknown ruleset, is listed twice, follows nothing, or is incomplete
    Case("hb070-profile-unknown-ruleset", "HB070",
         append("scoring.toml", '[[profile]]\nruleset = "wrc-2099"\nfollows = "wrc-2025"\n'),
         "scoring.toml", "profile wrc-2099", "wrc-2099"),
    Case("hb070-profile-follows-a-follower", "HB070",
         replace_once("scoring.toml", 'ruleset = "azrm"\nfollows = "wrc-2025"', 'ruleset = "azrm"\nfollows = "wrc-2025-lower"'),
         "scoring.toml", "profile azrm", "wrc-2025-lower"),
    Case("hb070-option-unsettled", "HB070",
         replace_once("scoring.toml", '[profile.option.kiriage]\nvalue = false\nbasis = "assumption"\n'
                      'cite = "no rounding up to mangan (4 han 30 fu pays 7,700); the EMA RCR text at hand does not say, '
                      'and the EMA\'s 2016 announcement lists \\"4-30 is not rounded to mangan payment\\" as a difference '
                      'from the WRC rules without naming it as a change"\n',
                      ""),
         "scoring.toml", "profile ema-rcr", "no kiriage"),
    # HB071 a scoring option's ref names no section, or a "source" option has no ref
    Case("hb071-option-ref-missing-section", "HB071",
         replace_once("scoring.toml", 'ref = "ema-rcr:3.4.11"', 'ref = "ema-rcr:3.4.99"'),
         "scoring.toml", "profile ema-rcr option two_yaku_counters", "3.4.99"),
    # HB072 a scoring profile's empty_call_foul is not a foul of its ruleset's table
    Case("hb072-unknown-empty-call-foul", "HB072",
         replace_once("scoring.toml", 'follows_ref = "AZRM follows the WRC rulebook, AZRM §1.3"\nempty_call_foul = "empty-call-win"',
                      'follows_ref = "AZRM follows the WRC rulebook, AZRM §1.3"\nempty_call_foul = "no-such-foul"'),
         "scoring.toml", "profile azrm", "no-such-foul"),
    # HB065 a foul's category names no [[category]], a category is listed twice or has no foul
    Case("hb065-foul-unknown-category", "HB065",
         replace_once("fouls.toml", 'id = "phone-ringing"\ncategory = "devices"', 'id = "phone-ringing"\ncategory = "gadgets"'),
         "fouls.toml", "phone-ringing", "gadgets"),
    Case("hb065-category-listed-twice", "HB065",
         replace_once("fouls.toml", '[[category]]\nid = "riichi"', '[[category]]\nid = "calls"'),
         "fouls.toml", "category calls", "twice"),
    Case("hb065-category-without-fouls", "HB065",
         append("fouls.toml", '[[category]]\nid = "empty-one"\nname = "Nothing here"\n'),
         "fouls.toml", "category empty-one", "no foul"),
    # a foul without a category: the closed schema's missing key, naming the file and the entry
    Case("hb003-foul-without-category", "HB003",
         replace_once("fouls.toml", 'id = "late"\ncategory = "attendance"\n', 'id = "late"\n'),
         "fouls.toml", "late", "category"),
    # HB075 a translation file cannot be read or has an entry without its two texts
    Case("hb075-translation-without-its-text", "HB075", append("ja/handbook.toml", '[[text]]\nen = "A text"\n'),
         "ja/handbook.toml", "", "needs exactly"),
]

# the codes listed in load.py's docstring (the table of HBnnn lines)
_DOC_CODES = re.findall(r"^(HB\d{3})\s", load_module.__doc__ or "", flags=re.M)


#: codes reported only by the word-for-word source check (tests/content/test_content_provenance.py)
SOURCE_CHECK_CODES = {"HB044"}


def test_every_documented_code_has_a_fixture():
    assert _DOC_CODES, "load.py's docstring lists no codes"
    assert sorted(set(_DOC_CODES)) == sorted({c.code for c in CASES} | SOURCE_CHECK_CODES)


def _load_broken(content_copy: Path, case: Case) -> tuple[handbook.ContentError, str]:
    entry = case.entry(content_copy) if callable(case.entry) else case.entry  # before the edit
    case.mutate(content_copy)
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy)
    return info.value, entry


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_code_is_reported(content_copy, case: Case):
    exc, entry = _load_broken(content_copy, case)
    assert isinstance(exc, ValueError)
    matching = [p for p in exc.problems if p.code == case.code and p.file == case.file and p.entry == entry]
    assert matching, f"no {case.code} for {case.file} [{entry}] in:\n" + "\n".join(map(str, exc.problems))
    p = matching[0]
    assert case.message.lower() in p.message.lower(), p.message
    # the message of the exception names the code, the file, the entry and what is wrong
    where = f"{case.code} {case.file}" + (f" [{entry}]" if entry else "")
    assert f"{where}: {p.message}" in str(exc)
    assert str(p) == f"{where}: {p.message}"


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id) for c in CASES])
def test_code_is_reported_alone(content_copy, case: Case):
    exc, _ = _load_broken(content_copy, case)
    assert {p.code for p in exc.problems} == {case.code}, "\n".join(map(str, exc.problems[:10]))


def test_shipped_content_loads(content_dir):
    lib = handbook.load_library(content_dir)
    assert set(lib.rulesets) >= {"azrm", "ema-rcr", "wrc-2025", "wrc-2025-lower", "rakkii-nomi-2026"}


def test_load_accepts_str_and_pathlike(content_dir):
    a = handbook.load_library(str(content_dir))
    b = handbook.load_library(content_dir)
    assert [s.ref for s in a.rulesets["azrm"].sections] == [s.ref for s in b.rulesets["azrm"].sections]


def test_load_none_is_the_shipped_content(library, content_dir):
    other = handbook.load_library(content_dir)
    assert list(library.rulesets) == list(other.rulesets)
    assert [t.id for t in library.glossary] == [t.id for t in other.glossary]


def test_missing_folder_is_hb001(tmp_path):
    missing = tmp_path / "no-such-content"
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(missing)
    assert [p.code for p in info.value.problems] == ["HB001"]
    assert str(missing) in str(info.value)


def test_missing_rulesets_file_is_hb001(content_copy):
    (content_copy / "rulesets.toml").unlink()
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy)
    assert any(p.code == "HB001" and p.file == "rulesets.toml" for p in info.value.problems)


def test_every_problem_is_collected_in_one_error(content_copy):
    """Loading does not stop at the first problem: three files broken, three problems reported."""
    replace_once("rules/azrm.toml", "Wrongly revealed tiles are returned to their original positions.",
                 "Wrongly revealed tiles are returned to their original positions (§9.9).")(content_copy)
    append("glossary.toml", TERM.format(id="test-term") + 'see_also = ["no-such-term"]\n')(content_copy)
    new_file("penalties/wrc-2031.toml", ROW)(content_copy)
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy)
    got = sorted((p.code, p.file, p.entry) for p in info.value.problems)
    assert got == [("HB013", "penalties/wrc-2031.toml", ""), ("HB021", "rules/azrm.toml", "2.4"),
                   ("HB041", "glossary.toml", "test-term")]
    assert str(info.value).startswith("3 content problems:")


def test_problem_is_a_readable_line():
    p = handbook.Problem("HB021", "rules/azrm.toml", "5.1", "text refers to §4.9, which is not a section of azrm")
    assert str(p) == "HB021 rules/azrm.toml [5.1]: text refers to §4.9, which is not a section of azrm"
    assert str(handbook.Problem("HB001", "glossary.toml", "", "not valid TOML")) == "HB001 glossary.toml: not valid TOML"


# --- gaps in the closed schema (reported, not fixed here) -----------------------------------------

RULINGS_GAPS = [
    pytest.param(prepend("rulings.toml", "colour = 1\n"), "HB002", id="top-level-unknown-key"),
    pytest.param(replace_once("rulings.toml", 'wall_notes = ["The penalty', 'wall_note = ["The penalty'), "HB002",
                 id="revealed-tiles-unknown-key"),
    pytest.param(replace_once("rulings.toml", "points = 30\nstrike = true\n", "points = 30\nstrikes = true\n"), "HB002",
                 id="chombo-unknown-key"),
    pytest.param(replace_once("rulings.toml", "points = 30\nstrike = true\nredeal = true\n", "points = 30\nstrike = true\n"),
                 "HB003", id="chombo-missing-redeal"),
    pytest.param(replace_once("rulings.toml", "points = 30\nstrike = true\n", 'points = "thirty"\nstrike = true\n'),
                 "HB004", id="chombo-points-string"),
    pytest.param(replace_once("rulings.toml", "{ min = 3, max = 4, row", '{ min = "three", max = 4, row'), "HB004",
                 id="band-min-string"),
    pytest.param(replace_once("rulings.toml", 'band = [{ min = 1, row = "Wrongly revealing tiles" }]\n\n[[revealed_tiles]]\nruleset = "rakkii',
                              'band = [1]\n\n[[revealed_tiles]]\nruleset = "rakkii'), "HB004", id="band-not-a-table"),
    pytest.param(append("rulings.toml", '[[chombo]]\nruleset = "azrm"\nref = "1.4"\npoints = 10\nstrike = true\n'
                        'redeal = true\ndeposits_returned = true\nhonba_added = false\ndealer_rotates = false\n'),
                 "HB050", id="chombo-listed-twice"),
]


@pytest.mark.parametrize(("mutate", "code"), RULINGS_GAPS)
def test_rulings_file_has_a_closed_schema(content_copy, mutate, code):
    mutate(content_copy)
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy)
    assert any(p.code == code and p.file == "rulings.toml" for p in info.value.problems)


@pytest.mark.parametrize("mutate", [
    pytest.param(replace_once("rules/azrm.toml", 'ref = "1"\ntitle = "Basics"\n', 'ref = "1"\ntitle = "Basics"\ntext = "See §99.1."\n'),
                 id="chapter-text"),
    pytest.param(replace_once("rules/azrm.toml", "April 14, 2026\n", "April 14, 2026 (see §99.1)\n"), id="preface"),
])
def test_links_outside_section_text_are_checked(content_copy, mutate):
    mutate(content_copy)
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy)
    assert [p.code for p in info.value.problems] == ["HB021"]


# --- python -m handbook check ----------------------------------------------------------------------


def _check(root_dir: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(root_dir) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "handbook", "check", *args], cwd=root_dir, env=env,
                          capture_output=True, text=True, timeout=120)


def test_check_is_clean_on_the_shipped_content(root_dir, library):
    done = _check(root_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    sections = sum(len(r.sections) for r in library.rulesets.values())
    rows = sum(len(r.penalties) for r in library.rulesets.values())
    m = re.fullmatch(r"ok: (\d+) rulesets, (\d+) sections, (\d+) penalty rows, (\d+) terms(?:; .*)?", lines[0])
    assert m, lines[0]
    assert tuple(map(int, m.groups()[:4])) == (len(library.rulesets), sections, rows, len(library.glossary))
    assert done.stderr == ""


def test_check_says_when_the_source_check_is_skipped(root_dir, monkeypatch):
    monkeypatch.delenv("HANDBOOK_SOURCES", raising=False)
    done = _check(root_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "source check skipped" in done.stdout


def test_check_with_an_explicit_folder(root_dir, content_copy):
    done = _check(root_dir, str(content_copy))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("ok: ")


def test_check_lists_every_problem_and_exits_1(root_dir, content_copy):
    replace_once("rules/azrm.toml", "Wrongly revealed tiles are returned to their original positions.",
                 "Wrongly revealed tiles are returned to their original positions (§9.9).")(content_copy)
    append("glossary.toml", TERM.format(id="test-term") + 'see_also = ["no-such-term"]\n')(content_copy)
    new_file("penalties/wrc-2031.toml", ROW)(content_copy)
    append("penalties/ema-rcr.toml", ROW + 'kind = "yellow-card"\n')(content_copy)
    with pytest.raises(handbook.ContentError) as info:
        handbook.load_library(content_copy)
    expected = [str(p) for p in info.value.problems]
    assert len(expected) == 4

    done = _check(root_dir, str(content_copy))
    assert done.returncode == 1
    assert done.stdout.splitlines() == expected
    assert {line.split()[0] for line in done.stdout.splitlines()} == {"HB005", "HB013", "HB021", "HB041"}
    assert "4 problems found" in done.stderr


def test_check_on_a_missing_folder_exits_1(root_dir, tmp_path):
    done = _check(root_dir, str(tmp_path / "nowhere"))
    assert done.returncode == 1
    assert done.stdout.startswith("HB001 ")
