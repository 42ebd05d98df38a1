"""The PGMR verification signal for a (question, SPARQL) pair.

For every KG identifier of the query (see :func:`verifier.pgmr.tokenizer.identifiers`):

* ``exists``: the identifier is in the memory (else it is a URI hallucination);
* ``kind_ok``: its kind fits the position (an item id under ``wdt:`` does not);
* ``support``: the best cosine between its label or aliases and a span of the question
  (word n-grams of up to ``max_span_words`` words), with that span and name;
* ``coverage``: which *words* of its best name the question contains
  (:func:`verifier.pgmr.evidence.match_names`: stems, long shared prefixes, optionally
  WordNet; plus whether the name's prepositions and the whole name occur);
* ``association`` and ``implicit`` (from training statistics,
  :class:`~verifier.pgmr.calibrate.Statistics`): how strongly the question's words go with
  this identifier in correct training queries, and how often it is used without being named;
* ``alternative``: the best *other* identifier of the same kind for the support span, and
  its score (reported for explanations and repair).

A logistic model per kind (:class:`~verifier.pgmr.calibrate.GroundingModel`) turns this
evidence into the identifier's ``score`` (the probability that it is right).  The query
also has to account for the question: an *unexplained* phrase is a maximal question phrase
that names some identifier of the memory (:func:`verifier.pgmr.evidence.mentions`) but whose
words no identifier (or string literal) of the query accounts for.  Its keyphraseness (how
often such a phrase is accounted for in correct training queries) is the chance that it was
meant as an identifier.  Replacing a right identifier by a plausible wrong one both adds an
unsupported identifier and leaves the phrase that named the right one unexplained ("male
population" answered with ``population``, "budget" answered with ``instance of``).  The
query score is::

    raw   = min(identifier scores) * (1 - max(keyphraseness of unexplained phrases))
    score = logistic(a * logit(raw) + b)

(:func:`combine`; ``a, b`` from Platt scaling on the training pairs, so that the score
estimates P(query right) when right and wrong queries are equally likely).

The score is 0 when an identifier is missing from the memory or of the wrong kind, and 1.0
for a query without identifiers.  The model is fitted by
:func:`~verifier.pgmr.estimate.estimate_priors` on training pairs; without priors the
built-in :data:`~verifier.pgmr.calibrate.DEFAULT_MODEL` is used with empty statistics.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from verifier.lexical import STOPWORDS, words_of
from verifier.pgmr.calibrate import (DEFAULT_MODEL, EMPTY_STATISTICS, GroundingModel,
                                     Statistics, SupportPriors, logistic)
from verifier.pgmr.evidence import (Mention, MentionIndex, NameMatch, QuestionTerms,
                                    covered_keys, match_names, mentions, question_words,
                                    unexplained_mentions)
from verifier.pgmr.memory import Memory
from verifier.namespaces import WIKIDATA_PREFIXES
from verifier.pgmr.tokenizer import Identifier, identifiers

if TYPE_CHECKING:  # pragma: no cover
    from verifier.lexical import WordNetRelations

__all__ = ["IdentifierSupport", "GroundingReport", "Unexplained", "IdEvidence",
           "PairEvidence", "grounding_signal", "grounding_signals", "grounding_decision",
           "question_spans", "pair_evidence", "id_features", "combine", "raw_score"]

_QWORD = re.compile(r"\w+(?:['’.\-]\w+)*")
MAX_NAMES = 32


class _FromEvidence:
    """A read-only attribute of :class:`IdentifierSupport` taken from its ``evidence``."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj, objtype=None):
        return self if obj is None else getattr(obj.evidence, self.name)


