"""Test deletions proposed by ``bench/ablate_rules.py`` on data that neither the rules nor the
ablation saw (issue 58, point 3): LC-QuAD 2.0 test pairs outside the seed-0 sample and outside
the ablation's ``lcquad_off`` subset (``--lcq``, seeded), and WikiWebQuestions *train* gold pairs
(``--wwq``, seeded; the ablation's ``datasets`` set has the dev split), each with the
perturbations of ``bench/deductive_lcquad.py``.  One JSON line per item to OUT (for
``bench/decision_diff.py``); last lines: gold and perturbations accepted per set.

    VERIFIER_DEADLINE_CLOCK=cpu PYTHONPATH=$PWD python bench/ablate_confirm.py base.jsonl
    VERIFIER_DEADLINE_CLOCK=cpu PYTHONPATH=$PWD python bench/ablate_confirm.py off.jsonl \\
        --disable-rules a,b --disable-checks c --disable-shapes d,e
    python bench/decision_diff.py base.jsonl off.jsonl
"""
import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
import ablate_rules as ab
import deductive_lcquad as dl
ap = argparse.ArgumentParser(); ap.add_argument("out"); ap.add_argument("--disable-checks", default="")
ap.add_argument("--disable-shapes", default=""); ap.add_argument("--disable-rules", default=""); ap.add_argument("--wwq", type=int, default=500); ap.add_argument("--lcq", type=int, default=300)
a = ap.parse_args()
# LC-QuAD: the off-sample pairs not in the ablation's subset (seed 0, 600)
pairs, _, sample_ids = dl.load_pairs(100_000, 0)
other = [p for p in pairs if p["id"] not in sample_ids]
used = {p["id"] for p in random.Random(1).sample(other, min(600, len(other)))}
rest = [p for p in other if p["id"] not in used]
items = ab._with_perturbations("lcquad_held", random.Random(7).sample(rest, a.lcq), 0)
seen = {p["question"] for p in pairs}
gold = []
for line in open(ab.SHARED / "wikiwebquestions/train.jsonl"):
    d = json.loads(line)
    if d.get("sparql") and d.get("question") and d["question"] not in seen:
        seen.add(d["question"]); gold.append({"id": d["id"], "question": d["question"], "sparql": ab._prefixed(d["sparql"])})
items += ab._with_perturbations("wwq_train", random.Random(8).sample(gold, a.wwq), 0)
from verifier.api import Verifier
from verifier.config import Config
from verifier.lexical import LabelIndex
from verifier.mrs_cache import MrsCorpus
cfg = {"deductive": {}}
if a.disable_checks: cfg["deductive"]["disabled_checks"] = a.disable_checks.split(",")
if a.disable_rules: cfg["rewrite"] = {"disabled_rules": a.disable_rules.split(",")}
if a.disable_shapes: cfg["deductive"]["disabled_shapes"] = a.disable_shapes.split(",")
v = Verifier(Config(cfg), labels=LabelIndex.cached(str(ab.SHARED / "wikidata/labels.tsv")),
             mrs=MrsCorpus([str(ab.SHARED / "mrs/questions.jsonl.gz")]))
out = open(a.out, "w"); t0 = time.time()
for i, it in enumerate(items):
    try:
        r = v.verify(it["question"], it["sparql"]); dec = r.decision; why = (r.deductive.reason if r.deductive else r.error) or ""
    except Exception as e:
        dec, why = "error", repr(e)
    out.write(json.dumps({"id": it["id"], "category": it["category"], "set": it["set"], "kind": it["kind"], "decision": dec, "reason": why[:200]}) + "\n"); out.flush()
    if i % 500 == 0: print(f"{i}/{len(items)} {time.time()-t0:.0f}s", flush=True)
rows = [json.loads(l) for l in open(a.out)]
for s in ("lcquad_held", "wwq_train"):
    c = [r for r in rows if r["set"] == s and r["kind"] == "correct"]; w = [r for r in rows if r["set"] == s and r["kind"] == "wrong"]
    print(f"{s}: gold accepted {sum(r['decision']=='accept' for r in c)}/{len(c)}, perturbations accepted {sum(r['decision']=='accept' for r in w)}/{len(w)}")
