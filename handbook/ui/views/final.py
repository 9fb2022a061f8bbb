"""``/tools/final``: the end of a hanchan -- four table scores, riichi sticks left and penalties give
each seat's rank, uma, sticks, penalty and final P, each rule with its section (:func:`handbook.final_score`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

import flet as ft

import handbook
from handbook import i18n
from handbook.core.model import Library
from handbook.i18n import N_
from handbook.ui.context import AppContext
from handbook.ui.text import ref_label
from handbook.ui.errors import readable
from handbook.ui.widgets import (
    BIG,
    BODY_SIZE,
    MEDIUM,
    SMALL_SIZE,
    default_ruleset,
    error_box,
    fact,
    fact_wrap,
    field_above,
    icon_button,
    show_snack,
    source_button,
    source_link,
    tall_style,
)

from handbook.ui.calculator_parts import SOURCE_EDITION, card, edition_picker, notes_list, ruleset_picker, signed
from handbook.ui.final_records import Placed, RecordsPart, penalty_line_texts


# ------------------------------------------------------------------ /tools/final

FINAL_SEAT_NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}
DEPOSIT_RULE_NAMES = {"winner": N_("to the winner"), "first": N_("to first place"), "lost": N_("lost")}
_SIGNS = "-\u2212\u2013"
_SIGN = "[+\\-\u2212\u2013]"
#: the largest table score (or penalty) a box takes, in table points: far beyond any hanchan's,
#: and small enough that every sum and every formatted figure stays exact
MAX_TABLE_POINTS = 99_999_999
#: the longest text a points box is read from (digits, group separators, sign, spaces)
MAX_POINTS_CHARS = 24
#: the most riichi sticks the end-of-hanchan screen takes from its address
MAX_STICKS = 999


def parse_points(text: str, field: str) -> int:
    """Whole table points or P as typed: a sign (``-``, ``−``) and digits, grouped or not
    (``-3,000``, ``25 000``). ``ValueError`` naming ``field`` otherwise; an empty box is 0 only for
    penalties (the caller decides)."""
    t = (text or "").strip().replace("\u00a0", " ").replace("\u202f", " ")
    m = re.fullmatch(rf"({_SIGN}?)\s*(\d{{1,3}}(?:[,. '’]\d{{3}})+|\d+)", t[:MAX_POINTS_CHARS + 1])
    if not m or len(t) > MAX_POINTS_CHARS:
        raise ValueError(f"{field}: {t[:40]!r} is not a whole number")
    n = int(re.sub(r"\D", "", m.group(2)))
    if n > MAX_TABLE_POINTS:
        raise ValueError(f"{field}: {t!r} is not a whole number from -{MAX_TABLE_POINTS:,} to "
                         f"{MAX_TABLE_POINTS:,}")
    return -n if m.group(1) and m.group(1) != "+" else n


def group_as_typed(text: str, locale: str | None = None) -> str:
    """The box's text with its digits grouped by thousands in the locale's way, the sign kept
    (``"-25000"`` → ``"−25,000"``); text that is not a number is left as it is."""
    t = (text or "").strip()
    m = re.fullmatch(rf"({_SIGN}?)\s*([\d,. '’\u00a0\u202f]*)", t)
    digits = re.sub(r"\D", "", m.group(2)) if m else ""
    if len(digits) > len(str(MAX_TABLE_POINTS)):  # not a score: left as typed, refused by parse_points
        return t
    if not m or not digits:
        return "\u2212" if m and m.group(1) in _SIGNS and m.group(1) else t
    sign = "\u2212" if m.group(1) in _SIGNS and m.group(1) else ""
    return sign + i18n.format_decimal(int(digits), locale=locale)


def flip_sign(text: str) -> str:
    t = (text or "").strip()
    return t[1:].lstrip() if t[:1] in _SIGNS else "\u2212" + t


def p_text(x: float, *, sign: bool = True, locale: str | None = None) -> str:
    """P to 0.1 with a real minus sign and ``locale``'s separators: ``+47P``, ``−20.5P``, ``0.3P``."""
    r = round(x, 1)
    body = i18n.format_decimal(abs(r), format="#,##0.#", locale=locale)
    if r == 0:
        return "0P"
    return ("+" if r > 0 and sign else "\u2212" if r < 0 else "") + body + "P"


def rule_label(library: Library, where: tuple[str, str]) -> str:
    rid, ref = where
    return f"{library.rulesets[rid].short} {ref_label(ref)}"


