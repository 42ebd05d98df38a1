"""The PGMR verification signal for a (question, SPARQL) pair.

For every KG identifier of the query (see :func:`verifier.pgmr.tokenizer.identifiers`):

* ``exists``: the identifier is in the memory (else it is a URI hallucination);
* ``kind_ok``: its kind fits the position (an item id under ``wdt:`` does not);
* ``support``: the best cosine between its label or aliases and a span of the question
  (word n-grams of up to ``max_span_words`` words), with that span and name;
* ``alternative``: the best *other* identifier of the same kind for that span, and its score.

Each identifier gets a score in [0, 1]::

    score = min(1, support / expected)      (0 if the id is missing or of the wrong kind)

where ``expected`` comes from :class:`~verifier.pgmr.calibrate.SupportPriors` (how well that
identifier is usually supported when it is right; 1.0 without priors, so the score is then
the raw support).  The overall grounding score is the minimum over the identifiers (1.0 for
a query without identifiers): one unsupported identifier is enough to make a query
suspicious.  The alternative is reported (for explanations and repair) but not used in the
score: on development data, penalizing spans that another identifier fits better lowered
the ROC AUC (function-word spans such as "of" or "has" match short property labels).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Sequence

import numpy as np

from verifier.pgmr.calibrate import SupportPriors
from verifier.pgmr.memory import Memory
from verifier.pgmr.tokenizer import identifiers

__all__ = ["IdentifierSupport", "GroundingReport", "grounding_signal", "grounding_signals",
           "grounding_decision", "question_spans"]

_QWORD = re.compile(r"\w+(?:['’.\-]\w+)*")
MAX_NAMES = 32


@dataclass(frozen=True, slots=True)
class IdentifierSupport:
    """Evidence for one identifier of the query (see the module docstring)."""

    id: str
    written: str
    kind: str | None
    label: str | None
    exists: bool
    kind_ok: bool
    support: float
    span: str | None
    matched_name: str | None
    alternative: str | None
    alternative_label: str | None
    alternative_score: float
    expected: float
    score: float


@dataclass(frozen=True, slots=True)
class GroundingReport:
    """The grounding signal of one (question, SPARQL) pair.

    ``score`` in [0, 1] (1 = every identifier exists and is well supported by the question);
    ``hallucinated`` lists identifiers absent from the memory, ``wrong_kind`` those used in a
    position of the other kind.
    """

    question: str
    sparql: str
    identifiers: tuple[IdentifierSupport, ...]
    score: float
    hallucinated: tuple[str, ...]
    wrong_kind: tuple[str, ...]
    explanation: str

    @property
    def flagged(self) -> bool:
        """Some identifier does not exist in the memory or has the wrong kind."""
        return bool(self.hallucinated or self.wrong_kind)

    @property
    def weakest(self) -> IdentifierSupport | None:
        """The identifier with the lowest score."""
        return min(self.identifiers, key=lambda i: i.score, default=None)

    def features(self) -> dict[str, float]:
        """Flat numeric features for a stacked verifier (prefix ``pgmr_``)."""
        ids = self.identifiers
        items = [i for i in ids if i.kind == "item"]
        props = [i for i in ids if i.kind == "property"]
        return {
            "pgmr_score": self.score,
            "pgmr_hallucinated": float(len(self.hallucinated)),
            "pgmr_wrong_kind": float(len(self.wrong_kind)),
            "pgmr_n_ids": float(len(ids)),
            "pgmr_min_item_score": min((i.score for i in items), default=1.0),
            "pgmr_min_property_score": min((i.score for i in props), default=1.0),
            "pgmr_mean_support": float(np.mean([i.support for i in ids])) if ids else 1.0,
            "pgmr_min_support": min((i.support for i in ids), default=1.0),
            "pgmr_max_alternative_gap": max((max(0.0, i.alternative_score - i.support)
                                             for i in ids), default=0.0),
        }

    def to_dict(self) -> dict:
        """JSON-ready form."""
        d = asdict(self)
        d["flagged"] = self.flagged
        return d


def question_spans(question: str, max_words: int = 6) -> list[str]:
    """Contiguous word n-grams (1..``max_words`` words) of the question, as written."""
    toks = [(m.start(), m.end()) for m in _QWORD.finditer(question)]
    out: dict[str, None] = {}
    for i in range(len(toks)):
        for j in range(i, min(i + max_words, len(toks))):
            out.setdefault(question[toks[i][0]:toks[j][1]], None)
    return list(out)


def _explain(ids: Sequence[IdentifierSupport], score: float) -> str:
    if not ids:
        return "no KG identifiers in the query"
    parts = []
    for i in ids:
        if not i.exists:
            parts.append(f"{i.written}: does not exist in the memory (hallucinated identifier)")
        elif not i.kind_ok:
            parts.append(f"{i.written} ({i.label!r}): a {i.kind} id in a position of the "
                         "other kind")
        else:
            msg = (f"{i.written} ({i.label!r}): support {i.support:.2f}"
                   + (f" from {i.span!r}" if i.span else "")
                   + (f" (usually {i.expected:.2f})" if i.expected < 1.0 else ""))
            if i.alternative and i.alternative_score > i.support:
                msg += (f"; {i.alternative} ({i.alternative_label!r}) fits that span better "
                        f"({i.alternative_score:.2f})")
            parts.append(msg)
    return f"grounding score {score:.2f}: " + "; ".join(parts)


def grounding_signals(pairs: Sequence[tuple[str, str]], memory: Memory, *,
                      priors: SupportPriors | None = None,
                      max_span_words: int = 6) -> list[GroundingReport]:
    """Grounding reports for many (question, sparql) pairs, computed in batches (question
    spans are encoded once per question, alternatives searched in one call per kind).

    Raises ``ValueError`` when ``priors`` were estimated with another encoder.
    """
    enc = memory.encoder
    if priors is not None:
        priors.check_encoder(enc.identity)
    questions = list(dict.fromkeys(q for q, _ in pairs))
    spans = {q: question_spans(q, max_span_words) for q in questions}
    flat = [s for q in questions for s in spans[q]]
    flat_vecs = enc.encode(flat) if flat else np.zeros((0, enc.dim), np.float32)
    span_vecs: dict[str, np.ndarray] = {}
    pos = 0
    for q in questions:
        span_vecs[q] = flat_vecs[pos:pos + len(spans[q])]
        pos += len(spans[q])

    parsed = [identifiers(sparql, known=memory.__contains__) for _, sparql in pairs]
    # support of every distinct (question, id) that exists
    need: dict[tuple[str, str], None] = {}
    for (q, _), idents in zip(pairs, parsed):
        for ident in idents:
            if ident.id in memory:
                need.setdefault((q, ident.id), None)
    names_needed = list(dict.fromkeys(n for _, i in need for n in memory.get(i).names[:MAX_NAMES]))
    name_vecs = dict(zip(names_needed, enc.encode(names_needed))) if names_needed else {}
    support: dict[tuple[str, str], tuple[float, int, str]] = {}
    for q, ident in need:
        sym = memory.get(ident)
        names = sym.names[:MAX_NAMES]
        sv = span_vecs[q]
        if not len(sv):
            support[(q, ident)] = (0.0, -1, names[0])
            continue
        sims = np.stack([name_vecs[n] for n in names]) @ sv.T
        ni, si = np.unravel_index(int(np.argmax(sims)), sims.shape)
        support[(q, ident)] = (float(sims[ni, si]), int(si), names[ni])
    # alternatives: one batched search per kind group
    alt: dict[tuple[str, str], tuple[str | None, str | None, float]] = {}
    by_group: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, (_, si, _) in support.items():
        if si >= 0:
            by_group[memory.get(key[1]).kind.group].append(key)
    for group, keys in by_group.items():
        vecs = np.stack([span_vecs[q][support[(q, i)][1]] for q, i in keys])
        texts = [spans[q][support[(q, i)][1]] for q, i in keys]
        results = memory.search_vectors(vecs, texts, kind=group, k=3)
        for (q, i), cands in zip(keys, results):
            other = next((c for c in cands if c.id != i), None)
            alt[(q, i)] = ((other.id, other.label, other.score) if other else (None, None, 0.0))

    reports = []
    for (q, sparql), idents in zip(pairs, parsed):
        rows: list[IdentifierSupport] = []
        for ident in idents:
            sym = memory.get(ident.id)
            want = ident.kind
            if sym is None:
                rows.append(IdentifierSupport(ident.id, ident.token.text,
                                              want.group if want else None, None, False, False,
                                              0.0, None, None, None, None, 0.0, 1.0, 0.0))
                continue
            kind_ok = want is None or sym.kind.group == want.group
            s, si, name = support[(q, ident.id)]
            a_id, a_label, a_score = alt.get((q, ident.id), (None, None, 0.0))
            s = max(0.0, min(1.0, s))
            exp = 1.0 if priors is None else priors.expected_support(ident.id, sym.kind.group)
            score = 0.0 if not kind_ok else min(1.0, s / exp)
            rows.append(IdentifierSupport(
                ident.id, ident.token.text, sym.kind.group, sym.label, True, kind_ok, s,
                spans[q][si] if si >= 0 else None, name if si >= 0 else None, a_id, a_label,
                float(a_score), float(exp), float(score)))
        overall = min((r.score for r in rows), default=1.0)
        hall = tuple(dict.fromkeys(r.id for r in rows if not r.exists))
        wrong = tuple(dict.fromkeys(r.id for r in rows if r.exists and not r.kind_ok))
        reports.append(GroundingReport(q, sparql, tuple(rows), float(overall), hall, wrong,
                                       _explain(rows, overall)))
    return reports


def grounding_signal(question: str, sparql: str, memory: Memory, *,
                     priors: SupportPriors | None = None,
                     max_span_words: int = 6) -> GroundingReport:
    """The grounding report of one pair (see the module docstring)."""
    return grounding_signals([(question, sparql)], memory, priors=priors,
                             max_span_words=max_span_words)[0]


def grounding_decision(rep: GroundingReport, threshold: float) -> tuple[str, float, dict]:
    """The PGMR signal's decision for a report: ``abstain`` when the query names no KG
    identifier, ``reject`` (score 0) when an identifier does not exist or has the wrong kind,
    else ``accept`` when the grounding score reaches ``threshold``; with JSON-ready details."""
    details = {"score": rep.score, "hallucinated": list(rep.hallucinated),
               "wrong_kind": list(rep.wrong_kind), "explanation": rep.explanation[:2000],
               "features": rep.features()}
    if not rep.identifiers:
        return "abstain", 0.5, details
    if rep.flagged:
        return "reject", 0.0, details
    score = float(min(1.0, max(0.0, rep.score)))
    return ("accept" if score >= threshold else "reject"), score, details
