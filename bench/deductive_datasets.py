"""Deductive verdicts on the benchmark's other datasets: QALD-9-plus, QALD-7, WikiWebQuestions.

`bench/deductive_lcquad.py` measures issue 4 on LC-QuAD 2.0, whose questions are often
ungrammatical.  This script runs the same verifier (cached MRS, shared KG labels) on the gold
pairs and the perturbations of the benchmark datasets that `verifier bench build` writes to
`bench/out/datasets/perturbations.jsonl`, for the benchmarks named by `--benchmarks` (all
splits: the deductive check learns nothing from them), and prints per benchmark the share of
gold pairs accepted and, per perturbation category, the share accepted.  Last line:
`gold_accept=<percent> perturbed_accept=<percent> abstain=<percent> n_gold=<n> n_perturbed=<n>`

    python bench/deductive_datasets.py [--benchmarks qald9plus,qald7,wwq] [--workers 2]
        [--gold-only] [--out bench/out/deductive_datasets.jsonl]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from deductive_lcquad import SHARED, _init, _run  # noqa: E402

DATASET = ROOT / "bench" / "out" / "datasets" / "perturbations.jsonl"


def load_records(path: Path, benchmarks: set[str], gold_only: bool) -> list[dict]:
    """Records of the benchmarks (by the prefix of their id: ``qald9plus-train-11``)."""
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["id"].split("-")[0] not in benchmarks or (gold_only and d["category"] != "gold"):
                continue
            out.append({"id": d["id"], "category": d["category"], "question": d["question"],
                        "sparql": d["sparql"]})
    return out


def pct(rows: list[dict], decision: str) -> float:
    """Share of ``rows`` with ``decision``, in percent."""
    return 100 * sum(r["decision"] == decision for r in rows) / max(1, len(rows))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--benchmarks", default="qald9plus,qald7,wwq")
    ap.add_argument("--dataset", default=str(DATASET), help="benchmark records (verifier bench build)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--gold-only", action="store_true", help="only the gold pairs")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "deductive_datasets.jsonl"))
    args = ap.parse_args(argv)
    if not Path(args.dataset).is_file():
        print(f"no benchmark records at {args.dataset}: run `verifier bench build` first", file=sys.stderr)
        return 2
    items = load_records(Path(args.dataset), set(args.benchmarks.split(",")), args.gold_only)
    init = (str(SHARED / "mrs" / "questions.jsonl.gz"), str(SHARED / "wikidata" / "labels.tsv"))
    with ProcessPoolExecutor(args.workers, initializer=_init, initargs=init) as pool:
        results = list(pool.map(_run, items, chunksize=16))
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for item, r in zip(items, results):
            f.write(json.dumps({**r, "question": item["question"], "sparql": item["sparql"]}) + "\n")
    per: dict[tuple[str, str], Counter] = defaultdict(Counter)
    for r in results:
        per[(r["id"].split("-")[0], r["category"])][r["decision"]] += 1
    print("benchmark   category            n  accept%  abstain%")
    for (bench, cat), c in sorted(per.items()):
        n = sum(c.values())
        print(f"{bench:11} {cat:17} {n:5}  {100 * c['accept'] / n:6.1f}  {100 * c['abstain'] / n:7.1f}")
    gold = [r for r in results if r["category"] == "gold"]
    wrong = [r for r in results if r["category"] != "gold"]
    print(f"gold_accept={pct(gold, 'accept'):.1f} perturbed_accept={pct(wrong, 'accept'):.2f} "
          f"abstain={pct(results, 'abstain'):.1f} n_gold={len(gold)} n_perturbed={len(wrong)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
