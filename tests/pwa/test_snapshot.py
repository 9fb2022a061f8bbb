"""The content snapshot the PWA build compiles (handbook.core.snapshot): it loads back as the same
library, and is ignored -- the TOML is loaded instead -- as soon as it does not match the content."""

from __future__ import annotations

import shutil
import tarfile

import pytest

import handbook
from handbook.core import snapshot
from handbook.paths import CONTENT_DIR


@pytest.fixture()
def content(tmp_path):
    dst = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, dst)
    return dst


def test_round_trip_is_the_same_library(content):
    lib = handbook.load_library(content, index=False)
    snapshot.write(lib, content)
    back = snapshot.load(content)
    assert back is not None and back is not lib and back == lib
    assert [h.ref for h in back.search("見せ牌")] == [h.ref for h in lib.search("見せ牌")]
    assert (handbook.revealed_tiles("azrm", 3, library=back).points
            == handbook.revealed_tiles("azrm", 3, library=lib).points)


def test_index_is_not_in_the_snapshot(content):
    lib = handbook.load_library(content, index=True)
    path = snapshot.write(lib, content)
    assert lib._index is not None          # the caller's library keeps its index
    assert snapshot.load(content)._index is None
    assert path.stat().st_size < 1_000_000


@pytest.mark.parametrize("change", ["edit", "add", "remove"])
def test_a_changed_content_folder_ignores_the_snapshot(content, change):
    snapshot.write(handbook.load_library(content, index=False), content)
    if change == "edit":
        p = content / "glossary.toml"
        p.write_text(p.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    elif change == "add":
        (content / "rules" / "extra.toml").write_text("", encoding="utf-8")
    else:
        next((content / "penalties").glob("*.toml")).unlink()
    assert snapshot.load(content) is None


@pytest.mark.parametrize("data", [b"", b"not a snapshot", snapshot._MAGIC + b"\x80\x05garbage"])
def test_a_damaged_or_missing_snapshot_is_ignored(content, data):
    assert snapshot.load(content) is None
    (content / snapshot.SNAPSHOT_NAME).write_bytes(data)
    assert snapshot.load(content) is None


def test_only_the_offline_app_reads_the_shipped_snapshot():
    # a pickle runs code as it loads: outside Pyodide the TOML is always what is read
    assert snapshot.load_shipped() is None


def test_the_build_ships_a_snapshot_that_pyodide_loads(pwa_dir):
    with tarfile.open(pwa_dir / "app.tar.gz", "r:gz") as tar:
        assert "content/" + snapshot.SNAPSHOT_NAME in {n.lstrip("/") for n in tar.getnames()}
    info = __import__("json").loads((pwa_dir / "build-info.json").read_text(encoding="utf-8"))
    assert info["content_snapshot_bytes"] > 0
    if info.get("precompiled"):
        assert info["pyodide_checks"]["snapshot"] is True
