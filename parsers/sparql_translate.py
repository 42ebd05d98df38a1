"""Translate the SPARQL syntax tree of :mod:`parsers.sparql` into a :class:`Query`.

The semantics (also in ``docs/sparql-semantics.md``):

* a basic graph pattern is the conjunction of ``pred(subject, object)`` atoms; ``a`` is
  ``rdf:type``; a variable in predicate position gives ``triple(s, p, o)`` (the prover links
  it to the binary atoms); blank nodes are existential variables;
* paths: ``p/q`` introduces a fresh existential middle variable; ``p|q`` is a disjunction;
  ``^p`` swaps the arguments; ``p?`` is ``s = o | p(s, o)``; ``p*`` and ``p+`` are the closure
  predicates ``p*`` / ``p+`` (the prover knows their axioms); the closure of a complex path
  names the path with a definition axiom (``Query.axioms``); ``!(p|^q)`` is
  ``exists r. triple(s, r, o) & r != p`` (and the inverse part);
* OPTIONAL adds no required constraint (but ``OPTIONAL {P} FILTER(!BOUND(?v))`` is
  ``~P``); UNION is a disjunction; MINUS and FILTER NOT EXISTS are negated existentials
  over the variables not shared with the rest of the query; FILTER EXISTS is an existential;
* FILTER comparisons are comparisons over numbers, dates and strings; ``&& || !`` are the
  connectives; ``IN`` a disjunction of equalities; string and date built-ins are
  uninterpreted but consistent functions (``lcase(x)``, ``year(x)``) or predicates
  (``contains(x, y)``, ``regex(x, y)``, ``langmatches(x, y)``, ``isiri(x)``);
* BIND is an equality, VALUES a disjunction of equalities (UNDEF constrains nothing);
* the wikibase:label service and label-only patterns (``?x rdfs:label ?l`` with ``?l`` used
  only in language filters or the projection) carry no meaning; such ``?l`` are
  ``Query.label_vars``;
* a subquery with a plain projection is inlined (its other variables renamed apart); one
  with aggregates or LIMIT/OFFSET becomes an opaque predicate named after a hash of its text,
  so identical subqueries compare equal;
* answer variables stay free; all other variables are existentially closed.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import urljoin

from verifier.logic import (
    FALSE, TRUE, And, Atom, Compare, Eq, Exists, Formula, Func, Iff, IRI, Literal, Not, Or, Term,
    Var, conj, disj, exists, forall, free_vars, neg,
)
from verifier.namespaces import WIKIDATA_PREFIXES, compact_iri
from verifier.query import Aggregate, OrderKey, Projection, Query

from parsers.sparql import SparqlSyntaxError, UnsupportedFeature

__all__ = ["translate", "LABEL_PREDICATES"]

#: Predicates whose objects are names / descriptions only.
LABEL_PREDICATES = frozenset({
    "rdfs:label", "skos:altLabel", "skos:prefLabel", "schema:description", "schema:name",
})
_RDF_TYPE = "rdf:type"
_BOOL_BUILTINS = {
    "CONTAINS": "contains", "STRSTARTS": "strstarts", "STRENDS": "strends", "REGEX": "regex",
    "LANGMATCHES": "langmatches", "ISIRI": "isiri", "ISURI": "isiri", "ISBLANK": "isblank",
    "ISLITERAL": "isliteral", "ISNUMERIC": "isnumeric",
}
_VALUE_BUILTIN_ALIASES = {"URI": "iri"}
_LANG_FILTER_FUNCS = frozenset({"LANG", "LANGMATCHES"})
# quick test whether a query can mention a label predicate at all
_LABEL_HINTS = ("label", "description", "name", "rdf-schema", "skos", "schema.org")


def _label_hint(text: str) -> bool:
    """Whether the query text may mention labels (a cheap pre-check; substring tests are
    much faster than a case-insensitive regex alternation)."""
    low = text.lower()
    return any(h in low for h in _LABEL_HINTS)
_BOOLEAN_TAGS = frozenset({"or", "and", "not", "rel", "in", "notin", "exists", "notexists"})
_NUMERIC_TYPES = frozenset({"xsd:integer", "xsd:decimal", "xsd:double", "xsd:float"})
_TRUE = Literal("true", "xsd:boolean")
_FALSE = Literal("false", "xsd:boolean")
_USER_VAR_RE = re.compile(r"[?$]([\w\u00B7]+)")


class _Ctx:
    """Per-query translation state (prefixes, fresh names, collected axioms)."""

    __slots__ = ("prefixes", "base", "used", "counter", "axioms", "label_vars", "label_service",
                 "aggregates", "text", "named")

    def __init__(self, text: str) -> None:
        self.prefixes: dict[str, str] = dict(WIKIDATA_PREFIXES)
        self.base: str | None = None
        self.used = set(_USER_VAR_RE.findall(text))
        self.counter = 0
        self.axioms: list[Formula] = []
        self.label_vars: frozenset[Var] = frozenset()
        self.label_service = False
        self.aggregates: list[Aggregate] = []
        self.text = text
        self.named: dict = {}

    def fresh(self, base: str) -> Var:
        while True:
            self.counter += 1
            name = f"_{base}{self.counter}"
            if name not in self.used:
                self.used.add(name)
                return Var(name)


# --------------------------------------------------------------------------------------------
# Terms
# --------------------------------------------------------------------------------------------


def _iri(ctx: _Ctx, node: tuple) -> IRI:
    tok = node[1]
    if tok[0] == "<":
        value = tok[1:-1]
        if ctx.base is not None and not re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", value):
            value = urljoin(ctx.base, value)
        return IRI(compact_iri(value))
    pfx, _, local = tok.partition(":")
    try:
        ns = ctx.prefixes[pfx]
    except KeyError:
        raise SparqlSyntaxError(f"undeclared prefix '{pfx}:'", tok.line, tok.column) from None
    if "\\" in local:
        local = re.sub(r"\\(.)", r"\1", local)
    return IRI(compact_iri(ns + local))


def _term(ctx: _Ctx, node: Any, bnodes: dict) -> Term:
    """A graph term (subject/object position or VALUES data)."""
    if isinstance(node, (Var, Literal)):
        return node
    tag = node[0]
    if tag == "iri":
        return _iri(ctx, node)
    if tag == "typed":
        dt = _iri(ctx, node[2]).value
        return Literal(node[1], dt)
    if tag == "bnode":
        label = node[1]
        if label is None:
            return ctx.fresh("anon")
        v = bnodes.get(label)
        if v is None:
            v = bnodes[label] = ctx.fresh("b")
        return v
    if tag == "nil":
        return IRI("rdf:nil")
    raise UnsupportedFeature("term", repr(tag))


# --------------------------------------------------------------------------------------------
# Triples and paths
# --------------------------------------------------------------------------------------------


def _node(ctx: _Ctx, node: Any, out: list[Formula], bnodes: dict) -> Term:
    """Term of a graph node; blank-node property lists and collections add atoms to out."""
    if isinstance(node, tuple) and node and node[0] in ("bnpl", "coll"):
        if node[0] == "bnpl":
            b = ctx.fresh("anon")
            _property_list(ctx, b, node[1], out, bnodes)
            return b
        items = node[1]
        if not items:
            return IRI("rdf:nil")
        head = cur = ctx.fresh("list")
        for i, it in enumerate(items):
            out.append(Atom("rdf:first", (cur, _node(ctx, it, out, bnodes))))
            nxt: Term = IRI("rdf:nil") if i == len(items) - 1 else ctx.fresh("list")
            out.append(Atom("rdf:rest", (cur, nxt)))
            cur = nxt  # type: ignore[assignment]
        return head
    return _term(ctx, node, bnodes)


def _property_list(ctx: _Ctx, subj: Term, plist: list, out: list[Formula], bnodes: dict) -> None:
    for verb, objects in plist:
        for o in objects:
            obj = _node(ctx, o, out, bnodes)
            f = _path(ctx, subj, verb, obj)
            if f is not TRUE:
                out.append(f)


def _simple_pred(ctx: _Ctx, p: Any) -> str | None:
    if isinstance(p, tuple):
        if p[0] == "iri":
            return _iri(ctx, p).value
        if p[0] == "a":
            return _RDF_TYPE
    return None


def _path(ctx: _Ctx, s: Term, p: Any, o: Term) -> Formula:
    if isinstance(p, Var):
        return Atom("triple", (s, p, o))
    tag = p[0]
    if tag == "iri" or tag == "a":
        name = _simple_pred(ctx, p)
        if name.startswith("hint:"):
            return TRUE  # Blazegraph query hints carry no meaning
        return Atom(name, (s, o))
    if tag == "inv":
        return _path(ctx, o, p[1], s)
    if tag == "seq":
        parts = p[1]
        cur: Term = s
        fs = []
        for i, q in enumerate(parts):
            nxt = o if i == len(parts) - 1 else ctx.fresh("m")
            fs.append(_path(ctx, cur, q, nxt))
            cur = nxt
        return conj(fs)
    if tag == "alt":
        return disj(_path(ctx, s, q, o) for q in p[1])
    if tag == "opt":
        return disj(Eq(s, o), _path(ctx, s, p[1], o))
    if tag in ("star", "plus"):
        suffix = "*" if tag == "star" else "+"
        inner = p[1]
        inverse = False
        while isinstance(inner, tuple) and inner[0] == "inv":
            inner, inverse = inner[1], not inverse
        name = _simple_pred(ctx, inner)
        if name is None:
            name = _define_path(ctx, inner)
        a, b = (o, s) if inverse else (s, o)
        return Atom(name + suffix, (a, b))
    if tag == "nps":
        fwd = [_simple_pred(ctx, it) for it, inv in p[1] if not inv]
        bwd = [_simple_pred(ctx, it) for it, inv in p[1] if inv]
        parts = []
        if fwd or not bwd:
            r = ctx.fresh("r")
            parts.append(exists([r], conj([Atom("triple", (s, r, o))] + [Not(Eq(r, IRI(n))) for n in fwd])))
        if bwd:
            r = ctx.fresh("r")
            parts.append(exists([r], conj([Atom("triple", (o, r, s))] + [Not(Eq(r, IRI(n))) for n in bwd])))
        return disj(parts)
    raise UnsupportedFeature("property path", repr(tag))


def _define_path(ctx: _Ctx, path: Any) -> str:
    """Name a complex path and record its definition axiom; the name depends only on the
    path's meaning as written, so two queries using the same path share it."""
    a, b = Var("_a"), Var("_b")
    saved = ctx.counter
    body = _path(ctx, a, path, b)
    ctx.counter = saved  # the fresh names inside the definition are local to it
    inner = free_vars(body) - {a, b}
    body = exists(sorted(inner, key=lambda v: v.name), body)
    digest = hashlib.blake2s(str(body).encode(), digest_size=5).hexdigest()
    name = f"_path_{digest}"
    ctx.axioms.append(forall([a, b], Iff(Atom(name, (a, b)), body)))
    return name


