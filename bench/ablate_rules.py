"""Does every rule earn its place off the sample?  Each rewrite rule (correction or view),
question shape and downgrade check disabled in turn, on data it was not written against
(issue 58, point 3).

Sets (``--sets``):

* ``lcquad_sample``: a seeded subset (``--sample-n``) of the seed-0 1,000-pair LC-QuAD 2.0
  sample the rules were developed on, with the perturbations of each gold query (wrong
  property, wrong entity, swapped direction: ``bench/deductive_lcquad.py``);
* ``lcquad_off``: a seeded subset (``--lcquad-off-n``) of the other LC-QuAD 2.0 test pairs
  with a corpus parse, and their perturbations;
* ``llm``: a seeded subset (``--llm-n``) of the LLM predictions labelled correct (1) / wrong
  (0) (``--llm``, built by ``verifier bench build --datasets llm_predictions``); predictions
  of questions of the LC-QuAD sample are left out (they are on the sample);
* ``datasets``: a seeded subset (``--datasets-n``) of the gold pairs of QALD-9-plus, QALD-7
  (all splits) and the WikiWebQuestions dev split (the benchmarks of
  ``bench/deductive_datasets.py``), with their perturbations made the same way as LC-QuAD's.

One baseline pass verifies every item and records, per item, the rewrite rules that changed
any of its readings (``ReadingResult.rules``), the check that decided each reading
(``ReadingResult.check``) and the question shapes whose removal changes the question's
pattern readings.  Then each rule / check / shape is disabled alone (``[rewrite]
disabled_rules``, ``[deductive] disabled_checks``, ``[deductive] disabled_shapes``) and only
the items it touched are verified again (an item it did not touch cannot change).

Per set, a rule's *gain* is the correct items (gold pairs, correct LLM queries) accepted with
it and not without plus the wrong items (perturbations, wrong LLM queries) accepted without it
and not with; its *cost* the wrong items accepted with it and not without plus the correct
items accepted without it and not with (the same for a check: a check gains the wrong items
it keeps from acceptance).  Verdict: ``keep`` when off the sample (``lcquad_off``, ``llm``,
``datasets``) the gains exceed the costs, ``delete`` otherwise (a rule that wins nothing off
the sample is fitted to it).  Prints progress, a Markdown table and a last line
``rules=<n> keep=<n> delete=<n>``; per-item results go to ``--out`` (``items.jsonl``: the
baseline; ``ablated.jsonl``: every verification again; ``table.md``, ``table.json``).  An
item whose verification raises, or whose worker dies, is recorded as ``error`` and the run
goes on.

    PYTHONPATH=$PWD python bench/ablate_rules.py [--sets lcquad_sample,lcquad_off,llm,datasets]
        [--sample-n 250] [--lcquad-off-n 400] [--llm-n 800] [--datasets-n 300]
        [--kinds rule,check,shape] [--max-per-rule 0] [--workers 2] [--out bench/out/ablation]
        [--baseline bench/out/ablation/items.jsonl] [--table-only]

``--baseline`` reuses the baseline of an earlier run (same items, same code); ``--table-only``
makes the table of a run stopped early (the rules whose items were all verified again).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SHARED = ROOT.parent / "shared" / "data"
CORRECT = "correct"
WRONG = "wrong"
#: the sets off the sample: the verdict counts these
OFF_SAMPLE = ("lcquad_off", "llm", "datasets")
SETS = ("lcquad_sample",) + OFF_SAMPLE
DEFAULT_LLM = Path("/work/data/datasets/llm_predictions.jsonl")

_STATE: dict = {}


# ---------------------------------------------------------------- items
def _item(set_name: str, d: dict, category: str, kind: str) -> dict:
    return {"set": set_name, "id": d["id"], "question": d["question"], "sparql": d["sparql"],
            "category": category, "kind": kind}


def _with_perturbations(set_name: str, chosen: list[dict], seed: int) -> list[dict]:
    import deductive_lcquad as dl

    out = [_item(set_name, d, "gold", CORRECT) for d in chosen]
    out += [_item(set_name, p, p["category"], WRONG) for p in dl.perturbations(chosen, seed)]
    return out


def lcquad_items(sample_n: int, off_n: int, sets: set[str], seed: int = 0) -> tuple[list[dict], set[str]]:
    """Seeded subsets of the seed-0 sample and of the other pairs, each with its
    perturbations; and the questions of the whole sample."""
    import deductive_lcquad as dl

    pairs, _, sample_ids = dl.load_pairs(100_000, seed)
    sample = [p for p in pairs if p["id"] in sample_ids]
    other = [p for p in pairs if p["id"] not in sample_ids]
    sample_questions = {p["question"] for p in sample}
    out: list[dict] = []
    if "lcquad_sample" in sets:
        out += _with_perturbations("lcquad_sample", random.Random(seed + 2).sample(sample, min(sample_n, len(sample))),
                                   seed)
    if "lcquad_off" in sets:
        out += _with_perturbations("lcquad_off", random.Random(seed + 1).sample(other, min(off_n, len(other))), seed)
    return out, sample_questions


def llm_items(path: Path, n: int, exclude_questions: set[str], seed: int = 0) -> list[dict]:
    """A seeded subset of the LLM predictions labelled correct (1) or wrong (0), without those
    of questions in ``exclude_questions``."""
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d.get("label") not in (0, 1) or not d.get("sparql") or d["question"] in exclude_questions:
                continue
            out.append(_item("llm", d, d["category"], CORRECT if d["label"] == 1 else WRONG))
    return random.Random(seed + 3).sample(out, min(n, len(out)))


#: Wikidata namespaces written as prefixed names (the perturbations edit prefixed names only)
_NAMESPACES = (("http://www.wikidata.org/prop/direct/", "wdt:"), ("http://www.wikidata.org/prop/statement/", "ps:"),
               ("http://www.wikidata.org/prop/qualifier/", "pq:"), ("http://www.wikidata.org/prop/", "p:"),
               ("http://www.wikidata.org/entity/", "wd:"))


def _prefixed(sparql: str) -> str:
    """``sparql`` with full Wikidata IRIs written as prefixed names (QALD writes them in full)."""
    for ns, pfx in _NAMESPACES:
        sparql = re.sub(r"<" + re.escape(ns) + r"([PQ]\d+)>", pfx + r"\1", sparql)
    return sparql


def dataset_items(n: int, exclude_questions: set[str], seed: int = 0) -> list[dict]:
    """A seeded subset of the gold pairs of QALD-9-plus and QALD-7 (all splits) and of the
    WikiWebQuestions dev split (one pair per question), with their perturbations."""
    files = ["qald9plus/train", "qald9plus/test", "qald7/train", "qald7/test", "wikiwebquestions/dev"]
    seen: set[str] = set(exclude_questions)
    gold = []
    for name in files:
        path = SHARED / f"{name}.jsonl"
        if not path.is_file():
            continue
        for line in path.open(encoding="utf-8"):
            d = json.loads(line)
            if not d.get("sparql") or not d.get("question") or d["question"] in seen:
                continue
            seen.add(d["question"])
            gold.append({"id": d["id"], "question": d["question"], "sparql": _prefixed(d["sparql"])})
    chosen = random.Random(seed + 4).sample(gold, min(n, len(gold)))
    return _with_perturbations("datasets", chosen, seed)


# ---------------------------------------------------------------- variants
def _base_verifier():
    from verifier.api import Verifier
    from verifier.config import Config
    from verifier.lexical import LabelIndex
    from verifier.mrs_cache import MrsCorpus

    if "base" not in _STATE:
        labels = LabelIndex.cached(str(SHARED / "wikidata" / "labels.tsv"))
        mrs = MrsCorpus([str(SHARED / "mrs" / "questions.jsonl.gz")])
        _STATE["inputs"] = (labels, mrs)
        _STATE["base"] = Verifier(Config({}), labels=labels, mrs=mrs)
    return _STATE["base"]


def _verifier(variant: tuple[str, str]):
    """The verifier of a variant: ``("base", "")``, ``("rule", NAME)``, ``("check", NAME)``,
    ``("shape", NAME)``: the base verifier with the setting that ``[rewrite] disabled_rules``,
    ``[deductive] disabled_checks`` or ``disabled_shapes`` gives (the attributes
    :class:`verifier.api.Verifier` reads them into; building a verifier per variant costs
    seconds); one variant kept per worker (the tasks come grouped by variant)."""
    import copy

    base = _base_verifier()
    if variant == ("base", ""):
        return base
    if _STATE.get("variant", (None,))[0] == variant:
        return _STATE["variant"][1]
    from parsers.mrs.shapes import engine_for
    from verifier.deductive.checks import enabled_checks

    kind, name = variant
    v = copy.copy(base)
    if kind == "check":
        v.checks = enabled_checks([name])
    elif kind == "shape":
        v.disabled_shapes = [name]
        v.shape_engine = engine_for(base.shapes, [name])
    elif kind == "rule":
        from verifier.deductive.rules import rules_for

        # the verifier checks with the rule sets it made once (``Verifier.rules``), not with
        # the names it read them from
        v.disabled_rules = frozenset([name])
        v.rules = {standin: rules_for(standin, v.disabled_rules) for standin in (True, False)}
    _STATE["variant"] = (variant, v)
    return v


def _shape_engines():
    from parsers.mrs.shapes import engine_for

    if "shapes" not in _STATE:
        full = engine_for()
        names = sorted(s.name for s in full.shape_set.shapes)
        _STATE["shapes"] = (full, {n: engine_for(None, [n]) for n in names})
    return _STATE["shapes"]


def shape_names() -> list[str]:
    """Every shipped question shape."""
    return sorted(_shape_engines()[1])


def touched_shapes(question: str) -> list[str]:
    """The shapes whose removal changes the pattern readings of ``question``."""
    full, without = _shape_engines()
    base = full.readings(question)
    if not base:
        return []
    return [n for n, e in without.items() if e.readings(question) != base]


def _error(e: BaseException) -> dict:
    return {"decision": "error", "verdict": "error", "reason": f"{type(e).__name__}: {e}", "rules": [], "checks": [],
            "shapes": []}


def _run(task: tuple[tuple[str, str], dict]) -> dict:
    variant, item = task
    try:
        v = _verifier(variant)
        t = time.process_time()
        r = v.verify(item["question"], item["sparql"])
    except Exception as e:  # a crash is a result too: never lose the item
        return _error(e)
    ded = r.deductive
    out = {"decision": r.decision, "verdict": r.verdict, "reason": ((ded.reason if ded else r.error) or "")[:300],
           "ms": round((time.process_time() - t) * 1000, 1)}
    if variant[0] == "base":
        rs = ded.readings if ded is not None else ()
        out["rules"] = sorted({x for rr in rs for x in getattr(rr, "rules", ())})
        out["checks"] = sorted({getattr(rr, "check", "") for rr in rs} - {""})
        try:
            out["shapes"] = touched_shapes(item["question"])
        except Exception as e:  # noqa: BLE001 - a shape bug loses the shapes of this item only
            out["shapes"], out["shape_error"] = [], f"{type(e).__name__}: {e}"
    return out


def robust_map(tasks: list, workers: int, label: str, sink=None) -> list[dict]:
    """``_run`` over ``tasks`` in ``workers`` processes, in order, printing progress; a task
    whose worker dies is run again alone and recorded as an error if it kills that one too.
    ``sink(i, result)`` is called as each result arrives."""
    results: list[dict | None] = [None] * len(tasks)
    t0, done, last = time.time(), 0, time.time()
    pending = list(range(len(tasks)))[::-1]
    ex = ProcessPoolExecutor(workers)
    inflight: dict = {}

    def finish(j: int, r: dict) -> None:
        nonlocal done, last
        results[j] = r
        done += 1
        if sink is not None:
            sink(j, r)
        if time.time() - last > 30 or done == len(tasks):
            last = time.time()
            el = last - t0
            print(f"  {label}: {done}/{len(tasks)} in {el:.0f} s (eta {el / done * (len(tasks) - done):.0f} s)",
                  flush=True)

    try:
        while pending or inflight:
            while pending and len(inflight) < workers * 4:
                j = pending.pop()
                inflight[ex.submit(_run, tasks[j])] = j
            finished, _ = wait(list(inflight), return_when=FIRST_COMPLETED)
            broke: list[int] = []
            for f in finished:
                j = inflight.pop(f)
                try:
                    finish(j, f.result())
                except BrokenProcessPool:
                    broke.append(j)
                except Exception as e:  # noqa: BLE001
                    finish(j, _error(e))
            if broke:  # every task in flight is lost with the pool: each runs again alone
                suspects = sorted(set(broke) | set(inflight.values()))
                inflight.clear()
                ex.shutdown(wait=False, cancel_futures=True)
                print(f"  {label}: a worker died; {len(suspects)} task(s) run again alone", flush=True)
                for j in suspects:
                    with ProcessPoolExecutor(1) as solo:
                        try:
                            finish(j, solo.submit(_run, tasks[j]).result())
                        except Exception as e:  # noqa: BLE001 - it kills its worker: an error
                            finish(j, _error(e))
                ex = ProcessPoolExecutor(workers)
    finally:
        ex.shutdown(wait=True, cancel_futures=True)
    return results  # type: ignore[return-value]


# ---------------------------------------------------------------- table
def effects(items: list[dict], base: list[dict], ablated: dict[tuple, dict[int, dict]]) -> dict[tuple, dict]:
    """Per rule: ``{set: [gain, cost]}`` (see the module doc)."""
    table: dict[tuple, dict[str, list[int]]] = {}
    for key, results in ablated.items():
        per: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for i, r in results.items():
            it, b = items[i], base[i]
            if "error" in (b["decision"], r["decision"]):
                continue
            with_rule = b["decision"] == "accept"
            without = r["decision"] == "accept"
            if with_rule == without:
                continue
            good = (it["kind"] == CORRECT) == with_rule  # accepts a correct one / keeps out a wrong one
            per[it["set"]][0 if good else 1] += 1
        table[key] = dict(per)
    return table


def load_jsonl(path: Path) -> list[dict]:
    """The records of a JSON-lines file (a truncated last line is skipped)."""
    out = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return out


def table_lines(items: list[dict], ablated: dict[tuple, dict[int, dict]], touched: dict[tuple, list[int]],
                table: dict[tuple, dict]) -> tuple[list[str], int, int]:
    """The Markdown table and the keep / delete counts."""
    lines = ["| kind | rule | items touched: sample / off (verified again) | sample gain / cost "
             "| LC-QuAD off gain / cost | LLM gain / cost | QALD+WWQ gain / cost | off-sample net | verdict |",
             "|---|---|---:|---:|---:|---:|---:|---:|---|"]
    keep = delete = 0
    for key in sorted(table):
        per = table[key]
        g = lambda s: per.get(s, [0, 0])  # noqa: E731
        net_off = sum(g(s)[0] - g(s)[1] for s in OFF_SAMPLE)
        verdict = "keep" if net_off > 0 else "delete"
        keep += verdict == "keep"
        delete += verdict == "delete"
        idx = touched.get(key, [])
        on = sum(items[i]["set"] == "lcquad_sample" for i in idx)
        again = len(ablated.get(key, {}))
        lines.append(f"| {key[0]} | {key[1]} | {on} / {len(idx) - on}"
                     + ("" if again == len(idx) else f" ({again})")
                     + f" | {g('lcquad_sample')[0]} / {g('lcquad_sample')[1]} | {g('lcquad_off')[0]} / "
                     f"{g('lcquad_off')[1]} | {g('llm')[0]} / {g('llm')[1]} | {g('datasets')[0]} / "
                     f"{g('datasets')[1]} | {net_off:+d} | {verdict} |")
    return lines, keep, delete


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--kinds", default="rule,check,shape",
                    help="what to disable in turn (rule, check, shape; '' for the baseline only)")
    ap.add_argument("--sample-n", type=int, default=250, help="pairs of the seed-0 sample (seeded subset)")
    ap.add_argument("--lcquad-off-n", type=int, default=400, help="other LC-QuAD test pairs (seeded subset)")
    ap.add_argument("--llm", type=Path, default=DEFAULT_LLM)
    ap.add_argument("--llm-n", type=int, default=800, help="labelled LLM predictions (seeded subset)")
    ap.add_argument("--datasets-n", type=int, default=300, help="QALD / WWQ gold pairs (seeded subset)")
    ap.add_argument("--max-per-rule", type=int, default=0,
                    help="verify again at most this many of a rule's touched items (seeded subset; 0: all)")
    ap.add_argument("--baseline", type=Path, default=None,
                    help="reuse the baseline of an earlier run (its items.jsonl; same sets and sizes, same code); "
                         "the items it lacks (a run stopped early) are left out")
    ap.add_argument("--max-item-ms", type=float, default=0,
                    help="do not verify again an item whose baseline took more CPU time than this (0: no limit)")
    ap.add_argument("--table-only", action="store_true",
                    help="only the table, from --out's items.jsonl and ablated.jsonl (of a run stopped early)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "out" / "ablation")
    args = ap.parse_args(argv)
    sets = {s.strip() for s in args.sets.split(",") if s.strip()}
    kinds = {k.strip() for k in args.kinds.split(",") if k.strip()}
    if kinds - {"rule", "check", "shape"}:
        print(f"unknown --kinds {', '.join(sorted(kinds - {'rule', 'check', 'shape'}))} (rule, check, shape; "
              "'' for the baseline only)", file=sys.stderr)
        return 2
    if not SHARED.is_dir():
        print(f"shared data not found at {SHARED}", file=sys.stderr)
        return 2
    t0 = time.time()
    items, sample_questions = lcquad_items(args.sample_n, args.lcquad_off_n, sets)
    if "llm" in sets:
        if not args.llm.is_file():
            print(f"{args.llm} missing: run 'verifier bench build --datasets llm_predictions'", file=sys.stderr)
            return 2
        items += llm_items(args.llm, args.llm_n, sample_questions)
    if "datasets" in sets:
        items += dataset_items(args.datasets_n, sample_questions)
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"{len(items)} items: " + ", ".join(
        f"{s}={sum(d['set'] == s for d in items)} ({sum(d['set'] == s and d['kind'] == CORRECT for d in items)} correct)"
        for s in SETS if s in sets) + f" (built in {time.time() - t0:.0f} s)", flush=True)

    baseline = args.baseline or (args.out / "items.jsonl" if args.table_only else None)
    if baseline is not None:
        base_of = {r["index"]: r for r in load_jsonl(baseline)}
        if any(i >= len(items) or items[i]["id"] != r["id"] for i, r in base_of.items()):
            print(f"{baseline} is not the baseline of these items", file=sys.stderr)
            return 2
        kept = sorted(base_of)
        items, base = [items[i] for i in kept], [base_of[i] for i in kept]
        print(f"baseline read from {baseline}: {len(items)} items: " + ", ".join(
            f"{s}={sum(d['set'] == s for d in items)}" for s in SETS if s in sets), flush=True)
    else:
        with (args.out / "items.jsonl").open("w", encoding="utf-8") as f:
            def write_base(i: int, r: dict) -> None:
                f.write(json.dumps({"index": i, **items[i], **r}, ensure_ascii=False) + "\n")
                f.flush()
            base = robust_map([(("base", ""), d) for d in items], args.workers, "baseline", write_base)
        print(f"baseline in {time.time() - t0:.0f} s; errors={sum(b['decision'] == 'error' for b in base)}",
              flush=True)
    for s in SETS:
        if s in sets:
            rows = [(d, b) for d, b in zip(items, base) if d["set"] == s]
            acc = lambda k: sum(b["decision"] == "accept" for d, b in rows if d["kind"] == k)  # noqa: E731
            n = lambda k: sum(d["kind"] == k for d, b in rows)  # noqa: E731
            print(f"baseline {s}: correct accepted {acc(CORRECT)}/{n(CORRECT)}, wrong accepted {acc(WRONG)}/{n(WRONG)}",
                  flush=True)

    from verifier.deductive.checks import CHECK_NAMES

    names: dict[str, list[str]] = {"check": list(CHECK_NAMES), "shape": shape_names(), "rule": rule_names()}
    touched: dict[tuple, list[int]] = {(k, n): [] for k in kinds for n in names[k]}
    slow = 0
    for i, b in enumerate(base):
        if args.max_item_ms and b.get("ms", 0) > args.max_item_ms:
            slow += 1
            continue
        found = {("rule", r) for r in b.get("rules", ())} | {("check", c) for c in b.get("checks", ())} \
            | {("shape", s) for s in b.get("shapes", ())}
        if ("check", "not_a_time") in found:  # its failure is the intent check's verdict after a proof
            found.add(("check", "intent"))
        for key in found:
            if key[0] in kinds:
                touched.setdefault(key, []).append(i)
    # the rules that touch fewest items first: a run stopped early has the most rows complete
    tasks = []
    for key, idx in sorted(touched.items(), key=lambda kv: (len(kv[1]), kv[0])):
        if args.max_per_rule and len(idx) > args.max_per_rule:
            idx = sorted(random.Random(f"{key}").sample(idx, args.max_per_rule))
        tasks += [(key, i) for i in idx]
    if slow:
        print(f"{slow} items over {args.max_item_ms:.0f} ms of CPU time not verified again", flush=True)
    print(f"{sum(bool(v) for v in touched.values())} of {len(touched)} rules touched items; "
          f"{len(tasks)} items to verify again", flush=True)
    ablated: dict[tuple, dict[int, dict]] = {key: {} for key in touched}
    if args.table_only:
        for r in load_jsonl(args.out / "ablated.jsonl"):
            ablated.setdefault((r["kind"], r["rule"]), {})[r["index"]] = r
        # a rule counts only when all its items were verified again
        wanted = defaultdict(set)
        for key, i in tasks:
            wanted[key].add(i)
        incomplete = sorted(k for k in touched if set(ablated.get(k, {})) != wanted[k])
        if incomplete:
            print(f"not finished (left out): {', '.join(f'{k[0]}:{k[1]}' for k in incomplete)}", flush=True)
        for k in incomplete:
            touched.pop(k)
            ablated.pop(k, None)
    else:
        with (args.out / "ablated.jsonl").open("w", encoding="utf-8") as f:
            def write_ablated(j: int, r: dict) -> None:
                key, i = tasks[j]
                f.write(json.dumps({"kind": key[0], "rule": key[1], "index": i, "id": items[i]["id"],
                                    "set": items[i]["set"], "base": base[i]["decision"], **r},
                                   ensure_ascii=False) + "\n")
                f.flush()
            results = robust_map([(key, items[i]) for key, i in tasks], args.workers, "ablation", write_ablated)
        for (key, i), r in zip(tasks, results):
            ablated[key][i] = r
    table = effects(items, base, ablated)
    lines, keep, delete = table_lines(items, ablated, touched, table)
    print("\n" + "\n".join(lines), flush=True)
    (args.out / "table.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (args.out / "table.json").write_text(json.dumps({f"{k[0]}:{k[1]}": v for k, v in table.items()}, indent=1))
    print(f"\nrules={len(table)} keep={keep} delete={delete} ({time.time() - t0:.0f} s)")
    return 0


def rule_names() -> list[str]:
    """The names of the rewrite rules (corrections and views) that ``[rewrite] disabled_rules``
    may list: those of the shipped rule files."""
    from verifier.deductive.rules import shipped_rules

    return list(shipped_rules().names)


if __name__ == "__main__":
    sys.exit(main())
