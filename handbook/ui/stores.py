"""The per-user data an app works on — the ledger and the study store — opened on first use and
handed to every screen through ``ctx.stores`` (no module globals).

One :class:`Stores` is made by the app factory (:func:`handbook.ui.app.create_app`) and shared
by the sessions of that app: in ``serve`` mode every tab works on the one data folder of the
server, in the browser build on the browser's SharedPreferences. Tests pass their own.

Both are the judge's data: a :class:`Stores` hands them only to a session that may see them
(``ctx.judged``: no gate is active, or the session gave the judge passphrase; see
:mod:`handbook.access`). Every screen gets them through :meth:`Stores.ledger_for`,
:meth:`Stores.study_for` or (the search page's recent lookups, an entry's star)
:meth:`Stores.may_read` first — so an open screen's private parts stay empty for players.
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import flet as ft

from handbook.core.model import Library
from handbook.storage import is_web, open_app_db, open_db, open_prefs_db
from handbook.study.store import PREFS_KEY, StudyStore, open_study_db

if TYPE_CHECKING:  # imported when the ledger is first opened: the first screen has no ledger
    from handbook.ledger import Ledger


class Stores:
    """The app's :class:`~handbook.ledger.Ledger` and :class:`~handbook.study.store.StudyStore`.

    ``ledger`` / ``study`` may be given (tests; a data folder chosen at start-up); otherwise each
    is opened on first use: the JSON file in the data folder, or SharedPreferences in the browser
    build, where opening is async — :meth:`ledger_for` and :meth:`study_for` then return ``None``
    and call ``ctx.refresh()`` once it is open."""

    def __init__(self, library: Library, *, ledger: Ledger | None = None, study: StudyStore | None = None):
        self.library = library
        self.ledger = ledger
        self.study = study
        self._lock = threading.Lock()

    @staticmethod
    def may_read(ctx: Any) -> bool:
        """Whether the session of ``ctx`` may be handed the ledger and the study store."""
        return bool(ctx.judged)

    # --------------------------------------------------------------------- the ledger
    def ledger_for(self, ctx: Any) -> Ledger | None:
        """The ledger, opening it in the data folder on first use; ``None`` for a session that
        may not see it (:meth:`may_read`) and while the browser build is still loading it
        (``ctx.refresh()`` follows)."""
        from handbook.ledger import Ledger

        return self._now(ctx, "ledger", lambda: Ledger(open_db(), self.library), self.open_ledger)

    async def open_ledger(self, page: Any = None) -> Ledger:
        """The ledger, opened (SharedPreferences in the browser build) if it is not yet."""
        from handbook.ledger import Ledger

        if self.ledger is None:
            db = await open_app_db(page)
            if self.ledger is None:
                self.ledger = Ledger(db, self.library)
        return self.ledger

    # --------------------------------------------------------------------- the study store
    def study_for(self, ctx: Any) -> StudyStore | None:
        """The study store, opening it in the data folder on first use; ``None`` for a session
        that may not see it (:meth:`may_read`) and while the browser build is still loading it
        (``ctx.refresh()`` follows)."""
        return self._now(ctx, "study", lambda: StudyStore(open_study_db(), self.library), self.open_study)

    async def open_study(self, page: Any = None) -> StudyStore:
        """The study store, opened (SharedPreferences in the browser build) if it is not yet."""
        if self.study is None:
            if is_web():
                db = await open_prefs_db(ft.SharedPreferences(), page.run_task, PREFS_KEY)
            else:
                db = open_study_db()
            if self.study is None:
                self.study = StudyStore(db, self.library)
        return self.study

    def _now(self, ctx: Any, name: str, make: Callable[[], Any],
             opening: Callable[[Any], Awaitable[Any]]) -> Any:
        """The store ``name``: made at once by ``make`` (a file in the data folder), or, in the
        browser build, opened by ``opening(page)`` in a task (``None`` now, ``ctx.refresh()`` then);
        ``None`` for a session that may not see it."""
        if not self.may_read(ctx):
            return None
        if getattr(self, name) is not None or not is_web():
            with self._lock:
                if getattr(self, name) is None:
                    setattr(self, name, make())
            return getattr(self, name)

        async def run() -> None:
            await opening(ctx.page)
            ctx.refresh()

        ctx.page.run_task(run)
        return None