# --------------------------------------------------------------------------------------------
# Expressions
# --------------------------------------------------------------------------------------------


def _expr_term(ctx: _Ctx, e: Any, scope: "_Scope") -> Term:
    """An expression used as a value."""
    if isinstance(e, (Var, Literal)):
        return e
    tag = e[0]
    if tag in ("iri", "typed", "bnode", "nil"):
        return _term(ctx, e, scope.bnodes)
    if tag in ("add", "sub", "mul", "div"):
        return Func(tag, (_expr_term(ctx, e[1], scope), _expr_term(ctx, e[2], scope)))
    if tag == "neg":
        inner = _expr_term(ctx, e[1], scope)
        if isinstance(inner, Literal) and inner.datatype in _NUMERIC_TYPES and not inner.lexical.startswith(("-", "+")):
            return Literal("-" + inner.lexical, inner.datatype)  # a negative number: -166
        return Func("neg", (inner,))
    if tag in _BOOLEAN_TAGS or (tag == "call" and (e[1] in _BOOL_BUILTINS or e[1] in ("BOUND", "SAMETERM"))):
        # a condition used as a value: a fresh variable equal to true or false
        cond = _expr_formula(ctx, e, scope)
        t = ctx.fresh("v")
        scope.side.append(disj(conj(cond, Eq(t, _TRUE)), conj(neg(cond), Eq(t, _FALSE))))
        return t
    if tag == "call":
        name = e[1]
        if name == "IF":
            _arity(name, e[2], 3)
            cond = _expr_formula(ctx, e[2][0], scope)
            a, b = _expr_term(ctx, e[2][1], scope), _expr_term(ctx, e[2][2], scope)
            t = ctx.fresh("v")
            scope.side.append(disj(conj(cond, Eq(t, a)), conj(neg(cond), Eq(t, b))))
            return t
        if name == "COALESCE":
            return Func("coalesce", tuple(_expr_term(ctx, a, scope) for a in e[2]))
        fname = _VALUE_BUILTIN_ALIASES.get(name, name.lower())
        return Func(fname, tuple(_expr_term(ctx, a, scope) for a in e[2]))
    if tag == "func":
        iri = _iri(ctx, e[1]).value
        return Func(iri, tuple(_expr_term(ctx, a, scope) for a in e[2]))
    if tag == "agg":
        agg = _aggregate(ctx, e, scope)
        args = () if agg.arg is None else (agg.arg,)
        return Func("agg_" + agg.func + ("_distinct" if agg.distinct else ""), args)
    raise UnsupportedFeature("expression", tag)


