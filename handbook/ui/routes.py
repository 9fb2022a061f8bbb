"""The app's one route table, and the contract every view builder follows.

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
- Data comes from ``ctx.library`` (content) and the public ``handbook`` functions; the chosen
  ruleset (tournament) is ``ctx.ruleset`` (``None`` = all rulesets; pick a default then).
- Move with ``ctx.navigate("/tools/chombo")`` (never ``page.go``); ``ctx.back()`` goes up.
- Give every input a ``label`` and every icon button a ``tooltip``: browser tests find controls by
  their accessible names. Touch targets at least 48 px (``handbook.ui.context.TOUCH``).
- Builders must not block or await: they only build controls. Event handlers may be async and may
  call ``ctx.page.update()`` / ``control.update()``; persistent data goes through
  ``handbook.paths.data_dir()`` or ``ft.SharedPreferences()``.
- Keep data logic in plain functions (no flet) so tests can check it without a page.

The calculator and ledger screens and the builders they call (module: function):

==================  ============================================
route               builder
==================  ============================================
/tools              handbook.ui.views.calculators:build_tools
/tools/chombo       handbook.ui.views.calculators:build_chombo
/tools/revealed     handbook.ui.views.calculators:build_revealed
/tools/strikes      handbook.ui.views.calculators:build_strikes
/tools/final        handbook.ui.views.calculators:build_final
/ledger             handbook.ui.views.ledger:build_ledger
/ledger/<player>    handbook.ui.views.ledger:build_player
==================  ============================================
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, quote, unquote, urlsplit

if TYPE_CHECKING:  # pragma: no cover
    import flet as ft

    from handbook.ui.context import AppContext

ViewBuilder = Callable[..., "ft.View"]


@dataclass(frozen=True)
class Route:
    """``pattern`` like ``/rules/<ruleset>/<ref>``; ``target`` "module:function"; ``name`` for
    tests and logs; ``parent`` the route pattern the back arrow goes up to."""

    pattern: str
    target: str
    name: str
    parent: str | None = None

    @property
    def params(self) -> tuple[str, ...]:
        return tuple(re.findall(r"<(\w+)>", self.pattern))

    def regex(self) -> re.Pattern[str]:
        parts = []
        for seg in self.pattern.strip("/").split("/"):
            m = re.fullmatch(r"<(\w+)>", seg)
            parts.append(f"(?P<{m.group(1)}>[^/]+)" if m else re.escape(seg))
        return re.compile("^/" + "/".join(parts) + "$" if parts != [""] else "^/$")

    def builder(self) -> ViewBuilder:
        module, func = self.target.split(":")
        return getattr(importlib.import_module(module), func)


V = "handbook.ui.views."

#: The one route table, most specific first where patterns overlap.
ROUTES: tuple[Route, ...] = (
    Route("/", V + "search:build", "search"),
    Route("/search", V + "search:build", "search", parent="/"),
    Route("/rules", V + "rules:build_index", "rules"),
    Route("/rules/<ruleset>", V + "rules:build_ruleset", "ruleset", parent="/rules"),
    Route("/rules/<ruleset>/editions", V + "rules:build_editions", "editions",
          parent="/rules/<ruleset>"),
    Route("/rules/<ruleset>/<ref>", V + "rules:build_section", "section", parent="/rules/<ruleset>"),
    Route("/penalties", V + "penalties:build_index", "penalties"),
    Route("/penalties/<ruleset>", V + "penalties:build_table", "penalty-table", parent="/penalties"),
    Route("/penalties/<ruleset>/<foul>", V + "penalties:build_foul", "foul",
          parent="/penalties/<ruleset>"),
    Route("/glossary", V + "glossary:build_index", "glossary"),
    Route("/glossary/<term>", V + "glossary:build_term", "term", parent="/glossary"),
    Route("/tools", V + "calculators:build_tools", "tools"),
    Route("/tools/chombo", V + "calculators:build_chombo", "chombo", parent="/tools"),
    Route("/tools/revealed", V + "calculators:build_revealed", "revealed", parent="/tools"),
    Route("/tools/strikes", V + "calculators:build_strikes", "strikes", parent="/tools"),
    Route("/tools/final", V + "calculators:build_final", "final", parent="/tools"),
    Route("/ledger", V + "ledger:build_ledger", "ledger", parent="/tools"),
    Route("/ledger/<player>", V + "ledger:build_player", "player", parent="/ledger"),
    Route("/study", V + "study:build_study", "study", parent="/"),
    Route("/study/progress", V + "study:build_progress", "study-progress", parent="/study"),
    Route("/study/exam", V + "study:build_exam", "exam", parent="/study"),
    Route("/bookmarks", V + "study:build_bookmarks", "bookmarks", parent="/"),
)

NOT_FOUND = Route("/<missing>", V + "common:build_not_found", "not-found", parent="/")

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


def split_route(route: str | None) -> tuple[str, dict[str, str]]:
    """``"/search?q=%E8%A6%8B"`` -> ``("/search", {"q": "見"})``; trailing slashes dropped."""
    parts = urlsplit(route or "/")
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


def term_route(term_id: str) -> str:
    return build_route("term", term=term_id)


def build_view(ctx: "AppContext", route: str | None) -> "ft.View":
    """The :class:`ft.View` for ``route``: parse it, put path and query on ``ctx``, call the
    builder. A builder that raises ``KeyError``/``LookupError`` (unknown ruleset, section, term)
    gives the not-found screen instead."""
    m = match(route)
    ctx.route = m.path
    ctx.query = dict(m.query)
    try:
        return m.route.builder()(ctx, **m.params)
    except LookupError as exc:
        from handbook.ui.views.common import build_not_found

        return build_not_found(ctx, missing=m.path, reason=str(exc))
