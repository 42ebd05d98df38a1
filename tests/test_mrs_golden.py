"""Golden file: MRS readings with hand-checked formulas, answer variables and intents.

``tests/fixtures/mrs/golden.yaml`` holds questions from ``shared/data/mrs`` (their MRS
strings copied in) and hand-written ERG-style MRSs for questions the corpus does not parse
(source field).  Formulas are compared up to renaming of bound variables, reordering of
conjuncts and of variables in a quantifier block (see :func:`canonical_form`).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from parsers.mrs import translate_mrs
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, Iff, Implies, Not, Or, Term, Truth,
    Var, free_vars,
)
from verifier.notation import parse_formula

GOLDEN = Path(__file__).parent / "fixtures" / "mrs" / "golden.yaml"
ENTRIES = yaml.safe_load(GOLDEN.read_text(encoding="utf-8"))


# ------------------------------------------------------------------------------------------
# comparison up to alpha-renaming and AC of conjunction
# ------------------------------------------------------------------------------------------


def _flatten(f: Formula) -> Formula:
    """Merge nested existentials that are conjuncts of an existential block, flatten And/Or."""
    if isinstance(f, (And, Or)):
        parts: list[Formula] = []
        for a in f.args:
            a = _flatten(a)
            if type(a) is type(f):
                parts.extend(a.args)  # type: ignore[attr-defined]
            else:
                parts.append(a)
        return type(f)(tuple(parts))
    if isinstance(f, Exists):
        body = _flatten(f.body)
        vs = list(f.vars)
        if isinstance(body, Exists):
            vs += body.vars
            body = body.body
        if isinstance(body, And):
            keep = []
            for a in body.args:
                if isinstance(a, Exists):
                    vs += a.vars
                    inner = a.body
                    keep.extend(inner.args if isinstance(inner, And) else [inner])
                else:
                    keep.append(a)
            body = And(tuple(keep)) if len(keep) > 1 else keep[0]
        return Exists(tuple(vs), body)
    if isinstance(f, Forall):
        return Forall(f.vars, _flatten(f.body))
    if isinstance(f, Not):
        return Not(_flatten(f.arg))
    if isinstance(f, Implies):
        return Implies(_flatten(f.left), _flatten(f.right))
    if isinstance(f, Iff):
        return Iff(_flatten(f.left), _flatten(f.right))
    return f


def _term_key(t: Term, env: dict[Var, str]) -> str:
    if isinstance(t, Var):
        return env.get(t, "free:" + t.name)
    if isinstance(t, Func):
        return f"{t.name}({','.join(_term_key(a, env) for a in t.args)})"
    return repr(t)


def _occurrences(f: Formula, out: list[tuple[str, tuple[Term, ...]]]) -> None:
    if isinstance(f, Atom):
        out.append((f.pred, f.args))
    elif isinstance(f, (Eq, Compare)):
        out.append((type(f).__name__ + getattr(f, "op", ""), (f.left, f.right)))
    elif isinstance(f, (And, Or)):
        for a in f.args:
            _occurrences(a, out)
    elif isinstance(f, Not):
        _occurrences(f.arg, out)
    elif isinstance(f, (Implies, Iff)):
        _occurrences(f.left, out)
        _occurrences(f.right, out)
    elif isinstance(f, (Exists, Forall)):
        _occurrences(f.body, out)


def _canon(f: Formula, env: dict[Var, str], depth: int) -> str:
    if isinstance(f, Atom):
        return f"{f.pred}({','.join(_term_key(a, env) for a in f.args)})"
    if isinstance(f, Eq):
        return "=(" + ",".join(sorted((_term_key(f.left, env), _term_key(f.right, env)))) + ")"
    if isinstance(f, Compare):
        return f"{f.op}({_term_key(f.left, env)},{_term_key(f.right, env)})"
    if isinstance(f, Truth):
        return str(f.value)
    if isinstance(f, (And, Or)):
        op = "&" if isinstance(f, And) else "|"
        return op + "{" + ";".join(sorted(_canon(a, env, depth) for a in f.args)) + "}"
    if isinstance(f, Not):
        return "~" + _canon(f.arg, env, depth)
    if isinstance(f, Implies):
        return f"->({_canon(f.left, env, depth)},{_canon(f.right, env, depth)})"
    if isinstance(f, Iff):
        return "<->{" + ";".join(sorted((_canon(f.left, env, depth), _canon(f.right, env, depth)))) + "}"
    if isinstance(f, (Exists, Forall)):
        occ: list[tuple[str, tuple[Term, ...]]] = []
        _occurrences(f.body, occ)
        vs = list(f.vars)
        # colour refinement of the bound variables by the atoms they occur in
        colour = {v: "" for v in vs}
        for _ in range(3):
            new = {}
            for v in vs:
                sig = []
                for pred, args in occ:
                    for i, a in enumerate(args):
                        if a == v:
                            others = tuple(
                                colour.get(b, _term_key(b, env)) if isinstance(b, Var) else _term_key(b, env)
                                for b in args)
                            sig.append((pred, i, others))
                new[v] = colour[v] + "|" + repr(sorted(sig))
            colour = new
        ordered = sorted(vs, key=lambda v: colour[v])
        env2 = dict(env)
        for k, v in enumerate(ordered):
            env2[v] = f"b{depth}_{k}"
        kw = "E" if isinstance(f, Exists) else "A"
        return f"{kw}{len(vs)}." + _canon(f.body, env2, depth + 1)
    raise TypeError(f)


def canonical_form(f: Formula) -> str:
    """A string equal for formulas that differ only in bound variable names, the order of
    conjuncts/disjuncts, the order of variables in a block, and the nesting of existential
    blocks inside conjunctions."""
    return _canon(_flatten(f), {}, 0)


def same_up_to_renaming(a: Formula, b: Formula) -> bool:
    return canonical_form(a) == canonical_form(b)


def test_comparator_is_not_trivial() -> None:
    f = parse_formula("exists x y. p(x) & q(x, y) & r(y)")
    assert same_up_to_renaming(f, parse_formula("exists a b. r(b) & q(a, b) & p(a)"))
    assert same_up_to_renaming(f, parse_formula("exists a. p(a) & exists b. q(a, b) & r(b)"))
    assert not same_up_to_renaming(f, parse_formula("exists x y. p(x) & q(y, x) & r(y)"))
    assert not same_up_to_renaming(f, parse_formula("exists x y. p(x) & q(x, y) & r(x)"))
    g = parse_formula("thing(x3) & exists e2. p(e2, x3)")
    assert not same_up_to_renaming(g, parse_formula("thing(x5) & exists e2. p(e2, x5)"))
    assert not same_up_to_renaming(parse_formula("forall x. a(x) -> b(x)"),
                                   parse_formula("forall x. b(x) -> a(x)"))


# ------------------------------------------------------------------------------------------
# the golden file
# ------------------------------------------------------------------------------------------


def test_golden_file_size_and_coverage() -> None:
    assert len(ENTRIES) >= 40
    assert len({e["id"] for e in ENTRIES}) == len(ENTRIES)
    cats = " ".join(e["category"] for e in ENTRIES)
    for needed in ("wh", "yes/no", "how many", "superlative", "comparative", "possessive",
                   "compound", "negation", "imperative", "chemistry", "universal",
                   "unsupported"):
        assert needed in cats, needed


@pytest.mark.parametrize("entry", ENTRIES, ids=[e["id"] for e in ENTRIES])
def test_golden(entry: dict) -> None:
    expected_formulas = entry.get("formulas") or ([entry["formula"]] if "formula" in entry else [])
    results = translate_mrs(entry["mrs"], max_scopes=max(1, len(expected_formulas)))
    if "failure" in entry:
        assert len(results) == 1 and not results[0].ok
        assert results[0].kind == entry["failure"]["kind"]
        assert results[0].reason == entry["failure"]["reason"]
        return
    assert all(r.ok for r in results), [str(r) for r in results]
    got = [r.formula for r in results]
    assert len(got) == len(expected_formulas)
    for exp_text, formula in zip(expected_formulas, got):
        expected = parse_formula(exp_text)
        assert same_up_to_renaming(formula, expected), f"\n got: {formula}\nwant: {exp_text}"
    r = results[0]
    answer = [v.name for v in r.answer_vars]
    assert answer == entry["answer_vars"]
    # the answer variables are exactly the free variables
    assert {v.name for v in free_vars(r.formula)} == set(answer)
    assert r.sentence_force == entry["sentence_force"]
    it = r.intent
    want = entry["intent"]
    assert it.kind == want["kind"]
    assert it.base == want["base"]
    assert (it.var.name if it.var else None) == want.get("var")
    assert it.direction == want.get("direction")
    assert it.predicate == want.get("predicate")
    assert it.op == want.get("op")
    assert (str(it.value) if it.value is not None else None) == want.get("value")
    assert it.unit == want.get("unit")