def _aggregate(ctx: _Ctx, e: tuple, scope: "_Scope") -> Aggregate:
    _, name, distinct, arg, _sep = e
    a = None if arg == "*" else _expr_term(ctx, arg, scope)
    if a is None and name == "count":
        # COUNT(*) over solutions of one variable counts that variable's values
        # ("SELECT (COUNT(*) AS ?n) WHERE { ?c wdt:P31 wd:Q6256 . ?c wdt:P30 wd:Q46 }")
        own = [v for v in scope.visible if not v.name.startswith("_") and v not in ctx.label_vars]
        if len(own) == 1:
            a = own[0]
    agg = Aggregate(name, a, distinct)
    ctx.aggregates.append(agg)
    return agg


def _expr_formula(ctx: _Ctx, e: Any, scope: "_Scope") -> Formula:
    """An expression used as a condition (FILTER / HAVING)."""
    if isinstance(e, Literal):
        if e.datatype == "xsd:boolean":
            return TRUE if e.lexical == "true" else FALSE
        return Atom("ebv", (e,))
    if isinstance(e, Var):
        return Atom("ebv", (e,))
    tag = e[0]
    if tag == "or":
        return disj(_expr_formula(ctx, e[1], scope), _expr_formula(ctx, e[2], scope))
    if tag == "and":
        return conj(_expr_formula(ctx, e[1], scope), _expr_formula(ctx, e[2], scope))
    if tag == "not":
        return neg(_expr_formula(ctx, e[1], scope))
    if tag == "rel":
        op = e[1]
        a, b = _expr_term(ctx, e[2], scope), _expr_term(ctx, e[3], scope)
        if op == "=":
            return Eq(a, b)
        if op == "!=":
            return Not(Eq(a, b))
        return Compare(op, a, b)
    if tag in ("in", "notin"):
        a = _expr_term(ctx, e[1], scope)
        eqs = [Eq(a, _expr_term(ctx, x, scope)) for x in e[2]]
        return disj(eqs) if tag == "in" else conj(Not(q) for q in eqs)
    if tag == "call":
        name, args = e[1], e[2]
        if name == "BOUND":
            if len(args) != 1 or not isinstance(args[0], Var):
                raise SparqlSyntaxError("BOUND takes one variable")
            return scope.bound(args[0])
        if name == "SAMETERM":
            _arity(name, args, 2)
            return Eq(_expr_term(ctx, args[0], scope), _expr_term(ctx, args[1], scope))
        if name in _BOOL_BUILTINS:
            return Atom(_BOOL_BUILTINS[name], tuple(_expr_term(ctx, a, scope) for a in args))
        if name == "IF":
            _arity(name, args, 3)
            c = _expr_formula(ctx, args[0], scope)
            return disj(conj(c, _expr_formula(ctx, args[1], scope)),
                        conj(neg(c), _expr_formula(ctx, args[2], scope)))
        return Atom("ebv", (_expr_term(ctx, e, scope),))
    if tag == "exists":
        return scope.subpattern(e[1])
    if tag == "notexists":
        return neg(scope.subpattern(e[1]))
    return Atom("ebv", (_expr_term(ctx, e, scope),))


