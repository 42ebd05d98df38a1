"""MRS -> logic: T(question) as a formula of :mod:`verifier.logic`.

For each MRS reading: read it (:func:`~parsers.mrs.simplemrs.coerce_mrs`), refuse what the
logic cannot express (quantifiers such as *most*, opaque predicates such as *want*), analyse
the question (:mod:`parsers.mrs.question`), resolve scopes (:mod:`parsers.mrs.scope`) and
translate each scoped reading:

* an existential quantifier ``q(x, R, B)`` gives ``exists x. R & B``; a universal
  ``forall x. R -> B``; ``_no_q`` ``~exists x. R & B``; the quantifier of an answer
  variable gives ``R & B`` with ``x`` left free;
* an ordinary EP gives the atom ``pred(ARG0, ARG1, ..., "CARG")``; a handle argument is
  represented in the atom by the ``ARG0`` of the head predication of the label it leads to
  (an event, as in DMRS) or, when that is a quantified individual, by the handle itself,
  and its content is conjoined (``neg`` negates it, ``_if_x_then`` makes an implication,
  ``_or_c`` a disjunction);
* variables no quantifier binds (events ``e``, ``i``, ``u``, unquantified ``x``, handle
  terms) are closed existentially at the smallest subformula holding all their
  occurrences.

The result is in a normal form: nested existentials inside a conjunction are merged, the
conjuncts of a block appear in MRS order and the variables of a quantifier block in
numeric order, so scoped readings that differ only in the order of existential quantifiers
give the same formula and are reported once.  Nothing here raises on bad input: a reading
that cannot be translated gives a :class:`TranslationFailure` with a reason.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Sequence, Union

from verifier.logic import (
    TRUE, And, Atom, Exists, Forall, Formula, Implies, Literal, Not, Term, Truth, Var, atoms,
    conj, disj, free_vars,
)
from verifier.vocabulary import vocabulary

from parsers.mrs.predicates import predicate_info, quantifier_kind, scopal_is_assumed, scopal_kind
from parsers.mrs.question import Intent, QuestionAnalysis, analyse_question
from parsers.mrs.scope import ScopeError, ScopeProblem, scope_problem, solve
from parsers.mrs.simplemrs import coerce_mrs
from parsers.mrs.structure import EP, Mrs, MrsError, var_type

#: the English words of the MRS front end (``axioms/words/question.yaml``)
_WORDS = vocabulary("question")

__all__ = [
    "QuestionLogic", "TranslationFailure", "Translation", "translate_mrs", "translate_readings",
    "rank_translations", "best_translation", "attach_detached_relatives", "relatives_on_nouns", "DEFAULT_MAX_SCOPES",
]

log = logging.getLogger(__name__)

#: Default cap on the scoped readings enumerated per MRS.
DEFAULT_MAX_SCOPES = 4


@dataclass(frozen=True, slots=True)
class QuestionLogic:
    """One translated reading: T(question).

    ``formula`` has the answer variables free and every other variable closed;
    ``answer_vars`` are in question order; ``reading_index`` is the position of the MRS in
    the input list and ``scope_index`` the position of the (first) scoped reading that gave
    this formula.  ``fragment``: the MRS is a fragment or robust analysis (an ``unknown``
    predication); ``relaxed``: no fully scoped reading existed and some holes were left
    empty (read as ``true``); ``warnings`` lists repairs and assumptions (e.g. a scopal
    argument read as asserted).  ``mrs`` is the source reading.
    """

    formula: Formula
    answer_vars: tuple[Var, ...]
    intent: Intent
    sentence_force: str | None
    reading_index: int
    scope_index: int
    mrs: Mrs = field(compare=False, repr=False)
    fragment: bool = False
    relaxed: bool = False
    warnings: tuple[str, ...] = ()

    ok = True
    reason = None

    def __str__(self) -> str:
        ans = ", ".join(v.name for v in self.answer_vars) or "-"
        return f"[{self.intent.kind}; answer: {ans}] {self.formula}"


@dataclass(frozen=True, slots=True)
class TranslationFailure:
    """A reading that could not be translated.

    ``kind``: ``unsupported`` (the logic cannot express it: the verdict must be
    ``unknown``), ``unscopable``, ``malformed`` or ``error`` (a bug, logged).  ``reason`` is
    short and stable (good for counting), ``detail`` says more.
    """

    reason: str
    kind: str
    reading_index: int
    detail: str = ""
    mrs: Mrs | None = field(default=None, compare=False, repr=False)
    sentence_force: str | None = None

    ok = False

    def __str__(self) -> str:
        return f"[{self.kind}] {self.reason}" + (f": {self.detail}" if self.detail else "")


Translation = Union[QuestionLogic, TranslationFailure]


class _Unsupported(Exception):
    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.reason, self.detail = reason, detail


_NUM_RE = re.compile(r"\d+")


@lru_cache(maxsize=1 << 16)
def _var(name: str) -> Var:
    return Var(name)


@lru_cache(maxsize=1 << 16)
def _string(text: str) -> Literal:
    return Literal(text)


@lru_cache(maxsize=1 << 16)
def _term(value: str) -> tuple[Term, bool]:
    """An argument value as a term: a variable, or (rarely) a constant string."""
    if var_type(value):
        return Var(value), True
    return Literal(value), False


class _Prepared:
    """Scope-independent parts of one MRS: atoms, hole handling, variable occurrences."""

    def __init__(self, m: Mrs, p: ScopeProblem, qa: QuestionAnalysis) -> None:
        self.m, self.p, self.qa = m, p, qa
        eps = m.eps
        answer = set(qa.answer_vars)
        closed_wh = set(qa.closed_wh_vars)
        self.warnings: list[str] = list(p.repairs)
        # quantifier translation per fragment
        self.qkind: list[str | None] = [None] * len(p.frag_eps)
        bound: set[str] = set()
        sensitive = False
        for f, qi in enumerate(p.frag_quant):
            if qi < 0:
                continue
            ep = eps[qi]
            v = p.frag_var[f] or ""
            bound.add(v)
            kind = quantifier_kind(ep.pred)
            if kind == "unsupported":
                raise _Unsupported(f"unsupported quantifier {ep.pred}",
                                   f"{ep.pred}({v}) has no first-order reading")
            if v in answer:
                kind = "free"
            elif kind == "wh" or kind == "free_relative" or v in closed_wh:
                kind = "exists"
            elif kind == "forall" or kind == "no":
                sensitive = True
            self.qkind[f] = kind
        # holes per EP
        ep_holes: dict[int, list[tuple[str, int]]] = {}
        hole_ep, hole_role = p.hole_ep, p.hole_role
        for h in range(1, len(hole_ep)):
            ep_holes.setdefault(hole_ep[h], []).append((hole_role[h], h))
        self.ep_holes = ep_holes
        # atoms and the handling of each EP
        n = len(eps)
        atom_out: list[Atom | None] = [None] * n
        mode_out: list[str] = ["quant"] * n
        self.atom, self.ep_mode = atom_out, mode_out
        occ: dict[str, list[int]] = {}
        rep_cache: dict[int, str | None] = {}
        skip = bound | answer
        hole_target = p.hole_target
        for f, members in enumerate(p.frag_eps):
            for i in members:
                ep = eps[i]
                if ep.is_quantifier:
                    continue
                holes = ep_holes.get(i)
                if holes:
                    mode = scopal_kind(ep.pred)
                    if mode == "opaque":
                        raise _Unsupported(f"unsupported scopal predicate {ep.pred}",
                                           f"{ep.pred} does not assert its scopal argument")
                    if mode != "conj":
                        sensitive = True
                    elif scopal_is_assumed(ep.pred):
                        self.warnings.append(f"{ep.pred}: scopal argument read as asserted")
                    mode_out[i] = mode
                    if mode == "neg" or mode == "cond":
                        continue
                    hole_of_role = dict(holes)
                else:
                    mode_out[i] = "atom"
                    hole_of_role = None
                args: list[Term] = []
                for role, val in ep.args:
                    if hole_of_role is not None and role in hole_of_role:
                        t = hole_target[hole_of_role[role]]
                        name = val
                        if t >= 0:
                            r = rep_cache.get(t, 0)
                            if r == 0:
                                r = rep_cache[t] = _representative(eps, p.frag_eps[t], bound)
                            if r is not None:
                                name = r
                        args.append(_var(name))
                        if name not in skip:
                            occ.setdefault(name, []).append(f)
                        continue
                    term, is_var = _term(val)
                    args.append(term)
                    if is_var and val not in skip:
                        o = occ.get(val)
                        if o is None:
                            occ[val] = [f]
                        else:
                            o.append(f)
                if ep.carg is not None:
                    args.append(_string(ep.carg))
                atom_out[i] = Atom(ep.pred, tuple(args))
        self.occ = occ
        self.sensitive = sensitive


def _representative(eps: Sequence[EP], members: Sequence[int], bound: set[str]) -> str | None:
    """ARG0 of the head EP of a fragment (the EP taking no other EP of the fragment as an
    argument), when it is not a quantified variable."""
    cands = [i for i in members if not eps[i].is_quantifier]
    if not cands:
        return None
    ivs = {eps[i].iv for i in cands}
    heads = [i for i in cands if not any(v in ivs and v != eps[i].iv for _, v in eps[i].args)]
    r = eps[(heads or cands)[0]].iv
    if r is not None and r not in bound and var_type(r):
        return r
    return None


#: operation codes of :class:`_Program` (one per EP of a fragment)
_OP_FILL, _OP_EXISTS, _OP_FORALL, _OP_NO, _OP_ATOM, _OP_NEG, _OP_COND, _OP_DISJ = range(8)


class _Program:
    """What :func:`_build` does for each fragment of one MRS, worked out once and shared by
    all its scoped readings: per fragment a tuple of operations (one per EP, in MRS order),
    and the variables closed at a fixed fragment (those occurring in one fragment only) or
    needing a common ancestor (the distinct fragments they occur in)."""

    __slots__ = ("ops", "leaf", "close_fixed", "close_lca")

    def __init__(self, prep: _Prepared) -> None:
        p = prep.p
        eps = prep.m.eps
        ep_holes, qkind, atom, ep_mode = prep.ep_holes, prep.qkind, prep.atom, prep.ep_mode
        ops: list[tuple[tuple, ...]] = []
        for f, members in enumerate(p.frag_eps):
            qi = p.frag_quant[f]
            out: list[tuple] = []
            for i in members:
                mode = ep_mode[i]
                holes = ep_holes.get(i, ())
                if mode == "quant":
                    roles = dict(holes)
                    rh, bh = roles.get("RSTR"), roles.get("BODY")
                    if i != qi:  # binds nothing (repaired double binding)
                        if holes:
                            out.append((_OP_FILL, i, tuple(h for _, h in holes)))
                        continue
                    x = eps[i].iv or ""
                    kind = qkind[f]
                    if kind == "exists" or kind == "free":
                        fills = tuple(h for h in (rh, bh) if h is not None)
                        out.append((_OP_EXISTS, i, fills, x if kind == "exists" else None))
                    elif kind == "forall":
                        out.append((_OP_FORALL, i, _var(x), rh, bh))
                    elif kind == "no":
                        out.append((_OP_NO, i, x, rh, bh))
                    continue
                a = atom[i]
                if a is not None:
                    out.append((_OP_ATOM, i, a))
                if not holes:
                    continue
                if mode == "conj":
                    out.append((_OP_FILL, i, tuple(h for _, h in holes)))
                elif mode == "neg":
                    out.append((_OP_NEG, i, tuple(h for _, h in holes)))
                elif mode == "cond":
                    roles = dict(holes)
                    out.append((_OP_COND, i, roles.get("ARG2"), roles.get("ARG1")))
                elif mode == "disj":
                    out.append((_OP_DISJ, i, tuple(h for _, h in holes)))
            ops.append(tuple(out))
        self.ops = tuple(ops)
        #: per fragment made of atoms only (no quantifier, no hole): its ``(EP, atom)`` items
        self.leaf = tuple(tuple((o[1], o[2]) for o in fops)
                          if all(o[0] == _OP_ATOM for o in fops) else None for fops in ops)
        fixed: dict[int, list[str]] = {}
        lca: list[tuple[str, tuple[int, ...]]] = []
        for v, frags in prep.occ.items():
            distinct = tuple(dict.fromkeys(frags))
            if len(distinct) == 1:
                fixed.setdefault(distinct[0], []).append(v)
            else:
                lca.append((v, distinct))
        self.close_fixed = fixed
        self.close_lca = tuple(lca)


@lru_cache(maxsize=1 << 16)
def _name_key(name: str) -> tuple[int, str]:
    m = _NUM_RE.search(name)
    return (int(m.group()) if m else 1 << 30, name)


def _close(evars: list[str], items: list[tuple[int, Formula]]) -> Formula:
    """The formula of a block: its items in MRS order (stable), conjoined, under one
    existential over its variables in numeric order (their names' numbers, then names)."""
    if len(items) > 1:
        items.sort(key=_first)
    parts = [f for _, f in items]
    for f in parts:
        if isinstance(f, (And, Truth)):
            body = conj(parts)
            break
    else:  # what conj gives when there is nothing to flatten or drop
        body = parts[0] if len(parts) == 1 else And(tuple(parts)) if parts else TRUE
    if evars:
        vs = tuple(_var(n) for n in sorted(set(evars), key=_name_key))
        if isinstance(body, Exists):
            return Exists(vs + body.vars, body.body)
        return Exists(vs, body)
    return body


def _first(kv: tuple[int, Formula]) -> int:
    return kv[0]


def _build(prep: _Prepared, plug: Sequence[int], prog: _Program | None = None) -> Formula:
    """The formula of the scoped reading ``plug`` of a prepared MRS; ``prog`` is
    :class:`_Program` of ``prep`` (made here when not given: pass it to share it between the
    readings of one MRS)."""
    if prog is None:
        prog = _Program(prep)
    p = prep.p
    nf = len(p.frag_eps)
    # parent fragment and depth of each plugged fragment
    parent = [-1] * nf
    hole_owner = p.hole_owner
    for h, f in enumerate(plug):
        if f >= 0:
            parent[f] = hole_owner[h]
    depth = [-1] * nf

    def get_depth(f: int) -> int:
        g = f
        chain = []
        while g >= 0 and depth[g] < 0:
            chain.append(g)
            g = parent[g]
        base = depth[g] + 1 if g >= 0 else 0
        for k, c in enumerate(reversed(chain)):
            depth[c] = base + k
        return depth[f]

    close_here: dict[int, list[str]] = {f: list(vs) for f, vs in prog.close_fixed.items()}
    for v, frags in prog.close_lca:
        a = frags[0]
        for b in frags[1:]:
            if a == b:
                continue
            da, db = get_depth(a), get_depth(b)
            while da > db:
                a = parent[a]
                da -= 1
            while db > da:
                b = parent[b]
                db -= 1
            while a != b and a >= 0 and b >= 0:
                a, b = parent[a], parent[b]
            if a < 0 or b < 0:
                a = -1
                break
        here = close_here.get(a)
        if here is None:
            close_here[a] = [v]
        else:
            here.append(v)

    ops, leaf = prog.ops, prog.leaf

    def sub(h: int | None) -> Formula:
        evars: list[str] = []
        items: list[tuple[int, Formula]] = []
        if h is not None:
            f = plug[h]
            if f >= 0:
                frag(f, evars, items)
        return _close(evars, items)

    def frag(f: int, evars: list[str], items: list[tuple[int, Formula]]) -> None:
        for op in ops[f]:
            code = op[0]
            if code == _OP_ATOM:
                items.append((op[1], op[2]))
            elif code == _OP_EXISTS or code == _OP_FILL:
                for h in op[2]:
                    g = plug[h]
                    if g < 0:
                        continue
                    lf = leaf[g]
                    if lf is None:
                        frag(g, evars, items)
                        continue
                    items.extend(lf)  # frag(g, ...) without the call
                    here = close_here.get(g)
                    if here:
                        evars.extend(here)
                if code == _OP_EXISTS and op[3] is not None:
                    evars.append(op[3])
            elif code == _OP_FORALL:
                items.append((op[1], Forall((op[2],), Implies(sub(op[3]), sub(op[4])))))
            elif code == _OP_NO:
                nv: list[str] = []
                ni: list[tuple[int, Formula]] = []
                for h in (op[3], op[4]):
                    if h is not None:
                        g = plug[h]
                        if g >= 0:
                            frag(g, nv, ni)
                nv.append(op[2])
                items.append((op[1], Not(_close(nv, ni))))
            elif code == _OP_NEG:
                i = op[1]
                for h in op[2]:
                    items.append((i, Not(sub(h))))
            elif code == _OP_COND:
                items.append((op[1], Implies(sub(op[2]), sub(op[3]))))
            else:  # _OP_DISJ
                items.append((op[1], disj(sub(h) for h in op[2])))
        here = close_here.get(f)
        if here:
            evars.extend(here)

    evars: list[str] = []
    items: list[tuple[int, Formula]] = []
    g = plug[p.top_hole]
    if g >= 0:
        frag(g, evars, items)
    if -1 in close_here:
        evars.extend(close_here[-1])
    return _close(evars, items)


def _flat(prep: _Prepared) -> Formula:
    """The formula of every scoped reading of a scope-insensitive MRS (only existential or
    answer quantifiers, only asserted scopal arguments): one block, all atoms in MRS order,
    every non-answer variable existentially closed.  Equal to :func:`_build` on any
    solution, without walking it."""
    p = prep.p
    items = [(i, a) for i, a in enumerate(prep.atom) if a is not None]
    evars = [p.frag_var[f] or "" for f, kind in enumerate(prep.qkind) if kind == "exists"]
    evars.extend(prep.occ)
    return _close(evars, items)


def translate_mrs(mrs: Any, *, max_scopes: int = DEFAULT_MAX_SCOPES,
                  reading_index: int = 0) -> list[Translation]:
    """Translate one MRS reading (a PyDelphin ``MRS``, a SimpleMRS string or a
    :class:`~parsers.mrs.structure.Mrs`).

    Returns one :class:`QuestionLogic` per distinct formula among the first
    ``max_scopes`` scoped readings (readings whose quantifiers are all existential give a
    single formula), or a single :class:`TranslationFailure`.  Never raises.
    """
    try:
        m = coerce_mrs(mrs)
    except MrsError as e:
        return [TranslationFailure("malformed MRS", "malformed", reading_index, str(e))]
    try:
        return _translate(m, max_scopes, reading_index)
    except _Unsupported as e:
        return [TranslationFailure(e.reason, "unsupported", reading_index, e.detail, m,
                                   m.sentence_force)]
    except ScopeError as e:
        return [TranslationFailure("unscopable: " + _scope_reason(str(e)), "unscopable",
                                   reading_index, str(e), m, m.sentence_force)]
    except RecursionError:
        return [TranslationFailure("MRS too deep", "malformed", reading_index,
                                   "recursion limit reached", m, m.sentence_force)]
    except Exception as e:  # never crash on odd input; a bug, so log it
        log.warning("MRS translation failed unexpectedly (reading %d)", reading_index,
                    exc_info=True)
        return [TranslationFailure(f"internal error: {type(e).__name__}", "error",
                                   reading_index, str(e), m, m.sentence_force)]


_SCOPE_REASONS = (
    ("bound by two", "variable bound twice"),
    ("share the label", "two quantifiers share a label"),
    ("two qeq", "hole with two qeq constraints"),
    ("argument of two", "handle used twice"),
    ("gave up", "search budget exhausted"),
    ("no TOP", "no TOP"),
    ("no predications", "empty MRS"),
    ("RSTR or BODY", "quantifier without RSTR or BODY"),
    ("ARG0", "quantifier without ARG0"),
)


def _scope_reason(msg: str) -> str:
    for needle, reason in _SCOPE_REASONS:
        if needle in msg:
            return reason
    return msg.split(" (")[0]


def _generic_heads(m: Mrs) -> dict[str, int]:
    """How many ``generic_entity`` predications each variable has."""
    generic: dict[str, int] = {}
    for ep in m.eps:
        if ep.pred == "generic_entity" and ep.iv is not None:
            generic[ep.iv] = generic.get(ep.iv, 0) + 1
    return generic


def _attach_relatives(m: Mrs, heads: dict[str, str]) -> Mrs:
    """``m`` with each detached relative clause's ``generic_entity`` variable (a key of
    ``heads``) renamed to its head (the value), and that variable's quantifier and
    ``generic_entity`` predication dropped."""
    drop_labels: set[str] = set()
    eps: list[EP] = []
    for ep in m.eps:
        if ep.iv in heads and (ep.is_quantifier or ep.pred == "generic_entity"):
            if ep.is_quantifier:
                rstr = ep.arg("RSTR")
                if rstr is not None:
                    drop_labels.add(rstr)
            continue
        if any(val in heads for _, val in ep.args):
            ep = ep._replace(args=tuple((r, heads.get(v, v)) for r, v in ep.args))
        eps.append(ep)
    hcons = tuple(h for h in m.hcons if h.hi not in drop_labels)
    return Mrs(m.top, m.index, tuple(eps), hcons, m.variables, m.icons)


def attach_detached_relatives(m: Mrs, answer_vars: Sequence[str]) -> tuple[Mrs, bool]:
    """Attach a relative clause that the parse left without a head to the answer.

    A robust analysis writes a relative clause it could not attach as ``relative_mod(i, x,
    h)`` about a ``generic_entity(x)`` that nothing else mentions ("What is the language
    used by Esther Bubley *that has a feminine grammatical gender*?": the language has the
    gender, but the parse says only that *something* has it).  In a question with one answer
    variable ``a`` the clause is read as being about the answer: ``x`` is renamed ``a`` and
    its quantifier and ``generic_entity`` predication are dropped.  Returns the MRS and
    whether anything changed (the MRS itself when nothing did).  (:func:`relatives_on_nouns`
    gives the reading in which such a clause is about the noun written right before it.)
    """
    if len(answer_vars) != 1:
        return m, False
    a = answer_vars[0]
    generic = _generic_heads(m)
    detached = {ep.arg("ARG1") for ep in m.eps if ep.pred == "relative_mod"}
    targets = {x for x in detached if x in generic and x != a and generic[x] == 1}
    if not targets:
        return m, False
    return _attach_relatives(m, {x: a for x in targets}), True


#: The words that open a relative clause.
_RELATIVIZER = _WORDS.pattern("relativizer")


def relatives_on_nouns(m: Mrs, question: str) -> Mrs | None:
    """``m`` with each relative clause that the parse left without a head (see
    :func:`attach_detached_relatives`) attached to the common noun written right before its
    relative pronoun ("What is the sports league of the team *that Willie Williams played
    for*?": the team he played for, not the league; "the population of the city *where Jack
    Sarfatti was born*"), as a restrictive relative clause is;
    ``None`` when there is no such clause, or no common noun right before its pronoun (a
    name, a comma or another word there: the clause stays the answer's).  The clause is the
    relative's scopal argument; its pronoun, the last one the question writes before the
    clause's first word."""
    generic = _generic_heads(m)
    lo_of = {h.hi: h.lo for h in m.hcons}
    heads: dict[str, str] = {}
    for rel in m.eps:
        x = rel.arg("ARG1")
        if rel.pred != "relative_mod" or x is None or generic.get(x) != 1:
            continue
        label = lo_of.get(rel.arg("ARG2") or "", rel.arg("ARG2"))
        starts = [ep.cfrom for ep in m.eps if ep.label == label and ep.cfrom >= 0 and not ep.is_quantifier]
        if not starts:
            continue
        # "where" is a predication of its clause (``loc_nonsp``), so the clause may start with it
        own = _RELATIVIZER.match(question, min(starts))
        pronouns = [own] if own else list(_RELATIVIZER.finditer(question[:min(starts)]))
        if not pronouns:
            continue
        at = pronouns[-1].start()
        nouns = [ep for ep in m.eps
                 if not ep.is_quantifier and ep.iv and var_type(ep.iv) == "x" and ep.iv != x
                 and 0 <= ep.cfrom < ep.cto <= at and question[ep.cto - 1].isalnum()
                 and not question[ep.cto:at].strip()]
        for ep in nouns:
            info = predicate_info(ep.pred)
            if info.pos == "n" and not info.is_abstract:
                heads[x] = ep.iv
                break
    if not heads:
        return None
    return _attach_relatives(m, heads)


def _translate(m: Mrs, max_scopes: int, reading_index: int,
               check: bool = False) -> list[Translation]:
    qa = analyse_question(m)
    m, attached = attach_detached_relatives(m, qa.answer_vars)
    p = scope_problem(m)
    prep = _Prepared(m, p, qa)
    # scope-sensitive readings: enumerate more scopings than asked for, since several
    # usually give the same formula (existentials commuting) and are reported once
    cap = max(1, max_scopes) * 4 if prep.sensitive else 1
    relaxed = False
    sols = solve(p, cap)
    if not sols:
        sols = solve(p, 1, relaxed=True)
        relaxed = True
        if not sols:
            nf, nh = len(p.frag_eps), len(p.hole_names)
            why = ("no scoped reading satisfies the constraints" if nf <= nh else
                   "more predication groups than holes")
            raise ScopeError(f"{why} ({nf} fragments, {nh} holes)")
    answer = tuple(Var(v) for v in qa.answer_vars)
    allowed = frozenset(answer)
    warnings = tuple(dict.fromkeys(prep.warnings))
    if relaxed:
        warnings += ("no fully scoped reading; empty holes read as true",)
    if attached:
        warnings += ("a relative clause without a head read as about the answer",)
    out: list[Translation] = []
    seen: list[Formula] = []
    prog = _Program(prep) if prep.sensitive else None
    for k, plug in enumerate(sols):
        f = _build(prep, plug, prog) if prog is not None else _flat(prep)
        if len(sols) > 1:
            if f in seen:
                continue
            seen.append(f)
        if check:
            stray = free_vars(f) - allowed
            if stray:
                raise ScopeError("unbound variable(s) "
                                 + ", ".join(sorted(v.name for v in stray)))
        out.append(QuestionLogic(f, answer, qa.intent, qa.sentence_force, reading_index, k, m,
                                 qa.fragment, relaxed, warnings))
        if len(out) >= max(1, max_scopes):
            break
    return out


def translate_readings(mrs_list: Iterable[Any], *,
                       max_scopes: int = DEFAULT_MAX_SCOPES) -> list[Translation]:
    """Translate every reading of a question; results carry their ``reading_index``.

    Each reading contributes its distinct scoped formulas or one failure, in input order.
    """
    out: list[Translation] = []
    for i, m in enumerate(mrs_list):
        out.extend(translate_mrs(m, max_scopes=max_scopes, reading_index=i))
    return out


#: The grammar's nouns of a time or a place ("when" and "where" answers).
_LOCATIVE_NOUNS = _WORDS.word_set("locative_nouns")


def _answer_features(t: "QuestionLogic") -> tuple[bool, bool, bool]:
    """(answer variable is a proper name, answer variable lacks a noun restriction, a
    "when"/"where" answer is an argument of something other than ``loc_nonsp``)."""
    if not t.answer_vars:
        return (False, False, False)
    v = t.answer_vars[0]
    named = noun = locative = loc_ok = False
    for a in atoms(t.formula):
        if v not in a.args:
            continue
        if a.args[0] == v:
            if a.pred == "named":
                named = True
            elif a.pred in _LOCATIVE_NOUNS:
                locative = True
            info = predicate_info(a.pred)
            if info.pos == "n" and not info.is_abstract:
                noun = True
        elif a.pred == "loc_nonsp":
            loc_ok = True
    return (named, not noun, locative and not loc_ok)


def _rank_key(t: Translation) -> tuple:
    if not t.ok:
        return (1,)
    assert isinstance(t, QuestionLogic)
    sf_ok = t.sentence_force in ("ques", "comm", "prop-or-ques")
    named, no_noun, loose_locative = _answer_features(t)
    return (0, t.relaxed, t.fragment, not sf_ok, not t.answer_vars, named, loose_locative,
            no_noun, len(t.warnings), t.reading_index, t.scope_index)


def rank_translations(results: Iterable[Translation]) -> list[Translation]:
    """Order results by plausibility (the ERG readings of the shared corpus are unranked).

    Translated before failed, fully scoped before relaxed, full sentences before fragments,
    question or command force before statements, readings with answer variables (a
    wh-word or a request) before readings without, then readings whose first answer variable
    is not a proper name and is restricted by a common noun ("what position" read with
    ``_position_n_1`` rather than as a verb) and whose "when"/"where" answer is a
    ``loc_nonsp`` modifier (not the object of a verb), fewer repairs, then input order.  A heuristic:
    with a parse-ranking model (the released ERG) the input order is usually better.
    """
    return sorted(results, key=_rank_key)


def best_translation(results: Iterable[Translation]) -> QuestionLogic | None:
    """The first translated reading after :func:`rank_translations` (``None`` if none)."""
    for t in rank_translations(results):
        if isinstance(t, QuestionLogic):
            return t
    return None
