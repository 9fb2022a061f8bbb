"""Rule text as blocks (paragraphs, list items) and spans (plain text and § links). No flet here.

The content's conventions (content/README.md): paragraphs are separated by one blank line; list
items start with ``- `` (nested with two more spaces) or ``1. ``; ``§4.1`` names a section of the
same ruleset. Glossary texts also name sections as ``AZRM 2.3`` or ``EMA RCR 3.4.6, 3.4.8``: those
become links to that ruleset when the section exists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from handbook.core.model import Library
from handbook.i18n import N_

BlockKind = Literal["para", "bullet", "number"]

_BULLET = re.compile(r"^(?P<indent> *)- (?P<text>.*)$")
_NUMBER = re.compile(r"^(?P<indent> *)(?P<marker>\d+[.)]) (?P<text>.*)$")
_REF = r"\d+(?:\.\d+)*"


@dataclass(frozen=True)
class Block:
    """A paragraph or a list item; ``level`` counts list nesting (0 = top), ``marker`` is the
    number of a numbered item ("1.")."""

    kind: BlockKind
    text: str
    level: int = 0
    marker: str = ""


@dataclass(frozen=True)
class Segment:
    """A run of text; a link when ``ref`` is set (``ruleset``'s section ``ref``)."""

    text: str
    ruleset: str | None = None
    ref: str | None = None

    @property
    def is_link(self) -> bool:
        return self.ref is not None

    @property
    def route(self) -> str | None:
        if self.ref is None:
            return None
        from handbook.ui.routes import section_route

        return section_route(self.ruleset or "", self.ref)


def blocks(text: str) -> list[Block]:
    """Split rule text into paragraphs and list items, in order.

    Lines of a paragraph are joined with a space; a non-blank line after a list item that is not
    itself an item continues that item.
    """
    out: list[Block] = []
    para: list[str] = []
    last_item: Block | None = None

    def flush() -> None:
        nonlocal para
        if para:
            out.append(Block("para", " ".join(p.strip() for p in para)))
            para = []

    for line in (text or "").splitlines():
        if not line.strip():
            flush()
            last_item = None
            continue
        m = _BULLET.match(line)
        n = None if m else _NUMBER.match(line)
        if m or n:
            flush()
            mm = m or n
            assert mm is not None
            level = len(mm.group("indent")) // 2
            block = Block("bullet" if m else "number", mm.group("text").strip(), level,
                          n.group("marker") if n else "")
            out.append(block)
            last_item = block
            continue
        if last_item is not None:
            merged = Block(last_item.kind, f"{last_item.text} {line.strip()}", last_item.level,
                           last_item.marker)
            out[-1] = merged
            last_item = merged
            continue
        para.append(line)
    flush()
    return out


def _short_names(library: Library | None) -> Mapping[str, str]:
    """Short names as they appear in running text ("AZRM", "EMA RCR") -> ruleset id."""
    if library is None:
        return {}
    names: dict[str, str] = {}
    for rs in library.rulesets.values():
        if rs.sections:
            names[rs.short] = rs.id
    return names


def segments(text: str, *, ruleset: str | None, library: Library | None = None) -> list[Segment]:
    """``text`` as plain runs and links.

    ``§4.1`` links to section 4.1 of ``ruleset``; with a ``library``, ``AZRM 2.3`` and
    ``EMA RCR 3.3, 3.3.1`` link to those rulesets. A reference becomes a link only when the
    section exists (with a ``library``) — otherwise it stays plain text.
    """
    names = _short_names(library)
    alts = [re.escape(n) for n in sorted(names, key=len, reverse=True)]
    qualified = (rf"(?P<rs>{'|'.join(alts)})\s+§?\s?(?P<qref>{_REF})"
                 rf"(?P<more>(?:\s*(?:,|and)\s*§?{_REF})*)") if alts else None
    section = rf"§\s?(?P<sref>{_REF})"
    pattern = re.compile(f"{qualified}|{section}" if qualified else section)

    def exists(rs_id: str | None, ref: str) -> bool:
        if rs_id is None:
            return False
        if library is None:
            return True
        rs = library.rulesets.get(rs_id)
        return bool(rs and rs.has_section(ref))

    out: list[Segment] = []
    pos = 0

    def plain(s: str) -> None:
        if s:
            if out and not out[-1].is_link:
                out[-1] = Segment(out[-1].text + s)
            else:
                out.append(Segment(s))

    for m in pattern.finditer(text or ""):
        plain(text[pos:m.start()])
        pos = m.end()
        if m.groupdict().get("sref"):
            ref = m.group("sref")
            if exists(ruleset, ref):
                out.append(Segment(m.group(0), ruleset, ref))
            else:
                plain(m.group(0))
            continue
        rs_id = names[m.group("rs")]
        # the ruleset name plus the first reference form one link ("AZRM 2.3")
        first_end = m.end("qref")
        ref = m.group("qref")
        if exists(rs_id, ref):
            out.append(Segment(text[m.start():first_end], rs_id, ref))
        else:
            plain(text[m.start():first_end])
        rest = m.group("more") or ""
        base = first_end
        for mm in re.finditer(rf"§?{_REF}", rest):
            plain(text[base:first_end + mm.start()])
            r = mm.group(0).lstrip("§")
            if exists(rs_id, r):
                out.append(Segment(mm.group(0), rs_id, r))
            else:
                plain(mm.group(0))
            base = first_end + mm.end()
        plain(text[base:m.end()])
    plain(text[pos:] if text else "")
    return out


def section_links(text: str, *, ruleset: str, library: Library | None = None) -> list[str]:
    """The distinct section refs ``text`` links to within ``ruleset``, in order of appearance."""
    seen: list[str] = []
    for s in segments(text, ruleset=ruleset, library=library):
        if s.is_link and s.ruleset == ruleset and s.ref not in seen:
            seen.append(s.ref)  # type: ignore[arg-type]
    return seen


_REF_NUMBER = re.compile(r"(?<![\w.§])(\d+(?:\.\d+)+|\d+(?= \())")


def ref_label(ref: str | None) -> str:
    """A reference as a screen shows it: "§" only before a section number.

    "2.4" -> "§2.4"; the source's suffix stays ("12.3.1 (2)" -> "§12.3.1 (2)"); a ref that names
    another row rather than a section keeps its words ("Wrongly revealing tiles" stays as it is,
    "Regular penalty 12.3.8 (2)" -> "Regular penalty §12.3.8 (2)", "12.3.6 (7), 9.2" ->
    "§12.3.6 (7), §9.2"). "" for none.
    """
    if not ref:
        return ""
    ref = ref.strip()
    if re.fullmatch(_REF, ref):
        return f"§{ref}"
    return _REF_NUMBER.sub(lambda m: f"§{m.group(1)}", ref)


_OUTCOME_SPLIT = re.compile(r"\s*;\s*|\s+(?=\d+(?:-\d+|\+) tiles:)")


def outcome_lines(text: str | None) -> list[str]:
    """A penalty cell as one outcome a line: the source separates outcomes with " ; " or runs
    them together by circumstance ("1-2 tiles: Warning / 5P pp 3-6 tiles: Dead hand 7+ tiles:
    Chonbo 30P" -> three lines). The words stay the source's; a cell with one outcome is one line."""
    if not text:
        return []
    return [p for p in (x.strip() for x in _OUTCOME_SPLIT.split(text)) if p]


def leading_ref(ref: str | None) -> str | None:
    """The section number a penalty-row ref starts with: "12.3.1 (2)" -> "12.3.1"."""
    if not ref:
        return None
    m = re.match(_REF, ref.strip().lstrip("§"))
    return m.group(0) if m else None


# The sources' penalty shorthand (see the source documents' README): each entry explains one
# abbreviation where a cell shows it. The English strings go through gettext at the screen.
SHORTHAND: tuple[tuple[str, str], ...] = (
    (r"\bpp\b", N_("pp: point penalty (points taken from the offender's score)")),
    (r"\b\d+P\b", N_("{n}P: {n} points, 1P = 1,000 table points, taken from the offender's final, tournament "
                     "or season score")),
    (r"\bChonbo\b", N_("Chonbo: the EMA/WRC spelling of chombo")),
    (r"^\(.*\)$", N_("(…): in parentheses as the source prints it")),
)


def shorthand_notes(text: str | None) -> list[tuple[str, dict[str, str]]]:
    """The sources' shorthand a penalty cell uses, each as ``(English message, its fields)``:
    "20P pp" -> the notes for "NP" (``{"n": "20"}``) and "pp"; "(Chonbo 30P)" -> parentheses,
    Chonbo and 30P. Each kind once, in :data:`SHORTHAND` order."""
    out: list[tuple[str, dict[str, str]]] = []
    if not text:
        return out
    for line in outcome_lines(text):
        for pattern, message in SHORTHAND:
            m = re.search(pattern, line)
            if not m:
                continue
            fields = {"n": m.group(0)[:-1]} if "{n}" in message else {}
            if (message, fields) not in out:
                out.append((message, fields))
    return out
