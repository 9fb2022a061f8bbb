""""What happened?": ``/what-happened`` (the categories of the chosen ruleset's fouls) and
``/what-happened/<category>`` (that category's fouls; a tap opens the foul's ruling: its penalty
page, or where the ruleset deals with it when its table has no row of its own). From the search
page that is three taps to any foul (:mod:`handbook.core.incidents` holds the data).

The ruleset is ``?ruleset=`` when it names one, else the one chosen on the search page (``None``:
every foul, each opening its first table's rows, whose page shows the other rulesets)."""

from __future__ import annotations

import flet as ft

from handbook.core.incidents import Incident, browse
from handbook.core.incidents import category as find_category
from handbook.ui.context import AppContext
from handbook.ui.routes import build_route, penalty_route, section_route
from handbook.ui.text import ref_label
from handbook.ui.titles import japanese_first
from handbook.ui.widgets import SMALL_SIZE, empty_note, foul_japanese, nav_tile


def chosen_ruleset(ctx: AppContext) -> str | None:
    """``?ruleset=`` when it names a ruleset, else the search page's choice (``None``: all)."""
    q = ctx.query.get("ruleset")
    return q if q in ctx.library.rulesets else ctx.ruleset


def _asked(ctx: AppContext) -> str | None:
    """The ruleset ``?ruleset=`` names (kept in the links onward), or ``None``."""
    q = ctx.query.get("ruleset")
    return q if q in ctx.library.rulesets else None


def index_route(ruleset: str | None = None) -> str:
    return "/what-happened" + (f"?ruleset={ruleset}" if ruleset else "")


def category_route(category_id: str, ruleset: str | None = None) -> str:
    return build_route("what-happened-category", category=category_id) + (f"?ruleset={ruleset}" if ruleset else "")


def target_route(item: Incident) -> str:
    """Where a tap on ``item`` goes: its ruleset's rows of the foul, or the covering target."""
    kind, _, ref = item.target.partition(":")
    return penalty_route(item.ruleset, ref) if kind == "penalty" else section_route(item.ruleset, ref)


def _ruleset_line(ctx: AppContext, ruleset: str | None) -> ft.Control:
    return ft.Text(ctx._("Ruleset: {ruleset}").format(ruleset=ctx.short(ruleset)), size=SMALL_SIZE,
                   color=ft.Colors.ON_SURFACE_VARIANT)


def build_index(ctx: AppContext) -> ft.View:
    """The categories, each with how many fouls it holds in the ruleset."""
    _ = ctx._
    rid = chosen_ruleset(ctx)
    groups = browse(ctx.library, rid)
    controls: list[ft.Control] = [_ruleset_line(ctx, rid)]
    for cat, items in groups:
        controls.append(nav_tile(ctx, ctx.hb(cat.name) or cat.name, category_route(cat.id, _asked(ctx)),
                                 subtitle=ctx.ngettext("{n} foul", "{n} fouls", len(items)).format(n=len(items)),
                                 leading=ft.Icon(ft.Icons.CHEVRON_RIGHT), key=f"category-{cat.id}"))
    if not groups:
        controls.append(empty_note(_("This ruleset has no penalty table.")))
    return ctx.view(route=ctx.route, title=_("What happened?"), controls=controls)


def incident_tile(ctx: AppContext, item: Incident) -> ft.Control:
    """One foul: its name (the Japanese first on a Japanese screen), the other language beneath,
    and, where the ruleset has no row of its own, where it deals with it."""
    _ = ctx._
    ja, en = foul_japanese(item.foul), item.foul.name
    title, sub = (ja, en) if japanese_first(ctx) else (en, ja)
    subtitle = [sub]
    if item.covered:
        kind, _sep, ref = item.target.partition(":")
        rs = ctx.library.rulesets[item.ruleset]
        if kind == "rule":
            where = f"{ref_label(ref)} {rs.section(ref).title}"
        else:
            other = ctx.library.fouls.get(ref)
            where = (foul_japanese(other) if japanese_first(ctx) else other.name) if other else ref
        subtitle.append(_("No row of its own in {ruleset}: see {where}").format(ruleset=rs.short, where=where))
    return nav_tile(ctx, title, target_route(item), subtitle=subtitle, key=f"foul-{item.foul.id}")


def build_category(ctx: AppContext, category: str) -> ft.View:
    """The fouls of one category in the ruleset; ``KeyError`` for an unknown category."""
    cat = find_category(ctx.library, category)
    rid = chosen_ruleset(ctx)
    items = next((items for c, items in browse(ctx.library, rid) if c.id == cat.id), [])
    controls: list[ft.Control] = [_ruleset_line(ctx, rid)]
    controls += [incident_tile(ctx, i) for i in items]
    if not items:
        controls.append(empty_note(ctx._("No foul of this kind in {ruleset}.").format(ruleset=ctx.short(rid))))
    return ctx.view(route=ctx.route, title=ctx.hb(cat.name) or cat.name, controls=controls)
