"""``verifier setup ace``: install the ACE parser and the English Resource Grammar.

Downloads the ACE binary and a compiled ERG image from the ACE website, unpacks them into
``--dest`` (default ``$XDG_DATA_HOME/verifier/ace``), checks that ``ace -V`` runs and
prints the configuration to use (``--write-config`` adds an ``[ace]`` section to
``~/.config/verifier/verifier.toml`` when it has none).  Without a network it says what to
download by hand and how to point the toolkit at it (``VERIFIER_ACE`` / ``VERIFIER_ERG``).
Nothing is built from source.  Exit codes: 0 installed, 1 download or check failed, 2 usage.

``verifier setup wordnet`` builds the WordNet synonym/derivation table of lexical grounding
from a local WordNet database (no download).
"""

from __future__ import annotations

import argparse
import bz2
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from verifier.cli import EXIT_FAIL, EXIT_OK, UsageError

ACE_VERSION = "0.9.34"
#: Default download locations on the ACE website (override with --ace-url / --erg-url or
#: ``[ace] ace_url`` / ``erg_url``; check https://sweaglesw.org/linguistics/ace/ for newer
#: releases).
ACE_URL = f"https://sweaglesw.org/linguistics/ace/download/ace-{ACE_VERSION}-x86-64.tar.gz"
ERG_URL = f"https://sweaglesw.org/linguistics/ace/download/erg-2018-x86-64-{ACE_VERSION}.dat.bz2"
ACE_PAGE = "https://sweaglesw.org/linguistics/ace/"


def default_dest() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "verifier" / "ace"


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``verifier setup``."""
    p = subparsers.add_parser("setup", help="install external tools (ACE and the ERG) and build the WordNet table",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="setup_command", metavar="TOOL")
    pa = sub.add_parser("ace", help="download the ACE binary and the ERG grammar image")
    pa.add_argument("--dest", help="install folder (default: ~/.local/share/verifier/ace)")
    pa.add_argument("--ace-url", help=f"ACE archive URL (default {ACE_URL})")
    pa.add_argument("--erg-url", help=f"ERG image URL, .dat or .dat.bz2 (default {ERG_URL})")
    pa.add_argument("--timeout", type=float, default=60.0, help="network timeout in seconds")
    pa.add_argument("--force", action="store_true", help="download again even if installed")
    pa.add_argument("--write-config", action="store_true",
                    help="add an [ace] section to ~/.config/verifier/verifier.toml (if it has none)")
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
    return f"""ACE could not be installed automatically: {why}

Install it by hand (no compilation needed):
  1. download {ace_url}
     and unpack it; the 'ace' executable is inside (see {ACE_PAGE})
  2. download a compiled ERG image for ACE {ACE_VERSION}, e.g. {erg_url}
     and decompress it (bunzip2) to a .dat file
  3. point the toolkit at them, either with environment variables
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


def _download(url: str, target: Path, timeout: float) -> None:
    with urllib.request.urlopen(url, timeout=timeout) as resp, open(target, "wb") as out:  # noqa: S310
        shutil.copyfileobj(resp, out, 1 << 20)


