"""The compiled schema validators kept in the user cache dir (handbook.core.problems): a cache
file is named by the schemas, read back instead of compiling, and never trusted when damaged."""

from __future__ import annotations

from pathlib import Path

import fastjsonschema
import pytest

from handbook.core import problems
from handbook.core.problems import Collector

SCHEMAS = {
    "thing": {"type": "object", "properties": {"id": {"type": "string", "pattern": "^[a-z]+$"}},
              "required": ["id"], "additionalProperties": False},
}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _codes(schemas, data):
    col = Collector(Path("."), schemas)
    col.check("thing", data, "things.toml", "x")
    return [p.code for p in col.problems]


def test_compiled_once_then_read_from_the_cache(cache, monkeypatch):
    problems._compile_set(SCHEMAS)
    files = list(cache.glob("validators-*.marshal"))
    assert len(files) == 1

    def no_compiling(*_a, **_k):
        raise AssertionError("compiled again although the cache holds these schemas")

    monkeypatch.setattr(fastjsonschema, "compile_to_code", no_compiling)
    validators = problems._compile_set(SCHEMAS)
    assert validators["thing"]({"id": "abc"}) == {"id": "abc"}
    with pytest.raises(fastjsonschema.JsonSchemaValueException):
        validators["thing"]({"id": "ABC"})


def test_cached_validators_report_the_same_codes(cache):
    schemas = {"thing": dict(SCHEMAS["thing"])}  # a new set: compiled, then read from the cache
    first = [_codes(schemas, d) for d in ({"id": "ok"}, {"id": "ok", "extra": 1}, {}, {"id": 3}, {"id": "X"})]
    problems._validators.clear()
    problems._detailed.clear()
    again = [_codes(schemas, d) for d in ({"id": "ok"}, {"id": "ok", "extra": 1}, {}, {"id": 3}, {"id": "X"})]
    assert first == again == [[], ["HB002"], ["HB003"], ["HB004"], ["HB005"]]


def test_valid_content_never_compiles_a_detailed_validator(cache):
    schemas = {"thing": dict(SCHEMAS["thing"])}
    assert _codes(schemas, {"id": "ok"}) == []
    assert not any(key[0] == id(schemas) for key in problems._detailed)
    assert _codes(schemas, {"id": "ok", "extra": 1}) == ["HB002"]
    assert (id(schemas), "thing") in problems._detailed


def test_a_schema_edit_uses_another_cache_file(cache):
    problems._compile_set(SCHEMAS)
    edited = {"thing": {**SCHEMAS["thing"], "required": []}}
    validators = problems._compile_set(edited)
    assert len(list(cache.glob("validators-*.marshal"))) == 2
    assert validators["thing"]({}) == {}


@pytest.mark.parametrize("damage", [b"", b"not marshal data", b"\xe3garbage", None])
def test_a_damaged_cache_file_is_compiled_again(cache, damage):
    import marshal

    problems._compile_set(SCHEMAS)
    (path,) = cache.glob("validators-*.marshal")
    # None: valid marshal data of the wrong shape
    path.write_bytes(marshal.dumps({"thing": 1}) if damage is None else damage)
    validators = problems._compile_set(SCHEMAS)
    with pytest.raises(fastjsonschema.JsonSchemaValueException):
        validators["thing"]({})
    assert problems._read_codes(path, SCHEMAS) is not None  # written again, whole


def test_no_cache_when_the_cache_dir_is_set_empty(tmp_path, monkeypatch):
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", "")
    monkeypatch.chdir(tmp_path)
    assert problems._compile_set(SCHEMAS)["thing"]({"id": "a"})
    assert not list(tmp_path.rglob("validators-*"))


def test_an_unwritable_cache_dir_only_costs_time(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache folder would be")
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", str(blocker / "cache"))
    assert problems._compile_set(SCHEMAS)["thing"]({"id": "a"})
