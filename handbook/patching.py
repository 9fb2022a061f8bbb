"""Patches as data: edits of files the app does not own (Flet's web client, Pyodide), each a
:class:`Patch` record that says what it changes, why, and when it can go -- applied by one engine
that checks every anchor before it writes anything and reports every mismatch at once.

Used by the PWA build (``tools/pwa/flet_patches.py``: the published web app; ``python -m
tools.pwa verify`` lists each patch as applied or mismatched against an installed Flet) and by
the served app (:mod:`handbook.ui.webclient`: the web client Flet's server sends), which starts
with a warning when a patch that is not :attr:`Patch.essential` no longer matches.

An anchor is a text (found literally) or a compiled regular expression (``str`` or ``bytes``);
it must occur exactly once in the target as the patches before it left it. The replacement is a
text (put in place of the anchor), or a function ``(match, context) -> text`` for replacements
computed from the match or from the build (``context``: values only the build knows, such as the
fonts it kept). ``append`` is added at the end of the target after the replacement.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Replacement = str | bytes | Callable[[re.Match, Mapping[str, Any]], str | bytes] | None

APPLIED = "applied"
MISMATCH = "mismatch"
SKIPPED = "skipped"


@dataclass(frozen=True)
class Patch:
    """One edit of one file: ``target`` (a path relative to the folder patched), ``anchor``
    (exactly once in it), ``replace`` (``None``: the anchor stays as it is: only checked),
    ``append`` (added at the end), ``why`` (the upstream behaviour it works around), ``remove_when``
    (what upstream change makes it unnecessary), ``essential`` (False: the app works without it,
    worse -- the served app then starts with a warning), ``stage`` (when the PWA build applies it)."""

    name: str
    target: str
    anchor: str | bytes | re.Pattern
    replace: Replacement = None
    why: str = ""
    remove_when: str = ""
    append: str = ""
    essential: bool = True
    stage: str = "publish"

    def pattern(self) -> re.Pattern:
        if isinstance(self.anchor, re.Pattern):
            return self.anchor
        return re.compile(re.escape(self.anchor))


@dataclass
class Outcome:
    """What became of one patch: :data:`APPLIED`, :data:`MISMATCH` (``detail`` says how) or
    :data:`SKIPPED` (its target is missing and it is not essential)."""

    patch: Patch
    status: str
    detail: str = ""


class PatchMismatch(Exception):
    """Anchors that no longer match (every one of them, not only the first); nothing was written."""

    def __init__(self, outcomes: Sequence[Outcome]):
        self.outcomes = list(outcomes)
        lines = [f"  {o.patch.target}: {o.patch.name}: {o.detail}" for o in self.outcomes]
        super().__init__(f"{len(lines)} patch(es) no longer match -- has Flet or Pyodide changed?\n"
                         + "\n".join(lines))


def _describe(anchor: str | bytes | re.Pattern) -> str:
    text = anchor.pattern if isinstance(anchor, re.Pattern) else anchor
    if isinstance(text, bytes):
        text = text.decode("ascii", "replace")
    text = " ".join(str(text).split())
    return repr(text if len(text) <= 70 else text[:67] + "...")


def patch_content(content: str | bytes, patches: Iterable[Patch],
                  context: Mapping[str, Any] | None = None) -> tuple[str | bytes, list[Outcome]]:
    """``content`` with ``patches`` applied in turn (all of one target), and each one's outcome.
    A mismatched patch is left out and the rest still tried, so all mismatches are seen."""
    context = context or {}
    outcomes = []
    for patch in patches:
        pattern = patch.pattern()
        if isinstance(content, bytes) != isinstance(pattern.pattern, bytes):
            outcomes.append(Outcome(patch, MISMATCH, "anchor and file differ in kind (text/bytes)"))
            continue
        found = list(pattern.finditer(content))
        if len(found) != 1:
            outcomes.append(Outcome(patch, MISMATCH, f"anchor {_describe(patch.anchor)} found "
                                                     f"{len(found)} times, expected once"))
            continue
        m = found[0]
        if patch.replace is not None:
            new = patch.replace(m, context) if callable(patch.replace) else patch.replace
            content = content[:m.start()] + new + content[m.end():]
        if patch.append:
            content = content + (patch.append.encode() if isinstance(content, bytes) else patch.append)
        outcomes.append(Outcome(patch, APPLIED))
    return content, outcomes


def plan(root: Path, patches: Sequence[Patch], context: Mapping[str, Any] | None = None
         ) -> tuple[dict[str, str | bytes], list[Outcome]]:
    """Apply ``patches`` to the files under ``root`` in memory: (new content by target, outcomes
    in the patches' order). A missing target is a mismatch of each of its patches."""
    contents: dict[str, str | bytes] = {}
    by_patch: dict[int, Outcome] = {}
    targets = list(dict.fromkeys(p.target for p in patches))
    for target in targets:
        mine = [p for p in patches if p.target == target]
        path = root / target
        if not path.is_file():
            for p in mine:
                by_patch[id(p)] = Outcome(p, MISMATCH, f"{target} is missing")
            continue
        binary = isinstance(mine[0].pattern().pattern, bytes)
        original = path.read_bytes() if binary else path.read_text(encoding="utf-8")
        contents[target], outcomes = patch_content(original, mine, context)
        by_patch.update({id(o.patch): o for o in outcomes})
    return contents, [by_patch[id(p)] for p in patches]


def apply_patches(root: Path, patches: Sequence[Patch], context: Mapping[str, Any] | None = None
                  ) -> list[Outcome]:
    """Apply ``patches`` to the files under ``root``: every anchor is checked first; when any
    fails, :class:`PatchMismatch` lists them all and no file is written."""
    contents, outcomes = plan(root, patches, context)
    bad = [o for o in outcomes if o.status != APPLIED]
    if bad:
        raise PatchMismatch(bad)
    for target, content in contents.items():
        path = root / target
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return outcomes


@dataclass
class Lenient:
    """The served app's way: essential mismatches raise, the others are reported in ``warnings``
    and their patch left out."""

    warnings: list[str] = field(default_factory=list)

    def patch(self, content: str | bytes, patches: Sequence[Patch],
              context: Mapping[str, Any] | None = None) -> str | bytes:
        new, outcomes = patch_content(content, patches, context)
        bad = [o for o in outcomes if o.status == MISMATCH]
        essential = [o for o in bad if o.patch.essential]
        if essential:
            raise PatchMismatch(essential)
        if not bad:
            return new
        self.warnings += [f"{o.patch.target}: {o.patch.name} not applied ({o.detail}); {o.patch.why}"
                          for o in bad]
        good = [o.patch for o in outcomes if o.status == APPLIED]
        return patch_content(content, good, context)[0]


def report(outcomes: Sequence[Outcome]) -> str:
    """One line per patch: status, target, name (and what did not match)."""
    width = max((len(o.patch.target) for o in outcomes), default=0)
    return "\n".join(f"{o.status:<9} {o.patch.target:<{width}}  {o.patch.name}"
                     + (f"\n          {o.detail}" if o.detail else "") for o in outcomes)
