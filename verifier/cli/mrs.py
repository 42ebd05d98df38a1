"""``verifier mrs``: the MRS cache and the question -> logic front end.

    verifier mrs import FILE...        load corpus files (shared/data/mrs format) into the cache
    verifier mrs export [FILE]         write the cache in the same format (stdout by default)
    verifier mrs parse QUESTION...     readings of questions (corpora, cache, then ACE)
    verifier mrs show QUESTION         readings translated to logic (or --mrs / --file)
    verifier mrs stats FILE...         translation statistics over corpus files

The cache is ``--cache PATH``, else ``[mrs] cache`` of the configuration
(``VERIFIER_MRS_CACHE``), else ``$XDG_CACHE_HOME/verifier/mrs.sqlite3``.
Exit codes: 0 ok, 1 nothing found or translated, 2 usage error.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import sys
from pathlib import Path
from typing import Any

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError


def default_cache_path() -> Path:
    """``$XDG_CACHE_HOME/verifier/mrs.sqlite3`` (``~/.cache`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "verifier" / "mrs.sqlite3"


def _config(args: argparse.Namespace) -> Any:
    from verifier.config import load_config

    try:
        return load_config(getattr(args, "config", None))
    except ValueError as e:
        raise UsageError(str(e)) from None


def _cache_path(args: argparse.Namespace, cfg: Any) -> Path:
    if getattr(args, "cache", None):
        return Path(args.cache)
    if cfg.get("mrs", "cache"):
        return Path(str(cfg.get("mrs", "cache"))).expanduser()
    return default_cache_path()


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier mrs`` and its subcommands."""
    p = subparsers.add_parser("mrs", help="MRS cache, ACE parses and MRS -> logic",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cache", help="SQLite cache file (default: [mrs] cache or ~/.cache/verifier/mrs.sqlite3)")
    p.add_argument("--config", help="an extra verifier.toml")
    sub = p.add_subparsers(dest="mrs_command", metavar="SUBCOMMAND")

    pi = sub.add_parser("import", help="load corpus files into the cache")
    pi.add_argument("files", nargs="+", metavar="FILE", help="jsonl or jsonl.gz corpus files ('-' for stdin)")
    pi.add_argument("--grammar", help="grammar identity to record (default: the shared corpus's)")
    pi.add_argument("--keep", action="store_true", help="keep existing entries instead of replacing them")
    pi.set_defaults(func=_cmd_import)

    pe = sub.add_parser("export", help="write the cache as a corpus file")
    pe.add_argument("file", nargs="?", default="-", help="output (.jsonl or .jsonl.gz; default stdout)")
    pe.add_argument("--grammar", help="only this grammar identity")
    pe.set_defaults(func=_cmd_export)

    pp = sub.add_parser("parse", help="readings of questions (corpora, cache, then ACE)")
    pp.add_argument("questions", nargs="+", metavar="QUESTION")
    pp.add_argument("--corpus", action="append", default=[], help="also look in this corpus file")
    pp.add_argument("--no-ace", action="store_true", help="never call ACE")
    pp.add_argument("--json", action="store_true", help="JSON lines in the corpus format")
    pp.set_defaults(func=_cmd_parse)

    ps = sub.add_parser("show", help="readings of a question translated to logic")
    src = ps.add_mutually_exclusive_group(required=True)
    src.add_argument("question", nargs="?", help="a question (looked up like 'mrs parse')")
    src.add_argument("--mrs", help="a SimpleMRS string")
    src.add_argument("--file", help="a file of SimpleMRS strings, one per line")
    ps.add_argument("--corpus", action="append", default=[], help="also look in this corpus file")
    ps.add_argument("--no-ace", action="store_true", help="never call ACE")
    ps.add_argument("--max-scopes", type=int, default=None, help="scoped readings per MRS (default 4)")
    ps.add_argument("--rank", action="store_true", help="order results by plausibility")
    ps.add_argument("--json", action="store_true", help="JSON output")
    ps.set_defaults(func=_cmd_show)

    pt = sub.add_parser("stats", help="translation statistics over corpus files")
    pt.add_argument("files", nargs="+", metavar="FILE")
    pt.add_argument("--top", type=int, default=10, help="failure reasons to list (default 10)")
    pt.add_argument("--max-scopes", type=int, default=None)
    pt.add_argument("--json", action="store_true", help="JSON output")
    pt.set_defaults(func=_cmd_stats)

    p.set_defaults(func=lambda a: _no_subcommand(p))


def _no_subcommand(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _open_cache(args: argparse.Namespace, cfg: Any):
    from verifier.mrs_cache import MrsCache

    path = _cache_path(args, cfg)
    try:
        return MrsCache(path)
    except (ValueError, OSError) as e:
        raise UsageError(f"cannot open the MRS cache {path}: {e}") from None


def _cmd_import(args: argparse.Namespace) -> int:
    from verifier.mrs_cache import CORPUS_GRAMMAR, CorpusFormatError

    cfg = _config(args)
    with _open_cache(args, cfg) as cache:
        total = 0
        for f in args.files:
            if f != "-" and not Path(f).is_file():
                raise UsageError(f"no such file: {f}")
            try:
                n = cache.import_corpus(f, grammar=args.grammar or CORPUS_GRAMMAR, replace=not args.keep)
            except CorpusFormatError as e:
                raise UsageError(str(e)) from None
            print(f"{f}: {n} question(s) imported")
            total += n
        print(f"cache {cache.path}: {len(cache)} question(s)")
    return EXIT_OK if total else EXIT_FAIL


def _cmd_export(args: argparse.Namespace) -> int:
    cfg = _config(args)
    with _open_cache(args, cfg) as cache:
        n = cache.export_corpus(args.file, grammar=args.grammar)
    if args.file != "-":
        print(f"{args.file}: {n} question(s) written")
    return EXIT_OK if n else EXIT_FAIL


def _provider(args: argparse.Namespace, cfg: Any):
    from verifier.mrs_cache import MrsCorpus, MrsProvider

    prov = MrsProvider.from_config(cfg, use_ace=not getattr(args, "no_ace", False))
    if getattr(args, "cache", None) or prov.cache is None:
        path = _cache_path(args, cfg)
        if path.exists() or getattr(args, "cache", None):
            prov.cache = _open_cache(args, cfg)
    extra = [c for c in getattr(args, "corpus", []) or []]
    for c in extra:
        if not Path(c).is_file():
            raise UsageError(f"no such corpus file: {c}")
    if extra:
        prov.corpora = list(prov.corpora) + [MrsCorpus(extra)]
    return prov


def _cmd_parse(args: argparse.Namespace) -> int:
    cfg = _config(args)
    prov = _provider(args, cfg)
    found = 0
    try:
        for q in args.questions:
            r = prov.lookup(q)
            if args.json:
                print(json.dumps({"question": q, "readings": list(r.readings), "status": r.status,
                                  "source": r.source, "error": r.message or None, "grammar": r.grammar,
                                  "family": r.family}, ensure_ascii=False))
            else:
                grammar = f" [{r.grammar}, {r.family}]" if r.grammar else ""
                print(f"# {q}\n# {r.status} ({r.source}){grammar}{': ' + r.message if r.message else ''}")
                for k, m in enumerate(r.readings):
                    print(f"{k}\t{m}")
            found += r.status == "ok"
    finally:
        prov.close()
    return EXIT_OK if found == len(args.questions) else EXIT_FAIL


def _result_json(r: Any) -> dict[str, Any]:
    if not r.ok:
        return {"reading": r.reading_index, "ok": False, "kind": r.kind, "reason": r.reason,
                "detail": r.detail}
    it = r.intent
    return {"reading": r.reading_index, "scope": r.scope_index, "ok": True,
            "formula": str(r.formula), "answer_vars": [v.name for v in r.answer_vars],
            "sentence_force": r.sentence_force, "fragment": r.fragment, "relaxed": r.relaxed,
            "intent": {"kind": it.kind, "base": it.base, "var": it.var.name if it.var else None,
                       "direction": it.direction, "predicate": it.predicate, "op": it.op,
                       "value": str(it.value) if it.value is not None else None, "unit": it.unit},
            "warnings": list(r.warnings)}


def _cmd_show(args: argparse.Namespace) -> int:
    from parsers.mrs import DEFAULT_MAX_SCOPES, rank_translations, translate_readings

    max_scopes = args.max_scopes if args.max_scopes is not None else DEFAULT_MAX_SCOPES
    if max_scopes < 1:
        raise UsageError("--max-scopes must be at least 1")
    question = args.question
    if args.mrs is not None:
        readings = [args.mrs]
    elif args.file is not None:
        try:
            readings = [l.strip() for l in Path(args.file).read_text(encoding="utf-8").splitlines() if l.strip()]
        except OSError as e:
            raise UsageError(f"cannot read {args.file}: {e}") from None
    else:
        cfg = _config(args)
        prov = _provider(args, cfg)
        try:
            r = prov.lookup(question)
        finally:
            prov.close()
        if r.status != "ok":
            print(f"# {question}\n# {r.status} ({r.source}){': ' + r.message if r.message else ''}",
                  file=sys.stderr)
            return EXIT_FAIL
        readings = list(r.readings)
    results = translate_readings(readings, max_scopes=max_scopes)
    if args.rank:
        results = rank_translations(results)
    if args.json:
        print(json.dumps({"question": question, "results": [_result_json(r) for r in results]},
                         ensure_ascii=False, indent=2))
    else:
        if question:
            print(f"# {question}")
        for r in results:
            if r.ok:
                it = r.intent
                extra = ""
                if it.kind == "superlative":
                    extra = f" {it.direction} {it.predicate}"
                elif it.kind == "comparative":
                    extra = f" {it.op} {it.value}" + (f" [{it.unit}]" if it.unit else "")
                ans = ", ".join(v.name for v in r.answer_vars) or "-"
                flags = "".join(f" {f}" for f, on in (("fragment", r.fragment), ("relaxed", r.relaxed)) if on)
                print(f"reading {r.reading_index}.{r.scope_index} [{it.kind}{extra}; var "
                      f"{it.var.name if it.var else '-'}; answer {ans}; SF {r.sentence_force}{flags}]")
                print(f"  {r.formula}")
                for w in r.warnings:
                    print(f"  ! {w}")
            else:
                print(f"reading {r.reading_index} FAILED [{r.kind}] {r.reason}" + (f": {r.detail}" if r.detail else ""))
    return EXIT_OK if any(r.ok for r in results) else EXIT_FAIL


def corpus_stats(files: list[str], *, max_scopes: int | None = None, top: int = 10) -> dict[str, Any]:
    """Translation statistics of corpus files: readings translated, questions with a
    translated reading, intent distribution (first translated reading of each question
    after ranking), most frequent failure reasons."""
    from parsers.mrs import DEFAULT_MAX_SCOPES, best_translation, translate_mrs
    from verifier.mrs_cache import read_corpus

    ms = max_scopes or DEFAULT_MAX_SCOPES
    n_q = q_with = q_ok = n_r = r_ok = 0
    reasons: collections.Counter[str] = collections.Counter()
    kinds: collections.Counter[str] = collections.Counter()
    reading_kinds: collections.Counter[str] = collections.Counter()
    for f in files:
        for rec in read_corpus(f):
            n_q += 1
            if not rec.readings:
                continue
            q_with += 1
            results = []
            for i, m in enumerate(rec.readings):
                res = translate_mrs(m, max_scopes=ms, reading_index=i)
                n_r += 1
                if res[0].ok:
                    r_ok += 1
                    reading_kinds[res[0].intent.kind] += 1
                else:
                    reasons[res[0].reason] += 1
                results.extend(res)
            best = best_translation(results)
            if best is not None:
                q_ok += 1
                kinds[best.intent.kind] += 1
    return {
        "questions": n_q, "questions_with_readings": q_with, "questions_translated": q_ok,
        "readings": n_r, "readings_translated": r_ok,
        "reading_share": (r_ok / n_r) if n_r else 0.0,
        "question_share": (q_ok / q_with) if q_with else 0.0,
        "intents_best_reading": dict(kinds.most_common()),
        "intents_all_readings": dict(reading_kinds.most_common()),
        "failure_reasons": reasons.most_common(top),
    }


def _cmd_stats(args: argparse.Namespace) -> int:
    for f in args.files:
        if not Path(f).is_file():
            raise UsageError(f"no such file: {f}")
    st = corpus_stats(args.files, max_scopes=args.max_scopes, top=args.top)
    if args.json:
        print(json.dumps(st, indent=2))
        return EXIT_OK if st["readings_translated"] else EXIT_FAIL
    print(f"questions: {st['questions']} ({st['questions_with_readings']} with readings)")
    print(f"readings translated: {st['readings_translated']} / {st['readings']} "
          f"({100 * st['reading_share']:.2f} %)")
    print(f"questions with a translated reading: {st['questions_translated']} / "
          f"{st['questions_with_readings']} ({100 * st['question_share']:.2f} %)")
    print("intent of the best reading per question: " + ", ".join(
        f"{k} {v}" for k, v in st["intents_best_reading"].items()))
    print("intent over all translated readings: " + ", ".join(
        f"{k} {v}" for k, v in st["intents_all_readings"].items()))
    print(f"top {args.top} failure reasons:")
    for reason, n in st["failure_reasons"]:
        print(f"  {n:6d}  {reason}")
    return EXIT_OK if st["readings_translated"] else EXIT_FAIL
