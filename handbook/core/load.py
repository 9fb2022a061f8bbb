"""Content loading: TOML files -> the frozen model, against a closed schema with coded errors.

Each problem is reported as ``CODE file [entry]: message`` (``HB021 rules/azrm.toml [5.1]: text
refers to §4.9, which is not a section of azrm``). Loading collects every problem it can find and
raises one :class:`ContentError` listing them all. Schema checks use ``fastjsonschema``.

Codes:

========  ==================================================================
HB001     a file cannot be read or is not valid TOML
HB002     an unknown key (the schema is closed)
HB003     a required key is missing
HB004     a value has the wrong type
HB005     a value is not allowed (bad slug, unknown penalty kind, empty text)
HB010     a ruleset id is listed twice
HB011     a ruleset names a base or penalty table that does not exist
HB012     a ruleset names a column its penalty table does not have
HB013     a rule or penalty file belongs to no listed ruleset
HB014     an edition or interpretation names a penalty row, section or calculator its
          ruleset does not have
HB020     a section ref appears twice in one ruleset
HB021     a ``§`` reference in text (section, chapter, preface, penalty note, glossary
          definition, calculator note) points to no section of that ruleset
HB022     a section belongs to no chapter
HB023     a penalty row's ref names no section of its ruleset's rule text
HB024     a conflict is not flagged on both sides: a row's ``conflict_with`` names a section
          that does not list the row's foul back (or does not exist), or a section's
          ``conflict_with`` names a foul none of whose rows names the section back
HB025     a section's ``search.terms`` names a glossary term that does not exist
HB030     a penalty row repeats a foul already in the table
HB040     a glossary term id appears twice
HB041     a see-also names a term that does not exist
HB042     a term's refs name a section that does not exist
HB043     a term marked ``provenance = "source"`` names no ``source`` ruleset
HB044     (``check --sources`` only) a term marked ``provenance = "source"`` has a definition
          that is not found word for word in that ruleset's source document
HB050     a calculator ruling names an unknown ruleset or is inconsistent
HB060     a penalty row's foul id has no entry in fouls.toml
HB061     a foul id is listed twice in fouls.toml
HB062     a foul names a glossary term that does not exist
HB063     a foul in fouls.toml has no row in any penalty table
HB064     a foul's ``covered_by`` names an unknown ruleset, a ruleset whose table has rows of
          that foul, or a penalty row or section that ruleset does not have
HB065     a foul's ``category`` names no ``[[category]]`` of fouls.toml, a category id is listed
          twice, or a category has no foul
HB070     a scoring profile (scoring.toml) names an unknown ruleset, is listed twice, follows
          a ruleset without a profile of its own, or leaves a scoring option unsettled
HB071     a scoring option's ``ref`` names no section, or an option whose basis is
          ``"source"`` gives no ``ref``
HB072     a scoring profile's ``empty_call_foul`` is not a foul of its ruleset's penalty table
HB075     a translation file (``content/<lang>/handbook.toml``) cannot be read or has an entry
          without its two texts
========  ==================================================================
"""

from __future__ import annotations

import functools
import os
import re
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from handbook.core.model import (
    Chapter,
    Foul,
    FoulCategory,
    Edition,
    Interpretation,
    Library,
    Penalty,
    PenaltyRow,
    Revision,
    Ruleset,
    SearchWords,
    Section,
    Term,
    WorkedExample,
)
from handbook.core import index_cache
from handbook.core.problems import Collector, ContentError, Problem
from handbook.core.rulings_data import Rulings, check_rulings
from handbook.core.scoring_data import check_scoring
from handbook.core.search import SearchIndex, paused_gc
from handbook.core.texts import load_translations
from handbook.paths import CONTENT_DIR

__all__ = ["ContentError", "Problem", "default_library", "load_library"]

from handbook.core.schema import (  # noqa: F401 - the schema's names are the loader's too
    SLUG, SECTION_REF, KINDS, SECTION_LINK, object_schema, STR,
    NONEMPTY, STRLIST, SLUGLIST, REFLIST, TOOLS, TOOLLIST,
    SCHEMAS,
)

def _entry(d: Any, key: str, i: int) -> str:
    if isinstance(d, dict) and isinstance(d.get(key), str):
        return d[key]
    return f"#{i + 1}"


