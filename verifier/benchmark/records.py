"""Benchmark records and dataset files.

Every dataset is one JSONL file (one :class:`BenchRecord` per line, keys sorted) in a
datasets folder that also holds ``manifest.json``.  Common fields:

* ``id``: unique in the dataset (perturbations: ``<gold id>/<category>``);
* ``question``, ``sparql`` (the query to verify; ``None`` when a system produced none);
* ``gold_sparql``: the gold query of the question (``None`` for out-of-domain inputs);
* ``label``: 1 = the query is correct / faithful, 0 = hallucinated, ``None`` = neither
  (partial credit LLM predictions, missing predictions);
* ``category``: the hallucination category (``gold`` for correct pairs);
* ``source``: ``dataset/split`` of the input file (``lcquad2/test``);
* ``detail``: what was changed (``{"from": "wdt:P2067", "to": "wdt:P2101", ...}``);
* ``has_mrs``: the question has at least one MRS reading in the shared MRS corpus.

Dataset-specific fields are kept in ``extra`` and written at the top level.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Iterator, Mapping

__all__ = ["BenchRecord", "Dataset", "write_jsonl", "read_records", "load_dataset",
           "list_datasets", "MANIFEST_FILE", "DATASET_FILES", "dumps_record"]

MANIFEST_FILE = "manifest.json"
#: dataset name -> file name
DATASET_FILES: Mapping[str, str] = MappingProxyType({
    "perturbations": "perturbations.jsonl",
    "unknown_uri": "unknown_uri.jsonl",
    "unknown_template": "unknown_template.jsonl",
    "out_of_ontology": "out_of_ontology.jsonl",
    "out_of_domain": "out_of_domain.jsonl",
    "llm_predictions": "llm_predictions.jsonl",
})
_CORE = ("id", "question", "sparql", "gold_sparql", "label", "category", "source", "detail",
         "has_mrs")


@dataclass(frozen=True)
class BenchRecord:
    """One benchmark item (see the module docstring for the fields)."""

    id: str
    question: str
    sparql: str | None
    gold_sparql: str | None
    label: int | None
    category: str
    source: str
    detail: Mapping[str, Any] = field(default_factory=dict)
    has_mrs: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("record without id")
        if self.label not in (0, 1, None):
            raise ValueError(f"{self.id}: label must be 0, 1 or None, got {self.label!r}")
        clash = set(self.extra) & set(_CORE)
        if clash:
            raise ValueError(f"{self.id}: extra fields shadow core fields {sorted(clash)}")

    def get(self, key: str, default: Any = None) -> Any:
        """A core or extra field by name."""
        if key in _CORE:
            return getattr(self, key)
        return self.extra.get(key, default)

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON-ready dict (extra fields at the top level)."""
        d = {k: getattr(self, k) for k in _CORE}
        d["detail"] = dict(self.detail)
        d.update(self.extra)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BenchRecord":
        """Inverse of :meth:`to_dict`."""
        missing = [k for k in ("id", "question", "category") if k not in d]
        if missing:
            raise ValueError(f"record lacks {missing}: {str(dict(d))[:200]}")
        extra = {k: v for k, v in d.items() if k not in _CORE}
        return cls(id=str(d["id"]), question=d["question"], sparql=d.get("sparql"),
                   gold_sparql=d.get("gold_sparql"), label=d.get("label"),
                   category=d["category"], source=d.get("source", ""),
                   detail=d.get("detail") or {}, has_mrs=bool(d.get("has_mrs", False)),
                   extra=extra)


def dumps_record(record: BenchRecord | Mapping[str, Any]) -> str:
    """One JSONL line (keys sorted, no trailing newline): the byte-stable serialisation."""
    d = record.to_dict() if isinstance(record, BenchRecord) else record
    return json.dumps(d, sort_keys=True, ensure_ascii=False)


def write_jsonl(path: str | Path, records: Iterable[BenchRecord | Mapping[str, Any]]) -> int:
    """Write records (in the given order) to ``path``; returns the count.  Checks that ids are
    unique."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    seen: set[str] = set()
    n = 0
    tmp = p.with_suffix(p.suffix + ".tmp")
    with tmp.open("w", encoding="utf-8", newline="\n") as f:
        for r in records:
            rid = r.id if isinstance(r, BenchRecord) else r["id"]
            if rid in seen:
                raise ValueError(f"duplicate record id {rid!r} in {p.name}")
            seen.add(rid)
            f.write(dumps_record(r) + "\n")
            n += 1
    tmp.replace(p)
    return n


def read_records(path: str | Path) -> Iterator[BenchRecord]:
    """Records of one JSONL file, in file order."""
    p = Path(path)
    with p.open(encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                yield BenchRecord.from_dict(json.loads(line))
            except (json.JSONDecodeError, ValueError) as e:
                raise ValueError(f"{p}:{lineno}: {e}") from None


@dataclass(frozen=True)
class Dataset:
    """A loaded dataset: its name, records and the manifest entry describing it."""

    name: str
    records: tuple[BenchRecord, ...]
    path: Path
    info: Mapping[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.records)


def load_dataset(name_or_path: str | Path, datasets_dir: str | Path | None = None) -> Dataset:
    """Load a dataset by name (``perturbations``, ``llm_predictions`` ... from
    ``datasets_dir``, default ``bench/out/datasets``) or by the path of a JSONL file.

    Raises ``FileNotFoundError`` (naming ``verifier bench build``) when it is not built.
    """
    from verifier.benchmark.paths import default_out_dir

    base = Path(datasets_dir) if datasets_dir is not None else default_out_dir()
    s = str(name_or_path)
    if s in DATASET_FILES:
        path, name = base / DATASET_FILES[s], s
    else:
        path = Path(s)
        name = path.stem
        if not path.is_file():
            raise FileNotFoundError(f"unknown dataset {s!r}: not one of {sorted(DATASET_FILES)} "
                                    f"and not a file")
    if not path.is_file():
        raise FileNotFoundError(f"dataset {name!r} not built: {path} is missing "
                                f"(run 'verifier bench build --out {base}')")
    info: Mapping[str, Any] = {}
    manifest = path.parent / MANIFEST_FILE
    if manifest.is_file():
        info = json.loads(manifest.read_text(encoding="utf-8")).get("datasets", {}).get(name, {})
    return Dataset(name, tuple(read_records(path)), path, info)


def list_datasets(datasets_dir: str | Path | None = None) -> dict[str, Any]:
    """The manifest of a datasets folder (``{}`` when nothing is built)."""
    from verifier.benchmark.paths import default_out_dir

    base = Path(datasets_dir) if datasets_dir is not None else default_out_dir()
    m = base / MANIFEST_FILE
    return json.loads(m.read_text(encoding="utf-8")) if m.is_file() else {}
