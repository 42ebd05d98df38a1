"""bench/english_keyed.py: which literals count as knowledge of English words."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import english_keyed as ek  # noqa: E402


def test_words_and_predicates_count_field_names_do_not():
    lemmas = ek.load_lemmas()
    fields = ek.schema_fields()
    assert {"words", "doc", "examples"} <= fields
    assert ek.english("_become_v_1", lemmas, fields)  # an ERG predicate names its word
    assert ek.english(r"\b(?:sort|kind)s?\b", lemmas, fields)
    assert ek.english("which", lemmas, fields)  # closed-class
    assert not ek.english("words", lemmas, fields)  # a field of the rule files' records
    assert ek.english("words", lemmas, frozenset())
    assert not ek.english("free_vars", lemmas, fields)  # a Python identifier
    assert not ek.english("could not parse the query", lemmas, fields)  # a message


def test_counts_a_keyed_function_and_not_a_docstring(tmp_path):
    src = tmp_path / "m.py"
    src.write_text('''"""Module doc about cities."""
WH = ("who", "whom")


def keyed(x):
    """Doc that says city."""
    return x in WH


def plain(x):
    return x + 1


def also_keyed(w):
    return w == "born"
''', encoding="utf-8")
    p = subprocess.run([sys.executable, str(ROOT / "bench" / "english_keyed.py"), str(src), "--list"],
                       capture_output=True, text=True, check=True)
    assert "m.py:keyed" in p.stdout and "m.py:also_keyed" in p.stdout
    assert "m.py:plain" not in p.stdout
    assert p.stdout.strip().splitlines()[-1] == "functions=3 english_keyed=2 constants=1"