def _unique_entries(col: Collector, kind: str, items: list, file: str, key: str, duplicate: tuple[str, str],
                    failed: set[str] | None = None):
    """Each ``(entry label, item)`` of ``items`` that passes ``kind``'s schema and whose ``key`` was not
    seen before, in order. An item that fails the schema is reported by ``col`` and, when its ``key``
    can be read, added to ``failed``; a repeated ``key`` is reported as ``duplicate`` (code, message)."""
    seen: set[str] = set()
    for i, item in enumerate(items):
        entry = _entry(item, key, i)
        if not col.check(kind, item, file, entry):
            if failed is not None and isinstance(item, dict) and isinstance(item.get(key), str):
                failed.add(item[key])
            continue
        if item[key] in seen:
            col.add(duplicate[0], file, entry, duplicate[1])
            continue
        seen.add(item[key])
        yield entry, item


def _clean(text: str) -> str:
    return text.strip("\n").rstrip()


def load_library(content_dir: str | os.PathLike | None = None, *, index: bool = True) -> Library:
    """Parse, validate and index every content file under ``content_dir``.

    ``None`` loads the content that ships with the package. Returns a :class:`Library`.
    ``index=False`` leaves the search index to the first search or :meth:`Library.warm` (the app
    does this so that its first frame does not wait for it).
    Raises :class:`ContentError` (a ``ValueError``) listing every problem found, each naming its
    code, file, entry and what is wrong.
    """
    with paused_gc():
        return _load_library(content_dir, index=index)


def _load_library(content_dir: str | os.PathLike | None, *, index: bool) -> Library:
    root = Path(content_dir) if content_dir is not None else CONTENT_DIR
    col = Collector(root, SCHEMAS)
    if not root.is_dir():
        col.add("HB001", str(root), "", "the content folder does not exist")
        raise ContentError(col.problems)

    listing = _read_listing(col, root)
    specs, unchecked = listing.specs, listing.unchecked
    rules = {rid: _load_rules(col, root, rid, unchecked) for rid in specs}
    tables = {rid: _load_table(col, root, rid) for rid in specs if (root / "penalties" / f"{rid}.toml").is_file()}
    rulesets = _build_rulesets(col, listing, rules, tables)
    _check_named(col, listing, rulesets, rules)
    _check_conflicts(col, rulesets, specs, unchecked, rules)

    partial_refs = {rid: rules[rid][3] for rid in rules}
    links = _Links(col, rulesets, unchecked, partial_refs)
    _check_ruleset_links(links, root, listing, rulesets)
    glossary = _load_glossary(col, root, rulesets, listing.known, unchecked, partial_refs)
    for t in glossary:
        if t.source:
            links(t.definition, t.source, "glossary.toml", t.id, "the definition")
            links(t.explanation, t.source, "glossary.toml", t.id, "the explanation")

    # a glossary that could not be read is reported once; its terms are then not checked against
    term_ids = {t.id for t in glossary} if glossary or not (root / "glossary.toml").is_file() else None
    # a foul without rows is only reported when every table could be read
    tables_read = not unchecked and not any(
        p.file == "rulesets.toml" or p.file.startswith("penalties/") for p in col.problems)
    fouls, categories = _load_fouls(col, root, rulesets, term_ids, tables_read)
    _check_search_terms(col, rulesets, term_ids)

    if not (root / "rulings.toml").is_file():
        col.add("HB001", "rulings.toml", "", "the file is missing")
    rulings_data = check_rulings(col, root, rulesets, listing.known)
    _check_ruling_links(links, rulings_data)
    scoring = check_scoring(col, root, rulesets, listing.known)
    translations: dict[str, dict[str, str]] = {}
    for sub in sorted(p for p in root.iterdir() if p.is_dir() and (p / "handbook.toml").is_file()):
        try:
            translations[sub.name] = load_translations(root, sub.name)
        except (ValueError, OSError) as exc:
            col.add("HB075", f"{sub.name}/handbook.toml", "", str(exc))

    if col.problems:
        raise ContentError(col.problems)

    # the shipped content's index is kept in the user cache dir under the content's digest
    factory = (SearchIndex if content_dir is not None
               else functools.partial(index_cache.cached_index, content_digest=col.digest()))
    lib = Library(rulesets=MappingProxyType(rulesets), glossary=tuple(glossary),
                  fouls=MappingProxyType(fouls), foul_categories=categories, _index_factory=factory, translations=translations,
                  rulings=rulings_data, scoring=scoring)
    if index:
        lib.warm()
    return lib


