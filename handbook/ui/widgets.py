"""Flet building blocks shared by the screens: rule text with § links, result rows, badges."""

from __future__ import annotations

import contextlib
import datetime
import functools
import inspect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import flet as ft

from handbook import i18n
from handbook.core.model import Library
from handbook.core.strikes import StrikeStatus
from handbook.i18n import N_
from handbook.ui.context import TOUCH, AppContext, labelled
from handbook.ui.routes import penalty_route, section_route
from handbook.storage import is_web
from handbook.study.store import Entry, StudyStore
from handbook.ui.richtext import (  # noqa: F401 (the screens call them as widgets.*)
    BODY_SIZE, block_control, link_buttons, link_style, ref_style, rich_text, rule_text, spans)
from handbook.ui.text import leading_ref, ref_label

#: smallest touch target (Material: 48 x 48 logical px)
TOUCH_MIN = 48
SMALL_SIZE = 14


def badge(text: str, *, color: str | None = None, bgcolor: str | None = None,
          tooltip: str | None = None) -> ft.Control:
    """A small rounded label ("AZRM", "Strike", "Differs")."""
    return ft.Container(
        content=ft.Text(text, size=12, weight=ft.FontWeight.W_600,
                        color=color or ft.Colors.ON_SECONDARY_CONTAINER),
        bgcolor=bgcolor or ft.Colors.SECONDARY_CONTAINER,
        padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        border_radius=8,
        tooltip=tooltip,
    )


def section_heading(text: str, *, count: int | None = None) -> ft.Control:
    """A group heading in a list ("Rules (3)"); announced as a heading."""
    label = text if count is None else f"{text} ({count})"
    return ft.Semantics(
        header=True,
        content=ft.Container(
            content=ft.Text(label, size=SMALL_SIZE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY),
            padding=ft.Padding.only(left=4, top=16, bottom=4),
        ),
    )


def nav_tile(ctx: "AppContext", title: str, route: str, *, subtitle: str | Sequence[str] | None = None,
             leading: ft.Control | None = None, trailing: ft.Control | None = None,
             key: str | None = None, title_size: int = BODY_SIZE) -> ft.ListTile:
    """A list row (min. 56 px high) that opens ``route``; its accessible name is its text."""
    if isinstance(subtitle, str):
        sub: ft.Control | None = ft.Text(subtitle, size=SMALL_SIZE)
    elif subtitle:
        sub = ft.Column([ft.Text(s, size=SMALL_SIZE) for s in subtitle if s], spacing=2, tight=True)
    else:
        sub = None
    return ft.ListTile(
        title=ft.Text(title, size=title_size, weight=ft.FontWeight.W_500),
        subtitle=sub,
        leading=leading,
        trailing=trailing,
        on_click=lambda e, r=route: ctx.navigate(r),
        min_height=56,
        content_padding=ft.Padding.symmetric(horizontal=8),
        key=key,
        data=route,
    )


def filter_field(ctx: "AppContext", on_change: Callable[[str], None], *, value: str = "",
                 hint: str | None = None) -> ft.TextField:
    """The filter box of a list screen (accessible name "Filter")."""
    def changed(e):
        on_change(e.control.value or "")

    return ft.TextField(
        label=ctx._("Filter"),
        value=value,
        hint_text=hint,
        prefix_icon=ft.Icons.FILTER_LIST,
        on_change=changed,
        dense=False,
        border=ft.OutlineInputBorder(border_radius=12),
        text_size=BODY_SIZE,
    )


def empty_note(text: str) -> ft.Control:
    return ft.Container(content=ft.Text(text, size=BODY_SIZE, italic=True,
                                        color=ft.Colors.ON_SURFACE_VARIANT),
                        padding=ft.Padding.symmetric(vertical=16, horizontal=8))


