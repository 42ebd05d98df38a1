"""Benchmark and figures of the MRS -> logic front end (issue 3, "done when").

    python bench/mrs_translate.py                      # everything (about a minute)
    python bench/mrs_translate.py --skip-stats --skip-answers   # speed only

Prints, over ``shared/data/mrs/questions.jsonl.gz``:

1. the share of readings translated without error (first scoped reading of each MRS), the
   share of questions with at least one translated reading, the intent distribution (of
   the best-ranked reading of each question, and over all translated readings) and the
   ten most frequent failure reasons;
2. the answer variable check on a random sample (seed 0) of 200 LC-QuAD 2.0 wh-questions
   that have readings: the best-ranked reading's first answer variable must be the
   variable the wh-word introduces (an EP with that ``ARG0`` starts at the wh-word); the
   misses are listed, and ``--show-sample`` lists all 200 for hand checking;
3. speed on one core (the process is pinned to one CPU when possible): SimpleMRS text ->
   :class:`~parsers.mrs.structure.Mrs` (fast reader), scope resolution, question analysis
   and translation with the default ``max_scopes``; reading the gzip/JSON corpus is not
   counted.  CPU time of this process (``time.process_time``) is used, so other load on
   the machine matters less.

The last line is ``readings_per_second=<x> translated=<percent>``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parsers.mrs import (  # noqa: E402
    DEFAULT_MAX_SCOPES, best_translation, translate_mrs, translate_readings,
)

SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared"))
WH = re.compile(r"^\s*(?:(?:in|on|at|for|by|from|to|during|of|with|under|through|since|until|"
                r"after|before|into|as|about)\s+)?(what|which|who|whom|whose|where|when)\b", re.I)


def load_corpus(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def stats(path: Path, max_scopes: int) -> None:
    """Translation statistics of the corpus (``verifier mrs stats`` computes them)."""
    from verifier.cli.mrs import corpus_stats

    st = corpus_stats([str(path)], max_scopes=max_scopes, top=10)
    q_with, q_ok, n_r, ok_r = (st["questions_with_readings"], st["questions_translated"], st["readings"],
                               st["readings_translated"])
    print(f"questions: {st['questions']}, with readings: {q_with}")
    print(f"readings translated: {ok_r} / {n_r} = {100 * ok_r / n_r:.2f} %")
    print(f"questions with a translated reading: {q_ok} / {q_with} = {100 * q_ok / q_with:.2f} %")
    print("intent of the best-ranked reading per question: " +
          ", ".join(f"{k} {v} ({100 * v / q_ok:.1f} %)" for k, v in st["intents_best_reading"].items()))
    print("intent over all translated readings: " +
          ", ".join(f"{k} {v} ({100 * v / ok_r:.1f} %)" for k, v in st["intents_all_readings"].items()))
    print("top 10 failure reasons:")
    for reason, n in st["failure_reasons"]:
        print(f"  {n:5d}  {reason}")


def answer_vars(records: list[dict], show: bool) -> None:
    by_q = {r["question"]: r for r in records}
    questions: list[str] = []
    seen = set()
    for name in ("test", "train_subset"):
        path = SHARED / "data" / "lcquad2" / f"{name}.jsonl"
        if not path.is_file():
            continue
        with open(path, encoding="utf-8") as f:
            for line in f:
                q = json.loads(line)["question"]
                if q not in seen:
                    seen.add(q)
                    questions.append(q)
    wh = [q for q in questions if WH.match(q)]
    with_readings = [q for q in wh if q in by_q and by_q[q]["readings"]]
    print(f"LC-QuAD 2.0 questions: {len(questions)}, wh-questions: {len(wh)}, "
          f"with readings: {len(with_readings)}")
    if len(with_readings) < 200:
        print("not enough wh-questions with readings for the sample")
        return
    sample = random.Random(0).sample(with_readings, 200)
    right = 0
    misses = []
    for k, q in enumerate(sample):
        best = best_translation(translate_readings(by_q[q]["readings"]))
        pos = WH.match(q).start(1)
        var = best.answer_vars[0] if best is not None and best.answer_vars else None
        ok = var is not None and any(e.cfrom == pos for e in best.mrs.eps if e.iv == var.name)
        right += ok
        desc = "-"
        if var is not None:
            desc = var.name + ": " + " ".join(f"{e.pred}<{e.cfrom}>" for e in best.mrs.eps
                                               if e.iv == var.name)
        if show:
            print(f"  {k:3d} {'ok  ' if ok else 'MISS'} {q} => {desc}")
        if not ok:
            misses.append((k, q, desc, best.sentence_force if best else None))
    print(f"answer variable right: {right} / 200 = {right / 2:.1f} %")
    for k, q, desc, sf in misses:
        print(f"  miss #{k}: {q!r} -> {desc} (sentence force {sf})")


def speed(records: list[dict], max_scopes: int, limit: int | None) -> tuple[float, float]:
    readings = [r for rec in records for r in rec["readings"]]
    if limit:
        readings = readings[:limit]
    try:  # one core
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    except (AttributeError, OSError):
        pass
    for text in readings[:500]:  # warm caches
        translate_mrs(text, max_scopes=max_scopes)
    ok = 0
    t0 = time.process_time()
    for text in readings:
        ok += translate_mrs(text, max_scopes=max_scopes)[0].ok
    dt = time.process_time() - t0
    rate = len(readings) / dt
    print(f"speed: {len(readings)} readings in {dt:.2f} s CPU (decode + scope + translate, "
          f"max_scopes={max_scopes})")
    return rate, 100.0 * ok / len(readings)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", default=str(SHARED / "data" / "mrs" / "questions.jsonl.gz"))
    ap.add_argument("--max-scopes", type=int, default=DEFAULT_MAX_SCOPES)
    ap.add_argument("--limit", type=int, default=None, help="readings for the speed test")
    ap.add_argument("--skip-stats", action="store_true")
    ap.add_argument("--skip-answers", action="store_true")
    ap.add_argument("--show-sample", action="store_true", help="list the 200 answer-variable checks")
    args = ap.parse_args()
    path = Path(args.corpus)
    if not path.is_file():
        print(f"corpus not found: {path}")
        print("readings_per_second=0 translated=0")
        return 1
    records = load_corpus(path)
    if not args.skip_stats:
        stats(path, args.max_scopes)
    if not args.skip_answers:
        answer_vars(records, args.show_sample)
    rate, share = speed(records, args.max_scopes, args.limit)
    print(f"readings_per_second={rate:.0f} translated={share:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
