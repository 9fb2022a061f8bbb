"""The hand checker, ``/tools/hand``: a judge taps in a disputed hand and reads its value.

One-handed at 412 px: the hand so far and the value stay at the top (the screen's header); below
them the entry mode (hand, chi, pon, kan, concealed kan, dora, ura), the suit and the tile keys
(drawn as tiles: the number over 萬 筒 索, the honours as 東 南 西 北 白 發 中; a red five where the
ruleset has them), then how the hand was won and the conditions. Every key and button is at least
48 px. The winning tile is the last tile added to the hand. The value is counted by
:func:`handbook.hand_value` after every tap; the detailed result (payments per seat, yaku in the
reader's language, fu, the ruleset options that decided it with their sources, and for a win
without yaku the penalty rows of an empty call for a win) follows the inputs.

Deep links: ``/tools/hand?ruleset=rakkii-nomi-2026&hand=234067m22p345s678s&win=8s&riichi=1
&seat=W&discarder=S`` (``melds=pon 555z,chi 234m``, ``dora=1m``, ``ura=``, ``tsumo=1``,
``round=S``, ``honba=2``, ``deposits=1``, the other conditions as ``ippatsu=1`` …).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlencode

import flet as ft

import handbook
from handbook.core.hand import MELD_KINDS, SEATS, parse_meld, parse_tiles, tiles_text
from handbook.core.scoring_data import OPTIONS
from handbook.core.scoring_table import FUS
from handbook.core.yaku_names import fu_words
from handbook.i18n import N_
from handbook.ui.calculator_parts import option_source
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.errors import readable
from handbook.ui.routes import payments_route, penalty_route, yaku_route
from handbook.ui.tiles import SUIT_GLYPHS, SUIT_NAMES, tile_face, tile_name
from handbook.ui.widgets import (BIG, BODY_SIZE, MEDIUM, SMALL_SIZE, default_ruleset, error_box, icon_button,
                                 named, refresh)

MODES = ("hand", "chi", "pon", "kan", "ankan", "dora", "ura")
MODE_NAMES = {"hand": N_("Hand"), "chi": N_("Chi"), "pon": N_("Pon"), "kan": N_("Kan"),
              "ankan": N_("Concealed kan"), "dora": N_("Dora"), "ura": N_("Ura dora")}
SEAT_NAMES = {"E": N_("East (dealer)"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
WIND_NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
CONDITIONS = ("riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei")
CONDITION_NAMES = {"riichi": N_("Riichi"), "double_riichi": N_("Double riichi"), "ippatsu": N_("Ippatsu"),
                   "rinshan": N_("After a kan (rinshan)"), "chankan": N_("Robbing a kan (chankan)"),
                   "haitei": N_("Last tile drawn (haitei)"), "houtei": N_("Last discard (houtei)")}
LIMIT_NAMES = {"mangan": N_("Mangan"), "haneman": N_("Haneman"), "baiman": N_("Baiman"),
               "sanbaiman": N_("Sanbaiman"), "yakuman": N_("Yakuman"), "double yakuman": N_("Double yakuman"),
               "triple yakuman": N_("Triple yakuman")}
OPTION_NAMES = {"red_fives": N_("Red fives"), "open_tanyao": N_("Open tanyao"),
                "kiriage": N_("Rounding up to mangan (kiriage)"), "kazoe": N_("13 han or more (kazoe)"),
                "double_yakuman": N_("Double yakuman"), "nagashi_mangan": N_("Nagashi Mangan"),
                "kokushi_robs_concealed_kan": N_("Thirteen orphans robbing a concealed kan"),
                "open_pinfu_fu": N_("Open hand without fu: 30 fu"),
                "double_wind_pair_fu": N_("Fu for a double-wind pair"),
                "two_yaku_counters": N_("Two yaku from this many counters")}
VALUE_NAMES = {True: N_("Yes"), False: N_("No"), "yakuman": N_("Yakuman"), "sanbaiman": N_("Sanbaiman"),
               "none": N_("None: every yakuman counts once"),
               "combined": N_("Several yakuman add up; none counts double alone"),
               "daisuushii": N_("Big four winds only"),
               "all": N_("Yes")}
assert set(OPTION_NAMES) == set(OPTIONS)

@dataclass
class HandState:
    """What the judge has entered (no flet): tiles as MPSZ codes (``"5m"``, ``"0p"``), melds as
    ``"pon 555z"``, indicators, how the hand was won. The winning tile is the last of ``tiles``."""

    ruleset: str
    tiles: list[str] = field(default_factory=list)
    melds: list[str] = field(default_factory=list)
    dora: list[str] = field(default_factory=list)
    ura: list[str] = field(default_factory=list)
    tsumo: bool = False
    seat: str = "E"
    discarder: str = "S"
    round_wind: str = "E"
    conditions: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(CONDITIONS, False))
    honba: int = 0
    deposits: int = 0
    history: list[str] = field(default_factory=list)   # "tiles" / "melds" / "dora" / "ura", in order

    @classmethod
    def from_query(cls, q: Mapping[str, str], ruleset: str) -> "HandState":
        """The state a deep link gives; anything it cannot read is left out (never an error)."""
        s = cls(ruleset)
        # every value cut to what a hand can hold before it is parsed: a hostile link (a
        # 1,900-character tile string, 400 dora, 200 melds) costs no more than a real one
        q = {k: v[:QUERY_CHARS.get(k, 16)] for k, v in q.items() if isinstance(v, str)}
        s.tiles = _codes(q.get("hand", ""))[:MAX_HAND_TILES]
        win = _codes(q.get("win", ""))
        if win and win[0] in s.tiles:  # the winning tile goes last
            s.tiles.remove(win[0])
            s.tiles.append(win[0])
        for text in re.split(r"[,;]", q.get("melds", ""))[:MAX_MELDS]:
            try:
                s.melds.append(_meld_text(parse_meld(text.replace("+", " "))))
            except ValueError:
                continue
        s.dora, s.ura = _codes(q.get("dora", ""))[:MAX_INDICATORS], _codes(q.get("ura", ""))[:MAX_INDICATORS]
        s.tsumo = q.get("tsumo") == "1"
        for key, attr in (("seat", "seat"), ("discarder", "discarder"), ("round", "round_wind")):
            if q.get(key) in SEATS:
                setattr(s, attr, q[key])
        for c in CONDITIONS:
            s.conditions[c] = q.get(c) == "1"
        for key in ("honba", "deposits"):
            if q.get(key, "").isdigit():
                setattr(s, key, min(int(q[key]), 99))
        s.history = ["melds"] * len(s.melds) + ["dora"] * len(s.dora) + ["ura"] * len(s.ura) + ["tiles"] * len(s.tiles)
        return s

    def query(self) -> dict[str, str]:
        """The deep link's query for this state (empty values left out)."""
        q = {"ruleset": self.ruleset, "hand": tiles_text(parse_tiles("".join(self.tiles))), "win": self.tiles[-1] if self.tiles else "",
             "melds": ",".join(self.melds), "dora": tiles_text(parse_tiles("".join(self.dora))),
             "ura": tiles_text(parse_tiles("".join(self.ura))),
             "tsumo": "1" if self.tsumo else "", "seat": self.seat,
             "discarder": "" if self.tsumo else self.discarder, "round": self.round_wind,
             "honba": str(self.honba) if self.honba else "", "deposits": str(self.deposits) if self.deposits else ""}
        q.update({c: "1" for c, on in self.conditions.items() if on})
        return {k: v for k, v in q.items() if v}

    def route(self) -> str:
        return "/tools/hand?" + urlencode(self.query())

    @property
    def needed(self) -> int:
        return 14 - 3 * len(self.melds)

    def add(self, mode: str, code: str) -> str | None:
        """Add the tile ``code`` as ``mode`` says; returns an English sentence (gettext msgid)
        when the tap cannot be used."""
        if mode == "hand":
            if len(self.tiles) >= self.needed:
                return N_("The hand is complete: remove a tile first.")
            self.tiles.append(code)
            self.history.append("tiles")
        elif mode in ("dora", "ura"):
            getattr(self, mode).append(code)
            self.history.append(mode)
        else:
            text = meld_from_key(mode, code)
            if text is None:
                return N_("A chi is three tiles in a run: tap its lowest tile, 1 to 7.")
            if len(self.melds) >= 4:
                return N_("Four melds at most.")
            self.melds.append(text)
            self.history.append("melds")
        return None

    def undo(self) -> None:
        """Remove the last thing added (a tile, a meld or an indicator)."""
        while self.history:
            kind = self.history.pop()
            items = getattr(self, kind)
            if items:
                items.pop()
                return

    def clear(self) -> None:
        self.tiles, self.melds, self.dora, self.ura, self.history = [], [], [], [], []

    def kwargs(self) -> dict:
        """The keyword arguments of :func:`handbook.hand_value` for this state."""
        return dict(win=self.tiles[-1], melds=tuple(self.melds), tsumo=self.tsumo,
                    discarder=None if self.tsumo else self.discarder, seat=self.seat, round_wind=self.round_wind,
                    dora=tuple(self.dora), ura=tuple(self.ura), honba=self.honba, deposits=self.deposits,
                    **self.conditions)