def damage_banner(ctx: AppContext, texts: Sequence[str], key: str, on_dismiss: Callable[[], None]) -> ft.Control:
    """The banner that says a data file was damaged and set aside (one warning line per text),
    with a Dismiss button: ``on_dismiss()`` records that it was read, then the banner hides."""

    def dismiss(e) -> None:
        on_dismiss()
        banner.visible = False
        ctx.page.update()

    banner = ft.Container(
        key=key, bgcolor=ft.Colors.ERROR_CONTAINER, padding=12, border_radius=12,
        content=ft.Column([
            *[ft.Semantics(label=text, container=True, content=ft.Row(
                [ft.Icon(ft.Icons.WARNING_AMBER, color=ft.Colors.ON_ERROR_CONTAINER),
                 ft.Text(text, size=SMALL_SIZE, expand=True, color=ft.Colors.ON_ERROR_CONTAINER)],
                vertical_alignment=ft.CrossAxisAlignment.START)) for text in texts],
            ft.Row([ft.TextButton(ctx._("Dismiss"), on_click=dismiss, height=TOUCH)],
                   alignment=ft.MainAxisAlignment.END),
        ], spacing=8, tight=True))
    return banner


def refresh(*controls: ft.Control) -> None:
    """Send changed ``controls`` to the client; controls not on a page (view tests) are skipped."""
    for c in controls:
        try:
            page = c.page
        except RuntimeError:
            continue
        page.update(c)


#: the handbook's own notes, each kind with its label, icon and colours (never the source's words)
NOTE_KINDS: dict[str, tuple[str, str, str, str]] = {
    # kind: (label, icon, background, foreground)
    "conflict": (N_("Conflict in the rules"), ft.Icons.WARNING_AMBER, ft.Colors.ERROR_CONTAINER,
                 ft.Colors.ON_ERROR_CONTAINER),
    "interpretation": (N_("Handbook's reading"), ft.Icons.LIGHTBULB_OUTLINE, ft.Colors.TERTIARY_CONTAINER,
                       ft.Colors.ON_TERTIARY_CONTAINER),
    "edition": (N_("Other editions"), ft.Icons.HISTORY, ft.Colors.SECONDARY_CONTAINER,
                ft.Colors.ON_SECONDARY_CONTAINER),
    "handbook": (N_("Handbook note"), ft.Icons.EDIT_NOTE, ft.Colors.SURFACE_CONTAINER_HIGHEST,
                 ft.Colors.ON_SURFACE),
}


def note_box(ctx: "AppContext", kind: str, text: str, *, ruleset: str | None,
             size: int = SMALL_SIZE, key: str | None = None) -> ft.Control:
    """A note the handbook adds (``kind``: conflict, interpretation, edition, handbook), labelled
    so a judge never takes it for the source's words; § references in it are links."""
    label, icon, bg, fg = NOTE_KINDS[kind]
    text = ctx.hb(text) or ""  # the handbook's own words, in the session's language
    head = ft.Row([ft.Icon(icon, size=18, color=fg),
                   ft.Text(ctx._(label), size=12, weight=ft.FontWeight.BOLD, color=fg)],
                  spacing=6, tight=True)
    return ft.Container(
        content=ft.Column([head, rich_text(ctx, text, ruleset=ruleset, size=size, color=fg)],
                          spacing=4, tight=True),
        bgcolor=bg, border_radius=8, padding=ft.Padding.all(10), key=key,
    )


def note_badge(ctx: "AppContext", kind: str) -> ft.Control:
    """The short mark of a note kind for a list row ("Conflict in the rules")."""
    label, icon, bg, fg = NOTE_KINDS[kind]
    return ft.Container(
        content=ft.Row([ft.Icon(icon, size=14, color=fg),
                        ft.Text(ctx._(label), size=12, weight=ft.FontWeight.W_600, color=fg)],
                       spacing=4, tight=True),
        bgcolor=bg, border_radius=8, padding=ft.Padding.symmetric(horizontal=8, vertical=2),
    )


def handbook_notes(ctx: "AppContext", *, ruleset: str | None, conflict: str | None = None,
                   interpretations: Sequence[str] = (), edition_notes: Sequence[str] = ()) -> list[ft.Control]:
    """The note boxes of an entry: its conflict, then the handbook's readings, then edition notes."""
    out: list[ft.Control] = []
    if conflict:
        out.append(note_box(ctx, "conflict", conflict, ruleset=ruleset))
    out += [note_box(ctx, "interpretation", t, ruleset=ruleset) for t in interpretations]
    out += [note_box(ctx, "edition", t, ruleset=ruleset) for t in edition_notes]
    return out


