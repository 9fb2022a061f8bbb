"""The app folder ``flet publish`` packs into app.tar.gz: the app, its content compiled, its
catalogs, and pure-Python copies of its dependencies (workaround 4: no micropip in the browser)."""

from __future__ import annotations

import gzip
import importlib.metadata as md
import io
import os
import re
import shutil
import tarfile
from pathlib import Path

from tools.pwa.config import (
    APP_ITEMS,
    BABEL_LOCALES,
    LEMMA_LANGUAGES,
    SKIP_DIRS,
    SKIP_SUFFIXES,
    STEMMERS_KEPT,
    VENDORED,
    log,
)


# =============================================================================================
# 1. The app folder
# =============================================================================================
def _copy_tree(src: Path, dst: Path, *, skip_suffixes: tuple[str, ...] = SKIP_SUFFIXES) -> None:
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        if any(part in SKIP_DIRS or part.startswith(".") for part in rel.parts):
            continue
        if path.is_dir() or path.name.endswith(skip_suffixes):
            continue
        target = dst / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)


def stage_app(root: Path, stage: Path) -> None:
    """Copy what the app needs at run time into ``stage`` (the folder ``flet publish`` packs)."""
    if not (root / "main.py").is_file():
        raise SystemExit(f"{root / 'main.py'} is missing: the PWA runs main.py ([tool.flet.app])")
    if stage.exists():
        shutil.rmtree(stage)
    stage.mkdir(parents=True)
    for item in APP_ITEMS:
        src = root / item
        if src.is_dir():
            _copy_tree(src, stage / item)
        elif src.is_file():
            shutil.copy2(src, stage / item)
    compile_catalogs(root / "locales", stage / "locales")


def compile_content(stage: Path) -> int:
    """Load and validate the staged content (a content error fails the build) and write it as
    ``content/content.snapshot`` (:mod:`handbook.core.snapshot`): the browser then starts without
    parsing TOML, compiling the schema validators and checking references (~0.25 s a start
    under Pyodide here). Returns the snapshot's size in bytes."""
    from handbook.core import snapshot
    from handbook.core.load import ContentError, load_library

    try:
        library = load_library(stage / "content", index=False)
    except ContentError as exc:
        raise SystemExit(f"the content does not validate:\n{exc}") from None
    path = snapshot.write(library, stage / "content")
    log(f"content compiled: {path.relative_to(stage)} ({path.stat().st_size:,} bytes)")
    return path.stat().st_size


def compile_catalogs(src: Path, dst: Path) -> None:
    """``locales/<lang>/LC_MESSAGES/*.po`` -> ``.mo`` (the compiled catalogs are not committed)."""
    if not src.is_dir():
        return
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(src.glob("*/LC_MESSAGES/*.po")):
        mo = dst / po.relative_to(src).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        with mo.open("wb") as f:
            write_mo(f, catalog)
        log(f"compiled {po.relative_to(src.parent)}")


def workaround_vendored_dependencies(stage: Path) -> dict[str, str]:
    """WORKAROUND 4a -- the dependencies micropip would fetch.

    Upstream behaviour: ``python-worker.js`` runs ``micropip.install(...)`` on the app's
    ``requirements.txt`` and ``[project].dependencies``, which fetches wheels from PyPI (and from
    Pyodide's CDN) in the browser on every start: no network, no app. The worker puts the app's
    ``__pypackages__`` first on ``sys.path``, so we put pure-Python copies of every dependency
    there (with their ``.dist-info`` so ``importlib.metadata`` finds them) and, in
    :func:`workaround_no_install_lists`, take the install lists out of the archive, so micropip
    is never even loaded.

    Trimmed on the way: compiled modules (rapidfuzz and msgpack fall back to their pure-Python
    implementations), type stubs, Babel's locale data beyond root/en/ja, snowballstemmer's
    stemmers beyond English, simplemma's dictionaries beyond English, flet's test/server/CLI modules that Pyodide never imports, and fsrs's
    optimizer (torch; the app only schedules).

    Delete when: Flet can bundle dependencies into a published app (it does for ``flet build``).
    """
    pkgs = stage / "__pypackages__"
    pkgs.mkdir(parents=True, exist_ok=True)
    versions: dict[str, str] = {}
    for name in VENDORED:
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            raise SystemExit(f"{name} is not installed: run this script with the project's "
                             f"virtualenv (.venv/bin/python tools/pwa/build.py)") from None
        versions[name] = dist.version
        _vendor_distribution(dist, pkgs)
    _cut_snowballstemmer(pkgs / "snowballstemmer")
    return versions


