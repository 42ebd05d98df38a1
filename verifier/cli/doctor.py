"""``verifier doctor``: one screen of what is configured and working, and how to fix the rest.

The checks are in :mod:`verifier.doctor`.
"""

from __future__ import annotations

import argparse
import json

__all__ = ["register"]

_DESCRIPTION = """\
Check what is configured and working: the deductive path (a built-in self-test), ACE and the
grammar's identity, the MRS sources, the WordNet table, the KG labels, the PGMR memory, the
stacking and HDM models, the knowledge graph, and the optional extras (learned, faiss).
Every part that is missing or broken comes with the command that sets it up.

Status: ok (working), missing (optional, not set up), off (turned off), warn (works, but not
as configured or not fully), broken (configured but not working).

Exit codes: 0 nothing is broken (the deductive path works and every configured part loads),
1 something is broken (e.g. a configured file that does not exist), 2 usage error."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``verifier doctor``."""
    p = sub.add_parser("doctor", help="what is configured and working, and how to fix the rest",
                       description=_DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", help="a verifier.toml to use in addition to the usual ones")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from verifier.cli import UsageError
    from verifier.doctor import format_report, run_checks

    if args.config is not None:
        from pathlib import Path

        if not Path(args.config).is_file():
            raise UsageError(f"--config {args.config}: no such file")
    report = run_checks(args.config)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
    else:
        print(format_report(report))
    return report.exit_code
