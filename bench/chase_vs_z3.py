"""The chase refuter against Z3 on the deductive bench's own entailment checks.

Verifies a sample of the pairs of ``bench/deductive_lcquad.py`` (gold queries and their
perturbations, cached MRS) and records every entailment check the deductive verdict asks
(soundness, completeness, consistency, the per-atom diagnosis).  Each check is then decided
twice: by Z3 alone (``chase=False``) and by the chase (:mod:`verifier.chase`), and the script
counts how often the chase refutes, whether it ever refutes a check that Z3 proves or leaves
undecided (it must not), and the time each takes for the checks the chase refutes.  Last line:
``checks=<n> z3_refuted=<n> chase_refuted=<n> disagreements=<n> z3_ms=<x> chase_ms=<x> speedup=<x>``

    python bench/chase_vs_z3.py [--n 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300, help="bench pairs to verify (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="which pairs (shuffle seed; default 1)")
    args = ap.parse_args(argv)

    import deductive_lcquad as bench
    import verifier.deductive.diagnose as diagnose_mod
    import verifier.deductive.pipeline as deductive
    from verifier import chase as chase_mod
    from verifier.prover import _as_premises, entails, entails_each

    if not (bench.SHARED / "mrs" / "questions.jsonl.gz").exists():
        print(f"shared data not found under {bench.SHARED}", file=sys.stderr)
        return 2
    problems: list[tuple[list, object, dict]] = []

    def record(premises, conclusion, **kw):
        problems.append((_as_premises(premises), conclusion, kw))
        return entails(premises, conclusion, **kw)

    def record_each(premises, conclusions, **kw):
        prem = _as_premises(premises)
        for c in conclusions:
            problems.append((prem, c, {**kw, "countermodel": False}))
        return entails_each(prem, conclusions, **kw)

    pairs, _, _ = bench.load_pairs(1000, 0)
    items = [{"id": d["id"], "question": d["question"], "sparql": d["sparql"], "category": "gold",
              "label": 1} for d in pairs]
    items += bench.perturbations(pairs, 0)
    random.Random(args.seed).shuffle(items)
    items = items[: args.n]
    bench._init(str(bench.SHARED / "mrs" / "questions.jsonl.gz"), str(bench.SHARED / "wikidata" / "labels.tsv"))
    deductive.entails, diagnose_mod.entails_each = record, record_each
    try:
        for i, it in enumerate(items, 1):
            bench._run(it)
            if i % 50 == 0:
                print(f"  {i}/{len(items)} pairs, {len(problems)} checks", file=sys.stderr)
    finally:
        deductive.entails, diagnose_mod.entails_each = entails, entails_each

    z3_refuted = chase_refuted = disagreements = 0
    z3_ms = chase_ms = 0.0
    for prem, conclusion, kw in problems:
        t0 = time.perf_counter()
        z = entails(prem, conclusion, **{**kw, "chase": False})
        t1 = time.perf_counter()
        model = chase_mod.chase([p.formula for p in prem], [conclusion])
        refuted = model is not None and model.satisfies(conclusion) is False
        t2 = time.perf_counter()
        z3_refuted += z.status == "refuted"
        if refuted:
            chase_refuted += 1
            z3_ms += (t1 - t0) * 1000
            chase_ms += (t2 - t1) * 1000
            if z.status != "refuted":
                disagreements += 1
                print(f"DISAGREEMENT: Z3 {z.status} ({z.reason}) for {conclusion}", file=sys.stderr)
    print(f"pairs {len(items)}, checks {len(problems)}; Z3 refuted {z3_refuted}, the chase "
          f"{chase_refuted} of them ({100 * chase_refuted / max(1, z3_refuted):.1f} %)")
    print(f"on the checks the chase refutes: Z3 {z3_ms:.0f} ms, chase {chase_ms:.0f} ms")
    print(f"checks={len(problems)} z3_refuted={z3_refuted} chase_refuted={chase_refuted} "
          f"disagreements={disagreements} z3_ms={z3_ms:.0f} chase_ms={chase_ms:.0f} "
          f"speedup={z3_ms / max(chase_ms, 1e-9):.1f}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
