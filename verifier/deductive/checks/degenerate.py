"""Check (before the proof): a reading whose answer is one of the items the question names."""

from __future__ import annotations

from verifier.grounding import Grounding
from verifier.logic import Atom, Var
from verifier.deductive.reading import Identities, conjuncts
from verifier.deductive.results import DEGENERATE_ANSWER
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "degenerate"]


def degenerate(reading, grounding: Grounding) -> str | None:
    """A reading whose identities (copula, "become", apposition) make an answer variable one of the
    items the question names ("the Goratings ID ... Seigen" read as an apposition) proves
    too much: every direction follows.  Returns why, or None."""
    facts = list(conjuncts(reading.formula))
    ids = Identities(facts)
    find = ids.find
    for f in facts:  # "X is a Y and a Z": X is each conjunct (background axiom)
        if isinstance(f, Atom) and f.pred == "_and_c" and len(f.args) == 3 and f.args[0] in ids.related:
            for c in f.args[1:]:
                if isinstance(c, Var):
                    ids.union(c, f.args[0])
    item_vars = {find(l.unit.var) for l in grounding.links if l.names_item and isinstance(l.unit.var, Var)}
    for v in reading.answer_vars:
        if find(v) in item_vars:
            return f"the reading makes the answer {v.name} {DEGENERATE_ANSWER}"
    # "Is the gross tonnage of the MV Loch Ranza less than 164.8?" read with "tonnage" and
    # "Loch Ranza" as an apposition: the number is compared with the ship itself
    it = getattr(reading, "intent", None)
    cv = getattr(it, "var", None)
    cval = getattr(it, "value", None)
    if getattr(it, "kind", None) == "comparative" and isinstance(cv, Var) and find(cv) in item_vars\
            and not (isinstance(cval, Var) and find(cval) in item_vars):  # not "Is X bigger than Y?"
        return f"the reading compares one of the items the question names ({cv.name}) with a value"
    # two different named things (items, numbers) made one ("Is the age of Belgium 67?" read
    # with "Belgium 67" as an apposition): the premises contradict unique names and prove anything
    named: dict[Var, set[str]] = {}
    for l in grounding.links:
        if isinstance(l.unit.var, Var) and (l.symbol.kind == "item" or l.unit.kind == "number"):
            named.setdefault(find(l.unit.var), set()).add(l.symbol.symbol)
    for syms in named.values():
        if len(syms) > 1:
            return "the reading identifies different things the question names: " + " = ".join(sorted(syms))
    # a noun made its own complement ("The writers of The Large Scale Structure of Space-Time"
    # read with "writers" in apposition to the title's words: the book's writer is the book):
    # either direction of the noun's property follows
    property_nouns = {l.unit.var for l in grounding.links
                      if l.symbol.kind == "property" and l.unit.kind in ("noun", "relational_noun")}
    for f in facts:
        if not isinstance(f, Atom):
            continue
        if len(f.args) == 2 and f.pred.endswith("_n_of"):
            pair = f.args
        elif f.pred in ("_of_p", "poss") and len(f.args) == 3:
            pair = f.args[1:]
        else:
            continue
        if pair[0] in property_nouns and isinstance(pair[1], Var) and find(pair[0]) != find(pair[1]):
            own, of = named.get(find(pair[0])), named.get(find(pair[1]))
            if own and of and own & of:
                return "the reading makes a noun of an item that item itself"
    return None


def check(ctx: CheckContext) -> str | None:
    """Before the proof: a reading whose answer is a named item decides nothing."""
    return degenerate(ctx.reading, ctx.grounding)
