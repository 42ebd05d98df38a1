"""Which compiled grammar image (of ACE) produced a reading: its identity, header and family.

* :func:`grammar_identity` is the MRS cache key of an image: ``name:size:sha16`` (file name,
  size in bytes, first 16 hex digits of the SHA-256 of the content).
* :func:`grammar_info` adds the full SHA-256 and what the image header says (ACE writes
  ``frozen grammar file: ace |0.9.34| grammar |<dir>;;ERG (2025)|``: the ACE version the
  image was compiled for and the grammar's version string) as a :class:`GrammarInfo`.  It
  reads the record that ``verifier setup ace`` writes beside the image
  (``<image>.identity.json``, :func:`write_grammar_info`) when that record still matches
  the file's size and modification time, so the 200 MB image is not hashed on every start.
* :func:`grammar_family` names the family of an identity (``erg-standin``, ``erg`` or
  ``unknown``) from the data file ``verifier/_data/ace/grammars.yaml`` (known images by
  SHA-256, corpus identities, header versions, file-name patterns): code that must treat
  one grammar differently asks for the family instead of testing names or hashes itself.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

__all__ = ["GrammarInfo", "grammar_identity", "grammar_info", "grammar_family", "read_header",
           "write_grammar_info", "record_path", "known_grammars", "FAMILIES"]

#: The families :func:`grammar_family` can return (besides those added in the data file).
FAMILIES = ("erg-standin", "erg", "unknown")

_HEADER = re.compile(r"frozen grammar file:\s*ace\s*\|([^|]*)\|\s*grammar\s*\|([^|]*)\|")
_RECORD_SUFFIX = ".identity.json"


@dataclass(frozen=True, slots=True)
class GrammarInfo:
    """What is known about one grammar image.

    ``identity``: the cache key (:func:`grammar_identity`); ``sha256``: of the whole file;
    ``version``: the grammar's version string from the header (``"ERG (2025)"``, ``None``
    when the header has none); ``ace_version``: the ACE version the image was compiled for;
    ``family``: :func:`grammar_family`.
    """

    path: str
    identity: str
    sha256: str
    size: int
    version: str | None
    ace_version: str | None
    family: str

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict of the fields."""
        return asdict(self)


def read_header(path: str | Path) -> tuple[str | None, str | None]:
    """``(ace_version, grammar_version)`` from the header of a compiled image (``None`` for
    what the header does not say, or when the file is not an ACE image)."""
    with open(Path(path).expanduser(), "rb") as f:
        head = f.read(4096).split(b"\0", 1)[0].decode("utf-8", "replace")
    m = _HEADER.search(head)
    if not m:
        return None, None
    ace_version = m.group(1).strip() or None
    grammar = m.group(2)
    version = grammar.split(";;", 1)[1].strip() if ";;" in grammar else None
    return ace_version, version or None


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _identity(path: Path, size: int, sha256: str) -> str:
    return f"{path.name}:{size}:{sha256[:16]}"


def record_path(path: str | Path) -> Path:
    """Where :func:`write_grammar_info` keeps the record of an image (beside it)."""
    p = Path(path).expanduser()
    return p.with_name(p.name + _RECORD_SUFFIX)


def _from_record(p: Path) -> GrammarInfo | None:
    rec = record_path(p)
    try:
        d = json.loads(rec.read_text(encoding="utf-8"))
        st = p.stat()
        if int(d["size"]) != st.st_size or int(d["mtime_ns"]) != st.st_mtime_ns:
            return None
        if d["identity"] != _identity(p, st.st_size, str(d["sha256"])):
            return None
        version = d.get("version")
        return GrammarInfo(str(p), d["identity"], str(d["sha256"]), st.st_size, version,
                           d.get("ace_version"), grammar_family(d["identity"], version))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def grammar_info(path: str | Path, *, use_record: bool = True) -> GrammarInfo:
    """Identity, SHA-256, header versions and family of a grammar image (from its record
    when it still matches the file, else by reading the whole file).  Raises ``OSError``
    when the file cannot be read."""
    p = Path(path).expanduser()
    if use_record:
        info = _from_record(p)
        if info is not None:
            return info
    size = p.stat().st_size
    sha = _digest(p)
    ace_version, version = read_header(p)
    identity = _identity(p, size, sha)
    return GrammarInfo(str(p), identity, sha, size, version, ace_version,
                       grammar_family(identity, version))


def write_grammar_info(info: GrammarInfo) -> Path:
    """Write the record of an image beside it (read back by :func:`grammar_info` while the
    file keeps its size and modification time); returns its path.  Raises ``OSError``."""
    p = Path(info.path)
    st = p.stat()
    rec = record_path(p)
    data = info.to_json()  # "family" is for people: it is worked out again on reading
    data["mtime_ns"] = st.st_mtime_ns
    tmp = rec.with_name(rec.name + ".part")
    tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    tmp.replace(rec)
    return rec


def grammar_identity(path: str | Path) -> str:
    """A stable identity of a compiled grammar image: file name, size and SHA-256 prefix
    of its content (so a rebuilt or different image gets a different cache key)."""
    return grammar_info(path).identity


@lru_cache(maxsize=1)
def known_grammars() -> Mapping[str, Any]:
    """The data file ``verifier/_data/ace/grammars.yaml`` (families and examples)."""
    import yaml

    from verifier.resources import data_dir

    with open(data_dir("ace") / "grammars.yaml", encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    if not isinstance(data.get("families"), dict):
        raise ValueError("grammars.yaml: no 'families' mapping")
    return data


def grammar_family(identity: str | None, version: str | None = None) -> str:
    """The family of a grammar identity: ``erg-standin`` (the stand-in image of
    ``shared/tools/ace`` and the corpus it produced), ``erg`` (a released ERG), or
    ``unknown``; ``version`` is the image header's version string when known.  The rules
    are data (``verifier/_data/ace/grammars.yaml``)."""
    if not identity:
        return "unknown"
    families: Mapping[str, Any] = known_grammars()["families"]
    parts = str(identity).rsplit(":", 2)
    name = parts[0].lower() if len(parts) == 3 else ""
    digest = parts[2].lower() if len(parts) == 3 and re.fullmatch(r"[0-9a-fA-F]{8,64}", parts[2]) else ""
    for fam, spec in families.items():
        if identity in (spec.get("identities") or ()):
            return str(fam)
    if digest:
        for fam, spec in families.items():
            if any(str(s).lower().startswith(digest) for s in spec.get("sha256") or ()):
                return str(fam)
    if version:
        for fam, spec in families.items():
            if any(version.startswith(str(v)) for v in spec.get("header_versions") or ()):
                return str(fam)
    if name:
        for fam, spec in families.items():
            if any(fnmatch.fnmatch(name, str(pat).lower()) for pat in spec.get("names") or ()):
                return str(fam)
    return "unknown"
