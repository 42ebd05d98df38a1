"""The PGMR memory: a :class:`SymbolTable`, an encoder and one vector index per kind group.

Every distinct surface string (label or alias, compared by
:func:`~verifier.pgmr.symbols.surface_key`) is one index row; a row can name several
identifiers (label collisions).  Items and classes share the ``item`` partition, properties
have their own, so a search for a property position never returns an item.

Retrieval ranks identifiers by cosine similarity, then prefers a label match over an alias
match, then the :func:`~verifier.pgmr.symbols.id_rank` prior (smaller Wikidata number).

Saved layout (``Memory.save(dir)``)::

    meta.json          format name and version, encoder identity, table fingerprint, spec
    symbols.jsonl      one symbol per line
    <group>.rows.json  the text encoded for each index row (group = item | property)
    <group>.faiss      the index of that group (FAISS's file format; without FAISS a flat
                       index is read in NumPy and an approximate one is rebuilt exact)
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Iterable, Mapping, Sequence

import numpy as np

from verifier.pgmr.encoders import Encoder, HashedNgramEncoder, encoder_from_identity
from verifier.pgmr.index import IndexNeedsFaiss, IndexSpec, VectorIndex
from verifier.pgmr.loaders import read_labels_tsv, read_rdf
from verifier.pgmr.symbols import Kind, Symbol, SymbolTable, id_rank, surface_key

__all__ = ["Memory", "Candidate", "FORMAT_NAME", "FORMAT_VERSION", "GROUPS"]

log = logging.getLogger(__name__)

FORMAT_NAME = "sparql-verifier/pgmr-memory"
FORMAT_VERSION = 1
GROUPS = ("item", "property")
_SCORE_DECIMALS = 5


@dataclass(frozen=True, slots=True)
class Candidate:
    """One retrieved identifier: ``score`` is the cosine between the query text and
    ``matched`` (the label, or the alias when ``via_alias``)."""

    id: str
    label: str
    kind: Kind
    score: float
    matched: str
    via_alias: bool = False


@dataclass(frozen=True)
class _Partition:
    texts: tuple[str, ...]
    keys: tuple[str, ...]
    index: VectorIndex


@dataclass(frozen=True)
class Memory:
    """Symbols plus their embedding index.  Build with :meth:`build`,
    :meth:`from_labels_tsv` or :meth:`from_rdf`; persist with :meth:`save` / :meth:`load`."""

    table: SymbolTable
    encoder: Encoder
    partitions: Mapping[str, _Partition] = field(repr=False)
    spec: IndexSpec = IndexSpec()

    # ------------------------------------------------------------------ construction

    @classmethod
    def build(cls, symbols: Iterable[Symbol] | SymbolTable, encoder: Encoder | None = None, *,
              spec: IndexSpec = IndexSpec(), progress: bool = False) -> "Memory":
        """Embed every label and alias of ``symbols`` and index them.

        ``encoder`` defaults to :class:`HashedNgramEncoder` (weight-free, deterministic).
        """
        table = symbols if isinstance(symbols, SymbolTable) else SymbolTable.from_symbols(symbols)
        enc = encoder if encoder is not None else HashedNgramEncoder()
        if table.duplicates:
            log.warning("%d duplicate identifier(s) ignored (first occurrence kept)",
                        table.duplicates)
        parts = {}
        for group in GROUPS:
            texts, keys = _rows(table, group)
            vecs = enc.encode(texts, progress=progress)
            parts[group] = _Partition(texts, keys, VectorIndex.build(vecs, spec, progress=progress))
            log.info("%s partition: %d rows (%s)", group, len(keys), parts[group].index.kind)
        return cls(table, enc, MappingProxyType(parts), spec)

    @classmethod
    def from_labels_tsv(cls, path: str | Path, encoder: Encoder | None = None, *,
                        spec: IndexSpec = IndexSpec(), class_ids: Iterable[str] = (),
                        progress: bool = False) -> "Memory":
        """Build from a labels TSV file (see :func:`~verifier.pgmr.loaders.read_labels_tsv`)."""
        rep = read_labels_tsv(path, class_ids=class_ids)
        return cls.build(rep.symbols, encoder, spec=spec, progress=progress)

    @classmethod
    def from_rdf(cls, path: str | Path, encoder: Encoder | None = None, *,
                 spec: IndexSpec = IndexSpec(), lang: str = "en", backend: str = "auto",
                 progress: bool = False) -> "Memory":
        """Build from an RDF file (see :func:`~verifier.pgmr.loaders.read_rdf`)."""
        rep = read_rdf(path, lang=lang, backend=backend)
        return cls.build(rep.symbols, encoder, spec=spec, progress=progress)

    # ------------------------------------------------------------------ persistence

    def save(self, directory: str | Path) -> Path:
        """Write the memory to ``directory`` (created if needed); returns the path."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        with (d / "symbols.jsonl").open("w", encoding="utf-8") as f:
            for s in self.table:
                f.write(json.dumps({"id": s.id, "label": s.label, "kind": s.kind.value,
                                    "aliases": list(s.aliases), "description": s.description},
                                   ensure_ascii=False) + "\n")
        parts = {}
        for group, p in self.partitions.items():
            (d / f"{group}.rows.json").write_text(json.dumps(list(p.texts), ensure_ascii=False),
                                                  encoding="utf-8")
            p.index.save(d / f"{group}.faiss")
            parts[group] = {"rows": len(p.texts), "index": p.index.kind}
        meta = {
            "format": FORMAT_NAME, "format_version": FORMAT_VERSION,
            "encoder": self.encoder.identity, "dim": self.encoder.dim,
            "symbols": len(self.table), "table_fingerprint": self.table.fingerprint(),
            "partitions": parts, "spec": self.spec.to_dict(),
        }
        (d / "meta.json").write_text(json.dumps(meta, indent=2), encoding="utf-8")
        return d

    @classmethod
    def load(cls, directory: str | Path, encoder: Encoder | None = None, *,
             spec: IndexSpec | None = None) -> "Memory":
        """Read a memory written by :meth:`save`.

        Without ``encoder`` the encoder is rebuilt from the stored identity.  Raises
        ``FileNotFoundError`` when the folder or a file is missing and ``ValueError`` for a
        format/version mismatch, an encoder whose identity differs from the stored one (both
        named), or files that do not belong together.
        """
        d = Path(directory)
        meta_path = d / "meta.json"
        if not meta_path.is_file():
            raise FileNotFoundError(f"no PGMR memory in {d} (missing meta.json)")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("format") != FORMAT_NAME:
            raise ValueError(f"{d}: not a PGMR memory (format {meta.get('format')!r})")
        if meta.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"{d}: memory format version {meta.get('format_version')} is not "
                             f"supported (this code reads version {FORMAT_VERSION}); rebuild it")
        stored = meta["encoder"]
        if encoder is None:
            encoder = encoder_from_identity(stored)
        elif encoder.identity != stored:
            raise ValueError(f"encoder mismatch: the index in {d} was built with {stored!r} "
                             f"but the given encoder is {encoder.identity!r}")
        symbols = []
        with (d / "symbols.jsonl").open(encoding="utf-8") as f:
            for line in f:
                r = json.loads(line)
                symbols.append(Symbol(r["id"], r["label"], Kind(r["kind"]),
                                      tuple(r.get("aliases", ())), r.get("description", "")))
        table = SymbolTable.from_symbols(symbols)
        if table.fingerprint() != meta["table_fingerprint"]:
            raise ValueError(f"{d}: symbols.jsonl does not match meta.json (fingerprint)")
        spec = spec or IndexSpec.from_dict(meta.get("spec", {}))
        parts = {}
        for group, info in meta["partitions"].items():
            texts = tuple(json.loads((d / f"{group}.rows.json").read_text(encoding="utf-8")))
            try:
                index = VectorIndex.load(d / f"{group}.faiss", info["index"], spec)
            except IndexNeedsFaiss:
                log.warning("%s: the %s index is %s, which needs FAISS; re-encoding its %d rows "
                            "into an exact index (pip install 'sparql-verifier[faiss]' reads it "
                            "as it is)", d, group, info["index"], len(texts))
                index = VectorIndex.build(encoder.encode(list(texts)), IndexSpec(kind="flat"))
            if index.ntotal != len(texts) or index.dim != encoder.dim:
                raise ValueError(f"{d}: {group} index has {index.ntotal} rows of dimension "
                                 f"{index.dim}, expected {len(texts)} rows of dimension "
                                 f"{encoder.dim} ({encoder.identity})")
            parts[group] = _Partition(texts, tuple(surface_key(t) for t in texts), index)
        return cls(table, encoder, MappingProxyType(parts), spec)

    # ------------------------------------------------------------------ look-up

    def __contains__(self, identifier: object) -> bool:
        return identifier in self.table

    def __len__(self) -> int:
        return len(self.table)

    def get(self, identifier: str) -> Symbol | None:
        """The symbol with this identifier, or ``None`` (not in the memory)."""
        return self.table.get(identifier)

    def search(self, texts: Sequence[str], *, kind: str | Kind | None = None, k: int = 5,
               exact_first: bool = True) -> list[list[Candidate]]:
        """Top-``k`` identifiers for each text.

        ``kind`` restricts the search to one group (``"item"`` also returns classes,
        ``"property"`` only properties); ``None`` searches both.  With ``exact_first`` an
        identical surface string (as label or alias) is always among the results with score
        1.0, even when an approximate index would miss it.
        """
        vecs = self.encoder.encode(list(texts))
        return self.search_vectors(vecs, texts, kind=kind, k=k, exact_first=exact_first)

    def search_vectors(self, vecs: np.ndarray, texts: Sequence[str] | None = None, *,
                       kind: str | Kind | None = None, k: int = 5,
                       exact_first: bool = True) -> list[list[Candidate]]:
        """As :meth:`search`, for already encoded texts (``texts`` only for ``exact_first``)."""
        groups = _groups(kind)
        n = len(vecs)
        found: list[dict[str, tuple[float, bool, str]]] = [{} for _ in range(n)]
        qkeys = [surface_key(t) for t in texts] if texts is not None else [None] * n
        for group in groups:
            part = self.partitions[group]
            scores, rows = part.index.search(vecs, min(k + 2, max(part.index.ntotal, 1)))
            for qi in range(n):
                for sc, row in zip(scores[qi], rows[qi]):
                    if row >= 0:
                        self._expand(found[qi], part.keys[row], float(sc), group)
                if exact_first and qkeys[qi] is not None:
                    self._expand(found[qi], qkeys[qi], 1.0, group)
        out = []
        for qi in range(n):
            qk = qkeys[qi]
            # ties: exact surface match, then label before alias, then the id prior
            ranked = sorted(found[qi].items(), key=lambda kv: (
                -round(kv[1][0], _SCORE_DECIMALS), surface_key(kv[1][2]) != qk, kv[1][1],
                id_rank(kv[0])))
            cands = []
            for ident, (score, via_alias, matched) in ranked[:k]:
                s = self.table.get(ident)
                assert s is not None
                cands.append(Candidate(ident, s.label, s.kind, min(score, 1.0), matched, via_alias))
            out.append(cands)
        return out

    def _expand(self, acc: dict[str, tuple[float, bool, str]], key: str, score: float,
                group: str) -> None:
        for i, is_label in self.table.by_surface.get(key, ()):
            s = self.table.symbols[i]
            if s.kind.group != group:
                continue
            prev = acc.get(s.id)
            cand = (score, not is_label, s.label if is_label else key)
            if prev is None or (round(score, _SCORE_DECIMALS), is_label) > (
                    round(prev[0], _SCORE_DECIMALS), not prev[1]):
                acc[s.id] = cand

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """Cosine similarity matrix between two lists of texts (with this memory's encoder)."""
        if not len(a) or not len(b):
            return np.zeros((len(a), len(b)), dtype=np.float32)
        va = self.encoder.encode(list(a))
        vb = self.encoder.encode(list(b))
        return va @ vb.T


def _groups(kind: str | Kind | None) -> tuple[str, ...]:
    if kind is None:
        return GROUPS
    if isinstance(kind, Kind):
        return (kind.group,)
    if kind in GROUPS:
        return (kind,)
    if kind == "class":
        return ("item",)
    raise ValueError(f"unknown kind {kind!r} (item, class, property or None)")


def _rows(table: SymbolTable, group: str) -> tuple[list[str], tuple[str, ...]]:
    texts: list[str] = []
    keys: list[str] = []
    seen: set[str] = set()
    for s in table:
        if s.kind.group != group:
            continue
        for name in s.names:
            key = surface_key(name)
            if key not in seen:
                seen.add(key)
                texts.append(name)
                keys.append(key)
    return texts, tuple(keys)
