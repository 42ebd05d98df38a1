"""Apply a declarative rewrite rule to the formula of a reading.

The EPs of a reading are the atoms of its formula, in the order :func:`verifier.logic.atoms`
gives them (an EP's arguments are positional: ARG0, ARG1, ...).  A rule is applied in one
pass over the formula as it was before the rule: for each atom in order, the first case
whose first input EP is that atom and whose other EPs (inputs, context) are found, each the
first in order that fits (the last for an EP marked ``last``), with no ``unless`` EP present and its ``where`` conditions true,
is a match; an atom is rewritten by at most one match (a match's inputs are used up).  Then
every input EP of every match is replaced at once by the output EPs written at its place
(none: the EP is dropped), fresh variables quantified there; a match's ``unanswer``
variables leave the answers and are quantified over the whole formula.  A rewrite that would
leave a variable outside the scope of its quantifier is not made (without the matches of the
``optional`` cases first, when that is enough): the formula is returned as it was.

A rule reads a :class:`Subject`: the formula, its answers and the question's
:class:`~verifier.rewrite.surface.Surface` (where each EP is written), for the conditions
that read them.

The engine knows nothing of readings or of the deductive check: the deductive stages
(:mod:`verifier.deductive.rules`) wrap its formulas into views and record the rules that fired.
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

from parsers.mrs import predicate_info
from verifier.logic import TRUE, And, Atom, Eq, Exists, Formula, Literal, Term, Var, atoms, conj, exists, free_vars, map_atoms
from verifier.identity import Same, per_pair
from verifier.rewrite.model import ArgPattern, Case, EpOutput, EpPattern, Rule
from verifier.rewrite.known import NOTHING_KNOWN, Known
from verifier.rewrite.surface import NO_SURFACE, Surface

__all__ = ["Match", "LEMMA_SLOT", "NOTE_SLOT", "Subject", "ep_matches", "case_matches", "rewrite",
           "rewrite_formula", "fresh_name", "note_of", "positive_atoms", "positive_conjuncts"]


@dataclass(frozen=True)
class Subject:
    """What a rule rewrites and reads: a formula, its answer variables and where its EPs are
    written in the question (no surface: the surface conditions hold of nothing)."""

    formula: Formula
    answers: tuple[Var, ...] = ()
    surface: Surface = NO_SURFACE
    #: the predicates the axioms name, for the ``known`` conditions
    known: Known = NOTHING_KNOWN
    #: the bindings of the matches a rewrite made (for a note that names what matched)
    matches: tuple[Match, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class _Facts:
    """The atoms of the formula (in order) and what the conditions read besides."""

    atoms: tuple[Atom, ...]
    free: frozenset[Var]
    answers: tuple[Var, ...]
    surface: Surface
    known: Known = NOTHING_KNOWN

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
    memo = p.pred_memo
    ok = memo.get(pred)
    if ok is None:
        ok = memo[pred] = _pred_test(p, pred)
    return ok


def _pred_test(p: EpPattern, pred: str) -> bool:
    if p.pred and pred not in p.pred:
        return False
    if pred in p.not_pred:
        return False
    if p.pred_re is not None and not _regex(p.pred_re).fullmatch(pred):
        return False
    if p.pos or p.lemma or p.not_lemma or p.unknown_word is not None or p.abstract is not None:
        info = predicate_info(pred)
        if p.pos and info.pos not in p.pos:
            return False
        if p.lemma and info.lemma not in p.lemma:
            return False
        if p.not_lemma and info.lemma in p.not_lemma:
            return False
        if p.unknown_word is not None and bool(info.is_unknown_word) != p.unknown_word:
            return False
        if p.abstract is not None and bool(info.is_abstract) != p.abstract:
            return False
    return True


def _bind(arg: ArgPattern, t: Term, env: Match) -> Match | None:
    if arg.value is not None:
        return env if isinstance(t, Literal) and t.lexical == arg.value else None
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


def _identified(facts: _Facts, x: Term, preds: Sequence[object]) -> set[Term]:
    """``x`` and what an EP of ``preds`` (an identity: ``P(e, a, b)``) identifies with it, in
    one pass over the atoms in order."""
    same = {x}
    for a in facts.atoms:
        if a.pred in preds and len(a.args) == 3 and (a.args[1] in same or a.args[2] in same):
            same |= {t for t in a.args[1:] if isinstance(t, Var)}
    return same


def _closure(start: set[Term], inputs: Sequence[Atom], env: Match, facts: _Facts,
             parts: Sequence[EpPattern]) -> set[Term]:
    """The variables reached from ``start`` through the EPs, other than ``inputs``, that fit
    one of ``parts``."""
    reached = set(start)
    grow = True
    while grow:
        grow = False
        for f in facts.atoms:
            if f in inputs or not reached & set(f.args) or not any(_fits(p, f, env, facts) is not None for p in parts):
                continue
            more = {t for t in f.args if isinstance(t, Var)} - reached
            if more:
                reached |= more
                grow = True
    return reached


def _where_ok(where: Sequence[Mapping[str, object]], env: Match, facts: _Facts,
              inputs: Sequence[Atom] = (), parts: Sequence[EpPattern] = (),
              around: Sequence[EpPattern] = ()) -> bool:
    named = None
    for w in where:
        (kind, value), = ((k, v) for k, v in w.items() if k != "__line__")
        given = value if isinstance(value, list) else [value]
        vals = [env.get(str(v).lstrip("$")) if str(v).startswith("$") else v for v in given]
        if kind == "differ":
            if len(set(vals)) != len(vals):
                return False
            continue
        t = vals[0]
        if kind in ("named", "not_named"):
            if named is None:
                named = {f.args[0] for f in facts.atoms if f.pred in ("named", "named_n") and f.args}
            if (t in named) != (kind == "named"):
                return False
        elif kind in ("free", "not_free"):
            if (t in facts.free) != (kind == "free"):
                return False
        elif kind in ("answer", "not_answer"):
            if (t in facts.answers) != (kind == "answer"):
                return False
        elif kind == "first_answer":
            if not facts.answers or facts.answers[0] != t:
                return False
        elif kind in ("closed", "covered"):
            # closed: every EP (not an input) touching what the case's parts reach from these
            # variables is a part; covered: every EP (not an input) is one around the phrase
            # (``around``) or a part touching what they reach or what the EPs around bind
            reached = _closure({v for v in vals if v is not None}, inputs, env, facts, parts)
            anchors: set[Term] = set()
            if kind == "covered":
                for f in facts.atoms:
                    for p in around:
                        e = _fits(p, f, env, facts) if f not in inputs else None
                        if e is not None:
                            anchors |= {v for k, v in e.items() if k not in env and not k.startswith("@")}
            for f in facts.atoms:
                if f in inputs:
                    continue
                if kind == "covered" and any(_fits(p, f, env, facts) is not None for p in around):
                    continue
                touches = bool((reached | anchors) & set(f.args))
                if (kind == "covered" or touches) and not (touches and any(
                        _fits(p, f, env, facts) is not None for p in parts)):
                    return False
        elif kind == "answers":  # N: the number of answers
            if len(facts.answers) != int(str(t)):
                return False
        elif kind == "answer_through":  # [$v, PRED ...]: v is the answer or an identity EP makes it so
            if not facts.answers or t not in _identified(facts, facts.answers[0], vals[1:]):
                return False
        elif kind == "said_only":  # [$v, PRED ...]: every other EP of v is an input or one of PRED
            if any(t in f.args and f not in inputs and f.pred not in vals[1:] for f in facts.atoms):
                return False
        elif kind == "other_answer":  # an answer other than t remains
            if not any(a != t for a in facts.answers):
                return False
        elif kind == "occurs":  # [$v, N]: v is an argument of exactly N atoms
            if sum(1 for f in facts.atoms if t in f.args) != int(str(vals[1])):
                return False
        elif kind == "written_lower":
            if not (isinstance(t, Var) and facts.surface.var_lower(t)):
                return False
        elif kind == "written_before":  # [$a, $b]: a (a noun or name) is written before b
            a, b = vals
            if not (isinstance(a, Var) and isinstance(b, Var)):
                return False
            start = facts.surface.var_start(a)
            if start < 0 or start >= facts.surface.var_start(b):
                return False
    return True


def _known_ok(p: EpPattern, a: Atom, known: Known) -> bool:
    if p.known is None and not p.known_arities and not p.known_not_arities:
        return True
    pred = known.predicate(predicate_info(a.pred).lemma)
    if p.known is not None and (pred is not None) != p.known:
        return False
    if p.known_arities and not (pred is not None and any(known.takes(pred, n) for n in p.known_arities)):
        return False
    return not (p.known_not_arities and pred is not None and any(known.takes(pred, n) for n in p.known_not_arities))


def _fits(p: EpPattern, a: Atom, env: Match, facts: _Facts) -> Match | None:
    """``ep_matches`` with the conditions that read the question and the known predicates."""
    e = ep_matches(p, a, env)
    if e is None or not _written_ok(p, a, facts.surface) or not _known_ok(p, a, facts.known):
        return None
    return e


def _written_ok(p: EpPattern, a: Atom, surface: Surface) -> bool:
    return not p.written or bool(surface.texts(a) & set(p.written))


def _head_ok(p: EpPattern, pred: str, arity: int) -> bool:
    """Whether an atom of ``pred`` and ``arity`` passes the tests of ``p`` on the predicate
    name and the number of arguments (the first tests of :func:`ep_matches`)."""
    n = len(p.args)
    return arity >= n and (p.rest or arity == n) and _pred_ok(p, pred)


@per_pair(maxsize=8192)
def _fitting(key: Same, atoms_key: Same) -> tuple[Atom, ...]:
    """The atoms (``atoms_key.obj``, in order) that pass the predicate and arity tests of
    the pattern ``key.obj``: no other atom fits it, whatever the bindings."""
    p = key.obj
    return tuple(a for a in atoms_key.obj if _head_ok(p, a.pred, len(a.args)))


def _candidates(p: EpPattern, env: Match, facts: _Facts) -> Sequence[Atom]:
    """The atoms pattern ``p`` is tried on, in order (those that cannot fit it left out)."""
    if p.after is None:
        fitting = _fitting(Same(p), Same(facts.atoms))
        return tuple(reversed(fitting)) if p.last else fitting
    # the one written first after the EP named ``after`` (of those that fit)
    anchor = env.get("@" + p.after)
    end = facts.surface.end(anchor) if isinstance(anchor, Atom) else None
    if end is None:
        return ()
    best, best_start = None, None
    for a in facts.atoms:
        start = facts.surface.start(a)
        if start is None or start < end or (best_start is not None and start >= best_start):
            continue
        if _fits(p, a, env, facts) is not None:
            best, best_start = a, start
    return () if best is None else (best,)


def _search(patterns: Sequence[tuple[EpPattern, bool]], env: Match, facts: _Facts,
            used: set[Atom], used_inputs: list[Atom], case: Case):
    """The first completion of ``env`` over ``patterns`` (each with whether it is an input)."""
    if not patterns:
        for p in case.unless:
            if any(_fits(p, a, env, facts) is not None for a in _fitting(Same(p), Same(facts.atoms))):
                return None
        if case.where and not _where_ok(case.where, env, facts, used_inputs, case.parts, case.around):
            return None
        return env, list(used_inputs)
    (p, is_input), rest = patterns[0], patterns[1:]
    found_one = None
    for a in _candidates(p, env, facts):
        if is_input and (a in used or a in used_inputs):
            continue
        e = _fits(p, a, env, facts)
        if e is None:
            continue
        found = _search(rest, e, facts, used, used_inputs + ([a] if is_input else []), case)
        if found is None:
            continue
        if not p.only:
            return found
        if found_one is not None:
            return None  # ``only``: a second EP completes the match
        found_one = found
    return found_one


def case_matches(case: Case, first: Atom, facts: Sequence[Atom] | _Facts, used: set[Atom] = frozenset(),
                 free: frozenset[Var] = frozenset()):
    """The first match of ``case`` whose first input EP is ``first`` among ``facts`` (the
    atoms of the formula, in order; ``used``: inputs of earlier matches): ``(bindings, input
    atoms)``, or None."""
    if not isinstance(facts, _Facts):
        facts = _Facts(tuple(facts), free, (), NO_SURFACE)
    if first in used:
        return None
    env = _fits(case.input[0], first, {}, facts)
    if env is None:
        return None
    rest = [(p, True) for p in case.input[1:]] + [(p, False) for p in case.context]
    return _search(rest, env, facts, set(used), [first], case)


def fresh_name(template: str, env: Match) -> str:
    """A fresh variable's name: ``template`` with ``{v}`` replaced by the name of bound ``v``."""
    return re.sub(r"\{(\w+)\}", lambda m: getattr(env.get(m.group(1)), "name", m.group(1)), template)


