"""Apply a declarative rewrite rule to the formula of a reading.

The EPs of a reading are the atoms of its formula, in the order :func:`verifier.logic.atoms`
gives them (an EP's arguments are positional: ARG0, ARG1, ...).  A rule is applied in one
pass over the formula as it was before the rule: for each atom in order, the first case
whose first input EP is that atom and whose other EPs (inputs, context) are found, each the
first in order that fits (the last for an EP marked ``last``), with no ``unless`` EP present and its ``where`` conditions true,
is a match; an atom is rewritten by at most one match (a match's inputs are used up).  Then
every input EP of every match is replaced at once by the output EPs written at its place
(none: the EP is dropped), fresh variables quantified there.  A rewrite that would leave a
variable outside the scope of its quantifier is not made: the formula is returned as it was.

The engine knows nothing of readings or of the deductive check: the deductive stages
(:mod:`verifier.deductive.rules`) wrap its formulas into views and record the rules that fired.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Mapping, Sequence

from parsers.mrs import predicate_info
from verifier.logic import TRUE, Atom, Formula, Term, Var, atoms, conj, exists, free_vars, map_atoms
from verifier.rewrite.model import ArgPattern, Case, EpOutput, EpPattern, Rule

__all__ = ["Match", "LEMMA_SLOT", "ep_matches", "case_matches", "rewrite_formula", "fresh_name"]

#: The bindings of a match: variable name -> term, and ``@NAME`` -> the EP matched by the
#: pattern called NAME.
Match = dict


@lru_cache(maxsize=256)
def _regex(text: str) -> re.Pattern:
    return re.compile(text)


def _sort_ok(t: Term, sort: str | None) -> bool:
    if sort is None:
        return True
    return isinstance(t, Var) and (sort == "var" or t.name.startswith(sort))


def _pred_ok(p: EpPattern, pred: str) -> bool:
    if p.pred and pred not in p.pred:
        return False
    if pred in p.not_pred:
        return False
    if p.pred_re is not None and not _regex(p.pred_re).fullmatch(pred):
        return False
    if p.pos or p.lemma or p.unknown_word is not None:
        info = predicate_info(pred)
        if p.pos and info.pos not in p.pos:
            return False
        if p.lemma and info.lemma not in p.lemma:
            return False
        if p.unknown_word is not None and bool(info.is_unknown_word) != p.unknown_word:
            return False
    return True


def _bind(arg: ArgPattern, t: Term, env: Match) -> Match | None:
    if not _sort_ok(t, arg.sort):
        return None
    if arg.var is None:
        return env
    if arg.var in env:
        return env if env[arg.var] == t else None
    out = dict(env)
    out[arg.var] = t
    return out


def ep_matches(p: EpPattern, a: Atom, env: Match) -> Match | None:
    """The bindings ``env`` extended so that atom ``a`` is an instance of pattern ``p`` (None
    when it is not)."""
    n = len(p.args)
    if len(a.args) < n or (not p.rest and len(a.args) != n) or not _pred_ok(p, a.pred):
        return None
    for arg, t in zip(p.args, a.args):
        env = _bind(arg, t, env)
        if env is None:
            return None
    if p.name is not None:
        env = dict(env)
        env["@" + p.name] = a
    return env


def _where_ok(where: Sequence[Mapping[str, object]], env: Match, facts: Sequence[Atom],
              free: frozenset[Var]) -> bool:
    named = None
    for w in where:
        (kind, value), = ((k, v) for k, v in w.items() if k != "__line__")
        vals = [env.get(str(v).lstrip("$")) for v in (value if isinstance(value, list) else [value])]
        if kind == "differ":
            if len(set(vals)) != len(vals):
                return False
            continue
        t = vals[0]
        if kind in ("named", "not_named"):
            if named is None:
                named = {f.args[0] for f in facts if f.pred in ("named", "named_n") and f.args}
            if (t in named) != (kind == "named"):
                return False
        elif kind in ("free", "not_free"):
            if (t in free) != (kind == "free"):
                return False
    return True


def _search(patterns: Sequence[tuple[EpPattern, bool]], env: Match, facts: Sequence[Atom],
            used: set[Atom], used_inputs: list[Atom], case: Case, free: frozenset[Var]):
    """The first completion of ``env`` over ``patterns`` (each with whether it is an input)."""
    if not patterns:
        for p in case.unless:
            if any(ep_matches(p, a, env) is not None for a in facts):
                return None
        if case.where and not _where_ok(case.where, env, facts, free):
            return None
        return env, list(used_inputs)
    (p, is_input), rest = patterns[0], patterns[1:]
    for a in (reversed(facts) if p.last else facts):
        if is_input and (a in used or a in used_inputs):
            continue
        e = ep_matches(p, a, env)
        if e is None:
            continue
        found = _search(rest, e, facts, used, used_inputs + ([a] if is_input else []), case, free)
        if found is not None:
            return found
    return None


def case_matches(case: Case, first: Atom, facts: Sequence[Atom], used: set[Atom] = frozenset(),
                 free: frozenset[Var] = frozenset()):
    """The first match of ``case`` whose first input EP is ``first`` among ``facts`` (the
    atoms of the formula, in order; ``used``: inputs of earlier matches): ``(bindings, input
    atoms)``, or None."""
    if first in used:
        return None
    env = ep_matches(case.input[0], first, {})
    if env is None:
        return None
    rest = [(p, True) for p in case.input[1:]] + [(p, False) for p in case.context]
    return _search(rest, env, facts, set(used), [first], case, free)


def fresh_name(template: str, env: Match) -> str:
    """A fresh variable's name: ``template`` with ``{v}`` replaced by the name of bound ``v``."""
    return re.sub(r"\{(\w+)\}", lambda m: getattr(env.get(m.group(1)), "name", m.group(1)), template)


