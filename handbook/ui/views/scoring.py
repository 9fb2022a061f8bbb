"""The scoring references: ``/tools/yaku`` (the yaku of a ruleset), ``/tools/yaku/<id>`` (one yaku:
its names in English, Japanese, kana and romaji, han closed and open, a sample hand drawn as tiles,
and how each ruleset counts it, with sources) and ``/tools/payments`` (han × fu: what each payer
pays, non-dealer and dealer, ron and tsumo, the limits, counters and deposits).

Everything comes from :func:`handbook.yaku_list` and :func:`handbook.payment_table`, which take it
from the ``mahjong`` package under each ruleset's profile. Deep links: ``/tools/yaku?ruleset=ema-rcr``,
``/tools/yaku/Pinfu?ruleset=wrc-2025``, ``/tools/payments?ruleset=azrm&han=3&fu=30`` (the cell the
hand checker links to is marked).
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

import flet as ft

import handbook
from handbook.core.hand import parse_meld, parse_tiles
from handbook.core.scoring_table import FUS
from handbook.i18n import N_
from handbook.ui.calculator_parts import option_source
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.routes import payments_route, yaku_list_route, yaku_route
from handbook.ui.tiles import tile_face, tile_name
from handbook.ui.widgets import (BODY_SIZE, MEDIUM, SMALL_SIZE, badge, choice_buttons, default_ruleset, empty_note,
                                 fact, fact_wrap, named, nav_tile, section_heading)

#: the limit rows of the payment table: (label, han shown)
LIMIT_ROWS = ((N_("Mangan (5 han)"), 5), (N_("Haneman (6–7 han)"), 6), (N_("Baiman (8–10 han)"), 8),
              (N_("Sanbaiman (11–12 han)"), 11), (N_("13 han or more"), 13))
GROUPS = ((1, N_("1 han")), (2, N_("2 han")), (3, N_("3 han")), (5, N_("5 and 6 han")), (13, N_("Yakuman")),
          (0, N_("Dora (not yaku)")))


def han_words(y: handbook.YakuInfo, _: Callable[[str], str]) -> str:
    """"2 han closed, 1 open", "1 han, concealed hand only", "Yakuman", "Double yakuman"."""
    if y.yakuman:
        word = _("Double yakuman") if y.han_closed >= 26 else _("Yakuman")
        return word if y.han_open else _("{limit}, concealed hand only").format(limit=word)
    if y.han_open is None:
        return _("{han} han, concealed hand only").format(han=y.han_closed)
    if y.han_open == y.han_closed:
        return _("{han} han, open or closed").format(han=y.han_closed)
    return _("{closed} han closed, {open} open").format(closed=y.han_closed, open=y.han_open)


def _group(y: handbook.YakuInfo) -> int:
    if y.dora:
        return 0
    if y.yakuman:
        return 13
    return {1: 1, 2: 2, 3: 3}.get(y.han_closed, 5)


def _ruleset_picker(ctx: AppContext, ruleset: str, route: Callable[[str], str]) -> ft.Control:
    _ = ctx._
    ids = [r for r in ctx.library.rulesets if r in ctx.library.scoring]
    return ft.Row([named(ft.Dropdown(
        label=_("Ruleset"), value=ruleset, expand=True, text_size=BODY_SIZE, key="ruleset",
        options=[ft.DropdownOption(key=r, text=ctx.library.rulesets[r].short) for r in ids],
        on_select=lambda e: ctx.navigate(route(e.control.value))))])


def _names(ctx: AppContext, y: handbook.YakuInfo) -> tuple[str, str]:
    """(title, subtitle) in the reader's language: 平和 / ぴんふ · pinfu · Pinfu."""
    if ctx.locale.startswith("ja"):
        return y.name_ja, " · ".join(x for x in (y.reading, y.romaji, y.name) if x)
    return y.name, " · ".join(x for x in (y.name_ja, y.reading, y.romaji) if x)


