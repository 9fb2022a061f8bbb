"""Provenance check: a glossary definition marked as the source's words is found, word for word,
in that ruleset's source document.

The source documents are not shipped with the app (it never needs them at run time); this check
runs where they are available: ``python -m handbook check --sources DIR`` (or the environment
variable ``HANDBOOK_SOURCES``), and the content tests. Pure Python, no flet, no tinydb.
"""

from __future__ import annotations

import os
from pathlib import Path

from handbook.core.load import Problem
from handbook.core.model import Library


def _flat(text: str) -> str:
    """``text`` with every run of whitespace as one space (the sources are PDF extractions whose
    line breaks and tabs are layout, not words)."""
    return " ".join(text.split())


def source_files(library: Library, ruleset: str) -> tuple[str, ...]:
    """The file names of ``ruleset``'s source documents (``Ruleset.source``, comma-separated)."""
    return tuple(x.strip() for x in library.rulesets[ruleset].source.split(",") if x.strip())


def verify_sources(library: Library, sources_dir: str | os.PathLike) -> list[Problem]:
    """Every term with ``provenance == "source"``: its ``definition`` and its English ``term`` must
    occur word for word (whitespace aside) in one source document of ``Term.source``.

    Returns the problems found (``HB044``; ``HB001`` for a source document that cannot be read),
    an empty list when every source definition is found. Raises ``ValueError`` naming
    ``sources_dir`` when it is not a folder.
    """
    root = Path(sources_dir)
    if not root.is_dir():
        raise ValueError(f"sources_dir: {str(root)!r} is not a folder of source documents")
    cache: dict[str, str | None] = {}
    problems: list[Problem] = []

    def text_of(name: str) -> str | None:
        if name not in cache:
            try:
                cache[name] = _flat((root / name).read_text(encoding="utf-8"))
            except OSError as exc:
                cache[name] = None
                problems.append(Problem("HB001", str(root / name), "",
                                        f"cannot read the source document: {exc.strerror or exc}"))
        return cache[name]

    for t in library.glossary:
        if t.provenance != "source" or not t.source or t.source not in library.rulesets:
            continue
        texts = [x for x in (text_of(n) for n in source_files(library, t.source)) if x is not None]
        if not texts:
            continue
        definition = _flat(t.definition)
        if not any(definition in x for x in texts):
            problems.append(Problem("HB044", "glossary.toml", t.id,
                                    f"the definition is marked as the words of {t.source} but is not "
                                    f"found word for word in {', '.join(source_files(library, t.source))}"))
        elif not any(_flat(t.term) in x for x in texts):
            problems.append(Problem("HB044", "glossary.toml", t.id,
                                    f"the term {t.term!r} is not found in the {t.source} source"))
    return problems


__all__ = ["source_files", "verify_sources"]
