"""Self-study: ``/study`` (cards due and new, Show answer, Again/Hard/Good/Easy), ``/study/progress``
(bars per card kind, most-missed cards, export/import), ``/study/exam`` (20 random cards answered
once, a score, no scheduling) and ``/bookmarks``; plus the star and the "opened" note that the
section, foul and term pages add with :func:`entry_actions`, and the recent list the search page
shows while its box is empty (:func:`recent_controls`).

The deck is ``?ruleset=<id>`` (default: the chosen ruleset, else the first). Data:
:mod:`handbook.study` (the deck, the fsrs scheduler, the TinyDB store shared with the ledger's adapter).

Accessible names: "Deck", "Show answer", "Again", "Hard", "Good", "Easy", "Bookmark" (a switch),
"Progress", "Exam", "Bookmarks", "I knew it", "I missed it", "Export progress",
"Import progress".
"""

from __future__ import annotations

import datetime
import functools
from collections.abc import Callable

import flet as ft

from handbook.study.deck import Card, ref_text, study_deck
from handbook.i18n import N_
from handbook.storage import acknowledge_damage, damages_of, off_loop
from handbook.study.scheduler import NEW_PER_DAY, Counts, exam_cards, utcnow
from handbook.study.store import MAX_IMPORT_BYTES, StudyImportError, StudyStore
from handbook.ui.context import TOUCH, AppContext
from handbook.ui.routes import penalty_route
from handbook.ui.widgets import (
    BODY_SIZE, SMALL_SIZE, badge, damage_banner, empty_note, entry_tiles, nav_tile, refresh, section_heading, tall_style)

#: what each kind of card asks, shown above its prompt
QUESTIONS = {
    "penalty": N_("What is the penalty?"),
    "difference": N_("How do the two columns differ?"),
    "section": N_("Which section covers this?"),
    "term": N_("Japanese and reading?"),
    "reading": N_("Which term is this?"),
    "yaku": N_("How many han, closed and open?"),
    "payment": N_("What does it pay?"),
}
KIND_NAMES = {
    "penalty": N_("Penalties"),
    "difference": N_("Column differences"),
    "section": N_("Sections"),
    "term": N_("Terms: English → 日本語"),
    "reading": N_("Terms: 日本語 → English"),
    "yaku": N_("Yaku: han"),
    "payment": N_("Payments"),
    "all": N_("All cards"),
}
RATING_BUTTONS = (("again", N_("Again"), ft.Colors.ERROR_CONTAINER),
                  ("hard", N_("Hard"), ft.Colors.TERTIARY_CONTAINER),
                  ("good", N_("Good"), ft.Colors.PRIMARY_CONTAINER),
                  ("easy", N_("Easy"), ft.Colors.SECONDARY_CONTAINER))
EXAM_SIZE = 20


def _loading(ctx: AppContext, title: str) -> ft.View:
    return ctx.view(route=ctx.route, title=title, controls=[
        ft.Row([ft.ProgressRing(), ft.Text(ctx._("Opening your study progress…"), size=BODY_SIZE)], spacing=16)])


def _with_store(title: str) -> Callable[[Callable[[AppContext, StudyStore], ft.View]], Callable[[AppContext], ft.View]]:
    """A screen drawn from the study store: ``build(ctx, store)`` becomes a view builder
    ``build(ctx)`` that shows "Opening your study progress…" under ``title`` (an ``N_`` message)
    while the store opens (:meth:`~handbook.ui.stores.Stores.study_for` gives ``None``)."""
    def wrap(build: Callable[[AppContext, StudyStore], ft.View]) -> Callable[[AppContext], ft.View]:
        @functools.wraps(build)
        def view(ctx: AppContext) -> ft.View:
            store = ctx.stores.study_for(ctx)
            return _loading(ctx, ctx._(title)) if store is None else build(ctx, store)
        return view
    return wrap


def deck_id(ctx: AppContext) -> str:
    """The deck's ruleset: ``?ruleset=`` if known, else the chosen ruleset, else the first."""
    q = ctx.query.get("ruleset")
    if q in ctx.library.rulesets:
        return q
    return ctx.ruleset or next(iter(ctx.library.rulesets))


