"""Quickstart: verify three queries for one question (runs on a fresh clone, no downloads).

    python examples/quickstart.py

The chemistry example's configuration supplies the question's MRS readings (from ACE, cached)
and the labels of the identifiers; with ACE and the ERG configured, any question works.
"""

from pathlib import Path

from verifier import verify

CONFIG = Path(__file__).parent / "chemistry" / "verifier.toml"
QUESTION = "What is the mass of benzene?"
QUERIES = {
    "correct": "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }",            # mass (P2067) of benzene
    "wrong property": "SELECT ?v WHERE { wd:Q2270 wdt:P2102 ?v }",     # boiling point
    "swapped direction": "SELECT ?v WHERE { ?v wdt:P2067 wd:Q2270 }",
}

for name, sparql in QUERIES.items():
    v = verify(QUESTION, sparql, config=CONFIG)
    print(f"{name}: {v.decision} (score {v.score:.2f})")
    print("   ", v.explanation.replace("\n", "\n    "))