def foul_japanese(foul) -> str:
    """A foul's Japanese name as shown: its first spelling, or where the foul names two cases
    and a spelling joins both with ・ beginning with the first ("Too many or too few tiles":
    多牌・少牌), that spelling -- 多牌 alone reads as too many tiles only, on a row about 少牌 too."""
    first = foul.japanese[0]
    both = next((j for j in foul.japanese if j.startswith(first + "・") and j != first), None)
    return both or first


def covered_notes(ctx: "AppContext", rs, target: str) -> list[ft.Control]:
    """A handbook-reading box naming the fouls ``rs``'s table has no row for that this row or
    section (``target``, "penalty:<id>" / "rule:<ref>") answers (``Foul.covered_by``)."""
    fouls = ctx.library.covered_here(rs.id, target)
    if not fouls:
        return []
    _ = ctx._
    # the foul names are the handbook's: English with the Japanese for an English reader, the
    # Japanese alone for a Japanese one
    names = (", ".join(f"{f.name} ({foul_japanese(f)})" for f in fouls) if _.language == "en"
             else "、".join(foul_japanese(f) for f in fouls))
    text = _("The {ruleset} table has no row of its own for: {fouls}. The handbook reads them as "
             "answered here.").format(ruleset=rs.short, fouls=names)
    return [note_box(ctx, "interpretation", text, ruleset=rs.id)]


def snack_bar(ctx: "AppContext", text: str, *, action: str | None = None,
              on_action: Callable | None = None, seconds: int | None = None) -> ft.SnackBar:
    """A message at the bottom of the screen whose buttons a thumb can hit: the ``action`` (e.g.
    "Undo") and a close button, each at least 48 px and named ("Close"). Flutter's own close icon
    and action button are 40 px tall on a desktop-class browser, and the close icon is unnamed.
    The action runs once, while the bar is open."""
    def close(e=None) -> None:
        bar.open = False
        with contextlib.suppress(Exception):
            bar.update()

    def act(e) -> None:
        if not bar.open:
            # dismissed, used already, or closed with the judge's screen (Lock): a client may
            # still send taps to its button, which do nothing
            return
        close()
        if on_action is not None:
            on_action(e)

    buttons: list[ft.Control] = []
    if action:
        buttons.append(ft.TextButton(action, on_click=act, height=48,
                                     style=ft.ButtonStyle(color=ft.Colors.INVERSE_PRIMARY)))
    close_button = ft.IconButton(icon=ft.Icons.CLOSE, icon_color=ft.Colors.ON_INVERSE_SURFACE,
                                 tooltip=ctx._("Close"), on_click=close, width=48, height=48)
    buttons.append(ft.Semantics(label=ctx._("Close"), button=True, exclude_semantics=True, on_tap=close,
                                content=close_button))
    bar = ft.SnackBar(
        content=ft.Row([ft.Text(text, expand=True), *buttons], spacing=4,
                       vertical_alignment=ft.CrossAxisAlignment.CENTER),
        duration=ft.Duration(seconds=seconds or (8 if action else 4)),
        padding=ft.Padding.only(left=16, right=4, top=4, bottom=4),
    )
    return bar


def show_snack(ctx: "AppContext", text: str, **kw) -> None:
    """Show :func:`snack_bar`."""
    ctx.page.show_dialog(snack_bar(ctx, text, **kw))


def choice_buttons(options: Sequence[tuple[str, str]], selected: str, on_pick: Callable[[str], None], *,
                   key: str | None = None) -> ft.Row:
    """A one-of-several choice as buttons that wrap onto the next line when they do not fit, each
    as wide as its text (at least 96 px) and at least 48 px tall, named by its text, the chosen one
    filled, ticked and marked selected for screen readers. Text never breaks mid-word: buttons of
    a fixed share of the row ("two a row") broke "Opponent's hand" at 200 % text on a 360 px phone."""
    row = ft.Row(spacing=8, run_spacing=8, wrap=True, key=key)

    def fill() -> None:
        controls = []
        for value, label in options:
            chosen = value == row.data
            text = ft.Text(label, text_align=ft.TextAlign.CENTER, size=SMALL_SIZE + 1)
            style = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=16, vertical=14),
                                   shape=ft.RoundedRectangleBorder(radius=12))
            cls = ft.FilledButton if chosen else ft.OutlinedButton
            button = cls(content=text, icon=ft.Icons.CHECK if chosen else None, style=style,
                         on_click=lambda e, v=value: pick(v), key=f"{key}-{value}" if key else None)
            controls.append(ft.Semantics(selected=chosen, content=button))
        row.controls = controls

    def pick(value: str) -> None:
        row.data = value
        fill()
        on_pick(value)

    row.data = selected
    fill()
    return row