def _deck_picker(ctx: AppContext, rid: str, route: str) -> ft.Control:
    def chosen(e) -> None:
        ctx.navigate(f"{route}?ruleset={e.control.value}")

    picker = ft.Dropdown(label=ctx._("Deck"), value=rid, expand=True, key="deck",
                         options=[ft.DropdownOption(key=r.id, text=r.short) for r in ctx.library.rulesets.values()],
                         on_select=chosen)
    return ft.Row([ft.Semantics(label=ctx._("Deck: {ruleset}").format(ruleset=ctx.short(rid)),
                                container=True, content=picker, expand=True)])


def save_error(ctx: AppContext, exc: OSError) -> str:
    """What the reader sees when study progress could not be saved (a full disk, a read-only
    folder): nothing changed, nothing was lost."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    return ctx._("Your answer could not be saved ({reason}). Nothing was lost; free some space "
                 "and answer again.").format(reason=reason)


def _damage_banner(ctx: AppContext, store: StudyStore) -> list[ft.Control]:
    """The notice that the study data file could not be read and was set aside (the ledger's
    banner, for study progress); Dismiss stops showing it, here and after a restart."""
    reports = damages_of(store.db)
    if not reports:
        return []
    _ = ctx._

    texts = [_.ngettext("Your study progress could not be read ({reason}). Nothing was deleted: the "
                        "damaged copy is at {path}. {recovered} record was recovered.",
                        "Your study progress could not be read ({reason}). Nothing was deleted: the "
                        "damaged copy is at {path}. {recovered} records were recovered.",
                        d.recovered).format(reason=d.reason, path=d.moved_to, recovered=d.recovered)
             for d in reports]
    return [damage_banner(ctx, texts, "study-damage", lambda: acknowledge_damage(store.db))]


def _problems_banner(ctx: AppContext, store: StudyStore) -> list[ft.Control]:
    notices = _damage_banner(ctx, store)
    if not store.problems:
        return notices
    text = ctx.ngettext("{n} stored study record could not be read and was skipped: {first}",
                        "{n} stored study records could not be read and were skipped: {first}",
                        len(store.problems)).format(
        n=len(store.problems), first=store.problems[0])
    return [*notices, ft.Container(content=ft.Text(text, size=SMALL_SIZE, color=ft.Colors.ON_ERROR_CONTAINER),
                                   bgcolor=ft.Colors.ERROR_CONTAINER, padding=12, border_radius=12,
                                   key="study-problems")]


def _links(ctx: AppContext, rid: str) -> ft.Control:
    _ = ctx._
    return ft.Row([
        ft.OutlinedButton(_("Progress"), icon=ft.Icons.INSIGHTS, height=TOUCH,
                          on_click=lambda e: ctx.navigate(f"/study/progress?ruleset={rid}")),
        ft.OutlinedButton(_("Exam"), icon=ft.Icons.QUIZ, height=TOUCH,
                          on_click=lambda e: ctx.navigate(f"/study/exam?ruleset={rid}")),
        ft.OutlinedButton(_("Bookmarks"), icon=ft.Icons.STAR, height=TOUCH,
                          on_click=lambda e: ctx.navigate("/bookmarks")),
    ], wrap=True, spacing=8, run_spacing=8)


# ------------------------------------------------------------------ a card's two sides


def card_prompt(ctx: AppContext, card: Card) -> str:
    """The card's prompt in the screen's language: a yaku card's name in that language, a payment
    card's built from its cell (``han:fu:dealer|non-dealer:ron|tsumo``, fu 0 for a limit), the others
    the deck's text."""
    if card.kind == "yaku":  # "<English name>\n<Japanese name>": one of them, in the screen's language
        english, _nl, japanese = card.prompt.partition("\n")
        return japanese if japanese and ctx.locale.startswith("ja") else english
    if card.kind != "payment":
        return card.prompt
    _ = ctx._
    han, fu, who, how = card.ref.split(":")
    cell = (_("{han}+ han").format(han=han) if han == "13" else _("{han} han").format(han=han)) if fu == "0" \
        else _("{fu} fu {han} han").format(fu=fu, han=han)
    return _("{cell}, {who}, {how}?").format(cell=cell, who=_("dealer") if who == "dealer" else _("non-dealer"),
                                              how=_("tsumo") if how == "tsumo" else _("ron"))


