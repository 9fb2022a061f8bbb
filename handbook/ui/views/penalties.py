"""Penalties: ``/penalties`` (the tables), ``/penalties/<ruleset>`` (one table as a phone list,
grouped by category, with a filter; WRC tables show both columns side by side and mark the rows
where they differ) and ``/penalties/<ruleset>/<foul>`` (one foul, then the same foul in every
other ruleset)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import flet as ft

from handbook.core.model import Library, PenaltyRow, Ruleset
from handbook.core.search import fold
from handbook.i18n import N_
from handbook.ui.context import AppContext
from handbook.ui.routes import penalty_route, record_route, section_route
from handbook.ui.text import leading_ref, outcome_lines, ref_label, shorthand_notes
from handbook.ui.widgets import (
    entry_actions,
    record_button,
    refresh,
    BODY_SIZE,
    SMALL_SIZE,
    badge,
    empty_note,
    filter_field,
    foul_japanese,
    covered_notes,
    handbook_notes,
    nav_tile,
    note_badge,
    rich_text,
    scroll_to_top,
    section_heading,
    switch_row,
)

WORLD = N_("World Championship")
LOWER = N_("Lower")
#: the two columns of a two-column table, in screen order
COLUMN_ORDER = (WORLD, LOWER)


# ------------------------------------------------------------------ data (no flet)


@dataclass(frozen=True)
class PenaltyColumn:
    """One column of a row: ``label`` (untranslated; "" for a one-column table), the penalty
    ``text``, and ``own``: whether this is the column the ruleset itself uses."""

    label: str
    text: str
    own: bool


def columns(row: PenaltyRow) -> list[PenaltyColumn]:
    """The row's penalty columns in screen order: World Championship, then Lower, for a
    two-column table (the ruleset's own column marked); the one penalty otherwise."""
    if row.compare_label is None:
        return [PenaltyColumn("", row.penalty, True)]
    other = row.compare_label
    own = LOWER if other == WORLD else WORLD if other == LOWER else ""
    cols = {own: PenaltyColumn(own, row.penalty, True),
            other: PenaltyColumn(other, row.compare_penalty or "", False)}
    order = [c for c in COLUMN_ORDER if c in cols] + [c for c in cols if c not in COLUMN_ORDER]
    return [cols[c] for c in order]


def two_column(rs: Ruleset) -> bool:
    return any(r.compare_label for r in rs.penalties)


def row_text(row: PenaltyRow) -> str:
    """Everything a filter matches in a row, folded."""
    return fold(" ".join(x for x in (row.foul, row.penalty, row.compare_penalty, row.category, row.note,
                                     row.condition, row.ref, row.id.replace("-", " ")) if x))


def filter_rows(rows: Iterable[PenaltyRow], query: str = "", *, only_differences: bool = False,
                library: Library | None = None, ruleset: str | None = None) -> list[PenaltyRow]:
    """Rows whose text contains every word of ``query`` (folded: case, width, kana) or, given the
    ``library`` and the table's ``ruleset``, that the search's matching finds for it in that
    table (spelling, kana/romaji, the foul's names: "chombo" finds "Chonbo", 見せ牌 and "misehai"
    the revealed-tiles rows; :meth:`Library.matching`); only the rows whose columns differ when
    ``only_differences``."""
    words = fold(query).split()
    matched: set[tuple[str, int | None]] = set()
    if words and library is not None and ruleset is not None:
        matched = {(h.ref, h.row) for h in library.matching(query, kind="penalty", ruleset=ruleset)}
    out = []
    for r in rows:
        if only_differences and not r.differs:
            continue
        if words and (r.id, r.index) not in matched:
            hay = row_text(r)
            if not all(w in hay for w in words):
                continue
        out.append(r)
    return out


def group_rows(rows: Iterable[PenaltyRow]) -> list[tuple[str, list[PenaltyRow]]]:
    """Rows grouped by category, categories in order of first appearance, rows in source order."""
    groups: dict[str, list[PenaltyRow]] = {}
    for r in rows:
        groups.setdefault(r.category, []).append(r)
    return list(groups.items())


def penalty_rulesets(library: Library) -> list[Ruleset]:
    return [rs for rs in library.rulesets.values() if rs.penalties]


def other_rulesets(library: Library, ruleset_id: str, foul_id: str) -> list[tuple[Ruleset, list[PenaltyRow]]]:
    """The same foul in every other ruleset that has it (``Library.foul``), in library order."""
    found = library.foul(foul_id)
    return [(library.rulesets[rid], rows) for rid, rows in found.items() if rid != ruleset_id]


def ref_route(library: Library, row: PenaltyRow) -> str | None:
    """The section screen a row's ``ref`` points to, when that ruleset has the section."""
    ref = leading_ref(row.ref)
    rs = library.rulesets.get(row.ruleset)
    if ref and rs and rs.has_section(ref):
        return section_route(rs.id, ref)
    return None


# ------------------------------------------------------------------------- views


def _column_cell(ctx: AppContext, col: PenaltyColumn, *, differs: bool, expand: bool = True) -> ft.Control:
    _ = ctx._
    items: list[ft.Control] = []
    if col.label:
        items.append(ft.Text(_(col.label), size=12, weight=ft.FontWeight.W_600,
                             color=ft.Colors.ON_SURFACE_VARIANT))
    weight = ft.FontWeight.BOLD if col.own else ft.FontWeight.NORMAL
    lines = outcome_lines(col.text) or [_("(not given)")]
    # one outcome a line ("1-2 tiles: …", "3-6 tiles: …"), the source's words unchanged
    items.extend(ft.Text(line, size=BODY_SIZE, weight=weight) for line in lines)
    # the sources' shorthand, explained where it shows ("20P pp", "(Chonbo 30P)")
    items.extend(ft.Text(_(msg).format(**fields), size=12, color=ft.Colors.ON_SURFACE_VARIANT)
                 for msg, fields in shorthand_notes(col.text))
    return ft.Container(
        content=ft.Column(items, spacing=2, tight=True),
        expand=expand,
        padding=ft.Padding.all(8),
        border_radius=8,
        bgcolor=ft.Colors.PRIMARY_CONTAINER if (col.own and col.label) else (
            ft.Colors.SURFACE_CONTAINER_HIGHEST if col.label else None),
    )


def penalty_cells(ctx: AppContext, row: PenaltyRow) -> ft.Control:
    """The penalty of a row: one cell, or the two WRC columns -- side by side on a wide window,
    one above the other on a phone (side by side, a phone's half width broke words such as
    "Championship" and "discretion" in the middle at large text sizes)."""
    cols = columns(row)
    cells = [_column_cell(ctx, c, differs=row.differs, expand=ctx.wide or len(cols) == 1) for c in cols]
    if len(cells) == 1:
        return cells[0]
    if not ctx.wide:
        return ft.Column(cells, spacing=6, tight=True, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
    return ft.Row(cells, spacing=6, vertical_alignment=ft.CrossAxisAlignment.START)


def _row_badges(ctx: AppContext, row: PenaltyRow) -> list[ft.Control]:
    _ = ctx._
    out: list[ft.Control] = []
    if row.ref:
        label = ref_label(row.ref)
        if not label.startswith("§"):
            # the source's reference names another row, not a section
            label = _("Source reference: {ref}").format(ref=label)
        out.append(ft.Text(label, size=SMALL_SIZE, weight=ft.FontWeight.BOLD,
                           color=ft.Colors.PRIMARY))
    if row.differs:
        out.append(ft.Container(
            content=ft.Row([ft.Icon(ft.Icons.COMPARE_ARROWS, size=16, color=ft.Colors.ON_TERTIARY_CONTAINER),
                            ft.Text(_("Differs"), size=12, weight=ft.FontWeight.BOLD,
                                    color=ft.Colors.ON_TERTIARY_CONTAINER)], spacing=4, tight=True),
            bgcolor=ft.Colors.TERTIARY_CONTAINER, border_radius=8,
            padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        ))
    if row.strike:
        out.append(badge(_("Strike"), tooltip=_("Adds an AZRM Strike (§1.4)")))
    if row.conflict:
        out.append(note_badge(ctx, "conflict"))
    if row.interpretations:
        out.append(note_badge(ctx, "interpretation"))
    if row.edition_notes:
        out.append(note_badge(ctx, "edition"))
    return out


def row_label(ctx: AppContext, row: PenaltyRow) -> str:
    """A table row's accessible name, so a screen reader reads the ruling in one swipe: ruleset,
    reference, foul, condition, the penalty of each column, and "Differs" where the columns differ
    ("WRC §12.3.1 (2): Too many or too few tiles — World Championship: …; Lower: …; Differs")."""
    _ = ctx._
    rs = ctx.library.rulesets.get(row.ruleset)
    head = " ".join(x for x in ((rs.short if rs else row.ruleset), ref_label(row.ref) if row.ref else "") if x)
    foul = row.foul + (f" ({row.condition})" if row.condition else "")
    cols = "; ".join((f"{_(c.label)}: " if c.label else "") + (c.text or _("(not given)")) for c in columns(row))
    marks = [_("Differs")] if row.differs else []
    if row.strike:
        marks.append(_("Strike"))
    return f"{head}: {foul} — {cols}" + "".join(f"; {m}" for m in marks)


def row_tile(ctx: AppContext, row: PenaltyRow) -> ft.Control:
    """One row of a table: foul, § ref, marks, penalty (both columns for WRC); one accessible
    name (:func:`row_label`)."""
    head = _row_badges(ctx, row)
    parts: list[ft.Control] = [ft.Text(row.foul, size=BODY_SIZE, weight=ft.FontWeight.W_500)]
    if row.condition:
        parts.append(ft.Text(row.condition, size=SMALL_SIZE, italic=True,
                             color=ft.Colors.ON_SURFACE_VARIANT))
    if head:
        parts.append(ft.Row(head, spacing=8, wrap=True))
    parts.append(penalty_cells(ctx, row))
    row_route = penalty_route(row.ruleset, row.id)

    def open_row(e=None) -> None:
        ctx.navigate(row_route)

    tile = ft.ListTile(
        title=ft.Column(parts, spacing=6, tight=True),
        on_click=open_row,
        min_height=56,
        content_padding=ft.Padding.symmetric(horizontal=8, vertical=6),
        data=row.id,
        key=f"row-{row.index}",
    )
    content: ft.Control = tile
    if row.differs:
        # a coloured bar on the left as well as the "Differs" label
        content = ft.Container(content=tile, border=ft.Border.only(left=ft.BorderSide(4, ft.Colors.TERTIARY)))
    return ft.Semantics(label=row_label(ctx, row), button=True, exclude_semantics=True, on_tap=open_row,
                        content=content, key=f"row-label-{row.index}")


def build_index(ctx: AppContext) -> ft.View:
    _ = ctx._
    controls: list[ft.Control] = []
    for rs in penalty_rulesets(ctx.library):
        sub = [rs.title, _.ngettext("{count} row", "{count} rows", len(rs.penalties)).format(count=len(rs.penalties))]
        if two_column(rs):
            sub.append(_("World Championship and Lower side by side"))
        controls.append(nav_tile(ctx, ctx.label(rs.id), penalty_route(rs.id), subtitle=sub,
                                 leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY),
                                 trailing=badge(_("chosen")) if rs.id == ctx.ruleset else None))
    return ctx.view(route=ctx.route, title=_("Penalties"), back=False, controls=controls)


def build_table(ctx: AppContext, ruleset: str) -> ft.View:
    _ = ctx._
    rs = ctx.library.rulesets[ruleset]
    state = {"q": ctx.query.get("q", ""), "diff": ctx.query.get("diff") == "1"}
    listing = ft.Column(spacing=0)
    count = ft.Text("", size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)

    def show() -> None:
        rows = filter_rows(rs.penalties, state["q"], only_differences=state["diff"], library=ctx.library,
                           ruleset=ruleset)
        count.value = _.ngettext("{shown} of {total} row", "{shown} of {total} rows", len(rs.penalties)).format(
            shown=len(rows), total=len(rs.penalties))
        out: list[ft.Control] = []
        for category, group in group_rows(rows):
            out.append(section_heading(category, count=len(group)))
            out.extend(row_tile(ctx, r) for r in group)
        listing.controls = out or [empty_note(_("No rows match the filter."))]

    def filtered(q: str) -> None:
        state["q"] = q
        ctx.remember(q=q.strip())
        show()
        refresh(listing, count)

    async def diff_toggled(e) -> None:
        state["diff"] = bool(e.control.value)
        ctx.remember(diff="1" if state["diff"] else None)
        show()
        refresh(listing, count)
        # the list changed under the judge's thumb: start it from its first heading
        await scroll_to_top(view)

    header: list[ft.Control] = [filter_field(ctx, filtered, value=state["q"],
                                             hint=_("foul, penalty or §"))]
    intro: list[ft.Control] = [ft.Text(f"{rs.title} · {ctx.label(rs.id)}", size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)]
    if two_column(rs):
        # the switch and the count one above the other: side by side they overlapped at large text
        header.append(switch_row(ft.Switch(label=_("Only differences"), value=state["diff"],
                                           on_change=diff_toggled)))
        header.append(count)
        own = columns(rs.penalties[0])
        own_label = next((c.label for c in own if c.own), "")
        intro.append(ft.Text(
            _("{ruleset} uses the {column} column (highlighted).").format(ruleset=rs.short, column=_(own_label)),
            size=SMALL_SIZE))
    if rs.editions:
        intro.append(nav_tile(ctx, _("Editions"), f"/rules/{rs.id}/editions",
                              subtitle=_("Where other editions give a different answer"),
                              leading=ft.Icon(ft.Icons.HISTORY), key="editions"))
    if rs.note:
        intro.append(ft.ExpansionTile(
            title=ft.Text(_("About this table"), size=SMALL_SIZE),
            controls=[ft.Text(ctx.hb(rs.note), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)],
            min_tile_height=48, dense=True,
            controls_padding=ft.Padding.symmetric(horizontal=8, vertical=4),
        ))
    show()
    if not two_column(rs):
        header.append(count)
    view = ctx.view(route=ctx.route, title=_("{ruleset} penalties").format(ruleset=rs.short),
                    header=header, controls=[*intro, listing])
    return view


def build_foul(ctx: AppContext, ruleset: str, foul: str) -> ft.View:
    _ = ctx._
    rs = ctx.library.rulesets[ruleset]
    rows = rs.rows(foul)
    if not rows:
        raise KeyError(f"{ruleset}: no penalty row for {foul!r}")
    controls: list[ft.Control] = [ft.Row([badge(rs.short)])]
    named = ctx.library.fouls.get(foul)
    if named:
        # the foul's Japanese name (the handbook's: the sources name fouls in English only)
        shown = foul_japanese(named)
        readings = named.reading[:shown.count("・") + 1]  # both cases' readings for 多牌・少牌
        reading = f" ({'・'.join(readings)})" if readings else ""
        controls.append(ft.Text(f"{shown}{reading} · {named.name}", size=BODY_SIZE,
                                color=ft.Colors.ON_SURFACE_VARIANT, key="foul-names",
                                tooltip=_("Names given by the handbook")))
    controls.extend(covered_notes(ctx, rs, f"penalty:{foul}"))
    for row in rows:
        controls.append(ft.Semantics(header=True, heading_level=1,
                                     content=ft.Text(row.foul, size=20, weight=ft.FontWeight.BOLD)))
        if row.condition:
            controls.append(ft.Text(row.condition, size=BODY_SIZE, italic=True))
        marks = _row_badges(ctx, row)
        if marks:
            controls.append(ft.Row(marks, spacing=8, wrap=True))
        controls.append(penalty_cells(ctx, row))
        facts: list[str] = []
        if row.points:
            facts.append(_("{points}P deducted (1P = 1,000 points)").format(points=row.points))
        facts.append(_("Category: {category}").format(category=row.category))
        controls.append(ft.Text(" · ".join(facts), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
        # the judge-gated record form, filled from this row (the search query, when it led here)
        controls.append(ft.Row([record_button(ctx, record_route(rs.id, row.index, q=ctx.query.get("q", "")),
                                              key=f"record-{row.index}")], wrap=True))
        if row.note:
            controls.append(rich_text(ctx, row.note, ruleset=rs.id, size=SMALL_SIZE))
        controls.extend(handbook_notes(ctx, ruleset=rs.id, conflict=row.conflict,
                                       interpretations=row.interpretations,
                                       edition_notes=row.edition_notes))
        target = ref_route(ctx.library, row)
        if target:
            sec = rs.section(leading_ref(row.ref) or "")
            controls.append(nav_tile(ctx, _("Read {ref} {title}").format(ref=ref_label(sec.ref), title=sec.title),
                                     target, subtitle=sec.title_ja, leading=ft.Icon(ft.Icons.MENU_BOOK)))
        controls.append(ft.Divider(height=12))

    others = other_rulesets(ctx.library, rs.id, foul)
    # the count is of the rows shown (a ruleset may have several rows for one foul)
    controls.append(section_heading(_("Same foul in other rulesets"),
                                    count=sum(len(orows) for _other, orows in others)))
    if not others:
        controls.append(empty_note(_("No other ruleset names this foul.")))
    for other, orows in others:
        for r in orows:
            sub = [r.foul]
            own = next(c for c in columns(r) if c.own)
            sub.append(f"{_(own.label)}: {own.text}" if own.label else own.text)
            if r.ref:
                sub.append(ref_label(r.ref))
            if r.conflict:
                sub.append(_("Conflict in the rules: see the row"))
            controls.append(nav_tile(ctx, other.short, penalty_route(other.id, r.id), subtitle=sub,
                                     leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
    return ctx.view(route=ctx.route, title=rows[0].foul, controls=controls,
                    actions=entry_actions(ctx, "penalty", rs.id, foul))