#: the most a deep link's hand holds: 14 tiles, 4 melds, 5 dora and 5 ura-dora indicators (four kans)
MAX_HAND_TILES, MAX_MELDS, MAX_INDICATORS = 14, 4, 5
#: characters of each query value read before parsing (others: 16); room for spaced notation
QUERY_CHARS = {"hand": 64, "win": 8, "melds": 4 * 24, "dora": 32, "ura": 32, "ruleset": 64}


def _codes(text: str) -> list[str]:
    try:
        return [str(t) for t in parse_tiles(text.replace(" ", ""), "hand")]
    except ValueError:
        return []


def _meld_text(m) -> str:
    return f"{m.kind} {''.join(str(t)[0] for t in m.tiles)}{str(m.tiles[0])[1]}"


def meld_from_key(mode: str, code: str) -> str | None:
    """The meld a key makes in a meld mode: ``("pon", "5z")`` -> ``"pon 555z"``; a chi starts at
    the key (``"3m"`` -> ``"chi 345m"``; ``None`` where no run starts there); a red five key gives
    one red five among plain ones (``"pon 055p"``)."""
    digit, suit = code[0], code[1]
    n = 5 if digit == "0" else int(digit)
    if mode == "chi":
        if suit == "z" or n > 7:
            return None
        return f"chi {digit}{n + 1}{n + 2}{suit}"
    count = 3 if mode == "pon" else 4
    assert mode in MELD_KINDS
    return f"{mode} {digit}{str(n) * (count - 1)}{suit}"


