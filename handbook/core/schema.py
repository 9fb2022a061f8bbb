"""The closed schema of the content files (JSON Schema, compiled by fastjsonschema through
:mod:`handbook.core.problems`): one schema per file kind; an unknown key, a missing key or a wrong
type is a coded error (HB002-HB005). :mod:`handbook.core.load` checks every file against it."""

from __future__ import annotations

import re
from typing import Any

from handbook.core.model import Penalty

SLUG = r"^[a-z0-9]+(-[a-z0-9]+)*$"
SECTION_REF = r"^[0-9]+(\.[0-9]+)*$"
KINDS = [p.value for p in Penalty]
SECTION_LINK = re.compile(r"§\s?([0-9]+(?:\.[0-9]+)*)")


# --- the closed schema ---------------------------------------------------------------------

def object_schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": props, "required": required,
            "additionalProperties": False}


STR = {"type": "string"}
NONEMPTY = {"type": "string", "minLength": 1}
STRLIST = {"type": "array", "items": NONEMPTY}
SLUGLIST = {"type": "array", "items": {"type": "string", "pattern": SLUG}}
REFLIST = {"type": "array", "items": {"type": "string", "pattern": SECTION_REF}}
TOOLS = ["chombo"]
TOOLLIST = {"type": "array", "items": {"enum": TOOLS}}
DATE: dict[str, Any] = {}  # TOML dates are checked by hand (JSON Schema has no date type)

SCHEMAS = {
    "ruleset": object_schema({
        "id": {"type": "string", "pattern": SLUG}, "title": NONEMPTY, "short": NONEMPTY,
        "edition": NONEMPTY, "edition_short": NONEMPTY, "date": DATE, "source": NONEMPTY, "note": NONEMPTY,
        "base": {"type": "string", "pattern": SLUG},
        "penalties": {"type": "string", "pattern": SLUG}, "column": {"enum": ["lower"]},
        "revision": {"type": "array"}, "history": {"type": "array"},
        "interpretation": {"type": "array"},
    }, ["id", "title", "short", "edition", "source"]),
    "revision": object_schema({"revision": NONEMPTY, "date": DATE, "changes": STRLIST},
                     ["revision", "changes"]),
    "history": object_schema({"name": NONEMPTY, "date": DATE, "status": {"enum": ["this", "earlier", "later"]},
                     "changes": STRLIST, "cite": NONEMPTY, "note": NONEMPTY, "rows": SLUGLIST,
                     "kinds": {"type": "array", "items": {"enum": KINDS}},
                     "sections": REFLIST, "tools": TOOLLIST},
                    ["name", "status", "changes", "cite"]),
    "interpretation": object_schema({"text": NONEMPTY, "rows": SLUGLIST, "tools": TOOLLIST}, ["text"]),
    "rules": object_schema({"preface": STR, "chapter": {"type": "array"}, "section": {"type": "array"}},
                  ["section"]),
    "chapter": object_schema({"ref": {"type": "string", "pattern": SECTION_REF}, "title": NONEMPTY,
                     "text": STR}, ["ref", "title"]),
    "section": object_schema({"ref": {"type": "string", "pattern": SECTION_REF}, "title": NONEMPTY,
                     "title_ja": NONEMPTY, "text": NONEMPTY, "conflict": NONEMPTY,
                     "conflict_with": SLUGLIST, "interpretation": NONEMPTY,
                     "search": {"type": "object"}},
                    ["ref", "title", "text"]),
    "search": object_schema({"terms": SLUGLIST, "japanese": STRLIST, "reading": STRLIST, "romaji": STRLIST,
                    "aliases": STRLIST}, []),
    "penalties": object_schema({"row": {"type": "array"}}, ["row"]),
    "row": object_schema({
        "id": {"type": "string", "pattern": SLUG}, "category": NONEMPTY, "foul": NONEMPTY,
        "penalty": STR, "kind": {"enum": KINDS}, "points": {"type": "integer", "minimum": 0},
        "ref": NONEMPTY, "strike": {"type": "boolean"}, "note": NONEMPTY,
        "lower": STR, "lower_kind": {"enum": KINDS},
        "lower_points": {"type": "integer", "minimum": 0},
        "condition": NONEMPTY, "conflict": NONEMPTY,
        "conflict_with": {"type": "string", "pattern": SECTION_REF},
        "interpretation": NONEMPTY, "differs": {"type": "boolean"},
    }, ["id", "category", "foul", "penalty"]),
    "glossary": object_schema({"term": {"type": "array"}}, ["term"]),
    "fouls": object_schema({"category": {"type": "array", "minItems": 1}, "foul": {"type": "array"}}, ["category", "foul"]),
    "foul_category": object_schema({"id": {"type": "string", "pattern": SLUG}, "name": NONEMPTY}, ["id", "name"]),
    "foul": object_schema({
        "id": {"type": "string", "pattern": SLUG}, "category": {"type": "string", "pattern": SLUG}, "name": NONEMPTY,
        "japanese": {**STRLIST, "minItems": 1}, "reading": STRLIST, "romaji": STRLIST,
        "aliases": STRLIST, "terms": {"type": "array", "items": {"type": "string", "pattern": SLUG}},
        "covered_by": {"type": "object", "additionalProperties": {
            "type": "array", "minItems": 1,
            "items": {"type": "string", "pattern": r"^(penalty:[a-z0-9]+(-[a-z0-9]+)*|rule:[0-9]+(\.[0-9]+)*)$"}}},
    }, ["id", "category", "name", "japanese"]),
    "term": object_schema({
        "id": {"type": "string", "pattern": SLUG}, "term": NONEMPTY, "japanese": NONEMPTY,
        "reading": NONEMPTY, "romaji": STRLIST, "aliases": STRLIST, "definition": NONEMPTY,
        "provenance": {"enum": ["source", "handbook"]}, "explanation": NONEMPTY, "source": {"type": "string", "pattern": SLUG},
        "refs": {"type": "array", "items": {"type": "string",
                                            "pattern": r"^[a-z0-9-]+:[0-9]+(\.[0-9]+)*$"}},
        "see_also": {"type": "array", "items": {"type": "string", "pattern": SLUG}},
        "example": {"type": "array", "items": object_schema({
            "says": NONEMPTY, "tool": {"enum": ["final_score", "chombo", "revealed_tiles"]},
            "args": {"type": "object"}, "expect": {"type": "object", "minProperties": 1},
        }, ["says", "tool", "args", "expect"])},
    }, ["id", "term", "definition", "provenance"]),
}