# ------------------------------------------------------------------ /tools/yaku

def build_yaku_list(ctx: AppContext) -> ft.View:
    """Every yaku of one ruleset, by han, each opening its page."""
    _ = ctx._
    ruleset = default_ruleset(ctx.library, ctx.ruleset, ctx.query.get("ruleset"), allowed=list(ctx.library.scoring))
    items = handbook.yaku_list(ruleset, library=ctx.library)
    controls: list[ft.Control] = [
        _ruleset_picker(ctx, ruleset, yaku_list_route),
        ft.TextButton(content=_("Payment table of {ruleset}").format(ruleset=ctx.short(ruleset)),
                      icon=ft.Icons.TABLE_CHART_OUTLINED, height=TOUCH, key="to-payments",
                      on_click=lambda e: ctx.navigate(payments_route(ruleset))),
    ]
    for group, label in GROUPS:
        members = [y for y in items if _group(y) == group]
        if not members:
            continue
        controls.append(section_heading(_(label), count=len(members)))
        for y in members:
            title, sub = _names(ctx, y)
            trailing = badge(_("Yakuman")) if y.yakuman else None
            controls.append(nav_tile(ctx, title, yaku_route(y.id, ruleset), subtitle=[sub, han_words(y, _)],
                                     trailing=trailing, key=f"yaku-{y.id}"))
    return ctx.view(route=ctx.route, title=_("Yaku of {ruleset}").format(ruleset=ctx.short(ruleset)),
                    controls=controls)


# ------------------------------------------------------------------ /tools/yaku/<id>

def sample_tiles(hand: str, melds: tuple[str, ...], win: str) -> tuple[list[str], list[list[str]], str]:
    """The sample's tile codes: the concealed tiles without the winning tile, each meld, the winning tile."""
    codes = [str(t) for t in parse_tiles(hand)]
    if win in codes:
        codes.remove(win)
    return codes, [[str(t) for t in parse_meld(m).tiles] for m in melds], win


def _tile_row(ctx: AppContext, codes: list[str], key: str) -> ft.Control:
    _ = ctx._
    return ft.Row([ft.Semantics(label=tile_name(c, _), content=tile_face(c, width=30, height=42)) for c in codes],
                  spacing=2, run_spacing=4, wrap=True, key=key)


