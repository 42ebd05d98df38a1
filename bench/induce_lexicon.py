"""Lexicon entries induced from training pairs (issue 59, point 4): what they add.

1. Writes the training pairs (WikiWebQuestions train, QALD-10 train, QALD-9-plus train, the
   LC-QuAD 2.0 train subset and, unless ``--no-sample``, the seed-0 sample of 1,000 LC-QuAD
   test pairs that the LC-QuAD bench develops on) to ``--train`` and runs
   ``verifier axioms induce`` on them (skipped with ``--pack``, which gives a pack already
   induced).
2. Verifies, with the shipped pack and with the shipped pack plus the induced one:
   ``--llm`` records of the shared LLM predictions (a seed-0 sample, questions of the
   training pairs left out) and ``--lcquad`` LC-QuAD 2.0 test pairs outside the seed-0 sample
   with their three perturbations each (``bench/deductive_lcquad.py``).

Last line: ``llm_correct_accepted=<a>-><b> llm_wrong_accepted=<a>-><b> llm_accept_precision=<a>-><b>
offsample_gold_accept=<a>-><b> perturbed_accept=<a>-><b>`` (percent, without -> with).

    PYTHONPATH=$PWD python bench/induce_lexicon.py [--llm 600] [--lcquad 300] [--workers 2]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SHARED = ROOT.parent / "shared" / "data"
LLM = Path("/work/data/datasets/llm_predictions.jsonl")
TRAIN_FILES = ("wikiwebquestions/train", "qald10/train", "qald9plus/train", "lcquad2/train_subset")

_STATE: dict = {}


def write_training(path: Path, with_sample: bool) -> set[str]:
    """Write the training pairs; returns their questions."""
    from deductive_lcquad import load_pairs

    rows = []
    for f in TRAIN_FILES:
        for line in (SHARED / f"{f}.jsonl").open(encoding="utf-8"):
            d = json.loads(line)
            rows.append({"id": d["id"], "question": d["question"], "sparql": d["sparql"]})
    if with_sample:
        sample, _, _ = load_pairs(1000)
        rows += [{"id": d["id"], "question": d["question"], "sparql": d["sparql"]} for d in sample]
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    return {" ".join(r["question"].split()) for r in rows}


def _init(corpus: str, labels: str, pack: str) -> None:
    from verifier.api import Verifier
    from verifier.axioms import default_pack_dirs, load_pack
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    lab = LabelIndex.cached(labels)
    mrs = MrsCorpus([corpus])
    base = Verifier(pack=load_pack(default_pack_dirs()), labels=lab, mrs=mrs)
    _STATE["arms"] = {"without": base,
                      "with": Verifier(pack=load_pack(default_pack_dirs([pack])), labels=lab, mrs=mrs,
                                       wordnet=base.wordnet)}


def _run(item: dict) -> dict:
    out = {}
    for arm, v in _STATE["arms"].items():
        try:
            r = v.verify(item["question"], item["sparql"])
            out[arm] = r.decision
        except Exception as e:  # noqa: BLE001 - one record never stops the bench
            out[arm] = f"error:{type(e).__name__}"
    return out


def llm_items(n: int, exclude: set[str]) -> list[dict]:
    rows = []
    with LLM.open(encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if (d.get("sparql") and d.get("question") and d.get("label") in (0, 1)
                    and " ".join(d["question"].split()) not in exclude):
                rows.append({"id": d["id"], "question": d["question"], "sparql": d["sparql"],
                             "category": "llm", "label": int(d["label"])})
    return random.Random(0).sample(rows, min(n, len(rows)))


def lcquad_items(n: int) -> list[dict]:
    from deductive_lcquad import load_pairs, perturbations

    pairs, _, sample_ids = load_pairs(1000 + 2 * n)
    off = [d for d in pairs if d["id"] not in sample_ids][:n]
    items = [{"id": d["id"], "question": d["question"], "sparql": d["sparql"], "category": "gold", "label": 1}
             for d in off]
    return items + perturbations(off)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llm", type=int, default=600)
    ap.add_argument("--lcquad", type=int, default=300)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--no-sample", action="store_true", help="train without the seed-0 LC-QuAD sample")
    ap.add_argument("--train", default=str(ROOT / "bench" / "out" / "induce_train.jsonl"))
    ap.add_argument("--pack", help="an induced pack (skip the induction)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "induced.yaml"))
    ap.add_argument("--results", default=str(ROOT / "bench" / "out" / "induce_lexicon.jsonl"))
    args = ap.parse_args(argv)
    if not SHARED.is_dir() or not LLM.is_file():
        print(f"shared data not found ({SHARED}, {LLM})", file=sys.stderr)
        return 2
    corpus = str(SHARED / "mrs" / "questions.jsonl.gz")
    labels = str(SHARED / "wikidata" / "labels.tsv")
    train_questions = write_training(Path(args.train), not args.no_sample)
    pack = args.pack
    if pack is None:
        pack = args.out
        t0 = time.time()
        cmd = [sys.executable, "-m", "verifier", "axioms", "induce", args.train, "--mrs", corpus,
               "--labels", labels, "--out", pack]
        print("$", " ".join(cmd), flush=True)
        rc = subprocess.call(cmd, cwd=ROOT)
        if rc:
            return rc
        print(f"induced in {time.time() - t0:.0f} s", flush=True)
    items = llm_items(args.llm, train_questions) + lcquad_items(args.lcquad)
    print(f"{sum(i['category'] == 'llm' for i in items)} LLM predictions, "
          f"{sum(i['category'] == 'gold' for i in items)} off-sample LC-QuAD gold pairs, "
          f"{sum(i['category'] not in ('llm', 'gold') for i in items)} perturbations", flush=True)
    t1 = time.time()
    with ProcessPoolExecutor(args.workers, initializer=_init, initargs=(corpus, labels, pack)) as ex:
        results = list(ex.map(_run, items, chunksize=8))
    print(f"verified in {time.time() - t1:.0f} s")
    Path(args.results).parent.mkdir(parents=True, exist_ok=True)
    with open(args.results, "w", encoding="utf-8") as f:
        for it, r in zip(items, results):
            f.write(json.dumps({**it, **r}, ensure_ascii=False) + "\n")
    figs: dict[str, dict[str, float]] = {}
    for arm in ("without", "with"):
        acc = Counter()
        tot = Counter()
        for it, r in zip(items, results):
            cat = it["category"]
            key = ("llm_correct" if it["label"] else "llm_wrong") if cat == "llm" else (
                "gold" if cat == "gold" else "perturbed")
            tot[key] += 1
            acc[key] += r[arm] == "accept"
        pct = lambda k: 100 * acc[k] / max(1, tot[k])  # noqa: E731
        figs[arm] = {"llm_correct_accepted": pct("llm_correct"), "llm_wrong_accepted": pct("llm_wrong"),
                     "llm_accept_precision": 100 * acc["llm_correct"] / max(1, acc["llm_correct"] + acc["llm_wrong"]),
                     "offsample_gold_accept": pct("gold"), "perturbed_accept": pct("perturbed")}
        print(f"{arm:8} " + "  ".join(f"{k}={v:.1f}" for k, v in figs[arm].items())
              + f"  (n: {dict(tot)})")
    changed = Counter((it["category"] if it["category"] != "llm" else f"llm_{it['label']}", r["without"], r["with"])
                      for it, r in zip(items, results) if r["without"] != r["with"])
    print("decisions changed by the induced pack:", dict(changed))
    print(" ".join(f"{k}={figs['without'][k]:.1f}->{figs['with'][k]:.1f}" for k in figs["without"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
