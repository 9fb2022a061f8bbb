"""Patches as data (issue 28): the records of Flet's and Pyodide's files, the engine that applies
them (``handbook.patching``), ``python -m tools.pwa verify``, and the served app's warning."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from handbook import patching
from handbook.patching import APPLIED, MISMATCH, Lenient, Patch, PatchMismatch, apply_patches
from handbook.ui import webclient
from tools.pwa import flet_patches
from tools.pwa.flet_patches import PATCHES, published_copy, verify

ROOT = Path(__file__).resolve().parents[2]


def _web_dir() -> Path:
    from flet_web import get_package_web_dir

    return Path(get_package_web_dir())


def test_verify_lists_every_patch_as_applied_for_the_pinned_flet():
    outcomes = verify()
    assert [o.patch for o in outcomes] == list(PATCHES)
    assert [(o.patch.name, o.status) for o in outcomes if o.status != APPLIED] == []
    # every record says why it exists and when it can go
    assert all(p.why and p.remove_when for p in PATCHES)


def test_verify_command_prints_each_patch(tmp_path):
    res = subprocess.run([sys.executable, "-m", "tools.pwa", "verify"], cwd=ROOT, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stdout + res.stderr
    lines = res.stdout.splitlines()
    for patch in PATCHES:
        assert any(line.startswith("applied") and line.endswith(patch.name) for line in lines), patch.name
    assert f"{len(PATCHES)} applied, 0 mismatch" in res.stdout


def _broken_copy(tmp_path: Path) -> Path:
    """Flet's client as published, with two anchors gone (as an upgrade might leave it)."""
    web = published_copy(_web_dir(), tmp_path / "web")
    bootstrap = web / "flutter_bootstrap.js"
    bootstrap.write_text(bootstrap.read_text(encoding="utf-8").replace(webclient.FLUTTER_CONFIG, "var cfg = {"),
                         encoding="utf-8")
    worker = web / "python-worker.js"
    worker.write_text(worker.read_text(encoding="utf-8").replace('pkgs_path = "__pypackages__"', 'pkgs = "x"'),
                      encoding="utf-8")
    return web


def test_every_mismatch_is_reported_at_once_and_nothing_is_written(tmp_path):
    web = _broken_copy(tmp_path)
    before = {p: p.read_bytes() for p in web.rglob("*") if p.is_file()}
    publish = [p for p in PATCHES if p.stage == "publish"]
    with pytest.raises(PatchMismatch) as info:
        apply_patches(web, publish)
    failed = {(o.patch.target, o.patch.name) for o in info.value.outcomes}
    assert failed == {("flutter_bootstrap.js", "skwasm on one thread"),
                      ("python-worker.js", "start-up mark: archive unpacked")}
    assert "skwasm on one thread" in str(info.value) and "archive unpacked" in str(info.value)
    # no partial write: not even the files whose patches all matched
    assert {p: p.read_bytes() for p in web.rglob("*") if p.is_file()} == before


def test_verify_of_another_client_lists_applied_and_mismatch(tmp_path):
    web = _broken_copy(tmp_path)
    res = subprocess.run([sys.executable, "-m", "tools.pwa", "verify", "--web", str(web)], cwd=ROOT,
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 1
    statuses = {line.split()[0] for line in res.stdout.splitlines() if line.startswith(("applied", "mismatch"))}
    assert statuses == {"applied", "mismatch"}
    # the three records anchored on pkgs_path all fail; the others still apply
    assert f"{len(PATCHES) - 4} applied, 4 mismatch" in res.stdout, res.stdout


def test_the_engine_checks_each_anchor_after_the_records_before_it():
    twice = Patch("twice", "f.js", "a", "aa")
    content, outcomes = patching.patch_content("a b", [twice, Patch("then", "f.js", "aa", "c")])
    assert content == "c b" and [o.status for o in outcomes] == [APPLIED, APPLIED]
    _, outcomes = patching.patch_content("a a", [twice])
    assert outcomes[0].status == MISMATCH and "found 2 times" in outcomes[0].detail


def test_served_client_warns_of_a_non_essential_mismatch_and_starts(monkeypatch, tmp_path, capsys):
    web = tmp_path / "web"
    (web / "assets").mkdir(parents=True)
    (web / "main.dart.js").write_text("no runtime URL here", encoding="utf-8")   # as a newer Flet might
    (web / "flutter_bootstrap.js").write_text("var flutterConfig = {\n};", encoding="utf-8")
    (web / "assets" / "FontManifest.json").write_text("[]", encoding="utf-8")
    import flet_web

    monkeypatch.setattr(flet_web, "get_package_web_dir", lambda: str(web))
    monkeypatch.setenv("HANDBOOK_CACHE_DIR", "")
    monkeypatch.setattr(webclient, "_patched", {})
    made = webclient._rewritten_client()
    assert made["main.dart.js"].read_text(encoding="utf-8") == "no runtime URL here"
    assert "forceSingleThreadedSkwasm: true" in made["flutter_bootstrap.js"].read_text(encoding="utf-8")
    err = capsys.readouterr().err
    assert "WARNING" in err and webclient.RIVE_JS.name in err


def test_an_essential_mismatch_still_stops_the_served_client():
    essential = Patch("needed", "x.js", "anchor", "new")
    with pytest.raises(PatchMismatch):
        Lenient().patch("nothing to see", [essential])


def test_no_module_is_over_700_lines():
    sizes = {p.relative_to(ROOT).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
             for folder in ("tools", "handbook") for p in (ROOT / folder).rglob("*.py")}
    assert {k: v for k, v in sizes.items() if v > 700} == {}
    assert flet_patches.STAGES[0] == "publish"
