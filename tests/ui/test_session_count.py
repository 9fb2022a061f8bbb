"""The session count HallGuard's caps read comes down when Flet deletes a session (issue 46).

Two repairs of handbook.ui.serving wrap ``FletAppManager.delete_session`` (the count, and the
memory handed back); the count's wrapper was once refused because the other was there first, so
every session ever made counted against its address for good (the 41st from one address, over
the server's whole life, was refused: found by tests/bench/test_memory_bench.py's waves)."""

from __future__ import annotations

import asyncio

from handbook.ui import serving


class _Session:
    def close(self) -> None:
        pass


def test_a_deleted_session_no_longer_counts():
    from flet_web.fastapi.flet_app_manager import FletAppManager

    assert serving.install()
    assert serving.install()   # idempotent: each repair once
    manager = FletAppManager()
    before, _ = serving.session_counts()

    async def go() -> tuple[int, int]:
        for i in range(3):
            await manager.add_session(f"test-session-{i}", _Session())
        made, _ = serving.session_counts()
        for i in range(3):
            await manager.delete_session(f"test-session-{i}")
        return made, serving.session_counts()[0]

    made, after = asyncio.run(go())
    assert made == before + 3
    assert after == before, "deleted sessions still count against the caps"
