"""``verifier pgmr``: build a PGMR memory, convert to/from the intermediate form, check a pair.

    verifier pgmr build --labels labels.tsv --out INDEXDIR        (or --rdf kg.ttl)
    verifier pgmr calibrate --index INDEXDIR train.jsonl ... [--negatives wrong.jsonl ...]
    verifier pgmr intermediate "SPARQL" --index INDEXDIR
    verifier pgmr ground "INTERMEDIATE" --index INDEXDIR [-k 5] [--threshold T] [--json]
    verifier pgmr check "QUESTION" "SPARQL" --index INDEXDIR [--json] [--min-score S]

A query argument ``-`` is read from standard input.  Exit codes: 0 ok; 1 ``intermediate``
left identifiers unknown to the memory, ``ground`` refused a label, or ``check`` found a
hallucinated / wrong-kind identifier or a score below ``--min-score``; 2 usage error (bad
option, missing file, index/encoder mismatch).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError

PRIORS_FILE = "priors.json"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier pgmr`` and its subcommands."""
    p = subparsers.add_parser(
        "pgmr", help="PGMR grounding: KG label memory, intermediate form, grounding signal",
        description="Build a PGMR memory of KG labels, convert SPARQL to and from the "
                    "intermediate form, and check a (question, SPARQL) pair.",
        epilog=__doc__.split("\n\n", 2)[2], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="pgmr_command", metavar="SUBCOMMAND")
    p.set_defaults(func=lambda a: (p.print_help(), 2)[1])

    b = sub.add_parser("build", help="build and save a memory from labels TSV or RDF")
    src = b.add_mutually_exclusive_group(required=True)
    src.add_argument("--labels", type=Path, help="TSV: id, label, aliases (|), description; or a label "
                     "store (verifier labels import / fetch)")
    src.add_argument("--rdf", type=Path, help="RDF file (rdfs:label, skos:altLabel, "
                                              "schema:description)")
    b.add_argument("--out", type=Path, required=True, help="index folder to write")
    b.add_argument("--encoder", default="hashed",
                   help="'hashed' (weight-free default) or 'st:MODEL' (sentence-transformers "
                        "name or local path, e.g. st:BAAI/bge-small-en-v1.5)")
    b.add_argument("--device", default=None, help="device for st: encoders (default: auto)")
    b.add_argument("--index-type", default="auto", choices=("auto", "flat", "hnsw", "ivf"),
                   help="FAISS index (auto: exact up to --flat-max rows, else HNSW)")
    b.add_argument("--flat-max", type=int, default=200_000)
    b.add_argument("--lang", default="en", help="language of RDF labels")
    b.add_argument("--class-ids", type=Path, default=None,
                   help="file with one item id per line to mark as classes")
    b.add_argument("--no-progress", action="store_true", help="no progress bars")
    b.set_defaults(func=_build)

    c = sub.add_parser("calibrate", help="estimate support priors from correct pairs")
    c.add_argument("data", type=Path, nargs="+", help="JSONL files with question and sparql")
    c.add_argument("--index", type=Path, required=True)
    c.add_argument("--out", type=Path, default=None, help=f"default: INDEX/{PRIORS_FILE}")
    c.add_argument("--negatives", type=Path, nargs="+", default=None,
                   help="JSONL files with wrong queries (question, sparql) for the training "
                        "questions, one identifier away from the correct query: the model "
                        "is fitted on them instead of generated replacements")
    c.set_defaults(func=_calibrate)

    i = sub.add_parser("intermediate", help="SPARQL -> intermediate form")
    i.add_argument("sparql", help="the query ('-' for stdin)")
    i.add_argument("--index", type=Path, required=True)
    i.set_defaults(func=_intermediate)

    g = sub.add_parser("ground", help="intermediate form -> SPARQL")
    g.add_argument("intermediate", help="the intermediate query ('-' for stdin)")
    g.add_argument("--index", type=Path, required=True)
    g.add_argument("-k", type=int, default=5, help="candidates per label (default 5)")
    g.add_argument("--threshold", type=float, default=None,
                   help="refusal threshold (default: the encoder's)")
    g.add_argument("--json", action="store_true", help="JSON with candidates and scores")
    g.set_defaults(func=_ground)

    k = sub.add_parser("check", help="grounding signal of a (question, SPARQL) pair")
    k.add_argument("question")
    k.add_argument("sparql", help="the query ('-' for stdin)")
    k.add_argument("--index", type=Path, required=True)
    k.add_argument("--priors", type=Path, default=None,
                   help=f"support priors (default: INDEX/{PRIORS_FILE} when present)")
    k.add_argument("--min-score", type=float, default=None,
                   help="exit 1 when the grounding score is below this")
    k.add_argument("--json", action="store_true")
    k.set_defaults(func=_check)


def _text(value: str) -> str:
    return sys.stdin.read() if value == "-" else value


def _load(index: Path):
    from verifier.pgmr import Memory

    try:
        return Memory.load(index)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None