def _growing_button(horizontal: int) -> ft.ButtonStyle:
    """A choice or condition button as tall as its label needs, at least TOUCH px (a one-line label
    at 14 px plus 14 px above and below); a fixed height cut a wrapped label to its first line at
    200 % text ("Robbing a", "Conc")."""
    return ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=horizontal, vertical=(TOUCH - 20) // 2),
                          shape=ft.RoundedRectangleBorder(radius=10))


_GROWING_BUTTON = _growing_button(4)   # a condition, in its half-width cell
_CHOICE_BUTTON = _growing_button(14)   # a choice, as wide as its label


def _suit_label(suit: str, _: Callable[[str], str]) -> str:
    """"萬 Characters"; in Japanese just "萬子" (the glyph is in the name)."""
    name, glyph = _(SUIT_NAMES[suit]), SUIT_GLYPHS.get(suit, "字")
    return name if glyph in name else f"{glyph} {name}"


def keys_for(suit: str, red: bool) -> list[str]:
    """The keys of one suit in keyboard order (a red five after the 9 where the ruleset has them)."""
    if suit == "z":
        return [f"{i}z" for i in range(1, 8)]
    return [f"{i}{suit}" for i in range(1, 10)] + ([f"0{suit}"] if red else [])


# ------------------------------------------------------------------ the screen

