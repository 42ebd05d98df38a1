"""Installing ACE and a compiled grammar image from URLs or local files (``verifier setup ace``).

A source is an ``http(s)://`` URL, a ``file://`` URL or a local path.  Its content may be
compressed with xz, bzip2 or gzip (recognised by its first bytes, whatever the name says)
or plain; the ACE source may also be a tar archive holding an ``ace`` executable (the
release ``ace-0.9.34-x86-64.tar.gz``).

* :func:`install_ace` / :func:`install_grammar` fetch and unpack into a folder;
* :func:`ace_version` runs ``ace -V``; :func:`check_grammar` parses one sentence with the
  image (the image loads and produces an MRS);
* :func:`grammar_target` is the file name an image source installs to (compression suffix
  removed, ``.dat`` kept).

Errors are :class:`InstallError` with a message for people.
"""

from __future__ import annotations

import bz2
import gzip
import logging
import lzma
import shutil
import stat
import subprocess
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import IO, Callable

__all__ = ["InstallError", "fetch", "unpacked", "install_ace", "install_grammar", "ace_version",
           "check_grammar", "grammar_target", "is_url", "CHECK_SENTENCE"]

log = logging.getLogger(__name__)

#: Parsed by :func:`check_grammar` (any ERG image reads it).
CHECK_SENTENCE = "The dog barks."

_MAGIC: tuple[tuple[bytes, Callable[[str], IO[bytes]]], ...] = (
    (b"\xfd7zXZ\x00", lambda p: lzma.open(p, "rb")),
    (b"BZh", lambda p: bz2.open(p, "rb")),
    (b"\x1f\x8b", lambda p: gzip.open(p, "rb")),
)
_SUFFIXES = (".xz", ".bz2", ".gz", ".tgz")


class InstallError(RuntimeError):
    """A source could not be fetched, unpacked or checked (the message says why)."""


def is_url(source: str) -> bool:
    """Whether ``source`` is a URL (``http``, ``https``, ``ftp`` or ``file``) rather than a path."""
    return urllib.parse.urlsplit(str(source)).scheme.lower() in ("http", "https", "ftp", "file")


def _local(source: str) -> Path | None:
    """The local path of a path or ``file://`` URL (``None`` for a network URL)."""
    parts = urllib.parse.urlsplit(str(source))
    if parts.scheme.lower() == "file":
        return Path(urllib.request.url2pathname(parts.path))
    if is_url(source):
        return None
    return Path(source).expanduser()


def _name(source: str) -> str:
    parts = urllib.parse.urlsplit(str(source))
    path = parts.path if parts.scheme else str(source)
    return Path(urllib.parse.unquote(path)).name


def fetch(source: str, folder: Path, *, timeout: float = 60.0) -> Path:
    """A local file with the content of ``source``: the file itself for a path or
    ``file://`` URL, else a download into ``folder``."""
    local = _local(source)
    if local is not None:
        if not local.is_file():
            raise InstallError(f"{source}: no such file")
        return local
    target = folder / (_name(source) or "download")
    log.info("downloading %s", source)
    try:
        with urllib.request.urlopen(source, timeout=timeout) as resp, open(target, "wb") as out:  # noqa: S310
            shutil.copyfileobj(resp, out, 1 << 20)
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise InstallError(f"download failed ({getattr(e, 'reason', e)}): {source}") from None
    return target


def unpacked(path: Path, target: Path) -> Path:
    """Write the content of ``path`` to ``target``, decompressed when it is xz, bzip2 or
    gzip data (recognised by its first bytes); returns ``target``."""
    with open(path, "rb") as f:
        head = f.read(8)
    opener: Callable[[str], IO[bytes]] = lambda p: open(p, "rb")  # noqa: E731
    for magic, op in _MAGIC:
        if head.startswith(magic):
            opener = op
            break
    tmp = target.with_name(target.name + ".part")
    try:
        with opener(str(path)) as src, open(tmp, "wb") as out:
            shutil.copyfileobj(src, out, 1 << 20)
    except (OSError, EOFError, lzma.LZMAError) as e:
        tmp.unlink(missing_ok=True)
        raise InstallError(f"cannot unpack {path.name}: {e}") from None
    tmp.replace(target)
    return target