def body_list(view: ft.Control) -> ft.ListView | None:
    """The scrolling list of a screen built by ``ctx.view`` (the ListView keyed "body")."""
    todo: list[ft.Control] = [view]
    while todo:
        c = todo.pop(0)
        if isinstance(c, ft.ListView) and c.key == "body":
            return c
        content = getattr(c, "content", None)
        if isinstance(content, ft.Control):
            todo.append(content)
        todo.extend(x for x in (getattr(c, "controls", None) or []) if isinstance(x, ft.Control))
    return None


async def scroll_to_top(view: ft.Control) -> None:
    """Scroll the screen's list back to its start (nothing when the view is not on a page)."""
    body = body_list(view)
    if body is None:
        return
    with contextlib.suppress(RuntimeError):  # not on a page (view tests)
        body.page  # noqa: B018 - raises RuntimeError when the control is not on a page
        await body.scroll_to(offset=0, duration=0)


def switch_row(switch: ft.Switch) -> ft.Control:
    """``switch`` (with its ``label``) on a row at least 48 px tall that toggles it anywhere, announced
    as one switch named by the label. A Flet ``Switch`` alone is 40 px tall on a desktop-class browser,
    and stretching it distorts its label."""
    handler = switch.on_change

    async def changed(e) -> None:
        wrapper.toggled = bool(switch.value)
        if handler is not None:
            result = handler(e)
            if inspect.isawaitable(result):
                await result

    async def toggle(e=None) -> None:
        switch.value = not switch.value
        await changed(type("Toggle", (), {"control": switch, "data": switch.value})())
        refresh(wrapper)

    switch.on_change = changed
    wrapper = ft.Semantics(
        label=switch.label if isinstance(switch.label, str) else None, toggled=bool(switch.value),
        exclude_semantics=True, on_tap=toggle,
        content=ft.ListTile(title=switch, on_click=toggle, min_height=TOUCH_MIN,
                            content_padding=ft.Padding.only(right=8)))
    return wrapper


# ------------------------------------------------------------------ calculators and the ledger

BIG = 30
MEDIUM = 20
LITERAL_READING = N_(
    "Reading used (AZRM §1.4): a Strike recorded while more than 2 stand on its day or more than 5 "
    "in its 30-day window issues a new Suspension unless one is in force, and Strikes that caused "
    "one still count toward the next; the club president and their designated officials decide.")


def default_ruleset(library: Library, chosen: str | None, query: str | None = None,
                    allowed: Sequence[str] | None = None) -> str:
    """The ruleset a calculator starts with: the query's, else the chosen one, else the first."""
    ids = [r for r in library.rulesets if allowed is None or r in allowed]
    for candidate in (query, chosen):
        if candidate in ids:
            return candidate  # type: ignore[return-value]
    return ids[0]


@dataclass(frozen=True)
class SourceLink:
    """Where a ruling's § link goes: ``label`` ("AZRM §2.4") and ``route``."""

    label: str
    route: str


def source_link(library: Library, ruleset: str, ref: str, foul: str | None = None) -> SourceLink:
    """The screen that shows ``ref``: the ruleset's own section, the section of the ruleset it is
    based on, or else its penalty table (at the foul's row when ``foul`` names one)."""
    rs = library.rulesets[ruleset]
    label = f"{rs.short} {ref_label(ref)}"
    sec = leading_ref(ref)
    for rid in (ruleset, rs.base):
        if rid and sec and library.rulesets[rid].has_section(sec):
            return SourceLink(label, section_route(rid, sec))
    if foul:
        row = next((r for r in rs.penalties if r.foul == foul), None)
        if row is not None:
            return SourceLink(label, penalty_route(ruleset, row.id))
    return SourceLink(label, penalty_route(ruleset))


def named(dropdown: ft.Dropdown) -> ft.Control:
    """A dropdown whose accessible name is its label (Flutter does not expose the label)."""
    return ft.Semantics(label=dropdown.label, content=dropdown, expand=dropdown.expand)