def _arity(name: str, args: list, n: int) -> None:
    if len(args) != n:
        raise SparqlSyntaxError(f"{name} takes {n} arguments, got {len(args)}")


# --------------------------------------------------------------------------------------------
# Graph patterns
# --------------------------------------------------------------------------------------------


class _Scope:
    """Translation of one group graph pattern (its in-scope variables and OPTIONAL parts)."""

    __slots__ = ("ctx", "bnodes", "outer_vars", "optionals", "visible", "required_vars", "side")

    def __init__(self, ctx: _Ctx, outer_vars: frozenset[Var], bnodes: dict) -> None:
        self.ctx = ctx
        self.bnodes = bnodes
        self.outer_vars = outer_vars
        self.optionals: list[Formula] = []
        self.visible: dict[Var, None] = {}
        self.required_vars: set[Var] = set()
        self.side: list[Formula] = []

    def pop_side(self) -> list[Formula]:
        """Side conditions of fresh variables introduced by IF / conditions used as values."""
        out, self.side = self.side, []
        return out

    def bound(self, v: Var) -> Formula:
        if v in self.required_vars or v in self.outer_vars:
            return TRUE
        for opt in self.optionals:
            fv = free_vars(opt)
            if v in fv:
                keep = self.required_vars | self.outer_vars
                return exists(sorted(fv - keep, key=lambda x: x.name), opt)
        return FALSE  # a variable never bound is unbound

    def subpattern(self, group: Any) -> Formula:
        """EXISTS { group }: shared variables stay free, the others are closed here."""
        inner = _Scope(self.ctx, self.outer_vars | frozenset(self.required_vars) | frozenset(self.visible), self.bnodes)
        f = inner.group(group)
        shared = self.outer_vars | self.required_vars | set(self.visible)
        local = sorted(free_vars(f) - shared, key=lambda x: x.name)
        return exists(local, f)

    def group(self, g: Any) -> Formula:
        if g[0] == "subselect":
            return self._subselect(g[1])
        elements = g[1]
        parts: list[Formula] = []
        filters: list[Any] = []
        minuses: list[Any] = []
        for el in elements:
            tag = el[0]
            if tag == "triples":
                for subj, plist in el[1]:
                    out: list[Formula] = []
                    s = _node(self.ctx, subj, out, self.bnodes)
                    _property_list(self.ctx, s, plist, out, self.bnodes)
                    for f in out:
                        if _is_label_atom(f, self.ctx.label_vars):
                            continue
                        parts.append(f)
                        self._see(f)
            elif tag == "filter":
                filters.append(el[1])
            elif tag == "optional":
                inner = _Scope(self.ctx, self.outer_vars | frozenset(self.visible), self.bnodes)
                f = inner.group(el[1])
                self.optionals.append(f)
                for v in inner.visible:
                    self.visible.setdefault(v, None)
            elif tag == "minus":
                minuses.append(el[1])
            elif tag == "union":
                branches = []
                for br in el[1]:
                    inner = _Scope(self.ctx, self.outer_vars | frozenset(self.visible), self.bnodes)
                    branches.append(inner.group(br))
                    for v in inner.visible:
                        self.visible.setdefault(v, None)
                f = disj(branches)
                parts.append(f)
                self._see(f, required=False)
            elif tag in ("group", "subselect"):
                inner = _Scope(self.ctx, self.outer_vars | frozenset(self.visible), self.bnodes)
                f = inner.group(el)
                parts.append(f)
                for v in inner.visible:
                    self.visible.setdefault(v, None)
                self.required_vars |= inner.required_vars
            elif tag == "bind":
                t = _expr_term(self.ctx, el[1], self)
                parts.extend(self.pop_side())
                parts.append(Eq(el[2], t))
                self.visible.setdefault(el[2], None)
                self.required_vars.add(el[2])
            elif tag == "values":
                f = _values(self.ctx, el, self.bnodes)
                parts.append(f)
                for v in el[1]:
                    self.visible.setdefault(v, None)
            elif tag == "service":
                _, silent, target, body = el
                t = _term(self.ctx, target, self.bnodes) if not isinstance(target, Var) else target
                if isinstance(t, IRI) and t.value == "wikibase:label":
                    self.ctx.label_service = True
                    continue
                raise UnsupportedFeature("SERVICE other than the wikibase:label service", str(t))
            elif tag == "include":
                sub = self.ctx.named.get(el[1])
                if sub is None:
                    raise SparqlSyntaxError(f"INCLUDE of an undefined named subquery {el[1]}")
                f = self._subselect(sub[1])
                parts.append(f)
            elif tag == "graph":
                raise UnsupportedFeature("GRAPH patterns (named graphs)")
            else:  # pragma: no cover - the tree builder produces nothing else
                raise UnsupportedFeature("pattern element", tag)
        for e in filters:
            if _is_label_filter(e, self.ctx.label_vars):
                continue
            f = _expr_formula(self.ctx, e, self)
            parts.extend(self.pop_side())
            parts.append(f)
        shared = self.outer_vars | self.required_vars | set(self.visible)
        for m in minuses:
            inner = _Scope(self.ctx, frozenset(), self.bnodes)
            f = inner.group(m)
            common = free_vars(f) & shared
            if not common:
                continue  # MINUS without shared variables removes nothing
            local = sorted(free_vars(f) - shared, key=lambda x: x.name)
            parts.append(neg(exists(local, f)))
        return conj(parts)

    def _see(self, f: Formula, required: bool = True) -> None:
        for v in _ordered_vars(f):
            self.visible.setdefault(v, None)
            if required:
                self.required_vars.add(v)

    def _subselect(self, sel: tuple) -> Formula:
        q = _translate_select(self.ctx, sel, self.outer_vars | frozenset(self.visible), self.bnodes, sub=True)
        projected = [p.var for p in q.projection] if q.projection else list(q.answer_vars)
        plain = all(p.aggregate is None and p.expr is None for p in q.projection)
        if plain and q.limit is None and q.offset is None and not q.group_by and not q.having:
            # inline: rename the inner variables that are not projected apart from ours
            f = q.pattern
            if isinstance(f, Formula):
                for v in projected:
                    self.visible.setdefault(v, None)
                    self.required_vars.add(v)
                return f
        digest = _subquery_digest(q, projected)
        for v in projected:
            self.visible.setdefault(v, None)
            self.required_vars.add(v)
        return Atom(f"_subquery_{digest}", tuple(projected))