def final_text(f: "handbook.FinalScore", library: Library, _: Callable[[str], str],
               penalty_lines: Sequence[str] = ()) -> str:
    """The result as plain text for a score sheet: one line per seat (E, S, W, N), then the rules,
    then the sum check and each penalty line (``penalty_lines``, see :func:`sum_check_lines`).
    ``_``: the session's translator (``ctx._``; its locale formats the numbers)."""
    rs = library.rulesets[f.ruleset]
    loc = getattr(_, "locale", None)

    def pt(x: float) -> str:
        return p_text(x, locale=loc)

    lines = [_("End of hanchan — {ruleset} ({rule})").format(ruleset=rs.short, rule=rule_label(
        library, f.sources["procedure"]))]
    for r in f.rows:
        lines.append(_("{seat}: rank {rank}, {table} table points, uma {uma}, riichi sticks {deposits}, "
                       "penalty {penalty}, final {final}").format(
            seat=_(FINAL_SEAT_NAMES[r.seat]), rank=r.rank, table=signed(r.table, loc) if r.table < 0
            else i18n.format_decimal(r.table, locale=loc), uma=pt(r.uma), deposits=pt(r.deposits),
            penalty=pt(-r.penalty), final=pt(r.final)))
    lines.append(_("Uma {uma} ({rule}); riichi sticks left {rule_deposits} ({where})").format(
        uma=" / ".join(pt(u) for u in f.uma_scheme), rule=rule_label(library, f.sources["uma"]),
        rule_deposits=_(DEPOSIT_RULE_NAMES[f.deposits_to]),
        where=rule_label(library, f.sources["deposits"])))
    lines += sum_check_lines(f, penalty_lines, _)
    return "\n".join(lines)


def sum_check_lines(f: "handbook.FinalScore", penalty_lines: Sequence[str], _: Callable[[str], str]) -> list[str]:
    """The sum check of the finals: what they add up to, and why not zero -- the penalties (each
    line named: ``penalty_lines``, from :func:`handbook.ui.final_records.penalty_line_texts`) and
    the riichi sticks lost; nothing when the finals add up to zero."""
    loc = getattr(_, "locale", None)
    total = sum(r.final for r in f.rows)
    pens = sum(r.penalty for r in f.rows)
    if round(total, 1) == 0 and not pens:
        return []
    out = [_("Sum check: the finals add up to {total}.").format(total=p_text(total, locale=loc))]
    if pens:
        out.append(_("Penalties {total} come off the finals and go to no one:").format(
            total=p_text(pens, sign=False, locale=loc)))
        out += [f"• {line}" for line in penalty_lines]
    if f.deposits_lost:
        out.append(_("Riichi sticks lost: {points}.").format(points=p_text(f.deposits_lost, sign=False, locale=loc)))
    return out


def sum_error_text(exc: "handbook.ScoreSumError", _: Callable[[str], str]) -> str:
    """The "doesn't add up" message in the reader's language (``_``: the session's translator,
    ``ctx._``): by how much, and a likely reason when the difference is whole riichi sticks."""
    tr = _ if isinstance(_, i18n.Translator) else i18n.ENGLISH
    n = tr.format_decimal(abs(exc.off))
    head = (_("{n} short") if exc.off < 0 else _("{n} over")).format(n=n)
    if exc.off < 0 and exc.sticks == 1:
        head += " — " + _("one riichi stick not counted?")
    elif exc.off < 0 and exc.sticks:
        head += " — " + tr.ngettext("{n} riichi stick not counted?", "{n} riichi sticks not counted?",
                                  exc.sticks).format(n=exc.sticks)
    elif exc.off > 0 and exc.sticks:
        head += " — " + _("riichi sticks counted twice (in a score and as left on the table)?")
    if not head.endswith(("?", "？")):
        # TRANSLATORS: a sentence's full stop ("。" in Japanese)
        head = _("{sentence}.").format(sentence=head)
    return " ".join([_("The scores do not add up: {detail}").format(detail=head),
                     _("The four scores plus the riichi sticks left must make {expected}; they make {total}.").format(
                         expected=tr.format_decimal(exc.expected), total=tr.format_decimal(exc.total))])


