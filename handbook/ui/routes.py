"""The app's one route table: every screen's path, name and parent (where the back arrow goes up
to), plus the helpers that parse and build paths. Pure Python: no flet, no screens.

A new screen touches three places: a :class:`Route` here (with its ``gate``: whether it shows the
judge's data, see below), its builder in
:data:`handbook.ui.screens.BUILDERS`, and the builder itself in a module under
``handbook/ui/views/`` (``make i18n`` then refreshes the message template). Everything else — the
web server's list of app paths, the navigation bar's sections, the tests that open every screen —
is derived from :data:`ROUTES`.

VIEW-BUILDER CONTRACT
=====================

A screen is a plain function in a module under ``handbook/ui/views/``::

    import flet as ft
    from handbook.ui.context import AppContext

    def build(ctx: AppContext, **params: str) -> ft.View:
        _ = ctx._                                  # gettext: wrap EVERY visible string
        return ctx.view(                           # the standard chrome: AppBar, theme switch,
            route=ctx.route,                       #   back arrow, navigation bar / rail
            title=_("Chombo"),
            controls=[...],                        # scrolls; use header=[...] for fixed controls
        )

- ``params`` are the route's placeholders, already URL-decoded strings (``/ledger/<player>`` calls
  ``build(ctx, player="Alice")``). Query parameters are in ``ctx.query``.
- Data comes from ``ctx.library`` (content), ``ctx.stores`` (the ledger and the study store) and
  the public ``handbook`` functions; the chosen ruleset (tournament) is ``ctx.ruleset`` (``None`` =
  all rulesets; pick a default then).
- Move with ``ctx.navigate("/tools/chombo")`` (never ``page.go``); ``ctx.back()`` goes up.
- Give every input a ``label`` and every icon button a ``tooltip``: browser tests find controls by
  their accessible names. Touch targets at least 48 px (``handbook.ui.context.TOUCH``).
- Builders must not block or await: they only build controls. Event handlers may be async and may
  call ``ctx.page.update()`` / ``control.update()``.
- A view module imports no other view module: shared pieces live in ``handbook.ui.widgets``
  (an import-linter contract in pyproject.toml keeps it so).
- Keep data logic in plain functions (no flet) so tests can check it without a page.

THE JUDGE GATE
==============

Every route says whether it shows the judge's data — the ledger, or study progress, bookmarks
and recent lookups (:mod:`handbook.access`) — in its ``gate``:

- :data:`OPEN`: nothing of it (rules, penalties, glossary, calculators, the exam);
- :data:`JUDGE`: the screen *is* the judge's data: a session that has not given the passphrase
  (on a served app with a gate) gets the passphrase screen instead of the builder
  (:func:`handbook.ui.screens.build_view` decides, once, for every route);
- :data:`JUDGE_PARTS`: an open screen with parts only the judge sees (the search page's recent
  lookups, an entry's bookmark star, the strike calculator's ledger player): the stores hand
  that data to a judged session only (:class:`handbook.ui.stores.Stores`).

Screens never check the gate themselves. ``tests/ui/test_route_gate.py`` opens every route with
ledger and study data on record and fails when a route that reads it is declared :data:`OPEN`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, quote, unquote, urlencode, urlsplit


#: a route's ``gate`` (see THE JUDGE GATE above)
OPEN, JUDGE, JUDGE_PARTS = "open", "judge", "judge-parts"
GATES = (OPEN, JUDGE, JUDGE_PARTS)


@dataclass(frozen=True)
class Route:
    """``pattern`` like ``/rules/<ruleset>/<ref>``; ``name`` for the builder table, tests and
    logs; ``parent`` the route pattern the back arrow goes up to (``None``: a navigation bar
    section); ``example`` a path that opens this screen on the shipped content (tests open every
    screen with it; default: the pattern itself, for a route without placeholders); ``gate``
    whether it shows the judge's data (:data:`OPEN`, :data:`JUDGE`, :data:`JUDGE_PARTS`).
    ``ValueError`` for another ``gate``."""

    pattern: str
    name: str
    parent: str | None = None
    example: str | None = None
    gate: str = OPEN

    def __post_init__(self) -> None:
        if self.gate not in GATES:
            raise ValueError(f"route {self.pattern}: gate must be one of {', '.join(GATES)}, "
                             f"got {self.gate!r}")

    @property
    def needs_judge(self) -> bool:
        """Whether the whole screen is the judge's (the passphrase screen is shown instead)."""
        return self.gate == JUDGE

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(re.findall(r"<(\w+)>", self.pattern))

    @property
    def sample(self) -> str:
        """A path that opens this screen (``example``, or the pattern when it has no placeholders)."""
        return self.example or self.pattern

    def regex(self) -> re.Pattern[str]:
        parts = []
        for seg in self.pattern.strip("/").split("/"):
            m = re.fullmatch(r"<(\w+)>", seg)
            parts.append(f"(?P<{m.group(1)}>[^/]+)" if m else re.escape(seg))
        return re.compile("^/" + "/".join(parts) + "$" if parts != [""] else "^/$")