def _subquery_digest(q: Query, projected: list[Var]) -> str:
    """A name for a subquery that the logic cannot express (aggregates, LIMIT ...) that
    depends on its meaning as written, not on variable names or triple order."""
    from verifier.logic import order_normal_form, substitute, substitute_term

    pos = {v: Var(f"_p{i}") for i, v in enumerate(projected)}
    keys = {v: Var(f"_k{i}") for i, v in enumerate(q.key_vars) if v not in pos}
    ren = {**keys, **pos}
    parts = [str(order_normal_form(substitute(q.pattern, ren)))]
    for o in q.order_by:
        e = o.expr
        e_txt = (f"{e.func}({substitute_term(e.arg, ren) if e.arg is not None else '*'})"
                 if isinstance(e, Aggregate) else str(substitute_term(e, ren)))
        parts.append(("desc " if o.descending else "asc ") + e_txt)
    for p in q.projection:
        if p.aggregate is not None:
            a = p.aggregate
            parts.append(f"{a.func} {a.distinct} {substitute_term(a.arg, ren) if a.arg is not None else '*'}")
    parts.append(f"{q.limit} {q.offset} {[str(substitute_term(g, ren)) for g in q.group_by]}")
    return hashlib.blake2s("|".join(parts).encode(), digest_size=5).hexdigest()