@dataclass(frozen=True, slots=True)
class IdentifierSupport:
    """Evidence for one identifier of the query (see the module docstring): its
    model-independent :class:`IdEvidence` (``evidence``; its fields ``id``, ``written``,
    ``kind``, ``label``, ``exists``, ``kind_ok``, ``support``, ``span`` and ``matched_name``
    and the ``coverage`` / ``lexical_name`` of its lexical match are readable here too) plus
    what the priors and the memory add: the best other identifier for the support span
    (``alternative*``), the ``expected`` support, the training statistics (``association``,
    ``implicit``) and ``score``, the model's probability that the identifier is right (0
    when it is missing or of the wrong kind)."""

    evidence: "IdEvidence"
    alternative: str | None = None
    alternative_label: str | None = None
    alternative_score: float = 0.0
    expected: float = 1.0
    score: float = 0.0
    association: float = 0.0
    implicit: float = 0.0

    # read through to the evidence (not dataclass fields: no annotation)
    id = _FromEvidence()
    written = _FromEvidence()
    kind = _FromEvidence()
    label = _FromEvidence()
    exists = _FromEvidence()
    kind_ok = _FromEvidence()
    support = _FromEvidence()
    span = _FromEvidence()
    matched_name = _FromEvidence()

    @property
    def coverage(self) -> float:
        """Share of the words of its best name that the question contains."""
        return float(self.evidence.match.coverage)

    @property
    def lexical_name(self) -> str | None:
        """The name that :attr:`coverage` refers to."""
        return self.evidence.match.name

    def to_dict(self) -> dict:
        """JSON-ready flat form (the attributes above, without the evidence internals)."""
        return {k: getattr(self, k) for k in _REPORTED}


_REPORTED = ("id", "written", "kind", "label", "exists", "kind_ok", "support", "span",
             "matched_name", "alternative", "alternative_label", "alternative_score",
             "expected", "score", "coverage", "lexical_name", "association", "implicit")


@dataclass(frozen=True, slots=True)
class Unexplained:
    """A question phrase that names some ``kind`` identifier of the memory but that no
    identifier or literal of the query accounts for; ``keyphraseness`` is how often such a
    phrase is accounted for in correct training queries."""

    text: str
    kind: str
    keyphraseness: float


@dataclass(frozen=True, slots=True)
class GroundingReport:
    """The grounding signal of one (question, SPARQL) pair.

    ``score`` in [0, 1] (1 = every identifier exists and is well supported by the question);
    ``hallucinated`` lists identifiers absent from the memory, ``wrong_kind`` those used in a
    position of the other kind; ``unexplained`` the question phrases the query leaves out.
    """

    question: str
    sparql: str
    identifiers: tuple[IdentifierSupport, ...]
    score: float
    hallucinated: tuple[str, ...]
    wrong_kind: tuple[str, ...]
    explanation: str
    unexplained: tuple[Unexplained, ...] = ()

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
            "pgmr_min_coverage": min((i.coverage for i in ids if i.exists), default=1.0),
            "pgmr_unexplained_item": max((u.keyphraseness for u in self.unexplained
                                          if u.kind == "item"), default=0.0),
            "pgmr_unexplained_property": max((u.keyphraseness for u in self.unexplained
                                              if u.kind == "property"), default=0.0),
        }

    def to_dict(self) -> dict:
        """JSON-ready form."""
        d = {f: getattr(self, f) for f in ("question", "sparql", "score", "hallucinated",
                                            "wrong_kind", "explanation")}
        d["identifiers"] = [i.to_dict() for i in self.identifiers]
        d["unexplained"] = [asdict(u) for u in self.unexplained]
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


# ------------------------------------------------------------------------------ evidence

@dataclass(frozen=True, slots=True)
class IdEvidence:
    """Model-independent evidence for one identifier occurrence (what
    :func:`pair_evidence` computes once and :class:`IdentifierSupport` reports): ``cosine``
    is the best cosine over spans with a content word (``support`` over all spans); ``match``
    the lexical match of its best name; ``role`` is ``qualifier`` for a property under ``pq:``,
    ``class`` for the object of ``instance of`` / ``subclass of``, else empty (such
    identifiers are often left implicit: "in 1969", "who")."""

    id: str
    written: str
    kind: str | None
    label: str | None
    exists: bool
    kind_ok: bool
    support: float
    span: str | None
    matched_name: str | None
    cosine: float
    match: NameMatch
    role: str = ""


