"""The chase refuter against Z3 on the deductive bench's own entailment checks.

Verifies a sample of the pairs of ``bench/deductive_lcquad.py`` (gold queries and their
perturbations, cached MRS) or, with ``--data llm``, of the shared LLM predictions (whose
queries filter on numbers and dates, negate, and compare), and records every entailment check
the deductive verdict asks (soundness, completeness, consistency, the per-atom diagnosis).
Each check is then decided by Z3 alone (``chase=False``), by the chase's least model alone,
and by the prover as it runs (``chase=True``: the chase with open numbers filled in,
defeaters of negated parts and, in the diagnosis, proofs in the universal model; docs/
deductive.md).  The script counts how often the chase refutes, whether it ever refutes a
check that Z3 proves or leaves undecided (it must not), whether the prover as it runs ever
gives a status other than Z3's where both decide, and the time each takes.  Last line:
``checks=<n> z3_refuted=<n> chase_refuted=<n> disagreements=<n> z3_ms=<x> chase_ms=<x> speedup=<x>
prover_decided=<n> prover_disagreements=<n>``

    python bench/chase_vs_z3.py [--n 300] [--seed 1] [--data lcquad|llm]
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
    ap.add_argument("--data", choices=("lcquad", "llm"), default="lcquad",
                    help="the LC-QuAD bench's pairs (default) or the shared LLM predictions")
    args = ap.parse_args(argv)

    import deductive_lcquad as bench
    import verifier.deductive.diagnose as diagnose_mod
    import verifier.deductive.pipeline as deductive
    from verifier import chase as chase_mod
    from verifier.prover import _as_premises, entails, entails_each

    if not (bench.SHARED / "mrs" / "questions.jsonl.gz").exists():
        print(f"shared data not found under {bench.SHARED}", file=sys.stderr)
        return 2
    problems: list[tuple[list, object, dict, str]] = []

    def record(premises, conclusion, **kw):
        problems.append((_as_premises(premises), conclusion, kw, "one"))
        return entails(premises, conclusion, **kw)

    def record_each(premises, conclusions, **kw):
        prem = _as_premises(premises)
        for c in conclusions:
            problems.append((prem, c, kw, "each"))
        return entails_each(prem, conclusions, **kw)

    if args.data == "llm":
        import tempfile

        import verify_latency as runner

        items = runner.load_items(runner.DEFAULT_DATA, args.n, args.seed, None)
        cfg = Path(tempfile.mkdtemp()) / "verifier.toml"
        cfg.write_text(runner.config_text([]))
        runner._init(str(cfg))
    else:
        runner = bench
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
            runner._run(it)
            if i % 50 == 0:
                print(f"  {i}/{len(items)} pairs, {len(problems)} checks", file=sys.stderr)
    finally:
        deductive.entails, diagnose_mod.entails_each = entails, entails_each

    z3_refuted = chase_refuted = disagreements = decided = prover_disagreements = 0
    z3_ms = chase_ms = 0.0
    for prem, conclusion, kw, kind in problems:
        kw = {k: v for k, v in kw.items() if k != "deadline"}  # the run's deadlines are spent
        t0 = time.perf_counter()
        z = entails(prem, conclusion, **{**kw, "chase": False, **({"countermodel": False} if kind == "each" else {})})
        t1 = time.perf_counter()
        model = chase_mod.chase([p.formula for p in prem], [conclusion])
        refuted = model is not None and model.satisfies(conclusion) is False
        t2 = time.perf_counter()
        # the prover as it runs: the same call as the verdict's
        r = (entails_each(prem, [conclusion], **{**kw, "chase": True})[0] if kind == "each"
             else entails(prem, conclusion, **{**kw, "chase": True}))
        if r.status != "unknown" and z.status != "unknown":
            decided += 1
            if r.status != z.status:
                prover_disagreements += 1
                print(f"PROVER DISAGREEMENT: Z3 {z.status}, with the chase {r.status} ({r.reason}) for {conclusion}",
                      file=sys.stderr)
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
          f"speedup={z3_ms / max(chase_ms, 1e-9):.1f} prover_decided={decided} "
          f"prover_disagreements={prover_disagreements}")
    return 1 if disagreements or prover_disagreements else 0


if __name__ == "__main__":
    raise SystemExit(main())