#: The one route table, most specific first where patterns overlap.
ROUTES: tuple[Route, ...] = (
    Route("/", "search", gate=JUDGE_PARTS),
    Route("/search", "search", parent="/", example="/search?q=%E8%A6%8B%E3%81%9B%E7%89%8C",
          gate=JUDGE_PARTS),
    Route("/what-happened", "what-happened", parent="/"),
    Route("/what-happened/<category>", "what-happened-category", parent="/what-happened",
          example="/what-happened/calls"),
    Route("/rules", "rules"),
    Route("/rules/<ruleset>", "ruleset", parent="/rules", example="/rules/azrm"),
    Route("/rules/<ruleset>/editions", "editions", parent="/rules/<ruleset>", example="/rules/ema-rcr/editions"),
    Route("/rules/<ruleset>/<ref>", "section", parent="/rules/<ruleset>", example="/rules/azrm/2.4",
          gate=JUDGE_PARTS),
    Route("/penalties", "penalties"),
    Route("/penalties/<ruleset>", "penalty-table", parent="/penalties", example="/penalties/wrc-2025"),
    Route("/penalties/<ruleset>/<foul>", "foul", parent="/penalties/<ruleset>",
          example="/penalties/wrc-2025/revealed-tiles", gate=JUDGE_PARTS),
    Route("/glossary", "glossary"),
    Route("/glossary/<term>", "term", parent="/glossary", example="/glossary/misehai", gate=JUDGE_PARTS),
    Route("/tools", "tools"),
    Route("/tools/chombo", "chombo", parent="/tools"),
    Route("/tools/revealed", "revealed", parent="/tools"),
    Route("/tools/strikes", "strikes", parent="/tools", gate=JUDGE_PARTS),
    Route("/tools/final", "final", parent="/tools", gate=JUDGE_PARTS),
    Route("/tools/hand", "hand", parent="/tools",
          example="/tools/hand?ruleset=wrc-2025&hand=234567m22p345s678s&win=8s&riichi=1&seat=W&discarder=S"),
    Route("/tools/yaku", "yaku-list", parent="/tools", example="/tools/yaku?ruleset=wrc-2025"),
    Route("/tools/yaku/<yaku>", "yaku", parent="/tools/yaku", example="/tools/yaku/Sanshoku?ruleset=ema-rcr"),
    Route("/tools/payments", "payments", parent="/tools", example="/tools/payments?ruleset=wrc-2025&han=3&fu=30"),
    Route("/ledger", "ledger", parent="/tools", gate=JUDGE),
    Route("/incidents", "incidents", parent="/ledger", gate=JUDGE),
    Route("/record", "record", parent="/ledger", example="/record?ruleset=azrm&row=9&q=showed%20four%20tiles",
          gate=JUDGE),
    Route("/ledger/<player>", "player", parent="/ledger", example="/ledger/Ann%C3%A9%20Smith", gate=JUDGE),
    Route("/study", "study", parent="/", gate=JUDGE),
    Route("/study/progress", "study-progress", parent="/study", gate=JUDGE),
    Route("/study/exam", "exam", parent="/study"),
    Route("/bookmarks", "bookmarks", parent="/", gate=JUDGE),
)

NOT_FOUND = Route("/<missing>", "not-found", parent="/", example="/no/such/page")

#: first path segments of the app's own routes: the web server answers any path under them with
#: the app (a deep link ``/rules/azrm/2.4`` is a screen, not a file with the extension ".4")
APP_ROUTE_ROOTS = frozenset(r.pattern.strip("/").split("/", 1)[0] for r in ROUTES if r.pattern != "/")

_COMPILED = [(r, r.regex()) for r in ROUTES]


@dataclass(frozen=True)
class Match:
    """A parsed route: which :class:`Route`, its decoded ``params`` and the ``query``."""

    route: Route
    path: str
    params: Mapping[str, str]
    query: Mapping[str, str]

    @property
    def name(self) -> str:
        return self.route.name


#: the longest route the app reads (characters): what a client sends beyond it is cut off before
#: it is parsed or searched (a 4 MB query in the address bar stalled every session for seconds)
MAX_ROUTE_CHARS = 2048


def split_route(route: str | None) -> tuple[str, dict[str, str]]:
    """``"/search?q=%E8%A6%8B"`` -> ``("/search", {"q": "見"})``; trailing slashes dropped. A
    route that is not text is ``"/"``; one longer than :data:`MAX_ROUTE_CHARS` is cut there."""
    if not isinstance(route, str):
        route = "/"
    parts = urlsplit(route[:MAX_ROUTE_CHARS] or "/")
    path = parts.path or "/"
    if not path.startswith("/"):
        path = "/" + path
    if len(path) > 1:
        path = path.rstrip("/") or "/"
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    return path, query