def record_button(ctx: "AppContext", route: str, *, icon_only: bool = False,
                  key: str | None = None) -> ft.Control:
    """"Record this ruling": a 48 px button (``icon_only``: a 48 x 48 named icon) opening ``route``,
    the judge-gated record form (:func:`handbook.ui.routes.record_route`)."""
    name = ctx._("Record this ruling")
    go = lambda e=None: ctx.navigate(route)  # noqa: E731
    if icon_only:
        return icon_button(ft.Icons.EDIT_NOTE, name, go, key=key, data=route)
    return ft.OutlinedButton(name, icon=ft.Icons.EDIT_NOTE, style=tall_style(), on_click=go, key=key,
                             data=route)


def icon_button(icon, name: str, on_click, *, filled: bool = False, size: int = TOUCH,
                key: str | None = None, **kw) -> ft.IconButton:
    """An icon button at least 48 px square whose accessible name (and tooltip) is ``name``."""
    cls = ft.FilledTonalIconButton if filled else ft.IconButton
    return cls(icon=ft.Icon(icon, semantics_label=name), tooltip=name, width=size, height=size,
               on_click=on_click, key=key, **kw)


def captioned(label: str, control: ft.Control) -> ft.Control:
    """A caption above a control that has no label of its own (segmented buttons)."""
    return ft.Column(
        controls=[label_text(label, size=SMALL_SIZE, weight=ft.FontWeight.W_600,
                             color=ft.Colors.ON_SURFACE_VARIANT),
                  ft.Semantics(label=label, container=True, content=control)],
        spacing=4, tight=True,
    )


def field_above(label: str, field: ft.TextField) -> ft.Control:
    """``field`` with its ``label`` written above it rather than floating inside its border: a
    floating label wider than a narrow box wrapped over the typed number at large text sizes
    ("East — table points" over "63,200"). The caption wraps at word boundaries; caption and box
    are one semantics node, so the box is still named by the label (``field.label`` is moved)."""
    field.label = None
    return ft.MergeSemantics(content=ft.Column(
        [label_text(label, size=SMALL_SIZE, weight=ft.FontWeight.W_600, color=ft.Colors.ON_SURFACE_VARIANT), field],
        spacing=4, tight=True))


def fact(label: str, value: str, *, size: int = MEDIUM, key: str | None = None,
         color: str | None = None, note: str | None = None) -> ft.Control:
    """A result line: small caption, large value, optional small note (one semantics node:
    "label: value (note)")."""
    lines = [label_text(label, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
             ft.Text(value, size=size, weight=ft.FontWeight.W_700, color=color)]
    if note:
        lines.append(ft.Text(note, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT))
    return ft.Semantics(
        label=f"{label}: {value}" + (f" ({note})" if note else ""), container=True, key=key,
        content=ft.Column(controls=lines, spacing=0, tight=True),
    )


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")


@functools.lru_cache(maxsize=1)
def _phrase_parser():
    """BudouX's Japanese phrase model (loaded on the first Japanese label, ~0.2 s); ``None``
    where the package is missing (the label then wraps as Flutter wraps it)."""
    try:
        import budoux
    except ImportError:  # pragma: no cover - a build without it
        return None
    return budoux.load_default_japanese_parser()


def phrases(text: str) -> list[str]:
    """``text`` cut into the phrases a Japanese line may break between (BudouX:
    "出場停止までのストライク" -> "出場停止までの", "ストライク"); text without Japanese is one piece."""
    parser = _phrase_parser() if _CJK.search(text or "") else None
    return parser.parse(text) if parser is not None else [text]


def label_text(text: str, *, size: int = SMALL_SIZE, color: str | None = None,
               weight: ft.FontWeight | None = None, expand: bool | None = None) -> ft.Control:
    """A short label that wraps between words -- in Japanese between phrases (:func:`phrases`),
    where Flutter breaks a line between any two characters ("ストラ|イク"): each phrase is a text
    of its own in a wrapping row, so a line breaks only between them."""
    parts = phrases(text)
    if len(parts) < 2:
        return ft.Text(text, size=size, color=color, weight=weight, expand=expand)
    # read as one text, not one node a phrase
    return ft.Semantics(label=text, exclude_semantics=True, expand=expand, content=ft.Row(
        [ft.Text(part, size=size, color=color, weight=weight) for part in parts], wrap=True, spacing=0,
        run_spacing=0))


def fact_line(label: str, value: str, *, size: int = MEDIUM + 4, key: str | None = None,
              color: str | None = None) -> ft.Control:
    """A result figure on a line of its own: the caption on the left, wrapping at word
    boundaries, the value large on the right (one semantics node: "label: value"). Figures side
    by side in cells broke their captions inside words at large text sizes ("Strikes until
    suspen-sion", "停止までの ストラ-イク")."""
    return ft.Semantics(
        label=f"{label}: {value}", container=True, key=key,
        content=ft.Row([label_text(label, size=BODY_SIZE, color=ft.Colors.ON_SURFACE_VARIANT, expand=True),
                        ft.Text(value, size=size, weight=ft.FontWeight.W_700, color=color)],
                       spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER))


def fact_wrap(facts: Sequence[ft.Control]) -> ft.Control:
    """Small result figures (:func:`fact`) side by side as long as they fit, the rest on the next
    line: each figure keeps its own width, so no caption breaks inside a word at any text size."""
    return ft.Row([ft.Container(f, padding=ft.Padding.only(right=12)) for f in facts], wrap=True,
                  spacing=8, run_spacing=8)


def error_box(text: str) -> ft.Control:
    return ft.Container(
        content=ft.Row([ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ON_ERROR_CONTAINER),
                        ft.Text(text, size=BODY_SIZE, color=ft.Colors.ON_ERROR_CONTAINER, expand=True)],
                       vertical_alignment=ft.CrossAxisAlignment.START),
        bgcolor=ft.Colors.ERROR_CONTAINER, padding=12, border_radius=12, key="error",
    )