#: In an output's ``pred``, ``{lemma:NAME}`` stands for the lemma of the input EP NAME and
#: ``{known:NAME}`` for the known predicate of that lemma.
LEMMA_SLOT = re.compile(r"\{(lemma|known):(\w+)\}")


#: The output predicate that writes an equality of its two arguments.
EQUALITY = "="


def _written(out: EpOutput, env: Match, fresh: Mapping[str, Var], known: Known = NOTHING_KNOWN) -> Formula:
    args = tuple(fresh[a[1:]] if a[1:] in fresh else env[a[1:]] for a in out.args)
    if out.pred == EQUALITY:
        return Eq(*args)
    if out.pred is not None:
        def slot(m: re.Match) -> str:
            lemma = predicate_info(env["@" + m.group(2)].pred).lemma
            return str(lemma if m.group(1) == "lemma" else known.predicate(lemma))
        pred = LEMMA_SLOT.sub(slot, out.pred)
    else:
        pred = env["@" + str(out.like)].pred
    return Atom(pred, args)


def _replacements(case: Case, env: Match, inputs: Sequence[Atom], known: Known = NOTHING_KNOWN) -> dict[Atom, Formula]:
    names = {p.name: a for p, a in zip(case.input, inputs) if p.name is not None}
    fresh = {v: Var(fresh_name(t, env)) for v, t in case.fresh.items()}
    at: dict[Atom, list[EpOutput]] = {a: [] for a in inputs}
    for out in case.output:
        at[names[out.at] if out.at is not None else inputs[0]].append(out)
    repl: dict[Atom, Formula] = {}
    for a, outs in at.items():
        written = [_written(o, env, fresh, known) for o in outs]
        here = [fresh[v] for v in fresh if any(fresh[v] in free_vars(w) for w in written)]
        repl[a] = exists(here, conj(*written)) if written else TRUE
    return repl


