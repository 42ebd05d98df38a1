"""Identities that make an audit reproducible and a resume safe.

* :func:`log_fingerprint`: size, modification time and SHA-256 of a log file (the raw file,
  compressed or not).  On ``--resume``, :func:`compare_log` tells ``same``, ``appended``
  (the old content is an exact prefix of the new file: a growing daily log) or ``changed``.
* :func:`axioms_identity`: SHA-256 over the pack files (``templates/``, ``background/``
  and ``lexicons/`` YAML, what the axiom loader reads) of the shipped pack
  (:func:`verifier.resources.axioms_dir`) and of the configured pack folders
  (``[axioms] dirs``), with the number of files.
* :func:`config_identity`: SHA-256 of the configuration sections plus the size and
  modification time of every file they name (labels, MRS corpora ...); a label store by its
  import generation (fetches of absent ids during a run do not change it).
* :func:`run_identity` bundles these with the verifier version.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

__all__ = ["LogFingerprint", "RunIdentity", "log_fingerprint", "compare_log", "prefix_sha256",
           "axioms_identity", "config_identity", "run_identity", "folder_hash"]

_BLOCK = 1 << 20


@dataclass(frozen=True)
class LogFingerprint:
    """What a log file was when the audit read it."""

    path: str
    size: int
    mtime: float
    sha256: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _sha256(path: Path, limit: int | None = None) -> str:
    h = hashlib.sha256()
    left = limit
    with open(path, "rb") as f:
        while left is None or left > 0:
            block = f.read(_BLOCK if left is None else min(_BLOCK, left))
            if not block:
                break
            h.update(block)
            if left is not None:
                left -= len(block)
    return h.hexdigest()


def log_fingerprint(path: str | Path) -> LogFingerprint:
    """Fingerprint of a log (reads the whole file once)."""
    p = Path(path).resolve()
    st = p.stat()
    return LogFingerprint(str(p), st.st_size, st.st_mtime, _sha256(p))


def prefix_sha256(path: str | Path, size: int) -> str:
    """SHA-256 of the first ``size`` bytes of a file."""
    return _sha256(Path(path), size)


def compare_log(old: LogFingerprint, path: str | Path) -> tuple[str, LogFingerprint]:
    """``("same" | "appended" | "changed", new fingerprint)``."""
    new = log_fingerprint(path)
    if new.sha256 == old.sha256:
        return "same", new
    if new.size > old.size and prefix_sha256(path, old.size) == old.sha256:
        return "appended", new
    return "changed", new


#: The files of a pack folder that the axiom loader reads (see verifier.axioms.loader).
PACK_GLOBS = ("templates/*.y*ml", "background/*.y*ml", "lexicons/*.y*ml")


def folder_hash(folders: Iterable[str | Path], globs: Sequence[str] = ("**/*",)) -> tuple[str, int]:
    """SHA-256 over the relative paths and contents of the files matching ``globs`` under
    each folder (in a stable order, skipping hidden files and caches), and their number."""
    h = hashlib.sha256()
    n = 0
    for i, folder in enumerate(folders):
        root = Path(folder)
        h.update(f"#{i}\0".encode())
        if not root.exists():
            h.update(b"missing\0")
            continue
        files = [root] if root.is_file() else sorted(
            {p for g in globs for p in root.glob(g) if p.is_file() and "__pycache__" not in p.parts
             and not p.name.startswith(".")})
        for p in files:
            rel = p.name if p == root else p.relative_to(root).as_posix()
            h.update(rel.encode() + b"\0")
            h.update(_sha256(p).encode() + b"\0")
            n += 1
    return h.hexdigest(), n


def axioms_identity(config: Any) -> dict[str, Any]:
    """Identity of the axiom pack a verifier built from ``config`` would load."""
    from verifier.resources import axioms_dir

    extra = config.get("axioms", "dirs", []) or []
    if not isinstance(extra, list):
        extra = [extra]
    folders = [axioms_dir(), *[Path(p) for p in extra]]
    digest, n = folder_hash(folders, PACK_GLOBS)
    return {"sha256": digest, "files": n, "folders": [str(f) for f in folders]}


def _file_stamps(value: Any) -> Any:
    if isinstance(value, str) and value and os.path.exists(value):
        st = os.stat(value)
        return {"path": value, "size": st.st_size, "mtime": st.st_mtime}
    if isinstance(value, list):
        return [_file_stamps(v) for v in value]
    return value


#: Settings that may name a label store: it is identified by its import generation, not by
#: its size and time, which on-demand fetches of absent ids change during a run.
_LABEL_STORE_KEYS = {("labels", "store"), ("grounding", "labels")}


def _label_store_stamp(value: Any) -> Any:
    from verifier.labels.store import LabelStore, LabelStoreError, is_label_store

    if isinstance(value, str) and is_label_store(value):
        try:
            store = LabelStore(value, create=False)
        except LabelStoreError:
            return _file_stamps(value)
        try:
            return store.identity()
        finally:
            store.close()
    return _file_stamps(value)


def config_identity(config: Any) -> dict[str, Any]:
    """Identity of a configuration: its sections (with file stamps for paths) and hash."""
    from verifier.config import PATH_KEYS

    sections: dict[str, Any] = {}
    for name, values in sorted(config.sections.items()):
        if name == "audit":  # where results go does not change verdicts
            continue
        keys = PATH_KEYS.get(name, ())
        sections[name] = {k: (_label_store_stamp(v) if (name, k) in _LABEL_STORE_KEYS
                              else _file_stamps(v) if k in keys else v) for k, v in sorted(values.items())}
    text = json.dumps(sections, sort_keys=True, default=str)
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "sections": sections,
            "files": [str(f) for f in config.files]}


@dataclass(frozen=True)
class RunIdentity:
    """What verdicts depend on, recorded per session and compared on ``--resume``."""

    verifier_version: str
    axioms_sha256: str
    config_sha256: str
    axioms: Mapping[str, Any]
    config: Mapping[str, Any]

    def differences(self, other: "RunIdentity") -> list[str]:
        """Readable list of what differs from ``other`` (empty when nothing does)."""
        out = []
        if self.verifier_version != other.verifier_version:
            out.append(f"verifier version {other.verifier_version} -> {self.verifier_version}")
        if self.axioms_sha256 != other.axioms_sha256:
            out.append(f"axiom pack {other.axioms_sha256[:12]} -> {self.axioms_sha256[:12]} "
                       f"({other.axioms.get('files')} -> {self.axioms.get('files')} files)")
        if self.config_sha256 != other.config_sha256:
            out.append(f"configuration {other.config_sha256[:12]} -> {self.config_sha256[:12]}")
        return out


def run_identity(config: Any) -> RunIdentity:
    """The identity of a verifier built from ``config``."""
    from verifier import __version__

    ax = axioms_identity(config)
    cf = config_identity(config)
    return RunIdentity(__version__, ax["sha256"], cf["sha256"], ax, cf)