@dataclass(frozen=True)
class PairEvidence:
    """Model-independent evidence for one pair: the identifiers, the question's words (for
    the association statistics), its mentions and the keys the query covers."""

    question: str
    sparql: str
    ids: tuple[IdEvidence, ...]
    words: frozenset[str]
    mentions: tuple[Mention, ...]
    covered: frozenset[str]

    def distinct(self) -> list[IdEvidence]:
        """The first occurrence of each identifier."""
        seen: dict[str, IdEvidence] = {}
        for ie in self.ids:
            seen.setdefault(ie.id, ie)
        return list(seen.values())


_NO_NAME = NameMatch(None, 0.0, 0, 0, 1.0, False)


def pair_evidence(pairs: Sequence[tuple[str, str]], memory: Memory, *,
                  max_span_words: int = 6,
                  wordnet: "WordNetRelations | None" = None) -> list[PairEvidence]:
    """Evidence for many pairs, in batches: question spans and names are encoded once."""
    enc = memory.encoder
    index = MentionIndex.for_memory(memory)
    questions = list(dict.fromkeys(q for q, _ in pairs))
    spans = {q: question_spans(q, max_span_words) for q in questions}
    content = {q: np.array([any(w not in STOPWORDS for w in words_of(s)) for s in spans[q]],
                           dtype=bool) for q in questions}
    flat = [s for q in questions for s in spans[q]]
    flat_vecs = enc.encode(flat) if flat else np.zeros((0, enc.dim), np.float32)
    span_vecs: dict[str, np.ndarray] = {}
    pos = 0
    for q in questions:
        span_vecs[q] = flat_vecs[pos:pos + len(spans[q])]
        pos += len(spans[q])
    terms = {q: QuestionTerms.of(q, wordnet) for q in questions}
    qwords = {q: question_words(q) for q in questions}
    qmentions = {q: tuple(mentions(terms[q], index)) for q in questions}

    parsed = [identifiers(sparql, known=memory.__contains__) for _, sparql in pairs]
    roles = [_roles(sparql, idents) for (_, sparql), idents in zip(pairs, parsed)]
    need: dict[tuple[str, str], None] = {}
    for (q, _), idents in zip(pairs, parsed):
        for ident in idents:
            if ident.id in memory:
                need.setdefault((q, ident.id), None)
    names_needed = list(dict.fromkeys(n for _, i in need for n in memory.get(i).names[:MAX_NAMES]))
    name_vecs = dict(zip(names_needed, enc.encode(names_needed))) if names_needed else {}
    cache: dict[tuple[str, str], tuple[float, int, str, float, NameMatch]] = {}
    for q, ident in need:
        names = memory.get(ident).names[:MAX_NAMES]
        match = match_names(terms[q], names)
        sv = span_vecs[q]
        if not len(sv):
            cache[(q, ident)] = (0.0, -1, names[0], 0.0, match)
            continue
        sims = np.stack([name_vecs[n] for n in names]) @ sv.T
        ni, si = np.unravel_index(int(np.argmax(sims)), sims.shape)
        cmask = content[q]
        cos = float(sims[:, cmask].max()) if cmask.any() else 0.0
        cache[(q, ident)] = (float(sims[ni, si]), int(si), names[ni], max(0.0, min(1.0, cos)),
                             match)

    out = []
    for (q, sparql), idents, role in zip(pairs, parsed, roles):
        rows: list[IdEvidence] = []
        names_used: list[str] = []
        for ident, ident_role in zip(idents, role):
            sym = memory.get(ident.id)
            want = ident.kind
            if sym is None:
                rows.append(IdEvidence(ident.id, ident.token.text, want.group if want else None,
                                       None, False, False, 0.0, None, None, 0.0, _NO_NAME))
                continue
            names_used.extend(sym.names[:MAX_NAMES])
            kind_ok = want is None or sym.kind.group == want.group
            s, si, name, cos, match = cache[(q, ident.id)]
            rows.append(IdEvidence(ident.id, ident.token.text, sym.kind.group, sym.label, True,
                                   kind_ok, max(0.0, min(1.0, s)),
                                   spans[q][si] if si >= 0 else None,
                                   name if si >= 0 else None, cos, match, ident_role))
        out.append(PairEvidence(q, sparql, tuple(rows), qwords[q], qmentions[q],
                                covered_keys(names_used, sparql)))
    return out