def build_hand(ctx: AppContext) -> ft.View:
    """The hand checker (see the module docstring)."""
    return _HandScreen(ctx).view()


class _HandScreen:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        ruleset = default_ruleset(ctx.library, ctx.ruleset, ctx.query.get("ruleset"))
        self.state = HandState.from_query(ctx.query, ruleset)
        self.mode = ctx.query.get("mode") if ctx.query.get("mode") in MODES else "hand"
        self.suit = "m"
        self.flash: str | None = None
        self._faces: list[ft.Container] = []
        self._win_mark = ft.Border.only(bottom=ft.BorderSide(3, ft.Colors.PRIMARY))
        self._generation = 0
        self.shown = ft.Column(spacing=6, tight=True, key="hand-shown")
        self.summary = ft.Column(spacing=2, tight=True, key="hand-summary")
        self.detail = ft.Column(spacing=8, key="hand-result")
        self.inputs = ft.Column(spacing=10)
        self.draw()

    def view(self) -> ft.View:
        _ = self.ctx._
        header = [ft.Container(ft.Column([self.shown, self.summary], spacing=4, tight=True),
                               padding=ft.Padding.only(bottom=4))]
        return self.ctx.view(route=self.ctx.route, title=_("Hand value"), header=header,
                             controls=[self.inputs, self.detail])

    @property
    def red(self) -> bool:
        profile = self.ctx.library.scoring.get(self.state.ruleset)
        return bool(profile and profile["red_fives"].value)

    # -- drawing -----------------------------------------------------------------------------
    def draw(self) -> None:
        self.draw_inputs()
        self.draw_result()
        if self.value is not None:
            self.detail.controls = [_result_card(self.ctx, self.value, self.state)]

    def draw_inputs(self) -> None:
        _ = self.ctx._
        s = self.state
        ids = [r for r in self.ctx.library.rulesets if r in self.ctx.library.scoring]
        picker = named(ft.Dropdown(
            label=_("Ruleset"), value=s.ruleset, expand=True, text_size=BODY_SIZE, key="ruleset",
            options=[ft.DropdownOption(key=r, text=self.ctx.library.rulesets[r].short) for r in ids],
            on_select=lambda e: self.set(ruleset=e.control.value)))
        keys = keys_for(self.suit, self.red)
        key_row = ft.ResponsiveRow([ft.Container(self.key(c), col={"xs": 12 / 5 if len(keys) > 7 else 3})
                                    for c in keys], spacing=6, run_spacing=6, key="tile-keys")
        self.inputs.controls = [
            ft.Row([picker]),
            self.choices("mode", [(m, _(MODE_NAMES[m])) for m in MODES], self.mode, self.pick_mode),
            self.choices("suit", [(k, _suit_label(k, _)) for k in SUIT_NAMES],
                         self.suit, self.pick_suit),
            key_row,
            ft.Row([self.button(_("Remove last"), self.undo, icon=ft.Icons.BACKSPACE_OUTLINED, key="undo"),
                    self.button(_("Clear"), self.clear, icon=ft.Icons.DELETE_OUTLINE, key="clear")], spacing=8),
            self.caption(_("Win")),
            self.choices("win", [("ron", _("Ron")), ("tsumo", _("Tsumo"))], "tsumo" if s.tsumo else "ron",
                         lambda v: self.set(tsumo=v == "tsumo")),
            self.caption(_("Winner's seat")),
            self.choices("seat", [(w, _(SEAT_NAMES[w])) for w in SEATS], s.seat, lambda v: self.set(seat=v)),
        ]
        if not s.tsumo:
            self.inputs.controls += [
                self.caption(_("Discarder")),
                self.choices("discarder", [(w, _(SEAT_NAMES[w])) for w in SEATS if w != s.seat],
                             s.discarder, lambda v: self.set(discarder=v))]
        self.inputs.controls += [
            self.caption(_("Round wind")),
            self.choices("round", [(w, _(WIND_NAMES[w])) for w in SEATS], s.round_wind,
                         lambda v: self.set(round_wind=v)),
            self.caption(_("Conditions")),
            ft.ResponsiveRow([ft.Container(self.toggle(c), col={"xs": 6}) for c in CONDITIONS],
                             spacing=8, run_spacing=8),
            self.stepper(_("Counters (honba)"), "honba"),
            self.stepper(_("Riichi deposits"), "deposits"),
        ]

    def key(self, code: str) -> ft.Control:
        name = tile_name(code, self.ctx._)
        return ft.Semantics(label=name, button=True, container=True, exclude_semantics=True,
                            on_tap=lambda e, c=code: self.tap(c), content=ft.Container(
                                content=tile_face(code, width=44, height=58), padding=ft.Padding.symmetric(vertical=3),
                                alignment=ft.Alignment.CENTER, on_click=lambda e, c=code: self.tap(c), ink=True,
                                border_radius=8, key=f"key-{code}"))

    def choices(self, key: str, options, selected: str, on_pick) -> ft.Control:
        """One button per option, each as wide as its label, wrapping onto as many lines as the
        width and the text size need (a fixed grid broke "Concealed" and "Characters" mid-word at
        200 % text on a phone)."""
        cells = []
        for value, label in options:
            chosen = value == selected
            cls = ft.FilledButton if chosen else ft.OutlinedButton
            cells.append(ft.Semantics(selected=chosen, label=label, button=True, exclude_semantics=True,
                                      on_tap=lambda e, v=value: on_pick(v), content=cls(
                content=ft.Text(label, size=SMALL_SIZE, text_align=ft.TextAlign.CENTER),
                key=f"{key}-{value}", on_click=lambda e, v=value: on_pick(v), style=_CHOICE_BUTTON)))
        return ft.Row(cells, spacing=6, run_spacing=6, wrap=True, key=key)

    def toggle(self, condition: str) -> ft.Control:
        on = self.state.conditions[condition]
        cls = ft.FilledTonalButton if on else ft.OutlinedButton
        name = self.ctx._(CONDITION_NAMES[condition])
        return ft.Semantics(label=name, toggled=on, exclude_semantics=True, on_tap=lambda e: self.flip(condition),
                            content=cls(content=ft.Text(name, size=SMALL_SIZE, text_align=ft.TextAlign.CENTER),
                                        icon=ft.Icons.CHECK if on else None, key=f"cond-{condition}",
                                        style=_GROWING_BUTTON, on_click=lambda e: self.flip(condition)))

    def stepper(self, label: str, attr: str) -> ft.Control:
        _ = self.ctx._
        value = getattr(self.state, attr)
        return ft.Semantics(label=f"{label}: {value}", content=ft.Row([
            ft.Text(label, size=BODY_SIZE, expand=True),
            icon_button(ft.Icons.REMOVE, _("Fewer: {what}").format(what=label), lambda e: self.step(attr, -1),
                        key=f"{attr}-minus"),
            ft.Text(str(value), size=MEDIUM, weight=ft.FontWeight.W_700, width=36, text_align=ft.TextAlign.CENTER),
            icon_button(ft.Icons.ADD, _("More: {what}").format(what=label), lambda e: self.step(attr, 1),
                        key=f"{attr}-plus"),
        ]))

    def button(self, text: str, on_click, *, icon=None, key: str | None = None) -> ft.Control:
        return ft.Container(ft.OutlinedButton(content=text, icon=icon, height=TOUCH, on_click=lambda e: on_click(),
                                              key=key), expand=True)

    @staticmethod
    def caption(text: str) -> ft.Control:
        return ft.Text(text, size=SMALL_SIZE, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT)

    def draw_shown(self) -> None:
        """The hand so far: tiles, melds, indicators, drawn small (not buttons)."""
        _ = self.ctx._
        s = self.state
        rows: list[ft.Control] = []
        # the faces drawn before are kept (only a new tile is sent to the client)
        keep = 0
        while keep < min(len(self._faces), len(s.tiles)) and self._faces[keep].data == s.tiles[keep]:
            keep += 1
        del self._faces[keep:]
        self._faces += [ft.Container(tile_face(c, width=24, height=32), data=c, padding=ft.Padding.only(bottom=2))
                        for c in s.tiles[len(self._faces):]]
        for i, f in enumerate(self._faces):
            last = i == len(self._faces) - 1
            f.border = self._win_mark if last else None
        small: list[ft.Control] = list(self._faces)
        label = _("Hand: {n} of {need} tiles; the last is the winning tile").format(n=len(s.tiles), need=s.needed)
        rows.append(ft.Semantics(label=label, container=True, exclude_semantics=True, content=ft.Row(
            small or [ft.Text(_("Tap tiles to build the hand."), size=SMALL_SIZE,
                              color=ft.Colors.ON_SURFACE_VARIANT)], spacing=1, wrap=True, run_spacing=2)))
        extra: list[ft.Control] = []
        for m in s.melds:
            kind, tiles = m.split(" ")
            faces = [tile_face(str(t), width=20, height=28) for t in parse_tiles(tiles, "melds")]
            extra.append(ft.Row([ft.Text(_(MODE_NAMES[kind]), size=12), *faces], spacing=1, tight=True))
        for attr in ("dora", "ura"):
            if getattr(s, attr):
                faces = [tile_face(c, width=20, height=28) for c in getattr(s, attr)]
                extra.append(ft.Row([ft.Text(_(MODE_NAMES[attr]), size=12), *faces], spacing=1, tight=True))
        if extra:
            rows.append(ft.Row(extra, spacing=10, wrap=True, run_spacing=4))
        self.shown.controls = rows

    def draw_result(self) -> None:
        """The hand shown and the value line; the detailed card follows in :meth:`fill_detail`."""
        _ = self.ctx._
        self.draw_shown()
        s = self.state
        self.detail.controls = []
        self.value: handbook.HandValue | None = None
        if self.flash:
            self.summary.controls = [error_box(_(self.flash))]
            return
        if len(s.tiles) < s.needed:
            self.summary.controls = [ft.Text(
                _("{need} tiles needed with these melds, {given} given.").format(need=s.needed, given=len(s.tiles)),
                size=BODY_SIZE, color=ft.Colors.ON_SURFACE_VARIANT, key="hand-status")]
            return
        try:
            v = handbook.hand_value(s.ruleset, "".join(s.tiles), library=self.ctx.library, **s.kwargs())
        except ValueError as exc:
            self.summary.controls = [error_box(readable(exc, _))]
            return
        self.summary.controls = [self.headline(v)]
        self.value = v

    def headline(self, v: handbook.HandValue) -> ft.Control:
        _ = self.ctx._
        if v.no_yaku:
            return ft.Semantics(label=_("No yaku: nothing is paid"), container=True, key="value",
                                exclude_semantics=True, content=ft.Text(
                _("No yaku: nothing is paid"), size=MEDIUM, weight=ft.FontWeight.W_700, color=ft.Colors.ERROR))
        word = _("Value")
        points = points_text(v.points, _)
        return ft.Semantics(label=f"{word}: {points} ({value_line(v, _)})", container=True, key="value",
                            exclude_semantics=True,
                            content=ft.Row([ft.Text(points, size=BIG, weight=ft.FontWeight.W_800),
                                            ft.Text(value_line(v, _), size=BODY_SIZE, expand=True,
                                                    color=ft.Colors.ON_SURFACE_VARIANT)],
                                           vertical_alignment=ft.CrossAxisAlignment.CENTER))

    # -- events ------------------------------------------------------------------------------
    def changed(self, *, inputs: bool = True) -> None:
        """Count the hand again and send what changed: after a tile tap only the hand shown and the
        result (the keyboard stays as it is), otherwise the inputs too."""
        self.ctx.remember(**{k: None for k in ("hand", "win", "melds", "dora", "ura", "tsumo", "discarder",
                                               "honba", "deposits", *CONDITIONS)})
        self.ctx.remember(**self.state.query(), mode=self.mode)
        if inputs:
            self.draw_inputs()
        self.draw_result()
        changed = [*([self.inputs] if inputs else []), self.shown, self.summary, self.detail]
        try:
            page = self.detail.page
        except RuntimeError:  # not on a page (view tests)
            page = None
        if page is not None:
            page.update(*changed)  # one message to the client
        if self.value is not None:  # the value line is on screen first; then the details below
            self._generation += 1
            self.ctx.page.run_task(self.fill_detail, self._generation)

    async def fill_detail(self, generation: int = 0) -> None:
        await asyncio.sleep(0.05)
        if generation != self._generation or self.value is None:
            return  # another tap came first
        self.detail.controls = [_result_card(self.ctx, self.value, self.state)]
        refresh(self.detail)

    def tap(self, code: str) -> None:
        self.flash = self.state.add(self.mode, code)
        self.changed(inputs=False)

    def undo(self) -> None:
        self.flash = None
        self.state.undo()
        self.changed(inputs=False)

    def clear(self) -> None:
        self.flash = None
        self.state.clear()
        self.changed(inputs=False)

    def pick_mode(self, mode: str) -> None:
        self.mode, self.flash = mode, None
        self.changed()

    def pick_suit(self, suit: str) -> None:
        self.suit = suit
        self.changed()

    def set(self, **values) -> None:
        self.flash = None
        for k, v in values.items():
            setattr(self.state, k, v)
        s = self.state
        if s.discarder == s.seat:
            s.discarder = next(w for w in SEATS if w != s.seat)
        if not self.red:
            s.tiles = [("5" + c[1]) if c[0] == "0" else c for c in s.tiles]
        self.changed()

    def flip(self, condition: str) -> None:
        self.flash = None
        self.state.conditions[condition] = not self.state.conditions[condition]
        self.changed()

    def step(self, attr: str, delta: int) -> None:
        setattr(self.state, attr, max(0, min(99, getattr(self.state, attr) + delta)))
        self.changed()


