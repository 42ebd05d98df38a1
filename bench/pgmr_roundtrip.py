"""PGMR round trip on LC-QuAD 2.0 test: gold SPARQL -> intermediate -> grounded SPARQL.

Every gold query is written in the intermediate form (identifiers replaced by
``starturi <label> enduri``, prefixes kept) and grounded back with the memory built from
``labels.tsv`` (default encoder: weight-free hashed n-grams).  Reports the metrics of the
PGMR paper (query exact match, URI exact match, URI hallucination) and label collisions,
then the same with degraded labels (a typo, an alias instead of the label, a different word
order).

Headline (last line) is strict: a gold query with an identifier absent from the memory
cannot be written as labels and counts as a miss.  The lenient figures (such identifiers
copied through unchanged) are printed above it.

    python bench/pgmr_roundtrip.py [--limit N] [--encoder st:BAAI/bge-small-en-v1.5]
Last line: uri_em=<percent> query_em=<percent> uri_hallucination=<percent>
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from pgmr_common import LCQUAD_TEST, add_memory_args, load_memory, read_jsonl, setup_logging

from verifier.pgmr import ground_many, intermediate_form, round_trip_metrics, uri_set
from verifier.pgmr.degrade import DEGRADATIONS, rng_for
from verifier.pgmr.symbols import surface_key


def run_condition(name, recs, mem, *, k, threshold, seed):
    """Intermediate -> ground for one condition ('clean' or a degradation name)."""
    degrade = DEGRADATIONS.get(name)
    forms, changed, labels = [], 0, 0
    for r in recs:
        def label_of(ident, sym, _r=r):
            nonlocal changed, labels
            labels += 1
            if degrade is None:
                return sym.label
            new = degrade(sym, rng_for(seed, _r["id"], ident.id, name))
            changed += surface_key(new) != surface_key(sym.label)
            return new
        forms.append(intermediate_form(r["sparql"], mem, label_of=label_of))
    t = time.perf_counter()
    results = ground_many([f.text for f in forms], mem, k=k, threshold=threshold)
    elapsed = time.perf_counter() - t
    gold = [r["sparql"] for r in recs]
    pred = [g.sparql for g in results]
    failed = [bool(f.missing) for f in forms]
    strict = round_trip_metrics(gold, pred, mem, failed=failed)
    lenient = round_trip_metrics(gold, pred, mem)
    refused = sum(len(g.ungrounded) for g in results)
    n_markers = sum(len(g.labels) for g in results)
    right = sum(lg.chosen is not None and lg.chosen.id == ident.id
                for f, g in zip(forms, results) for ident, lg in zip(f.replaced, g.labels))
    return {"condition": name, "strict": strict, "lenient": lenient, "forms": forms,
            "results": results, "labels": labels, "changed": changed, "refused": refused,
            "markers": n_markers, "label_acc": 100.0 * right / max(n_markers, 1),
            "seconds": elapsed}


def collision_report(recs, mem, clean):
    """Label collisions in the memory and in the gold queries, and errors they explain."""
    table = mem.table
    same_kind = [c for c in table.collisions(labels_only=True)
                 if len({table.get(i).kind.group for i in c.as_label}) < len(c.as_label)]
    occ = occ_coll = q_coll = err = err_coll = 0
    for r, form, res in zip(recs, clean["forms"], clean["results"]):
        has = False
        for ident, lg in zip(form.replaced, res.labels):
            occ += 1
            coll = bool(table.label_collision(ident.id))
            occ_coll += coll
            has |= coll
            if lg.chosen is None or lg.chosen.id != ident.id:
                err += 1
                err_coll += coll
        q_coll += has
    return {
        "memory_labels_shared_same_kind": len(same_kind),
        "memory_ids_in_same_kind_collisions": sum(len(c.as_label) for c in same_kind),
        "memory_surface_strings_shared_any_kind": len(table.collisions()),
        "gold_occurrences": occ, "gold_occurrences_colliding": occ_coll,
        "queries_with_collision": q_coll, "label_errors": err,
        "label_errors_from_collisions": err_coll,
    }


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=LCQUAD_TEST)
    add_memory_args(ap)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("-k", type=int, default=5)
    ap.add_argument("--threshold", type=float, default=None,
                    help="refusal threshold (default: the encoder's)")
    ap.add_argument("--degradations", default="typo,alias,word_order",
                    help="comma-separated subset of typo,alias,word_order ('' for none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None, help="also write the figures as JSON")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    setup_logging(args.verbose)

    recs = read_jsonl(args.data, args.limit)
    mem = load_memory(args)
    thr = mem.encoder.default_threshold if args.threshold is None else args.threshold
    print(f"data: {args.data} ({len(recs)} queries); memory: {len(mem)} symbols; "
          f"encoder: {mem.encoder.identity}; k={args.k} threshold={thr}")

    out = {"n": len(recs), "encoder": mem.encoder.identity, "threshold": thr, "conditions": {}}
    clean = run_condition("clean", recs, mem, k=args.k, threshold=args.threshold,
                          seed=args.seed)
    missing_q = sum(bool(f.missing) for f in clean["forms"])
    missing_ids = len({i.id for f in clean["forms"] for i in f.missing})
    print(f"gold queries with an identifier absent from the memory: {missing_q} "
          f"({pct(missing_q, len(recs)):.2f}%), {missing_ids} distinct ids")

    col = collision_report(recs, mem, clean)
    print("label collisions:")
    print(f"  memory: {col['memory_labels_shared_same_kind']} labels shared by "
          f"{col['memory_ids_in_same_kind_collisions']} ids of the same kind; "
          f"{col['memory_surface_strings_shared_any_kind']} surface strings (labels or "
          f"aliases, any kind) name more than one id")
    print(f"  gold: {col['gold_occurrences_colliding']}/{col['gold_occurrences']} identifier "
          f"occurrences ({pct(col['gold_occurrences_colliding'], col['gold_occurrences']):.2f}%) "
          f"have a label shared with another id of the same kind; "
          f"{col['queries_with_collision']} queries "
          f"({pct(col['queries_with_collision'], len(recs)):.2f}%) contain one")
    print(f"  clean grounding: {col['label_errors']} of {col['gold_occurrences']} labels "
          f"grounded to another id, {col['label_errors_from_collisions']} of them label "
          f"collisions ({pct(col['label_errors_from_collisions'], col['label_errors']):.1f}%)")
    out["collisions"] = col

    conds = [clean] + [run_condition(d, recs, mem, k=args.k, threshold=args.threshold,
                                     seed=args.seed)
                       for d in [x for x in args.degradations.split(",") if x]]
    print("per condition: strict query/URI EM and hallucination (%); lenient EM; labels changed "
          "by the degradation; label accuracy (marker grounded to the gold id); refusals; queries "
          "with a changed label and their URI EM; grounding seconds")
    print(f"{'condition':<11} {'query_em':>9} {'uri_em':>8} {'halluc':>7} | {'lenient q/u':>13} | "
          f"{'labels changed':>15} {'label acc':>9} {'refused':>8} {'affected q':>10} "
          f"{'uri_em(aff)':>11} {'s':>5}")
    for c in conds:
        # queries where the degradation changed at least one label
        aff = ([] if c["condition"] == "clean" else
               [i for i, f in enumerate(c["forms"]) if f.text != clean["forms"][i].text])
        aff_em = (pct(sum(uri_set(c["results"][i].sparql) == uri_set(recs[i]["sparql"])
                          and not c["forms"][i].missing for i in aff), len(aff))
                  if aff else float("nan"))
        s, l = c["strict"], c["lenient"]
        print(f"{c['condition']:<11} {s.query_em:9.2f} {s.uri_em:8.2f} "
              f"{s.uri_hallucination:7.2f} | "
              f"{l.query_em:6.2f}/{l.uri_em:6.2f} | {c['changed']:6d}/{c['labels']:<8d} "
              f"{c['label_acc']:8.2f}% {pct(c['refused'], c['markers']):7.2f}% {len(aff):10d} "
              f"{aff_em:11.2f} "
              f"{c['seconds']:5.1f}")
        out["conditions"][c["condition"]] = {
            "query_em": s.query_em, "uri_em": s.uri_em, "uri_hallucination": s.uri_hallucination,
            "lenient_query_em": l.query_em, "lenient_uri_em": l.uri_em,
            "labels": c["labels"], "labels_changed": c["changed"], "label_acc": c["label_acc"],
            "refused_pct": pct(c["refused"], c["markers"]), "affected_queries": len(aff),
            "uri_em_affected": aff_em}
    if args.json:
        args.json.write_text(json.dumps(out, indent=2), encoding="utf-8")
    s = clean["strict"]
    print(f"uri_em={s.uri_em:.2f} query_em={s.query_em:.2f} "
          f"uri_hallucination={s.uri_hallucination:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