@functools.lru_cache(maxsize=1)
def default_library() -> Library:
    """The shipped content, loaded once per process (what the app and the calculators use).

    Its search index is built by the first search or by ``default_library().warm()``. In the
    offline app the content comes from the snapshot the build compiled (:mod:`handbook.core.snapshot`)
    while it matches the content files."""
    from handbook.core import snapshot  # late: only the offline app ships one

    library = snapshot.load_shipped()
    return library if library is not None else load_library(index=False)


@dataclass
class _Listing:
    """What rulesets.toml lists: the valid ``specs`` by id; their valid revisions, history and
    interpretations (``extras``); every listed id, even of an entry that failed the schema
    (``known``); and the rulesets whose sections cannot be known, so that references into them are
    not checked (``unchecked``)."""

    specs: dict[str, dict]
    extras: dict[str, tuple[list[dict], list[dict], list[dict]]]
    known: set[str]
    unchecked: set[str]


def _read_listing(col: Collector, root: Path) -> _Listing:
    """rulesets.toml (HB002, HB010, HB011) and the rule and penalty files it does not list (HB013)."""
    listing = _Listing({}, {}, set(), set())
    specs, known = listing.specs, listing.known
    rulesets_doc = col.read(root / "rulesets.toml")
    if rulesets_doc is not None:
        extra = sorted(set(rulesets_doc) - {"ruleset"})
        if extra:
            col.add("HB002", "rulesets.toml", "", f"unknown key {', '.join(map(repr, extra))}; allowed keys: ruleset")
        for i, spec in enumerate(rulesets_doc.get("ruleset", [])):
            _read_spec(col, listing, spec, _entry(spec, "id", i))

    for rid, spec in specs.items():
        for key in ("base", "penalties"):
            if key in spec and spec[key] not in known:
                col.add("HB011", "rulesets.toml", rid,
                        f"{key} {spec[key]!r} is not a listed ruleset; listed: {', '.join(specs)}")

    for sub in ("rules", "penalties"):
        folder = root / sub
        if folder.is_dir():
            for p in sorted(folder.glob("*.toml")):
                if p.stem not in known:
                    col.add("HB013", col.rel(p), "", f"no ruleset {p.stem!r} in rulesets.toml")
    return listing


def _read_spec(col: Collector, listing: _Listing, spec: Any, entry: str) -> None:
    """One ``[[ruleset]]`` entry of rulesets.toml, added to ``listing`` when valid."""
    if not col.check("ruleset", spec, "rulesets.toml", entry):
        if isinstance(spec, dict) and isinstance(spec.get("id"), str):
            listing.known.add(spec["id"])
            listing.unchecked.add(spec["id"])
        return
    revs = [rev for j, rev in enumerate(spec.get("revision", []))
            if col.check("revision", rev, "rulesets.toml", f"{entry} revision {j + 1}")]
    hist = [h for j, h in enumerate(spec.get("history", []))
            if col.check("history", h, "rulesets.toml", f"{entry} history {j + 1}")]
    interps = [it for j, it in enumerate(spec.get("interpretation", []))
               if col.check("interpretation", it, "rulesets.toml", f"{entry} interpretation {j + 1}")]
    if spec["id"] in listing.specs:
        col.add("HB010", "rulesets.toml", entry, "this ruleset id is listed twice")
        return
    listing.specs[spec["id"]] = spec
    listing.extras[spec["id"]] = (revs, hist, interps)
    listing.known.add(spec["id"])