def prompt_controls(ctx: AppContext, card: Card) -> list[ft.Control]:
    _ = ctx._
    head: list[ft.Control] = [badge(ctx.short(card.ruleset) if card.ruleset else _("Glossary"))]
    return [
        ft.Row(head, spacing=8),
        ft.Text(_(QUESTIONS.get(card.kind, "")), size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT),
        ft.Text(card_prompt(ctx, card), size=22, weight=ft.FontWeight.W_600, key="card-prompt"),
    ]


def answer_controls(ctx: AppContext, card: Card, buttons: ft.Control | None = None) -> list[ft.Control]:
    """The answer, then ``buttons`` (the ratings: in reach without scrolling), then where the
    answer comes from (a link to the entry) and, for a penalty, the same foul in the other
    rulesets."""
    _ = ctx._
    lib = ctx.library
    out: list[ft.Control] = [
        ft.Divider(height=8),
        ft.Text(card.answer, size=20, weight=ft.FontWeight.BOLD, key="card-answer"),
    ]
    if buttons is not None:
        out.append(buttons)
    if card.cite and card.source in lib.rulesets:
        src = lib.rulesets[card.source]
        # "§" only before a section of the cited ruleset (WRC 2025's chapter 12.3 is not one here)
        ref = ref_text(src, card.cite)[len(src.short) + 1:]
        where = _("Source: {ruleset} {ref}").format(ruleset=src.short, ref=ref)
    else:
        where = _("Source: {ruleset}").format(ruleset=ctx.short(card.ruleset)) if card.ruleset else ""
    out.append(nav_tile(ctx, where or _("Open the glossary entry"), card.route,
                        subtitle=_("Open the entry") if where else None,
                        leading=ft.Icon(ft.Icons.MENU_BOOK, color=ft.Colors.PRIMARY)))
    if card.kind in ("term", "reading"):
        try:
            out.append(ft.Text(ctx.hb(lib.term(card.ref).definition), size=SMALL_SIZE))
        except KeyError:
            pass
    if card.kind in ("penalty", "difference"):
        others = [(rid, rows) for rid, rows in lib.foul(card.ref).items() if rid != card.ruleset]
        out.append(section_heading(_("Same foul in other rulesets"), count=len(others)))
        if not others:
            out.append(empty_note(_("No other ruleset names this foul.")))
        for rid, rows in others:
            short = lib.rulesets[rid].short
            sub = [f"{r.foul}: {r.penalty}" if len(rows) > 1 else r.penalty for r in rows]
            out.append(nav_tile(ctx, short, penalty_route(rid, card.ref), subtitle=sub,
                                leading=ft.Icon(ft.Icons.GAVEL, color=ft.Colors.PRIMARY)))
    return out


def _big_button(text: str, color: str, on_click: Callable, key: str) -> ft.Control:
    return ft.Container(
        content=ft.FilledTonalButton(text, on_click=on_click, height=64, key=key,
                                     style=ft.ButtonStyle(bgcolor=color, padding=ft.Padding.symmetric(horizontal=2),
                                                          shape=ft.RoundedRectangleBorder(radius=16),
                                                          text_style=ft.TextStyle(size=17,
                                                                                  weight=ft.FontWeight.W_600))),
        expand=True)


# ------------------------------------------------------------------ /study


@_with_store(N_("Study"))
def build_study(ctx: AppContext, store: StudyStore) -> ft.View:
    """Due and new cards of a deck; one card at a time."""
    _ = ctx._
    rid = deck_id(ctx)
    session = _StudySession(ctx, store, study_deck(rid, library=ctx.library))
    return ctx.view(route=ctx.route, title=_("Study"), back="/",
                    header=[_deck_picker(ctx, rid, "/study")],
                    controls=[*_problems_banner(ctx, store), session.summary, session.stage, ft.Divider(height=16),
                              _links(ctx, rid)])