def _term_vars_ordered(t: Term) -> list[Var]:
    """Variables of a term, left to right (may repeat)."""
    if isinstance(t, Var):
        return [t]
    if isinstance(t, Func):
        return [v for a in t.args for v in _term_vars_ordered(a)]
    return []


def _ordered_vars(f: Formula) -> list[Var]:
    """Variables of the atoms of a conjunction/disjunction in order of appearance (others
    sorted by name); may repeat."""
    out: list[Var] = []
    if isinstance(f, Atom):
        for a in f.args:
            if isinstance(a, Var):
                out.append(a)
        return out
    if isinstance(f, (And, Or)):
        for a in f.args:
            out.extend(_ordered_vars(a))
        return out
    return sorted(free_vars(f), key=lambda v: v.name)


def _values(ctx: _Ctx, el: tuple, bnodes: dict) -> Formula:
    _, vs, rows = el
    alts = []
    for row in rows:
        if len(row) != len(vs):
            raise SparqlSyntaxError(f"VALUES row has {len(row)} values for {len(vs)} variables")
        alts.append(conj(Eq(v, _term(ctx, x, bnodes)) for v, x in zip(vs, row) if x is not None))
    return disj(alts)


def _is_label_atom(f: Formula, label_vars: frozenset[Var]) -> bool:
    return (isinstance(f, Atom) and f.pred in LABEL_PREDICATES and len(f.args) == 2
            and f.args[1] in label_vars)


def _expr_vars(e: Any, out: set[Var]) -> None:
    if isinstance(e, Var):
        out.add(e)
    elif isinstance(e, (tuple, list)):
        for x in e:
            _expr_vars(x, out)


def _is_label_filter(e: Any, label_vars: frozenset[Var]) -> bool:
    """A filter that only constrains the language of label variables."""
    if not label_vars:
        return False
    vs: set[Var] = set()
    _expr_vars(e, vs)
    if not vs or not vs <= label_vars:
        return False
    return _only_lang_calls(e)


def _only_lang_calls(e: Any) -> bool:
    """Every use of a variable in ``e`` is inside LANG(...) / LANGMATCHES(LANG(...))."""
    if isinstance(e, Var):
        return False
    if isinstance(e, tuple) and e:
        if e[0] == "call" and e[1] in _LANG_FILTER_FUNCS:
            return True
        return all(_only_lang_calls(x) for x in e[1:] if isinstance(x, (tuple, list, Var)))
    if isinstance(e, list):
        return all(_only_lang_calls(x) for x in e)
    return True


