"""Shared fixtures for the whole test suite.

* ``library`` — the shipped content, loaded once per session with :func:`handbook.load_library`.
* ``content_copy`` — a private copy of the shipped ``content/`` folder under ``tmp_path``, so a
  test can break one file and load the copy.
* ``seeds_dir`` — the folder of source documents the content was transcribed from.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import handbook

ROOT = Path(handbook.__file__).resolve().parent.parent
CONTENT_DIR = ROOT / "content"
# the source documents live next to the checkout (../shared/seeds); SEEDS_DIR overrides
SEEDS_DIR = Path(os.environ.get("SEEDS_DIR", ROOT.parent / "shared" / "seeds"))


@pytest.fixture(scope="session")
def root_dir() -> Path:
    """The repository root (the folder that holds ``handbook/`` and ``content/``)."""
    return ROOT


@pytest.fixture(scope="session")
def content_dir() -> Path:
    """The shipped content folder (never modify it: use ``content_copy``)."""
    return CONTENT_DIR


@pytest.fixture(scope="session")
def library() -> handbook.Library:
    """The shipped content, parsed, validated and indexed once per session."""
    return handbook.load_library()


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    """A fresh copy of the shipped content folder that a test may break."""
    dest = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, dest)
    return dest


@pytest.fixture(scope="session")
def seeds_dir() -> Path:
    """The source documents (skips the test where they are not available)."""
    if not (SEEDS_DIR / "000_bc6b2cad94d87a93.txt").is_file():
        pytest.skip(f"source documents not found in {SEEDS_DIR} (set SEEDS_DIR)")
    return SEEDS_DIR


@pytest.fixture(scope="session", autouse=True)
def private_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every test (and every server a test starts) keeps user data in a private folder, never in
    the developer's own data directory."""
    path = tmp_path_factory.mktemp("user-data")
    old = {k: os.environ.get(k) for k in ("HANDBOOK_DATA_DIR", "FLET_APP_STORAGE_DATA")}
    os.environ["HANDBOOK_DATA_DIR"] = str(path)
    os.environ.pop("FLET_APP_STORAGE_DATA", None)
    yield path
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