class _StudySession:
    """One deck studied card by card: the summary line, the card on stage (prompt, then answer
    and the rating buttons), and how many new cards today may bring."""

    def __init__(self, ctx: AppContext, store: StudyStore, deck: list[Card]) -> None:
        self.ctx, self.store, self.deck = ctx, store, deck
        self.stage = ft.Column(spacing=8, key="study-card")
        self.summary = ft.Text(size=SMALL_SIZE, key="study-summary")
        self.new_limit = NEW_PER_DAY
        self.show_next()

    def show_next(self) -> None:
        _, now = self.ctx._, utcnow()
        c = self.store.counts(self.deck, now)["all"]
        self.summary.value = _("Due today: {due} · New: {new} · Learned: {learned}").format(
            due=c.due, new=c.new, learned=c.learned)
        card = self.store.next_card(self.deck, now, new_limit=self.new_limit)
        if card is None:
            self.stage.controls = self.done_controls()
        else:
            self.stage.controls = [*prompt_controls(self.ctx, card),
                                   ft.FilledButton(_("Show answer"), icon=ft.Icons.VISIBILITY, height=64,
                                                   on_click=lambda e: self.reveal(card), key="show-answer")]
        refresh(self.stage, self.summary)

    def reveal(self, card: Card) -> None:
        _ = self.ctx._
        buttons = [_big_button(_(label), color, lambda e, r=name: self.rate(card, r), key=f"rate-{name}")
                   for name, label, color in RATING_BUTTONS]
        self.stage.controls = [*prompt_controls(self.ctx, card),
                               *answer_controls(self.ctx, card, ft.Row(buttons, spacing=6))]
        refresh(self.stage)

    def rate(self, card: Card, rating: str) -> None:
        try:
            self.store.review(card, rating, now=utcnow())
        except OSError as exc:  # a full disk, a read-only folder: the card stays, answered again later
            shown = [c for c in self.stage.controls if getattr(c, "key", None) != "study-save-error"]
            self.stage.controls = [ft.Text(save_error(self.ctx, exc), color=ft.Colors.ERROR, size=SMALL_SIZE,
                                           key="study-save-error"), *shown]
            refresh(self.stage)
            return
        self.show_next()

    def more_new(self, e) -> None:
        self.new_limit += NEW_PER_DAY
        self.show_next()

    def done_controls(self) -> list[ft.Control]:
        _ = self.ctx._
        upcoming = [p.due for c in self.deck if (p := self.store.progress().get(c.id)) is not None]
        lines: list[ft.Control] = [ft.Text(_("Nothing more to study now."), size=18, weight=ft.FontWeight.W_600)]
        if upcoming:
            nxt = min(upcoming).astimezone()
            lines.append(ft.Text(_("Next card due: {when}").format(when=_.format_datetime(nxt)),
                                 size=BODY_SIZE))
        if self.store.new_cards(self.deck):
            lines.append(ft.FilledTonalButton(_("Learn {n} more new cards").format(n=NEW_PER_DAY),
                                              icon=ft.Icons.ADD, height=TOUCH, on_click=self.more_new))
        return lines


# ------------------------------------------------------------------ /study/progress


def progress_bar(ctx: AppContext, counts: Counts) -> ft.Control:
    """One stacked bar: learned (green), due (amber), new (grey)."""
    parts = [(counts.learned, ft.Colors.PRIMARY), (counts.due, ft.Colors.AMBER), (counts.new, ft.Colors.OUTLINE_VARIANT)]
    segs = [ft.Container(expand=n, height=14, bgcolor=color) for n, color in parts if n]
    return ft.Container(content=ft.Row(segs, spacing=0), border_radius=7, clip_behavior=ft.ClipBehavior.HARD_EDGE)