def _ace_from_tar(archive: Path, out: Path) -> None:
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.isfile() and Path(m.name).name == "ace"]
        if not members:
            raise InstallError("the archive has no 'ace' executable")
        m = members[0]
        if Path(m.name).is_absolute() or ".." in Path(m.name).parts:
            raise InstallError(f"unsafe path in archive: {m.name}")
        src = tar.extractfile(m)
        if src is None:
            raise InstallError("cannot read 'ace' from the archive")
        with open(out, "wb") as f:
            shutil.copyfileobj(src, f)


def install_ace(source: str, dest: Path, *, timeout: float = 60.0) -> Path:
    """Install the ACE executable from ``source`` (a release tar archive, or the executable
    itself, either possibly compressed) as ``dest/ace``; returns its path."""
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / "ace"
    with tempfile.TemporaryDirectory(dir=dest, prefix=".ace-") as tmp:
        t = Path(tmp)
        raw = unpacked(fetch(source, t, timeout=timeout), t / "ace.raw")
        try:
            is_tar = tarfile.is_tarfile(raw)
        except OSError:
            is_tar = False
        part = t / "ace"
        if is_tar:
            try:
                _ace_from_tar(raw, part)
            except (tarfile.TarError, OSError) as e:
                raise InstallError(f"cannot read the ACE archive: {e}") from None
        else:
            raw.replace(part)
        part.chmod(part.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
        part.replace(out)
    return out


def grammar_target(source: str) -> str:
    """The installed file name of a grammar image source: ``erg-2025-x86-64-0.9.34.dat.bz2``
    -> ``erg-2025-x86-64-0.9.34.dat`` (an image without ``.dat`` gets it)."""
    name = _name(source) or "erg.dat"
    for suffix in _SUFFIXES:
        if name.lower().endswith(suffix):
            name = name[: -len(suffix)]
            break
    return name if name.lower().endswith(".dat") else name + ".dat"


def install_grammar(source: str, dest: Path, *, timeout: float = 60.0) -> Path:
    """Install a compiled grammar image from ``source`` (possibly compressed) into ``dest``
    under :func:`grammar_target`; returns its path."""
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / grammar_target(source)
    with tempfile.TemporaryDirectory(dir=dest, prefix=".erg-") as tmp:
        local = fetch(source, Path(tmp), timeout=timeout)
        if local.resolve() == out.resolve():
            return out  # already in place
        unpacked(local, out)
    return out


def ace_version(binary: Path) -> str:
    """The first line of ``ace -V`` (``"ACE version 0.9.34"``); raises :class:`InstallError`
    when the program does not run or is not ACE."""
    try:
        out = subprocess.run([str(binary), "-V"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise InstallError(f"{binary} does not run ({e})") from None
    text = (out.stdout + out.stderr).strip()
    line = text.splitlines()[0] if text else ""
    if "ACE" not in line:
        raise InstallError(f"'{binary} -V' printed {line!r}, not an ACE version")
    return line


def check_grammar(binary: Path, grammar: Path, *, sentence: str = CHECK_SENTENCE,
                  timeout: float = 300.0) -> int:
    """Parse ``sentence`` with the image; returns the number of readings (at least 1).
    Raises :class:`InstallError` with ACE's own message when the image does not load
    (e.g. "this does not appear to be a grammar image" for an image compiled by another
    ACE version) or gives no reading."""
    try:
        out = subprocess.run([str(binary), "-g", str(grammar), "-n", "1", "-T"], input=sentence + "\n",
                             capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise InstallError(f"ACE could not parse with {grammar.name} ({e})") from None
    readings = sum(1 for line in out.stdout.splitlines() if line.lstrip().startswith(("[ LTOP:", "[ TOP:")))
    if out.returncode != 0 or not readings:
        said = [l for l in out.stderr.splitlines() if l.strip() and "parsed 0 / 1" not in l]
        why = said[-1].strip() if said else f"exit code {out.returncode}, no reading"
        raise InstallError(f"the grammar image {grammar.name} does not work with this ACE: {why}")
    return readings
