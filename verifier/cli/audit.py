"""``verifier audit``: audit query logs; export, summarise and report stored audits."""

from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import Any

_ACTIONS = ("export", "summary", "report")

_DESCRIPTION = """\
Verify every (question, SPARQL) pair of one or more query logs and store the results.

  verifier audit LOG [LOG...] [--report report.html] [--fail-on 'reject_rate>0.05']
  verifier audit LOG... --resume                 continue an interrupted audit
  verifier audit export [STORE|LOG] --format jsonl|csv [-o FILE]
  verifier audit summary [STORE|LOG] [--json]
  verifier audit report [STORE|LOG] --report report.html|report.md

Logs are JSONL, CSV or TSV (detected from the name or the first line; gzip is detected
from its content) and are streamed: memory does not grow with the log.  Each record needs a
question and a query field (--question-field, --sparql-field); every other field (model,
timestamp...) is kept.  Bad lines (invalid JSON/CSV, missing or empty fields, a query that
is not a string, over-long lines, bytes that are not UTF-8) are stored as errors with their
line numbers and counted; the audit goes on.

Results go to an SQLite store (default: <log>.audit.sqlite beside the first log) in batched
transactions.  After any interruption (Ctrl-C, kill -9, power loss) --resume verifies
exactly the records that are not stored yet; a log that changed (other than by appending
lines) or a changed verifier set-up (axiom pack, configuration, version) is reported
instead of being mixed in.

Lines that share a question (--group-by FIELD, default the normalised question text) are
candidates for it: once every line is stored, their queries are clustered by semantic
equivalence and each record gets its consensus evidence (share of the other candidates that
agree, how its cluster differs from the largest other one); the report shows the clusters of
each question with several candidates (docs/consensus.md).

Configuration: --config FILE, otherwise a verifier.toml next to the first log is used when
there is one (relative paths in it are relative to its folder), plus the usual
configuration files and environment variables.
"""

