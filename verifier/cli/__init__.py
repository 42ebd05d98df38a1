"""The ``verifier`` command line: one entry point, one module per subcommand.

Every module in this package that defines ``register(subparsers)`` contributes a subcommand
(``verifier check``, ``verifier audit``, ``verifier mrs`` ...).  ``register`` adds its parser
and sets ``func`` (a callable taking the parsed ``argparse.Namespace`` and returning an exit
code).  Modules keep heavy imports inside their handlers so that ``verifier --help`` is fast.

Exit codes: 0 success, 1 the check or condition failed (lint errors, ``--fail-on``),
2 usage or configuration error (including a feature whose extra is not installed, e.g. HDM
without ``pip install 'sparql-verifier[learned]'``), 3 unexpected internal error,
130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from typing import Sequence

from verifier.extras import MissingExtraError

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2
EXIT_ERROR = 3
EXIT_INTERRUPTED = 130

__all__ = ["main", "build_parser", "EXIT_OK", "EXIT_FAIL", "EXIT_USAGE", "EXIT_ERROR",
           "EXIT_INTERRUPTED", "UsageError"]


class UsageError(Exception):
    """Raised by a subcommand for bad arguments; reported with exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every discovered subcommand."""
    parser = argparse.ArgumentParser(
        prog="verifier",
        description=(
            "Verify that a SPARQL query means what an English question asks: deductive proof "
            "(question -> ERG/MRS -> logic, SPARQL -> logic, lexical axioms, Z3), grounding of "
            "KG identifiers (PGMR) and a learned hallucination detector (HDM)."
        ),
        epilog="Run 'verifier COMMAND --help' for the options of a command. Exit codes: 0 ok, "
        "1 check failed, 2 usage error, 3 internal error.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0,
                        help="more log output (-v info, -vv debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if mod.name.startswith("_"):
            continue
        try:
            module = importlib.import_module(f"{__name__}.{mod.name}")
        except Exception as e:  # one broken subcommand must not take the others down
            logging.getLogger(__name__).warning("subcommand %r unavailable: %s", mod.name, e)
            continue
        register = getattr(module, "register", None)
        if register is not None:
            register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point; returns the process exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse exits 2 on usage errors, 0 on --help
        return int(e.code or 0)
    logging.basicConfig(
        level=logging.WARNING - 10 * min(args.verbose, 2),
        format="%(levelname)s %(name)s: %(message)s",
    )
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(func(args) or 0)
    except (UsageError, MissingExtraError) as e:
        print(f"verifier {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