def build_yaku(ctx: AppContext, yaku: str) -> ft.View:
    """One yaku: names, han under this ruleset, a sample hand, how each ruleset counts it."""
    _ = ctx._
    ruleset = default_ruleset(ctx.library, ctx.ruleset, ctx.query.get("ruleset"), allowed=list(ctx.library.scoring))
    by_id = {y.id: y for y in handbook.yaku_list(ruleset, library=ctx.library)}
    y = by_id.get(yaku)
    if y is None:
        return ctx.view(route=ctx.route, title=_("Yaku"), controls=[
            empty_note(_("{ruleset} has no yaku {yaku}.").format(ruleset=ctx.short(ruleset), yaku=yaku)),
            nav_tile(ctx, _("Yaku of {ruleset}").format(ruleset=ctx.short(ruleset)),
                     yaku_list_route(ruleset))])
    title, _sub = _names(ctx, y)
    controls: list[ft.Control] = [
        _ruleset_picker(ctx, ruleset, lambda r: yaku_route(yaku, r)),
        fact_wrap([fact(_("English"), y.name, key="yaku-name"), fact(_("Japanese"), y.name_ja, key="yaku-name-ja"),
                   fact(_("Kana"), y.reading or "—"), fact(_("Romaji"), y.romaji)]),
        fact(_("Han under {ruleset}").format(ruleset=ctx.short(ruleset)), han_words(y, _), key="yaku-han"),
    ]
    if y.yakuman:
        controls.append(ft.Row([badge(_("Yakuman"))]))
    if y.sample is not None:
        concealed, melds, win = sample_tiles(y.sample.hand, y.sample.melds, y.sample.win)
        controls.append(section_heading(_("Sample hand")))
        controls.append(_tile_row(ctx, concealed, "sample-hand"))
        for i, m in enumerate(melds):
            controls.append(ft.Row([ft.Text(y.sample.melds[i].split(" ")[0], size=SMALL_SIZE),
                                    _tile_row(ctx, m, f"sample-meld-{i}")], wrap=True, spacing=6))
        controls.append(ft.Row([ft.Text(_("Winning tile"), size=SMALL_SIZE), _tile_row(ctx, [win], "sample-win")],
                               spacing=6, wrap=True))
        route = "/tools/hand?" + urlencode(_hand_query(ruleset, y.sample))
        controls.append(ft.FilledTonalButton(content=_("Check this hand"), icon=ft.Icons.CALCULATE_OUTLINED,
                                             height=TOUCH, key="check-sample",
                                             on_click=lambda e: ctx.navigate(route)))
    if y.notes:
        controls.append(section_heading(_("Notes")))
        controls += [ft.Text("• " + ctx.hb(n), size=SMALL_SIZE) for n in y.notes]
        for o in y.options:
            controls += option_source(ctx, o)
    controls.append(section_heading(_("In each ruleset")))
    for other in ctx.library.scoring:
        there = {x.id: x for x in handbook.yaku_list(other, library=ctx.library)}.get(yaku)
        words = han_words(there, _) if there else _("Not counted in this ruleset")
        differs = (there is None) or (there.han_closed, there.han_open) != (y.han_closed, y.han_open)
        lines = [ft.Text(ctx.short(other), size=BODY_SIZE, weight=ft.FontWeight.W_600),
                 ft.Text(words, size=BODY_SIZE, weight=ft.FontWeight.W_700 if differs else None)]
        if there is not None and there.notes and other != ruleset:
            lines += [ft.Text("• " + ctx.hb(n), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)
                      for n in there.notes]
        controls.append(ft.Semantics(label=f"{ctx.short(other)}: {words}", container=True, key=f"in-{other}",
                                     content=ft.Column(lines, spacing=2, tight=True)))
    return ctx.view(route=ctx.route, title=title, controls=controls)


def _hand_query(ruleset: str, sample) -> dict[str, str]:
    q = {"ruleset": ruleset, "hand": sample.hand, "win": sample.win}
    if sample.melds:
        q["melds"] = ",".join(sample.melds)
    for k, v in sample.args:
        if k == "round_wind":
            q["round"] = str(v)
        elif isinstance(v, bool):
            q[k] = "1" if v else "0"
        elif isinstance(v, list):
            q[k] = ",".join(v)
        else:
            q[k] = str(v)
    return q


# ------------------------------------------------------------------ /tools/payments

def _int(text: str | None, allowed, default: int) -> int:
    try:
        n = int(text or "")
    except ValueError:
        return default
    return n if n in allowed else default


def _cell(ctx: AppContext, table, han: int, fu: int, label: str, *, marked: bool, key: str | None = None) -> ft.Control:
    _ = ctx._

    def shown(points: str) -> str:
        return _("{points} all").format(points=points[:-4]) if points.endswith(" all") else points

    facts = [fact(_("Non-dealer ron"), table.points(han, fu, dealer=False, tsumo=False)),
             fact(_("Non-dealer tsumo"), table.points(han, fu, dealer=False, tsumo=True)),
             fact(_("Dealer ron"), table.points(han, fu, dealer=True, tsumo=False)),
             fact(_("Dealer tsumo"), shown(table.points(han, fu, dealer=True, tsumo=True)))]
    limit = table.limit(han, fu)
    head = [ft.Text(label, size=MEDIUM, weight=ft.FontWeight.W_700)]
    if table.rounded_up(han, fu):
        head.append(badge(_("Rounded up to mangan")))
    elif limit and han < 5:
        head.append(badge(_("Mangan")))
    return ft.Container(
        content=ft.Column([ft.Row(head, wrap=True, spacing=8), fact_wrap(facts)], spacing=6, tight=True),
        padding=12, border_radius=12, key=key or f"cell-{han}-{fu}" + ("-marked" if marked else ""),
        border=ft.Border.all(3, ft.Colors.PRIMARY) if marked else ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
        bgcolor=ft.Colors.PRIMARY_CONTAINER if marked else None)