#: In an output's ``pred``, ``{lemma:NAME}`` stands for the lemma of the input EP NAME.
LEMMA_SLOT = re.compile(r"\{lemma:(\w+)\}")


def _written(out: EpOutput, env: Match, fresh: Mapping[str, Var]) -> Atom:
    if out.pred is not None:
        pred = LEMMA_SLOT.sub(lambda m: str(predicate_info(env["@" + m.group(1)].pred).lemma), out.pred)
    else:
        pred = env["@" + str(out.like)].pred
    return Atom(pred, tuple(fresh[a[1:]] if a[1:] in fresh else env[a[1:]] for a in out.args))


def _replacements(case: Case, env: Match, inputs: Sequence[Atom]) -> dict[Atom, Formula]:
    names = {p.name: a for p, a in zip(case.input, inputs) if p.name is not None}
    fresh = {v: Var(fresh_name(t, env)) for v, t in case.fresh.items()}
    at: dict[Atom, list[EpOutput]] = {a: [] for a in inputs}
    for out in case.output:
        at[names[out.at] if out.at is not None else inputs[0]].append(out)
    repl: dict[Atom, Formula] = {}
    for a, outs in at.items():
        written = [_written(o, env, fresh) for o in outs]
        here = [fresh[v] for v in fresh if any(fresh[v] in w.args for w in written)]
        repl[a] = exists(here, conj(*written)) if written else TRUE
    return repl


def rewrite_formula(rule: Rule, formula: Formula) -> Formula:
    """``formula`` rewritten by the declarative ``rule`` (see the module's doc); ``formula``
    itself when no case matches or the rewrite would leave a variable out of scope."""
    facts = list(atoms(formula))
    free = free_vars(formula)
    used: set[Atom] = set()
    repl: dict[Atom, Formula] = {}
    for a in facts:
        if a in used:
            continue
        for case in rule.cases:
            found = case_matches(case, a, facts, used, free)
            if found is None:
                continue
            env, inputs = found
            used.update(inputs)
            repl.update(_replacements(case, env, inputs))
            break
    if not repl:
        return formula
    new = map_atoms(formula, lambda f: repl.get(f, f))
    if free_vars(new) - free:
        return formula
    return new