@_with_store(N_("Progress"))
def build_progress(ctx: AppContext, store: StudyStore) -> ft.View:
    """Learned / due / new per kind of card, the most-missed cards, export and import."""
    _ = ctx._
    rid = deck_id(ctx)
    deck = study_deck(rid, library=ctx.library)
    counts = store.counts(deck, utcnow())
    controls: list[ft.Control] = [*_problems_banner(ctx, store)]
    for kind, c in counts.items():
        label = _("{kind}: {learned} learned · {due} due · {new} new").format(
            kind=_(KIND_NAMES.get(kind, kind)), learned=c.learned, due=c.due, new=c.new)
        controls.append(ft.Semantics(label=label, container=True, content=ft.Column([
            ft.Text(label, size=SMALL_SIZE if kind != "all" else BODY_SIZE,
                    weight=ft.FontWeight.W_600 if kind == "all" else None),
            progress_bar(ctx, c)], spacing=4, tight=True)))
    controls.append(section_heading(_("Answered wrong most often")))
    missed = store.most_missed(deck)
    if not missed:
        controls.append(empty_note(_("No card answered Again yet.")))
    for card, p in missed:
        controls.append(nav_tile(ctx, card_prompt(ctx, card).splitlines()[0], card.route,
                                 subtitle=[card.answer.splitlines()[0],
                                           _("Again: {n} of {reviews} answers").format(n=p.lapses, reviews=p.reviews)],
                                 leading=ft.Icon(ft.Icons.ERROR_OUTLINE, color=ft.Colors.ERROR)))
    controls.append(section_heading(_("Keep your progress")))
    controls.append(_export_import(ctx, store))
    return ctx.view(route=ctx.route, title=_("Progress"), back=f"/study?ruleset={rid}",
                    header=[_deck_picker(ctx, rid, "/study/progress")], controls=controls)


