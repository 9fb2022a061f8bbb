"""The shipped content compiled once, at build time, into a snapshot that loads without TOML.

The offline app (PWA) starts in the browser, where parsing the TOML files, compiling the schema
validators and checking every cross-reference cost about a quarter of a second on each start.
``tools/pwa/build.py`` loads and validates the content once (a :class:`~handbook.ContentError`
fails the build) and writes the resulting :class:`~handbook.Library` with :func:`write` beside
the content; :func:`load` reads it back.

A snapshot is only used while it matches the content: it carries the SHA-256 of every content
file, and :func:`load` returns ``None`` (the caller then loads the TOML as usual) when a file was
added, removed or edited since, when the snapshot is damaged, or when it was written by another
version of this module. The served app and the tests have no snapshot and never notice it.
The search index is not in it: the app builds it after its first frame (:meth:`Library.warm`).
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library

#: The snapshot's file name, in the content folder.
SNAPSHOT_NAME = "content.snapshot"
#: Bumped when the layout below changes: an older snapshot is then ignored.
FORMAT = 2
_MAGIC = b"RJH-CONTENT-SNAPSHOT\n"


def _mapping_proxy(d: dict) -> MappingProxyType:
    return MappingProxyType(d)


def _reduce_mapping_proxy(m: MappingProxyType):
    return _mapping_proxy, (dict(m),)


class _Pickler(pickle.Pickler):
    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[MappingProxyType] = _reduce_mapping_proxy


def content_digest(content_dir: str | os.PathLike) -> str:
    """SHA-256 over the path and bytes of every file under ``content_dir`` except the snapshot."""
    root = Path(content_dir)
    h = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and p.name != SNAPSHOT_NAME):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def write(library: Library, content_dir: str | os.PathLike) -> Path:
    """Write ``library`` (loaded from ``content_dir``, without its search index) as
    ``content_dir/content.snapshot``; returns the path."""
    buf = io.BytesIO()  # the pickle leaves the search index out (Library.__getstate__)
    _Pickler(buf, protocol=5).dump((FORMAT, content_digest(content_dir), library))
    path = Path(content_dir) / SNAPSHOT_NAME
    path.write_bytes(_MAGIC + buf.getvalue())
    return path


def load(content_dir: str | os.PathLike) -> Library | None:
    """The library of ``content_dir``'s snapshot, or ``None`` when there is none or it does not
    match the content files (see the module docstring)."""
    path = Path(content_dir) / SNAPSHOT_NAME
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if not data.startswith(_MAGIC):
        return None
    try:
        fmt, digest, library = pickle.loads(data[len(_MAGIC):])
    except Exception:  # noqa: BLE001 - a damaged or foreign snapshot: load the TOML instead
        return None
    from handbook.core.model import Library

    if fmt != FORMAT or not isinstance(library, Library) or digest != content_digest(content_dir):
        return None
    return library


def load_shipped() -> Library | None:
    """The shipped content's snapshot in the offline app (Pyodide), else ``None``.

    Only there: a snapshot is a pickle, which runs code as it loads, so only the app's own build
    output is read -- never a content folder someone hands to ``python -m handbook``."""
    import sys

    if sys.platform != "emscripten":
        return None
    from handbook.paths import CONTENT_DIR

    return load(CONTENT_DIR)


__all__ = ["SNAPSHOT_NAME", "content_digest", "load", "load_shipped", "write"]
