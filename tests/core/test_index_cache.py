"""The shipped content's search index kept in the user cache dir (handbook.core.index_cache): read
back only when built from the same content by the same code, never trusted when damaged."""

from __future__ import annotations

import shutil

import pytest

import handbook
from handbook.core import index_cache, load
from handbook.core.search import SearchIndex

QUERIES = [("見せ牌", None), ("手牌を倒して見せてしまった", "azrm"), ("chombo", "azrm"), ("revaeled", None),
           ("mumbled something and grabbed the tile", "wrc-2025"), ("kuikae", "rakkii-nomi-2026"),
           ("12.3.1 (2)", None), ("携帯が鳴った", "ema-rcr")]


@pytest.fixture
def content(tmp_path, monkeypatch):
    """A copy of the shipped content, loaded as the shipped content (``load_library()``), with
    its own cache dir."""
    root = tmp_path / "content"
    shutil.copytree(load.CONTENT_DIR, root)
    monkeypatch.setattr(load, "CONTENT_DIR", root)
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", str(tmp_path / "cache"))
    return root


@pytest.fixture
def builds(monkeypatch):
    """How many times a search index was built (not read from the cache)."""
    count = []
    build = SearchIndex._build

    def counted(self, lib):
        count.append(1)
        return build(self, lib)

    monkeypatch.setattr(SearchIndex, "_build", counted)
    return count


def _results(lib):
    return [[(h.kind, h.ruleset, h.ref, h.score) for h in lib.search(q, ruleset=r)] for q, r in QUERIES]


def _cache_file(tmp_path):
    return tmp_path / "cache" / index_cache.FILE_NAME


def test_the_second_load_reads_the_index_the_first_built(content, builds, tmp_path):
    first = handbook.load_library()
    assert len(builds) == 1 and _cache_file(tmp_path).is_file()
    again = handbook.load_library()
    assert len(builds) == 1, "the index was built again although the cache holds it"
    assert _results(again) == _results(first)


def test_a_restored_index_is_the_built_one(library):
    built = SearchIndex(library)
    restored = SearchIndex.from_state(index_cache.marshal.loads(index_cache.marshal.dumps(built.state())))
    per_process = {"_ja_lock", "latin_unit", "japanese_unit"}
    assert set(vars(restored)) == set(vars(built))
    for name in set(vars(built)) - per_process:
        a, b = getattr(built, name), getattr(restored, name)
        assert type(a) is type(b) and a == b, name
        if isinstance(a, dict):
            assert list(a) == list(b), f"{name}: another order"
    assert [[(h.kind, h.ref, h.score) for h in built.search(q, ruleset=r)] for q, r in QUERIES] == \
        [[(h.kind, h.ref, h.score) for h in restored.search(q, ruleset=r)] for q, r in QUERIES]


def test_no_state_is_taken_once_the_japanese_fields_are_gone(library):
    index = SearchIndex(library)
    index.search("chombo")
    assert index.state()["_ja_pending"]
    index.search("見せ牌")
    with pytest.raises(RuntimeError):
        index.state()


def test_edited_content_is_never_read_from_a_stale_cache(content, builds):
    handbook.load_library()
    glossary = content / "glossary.toml"
    text = glossary.read_text(encoding="utf-8")
    assert 'term = "Chombo"' in text
    glossary.write_text(text.replace('term = "Chombo"', 'term = "Chombozzle"', 1), encoding="utf-8")
    edited = handbook.load_library()
    assert len(builds) == 2, "the edited content's index was read from the cache"
    assert edited.search("chombozzle")[0].ref == "chombo"
    handbook.load_library()
    assert len(builds) == 2, "the edited content's own index was not kept"


def test_changed_code_is_never_read_from_a_stale_cache(content, builds, monkeypatch):
    handbook.load_library()
    monkeypatch.setattr(index_cache, "code_digest", lambda: "another version of handbook.core")
    handbook.load_library()
    assert len(builds) == 2


def test_the_code_digest_is_of_every_source_of_the_core(tmp_path):
    from pathlib import Path

    core = Path(index_cache.__file__).parent
    copy = tmp_path / "core"
    shutil.copytree(core, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert index_cache.code_digest(copy) == index_cache.code_digest()
    for name in ("search/ranking.py", "search/index.py", "load.py", "model.py"):
        source = copy / name
        kept = source.read_bytes()
        source.write_bytes(kept + b"\n# changed\n")
        assert index_cache.code_digest.__wrapped__(copy) != index_cache.code_digest(), name
        source.write_bytes(kept)


@pytest.mark.parametrize("damage", ["flip", "truncate", "garbage", "empty", "other key"])
def test_a_damaged_cache_file_is_ignored_and_made_again(content, builds, tmp_path, damage):
    expected = _results(handbook.load_library())
    path = _cache_file(tmp_path)
    data = bytearray(path.read_bytes())
    if damage == "flip":
        data[len(data) // 2] ^= 0x01
    elif damage == "truncate":
        data = data[: len(data) // 3]
    elif damage == "garbage":
        data = bytearray(b"not an index at all" * 10)
    elif damage == "empty":
        data = bytearray()
    else:  # whole, under a key no content has
        index = SearchIndex(handbook.load_library(content, index=False))
        index_cache.write(path, b"\0" * 32, index)
        data = bytearray(path.read_bytes())
    path.write_bytes(bytes(data))
    builds.clear()
    assert _results(handbook.load_library()) == expected
    assert len(builds) == 1, "a damaged cache file was read"
    builds.clear()
    handbook.load_library()
    assert not builds, "the damaged cache file was not made again"
    assert not list(path.parent.glob("*.tmp")), "a temporary file was left behind"


def test_no_cache_file_when_the_cache_dir_is_set_empty(content, builds, tmp_path, monkeypatch):
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", "")
    handbook.load_library()
    handbook.load_library()
    assert len(builds) == 2 and not (tmp_path / "cache").exists()


def test_another_content_folder_is_not_cached(content, builds, tmp_path):
    handbook.load_library(content)
    assert len(builds) == 1 and not _cache_file(tmp_path).exists()


def test_an_unwritable_cache_dir_only_costs_time(content, builds, tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", str(blocker / "cache"))
    lib = handbook.load_library()
    assert lib.search("chombo") and len(builds) == 1


def test_the_digest_is_of_every_file_read_path_and_bytes(tmp_path):
    from handbook.core.problems import Collector

    (tmp_path / "a.toml").write_text('x = "1"\n')
    (tmp_path / "b.toml").write_text('x = "1"\n')

    def digest(*names):
        col = Collector(tmp_path)
        for name in names:
            col.read(tmp_path / name)
        return col.digest()

    assert digest("a.toml") == digest("a.toml")
    assert digest("a.toml") != digest("b.toml"), "the same bytes under another name"
    assert digest("a.toml") != digest("a.toml", "b.toml")
    before = digest("a.toml")
    (tmp_path / "a.toml").write_text('x = "2"\n')
    assert digest("a.toml") != before


def test_keep_loaded_freezes_what_is_alive_once_per_process(library):
    """The app's first session moves the loaded content out of the collector's way once
    (``keep_loaded``); a later call freezes nothing more, so no later session's garbage is kept."""
    import gc

    from handbook.core.search import keep_loaded

    library.warm()
    keep_loaded()  # the first call in this process, or one made before by another test
    frozen = gc.get_freeze_count()
    assert frozen > 0
    later = [[i] for i in range(1000)]  # noqa: F841 - objects alive after the freeze
    assert keep_loaded() is False
    assert gc.get_freeze_count() == frozen
    assert library.search("chombo")  # the frozen index answers as before
