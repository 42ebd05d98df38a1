"""``verifier check "QUESTION" "SPARQL" [SPARQL...]``: verify one pair and explain the verdict;
with several queries for one question, verify each and print their clusters of equivalent
queries (``docs/consensus.md``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check", help="verify one question/query pair (or several candidate queries for one question)",
        description="Verify that a SPARQL query means what the question asks, and explain why. "
        "The question's MRS comes from the configured MRS cache or corpora ([mrs] in verifier.toml), "
        "or from ACE when configured. Several queries for one question (more positional queries, "
        "repeated --sparql, or --file) are verified each and clustered by semantic equivalence; the "
        "clusters are printed with how each differs from the largest other one. Exit code 0 when "
        "the query (with several: at least one query) is accepted, 1 when rejected or undecided, "
        "2 on usage errors.")
    p.add_argument("question", help="the English question")
    p.add_argument("sparql", nargs="*",
                   help="the SPARQL query (use - to read it from standard input); several for candidates")
    p.add_argument("--sparql", dest="more", action="append", default=[], metavar="QUERY",
                   help="another candidate query (repeatable)")
    p.add_argument("--file", action="append", default=[], metavar="FILE",
                   help="candidate queries from a file (- for standard input): JSONL objects with "
                        "'sparql' and optional 'score' and 'model', or plain queries separated by lines "
                        "holding only '---' (repeatable)")
    p.add_argument("--model", default=None, metavar="NAME",
                   help="which model generated the query (or the candidates without their own "
                        "'model'); the HDM signal runs only on queries of [hdm] model_name")
    p.add_argument("--hdm-trials", type=int, default=None, metavar="N",
                   help="MC-dropout passes of the HDM scorer (overrides [hdm] mc_trials)")
    p.add_argument("--json", action="store_true", help="print the full verdict(s) as JSON")
    p.add_argument("--config", help="a verifier.toml to use in addition to the usual ones")
    p.add_argument("--labels", help="KG labels to ground with: a TSV (id/label/aliases/description) "
                   "or a label store (verifier labels import)")
    p.add_argument("--mrs", action="append", default=[], metavar="FILE",
                   help="MRS corpus file(s) in the shared jsonl.gz format (repeatable)")
    p.set_defaults(func=run)


def read_candidates(text: str) -> list[tuple[str | None, float | None, str | None]]:
    """``(sparql, score, model)`` of each candidate of a ``--file`` (see ``--help``)."""
    lines = [l for l in text.splitlines() if l.strip()]
    if lines and all(l.lstrip().startswith("{") for l in lines):
        out = []
        for i, l in enumerate(lines, 1):
            try:
                d = json.loads(l)
            except json.JSONDecodeError as e:
                raise ValueError(f"line {i}: not JSON ({e.msg})") from None
            if not isinstance(d, dict) or "sparql" not in d:
                raise ValueError(f"line {i}: an object with 'sparql' is needed")
            s = d.get("score")
            out.append((d["sparql"], float(s) if isinstance(s, (int, float)) else None, d.get("model")))
        return out
    parts, cur = [], []
    for l in text.splitlines():
        if l.strip() == "---":
            parts.append("\n".join(cur))
            cur = []
        else:
            cur.append(l)
    parts.append("\n".join(cur))
    return [(p.strip(), None, None) for p in parts if p.strip()]


def _print_one(verdict: Any) -> None:
    print(f"decision: {verdict.decision}   verdict: {verdict.verdict}   score: {verdict.score:.2f}")
    print(verdict.explanation)
    d = verdict.to_dict().get("deductive", {})
    if d.get("question_logic"):
        print(f"question logic: {d['question_logic']}")
    for l in d.get("links", []):
        print(f"  link: '{l['words']}' ({l['predicate']}) -> {l['symbol']}  [{l['why']}]")
    for a in d.get("proof", {}).get("premises_used", []):
        print(f"  premise used: {a}")


def _one_line(text: str | None, n: int = 100) -> str:
    s = " ".join((text or "(no query)").split())
    return s if len(s) <= n else s[: n - 1] + "…"


def _print_many(result: Any) -> None:
    c = result.clustering
    n = len(result.verdicts)
    for i, (v, ev) in enumerate(zip(result.verdicts, result.evidence)):
        print(f"[{i}] {v.decision:<8} {v.verdict:<16} score {v.score:.2f}   cluster {ev.cluster_index + 1} "
              f"({ev.cluster_size} of {n})   {_one_line(v.sparql, 80)}")
    print(f"\n{len(c.clusters)} cluster(s) of {n} candidates"
          + (f"; {len(c.undecided)} pair(s) undecided by the prover (counted as different)" if c.undecided else "")
          + (f"; {len(c.uncompared)} candidate(s) beyond the compared normal forms" if c.uncompared else "") + ":")
    for k, members in enumerate(c.clusters):
        rep = c.summaries[k].representative if c.summaries else members[0]
        ev = result.evidence[rep]
        print(f"  {k + 1}. {len(members)} candidate(s) [{', '.join(map(str, members))}]: "
              f"{_one_line(result.verdicts[rep].sparql)}")
        if ev.difference:
            print(f"     {ev.difference}")
    for i, v in enumerate(result.verdicts):
        print(f"\n--- candidate {i}")
        _print_one(v)


def run(args: argparse.Namespace) -> int:
    from verifier.api import Verifier
    from verifier.mrs_cache import MrsCorpus, MrsProvider
    from verifier.cli import UsageError
    from verifier.config import load_config

    cands: list[tuple[str | None, float | None, str | None]] = []
    for s in [*args.sparql, *args.more]:
        cands.append((sys.stdin.read() if s == "-" else s, None, None))
    for f in args.file:
        try:
            text = sys.stdin.read() if f == "-" else Path(f).read_text(encoding="utf-8")
            cands += read_candidates(text)
        except (OSError, UnicodeDecodeError, ValueError) as e:
            raise UsageError(f"--file {f}: {e}")
    if not cands:
        raise UsageError("give a SPARQL query (positional, --sparql or --file)")
    try:
        cfg = load_config(args.config)
    except (OSError, ValueError) as e:
        raise UsageError(str(e))
    if args.hdm_trials is not None:
        if args.hdm_trials < 0:
            raise UsageError("--hdm-trials must be >= 0")
        cfg = cfg.with_values("hdm", mc_trials=args.hdm_trials)
    kwargs = {}
    if args.labels:
        from verifier.labels.configured import labels_from_file
        from verifier.labels.store import LabelStoreError

        try:
            kwargs["labels"] = labels_from_file(args.labels, cfg)
        except (OSError, LabelStoreError) as e:
            raise UsageError(f"cannot read labels: {e}")
    if args.mrs:
        base = MrsProvider.from_config(cfg)
        try:
            kwargs["mrs"] = MrsProvider(base.cache, [*base.corpora, MrsCorpus(args.mrs)], base.ace)
        except OSError as e:
            raise UsageError(f"cannot read MRS corpus: {e}")
    ver = Verifier(cfg, **kwargs)
    if len(cands) == 1:
        verdict = ver.verify(args.question, cands[0][0], model=cands[0][2] or args.model)  # type: ignore[arg-type]
        if args.json:
            print(json.dumps(verdict.to_dict(), indent=2, ensure_ascii=False))
        else:
            _print_one(verdict)
        return 0 if verdict.decision == "accept" else 1
    scores = [s for _, s, _ in cands]
    models = [m or args.model for _, _, m in cands]
    result = ver.verify_candidates(args.question, [q for q, _, _ in cands],
                                   scores if all(s is not None for s in scores) else None,
                                   models if any(m is not None for m in models) else None)
    if args.json:
        d = result.to_dict()
        d["evidence"] = [e.to_dict() for e in result.evidence]
        print(json.dumps(d, indent=2, ensure_ascii=False))
    else:
        _print_many(result)
    return 0 if any(v.decision == "accept" for v in result.verdicts) else 1