def points_text(points: str, _: Callable[[str], str]) -> str:
    """The value as the table says it: "8,000", "2,000/4,000", "4,000 all" ("4,000オール")."""
    if points.endswith(" all"):
        return _("{points} all").format(points=points[:-4])
    return points


def value_line(v: handbook.HandValue, _: Callable[[str], str]) -> str:
    """"3 han 30 fu", "Mangan · 5 han", "Yakuman"."""
    limit = _(LIMIT_NAMES[v.limit]) if v.limit in LIMIT_NAMES else None
    if v.limit and "yakuman" in v.limit and v.fu == 0 and v.han % 13 == 0:
        return limit or v.limit
    count = _("{han} han {fu} fu").format(han=v.han, fu=v.fu) if v.fu else _("{han} han").format(han=v.han)
    return f"{limit} · {count}" if limit else count


def _result_card(ctx: AppContext, v: handbook.HandValue, s: HandState) -> ft.Control:
    _ = ctx._
    ja = ctx.locale.startswith("ja")
    rows: list[ft.Control] = []
    if v.no_yaku:
        rs = ctx.library.rulesets[s.ruleset]
        rows.append(ft.Text(_("A win declared without a valid hand is an empty call for a win:"), size=BODY_SIZE,
                            weight=ft.FontWeight.W_600))
        for r in v.foul_rows:
            rows.append(ft.Semantics(label=f"{r.foul}: {r.penalty}", button=True, container=True, content=ft.ListTile(
                title=ft.Text(r.foul, size=BODY_SIZE), subtitle=ft.Text(r.penalty, size=MEDIUM, weight=ft.FontWeight.W_700),
                trailing=ft.Icon(ft.Icons.CHEVRON_RIGHT), min_height=TOUCH, key=f"foul-row-{v.foul_rows.index(r)}",
                on_click=lambda e, f=r.id: ctx.navigate(penalty_route(rs.id, f)))))
        if not v.foul_rows:
            rows.append(ft.Text(_("This ruleset's penalty table has no row for it."), size=BODY_SIZE))
    else:
        rows.append(ft.Text(_("Payments (table points)"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        for seat in SEATS:
            amount = v.payments[seat]
            who = _(SEAT_NAMES[seat]) + (" — " + _("winner") if seat == s.seat else "")
            text = f"{amount:+,}".replace("-", "\u2212") if amount else "0"
            rows.append(ft.Semantics(label=f"{who}: {text}", container=True, content=ft.Row([
                ft.Text(who, size=BODY_SIZE, expand=True),
                ft.Text(text, size=MEDIUM + 2, weight=ft.FontWeight.W_700)])))
    if v.yaku:
        rows.append(ft.Text(_("Yaku"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        for y in v.yaku:
            line = ft.Row([ft.Text(y.name_ja if ja else y.name, size=BODY_SIZE, expand=True),
                           ft.Text(_("{han} han").format(han=y.han), size=BODY_SIZE, weight=ft.FontWeight.W_600),
                           ft.Icon(ft.Icons.CHEVRON_RIGHT, size=20)])
            link = ft.Container(content=line, ink=True, padding=ft.Padding.symmetric(vertical=14),
                                key=f"yaku-link-{y.id}",
                                on_click=lambda e, i=y.id: ctx.navigate(yaku_route(i, s.ruleset)))
            rows.append(ft.Semantics(label=f"{y.name_ja if ja else y.name}: {y.han}", container=True, button=True,
                                     content=ft.Column([link, *option_source(ctx, y.option)], spacing=0, tight=True)))
        if not v.no_yaku:
            cell = payments_route(s.ruleset, min(v.han, 13), v.fu if v.fu in FUS else None)
            rows.append(ft.TextButton(content=_("Payment table: this cell"), icon=ft.Icons.TABLE_CHART_OUTLINED,
                                      height=TOUCH, key="to-payment-cell", on_click=lambda e: ctx.navigate(cell)))
    if v.fu_details:
        rows.append(ft.Text(_("Fu"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        for (f, words), reason in zip(v.fu_details, v.fu_reasons or [""] * len(v.fu_details), strict=False):
            shown = fu_words(f, reason, japanese=True) if ja and reason else words
            rows.append(ft.Row([ft.Text(shown, size=BODY_SIZE, expand=True),
                                ft.Text(f"{f}", size=BODY_SIZE, weight=ft.FontWeight.W_600)]))
    if v.options:
        rows.append(ft.Text(_("Ruleset options that decided it"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        for o in v.options:
            rows.append(ft.Column([ft.Text(_(OPTION_NAMES[o.id]) + ": " + _option_value(o, _), size=BODY_SIZE,
                                           weight=ft.FontWeight.W_600), *option_source(ctx, o)], spacing=0, tight=True))
    if v.notes:
        rows.append(ft.Text(_("Notes"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        rows += [ft.Text("• " + ctx.hb(n), size=SMALL_SIZE) for n in v.notes]
    rows.append(_all_options(ctx, s.ruleset))
    return ft.Container(content=ft.Column(rows, spacing=8, tight=True), padding=16, border_radius=16,
                        bgcolor=ft.Colors.SURFACE_CONTAINER_HIGHEST, key="result")


def _option_value(o, _: Callable[[str], str]) -> str:
    if o.id == "double_wind_pair_fu":
        return _("{n} fu").format(n=o.value)
    if o.id == "two_yaku_counters":
        return str(o.value) if o.value else _("Never")
    return _(VALUE_NAMES.get(o.value, str(o.value)))


def _all_options(ctx: AppContext, ruleset: str) -> ft.Control:
    _ = ctx._
    profile = ctx.library.scoring.get(ruleset)
    if profile is None:
        return ft.Container()
    items = [ft.Column([ft.Text(_(OPTION_NAMES[k]) + ": " + _option_value(o, _), size=BODY_SIZE,
                                weight=ft.FontWeight.W_600), *option_source(ctx, o)], spacing=0, tight=True)
             for k, o in profile.options.items()]
    return ft.ExpansionTile(title=ft.Text(_("Scoring options of {ruleset}").format(ruleset=ctx.short(ruleset)),
                                          size=BODY_SIZE), controls=items, key="all-options",
                            controls_padding=ft.Padding.only(left=8, bottom=8))


__all__ = ["HandState", "build_hand", "keys_for", "meld_from_key", "tile_name", "value_line"]
