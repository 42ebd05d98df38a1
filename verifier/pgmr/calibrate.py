"""Support priors: how well each identifier is usually supported by questions when it is right.

Structural properties (``instance of``, ``subclass of``, ``start time`` …) are rarely said in
a question, so their raw support is low even in correct queries.  :func:`estimate_priors`
measures, on correct (question, SPARQL) pairs from *training* data, the median support of each
identifier, shrunk towards the median of its kind (``shrinkage`` pseudo-observations)::

    expected(id) = (n * median_id + shrinkage * median_kind) / (n + shrinkage)

The grounding signal then scores an identifier ``min(1, support / expected(id))``.  Priors
depend on the encoder, so they record its identity and refuse to be used with another one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Mapping, Sequence

import numpy as np

__all__ = ["SupportPriors", "estimate_priors", "PRIORS_FILE"]

PRIORS_FILE = "priors.json"
_FORMAT = "sparql-verifier/pgmr-priors"
_VERSION = 1


@dataclass(frozen=True)
class SupportPriors:
    """Expected support per identifier (``expected[id] = (n, quantile)``) and per kind."""

    encoder: str
    expected: Mapping[str, tuple[int, float]] = field(repr=False)
    kind_default: Mapping[str, float]
    shrinkage: float = 3.0
    quantile: float = 0.5
    pairs: int = 0

    def expected_support(self, identifier: str, kind: str | None) -> float:
        """The support a correct use of ``identifier`` usually gets (in (0, 1])."""
        d = self.kind_default.get(kind or "", 1.0)
        n, q = self.expected.get(identifier, (0, 0.0))
        e = (n * q + self.shrinkage * d) / (n + self.shrinkage) if n + self.shrinkage else d
        return float(min(1.0, max(e, 0.05)))

    def check_encoder(self, identity: str) -> None:
        """Raise ``ValueError`` naming both encoders when they differ."""
        if identity != self.encoder:
            raise ValueError(f"support priors were estimated with encoder {self.encoder!r} "
                             f"but the memory uses {identity!r}; re-run calibration")

    def save(self, path: str | Path) -> None:
        """Write as JSON."""
        Path(path).write_text(json.dumps({
            "format": _FORMAT, "format_version": _VERSION, "encoder": self.encoder,
            "shrinkage": self.shrinkage, "quantile": self.quantile, "pairs": self.pairs,
            "kind_default": dict(self.kind_default),
            "expected": {k: [n, round(q, 5)] for k, (n, q) in sorted(self.expected.items())},
        }, indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> "SupportPriors":
        """Read a file written by :meth:`save` (``ValueError`` on a format mismatch)."""
        p = Path(path)
        if not p.is_file():
            raise FileNotFoundError(f"priors file not found: {p}")
        d = json.loads(p.read_text(encoding="utf-8"))
        if d.get("format") != _FORMAT or d.get("format_version") != _VERSION:
            raise ValueError(f"{p}: not a version-{_VERSION} PGMR priors file")
        return cls(d["encoder"], MappingProxyType({k: (int(n), float(q)) for k, (n, q) in
                                                  d["expected"].items()}),
                   MappingProxyType(dict(d["kind_default"])), float(d["shrinkage"]),
                   float(d["quantile"]), int(d.get("pairs", 0)))


def estimate_priors(pairs: Sequence[tuple[str, str]], memory, *, quantile: float = 0.5,
                    shrinkage: float = 3.0) -> SupportPriors:
    """Estimate priors from correct (question, sparql) pairs (training data, never the test
    split you evaluate on).  Identifiers absent from the memory are ignored."""
    from verifier.pgmr.signal import grounding_signals

    per_id: dict[str, list[float]] = {}
    per_kind: dict[str, list[float]] = {}
    for rep in grounding_signals(pairs, memory):
        seen: dict[str, float] = {}
        for i in rep.identifiers:
            if i.exists and i.kind_ok and i.kind:
                seen[i.id] = i.support
                per_kind.setdefault(i.kind, []).append(i.support)
        for k, s in seen.items():
            per_id.setdefault(k, []).append(s)
    kind_default = {k: float(np.quantile(v, quantile)) for k, v in per_kind.items()}
    expected = {k: (len(v), float(np.quantile(v, quantile))) for k, v in per_id.items()}
    return SupportPriors(memory.encoder.identity, MappingProxyType(expected),
                         MappingProxyType(kind_default), shrinkage, quantile, len(pairs))
