"""The out-of-ontology split (Bacciu et al.) as benchmark records.

Built by :mod:`verifier.benchmark.ontology_split` (the HDM engineer's module, reused as is:
symbols with at most 2 occurrences can become unknown, disjoint unknown sets for
detect_train / detect_dev / detect_test, checked by
:func:`~verifier.benchmark.ontology_split.check_split`).  This module only converts its
examples to the benchmark record format, with the benchmark's label convention:

* ``label`` 1 = in-ontology (the question can be served), 0 = out-of-ontology or
  out-of-domain (must be refused).  The split module itself uses the opposite
  (``label`` 1 = must not be served); its value is kept as ``refuse_label``.
* ``split``: ``parser_train``, ``detect_train``, ``detect_dev``, ``detect_test``;
  ``sparql`` = ``gold_sparql`` = the gold query (``None`` for out-of-domain utterances).
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from verifier.benchmark.gold import GoldPair
from verifier.benchmark.ontology_split import OntologySplit
from verifier.benchmark.records import BenchRecord

__all__ = ["ontology_records"]


def ontology_records(split: OntologySplit, gold: Sequence[GoldPair], *,
                     mrs: Mapping[str, bool] | None = None,
                     ood_mrs: frozenset[str] = frozenset()) -> list[BenchRecord]:
    """Benchmark records of a built (and checked) ontology split, in its order."""
    by_id = {p.id: p for p in gold}
    out: list[BenchRecord] = []
    for e in split.examples:
        p = by_id.get(e.id)
        if e.category == "out_of_domain":
            source, has = f"snips/{e.split}", e.question in ood_mrs
        else:
            source = p.source if p is not None else e.dataset
            has = bool((mrs or {}).get(e.id, False))
        extra: dict[str, Any] = {"split": e.split, "parser_split": e.parser_split,
                                 "dataset": e.dataset, "symbols": list(e.symbols),
                                 "refuse_label": e.label}
        out.append(BenchRecord(
            id=e.id, question=e.question, sparql=e.sparql, gold_sparql=e.sparql,
            label=1 if e.category == "in_ontology" else 0, category=e.category, source=source,
            detail={"unknown_symbols": list(e.unknown_symbols)}, has_mrs=has, extra=extra))
    return out
