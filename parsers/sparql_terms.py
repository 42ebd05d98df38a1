"""Terms, triples and property paths of the SPARQL syntax tree as logic (the first part of
:mod:`parsers.sparql_translate`, which documents the semantics).

:class:`TranslationContext` is the per-query state every part of the translation shares:
prefixes, fresh variable names, the axioms that define complex paths.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any
from urllib.parse import urljoin

from verifier.logic import TRUE, Atom, Eq, Formula, Iff, IRI, Literal, Not, Term, Var, conj, disj, exists, forall, free_vars
from verifier.namespaces import WIKIDATA_PREFIXES, compact_iri
from verifier.query import Aggregate

from parsers.sparql_errors import SparqlSyntaxError, UnsupportedFeature

__all__ = ["TranslationContext", "iri_term", "graph_term", "graph_node", "property_list",
           "simple_predicate", "path_formula"]

_RDF_TYPE = "rdf:type"
_USER_VAR_RE = re.compile(r"[?$]([\w\u00B7]+)")


class TranslationContext:
    """Per-query translation state (prefixes, fresh names, collected axioms, the label
    variables and aggregates found so far, named subqueries)."""

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
        """A variable ``_<base><n>`` unused so far in this query."""
        while True:
            self.counter += 1
            name = f"_{base}{self.counter}"
            if name not in self.used:
                self.used.add(name)
                return Var(name)


# --------------------------------------------------------------------------------------------
# Terms
# --------------------------------------------------------------------------------------------


def iri_term(ctx: TranslationContext, node: tuple) -> IRI:
    """The IRI of an ``("iri", token)`` node: resolved against BASE or expanded from its
    prefix, then compacted (``wd:Q2270``)."""
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


def graph_term(ctx: TranslationContext, node: Any, bnodes: dict) -> Term:
    """A graph term (subject/object position or VALUES data)."""
    if isinstance(node, (Var, Literal)):
        return node
    tag = node[0]
    if tag == "iri":
        return iri_term(ctx, node)
    if tag == "typed":
        dt = iri_term(ctx, node[2]).value
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


def graph_node(ctx: TranslationContext, node: Any, out: list[Formula], bnodes: dict) -> Term:
    """Term of a graph node; blank-node property lists and collections add atoms to out."""
    if isinstance(node, tuple) and node and node[0] in ("bnpl", "coll"):
        if node[0] == "bnpl":
            b = ctx.fresh("anon")
            property_list(ctx, b, node[1], out, bnodes)
            return b
        items = node[1]
        if not items:
            return IRI("rdf:nil")
        head = cur = ctx.fresh("list")
        for i, it in enumerate(items):
            out.append(Atom("rdf:first", (cur, graph_node(ctx, it, out, bnodes))))
            nxt: Term = IRI("rdf:nil") if i == len(items) - 1 else ctx.fresh("list")
            out.append(Atom("rdf:rest", (cur, nxt)))
            cur = nxt  # type: ignore[assignment]
        return head
    return graph_term(ctx, node, bnodes)


def property_list(ctx: TranslationContext, subj: Term, plist: list, out: list[Formula], bnodes: dict) -> None:
    """Append the atoms of ``subj verb object ; verb object ...`` to ``out``."""
    for verb, objects in plist:
        for o in objects:
            obj = graph_node(ctx, o, out, bnodes)
            f = path_formula(ctx, subj, verb, obj)
            if f is not TRUE:
                out.append(f)


def simple_predicate(ctx: TranslationContext, p: Any) -> str | None:
    """The predicate name of a plain IRI or ``a`` in verb position (``None`` for a path)."""
    if isinstance(p, tuple):
        if p[0] == "iri":
            return iri_term(ctx, p).value
        if p[0] == "a":
            return _RDF_TYPE
    return None


def path_formula(ctx: TranslationContext, s: Term, p: Any, o: Term) -> Formula:
    """The formula of ``s p o`` for a predicate or property path ``p``."""
    if isinstance(p, Var):
        return Atom("triple", (s, p, o))
    tag = p[0]
    if tag == "iri" or tag == "a":
        name = simple_predicate(ctx, p)
        if name.startswith("hint:"):
            return TRUE  # Blazegraph query hints carry no meaning
        return Atom(name, (s, o))
    if tag == "inv":
        return path_formula(ctx, o, p[1], s)
    if tag == "seq":
        parts = p[1]
        cur: Term = s
        fs = []
        for i, q in enumerate(parts):
            nxt = o if i == len(parts) - 1 else ctx.fresh("m")
            fs.append(path_formula(ctx, cur, q, nxt))
            cur = nxt
        return conj(fs)
    if tag == "alt":
        return disj(path_formula(ctx, s, q, o) for q in p[1])
    if tag == "opt":
        return disj(Eq(s, o), path_formula(ctx, s, p[1], o))
    if tag in ("star", "plus"):
        suffix = "*" if tag == "star" else "+"
        inner = p[1]
        inverse = False
        while isinstance(inner, tuple) and inner[0] == "inv":
            inner, inverse = inner[1], not inverse
        name = simple_predicate(ctx, inner)
        if name is None:
            name = _define_path(ctx, inner)
        a, b = (o, s) if inverse else (s, o)
        return Atom(name + suffix, (a, b))
    if tag == "nps":
        fwd = [simple_predicate(ctx, it) for it, inv in p[1] if not inv]
        bwd = [simple_predicate(ctx, it) for it, inv in p[1] if inv]
        parts = []
        if fwd or not bwd:
            r = ctx.fresh("r")
            parts.append(exists([r], conj([Atom("triple", (s, r, o))] + [Not(Eq(r, IRI(n))) for n in fwd])))
        if bwd:
            r = ctx.fresh("r")
            parts.append(exists([r], conj([Atom("triple", (o, r, s))] + [Not(Eq(r, IRI(n))) for n in bwd])))
        return disj(parts)
    raise UnsupportedFeature("property path", repr(tag))


def _define_path(ctx: TranslationContext, path: Any) -> str:
    """Name a complex path and record its definition axiom; the name depends only on the
    path's meaning as written, so two queries using the same path share it."""
    a, b = Var("_a"), Var("_b")
    saved = ctx.counter
    body = path_formula(ctx, a, path, b)
    ctx.counter = saved  # the fresh names inside the definition are local to it
    inner = free_vars(body) - {a, b}
    body = exists(sorted(inner, key=lambda v: v.name), body)
    digest = hashlib.blake2s(str(body).encode(), digest_size=5).hexdigest()
    name = f"_path_{digest}"
    ctx.axioms.append(forall([a, b], Iff(Atom(name, (a, b)), body)))
    return name
