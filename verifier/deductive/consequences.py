"""What the question states in KG terms: ``T_kg`` (KG consequences of the reading) and the KG
readings of negations."""

from __future__ import annotations

import itertools
from typing import Sequence

from verifier.grounding import Grounder, SymbolUse, Unit
from verifier.logic import (
    And, Atom, Eq, Exists, Forall, Formula, IRI, Implies, Literal, Not, Or, Term, Var, atoms, conj, exists, free_vars, substitute,
)
from verifier.namespaces import wikidata_id
from verifier.query import Query
from verifier.qualifiers import TIME_QUALIFIERS, Qualifier
from verifier.deductive.reading import conjuncts

__all__ = [
    "kg_consequences", "timed_statements", "answered_statements", "t_kg", "negations_of",
    "negation_kg_readings", "with_negation_readings",
]


def _dnf(f: Formula) -> list[list[Formula]]:
    """Disjunctive normal form of a small antecedent made of atoms, =, & and |."""
    if isinstance(f, And):
        parts = [_dnf(a) for a in f.args]
        return [sum(combo, []) for combo in itertools.product(*parts)]
    if isinstance(f, Or):
        return [c for a in f.args for c in _dnf(a)]
    return [[f]]


def _match_term(p: Term, t: Term, env: dict[Var, Term], pvars: frozenset[Var]) -> dict[Var, Term] | None:
    if isinstance(p, Var) and p in pvars:
        bound = env.get(p)
        if bound is None:
            new = dict(env)
            new[p] = t
            return new
        return env if bound == t else None
    return env if p == t else None


def _fact_index(facts: Sequence[Formula]) -> dict[tuple, list[Formula]]:
    """The facts a pattern can match, in order: atoms by predicate and number of arguments
    (``(pred, n)``), equalities under ``(Eq,)``."""
    index: dict[tuple, list[Formula]] = {}
    for fact in facts:
        if type(fact) is Atom:
            index.setdefault((fact.pred, len(fact.args)), []).append(fact)
        elif type(fact) is Eq:
            index.setdefault((Eq,), []).append(fact)
    return index


def _match_all(pattern: list[Formula], facts: dict[tuple, list[Formula]], env: dict[Var, Term],
               pvars: frozenset[Var]):
    """Every extension of ``env`` under which each formula of ``pattern`` (atoms and
    equalities) is one of the ``facts`` (:func:`_fact_index`), in the order of the facts."""
    if not pattern:
        yield env
        return
    first, rest = pattern[0], pattern[1:]
    if type(first) is Atom:
        for fact in facts.get((first.pred, len(first.args)), ()):
            e: dict[Var, Term] | None = env
            for pa, ta in zip(first.args, fact.args):
                e = _match_term(pa, ta, e, pvars)
                if e is None:
                    break
            if e is not None:
                yield from _match_all(rest, facts, e, pvars)
    elif type(first) is Eq:
        for fact in facts.get((Eq,), ()):
            for (pl, pr) in ((first.left, first.right), (first.right, first.left)):
                e = _match_term(pl, fact.left, env, pvars)
                e = _match_term(pr, fact.right, e, pvars) if e is not None else None
                if e is not None:
                    yield from _match_all(rest, facts, e, pvars)


def kg_consequences(t: Formula, axioms: Sequence[Formula], max_rounds: int = 3) -> list[Formula]:
    """KG facts that follow from ``t`` by the axioms (``forall v. A -> C`` with ``A`` made of
    atoms, equalities, conjunctions and disjunctions), by forward matching."""
    facts = conjuncts(t)
    derived: list[Formula] = []
    seen = set(facts)
    for _ in range(max_rounds):
        new = []
        index = _fact_index(facts)
        for ax in axioms:
            body, pvars = ax, frozenset()
            if isinstance(ax, Forall):
                body, pvars = ax.body, frozenset(ax.vars)
            if not isinstance(body, Implies):
                continue
            for conjunction in _dnf(body.left):
                for env in _match_all(conjunction, index, {}, pvars):
                    cons = substitute(body.right, env)
                    if free_vars(cons) & pvars:
                        cons = exists(sorted(free_vars(cons) & pvars, key=lambda v: v.name), cons)
                    for c in conjuncts(cons) if isinstance(cons, (And, Atom, Eq)) else [cons]:
                        if c not in seen:
                            seen.add(c)
                            new.append(c)
        if not new:
            break
        facts.extend(f for f in new if isinstance(f, (Atom, Eq)))
        derived.extend(new)
    return derived


