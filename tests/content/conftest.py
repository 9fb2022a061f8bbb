"""Fixtures with the source documents of ``../shared/seeds``, parsed by ``seedparse.py``."""

from __future__ import annotations

import pytest

from tests.support import seedparse  # tests/content/seedparse.py


@pytest.fixture(scope="session")
def azrm_source(seeds_dir) -> str:
    return seedparse.read(seeds_dir, seedparse.AZRM_FILE)


@pytest.fixture(scope="session")
def azrm_source_sections(azrm_source):
    return seedparse.azrm_sections(azrm_source)


@pytest.fixture(scope="session")
def azrm_source_glossary(azrm_source):
    return seedparse.azrm_glossary(azrm_source)


@pytest.fixture(scope="session")
def azrm_source_revisions(azrm_source):
    return seedparse.azrm_revisions(azrm_source)


@pytest.fixture(scope="session")
def ema_source_sections(seeds_dir):
    return seedparse.ema_sections(seeds_dir)


@pytest.fixture(scope="session")
def ema_table_source(seeds_dir) -> str:
    return seedparse.read(seeds_dir, seedparse.EMA_TABLE_FILE)


@pytest.fixture(scope="session")
def wrc_source(seeds_dir) -> str:
    return seedparse.read(seeds_dir, seedparse.WRC_FILE)


@pytest.fixture(scope="session")
def rakkii_source_sections(wrc_source):
    return seedparse.rakkii_sections(wrc_source)


@pytest.fixture(scope="session")
def wrc_source_categories(wrc_source):
    return seedparse.wrc_table(wrc_source)[0]


@pytest.fixture(scope="session")
def wrc_source_rows(wrc_source):
    return seedparse.wrc_table(wrc_source)[1]
