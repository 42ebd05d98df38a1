"""Audit bench (issue 5, done-when 2 and 3): a 10,000-line log, 1 and 2 workers, 5 SIGKILLs.

1. Builds ``<out>/querylog.jsonl`` (seed 0) from ``../shared/data``: LC-QuAD 2.0 gold pairs,
   perturbed pairs (``bench/out/datasets/perturbations.jsonl`` when ``verifier bench build``
   has run, otherwise made here with ``parsers.sparql_transform``: wrong property, swapped
   direction, dropped triple), every real LLM prediction of ``llm_predictions/`` that has a
   query, and 1% corrupt lines (truncated JSON, missing field, empty question, non-string
   query, bytes that are not UTF-8, a line over the 1 MB limit).  Records are shuffled and
   carry ``id``, ``timestamp`` and ``model`` (the LLM for predictions, ``gold`` or
   ``perturbed:<category>`` otherwise).
2. Audits it with ``verifier audit --workers 1`` (uninterrupted), then with ``--workers 2``
   killed with SIGKILL at 5 random points (random store counts across the log, then a random
   0-3 s delay) and resumed each time with ``--resume`` until complete.  Every run is
   ``nice -n 10``.  The configuration uses the shared MRS corpora and labels (no ACE).
3. Compares the two stores: ``lost`` = lines of the 1-worker store missing from the 2-worker
   store, ``duplicated`` = rows beyond one per line plus results offered twice
   (``duplicates_ignored``) plus rows of lines the log does not have; decisions that differ
   are counted and shown (prover time-outs on a loaded machine can change a verdict).
4. Writes the HTML report of the 2-worker store, renders it in headless Chromium (console
   messages are errors) and saves a screenshot.

Throughput.  The machine is shared and loaded, so the last line uses CPU time, which does not
depend on what other processes do: ``lines_per_s_N = lines / T_N`` where ``T_N`` is the sum,
over the run's segments, of the CPU seconds of its busiest worker process (building the
verifier included; for the killed run every restart and every redone record is included).
With perfect parallelism two workers each do half the work, so ``efficiency =
lines_per_s_2 / (2 * lines_per_s_1)``.  Wall-clock rates, the main process's CPU share and the
load average are printed too.  ``peak_rss_mb`` is the largest sum of resident memory (RSS) of
the audit's process tree (main process and workers) sampled every 0.5 s; PSS (shared pages
counted once) is printed as well.

Last line: ``lines_per_s_1=<x> lines_per_s_2=<x> efficiency=<x> lost=<n> duplicated=<n> peak_rss_mb=<x>``

    nice -n 10 python bench/audit_log.py [--lines 10000] [--kills 5] [--out bench/out/audit]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from verifier.audit.store import count_results  # noqa: E402

SHARED = Path(os.environ.get("VERIFIER_BENCH_DATA", ROOT.parent / "shared" / "data"))
TICK = os.sysconf("SC_CLK_TCK")


# ------------------------------------------------------------------------------------------
# The log
# ------------------------------------------------------------------------------------------

def _jsonl(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        return [json.loads(l) for l in f if l.strip()]


def _perturbed_from_dataset(rng: random.Random, n: int) -> list[dict] | None:
    path = ROOT / "bench" / "out" / "datasets" / "perturbations.jsonl"
    if not path.exists():
        return None
    by_cat: dict[str, list[dict]] = {}
    for d in _jsonl(path):
        if d.get("category") != "gold" and d.get("sparql") and d.get("source") == "lcquad2/test":
            by_cat.setdefault(d["category"], []).append(d)
    out: list[dict] = []
    cats = sorted(by_cat)
    for i in range(n):
        d = rng.choice(by_cat[cats[i % len(cats)]])
        out.append({"question": d["question"], "sparql": d["sparql"], "model": f"perturbed:{d['category']}"})
    return out


def _perturbed_here(gold: list[dict], rng: random.Random, n: int) -> list[dict]:
    from parsers.sparql import SparqlError, parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import dropped_triple, replaced_property, swapped_direction

    props = sorted({p for d in gold for p in re.findall(r"\b(?:wdt|p|ps|pq):(P\d+)", d["sparql"])})
    kinds = [("swapped_direction", lambda t: swapped_direction(t, rng)),
             ("wrong_property", lambda t: replaced_property(t, rng, props)),
             ("dropped_triple", lambda t: dropped_triple(t, rng))]
    out: list[dict] = []
    pool = list(gold)
    rng.shuffle(pool)
    i = 0
    while len(out) < n and i < 20 * n:
        d = pool[i % len(pool)]
        name, fn = kinds[i % len(kinds)]
        i += 1
        try:
            t = fn(parse_tree(d["sparql"]))
            if t is None:
                continue
            out.append({"question": d["question"], "sparql": generate(t), "model": f"perturbed:{name}"})
        except (SparqlError, ValueError, TypeError, KeyError):
            continue
    return out


def _corrupt(rng: random.Random, n: int, base: list[dict]) -> list[bytes]:
    out = []
    for i in range(n):
        d = dict(rng.choice(base))
        kind = i % 6
        if kind == 0:
            line = json.dumps(d).encode()[: rng.randint(10, 60)]                  # truncated JSON
        elif kind == 1:
            d.pop("sparql", None)
            line = json.dumps(d).encode()                                         # missing field
        elif kind == 2:
            d["question"] = "  "
            line = json.dumps(d).encode()                                         # empty question
        elif kind == 3:
            d["sparql"] = rng.choice([None, 42, ["SELECT"], {"q": 1}])
            line = json.dumps(d).encode()                                         # non-string query
        elif kind == 4:
            line = json.dumps(d, ensure_ascii=False).encode().replace(b'"question": "', b'"question": "\xe9\xff', 1)
        else:
            d["question"] = d["question"] + " " + "x" * (1_100_000 if i % 24 == 5 else 0)
            line = json.dumps(d).encode() if i % 24 == 5 else b'{"question": "What", "sparql": "ASK {}" '
        out.append(line)
    return out


def build_log(path: Path, n: int, seed: int) -> dict[str, int]:
    """Write the bench log; returns counts by source."""
    rng = random.Random(seed)
    llm = []
    for f in sorted((SHARED / "llm_predictions").glob("*.jsonl")):
        for d in _jsonl(f):
            if isinstance(d.get("sparql"), str) and d["sparql"].strip():
                llm.append({"question": d["question"], "sparql": d["sparql"],
                            "model": f"{d.get('model')}/{d.get('config')}" if d.get("config") else d.get("model"),
                            "system": d.get("system"), "benchmark": d.get("benchmark"),
                            "score_f1": d.get("score_f1")})
    gold_all = _jsonl(SHARED / "lcquad2" / "test.jsonl")
    n_bad = n // 100
    n_llm = min(len(llm), n - n_bad)
    rest = n - n_bad - n_llm
    n_gold = rest // 2
    gold = [{"question": d["question"], "sparql": d["sparql"], "model": "gold"}
            for d in rng.sample(gold_all, min(n_gold, len(gold_all)))]
    n_pert = rest - len(gold)
    pert = _perturbed_from_dataset(rng, n_pert) or _perturbed_here(gold_all, rng, n_pert)
    good = llm[:n_llm] + gold + pert
    rng.shuffle(good)
    bad = _corrupt(rng, n_bad, good)
    lines: list[bytes] = []
    for i, d in enumerate(good):
        lines.append(json.dumps(d, ensure_ascii=False).encode())
    for b in bad:
        lines.insert(rng.randrange(len(lines) + 1), b)
    t0 = 1_793_000_000
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        for i, line in enumerate(lines, 1):
            if line.startswith(b"{") and line.endswith(b"}") and b'"question": "\xe9' not in line:
                try:
                    d = json.loads(line)
                    d = {"id": f"q{i:06d}", "timestamp": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0 + 7 * i)),
                         **d}
                    line = json.dumps(d, ensure_ascii=False).encode()
                except (json.JSONDecodeError, UnicodeDecodeError):
                    pass
            f.write(line + b"\n")
    return {"llm_predictions": n_llm, "gold": len(gold), "perturbed": len(pert), "corrupt": len(bad),
            "total": len(lines)}


# ------------------------------------------------------------------------------------------
# Monitoring
# ------------------------------------------------------------------------------------------

def _tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in Path(f"/proc/{p}/task/{t}/children").read_text().split()]
        except OSError:
            pass
    return out


def _cpu(pid: int) -> float | None:
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / TICK
    except (OSError, IndexError, ValueError):
        return None


def _mem(pid: int, key: str) -> int:
    path = f"/proc/{pid}/smaps_rollup" if key == "Pss:" else f"/proc/{pid}/status"
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Segment:
    """One process of a run: wall time, CPU per process, peak memory, load averages."""

    wall: float = 0.0
    cpu: dict[int, float] = field(default_factory=dict)
    peak_rss_kb: int = 0
    peak_pss_kb: int = 0
    loads: list[float] = field(default_factory=list)
    returncode: int | None = None
    killed: bool = False
    main_pid: int = 0

    def worker_cpu(self) -> list[float]:
        return [c for p, c in self.cpu.items() if p != self.main_pid]

    def main_cpu(self) -> float:
        return self.cpu.get(self.main_pid, 0.0)


class Monitor(threading.Thread):
    """Samples the process tree of ``pid`` every 0.5 s until stopped."""

    def __init__(self, pid: int, seg: Segment) -> None:
        super().__init__(daemon=True)
        self.pid, self.seg, self.stop = pid, seg, threading.Event()

    def run(self) -> None:
        n = 0
        while not self.stop.is_set():
            pids = _tree(self.pid)
            rss = 0
            for p in pids:
                c = _cpu(p)
                if c is not None:
                    self.seg.cpu[p] = c
                rss += _mem(p, "VmRSS:")
            self.seg.peak_rss_kb = max(self.seg.peak_rss_kb, rss)
            if n % 4 == 0:
                self.seg.peak_pss_kb = max(self.seg.peak_pss_kb, sum(_mem(p, "Pss:") for p in pids))
            if n % 20 == 0:
                self.seg.loads.append(os.getloadavg()[0])
            n += 1
            self.stop.wait(0.5)


def _stored(store: Path) -> int:
    return count_results(store, timeout=10)


def run_segment(cmd: list[str], store: Path, kill_at: int | None, rng: random.Random, log: Path) -> Segment:
    """Run one audit process; SIGKILL it once ``kill_at`` results are stored (plus 0-3 s)."""
    seg = Segment()
    t0 = time.monotonic()
    with open(log, "a") as errf:
        p = subprocess.Popen(["nice", "-n", "10", *cmd], stdout=subprocess.DEVNULL, stderr=errf)
        seg.main_pid = p.pid  # nice execs the audit: same process
        mon = Monitor(p.pid, seg)
        mon.start()
        if kill_at is not None:
            while p.poll() is None and _stored(store) < kill_at:
                time.sleep(1.0)
            if p.poll() is None:
                time.sleep(rng.uniform(0.0, 3.0))
                workers = [q for q in _tree(p.pid) if q != p.pid]
                os.kill(p.pid, signal.SIGKILL)
                seg.killed = True
                p.wait()
                deadline = time.monotonic() + 15
                while any(Path(f"/proc/{w}").exists() and _cpu(w) is not None
                          and "Z" not in Path(f"/proc/{w}/stat").read_text().rsplit(")", 1)[1].split()[0]
                          for w in workers) and time.monotonic() < deadline:
                    time.sleep(0.2)
        seg.returncode = p.wait()
        mon.stop.set()
        mon.join()
    seg.wall = time.monotonic() - t0
    return seg


# ------------------------------------------------------------------------------------------
# Comparison and report
# ------------------------------------------------------------------------------------------

def compare(ref: Path, got: Path, n_records: int) -> dict[str, object]:
    a = sqlite3.connect(ref)
    b = sqlite3.connect(got)
    ra = {l: (h, s, d, v) for l, h, s, d, v in a.execute("SELECT line, content_hash, status, decision, verdict FROM results")}
    rows, distinct = b.execute("SELECT COUNT(*), COUNT(DISTINCT line) FROM results").fetchone()
    rb = {l: (h, s, d, v) for l, h, s, d, v in b.execute("SELECT line, content_hash, status, decision, verdict FROM results")}
    dup_offered = b.execute("SELECT COALESCE(SUM(duplicates_ignored), 0) FROM sessions").fetchone()[0]
    lost = sum(1 for l in ra if l not in rb)
    extra = sum(1 for l in rb if l not in ra)
    duplicated = (rows - distinct) + dup_offered + extra
    differ = [(l, ra[l], rb[l]) for l in sorted(ra) if l in rb and ra[l] != rb[l]]
    sessions = b.execute("SELECT session_id, status, records_written, duplicates_ignored FROM sessions").fetchall()
    return {"lost": lost, "duplicated": duplicated, "rows": rows, "records": n_records, "ref_rows": len(ra),
            "differ": differ, "sessions": sessions}


def report(store: Path, out: Path) -> tuple[Path, Path | None, list[str]]:
    """HTML report of the store, rendered in headless Chromium (screenshot, console messages)."""
    import shutil
    import tempfile

    html = out / "report.html"
    r = subprocess.run([sys.executable, "-m", "verifier", "audit", "report", str(store), "--report", str(html),
                        "--title", "Audit bench: 10,000-line query log"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"report failed: {r.stderr}")
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        return html, None, ["(no chromium: apt-get install chromium)"]
    png = out / "report.png"
    console: list[str] = []
    with tempfile.TemporaryDirectory(prefix="audit-bench-chromium-") as prof:
        base = [exe, "--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", f"--user-data-dir={prof}",
                "--enable-logging=stderr", "--v=0", "--hide-scrollbars", "--virtual-time-budget=10000"]
        for extra in (["--dump-dom"], ["--window-size=1280,3000", f"--screenshot={png}"]):
            r = subprocess.run([*base, *extra, html.resolve().as_uri()], capture_output=True, text=True, timeout=300)
            console += [l for l in r.stderr.splitlines() if ":CONSOLE" in l or "Uncaught" in l]
            if "--dump-dom" in extra and "data-rendered=" not in r.stdout:
                console.append("the table script did not finish (no data-rendered attribute)")
    return html, png, console


# ------------------------------------------------------------------------------------------

def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lines", type=int, default=10_000)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=str(ROOT / "bench" / "out" / "audit"))
    ap.add_argument("--keep", action="store_true", help="reuse the log and the 1-worker store when present")
    args = ap.parse_args()
    if not (SHARED / "lcquad2" / "test.jsonl").exists():
        raise SystemExit(f"shared data not found at {SHARED} (set VERIFIER_BENCH_DATA)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(args.seed)
    log = out / "querylog.jsonl"
    if not (args.keep and log.exists()):
        counts = build_log(log, args.lines, args.seed)
        print(f"log: {log} {counts}", flush=True)
    n_lines = sum(1 for _ in open(log, "rb"))
    cfg = out / "verifier.toml"
    corpora = [str(SHARED / "mrs" / f) for f in ("questions.jsonl.gz", "ood_sample.jsonl.gz", "chemistry.jsonl.gz")]
    cfg.write_text("# audit bench: shared MRS corpora and labels, no ACE\n[mrs]\ncorpora = " + json.dumps(corpora)
                   + f'\n\n[grounding]\nlabels = "{SHARED / "wikidata" / "labels.tsv"}"\n', encoding="utf-8")
    errlog = out / "audit-stderr.log"
    base = [sys.executable, "-m", "verifier", "audit", str(log), "--config", str(cfg), "--quiet", "--no-progress"]
    print(f"load average at start: {os.getloadavg()}", flush=True)

    s1 = out / "store-1.sqlite"
    if not (args.keep and s1.exists() and _stored(s1) == n_lines):
        for p in out.glob("store-1.sqlite*"):
            p.unlink()
        seg1 = run_segment([*base, "--workers", "1", "--store", str(s1)], s1, None, rng, errlog)
        assert seg1.returncode == 0, f"1-worker audit failed ({seg1.returncode}); see {errlog}"
        (out / "run-1.json").write_text(json.dumps(seg1.__dict__, default=str))
    else:
        seg1 = Segment(**{k: v for k, v in json.loads((out / "run-1.json").read_text()).items() if k != "cpu"})
        seg1.cpu = {int(k): v for k, v in json.loads((out / "run-1.json").read_text())["cpu"].items()}
    w1 = max(seg1.worker_cpu() or [0.0])
    print(f"1 worker: wall {seg1.wall:.0f} s, busiest worker CPU {w1:.0f} s, main CPU {seg1.main_cpu():.0f} s, "
          f"peak RSS {seg1.peak_rss_kb / 1024:.0f} MB (PSS {seg1.peak_pss_kb / 1024:.0f} MB), "
          f"load {min(seg1.loads or [0]):.1f}-{max(seg1.loads or [0]):.1f}", flush=True)

    s2 = out / "store-2.sqlite"
    for p in out.glob("store-2.sqlite*"):
        p.unlink()
    kill_points = sorted(rng.sample(range(n_lines // 20, n_lines * 9 // 10), args.kills))
    segs: list[Segment] = []
    for i in range(args.kills + 50):
        kill_at = kill_points[i] if i < len(kill_points) else None
        cmd = [*base, "--workers", "2", "--store", str(s2)] + (["--resume"] if i else [])
        seg = run_segment(cmd, s2, kill_at, rng, errlog)
        segs.append(seg)
        print(f"2 workers, segment {i + 1}: {'killed' if seg.killed else f'exit {seg.returncode}'} with "
              f"{_stored(s2)} stored, wall {seg.wall:.0f} s, worker CPU "
              f"{', '.join(f'{c:.0f}' for c in seg.worker_cpu())} s", flush=True)
        if not seg.killed:
            assert seg.returncode == 0, f"2-worker audit failed ({seg.returncode}); see {errlog}"
            break
    t2_cpu = sum(max(s.worker_cpu() or [0.0]) for s in segs)
    wall2 = sum(s.wall for s in segs)
    main2 = sum(s.main_cpu() for s in segs)
    peak_rss = max([seg1.peak_rss_kb] + [s.peak_rss_kb for s in segs]) / 1024
    peak_pss = max([seg1.peak_pss_kb] + [s.peak_pss_kb for s in segs]) / 1024
    loads = seg1.loads + [x for s in segs for x in s.loads]

    cmp = compare(s1, s2, n_lines)
    rate1, rate2 = n_lines / w1, n_lines / t2_cpu
    eff = rate2 / (2 * rate1)
    wrate1, wrate2 = n_lines / seg1.wall, n_lines / wall2
    print(f"2 workers: {len(segs)} segments ({sum(s.killed for s in segs)} killed), wall {wall2:.0f} s, "
          f"sum of busiest-worker CPU {t2_cpu:.0f} s, main CPU {main2:.0f} s", flush=True)
    print(f"sessions of the 2-worker store: {cmp['sessions']}", flush=True)
    print(f"stores: 1 worker {cmp['ref_rows']} rows, 2 workers {cmp['rows']} rows, log {n_lines} lines; "
          f"decisions/verdicts that differ: {len(cmp['differ'])}", flush=True)
    for l, a, b in cmp["differ"][:10]:
        print(f"  line {l}: 1 worker {a[1:]} / 2 workers {b[1:]}", flush=True)
    print(f"wall clock (loaded machine): lines_per_s_1={wrate1:.2f} lines_per_s_2={wrate2:.2f} "
          f"efficiency={wrate2 / (2 * wrate1):.3f}; main process CPU share: 1 worker "
          f"{seg1.main_cpu() / seg1.wall:.1%}, 2 workers {main2 / wall2:.1%}", flush=True)
    print(f"load average during the runs: mean {sum(loads) / max(1, len(loads)):.2f}, min {min(loads or [0]):.2f}, "
          f"max {max(loads or [0]):.2f}; peak PSS {peak_pss:.0f} MB", flush=True)
    html, png, console = report(s2, out)
    print(f"report: {html} ({html.stat().st_size / 1e6:.1f} MB); screenshot: {png}; chromium console messages: "
          f"{len(console)} {console[:3]}", flush=True)
    print(f"lines_per_s_1={rate1:.2f} lines_per_s_2={rate2:.2f} efficiency={eff:.3f} lost={cmp['lost']} "
          f"duplicated={cmp['duplicated']} peak_rss_mb={peak_rss:.0f}", flush=True)


if __name__ == "__main__":
    main()