_EPILOG = """\
--fail-on metrics: counts records, verified, accept, reject, abstain, errors, input_errors,
verify_errors, query_errors, verdict_<name>, split_questions, minority_records; rates
accept_rate, reject_rate, abstain_rate (of verified records), error_rate, input_error_rate,
verify_error_rate (of all records), minority_rate (of the records in candidate sets).
Conditions: METRIC OP NUMBER with OP in > >= < <= == != (a number may end in %%); several,
separated by commas, fail when any holds.

Exit codes: 0 done, 1 a --fail-on condition holds, 2 usage error (bad option, unreadable
log, store conflict), 3 internal error (a worker cannot start ...), 130 interrupted (the
results so far are stored; continue with --resume).
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("audit", help="audit query logs (streaming, parallel, resumable; HTML report)",
                       description=_DESCRIPTION, epilog=_EPILOG,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", metavar="LOG",
                   help="log files to audit; or 'export'/'summary'/'report' followed by a store (or a log, "
                        "meaning its default store)")
    g = p.add_argument_group("input")
    g.add_argument("--format", default=None,
                   help="input format auto|jsonl|csv|tsv (default auto); for 'export': jsonl|csv (default jsonl)")
    g.add_argument("--question-field", default="question", metavar="NAME",
                   help="field (JSON key or CSV column) holding the question (default: question; "
                        "a dotted name reaches into nested JSON)")
    g.add_argument("--sparql-field", default="sparql", metavar="NAME",
                   help="field holding the SPARQL query (default: sparql)")
    g.add_argument("--id-field", default=None, metavar="NAME",
                   help="field holding the record id (default: the line number)")
    g.add_argument("--model-field", default="model", metavar="NAME",
                   help="field naming the system that wrote the query, for per-model counts (default: model)")
    g.add_argument("--max-line-bytes", type=int, default=1_000_000, metavar="N",
                   help="longer lines are stored as errors without being read whole (default: 1000000)")
    g = p.add_argument_group("candidate sets (lines that share a question)")
    g.add_argument("--group-by", default=None, metavar="FIELD",
                   help="field holding a question id (e.g. question_id); default: the normalised question "
                        "text (also for records without the field)")
    g.add_argument("--score-field", default=None, metavar="FIELD",
                   help="field holding the generator's score of the query (probability or log-probability), "
                        "for the score-weighted agreement")
    g.add_argument("--answers-field", default=None, metavar="FIELD",
                   help="field saying what the line's query returned when it was run: a number (how many "
                        "rows) or the list of answers; candidates of a question that returned the same "
                        "answers agree (answer_agreement in the consensus evidence)")
    g.add_argument("--consensus-budget", type=int, default=None, metavar="UNITS",
                   help="Z3 resource units per direction of an equivalence check (default: [consensus] "
                        "budget, else 300000)")
    g.add_argument("--no-consensus", action="store_true",
                   help="skip the grouping pass (no clusters of the candidates of a question)")
    g = p.add_argument_group("execution")
    g.add_argument("--workers", type=int, default=None, metavar="N",
                   help="verifier processes (Ray actors with --engine ray); default: the number of cores")
    g.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="local worker processes (default) or Ray actors (pip install '.[distributed]')")
    g.add_argument("--ray-address", default=None, metavar="ADDR",
                   help="join this Ray cluster (e.g. auto, ray://host:10001); default: start a private one")
    g.add_argument("--config", default=None, metavar="FILE", help="a verifier.toml for the workers' verifier")
    g.add_argument("--no-log-config", action="store_true",
                   help="do not use a verifier.toml found next to the first log")
    g.add_argument("--chunk-size", type=int, default=4, metavar="N", help="records sent to a worker at once (default: 4)")
    g.add_argument("--record-timeout", type=float, default=600.0, metavar="S",
                   help="a record running longer is retried once, then stored as an error (default: 600)")
    g.add_argument("--factory", default=None, metavar="MODULE:FUNCTION",
                   help="advanced: build each worker's verifier with FUNCTION(config) instead of "
                        "verifier.api.Verifier(config) (e.g. a stacked verifier)")
    g = p.add_argument_group("store")
    g.add_argument("--store", default=None, metavar="FILE",
                   help="SQLite store (default: <first log>.audit.sqlite beside it)")
    g.add_argument("--resume", action="store_true", help="continue the audit in the store")
    g.add_argument("--restart", action="store_true", help="discard the store's results and start again")
    g.add_argument("--allow-changes", action="store_true",
                   help="with --resume: continue although the axioms/configuration/version changed")
    g.add_argument("--batch-size", type=int, default=256, metavar="N",
                   help="results per transaction (also written at least every 2 s; default: 256)")
    g = p.add_argument_group("output")
    g.add_argument("--report", action="append", default=[], metavar="FILE",
                   help="write a report: .html (self-contained, plots and a searchable table) or .md (repeatable)")
    g.add_argument("--report-rows", type=int, default=5000, metavar="N",
                   help="entries in the report's table (errors and rejections first; default: 5000)")
    g.add_argument("--report-groups", type=int, default=100, metavar="N",
                   help="questions with several candidates shown with their clusters in the report "
                        "(split questions first; default: 100)")
    g.add_argument("--title", default=None, help="report title (default: 'Audit of <log names>')")
    g.add_argument("--json", action="store_true", help="print the summary as JSON")
    g.add_argument("--quiet", action="store_true", help="print no summary")
    g.add_argument("--fail-on", default=None, metavar="COND",
                   help="exit code 1 when the condition holds, e.g. 'reject_rate>0.05' (see below)")
    g.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar with rate and ETA on stderr (default: when stderr is a terminal)")
    g.add_argument("-o", "--output", default=None, metavar="FILE", help="'export': write here (default: stdout)")
    p.set_defaults(func=run)


# ------------------------------------------------------------------------------------------

def _usage(msg: str) -> Exception:
    from verifier.cli import UsageError

    return UsageError(msg)


def _is_store(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _resolve_store(args: argparse.Namespace, rest: list[str]) -> Path:
    from verifier.audit.runner import default_store_path

    if args.store:
        return Path(args.store)
    if len(rest) != 1:
        raise _usage("name one store (or one log, meaning its default store), or use --store")
    p = Path(rest[0])
    if _is_store(p):
        return p
    store = default_store_path(p)
    if not store.exists():
        raise _usage(f"{p} is not an audit store and {store} does not exist")
    return store


def _open_store(path: Path) -> Any:
    from verifier.audit.store import AuditStore, StoreError

    if not path.exists():
        raise _usage(f"{path}: no such audit store")
    try:
        return AuditStore(path, create=False)
    except StoreError as e:
        raise _usage(str(e))


def _check_reports(paths: list[str]) -> None:
    for r in paths:
        if not r.lower().endswith((".html", ".htm", ".md", ".markdown")):
            raise _usage(f"--report {r}: the name must end in .html or .md")


def _write_reports(store: Any, summary: Any, args: argparse.Namespace, title: str) -> None:
    from verifier.audit.entries import select_entries
    from verifier.audit.report_html import render_html
    from verifier.audit.report_md import render_markdown

    if not args.report:
        return
    from verifier.audit.groups import select_groups

    entries, total = select_entries(store, max(0, args.report_rows), args.model_field or None)
    groups, total_groups = select_groups(store, max(0, args.report_groups))
    for r in args.report:
        render = render_markdown if r.lower().endswith((".md", ".markdown")) else render_html
        out = Path(r)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(summary, entries, total, title=title, groups=groups, total_groups=total_groups),
                       encoding="utf-8")
        print(f"report written: {r}", file=sys.stderr)


def _print_summary(summary: Any, args: argparse.Namespace) -> None:
    from verifier.audit.summary import format_summary, to_json_text

    if args.json:
        print(to_json_text(summary))
    elif not args.quiet:
        print(format_summary(summary))


def _fail_on(summary: Any, conditions: Any) -> int:
    from verifier.audit.conditions import ConditionError, failing
    from verifier.audit.summary import metrics

    if not conditions:
        return 0
    try:
        held = failing(conditions, metrics(summary))
    except ConditionError as e:
        raise _usage(str(e))
    m = metrics(summary)
    for c in held:
        print(f"fail-on: {c.text} holds ({c.metric} = {m.get(c.metric, 0):.4g})", file=sys.stderr)
    return 1 if held else 0


def _parse_conditions(text: str | None) -> Any:
    from verifier.audit.conditions import ConditionError, parse_conditions

    if not text:
        return ()
    try:
        conds = parse_conditions(text)
    except ConditionError as e:
        raise _usage(f"--fail-on: {e}")
    from verifier.audit.summary import metrics as _m  # noqa: F401  (validated after the run)

    return conds


def _title(args: argparse.Namespace, names: list[str]) -> str:
    return args.title or ("Audit of " + ", ".join(names) if names else "SPARQL audit")


def _action(args: argparse.Namespace) -> int:
    from verifier.audit.export import export
    from verifier.audit.summary import summarize

    action, rest = args.paths[0], args.paths[1:]
    store_path = _resolve_store(args, rest)
    store = _open_store(store_path)
    try:
        if action == "export":
            fmt = args.format or "jsonl"
            if fmt not in ("jsonl", "csv"):
                raise _usage(f"--format {fmt}: export writes jsonl or csv")
            if args.output:
                with open(args.output, "w", encoding="utf-8", newline="") as f:
                    n = export(store, fmt, f)
                print(f"{n} result(s) written to {args.output}", file=sys.stderr)
            else:
                export(store, fmt, sys.stdout)
            return 0
        conditions = _parse_conditions(args.fail_on)
        if action == "report" and not args.report:
            raise _usage("'report' needs --report FILE.html or FILE.md")
        _check_reports(args.report)
        summary = summarize(store, model_field=args.model_field or None)
        names = [Path(l["path"]).name for l in summary.logs]
        if action == "summary":
            _print_summary(summary, args)
        _write_reports(store, summary, args, _title(args, names))
        return _fail_on(summary, conditions)
    finally:
        store.close()


def _progress_factory(enabled: bool) -> Any:
    if not enabled:
        return None

    def make(total: int | None, initial: int) -> Any:
        from tqdm import tqdm

        tqdm.monitor_interval = 0
        return tqdm(total=total, initial=initial, unit="line", file=sys.stderr, dynamic_ncols=True,
                    smoothing=0.1, mininterval=0.5, desc="audit")

    return make


def _grouping(args: argparse.Namespace, config: Any) -> Any:
    from verifier.audit.grouping import GroupingOptions
    from verifier.consensus import DEFAULT_BUDGET, DEFAULT_MAX_REPRESENTATIVES

    budget = args.consensus_budget if args.consensus_budget is not None else \
        int(config.get("consensus", "budget", DEFAULT_BUDGET))
    if budget < 1:
        raise _usage("--consensus-budget must be at least 1")
    return GroupingOptions(enabled=not args.no_consensus, group_by=args.group_by, score_field=args.score_field,
                           answers_field=args.answers_field,
                           budget=budget, max_representatives=int(config.get("consensus", "max_representatives",
                                                                             DEFAULT_MAX_REPRESENTATIVES)))


def _load_config(args: argparse.Namespace, logs: list[Path]) -> Any:
    from verifier.config import load_config

    cfg_path = args.config
    if cfg_path is None and not args.no_log_config and logs:
        beside = logs[0].resolve().parent / "verifier.toml"
        if beside.is_file():
            cfg_path = str(beside)
            print(f"using configuration {beside} (next to the log; --no-log-config to ignore it)", file=sys.stderr)
    if cfg_path is not None and not Path(cfg_path).is_file():
        raise _usage(f"--config {cfg_path}: no such file")
    try:
        return load_config(cfg_path)
    except (OSError, ValueError) as e:
        raise _usage(str(e))


def run(args: argparse.Namespace) -> int:
    from verifier.cli import EXIT_ERROR, EXIT_INTERRUPTED

    if not args.paths:
        raise _usage("name at least one log (or 'export', 'summary', 'report'); see 'verifier audit --help'")
    if args.paths[0] in _ACTIONS:
        return _action(args)

    from verifier.audit.engines import EngineError, EngineOptions
    from verifier.audit.reader import FieldMap, LogFormatError, ReaderOptions
    from verifier.audit.runner import AuditConflict, AuditOptions, default_store_path, run_audit
    from verifier.audit.store import StoreError
    from verifier.audit.summary import summarize

    logs = [Path(p) for p in args.paths]
    for p in logs:
        if not p.is_file():
            raise _usage(f"{p}: no such log file")
    if args.format not in (None, "auto", "jsonl", "csv", "tsv"):
        raise _usage(f"--format {args.format}: use auto, jsonl, csv or tsv")
    if args.resume and args.restart:
        raise _usage("--resume and --restart exclude each other")
    workers = args.workers if args.workers is not None else len(os.sched_getaffinity(0))
    for name, v in (("--workers", workers), ("--chunk-size", args.chunk_size), ("--batch-size", args.batch_size),
                    ("--max-line-bytes", args.max_line_bytes)):
        if v < 1:
            raise _usage(f"{name} must be at least 1")
    _check_reports(args.report)
    conditions = _parse_conditions(args.fail_on)
    config = _load_config(args, logs)
    from verifier.extras import require_configured

    require_configured(config)  # an extra the configuration needs: exit 2 before any work
    store_path = Path(args.store) if args.store else (
        Path(config.get("audit", "store")) if config.get("audit", "store") else default_store_path(logs[0]))
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    opts = AuditOptions(
        logs=tuple(logs), store=store_path, config=config,
        reader=ReaderOptions(args.format or "auto", FieldMap(args.question_field, args.sparql_field, args.id_field),
                             args.max_line_bytes),
        engine=args.engine,
        engine_options=EngineOptions(workers=workers, chunk_size=args.chunk_size, record_timeout=args.record_timeout,
                                     factory=args.factory, ray_address=args.ray_address),
        resume=args.resume, restart=args.restart, allow_changes=args.allow_changes, batch_size=args.batch_size,
        argv=tuple(sys.argv), progress=_progress_factory(progress), grouping=_grouping(args, config))

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, on_term)
    try:
        outcome = run_audit(opts)
    except (AuditConflict, LogFormatError, StoreError) as e:
        raise _usage(str(e))
    except EngineError as e:
        print(f"verifier audit: error: {e}\nthe results so far are stored; fix the cause and use --resume",
              file=sys.stderr)
        return EXIT_ERROR
    finally:
        signal.signal(signal.SIGTERM, old)

    print(f"{outcome.status}: {outcome.written} result(s) written this run ({outcome.input_errors} bad input "
          f"line(s), {outcome.verify_errors} verification error(s)), {outcome.skipped} already stored, "
          f"{outcome.seconds:.1f} s; store {outcome.store}", file=sys.stderr)
    g = outcome.grouping
    if g is not None and g.groups:
        print(f"candidate sets: {g.groups} question(s) with several candidates, {g.clustered} clustered this run "
              f"({g.prover_checks} prover checks, {g.seconds:.1f} s)", file=sys.stderr)
    from verifier.audit.store import AuditStore

    with AuditStore(store_path, create=False) as store:
        summary = summarize(store, model_field=args.model_field or None)
        _print_summary(summary, args)
        _write_reports(store, summary, args, _title(args, [p.name for p in logs]))
    if outcome.status == "interrupted":
        print("interrupted: continue with the same command and --resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    return _fail_on(summary, conditions)