def _keep_vendored_file(dist_name: str, rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    if rel.startswith("../") or "__pycache__" in parts:
        return False
    if name.endswith((".pyc", ".so", ".pyd", ".pyi", ".pyx", ".pxd", ".c", ".cpp", ".h")):
        return False
    if ".dist-info/" in rel:
        return name in ("METADATA", "top_level.txt") or name.startswith(("LICENSE", "COPYING"))
    if dist_name == "flet" and (parts[1:2] in (["testing"], ["fastapi"])
                                or rel in ("flet/pytest_plugin.py", "flet/cli.py")):
        return False
    if dist_name == "fsrs" and rel == "fsrs/optimizer.py":
        return False  # loaded lazily, only for fitting parameters with torch: never in the app
    if dist_name == "rapidfuzz" and (not name.endswith(".py") or "__pyinstaller" in parts):
        return False
    if dist_name == "babel" and parts[:2] == ["babel", "locale-data"]:
        return name.removesuffix(".dat") in BABEL_LOCALES
    if dist_name == "simplemma" and name.endswith(".plzma"):
        # simplemma lists its languages from the files in data/: English alone is then what it
        # supports. The dictionaries are lzma-compressed pickles; Pyodide 314 has _lzma
        # built in, so they load unchanged (tests/pwa/test_vendored.py).
        return name.removesuffix(".plzma") in LEMMA_LANGUAGES
    if dist_name == "snowballstemmer" and name.endswith("_stemmer.py"):
        return name.removesuffix("_stemmer.py") in STEMMERS_KEPT
    return True


def _vendor_distribution(dist: md.Distribution, pkgs: Path) -> None:
    base = Path(dist.locate_file(""))
    for file in dist.files or ():
        rel = str(file).replace(os.sep, "/")
        if not _keep_vendored_file(dist.metadata["Name"].lower(), rel):
            continue
        src = base / rel
        if src.is_file():
            target = pkgs / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def _cut_snowballstemmer(pkg: Path) -> None:
    """Keep only the stemmers in STEMMERS_KEPT: ``__init__`` imports every language eagerly, so
    drop the import and table lines of the others (the public API ``stemmer()`` and
    ``algorithms()`` is unchanged)."""
    init = pkg / "__init__.py"
    kept = {f"{lang}_stemmer" for lang in STEMMERS_KEPT}
    out = []
    for line in init.read_text(encoding="utf-8").splitlines():
        m = re.match(r"\s*from \.(\w+_stemmer) import \w+$", line)
        if m and m.group(1) not in kept:
            continue
        m = re.match(r"\s*'(\w+)': \w+Stemmer,$", line)
        if m and m.group(1) not in STEMMERS_KEPT:
            continue
        out.append(line)
    init.write_text("\n".join(out) + "\n", encoding="utf-8")


def workaround_no_install_lists(out: Path) -> None:
    """WORKAROUND 4b -- keep micropip idle: rewrite ``app.tar.gz`` without ``requirements.txt``
    (written by ``flet publish`` from ``[project].dependencies``) and ``pyproject.toml`` (whose
    dependencies the worker would also install). See :func:`workaround_vendored_dependencies`.
    """
    archive = out / "app.tar.gz"
    dropped = {"requirements.txt", "pyproject.toml"}
    buf = io.BytesIO()
    with tarfile.open(archive, "r:gz") as src, \
            gzip.GzipFile(fileobj=buf, mode="wb", compresslevel=9, mtime=0) as gz, \
            tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as dst:
        for member in sorted(src.getmembers(), key=lambda m: m.name):
            if member.name.lstrip("./") in dropped:
                continue
            member.mtime = 0                       # reproducible archive, stable cache name
            member.uid = member.gid = 0
            member.uname = member.gname = ""
            dst.addfile(member, src.extractfile(member) if member.isfile() else None)
    archive.write_bytes(buf.getvalue())


def check_archive(archive: Path) -> None:
    with tarfile.open(archive, "r:gz") as tar:
        names = {n.lstrip("/") for n in tar.getnames()}
    for required in ("main.py", "handbook/__init__.py", "__pypackages__/flet/__init__.py"):
        if required not in names and required + "c" not in names:   # .pyc when precompiled
            raise SystemExit(f"{archive} lacks {required}")
    for forbidden in ("requirements.txt", "pyproject.toml"):
        if forbidden in names:
            raise SystemExit(f"{archive} still has {forbidden}: micropip would go online")