def match(route: str | None) -> Match:
    """Parse ``route`` against :data:`ROUTES`; unknown paths match :data:`NOT_FOUND`."""
    path, query = split_route(route)
    for r, rx in _COMPILED:
        m = rx.match(path)
        if m:
            params = {k: unquote(v) for k, v in m.groupdict().items()}
            return Match(r, path, params, query)
    return Match(NOT_FOUND, path, {"missing": path}, query)


def parent_route(route: str | None) -> str | None:
    """Where the back arrow of ``route`` goes: ``/rules/azrm/2.4`` -> ``/rules/azrm``."""
    m = match(route)
    parent = m.route.parent
    if parent is None:
        return None
    out = parent
    for k, v in m.params.items():
        out = out.replace(f"<{k}>", quote(v, safe=""))
    return out


_BY_PATTERN = {r.pattern: r for r in (*ROUTES, NOT_FOUND)}


def section_root(route: str | None) -> str:
    """The navigation bar section ``route`` belongs to: the top of its chain of parents
    (``/ledger/Bob`` -> ``/ledger`` -> ``/tools``; ``/study`` and unknown paths -> ``/``)."""
    r = match(route).route
    while r.parent is not None:
        r = _BY_PATTERN[r.parent]
    return r.pattern


def build_route(pattern_or_name: str, **params: Any) -> str:
    """The path for a route pattern or name with ``params`` filled in (URL-encoded)."""
    pattern = next((r.pattern for r in ROUTES if r.name == pattern_or_name), pattern_or_name)
    out = pattern
    for k, v in params.items():
        out = out.replace(f"<{k}>", quote(str(v), safe=""))
    if "<" in out:
        raise ValueError(f"route {pattern_or_name!r}: missing parameter in {out!r}")
    return out


def search_route(query: str) -> str:
    """``/search?q=…`` for a query (``/`` when empty)."""
    q = query.strip()
    return f"/search?q={quote(q, safe='')}" if q else "/"


def section_route(ruleset: str, ref: str) -> str:
    return build_route("section", ruleset=ruleset, ref=ref)


def editions_route(ruleset: str) -> str:
    return build_route("editions", ruleset=ruleset)


def penalty_route(ruleset: str, foul: str | None = None) -> str:
    if foul is None:
        return build_route("penalty-table", ruleset=ruleset)
    return build_route("foul", ruleset=ruleset, foul=foul)


def yaku_list_route(ruleset: str) -> str:
    """``/tools/yaku?ruleset=…``: the yaku of one ruleset."""
    return "/tools/yaku?" + urlencode({"ruleset": ruleset})


def yaku_route(yaku: str, ruleset: str) -> str:
    """``/tools/yaku/<id>?ruleset=…``: one yaku (``id`` the ``mahjong`` package's class name)."""
    return build_route("yaku", yaku=yaku) + "?" + urlencode({"ruleset": ruleset})


def payments_route(ruleset: str, han: int | None = None, fu: int | None = None) -> str:
    """``/tools/payments?ruleset=…&han=…&fu=…``: the payment table, the cell ``han``/``fu`` marked."""
    q = {"ruleset": ruleset}
    if han:
        q["han"] = str(han)
    if fu:
        q["fu"] = str(fu)
    return "/tools/payments?" + urlencode(q)


def record_route(ruleset: str, row: int, *, q: str = "", strike: bool | None = None,
                 points: int | None = None) -> str:
    """``/record?ruleset=…&row=…``: the record form filled from penalty row ``row`` (its
    :attr:`~handbook.core.model.PenaltyRow.index`) of ``ruleset``; ``q`` the start of the reason
    (the search query, the calculator's input), ``strike`` the calculator's answer where the row
    leaves the Strike to the judge, ``points`` (P) a calculator's number for a row without one."""
    query: dict[str, str] = {"ruleset": ruleset, "row": str(row)}
    if q.strip():
        query["q"] = q.strip()[:200]
    if strike is not None:
        query["strike"] = "yes" if strike else "no"
    if points is not None:
        query["points"] = str(points)
    return "/record?" + urlencode(query)


def chombo_record_route(ruleset: str, *, q: str = "") -> str:
    """``/record?ruleset=…&chombo=usual``: "Record this ruling" for the usual chombo, which is no
    one row of the penalty table: the judge picks which of ``ruleset``'s chombo rows it was
    (:func:`handbook.chombo_fouls`), then gets the form of that row; ``q`` the start of the reason."""
    query: dict[str, str] = {"ruleset": ruleset, "chombo": "usual"}
    if q.strip():
        query["q"] = q.strip()[:200]
    return "/record?" + urlencode(query)


def term_route(term_id: str) -> str:
    return build_route("term", term=term_id)
