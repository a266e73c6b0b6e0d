"""The catalog builder on a small sample: layout, determinism, atomic replacement, progress."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kaomoji_api import create_app, textnorm
from kaomoji_api.catalog import Catalog, CatalogError
from tests.conftest import Quiet
from tools import build_catalog, locales

ROOT = Path(__file__).resolve().parent.parent


def rows(path, sql):
    with sqlite3.connect(path) as db:
        return db.execute(sql).fetchall()


def test_sample_builds_the_requested_number_of_entries(sample_catalog):
    assert rows(sample_catalog, "SELECT count(*) FROM entries") == [(400,)]


def test_ids_are_the_numbers_of_the_dataset_ids(sample_catalog):
    import kaomoji_dataset

    by_id = {int(e["id"].removeprefix("kao_")): e["text"] for e in kaomoji_dataset.all()}
    for entry_id, text in rows(sample_catalog, "SELECT id, text FROM entries"):
        assert by_id[entry_id] == text


def test_building_twice_gives_the_same_content_hash(sample_catalog, tmp_path):
    again = tmp_path / "again.sqlite"
    build_catalog.build(again, sample=400, progress=Quiet())
    version = "SELECT value FROM meta WHERE key = 'version'"
    assert rows(again, version) == rows(sample_catalog, version)


def test_build_replaces_the_file_atomically_and_leaves_no_temporary_file(tmp_path):
    out = tmp_path / "catalog.sqlite"
    out.write_text("an old catalog")
    build_catalog.build(out, sample=50, progress=Quiet())
    assert rows(out, "SELECT count(*) FROM entries") == [(50,)]
    # No temporary file; the catalog under its second name too, the same file (kaomoji_api/current.py).
    assert sorted(p.name for p in tmp_path.iterdir()) == ["catalog.sqlite", "catalog.sqlite.last-good"]
    assert (tmp_path / "catalog.sqlite.last-good").stat().st_ino == out.stat().st_ino


def test_a_failed_build_keeps_the_old_file(tmp_path, monkeypatch):
    out = tmp_path / "catalog.sqlite"
    out.write_text("the old catalog")
    monkeypatch.setattr(build_catalog, "labelled_entries", lambda sample: [{"broken": True}])
    with pytest.raises(KeyError):
        build_catalog.build(out, progress=Quiet())
    assert out.read_text() == "the old catalog"
    assert [p.name for p in tmp_path.iterdir()] == ["catalog.sqlite"]


def test_metadata_names_version_source_attribution_and_counts(sample_catalog):
    meta = dict(rows(sample_catalog, "SELECT key, value FROM meta"))
    assert len(meta["version"]) == 16
    assert meta["source"] == "kaomoji-dataset" and meta["source_version"] == "1.0.6"
    assert meta["attribution"] == "Kaomoji data from FontVibe (https://fontvibe.ai/tools/kaomoji), CC BY 4.0"
    assert [code for (code,) in rows(sample_catalog, "SELECT code FROM locales ORDER BY position")] == locales.locale_codes()
    assert json.loads(meta["counts"])["entries"] == 400
    assert meta["built_at"].endswith("Z")


def test_command_line_prints_plain_progress_and_a_summary(tmp_path):
    out = tmp_path / "cli.sqlite"
    done = subprocess.run(
        [sys.executable, "-m", "tools.build_catalog", "--out", str(out), "--sample", "30"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    assert "entries: 30/30" in done.stderr  # not a terminal: plain lines, no bar
    assert "\r" not in done.stderr
    summary = done.stdout.strip()
    assert summary.startswith(f"built {out}: 30 entries, {len(locales.locale_codes())} locales")
    assert " MB, " in summary and " s, version " in summary


def test_cjk_is_indexed_as_unigrams_and_bigrams():
    assert textnorm.index_tokens("开心脸") == ["开", "心", "脸", "开心", "心脸"]
    assert textnorm.query_tokens("开心") == ["开心"]
    assert textnorm.query_tokens("猫") == ["猫"]
    assert textnorm.query_tokens("可爱猫") == ["可爱", "爱猫"]


def test_a_lone_letter_of_an_alphabet_is_no_token_of_a_query():
    """The t of T_T or don't and the s of it's name nothing; a CJK character and a digit do."""
    assert textnorm.query_tokens("T_T") == [] and textnorm.Query("T_T").tokens(None) == []
    assert textnorm.query_tokens("it's ok") == ["it", "ok"] == textnorm.Query("it's ok").tokens(None)
    assert textnorm.Query("я тебя люблю").tokens(None) == ["тебя", "люблю"]
    assert textnorm.Query("猫 a 2").tokens(None) == ["猫", "2"] == textnorm.query_tokens("猫 a 2")
    assert textnorm.Query("可爱 b 猫咪").tokens(None) == ["可爱", "猫咪"]


def test_normalisation_folds_width_kana_case_and_accents():
    assert textnorm.fold("ｲﾇ") == textnorm.fold("いぬ") == textnorm.fold("イヌ")
    assert textnorm.fold("Colère") == "colere"
    assert textnorm.fold("ＣＡＴ") == "cat"
    assert textnorm.fold("が") == "が"  # kana keep their voicing marks
    assert textnorm.fold("고양이") == "고양이"


def test_app_refuses_a_missing_catalog_with_one_clear_line(tmp_path):
    with pytest.raises(CatalogError, match="catalog not found: .*build it with"):
        create_app({"CATALOG": str(tmp_path / "missing.sqlite")})


def test_app_refuses_a_file_that_is_not_a_catalog(tmp_path):
    bogus = tmp_path / "bogus.sqlite"
    bogus.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(CatalogError, match="not a whole kaomoji catalog"):
        Catalog(bogus)


def test_the_catalog_is_opened_read_only(sample_catalog):
    catalog = Catalog(sample_catalog)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        catalog.db.execute("DELETE FROM entries")


def test_every_locale_file_passes_its_checks():
    reference = locales.load_locale(locales.REFERENCE)
    for code in locales.locale_codes():
        assert locales.problems(code, locales.load_locale(code), reference) == [], code
