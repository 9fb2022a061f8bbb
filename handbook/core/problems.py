"""Content problems: the coded :class:`Problem`, :class:`ContentError`, and the
:class:`Collector` that reads TOML files and validates them against closed JSON Schemas.

Shared by :mod:`handbook.core.load` and :mod:`handbook.core.rulings_data`; pure Python.
"""

from __future__ import annotations

import datetime
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import fastjsonschema


@dataclass(frozen=True, slots=True)
class Problem:
    """One content problem: its code, the file (relative to the content folder), the entry, what is wrong."""

    code: str
    file: str
    entry: str
    message: str

    def __str__(self) -> str:
        where = f" [{self.entry}]" if self.entry else ""
        return f"{self.code} {self.file}{where}: {self.message}"


class ContentError(ValueError):
    """Raised by :func:`load_library` when content is invalid; ``problems`` lists every
    :class:`Problem` found, and the message names each one's code, file, entry and problem."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        lines = [str(p) for p in self.problems]
        head = f"{len(lines)} content problem{'s' if len(lines) != 1 else ''}"
        super().__init__(head + ":\n" + "\n".join(lines))


_RULE_CODES = {"additionalProperties": "HB002", "required": "HB003", "type": "HB004"}
#: compiled validators by (id of the schema set, name); each entry keeps its schema set alive, so
#: the id cannot be reused by another object while the entry exists
_validators: dict[tuple[int, str], tuple[dict[str, Any], Any]] = {}


def _validator(schemas: dict[str, Any], name: str):
    """The compiled validator of ``schemas[name]``, compiled once per schema set."""
    key = (id(schemas), name)
    entry = _validators.get(key)
    if entry is None or entry[0] is not schemas:
        entry = _validators[key] = (schemas, fastjsonschema.compile(schemas[name]))
    return entry[1]


class Collector:
    """Collects every :class:`Problem` found while reading the content under ``root``; ``schemas``
    are the closed JSON Schemas that :meth:`check` validates against by name."""

    def __init__(self, root: Path, schemas: dict[str, Any] | None = None):
        self.root = root
        self.schemas = schemas or {}
        self.problems: list[Problem] = []

    def add(self, code: str, file: str, entry: str, message: str) -> None:
        self.problems.append(Problem(code, file, entry, message))

    def check(self, schema: str, data: Any, file: str, entry: str) -> bool:
        """Validate ``data`` against ``schema``; record a coded problem and return False if it fails."""
        return self.check_with(self.schemas, schema, data, file, entry)

    def check_with(self, schemas: dict[str, Any], schema: str, data: Any, file: str, entry: str) -> bool:
        """Validate ``data`` against ``schemas[schema]`` (JSON Schema, compiled once)."""
        try:
            _validator(schemas, schema)(data)
        except fastjsonschema.JsonSchemaValueException as exc:
            code = _RULE_CODES.get(exc.rule, "HB005")
            msg = exc.message.replace("data.", "").replace("data ", "entry ")
            if exc.rule == "additionalProperties" and isinstance(data, dict):
                allowed = schemas[schema]["properties"]
                extra = sorted(k for k in data if k not in allowed)
                msg = (f"unknown key {', '.join(map(repr, extra))}; allowed keys: "
                       f"{', '.join(allowed)}")
            elif exc.rule == "required" and isinstance(data, dict):
                missing = [k for k in schemas[schema]["required"] if k not in data]
                msg = f"missing key {', '.join(map(repr, missing))}"
            else:
                msg += f", got {exc.value!r}"
            self.add(code, file, entry, msg)
            return False
        for key in ("date",):
            if isinstance(data, dict) and key in data and not isinstance(data[key], datetime.date):
                self.add("HB004", file, entry, f"{key} must be a TOML date (YYYY-MM-DD), got {data[key]!r}")
                return False
        return True

    def read(self, path: Path) -> dict | None:
        rel = self.rel(path)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            self.add("HB001", rel, "", "the file is missing")
            return None
        except OSError as exc:
            self.add("HB001", rel, "", f"cannot read the file: {exc.strerror or exc}")
            return None
        try:
            return tomllib.loads(data.decode("utf-8"))
        except UnicodeDecodeError as exc:
            hint = " (it looks like UTF-16: save it as UTF-8)" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
            self.add("HB001", rel, "", f"not UTF-8 text at byte {exc.start}{hint}")
        except tomllib.TOMLDecodeError as exc:
            self.add("HB001", rel, "", f"not valid TOML: {exc}")
        except RecursionError:
            self.add("HB001", rel, "", "not valid TOML: nested too deeply")
        return None

    def rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