def _extract_ace(archive: Path, dest: Path) -> Path:
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and Path(m.name).name == "ace"]
        if not members:
            raise ValueError("the archive has no 'ace' executable")
        m = members[0]
        if Path(m.name).is_absolute() or ".." in Path(m.name).parts:
            raise ValueError(f"unsafe path in archive: {m.name}")
        src = tar.extractfile(m)
        if src is None:
            raise ValueError("cannot read 'ace' from the archive")
        out = dest / "ace"
        with open(out, "wb") as f:
            shutil.copyfileobj(src, f)
    out.chmod(out.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return out


def _install_grammar(download: Path, url: str, dest: Path) -> Path:
    name = Path(url.split("?")[0]).name
    if name.endswith(".bz2"):
        out = dest / name[:-4]
        with bz2.open(download, "rb") as src, open(out, "wb") as f:
            shutil.copyfileobj(src, f, 1 << 20)
    else:
        out = dest / name
        shutil.copyfile(download, out)
    return out


def _write_config(binary: Path, grammar: Path) -> str:
    cfg = Path.home() / ".config" / "verifier" / "verifier.toml"
    text = cfg.read_text(encoding="utf-8") if cfg.is_file() else ""
    if any(line.strip() == "[ace]" for line in text.splitlines()):
        return f"{cfg} already has an [ace] section; left unchanged"
    cfg.parent.mkdir(parents=True, exist_ok=True)
    with open(cfg, "a", encoding="utf-8") as f:
        f.write(("\n" if text and not text.endswith("\n") else "") +
                f'\n[ace]\nbinary = "{binary}"\ngrammar = "{grammar}"\n')
    return f"wrote [ace] to {cfg}"


def _cmd_ace(args: argparse.Namespace) -> int:
    from verifier.config import load_config

    try:
        cfg = load_config()
    except ValueError as e:
        raise UsageError(str(e)) from None
    dest = Path(args.dest).expanduser() if args.dest else default_dest()
    ace_url = args.ace_url or str(cfg.get("ace", "ace_url") or ACE_URL)
    erg_url = args.erg_url or str(cfg.get("ace", "erg_url") or ERG_URL)
    binary = dest / "ace"
    if args.dry_run:
        print(f"would download {ace_url}\n           and {erg_url}\ninto {dest}")
        return EXIT_OK
    existing = sorted(dest.glob("*.dat")) if dest.is_dir() else []
    if binary.is_file() and existing and not args.force:
        grammar = existing[0]
        print(f"already installed: {binary} and {grammar} (use --force to download again)")
    else:
        try:
            dest.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            print(_instructions(dest, ace_url, erg_url, f"cannot create {dest}: {e}"), file=sys.stderr)
            return EXIT_FAIL
        with tempfile.TemporaryDirectory(dir=dest) as tmp:
            t = Path(tmp)
            try:
                print(f"downloading {ace_url} ...", flush=True)
                _download(ace_url, t / "ace.tar.gz", args.timeout)
                print(f"downloading {erg_url} ...", flush=True)
                _download(erg_url, t / "erg.download", args.timeout)
            except (urllib.error.URLError, OSError, ValueError) as e:
                reason = getattr(e, "reason", e)
                print(_instructions(dest, ace_url, erg_url, f"download failed ({reason})"),
                      file=sys.stderr)
                return EXIT_FAIL
            try:
                binary = _extract_ace(t / "ace.tar.gz", dest)
                grammar = _install_grammar(t / "erg.download", erg_url, dest)
            except (tarfile.TarError, OSError, ValueError, EOFError) as e:
                print(_instructions(dest, ace_url, erg_url, f"unpacking failed ({e})"), file=sys.stderr)
                return EXIT_FAIL
    try:
        out = subprocess.run([str(binary), "-V"], capture_output=True, text=True, timeout=30)
        version = (out.stdout + out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else ""
    except (OSError, subprocess.TimeoutExpired) as e:
        print(_instructions(dest, ace_url, erg_url, f"the downloaded ace does not run ({e})"),
              file=sys.stderr)
        return EXIT_FAIL
    if "ACE" not in version:
        print(_instructions(dest, ace_url, erg_url, f"'ace -V' printed {version!r}"), file=sys.stderr)
        return EXIT_FAIL
    print(f"installed {version}: {binary}\ngrammar: {grammar}")
    print(f'configure with:\n  export VERIFIER_ACE="{binary}"\n  export VERIFIER_ERG="{grammar}"\n'
          f'or in verifier.toml:\n  [ace]\n  binary = "{binary}"\n  grammar = "{grammar}"')
    if args.write_config:
        print(_write_config(binary, grammar))
    return EXIT_OK
