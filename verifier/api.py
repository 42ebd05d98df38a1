"""The public entry point: ``verify(question, sparql) -> Verdict``.

>>> from verifier import verify
>>> v = verify("What is the mass of benzene?", "SELECT ?v WHERE { wd:Q2270 wdt:P2067 ?v }")
>>> v.decision, v.deductive.verdict            # doctest: +SKIP
('accept', 'faithful')

A :class:`Verifier` holds the warm state (axiom pack, KG labels, WordNet relations, the MRS
source, parsers) and is what long-running callers (``verifier audit``) keep; :func:`verify`
uses one shared default instance per configuration.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Protocol, Sequence

from verifier.axioms import Pack, load_pack
from verifier.config import Config, load_config
from verifier.confidence import (CONFIDENCE_MODES, deductive_decision, deductive_score, default_model,
                                 load_model)
from verifier.consensus import (DEFAULT_BUDGET, DEFAULT_MAX_REPRESENTATIVES, Clustering,
                                ConsensusEvidence, EquivalenceCache, cluster_parsed,
                                consensus_evidence, consensus_sentence, normalise,
                                with_answers, with_verdicts)
from verifier.deductive import DeductiveResult, check_readings
from verifier.deductive.rules import rules_for
from verifier.deductive.checks import enabled_checks
from verifier.grounding import Grounder, query_symbols
from verifier.grounding.associations import configured_associations
from verifier.identity import forget_per_pair
from verifier.lexical import LabelIndex, WordNetRelations
from verifier.runtime import freeze_setting, settle
from verifier.mrs_cache import grammar_family
from verifier.limits import Deadline, DeadlineExceeded, Limits

__all__ = ["verify", "verify_candidates", "Verdict", "Verifier", "CandidatesResult", "MrsSource",
           "DECISIONS", "deductive_evidence"]

log = logging.getLogger(__name__)

DECISIONS = ("accept", "reject", "abstain")


class MrsSource(Protocol):
    """Where the MRS readings of a question come from (see :class:`verifier.mrs_cache.MrsProvider`:
    corpora, then the SQLite cache, then ACE)."""

    def readings(self, question: str) -> list[str] | None:
        """SimpleMRS strings of the question, ``[]`` when the parser found none, ``None``
        when the source does not know the question."""


@dataclass(frozen=True)
class Verdict:
    """The decision about one (question, sparql) pair.

    ``decision``: accept / reject / abstain; ``score``: probability-like confidence that the
    query is faithful to the question; ``explanation``: one readable paragraph;
    ``deductive``: the deductive result (links, proof, diagnosis); ``signals``: evidence of
    every signal that ran (``deductive``, later ``pgmr``, ``hdm``, ``execution``);
    ``error``: why nothing could be decided (malformed SPARQL, empty question ...);
    ``timings``: milliseconds per stage.
    """

    decision: str
    score: float
    explanation: str
    question: str
    sparql: str
    deductive: DeductiveResult | None = None
    signals: Mapping[str, Any] = field(default_factory=dict)
    error: str | None = None
    timings: Mapping[str, float] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """The deductive verdict (faithful, weaker, unsupported, intent_mismatch, unknown)."""
        return self.deductive.verdict if self.deductive is not None else "unknown"

    @property
    def rules(self) -> tuple[str, ...]:
        """The rewrite rules that changed the reading the verdict rests on (its best reading),
        in the order they fired: corrections of the parse and the view it was read in."""
        ded = self.deductive
        return ded.best.rules if ded is not None and ded.best is not None else ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable summary."""
        d: dict[str, Any] = {
            "decision": self.decision, "score": round(self.score, 4), "verdict": self.verdict,
            "explanation": self.explanation, "question": self.question, "sparql": self.sparql,
            "error": self.error, "timings_ms": {k: round(v, 2) for k, v in self.timings.items()},
        }
        ded = self.deductive
        if ded is not None and ded.best is not None:
            b = ded.best
            d["deductive"] = {
                "verdict": ded.verdict, "reason": ded.reason, "reading": b.reading_index,
                "intent": b.intent, "intent_ok": b.intent_ok,
                "question_logic": b.question_formula,
                "links": [{"words": l.unit.text or l.unit.lemma, "predicate": l.unit.pred,
                           "symbol": l.symbol.symbol, "name": l.name, "score": round(l.score, 3),
                           "source": l.source, "confidence": round(l.confidence, 3),
                           "why": l.reason, "axioms": [a.name for a in l.axioms]} for l in b.links],
                "proof": {"status": b.soundness.status if b.soundness else None,
                          "premises_used": list(b.axioms_used),
                          "countermodel": b.soundness.countermodel if b.soundness else ""},
                "unsupported_atoms": [{"atom": x.atom, "why": x.explanation} for x in b.diagnosis if not x.entailed],
                "missing": list(b.missing),
                "rules": list(b.rules),
            }
        elif ded is not None:
            d["deductive"] = {"verdict": ded.verdict, "reason": ded.reason}
        d["signals"] = {k: v for k, v in self.signals.items() if k != "deductive"}
        return d


