"""Glossary: ``/glossary`` (every term in English, Japanese and kana, with a filter that works in
either script) and ``/glossary/<id>`` (one term with its sections and see-also terms)."""

from __future__ import annotations

from collections.abc import Iterable

import flet as ft

from handbook.core.model import Library, Section, Term
from handbook.core.search import fold, romaji_key
from handbook.ui.context import AppContext
from handbook.ui.routes import section_route, term_route
from handbook.ui.text import ref_label
from handbook.ui.titles import section_title, term_title
from handbook.ui.titles import sorted_terms as _sorted_terms
from handbook.ui.widgets import (
    BODY_SIZE,
    SMALL_SIZE,
    badge,
    empty_note,
    entry_actions,
    filter_field,
    nav_tile,
    note_box,
    refresh,
    rich_text,
    section_heading,
)


# ------------------------------------------------------------------ data (no flet)


def term_keys(t: Term) -> tuple[str, ...]:
    """The folded strings a filter matches: English term and aliases, Japanese, reading, romaji
    (and their spelling-insensitive romaji keys: "ryukyoku" matches "ryūkyoku", "chonbo" "chombo")."""
    raw = [t.term, *t.aliases, *t.romaji, t.japanese or "", t.reading or "", t.id.replace("-", " ")]
    folded = [fold(x) for x in raw if x]
    keys = [romaji_key(w) for x in folded for w in x.split() if x.isascii()]
    return tuple(folded + keys)


def filter_terms(terms: Iterable[Term], query: str, library: Library | None = None) -> list[Term]:
    """Terms matching ``query`` in English, Japanese (kanji, hiragana or katakana) or romaji;
    every word of the query must match. Given the ``library``, also the terms the search's
    matching finds by their names (typos, long vowels, kana/romaji, stems:
    :meth:`Library.matching`). An empty query keeps every term."""
    q = fold(query).strip()
    if not q:
        return list(terms)
    words = q.split()
    matched = ({h.ref for h in library.matching(query, kind="term", names_only=True)}
               if library is not None else set())
    out = []
    for t in terms:
        if t.id in matched:
            out.append(t)
            continue
        keys = term_keys(t)
        hay = " | ".join(keys)
        ok = True
        for w in words:
            if w in hay:
                continue
            if w.isascii() and any(romaji_key(w) in k for k in keys):
                continue
            ok = False
            break
        if ok:
            out.append(t)
    return out


def sorted_terms(terms: Iterable[Term], language: str = "en") -> list[Term]:
    """Alphabetical by the English term (case-insensitive); in Japanese (``language="ja"``) in
    gojūon order of the kana reading (see :mod:`handbook.ui.titles`)."""
    return _sorted_terms(terms, language)


def term_sections(library: Library, t: Term) -> list[tuple[str, Section]]:
    """The sections in ``Term.refs`` that exist, as ``(ruleset short name, Section)``."""
    out = []
    for rid, ref in t.refs:
        rs = library.rulesets.get(rid)
        if rs and rs.has_section(ref):
            out.append((rs.short, rs.section(ref)))
    return out


def see_also(library: Library, t: Term) -> list[Term]:
    out = []
    for tid in t.see_also:
        try:
            out.append(library.term(tid))
        except KeyError:
            continue
    return out


# ------------------------------------------------------------------------- views


def term_subtitle(t: Term) -> str:
    return " · ".join(x for x in (t.japanese, t.reading) if x)


def build_index(ctx: AppContext) -> ft.View:
    _ = ctx._
    terms = sorted_terms(ctx.library.glossary, ctx.translator.language)
    listing = ft.Column(spacing=0)
    count = ft.Text("", size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)

    def show(q: str) -> None:
        found = filter_terms(terms, q, ctx.library)
        count.value = _.ngettext("{shown} of {total} term", "{shown} of {total} terms", len(terms)).format(
            shown=len(found), total=len(terms))
        listing.controls = [
            nav_tile(ctx, title, term_route(t.id), subtitle=sub, key=f"term-{t.id}")
            for t in found for title, sub in [term_title(ctx, t)]
        ] or [empty_note(_("No terms match the filter."))]

    def filtered(q: str) -> None:
        ctx.remember(q=q.strip())
        show(q)
        refresh(listing, count)

    q0 = ctx.query.get("q", "")
    show(q0)
    return ctx.view(route=ctx.route, title=_("Glossary"), back=False,
                    header=[filter_field(ctx, filtered, value=q0, hint=_("English, 日本語, かな or romaji")),
                            count],
                    controls=[listing])