def tall_style(**kw) -> ft.ButtonStyle:
    """A button at least 48 px tall (Material's 40 px and 14 px more padding) whose text wraps
    onto more lines when the row is too narrow: a fixed ``height=48`` cut the second line at large
    text sizes. Put such buttons in a wrapping row (``ft.Row(..., wrap=True)``): a plain row gives
    them no width to wrap in."""
    return ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=16, vertical=14), **kw)


def source_button(ctx: "AppContext", link: SourceLink) -> ft.Control:
    _ = ctx._
    return ft.Row([ft.TextButton(
        content=_("Rule: {where}").format(where=link.label), icon=ft.Icons.MENU_BOOK_OUTLINED,
        on_click=lambda e: ctx.navigate(link.route), style=tall_style(), key="source-link",
    )], wrap=True)


def yes_no(ctx: "AppContext", value: bool) -> str:
    """Whether a Strike (a ban) is given: "Yes"/"No"; in Japanese "あり"/"なし", which read
    naturally after 「ストライク:」 where はい/いいえ answer a question nobody asked."""
    return ctx._.pgettext("given or not", "Yes") if value else ctx._.pgettext("given or not", "No")


def date_text(d: datetime.date | None, _: i18n.Translator) -> str:
    """``d`` in the session's locale (``_``: ``ctx._``), "—" for none."""
    return _.format_date(d) if d else "—"


def strike_status_controls(ctx: "AppContext", s: StrikeStatus, *, link: bool = True,
                           literal: bool = True) -> list[ft.Control]:
    """The countdown: headline, figures with Babel-formatted dates, the reading used in one
    sentence (always: the strikes screen and the ledger's player screen both state it; ``literal``
    is kept for callers and no longer hides it), § link (``link``). Shared with the ledger."""
    _ = ctx._
    if s.banned:
        headline, color = _("Banned"), ft.Colors.ERROR
    elif s.suspended:
        headline, color = _("Suspended"), ft.Colors.ERROR
    else:
        headline, color = _("Not suspended"), None
    rows: list[ft.Control] = [
        ft.Semantics(label=_("Standing: {v}").format(v=headline), container=True, key="standing",
                     content=ft.Text(headline, size=BIG - 2, weight=ft.FontWeight.W_800, color=color)),
    ]
    if s.suspended:
        rows.append(fact(_("Suspension"), _("{first} to {last} (both included)").format(
            first=date_text(s.suspension_start, _), last=date_text(s.suspension_end, _)), key="suspension"))
    rows += [
        ft.Column([
            fact_line(_("Strikes today"), str(s.strikes_today), size=BIG, key="today"),
            fact_line(_("Strikes in window"), str(s.strikes_in_window), size=BIG, key="in-window"),
            fact_line(_("Strikes until suspension"), str(s.strikes_until_suspension), size=BIG, key="until"),
        ], spacing=2, tight=True),
        fact(_("Window"), _("{start} to {on}").format(start=date_text(s.window_start, _), on=date_text(s.on, _)),
              size=BODY_SIZE + 2, key="window"),
        fact(_("Next drop-out"), date_text(s.next_drop_out, _) if s.next_drop_out
              else _("No Strikes in the window"), size=BODY_SIZE + 2, key="drop-out",
              note=_("the oldest Strike in the window stops counting") if s.next_drop_out else None),
        ft.Column([
            fact_line(_("Suspensions issued"), str(s.suspensions), key="suspensions"),
            fact_line(_("Banned"), yes_no(ctx, s.banned), key="banned"),
        ], spacing=2, tight=True),
    ]
    rows.append(ft.Text(_(LITERAL_READING), size=SMALL_SIZE, italic=True, key="literal-reading"))
    if link and "azrm" in ctx.library.rulesets:
        rows.append(source_button(ctx, source_link(ctx.library, "azrm", "1.4")))
    return rows


