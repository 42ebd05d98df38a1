"""What to add to the premises so that a conclusion with negated parts comes out false.

The chase builds the least model of the premises: whatever they do not force is false in it.
A conclusion with a negated part, ``exists m. Municipality(m) & not exists d. dissolved(m, d)``,
is therefore true there (nothing is dissolved) even when the premises say nothing of
dissolution, and the prover is left to build a model in which it fails, often the most costly
check of a pair.  Such a model is easy to build: add to the premises what *defeats* the
conclusion (here: ``forall m. Municipality(m) -> exists d. dissolved(m, d)``) and chase.  Any
model of the premises and the defeaters is a model of the premises, so when the conclusion is
false in it, it is refuted; when the defeaters contradict the premises, the chase gives up and
the prover decides as before.

:func:`defeaters` gives the formulas to add:

* for a negated conclusion ``not F``: ``F`` itself;
* for ``exists xs. A & not G1 & ... & not Gk`` (``A`` the other conjuncts): for each ``Gi``,
  ``forall xs'. A' -> Gi'``, where ``A'`` keeps the atoms and equalities of ``A`` without
  function terms (a weaker body fires more often, which only strengthens the defeater) and
  ``Gi'`` is ``Gi`` with each disjunction replaced by its first disjunct and its existential
  variables by free ones (a stronger head: one witness shared by all, so the chase ends).

Nothing here decides anything: the caller chases the premises with the defeaters and checks
the conclusion in the result.
"""

from __future__ import annotations

from verifier.logic import And, Exists, Formula, Implies, Not, Or, Var, conj, forall, free_vars, substitute
from verifier.chase.model import split_body

__all__ = ["defeaters"]


def defeaters(conclusion: Formula) -> list[Formula]:
    """The formulas whose addition to the premises should make ``conclusion`` false (see the
    module's doc); empty when it has no negated part."""
    if isinstance(conclusion, Not):
        return [conclusion.arg]
    bound: tuple[Var, ...] = ()
    body = conclusion
    while isinstance(body, Exists):
        bound += body.vars
        body = body.body
    parts = _conjuncts(body)
    negated = [p.arg for p in parts if isinstance(p, Not)]
    if not negated:
        return []
    matchable, _ = split_body(conj([p for p in parts if not isinstance(p, Not)]))
    premise = conj(matchable)
    out = []
    for n, g in enumerate(negated):
        head = _shared_witnesses(_first_disjuncts(g), n)
        used = free_vars(premise) | free_vars(head)
        vs = [v for v in bound if v in used]
        out.append(forall(vs, Implies(premise, head) if matchable else head))
    return out


def _conjuncts(f: Formula) -> list[Formula]:
    if isinstance(f, And):
        return [c for a in f.args for c in _conjuncts(a)]
    return [f]


def _shared_witnesses(f: Formula, n: int) -> Formula:
    """``exists ys. H`` as ``H`` with each ``y`` a free variable of its own: one witness shared
    by every element the defeater applies to.  A stronger head (so still a defeater), and a
    chase that ends: with ``forall x. exists y. P(x, y)`` every new witness would need one of
    its own."""
    sub: dict[Var, Var] = {}
    while isinstance(f, Exists):
        for v in f.vars:
            sub[v] = Var(f"defeater{n}_{v.name}")
        f = f.body
    return substitute(f, sub) if sub else f


def _first_disjuncts(f: Formula) -> Formula:
    """``f`` with each disjunction (outside negations) replaced by its first disjunct."""
    if isinstance(f, Or):
        return _first_disjuncts(f.args[0])
    if isinstance(f, Exists):
        return Exists(f.vars, _first_disjuncts(f.body))
    if isinstance(f, And):
        return conj([_first_disjuncts(a) for a in f.args])
    return f
