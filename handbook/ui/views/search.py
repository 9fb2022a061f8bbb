"""Home: ``/`` and ``/search?q=…`` — one search box, results as you type, in the order the search
ranks them: the ruling first (with a ruleset chosen, the foul's rows in that ruleset, each with its
condition and penalty in large type, and the section that governs them; without one, the best foul
with its row in each ruleset side by side), then the rest. Each result is labelled Rule, Penalty or
Term; kinds never reorder the list."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass

import flet as ft

from handbook.core.model import Hit, Library, PenaltyRow
from handbook.core.search import ref_keys
from handbook.core.search.choice import Choice, candidates
from handbook.core.texts import Note
from handbook.core.search.conditions import condition_label, order_rows
from handbook.i18n import N_
from handbook.ui.context import AppContext, title_bar
from handbook.ui.offline import offline_badge
from handbook.ui.titles import japanese_first
from handbook.ui.routes import editions_route, record_route, search_route, split_route
from handbook.ui.text import ref_label
from handbook.ui.widgets import (
    BODY_SIZE, MEDIUM, SMALL_SIZE, badge, empty_note, foul_japanese, icon_button, note_badge, recent_controls,
    refresh,
    section_heading)

#: the penalty of a ruling, in large type
RULING_SIZE = MEDIUM

#: group order on screen, with the (untranslated) headings
GROUPS: tuple[tuple[str, str], ...] = (
    ("rule", N_("Rules")),
    ("penalty", N_("Penalties")),
    ("term", N_("Glossary")),
    ("yaku", N_("Yaku")),
)
RESULT_LIMIT = 40
#: results of the ranked list shown before "Show all"
LIST_PREVIEW = 10
ALL_RULESETS = "__all__"
#: each kind's label on a result (untranslated)
KIND_LABELS = {"rule": N_("Rule"), "penalty": N_("Penalty"), "term": N_("Term"), "yaku": N_("Yaku")}


@dataclass(frozen=True)
class RowLine:
    """One of a foul's rows in one ruleset, as a ruling lists it: ``condition`` (what tells it
    from the foul's other rows, "1 to 10 min"; the row's title when it has no siblings),
    ``penalty``, ``ref`` (the § label), ``note`` (the row's own condition text) and, for a
    comparison across rulesets, ``ruleset`` (the short names sharing this penalty)."""

    condition: str
    penalty: str
    ref: str = ""
    note: str = ""
    ruleset: str = ""


@dataclass(frozen=True)
class Result:
    """One row of the result list, ready to show.

    ``ruleset`` is the short name ("AZRM", "" for terms); ``ref`` the § label ("§2.4") of a rule
    or a penalty row; ``subtitle`` the Japanese subtitle of a rule or term (with the reading);
    ``penalty`` the penalty text of a penalty row; ``penalties`` the penalties of the rows citing
    a rule section (what the judge gives); ``route`` where a tap goes.
    """

    kind: str
    title: str
    route: str
    ruleset: str = ""
    ref: str = ""
    subtitle: str = ""
    penalty: str = ""
    penalties: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    #: a penalty: the foul's other rows in this ruleset (best fit to the query first); a comparison
    #: across rulesets: the foul's row in each ruleset
    rows: tuple[RowLine, ...] = ()
    #: a penalty: the section that governs it ("§2.4 Wrongly revealing tiles")
    governs: str = ""
    #: a comparison of one foul across rulesets (no ruleset chosen)
    compare: bool = False
    #: a penalty row: the judge-gated record form filled from it (:func:`record_route`)
    record: str = ""

    @property
    def label(self) -> str:
        """The row's accessible name: ruleset, §, title, subtitle, penalty."""
        parts = [self.ruleset, self.ref, self.title, self.subtitle, self.penalty]
        return " ".join(p for p in parts if p)


def _row_for(library: Library, hit: Hit) -> PenaltyRow | None:
    rs = library.rulesets.get(hit.ruleset or "")
    if rs is None:
        return None
    for r in rs.penalties:
        if r.index == hit.row and r.id == hit.ref:
            return r
    rows = rs.rows(hit.ref)
    return rows[0] if rows else None


def _distinct(items: Sequence[str]) -> tuple[str, ...]:
    out: list[str] = []
    for i in items:
        if i and i not in out:
            out.append(i)
    return tuple(out)


def _marks(entry) -> tuple[str, ...]:
    """The handbook's flags on a section or row: a conflict inside its ruleset, a reading of ours."""
    if entry is None:
        return ()
    return tuple(k for k, on in (("conflict", getattr(entry, "conflict", None)),
                                 ("interpretation", getattr(entry, "interpretations", ()))) if on)


def to_result(library: Library, hit: Hit, query: str = "") -> Result:
    """A search :class:`Hit` as a :class:`Result` row (``query``: the reason a penalty row's
    "Record this ruling" starts with)."""
    if hit.kind == "rule":
        rs = library.rulesets[hit.ruleset or ""]
        cited = rs.rows_citing(hit.ref)
        return Result("rule", hit.title, hit.route, rs.short, ref_label(hit.ref), hit.subtitle or "",
                      penalties=_distinct([r.penalty for r in cited]), marks=_marks(rs.section(hit.ref)))
    if hit.kind == "penalty":
        rs = library.rulesets[hit.ruleset or ""]
        row = _row_for(library, hit)
        foul = library.fouls.get(hit.ref)
        return Result("penalty", hit.title, hit.route, rs.short, ref_label(row.ref if row else None),
                      subtitle=foul_japanese(foul) if foul else "",
                      penalty=(row.penalty if row else hit.subtitle) or "", marks=_marks(row),
                      record=record_route(row.ruleset, row.index, q=query) if row else "")
    if hit.kind == "yaku":   # not a ruling: the yaku page of the chosen ruleset
        return Result("yaku", hit.title, hit.route, "", "", hit.subtitle or "")
    term = None
    try:
        term = library.term(hit.ref)
    except KeyError:
        pass
    sub = " · ".join(x for x in ((term.japanese, term.reading) if term else (hit.subtitle,)) if x)
    return Result("term", hit.title, hit.route, "", "", sub)


def _governs(library: Library, ruleset: str, ref: str | None) -> str:
    """The section a row cites, as "§2.4 Wrongly revealing tiles" (its first; "" for none)."""
    if not ref:
        return ""
    rs = library.rulesets[ruleset]
    for section, _item in ref_keys(ref):
        if rs.has_section(section):
            return f"§{section} {rs.section(section).title}"
    return ""


def ruling(library: Library, hit: Hit, query: str) -> Result:
    """A penalty hit with a ruleset chosen as the ruling: the foul's rows in that ruleset, the
    row whose condition fits ``query`` best first (its title, penalty and §), the others as
    :class:`RowLine` with their conditions, and the section that governs the first."""
    rs = library.rulesets[hit.ruleset or ""]
    rows = order_rows(rs.rows(hit.ref), query)
    if not rows:
        return to_result(library, hit, query)
    first, rest = rows[0], rows[1:]
    foul = library.fouls.get(hit.ref)
    lines = tuple(RowLine(condition_label(r, rows) or r.foul, r.penalty or "", ref_label(r.ref), r.condition or "")
                  for r in rest)
    return Result("penalty", first.foul, hit.route, rs.short, ref_label(first.ref),
                  subtitle=foul_japanese(foul) if foul else "", penalty=first.penalty or "",
                  marks=_marks(first), rows=lines, governs=_governs(library, rs.id, first.ref),
                  record=record_route(rs.id, first.index, q=query))


def comparison(library: Library, hit: Hit, query: str) -> Result:
    """A penalty hit without a ruleset chosen as the foul across rulesets: its name, and in each
    ruleset that has it the row that fits ``query`` best (rulesets giving the same penalty share
    a line), side by side."""
    foul = library.fouls.get(hit.ref)
    lines: list[RowLine] = []
    for rs in library.rulesets.values():
        rows = order_rows(rs.rows(hit.ref), query)
        if not rows:
            continue
        r = rows[0]
        same = next((i for i, x in enumerate(lines) if x.penalty == r.penalty and x.ref == ref_label(r.ref)), None)
        if same is not None:
            x = lines[same]
            lines[same] = RowLine(x.condition, x.penalty, x.ref, x.note, f"{x.ruleset} · {rs.short}")
            continue
        label = condition_label(r, rows) or (r.foul if len(rows) > 1 else "")
        lines.append(RowLine(label, r.penalty or "", ref_label(r.ref), "", rs.short))
    title = foul.name if foul else hit.title
    return Result("penalty", title, hit.route, "", "", subtitle=foul_japanese(foul) if foul else "",
                  rows=tuple(lines), compare=True)


#: glossary terms ranked among the first rulings are listed after this many rulings: on a phone's
#: first screen at 200 % text the rulings come first, the term ("Pon" for 誤ポン) just below
TERMS_AFTER = 2


def rulings_first(results: Sequence[Result], after: int = TERMS_AFTER) -> list[Result]:
    """``results`` with the terms that come before the ``after``-th ruling (rule or penalty)
    moved to just after it; the order is kept otherwise."""
    out: list[Result] = []
    held: list[Result] = []
    seen = 0
    for r in results:
        if r.kind == "term" and seen < after:
            held.append(r)
            continue
        out.append(r)
        if r.kind != "term":
            seen += 1
            if seen == after:
                out += held
                held = []
    return out + held


def ranked_results(library: Library, query: str, ruleset: str | None = None,
                   limit: int = RESULT_LIMIT, *, hits: Sequence[Hit] | None = None) -> list[Result]:
    """The results for ``query`` in the search's order: with ``ruleset``, each penalty hit as the
    foul's :func:`ruling`; without, the first penalty hit as a :func:`comparison` of its foul
    across rulesets (that foul's rows in other rulesets are not listed again); glossary terms
    after the first :data:`TERMS_AFTER` rulings (:func:`rulings_first`). ``hits``: the search's
    hits when already at hand. Empty for an empty query."""
    if not query.strip():
        return []
    if hits is None:
        hits = library.search(query, ruleset=ruleset, limit=limit)
    out: list[Result] = []
    compared: str | None = None
    for h in hits:
        if h.kind == "penalty" and ruleset is not None:
            out.append(ruling(library, h, query))
        elif h.kind == "penalty" and compared is None:
            compared = h.ref
            out.append(comparison(library, h, query))
        elif h.kind == "penalty" and h.ref == compared:
            continue
        else:
            out.append(to_result(library, h, query))
    return rulings_first(out)


@dataclass(frozen=True)
class Option:
    """One candidate of a :class:`ChoiceView`: its ``answer`` to the question (English, a
    :class:`~handbook.core.texts.Note` or ""), the row's ``title`` and ``penalty`` as the source
    words them, its § ``ref`` and where a tap goes (``route``)."""

    answer: str
    title: str
    penalty: str
    ref: str
    route: str
    subtitle: str = ""


@dataclass(frozen=True)
class ChoiceView:
    """The choice the first screen shows: the ``question`` (English template) and the options;
    ``hits`` the search hits it stands for (left out of the list below it)."""

    question: str
    options: tuple[Option, ...]
    hits: frozenset[tuple[str, str | None, str]]


def choice_for(library: Library, query: str, ruleset: str | None, hits: Sequence[Hit]) -> ChoiceView | None:
    """The choice for a search narrowed to ``ruleset`` whose best rulings are close
    (:func:`handbook.core.search.choice.candidates`); ``None`` without a ruleset or a choice."""
    if ruleset is None or not query.strip():
        return None
    choice: Choice | None = candidates(hits, library, query=query)
    if choice is None:
        return None
    options = []
    for c in choice.candidates:
        foul = library.fouls.get(c.hit.ref) if c.hit.kind == "penalty" else None
        sub = foul_japanese(foul) if foul else (c.hit.subtitle or "")
        if c.row is not None:
            options.append(Option(c.answer, c.row.foul, c.row.penalty or "", ref_label(c.row.ref), c.hit.route, sub))
        else:
            cited = library.rulesets[c.hit.ruleset or ""].rows_citing(c.hit.ref)
            options.append(Option(c.answer, c.hit.title, " · ".join(_distinct([r.penalty for r in cited])),
                                  ref_label(c.hit.ref), c.hit.route, sub))
    return ChoiceView(choice.question, tuple(options),
                      frozenset((c.hit.kind, c.hit.ruleset, c.hit.ref) for c in choice.candidates))


def group_results(library: Library, hits: Sequence[Hit]) -> list[tuple[str, list[Result]]]:
    """Hits as ``[(kind, [Result, …]), …]`` in the order Rules, Penalties, Glossary (best first
    within each group); empty groups are left out."""
    by_kind: dict[str, list[Result]] = {k: [] for k, _ in GROUPS}
    for h in hits:
        by_kind.setdefault(h.kind, []).append(to_result(library, h))
    return [(k, by_kind[k]) for k, _ in GROUPS if by_kind.get(k)]


def run_search(library: Library, query: str, ruleset: str | None = None,
               limit: int = RESULT_LIMIT) -> list[tuple[str, list[Result]]]:
    """Search and group; an empty query gives no groups."""
    if not query.strip():
        return []
    return group_results(library, library.search(query, ruleset=ruleset, limit=limit))


def run_elsewhere(library: Library, query: str, ruleset: str | None) -> list[Result]:
    """Rows of other rulesets for what ``query`` finds that ``ruleset`` does not cover (none
    without a ruleset chosen): see :meth:`Library.elsewhere`."""
    if not ruleset or not query.strip():
        return []
    return [to_result(library, h, query) for h in library.elsewhere(query, ruleset)]


# ---------------------------------------------------------------------------- flet


def _kind_label(ctx: AppContext, r: Result) -> ft.Control:
    return ft.Text(ctx._(KIND_LABELS[r.kind]).upper(), size=12, weight=ft.FontWeight.BOLD,
                   color=ft.Colors.ON_SURFACE_VARIANT)


def _row_line(r: RowLine) -> ft.Control:
    """One more row of a ruling: its condition, then its penalty (bold) and §."""
    spans = []
    if r.ruleset:
        spans.append(ft.TextSpan(f"{r.ruleset}  ", style=ft.TextStyle(weight=ft.FontWeight.BOLD,
                                                                       color=ft.Colors.PRIMARY)))
    if r.condition:
        spans.append(ft.TextSpan(f"{r.condition}: "))
    spans.append(ft.TextSpan(r.penalty or "—", style=ft.TextStyle(weight=ft.FontWeight.BOLD)))
    if r.ref:
        spans.append(ft.TextSpan(f"  {r.ref}", style=ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT)))
    return ft.Text(spans=spans, size=SMALL_SIZE + 1)


