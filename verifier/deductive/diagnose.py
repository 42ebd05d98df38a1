"""Diagnosis of a refuted reading, atom by atom."""

from __future__ import annotations

from verifier.grounding import Grounder, Grounding, number_in_text
from verifier.limits import Deadline
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Formula, IRI, atoms, exists, free_vars, subformulas,
)
from verifier.namespaces import wikidata_id
from verifier.prover import Premise, ProofResult, ProverContext, entails_each, solver_budget
from verifier.filters import STRING_TESTS, label_tests, literals_of
from verifier.deductive.checks.unmentioned import mentioned_symbols, unmentioned_symbols
from verifier.deductive.results import AtomDiagnosis

__all__ = ["diagnose"]


def diagnose(premises: list[Premise], g: Formula, grounder: Grounder, grounding: Grounding,
              timeout_ms: int, question: str = "", context: ProverContext | None = None,
              deadline: Deadline | None = None) -> tuple[AtomDiagnosis, ...]:
    """Which atoms of the (aligned) query do not follow, with readable reasons (a test of how a
    string is written first: it says most about what the query adds); ``deadline``
    (:mod:`verifier.limits`) is checked by the proofs."""
    body, bound = g, ()
    if isinstance(g, Exists):
        body, bound = g.body, g.vars
    parts = list(body.args) if isinstance(body, And) else [body]
    out = []
    unsupported_ids = {s.id for s in grounding.unsupported}
    dominated = {d[0].id: d for d in grounding.dominated}
    goals = [exists([v for v in bound if v in fv], part) for part, fv in zip(parts, map(free_vars, parts))]
    name_tests = label_tests(parts)
    mentioned = mentioned_symbols(premises)  # once, not once per atom
    to_prove = [g_part for g_part in goals if not unmentioned_symbols(g_part, premises, mentioned)]
    proofs = dict(zip(to_prove, entails_each(premises, to_prove, **solver_budget(timeout_ms), context=context,
                                                deadline=deadline)))
    first: list[AtomDiagnosis] = []  # string tests the question does not state: said first
    for part, g_part in zip(parts, goals):
        r = proofs.get(g_part) or ProofResult("refuted", "symbol not mentioned")
        syms = _symbols_of(part)
        ok = r.status == "proved"
        expl = ""
        spelling = False
        if not ok:
            bits = []
            for sid in syms:
                lab = grounder.label(sid)
                if sid in dominated:
                    _, u, name, sc, alt, asc = dominated[sid]
                    bits.append(f"{sid} ({lab}) is not supported: the question asks for "
                                f"'{grounder.label(alt)}' ({alt}) rather than '{lab}' (words '{u.text or u.lemma}')")
                elif sid in unsupported_ids:
                    bits.append(f"{sid} ({lab}) is not supported: no word of the question names it")
            if not bits and isinstance(part, Atom) and part.pred in STRING_TESTS and literals_of(part):
                lit = literals_of(part)[0].lexical
                if not number_in_text(lit, question):
                    bits.append(f"the string '{lit}' is not written in the question")
                elif part in name_tests:
                    bits.append(f"the query tests how a name is written ('{lit}') but the question "
                                f"does not speak of the name")
                spelling = bool(bits)
            if not bits:
                bits.append("the question does not relate these terms this way"
                            + (f" ({r.reason})" if r.status == "unknown" else ""))
            expl = "; ".join(bits)
        (first if spelling else out).append(AtomDiagnosis(str(part), ok, tuple(syms), expl))
    return tuple(first + out)


def _symbols_of(f: Formula) -> list[str]:
    out: dict[str, None] = {}
    for a in atoms(f):
        wid = wikidata_id(a.pred.rstrip("*+"))
        if wid:
            out.setdefault(wid, None)
        for t in a.args:
            if isinstance(t, IRI) and wikidata_id(t.value):
                out.setdefault(wikidata_id(t.value), None)
    for g in subformulas(f):
        if isinstance(g, (Eq, Compare)):
            for t in (g.left, g.right):
                if isinstance(t, IRI) and wikidata_id(t.value):
                    out.setdefault(wikidata_id(t.value), None)
    return list(out)