class _FinalState:
    """What the end-of-hanchan screen holds: ruleset, the typed boxes, the sticks."""

    def __init__(self, ctx: AppContext) -> None:
        q = ctx.query
        self.ruleset = default_ruleset(ctx.library, ctx.ruleset, q.get("ruleset"),
                                       allowed=list(ctx.library.rulings.final))
        self.scores = {s: group_as_typed(q.get(s.lower(), ""), ctx.locale) for s in handbook.SEATS}
        self.penalties = {s: q.get("p" + s.lower(), "") for s in handbook.SEATS}
        sticks = q.get("sticks", "")
        self.sticks = int(sticks) if sticks.isascii() and sticks.isdigit() and len(sticks) <= 3 else 0
        self.edition: str | None = q.get("edition") or None

    def missing(self) -> bool:
        return any(not re.search(r"\d", v or "") for v in self.scores.values())

    def compute(self, lib: Library, *, check_sum: bool = True) -> "handbook.FinalScore":
        """The result; ``ValueError`` (English, naming the box) for a box that is not a number;
        :class:`handbook.ScoreSumError` when the total is off, unless ``check_sum`` is false."""
        scores = {s: parse_points(self.scores[s], f"scores: {s}") for s in handbook.SEATS}
        pens = {s: parse_points(v, f"penalties: {s}") for s, v in self.penalties.items() if v.strip()}
        if self.edition not in handbook.final_editions(self.ruleset, library=lib):
            self.edition = None
        return handbook.final_score(self.ruleset, scores, deposits=self.sticks, penalties=pens, library=lib,
                                    edition=self.edition, check_sum=check_sum)