@dataclass(frozen=True)
class CandidatesResult:
    """The outcome of :meth:`Verifier.verify_candidates`: one :class:`Verdict` per candidate
    (in candidate order, each with ``signals["consensus"]``), the :class:`Clustering` of the
    candidates and each candidate's :class:`ConsensusEvidence`."""

    question: str
    verdicts: tuple[Verdict, ...]
    clustering: Clustering
    evidence: tuple[ConsensusEvidence, ...]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable summary."""
        return {"question": self.question, "clustering": self.clustering.to_dict(),
                "verdicts": [v.to_dict() for v in self.verdicts]}


class Verifier:
    """Warm verification state; call :meth:`verify` many times.

    Arguments override the configuration: ``pack`` (axiom pack), ``labels`` (KG labels),
    ``mrs`` (an :class:`MrsSource`), ``wordnet`` (relations), ``ace`` (a parser object with
    ``parse(question) -> list[str]`` used when the MRS source does not know a question).
    """

    def __init__(self, config: Config | None = None, *, pack: Pack | None = None,
                 labels: LabelIndex | None = None, mrs: MrsSource | None = None,
                 wordnet: WordNetRelations | None = None, ace: Any = None) -> None:
        self.config = config or load_config()
        cfg = self.config
        if pack is None:
            from verifier.axioms import default_pack_dirs, optional_pack_dirs

            extra = cfg.get("axioms", "dirs", []) or []
            extra = list(extra) if isinstance(extra, list) else [extra]
            # optional packs shipped with the axioms (axioms/packs/<name>), off unless named
            named = cfg.get("axioms", "packs", []) or []
            extra = [*optional_pack_dirs(named if isinstance(named, list) else [named]), *extra]
            pack = load_pack(default_pack_dirs(extra))
        self.pack = pack
        if labels is None:
            from verifier.labels.configured import configured_labels

            labels = configured_labels(cfg)  # a labels TSV, a label store, or none
        self.labels = labels
        if wordnet is None:
            configured = cfg.get("grounding", "wordnet")
            wpath = WordNetRelations.default_path(configured if configured is None else str(configured))
            if wpath is not None and wpath.is_file():
                wordnet = WordNetRelations.load(wpath)
            elif wpath is not None:
                raise FileNotFoundError(f"[grounding] wordnet: no WordNet table at {wpath} "
                                        "(verifier setup wordnet --out PATH builds one)")
        self.wordnet = wordnet
        disabled = cfg.get("grounding", "disabled_sources", ()) or ()
        self.grounder = Grounder(self.pack, self.labels, self.wordnet,
                                 disabled_sources=[disabled] if isinstance(disabled, str) else disabled,
                                 associations=configured_associations(cfg.get("grounding", "associations")))
        if mrs is None:
            from verifier.mrs_cache import MrsProvider

            mrs = MrsProvider.from_config(cfg)
        self.mrs = mrs
        self.ace = ace
        from parsers.sparql import warm_up

        warm_up()  # build the SPARQL parser now, not on the first query
        # input sizes refused up front and the deadline of one pair (docs/configuration.md)
        self.limits = Limits.from_config(cfg)
        self.max_readings = int(cfg.get("deductive", "max_readings", 5))
        self.timeout_ms = int(cfg.get("deductive", "timeout_ms", 2000))
        self.budget_ms = float(cfg.get("deductive", "budget_ms", 30000))
        # the downgrade checks left out by name (verifier.deductive.checks; docs/configuration.md)
        self.checks = enabled_checks(cfg.get("deductive", "disabled_checks", ()) or ())
        # readings of a few fixed question shapes next to the grammar's (parsers.mrs.patterns)
        self.patterns = bool(cfg.get("deductive", "patterns", True))
        # which question shapes run (axioms/shapes, docs/shapes.md): names, families or files
        self.shapes = cfg.get("deductive", "shapes", None)
        self.disabled_shapes = cfg.get("deductive", "disabled_shapes", ())
        if self.patterns:
            from parsers.mrs.shapes import engine_for

            self.shape_engine = engine_for(self.shapes, self.disabled_shapes)
        else:
            self.shape_engine = None
        # multiword names of the query's items read as one name (parsers.mrs.chunk)
        self.chunk_names = bool(cfg.get("deductive", "chunk_names", True))
        # the deductive score: the proof confidence model's probability, or the old table
        # (verifier.confidence, docs/confidence.md); faithful verdicts below accept_threshold
        # abstain (none by default: the verdicts decide)
        self.confidence = str(cfg.get("deductive", "confidence", "model"))
        if self.confidence not in CONFIDENCE_MODES:
            raise ValueError(f"[deductive] confidence must be one of {CONFIDENCE_MODES}, not {self.confidence!r}")
        model_path = cfg.get("deductive", "confidence_model")
        self.confidence_model = (load_model(model_path) if model_path else default_model()) \
            if self.confidence == "model" else None
        threshold = cfg.get("deductive", "accept_threshold")
        self.accept_threshold = float(threshold) if threshold is not None else None
        # the rewrite rules of the question's readings (axioms/rewrites, docs/axioms.md "Rewrite
        # rules"): those disabled by name; the stand-in grammar's repairs ("auto": only on
        # readings of the stand-in grammar); a folder of rules of one's own
        disabled = cfg.get("rewrite", "disabled_rules", ()) or ()
        self.disabled_rules = frozenset([disabled] if isinstance(disabled, str) else map(str, disabled))
        self.standin_repairs = _standin_setting(cfg.get("rewrite", "standin_repairs", "auto"))
        self._standin_of: dict[str, bool] = {}  # standin_repairs_for, by grammar identity
        own = cfg.get("rewrite", "rules", None) or []
        own = [own] if isinstance(own, (str, Path)) else list(own)
        # the rules with and without the stand-in grammar's repairs (checked once, here)
        self.rules = {standin: rules_for(standin, self.disabled_rules, own) for standin in (True, False)}
        # the stacked verifier (verifier.stacking), when the configuration names a model
        # candidate sets (verify_candidates): prover budget per check, compared normal forms,
        # and the cache of equivalence checks kept across questions
        self.consensus_budget = int(cfg.get("consensus", "budget", DEFAULT_BUDGET))
        self.consensus_max = int(cfg.get("consensus", "max_representatives", DEFAULT_MAX_REPRESENTATIVES))
        self.consensus_cache = EquivalenceCache(int(cfg.get("consensus", "cache_size", 100_000)))
        # (the shipped default model unless [stacking] model names another or "none")
        self.stacker = None
        from verifier.stacking.default import model_setting

        if model_setting(cfg) is not None:
            from verifier.stacking.runtime import StackedRuntime

            self.stacker = StackedRuntime.from_config(cfg)
        # what loading left alive is moved out of the garbage collector's view, so that a full
        # collection does not walk the label index inside some pair (verifier.runtime)
        if freeze_setting(cfg.get("runtime", "freeze_loaded")):
            settle()

    # ------------------------------------------------------------------
    def readings(self, question: str) -> tuple[list[str] | None, str, str | None]:
        """MRS readings of a question, where they came from (or why there are none), and the
        identity of the grammar that produced them (``None`` when unknown; its family is
        :func:`verifier.mrs_cache.grammar_family`)."""
        lookup = getattr(self.mrs, "lookup", None)
        if lookup is not None:
            res = lookup(question)
            if res.status in ("ok", "no-parse"):
                return list(res.readings), res.source, res.grammar
            return None, res.message or res.status, None
        r = self.mrs.readings(question) if self.mrs is not None else None
        if r is not None:
            return r, "mrs source", getattr(self.mrs, "grammar", None)
        if self.ace is not None:
            try:
                return list(self.ace.parse(question)), "ace", getattr(self.ace, "grammar_id", None)
            except Exception as e:  # a crashing parser never loses the record
                log.warning("ACE failed on %r: %s", question[:80], e)
                return None, f"ACE failed: {e}", None
        return None, "no MRS for this question and no ACE configured", None

    def standin_repairs_for(self, grammar: str | None) -> bool:
        """Whether the rules that repair the stand-in ERG image's defects (``grammars:
        standin``) apply to readings of ``grammar`` (an identity; ``None`` when no grammar
        produced them: pattern readings alone, or a source that names none): ``[rewrite]
        standin_repairs``, which ``auto`` answers with the grammar's family
        (:func:`verifier.mrs_cache.grammar_family`): on for the stand-in (``erg-standin``) and
        for readings of no grammar, off for any other grammar."""
        if self.standin_repairs != "auto":
            return bool(self.standin_repairs)
        if not grammar:
            return True
        # asked per pair: the family (which the MRS cache may look up in its database) once
        # per identity
        if (known := self._standin_of.get(grammar)) is not None:
            return known
        family = getattr(self.mrs, "family", None)
        fam = family(grammar) if callable(family) else grammar_family(grammar)
        self._standin_of[grammar] = fam == "erg-standin"
        return fam == "erg-standin"

    def _chunked(self, question: str, query, readings: Sequence) -> list:
        """The grammar's readings (read by :func:`_read_mrs`) with the multiword names of the
        query's items that the question writes word for word read as one name, and those with
        the lower-case words read as names read as nouns (:mod:`parsers.mrs.chunk`), and those
        with a relative clause the parse left without a head attached to the noun written
        right before it (:func:`parsers.mrs.translate.relatives_on_nouns`); only the readings
        that change."""
        from parsers.mrs.chunk import chunk_names, common_words, name_spans
        from parsers.mrs.structure import Mrs
        from parsers.mrs.translate import relatives_on_nouns

        names = [n.name for s in query_symbols(query) if s.kind == "item"
                 for n in self.labels.names.get(s.id, ())]
        spans = name_spans(question, names)
        steps = [lambda m: chunk_names(m, spans, question)] if spans else []
        steps.append(lambda m: common_words(m, question))
        steps.append(lambda m: relatives_on_nouns(m, question))
        out = []
        for m in readings:
            if not isinstance(m, Mrs):
                continue  # unreadable: the translator reports it
            for step in steps:
                try:
                    c = step(m)
                except Exception as e:  # an odd reading is left as it is
                    log.debug("no chunking of a reading of %r: %s", question[:80], e)
                    continue
                if c is not None:
                    out.append(c)
        return out

    def verify(self, question: str, sparql: str, *, signals: Sequence[str] | None = None,
               model: str | None = None) -> Verdict:
        """Verify one pair; never raises for bad input (the verdict says what was wrong).
        ``model``: which model generated the query, when known (kept in
        ``signals["provenance"]``; the HDM signal runs only on queries of the model whose
        internals it reads, ``[hdm] model_name``)."""
        from parsers.sparql import SparqlError, parse_query

        t0 = time.perf_counter()
        extra = {"provenance": {"model": str(model)}} if model is not None else {}
        deadline = self.limits.deadline()
        refused = self._refusal(question, sparql)
        if refused is not None:  # refused before anything is parsed
            v = refused
        else:
            try:
                query = parse_query(sparql)
            except SparqlError as e:
                v = _unparsable(question, sparql, str(e), "syntax" in type(e).__name__.lower(), t0)
            except RecursionError:  # nesting deeper than the parser goes
                v = _unparsable(question, sparql, "the query nests too deeply to be read", False, t0)
            else:
                try:
                    v = self._deductive(question, sparql, query, t0, deadline)
                finally:  # the pair's memos (verifier.identity.per_pair) keep none of it alive
                    forget_per_pair()
                return self._stacked(dataclasses.replace(v, signals={**v.signals, **extra}), query, signals)
        return dataclasses.replace(v, signals={**v.signals, **extra}) if extra else v

    def _refusal(self, question: Any, sparql: Any) -> Verdict | None:
        """The abstention of a pair refused before anything is parsed (an empty question or
        query, or one over ``[limits]``), else None."""
        if not isinstance(question, str) or not question.strip():
            return _abstain(question, sparql, "the question is empty")
        if not isinstance(sparql, str) or not sparql.strip():
            return _abstain(question, sparql, "the query is empty")
        over = self.limits.input_problem(question, sparql)
        return _abstain(question, sparql, over) if over is not None else None

    def _stacked(self, verdict: Verdict, query: Any, signals: Sequence[str] | None) -> Verdict:
        """The stacked decision when a stacking model is configured (and ``signals`` allows
        it), else the deductive verdict as it is.  Evidence already in ``verdict.signals``
        (``consensus`` of :meth:`verify_candidates`, ``provenance``) is there when
        ``stacker.decide`` reads it."""
        if self.stacker is not None and (signals is None or "stacked" in signals):
            return self.stacker.decide(verdict, query)
        return verdict

    def verify_candidates(self, question: str, sparqls: Sequence[Any],
                          scores: Sequence[float | None] | None = None,
                          provenance: Sequence[str | None] | str | None = None, *,
                          signals: Sequence[str] | None = None,
                          model: Sequence[str | None] | str | None = None) -> CandidatesResult:
        """Verify several candidate queries for one question (beams, samples, several
        models): one verdict per candidate plus the clusters of equivalent candidates
        (:mod:`verifier.consensus`).  Each query is parsed once; each distinct normal form
        (with its provenance) is verified once and its duplicates share the verdict (with
        their own ``sparql``).  Every verdict carries ``signals["consensus"]`` (set before a
        configured stacker decides) and its explanation gains a sentence on how its cluster
        differs from the largest other one; the consensus evidence includes each cluster's
        deductive evidence (:func:`verifier.consensus.with_verdicts`: the deductive verdicts
        of every candidate are computed first).  ``scores``: the generator's score of each
        candidate (probabilities or log-probabilities, see
        :mod:`verifier.consensus.evidence`); ``provenance``: which model generated each
        candidate (one name for all, or one per candidate), kept in
        ``signals["provenance"]``; ``model`` is the same, by the name :meth:`verify` uses.
        Never raises for bad input."""
        if provenance is None:
            provenance = model
        sparqls = list(sparqls)
        n = len(sparqls)
        if scores is not None and len(scores) != n:
            raise ValueError(f"{len(scores)} scores for {n} candidates")
        if isinstance(provenance, str) or provenance is None:
            models: list[str | None] = [provenance] * n
        else:
            models = list(provenance)
            if len(models) != n:
                raise ValueError(f"{len(models)} provenance entries for {n} candidates")
        t0 = time.perf_counter()
        cands = normalise(sparqls)
        clustering = cluster_parsed(cands, budget=self.consensus_budget, cache=self.consensus_cache,
                                    max_representatives=self.consensus_max)
        evidence = consensus_evidence(clustering, scores, self.labels)
        # first the deductive verdict of every distinct candidate ...
        base_done: dict[tuple[str, str | None], Verdict] = {}
        base: list[Verdict] = []
        for c, source in zip(cands, models):
            shared = base_done.get((c.key, source)) if c.key is not None else None
            if shared is not None:
                base.append(shared)
                continue
            t1 = time.perf_counter()
            refused = self._refusal(question, c.text)
            if refused is not None:
                v = refused
            elif c.query is None:
                v = _unparsable(question, c.text, c.error or "", c.syntax, t1)
            else:
                v = self._deductive(question, c.text or "", c.query, t1)  # its own deadline
            if c.key is not None:
                base_done[(c.key, source)] = v
            base.append(v)
        # ... then each cluster's deductive evidence joins the consensus the stacker reads
        evidence = with_verdicts(evidence, [v.decision for v in base], [v.score for v in base])
        # ... and, with a knowledge graph, which candidates returned the same answers
        executions = self._execute_candidates(cands, signals)
        if executions is not None:
            evidence = with_answers(evidence, executions)
        done: dict[tuple[str, str | None], Verdict] = {}
        out: list[Verdict] = []
        for i, (c, ev, source, v) in enumerate(zip(cands, evidence, models, base)):
            extra = {"consensus": ev.to_dict()}
            if executions is not None and executions[i] is not None:
                extra["execution"] = executions[i]
            if source is not None:
                extra["provenance"] = {"model": source}
            shared = done.get((c.key, source)) if c.key is not None else None
            if shared is not None:
                out.append(dataclasses.replace(shared, sparql=c.text))
                continue
            v = dataclasses.replace(v, signals={**v.signals, **extra})
            if c.query is not None:
                v = self._stacked(v, c.query, signals)
            sentence = consensus_sentence(ev)
            sep = "\n" if "\n" in v.explanation else " "
            v = dataclasses.replace(v, explanation=f"{v.explanation.rstrip()}{sep}{sentence}" if sentence
                                    else v.explanation, signals={**v.signals, **extra},
                                    timings={**v.timings, "consensus": clustering.time_ms})
            if c.key is not None:
                done[(c.key, source)] = v
            out.append(v)
        log.debug("verify_candidates: %d candidates, %d clusters in %.0f ms", n,
                  len(clustering.clusters), (time.perf_counter() - t0) * 1000)
        return CandidatesResult(question if isinstance(question, str) else "", tuple(out), clustering,
                                evidence)

    def _execute_candidates(self, cands: Sequence[Any],
                            signals: Sequence[str] | None) -> list[dict[str, Any] | None] | None:
        """Each parsed candidate's execution on the configured knowledge graph (a normal form
        runs once), or ``None`` when no stacker with an executor will decide."""
        executor = getattr(getattr(self.stacker, "suite", None), "executor", None)
        if executor is None or (signals is not None and "stacked" not in signals):
            return None
        ran: dict[str, dict[str, Any]] = {}
        out: list[dict[str, Any] | None] = []
        for c in cands:
            if c.query is None or not c.text:
                out.append(None)
                continue
            key = c.key if c.key is not None else c.text
            if key not in ran:
                ran[key] = executor.run(c.text).to_dict()
            out.append(ran[key])
        return out

    def _deductive(self, question: str, sparql: str, query: Any, t0: float,
                   deadline: Deadline | None = None) -> Verdict:
        """The deductive verdict of a question and a parsed query (``t0``: when the pair's
        verification started, for the timings; ``deadline``: the pair's, see
        :mod:`verifier.limits`: once passed, the pair abstains with the stage it reached)."""
        deadline = deadline if deadline is not None else self.limits.deadline()
        timings: dict[str, float] = {}
        try:
            deadline.check("sparql")
            ded = self._deductive_result(question, query, t0, deadline, timings)
        except DeadlineExceeded as e:
            log.warning("%s on %r", e.reason, question[:80])
            ded = DeductiveResult("unknown", e.reason, f"No decision: {e.reason}.", None)
        # where the time went, stage by stage (seconds of the deadline's clock, in ms)
        timings.update({f"stage:{k}": v * 1000 for k, v in deadline.spent.items()})
        timings["total"] = (time.perf_counter() - t0) * 1000
        score = deductive_score(ded, self.confidence, self.confidence_model)
        decision = deductive_decision(ded.verdict, score, self.accept_threshold)
        return Verdict(decision, score, ded.explanation, question, sparql, ded,
                       {"deductive": deductive_evidence(ded)}, None, timings)

    def _deductive_result(self, question: str, query: Any, t0: float, deadline: Deadline,
                          timings: dict[str, float]) -> DeductiveResult:
        """The deductive result of :meth:`_deductive` (``timings`` filled as it goes); raises
        :class:`DeadlineExceeded` when the deadline passes."""
        from parsers.mrs import translate_readings
        from parsers.mrs.patterns import pattern_readings

        timings["sparql"] = (time.perf_counter() - t0) * 1000
        ensure = getattr(self.labels, "ensure", None)
        if ensure is not None:  # a label store that fetches absent ids on demand
            from verifier.labels.ids import ids_in_query

            tl = time.perf_counter()
            try:
                ensure(ids_in_query(query))
            except Exception as e:  # never loses the record: absent ids stay unlabelled
                log.warning("label fetch for %r failed: %s", question[:80], e)
            timings["labels"] = (time.perf_counter() - tl) * 1000
        t1 = time.perf_counter()
        raw, origin, grammar = self.readings(question)
        raw = self.limits.kept_readings(raw)
        deadline.check("mrs")
        try:
            extra = (pattern_readings(question, self.shape_engine) if self.shape_engine is not None
                     else pattern_readings(question)) if self.patterns else []
        except DeadlineExceeded:
            raise
        except Exception:  # a bug in a shape must not lose the record: go on without them
            log.exception("pattern readings failed on %r", question[:80])
            extra = []
        deadline.check("patterns")
        timings["mrs"] = (time.perf_counter() - t1) * 1000
        t2 = time.perf_counter()
        if raw is None and not extra:
            ded = DeductiveResult("unknown", origin, f"No decision: {origin}.", None)
        else:
            try:
                # each reading read once, for its translation and for the chunking
                parsed = [_read_mrs(r) for r in raw or []]
                readings = translate_readings(parsed)
                # pattern readings are numbered after the grammar's
                first = [dataclasses.replace(r, reading_index=r.reading_index + len(raw or []))
                         for r in translate_readings(extra)]
                chunked = self._chunked(question, query, parsed) if raw and self.chunk_names else []
                first += [dataclasses.replace(r, reading_index=r.reading_index + len(raw) + len(extra))
                          for r in translate_readings(chunked)]
                timings["mrs_to_logic"] = (time.perf_counter() - t2) * 1000
                deadline.check("mrs_to_logic")
                t3 = time.perf_counter()
                ded = check_readings(question, query, readings, self.pack, self.grounder,
                                     max_readings=self.max_readings, timeout_ms=self.timeout_ms,
                                     budget_ms=self.budget_ms, first=first, checks=self.checks,
                                     rules=self.rules[self.standin_repairs_for(grammar)], deadline=deadline)
                if raw is None and ded.verdict != "faithful":
                    # pattern readings confirm a query; alone they do not refute one (on the
                    # LLM predictions without a grammar reading, their rejections were wrong
                    # 11 times out of 17, their acceptances right 5 times out of 5)
                    why = f"{origin}; the pattern readings do not prove the query ({ded.reason})"
                    ded = DeductiveResult("unknown", why, f"No decision: {why}.", ded.best,
                                          ded.readings, ded.time_ms)
                timings["deductive"] = (time.perf_counter() - t3) * 1000
            except DeadlineExceeded:
                raise
            except Exception as e:  # a bug must not lose the record: report it as undecided
                log.exception("internal error verifying %r", question[:80])
                ded = DeductiveResult("unknown", f"internal error: {type(e).__name__}: {e}",
                                      f"No decision: internal error ({type(e).__name__}).", None)
        return ded


def _standin_setting(value: Any) -> bool | str:
    """``[rewrite] standin_repairs``: ``"auto"``, or true / false (also written as strings)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "on", "yes", "1"):
        return True
    if text in ("false", "off", "no", "0", "none"):
        return False
    if text != "auto":
        raise ValueError(f"[rewrite] standin_repairs: 'auto', true or false, not {value!r}")
    return "auto"