def result_tile(ctx: AppContext, r: Result, on_open, *, lead: bool = True) -> ft.Control:
    """One result: its kind, ruleset badge and § ref, title, Japanese subtitle, penalty text (in
    large type for a penalty row that leads the list: ``lead``), the foul's other rows with their
    conditions, and the section that governs it."""
    _ = ctx._
    head: list[ft.Control] = [_kind_label(ctx, r)]
    if r.ruleset:
        head.append(badge(r.ruleset))
    # the section that governs a row, when the row cites it, beside its § (one line less per
    # result, so that the third ruling still ends on a phone's first screen): "§6.1 Riichi declaration"
    # (nothing when the section has the row's own title)
    cited = r.ref.split(" (")[0] + " " if r.ref else ""
    governs_in_head = bool(cited and r.governs.startswith(cited))
    # the governing section with the leading ruling only: the later ones' pages name it, and at
    # 200 % text on a phone it takes a line of its own that the second ruling needs on the first screen
    governs = r.governs if lead or r.compare else ""
    if r.ref:
        head.append(ft.Text(r.ref, size=SMALL_SIZE, weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY))
    if governs and governs_in_head and r.governs[len(cited):].casefold() != r.title.casefold():
        head.append(ft.Text(r.governs[len(cited):], size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT,
                            max_lines=1, overflow=ft.TextOverflow.ELLIPSIS))
    head.extend(note_badge(ctx, m) for m in r.marks)
    lines: list[ft.Control] = [ft.Row(head, spacing=8, wrap=True)]
    # in Japanese the Japanese subtitle leads, the source's English beneath it
    first, second = (r.subtitle, r.title) if r.subtitle and japanese_first(ctx) else (r.title, r.subtitle)
    # the other language runs on after the title, not on a line of its own (at 200 % text on a
    # phone a line less per result: the second ruling still ends on the first screen)
    spans = [ft.TextSpan(first, style=ft.TextStyle(weight=ft.FontWeight.W_500))]
    if second:
        spans += [ft.TextSpan("  ·  "), ft.TextSpan(second, style=ft.TextStyle(size=SMALL_SIZE,
                                                                              color=ft.Colors.ON_SURFACE_VARIANT))]
    lines.append(ft.Text(spans=spans, size=BODY_SIZE))
    if r.penalty:
        # the penalty in large type for the first ruling; the later ones in bold body type
        lines.append(ft.Text(r.penalty, size=RULING_SIZE if r.kind == "penalty" and lead else BODY_SIZE + 1,
                             weight=ft.FontWeight.BOLD))
    if r.penalties:
        lines.append(ft.Text(_("Penalties: {list}").format(list=" · ".join(r.penalties)), size=SMALL_SIZE,
                             color=ft.Colors.ON_SURFACE_VARIANT, max_lines=2,
                             overflow=ft.TextOverflow.ELLIPSIS))
    # the foul's other rows and the governing section: under the ruling, a second target to the
    # same page (the ruling itself -- title and penalty -- stays one node a reader names at once)
    # (a comparison across rulesets is the ruling itself: its rows stay in the one node)
    if r.compare:
        lines.extend(_row_line(x) for x in r.rows)
    more: list[ft.Control] = [] if r.compare else [_row_line(x) for x in r.rows]
    if governs and not governs_in_head:
        more.append(ft.Text(r.governs, size=SMALL_SIZE, color=ft.Colors.ON_SURFACE_VARIANT, max_lines=1,
                            overflow=ft.TextOverflow.ELLIPSIS))

    async def click(e) -> None:
        # Flet awaits a handler only when it is a coroutine function itself
        result = on_open(r.route)
        if inspect.isawaitable(result):
            await result

    async def record(e) -> None:
        # through on_open: the query goes into the history first, so Back returns to the results
        result = on_open(r.record)
        if inspect.isawaitable(result):
            await result

    tile = ft.ListTile(
        title=ft.Column(lines, spacing=1, tight=True),
        on_click=click,
        # "Record this ruling" (48 x 48) beside the row: the ruling keeps its lines (the third
        # ruling still ends on a phone's first screen)
        # named with the row: a reader (and a browser test) tells one ruling's button from another's
        trailing=icon_button(ft.Icons.EDIT_NOTE, _("Record this ruling: {foul}").format(foul=r.title), record,
                             key="record-ruling",
                             data=r.record) if r.record else None,
        min_height=48,
        content_padding=ft.Padding.symmetric(horizontal=8, vertical=2),
        data=r.route,
        tooltip=None,
    )
    if not more:
        return tile
    return ft.Column([tile, ft.Container(ft.Column(more, spacing=1, tight=True), on_click=click, ink=True,
                                         padding=ft.Padding.only(left=8, right=8, bottom=6))], spacing=0,
                     tight=True)


