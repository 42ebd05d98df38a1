"""``verifier check "QUESTION" "SPARQL"``: verify one pair and explain the verdict."""

from __future__ import annotations

import argparse
import json
import sys


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "check", help="verify one question/query pair",
        description="Verify that a SPARQL query means what the question asks, and explain why. "
        "The question's MRS comes from the configured MRS cache or corpora ([mrs] in verifier.toml), "
        "or from ACE when configured. Exit code 0 when the query is accepted, 1 when rejected or "
        "undecided, 2 on usage errors.")
    p.add_argument("question", help="the English question")
    p.add_argument("sparql", help="the SPARQL query (use - to read it from standard input)")
    p.add_argument("--json", action="store_true", help="print the full verdict as JSON")
    p.add_argument("--config", help="a verifier.toml to use in addition to the usual ones")
    p.add_argument("--labels", help="KG labels to ground with: a TSV (id/label/aliases/description) "
                   "or a label store (verifier labels import)")
    p.add_argument("--mrs", action="append", default=[], metavar="FILE",
                   help="MRS corpus file(s) in the shared jsonl.gz format (repeatable)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from verifier.api import Verifier
    from verifier.mrs_cache import MrsCorpus, MrsProvider
    from verifier.cli import UsageError
    from verifier.config import load_config

    sparql = sys.stdin.read() if args.sparql == "-" else args.sparql
    try:
        cfg = load_config(args.config)
    except (OSError, ValueError) as e:
        raise UsageError(str(e))
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
    verdict = Verifier(cfg, **kwargs).verify(args.question, sparql)
    if args.json:
        print(json.dumps(verdict.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(f"decision: {verdict.decision}   verdict: {verdict.verdict}   score: {verdict.score:.2f}")
        print(verdict.explanation)
        d = verdict.to_dict().get("deductive", {})
        if d.get("question_logic"):
            print(f"question logic: {d['question_logic']}")
        for l in d.get("links", []):
            print(f"  link: '{l['words']}' ({l['predicate']}) -> {l['symbol']}  [{l['why']}]")
        for a in d.get("proof", {}).get("premises_used", []):
            print(f"  premise used: {a}")
    return 0 if verdict.decision == "accept" else 1
