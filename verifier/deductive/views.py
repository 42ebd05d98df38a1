"""Alternative views of a reading, tried while the reading proves nothing: those still
written in Python.

Which views are tried, in which order and for which questions is data: the rule file
``axioms/rewrites/views.yaml``, whose ``builtin:`` rules name these functions through the
registry :data:`verifier.deductive.rules.BUILTINS`.  Stage: question side, after the
corrections (imports only :mod:`reading`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from verifier.logic import (
    TRUE, Atom, Eq, Formula, Term, Var, atoms, conj, map_atoms,
)
from parsers.mrs import predicate_info
from parsers.mrs.question import REQUEST_VERBS
from verifier.deductive.reading import ReadingView, conjuncts, named_vars

__all__ = [
    "View", "KIND_OF", "kind_of_view", "attachment_view",
]


_KIND_NOUNS = frozenset({"kind", "type", "sort", "style", "list"})


#: The abstract predicate of :func:`kind_of_view`: ``kind_of(y)``, the question asked for a
#: kind of the N that ``y`` is.
KIND_OF = "kind_of"


def kind_of_view(reading):
    """"What kind of money do they use in Aruba?", "What type of currency is used in the
    UK?": a question about a kind of N is answered, as KG queries answer it, with the N
    itself (the currency, not a kind of currency); so is a request for a list of N ("Give me
    a list of all lakes in Denmark": the lakes, not a list).  A view of the reading in which
    the kind noun is identified with its N: ``_type_n_of-n(x, y)``, or ``_type_n_1(x)`` with
    ``_of_p(e, x, y)``, becomes ``x = y & kind_of(y)``; a kind noun that modifies N in a
    compound (``_kind/nn_u_unknown(k) & compound(e, y, k)``, as pattern readings write "kind
    of music") becomes ``kind_of(y)``.  The abstract ``kind_of(y)`` keeps what the question
    said of N, for the templates that read a kind of N as a genre ("What kind of music did Lou
    Reed play?").  The copula between the kind and a name ("What type of government is the
    Philippines?") becomes ``_of_p``: the kind of N a named thing is, is its N.  Only for an
    N that is a common noun (no name: "the type of the Eiffel Tower" asks for a class of the
    tower); ``None`` when no kind noun of that shape is found."""
    facts = [f for f in conjuncts(reading.formula) if isinstance(f, Atom)]
    named = named_vars(facts)

    def common_noun(y) -> bool:
        return isinstance(y, Var) and y.name.startswith("x") and y not in named and any(
            f.args and f.args[0] == y and predicate_info(f.pred).pos == "n"
            and not predicate_info(f.pred).is_abstract and predicate_info(f.pred).lemma not in _KIND_NOUNS
            for f in facts)

    replace: dict[Atom, Formula] = {}
    lemmas: list[str] = []
    for f in facts:
        info = predicate_info(f.pred)
        if info.pos != "n" or info.lemma not in _KIND_NOUNS or not f.args or not isinstance(f.args[0], Var):
            continue
        lemmas.append(info.lemma)
        x = f.args[0]
        if len(f.args) == 2 and common_noun(f.args[1]):  # _type_n_of-n(x, y)
            replace[f] = conj(Eq(x, f.args[1]), Atom(KIND_OF, (f.args[1],)))
            continue
        of = [g for g in facts if g.pred == "_of_p" and len(g.args) == 3 and g.args[1] == x and common_noun(g.args[2])]
        if len(of) == 1:  # _type_n_1(x) & _of_p(e, x, y)
            replace[f], replace[of[0]] = conj(Eq(x, of[0].args[2]), Atom(KIND_OF, (of[0].args[2],))), TRUE
            continue
        mods = [g for g in facts if g.pred == "compound" and len(g.args) == 3 and g.args[2] == x
                and common_noun(g.args[1])]
        if len(f.args) == 1 and len(mods) == 1:  # _kind/nn_u_unknown(x) & compound(e, y, x)
            replace[f], replace[mods[0]] = Atom(KIND_OF, (mods[0].args[1],)), TRUE
    if not replace:
        return None
    # "What type of government is the Philippines?": the kind of N that a named thing is, is
    # its N ("the government of the Philippines"), not the thing itself
    kinds = {f.args[0] for f in replace if predicate_info(f.pred).lemma in _KIND_NOUNS}
    kinds |= {t for r in replace.values() for a in atoms(r) if a.pred == KIND_OF for t in a.args}
    for f in facts:
        if f.pred == "_be_v_id" and len(f.args) == 3 and f not in replace:
            e, a, b = f.args
            for k, z in ((a, b), (b, a)):
                if k in kinds and z in named:
                    replace[f] = Atom("_of_p", (e, k, z))
                    break
    view = ReadingView.of(reading, map_atoms(reading.formula, lambda a: replace.get(a, a)),
                          getattr(reading, "not_alignable", set()),
                          note=f"'{lemmas[0] if len(set(lemmas)) == 1 else 'kind'} of N' read as N")
    return view


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
            if prep(f) and f.args[1] in requests and predicate_info(f.pred).lemma != "by":
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
    """An alternative view of a reading: ``make(reading)`` gives the view or None; it is tried
    for a question that ``applies`` to, and (``after_reason``) only when the reason of the
    reading's last result says so.  The views and their order are data
    (``axioms/rewrites/views.yaml``, :func:`verifier.deductive.rules.views_for`)."""

    name: str
    make: Callable[[Any], Any]
    applies: Callable[[str], bool]
    after_reason: str | None = None