def _build_rulesets(col: Collector, listing: _Listing, rules: dict, tables: dict[str, list[dict]]
                    ) -> dict[str, Ruleset]:
    """The :class:`Ruleset` of every valid listing entry, with its rows, editions and readings
    (a profile that borrows another ruleset's table gets that table's editions and readings too)."""
    specs, extras = listing.specs, listing.extras
    own_editions = {rid: _editions(spec, *extras[rid][:2]) for rid, spec in specs.items()}
    own_interps = {rid: tuple(Interpretation(it["text"], tuple(it.get("rows", ())), tuple(it.get("tools", ())))
                              for it in extras[rid][2]) for rid in specs}
    rulesets: dict[str, Ruleset] = {}
    for rid, spec in specs.items():
        chapters, sections, preface, _failed = rules[rid]
        table_id = spec.get("penalties", rid)
        editions, interps = own_editions[rid], own_interps[rid]
        if table_id != rid and table_id in specs:  # the table's editions and readings come with it
            editions += own_editions[table_id]
            interps += own_interps[table_id]
        rows = _rows(col, rid, table_id, spec.get("column"), tables, editions, interps)
        sections = tuple(replace(sec, edition_notes=tuple(
            e.note for e in editions if e.note and sec.ref in e.sections)) for sec in sections)
        revisions = tuple(Revision(r["revision"], r.get("date"), tuple(r["changes"]))
                          for r in extras[rid][0])
        rulesets[rid] = Ruleset(
            id=rid, title=spec["title"], short=spec["short"], edition=spec["edition"],
            source=spec["source"], date=spec.get("date"), note=spec.get("note"),
            base=spec.get("base"), preface=preface, chapters=chapters, sections=sections,
            penalties=rows, revisions=revisions, editions=editions, interpretations=interps,
            table=table_id, edition_short=spec.get("edition_short", ""), _by_ref=MappingProxyType({s.ref: s for s in sections}))
    return rulesets


def _rows(col: Collector, rid: str, table_id: str, column: str | None, tables: dict[str, list[dict]],
          editions: tuple, interps: tuple) -> tuple[PenaltyRow, ...]:
    """Ruleset ``rid``'s rows: table ``table_id``, read in ``column`` where one is named (HB012)."""
    if table_id not in tables:
        return ()
    raw_rows = tables[table_id]
    if column and raw_rows and any(column not in r for r in raw_rows):
        col.add("HB012", f"penalties/{table_id}.toml", rid, f"column {column!r} is missing from some rows")
        return ()
    return tuple(_row(rid, r, i, column, two_column=any("lower" in x for x in raw_rows),
                      editions=editions, interps=interps)
                 for i, r in enumerate(raw_rows))


def _check_named(col: Collector, listing: _Listing, rulesets: dict[str, Ruleset], rules: dict) -> None:
    """HB014: what an edition or interpretation names must exist."""
    for rid, spec in listing.specs.items():
        rs = rulesets[rid]
        table_id = spec.get("penalties", rid)
        if rid in listing.unchecked or table_id in listing.unchecked:
            continue
        fouls = {r.id for r in rs.penalties}
        named = [(f"history {j + 1}", h) for j, h in enumerate(listing.extras[rid][1])]
        named += [(f"interpretation {j + 1}", it) for j, it in enumerate(listing.extras[rid][2])]
        for where, item in named:
            for foul in item.get("rows", ()):
                if foul not in fouls:
                    col.add("HB014", "rulesets.toml", f"{rid} {where}",
                            f"rows names {foul!r}, which is not a foul of the {rid} penalty table")
            for ref in item.get("sections", ()):
                if not rs.has_section(ref) and ref not in rules[rid][3]:
                    col.add("HB014", "rulesets.toml", f"{rid} {where}",
                            f"sections names {ref!r}, which is not a section of {rid}")


class _Links:
    """HB021: every §-reference in a text must name a section of its ruleset (called per text)."""

    def __init__(self, col: Collector, rulesets: dict[str, Ruleset], unchecked: set[str],
                 partial_refs: dict[str, set[str]]):
        self.col, self.rulesets, self.unchecked, self.partial_refs = col, rulesets, unchecked, partial_refs

    def __call__(self, text: str | None, rid: str, file: str, entry: str, what: str = "text") -> None:
        if not text or rid in self.unchecked or rid not in self.rulesets:
            return
        rs = self.rulesets[rid]
        for m in SECTION_LINK.finditer(text):
            if not (rs.has_section(m.group(1)) or m.group(1) in self.partial_refs.get(rid, ())):
                self.col.add("HB021", file, entry, f"{what} refers to §{m.group(1)}, which is not a section of {rid}")

    def row_refs(self, rs: Ruleset, r: PenaltyRow, file: str, entry: str) -> None:
        """HB023: a row's ``ref`` that looks like a section number must name one."""
        if not (r.ref and rs.sections and rs.id not in self.unchecked):
            return
        for part in (x.strip() for x in r.ref.split(",")):
            if (re.fullmatch(SECTION_REF, part) and not rs.has_section(part)
                    and part not in self.partial_refs.get(rs.id, ())):
                self.col.add("HB023", file, entry, f"ref {part!r} is not a section of {rs.id}")


