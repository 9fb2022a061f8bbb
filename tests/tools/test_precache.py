"""The precache's compressed copies (tools/pwa/precache.py ``gzip_precache``): written beside the
files that compress by a fifth or more, kept when a copied build already holds them, and never
trusted when they hold other bytes."""

from __future__ import annotations

import gzip
import os

from tools.pwa.precache import gzip_precache

TEXT = b"riichi deposit, honba, chombo; " * 4000  # compresses far below four fifths
NOISE = os.urandom(4096)                         # does not compress


def test_compressible_files_get_a_gz_copy_the_rest_stay_plain(tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "a.ttf").write_bytes(TEXT)
    (tmp_path / "fonts" / "b.ttf").write_bytes(NOISE)
    (tmp_path / "index.html").write_bytes(TEXT)  # not one of the compressed kinds

    listed = gzip_precache(tmp_path, ["fonts/a.ttf", "fonts/b.ttf", "index.html"])

    assert listed == ["fonts/a.ttf.gz", "fonts/b.ttf", "index.html"]
    assert gzip.decompress((tmp_path / "fonts" / "a.ttf.gz").read_bytes()) == TEXT
    assert not (tmp_path / "fonts" / "b.ttf.gz").exists()
    assert not (tmp_path / "index.html.gz").exists()


def test_a_copy_holding_the_same_bytes_is_kept_as_it_is(tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "a.ttf").write_bytes(TEXT)
    # the same bytes at another level: a different file, which a second compression would replace
    kept = gzip.compress(TEXT, compresslevel=1, mtime=0)
    (tmp_path / "fonts" / "a.ttf.gz").write_bytes(kept)

    assert gzip_precache(tmp_path, ["fonts/a.ttf"]) == ["fonts/a.ttf.gz"]
    assert (tmp_path / "fonts" / "a.ttf.gz").read_bytes() == kept


def test_a_stale_or_damaged_copy_is_written_again(tmp_path):
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "a.ttf").write_bytes(TEXT)
    (tmp_path / "fonts" / "b.ttf").write_bytes(TEXT + b"!")
    (tmp_path / "fonts" / "a.ttf.gz").write_bytes(gzip.compress(b"the build before", mtime=0))
    (tmp_path / "fonts" / "b.ttf.gz").write_bytes(b"\x1f\x8b not gzip")

    assert gzip_precache(tmp_path, ["fonts/a.ttf", "fonts/b.ttf"]) == ["fonts/a.ttf.gz", "fonts/b.ttf.gz"]
    assert gzip.decompress((tmp_path / "fonts" / "a.ttf.gz").read_bytes()) == TEXT
    assert gzip.decompress((tmp_path / "fonts" / "b.ttf.gz").read_bytes()) == TEXT + b"!"