def _read_mrs(reading: Any) -> Any:
    """A reading as a :class:`~parsers.mrs.structure.Mrs` when it can be read, else as given
    (the translator then reports why it cannot)."""
    from parsers.mrs.simplemrs import coerce_mrs

    try:
        return coerce_mrs(reading)
    except Exception:
        return reading


def deductive_evidence(ded: DeductiveResult) -> dict[str, Any]:
    """The deductive result as JSON-ready evidence (``Verdict.signals["deductive"]``): the
    verdict and reason, plus counts read by the stacked verifier (readings, atoms of the
    query, unsupported atoms, links, words of the question left out, grounded share,
    intent and whether it agrees, soundness proof status)."""
    out: dict[str, Any] = {"verdict": ded.verdict, "reason": ded.reason,
                           "n_readings": len(ded.readings)}
    b = ded.best
    if b is not None:
        out.update(reading=b.reading_index, intent=b.intent, intent_ok=bool(b.intent_ok),
                   n_atoms=len(b.diagnosis), n_unsupported=sum(1 for x in b.diagnosis if not x.entailed),
                   n_links=len(b.links), n_missing=len(b.missing),
                   grounded_share=float(b.grounded_share),
                   proof=b.soundness.status if b.soundness is not None else None,
                   passed=list(b.passed), min_link_confidence=round(b.min_link_confidence, 4),
                   total_link_confidence=round(b.total_link_confidence, 4))
        w = b.weakest_link
        if w is not None:
            out["weakest_link"] = {"words": w.unit.text or w.unit.lemma, "symbol": w.symbol.symbol,
                                   "source": w.source, "confidence": round(w.confidence, 4)}
    return out


