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
from handbook import i18n
from handbook.core.model import Library, Penalty
from handbook.i18n import N_
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.text import ref_label
from handbook.ui.errors import readable
from handbook.ui.gate import judged_ledger
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
    handbook_notes,
    icon_button,
    named,
    show_snack,
    source_button,
    source_link,
    strike_status_controls,
    switch_row,
    yes_no,
)

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
    if not re.fullmatch(r"[+-]?\d+", t):
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


def signed(n: int) -> str:
    """+4,000 / −8,000 / 0 with the locale's separators."""
    if n > 0:
        return "+" + i18n.format_decimal(n)
    if n < 0:
        return "\u2212" + i18n.format_decimal(-n)
    return "0"


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

def _ruleset_picker(ctx: AppContext, value: str, on_pick: Callable[[str], None],
                    ids: Sequence[str] | None = None) -> ft.Dropdown:
    _ = ctx._
    ids = list(ids or ctx.library.rulesets)

    def picked(e):
        on_pick(e.control.value)

    return named(ft.Dropdown(
        label=_("Ruleset"), value=value, expand=True, text_size=BODY_SIZE,
        options=[ft.DropdownOption(key=r, text=ctx.library.rulesets[r].short) for r in ids],
        on_select=picked, key="ruleset",
    ))


def _ruling(ctx: AppContext, ruleset: str, ref: str, penalty: str, points: int, strike: bool) -> ft.Control:
    """The result's first line, "AZRM §2.4", named for a screen reader with the whole ruling in
    one swipe: "AZRM §2.4: Chombo, 30P deducted, Strike: Yes"."""
    _ = ctx._
    where = f"{ctx.short(ruleset)} {ref_label(ref)}"
    name = _("{where}: {penalty}, {points}P deducted, Strike: {strike}").format(
        where=where, penalty=penalty, points=points, strike=yes_no(ctx, strike))
    return ft.Semantics(label=name, container=True, key="ruling", content=ft.Text(
        where, size=SMALL_SIZE, weight=ft.FontWeight.W_600, color=ft.Colors.PRIMARY))


def _card(controls: list[ft.Control], *, key: str = "result") -> ft.Container:
    return ft.Container(
        content=ft.Column(controls=controls, spacing=12, tight=True),
        padding=16, border_radius=16, bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST,
        margin=ft.Margin.only(top=8), key=key,
    )


def _notes(notes: Sequence[str]) -> list[ft.Control]:
    return [ft.Row([ft.Text("•", size=BODY_SIZE), ft.Text(n, size=BODY_SIZE, expand=True)],
                   vertical_alignment=ft.CrossAxisAlignment.START, spacing=8) for n in notes]


# ------------------------------------------------------------------ /tools

