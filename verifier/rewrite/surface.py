"""Where the EPs of a reading are written in the question: what the rewrite rules' surface
conditions (``written``, ``after``, ``written_lower``, ``written_before``) read.

A :class:`Surface` is the question and, for each EP of its MRS, its predicate, characteristic
variable (ARG0), constant (CARG) and character span; an atom of a reading's formula is written
where the EP of the same predicate and ARG0 (and the same constant, for an atom with one) is.
:func:`surface_of` makes one from an MRS; :func:`example_surface` from a rule example's
question and the words it gives for some variables (``written: {x4: illustrator}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from parsers.mrs import predicate_info
from verifier.logic import Atom, Literal, Var

__all__ = ["SpanEP", "Surface", "surface_of", "example_surface", "NO_SURFACE"]

#: What is stripped from the ends of an EP's written text before it is compared.
_STRIP = " \t?.,;:!'\""


@dataclass(frozen=True)
class SpanEP:
    """An EP of the MRS as far as the surface conditions read it."""

    pred: str
    arg0: str | None
    carg: str | None
    cfrom: int
    cto: int
    quantifier: bool = False


@dataclass(frozen=True)
class Surface:
    """The question and its EPs' spans (no EPs: no atom is written anywhere)."""

    question: str = ""
    eps: tuple[SpanEP, ...] = ()

    def spans(self, a: Atom) -> list[SpanEP]:
        """The EPs the atom ``a`` stands for (same predicate, ARG0 and constant), in the MRS's
        order, with a span inside the question."""
        if not a.args or not isinstance(a.args[0], Var):
            return []
        v = a.args[0].name
        lits = [t.lexical for t in a.args if isinstance(t, Literal)]
        n = len(self.question)
        return [ep for ep in self.eps if ep.pred == a.pred and ep.arg0 == v
                and (not lits or ep.carg == lits[0]) and 0 <= ep.cfrom < ep.cto <= n]

    def texts(self, a: Atom) -> set[str]:
        """How the atom ``a`` is written (each of its EPs' text, punctuation stripped)."""
        return {self.question[ep.cfrom:ep.cto].strip(_STRIP) for ep in self.spans(a)}

    def start(self, a: Atom) -> int | None:
        """Where the atom ``a`` is first written (None: nowhere)."""
        s = self.spans(a)
        return s[0].cfrom if s else None

    def end(self, a: Atom) -> int | None:
        """Where the first written EP of the atom ``a`` ends (None: nowhere)."""
        s = self.spans(a)
        return s[0].cto if s else None

    def var_start(self, v: Var) -> int:
        """Where the first noun or name (in the MRS's order) whose ARG0 is ``v`` begins (-1:
        none)."""
        for ep in self.eps:
            if ep.arg0 == v.name and (ep.pred == "named" or predicate_info(ep.pred).pos == "n"):
                return ep.cfrom
        return -1

    def var_lower(self, v: Var) -> bool:
        """Whether a noun (not a name) whose ARG0 is ``v`` is written starting with a lower-case
        letter."""
        q = self.question
        return any(ep.arg0 == v.name and ep.pred != "named" and predicate_info(ep.pred).pos == "n"
                   and 0 <= ep.cfrom < len(q) and q[ep.cfrom].islower() for ep in self.eps)


#: No question, no spans.
NO_SURFACE = Surface()


def surface_of(question: str, mrs: Any) -> Surface:
    """The surface of ``question`` as the EPs of ``mrs`` (an MRS with ``eps``; None: no
    spans) lay it out."""
    if mrs is None or not question:
        return Surface(question or "")
    eps = tuple(SpanEP(ep.pred, dict(ep.args).get("ARG0"), ep.carg, ep.cfrom, ep.cto, bool(ep.is_quantifier))
                for ep in getattr(mrs, "eps", ()))
    return Surface(question, eps)


def example_surface(question: str, formula_atoms, written: Mapping[str, str]) -> Surface:
    """The surface of a rule example: every atom of ``formula_atoms`` whose first argument is a
    variable of ``written`` is written as that text, where it first occurs in ``question``."""
    eps: list[SpanEP] = []
    for a in formula_atoms:
        if not a.args or not isinstance(a.args[0], Var) or a.args[0].name not in written:
            continue
        text = written[a.args[0].name]
        i = question.find(text)
        if i < 0:
            continue
        carg = next((t.lexical for t in a.args if isinstance(t, Literal)), None)
        eps.append(SpanEP(a.pred, a.args[0].name, carg, i, i + len(text)))
    return Surface(question, tuple(eps))
