"""Parsers for the source documents in ``../shared/seeds`` (see its README), used by the content tests
(through the fixtures of ``conftest.py``) to compare the TOML with the sources programmatically."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

AZRM_FILE = "000_bc6b2cad94d87a93.txt"
EMA_RULES_FILES = ("004_8a64e1e87cf6ece1.txt", "001_1ec3b385faa21f3e.txt")
EMA_TABLE_FILE = "002_ada199b6fc1e124d.txt"
WRC_FILE = "003_44b6687a59e4be07.txt"


def read(seeds: Path, name: str) -> str:
    return (seeds / name).read_text(encoding="utf-8")


def norm_ws(text: str) -> str:
    return " ".join(text.split())


def words(text: str) -> list[str]:
    """The words of a text, for comparisons that must ignore layout and punctuation only."""
    text = text.replace("’", "'")
    return re.findall(r"[\w']+", text)


def norm_text(text: str) -> str:
    """A text without layout: typographic quotes, markdown links/emphasis and list markers
    dropped, whitespace collapsed (the content may format lists as ``- ``, ``1. ``)."""
    text = text.replace("’", "'").replace("“", '"').replace("”", '"')
    text = re.sub(r"\[([^\]]*)\]\(#\)", r"\1", text)  # [2025 WRC Rulebook](#)
    text = text.replace("*", "")
    text = re.sub(r"^\s*(?:[-•]|\d+\.)\s+", "", text, flags=re.M)
    return norm_ws(text)


@dataclass(frozen=True)
class SourceSection:
    ref: str
    title: str
    subtitle: str | None  # the line after the heading when it is Japanese
    body: str             # everything up to the next heading (subtitle excluded)


_JA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def split_sections(lines: list[str], is_heading, stop=lambda line: False) -> list[SourceSection]:
    """Cut a source into numbered sections. ``is_heading(line)`` returns ``(ref, title)`` or None."""
    found: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines):
        h = is_heading(line)
        if h:
            found.append((i, *h))
    out = []
    for k, (i, ref, title) in enumerate(found):
        end = found[k + 1][0] if k + 1 < len(found) else len(lines)
        body = []
        for line in lines[i + 1:end]:
            if stop(line):
                break
            body.append(line)
        subtitle = None
        nonblank = [n for n, line in enumerate(body) if line.strip()]
        if nonblank and _JA.search(body[nonblank[0]]) and len(body[nonblank[0]].strip()) < 40:
            subtitle = body[nonblank[0]].strip()
            body = body[nonblank[0] + 1:]
        out.append(SourceSection(ref, title, subtitle, "\n".join(body)))
    return out


def azrm_sections(azrm_source: str) -> list[SourceSection]:
    """AZRM's sections from the body of the document (after the table of contents and the preface,
    up to the Glossary)."""
    start = azrm_source.index("\nChapter 1 Basics\n\n1.1 ")
    end = azrm_source.index("\nGlossary\n\nThe Japanese column")
    lines = azrm_source[start:end].split("\n")

    def heading(line):
        m = re.fullmatch(r"(\d+\.\d+) (.+)", line)
        return (m.group(1), m.group(2)) if m else None

    return split_sections(lines, heading, stop=lambda line: bool(re.fullmatch(r"Chapter \d+ .+", line)))


def azrm_glossary(azrm_source: str) -> list[tuple[str, str | None, str]]:
    """(concept, japanese or None for N/A, definition) rows of AZRM's glossary table."""
    start = azrm_source.index("Concept\tJapanese\tDefinition\n")
    end = azrm_source.index("\nRevision History\n\nRevision\t")
    rows = []
    for line in azrm_source[start:end].split("\n")[1:]:
        if line.strip():
            concept, japanese, definition = line.split("\t")
            rows.append((concept, None if japanese == "N/A" else japanese, definition))
    return rows


def azrm_revisions(azrm_source: str) -> list[tuple[str, str, list[str]]]:
    start = azrm_source.index("Revision\tDate\tChanges\n")
    rows = []
    for line in azrm_source[start:].split("\n")[1:]:
        if line.strip():
            rev, date, changes = line.split("\t")
            items = [c.strip() for c in re.sub(r"<[^>]+>", "", changes).split("•") if c.strip()]
            rows.append((rev, date, items))
    return rows


EMA_NOISE = {"|", "Chow", "Pung", "Kong", "Previous", "1 2 3 4 5 Next |", "Riichi Competition Rules"}


def ema_sections(seeds_dir: Path) -> list[SourceSection]:
    """EMA RCR sections 3.1–3.3.8 (004) then 3.4.6–3.6.1 (001), extraction noise removed
    (``|`` borders, the pager, the captions of the lost tile pictures)."""
    lines = []
    for name in EMA_RULES_FILES:
        lines += [line for line in read(seeds_dir, name).split("\n") if line.strip() not in EMA_NOISE]

    def heading(line):
        m = re.fullmatch(r"(3\.\d+(?:\.\d+)*) (.+)", line.strip())
        return (m.group(1), m.group(2)) if m else None

    return split_sections(lines, heading)


def rakkii_sections(wrc_source: str) -> list[SourceSection]:
    """The modifier document's own sections: 1 Preface, 2.1–2.6, 3.1–3.3 (4 is the penalty table)."""
    lines = wrc_source[:wrc_source.index("\n4 Penalties\n")].split("\n")

    def heading(line):
        m = re.fullmatch(r"(\d+(?:\.\d+)?) (.+)", line)
        if not m:
            return None
        ref, title = m.groups()
        if "." not in ref and title != "Preface":  # "2 Modifiers", "3 Additions": chapter headings
            return None
        return ref, title

    return split_sections(lines, heading, stop=lambda line: bool(re.fullmatch(r"\d+ [A-Z][a-z]+", line)))


@dataclass(frozen=True)
class SourceRow:
    category: str
    foul: str
    penalty: str
    ref: str
    lower: str


def wrc_table(text: str) -> tuple[list[str], list[SourceRow]]:
    """The §4 table of 003: tab-separated ``foul | World Championship | chapter | lower`` rows under
    category lines. A line with empty cells is the end of a foul split by a page break (it starts in
    lower case), a foul without penalties (the source has one: it varies the foul above it, so it
    starts with the same two words), or else a category."""
    table = text[text.index("Fouls\tWRC 2025 Penalties for World Championship"):].split("\n")[1:]
    categories: list[str] = []
    rows: list[SourceRow] = []
    for line in table:
        if not line.strip():
            continue
        cells = [c.strip() for c in line.split("\t")]
        assert len(cells) == 4, line
        first, rest = cells[0], cells[1:]
        if any(rest):
            rows.append(SourceRow(categories[-1], first, *rest))
        elif first[0].islower():  # continuation of the previous foul across a page break
            prev = rows.pop()
            rows.append(SourceRow(prev.category, f"{prev.foul} {first}", prev.penalty, prev.ref, prev.lower))
        elif rows and first.split()[:2] == rows[-1].foul.split()[:2]:
            rows.append(SourceRow(categories[-1], first, "", "", ""))
        else:
            categories.append(first)
    return categories, rows