def _is_kg_fact(f: Formula) -> bool:
    if isinstance(f, Atom):
        return ":" in f.pred or f.pred.startswith("<")
    if isinstance(f, Eq):
        return isinstance(f.left, (IRI, Literal)) or isinstance(f.right, (IRI, Literal))
    if isinstance(f, Exists):
        return _is_kg_fact(f.body)
    if isinstance(f, And):
        return all(_is_kg_fact(a) for a in f.args)
    return False


def _about_expressed_terms(f: Formula, answers: set[Var]) -> bool:
    """False for facts about unexpressed MRS arguments (``i``/``u``/``e``/``h`` variables:
    "born" has an unexpressed agent), which the question does not state."""
    for v in free_vars(f):
        if v not in answers and not v.name.startswith("x"):
            return False
    return True


#: Predicates of the time a question asks about: "when" (``time_n``), "what time", "what
#: year", "what date".
_TIME_NOUNS = frozenset({"time_n", "_time_n_of", "_time_n_1", "_year_n_1", "_date_n_1"})


def timed_statements(qualifiers: Sequence[Qualifier], query: Query) -> frozenset[str]:
    """Properties whose statements give the time a question asks for: those the query
    qualifies with a time, and those whose qualifier's value the query answers with ("When
    was John Hume elected as Member of the 49th Parliament ...?" answered by the statement's
    *elected in*, the election: the qualifier check says whether it names the time)."""
    answers = set(query.answer_vars)
    return frozenset(q.statement for q in qualifiers if q.prop in TIME_QUALIFIERS or q.value in answers)


def _prop_id(pred: str) -> str:
    """The property id of a KG predicate (``wdt:P39`` -> ``P39``)."""
    return wikidata_id(pred) or pred.rpartition(":")[2]


def _verb_objects(f: Formula) -> set[Term]:
    """The objects (ARG2) of the verbs of a formula."""
    return {a.args[2] for a in atoms(f) if "_v_" in a.pred and len(a.args) >= 3}


def answered_statements(qualifiers: Sequence[Qualifier], query: Query, column: int, reading,
                         units: Sequence[Unit], grounder: Grounder) -> frozenset[str]:
    """Properties whose statement's qualifier gives the query's answer in ``column`` (the one
    the question's answer is aligned with) and is named by a noun of the question's answer:
    "Which monetary prize amount was received by Theodor Mommsen?" answered by the *prize
    money* of his *award received* statements (not "Where did X study?" answered by the
    *location* of the statements, "where" naming no qualifier as a noun)."""
    if column >= len(query.answer_vars) or len(reading.answer_vars) != 1:
        return frozenset()
    nouns = [u for u in units if u.var in reading.answer_vars and u.kind in ("noun", "relational_noun")]
    return frozenset(q.statement for q in qualifiers if q.value == query.answer_vars[column] and nouns
                     and grounder.lexical_support(SymbolUse(f"pq:{q.prop}", q.prop, "property"), nouns))


def t_kg(reading, axioms: Sequence[Formula], event_times: frozenset[str] = frozenset(),
          answered: frozenset[str] = frozenset()) -> Formula | None:
    """KG facts the question states about anchored terms: its answer variables and the
    variables that name linked items (facts about other, intermediate variables come from
    over-general templates as often as from the question, and are left to soundness).

    ``event_times``: properties whose statements give the time (:func:`timed_statements`).
    "When was X nominated for Y?" makes the verb's templates read the time as a value too
    (``P(X, when)``); for such a property the time is the statement's qualifier, so that fact
    is not asked of the query.  ``answered``: properties whose statement's qualifier is the
    answer, named by its noun (:func:`answered_statements`); when the answer is the object
    of the statement's verb ("the amount received by X": *award received*(X, amount)), it is
    the qualifier's value, not the property's, so that fact is not asked of the query either."""
    answers = set(reading.answer_vars)
    derived = kg_consequences(reading.formula, axioms)
    # "when", and "what time" / "what year" / "what date" (the noun as the time asked)
    times = {a.args[0] for a in atoms(reading.formula) if a.pred in _TIME_NOUNS and a.args} if event_times else set()
    asked = set(reading.answer_vars) & _verb_objects(reading.formula) if answered else set()
    if times or asked:
        derived = [f for f in derived if not (
            isinstance(f, Atom) and len(f.args) == 2
            and ((f.args[1] in times and _prop_id(f.pred) in event_times)
                 or (f.args[1] in asked and _prop_id(f.pred) in answered)))]
    anchored = set(answers)
    for f in derived:
        if isinstance(f, Eq) and isinstance(f.left, Var) and isinstance(f.right, (IRI, Literal)):
            anchored.add(f.left)
        elif isinstance(f, Eq) and isinstance(f.right, Var) and isinstance(f.left, (IRI, Literal)):
            anchored.add(f.right)
    facts = [f for f in derived if _is_kg_fact(f) and _about_expressed_terms(f, answers)
             and free_vars(f) <= anchored and not isinstance(f, Eq)]
    if not facts:
        return None
    body = conj(facts)
    keep = set(reading.answer_vars)
    return exists(sorted(free_vars(body) - keep, key=lambda v: v.name), body)