def _unparsable(question: str, sparql: str, error: str, syntax: bool, t0: float) -> Verdict:
    """The verdict of a query that does not parse: reject a syntax error, abstain on an
    unsupported construct."""
    first = error.splitlines()[0] if error else "unreadable query"
    return Verdict("reject" if syntax else "abstain", 0.05 if syntax else 0.5,
                   f"The query cannot be checked: {first}", question, sparql,
                   error=error, timings={"total": (time.perf_counter() - t0) * 1000})


def _abstain(question: Any, sparql: Any, why: str) -> Verdict:
    return Verdict("abstain", 0.5, f"No decision: {why}.", question if isinstance(question, str) else "",
                   sparql if isinstance(sparql, str) else "", None, {}, why, {})


@lru_cache(maxsize=4)
def _default_verifier(config_key: str) -> Verifier:
    return Verifier(load_config(config_key or None))


def verify(question: str, sparql: str, *, config: Config | str | None = None,
           signals: Sequence[str] | None = None, model: str | None = None) -> Verdict:
    """Verify that ``sparql`` means what ``question`` asks.

    ``config`` is a :class:`~verifier.config.Config`, a path to a ``verifier.toml``, or None
    (the usual configuration files and environment variables).  The warm state is kept for
    the next call with the same configuration.  ``model``: which model generated the query
    (:meth:`Verifier.verify`).
    """
    if isinstance(config, Config):
        return Verifier(config).verify(question, sparql, signals=signals, model=model)
    return _default_verifier(str(config) if config else "").verify(question, sparql, signals=signals,
                                                                   model=model)


def verify_candidates(question: str, sparqls: Sequence[Any], scores: Sequence[float | None] | None = None,
                      provenance: Sequence[str | None] | str | None = None, *,
                      config: Config | str | None = None,
                      signals: Sequence[str] | None = None,
                      model: Sequence[str | None] | str | None = None) -> CandidatesResult:
    """Verify several candidate queries for one question (:meth:`Verifier.verify_candidates`);
    ``config`` as for :func:`verify` (the warm state and its cache of equivalence checks are
    kept for the next call with the same configuration)."""
    v = Verifier(config) if isinstance(config, Config) else _default_verifier(str(config) if config else "")
    return v.verify_candidates(question, sparqls, scores, provenance, signals=signals, model=model)
