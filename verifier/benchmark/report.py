"""Summaries of an evaluation: JSON, Markdown tables and PNG plots.

:func:`summarize` computes, per signal: overall metrics, per-category metrics, per-group
metrics (``source``, ``model`` ...), metrics by MRS coverage (``has_mrs``) and decision
profiles of unlabelled classes (partial credit).  A category with hallucinated items is
scored against the correct items it is compared with: for perturbations, the gold records of
the same gold pairs (matched by ``gold_id``), otherwise every correct item of the dataset.  A
category of correct items only is scored alone (acceptance and abstention; no hallucination
to find).  :func:`write_report` writes ``<dataset>.json``, ``<dataset>.md``, per-item
``<dataset>.<signal>.items.jsonl`` and the plots.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Mapping, Sequence

from verifier.benchmark.evaluate import SignalRun
from verifier.benchmark.metrics import (binary_metrics, decision_profile,
                                        precision_acceptance_curve)
from verifier.benchmark.records import BenchRecord, Dataset

__all__ = ["summarize", "markdown", "write_report", "plot_scores", "plot_precision_acceptance"]

log = logging.getLogger(__name__)
CORRECT_LIKE = ("gold", "correct", "in_ontology", "in_distribution")


def _label(r: BenchRecord, field: str) -> int | None:
    v = r.label if field == "label" else r.get(field)
    return v if v in (0, 1) else None


def _binary(recs: Sequence[BenchRecord], res: Mapping[str, Any], field: str) -> dict | None:
    rows = [(r, res[r.id]) for r in recs if r.id in res and _label(r, field) is not None]
    if not rows:
        return None
    return binary_metrics([_label(r, field) for r, _ in rows], [x.decision for _, x in rows],
                          [x.score for _, x in rows]).to_dict()


def summarize(dataset: Dataset, runs: Mapping[str, SignalRun], *, label_field: str = "label",
              groups: Sequence[str] = ("source", "model")) -> dict[str, Any]:
    """The full summary (module docstring) as a JSON-ready dict."""
    out: dict[str, Any] = {"dataset": dataset.name, "path": str(dataset.path),
                           "label_field": label_field, "signals": {}}
    for name, run in runs.items():
        s: dict[str, Any] = {"available": run.available, "reason": run.reason,
                             "config_hash": run.config_hash, "config": dict(run.config)}
        if not run.available:
            out["signals"][name] = s
            continue
        res = run.results
        recs = [r for r in dataset.records if r.id in res]
        s.update(items=len(recs), computed=run.computed, cached=run.cached, errors=run.errors,
                 interrupted=run.interrupted, overall=_binary(recs, res, label_field))
        cats: dict[str, Any] = {}
        order = list(dict.fromkeys(r.category for r in recs))
        correct_all = [r for r in recs if _label(r, label_field) == 1]
        for cat in order:
            items = [r for r in recs if r.category == cat]
            labs = {_label(r, label_field) for r in items}
            if labs == {None}:
                cats[cat] = {"kind": "profile", "n": len(items), "profile": decision_profile(
                    [res[r.id].decision for r in items], [res[r.id].score for r in items]
                ).to_dict()}
                continue
            if 0 in labs:
                gold_ids = {r.get("gold_id") for r in items if r.get("gold_id")}
                ref = [r for r in correct_all if r.category != cat and
                       (not gold_ids or r.get("gold_id", r.id) in gold_ids)]
                kind = "vs_correct"
                m = _binary(items + ref, res, label_field)
                cats[cat] = {"kind": kind, "n": len(items), "reference": len(ref), "metrics": m}
            else:
                cats[cat] = {"kind": "correct_only", "n": len(items),
                             "metrics": _binary(items, res, label_field)}
        s["categories"] = cats
        s["groups"] = {}
        for g in groups:
            keys = sorted({str(r.get(g)) for r in recs if r.get(g) is not None})
            if len(keys) < 1 or all(r.get(g) is None for r in recs):
                continue
            s["groups"][g] = {k: _binary([r for r in recs if str(r.get(g)) == k], res,
                                         label_field) for k in keys}
        s["has_mrs"] = {str(v).lower(): _binary([r for r in recs if r.has_mrs == v], res,
                                                label_field) for v in (True, False)}
        curve_recs = [r for r in recs if _label(r, label_field) is not None]
        s["precision_acceptance"] = precision_acceptance_curve(
            [_label(r, label_field) for r in curve_recs], [res[r.id].score for r in curve_recs],
            points=21)
        errs = [(r.id, res[r.id].error) for r in recs if res[r.id].error]
        s["error_examples"] = errs[:10]
        out["signals"][name] = s
    return out


def _f(x: Any) -> str:
    if x is None:
        return "–"
    if isinstance(x, float):
        return f"{x:.3f}"
    return str(x)


_COLS = ("n", "halluc.", "macro-F1", "P(reject)", "R(reject)", "accept-prec.",
         "accept(correct)", "abstain", "AUC")


def _row(label: str, n: Any, m: Mapping[str, Any] | None) -> str:
    if m is None:
        return f"| {label} | {n} |" + " – |" * (len(_COLS) - 1)
    vals = [m["n_hallucinated"], m["macro_f1"], m["precision_reject"], m["recall_reject"],
            m["accept_precision"], m["acceptance_correct"], m["abstain_rate"], m["auc"]]
    if not m["n_hallucinated"] or not m["n_correct"]:
        # one class only: F1 / precision of rejection are undefined there
        vals[1:4] = [None, None if not m["n_hallucinated"] else m["precision_reject"],
                     m["recall_reject"]]
    return f"| {label} | {n} | " + " | ".join(_f(v) for v in vals) + " |"


def markdown(summary: Mapping[str, Any]) -> str:
    """Markdown tables of a :func:`summarize` result."""
    lines = [f"# Evaluation on `{summary['dataset']}` (labels: `{summary['label_field']}`)", "",
             "Positive = hallucination (label 0); reject = predicted positive; abstentions are "
             "excluded from P/R/F1 and counted in *abstain*. *accept-prec.* = share of accepted "
             "queries that are correct; *accept(correct)* = share of all correct queries "
             "accepted. A hallucination category is scored together with the correct items it "
             "is compared with (the gold records of the same pairs); `n` counts the category's "
             "own items.", ""]
    head = "| signal / category | " + " | ".join(_COLS) + " |"
    sep = "|" + "---|" * (len(_COLS) + 1)
    for name, s in summary["signals"].items():
        lines.append(f"## {name}")
        lines.append("")
        if not s["available"]:
            lines += [f"**not available**: {s['reason']}", ""]
            continue
        lines.append(f"{s['items']} items ({s['computed']} computed, {s['cached']} from the "
                     f"cache, {s['errors']} errors){' — INTERRUPTED' if s['interrupted'] else ''}.")
        lines += ["", head, sep, _row("**overall**", s["items"], s["overall"])]
        conf = (s["overall"] or {}).get("confusion")
        profiles = []
        for cat, c in s["categories"].items():
            if c["kind"] == "profile":
                profiles.append((cat, c))
                continue
            lines.append(_row(cat, c["n"], c["metrics"]))
        lines.append("")
        if conf:
            lines += ["Confusion matrix (overall, labelled items):", "",
                      "| true \\ decision | reject | accept | abstain |", "|---|---|---|---|"]
            for k in ("hallucinated", "correct"):
                lines.append(f"| {k} | {conf[k]['reject']} | {conf[k]['accept']} | "
                             f"{conf[k]['abstain']} |")
            lines.append("")
        if profiles:
            lines += ["Classes without a binary label (own class):", "",
                      "| class | n | accept | reject | abstain | mean score |",
                      "|---|---|---|---|---|---|"]
            for cat, c in profiles:
                p = c["profile"]
                lines.append(f"| {cat} | {c['n']} | {_f(p['accept_rate'])} | "
                             f"{_f(p['reject_rate'])} | {_f(p['abstain_rate'])} | "
                             f"{_f(p['mean_score'])} |")
            lines.append("")
        for g, table in s["groups"].items():
            if len(table) < 2:
                continue
            lines += [f"By {g}:", "", head.replace("signal / category", g), sep]
            for k, m in table.items():
                lines.append(_row(k, m["n"] if m else 0, m))
            lines.append("")
        lines += ["By MRS coverage (`has_mrs`):", "", head.replace("signal / category", "has_mrs"),
                  sep]
        for k, m in s["has_mrs"].items():
            lines.append(_row(k, m["n"] if m else 0, m))
        lines.append("")
        if s["error_examples"]:
            lines += ["Errors (first):", ""] + [f"- `{i}`: {e}" for i, e in s["error_examples"]]
            lines.append("")
    return "\n".join(lines) + "\n"


def plot_scores(dataset: Dataset, run: SignalRun, path: Path) -> None:
    """Box plot of the signal's scores per category."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    res = run.results
    cats = list(dict.fromkeys(r.category for r in dataset.records if r.id in res))
    data = [[res[r.id].score for r in dataset.records if r.category == c and r.id in res]
            for c in cats]
    fig, ax = plt.subplots(figsize=(max(6, 0.8 * len(cats) + 2), 4))
    ax.boxplot(data, showmeans=True)
    ax.set_xticks(range(1, len(cats) + 1), cats, rotation=35, ha="right")
    ax.set_ylabel("score (P(correct))")
    ax.set_ylim(-0.05, 1.05)
    ax.set_title(f"{run.signal} on {dataset.name}: score per category")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_precision_acceptance(summary: Mapping[str, Any], path: Path) -> bool:
    """Accept-precision against acceptance rate (accept when score >= t) for every
    available signal; ``False`` when nothing to plot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curves = {n: s["precision_acceptance"] for n, s in summary["signals"].items()
              if s.get("available") and s.get("precision_acceptance")}
    if not curves:
        return False
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for name, pts in curves.items():
        xs = [a for _, a, p in pts if p is not None]
        ys = [p for _, a, p in pts if p is not None]
        ax.plot(xs, ys, marker=".", label=name)
    ax.set_xlabel("acceptance rate (share of items accepted)")
    ax.set_ylabel("accept precision (share of accepted that are correct)")
    ax.set_xlim(0, 1.02)
    ax.set_ylim(0, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(f"precision-acceptance: {summary['dataset']}")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def write_report(dataset: Dataset, runs: Mapping[str, SignalRun], summary: Mapping[str, Any],
                 out_dir: str | Path, *, plots: bool = True) -> list[Path]:
    """Write JSON, Markdown, per-item results and plots; returns the paths written."""
    d = Path(out_dir)
    d.mkdir(parents=True, exist_ok=True)
    written = []
    p = d / f"{dataset.name}.json"
    p.write_text(json.dumps(summary, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    written.append(p)
    p = d / f"{dataset.name}.md"
    p.write_text(markdown(summary), encoding="utf-8")
    written.append(p)
    by_id = {r.id: r for r in dataset.records}
    for name, run in runs.items():
        if not run.available:
            continue
        p = d / f"{dataset.name}.{name}.items.jsonl"
        with p.open("w", encoding="utf-8") as f:
            for rid in sorted(run.results, key=lambda i: i):
                r, x = by_id.get(rid), run.results[rid]
                if r is None:
                    continue
                f.write(json.dumps({"id": rid, "category": r.category, "label": r.label,
                                    "source": r.source, "has_mrs": r.has_mrs,
                                    "decision": x.decision, "score": x.score, "error": x.error,
                                    "details": x.details}, sort_keys=True,
                                   ensure_ascii=False) + "\n")
        written.append(p)
        if plots and run.results:
            p = d / f"{dataset.name}.{name}.scores.png"
            plot_scores(dataset, run, p)
            written.append(p)
    if plots:
        p = d / f"{dataset.name}.precision_acceptance.png"
        if plot_precision_acceptance(summary, p):
            written.append(p)
    return written
