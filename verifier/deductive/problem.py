"""The proof problem of one reading: the reading corrected and grounded, its premises (axioms,
background, the query's definitions, ``T(question)``), its intent variables opened, and the
query's pattern with the qualifiers the question does not name kept in ``G``.

Stage: after the question side (:mod:`.corrections`, :mod:`.rules`) and the problem's parts
(:mod:`.premises`, :mod:`.consequences`, :mod:`.alignment`); hands on a frozen
:class:`Problem`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from verifier.limits import Deadline
from verifier.axioms.model import Pack
from verifier.filters import take_compared_values
from verifier.grounding import Axiom, Grounder, Grounding, Unit, question_units
from verifier.intent import intent_premises
from verifier.logic import Exists, Formula, Not, Var, atoms, conj, free_vars
from verifier.prover import Premise
from verifier.qualifiers import Qualifier, qualifier_supported
from verifier.deductive.reading import ReadingView, conjuncts, identified_with, open_vars
from verifier.deductive.prepared import PreparedQuery
from verifier.deductive.corrections import CorrectionInputs
from verifier.deductive.rules import correct, rules_for
from verifier.rewrite import RuleSet
from verifier.deductive.premises import (
    abstract_units, dedupe_axioms, disambiguate_shared_names, is_relevant_background, kg_rule,
    label_noun_values, predicates_used, structural_axioms,
)
from verifier.deductive.consequences import negation_kg_readings, negations_of, with_negation_readings
from verifier.deductive.alignment import aligned_pattern, alignment_of, expand_coordinated_answer

__all__ = ["Problem", "build_problem"]


@dataclass(frozen=True)
class Problem:
    """What the proofs and the checks of one reading read."""

    question: str
    prepared: PreparedQuery
    #: the reading corrected, with its negations' KG readings and its coordinated answer expanded
    reading: Any
    #: ``reading`` with the intent variables it binds opened for alignment
    reading_view: ReadingView
    units: tuple[Unit, ...]
    grounding: Grounding
    #: the soundness premises; ``premises[t_index]`` is ``T(question)``
    premises: tuple[Premise, ...]
    t_index: int
    #: the query's pattern, compared values taken, unsupported qualifiers kept
    pattern: Formula
    qualifiers: tuple[Qualifier, ...]
    #: what the filters and qualifiers said (a faithful verdict's reason repeats it)
    qual_notes: tuple[str, ...]
    #: each negation of the reading with its KG reading
    negations: Mapping[Not, Formula]
    #: the aligned query ``G`` of the first alignment
    g: Formula
    structural: tuple[Axiom, ...]
    link_axioms: tuple[Axiom, ...]
    background: tuple[Premise, ...]
    relevant_background: tuple[Premise, ...]
    #: the names of the rewrite rules that changed the reading (its view's, then its corrections')
    rules: tuple[str, ...] = ()

    def kg_axioms(self) -> list[Formula]:
        """The axioms whose consequences are KG facts (built only when needed: not on most
        readings)."""
        return ([a.formula for a in self.structural + self.link_axioms]
                + [p.formula for p in self.background if not kg_rule(p.formula)])


def build_problem(question: str, reading, prepared: PreparedQuery, pack: Pack, grounder: Grounder,
                  background: list[Premise], rules: RuleSet | None = None,
                  deadline: Deadline | None = None) -> Problem:
    """The proof problem of ``reading`` (a translated reading or a view) against the prepared
    query, its parse corrected by the corrections of ``rules`` (default: every shipped rule);
    ``deadline`` is checked after the corrections and by the grounding."""
    from verifier.grounding import np_spans

    query = prepared.query
    reading = correct(reading, CorrectionInputs(question, pack, grounder.labels), rules or rules_for())
    rules = tuple(getattr(reading, "rules", ()))
    if deadline is not None:
        deadline.check("corrections")
    units = question_units(reading, question)
    grounding = grounder.ground(units, query, question, np_spans(getattr(reading, "mrs", None), question),
                                deadline=deadline)
    structural = structural_axioms(pack, units + abstract_units(reading))
    link_axioms = disambiguate_shared_names(grounding, reading) + label_noun_values(grounding, grounder, reading)
    all_axioms = dedupe_axioms(structural + link_axioms + list(prepared.reification))
    used_preds = {a.pred for a in atoms(reading.formula)} | prepared.predicates
    used_preds |= predicates_used(ax.formula for ax in all_axioms)
    relevant_background = [p for p in background if is_relevant_background(p.formula, used_preds)]
    premises = list(relevant_background)
    premises += [Premise(a.name, a.formula) for a in all_axioms]
    premises += list(prepared.definitions)
    # a negation whose content words all add to its KG reading ("do not have an English
    # label") says what that reading says: T gets ~K next to ~Phi (soundness), and the query
    # must imply ~K (completeness)
    negations: Mapping[Not, Formula] = {}
    if negations_of(reading.formula):
        kg_axioms = ([a.formula for a in structural + link_axioms]
                     + [p.formula for p in background if not kg_rule(p.formula)])
        negations = negation_kg_readings(reading, kg_axioms, units)
    if negations:
        reading = ReadingView.of(reading, with_negation_readings(reading.formula, negations),
                                 getattr(reading, "not_alignable", set()))
    # a coordinated answer ("the sex and the occupation") answers several columns
    reading = expand_coordinated_answer(reading, query)
    premises.append(Premise("T(question)", reading.formula))
    t_index = len(premises) - 1
    premises += intent_premises(reading)
    # intent variables (counted, ordered) that the reading binds are opened for alignment
    mapping, _ = alignment_of(reading, query)
    wanted = {v for v in mapping.values() if isinstance(v, Var)} - free_vars(reading.formula)
    t_open, opened = open_vars(reading.formula, wanted)
    if opened:
        premises[t_index] = Premise("T(question)", t_open)
    reading_view = ReadingView.of(reading, t_open, wanted - opened)
    pattern, qualifiers = prepared.pattern, list(prepared.qualifiers)
    pattern, compare_notes = take_compared_values(pattern, reading, question)
    answers = set(query.answer_vars)
    qual_notes: list[str] = list(prepared.filter_notes) + list(compare_notes)
    answer_terms: dict = {}
    if qualifiers:  # what the answers are, for a statement the answer is the subject of
        facts = conjuncts(reading.formula)
        answer_terms = {qv: identified_with(facts, tv) for qv, tv in mapping.items()
                        if qv in answers and isinstance(tv, Var)}
    for q in qualifiers:
        ok, note = qualifier_supported(q, grounder, grounding, units, question, answers, qualifiers,
                                       query.order_by if query.limit is not None else (),
                                       answer_terms=answer_terms)
        qual_notes.append(note)
        if not ok:  # keep it in G: it will fail and be diagnosed
            pattern = conj(pattern, q.atom, *q.filters) if not isinstance(pattern, Exists) else \
                Exists(pattern.vars + tuple(v for v in free_vars(q.atom) | set().union(*[free_vars(f) for f in q.filters])
                                            if v not in pattern.vars and v not in query.key_vars),
                       conj(pattern.body, q.atom, *q.filters))
    return Problem(
        question=question, prepared=prepared, reading=reading, reading_view=reading_view,
        units=tuple(units), grounding=grounding, premises=tuple(premises), t_index=t_index,
        pattern=pattern, qualifiers=tuple(qualifiers), qual_notes=tuple(qual_notes), negations=negations,
        g=aligned_pattern(reading_view, query, pattern), structural=tuple(structural),
        link_axioms=tuple(link_axioms), background=tuple(background),
        relevant_background=tuple(relevant_background), rules=rules)
