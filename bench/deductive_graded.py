"""Graded deductive verdicts on real LLM queries and on unseen LC-QuAD 2.0 pairs (issue 59).

In one go, the deductive signal on

* the shared LLM predictions (``/work/data/datasets/llm_predictions.jsonl``, the records with
  a ``label``: 1 correct, 0 wrong; a seed-0 sample of ``--llm-n``), and
* the LC-QuAD 2.0 test pairs with a corpus parse outside the seed-0 development sample
  (``bench/deductive_lcquad.py``'s ``load_pairs``; a seed-0 sample of ``--off-n``) with the
  three perturbations of each gold query (``perturbations``);

verified with cached MRS (no ACE).  The score is the proof confidence model's
(``--confidence model``, the default) or the old table's (``table``); both are computed from
one run and the other one is printed too.  The last line, at the default operating point
(the verdicts decide; ``--accept-threshold`` sends faithful verdicts below it to abstain):

    llm_auc=<x> llm_accept_precision=<x> llm_correct_accepted=<x> offsample_gold_accept=<x> perturbed_reject=<x>

``llm_auc``: ROC AUC of the score against the label; ``llm_accept_precision``: the share of
accepted predictions that are correct; ``llm_correct_accepted``: the share of correct ones
accepted; ``offsample_gold_accept`` / ``perturbed_reject``: percent of gold pairs accepted and
of perturbations rejected.  ``--ablate wordnet,lexicon,...`` runs everything again once per
link source with that source's links dropped (``[grounding] disabled_sources``) and prints a
line per source; ``--associations default`` turns the association source (off by default) on
for every run.  ``--wrong-out`` gets 20 sampled accepted-but-wrong LLM predictions, each
with the links its proof used.

    python bench/deductive_graded.py [--llm-n 1000] [--off-n 300] [--workers 2]
        [--confidence model|table] [--ablate wordnet,lexicon,alias,label,similarity] [--reuse]
        [--associations default|PATH|none]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from train_confidence import LLM, SHARED, auc, verify_all  # noqa: E402


def llm_items(n: int | None, seed: int = 0) -> list[dict]:
    """The labelled LLM predictions (a seed-``seed`` sample of ``n``; all with ``None``)."""
    rows = []
    for line in LLM.open(encoding="utf-8"):
        if not line.strip():
            continue
        d = json.loads(line)
        if d.get("label") in (0, 1) and isinstance(d.get("question"), str) and isinstance(d.get("sparql"), str):
            rows.append({"id": d["id"], "question": d["question"], "sparql": d["sparql"],
                         "label": int(d["label"]), "category": "llm", "part": "llm"})
    if n is not None and n < len(rows):
        rows = random.Random(seed).sample(rows, n)
    return rows


def offsample_items(n: int | None, seed: int = 0) -> list[dict]:
    """LC-QuAD 2.0 test pairs outside the seed-0 development sample (a seed-``seed`` sample
    of ``n``) and their perturbations."""
    from deductive_lcquad import load_pairs, perturbations

    pairs, _, sample_ids = load_pairs(10 ** 6, 0)
    rest = sorted((d for d in pairs if d["id"] not in sample_ids), key=lambda d: d["id"])
    if n is not None and n < len(rest):
        rest = random.Random(seed).sample(rest, n)
    items = [{"id": d["id"], "question": d["question"], "sparql": d["sparql"], "category": "gold",
              "label": 1, "part": "off"} for d in rest]
    items += [{**p, "part": "off"} for p in perturbations(rest, seed)]
    return items


def scored(rows: list[dict], mode: str, model, threshold: float | None) -> list[dict]:
    """The rows with ``score`` and ``decision`` of a confidence mode."""
    from verifier.confidence import deductive_decision

    out = []
    for r in rows:
        if mode == "model" and r.get("features") is not None:
            s = model.probability_of(r["verdict"], r["features"])
        else:
            s = r["table"]
        dec = deductive_decision(r["verdict"], s, threshold) if r.get("features") is not None else r["decision"]
        out.append({**r, "score": s, "decision": dec})
    return out


def metrics(rows: list[dict]) -> dict[str, float]:
    """The five figures of the last line."""
    llm = [r for r in rows if r["part"] == "llm"]
    off = [r for r in rows if r["part"] == "off"]
    acc = [r for r in llm if r["decision"] == "accept"]
    correct = [r for r in llm if r["label"] == 1]
    gold = [r for r in off if r["category"] == "gold"]
    pert = [r for r in off if r["category"] != "gold"]
    return {
        "llm_auc": auc([r["score"] for r in llm], [r["label"] for r in llm]) if llm else float("nan"),
        "llm_accept_precision": sum(r["label"] for r in acc) / len(acc) if acc else float("nan"),
        "llm_correct_accepted": sum(r["decision"] == "accept" for r in correct) / len(correct) if correct else float("nan"),
        "offsample_gold_accept": 100 * sum(r["decision"] == "accept" for r in gold) / len(gold) if gold else float("nan"),
        "perturbed_reject": 100 * sum(r["decision"] == "reject" for r in pert) / len(pert) if pert else float("nan"),
    }


def line(m: dict[str, float]) -> str:
    """The figures as ``key=value`` pairs."""
    return (f"llm_auc={m['llm_auc']:.3f} llm_accept_precision={m['llm_accept_precision']:.3f} "
            f"llm_correct_accepted={m['llm_correct_accepted']:.3f} "
            f"offsample_gold_accept={m['offsample_gold_accept']:.1f} perturbed_reject={m['perturbed_reject']:.1f}")


def write_wrong(rows: list[dict], path: Path, k: int = 20, seed: int = 0) -> int:
    """``k`` sampled accepted-but-wrong LLM predictions with the links their proof used."""
    wrong = [r for r in rows if r["part"] == "llm" and r["decision"] == "accept" and r["label"] == 0]
    pick = random.Random(seed).sample(wrong, min(k, len(wrong)))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        f.write(f"# {len(pick)} of {len(wrong)} accepted-but-wrong LLM predictions\n\n")
        for i, r in enumerate(pick, 1):
            sparql = " ".join(l for l in r["sparql"].split() if l)
            f.write(f"## {i}. {r['question']}\n\n`{sparql}`\n\n"
                    f"score {r['score']:.3f}; reading {r.get('reading')}; {r['reason']}\n"
                    f"why accepted: " + "; ".join(r.get("links") or []) + "\n\n")
    return len(wrong)


def main(argv=None) -> int:
    from verifier.confidence import load_model

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llm-n", type=int, default=None, help="a sample of the labelled LLM predictions (default: all)")
    ap.add_argument("--off-n", type=int, default=None, help="a sample of the off-sample gold pairs (default: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--confidence", choices=("model", "table"), default="model")
    ap.add_argument("--model", default=None, help="a proof confidence model JSON (default: the shipped one)")
    ap.add_argument("--accept-threshold", type=float, default=None)
    ap.add_argument("--ablate", default="", help="comma-separated link sources to drop, one run each")
    ap.add_argument("--associations", default=None,
                    help='[grounding] associations for every run: "default" (the shipped table), a file, or "none"')
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "deductive_graded.jsonl"))
    ap.add_argument("--reuse", action="store_true",
                    help="score the verified pairs of --out again (another model or threshold) without verifying")
    ap.add_argument("--wrong-out", default=str(ROOT / "bench" / "out" / "accepted_wrong.md"))
    args = ap.parse_args(argv)
    if not SHARED.is_dir() or not LLM.is_file():
        print(f"shared data not found at {SHARED} or {LLM}", file=sys.stderr)
        return 2
    model = load_model(args.model)
    base_sections = {"grounding": {"associations": args.associations}} if args.associations else None
    t0 = time.time()
    items = llm_items(args.llm_n, args.seed) + offsample_items(args.off_n, args.seed)
    print(f"{len(items)} pairs: {dict(Counter((i['part'], i['category'], i['label']) for i in items))}, "
          f"built in {time.time() - t0:.0f} s", flush=True)
    out = Path(args.out)
    if args.reuse and out.is_file():
        rows = [json.loads(l) for l in out.open(encoding="utf-8") if l.strip()]
        if [r["id"] for r in rows] != [i["id"] for i in items]:
            print(f"{out} holds other pairs than these options draw", file=sys.stderr)
            return 2
        print(f"verified pairs read from {out}")
    else:
        t1 = time.time()
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("", encoding="utf-8")
        rows = verify_all(items, args.workers, base_sections, sink=out)
        print(f"verified in {time.time() - t1:.0f} s", flush=True)
    print("LLM verdicts by label:", dict(sorted(Counter((r["verdict"], r["label"]) for r in rows
                                                        if r["part"] == "llm").items())))
    for source in [s.strip() for s in args.ablate.split(",") if s.strip()]:
        t2 = time.time()
        ab = verify_all(items, args.workers, {"grounding": {**(base_sections or {}).get("grounding", {}),
                                                            "disabled_sources": [source]}})
        m = metrics(scored(ab, args.confidence, model, args.accept_threshold))
        print(f"without={source} {line(m)} ({time.time() - t2:.0f} s)", flush=True)
    other = "table" if args.confidence == "model" else "model"
    print(f"confidence={other} {line(metrics(scored(rows, other, model, args.accept_threshold)))}")
    final = scored(rows, args.confidence, model, args.accept_threshold)
    n_wrong = write_wrong(final, Path(args.wrong_out), seed=args.seed)
    print(f"{n_wrong} accepted-but-wrong LLM predictions; 20 sampled in {args.wrong_out}")
    print(f"confidence={args.confidence}")
    print(line(metrics(final)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