def _check_ruleset_links(links: _Links, root: Path, listing: _Listing, rulesets: dict[str, Ruleset]) -> None:
    """The §-references in rule texts, own penalty rows and rulesets.toml's notes."""
    for rid, rs in rulesets.items():
        file = f"rules/{rid}.toml"
        links(rs.preface, rid, file, "preface", "the preface")
        for c in rs.chapters:
            links(c.text, rid, file, f"chapter {c.ref}", "the chapter text")
        for sec in rs.sections:
            links(sec.text, rid, file, sec.ref)
            links(sec.conflict, rid, file, sec.ref, "the conflict note")
            for note in sec.interpretations:
                links(note, rid, file, sec.ref, "the interpretation")
        if (root / "penalties" / f"{rid}.toml").is_file() and "penalties" not in listing.specs[rid]:
            file = f"penalties/{rid}.toml"
            for r in rs.penalties:
                entry = f"row {r.index + 1} {r.id}"
                links(r.note, rid, file, entry, "the note")
                links(r.condition, rid, file, entry, "the condition")
                links(r.conflict, rid, file, entry, "the conflict note")
                for note in r.interpretations:
                    links(note, rid, file, entry, "the interpretation")
                links.row_refs(rs, r, file, entry)

    for rid in listing.specs:
        for j, h in enumerate(listing.extras[rid][1]):
            for text in (h.get("note"), *h.get("changes", ())):
                links(text, rid, "rulesets.toml", f"{rid} history {j + 1}", "the edition note")
        for j, it in enumerate(listing.extras[rid][2]):
            links(it["text"], rid, "rulesets.toml", f"{rid} interpretation {j + 1}", "the interpretation")


def _check_ruling_links(links: _Links, rulings_data: Rulings) -> None:
    """The §-references in rulings.toml's notes and worked examples."""
    for rid, spec in rulings_data.revealed.items():
        for band in (spec.during_deal, *spec.bands):
            for note in (*spec.notes, *spec.wall_notes, *band.notes):
                links(note, rid, "rulings.toml", f"revealed_tiles {rid}", "a note")
    for rid, spec in rulings_data.chombo.items():
        for note in (*spec.get("notes", ()), *([spec["points_note"]] if "points_note" in spec else [])):
            links(note, rid, "rulings.toml", f"chombo {rid}", "a note")
    for rid, fspec in rulings_data.final.items():
        for note in (*fspec.own_notes, *(ex.text for ex in fspec.examples)):
            links(note, rid, "rulings.toml", f"final_score {rid}", "a note")


def _load_rules(col: Collector, root: Path, rid: str, unchecked: set[str]):
    """Chapters, sections, preface and the refs of sections that failed the schema (so that
    references to them are not reported twice)."""
    path = root / "rules" / f"{rid}.toml"
    if not path.is_file():
        return (), (), None, set()
    file = col.rel(path)
    doc = col.read(path)
    if doc is None:
        unchecked.add(rid)
        return (), (), None, set()
    if not col.check("rules", doc, file, ""):
        if not all(isinstance(doc.get(k, []), list) for k in ("chapter", "section")):
            unchecked.add(rid)
            return (), (), None, set()
    failed: set[str] = set()
    chapters: list[Chapter] = []
    for i, ch in enumerate(doc.get("chapter", [])):
        if col.check("chapter", ch, file, f"chapter {_entry(ch, 'ref', i)}"):
            chapters.append(Chapter(ch["ref"], ch["title"], _clean(ch.get("text", ""))))
    chapter_refs = {c.ref for c in chapters}
    sections: list[Section] = []
    for entry, s in _unique_entries(col, "section", doc.get("section", []), file, "ref",
                                    ("HB020", "this section ref appears twice"), failed):
        search = None
        if "search" in s:
            if not col.check("search", s["search"], file, f"{entry} search"):
                failed.add(s["ref"])
                continue
            w = s["search"]
            search = SearchWords(terms=tuple(w.get("terms", ())), japanese=tuple(w.get("japanese", ())),
                                 reading=tuple(w.get("reading", ())), romaji=tuple(w.get("romaji", ())),
                                 aliases=tuple(w.get("aliases", ())))
        chapter = s["ref"].split(".")[0]
        if chapters and chapter not in chapter_refs:
            col.add("HB022", file, entry, f"section belongs to chapter {chapter}, which is not listed")
        sections.append(Section(rid, s["ref"], s["title"].strip(), s.get("title_ja"),
                                _clean(s["text"]), chapter, conflict=s.get("conflict"),
                                conflict_with=tuple(s.get("conflict_with", ())),
                                interpretations=(s["interpretation"],) if "interpretation" in s else (),
                                search=search))
    preface = _clean(doc["preface"]) if isinstance(doc.get("preface"), str) and doc["preface"] else None
    return tuple(chapters), tuple(sections), preface, failed