def build_payments(ctx: AppContext) -> ft.View:
    """The payment table of one ruleset at one fu, the limits, counters and deposits."""
    _ = ctx._
    q = ctx.query
    ruleset = default_ruleset(ctx.library, ctx.ruleset, q.get("ruleset"), allowed=list(ctx.library.scoring))
    table = handbook.payment_table(ruleset, library=ctx.library)
    han = _int(q.get("han"), range(1, 14), 0)
    fu = _int(q.get("fu"), FUS, 30)
    controls: list[ft.Control] = [_ruleset_picker(ctx, ruleset, lambda r: payments_route(r, han or None, fu))]
    if han:  # the cell a link asked for (the hand checker's), first; it is marked again in its row below
        label = (_("{han} han {fu} fu").format(han=han, fu=fu) if han < 5
                 else next(_(lb) for lb, h in reversed(LIMIT_ROWS) if han >= h))
        controls += [section_heading(_("This hand")), _cell(ctx, table, han, fu, label, marked=True, key="cell-this-hand")]
    controls += [
        ft.Text(_("Fu"), size=SMALL_SIZE, weight=ft.FontWeight.W_600),
        choice_buttons([(str(f), str(f)) for f in FUS], str(fu),
                       lambda v: ctx.navigate(payments_route(ruleset, han or None, int(v))), key="fu"),
        section_heading(_("{fu} fu").format(fu=fu)),
    ]
    for h in range(1, 5):
        if fu == 25 and h == 1:
            controls.append(empty_note(_("1 han 25 fu cannot occur: seven pairs is 2 han.")))
            continue
        controls.append(_cell(ctx, table, h, fu, _("{han} han {fu} fu").format(han=h, fu=fu),
                              marked=han == h))
    controls.append(section_heading(_("Limits")))
    for label, h in LIMIT_ROWS:
        marked = bool(han) and (han == h or (h == 6 and han == 7) or (h == 8 and han in (9, 10))
                                or (h == 11 and han == 12) or (h == 13 and han >= 13)) and han >= 5
        controls.append(_cell(ctx, table, h, 30, _(label), marked=marked))
    controls.append(section_heading(_("Counters and deposits")))
    controls.append(ft.Text(_("Each counter (honba) adds 300 points to a ron, paid by the discarder, and 100 from "
                              "each payer to a tsumo. Riichi deposits on the table (1,000 each) go to the player who wins the hand."),
                            size=BODY_SIZE, key="honba-line"))
    controls.append(section_heading(_("Rounding and limits in {ruleset}").format(ruleset=ctx.short(ruleset))))
    for option in table.options.values():
        controls.append(ft.Text(_(_OPTION_NAMES[option.id]), size=BODY_SIZE,
                                weight=ft.FontWeight.W_600))
        controls += option_source(ctx, option)
    controls.append(nav_tile(ctx, _("Yaku of {ruleset}").format(ruleset=ctx.short(ruleset)),
                             yaku_list_route(ruleset), key="to-yaku"))
    return ctx.view(route=ctx.route, title=_("Payment table of {ruleset}").format(ruleset=ctx.short(ruleset)),
                    controls=controls)


_OPTION_NAMES = {"kiriage": N_("Rounding up to mangan (kiriage)"), "kazoe": N_("13 han or more (kazoe)")}


__all__ = ["build_payments", "build_yaku", "build_yaku_list", "han_words", "sample_tiles"]
