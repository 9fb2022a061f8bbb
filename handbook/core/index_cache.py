"""The shipped content's search index kept in the user cache dir, so that a start after the first
reads it (~10 ms) instead of building it (~70 ms).

The file (``paths.cache_dir()/search-index.marshal``, one for the shipped content) holds the
index's :meth:`~handbook.core.search.SearchIndex.state` under a key: the SHA-256 of every content
file the loader read (path and bytes, in the order read), of every source file of
``handbook.core``, and of the versions of Python, its Unicode tables and the stemmer and kana
libraries the index is built with. A different key -- content edited, added or removed, the code
or a library changed -- means the index is built again and the file replaced, so stale data is
never read. The file carries the SHA-256 of its payload: a damaged or foreign file is ignored and
made again. It is written to a temporary file and renamed into place (a start reading it meanwhile
sees the old file whole or the new one whole). A cache dir that cannot be written only costs time;
``HANDBOOK_CACHE_DIR=""`` turns the cache off.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import os
import sys
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

from handbook.core.search import SearchIndex
from handbook.paths import cache_dir, write_cache_file

if TYPE_CHECKING:  # pragma: no cover
    from handbook.core.model import Library

FILE_NAME = "search-index.marshal"
_MAGIC = b"RJH-SEARCH-INDEX 1\n"
_DIGEST = 32  # bytes of the payload's SHA-256, after the magic
_LIBRARIES = ("snowballstemmer", "Stemmer", "jaconv")  # the modules the building calls (Stemmer: PyStemmer)


@functools.lru_cache(maxsize=4)
def code_digest(core: Path | None = None) -> str:
    """SHA-256 of the sources of ``handbook.core`` (the folder ``core``, by default this module's,
    with its packages: ``core/search/``) and of the Python, Unicode and library versions the index is built with (once per process)."""
    h = hashlib.sha256()
    for part in (sys.version, unicodedata.unidata_version, *map(_library, _LIBRARIES)):
        h.update(part.encode() + b"\0")
    root = core or Path(__file__).resolve().parent
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()


def _library(name: str) -> str:
    """A loaded library module's file, size and modification time (an upgrade changes them;
    importlib.metadata would cost more to import than the whole cache saves)."""
    module = sys.modules.get(name)
    file = getattr(module, "__file__", None)
    if not file:
        return f"{name} -"
    st = os.stat(file)
    return f"{name} {file} {st.st_size} {st.st_mtime_ns}"


def key_of(content_digest: str) -> bytes:
    """The cache key of an index built from content with ``content_digest`` by this code."""
    return hashlib.sha256(f"{content_digest}\0{code_digest()}".encode()).digest()


def cached_index(library: Library, content_digest: str) -> SearchIndex:
    """``SearchIndex(library)``, read from the cache file when it was built from the same content
    (``content_digest``, see :meth:`handbook.core.problems.Collector.digest`) by the same code;
    else built and written there."""
    folder = cache_dir()
    if folder is None:
        return SearchIndex(library)
    path = folder / FILE_NAME
    key = key_of(content_digest)
    index = read(path, key)
    if index is None:
        index = SearchIndex(library)
        write(path, key, index)
    return index


def read(path: Path, key: bytes) -> SearchIndex | None:
    """The index in ``path`` if it is whole and was kept under ``key``, else ``None``."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = len(_MAGIC)
    if not data.startswith(_MAGIC) or len(data) < head + _DIGEST:
        return None
    payload = data[head + _DIGEST:]
    if hashlib.sha256(payload).digest() != data[head:head + _DIGEST]:
        return None  # damaged
    try:
        stored_key, state = marshal.loads(payload)
        if stored_key != key:
            return None
        return SearchIndex.from_state(state)
    except (ValueError, TypeError, EOFError, KeyError, AttributeError):
        return None


def write(path: Path, key: bytes, index: SearchIndex) -> None:
    """Keep ``index`` (not searched yet) in ``path`` under ``key``, atomically; an unwritable
    cache dir is left alone."""
    payload = marshal.dumps((key, index.state()))
    # a read-only or full disk: the next start builds the index again
    write_cache_file(path, _MAGIC + hashlib.sha256(payload).digest() + payload)

__all__ = ["FILE_NAME", "cached_index", "code_digest", "key_of", "read", "write"]