def _load_table(col: Collector, root: Path, rid: str) -> list[dict]:
    path = root / "penalties" / f"{rid}.toml"
    file = col.rel(path)
    doc = col.read(path)
    if doc is None or not col.check("penalties", doc, file, ""):
        return []
    rows: list[dict] = []
    fouls: set[str] = set()
    for i, r in enumerate(doc.get("row", [])):
        entry = f"row {i + 1} {r.get('id', '')}".strip() if isinstance(r, dict) else f"row {i + 1}"
        if not col.check("row", r, file, entry):
            continue
        if r["foul"] in fouls:
            col.add("HB030", file, entry, f"foul {r['foul']!r} is already in this table")
            continue
        fouls.add(r["foul"])
        rows.append(r)
    return rows


def _norm_penalty(s: str) -> str:
    """A penalty cell compared across columns: case, spacing, "point penalty"/"pp" and the
    source's parentheses (which mark a penalty implied by another rule) do not count."""
    s = s.lower().replace("point penalty", "pp").replace("(", " ").replace(")", " ")
    return " ".join(s.split())


def _editions(spec: dict, revisions: list[dict], history: list[dict]) -> tuple[Edition, ...]:
    """A ruleset's own editions: its source's revision history (the source's words), then the
    public edition history of ``[[ruleset.history]]``."""
    rid = spec["id"]
    out = [Edition(
        name=f"{spec['short']} revision {r['revision']}",
        status="this" if spec["edition"].split()[-1] == r["revision"] else "earlier",
        changes=tuple(r["changes"]), cite=f"{spec['short']} Revision History, in the source document",
        date=r.get("date"), from_source=True, ruleset=rid) for r in revisions]
    out += [Edition(
        name=h["name"], status=h["status"], changes=tuple(h["changes"]), cite=h["cite"],
        date=h.get("date"), note=h.get("note"), rows=tuple(h.get("rows", ())),
        kinds=tuple(Penalty(k) for k in h.get("kinds", ())),
        sections=tuple(h.get("sections", ())), tools=tuple(h.get("tools", ())), ruleset=rid)
        for h in history]
    return tuple(out)


def _check_conflicts(col: Collector, rulesets: dict[str, Ruleset], specs: dict[str, dict],
                     unchecked: set[str], rules: dict) -> None:
    """HB024: a conflict between a penalty row and a section is flagged on both of them."""
    for rid, rs in rulesets.items():
        if rid in unchecked or "penalties" in specs[rid]:
            continue
        failed = rules[rid][3]
        for r in rs.penalties:
            if r.conflict_with is None:
                continue
            entry = f"row {r.index + 1} {r.id}"
            if r.conflict_with in failed:
                continue
            if not rs.has_section(r.conflict_with):
                col.add("HB024", f"penalties/{rid}.toml", entry,
                        f"conflict_with names {r.conflict_with!r}, which is not a section of {rid}")
            elif r.id not in rs.section(r.conflict_with).conflict_with:
                col.add("HB024", f"penalties/{rid}.toml", entry,
                        f"§{r.conflict_with} does not flag the conflict back (its conflict_with lacks {r.id!r})")
        for sec in rs.sections:
            for foul in sec.conflict_with:
                if not any(r.id == foul and r.conflict_with == sec.ref for r in rs.penalties):
                    col.add("HB024", f"rules/{rid}.toml", sec.ref,
                            f"conflict_with names {foul!r}, but no row of that foul names §{sec.ref} "
                            f"in its conflict_with")