# ------------------------------------------------------------------ bookmarks and recent lookups

ENTRY_ICONS = {"rule": ft.Icons.MENU_BOOK, "penalty": ft.Icons.GAVEL, "term": ft.Icons.TRANSLATE}


def entry_tiles(ctx: AppContext, entries: Sequence[Entry]) -> list[ft.Control]:
    out = []
    for e in entries:
        title = e.title(ctx.library)
        if title:
            out.append(nav_tile(ctx, title, e.route, leading=ft.Icon(ENTRY_ICONS[e.kind], color=ft.Colors.PRIMARY)))
    return out


def with_store(ctx: AppContext, fill: Callable[[StudyStore], ft.Control | None]) -> ft.Control:
    """A slot filled by ``fill(store)``: at once when the store is open, else (browser build) as
    soon as it has loaded, without rebuilding the screen. Storage trouble leaves the slot empty:
    it never breaks the page around it. A session that may not see the judge's data
    (:meth:`handbook.ui.stores.Stores.may_read`) gets the slot empty."""
    slot = ft.Container()
    if not ctx.stores.may_read(ctx):
        return slot

    def put(store: StudyStore) -> None:
        try:
            slot.content = fill(store)
        except (OSError, ValueError):
            slot.content = None

    store = ctx.stores.study
    if store is None and not is_web():
        try:
            store = ctx.stores.study_for(ctx)
        except OSError:
            return slot
    if store is not None:
        put(store)
        return slot

    async def load() -> None:
        put(await ctx.stores.open_study(ctx.page))
        refresh(slot)

    ctx.page.run_task(load)
    return slot


def entry_actions(ctx: AppContext, kind: str, ruleset: str | None, ref: str) -> list[ft.Control]:
    """For an entry page's AppBar: notes that the entry was opened (recent lookups) and gives
    its star (accessible name "Bookmark", a switch: on when bookmarked)."""
    _ = ctx._

    def star(store: StudyStore) -> ft.Control:
        store.opened(kind, ruleset, ref)
        marked = store.is_bookmarked(kind, None if kind == "term" else ruleset, ref)

        def toggle(e=None) -> None:
            now_on = store.set_bookmark(kind, ruleset, ref, not button.selected)
            button.selected = now_on
            wrapper.toggled = now_on
            refresh(wrapper)

        # one name, "Bookmark"; whether it is on is the switch's state (as with "Dark theme")
        button = ft.IconButton(icon=ft.Icons.STAR_BORDER, selected_icon=ft.Icons.STAR, selected=marked,
                               tooltip=_("Bookmark"), on_click=toggle, key="bookmark")
        wrapper = labelled(button, on_tap=toggle, toggled=marked)
        return wrapper

    return [with_store(ctx, star)]


def recent_controls(ctx: AppContext) -> list[ft.Control]:
    """The last entries opened (up to 20), for the search page while its box is empty."""
    def fill(store: StudyStore) -> ft.Control | None:
        tiles = entry_tiles(ctx, store.recent())
        if not tiles:
            return None
        return ft.Column([section_heading(ctx._("Recently opened"), count=len(tiles)), *tiles], spacing=0)

    return [with_store(ctx, fill)]
