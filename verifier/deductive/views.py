"""Alternative views of a reading, tried while the reading proves nothing: those still
written in Python.

Which views are tried, in which order and for which questions is data: the rule file
``axioms/rewrites/views.yaml``, whose ``builtin:`` rules name these functions through the
registry :data:`verifier.deductive.rules.BUILTINS`.  Stage: question side, after the
corrections (imports only :mod:`reading`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from verifier.logic import Atom, Term, Var, map_atoms
from parsers.mrs import predicate_info
from parsers.mrs.question import REQUEST_VERBS
from verifier.deductive.reading import ReadingView, conjuncts, named_vars
from verifier.grounding.words import AGENT_PREPOSITION

__all__ = ["View", "KIND_OF", "attachment_view"]


#: The abstract predicate the view ``kind_of`` (``axioms/rewrites/views.yaml``) writes:
#: ``kind_of(y)``, the question asked for a kind of the N that ``y`` is.
KIND_OF = "kind_of"


def attachment_view(reading):
    """"Give me all cities in New Jersey with more than 100000 inhabitants.": the grammar's
    readings (at most five, unranked) may all attach a prepositional phrase where the
    question does not: "in New Jersey" to the request verb *give*, "with more than 100000
    inhabitants" to *New Jersey*.  A view of the reading in which such a phrase modifies the
    noun phrase instead: a phrase on a request verb's event (``_give_v_1``, ``_list_v_1``
    ...) modifies the thing requested (the answer), and a phrase on a name that is itself
    the object of a phrase on a noun modifies that noun (a proper name takes no restrictive
    modifier: "cities in [New Jersey] with ...").  ``None`` when no phrase is attached that
    way."""
    facts = [f for f in conjuncts(reading.formula) if isinstance(f, Atom)]
    named = named_vars(facts)
    requests = {f.args[0] for f in facts if f.pred in REQUEST_VERBS and f.args}
    answer = reading.answer_vars[0] if len(reading.answer_vars) == 1 else None

    def noun(t) -> bool:
        return isinstance(t, Var) and t.name.startswith("x") and t not in named

    def prep(f: Atom) -> bool:
        info = predicate_info(f.pred)
        return len(f.args) == 3 and info.pos == "p" and not info.is_abstract

    host: dict[Atom, Term] = {}
    if noun(answer):
        for f in facts:  # not "by" (a passive's doer: rule passive_agents)
            if prep(f) and f.args[1] in requests and predicate_info(f.pred).lemma != AGENT_PREPOSITION:
                host[f] = answer
    for f in facts:
        if prep(f) and f.args[1] in named:
            outer = [g for g in facts if prep(g) and g is not f and g.args[2] == f.args[1]
                     and noun(host.get(g, g.args[1]))]
            if len(outer) == 1:
                host[f] = host.get(outer[0], outer[0].args[1])
    if not host:
        return None
    replace = {f: Atom(f.pred, (f.args[0], new, f.args[2])) for f, new in host.items()}
    view = ReadingView.of(reading, map_atoms(reading.formula, lambda a: replace.get(a, a)),
                          getattr(reading, "not_alignable", set()),
                          note="a prepositional phrase read as a modifier of the noun phrase")
    return view


@dataclass(frozen=True)
class View:
    """An alternative view of a reading: ``make(reading, question)`` gives the view or None
    (``question``: where the reading's EPs are written, for the rule's surface conditions;
    may be left out); it is tried
    for a question that ``applies`` to, and (``after_reason``) only when the reason of the
    reading's last result says so.  The views and their order are data
    (``axioms/rewrites/views.yaml``, :func:`verifier.deductive.rules.views_for`)."""

    name: str
    make: Callable[[Any], Any]
    applies: Callable[[str], bool]
    after_reason: str | None = None
