"""Rules: ``/rules`` (ruleset picker), ``/rules/<ruleset>`` (chapters and sections) and
``/rules/<ruleset>/<ref>`` (one section: its text with § links, the penalties and glossary terms
that cite it)."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from handbook.core.model import Library, PenaltyRow, Ruleset, Section, Term
from handbook.ui.context import AppContext
from handbook.ui.routes import penalty_route, section_route, term_route
from handbook.ui.text import ref_label, section_links
from handbook.ui.views.study import entry_actions
from handbook.ui.widgets import SMALL_SIZE, badge, empty_note, nav_tile, rule_text, section_heading


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
            sub = [rs.title, _("{count} sections · {edition}").format(count=len(rs.sections),
                                                                       edition=rs.edition)]
            controls.append(nav_tile(ctx, rs.short, f"/rules/{rs.id}", subtitle=sub,
                                     leading=ft.Icon(ft.Icons.MENU_BOOK, color=ft.Colors.PRIMARY),
                                     trailing=badge(_("chosen")) if rs.id == ctx.ruleset else None))
        else:
            controls.append(nav_tile(ctx, rs.short, penalty_route(rs.id),
                                     subtitle=[rs.title, _("Penalty table only")],
                                     leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
    return ctx.view(route=ctx.route, title=_("Rules"), back=False, controls=controls)


def _ruleset_header(ctx: AppContext, rs: Ruleset) -> list[ft.Control]:
    _ = ctx._
    out: list[ft.Control] = [
        ft.Text(rs.title, size=18, weight=ft.FontWeight.BOLD),
        ft.Text(rs.edition, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
    ]
    if rs.base and rs.base in ctx.library.rulesets:
        base = ctx.library.rulesets[rs.base]
        out.append(nav_tile(ctx, _("Modifies {ruleset}").format(ruleset=base.short),
                            penalty_route(base.id) if not base.sections else f"/rules/{base.id}",
                            leading=ft.Icon(ft.Icons.LINK)))
    if rs.penalties:
        out.append(nav_tile(ctx, _("Penalty table"), penalty_route(rs.id),
                            subtitle=_("{count} rows").format(count=len(rs.penalties)),
                            leading=ft.Icon(ft.Icons.GAVEL)))
    if rs.note:
        out.append(ft.Text(rs.note, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
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
            controls.append(nav_tile(
                ctx, f"{ref_label(s.ref)}  {s.title}", section_route(rs.id, s.ref),
                subtitle=s.title_ja, key=f"section-{s.ref}"))
    return ctx.view(route=ctx.route, title=rs.short, controls=controls)


def build_section(ctx: AppContext, ruleset: str, ref: str) -> ft.View:
    _ = ctx._
    p = section_page(ctx.library, ruleset, ref)
    rs, sec = p.ruleset, p.section
    title_block: list[ft.Control] = [
        ft.Row([badge(rs.short), ft.Text(ref_label(sec.ref), size=18, weight=ft.FontWeight.BOLD,
                                          color=ft.Colors.PRIMARY)], spacing=8),
        ft.Semantics(header=True, heading_level=1,
                     content=ft.Text(sec.title, size=22, weight=ft.FontWeight.BOLD)),
    ]
    if sec.title_ja:
        title_block.append(ft.Text(sec.title_ja, size=18,
                                   color=ft.Colors.ON_SURFACE_VARIANT))
    chapter = next((c for c in rs.chapters if c.ref == sec.chapter), None)
    if chapter:
        title_block.append(ft.Text(_("Chapter {ref}: {title}").format(ref=chapter.ref, title=chapter.title),
                                   size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    controls: list[ft.Control] = [*title_block, ft.Divider(height=8),
                                  *rule_text(ctx, sec.text, ruleset=rs.id)]

    if p.penalties:
        controls.append(section_heading(_("Penalties citing {ref}").format(ref=ref_label(sec.ref)),
                                        count=len(p.penalties)))
        for row in p.penalties:
            sub = [row.penalty]
            if row.strike:
                sub.append(_("Adds a Strike"))
            controls.append(nav_tile(ctx, row.foul, penalty_route(rs.id, row.id), subtitle=sub,
                                     leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
    if p.linked:
        controls.append(section_heading(_("Sections referred to")))
        for s in p.linked:
            controls.append(nav_tile(ctx, f"{ref_label(s.ref)}  {s.title}", section_route(rs.id, s.ref),
                                     subtitle=s.title_ja, leading=ft.Icon(ft.Icons.LINK)))
    if p.terms:
        controls.append(section_heading(_("Glossary"), count=len(p.terms)))
        for t in p.terms:
            sub = " · ".join(x for x in (t.japanese, t.reading) if x)
            controls.append(nav_tile(ctx, t.term, term_route(t.id), subtitle=sub or None,
                                     leading=ft.Icon(ft.Icons.TRANSLATE, color=ft.Colors.PRIMARY)))
    nav: list[ft.Control] = []
    if p.previous:
        nav.append(ft.TextButton(
            _("Previous: {ref}").format(ref=ref_label(p.previous.ref)), icon=ft.Icons.CHEVRON_LEFT,
            on_click=lambda e, r=section_route(rs.id, p.previous.ref): ctx.navigate(r), height=48))
    if p.next:
        nav.append(ft.TextButton(
            _("Next: {ref}").format(ref=ref_label(p.next.ref)), icon=ft.Icons.CHEVRON_RIGHT,
            on_click=lambda e, r=section_route(rs.id, p.next.ref): ctx.navigate(r), height=48))
    if nav:
        controls.append(ft.Row(nav, alignment=ft.MainAxisAlignment.SPACE_BETWEEN, wrap=True))
    return ctx.view(route=ctx.route, title=f"{rs.short} {ref_label(sec.ref)}", controls=controls,
                    actions=entry_actions(ctx, "rule", rs.id, sec.ref))


__all__ = ["build_index", "build_ruleset", "build_section", "chapter_groups", "neighbours",
           "section_page", "rule_rulesets"]
