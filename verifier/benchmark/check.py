"""Re-verify built datasets (``verifier bench check``).

* file hashes agree with ``manifest.json``;
* perturbations: every record's ``sparql`` parses; labels agree with categories; a seeded
  sample (or all) of the perturbed records is re-proved *not* equivalent to the gold query,
  and the gold records' regenerated queries equivalent to it; ``nonexistent_id`` targets are
  absent from the label file;
* unknown-URI / unknown-template splits: their property checks
  (:mod:`verifier.benchmark.splits`);
* out-of-ontology: labels agree with categories and the unknown symbol sets are disjoint.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path

from verifier.benchmark.gold import file_sha256
from verifier.benchmark.records import DATASET_FILES, MANIFEST_FILE, read_records

__all__ = ["check_datasets"]


def check_datasets(out_dir: str | Path, *, sample: int = 300, timeout_ms: int = 4000,
                   labels_path: str | Path | None = None) -> tuple[list[str], list[str]]:
    """``(problems, notes)`` for the datasets in ``out_dir``; no problems = all good."""
    from parsers.sparql import SparqlError, parse_query
    from verifier.prover import equivalent

    d = Path(out_dir)
    problems: list[str] = []
    notes: list[str] = []
    mpath = d / MANIFEST_FILE
    manifest = json.loads(mpath.read_text()) if mpath.is_file() else {}
    if not manifest:
        problems.append(f"{mpath} missing")
    for name, info in manifest.get("datasets", {}).items():
        p = d / info["file"]
        if not p.is_file():
            problems.append(f"{name}: {p} missing")
        elif file_sha256(p) != info.get("sha256"):
            problems.append(f"{name}: {p.name} differs from the manifest hash")
    path = d / DATASET_FILES["perturbations"]
    if path.is_file():
        recs = list(read_records(path))
        known: set[str] | None = None
        if labels_path is not None and Path(labels_path).is_file():
            from verifier.benchmark.plausible import read_labels

            known = set(read_labels(labels_path))
        for r in recs:
            if (r.label == 1) != (r.category == "gold"):
                problems.append(f"{r.id}: label {r.label} with category {r.category}")
            try:
                parse_query(r.sparql or "")
            except SparqlError:
                problems.append(f"{r.id}: sparql does not parse")
            if known is not None and r.category == "nonexistent_id" and r.detail.get("to_id") in known:
                problems.append(f"{r.id}: {r.detail.get('to_id')} exists in the label file")
        idx = list(range(len(recs)))
        if sample and sample < len(recs):
            idx = sorted(random.Random("check").sample(idx, sample))
        checked = defaultdict(int)
        for i in idx:
            r = recs[i]
            try:
                res = equivalent(parse_query(r.gold_sparql or ""), parse_query(r.sparql or ""),
                                 timeout_ms=timeout_ms)
            except SparqlError as e:
                problems.append(f"{r.id}: {e}")
                continue
            want = r.category == "gold"
            if res.equivalent is not want:
                problems.append(f"{r.id} ({r.category}): equivalent() = {res.equivalent}, "
                                f"expected {want}")
            checked[r.category] += 1
        notes.append(f"perturbations: {len(recs)} records parse-checked, {len(idx)} "
                     f"equivalence-checked {dict(sorted(checked.items()))}"
                     + ("" if known is not None else "; no label file: non-existent ids "
                        "not re-checked"))
    for name in ("unknown_uri", "unknown_template"):
        path = d / DATASET_FILES[name]
        if not path.is_file():
            continue
        from verifier.benchmark.splits import (SplitPropertyError, check_unknown_template_split,
                                               check_unknown_uri_split)

        recs = list(read_records(path))
        try:
            if name == "unknown_uri":
                check_unknown_uri_split(recs)
            else:
                check_unknown_template_split(recs, recompute=True)
            notes.append(f"{name}: split properties hold ({len(recs)} records)")
        except SplitPropertyError as e:
            problems.append(str(e))
    path = d / DATASET_FILES["out_of_ontology"]
    if path.is_file():
        recs = list(read_records(path))
        for r in recs:
            if r.label != (1 if r.category == "in_ontology" else 0):
                problems.append(f"{r.id}: label {r.label} with category {r.category}")
        onto = d / "ontology_split"
        if onto.is_dir():
            from verifier.benchmark.ontology_split import SplitError, check_split, read_ontology_split

            try:
                check_split(read_ontology_split(onto))
                notes.append(f"out_of_ontology: ontology split properties hold ({len(recs)} records)")
            except SplitError as e:
                problems.append(str(e))
    return problems, notes
