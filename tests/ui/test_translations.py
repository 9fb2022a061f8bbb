"""The handbook's own words in Japanese (content/ja/handbook.toml): every text the handbook wrote
has a translation, none is stale, each uses the terminology table's words and keeps the § and
ruleset references of its English; the screens show them in a Japanese session and keep the
sources' words as the sources wrote them."""

from __future__ import annotations

import re

import pytest
from tests.support.uihelpers import StubPage, texts

from handbook import i18n
from handbook.core.terminology import problems
from handbook.core.texts import Note, check_translations, handbook_texts, load_translations
from handbook.paths import CONTENT_DIR
from handbook.ui import screens
from handbook.ui.context import AppContext

_REFS = re.compile(r"§\s?\d+(?:\.\d+)*|(?<![A-Za-z0-9])(?:AZRM|EMA RCR|WRC 2025|Rakkii Nomi 2026) \d+(?:\.\d+)*")


def test_every_text_the_handbook_wrote_has_a_japanese_translation(library):
    missing, stale = check_translations(library, load_translations(CONTENT_DIR, "ja"))
    assert not missing, f"{len(missing)} texts have no Japanese in content/ja/handbook.toml:\n" + "\n".join(missing)
    assert not stale, "translations of texts the content no longer has:\n" + "\n".join(stale)
    assert len(handbook_texts(library)) > 150


def test_the_translations_use_the_terminology_tables_words(library):
    bad = problems(library.translations["ja"].items())
    assert not bad, "\n".join(f"{why}: {en[:60]!r}" for en, _ja, why in bad)


def test_the_translations_keep_every_reference(library):
    for en, ja in library.translations["ja"].items():
        assert sorted(_REFS.findall(en)) == sorted(_REFS.findall(ja)), (en[:80], ja[:80])


@pytest.fixture()
def ja_ctx(library):
    return AppContext(page=StubPage(), library=library, translator=i18n.translator("ja"))


def test_a_japanese_session_shows_the_handbooks_words_in_japanese(ja_ctx, library):
    uma = "\n".join(texts(screens.build_view(ja_ctx, "/glossary/uma")))
    assert "各+20,000" in uma and "share the points of first" not in uma
    # the source's own words stay as the source wrote them (AZRM's glossary definition of Kan)
    kan = library.term("kan")
    assert kan.provenance == "source" and kan.definition in "\n".join(texts(screens.build_view(ja_ctx, "/glossary/kan")))
    rules = "\n".join(texts(screens.build_view(ja_ctx, "/rules/ema-rcr")))
    assert "EMA RCR — 2016年より前の原文" in rules


def test_sentences_built_in_code_are_translated(ja_ctx):
    note = Note("{n} riichi sticks left on the table ({n}P) are lost: they go to no one.", n=2)
    assert str(note) == "2 riichi sticks left on the table (2P) are lost: they go to no one."
    assert ja_ctx.hb(note) == "卓に残った供託（リーチ棒）2本（2P）は没収となり、誰にも渡りません。"
    out = "\n".join(texts(screens.build_view(
        ja_ctx, "/tools/final?ruleset=ema-rcr&e=40000&s=40000&w=25000&n=15000")))
    assert "E・Sは40,000点で同点です" in out and "are tied on" not in out


def test_the_scoring_profiles_citations_are_handbook_texts(library):
    """The hand checker shows each scoring option's citation and whose rules a profile follows:
    check requires them in Japanese like every other text the handbook wrote."""
    texts_ = handbook_texts(library)
    for rid, profile in library.scoring.items():
        assert all(o.cite in texts_ for o in profile.options.values()), rid
        assert profile.follows_ref is None or profile.follows_ref in texts_, rid
