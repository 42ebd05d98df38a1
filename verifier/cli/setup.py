"""``verifier setup ace``: install the ACE parser and the English Resource Grammar.

Installs the ACE binary and a compiled ERG image into ``--dest`` (default
``$XDG_DATA_HOME/verifier/ace``) from the ACE and ERG release sites, or from local files:
``--ace`` / ``--erg`` (also spelled ``--ace-url`` / ``--erg-url``) take a URL, a
``file://`` URL or a path; the content may be xz, bzip2 or gzip compressed or plain, and
the ACE source may be the release tar archive or the executable itself.  It then checks
that ``ace -V`` runs and that the grammar loads (ACE parses "The dog barks."), records the
grammar's identity beside the image (``<image>.identity.json``: the MRS cache key, the
SHA-256, the header's version string such as "ERG (2025)", and the family, e.g.
``erg-standin`` for the development stand-in), and prints the configuration to use
(``--write-config`` adds an ``[ace]`` section to ``~/.config/verifier/verifier.toml`` when
it has none).  Without a network it says what to download by hand and how to point the
toolkit at it (``VERIFIER_ACE`` / ``VERIFIER_ERG``).  Nothing is built from source.
Exit codes: 0 installed, 1 download or check failed, 2 usage.

The default grammar is the newest ERG release compiled for ACE 0.9.34 that public
documentation names: ERG 2025 from https://github.com/delph-in/erg/releases (the DELPH-IN
ERG quick-start page, updated 2025-05-22, installs that file).  A newer release: pass its
URL with ``--erg`` or set ``[ace] erg_url``.

``verifier setup wordnet`` builds the WordNet synonym/derivation table of lexical grounding
from a local WordNet database (no download).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError

ACE_VERSION = "0.9.34"
#: Default download locations (override with --ace / --erg or ``[ace] ace_url`` /
#: ``erg_url``).  ACE: the release archive on the ACE website.  ERG: the newest released
#: image for ACE 0.9.34 named in public documentation (ERG 2025, on the ERG's GitHub
#: releases page; the ACE website also offers older images such as
#: erg-2018-x86-64-0.9.34.dat.bz2).  Check both pages for newer releases.
ACE_URL = f"https://sweaglesw.org/linguistics/ace/download/ace-{ACE_VERSION}-x86-64.tar.gz"
ERG_RELEASE = "2025"
ERG_URL = (f"https://github.com/delph-in/erg/releases/download/{ERG_RELEASE}/"
           f"erg-{ERG_RELEASE}-x86-64-{ACE_VERSION}.dat.bz2")
ACE_PAGE = "https://sweaglesw.org/linguistics/ace/"
ERG_PAGE = "https://github.com/delph-in/erg/releases"


def default_dest() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "verifier" / "ace"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier setup``."""
    p = subparsers.add_parser("setup", help="install external tools (ACE and the ERG) and build the WordNet table",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="setup_command", metavar="TOOL")
    pa = sub.add_parser("ace", help="install the ACE binary and the ERG grammar image (download or local files)",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    pa.add_argument("--dest", help="install folder (default: ~/.local/share/verifier/ace)")
    pa.add_argument("--ace", "--ace-url", dest="ace_src", metavar="SOURCE",
                    help="ACE: URL, file:// URL or path; release .tar.gz or the executable, "
                         f"plain or .xz/.bz2/.gz (default {ACE_URL})")
    pa.add_argument("--erg", "--erg-url", dest="erg_src", metavar="SOURCE",
                    help="compiled grammar image: URL, file:// URL or path, plain .dat or "
                         f".xz/.bz2/.gz (default {ERG_URL})")
    pa.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds")
    pa.add_argument("--force", action="store_true", help="install again even if installed")
    pa.add_argument("--write-config", action="store_true",
                    help="add an [ace] section to ~/.config/verifier/verifier.toml (if it has none)")
    pa.add_argument("--json", action="store_true", help="print the result as JSON")
    pa.add_argument("--dry-run", action="store_true", help="only print what would be done")
    pa.set_defaults(func=_cmd_ace)
    pw = sub.add_parser(
        "wordnet", help="build the WordNet synonym/derivation table used by lexical grounding",
        description="Build the table of WordNet synonyms and derivations (word -> related stems) "
                    "that lexical grounding uses (e.g. 'born' -> 'birth'). Reads a local WordNet 3.0 "
                    "database: Debian's 'wordnet-base' and 'wordnet-sense-index' packages "
                    "(/usr/share/wordnet) or an nltk_data folder. No download. Takes a few minutes; "
                    "the default output is where verify() looks for it.")
    pw.add_argument("--wordnet-dir", default=None,
                    help="folder with WordNet's data.* and index.* files (default: /usr/share/wordnet, "
                         "then ~/nltk_data/corpora/wordnet)")
    pw.add_argument("--out", default=None, help=f"output file (default {_wordnet_default()})")
    pw.add_argument("--force", action="store_true", help="rebuild even if the table exists")
    pw.set_defaults(func=_cmd_wordnet)
    p.set_defaults(func=lambda a: (p.print_help(sys.stderr), 2)[1])


def _wordnet_default() -> Path:
    from verifier.lexical import WordNetRelations

    return WordNetRelations.user_table()


def _cmd_wordnet(args: argparse.Namespace) -> int:
    from verifier.lexical import WordNetRelations

    out = Path(args.out) if args.out else _wordnet_default()
    if out.exists() and not args.force:
        print(f"{out} exists (use --force to rebuild)")
        return 0
    cands = [Path(args.wordnet_dir)] if args.wordnet_dir else [
        Path("/usr/share/wordnet"), Path.home() / "nltk_data" / "corpora" / "wordnet"]
    src = next((c for c in cands if (c / "data.noun").is_file()), None)
    if src is None:
        print("no WordNet database found in " + ", ".join(map(str, cands)) + ". Install Debian's "
              "'wordnet-base' and 'wordnet-sense-index' packages, or unpack WordNet 3.0 and pass "
              "--wordnet-dir.", file=sys.stderr)
        return 1
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".part")
    print(f"building the WordNet table from {src} (a few minutes) ...", file=sys.stderr)
    try:
        n = WordNetRelations.build(src, tmp)
    except (OSError, ValueError) as e:
        print(f"failed: {e}", file=sys.stderr)
        tmp.unlink(missing_ok=True)
        return 1
    tmp.replace(out)
    print(f"wrote {n:,} words to {out}")
    return 0