def build_term(ctx: AppContext, term: str) -> ft.View:
    _ = ctx._
    t = ctx.library.term(term)
    first = term_title(ctx, t)[0]
    second = t.term if first != t.term else t.japanese
    controls: list[ft.Control] = [
        ft.Semantics(header=True, heading_level=1,
                     content=ft.Text(first, size=24 if first == t.term else 28, weight=ft.FontWeight.BOLD)),
    ]
    if second:
        controls.append(ft.Text(second, size=28 if second == t.japanese else 22))
    else:
        controls.append(ft.Text(_("No Japanese term in the source"), size=SMALL_SIZE, italic=True))
    if t.reading:
        controls.append(ft.Text(t.reading, size=BODY_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    def plain(x: str) -> str:
        return fold(x).replace("-", "").replace(" ", "")

    spellings = []
    for x in t.romaji:
        if plain(x) != plain(t.term) and plain(x) not in {plain(s) for s in spellings}:
            spellings.append(x)
    # the English aliases are the handbook's English words: an English reader's, not a Japanese one's
    aliases = list(t.aliases) if ctx._.language == "en" else []
    if spellings or aliases:
        controls.append(ft.Text(_("Also: {names}").format(names=", ".join([*aliases, *spellings])),
                                size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    controls.append(section_heading(_("Definition")))
    rs = ctx.library.rulesets.get(t.source or "")
    if t.provenance == "source" and rs is not None:
        # the source's own words, with where they come from
        controls.append(ft.Container(
            content=ft.Column([
                ft.Row([ft.Icon(ft.Icons.FORMAT_QUOTE, size=18, color=ft.Colors.PRIMARY),
                        badge(_("Source: {ruleset} Glossary").format(ruleset=rs.short))], spacing=6),
                rich_text(ctx, t.definition, ruleset=t.source, selectable=False),
            ], spacing=6, tight=True),
            border=ft.Border.only(left=ft.BorderSide(4, ft.Colors.PRIMARY)),
            padding=ft.Padding.only(left=10, top=2, bottom=2), key="definition-source"))
    else:
        controls.append(note_box(ctx, "handbook", t.definition, ruleset=t.source, size=BODY_SIZE,
                                 key="definition-handbook"))
    if t.explanation:
        controls.append(section_heading(_("Explanation")))
        controls.append(note_box(ctx, "handbook", t.explanation, ruleset=t.source, size=BODY_SIZE,
                                 key="explanation"))
    controls += _scoring_links(ctx, t.id)
    secs = term_sections(ctx.library, t)
    if secs:
        controls.append(section_heading(_("Sections"), count=len(secs)))
        for short, s in secs:
            title, sub = section_title(ctx, s)
            controls.append(nav_tile(ctx, f"{short} {ref_label(s.ref)}  {title}",
                                     section_route(s.ruleset, s.ref), subtitle=sub,
                                     leading=ft.Icon(ft.Icons.MENU_BOOK, color=ft.Colors.PRIMARY)))
    also = see_also(ctx.library, t)
    if also:
        controls.append(section_heading(_("See also"), count=len(also)))
        for o in also:
            title, sub = term_title(ctx, o)
            controls.append(nav_tile(ctx, title, term_route(o.id), subtitle=sub,
                                     leading=ft.Icon(ft.Icons.TRANSLATE, color=ft.Colors.PRIMARY)))
    return ctx.view(route=ctx.route, title=first, controls=controls,
                    actions=entry_actions(ctx, "term", None, t.id))


__all__ = ["build_index", "build_term", "filter_terms", "see_also", "sorted_terms", "term_keys",
           "term_sections"]


def _scoring_links(ctx: AppContext, term: str) -> list[ft.Control]:
    """The yaku page of a term that names a yaku; the yaku list and payment table for scoring terms."""
    from handbook.core.yaku_names import TERM_SCORING, TERM_YAKU, YAKU
    from handbook.ui.routes import payments_route, yaku_list_route, yaku_route
    from handbook.ui.widgets import default_ruleset

    _ = ctx._
    ruleset = default_ruleset(ctx.library, ctx.ruleset, None, allowed=list(ctx.library.scoring))
    out: list[ft.Control] = []
    yaku = TERM_YAKU.get(term)
    if yaku:
        name = YAKU[yaku][1] if ctx.locale.startswith("ja") else YAKU[yaku][0]
        out.append(nav_tile(ctx, _("Yaku: {name}").format(name=name), yaku_route(yaku, ruleset), key="term-yaku",
                            leading=ft.Icon(ft.Icons.STYLE_OUTLINED, color=ft.Colors.PRIMARY)))
    if yaku or term in TERM_SCORING:
        out.append(nav_tile(ctx, _("Yaku of {ruleset}").format(ruleset=ctx.short(ruleset)), yaku_list_route(ruleset),
                            key="term-yaku-list", leading=ft.Icon(ft.Icons.LIST, color=ft.Colors.PRIMARY)))
        out.append(nav_tile(ctx, _("Payment table of {ruleset}").format(ruleset=ctx.short(ruleset)),
                            payments_route(ruleset), key="term-payments",
                            leading=ft.Icon(ft.Icons.TABLE_CHART_OUTLINED, color=ft.Colors.PRIMARY)))
    return [section_heading(_("Scoring")), *out] if out else []