_QUALIFIER_NS = WIKIDATA_PREFIXES["pq"]
_CLASS_PROPS = frozenset({"P31", "P279"})
_PATH_GAP = re.compile(r"[\s/*+?^|()]*")


def _roles(sparql: str, idents: Sequence[Identifier]) -> list[str]:
    """``qualifier`` / ``class`` / ``""`` for each identifier (see :class:`IdEvidence`)."""
    out = []
    prev = None
    for ident in idents:
        role = ""
        if ident.namespace == _QUALIFIER_NS:
            role = "qualifier"
        elif (prev is not None and prev.id in _CLASS_PROPS
              and _PATH_GAP.fullmatch(sparql[prev.token.end:ident.token.start])
              and ident.kind is not None and ident.kind.group == "item"):
            role = "class"
        out.append(role)
        prev = ident
    return out


def id_features(ie: IdEvidence, pe: PairEvidence, stats: Statistics) -> dict[str, float]:
    """The identifier features of the grounding model (``calibrate.ID_FEATURES``)."""
    m = ie.match
    return {
        "coverage": m.coverage,
        "cosine": ie.cosine,
        "prepositions": m.prepositions,
        "phrase": float(m.phrase),
        "matched": min(m.matched, 4) / 4.0,
        "unmatched": m.unmatched / m.keys if m.keys else 1.0,
        "association": stats.association_of(ie.id, pe.words),
        "implicit": stats.implicit_rate(ie.id, ie.kind),
        "usage": stats.usage(ie.id),
        "qualifier": float(ie.role == "qualifier"),
        "class_role": float(ie.role == "class"),
    }


def _unexplained(pe: PairEvidence, stats: Statistics) -> list[Unexplained]:
    out = []
    for group in ("item", "property"):
        for m in unexplained_mentions(pe.mentions, pe.covered, group):
            out.append(Unexplained(m.text, group, stats.keyphraseness(group, m.keys)))
    return out


def combine(id_scores: Sequence[float], unexplained: Sequence[Unexplained]) -> float:
    """The raw query score: the weakest identifier's score times the chance that the most
    telling unexplained phrase is not meant as an identifier (``1 - keyphraseness``)."""
    worst = max((u.keyphraseness for u in unexplained), default=0.0)
    return min(id_scores, default=1.0) * (1.0 - worst)


def raw_score(pe: PairEvidence, model: GroundingModel, stats: Statistics) -> float | None:
    """:func:`combine` for one pair's evidence; ``None`` when an identifier is missing or of
    the wrong kind, or the query has none."""
    scores = []
    for ie in pe.distinct():
        if not (ie.exists and ie.kind_ok and ie.kind in model.identifier):
            return None
        scores.append(logistic(model.identifier[ie.kind].logit(id_features(ie, pe, stats))))
    return combine(scores, _unexplained(pe, stats)) if scores else None


# ------------------------------------------------------------------------------ reports

def _explain(ids: Sequence[IdentifierSupport], unexplained: Sequence[Unexplained],
             score: float) -> str:
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
            msg = (f"{i.written} ({i.label!r}): {i.score:.2f}, "
                   + (f"words {i.coverage:.0%} in the question via {i.lexical_name!r}"
                      if i.lexical_name and i.coverage > 0 else "no name in the question")
                   + f", support {i.support:.2f}"
                   + (f" from {i.span!r}" if i.span else ""))
            if i.coverage < 0.5 and (i.implicit >= 0.5 or i.association >= 0.3):
                msg += " (often left implicit)"
            if i.alternative and i.alternative_score > i.support:
                msg += (f"; {i.alternative} ({i.alternative_label!r}) fits that span better "
                        f"({i.alternative_score:.2f})")
            parts.append(msg)
    strong = sorted((u for u in unexplained if u.keyphraseness >= 0.5),
                    key=lambda u: -u.keyphraseness)
    if strong:
        parts.append("the query does not account for "
                     + ", ".join(f"{u.text!r} (a {u.kind} name)" for u in strong[:3]))
    return f"grounding score {score:.2f}: " + "; ".join(parts)


