"""Live ACE bench (issue 60): questions parsed through the pool with 1 and 2 processes.

Questions: the 60 chemistry questions of ``shared/data/mrs/chemistry.jsonl.gz`` and a seeded
sample (``random.Random(seed).sample``, default seed 0) of 1,000 of the 14,091 benchmark
questions of ``shared/data/mrs/questions.jsonl.gz``.  Only the question strings are read
there; every question is parsed live by ACE (:class:`parsers.ace.AceParserPool`, the corpus's
settings: ``-n 5 --timeout=10``, strict roots then the fallback pass).  The corpus's readings
are used afterwards, only to check the live parses.

ACE: ``--ace`` / ``--erg``, else ``VERIFIER_ACE`` / ``VERIFIER_ERG``, else the shared stand-in
unpacked by ``../shared/tools/ace/install.sh`` (into its default folder).

Printed per run (1 process, then 2): wall-clock questions/s, ACE CPU seconds (all processes,
from ``getrusage(RUSAGE_CHILDREN)`` after the pool is closed) and this process's CPU seconds
(the pool's threads, PyDelphin re-encoding the readings), questions per CPU second (does not
depend on the machine's load), statuses and restarts, and the load average (the machine is
shared: wall-clock rates depend on the other processes).  Then,
over the 2-process run: the share of questions with a reading (chemistry, benchmark, all),
and as a check against the corpus (made by the same image and settings): the share whose
reading set equals the corpus's (``same_set``; ``same_set_under5`` over the questions
with fewer than 5 readings in the corpus), whose first reading does (``same_first``), and
whose pass (strict/fallback) does.  ACE keeps an arbitrary 5 of the analyses of a question
with more (the image has no ranking model), so ``same_set`` below 1 is expected for those;
on a loaded machine ACE's wall-clock ``--timeout`` also stops a few parses that the corpus
completed (they show as time-outs and strict -> fallback differences).

Last line: ``questions=<n> qps_1=<x> qps_2=<x> speedup=<x> with_reading=<x> chem_with_reading=<x>
bench_with_reading=<x> corpus_with_reading=<x> same_set=<x> same_set_under5=<x> same_first=<x>
same_roots=<x> timeouts=<n> crashes=<n>``

    nice -n 10 python bench/ace_live.py [--sample 1000] [--seed 0] [--procs 1,2] [--out bench/out/ace_live]
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from parsers.ace import AceConfig, AceParserPool, AceResult  # noqa: E402
from parsers.ace_grammar import grammar_info  # noqa: E402

SHARED = Path(os.environ.get("VERIFIER_SHARED", ROOT.parent / "shared"))
MRS = SHARED / "data" / "mrs"


def _read(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _ace_files(args: argparse.Namespace) -> tuple[str, str]:
    ace = args.ace or os.environ.get("VERIFIER_ACE")
    erg = args.erg or os.environ.get("VERIFIER_ERG")
    if ace and erg:
        return ace, erg
    install = SHARED / "tools" / "ace" / "install.sh"
    if not install.is_file():
        sys.exit("no ACE: pass --ace and --erg (or set VERIFIER_ACE / VERIFIER_ERG)")
    out = subprocess.run(["bash", str(install), "--env"], capture_output=True, text=True, check=True).stdout
    env = dict(part.split("=", 1) for part in out.replace("export ", "").replace("'", "").split())
    return env["VERIFIER_ACE"], env["VERIFIER_ERG"]


def _run(config: AceConfig, questions: list[str]) -> tuple[list[AceResult], dict]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    self0 = resource.getrusage(resource.RUSAGE_SELF)
    load0 = os.getloadavg()[0]
    pool = AceParserPool(config)
    try:
        pool.parse_batch(["What is the mass of benzene?"] * config.pool_size)  # load the grammar
        t0 = time.perf_counter()
        done: list[AceResult] = []
        step = max(1, len(questions) // 10)
        for i in range(0, len(questions), step):
            done += pool.parse_batch(questions[i:i + step])
            print(f"  {len(done)}/{len(questions)} questions, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        wall = time.perf_counter() - t0
        restarts = pool.restarts
        processes = len(pool.workers)
    finally:
        pool.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    self1 = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    py_cpu = (self1.ru_utime - self0.ru_utime) + (self1.ru_stime - self0.ru_stime)
    stats = {"procs": config.pool_size, "wall_s": round(wall, 2), "qps": round(len(questions) / wall, 2),
             "ace_cpu_s": round(cpu, 2), "python_cpu_s": round(py_cpu, 2),
             "cpu_ms_per_question": round(1000 * (cpu + py_cpu) / len(questions), 1),
             "questions_per_cpu_s": round(len(questions) / (cpu + py_cpu), 2),
             "restarts": restarts, "processes": processes,
             "status": dict(collections.Counter(r.status for r in done)),
             "load_avg": [round(load0, 2), round(os.getloadavg()[0], 2)]}
    return done, stats


def _share(flags: list[bool]) -> float:
    return round(sum(flags) / len(flags), 4) if flags else 0.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ace", help="ACE binary (default VERIFIER_ACE, else the shared stand-in)")
    ap.add_argument("--erg", help="grammar image (default VERIFIER_ERG, else the shared stand-in)")
    ap.add_argument("--sample", type=int, default=1000, help="benchmark questions (default 1000)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", default="1,2", help="pool sizes to run (default 1,2)")
    ap.add_argument("--timeout", type=float, default=10.0, help="ACE --timeout per pass (default 10)")
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "ace_live"),
                    help="folder for the live parses (corpus format) and the figures")
    args = ap.parse_args(argv)

    chem = _read(MRS / "chemistry.jsonl.gz")
    pool_records = _read(MRS / "questions.jsonl.gz")
    bench = random.Random(args.seed).sample(pool_records, args.sample)
    corpus = {d["question"]: d for d in chem + bench}
    questions = [d["question"] for d in chem] + [d["question"] for d in bench]
    n_chem = len(chem)
    ace, erg = _ace_files(args)
    info = grammar_info(erg)
    print(f"ACE {ace}\ngrammar {erg}: {info.identity} ({info.version}, family {info.family})")
    print(f"{len(questions)} questions: {n_chem} chemistry + {len(bench)} benchmark (seed {args.seed})")

    runs: dict[int, dict] = {}
    results: list[AceResult] = []
    for procs in [int(p) for p in args.procs.split(",") if p.strip()]:
        cfg = AceConfig(ace, erg, timeout=args.timeout, pool_size=procs)
        print(f"-- {procs} process(es)", file=sys.stderr)
        results, stats = _run(cfg, questions)
        runs[procs] = stats
        print(json.dumps(stats))

    with_reading = [r.ok for r in results]
    same_set, same_set_under5, same_first, same_roots = [], [], [], []
    for r in results:
        ref = corpus[r.question]
        same_set.append(set(r.readings) == set(ref["readings"]))
        if len(ref["readings"]) < 5:
            same_set_under5.append(same_set[-1])
        same_roots.append(r.roots == ref["roots"])
        if r.readings and ref["readings"]:
            same_first.append(r.readings[0] == ref["readings"][0])
    status = collections.Counter(r.status for r in results)
    figures = {
        "questions": len(questions),
        **{f"qps_{p}": s["qps"] for p, s in runs.items()},
        "speedup": round(runs[2]["qps"] / runs[1]["qps"], 2) if 1 in runs and 2 in runs else None,
        "with_reading": _share(with_reading),
        "chem_with_reading": _share(with_reading[:n_chem]),
        "bench_with_reading": _share(with_reading[n_chem:]),
        "corpus_with_reading": _share([bool(corpus[q]["readings"]) for q in questions]),
        "same_set": _share(same_set),
        "same_set_under5": _share(same_set_under5),
        "same_first": _share(same_first),
        "same_roots": _share(same_roots),
        "timeouts": status.get("timeout", 0),
        "crashes": status.get("crash", 0),
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with gzip.open(out / "live.jsonl.gz", "wt", encoding="utf-8") as f:
        for r in results:
            f.write(json.dumps({"question": r.question, "readings": list(r.readings), "roots": r.roots,
                                "error": r.error, "seconds": r.seconds, "status": r.status}) + "\n")
    (out / "figures.json").write_text(json.dumps({"runs": runs, "figures": figures,
                                                  "grammar": info.to_json()}, indent=1) + "\n")
    print("differences from the corpus's pass: " + ", ".join(
        f"{r.question[:60]!r} {corpus[r.question]['roots']}->{r.roots}"
        for r, ok in zip(results, same_roots) if not ok)[:2000])
    print(" ".join(f"{k}={v}" for k, v in figures.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