# --------------------------------------------------------------------------------------------
# Label variables (found before translation, on the tree)
# --------------------------------------------------------------------------------------------


def _find_label_vars(ctx: _Ctx, where: Any, projected: list[Var], modifiers: tuple) -> frozenset[Var]:
    """Variables that only ever hold labels: objects of label predicates (or names bound by
    the label service) used nowhere else except projection and language filters."""
    candidates: set[Var] = set()
    other_uses: set[Var] = set()

    def walk_group(g: Any) -> None:
        if g[0] == "subselect":
            other_uses.update(_vars_in(g))
            return
        for el in g[1]:
            tag = el[0]
            if tag == "triples":
                for subj, plist in el[1]:
                    _vars_of_node(subj, other_uses)
                    for verb, objs in plist:
                        is_label = _simple_pred_safe(ctx, verb) in LABEL_PREDICATES
                        if not is_label:
                            _vars_in_path(verb, other_uses)
                        for o in objs:
                            if is_label and isinstance(o, Var):
                                candidates.add(o)
                            else:
                                _vars_of_node(o, other_uses)
            elif tag == "filter":
                if not _only_lang_calls(el[1]):
                    _expr_vars(el[1], other_uses)
            elif tag in ("optional", "minus"):
                walk_group(el[1])
            elif tag == "union":
                for br in el[1]:
                    walk_group(br)
            elif tag in ("group",):
                walk_group(el)
            elif tag == "service":
                continue
            else:
                _expr_vars(el[1:], other_uses)

    walk_group(where)
    _expr_vars(modifiers, other_uses)
    _expr_vars(list(ctx.named.values()), other_uses)
    return frozenset(candidates - other_uses)


def _simple_pred_safe(ctx: _Ctx, verb: Any) -> str | None:
    try:
        return _simple_pred(ctx, verb)
    except SparqlSyntaxError:
        return None


def _vars_of_node(node: Any, out: set[Var]) -> None:
    _expr_vars(node, out)


def _vars_in_path(p: Any, out: set[Var]) -> None:
    _expr_vars(p, out)


def _vars_in(x: Any) -> set[Var]:
    out: set[Var] = set()
    _expr_vars(x, out)
    return out


# --------------------------------------------------------------------------------------------
# SELECT / ASK
# --------------------------------------------------------------------------------------------