def grounding_signals(pairs: Sequence[tuple[str, str]], memory: Memory, *,
                      priors: SupportPriors | None = None, max_span_words: int = 6,
                      wordnet: "WordNetRelations | None" = None) -> list[GroundingReport]:
    """Grounding reports for many (question, sparql) pairs, computed in batches (question
    spans are encoded once per question, alternatives searched in one call per kind).

    ``wordnet`` adds WordNet synonyms to the lexical match (give the same to
    :func:`~verifier.pgmr.estimate.estimate_priors`).  Raises ``ValueError`` when
    ``priors`` were estimated with another encoder.
    """
    if priors is not None:
        priors.check_encoder(memory.encoder.identity)
    stats = priors.statistics if priors is not None else EMPTY_STATISTICS
    model = priors.grounding_model if priors is not None else DEFAULT_MODEL
    evidence = pair_evidence(pairs, memory, max_span_words=max_span_words, wordnet=wordnet)

    # alternatives for the reports: one batched search per kind group
    keys: dict[tuple[str, str], tuple[str, str | None]] = {}
    for pe in evidence:
        for ie in pe.ids:
            if ie.exists and ie.span is not None:
                keys.setdefault((pe.question, ie.id), (ie.kind or "item", ie.span))
    alt: dict[tuple[str, str], tuple[str | None, str | None, float]] = {}
    by_group: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for key, (group, _) in keys.items():
        by_group[group].append(key)
    for group, ks in by_group.items():
        texts = [keys[k][1] or "" for k in ks]
        for (q, i), cands in zip(ks, memory.search(texts, kind=group, k=3)):
            other = next((c for c in cands if c.id != i), None)
            alt[(q, i)] = (other.id, other.label, other.score) if other else (None, None, 0.0)

    reports = []
    for pe in evidence:
        rows: list[IdentifierSupport] = []
        for ie in pe.ids:
            if not ie.exists:
                rows.append(IdentifierSupport(ie))
                continue
            f = id_features(ie, pe, stats)
            exp = 1.0 if priors is None else priors.expected_support(ie.id, ie.kind)
            if ie.kind_ok and ie.kind in model.identifier:
                score = logistic(model.identifier[ie.kind].logit(f))
            else:
                score = 0.0
            a_id, a_label, a_score = alt.get((pe.question, ie.id), (None, None, 0.0))
            rows.append(IdentifierSupport(ie, a_id, a_label, float(a_score), float(exp),
                                          float(score), float(f["association"]),
                                          float(f["implicit"])))
        hall = tuple(dict.fromkeys(r.id for r in rows if not r.exists))
        wrong = tuple(dict.fromkeys(r.id for r in rows if r.exists and not r.kind_ok))
        unexp = _unexplained(pe, stats) if rows else []
        if not rows:
            overall = 1.0
        elif hall or wrong:
            overall = 0.0
        else:
            overall = model.calibrate(combine([r.score for r in rows], unexp))
        reports.append(GroundingReport(pe.question, pe.sparql, tuple(rows), float(overall),
                                       hall, wrong, _explain(rows, unexp, overall),
                                       tuple(unexp)))
    return reports


def grounding_signal(question: str, sparql: str, memory: Memory, *,
                     priors: SupportPriors | None = None, max_span_words: int = 6,
                     wordnet: "WordNetRelations | None" = None) -> GroundingReport:
    """The grounding report of one pair (see the module docstring)."""
    return grounding_signals([(question, sparql)], memory, priors=priors,
                             max_span_words=max_span_words, wordnet=wordnet)[0]


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