def _made(subject: Subject, matches: Sequence[tuple[Case, Match, list[Atom]]], free: frozenset[Var]) -> Subject | None:
    """The subject with the rewrites of ``matches`` made (None: a variable left its scope)."""
    repl: dict[Atom, Formula] = {}
    gone: list[Var] = []
    for case, env, inputs in matches:
        repl.update(_replacements(case, env, inputs, subject.known))
        gone += [env[v[1:]] for v in case.unanswer if isinstance(env.get(v[1:]), Var)]
    new = map_atoms(subject.formula, lambda f: repl.get(f, f))
    answers = subject.answers
    if gone:
        answers = tuple(v for v in answers if v not in gone)
        new = exists(gone, new)
    if free_vars(new) - free:
        return None
    return Subject(new, answers, subject.surface, subject.known)


def positive_conjuncts(f: Formula) -> list[Formula]:
    """The positive conjunctive core of ``f``: its atoms and equalities not under a negation,
    a disjunction, an implication or a universal quantifier (existentials opened), in order."""
    out: list[Formula] = []

    def go(g: Formula) -> None:
        if isinstance(g, (Atom, Eq)):
            out.append(g)
        elif isinstance(g, And):
            for a in g.args:
                go(a)
        elif isinstance(g, Exists):
            go(g.body)

    go(f)
    return out


