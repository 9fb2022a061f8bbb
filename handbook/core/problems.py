"""Content problems: the coded :class:`Problem`, :class:`ContentError`, and the
:class:`Collector` that reads TOML files and validates them against closed JSON Schemas.

Shared by :mod:`handbook.core.load` and :mod:`handbook.core.rulings_data`; pure Python.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import importlib.util
import json
import marshal
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from handbook.paths import cache_dir, write_cache_file

# fastjsonschema and the TOML parser are imported by the functions that use them: the offline
# app reads the build's content snapshot and never parses or validates content at start.


@functools.cache
def _tomllib():
    try:  # the standard library's tomllib is tomli; its compiled (mypyc) wheel parses ~2.5x faster
        import tomli as tomllib
    except ImportError:  # the browser build (Pyodide) and a trimmed install: the standard library's
        import tomllib
    return tomllib


def __getattr__(name: str):
    if name == "tomllib":   # ``problems.tomllib``: the parser the loader uses, imported on first use
        return _tomllib()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
#: compiled validators of each schema set, by the id of the set; each entry keeps its schema set
#: alive, so the id cannot be reused by another object while the entry exists
_validators: dict[int, tuple[dict[str, Any], dict[str, Any]]] = {}
#: the detailed validators (which say which rule failed), by (id of the schema set, name); each
#: entry keeps its schema set alive, so the id cannot be reused while the entry exists
_detailed: dict[tuple[int, str], tuple[dict[str, Any], Any]] = {}
#: bumped when the cache layout below changes
_CACHE_FORMAT = 2


def _validator(schemas: dict[str, Any], name: str):
    """The validator of ``schemas[name]``: it accepts and refuses what the detailed one does,
    without saying why (see :func:`_detailed_validator`); a schema set is compiled once per process."""
    entry = _validators.get(id(schemas))
    if entry is None or entry[0] is not schemas:
        entry = _validators[id(schemas)] = (schemas, _compile_set(schemas))
    return entry[1][name]


def _detailed_validator(schemas: dict[str, Any], name: str):
    """The validator of ``schemas[name]`` whose exception names the failed rule and value, compiled
    for the first entry that fails it (valid content never needs it)."""
    import fastjsonschema

    key = (id(schemas), name)
    entry = _detailed.get(key)
    if entry is None or entry[0] is not schemas:
        entry = _detailed[key] = (schemas, fastjsonschema.compile(schemas[name]))
    return entry[1]


def _explained(schemas: dict[str, Any], name: str, data: Any):
    """The detailed validator's exception for ``data`` (``None`` if it passes, which it does not
    where the plain one failed)."""
    import fastjsonschema

    try:
        _detailed_validator(schemas, name)(data)
    except fastjsonschema.JsonSchemaValueException as exc:
        return exc
    return None


def _compile_set(schemas: dict[str, Any]) -> dict[str, Any]:
    """Every schema of the set as a fastjsonschema validator without detailed exceptions (half
    the code of a detailed one, so half the time to generate and compile).

    Generating the validators' Python code and compiling it still costs ~20 ms, as much as
    reading every content file; the compiled code is kept in the user cache dir
    (``paths.cache_dir()``), in a file named by the SHA-256 of the schemas, fastjsonschema's
    version and the Python bytecode version, so a schema edit, an upgrade or another Python
    never reads a stale one. A missing, unreadable or damaged cache file is made again; a cache
    dir that cannot be written is left alone. The validation itself is the same: only
    fastjsonschema's compilation step is kept."""
    import fastjsonschema

    path = _cache_path(schemas)
    codes = _read_codes(path, schemas) if path is not None else None
    if codes is None:
        codes = {name: compile(fastjsonschema.compile_to_code(schema, detailed_exceptions=False),
                               f"<schema {name}>", "exec")
                 for name, schema in schemas.items()}
        if path is not None:
            _write_codes(path, codes)
    out = {}
    for name, code in codes.items():
        namespace: dict[str, Any] = {}
        exec(code, namespace)  # noqa: S102 - fastjsonschema's generated validator, as compile() does
        out[name] = namespace["validate"]
    return out


def _cache_path(schemas: dict[str, Any]) -> Path | None:
    import fastjsonschema

    folder = cache_dir()
    if folder is None:
        return None
    h = hashlib.sha256()
    for part in (str(_CACHE_FORMAT), fastjsonschema.VERSION, importlib.util.MAGIC_NUMBER.hex(),
                 json.dumps(schemas, sort_keys=True, default=repr)):
        h.update(part.encode() + b"\0")
    return folder / f"validators-{h.hexdigest()[:32]}.marshal"


def _read_codes(path: Path, schemas: dict[str, Any]) -> dict[str, Any] | None:
    try:
        codes = marshal.loads(path.read_bytes())
    except (OSError, ValueError, EOFError, TypeError):
        return None
    if (not isinstance(codes, dict) or set(codes) != set(schemas)
            or not all(isinstance(c, types.CodeType) for c in codes.values())):
        return None
    return codes


def _write_codes(path: Path, codes: dict[str, Any]) -> None:
    write_cache_file(path, marshal.dumps(codes))  # a read-only or full disk: the next start compiles again


class Collector:
    """Collects every :class:`Problem` found while reading the content under ``root``; ``schemas``
    are the closed JSON Schemas that :meth:`check` validates against by name."""

    def __init__(self, root: Path, schemas: dict[str, Any] | None = None):
        self.root = root
        self.schemas = schemas or {}
        self.problems: list[Problem] = []
        self._read = hashlib.sha256()  # every file read: its path and bytes (see digest)

    def add(self, code: str, file: str, entry: str, message: str) -> None:
        self.problems.append(Problem(code, file, entry, message))

    def check(self, schema: str, data: Any, file: str, entry: str) -> bool:
        """Validate ``data`` against ``schema``; record a coded problem and return False if it fails."""
        return self.check_with(self.schemas, schema, data, file, entry)

    def check_with(self, schemas: dict[str, Any], schema: str, data: Any, file: str, entry: str) -> bool:
        """Validate ``data`` against ``schemas[schema]`` (JSON Schema, compiled once)."""
        import fastjsonschema

        try:
            _validator(schemas, schema)(data)
        except fastjsonschema.JsonSchemaValueException as plain:
            # which rule failed, and on what value: asked of the detailed validator
            exc = _explained(schemas, schema, data) or plain
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
        tomllib = _tomllib()
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
        self._read.update(f"{rel}\0{len(data)}\0".encode())
        self._read.update(data)
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

    def digest(self) -> str:
        """SHA-256 of every file :meth:`read` has read so far (its path and bytes, in the order
        read): what the content loaded from them depends on."""
        return self._read.hexdigest()

    def rel(self, path: Path) -> str:
        try:
            return path.relative_to(self.root).as_posix()
        except ValueError:
            return str(path)
