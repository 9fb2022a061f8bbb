"""The calculators: ``/tools`` (the list), ``/tools/chombo``, ``/tools/revealed``, ``/tools/strikes``.

Each screen: a ruleset picker (defaulting to the chosen ruleset), inputs a thumb can hit (48 px
and more), and the result in large type with a link to the section it comes from. Every input
has a label or tooltip (its accessible name): "Ruleset", "Offender seat", "Tiles revealed",
"Fewer tiles", "More tiles", "Source", "During the deal", "Strike dates", "On date",
"Ledger player". Bad input shows a sentence saying what to do (:func:`handbook.ui.errors.readable`),
not the ``ValueError``'s text.

Query parameters preset the inputs (deep links, browser tests): ``/tools/chombo?ruleset=ema-rcr
&seat=S``, ``/tools/revealed?ruleset=azrm&tiles=3&source=wall&deal=1``,
``/tools/strikes?player=<ledger key>&on=2026-04-20``.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable, Sequence

import flet as ft

import handbook
from handbook.core.model import Penalty
from handbook.ledger import MAX_NAME
from handbook.i18n import N_
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.routes import chombo_record_route, record_route
from handbook.ui.text import ref_label
from handbook.ui.errors import readable
from handbook.ui.gate import judged_ledger, passphrase_controls
from handbook.ui.widgets import (
    BIG,
    BODY_SIZE,
    MEDIUM,
    SMALL_SIZE,
    captioned,
    choice_buttons,
    default_ruleset,
    error_box,
    fact,
    fact_wrap,
    field_above,
    handbook_notes,
    icon_button,
    named,
    source_button,
    source_link,
    strike_status_controls,
    record_button,
    refresh,
    switch_row,
    tall_style,
    yes_no,
)

from handbook.ui.calculator_parts import SOURCE_EDITION, card, edition_picker, notes_list, ruleset_picker, signed

USUAL = "usual"  # the chombo screen's foul picker: the ruleset's usual chombo

SEAT_NAMES = {"E": N_("East (dealer)"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
SOURCE_NAMES = {"hand": N_("Hand"), "wall": N_("Wall"), "dead_wall": N_("Dead wall"),
                "opponent_hand": N_("Opponent's hand")}
PENALTY_NAMES = {
    Penalty.NONE: N_("No penalty"), Penalty.WARNING: N_("Warning"), Penalty.REDEAL: N_("Re-deal"),
    Penalty.DEAD_HAND: N_("Dead hand"), Penalty.MINOR_CHOMBO: N_("Minor chombo"),
    Penalty.CHOMBO: N_("Chombo"), Penalty.POINT_PENALTY: N_("Point penalty"),
    Penalty.DISCRETION: N_("Referee's discretion"), Penalty.DISQUALIFICATION: N_("Disqualification"),
}


# ------------------------------------------------------------------ data (no flet)

def parse_tiles(text: str) -> int:
    """The tile count typed in the box; ``ValueError`` naming ``tiles`` otherwise (range checks are
    :func:`handbook.revealed_tiles`'s)."""
    t = (text or "").strip()
    if not re.fullmatch(r"[+-]?\d{1,6}", t):
        raise ValueError(f"tiles: must be a whole number from 1 to 136, got {t!r}")
    return int(t)


def parse_strike_dates(text: str) -> list[datetime.date]:
    """Dates typed one per line (or separated by commas/spaces) as ``YYYY-MM-DD``; a date repeated
    is several Strikes that day. ``ValueError`` naming the item and what is wrong."""
    out = []
    for i, token in enumerate(t for t in re.split(r"[\s,;]+", text or "") if t):
        day = None
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", token):
            try:
                day = datetime.date.fromisoformat(token)
            except ValueError:
                pass
        if day is None:
            raise ValueError(f"strikes: item {i + 1}, {token!r}, is not a date (YYYY-MM-DD)")
        out.append(day)
    return out


def parse_on(text: str) -> datetime.date:
    t = (text or "").strip()
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
            return datetime.date.fromisoformat(t)
    except ValueError:
        pass
    raise ValueError(f"on: {t!r} is not a date (YYYY-MM-DD)")


def hand_effects(s: handbook.ChomboSettlement, _: Callable[[str], str]) -> list[str]:
    """What happens to the hand, one sentence each."""
    return [
        _("The hand is re-dealt.") if s.redeal else _("The hand is not re-dealt."),
        _("Riichi deposits go back to their owners.") if s.deposits_returned
        else _("Riichi deposits stay on the table."),
        _("A honba counter is added.") if s.honba_added else _("No honba counter is added."),
        _("The dealer rotates.") if s.dealer_rotates else _("The dealer stays (no rotation)."),
    ]


# ------------------------------------------------------------------ small pieces


def _ruling(ctx: AppContext, ruleset: str, ref: str, penalty: str, points: int, strike: bool) -> ft.Control:
    """The result's first line, "AZRM §2.4", named for a screen reader with the whole ruling in
    one swipe: "AZRM §2.4: Chombo, 30P deducted, Strike: Yes"."""
    _ = ctx._
    where = f"{ctx.short(ruleset)} {ref_label(ref)}"
    name = _("{where}: {penalty}, {points}P deducted, Strike: {strike}").format(
        where=where, penalty=penalty, points=points, strike=yes_no(ctx, strike))
    return ft.Semantics(label=name, container=True, key="ruling", content=ft.Text(
        where, size=SMALL_SIZE, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY))


# ------------------------------------------------------------------ /tools

def build_tools(ctx: AppContext) -> ft.View:
    """The list of calculators and the ledger."""
    from handbook.ui.widgets import nav_tile

    _ = ctx._
    items = [
        (_("Hand value"), _("Yaku, han, fu and who pays what, per ruleset"), "/tools/hand",
         ft.Icons.CALCULATE_OUTLINED),
        (_("Yaku"), _("Every yaku per ruleset: names, han closed and open, a sample hand"), "/tools/yaku",
         ft.Icons.STYLE_OUTLINED),
        (_("Payment table"), _("Han × fu: what each player pays, limits, counters"), "/tools/payments",
         ft.Icons.TABLE_CHART_OUTLINED),
        (_("Chombo settlement"), _("Payments, points, Strike, what happens to the hand"),
         "/tools/chombo", ft.Icons.CANCEL_OUTLINED),
        (_("Revealed tiles"), _("Penalty by tile count, where the tiles came from"),
         "/tools/revealed", ft.Icons.VISIBILITY_OUTLINED),
        (_("End of hanchan"), _("Final score: uma, riichi sticks left, penalties"), "/tools/final",
         ft.Icons.SCOREBOARD_OUTLINED),
        (_("Strikes"), _("AZRM strike window, suspensions, ban"), "/tools/strikes",
         ft.Icons.TIMER_OUTLINED),
        (_("Ledger"), _("Penalties recorded against players"), "/ledger",
         ft.Icons.PEOPLE_OUTLINE),
    ]
    return ctx.view(
        route=ctx.route, title=_("Tools"), back=False,
        controls=[nav_tile(ctx, title, route, subtitle=sub, leading=ft.Icon(icon), key=route)
                  for title, sub, route, icon in items],
    )


# ------------------------------------------------------------------ /tools/chombo

def build_chombo(ctx: AppContext) -> ft.View:
    """Chombo settlement: ruleset, offender seat → payments, P, Strike, the hand, § link."""
    return _ChomboScreen(ctx).view()


class _ChomboScreen:
    """The chombo screen's inputs (ruleset, offender seat, foul) and the settlement they give."""

    def __init__(self, ctx: AppContext) -> None:
        q = ctx.query
        self.ctx = ctx
        self.ruleset = default_ruleset(ctx.library, ctx.ruleset, q.get("ruleset"))
        self.seat = q["seat"] if q.get("seat") in handbook.SEATS else "S"
        self.foul = q.get("foul") or USUAL
        self.edition = q.get("edition") or None
        self.result = ft.Column(spacing=8, key="chombo-result")
        self.foul_slot = ft.Row([self.foul_picker()])
        self.edition_slot = ft.Row(self.edition_picker())
        self.show()

    def view(self) -> ft.View:
        _ = self.ctx._
        seats = ft.SegmentedButton(
            segments=[ft.Segment(value=s, label=ft.Text(s, size=MEDIUM, weight=ft.FontWeight.W_600,
                                                        semantics_label=_(SEAT_NAMES[s])))
                      for s in handbook.SEATS],
            selected=[self.seat], on_change=self.pick_seat, show_selected_icon=False,
            expand=True, key="seat", style=ft.ButtonStyle(padding=ft.Padding.symmetric(vertical=14)),
        )
        return self.ctx.view(route=self.ctx.route, title=_("Chombo settlement"), controls=[
            ft.Row([ruleset_picker(self.ctx, self.ruleset, self.pick_ruleset)]),
            self.edition_slot,
            self.foul_slot,
            captioned(_("Offender seat"), ft.Row([seats])),
            ft.Text(_("East is the dealer."), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
            self.result,
        ])

    def foul_picker(self) -> ft.Control:
        """The ruleset's usual chombo and the fouls whose rows give a chombo of their own."""
        _, lib = self.ctx._, self.ctx.library
        fouls = handbook.chombo_fouls(self.ruleset, library=lib)
        if self.foul not in {r.id for r in fouls}:
            self.foul = USUAL
        usual = handbook.chombo(self.ruleset, "S", library=lib, edition=self.edition)
        text = (_("Usual chombo ({points}P)").format(points=usual.points) if usual.points or not any(usual.payments.values())
                else _("Usual chombo (paid at the table, no P deducted)"))
        options = [ft.DropdownOption(key=USUAL, text=text)]
        options += [ft.DropdownOption(key=r.id, text=f"{r.foul} — {r.penalty}") for r in fouls]
        return named(ft.Dropdown(label=_("Foul"), value=self.foul, options=options, expand=True,
                                 text_size=BODY_SIZE, on_select=self.pick_foul, key="foul"))

    def edition_picker(self) -> list[ft.Control]:
        """Where a public source states another edition (EMA RCR 2016): which one to settle by,
        the source's text first and chosen by default, each labelled."""
        return edition_picker(self.ctx, handbook.chombo_editions(self.ruleset, library=self.ctx.library),
                               self.edition, self.pick_edition)

    def pick_edition(self, e) -> None:
        self.edition = None if e.control.value in (None, SOURCE_EDITION) else e.control.value
        self.foul_slot.controls = [self.foul_picker()]
        self.changed()

    def show(self) -> None:
        _, lib = self.ctx._, self.ctx.library
        if self.edition not in handbook.chombo_editions(self.ruleset, library=lib):
            self.edition = None
        try:
            s = handbook.chombo(self.ruleset, self.seat, library=lib, edition=self.edition,
                                foul=None if self.foul == USUAL else self.foul)
        except ValueError as exc:
            self.result.controls = [error_box(readable(exc, _))]
            return
        self.result.controls = [card(_settlement_rows(self.ctx, lib.rulesets[self.ruleset], s, self.seat))]

    def changed(self) -> None:
        self.show()
        self.ctx.page.update()

    def pick_ruleset(self, value: str) -> None:
        self.ruleset = value
        self.edition = None
        self.edition_slot.controls = self.edition_picker()
        self.foul_slot.controls = [self.foul_picker()]
        self.changed()

    def pick_foul(self, e) -> None:
        self.foul = e.control.value or USUAL
        self.changed()

    def pick_seat(self, e) -> None:
        sel = list(e.control.selected or [])
        if sel:
            self.seat = sel[0]
        self.changed()


def _settlement_rows(ctx: AppContext, rs, s: handbook.ChomboSettlement, offender: str) -> list[ft.Control]:
    """A chombo settlement: the ruling, the foul picked (in full), the payments per seat (or
    none), P and Strike, what happens to the hand, the notes and the § link."""
    _ = ctx._
    rows: list[ft.Control] = [_ruling(ctx, rs.id, s.ref, _(PENALTY_NAMES[Penalty.CHOMBO]), s.points, s.strike)]
    if s.foul:
        # the foul picked, whole: the picker shows one line, cut on a phone (and at 200 % text)
        rows.append(ft.Text(s.foul, size=MEDIUM, weight=ft.FontWeight.W_600, key="chosen-foul"))
    if any(s.payments.values()):
        rows.append(ft.Text(_("Payments (table points)"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        for seat in handbook.SEATS:
            who = _(SEAT_NAMES[seat])
            if seat == offender:
                who = _("{seat} — offender").format(seat=who)
            rows.append(ft.Semantics(
                label=f"{who}: {signed(s.payments[seat], ctx.locale)}", container=True,
                content=ft.Row([ft.Text(who, size=BODY_SIZE, expand=True),
                                ft.Text(signed(s.payments[seat], ctx.locale), size=BIG - 4,
                                        weight=ft.FontWeight.W_700)])))
    else:
        rows.append(ft.Text(_("No payment: the table score is unchanged."), size=MEDIUM,
                            weight=ft.FontWeight.W_600, key="no-payment"))
    rows.append(_points_and_strike(ctx, s.points, s.strike))
    # the row of the foul picked; the usual chombo is no one row of the table: the record form
    # asks which chombo row it was
    row = next((p for p in rs.penalties if p.id == s.foul_id and p.foul == s.foul), None) if s.foul_id else None
    asked = _("Chombo, offender seat {seat}").format(seat=_(SEAT_NAMES[offender]))
    if row is None and not s.foul_id and handbook.chombo_fouls(rs.id, library=ctx.library):
        rows.append(ft.Row([record_button(ctx, chombo_record_route(rs.id, q=asked), key="record-ruling")], wrap=True))
    else:
        rows += _record_this(ctx, row, asked, strike=s.strike, points=s.points)
    rows.append(ft.Text(_("What happens to the hand"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
    rows += notes_list(hand_effects(s, _))
    rows += _titled_notes(ctx, s.notes)
    # the handbook's readings and the editions that settle a chombo differently
    interpretations, edition_notes = rs.notes_for_tool("chombo")
    rows += handbook_notes(ctx, ruleset=rs.id, interpretations=interpretations, edition_notes=edition_notes)
    rows.append(source_button(ctx, source_link(ctx.library, rs.id, s.ref, s.foul)))
    return rows


def _points_and_strike(ctx: AppContext, points: int, strike: bool) -> ft.Control:
    """"Points deducted" and "Strike", side by side, large."""
    _ = ctx._
    return fact_wrap([
        fact(_("Points deducted"), f"{points}P", size=BIG, key="points"),
        fact(_("Strike"), yes_no(ctx, strike), size=BIG, key="strike", color=ft.Colors.ERROR if strike else None),
    ])


def _titled_notes(ctx: AppContext, notes: Sequence[str]) -> list[ft.Control]:
    """"Notes" and the notes as bullets (nothing when there are none)."""
    if not notes:
        return []
    return [ft.Text(ctx._("Notes"), size=SMALL_SIZE, weight=ft.FontWeight.W_600),
            *notes_list([ctx.hb(n) for n in notes])]


# ------------------------------------------------------------------ /tools/revealed

def build_revealed(ctx: AppContext) -> ft.View:
    """Revealed tiles: ruleset, count (steppers), source, during the deal → penalty, P, Strike."""
    return _RevealedScreen(ctx).view()


class _RevealedScreen:
    """The revealed-tiles screen's inputs (ruleset, tile count as typed, source, during the deal)
    and the ruling they give."""

    def __init__(self, ctx: AppContext) -> None:
        q = ctx.query
        self.ctx = ctx
        self.ruleset = default_ruleset(ctx.library, ctx.ruleset, q.get("ruleset"))
        self.tiles = q.get("tiles", "3")
        self.source = q["source"] if q.get("source") in handbook.SOURCES else "hand"
        self.deal = q.get("deal", "") in ("1", "true", "yes")
        self.result = ft.Column(spacing=8, key="revealed-result")
        self.tiles_box = ft.TextField(
            label=ctx._("Tiles revealed"), value=str(self.tiles), width=130, text_size=MEDIUM + 2,
            text_align=ft.TextAlign.CENTER, keyboard_type=ft.KeyboardType.NUMBER, key="tiles",
            input_filter=ft.InputFilter(regex_string=r"^[0-9]{0,3}$", allow=True, replacement_string=""),
            on_change=self.typed,
        )
        self.show()

    def view(self) -> ft.View:
        _ = self.ctx._
        stepper_style = ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12))
        stepper = ft.Row(
            controls=[
                icon_button(ft.Icons.REMOVE, _("Fewer tiles"), lambda e: self.step(-1), filled=True, size=56,
                            icon_size=28, style=stepper_style, key="fewer"),
                field_above(_("Tiles revealed"), self.tiles_box),
                icon_button(ft.Icons.ADD, _("More tiles"), lambda e: self.step(1), filled=True, size=56,
                            icon_size=28, style=stepper_style, key="more"),
            ],
            alignment=ft.MainAxisAlignment.CENTER, spacing=12, vertical_alignment=ft.CrossAxisAlignment.END,
        )
        sources = choice_buttons([(src, _(SOURCE_NAMES[src])) for src in handbook.SOURCES], self.source,
                                 self.pick_source, key="source")
        return self.ctx.view(route=self.ctx.route, title=_("Revealed tiles"), controls=[
            ft.Row([ruleset_picker(self.ctx, self.ruleset, self.pick_ruleset)]),
            stepper,
            captioned(_("Source"), sources),
            switch_row(ft.Switch(label=_("During the deal"), value=self.deal, on_change=self.pick_deal, key="deal",
                                 label_text_style=ft.TextStyle(size=BODY_SIZE))),
            self.result,
        ])

    def show(self) -> None:
        _, lib = self.ctx._, self.ctx.library
        try:
            r = handbook.revealed_tiles(self.ruleset, parse_tiles(self.tiles), source=self.source,
                                        during_deal=self.deal, library=lib)
        except ValueError as exc:
            self.result.controls = [error_box(readable(exc, _))]
            return
        asked = _("{n} tiles revealed ({source})").format(
            n=parse_tiles(self.tiles), source=_(SOURCE_NAMES[self.source]))
        if self.deal:
            asked += ", " + _("During the deal").lower()
        self.result.controls = [card(_revealed_rows(self.ctx, lib.rulesets[r.ruleset or self.ruleset], r, asked))]

    def changed(self) -> None:
        self.show()
        self.ctx.page.update()

    def pick_ruleset(self, value: str) -> None:
        self.ruleset = value
        self.changed()

    def typed(self, e) -> None:
        self.tiles = e.control.value or ""
        self.changed()

    def step(self, delta: int) -> None:
        try:
            n = parse_tiles(self.tiles)
        except ValueError:
            n = 0
        self.tiles = self.tiles_box.value = str(min(handbook.core.rulings.MAX_TILES, max(1, n + delta)))
        self.changed()

    def pick_source(self, value: str) -> None:
        self.source = value
        self.changed()

    def pick_deal(self, e) -> None:
        self.deal = bool(e.control.value)
        self.changed()


def _record_this(ctx: AppContext, row, asked: str, *, strike: bool | None, points: int | None) -> list[ft.Control]:
    """"Record this ruling" for a calculator's result that is one penalty row (none without
    one): the form gets the calculator's input as the reason's start, and its Strike and points
    where the row leaves them to the judge."""
    if row is None:
        return []
    route = record_route(row.ruleset, row.index, q=asked,
                         strike=strike if row.strike is None else None,
                         points=points if row.points is None and points else None)
    return [ft.Row([record_button(ctx, route, key="record-ruling")], wrap=True)]


def _revealed_rows(ctx: AppContext, rs, r: handbook.Ruling, asked: str = "") -> list[ft.Control]:
    """A revealed-tiles ruling: the penalty (or the referee's choices), the source's row, P and
    Strike, "Record this ruling" (the row's), the notes and the § link."""
    _ = ctx._
    row = next((p for p in rs.penalties if p.foul == r.foul), None) if r.foul else None
    headline = r.wording if r.choices and r.wording else _(PENALTY_NAMES[r.penalty])
    rows: list[ft.Control] = [_ruling(ctx, rs.id, r.ref, headline, r.points, r.strike),
                              fact(_("Penalty"), headline, size=BIG, key="penalty")]
    if r.choices:
        rows.append(ft.Text(_("The referee's call"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        rows += [_choice(c, i) for i, c in enumerate(r.choices)]
    elif row is not None:
        rows.append(ft.Text(_("The source: {foul} — {penalty}").format(foul=row.foul, penalty=row.penalty),
                            size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    rows.append(_points_and_strike(ctx, r.points, r.strike))
    rows += _record_this(ctx, row, asked, strike=r.strike, points=r.points)
    rows += _titled_notes(ctx, r.notes)
    rows.append(source_button(ctx, source_link(ctx.library, rs.id, r.ref, r.foul)))
    return rows


def _choice(c: handbook.Choice, i: int) -> ft.Control:
    """One outcome the source leaves to the referee, with the circumstance it names."""
    return ft.Semantics(
        label=f"{c.wording}" + (f" ({c.when})" if c.when else ""), container=True, key=f"choice-{i}",
        content=ft.Row([ft.Text("•", size=BODY_SIZE),
                        ft.Column([ft.Text(c.wording, size=MEDIUM, weight=ft.FontWeight.W_600),
                                   *([ft.Text(c.when, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)]
                                     if c.when else [])], spacing=0, tight=True, expand=True)],
                       vertical_alignment=ft.CrossAxisAlignment.START, spacing=8))


# ------------------------------------------------------------------ /tools/strikes

def build_strikes(ctx: AppContext) -> ft.View:
    """The AZRM strike window: Strike dates (typed, picked or from a ledger player) and the day
    → today's count, the window, the countdown, Suspension, Ban; the literal reading stated."""
    return _StrikesScreen(ctx).view()


class _StrikesScreen:
    """The strike window screen: the Strike dates and the on date as typed (or picked, or filled
    in from a ledger player), and the standing they give."""

    def __init__(self, ctx: AppContext) -> None:
        _, q = ctx._, ctx.query
        self.ctx = ctx
        self.ledger = judged_ledger(ctx)
        self.today = datetime.date.today()
        self.player = q.get("player")
        #: a ledger player was asked for but the ledger is locked for this session: say so, and
        #: show no standing for them (no dates is "Not suspended", which may be untrue)
        self.locked = bool(self.player) and not ctx.judged
        dates_text = q.get("dates", "").replace(",", "\n")
        if self.player and self.ledger is not None:
            dates_text = "\n".join(d.isoformat() for d in self.ledger.strike_dates(self.player))
        self.result = ft.Column(spacing=8, key="strikes-result")
        self.dates_box = ft.TextField(
            label=_("Strike dates"), value=dates_text, multiline=True, min_lines=3, max_lines=8,
            hint_text=_("One date per line, YYYY-MM-DD; repeat a date for several Strikes that day"),
            text_size=BODY_SIZE, key="strike-dates", on_change=self.changed,
        )
        self.on_box = ft.TextField(label=_("On date"), value=q.get("on") or self.today.isoformat(), expand=True,
                                   text_size=BODY_SIZE, hint_text="YYYY-MM-DD", key="on-date", on_change=self.changed)
        self.show()

    def view(self) -> ft.View:
        _ = self.ctx._
        controls: list[ft.Control] = [
            *self.locked_notice(),
            *self.player_picker(),
            self.dates_box,
            ft.Row([ft.OutlinedButton(_("Add a strike date"), icon=ft.Icons.EVENT_OUTLINED, style=tall_style(),
                                      on_click=lambda e: self.open_picker(self.dates_box, append=True))],
                   wrap=True),
            # the date box has the row to itself (beside two buttons its date was cut at large text)
            ft.Row([self.on_box]),
            ft.Row([icon_button(ft.Icons.CALENDAR_MONTH, _("Pick the on date"),
                                lambda e: self.open_picker(self.on_box, append=False)),
                    ft.TextButton(_("Today"), height=TOUCH, on_click=self.set_today)], wrap=True),
            self.result,
        ]
        return self.ctx.view(route=self.ctx.route, title=_("Strikes"), controls=controls)

    def locked_notice(self) -> list[ft.Control]:
        """For a ledger player asked for while the ledger is locked: that it is, and the
        passphrase box to open it here."""
        if not self.locked:
            return []
        _ = self.ctx._
        return [ft.Row([ft.Icon(ft.Icons.LOCK_OUTLINE),
                        ft.Text(_("The ledger is locked, so this player's Strikes are not filled "
                                  "in and no standing is shown for them. Give the judge "
                                  "passphrase to open it."),
                                size=BODY_SIZE, expand=True, key="ledger-locked")],
                       vertical_alignment=ft.CrossAxisAlignment.START),
                *passphrase_controls(self.ctx, autofocus=False)]

    def player_picker(self) -> list[ft.Control]:
        """"Ledger player": fills in a player's AZRM Strikes (for a session that may see the ledger).
        A list of every player up to :data:`PICKER_LIMIT` of them; beyond, a box that finds the
        player by part of the name (a season's ledger of thousands would be one list too long to
        scroll, and too large to send to every judge who opens the screen)."""
        _ = self.ctx._
        players = self.ledger.players() if self.ledger is not None else []
        if not players:
            return []
        if len(players) > PICKER_LIMIT:
            self.matches = ft.Column(spacing=0, key="ledger-player-matches")
            return [ft.TextField(
                label=_("Ledger player"), on_change=self.find_player, text_size=BODY_SIZE,
                key="ledger-player-find", helper_max_lines=3,
                helper=_("Type part of the name; the player's AZRM Strikes are filled in from the ledger"),
            ), self.matches]
        return [ft.Row([named(ft.Dropdown(
            label=_("Ledger player"), value=self.player if any(p.key == self.player for p in players) else None,
            options=[ft.DropdownOption(key=p.key, text=_player_label(self.ctx, p)) for p in players],
            on_select=self.use_player, expand=True, key="ledger-player",
            helper_text=_("Fills in the player's AZRM Strikes from the ledger"),
        ))], margin=ft.Margin.only(bottom=8))]

    def show(self) -> None:
        _ = self.ctx._
        self.on_box.error_text = self.dates_box.error_text = None
        if self.locked and not (self.dates_box.value or "").strip():
            self.result.controls = []
            return
        try:
            dates = parse_strike_dates(self.dates_box.value or "")
        except ValueError as exc:
            self.dates_box.error_text = _("Check the dates")
            self.result.controls = [error_box(readable(exc, _))]
            return
        try:
            on = parse_on(self.on_box.value or "")
        except ValueError as exc:
            self.on_box.error_text = _("YYYY-MM-DD")
            self.result.controls = [error_box(readable(exc, _))]
            return
        try:
            s = handbook.strike_status(dates, on)
        except ValueError as exc:
            self.result.controls = [error_box(readable(exc, _))]
            return
        self.result.controls = [card(strike_status_controls(self.ctx, s))]

    def changed(self, e=None) -> None:
        self.show()
        self.ctx.page.update()

    def set_today(self, e=None) -> None:
        self.on_box.value = self.today.isoformat()
        self.changed()

    def use_player(self, e) -> None:
        self.fill_in(e.control.value)

    def fill_in(self, key: str | None) -> None:
        """The Strike dates of the ledger player ``key`` in the dates box."""
        if self.ledger is None or not key:
            return
        self.dates_box.value = "\n".join(d.isoformat() for d in self.ledger.strike_dates(key))
        self.changed()

    def find_player(self, e) -> None:
        """The players whose name (or club) holds what was typed, :data:`PICKER_MATCHES` at most,
        each a button that fills in their Strikes."""
        _ = self.ctx._
        typed = " ".join((e.control.value or "").casefold().split())[:MAX_NAME]
        found = [] if not typed or self.ledger is None else [
            p for p in self.ledger.players() if typed in f"{p.name} {p.club or ''}".casefold()][:PICKER_MATCHES]

        def pick(p):
            def picked(e) -> None:
                self.matches.controls = []
                self.fill_in(p.key)
                refresh(self.matches)
            return picked

        self.matches.controls = ([ft.TextButton(_player_label(self.ctx, p), on_click=pick(p), height=TOUCH,
                                                key=f"ledger-player:{p.key}") for p in found] if found else
                                 [ft.Text(_("No player in the ledger matches “{text}”.").format(text=typed),
                                          size=SMALL_SIZE)] if typed else [])
        refresh(self.matches)

    def open_picker(self, target: ft.TextField, *, append: bool) -> None:
        """A date picker that adds a Strike date (``append``) or sets the on date."""
        def picked(e) -> None:
            value = e.control.value
            if value is None:
                return
            d = value.date() if isinstance(value, datetime.datetime) else value
            existing = (target.value or "").rstrip()
            target.value = (existing + "\n" if existing and append else "") + d.isoformat()
            self.changed()

        self.ctx.page.show_dialog(ft.DatePicker(
            first_date=datetime.datetime(2000, 1, 1), last_date=datetime.datetime(2100, 12, 31),
            current_date=datetime.datetime.now(),
            help_text=self.ctx._("Strike date") if append else self.ctx._("On date"), on_change=picked))


#: players a ledger may hold for the strikes screen to list them all; beyond, it finds them by name
PICKER_LIMIT = 60
#: players a search by name shows at most
PICKER_MATCHES = 8


def _player_label(ctx: AppContext, p) -> str:
    name = p.name if not p.club else f"{p.name} ({p.club})"
    return ctx.ngettext("{name} — {n} Strike", "{name} — {n} Strikes", p.strikes).format(
        name=name, n=p.strikes)


__all__ = [
    "build_chombo", "build_revealed", "build_strikes", "build_tools", "default_ruleset",
    "hand_effects", "parse_strike_dates",
    "parse_tiles", "signed", "source_link", "strike_status_controls",
]