def positive_atoms(f: Formula) -> list[Atom]:
    """The atoms of :func:`positive_conjuncts`."""
    return [g for g in positive_conjuncts(f) if isinstance(g, Atom)]


@per_pair(maxsize=1024)
def _read(key: Same, positive_core: bool) -> tuple[frozenset[Var], tuple[Atom, ...]]:
    """The free variables of a formula (``key.obj``) and its atoms (its positive atoms with
    ``positive_core``), in order: read once per formula object (the corrections of a reading
    read the same formula one rule after the other)."""
    f = key.obj
    return free_vars(f), tuple(positive_atoms(f) if positive_core else atoms(f))


@per_pair(maxsize=8192)
def _first_fits(key: Same, pred: str, arity: int) -> tuple[Case, ...]:
    """The cases (of ``key.obj``, in order) whose first input EP's tests of the predicate
    name and of the number of arguments an atom of ``pred`` and ``arity`` passes (no other
    case can match with that atom first)."""
    return tuple(case for case in key.obj if _head_ok(case.input[0], pred, arity))


def _step(cases: Sequence[Case], subject: Subject, positive_core: bool = False) -> Subject:
    """One pass of ``cases`` over ``subject`` (see the module's doc)."""
    formula = subject.formula
    free, found_atoms = _read(Same(formula), positive_core)
    facts = _Facts(found_atoms, free, tuple(subject.answers), subject.surface, subject.known)
    used: set[Atom] = set()
    matches: list[tuple[Case, Match, list[Atom]]] = []
    same_cases = Same(cases)
    for a in facts.atoms:
        if a in used:
            continue
        for case in _first_fits(same_cases, a.pred, len(a.args)):
            found = case_matches(case, a, facts, used)
            if found is None:
                continue
            env, inputs = found
            used.update(inputs)
            matches.append((case, env, inputs))
            break
    if not matches:
        return subject
    made = _made(subject, matches, free)
    if made is None and any(c.optional for c, _, _ in matches):
        matches = [m for m in matches if not m[0].optional]
        made = _made(subject, matches, free)
    if made is None:
        return subject
    envs = tuple(dict(env, **({"@note": case.note} if case.note else {})) for case, env, _ in matches)
    return replace(made, matches=tuple(subject.matches) + envs)