def _translate_select(ctx: _Ctx, sel: tuple, outer: frozenset[Var], bnodes: dict, sub: bool) -> Query:
    _, form, modifier, items, where, mods, values, _named = sel
    group_by_raw, having_raw, order_raw, limit, offset = mods
    projected_plain = [it for it in items if isinstance(it, Var)] if items != "*" else []
    if not sub and _label_hint(ctx.text):
        ctx.label_vars = _find_label_vars(ctx, where, projected_plain, (group_by_raw, having_raw, order_raw))
        if projected_plain and all(v in ctx.label_vars for v in projected_plain):
            ctx.label_vars = frozenset()  # the labels are what the question asks for
    saved_aggs = ctx.aggregates
    ctx.aggregates = []
    scope = _Scope(ctx, frozenset() if not sub else frozenset(), bnodes if sub else {})
    body = scope.group(where)
    if values is not None:
        body = conj(body, _values(ctx, values, scope.bnodes))
        for v in values[1]:
            scope.visible.setdefault(v, None)

    # projection
    projection: list[Projection] = []
    if items == "*":
        for v in scope.visible:
            if not v.name.startswith("_"):
                projection.append(Projection(v))
    else:
        for it in items:
            if isinstance(it, Var):
                projection.append(Projection(it))
            else:
                _, expr, var = it
                if isinstance(expr, tuple) and expr and expr[0] == "agg":
                    projection.append(Projection(var, aggregate=_aggregate(ctx, expr, scope)))
                else:
                    projection.append(Projection(var, expr=_expr_term(ctx, expr, scope)))

    # label service variables (?xLabel bound only by the service)
    label_vars = set(ctx.label_vars) if not sub else set()
    if ctx.label_service and not sub:
        bound_in_pattern = free_vars(body)
        for p in projection:
            n = p.var.name
            if p.aggregate is None and p.expr is None and p.var not in bound_in_pattern and (
                    n.endswith("Label") or n.endswith("Description") or n.endswith("AltLabel")):
                label_vars.add(p.var)

    group_by: list[Term] = []
    for g in group_by_raw:
        if isinstance(g, tuple) and g and g[0] == "as":
            t = _expr_term(ctx, g[1], scope)
            body = conj(body, Eq(g[2], t))
            group_by.append(g[2])
        else:
            group_by.append(_expr_term(ctx, g, scope))
    having = conj(_expr_formula(ctx, h, scope) for h in having_raw) if having_raw else None
    order: list[OrderKey] = []
    aliases = {p.var: p.aggregate for p in projection if p.aggregate is not None}
    for desc, e in order_raw:
        if isinstance(e, tuple) and e and e[0] == "agg":
            order.append(OrderKey(_aggregate(ctx, e, scope), desc))
        elif isinstance(e, Var) and e in aliases:
            order.append(OrderKey(aliases[e], desc))  # ORDER BY ?n where ?n is COUNT(...)
        else:
            order.append(OrderKey(_expr_term(ctx, e, scope), desc))

    answer_vars = [p.var for p in projection if p.aggregate is None and p.var not in label_vars]
    # variables of the solution modifiers in their syntactic order (not the pattern's, which
    # changes when triples are reordered): they follow the answer variables in key_vars
    modifier_vars: list[Var] = []
    for agg in ctx.aggregates:
        if agg.arg is not None:
            modifier_vars += _term_vars_ordered(agg.arg)
    for t in group_by:
        modifier_vars += _term_vars_ordered(t)
    for o in order:
        ex = o.expr
        if isinstance(ex, Aggregate):
            if ex.arg is not None:
                modifier_vars += _term_vars_ordered(ex.arg)
        else:
            modifier_vars += _term_vars_ordered(ex)
    if having is not None:
        modifier_vars += _ordered_vars(having)
    for p in projection:
        if p.expr is not None:
            modifier_vars += _term_vars_ordered(p.expr)
            # a projected expression (expr AS ?v) binds its variable
            body = conj(body, Eq(p.var, p.expr))
    side = scope.pop_side()
    if side:
        body = conj(body, *side)
    order_of_vars = _ordered_vars(body)
    in_scope = free_vars(body) | set(scope.visible)  # OPTIONAL binds too
    if any(v in in_scope for v in answer_vars):
        # a projected variable that nothing binds is always empty ("SELECT ?ming ?end WHERE
        # { wd:Q9903 wdt:P576 ?end }"): no answer; the bound columns are the answer
        answer_vars = [v for v in answer_vars if v in in_scope]
    key: dict[Var, None] = {}
    if form != "ask":
        key = {v: None for v in answer_vars}
        for v in modifier_vars:
            key.setdefault(v, None)
    fv = free_vars(body)
    closed = [v for v in dict.fromkeys(order_of_vars) if v not in key and v in fv]
    rest = fv - set(key) - set(closed)
    if rest:
        closed += sorted(rest, key=lambda v: v.name)
    pattern = Exists(tuple(closed), body) if closed else body
    aggs = tuple(ctx.aggregates)
    ctx.aggregates = saved_aggs
    return Query(
        form=form,
        pattern=pattern,
        projection=tuple(projection),
        answer_vars=tuple(answer_vars),
        key_vars=tuple(key),
        select_star=items == "*",
        aggregates=aggs,
        distinct=modifier == "distinct",
        reduced=modifier == "reduced",
        group_by=tuple(group_by),
        having=having,
        order_by=tuple(order),
        limit=limit,
        offset=offset,
        label_vars=tuple(sorted(label_vars, key=lambda v: v.name)),
        axioms=tuple(ctx.axioms),
        text=ctx.text if not sub else _digest_text(sel),
        optional_parts=tuple(scope.optionals),
    )


def _digest_text(sel: tuple) -> str:
    return repr(sel)


def translate(tree: tuple, text: str = "") -> Query:
    """Translate the tree of :func:`parsers.sparql.parse_tree` into a :class:`Query`."""
    prologue, form, values = tree
    ctx = _Ctx(text)
    for decl in prologue:
        if decl[0] == "base":
            ctx.base = decl[1][1:-1]
        else:
            _, ns, iri = decl
            value = iri[1:-1]
            if ctx.base is not None:
                value = urljoin(ctx.base, value)
            ctx.prefixes[str(ns)[:-1]] = value
    if values is not None:
        form = form[:6] + (values,) + form[7:]
    ctx.named = form[7]
    return _translate_select(ctx, form, frozenset(), {}, sub=False)