def _final_row(ctx: AppContext, r: "handbook.FinalRow") -> ft.Control:
    _ = ctx._
    seat = _(FINAL_SEAT_NAMES[r.seat])

    def cell(label: str, value: str, key: str) -> ft.Control:
        return fact(label, value, size=MEDIUM, key=f"{key}-{r.seat}")

    head = ft.Semantics(
        label=_("{seat}: rank {rank}, final {final}").format(seat=seat, rank=r.rank, final=p_text(r.final, locale=ctx.locale)),
        container=True, key=f"final-{r.seat}",
        content=ft.Row([ft.Text(f"{r.rank}", size=BIG, weight=ft.FontWeight.W_800, color=ft.Colors.PRIMARY),
                        ft.Text(seat, size=MEDIUM, weight=ft.FontWeight.W_600, expand=True),
                        ft.Text(p_text(r.final, locale=ctx.locale), size=BIG + 2, weight=ft.FontWeight.W_800)],
                       spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    figures = fact_wrap([
        cell(_("Table"), signed(r.table, ctx.locale) if r.table < 0 else _.format_decimal(r.table), "table"),
        cell(_("Uma"), p_text(r.uma, locale=ctx.locale), "uma"),
        cell(_("Sticks"), p_text(r.deposits, locale=ctx.locale), "sticks"),
        cell(_("Penalty"), p_text(-r.penalty, locale=ctx.locale), "penalty"),
    ])
    return ft.Container(ft.Column([head, figures], spacing=4, tight=True), padding=ft.Padding.only(bottom=8),
                        border=ft.Border.only(bottom=ft.BorderSide(1, ft.Colors.OUTLINE_VARIANT)))


def _final_result(ctx: AppContext, f: "handbook.FinalScore", on_copy,
                  placed: Placed | None = None) -> list[ft.Control]:
    _ = ctx._
    lib = ctx.library
    rows: list[ft.Control] = [_final_row(ctx, r) for r in f.rows]
    lines = penalty_line_texts({r.seat: r.penalty for r in f.rows}, placed, lib, _)
    check = sum_check_lines(f, lines, _)
    if check:
        rows.append(ft.Column([ft.Text(check[0], size=BODY_SIZE, weight=ft.FontWeight.W_600, key="sum-check"),
                               *[ft.Text(t, size=BODY_SIZE, key=f"penalty-line-{i}")
                                 for i, t in enumerate(check[1:])]], spacing=4, tight=True, key="penalty-lines"))
    rows.append(ft.Text(_("Final P = (table − {start}) / 1,000 + sticks + uma − penalty").format(
        start=_.format_decimal(f.start)), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    facts = [(_("Uma {uma}").format(uma=" / ".join(p_text(u, locale=ctx.locale) for u in f.uma_scheme)), "uma"),
             (_("Riichi sticks left: {rule}").format(rule=_(DEPOSIT_RULE_NAMES[f.deposits_to])), "deposits"),
             (_("Starting points {start}").format(start=_.format_decimal(f.start)), "start"),
             (_("Penalties come off the final score"), "penalties")]
    for text, what in facts:
        if what not in f.sources:
            continue
        rid, ref = f.sources[what]
        rows.append(ft.Column([ft.Text(text, size=BODY_SIZE, weight=ft.FontWeight.W_600),
                               source_button(ctx, source_link(lib, rid, ref))], spacing=0, tight=True))
    if f.notes:
        rows.append(ft.Text(_("Notes"), size=SMALL_SIZE, weight=ft.FontWeight.W_600))
        rows += notes_list([ctx.hb(n) for n in f.notes])
    text = final_text(f, lib, _, lines)
    rows.append(ft.Row([ft.FilledTonalButton(_("Copy result as text"), icon=ft.Icons.COPY, style=tall_style(),
                                             on_click=lambda e: on_copy(text), key="copy")], wrap=True))
    # selectable (the fallback when the clipboard is refused), read as text, not as a text box
    rows.append(ft.Semantics(label=text, container=True, exclude_semantics=True, content=ft.Text(
        text, size=SMALL_SIZE, selectable=True, key="plain-text", font_family="monospace")))
    return [card(rows)]


def _points_box(label: str, value: str, on_change, *, key: str, width: int | None = None) -> ft.TextField:
    return ft.TextField(
        label=label, value=value, keyboard_type=ft.KeyboardType.NUMBER, text_size=MEDIUM,
        text_align=ft.TextAlign.RIGHT, key=key, expand=width is None, width=width,
        input_filter=ft.InputFilter(regex_string=r"^[-\u2212+]?[0-9,. ]*$", allow=True, replacement_string=""),
        on_change=on_change)


def build_final(ctx: AppContext) -> ft.View:
    """End of the hanchan: ruleset, the four table scores (± sign, grouped as typed), riichi sticks
    left, penalties per seat (P) → rank, table points, uma, sticks, penalty and final P per seat,
    each rule with its section; a total that does not add up is answered with by how much."""
    return _FinalScreen(ctx).view()


class _FinalScreen:
    """The end-of-hanchan screen: the inputs (:class:`_FinalState`), their boxes and the result."""

    def __init__(self, ctx: AppContext) -> None:
        _ = ctx._
        self.ctx = ctx
        self.st = _FinalState(ctx)
        self.result = ft.Column(spacing=8, key="final-result")
        #: the judge asked for the result although the scores do not add up
        self.anyway = False
        self.boxes: dict[str, ft.TextField] = {}
        self.pen_boxes: dict[str, ft.TextField] = {}
        #: the penalty lines from the day's records (None: the column is typed by hand)
        self.placed: Placed | None = None
        self.records = RecordsPart(ctx, self.filled)
        self.sticks_box = ft.Text(str(self.st.sticks), size=BIG, weight=ft.FontWeight.W_700, width=48,
                                  text_align=ft.TextAlign.CENTER, key="sticks")
        self.sticks_name = ft.Semantics(label=_("Riichi sticks left: {n}").format(n=self.st.sticks),
                                        content=self.sticks_box)
        self.edition_slot = ft.Row(self.edition_picker())
        self.show()

    def edition_picker(self) -> list[ft.Control]:
        """Where a public source states another edition (EMA RCR 2016): which one to follow."""
        return edition_picker(self.ctx, handbook.final_editions(self.st.ruleset, library=self.ctx.library),
                               self.st.edition, self.pick_edition)

    def pick_edition(self, e) -> None:
        self.st.edition = None if e.control.value in (None, SOURCE_EDITION) else e.control.value
        self.changed()

    def view(self) -> ft.View:
        _ = self.ctx._
        ids = list(self.ctx.library.rulings.final)
        return self.ctx.view(route=self.ctx.route, title=_("End of hanchan"), controls=[
            ft.Row([ruleset_picker(self.ctx, self.st.ruleset, self.pick_ruleset, ids)]),
            self.edition_slot,
            ft.Text(_("Table points at the end of the hanchan; penalties in P (1P = 1,000 table points), "
                      "typed from the penalties given."), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
            self.records.control(),
            *[self.seat_row(seat) for seat in handbook.SEATS], self.sticks_row(), self.result,
        ])

    def seat_row(self, seat: str) -> ft.Control:
        """± sign, the seat's table points, its penalty P."""
        _ = self.ctx._
        name = _(FINAL_SEAT_NAMES[seat])
        box = self.boxes[seat] = _points_box(_("{seat} — table points").format(seat=name), self.st.scores[seat],
                                             lambda e: self.typed(self.st.scores, seat, e), key=f"score-{seat}",
                                             width=184)
        box.on_blur = lambda e: self.left(seat, e)
        pen = self.pen_boxes[seat] = _points_box(_("{seat} — penalty P").format(seat=name), self.st.penalties[seat],
                                                 lambda e: self.typed(self.st.penalties, seat, e), key=f"pen-{seat}",
                                                 width=120)
        # captions above the boxes; the penalty box goes under the score's when both do not fit
        return ft.Row([
            ft.Row([icon_button(ft.Icons.EXPOSURE, _("Change the sign of {seat}").format(seat=name),
                                lambda e: self.flip(seat), key=f"sign-{seat}"),
                    field_above(_("{seat} — table points").format(seat=name), box)],
                   spacing=6, tight=True, vertical_alignment=ft.CrossAxisAlignment.END),
            field_above(_("{seat} — penalty P").format(seat=name), pen),
        ], wrap=True, spacing=8, run_spacing=8, vertical_alignment=ft.CrossAxisAlignment.END)

    def sticks_row(self) -> ft.Control:
        """Riichi sticks left on the table, with − and + buttons."""
        _ = self.ctx._
        style = ft.ButtonStyle(shape=ft.RoundedRectangleBorder(radius=12))
        return ft.Row([
            ft.Text(_("Riichi sticks left"), size=BODY_SIZE, expand=True),
            icon_button(ft.Icons.REMOVE, _("Fewer riichi sticks"), lambda e: self.step(-1), filled=True,
                        style=style, key="fewer-sticks"),
            self.sticks_name,
            icon_button(ft.Icons.ADD, _("More riichi sticks"), lambda e: self.step(1), filled=True,
                        style=style, key="more-sticks"),
        ], vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def show(self) -> None:
        _ = self.ctx._
        if self.st.missing():
            self.result.controls = [ft.Text(_("Enter the four table scores."), size=BODY_SIZE, italic=True,
                                            key="final-hint")]
            return
        off: list[ft.Control] = []
        try:
            f = self.st.compute(self.ctx.library)
        except handbook.ScoreSumError as exc:
            off = [error_box(sum_error_text(exc, _))]
            if not self.anyway:
                # the judge may have to settle from a sheet that cannot be corrected at the table
                self.result.controls = [*off, ft.Row([ft.OutlinedButton(
                    _("Compute anyway"), icon=ft.Icons.CALCULATE_OUTLINED, style=tall_style(),
                    on_click=self.compute_anyway, key="compute-anyway")], wrap=True)]
                return
            f = self.st.compute(self.ctx.library, check_sum=False)
        except ValueError as exc:
            self.result.controls = [error_box(readable(exc, _))]
            return
        if off:
            off.append(ft.Text(_("Computed anyway from the scores as typed: the finals do not add up to zero."),
                               size=SMALL_SIZE, italic=True, key="computed-anyway"))
        self.result.controls = [*off, *_final_result(self.ctx, f, self.copy, self.placed)]

    def filled(self, values: dict[str, str], placed: Placed) -> None:
        """The penalty column from the day's records (the boxes stay editable); the caller updates
        the page."""
        self.placed = placed
        for seat, value in values.items():
            self.st.penalties[seat] = value
            if seat in self.pen_boxes:
                self.pen_boxes[seat].value = value
        self.show()

    def compute_anyway(self, e=None) -> None:
        """Show the result from the scores as typed although they do not add up (the error
        stays above it, saying by how much)."""
        self.anyway = True
        self.changed()

    def changed(self) -> None:
        self.show()
        self.ctx.page.update()

    def typed(self, values: dict[str, str], seat: str, e) -> None:
        values[seat] = e.control.value or ""
        self.changed()

    def left(self, seat: str, e) -> None:
        """Group the thousands when the box loses focus (not per key: a value rewritten by the
        server while the judge types could drop a key)."""
        grouped = group_as_typed(e.control.value or "", self.ctx.locale)
        if grouped != (e.control.value or ""):
            e.control.value = self.st.scores[seat] = grouped
            self.ctx.page.update()

    def flip(self, seat: str) -> None:
        box = self.boxes[seat]
        self.st.scores[seat] = box.value = group_as_typed(flip_sign(box.value or ""), self.ctx.locale)
        self.changed()

    def pick_ruleset(self, value: str) -> None:
        self.st.ruleset = value
        self.st.edition = None
        self.edition_slot.controls = self.edition_picker()
        self.changed()

    def step(self, delta: int) -> None:
        self.st.sticks = min(MAX_STICKS, max(0, self.st.sticks + delta))
        self.sticks_box.value = str(self.st.sticks)
        self.sticks_name.label = self.ctx._("Riichi sticks left: {n}").format(n=self.st.sticks)
        self.changed()

    def copy(self, text: str) -> None:
        self.ctx.page.run_task(self._copy, text)

    async def _copy(self, text: str) -> None:
        _ = self.ctx._
        try:
            await ft.Clipboard().set(text)
            msg = _("Result copied")
        except Exception:  # noqa: BLE001 - no clipboard (the browser's permissions): the text is on screen
            msg = _("Could not copy: select the text below")
        show_snack(self.ctx, msg, seconds=3)


__all__ = ["build_final", "final_text", "flip_sign", "group_as_typed", "parse_points", "sum_error_text"]