def rewrite(rule: Rule, subject: Subject) -> Subject:
    """``subject`` rewritten by the declarative ``rule`` (see the module's doc): its cases,
    then each of its further steps (``then``) on what the one before made, when the first
    made anything; ``subject`` itself when no case matches or the rewrite would leave a
    variable out of scope."""
    done = _step(rule.cases, subject, rule.positive_core)
    if done is subject:
        return subject
    for cases in rule.then:
        done = _step(cases, done, rule.positive_core)
    return done


#: In a note, ``{lemma:NAME|OTHER}`` stands for the lemma of the EP called NAME in every
#: match, or OTHER when the matches' lemmas differ.
NOTE_SLOT = re.compile(r"\{lemma:(\w+)(?:\|([^}]*))?\}")


def note_of(template: str, matches: Sequence[Match]) -> str:
    """``template`` (or the note of the case of the first match that has one) with its
    ``{lemma:NAME|OTHER}`` slots filled from ``matches``."""
    template = next((str(env["@note"]) for env in matches if env.get("@note")), template)
    def fill(m: re.Match) -> str:
        lemmas = [str(predicate_info(env["@" + m.group(1)].pred).lemma) for env in matches
                  if isinstance(env.get("@" + m.group(1)), Atom)]
        if lemmas and len(set(lemmas)) == 1:
            return lemmas[0]
        return m.group(2) or (lemmas[0] if lemmas else "")
    return NOTE_SLOT.sub(fill, template)


def rewrite_formula(rule: Rule, formula: Formula) -> Formula:
    """``formula`` rewritten by the declarative ``rule`` (no answers, no surface: see
    :func:`rewrite`)."""
    return rewrite(rule, Subject(formula)).formula
