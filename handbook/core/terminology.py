"""The terminology table (``content/terminology.toml``): the one Japanese word the screens use for
each concept (Warning → 注意, the AZRM glossary first), words to avoid, and the source of each
choice. Pure Python: this module imports neither flet nor tinydb.

:func:`load_terminology` reads and validates the table; :func:`problems` lists where a translation
breaks it (``(english, japanese, message)``), for the catalog check and the content check.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from handbook.paths import CONTENT_DIR

_KEYS = {"id", "english", "japanese", "forms", "avoid", "source", "note", "glossary"}


@dataclass(frozen=True, slots=True)
class Choice:
    """One concept: ``english`` the words naming it in English text; ``japanese`` the word used
    (``forms`` other accepted forms); ``avoid`` words that must not stand for it; ``source``
    where the choice comes from; ``glossary`` the glossary term id that carries the word."""

    id: str
    english: tuple[str, ...]
    japanese: str
    source: str
    forms: tuple[str, ...] = ()
    avoid: tuple[str, ...] = ()
    note: str | None = None
    glossary: str | None = None

    def named_in(self, english: str) -> bool:
        """Whether ``english`` names this concept (one of ``english`` as whole words)."""
        return any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", english) for w in self.english)

    def problem(self, english: str, japanese: str) -> str | None:
        """What is wrong with ``japanese`` as the translation of ``english``, or ``None``."""
        if not self.named_in(english):
            return None
        bad = [w for w in self.avoid if w in japanese]
        if bad:
            return f"uses {bad[0]} for {self.id} (the table says {self.japanese}: {self.note or self.source})"
        if not any(w in japanese for w in (self.japanese, *self.forms)):
            return f"does not use {self.japanese} for {self.id} ({self.source})"
        return None


def load_terminology(path: str | Path | None = None) -> tuple[Choice, ...]:
    """The table at ``path`` (default ``content/terminology.toml``). Raises ``ValueError`` naming
    the file, the entry and the problem for an unknown or missing key or a duplicate id."""
    path = Path(path) if path is not None else CONTENT_DIR / "terminology.toml"
    with open(path, "rb") as fh:
        doc = tomllib.load(fh)
    out: list[Choice] = []
    seen: set[str] = set()
    for i, t in enumerate(doc.get("term", [])):
        where = f"{path.name} [{t.get('id', i + 1)}]"
        unknown = set(t) - _KEYS
        missing = {"id", "english", "japanese", "source"} - set(t)
        if unknown or missing:
            raise ValueError(f"{where}: unknown keys {sorted(unknown)}, missing keys {sorted(missing)}")
        if t["id"] in seen:
            raise ValueError(f"{where}: this id appears twice")
        seen.add(t["id"])
        out.append(Choice(t["id"], tuple(t["english"]), t["japanese"], t["source"], tuple(t.get("forms", ())),
                          tuple(t.get("avoid", ())), t.get("note"), t.get("glossary")))
    return tuple(out)


def problems(pairs, table: tuple[Choice, ...] | None = None) -> list[tuple[str, str, str]]:
    """``(english, japanese, problem)`` for every pair of ``pairs`` (``(english, japanese)``) whose
    Japanese breaks the table."""
    table = load_terminology() if table is None else table
    out = []
    for en, ja in pairs:
        for c in table:
            p = c.problem(en, ja)
            if p:
                out.append((en, ja, p))
    return out


__all__ = ["Choice", "load_terminology", "problems"]
