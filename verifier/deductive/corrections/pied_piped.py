"""Correction: a relative clause after a preposition and "which" with a name as its subject ("the
country in which Oslo is located") parsed as an embedded question.

A pass of :data:`verifier.deductive.corrections.CORRECTIONS`: a plain function over a reading
(returns the reading itself or a :class:`verifier.deductive.reading.ReadingView`)."""

from __future__ import annotations

from verifier.logic import TRUE, Atom, Var, atoms, exists, map_atoms
from parsers.mrs import predicate_info
from verifier.deductive.reading import ReadingView

__all__ = ["pied_piped_relatives"]


def pied_piped_relatives(reading):
    """A relative clause after a preposition and "which" whose subject is a name ("the film
    *for which Akira Kurosawa was a film editor*", "the country *in which Oslo is located*")
    that the parse reads as an embedded question, "which" a determiner of the name ("which
    Kurosawa was a film editor", a nominalized clause under the preposition:
    ``_for_p(m, film, z) & nominalization(z, e) & _be_v_id(e, kurosawa, editor)``, the name an
    answer) says what the clause says of the noun the preposition follows: the preposition
    relates the clause to that noun (``_for_p(m, editor, film)`` on a copula's noun, as in
    "Kurosawa was a film editor for the film", else on the clause's event: "Oslo is located
    in the country"), and the name is no answer.  Returns the reading or a view of it."""
    named = {a.args[0] for a in atoms(reading.formula) if a.pred == "named" and a.args}
    asked = [v for v in reading.answer_vars if v in named]
    if not asked or len(reading.answer_vars) < 2:
        return reading  # another answer must remain: the noun the relative clause is on
    facts = list(atoms(reading.formula))
    clauses = {a.args[0]: a.args[1] for a in facts if a.pred == "nominalization" and len(a.args) == 2}
    for a in facts:
        if not (len(a.args) == 3 and predicate_info(a.pred).pos == "p" and a.args[2] in clauses
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")):
            continue
        event, head = clauses[a.args[2]], a.args[1]
        verbs = [f for f in facts if len(f.args) >= 2 and f.args[0] == event and f.args[1] in asked
                 and predicate_info(f.pred).pos == "v"]
        if len(verbs) != 1:
            continue
        verb, name = verbs[0], verbs[0].args[1]
        target = verb.args[2] if (verb.pred == "_be_v_id" and len(verb.args) == 3 and isinstance(verb.args[2], Var)
                                  and verb.args[2].name.startswith("x")) else event
        moved = Atom(a.pred, (a.args[0], target, head))
        gone = Atom("nominalization", (a.args[2], event))
        formula = map_atoms(reading.formula, lambda f: moved if f == a else TRUE if f == gone else f)
        view = ReadingView.of(reading, exists([name], formula), getattr(reading, "not_alignable", set()),
                              answer_vars=tuple(v for v in reading.answer_vars if v != name))
        return view
    return reading