def _export_import(ctx: AppContext, store: StudyStore) -> ft.Control:
    _ = ctx._
    out = ft.Column(key="study-transfer")

    def say(text: str, *, error: bool = False) -> None:
        out.controls = [ft.Text(text, size=SMALL_SIZE, selectable=True,
                                color=ft.Colors.ERROR if error else None)]
        refresh(out)

    async def export(e) -> None:
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        try:
            # the browser is the client in both builds: the file goes to the browser, not the server
            await ft.FilePicker().save_file(file_name=f"study-{stamp}.json",
                                            src_bytes=store.export_json().encode("utf-8"))
        except Exception as exc:  # noqa: BLE001 - the client could not save
            say(_("Export failed: {reason}").format(reason=str(exc)), error=True)
            return
        say(_("Exported."))

    async def do_import(e) -> None:
        try:
            files = await ft.FilePicker().pick_files(
                dialog_title=_("Import study progress"), file_type=ft.FilePickerFileType.CUSTOM,
                allowed_extensions=["json"], with_data=True)
        except Exception as exc:  # noqa: BLE001
            say(_("Could not open a file: {reason}").format(reason=str(exc)), error=True)
            return
        if not files:
            return
        f = files[0]
        cap = MAX_IMPORT_BYTES
        if max(f.size or 0, len(f.bytes or b"")) > cap:
            say(_("{name} is larger than {mb} MB; nothing was imported.").format(
                name=f.name, mb=cap // (1024 * 1024)), error=True)
            return
        if f.bytes is None:  # never open a path the client names: it is not our disk
            say(_("{name} could not be read.").format(name=f.name), error=True)
            return
        try:
            # checked and written in a worker thread: the other sessions keep answering
            res = await off_loop(store.import_json, bytes(f.bytes))
        except StudyImportError as exc:
            say(_("{name} was not imported: {reason}").format(name=f.name, reason=str(exc)), error=True)
            return
        except OSError as exc:
            say(save_error(ctx, exc), error=True)
            return
        say(_("Imported from {name}: {added} new, {updated} updated, {kept} kept, {skipped} skipped.").format(
            name=f.name, added=res.added, updated=res.updated, kept=res.kept, skipped=len(res.skipped)))

    return ft.Column([
        ft.Row([ft.OutlinedButton(_("Export progress"), icon=ft.Icons.DOWNLOAD, style=tall_style(), on_click=export,
                                  key="export-progress"),
                ft.OutlinedButton(_("Import progress"), icon=ft.Icons.UPLOAD, style=tall_style(), on_click=do_import,
                                  key="import-progress")],
               wrap=True, spacing=8, run_spacing=8),
        out,
    ], spacing=4)


# ------------------------------------------------------------------ /study/exam


def build_exam(ctx: AppContext) -> ft.View:
    """20 random cards of the deck, each answered once (I knew it / I missed it), then the score.
    Nothing is scheduled."""
    _ = ctx._
    rid = deck_id(ctx)
    cards = exam_cards(study_deck(rid, library=ctx.library), EXAM_SIZE)
    stage = ft.Column(spacing=8, key="exam-card")
    state = {"i": 0, "right": 0, "missed": []}

    def show() -> None:
        i = state["i"]
        if i >= len(cards):
            stage.controls = score_controls()
        else:
            stage.controls = [count_text(i),
                              *prompt_controls(ctx, cards[i]),
                              ft.FilledButton(_("Show answer"), icon=ft.Icons.VISIBILITY, height=64,
                                              on_click=lambda e: reveal())]
        refresh(stage)

    def count_text(i: int) -> ft.Control:
        return ft.Text(_("Question {n} of {total}").format(n=i + 1, total=len(cards)),
                       size=SMALL_SIZE, key="exam-count")

    def reveal() -> None:
        card = cards[state["i"]]
        # the count stays while the answer shows
        stage.controls = [count_text(state["i"]), *prompt_controls(ctx, card), *answer_controls(ctx, card, ft.Row([
            _big_button(_("I missed it"), ft.Colors.ERROR_CONTAINER, lambda e: mark(False), "exam-missed"),
            _big_button(_("I knew it"), ft.Colors.PRIMARY_CONTAINER, lambda e: mark(True), "exam-knew"),
        ], spacing=6))]
        refresh(stage)

    def mark(knew: bool) -> None:
        if knew:
            state["right"] += 1
        else:
            state["missed"].append(cards[state["i"]])
        state["i"] += 1
        show()

    def score_controls() -> list[ft.Control]:
        out: list[ft.Control] = [
            ft.Text(_("Score: {right} of {total}").format(right=state["right"], total=len(cards)),
                    size=26, weight=ft.FontWeight.BOLD, key="exam-score"),
            ft.FilledButton(_("New exam"), icon=ft.Icons.REFRESH, height=TOUCH,
                            on_click=lambda e: ctx.navigate(f"/study/exam?ruleset={rid}")),
        ]
        if state["missed"]:
            out.append(section_heading(_("Missed"), count=len(state["missed"])))
            out.extend(nav_tile(ctx, card_prompt(ctx, c).splitlines()[0], c.route, subtitle=c.answer.splitlines()[0])
                       for c in state["missed"])
        return out

    show()
    return ctx.view(route=ctx.route, title=_("Exam"), back=f"/study?ruleset={rid}",
                    header=[_deck_picker(ctx, rid, "/study/exam")],
                    controls=[ft.Text(_("{n} random cards, each answered once. Nothing is scheduled.").format(
                        n=EXAM_SIZE), size=SMALL_SIZE), stage])


# ------------------------------------------------------------------ bookmarks and recent


@_with_store(N_("Bookmarks"))
def build_bookmarks(ctx: AppContext, store: StudyStore) -> ft.View:
    """Every starred section, foul and term, newest first."""
    _ = ctx._
    tiles = entry_tiles(ctx, store.bookmarks())
    return ctx.view(route=ctx.route, title=_("Bookmarks"), back="/",
                    controls=[*_damage_banner(ctx, store),
                              *(tiles or [empty_note(_("Nothing bookmarked yet: tap the star on a section, "
                                                       "a penalty or a term."))])])


__all__ = ["answer_controls", "build_bookmarks", "build_exam", "build_progress", "build_study", "deck_id",
           "progress_bar", "prompt_controls"]