def build_tools(ctx: AppContext) -> ft.View:
    """The list of calculators and the ledger."""
    from handbook.ui.widgets import nav_tile

    _ = ctx._
    items = [
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
    _ = ctx._
    lib = ctx.library
    state = {
        "ruleset": default_ruleset(lib, ctx.ruleset, ctx.query.get("ruleset")),
        "seat": ctx.query.get("seat", "S") if ctx.query.get("seat") in handbook.SEATS else "S",
        "foul": ctx.query.get("foul") or USUAL,
    }
    result = ft.Column(spacing=8, key="chombo-result")
    foul_slot = ft.Row()

    def foul_picker() -> ft.Control:
        fouls = handbook.chombo_fouls(state["ruleset"], library=lib)
        if state["foul"] not in {r.id for r in fouls}:
            state["foul"] = USUAL
        usual = handbook.chombo(state["ruleset"], "S", library=lib).points
        options = [ft.DropdownOption(key=USUAL, text=_("Usual chombo ({points}P)").format(points=usual))]
        options += [ft.DropdownOption(key=r.id, text=f"{r.foul} — {r.penalty}") for r in fouls]
        return named(ft.Dropdown(label=_("Foul"), value=state["foul"], options=options, expand=True,
                                 text_size=BODY_SIZE, on_select=pick_foul, key="foul"))

    def show() -> None:
        try:
            s = handbook.chombo(state["ruleset"], state["seat"], library=lib,
                                foul=None if state["foul"] == USUAL else state["foul"])
        except ValueError as exc:
            result.controls = [error_box(readable(exc, _))]
            return
        rs = lib.rulesets[state["ruleset"]]
        rows: list[ft.Control] = [_ruling(ctx, rs.id, s.ref, _(PENALTY_NAMES[Penalty.CHOMBO]), s.points, s.strike)]
        if any(s.payments.values()):
            rows.append(ft.Text(_("Payments (table points)"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
            for seat in handbook.SEATS:
                who = _(SEAT_NAMES[seat])
                if seat == state["seat"]:
                    who = _("{seat} — offender").format(seat=who)
                rows.append(ft.Semantics(
                    label=f"{who}: {signed(s.payments[seat])}", container=True,
                    content=ft.Row([ft.Text(who, size=BODY_SIZE, expand=True),
                                    ft.Text(signed(s.payments[seat]), size=BIG - 4,
                                            weight=ft.FontWeight.W_700)])))
        else:
            rows.append(ft.Text(_("No payment: the table score is unchanged."), size=MEDIUM,
                                weight=ft.FontWeight.W_600, key="no-payment"))
        rows.append(ft.Row([
            ft.Container(fact(_("Points deducted"), f"{s.points}P", size=BIG, key="points"),
                         expand=True),
            ft.Container(fact(_("Strike"), yes_no(ctx, s.strike), size=BIG, key="strike",
                               color=ft.Colors.ERROR if s.strike else None), expand=True),
        ]))
        rows.append(ft.Text(_("What happens to the hand"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        rows += _notes(hand_effects(s, _))
        if s.notes:
            rows.append(ft.Text(_("Notes"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
            rows += _notes(s.notes)
        # the handbook's readings and the editions that settle a chombo differently
        interpretations, edition_notes = rs.notes_for_tool("chombo")
        rows += handbook_notes(ctx, ruleset=rs.id, interpretations=interpretations,
                               edition_notes=edition_notes)
        rows.append(source_button(ctx, source_link(lib, rs.id, s.ref, s.foul)))
        result.controls = [_card(rows)]

    def pick_ruleset(value: str) -> None:
        state["ruleset"] = value
        foul_slot.controls = [foul_picker()]
        show()
        ctx.page.update()

    def pick_foul(e) -> None:
        state["foul"] = e.control.value or USUAL
        show()
        ctx.page.update()

    def pick_seat(e) -> None:
        sel = list(e.control.selected or [])
        if sel:
            state["seat"] = sel[0]
        show()
        ctx.page.update()

    seats = ft.SegmentedButton(
        segments=[ft.Segment(value=s, label=ft.Text(s, size=MEDIUM, weight=ft.FontWeight.W_600,
                                                    semantics_label=_(SEAT_NAMES[s])))
                  for s in handbook.SEATS],
        selected=[state["seat"]], on_change=pick_seat, show_selected_icon=False,
        expand=True, key="seat", style=ft.ButtonStyle(padding=ft.Padding.symmetric(vertical=14)),
    )
    foul_slot.controls = [foul_picker()]
    show()
    return ctx.view(
        route=ctx.route, title=_("Chombo settlement"),
        controls=[
            ft.Row([_ruleset_picker(ctx, state["ruleset"], pick_ruleset)]),
            foul_slot,
            captioned(_("Offender seat"), ft.Row([seats])),
            ft.Text(_("East is the dealer."), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
            result,
        ],
    )


# ------------------------------------------------------------------ /tools/revealed

def build_revealed(ctx: AppContext) -> ft.View:
    """Revealed tiles: ruleset, count (steppers), source, during the deal → penalty, P, Strike."""
    _ = ctx._
    lib = ctx.library
    q = ctx.query
    state = {
        "ruleset": default_ruleset(lib, ctx.ruleset, q.get("ruleset")),
        "tiles": q.get("tiles", "3"),
        "source": q.get("source") if q.get("source") in handbook.SOURCES else "hand",
        "deal": q.get("deal", "") in ("1", "true", "yes"),
    }
    result = ft.Column(spacing=8, key="revealed-result")
    tiles_box = ft.TextField(
        label=_("Tiles revealed"), value=str(state["tiles"]), width=130, text_size=MEDIUM + 2,
        text_align=ft.TextAlign.CENTER, keyboard_type=ft.KeyboardType.NUMBER, key="tiles",
        input_filter=ft.InputFilter(regex_string=r"^[0-9]{0,3}$", allow=True, replacement_string=""),
    )

    def show() -> None:
        try:
            n = parse_tiles(state["tiles"])
            r = handbook.revealed_tiles(state["ruleset"], n, source=state["source"],
                                        during_deal=state["deal"], library=lib)
        except ValueError as exc:
            result.controls = [error_box(readable(exc, _))]
            return
        rs = lib.rulesets[r.ruleset or state["ruleset"]]
        row = next((p for p in rs.penalties if p.foul == r.foul), None) if r.foul else None
        headline = r.wording if r.choices and r.wording else _(PENALTY_NAMES[r.penalty])
        rows: list[ft.Control] = [_ruling(ctx, rs.id, r.ref, headline, r.points, r.strike),
                                  fact(_("Penalty"), headline, size=BIG, key="penalty")]
        if r.choices:
            rows.append(ft.Text(_("The referee's call"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
            rows += [ft.Semantics(
                label=f"{c.wording}" + (f" ({c.when})" if c.when else ""), container=True, key=f"choice-{i}",
                content=ft.Row([ft.Text("•", size=BODY_SIZE),
                                ft.Column([ft.Text(c.wording, size=MEDIUM, weight=ft.FontWeight.W_600),
                                           *([ft.Text(c.when, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT)]
                                             if c.when else [])], spacing=0, tight=True, expand=True)],
                               vertical_alignment=ft.CrossAxisAlignment.START, spacing=8))
                for i, c in enumerate(r.choices)]
        if row is not None and not r.choices:
            rows.append(ft.Text(_("The source: {foul} — {penalty}").format(foul=row.foul,
                                                                          penalty=row.penalty),
                                size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
        rows.append(ft.Row([
            ft.Container(fact(_("Points deducted"), f"{r.points}P", size=BIG, key="points"),
                         expand=True),
            ft.Container(fact(_("Strike"), yes_no(ctx, r.strike), size=BIG, key="strike",
                               color=ft.Colors.ERROR if r.strike else None), expand=True),
        ]))
        if r.notes:
            rows.append(ft.Text(_("Notes"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
            rows += _notes(r.notes)
        rows.append(source_button(ctx, source_link(lib, rs.id, r.ref, r.foul)))
        result.controls = [_card(rows)]

    def refresh() -> None:
        show()
        ctx.page.update()

    def pick_ruleset(value: str) -> None:
        state["ruleset"] = value
        refresh()

    def typed(e) -> None:
        state["tiles"] = e.control.value or ""
        refresh()

    def step(delta: int) -> None:
        try:
            n = parse_tiles(state["tiles"])
        except ValueError:
            n = 0
        n = min(handbook.core.rulings.MAX_TILES, max(1, n + delta))
        state["tiles"] = str(n)
        tiles_box.value = str(n)
        refresh()

    def deal(e) -> None:
        state["deal"] = bool(e.control.value)
        refresh()

    tiles_box.on_change = typed
    stepper_style = ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12))
    stepper = ft.Row(
        controls=[
            icon_button(ft.Icons.REMOVE, _("Fewer tiles"), lambda e: step(-1), filled=True, size=56,
                        icon_size=28, style=stepper_style, key="fewer"),
            tiles_box,
            icon_button(ft.Icons.ADD, _("More tiles"), lambda e: step(1), filled=True, size=56,
                        icon_size=28, style=stepper_style, key="more"),
        ],
        alignment=ft.MainAxisAlignment.CENTER, spacing=12,
        vertical_alignment=ft.CrossAxisAlignment.START,
    )
    def pick_source(value: str) -> None:
        state["source"] = value
        refresh()

    sources = choice_buttons([(src, _(SOURCE_NAMES[src])) for src in handbook.SOURCES], state["source"],
                             pick_source, key="source")
    show()
    return ctx.view(
        route=ctx.route, title=_("Revealed tiles"),
        controls=[
            ft.Row([_ruleset_picker(ctx, state["ruleset"], pick_ruleset)]),
            stepper,
            captioned(_("Source"), sources),
            switch_row(ft.Switch(label=_("During the deal"), value=state["deal"], on_change=deal, key="deal",
                                 label_text_style=ft.TextStyle(size=BODY_SIZE))),
            result,
        ],
    )


# ------------------------------------------------------------------ /tools/strikes

def build_strikes(ctx: AppContext) -> ft.View:  # noqa: C901
    """The AZRM strike window: Strike dates (typed, picked or from a ledger player) and the day
    → today's count, the window, the countdown, Suspension, Ban; the literal reading stated."""
    _ = ctx._
    q = ctx.query
    ledger = judged_ledger(ctx)
    today = datetime.date.today()
    player = q.get("player")
    dates_text = q.get("dates", "").replace(",", "\n")
    if player and ledger is not None:
        dates_text = "\n".join(d.isoformat() for d in ledger.strike_dates(player))
    state = {"on": q.get("on") or today.isoformat()}

    result = ft.Column(spacing=8, key="strikes-result")
    dates_box = ft.TextField(
        label=_("Strike dates"), value=dates_text, multiline=True, min_lines=3, max_lines=8,
        hint_text=_("One date per line, YYYY-MM-DD; repeat a date for several Strikes that day"),
        text_size=BODY_SIZE, key="strike-dates",
    )
    on_box = ft.TextField(label=_("On date"), value=state["on"], expand=True, text_size=BODY_SIZE,
                          hint_text="YYYY-MM-DD", key="on-date")

    def show() -> None:
        on_box.error_text = None
        dates_box.error_text = None
        try:
            dates = parse_strike_dates(dates_box.value or "")
        except ValueError as exc:
            dates_box.error_text = _("Check the dates")
            result.controls = [error_box(readable(exc, _))]
            return
        try:
            on = parse_on(on_box.value or "")
        except ValueError as exc:
            on_box.error_text = _("YYYY-MM-DD")
            result.controls = [error_box(readable(exc, _))]
            return
        try:
            s = handbook.strike_status(dates, on)
        except ValueError as exc:
            result.controls = [error_box(readable(exc, _))]
            return
        result.controls = [_card(strike_status_controls(ctx, s))]

    def refresh(e=None) -> None:
        show()
        ctx.page.update()

    dates_box.on_change = refresh
    on_box.on_change = refresh

    def picker(target: ft.TextField, append: bool) -> ft.DatePicker:
        def picked(e) -> None:
            value = e.control.value
            if value is None:
                return
            d = value.date() if isinstance(value, datetime.datetime) else value
            if append:
                existing = (target.value or "").rstrip()
                target.value = (existing + "\n" if existing else "") + d.isoformat()
            else:
                target.value = d.isoformat()
            refresh()

        return ft.DatePicker(first_date=datetime.datetime(2000, 1, 1),
                             last_date=datetime.datetime(2100, 12, 31),
                             current_date=datetime.datetime.now(),
                             help_text=_("Strike date") if append else _("On date"),
                             on_change=picked)

    def open_picker(target: ft.TextField, append: bool) -> None:
        ctx.page.show_dialog(picker(target, append))

    def use_player(e) -> None:
        key = e.control.value
        if ledger is None or not key:
            return
        dates_box.value = "\n".join(d.isoformat() for d in ledger.strike_dates(key))
        refresh()

    controls: list[ft.Control] = []
    if ledger is not None:
        players = ledger.players()
        if players:
            controls.append(ft.Row([named(ft.Dropdown(
                label=_("Ledger player"), value=player if any(p.key == player for p in players) else None,
                options=[ft.DropdownOption(key=p.key, text=_player_label(ctx, p)) for p in players],
                on_select=use_player, expand=True, key="ledger-player",
                helper_text=_("Fills in the player's AZRM Strikes from the ledger"),
            ))], margin=ft.Margin.only(bottom=8)))
    controls += [
        dates_box,
        ft.Row([ft.OutlinedButton(_("Add a strike date"), icon=ft.Icons.EVENT_OUTLINED, height=TOUCH,
                                  on_click=lambda e: open_picker(dates_box, True))]),
        ft.Row([on_box,
                icon_button(ft.Icons.CALENDAR_MONTH, _("Pick the on date"),
                            lambda e: open_picker(on_box, False)),
                ft.TextButton(_("Today"), height=TOUCH,
                              on_click=lambda e: (setattr(on_box, "value", today.isoformat()),
                                                  refresh()))],
               vertical_alignment=ft.CrossAxisAlignment.START),
        result,
    ]
    show()
    return ctx.view(route=ctx.route, title=_("Strikes"), controls=controls)


def _player_label(ctx: AppContext, p) -> str:
    name = p.name if not p.club else f"{p.name} ({p.club})"
    return ctx._("{name} — {n} Strike(s)").format(name=name, n=p.strikes)


__all__ = [
    "build_chombo", "build_final", "build_revealed", "build_strikes", "build_tools", "default_ruleset",
    "final_text", "flip_sign", "group_as_typed", "hand_effects", "parse_points", "parse_strike_dates",
    "parse_tiles", "signed", "source_link", "strike_status_controls", "sum_error_text",
]


# ------------------------------------------------------------------ /tools/final

FINAL_SEAT_NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
DEPOSIT_RULE_NAMES = {"winner": N_("to the winner"), "first": N_("to first place"), "lost": N_("lost")}
_SIGNS = "-\u2212\u2013"
_SIGN = "[+\\-\u2212\u2013]"


def parse_points(text: str, field: str) -> int:
    """Whole table points or P as typed: a sign (``-``, ``−``) and digits, grouped or not
    (``-3,000``, ``25 000``). ``ValueError`` naming ``field`` otherwise; an empty box is 0 only for
    penalties (the caller decides)."""
    t = (text or "").strip().replace("\u00a0", " ").replace("\u202f", " ")
    m = re.fullmatch(rf"({_SIGN}?)\s*(\d{{1,3}}(?:[,. '’]\d{{3}})+|\d+)", t)
    if not m:
        raise ValueError(f"{field}: {t!r} is not a whole number")
    n = int(re.sub(r"\D", "", m.group(2)))
    return -n if m.group(1) and m.group(1) != "+" else n


def group_as_typed(text: str) -> str:
    """The box's text with its digits grouped by thousands in the locale's way, the sign kept
    (``"-25000"`` → ``"−25,000"``); text that is not a number is left as it is."""
    t = (text or "").strip()
    m = re.fullmatch(rf"({_SIGN}?)\s*([\d,. '’\u00a0\u202f]*)", t)
    digits = re.sub(r"\D", "", m.group(2)) if m else ""
    if not m or not digits:
        return "\u2212" if m and m.group(1) in _SIGNS and m.group(1) else t
    sign = "\u2212" if m.group(1) in _SIGNS and m.group(1) else ""
    return sign + i18n.format_decimal(int(digits))


def flip_sign(text: str) -> str:
    t = (text or "").strip()
    return t[1:].lstrip() if t[:1] in _SIGNS else "\u2212" + t


def p_text(x: float, *, sign: bool = True) -> str:
    """P to 0.1 with a real minus sign: ``+47P``, ``−20.5P``, ``0.3P``."""
    r = round(x, 1)
    body = i18n.format_decimal(abs(r), format="#,##0.#")
    if r == 0:
        return "0P"
    return ("+" if r > 0 and sign else "\u2212" if r < 0 else "") + body + "P"


def rule_label(library: Library, where: tuple[str, str]) -> str:
    rid, ref = where
    return f"{library.rulesets[rid].short} {ref_label(ref)}"


def final_text(f: "handbook.FinalScore", library: Library, _: Callable[[str], str]) -> str:
    """The result as plain text for a score sheet: one line per seat (E, S, W, N), then the rules."""
    rs = library.rulesets[f.ruleset]
    lines = [_("End of hanchan — {ruleset} ({rule})").format(ruleset=rs.short, rule=rule_label(
        library, f.sources["procedure"]))]
    for r in f.rows:
        lines.append(_("{seat}: rank {rank}, {table} table points, uma {uma}, riichi sticks {deposits}, "
                       "penalty {penalty}, final {final}").format(
            seat=_(FINAL_SEAT_NAMES[r.seat]), rank=r.rank, table=signed(r.table) if r.table < 0
            else i18n.format_decimal(r.table), uma=p_text(r.uma), deposits=p_text(r.deposits),
            penalty=p_text(-r.penalty), final=p_text(r.final)))
    lines.append(_("Uma {uma} ({rule}); riichi sticks left {rule_deposits} ({where})").format(
        uma=" / ".join(p_text(u) for u in f.uma_scheme), rule=rule_label(library, f.sources["uma"]),
        rule_deposits=_(DEPOSIT_RULE_NAMES[f.deposits_to]),
        where=rule_label(library, f.sources["deposits"])))
    return "\n".join(lines)


def sum_error_text(exc: "handbook.ScoreSumError", _: Callable[[str], str]) -> str:
    """The "doesn't add up" message in the reader's language: by how much, and a likely reason
    when the difference is whole riichi sticks."""
    n = i18n.format_decimal(abs(exc.off))
    head = (_("{n} short") if exc.off < 0 else _("{n} over")).format(n=n)
    if exc.off < 0 and exc.sticks == 1:
        head += " — " + _("one riichi stick not counted?")
    elif exc.off < 0 and exc.sticks:
        head += " — " + i18n.ngettext("{n} riichi stick not counted?", "{n} riichi sticks not counted?",
                                      exc.sticks).format(n=exc.sticks)
    elif exc.off > 0 and exc.sticks:
        head += " — " + _("riichi sticks counted twice (in a score and as left on the table)?")
    if not head.endswith("?"):
        head += "."
    return " ".join([_("The scores do not add up: {detail}").format(detail=head),
                     _("The four scores plus the riichi sticks left must make {expected}; they make {total}.").format(
                         expected=i18n.format_decimal(exc.expected), total=i18n.format_decimal(exc.total))])


class _FinalState:
    """What the end-of-hanchan screen holds: ruleset, the typed boxes, the sticks."""

    def __init__(self, ctx: AppContext) -> None:
        q = ctx.query
        self.ruleset = default_ruleset(ctx.library, ctx.ruleset, q.get("ruleset"),
                                       allowed=list(handbook.core.rulings._rulings(ctx.library).final))
        self.scores = {s: group_as_typed(q.get(s.lower(), "")) for s in handbook.SEATS}
        self.penalties = {s: q.get("p" + s.lower(), "") for s in handbook.SEATS}
        self.sticks = int(q["sticks"]) if q.get("sticks", "").isdigit() else 0

    def missing(self) -> bool:
        return any(not re.search(r"\d", v or "") for v in self.scores.values())

    def compute(self, lib: Library) -> "handbook.FinalScore":
        """The result; ``ValueError`` (English, naming the box) for a box that is not a number."""
        scores = {s: parse_points(self.scores[s], f"scores: {s}") for s in handbook.SEATS}
        pens = {s: parse_points(v, f"penalties: {s}") for s, v in self.penalties.items() if v.strip()}
        return handbook.final_score(self.ruleset, scores, deposits=self.sticks, penalties=pens, library=lib)


def _final_row(ctx: AppContext, r: "handbook.FinalRow") -> ft.Control:
    _ = ctx._
    seat = _(FINAL_SEAT_NAMES[r.seat])

    def cell(label: str, value: str, key: str) -> ft.Control:
        return ft.Container(fact(label, value, size=MEDIUM, key=f"{key}-{r.seat}"), expand=True)

    head = ft.Semantics(
        label=_("{seat}: rank {rank}, final {final}").format(seat=seat, rank=r.rank, final=p_text(r.final)),
        container=True, key=f"final-{r.seat}",
        content=ft.Row([ft.Text(f"{r.rank}", size=BIG + 6, weight=ft.FontWeight.W_800,
                                color=ft.Colors.PRIMARY, width=34),
                        ft.Text(seat, size=MEDIUM, weight=ft.FontWeight.W_600, expand=True),
                        ft.Text(p_text(r.final), size=BIG + 6, weight=ft.FontWeight.W_800)],
                       vertical_alignment=ft.CrossAxisAlignment.CENTER))
    figures = ft.Row([
        cell(_("Table"), signed(r.table) if r.table < 0 else i18n.format_decimal(r.table), "table"),
        cell(_("Uma"), p_text(r.uma), "uma"), cell(_("Sticks"), p_text(r.deposits), "sticks"),
        cell(_("Penalty"), p_text(-r.penalty), "penalty"),
    ], spacing=4, wrap=False)
    return ft.Container(ft.Column([head, figures], spacing=4, tight=True), padding=ft.Padding.only(bottom=8),
                        border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))


def _final_result(ctx: AppContext, f: "handbook.FinalScore", on_copy) -> list[ft.Control]:
    _ = ctx._
    lib = ctx.library
    rows: list[ft.Control] = [_final_row(ctx, r) for r in f.rows]
    rows.append(ft.Text(_("Final P = (table − {start}) / 1,000 + sticks + uma − penalty").format(
        start=i18n.format_decimal(f.start)), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    facts = [(_("Uma {uma}").format(uma=" / ".join(p_text(u) for u in f.uma_scheme)), "uma"),
             (_("Riichi sticks left: {rule}").format(rule=_(DEPOSIT_RULE_NAMES[f.deposits_to])), "deposits"),
             (_("Starting points {start}").format(start=i18n.format_decimal(f.start)), "start"),
             (_("Penalties come off the final score"), "penalties")]
    for text, what in facts:
        if what not in f.sources:
            continue
        rid, ref = f.sources[what]
        rows.append(ft.Column([ft.Text(text, size=BODY_SIZE, weight=ft.FontWeight.W_600),
                               source_button(ctx, source_link(lib, rid, ref))], spacing=0, tight=True))
    if f.notes:
        rows.append(ft.Text(_("Notes"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        rows += _notes(f.notes)
    text = final_text(f, lib, _)
    rows.append(ft.Row([ft.FilledTonalButton(_("Copy result as text"), icon=ft.Icons.COPY, height=TOUCH,
                                             on_click=lambda e: on_copy(text), key="copy")]))
    rows.append(ft.Text(text, size=SMALL_SIZE, selectable=True, key="plain-text", font_family="monospace"))
    return [_card(rows)]


def _points_box(label: str, value: str, on_change, *, key: str, width: int | None = None) -> ft.TextField:
    return ft.TextField(
        label=label, value=value, keyboard_type=ft.KeyboardType.NUMBER, text_size=MEDIUM,
        text_align=ft.TextAlign.RIGHT, key=key, expand=width is None, width=width,
        input_filter=ft.InputFilter(regex_string=r"^[-\u2212+]?[0-9,. ]*$", allow=True, replacement_string=""),
        on_change=on_change)


def build_final(ctx: AppContext) -> ft.View:  # noqa: C901
    """End of the hanchan: ruleset, the four table scores (± sign, grouped as typed), riichi sticks
    left, penalties per seat (P) → rank, table points, uma, sticks, penalty and final P per seat,
    each rule with its section; a total that does not add up is answered with by how much."""
    _ = ctx._
    lib = ctx.library
    st = _FinalState(ctx)
    result = ft.Column(spacing=8, key="final-result")
    boxes: dict[str, ft.TextField] = {}

    def show() -> None:
        if st.missing():
            result.controls = [ft.Text(_("Enter the four table scores."), size=BODY_SIZE, italic=True,
                                       key="final-hint")]
            return
        try:
            f = st.compute(lib)
        except handbook.ScoreSumError as exc:
            result.controls = [error_box(sum_error_text(exc, _))]
            return
        except ValueError as exc:
            result.controls = [error_box(readable(exc, _))]
            return
        result.controls = _final_result(ctx, f, copy)

    def refresh() -> None:
        show()
        ctx.page.update()

    async def _copy(text: str) -> None:
        try:
            await ft.Clipboard().set(text)
            msg = _("Result copied")
        except Exception:  # noqa: BLE001 - no clipboard (permissions, tests): the text is on screen
            msg = _("Could not copy: select the text below")
        show_snack(ctx, msg, seconds=3)

    def copy(text: str) -> None:
        ctx.page.run_task(_copy, text)

    def score_changed(seat: str):
        def changed(e) -> None:
            st.scores[seat] = e.control.value or ""
            refresh()
        return changed

    def score_left(seat: str):
        """Group the thousands when the box loses focus (not per key: a value rewritten by the
        server while the judge types could drop a key)."""
        def left(e) -> None:
            grouped = group_as_typed(e.control.value or "")
            if grouped != (e.control.value or ""):
                e.control.value = st.scores[seat] = grouped
                ctx.page.update()
        return left

    def flip(seat: str) -> None:
        st.scores[seat] = boxes[seat].value = group_as_typed(flip_sign(boxes[seat].value or ""))
        refresh()

    def penalty_changed(seat: str):
        def changed(e) -> None:
            st.penalties[seat] = e.control.value or ""
            refresh()
        return changed

    def pick_ruleset(value: str) -> None:
        st.ruleset = value
        refresh()

    sticks_box = ft.Text(str(st.sticks), size=BIG, weight=ft.FontWeight.W_700, width=48,
                         text_align=ft.TextAlign.CENTER, key="sticks")

    sticks_name = ft.Semantics(label=_("Riichi sticks left: {n}").format(n=st.sticks), content=sticks_box)

    def step(delta: int) -> None:
        st.sticks = max(0, st.sticks + delta)
        sticks_box.value = str(st.sticks)
        sticks_name.label = _("Riichi sticks left: {n}").format(n=st.sticks)
        refresh()

    score_rows = []
    for seat in handbook.SEATS:
        name = _(FINAL_SEAT_NAMES[seat])
        boxes[seat] = _points_box(_("{seat} — table points").format(seat=name), st.scores[seat],
                                  score_changed(seat), key=f"score-{seat}")
        boxes[seat].on_blur = score_left(seat)
        pen = _points_box(_("{seat} — penalty P").format(seat=name), st.penalties[seat],
                          penalty_changed(seat), key=f"pen-{seat}", width=110)
        score_rows.append(ft.Row([
            icon_button(ft.Icons.EXPOSURE, _("Change the sign of {seat}").format(seat=name),
                        lambda e, s=seat: flip(s), key=f"sign-{seat}"),
            boxes[seat], pen], spacing=6, vertical_alignment=ft.CrossAxisAlignment.START))
    stick_style = ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12))
    sticks = ft.Row([
        ft.Text(_("Riichi sticks left"), size=BODY_SIZE, expand=True),
        icon_button(ft.Icons.REMOVE, _("Fewer riichi sticks"), lambda e: step(-1), filled=True,
                    style=stick_style, key="fewer-sticks"),
        sticks_name,
        icon_button(ft.Icons.ADD, _("More riichi sticks"), lambda e: step(1), filled=True,
                    style=stick_style, key="more-sticks"),
    ], vertical_alignment=ft.CrossAxisAlignment.CENTER)
    show()
    ids = list(handbook.core.rulings._rulings(lib).final)
    return ctx.view(route=ctx.route, title=_("End of hanchan"), controls=[
        ft.Row([_ruleset_picker(ctx, st.ruleset, pick_ruleset, ids)]),
        ft.Text(_("Table points at the end of the hanchan; penalties in P (1P = 1,000 table points), "
                  "typed from the penalties given."), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
        *score_rows, sticks, result,
    ])