def _instructions(dest: Path, ace_url: str, erg_url: str, why: str) -> str:
    return f"""ACE could not be installed: {why}

Install it by hand (no compilation needed):
  1. download {ace_url}
     and unpack it; the 'ace' executable is inside (see {ACE_PAGE})
  2. download a compiled ERG image for ACE {ACE_VERSION}, e.g. {erg_url}
     (see {ERG_PAGE})
  3. either install them from the files:
        verifier setup ace --ace FILE --erg FILE --write-config
     or point the toolkit at them, with environment variables
        export VERIFIER_ACE=/path/to/ace
        export VERIFIER_ERG=/path/to/erg.dat
     or in verifier.toml:
        [ace]
        binary = "/path/to/ace"
        grammar = "/path/to/erg.dat"
  4. check with: verifier mrs parse "What is the mass of benzene?"
Without ACE the verifier still works for questions in the MRS cache or corpora
(verifier mrs import ../shared/data/mrs/questions.jsonl.gz).
Intended install folder: {dest}"""


def _write_config(binary: Path, grammar: Path, identity: str = "") -> str:
    cfg = Path.home() / ".config" / "verifier" / "verifier.toml"
    text = cfg.read_text(encoding="utf-8") if cfg.is_file() else ""
    if any(line.strip() == "[ace]" for line in text.splitlines()):
        return f"{cfg} already has an [ace] section; left unchanged"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    note = f"# grammar identity: {identity}\n" if identity else ""
    with open(cfg, "a", encoding="utf-8") as f:
        f.write(("\n" if text and not text.endswith("\n") else "") +
                f'\n[ace]\n{note}binary = "{binary}"\ngrammar = "{grammar}"\n')
    return f"wrote [ace] to {cfg}"


def _cmd_ace(args: argparse.Namespace) -> int:
    from verifier.ace_install import (InstallError, ace_version, check_grammar, grammar_target,
                                      install_ace, install_grammar)
    from verifier.config import load_config
    from parsers.ace_grammar import grammar_info, write_grammar_info

    try:
        cfg = load_config()
    except ValueError as e:
        raise UsageError(str(e)) from None
    dest = Path(args.dest).expanduser() if args.dest else default_dest()
    ace_src = args.ace_src or str(cfg.get("ace", "ace_url") or ACE_URL)
    erg_src = args.erg_src or str(cfg.get("ace", "erg_url") or ERG_URL)
    binary = dest / "ace"
    grammar = dest / grammar_target(erg_src)
    if args.dry_run:
        print(f"would install {ace_src}\n          and {erg_src}\ninto {dest} "
              f"(as {binary.name} and {grammar.name})")
        return EXIT_OK
    say = (lambda m: print(m, file=sys.stderr, flush=True)) if args.json else (lambda m: print(m, flush=True))
    try:
        if binary.is_file() and grammar.is_file() and not args.force:
            say(f"already installed: {binary} and {grammar} (use --force to install again)")
        else:
            say(f"installing ACE from {ace_src} ...")
            binary = install_ace(ace_src, dest, timeout=args.timeout)
            say(f"installing the grammar from {erg_src} ...")
            grammar = install_grammar(erg_src, dest, timeout=args.timeout)
        version = ace_version(binary)
        info = grammar_info(grammar, use_record=False)
        if info.ace_version and info.ace_version not in version:
            raise InstallError(f"{grammar.name} was compiled for ACE {info.ace_version}, but "
                               f"{binary} is {version!r}")
        say(f"checking that the grammar loads (parsing {'The dog barks.'!r}) ...")
        check_grammar(binary, grammar)
    except InstallError as e:
        print(_instructions(dest, ace_src, erg_src, str(e)), file=sys.stderr)
        return EXIT_FAIL
    except OSError as e:
        print(_instructions(dest, ace_src, erg_src, f"cannot write to {dest}: {e}"), file=sys.stderr)
        return EXIT_FAIL
    try:
        record = str(write_grammar_info(info))
    except OSError as e:  # a read-only folder: the identity is computed again when needed
        record = f"(not written: {e})"
    result = {"ace": str(binary), "ace_version": version, "grammar": str(grammar),
              "identity": info.identity, "grammar_version": info.version, "family": info.family,
              "sha256": info.sha256, "record": record}
    if args.write_config:
        result["config"] = _write_config(binary, grammar, info.identity)
    if args.json:
        print(json.dumps(result, indent=2))
        return EXIT_OK
    print(f"installed {version}: {binary}\ngrammar: {grammar}\n"
          f"grammar identity: {info.identity}\n"
          f"grammar version: {info.version or 'unknown (no version in the image header)'}"
          f"   family: {info.family}\nrecorded in {record}")
    print(f'configure with:\n  export VERIFIER_ACE="{binary}"\n  export VERIFIER_ERG="{grammar}"\n'
          f'or in verifier.toml:\n  [ace]\n  binary = "{binary}"\n  grammar = "{grammar}"')
    if args.write_config:
        print(result["config"])
    return EXIT_OK