def choice_controls(ctx: AppContext, choice: ChoiceView, on_open) -> list[ft.Control]:
    """The choice: its question as a heading, then each option as one target (answer, the row's
    title, its penalty and §), side by side where the window is wide, one under the other on a
    phone; every option's accessible name holds its title and penalty."""
    _ = ctx._
    ja = japanese_first(ctx)

    def words(text: str) -> str:
        # a Note (a template with fields) or a plain template of the catalog
        return (ctx.hb(text) or text) if isinstance(text, Note) else _(text)

    def option(o: Option) -> ft.Control:
        spans = []
        if o.answer:
            spans.append(ft.TextSpan(f"{words(o.answer)}\n", style=ft.TextStyle(weight=ft.FontWeight.BOLD,
                                                                                color=ft.Colors.PRIMARY)))
        first, second = (o.subtitle, o.title) if ja and o.subtitle else (o.title, "")
        spans.append(ft.TextSpan(first))
        if second:
            spans.append(ft.TextSpan(f" · {second}", style=ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT,
                                                                         size=SMALL_SIZE)))
        spans.append(ft.TextSpan(f"\n{o.penalty or '—'}", style=ft.TextStyle(weight=ft.FontWeight.BOLD)))
        if o.ref:
            spans.append(ft.TextSpan(f"  {o.ref}", style=ft.TextStyle(color=ft.Colors.ON_SURFACE_VARIANT,
                                                                       size=SMALL_SIZE)))

        async def click(e, route=o.route) -> None:
            result = on_open(route)
            if inspect.isawaitable(result):
                await result

        # a ListTile: one target, announced as a button whose name is the whole option
        tile = ft.ListTile(title=ft.Text(spans=spans, size=BODY_SIZE), on_click=click, min_height=48,
                           content_padding=ft.Padding.symmetric(horizontal=8, vertical=2), data=o.route)
        return ft.Container(tile, border_radius=8, border=ft.Border.all(1, ft.Colors.OUTLINE_VARIANT),
                            col={"xs": 12, "md": 12 // len(choice.options)})

    return [
        ft.Container(ft.Semantics(header=True, content=ft.Text(words(choice.question), size=BODY_SIZE,
                                                               weight=ft.FontWeight.BOLD, color=ft.Colors.PRIMARY)),
                     padding=ft.Padding.only(left=8, top=4, bottom=2)),
        ft.ResponsiveRow([option(o) for o in choice.options], spacing=6, run_spacing=6, key="choice"),
        ft.Divider(height=8),
    ]


def what_happened_tile(ctx: AppContext) -> ft.Control:
    """The way into the "What happened?" browser (``/what-happened``: a category, then the foul)."""
    from handbook.ui.routes import build_route

    return ft.ListTile(title=ft.Text(ctx._("What happened?"), size=BODY_SIZE, weight=ft.FontWeight.W_500),
                       subtitle=ft.Text(ctx._("Browse the fouls by kind"), size=SMALL_SIZE),
                       leading=ft.Icon(ft.Icons.HELP_OUTLINE), min_height=56, key="what-happened",
                       on_click=lambda e: ctx.navigate(build_route("what-happened")))


def list_controls(ctx: AppContext, results: Sequence[Result], on_open, *, expanded: bool = False,
                  on_expand=None, lead: bool = True) -> list[ft.Control]:
    """The ranked list: its first :data:`LIST_PREVIEW` results until "Show all" is pressed; the
    first one's penalty in large type when it leads the screen (``lead``: no choice above it)."""
    _ = ctx._
    shown = results if expanded else results[:LIST_PREVIEW]
    out: list[ft.Control] = []
    for i, r in enumerate(shown):
        if i:
            out.append(ft.Divider(height=1))
        out.append(result_tile(ctx, r, on_open, lead=lead and i == 0))
    if len(shown) < len(results):
        out.append(ft.TextButton(_("Show all {count} results").format(count=len(results)),
                                 icon=ft.Icons.EXPAND_MORE, height=48,
                                 on_click=lambda e: on_expand("all") if on_expand else None))
    return out


def start_controls(ctx: AppContext) -> list[ft.Control]:
    """What the home screen shows before anything is typed: examples, the entries opened last
    (handbook.ui.widgets.recent_controls), and where to browse and study."""
    _ = ctx._
    examples = ["見せ牌", "kuikae", "empty call", "§2.4", "chombo"]

    def example(q: str) -> ft.Control:
        return ft.OutlinedButton(q, on_click=lambda e: ctx.navigate(search_route(q)), height=48)

    return [
        ft.Text(_("Type a foul, a term or a section number, in English, romaji or Japanese."),
                size=BODY_SIZE),
        ft.Row([example(q) for q in examples], wrap=True, spacing=8, run_spacing=8),
        what_happened_tile(ctx),
        *recent_controls(ctx),
        section_heading(_("Browse")),
        *[ft.ListTile(title=ft.Text(t, size=BODY_SIZE), leading=ft.Icon(i), min_height=56,
                      on_click=lambda e, r=r: ctx.navigate(r))
          for t, i, r in (
              (_("Rules by ruleset"), ft.Icons.MENU_BOOK, "/rules"),
              (_("Penalty tables"), ft.Icons.GAVEL, "/penalties"),
              (_("Glossary (English / 日本語)"), ft.Icons.TRANSLATE, "/glossary"),
              (_("Calculators and ledger"), ft.Icons.CALCULATE, "/tools"),
              (_("Study: cards and exam"), ft.Icons.SCHOOL, "/study"),
              (_("Bookmarks"), ft.Icons.STAR, "/bookmarks"),
          )],
    ]


def ruleset_options(ctx: AppContext) -> list[ft.DropdownOption]:
    _ = ctx._
    opts = [ft.DropdownOption(key=ALL_RULESETS, text=_("All rulesets"))]
    for rs in ctx.library.rulesets.values():
        opts.append(ft.DropdownOption(key=rs.id, text=rs.short))
    return opts


def picker_name(ctx: AppContext) -> str:
    """The ruleset picker's accessible name: "Ruleset: All rulesets", "Ruleset: AZRM"."""
    return ctx._("Ruleset: {ruleset}").format(ruleset=ctx.short(ctx.ruleset))


def build(ctx: AppContext) -> ft.View:
    """The home and search screen: the box, the ruleset picker, results grouped by kind (or,
    before anything is typed, examples, recent lookups and where to browse)."""
    return _SearchScreen(ctx).view()


#: the longest query searched (characters; a sentence of the rules is shorter): what a client
#: sends beyond it is not searched, and the box takes no more
MAX_QUERY_CHARS = 200


class _SearchScreen:
    """The search screen's state: the box, the ruleset picker, the groups expanded, and the query
    the address bar holds (typing does not change it; a rebuild may restore typed text)."""

    def __init__(self, ctx: AppContext) -> None:
        _ = ctx._
        self.ctx = ctx
        self.url_q = split_route(getattr(ctx.page, "route", None) or "/")[1].get("q", "").strip()
        self.results = ft.Column(spacing=0)
        self.expanded: set[str] = set()
        self.box = ft.TextField(
            label=_("Search"),
            value=ctx.query.get("q", "")[:MAX_QUERY_CHARS],
            # focused on arrival, also when coming back to results: Flutter web only exposes the
            # box's text to screen readers (and browser tests) while it has focus
            autofocus=True,
            prefix_icon=ft.Icons.SEARCH,
            hint_text=_("見せ牌, kuikae, empty call, §2.4"),
            on_change=self.changed,
            on_submit=self.submitted,
            text_size=18,
            border=ft.OutlineInputBorder(border_radius=12),
            key="search-box",
        )
        picker = ft.Dropdown(label=_("Ruleset"), value=ctx.ruleset or ALL_RULESETS, options=ruleset_options(ctx),
                             on_select=self.ruleset_chosen, dense=True, expand=True, key="ruleset-picker")
        # the Semantics wrapper names the picker for screen readers and browser tests, choice included:
        # "Ruleset: All rulesets", "Ruleset: AZRM"
        self.picker_label = ft.Semantics(label=picker_name(ctx), container=True, content=picker, expand=True)
        # the app's name heads the start screen; while a query is typed the results take its
        # place, so that the third ruling still ends on a phone's first screen (412×915)
        self.title = title_bar(_("Riichi Judge Handbook"))
        self.show(self.box.value)

    def view(self) -> ft.View:
        # the installed web app says when it works without the network (handbook.ui.offline)
        offline = offline_badge(self.ctx._)
        return self.ctx.view(route=self.ctx.route, title=self.ctx._("Riichi Judge Handbook"), back=False,
                             header=[ft.Container(self.box, padding=ft.Padding.only(top=6)),
                                     ft.Row([self.picker_label]), *([offline] if offline else [])],
                             controls=[self.results], bar=self.title)

    def show(self, q: str, *, keep_expanded: bool = False) -> None:
        q = q[:MAX_QUERY_CHARS]  # a client may send megabytes: what is searched is bounded
        if not keep_expanded:
            self.expanded.clear()
        self.results.controls = self.found(q) if q.strip() else start_controls(self.ctx)
        self.title.visible = not q.strip()

    def found(self, q: str) -> list[ft.Control]:
        """The results for ``q``: what other rulesets say where the chosen one has nothing, the
        ranked list, the Editions pages that match."""
        ctx, _ = self.ctx, self.ctx._
        hits = ctx.library.search(q, ruleset=ctx.ruleset, limit=RESULT_LIMIT)
        choice = choice_for(ctx.library, q, ctx.ruleset, hits)
        # the candidates of a choice are shown in it, not again in the list under it
        shown = [h for h in hits if (h.kind, h.ruleset, h.ref) not in choice.hits] if choice else hits
        results = ranked_results(ctx.library, q, ctx.ruleset, hits=shown)
        out = (list_controls(ctx, results, self.open_result, expanded=bool(self.expanded), on_expand=self.expand,
                             lead=choice is None)
               if results or choice else [empty_note(_("No results for “{query}”.").format(query=q.strip()))])
        if choice:
            out[0:0] = choice_controls(ctx, choice, self.open_result)
        out.append(what_happened_tile(ctx))
        editions = ctx.library.search_editions(q, ruleset=ctx.ruleset)[:3]
        if editions:
            out += [section_heading(_("Editions")),
                    *[result_tile(ctx, Result("rule", _("Editions of {ruleset}").format(ruleset=ctx.short(rid)),
                                              editions_route(rid), ctx.short(rid), marks=("edition",)),
                                  self.open_result) for rid in editions]]
        others = run_elsewhere(ctx.library, q, ctx.ruleset)
        if others:
            # the chosen tournament first; what it lacks, from the other rulesets, marked as theirs
            out[0:0] = [section_heading(_("Not covered by {ruleset} — what other rulesets say").format(
                ruleset=ctx.short(ctx.ruleset))), *[result_tile(ctx, r, self.open_result) for r in others]]
        return out

    def expand(self, kind: str) -> None:
        self.expanded.add(kind)
        self.show(self.box.value or "", keep_expanded=True)
        refresh(self.results, self.title)

    async def open_result(self, route: str) -> None:
        # remember the query in the history first, so Back returns to these results
        q = (self.box.value or "").strip()
        if q and self.url_q != q:
            await self.record(q)
        self.ctx.navigate(route)

    async def record(self, q: str) -> None:
        self.url_q = q
        await self.ctx.set_url(search_route(q))

    def changed(self, e) -> None:
        self.ctx.remember(q=(e.control.value or "")[:MAX_QUERY_CHARS].strip())
        self.show(e.control.value or "")
        refresh(self.results, self.title)

    async def submitted(self, e) -> None:
        # Enter records the query in the address bar and history; the screen stays as it is
        q = (e.control.value or "").strip()
        if q != self.url_q:
            await self.record(q)

    def ruleset_chosen(self, e) -> None:
        key = e.control.value
        self.ctx.set_ruleset(None if key in (None, ALL_RULESETS) else key)
        self.picker_label.label = picker_name(self.ctx)
        self.show(self.box.value or "")
        refresh(self.results, self.picker_label, self.title)