def _row(rid: str, r: dict, i: int, column: str | None, two_column: bool, *,
         editions: tuple[Edition, ...] = (), interps: tuple[Interpretation, ...] = ()) -> PenaltyRow:
    main = ("penalty", "kind", "points")
    alt = ("lower", "lower_kind", "lower_points")
    mine, other = (alt, main) if column == "lower" else (main, alt)
    kind = r.get(mine[1])
    compare = r.get(other[0]) if two_column else None
    return PenaltyRow(
        ruleset=rid, id=r["id"], foul=r["foul"].strip(), penalty=r.get(mine[0], "").strip(),
        ref=r.get("ref"), category=r["category"],
        kind=Penalty(kind) if kind else None, points=r.get(mine[2]), strike=r.get("strike"),
        note=r.get("note"),
        compare_label=("World Championship" if column == "lower" else "Lower") if two_column else None,
        compare_penalty=compare.strip() if compare is not None else None,
        differs=two_column and r.get("differs", _norm_penalty(r.get("penalty", ""))
                                     != _norm_penalty(r.get("lower", ""))),
        index=i, condition=r.get("condition"), conflict=r.get("conflict"),
        conflict_with=r.get("conflict_with"),
        interpretations=((r["interpretation"],) if "interpretation" in r else ())
        + tuple(it.text for it in interps if r["id"] in it.rows),
        edition_notes=tuple(e.note for e in editions if e.note and r["id"] in e.rows
                            and (not e.kinds or (kind is not None and Penalty(kind) in e.kinds))))


def _load_glossary(col: Collector, root: Path, rulesets: dict[str, Ruleset], known: set[str],
                   unchecked: set[str], partial_refs: dict[str, set[str]]) -> list[Term]:
    path = root / "glossary.toml"
    if not path.is_file():
        col.add("HB001", col.rel(path), "", "the file is missing")
        return []
    file = col.rel(path)
    doc = col.read(path)
    if doc is None or not col.check("glossary", doc, file, ""):
        return []
    terms: list[Term] = []
    raw_ok = [t for _, t in _unique_entries(col, "term", doc.get("term", []), file, "id",
                                            ("HB040", "this term id appears twice"))]
    ids = {t["id"] for t in raw_ok}
    for t in raw_ok:
        refs = []
        for ref in t.get("refs", []):
            rs_id, _, sec = ref.partition(":")
            rs = rulesets.get(rs_id)
            if rs_id in unchecked or sec in partial_refs.get(rs_id, ()):
                continue
            if rs is None or not rs.has_section(sec):
                col.add("HB042", file, t["id"], f"refs names {ref!r}, which is not a section of any ruleset")
            else:
                refs.append((rs_id, sec))
        for other in t.get("see_also", []):
            if other not in ids:
                col.add("HB041", file, t["id"], f"see_also names {other!r}, which is not a term")
        if "source" in t and t["source"] not in known:
            col.add("HB011", file, t["id"], f"source {t['source']!r} is not a listed ruleset")
        if t["provenance"] == "source" and "source" not in t:
            col.add("HB043", file, t["id"], 'provenance is "source" but no source names the ruleset '
                    "whose words the definition is")
        terms.append(Term(
            id=t["id"], term=t["term"], japanese=t.get("japanese"), reading=t.get("reading"),
            definition=t["definition"].strip(), provenance=t["provenance"], romaji=tuple(t.get("romaji", ())),
            aliases=tuple(t.get("aliases", ())), explanation=t.get("explanation"),
            source=t.get("source"), refs=tuple(refs), see_also=tuple(t.get("see_also", ())),
            examples=tuple(WorkedExample(e["says"], e["tool"], dict(e["args"]), dict(e["expect"]))
                           for e in t.get("example", ()))))
    return terms


def _check_search_terms(col: Collector, rulesets: dict[str, Ruleset], term_ids: set[str] | None) -> None:
    """HB025: a section's ``search.terms`` names glossary terms that exist."""
    if term_ids is None:
        return
    for rs in rulesets.values():
        for s in rs.sections:
            for t in s.search.terms if s.search else ():
                if t not in term_ids:
                    col.add("HB025", f"rules/{rs.id}.toml", s.ref,
                            f"search.terms names {t!r}, which is not a glossary term")


