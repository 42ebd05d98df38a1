"""``verifier setup wordnet``: builds the table from a local WordNet, refuses clearly without one."""

from __future__ import annotations

from pathlib import Path

import pytest

from verifier.cli import main
from verifier.lexical import WordNetRelations


def test_setup_wordnet_without_database_fails_clearly(tmp_path, capsys):
    rc = main(["setup", "wordnet", "--wordnet-dir", str(tmp_path), "--out", str(tmp_path / "wn.json.gz")])
    assert rc == 1
    assert "no WordNet database found" in capsys.readouterr().err
    assert not (tmp_path / "wn.json.gz").exists()


def test_setup_wordnet_keeps_an_existing_table(tmp_path, capsys):
    out = tmp_path / "wn.json.gz"
    out.write_bytes(b"x")
    assert main(["setup", "wordnet", "--out", str(out)]) == 0
    assert "exists" in capsys.readouterr().out
    assert out.read_bytes() == b"x"


@pytest.mark.skipif(not Path("/usr/share/wordnet/data.noun").is_file(), reason="no WordNet database")
def test_wordnet_table_links_born_to_birth(tmp_path):
    out = tmp_path / "wn.json.gz"
    assert WordNetRelations.build("/usr/share/wordnet", out, words=["born", "bear", "develop"]) == 3
    rel = WordNetRelations.load(out)
    assert "birth" in rel.keys_for("bear") or "birth" in {k[:5] for k in rel.keys_for("bear")}
    assert rel.keys_for("unknownword") == set()
