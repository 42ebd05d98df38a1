"""Check: alternatives of a property alternation the question does not support."""

from __future__ import annotations

from verifier.grounding import Grounder, Grounding
from verifier.logic import Atom, Formula, Or, Var, free_vars, subformulas
from verifier.namespaces import wikidata_id
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "unsupported_alternatives", "backwards_alternatives"]


def unsupported_alternatives(g: Formula, grounding: Grounding, grounder: Grounder) -> list[str]:
    """The alternatives of the query's property alternations (``wdt:P22|wdt:P25``: a
    disjunction of atoms over the same terms) that no word of the question names.  The
    question entails the alternation when it entails one alternative, but an alternative the
    question does not speak of adds answers it does not ask for ("X's parents" answered with
    ``wdt:P22|wdt:P1451``, father or motto)."""
    unsupported = {s.id for s in grounding.unsupported if s.kind == "property"}
    if not unsupported:
        return []
    out = []
    for f in subformulas(g):
        if not isinstance(f, Or) or not all(isinstance(a, Atom) for a in f.args):
            continue
        if len({a.args for a in f.args}) != 1:
            continue  # a union of different triples, not one triple's alternative properties
        for a in f.args:
            wid = wikidata_id(a.pred)
            if wid in unsupported:
                out.append(f"{a.pred} ({grounder.label(wid)}), an alternative of "
                           f"{'|'.join(b.pred for b in f.args)}, is not supported: no word of "
                           "the question names it")
    return list(dict.fromkeys(out))


def backwards_alternatives(g: Formula, entailed, grounder: Grounder) -> list[str]:
    """The alternatives of the query's property alternations that the question supports only
    the other way round: "X's parents" answered with ``wd:X wdt:P22|wdt:P40 ?p`` (father or
    *child*) is entailed through father, while the question links *child* from the parent
    to X (``wdt:P40(?p, wd:X)``), so the second alternative adds X's children.  An
    alternative is flagged when ``entailed`` (a formula -> bool test against the question's
    premises) holds for its swapped atom but not for the atom itself, so that symmetric
    properties (spouse) and alternatives of an ANY word (father or mother) are left alone.
    Only alternations over terms the proof aligned (no variable of the query's own)."""
    out = []
    aligned = free_vars(g)
    for f in subformulas(g):
        if not isinstance(f, Or) or not all(isinstance(a, Atom) and len(a.args) == 2 for a in f.args):
            continue
        if len({a.args for a in f.args}) != 1 or not all(
                not isinstance(t, Var) or t in aligned for t in f.args[0].args):
            continue
        for a in f.args:
            swapped = Atom(a.pred, (a.args[1], a.args[0]))
            if a.args[0] != a.args[1] and not entailed(a) and entailed(swapped):
                out.append(f"{a.pred} ({grounder.label(wikidata_id(a.pred) or a.pred)}), an alternative of "
                           f"{'|'.join(b.pred for b in f.args)}, is not supported: the question relates "
                           "these terms the other way round")
    return list(dict.fromkeys(out))


def check(ctx: CheckContext) -> str | None:
    """Alternatives of the query's property alternations the question does not name, or
    supports only the other way round (:func:`unsupported_alternatives`,
    :func:`backwards_alternatives`)."""
    odd = unsupported_alternatives(ctx.g, ctx.grounding, ctx.grounder) or backwards_alternatives(
        ctx.g, ctx.entailed, ctx.grounder)
    return "; ".join(odd) if odd else None
