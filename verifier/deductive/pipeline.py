"""The deductive check of a pair, stage by stage: the query prepared once
(:mod:`.prepared`), then per reading its corrections (:mod:`.corrections`), grounding, the
proof problem (:mod:`.premises`, :mod:`.consequences`, :mod:`.alignment`), the proofs, the
checks and the verdict (:mod:`.checks`, :mod:`.decide`); the alternative views
(:mod:`.views`) while a reading proves nothing; the best reading chosen, diagnosed
(:mod:`.diagnose`) and explained (:mod:`.explain`).  See ``docs/architecture.md``.

Stage: the orchestrator, last (imports every stage, none imports it)."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from typing import Collection, Sequence

from verifier.axioms.model import Pack
from verifier.grounding import Grounder, Grounding
from verifier.intent import answers_a_number_of, intent_check, superlative_in_linked_name
from verifier.limits import Deadline
from verifier.logic import FALSE, TRUE, Exists, Formula, Literal, Not, atoms, conj, exists, free_vars
from verifier.prover import Premise, ProofResult, ProverContext, entails, refuted_in_chase, solver_budget
from verifier.query import Query
from verifier.deductive.results import VERDICT_ORDER, DeductiveResult, ReadingResult
from verifier.deductive.reading import conjuncts, recorded
from verifier.deductive.prepared import PreparedQuery, prepare_query
from verifier.deductive.rules import rules_for, views_for
from verifier.rewrite import RuleSet
from verifier.deductive.premises import closures_state_their_property
from verifier.deductive.consequences import answered_statements, t_kg, timed_statements
from verifier.deductive.alignment import aligned_pattern, alignment_claim, other_alignments
from verifier.deductive.problem import Problem, build_problem
from verifier.deductive.checks import Checks, CheckContext, context_of, with_proof
from verifier.deductive.decide import decided_by, faithful_reason, refuted_verdict
from verifier.deductive.diagnose import diagnose
from verifier.deductive.explain import explain

__all__ = ["CheckedReading", "RefutedProblem", "check_reading", "check_readings", "diagnosed"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RefutedProblem:
    """What the diagnosis of a refuted reading needs: the premises and the aligned ``G`` of its
    soundness proof, its grounding (kept so that the best reading is not checked again)."""

    premises: tuple[Premise, ...]
    g: Formula
    grounding: Grounding
    intent_ok: bool


@dataclass(frozen=True)
class CheckedReading:
    """The check of one reading (or view) and, when refuted, what its diagnosis needs."""

    result: ReadingResult
    refuted: RefutedProblem | None = None


def check_reading(question: str, reading, prepared: PreparedQuery, pack: Pack, grounder: Grounder,
                  background: list[Premise], timeout_ms: int,
                  context: ProverContext | None = None, rules: RuleSet | None = None,
                  deadline: Deadline | None = None, checks: Checks = Checks()) -> CheckedReading:
    """Check one translated reading (or a view of one) against the prepared query: build its
    proof problem, prove soundness (in each alignment of the answer columns until one
    proves), check the intent, prove completeness, run the checks in their precedence
    (``checks``: by default all those declared in :mod:`verifier.deductive.checks`).
    ``deadline`` (:mod:`verifier.limits`) is checked between the stages and by every proof;
    it raises :class:`verifier.limits.DeadlineExceeded` once passed."""
    budget = solver_budget(timeout_ms)
    spent: list[int] = []  # the solver work of each check (ProofResult.work)
    deadline = deadline if deadline is not None else Deadline.never()

    def prove(premises: Sequence[Premise], conclusion: Formula, **kwargs) -> ProofResult:
        r = entails(premises, conclusion, **budget, **kwargs, context=context, deadline=deadline)
        spent.append(r.work)
        return r

    problem = build_problem(question, reading, prepared, pack, grounder, background, rules, deadline)
    deadline.check("problem")
    query, reading, grounding = prepared.query, problem.reading, problem.grounding
    units, qualifiers = list(problem.units), list(problem.qualifiers)
    ctx = context_of(problem, grounder)
    sound, g, proof_premises, stated, answer_col, check = _soundness(problem, ctx, prove, checks, deadline)
    deadline.check("soundness")
    intent_ok, intent_reason, intent_by = _intent(problem, ctx, grounder, sound, answer_col, checks)
    deadline.check("intent")
    passed: list[str] = []
    if sound.status == "proved":
        # premises that contradict each other prove anything ("Edward VI of England ... Mary I
        # of England": the name "England" linked to both items); such a proof says nothing
        inconsistent = prove(list(problem.premises), FALSE, countermodel=False)
        if inconsistent.status == "proved":
            sound = ProofResult("unknown", "the reading's premises contradict each other ("
                                + ", ".join(inconsistent.used) + ")")
        else:
            passed += ["soundness", "consistency"]
    if intent_ok:
        passed.append("intent")
    n_units = sum(1 for u in units if u.kind not in ("abstract", "number"))
    linked_units = {id(l.unit) for l in grounding.links}
    share = (len({id(u) for u in units if id(u) in linked_units}) / n_units) if n_units else 0.0
    complete = None
    missing: tuple[str, ...] = ()
    refuted = None
    if sound.status == "proved":
        complete, missing, g = _completeness(problem, prove, g, stated, answer_col, units, qualifiers, grounder)
        # the checks, in their declared precedence; names a negation's KG reading accounts for
        # ("English" in "no English label") are explained
        explained = frozenset(str(a.args[1].lexical).casefold() for n in problem.negations for a in atoms(n)
                              if a.pred == "named" and len(a.args) == 2 and isinstance(a.args[1], Literal))
        decided = decided_by(with_proof(
            ctx, g=g, explained=explained, completeness=complete, missing=missing,
            intent_failure=None if intent_ok else intent_reason,
            entailed=lambda f: prove(proof_premises, f, countermodel=False).proved), checks.precedence)
        if complete is not None and complete.status == "proved":
            passed.append("completeness")
        if decided:
            check, verdict, reason = decided
            if check == "intent" and intent_by:  # the intent failure an intent check found
                check = intent_by
        else:
            passed.append("checks")
            verdict, reason = "faithful", faithful_reason(complete, getattr(reading, "note", ""), problem.qual_notes)
        deadline.check("checks")
    elif sound.status == "refuted":
        verdict, reason = refuted_verdict(intent_ok, intent_reason)
        if not intent_ok and intent_by and not check:
            check = intent_by
        refuted = RefutedProblem(problem.premises, g, grounding, intent_ok)
    else:
        verdict, reason = "unknown", f"the prover could not decide: {sound.reason}"
    result = ReadingResult(
        reading_index=getattr(reading, "reading_index", 0), verdict=verdict, reason=reason,
        question_formula=str(reading.formula), soundness=sound, completeness=complete,
        intent=reading.intent.kind, intent_ok=intent_ok, links=tuple(grounding.links),
        axioms_used=sound.used, diagnosis=(), missing=missing, grounded_share=share, work=sum(spent),
        check=check, rules=problem.rules,
        passed=tuple(passed),
    )
    return CheckedReading(result, refuted)


def _soundness(problem: Problem, ctx: CheckContext, prove, checks: Checks, deadline: Deadline | None = None):
    """The soundness proof: a check of ``checks.pre_proof`` that stands for it, else the proof
    in the first alignment, then in the others (:func:`other_alignments`) until one proves.
    Returns the proof, the ``G`` and premises of the proof that counts, what the question
    states (the reading, or the view that proved it), the answer's column and the name of the
    pre-proof check that stood for the proof ("" if none)."""
    query = problem.prepared.query
    premises, g, reading_view, t_index = list(problem.premises), problem.g, problem.reading_view, problem.t_index
    for c in checks.pre_proof:
        if (found := c.run(ctx)):
            return ProofResult(c.verdict, found), g, premises, problem.reading, 0, c.name
    proof_premises, stated, answer_col = premises, problem.reading, 0
    alternatives = [(view, order, aligned_pattern(view, query, problem.pattern, order, order_key=order_key))
                    for view, order, order_key in other_alignments(reading_view, query)]
    # one chase of the premises refutes most alignments at once, the first one's included:
    # an alignment that opens nouns of the reading is refuted by an assignment of them that
    # makes its view true and its G false (``forall opened. view -> G``); the others are
    # proved (or not) one by one as before
    elsewhere: set = set()
    if any(view is not reading_view for view, _, _ in alternatives):
        elsewhere = set().union(*(free_vars(p.formula) for i, p in enumerate(premises) if i != t_index))
    t_formula = premises[t_index].formula
    claims = [alignment_claim(view, g2, t_formula, elsewhere, view is reading_view) for view, _, g2 in alternatives]
    tried = [c for c in claims if c is not None]
    t0 = time.perf_counter()
    refuted = iter(refuted_in_chase(premises, [g, *tried], deadline=deadline) if tried else [False])
    if next(refuted):  # what the proof would find, without its chase of the premises it selects
        sound = ProofResult("refuted", "countermodel found", (), "", (time.perf_counter() - t0) * 1000)
    else:
        sound = prove(premises, g, countermodel=False)
    if sound.proved:
        return sound, g, proof_premises, stated, answer_col, ""
    for (view, order, g2), claim in zip(alternatives, claims):
        if claim is not None and next(refuted):
            continue
        prem2 = premises if view is reading_view else (
            premises[:t_index] + [Premise("T(question)", view.formula)] + premises[t_index + 1:])
        r2 = prove(prem2, g2, countermodel=False)
        if r2.proved:
            sound, g, proof_premises = r2, g2, prem2
            if view is not reading_view:  # the aligned noun is now an answer: its facts are asked
                stated = view
            answer_col = order[0] if order else 0
            break
    return sound, g, proof_premises, stated, answer_col, ""


def _intent(problem: Problem, ctx: CheckContext, grounder: Grounder, sound: ProofResult,
            answer_col: int, checks: Checks) -> tuple[bool, str, str]:
    """The intent, once the proof has aligned the question's answer with a column: "How many
    people live in the capital of Australia?" answered with each capital and its population
    asks for the number in the aligned column; then ``checks.intent``.  Returns whether the
    intent is met, why not, and the name of the intent check that found the failure ("" when
    :func:`verifier.intent.intent_check` did, or none)."""
    query, reading, question = problem.prepared.query, problem.reading, problem.question
    aligned = query.answer_vars[answer_col] if sound.proved and len(query.answer_vars) > 1 else None
    intent_ok, intent_reason = intent_check(
        reading, query, question,
        superlative_named=superlative_in_linked_name(reading, problem.grounding, grounder, question),
        counted_value=answers_a_number_of(query, problem.pattern, list(problem.qualifiers), grounder, aligned))
    if intent_ok:
        for c in checks.intent:
            if (found := c.run(ctx)):
                return False, found, c.name
    return intent_ok, intent_reason, ""


def _completeness(problem: Problem, prove, g: Formula, stated, answer_col: int, units: list,
                  qualifiers: list, grounder: Grounder):
    """The completeness proof ``G |= T_kg``: KG knowledge (symmetric properties, value types)
    is not something the question states, it stays off the question's side ("X and Y
    divorced" does not state that Y is human).  Returns the proof (None: nothing to prove),
    the facts the query drops, and ``G`` (another column order may prove it)."""
    query, reading, reading_view = problem.prepared.query, problem.reading, problem.reading_view
    kg_axioms = problem.kg_axioms()
    stated_kg = t_kg(stated, kg_axioms, timed_statements(qualifiers, query),
                     answered_statements(qualifiers, query, answer_col, stated, units, grounder))
    stated_negations = [Not(k) for k in problem.negations.values() if free_vars(k) <= set(reading.answer_vars)]
    if stated_negations:
        stated_kg = conj(stated_kg or TRUE, *stated_negations)
    if stated_kg is None:
        return None, (), g

    def g_side_of(g_: Formula) -> list[Premise]:
        # the query's side: G, its definitions, and KG background (symmetric properties)
        return ([Premise("G(query)", g_)] + list(problem.prepared.definitions)
                + [Premise(a.name, a.formula) for a in problem.prepared.reification]
                + list(problem.relevant_background) + closures_state_their_property(g_))

    g_side = g_side_of(g)
    complete = prove(g_side, stated_kg, countermodel=False)
    if complete.status == "refuted" and stated is reading and len(reading.answer_vars) > 1:
        # several answers: another column order may prove the query too and state all the
        # question does ("Where and what time did X work?" answered with the start time
        # first and the place second)
        for view, order, order_key in other_alignments(reading_view, query):
            if view is not reading_view or order is None:
                continue
            g2 = aligned_pattern(view, query, problem.pattern, order, order_key=order_key)
            if not prove(list(problem.premises), g2, countermodel=False).proved:
                continue
            side2 = g_side_of(g2)
            c2 = prove(side2, stated_kg)
            if c2.status != "refuted":
                g, g_side, complete = g2, side2, c2
                break
    missing: tuple[str, ...] = ()
    dropped_negations = [str(n) for n in stated_negations if complete.status == "refuted"
                         and prove(g_side, n, countermodel=False).status != "proved"]
    if dropped_negations:
        missing = tuple(dropped_negations)
    elif complete.status == "refuted":
        body = stated_kg.body if isinstance(stated_kg, Exists) else stated_kg
        missing = tuple(str(f) for f in conjuncts(body)
                        if prove(g_side, exists(sorted(free_vars(f) - set(reading.answer_vars), key=lambda v: v.name), f),
                                 countermodel=False).status != "proved")
    return complete, missing, g


def diagnosed(checked: CheckedReading, question: str, grounder: Grounder, timeout_ms: int,
              context: ProverContext | None = None, deadline: Deadline | None = None) -> ReadingResult:
    """The result of a refuted reading with its diagnosis atom by atom (the premises and ``G``
    of its proof kept, not rebuilt): the reason names the atoms that do not follow."""
    best, problem = checked.result, checked.refuted
    if problem is None:
        return best
    diag = diagnose(list(problem.premises), problem.g, grounder, problem.grounding, timeout_ms, question, context,
                    deadline)
    bad = [d for d in diag if not d.entailed]
    reason = best.reason
    if bad and problem.intent_ok:
        reason = "; ".join(f"{d.atom}: {d.explanation}" for d in bad[:3])
    return replace(best, reason=reason, diagnosis=diag)


def check_readings(question: str, query: Query, readings: Sequence, pack: Pack, grounder: Grounder,
                   *, max_readings: int = 5, timeout_ms: int = 2000,
                   budget_ms: float | None = 30000, first: Sequence = (),
                   disabled_rules: Collection[str] = (), rules: RuleSet | None = None,
                   deadline: Deadline | None = None, checks: Checks = Checks()) -> DeductiveResult:
    """Run the deductive check over the translated readings of a question.

    ``readings`` are the results of :func:`parsers.mrs.translate_readings` (translated
    readings and failures); at most ``max_readings`` distinct formulas of them are tried, in
    the order of :func:`parsers.mrs.rank_translations`.  ``first`` are further translated
    readings tried before them and not counted (the pattern readings of
    :mod:`parsers.mrs.patterns`).  The best reading's verdict is the pair's verdict.
    ``timeout_ms`` bounds each solver call, in milliseconds of solving on an idle machine
    (:func:`verifier.prover.solver_budget`: counted by Z3's resource counter, so the verdict
    does not depend on the machine's load); ``budget_ms`` the whole pair the same way, as the
    solver work of its readings (:attr:`ReadingResult.work`): once spent, no further reading
    is tried (and no diagnosis is made), so that one pathological pair cannot stall an
    audit.  Only ``WALL_FACTOR`` times ``budget_ms`` of wall-clock time also stops it (work
    that Z3 does not count); a loaded machine makes a pair slower, not different.  The pair's
    checks run in a Z3 context of their own (:class:`verifier.prover.ProverContext`), so its
    verdict does not depend on which pairs the process checked before either.  The query is
    prepared once (:func:`verifier.deductive.prepared.prepare_query`); the best failing
    reading is diagnosed from the problem its check kept, not checked again.  ``checks``: the
    downgrade checks run (:func:`verifier.deductive.checks.enabled_checks`; by default all).
    The rewrite rules (corrections and views, ``axioms/rewrites``) are those of ``rules``
    (default: every shipped rule: :func:`verifier.deductive.rules.rules_for`), without those
    named in ``disabled_rules`` (``[rewrite] disabled_rules``); each reading's result names the
    rules that changed it (:attr:`ReadingResult.rules`).  ``deadline``
    (:class:`verifier.limits.Deadline`, none by default) is checked between readings, views
    and stages and by every proof: once passed, :class:`verifier.limits.DeadlineExceeded`
    stops the check (the caller abstains).
    """
    from parsers.mrs import rank_translations

    t0 = time.perf_counter()
    priority = [r for r in first if getattr(r, "ok", False)]
    ok = priority + [r for r in rank_translations(readings) if getattr(r, "ok", False)]
    readings = list(first) + list(readings)
    if not ok:
        reasons = sorted({getattr(r, "reason", "no reading") or "no reading" for r in readings}) or ["no reading"]
        return DeductiveResult("unknown", "no translated reading of the question (" + "; ".join(reasons[:3]) + ")",
                               "The question could not be turned into logic, so nothing can be proved.",
                               None, (), (time.perf_counter() - t0) * 1000)
    deadline = deadline if deadline is not None else Deadline.never()
    background = [Premise(name, f) for name, f, _ in pack.background]
    rules = (rules or rules_for()).active(True, frozenset(disabled_rules))
    prepared = prepare_query(query, question)
    deadline.check("prepare")
    results: list[CheckedReading] = []
    # the pair's own Z3 context: its checks do the same work whatever the process checked before
    context = ProverContext()
    limit = solver_budget(int(budget_ms)) if budget_ms is not None else None  # each call's measure

    def over_budget(done: list[CheckedReading]) -> bool:
        """Whether the pair's budget is spent: its solver work, or (a safety net for work Z3
        does not count) many times its wall-clock time."""
        if limit is None:
            return False
        return (sum(c.result.work for c in done) > limit["rlimit"]
                or (time.perf_counter() - t0) * 1000 > limit["timeout_ms"])

    def check(r) -> CheckedReading:
        deadline.check("readings")
        return check_reading(question, r, prepared, pack, grounder, background, timeout_ms, context=context,
                             rules=rules, deadline=deadline, checks=checks)

    # several scopes of one reading usually give the same formula: check each formula once
    seen: set[str] = set()
    views = views_for(question, rules)
    for r in ok:
        key = str(r.formula)
        if key in seen:
            continue
        seen.add(key)
        results.append(check(r))
        # views of this reading (the views of the rules, in order), not counted, while it
        # proves nothing
        for view_kind, applies in views:
            last = results[-1].result
            if not applies or last.verdict == "faithful" or (
                    view_kind.after_reason is not None and view_kind.after_reason not in last.reason):
                continue
            view = recorded(r, view_kind.make(r, question), view_kind.name)
            if view is not None:
                results.append(check(view))
        if results[-1].result.verdict == "faithful" or len(seen) >= max_readings + len(priority):
            break
        if over_budget(results):
            log.warning("solver budget of %.0f ms spent after %d reading(s) of %r", budget_ms, len(seen), question[:80])
            break
    best_i = min(range(len(results)), key=lambda i: (VERDICT_ORDER.index(results[i].result.verdict),
                                                      -results[i].result.grounded_share))
    best = results[best_i].result
    if best.verdict in ("unsupported", "intent_mismatch") and not over_budget(results):
        # diagnose the best failing reading atom by atom
        best = diagnosed(results[best_i], question, grounder, timeout_ms, context, deadline)
        results[best_i] = replace(results[best_i], result=best)
        deadline.check("diagnosis")
    expl = explain(best, query, grounder)
    deadline.check("explain")
    return DeductiveResult(best.verdict, best.reason, expl, best, tuple(c.result for c in results),
                           (time.perf_counter() - t0) * 1000)