def _build(args: argparse.Namespace) -> int:
    from verifier.labels.configured import read_labels
    from verifier.pgmr import HashedNgramEncoder, IndexSpec, Memory, SentenceTransformerEncoder, read_rdf

    if args.encoder == "hashed":
        enc = HashedNgramEncoder()
    elif args.encoder.startswith("st:"):
        try:
            enc = SentenceTransformerEncoder.load(args.encoder[3:], device=args.device)
        except ValueError as e:
            raise UsageError(str(e)) from None
    else:
        raise UsageError(f"unknown encoder {args.encoder!r} (hashed or st:MODEL)")
    classes: list[str] = []
    if args.class_ids is not None:
        if not args.class_ids.is_file():
            raise UsageError(f"class id file not found: {args.class_ids}")
        classes = [x.strip() for x in args.class_ids.read_text(encoding="utf-8").split() if x]
    try:
        rep = (read_labels(args.labels, class_ids=classes) if args.labels
               else read_rdf(args.rdf, lang=args.lang))
        mem = Memory.build(rep.symbols, enc,
                           spec=IndexSpec(kind=args.index_type, flat_max=args.flat_max),
                           progress=not args.no_progress)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None
    mem.save(args.out)
    parts = ", ".join(f"{g} {p.index.ntotal} rows ({p.index.kind})"
                      for g, p in mem.partitions.items())
    print(f"{len(mem)} symbols from {rep.source} ({rep.skipped} skipped): {parts}; "
          f"encoder {enc.identity}; saved to {args.out}")
    return EXIT_OK


def _calibrate(args: argparse.Namespace) -> int:
    from verifier.pgmr import estimate_priors

    from verifier.jsonl import DataError, read_jsonl

    def read_pairs(files: list[Path]) -> list[tuple[str, str]]:
        pairs = []
        for f in files:
            if not f.is_file():
                raise UsageError(f"data file not found: {f}")
            try:
                for n, r in read_jsonl(f):
                    if not isinstance(r.get("question"), str) or not isinstance(r.get("sparql"), str):
                        raise DataError(f"{f}:{n}: no question or sparql")
                    pairs.append((r["question"], r["sparql"]))
            except DataError as e:
                raise UsageError(f"{e} (need a JSON object with question and sparql)") from None
        return pairs

    mem = _load(args.index)
    pairs = read_pairs(args.data)
    negatives = read_pairs(args.negatives) if args.negatives else None
    pri = estimate_priors(pairs, mem, negatives=negatives)
    out = args.out or args.index / PRIORS_FILE
    pri.save(out)
    print(f"support priors for {len(pri.expected)} identifiers from {len(pairs)} pairs"
          + (f" and {len(negatives)} wrong queries" if negatives else "")
          + f" written to {out}")
    return EXIT_OK


def _intermediate(args: argparse.Namespace) -> int:
    from verifier.pgmr import intermediate_form

    mem = _load(args.index)
    form = intermediate_form(_text(args.sparql), mem)
    print(form.text)
    if form.missing:
        print("not in the memory: " + ", ".join(sorted({i.id for i in form.missing})),
              file=sys.stderr)
        return EXIT_FAIL
    return EXIT_OK


def _ground(args: argparse.Namespace) -> int:
    from verifier.pgmr import IntermediateSyntaxError, ground

    mem = _load(args.index)
    try:
        res = ground(_text(args.intermediate), mem, k=args.k, threshold=args.threshold)
    except IntermediateSyntaxError as e:
        raise UsageError(str(e)) from None
    if args.json:
        print(json.dumps(res.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(res.sparql)
        for g in res.labels:
            best = g.candidates[0] if g.candidates else None
            status = (f"-> {g.chosen.id} ({g.chosen.label!r}, {g.chosen.score:.3f})" if g.chosen
                      else f"REFUSED (best {best.id} {best.score:.3f})" if best else "REFUSED")
            coll = f"; same name: {', '.join(g.collisions)}" if g.collisions else ""
            print(f"  {g.label!r} {status}{coll}", file=sys.stderr)
    return EXIT_OK if res.ok else EXIT_FAIL


def _check(args: argparse.Namespace) -> int:
    from verifier.pgmr import SupportPriors, grounding_signal

    mem = _load(args.index)
    priors_path = args.priors or (args.index / PRIORS_FILE)
    priors = None
    if args.priors is not None or priors_path.is_file():
        try:
            priors = SupportPriors.load(priors_path)
            priors.check_encoder(mem.encoder.identity)
        except (FileNotFoundError, ValueError) as e:
            raise UsageError(str(e)) from None
    rep = grounding_signal(args.question, _text(args.sparql), mem, priors=priors)
    if args.json:
        print(json.dumps(rep.to_dict() | {"features": rep.features()}, indent=2,
                         ensure_ascii=False))
    else:
        print(rep.explanation)
    bad = rep.flagged or (args.min_score is not None and rep.score < args.min_score)
    return EXIT_FAIL if bad else EXIT_OK
