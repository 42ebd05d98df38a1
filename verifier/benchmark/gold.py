"""Gold question/SPARQL pairs of the shared data, the MRS coverage index and file hashes.

Pairs are read from :data:`~verifier.benchmark.ontology_split.DEFAULT_SOURCES` (LC-QuAD 2.0
test and train sample, QALD-9-plus train/test, QALD-10 train, WikiWebQuestions train/dev,
SPINACH dev/test, QALD-7 train/test) and de-duplicated by
:func:`~verifier.benchmark.ontology_split.normalize_question`, the first file in that order
winning, exactly as the out-of-ontology split does.  The chemistry subset repeats LC-QuAD
records and is not read as a source; its ids mark pairs with ``chemistry=True``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from verifier.benchmark.ontology_split import DEFAULT_SOURCES, iter_source_pairs

__all__ = ["GoldPair", "load_gold_pairs", "load_mrs_questions", "load_chemistry_ids",
           "file_sha256", "has_mrs", "hash_files", "MRS_QUESTIONS", "MRS_OOD", "CHEMISTRY_FILE"]

log = logging.getLogger(__name__)

MRS_QUESTIONS = "mrs/questions.jsonl.gz"
MRS_OOD = "mrs/ood_sample.jsonl.gz"
CHEMISTRY_FILE = "chemistry/wikidata_chem_subset.jsonl"


@dataclass(frozen=True)
class GoldPair:
    """A gold pair: ``dataset`` / ``split`` of its source file, ``symbols`` the Wikidata ids
    of the query (``wikidata_ids`` of the record, else extracted from the text)."""

    id: str
    question: str
    sparql: str
    dataset: str
    split: str
    symbols: frozenset[str]

    @property
    def source(self) -> str:
        """``dataset/split``."""
        return f"{self.dataset}/{self.split}"


def load_gold_pairs(data_dir: str | Path, sources: Sequence[str] = DEFAULT_SOURCES) -> list[GoldPair]:
    """Gold pairs of the ``sources`` files (relative to ``data_dir``), de-duplicated by
    question (first occurrence wins), in file order.  Records without question or query are
    skipped.  Raises ``FileNotFoundError`` for a missing file."""
    return [GoldPair(str(r.get("id", f"{rel}:{n}")), q, s, str(r.get("dataset", rel.split("/")[0])),
                     str(r.get("split", Path(rel).stem)), syms)
            for rel, n, r, q, s, syms in iter_source_pairs(data_dir, sources)]


def load_mrs_questions(data_dir: str | Path, rel: str = MRS_QUESTIONS) -> frozenset[str]:
    """Question strings of an MRS corpus file that have at least one reading (exact strings;
    empty when the file is absent)."""
    path = Path(data_dir) / rel
    if not path.is_file():
        log.warning("MRS corpus %s absent: has_mrs will be false everywhere", path)
        return frozenset()
    out = set()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("readings"):
                out.add(r["question"])
    return frozenset(out)


def has_mrs(question: str, index: frozenset[str]) -> bool:
    """The question (exact string, or with line breaks/tabs turned into spaces as the MRS
    corpus did before parsing) has a reading in ``index``."""
    if question in index:
        return True
    alt = question.replace("\r", " ").replace("\n", " ").replace("\t", " ")
    return alt != question and alt in index


def load_chemistry_ids(data_dir: str | Path, rel: str = CHEMISTRY_FILE) -> frozenset[str]:
    """Ids of the records of the chemistry subset (empty when absent)."""
    path = Path(data_dir) / rel
    if not path.is_file():
        return frozenset()
    with path.open(encoding="utf-8") as f:
        return frozenset(json.loads(line)["id"] for line in f if line.strip())


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file."""
    h = hashlib.sha256()
    with Path(path).open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def hash_files(data_dir: str | Path, rels: Iterable[str]) -> dict[str, str]:
    """``{relative path: sha256}`` for the files that exist."""
    base = Path(data_dir)
    return {rel: file_sha256(base / rel) for rel in sorted(set(rels)) if (base / rel).is_file()}

