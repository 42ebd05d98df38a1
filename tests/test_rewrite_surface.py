"""Where the EPs of a reading are written (``verifier/rewrite/surface.py``): spans from an MRS's
EPs and from a rule example's ``written`` words."""

from __future__ import annotations

from types import SimpleNamespace

from verifier.logic import Atom, Literal, Var, atoms
from verifier.notation import parse_formula
from verifier.rewrite.surface import NO_SURFACE, surface_of, example_surface


def _ep(pred, arg0, cfrom, cto, carg=None):
    return SimpleNamespace(pred=pred, args=(("ARG0", arg0),), carg=carg, cfrom=cfrom, cto=cto, is_quantifier=False)


def test_spans_from_an_mrs():
    q = "What is the KMDb person ID for Jeff Bridges?"
    mrs = SimpleNamespace(eps=[_ep("named", "x3", 24, 26, "Idaho"), _ep("_person_n_1", "x4", 17, 23),
                               _ep("named", "x9", 31, 43, "Jeff Bridges")])
    s = surface_of(q, mrs)
    assert s.texts(Atom("named", (Var("x3"), Literal("Idaho")))) == {"ID"}
    assert s.texts(Atom("named", (Var("x3"), Literal("Ohio")))) == set()  # another constant
    assert s.start(Atom("_person_n_1", (Var("x4"),))) == 17 and s.end(Atom("_person_n_1", (Var("x4"),))) == 23
    assert s.var_lower(Var("x4")) and not s.var_lower(Var("x3"))
    assert s.var_start(Var("x4")) < s.var_start(Var("x9"))
    assert surface_of(q, None).eps == () and NO_SURFACE.texts(Atom("named", (Var("x3"), Literal("Idaho")))) == set()


def test_spans_of_an_example():
    f = parse_formula('_painter_n_1(x4) & compound(e5, x3, x4) & named(x3, "Kim")')
    s = example_surface("the painter Kim", atoms(f), {"x4": "painter", "x3": "Kim"})
    assert s.var_start(Var("x4")) == 4 and s.var_start(Var("x3")) == 12
    assert s.texts(Atom("named", (Var("x3"), Literal("Kim")))) == {"Kim"}