#: Verbs that name no KG symbol of their own inside a negation ("do not have an English
#: label", "is not specified").
_NEGATION_LIGHT_VERBS = frozenset({"have", "be", "do", "get", "specify", "exist", "include"})


def negations_of(f: Formula) -> list[Not]:
    """The negations among the top-level conjuncts of ``f`` (under its existential prefix)."""
    if isinstance(f, Exists):
        return negations_of(f.body)
    if isinstance(f, And):
        return [n for a in f.args for n in negations_of(a)]
    return [f] if isinstance(f, Not) else []


def negation_kg_readings(reading, axioms: Sequence[Formula], units: Sequence[Unit]) -> dict[Not, Formula]:
    """The KG reading ``exists locals. K`` of each negation of the question whose content
    words all add to its KG facts ("do not have an English label": ``exists l.
    rdfs:label(x, l) & lang(l) = "en"``): the KG facts its content adds, by the axioms, to
    those of the rest of the question.

    The axioms go from the question's words to the KG, so alone they cannot carry a negation
    over (``~Phi`` does not follow from ``~K`` nor ``~K`` from ``~Phi``).  Taking the links
    as meanings, as the positive part of the check does, the question's ``~Phi`` says ``~K``;
    a negation with a word that adds nothing to ``K`` says more than ``~K`` and gets no
    reading."""
    negations = negations_of(reading.formula)
    if not negations:
        return {}
    base_facts = conjuncts(reading.formula)
    base = set(kg_consequences(conj(base_facts), axioms))
    anchors = {f.left: f.right for f in base if isinstance(f, Eq) and isinstance(f.left, Var)
               and isinstance(f.right, (IRI, Literal))}

    def added(inner: list[Formula]) -> list[Formula]:
        return [f for f in kg_consequences(conj(base_facts + inner), axioms)
                if f not in base and _is_kg_fact(f)]

    out: dict[Not, Formula] = {}
    for n in negations:
        inner = conjuncts(n.arg)
        content = [u for u in units if u.atom in inner and u.kind not in ("abstract", "number")
                   and not (u.kind == "verb" and u.lemma in _NEGATION_LIGHT_VERBS)]
        new = added(inner)
        # a KG statement about something outside the negation, to which every content word
        # of the negation contributes (else the negation says more than its KG reading)
        if not content or not any(isinstance(f, Atom) and set(f.args) & free_vars(n) for f in new):
            continue
        if any(set(added([f for f in inner if f != u.atom])) == set(new) for u in content):
            continue
        # a variable outside that names an item is that item ("citizens of Belgium")
        body = substitute(conj(new), {v: t for v, t in anchors.items() if v in free_vars(n)})
        out[n] = exists(sorted(free_vars(body) - free_vars(n), key=lambda v: v.name), body)
    return out


def with_negation_readings(f: Formula, readings: dict[Not, Formula]) -> Formula:
    """``f`` with each negation ``~Phi`` of ``readings`` as ``~Phi & ~K``."""
    if not readings:
        return f
    if isinstance(f, Exists):
        return Exists(f.vars, with_negation_readings(f.body, readings))
    if isinstance(f, And):
        return conj(*[with_negation_readings(a, readings) for a in f.args])
    if isinstance(f, Not) and f in readings:
        return conj(f, Not(readings[f]))
    return f
