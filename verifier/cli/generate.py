"""``verifier generate QUESTIONS --model DIR [--memory INDEX] --out PREDS.jsonl``.

Batched beam search with a seq2seq generator; every prediction carries its confidence score
(length-normalised sequence probability).  With ``--memory`` (a PGMR memory directory) the
generated intermediate query is grounded to SPARQL.

Input: a JSONL file with ``question`` (and ``id``) fields, or a text file with one question
per line.  Output rows: the input fields plus ``pred_query``, ``confidence``, ``log_prob``,
``model`` (the provenance of the query: the generator's hub name or directory as given to
``--model``, which the HDM signal compares with ``[hdm] model_name`` and its generator's
directory) and, with a memory, ``pred_sparql`` and ``grounded`` (every label found in the memory).
``--resume`` skips ids already in the output file.

``--candidates N`` writes N candidate queries per question (one row each, best first, with
``candidate`` = its rank): the N best beams (``--beams`` is raised to N when lower), or N
samples with ``--sample`` (``--temperature``, ``--top-p``, ``--seed``), each with its
confidence.  Such a file is a set of candidates per question: ``verifier audit PREDS.jsonl
--sparql-field pred_sparql --group-by id --score-field log_prob`` clusters them
(docs/consensus.md).

Exit codes: 0 done, 2 usage error (missing input, model or memory).
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

from verifier.cli import EXIT_OK, UsageError

__all__ = ["register"]

log = logging.getLogger(__name__)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier generate``."""
    p = subparsers.add_parser(
        "generate", help="generate queries with beam search or sampling (confidence per prediction; "
                         "several candidates per question with --candidates)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=__doc__.split("\n\n", 1)[1].split("Exit codes")[0].strip())
    p.add_argument("questions", metavar="QUESTIONS", help="JSONL (question field) or text file")
    p.add_argument("--model", required=True, help="generator directory (or hub name)")
    p.add_argument("--memory", default=None, help="PGMR memory directory for grounding")
    p.add_argument("--out", required=True, help="output JSONL")
    p.add_argument("--beams", type=int, default=4, help="beam width (default 4)")
    p.add_argument("--candidates", type=int, default=1, metavar="N",
                   help="candidate queries per question, one row each (default 1)")
    p.add_argument("--sample", action="store_true",
                   help="draw the candidates by sampling instead of beam search")
    p.add_argument("--temperature", type=float, default=1.0, help="sampling temperature (default 1.0)")
    p.add_argument("--top-p", type=float, default=1.0, help="nucleus sampling mass (default 1.0: off)")
    p.add_argument("--seed", type=int, default=None, help="seed of the sampling (default: none)")
    p.add_argument("--batch-size", type=int, default=32)
    p.add_argument("--max-new-tokens", type=int, default=None)
    p.add_argument("--device", default=None, help="cpu, cuda ... (default: automatic)")
    p.add_argument("--threads", type=int, default=None, help="CPU threads (default 1)")
    p.add_argument("--resume", action="store_true", help="skip ids already in --out")
    p.add_argument("--no-progress", action="store_true")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from verifier.hdm.data import DataError, read_questions
    from verifier.hdm.device import set_cpu_threads
    from verifier.hdm.generation import generate_candidates
    from verifier.hdm.seq2seq import ModelNotFoundError, load_seq2seq

    set_cpu_threads(args.threads)
    if args.beams < 1 or args.batch_size < 1 or args.candidates < 1:
        raise UsageError("--beams, --batch-size and --candidates must be >= 1")
    if args.temperature <= 0 or not 0 < args.top_p <= 1:
        raise UsageError("--temperature must be > 0 and --top-p in (0, 1]")
    try:
        rows = read_questions(args.questions)
    except (FileNotFoundError, DataError) as e:
        raise UsageError(str(e)) from e
    try:
        s2s = load_seq2seq(args.model, args.device)
    except (ModelNotFoundError, OSError) as e:
        raise UsageError(str(e)) from e
    ground = None
    if args.memory:
        from verifier.pgmr import Memory, ground_many
        try:
            memory = Memory.load(args.memory)
        except (FileNotFoundError, ValueError) as e:
            raise UsageError(f"memory: {e}") from e
        ground = (memory, ground_many)
    out = Path(args.out)
    done: set[str] = set()
    if args.resume and out.is_file():
        with out.open(encoding="utf-8") as f:
            done = {str(json.loads(line).get("id")) for line in f if line.strip()}
    todo = [r for r in rows if r[0] not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    chunk = max(args.batch_size * 8, 256)  # written as they come, so --resume can continue
    bar = None
    if not args.no_progress:
        from tqdm import tqdm
        bar = tqdm(total=len(todo), desc="generate", unit="q")
    with out.open("a" if args.resume else "w", encoding="utf-8") as f:
        for s in range(0, len(todo), chunk):
            part = todo[s:s + chunk]
            cands = generate_candidates(
                s2s, [q for _, q, _ in part], n=args.candidates, num_beams=args.beams,
                sample=args.sample, temperature=args.temperature, top_p=args.top_p, seed=args.seed,
                batch_size=args.batch_size, max_new_tokens=args.max_new_tokens, ids=[i for i, _, _ in part])
            flat = [(pid, q, rec, pr) for (pid, q, rec), preds in zip(part, cands) for pr in preds]
            grounded = ground[1]([pr.query for *_, pr in flat], ground[0]) if ground else None
            for k, (pid, q, rec, pr) in enumerate(flat):
                row = dict(rec)
                row.update({"id": pid, "question": q, "pred_query": pr.query,
                            "confidence": pr.confidence, "log_prob": pr.log_prob, "model": args.model})
                if args.candidates > 1:
                    row["candidate"] = pr.rank
                if grounded is not None:
                    row["pred_sparql"] = grounded[k].sparql
                    row["grounded"] = bool(grounded[k].ok)
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
            f.flush()
            if bar is not None:
                bar.update(len(part))
    if bar is not None:
        bar.close()
    log.info("wrote %d predictions to %s", len(todo), out)
    return EXIT_OK
