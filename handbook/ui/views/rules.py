"""Rules: ``/rules`` (ruleset picker), ``/rules/<ruleset>`` (chapters and sections) and
``/rules/<ruleset>/<ref>`` (one section: its text with § links, the penalties and glossary terms
that cite it)."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from handbook.i18n import N_

from handbook.core.model import Edition, Library, PenaltyRow, Ruleset, Section, Term
from handbook.ui.context import AppContext
from handbook.ui.routes import editions_route, penalty_route, section_route, term_route
from handbook.ui.text import ref_label, section_links
from handbook.ui.titles import section_title, term_title
from handbook.ui.widgets import (
    entry_actions,
    BODY_SIZE,
    SMALL_SIZE,
    badge,
    empty_note,
    covered_notes,
    handbook_notes,
    nav_tile,
    note_badge,
    note_box,
    rule_text,
    section_heading,
)


# ------------------------------------------------------------------ data (no flet)


@dataclass(frozen=True)
class ChapterGroup:
    ref: str
    title: str
    sections: tuple[Section, ...]

    @property
    def heading(self) -> str:
        return f"{self.ref}. {self.title}" if self.ref else self.title


def chapter_groups(rs: Ruleset) -> list[ChapterGroup]:
    """The ruleset's sections under their chapter headings, in document order (sections whose
    chapter has no heading get a group of their own)."""
    out: list[ChapterGroup] = []
    titles = {c.ref: c.title for c in rs.chapters}
    seen: set[str] = set()
    for c in rs.chapters:
        secs = tuple(rs.chapter_sections(c.ref))
        out.append(ChapterGroup(c.ref, c.title, secs))
        seen.add(c.ref)
    orphans = [s for s in rs.sections if s.chapter not in seen]
    if orphans:
        by: dict[str, list[Section]] = {}
        for s in orphans:
            by.setdefault(s.chapter, []).append(s)
        for ch, secs in by.items():
            out.append(ChapterGroup(ch, titles.get(ch, ""), tuple(secs)))
    return [g for g in out if g.sections]


def neighbours(rs: Ruleset, ref: str) -> tuple[Section | None, Section | None]:
    """The sections before and after ``ref`` in document order."""
    refs = [s.ref for s in rs.sections]
    i = refs.index(ref)
    return (rs.sections[i - 1] if i > 0 else None,
            rs.sections[i + 1] if i + 1 < len(rs.sections) else None)


@dataclass(frozen=True)
class SectionPage:
    """Everything the section screen shows."""

    ruleset: Ruleset
    section: Section
    linked: tuple[Section, ...]        # sections the text refers to (§ links), in order
    penalties: tuple[PenaltyRow, ...]  # rows citing this section
    terms: tuple[Term, ...]            # glossary terms citing this section
    previous: Section | None
    next: Section | None


def section_page(library: Library, ruleset_id: str, ref: str) -> SectionPage:
    """Raises ``KeyError`` for an unknown ruleset or section."""
    rs = library.rulesets[ruleset_id]
    sec = rs.section(ref)
    linked = tuple(rs.section(r) for r in section_links(sec.text, ruleset=rs.id, library=library)
                   if r != ref)
    prev, nxt = neighbours(rs, ref)
    return SectionPage(rs, sec, linked, tuple(rs.rows_citing(ref)),
                       tuple(library.terms_citing(rs.id, ref)), prev, nxt)


def rule_rulesets(library: Library) -> list[Ruleset]:
    """Rulesets in the picker: those with rule text first, then table-only ones."""
    with_text = [rs for rs in library.rulesets.values() if rs.sections]
    without = [rs for rs in library.rulesets.values() if not rs.sections]
    return with_text + without


# ------------------------------------------------------------------------- views


def build_index(ctx: AppContext) -> ft.View:
    _ = ctx._
    controls: list[ft.Control] = []
    for rs in rule_rulesets(ctx.library):
        if rs.sections:
            sub = [rs.title, _.ngettext("{count} section · {edition}", "{count} sections · {edition}",
                                          len(rs.sections)).format(count=len(rs.sections), edition=ctx.hb(rs.edition))]
            controls.append(nav_tile(ctx, ctx.label(rs.id), f"/rules/{rs.id}", subtitle=sub,
                                     leading=ft.Icon(ft.Icons.MENU_BOOK, color=ft.Colors.PRIMARY),
                                     trailing=badge(_("chosen")) if rs.id == ctx.ruleset else None))
        else:
            controls.append(nav_tile(ctx, ctx.label(rs.id), penalty_route(rs.id),
                                     subtitle=[rs.title, _("Penalty table only")],
                                     leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
    return ctx.view(route=ctx.route, title=_("Rules"), back=False, controls=controls)


def _ruleset_header(ctx: AppContext, rs: Ruleset) -> list[ft.Control]:
    _ = ctx._
    out: list[ft.Control] = [
        ft.Text(rs.title, size=18, weight=ft.FontWeight.BOLD),
        ft.Text(ctx.label(rs.id), size=BODY_SIZE, weight=ft.FontWeight.W_600, key="ruleset-label"),
        ft.Text(ctx.hb(rs.edition), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    if rs.base and rs.base in ctx.library.rulesets:
        base = ctx.library.rulesets[rs.base]
        out.append(nav_tile(ctx, _("Modifies {ruleset}").format(ruleset=base.short),
                            penalty_route(base.id) if not base.sections else f"/rules/{base.id}",
                            leading=ft.Icon(ft.Icons.LINK)))
    if rs.penalties:
        out.append(nav_tile(ctx, _("Penalty table"), penalty_route(rs.id),
                            subtitle=_.ngettext("{count} row", "{count} rows", len(rs.penalties)).format(
                                count=len(rs.penalties)),
                            leading=ft.Icon(ft.Icons.GAVEL)))
    if rs.editions:
        out.append(nav_tile(ctx, _("Editions"), editions_route(rs.id),
                            subtitle=_("Revision history and where other editions differ"),
                            leading=ft.Icon(ft.Icons.HISTORY), key="editions"))
    if rs.note:
        out.append(ft.Text(ctx.hb(rs.note), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    if rs.preface:
        out.append(ft.ExpansionTile(
            title=ft.Text(_("Preface")),
            controls=[ft.Container(content=ft.Column(rule_text(ctx, rs.preface, ruleset=rs.id)),
                                   padding=ft.Padding.symmetric(horizontal=8))],
            min_tile_height=48,
        ))
    return out


def build_ruleset(ctx: AppContext, ruleset: str) -> ft.View:
    _ = ctx._
    rs = ctx.library.rulesets[ruleset]
    controls: list[ft.Control] = _ruleset_header(ctx, rs)
    groups = chapter_groups(rs)
    if not groups:
        controls.append(empty_note(_("This ruleset has no rule text in the handbook, only a penalty table.")))
    chapter_text = {c.ref: c.text for c in rs.chapters if c.text}
    for g in groups:
        controls.append(section_heading(g.heading))
        if g.ref in chapter_text:
            controls.extend(rule_text(ctx, chapter_text[g.ref], ruleset=rs.id))
        for s in g.sections:
            marks = [note_badge(ctx, k) for k, on in (("conflict", s.conflict),
                                                      ("interpretation", s.interpretations),
                                                      ("edition", s.edition_notes)) if on]
            title, sub = section_title(ctx, s)
            controls.append(nav_tile(
                ctx, f"{ref_label(s.ref)}  {title}", section_route(rs.id, s.ref),
                subtitle=sub, key=f"section-{s.ref}"))
            if marks:
                controls.append(ft.Container(ft.Row(marks, spacing=6, wrap=True),
                                             padding=ft.Padding.only(left=8, bottom=6)))
    return ctx.view(route=ctx.route, title=rs.short, controls=controls)


def build_section(ctx: AppContext, ruleset: str, ref: str) -> ft.View:
    _ = ctx._
    p = section_page(ctx.library, ruleset, ref)
    rs, sec = p.ruleset, p.section
    title, subtitle = section_title(ctx, sec)
    title_block: list[ft.Control] = [
        ft.Row([badge(rs.short), ft.Text(ref_label(sec.ref), size=18, weight=ft.FontWeight.BOLD,
                                          color=ft.Colors.PRIMARY)], spacing=8),
        ft.Semantics(header=True, heading_level=1,
                     content=ft.Text(title, size=22, weight=ft.FontWeight.BOLD)),
    ]
    if subtitle:
        title_block.append(ft.Text(subtitle, size=18,
                                   color=ft.Colors.ON_SURFACE_VARIANT))
    chapter = next((c for c in rs.chapters if c.ref == sec.chapter), None)
    if chapter:
        title_block.append(ft.Text(_("Chapter {ref}: {title}").format(ref=chapter.ref, title=chapter.title),
                                   size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    controls: list[ft.Control] = [*title_block, ft.Divider(height=8),
                                  *rule_text(ctx, sec.text, ruleset=rs.id)]
    notes = handbook_notes(ctx, ruleset=rs.id, conflict=sec.conflict,
                           interpretations=sec.interpretations, edition_notes=sec.edition_notes)
    notes += covered_notes(ctx, rs, f"rule:{sec.ref}")
    if notes:
        controls.append(ft.Container(ft.Column(notes, spacing=8), padding=ft.Padding.only(top=8)))

    if p.penalties:
        # the count in words: "Penalties citing §6.2 (2)" read "(2)" as part of the reference
        controls.append(section_heading(_.ngettext("{n} penalty cites {ref}", "{n} penalties cite {ref}",
                                                   len(p.penalties)).format(n=len(p.penalties),
                                                                            ref=ref_label(sec.ref))))
        for row in p.penalties:
            sub = [row.penalty]
            if row.condition:
                sub.append(row.condition)
            if row.strike:
                sub.append(_("Adds a Strike"))
            if row.conflict:
                sub.append(_("Conflict in the rules: see the row"))
            if row.interpretations:
                sub.append(_("The handbook's reading: see the row"))
            controls.append(nav_tile(ctx, row.foul, penalty_route(rs.id, row.id), subtitle=sub,
                                     leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
    if p.linked:
        controls.append(section_heading(_("Sections referred to")))
        for s in p.linked:
            s_title, s_sub = section_title(ctx, s)
            controls.append(nav_tile(ctx, f"{ref_label(s.ref)}  {s_title}", section_route(rs.id, s.ref),
                                     subtitle=s_sub, leading=ft.Icon(ft.Icons.LINK)))
    if p.terms:
        controls.append(section_heading(_("Glossary"), count=len(p.terms)))
        for t in p.terms:
            t_title, t_sub = term_title(ctx, t)
            controls.append(nav_tile(ctx, t_title, term_route(t.id), subtitle=t_sub,
                                     leading=ft.Icon(ft.Icons.TRANSLATE, color=ft.Colors.PRIMARY)))
    nav = _previous_next(ctx, rs.id, p.previous, p.next)
    if nav:
        controls.append(nav)
    return ctx.view(route=ctx.route, title=f"{rs.short} {ref_label(sec.ref)}", controls=controls,
                    actions=entry_actions(ctx, "rule", rs.id, sec.ref))


STATUS_LABELS = {
    "this": N_("The edition this handbook follows"),
    "earlier": N_("Earlier edition"),
    "later": N_("Later edition"),
}


def _edition_card(ctx: AppContext, rs: Ruleset, e: Edition) -> ft.Control:
    _ = ctx._
    head = [ft.Text(e.name, size=18, weight=ft.FontWeight.BOLD)]
    marks = [badge(_(STATUS_LABELS[e.status]))]
    if e.date:
        marks.append(ft.Text(ctx._.format_date(e.date, "long"), size=SMALL_SIZE,
                             color=ft.Colors.ON_SURFACE_VARIANT))
    body: list[ft.Control] = [*head, ft.Row(marks, spacing=8, wrap=True)]
    changes = [ft.Row([ft.Container(ft.Text("•", size=BODY_SIZE), width=16),
                       ft.Text(c if e.from_source else ctx.hb(c), size=BODY_SIZE, expand=True)],
                      vertical_alignment=ft.CrossAxisAlignment.START, spacing=4) for c in e.changes]
    if e.from_source:
        # the source's own revision history: its words, quoted
        body.append(ft.Container(
            ft.Column([badge(_("Source: {cite}").format(cite=e.cite)), *changes], spacing=4, tight=True),
            border=ft.Border.only(left=ft.BorderSide(4, ft.Colors.PRIMARY)),
            padding=ft.Padding.only(left=10)))
    else:
        body += changes
        body.append(ft.Text(_("Public edition history, not the words of the handbook's source documents. "
                              "Source: {cite}").format(cite=e.cite), size=SMALL_SIZE, italic=True,
                            color=ft.Colors.ON_SURFACE_VARIANT))
    if e.note:
        body.append(note_box(ctx, "edition", e.note, ruleset=rs.id))
        affected = [r for r in rs.penalties if e.note in r.edition_notes]
        for r in affected:
            body.append(nav_tile(ctx, r.foul, penalty_route(rs.id, r.id),
                                 leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
        for ref in e.sections:
            if rs.has_section(ref):
                sec = rs.section(ref)
                body.append(nav_tile(ctx, f"{ref_label(ref)}  {sec.title}", section_route(rs.id, ref),
                                     leading=ft.Icon(ft.Icons.MENU_BOOK, color=ft.Colors.PRIMARY)))
        if "chombo" in e.tools:
            body.append(nav_tile(ctx, _("Chombo settlement"), f"/tools/chombo?ruleset={rs.id}",
                                 leading=ft.Icon(ft.Icons.CALCULATE, color=ft.Colors.PRIMARY)))
    return ft.Container(ft.Column(body, spacing=8, tight=True), padding=ft.Padding.all(12),
                        border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT), border_radius=12,
                        key=f"edition-{e.ruleset}-{e.name}")


def build_editions(ctx: AppContext, ruleset: str) -> ft.View:
    """``/rules/<ruleset>/editions``: the ruleset's editions, newest first — the source's own
    revision history, then public edition history citing its source — with the rows, sections
    and calculators where another edition gives a different answer."""
    _ = ctx._
    rs = ctx.library.rulesets[ruleset]
    controls: list[ft.Control] = [
        ft.Text(rs.title, size=18, weight=ft.FontWeight.BOLD),
        ft.Text(_("This handbook follows: {edition}").format(edition=ctx.hb(rs.edition)), size=BODY_SIZE),
    ]
    if not rs.editions:
        controls.append(empty_note(_("No edition history is known for this ruleset.")))
    own = [e for e in rs.editions if e.ruleset == rs.id]
    inherited = [e for e in rs.editions if e.ruleset != rs.id]
    controls += [_edition_card(ctx, rs, e) for e in own]
    if inherited:
        table = ctx.library.rulesets.get(inherited[0].ruleset)
        controls.append(section_heading(_("Editions of {ruleset}").format(
            ruleset=table.short if table else inherited[0].ruleset)))
        controls += [_edition_card(ctx, rs, e) for e in inherited]
    return ctx.view(route=ctx.route, title=_("{ruleset} editions").format(ruleset=rs.short),
                    controls=controls)


__all__ = ["build_editions", "build_index", "build_ruleset", "build_section", "chapter_groups", "neighbours",
           "section_page", "rule_rulesets"]


def _previous_next(ctx: AppContext, ruleset: str, previous, following) -> ft.Control | None:
    """The Previous / Next buttons under a section (``None`` when it has neither neighbour)."""
    _ = ctx._
    nav: list[ft.Control] = []
    if previous:
        nav.append(ft.TextButton(
            _("Previous: {ref}").format(ref=ref_label(previous.ref)), icon=ft.Icons.CHEVRON_LEFT,
            on_click=lambda e: ctx.navigate(section_route(ruleset, previous.ref)), height=48))
    if following:
        nav.append(ft.TextButton(
            _("Next: {ref}").format(ref=ref_label(following.ref)), icon=ft.Icons.CHEVRON_RIGHT,
            on_click=lambda e: ctx.navigate(section_route(ruleset, following.ref)), height=48))
    return ft.Row(nav, alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True) if nav else None
