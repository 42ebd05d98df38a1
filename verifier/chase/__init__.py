"""Finite countermodels by the chase: a fast refuter for the prover's Horn-shaped problems.

Most entailment checks of the deductive verdict fail (the query says something the question
does not), and Z3 spends most of its time on exactly those: to answer ``sat`` with universally
quantified axioms it has to build a model by model-based quantifier instantiation, tens of
milliseconds per check.  The premises of those checks are nearly always *Horn*: facts (the
question's atoms, their variables existentially quantified) and rules
``forall x. body -> head`` whose body is a conjunction or disjunction of atoms and equalities
and whose head is an atom, an equality, ``false`` or ``exists y. conjunction``.  For such
premises the chase computes a finite model directly:

* named constants (IRIs, literals) are distinct elements (the prover's unique names); free
  variables and existential witnesses are fresh elements that equalities may merge;
* rules fire until nothing changes (a *restricted* chase: an existential head adds new
  elements only when no existing elements satisfy it); merging two named constants, or a rule
  with head ``false`` firing, means the premises are inconsistent and the chase gives up;
* the closure predicates ``p+`` / ``p*`` and the ``triple`` link get the prover's background
  axioms (see :mod:`verifier.prover`).

Each round matches only the rules something they read changed for, and the last round fires
none: the result satisfies every rule.  A conclusion that is *false* in it is refuted: the
model is a countermodel.  Beyond that (docs/deductive.md, "Beyond Horn"):

* :mod:`verifier.chase.values`: the numbers the model leaves open are filled in, when some
  filling (with the comparisons the premises state true) makes the conclusion false;
* :mod:`verifier.chase.defeat`: a conclusion with negated parts is refuted by a chase of the
  premises and of what defeats it (``F`` for ``not F``);
* :meth:`FiniteModel.proves`: a positive conclusion (with inequalities between named
  constants) true in a universal model follows from the premises; the diagnosis uses it,
  where no unsat core is asked.

Otherwise (premises the chase cannot build a model of, a chase past its limits) the caller
asks Z3, which also gives the unsat cores that name the axioms of a proof.
"""

from __future__ import annotations

from verifier.chase.model import FiniteModel, Limits
from verifier.chase.run import chase
from verifier.chase.defeat import defeaters
from verifier.chase.values import falsifiable, satisfiable

__all__ = ["FiniteModel", "chase", "Limits", "defeaters", "falsifiable", "satisfiable"]