def _covered_by(col: Collector, rulesets: dict[str, Ruleset], f: dict, entry: str) -> tuple[tuple[str, str], ...]:
    """A foul's ``covered_by`` as (ruleset, target) pairs, each checked (HB064)."""
    out = []
    for rid, targets in f.get("covered_by", {}).items():
        rs = rulesets.get(rid)
        if rs is None:
            col.add("HB064", "fouls.toml", entry,
                    f"covered_by names {rid!r}, which is not a ruleset (allowed: {', '.join(sorted(rulesets))})")
            continue
        if rs.rows(f["id"]):
            col.add("HB064", "fouls.toml", entry,
                    f"covered_by names {rid!r}, whose penalty table has rows of this foul")
            continue
        for target in targets:
            kind, _, ref = target.partition(":")
            if not (rs.rows(ref) if kind == "penalty" else rs.has_section(ref)):
                if any(p.file == f"rules/{rid}.toml" for p in col.problems):
                    continue  # a rules file that failed may lack what it names: reported there
                col.add("HB064", "fouls.toml", entry,
                        f"covered_by names {target!r}, which {rid} does not have")
                continue
            out.append((rid, target))
    return tuple(out)


def _load_categories(col: Collector, doc: dict, file: str) -> tuple[FoulCategory, ...]:
    """fouls.toml's ``[[category]]`` entries, in file order (HB065 for an id given twice)."""
    out: dict[str, FoulCategory] = {}
    for i, c in enumerate(doc.get("category", [])):
        entry = f"category {_entry(c, 'id', i)}"
        if not col.check("foul_category", c, file, entry):
            continue
        if c["id"] in out:
            col.add("HB065", file, entry, "this category id is listed twice")
            continue
        out[c["id"]] = FoulCategory(c["id"], c["name"].strip())
    return tuple(out.values())


def _first_rows(rulesets: dict[str, Ruleset]) -> dict[str, str]:
    """foul id -> where a penalty row first uses it."""
    return {r.id: f"penalties/{rs.id}.toml [row {r.index + 1} {r.id}]"
            for rs in reversed(list(rulesets.values())) for r in reversed(rs.penalties)}


def _check_categories_used(col: Collector, file: str, categories: tuple[FoulCategory, ...],
                           fouls: dict[str, Foul], failed: set[str]) -> None:
    """HB065 for a category no foul names (unless a foul failed its schema: it may be the one)."""
    used = {f.category for f in fouls.values()}
    for c in (() if failed else categories):
        if c.id not in used:
            col.add("HB065", file, f"category {c.id}", "no foul names this category")


def _load_fouls(col: Collector, root: Path, rulesets: dict[str, Ruleset], term_ids: set[str] | None,
                tables_read: bool = True) -> tuple[dict[str, Foul], tuple[FoulCategory, ...]]:
    """fouls.toml: its categories, and one entry per foul id of the penalty tables (HB060–HB065)."""
    path = root / "fouls.toml"
    file = "fouls.toml"
    row_ids = _first_rows(rulesets)
    if not path.is_file():
        if row_ids:
            col.add("HB001", file, "", "the file is missing; every penalty row's foul id needs an entry in it")
        return {}, ()
    doc = col.read(path)
    if doc is None or not col.check("fouls", doc, file, ""):
        return {}, ()
    categories = _load_categories(col, doc, file)
    category_ids = {c.id for c in categories}
    fouls: dict[str, Foul] = {}
    failed: set[str] = set()
    for entry, f in _unique_entries(col, "foul", doc.get("foul", []), file, "id",
                                    ("HB061", "this foul id is listed twice"), failed):
        if f["category"] not in category_ids:
            col.add("HB065", file, entry, f"category {f['category']!r} is not a [[category]] of fouls.toml "
                                          f"(allowed: {', '.join(c.id for c in categories)})")
        for t in f.get("terms", ()):
            if term_ids is not None and t not in term_ids:
                col.add("HB062", file, entry, f"terms names {t!r}, which is not a glossary term")
        if tables_read and f["id"] not in row_ids:
            col.add("HB063", file, entry, "no penalty table has a row with this foul id")
        fouls[f["id"]] = Foul(
            id=f["id"], name=f["name"].strip(), japanese=tuple(f["japanese"]),
            reading=tuple(f.get("reading", ())), romaji=tuple(f.get("romaji", ())),
            aliases=tuple(f.get("aliases", ())), terms=tuple(f.get("terms", ())),
            covered_by=_covered_by(col, rulesets, f, entry) if tables_read else (), category=f["category"])
    _check_categories_used(col, file, categories, fouls, failed)
    for fid, where in row_ids.items():
        if fid not in fouls and fid not in failed:
            file_, _, entry = where.partition(" [")
            col.add("HB060", file_, entry.rstrip("]"), f"foul id {fid!r} has no entry in fouls.toml")
    return fouls, categories
