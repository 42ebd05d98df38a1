"""Check (before the proof): query symbols that no premise mentions."""

from __future__ import annotations

from typing import AbstractSet

from verifier.logic import And, Atom, Compare, Eq, Exists, Formula, IRI, atoms, subformulas
from verifier.identity import Same, per_pair
from verifier.prover import Premise
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "mentioned_symbols", "unmentioned_symbols"]


def _mentioned(f: Formula, out: set[str]) -> None:
    for a in atoms(f):
        out.add(a.pred)
        for t in a.args:
            if isinstance(t, IRI):
                out.add(t.value)
    for h in subformulas(f):
        if isinstance(h, (Eq, Compare)):
            for t in (h.left, h.right):
                if isinstance(t, IRI):
                    out.add(t.value)


@per_pair(maxsize=8192)
def _mentioned_by(key: Same) -> frozenset[str]:
    """What one formula (``key.obj``) mentions: read once per formula object (the readings
    of a question share most of their premises)."""
    out: set[str] = set()
    _mentioned(key.obj, out)
    return frozenset(out)


def mentioned_symbols(premises: list[Premise]) -> frozenset[str]:
    """The predicates and IRIs the premises mention."""
    mentioned: set[str] = set()
    for p in premises:
        mentioned |= _mentioned_by(Same(p.formula))
    return frozenset(mentioned)


def unmentioned_symbols(g: Formula, premises: list[Premise],
                        mentioned: AbstractSet[str] | None = None) -> set[str]:
    """KG predicates and constants of required (top-level, positive) conjuncts of ``g`` that
    no premise mentions: then ``g`` cannot follow, and Z3 is not needed.  ``mentioned``: what
    :func:`mentioned_symbols` gives for ``premises`` (computed when not given)."""
    if mentioned is None:
        mentioned = mentioned_symbols(premises)
    body = g.body if isinstance(g, Exists) else g
    parts = body.args if isinstance(body, And) else (body,)
    missing: set[str] = set()
    for part in parts:
        if isinstance(part, Atom):
            base = part.pred.rstrip("*+")
            if (":" in base or base.startswith("<")) and part.pred not in mentioned and base not in mentioned\
                    and base + "+" not in mentioned and not part.pred.endswith("*"):
                # a path: its base, or its closure; p* holds of any thing and itself
                missing.add(part.pred)
            for t in part.args:
                if isinstance(t, IRI) and t.value not in mentioned:
                    missing.add(t.value)
    return missing


def check(ctx: CheckContext) -> str | None:
    """Before the proof: query symbols that no premise mentions (the proof would fail)."""
    missing = unmentioned_symbols(ctx.g, list(ctx.premises))
    return ("query symbols no premise mentions: " + ", ".join(sorted(missing))) if missing else None
