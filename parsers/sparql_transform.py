"""Transformations of SPARQL syntax trees (:func:`parsers.sparql.parse_tree`).

Pure functions that return new trees; combine with :func:`parsers.sparql_generate.generate`
to write the transformed query::

    tree = normalize(parse_tree(text))
    site = triple_sites(tree)[0]
    swapped = generate(swap_triple(tree, site))

Used by the equivalence tests (renaming, reordering) and by the benchmark builder
(perturbations: wrong property, wrong entity, swapped direction, dropped triple ...).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from verifier.logic import Literal, Var

__all__ = [
    "TripleSite", "normalize", "triple_sites", "get_at", "replace_at", "swap_triple",
    "drop_triple", "replace_in_triple", "rename_variables", "shuffle_triples", "map_nodes",
    "iri_token", "variables", "filter_sites", "query_form", "with_form",
]

_DELETE = object()


@dataclass(frozen=True)
class TripleSite:
    """Where one ``subject verb object`` triple sits in a normalised tree.

    ``path`` indexes into the tree (tuples and lists) down to the ``(subject, plist)`` entry
    of a triples block; ``subject``, ``verb`` and ``object`` are its parts.
    """

    path: tuple[int, ...]
    subject: Any
    verb: Any
    object: Any


# --------------------------------------------------------------------------------------------
# Generic access
# --------------------------------------------------------------------------------------------


def get_at(tree: Any, path: tuple[int, ...]) -> Any:
    """The node at ``path``."""
    node = tree
    for i in path:
        node = node[i]
    return node


def replace_at(tree: Any, path: tuple[int, ...], value: Any) -> Any:
    """A copy of ``tree`` with the node at ``path`` replaced by ``value`` (copy on write);
    ``value=None`` inside a list removes the node."""
    if not path:
        return value
    i, rest = path[0], path[1:]
    child = replace_at(tree[i], rest, value)
    if isinstance(tree, list):
        out = list(tree)
        if child is None and not rest:
            del out[i]
        else:
            out[i] = child
        return out
    out_t = list(tree)
    out_t[i] = child
    return tuple(out_t)


def map_nodes(tree: Any, fn: Callable[[Any], Any]) -> Any:
    """Rebuild ``tree`` bottom-up, replacing each node ``n`` by ``fn(n)``."""
    if isinstance(tree, list):
        return fn([map_nodes(x, fn) for x in tree])
    if isinstance(tree, tuple):
        if tree and tree[0] == "iri":  # leaf: ("iri", Token)
            return fn(tree)
        return fn(tuple(map_nodes(x, fn) for x in tree))
    if isinstance(tree, dict):
        return fn({k: map_nodes(v, fn) for k, v in tree.items()})
    return fn(tree)


def variables(tree: Any) -> list[Var]:
    """Variables of the tree in order of first appearance."""
    seen: dict[Var, None] = {}

    def visit(n):
        if isinstance(n, Var):
            seen.setdefault(n, None)
        return n

    map_nodes(tree, visit)
    return list(seen)


def iri_token(text: str, like: Any = None) -> tuple:
    """An IRI node for ``text`` (``wdt:P31`` or ``<http://...>``) usable in trees."""
    from lark.lexer import Token

    tok = Token("IRI", text, 0, 1, 1)
    return ("iri", tok)


# --------------------------------------------------------------------------------------------
# Triples
# --------------------------------------------------------------------------------------------


def normalize(tree: tuple) -> tuple:
    """Expand property and object lists so that every triples-block entry is one triple
    ``(subject, [(verb, [object])])``; the meaning is unchanged."""

    used = {str(n[1]) for _, n in find_nodes(tree, lambda n: isinstance(n, tuple) and len(n) == 2
                                             and n[0] == "bnode" and n[1] is not None)}
    counter = iter(range(1 << 30))

    def fresh_bnode() -> tuple:
        while True:
            label = f"anon{next(counter)}"
            if label not in used:
                used.add(label)
                return ("bnode", label)

    def fn(n):
        if isinstance(n, tuple) and n and n[0] == "triples":
            out = []
            for subj, plist in n[1]:
                if not plist:
                    out.append((subj, plist))
                    continue
                n_triples = sum(len(objs) for _, objs in plist)
                if n_triples > 1 and isinstance(subj, tuple) and (
                        subj == ("bnode", None) or (subj and subj[0] == "bnpl")):
                    # one anonymous node shared by several triples: name it, or splitting
                    # the list would make several different nodes
                    node = fresh_bnode()
                    if subj[0] == "bnpl":
                        out.append((node, list(subj[1])))
                    subj = node
                for verb, objs in plist:
                    for o in objs:
                        out.append((subj, [(verb, [o])]))
            return ("triples", out)
        return n

    return map_nodes(tree, fn)


def triple_sites(tree: tuple, *, required_only: bool = False) -> list[TripleSite]:
    """Every triple of a normalised tree, in document order.

    With ``required_only``, triples inside OPTIONAL, MINUS, NOT EXISTS, UNION branches and
    subqueries are skipped (changing those does not always change the answers).
    """
    out: list[TripleSite] = []

    def walk(node: Any, path: tuple[int, ...], required: bool) -> None:
        if isinstance(node, tuple) and node:
            tag = node[0]
            if tag == "triples" and isinstance(node[1], list):
                for j, entry in enumerate(node[1]):
                    subj, plist = entry
                    if len(plist) == 1 and len(plist[0][1]) == 1 and (required or not required_only):
                        verb, objs = plist[0]
                        out.append(TripleSite(path + (1, j), subj, verb, objs[0]))
                return
            inner_required = required and tag not in ("optional", "minus", "notexists", "union", "subselect", "exists")
            for i, child in enumerate(node):
                if isinstance(child, (tuple, list, dict)):
                    walk(child, path + (i,), inner_required)
        elif isinstance(node, list):
            for i, child in enumerate(node):
                walk(child, path + (i,), required)
        elif isinstance(node, dict):
            pass  # named subqueries: not perturbed

    walk(tree, (), True)
    return out


def swap_triple(tree: tuple, site: TripleSite) -> tuple:
    """Swap subject and object of one triple."""
    return replace_at(tree, site.path, (site.object, [(site.verb, [site.subject])]))


def drop_triple(tree: tuple, site: TripleSite) -> tuple:
    """Remove one triple (an emptied triples block stays as an empty block)."""
    return replace_at(tree, site.path, None)


def replace_in_triple(tree: tuple, site: TripleSite, *, subject: Any = None, verb: Any = None,
                      object: Any = None) -> tuple:
    """Replace some parts of one triple."""
    s = site.subject if subject is None else subject
    v = site.verb if verb is None else verb
    o = site.object if object is None else object
    return replace_at(tree, site.path, (s, [(v, [o])]))


def filter_sites(tree: tuple) -> list[tuple[tuple[int, ...], Any]]:
    """``(path, expression)`` of every FILTER element (path points at the element)."""
    out = []

    def walk(node, path):
        if isinstance(node, tuple) and node:
            if node[0] == "filter":
                out.append((path, node[1]))
                return
            for i, c in enumerate(node):
                if isinstance(c, (tuple, list)):
                    walk(c, path + (i,))
        elif isinstance(node, list):
            for i, c in enumerate(node):
                walk(c, path + (i,))

    walk(tree, ())
    return out


# --------------------------------------------------------------------------------------------
# Whole-query transforms
# --------------------------------------------------------------------------------------------


def rename_variables(tree: tuple, mapping: dict[str, str]) -> tuple:
    """Rename variables (``{"x": "y"}``) everywhere, projection included."""

    def fn(n):
        if isinstance(n, Var) and n.name in mapping:
            return Var(mapping[n.name])
        return n

    return map_nodes(tree, fn)


def shuffle_triples(tree: tuple, rng: random.Random) -> tuple:
    """Reorder the triples of every triples block and move FILTERs to the end of their
    group; the meaning is unchanged (SPARQL filters apply to the whole group)."""

    def fn(n):
        if isinstance(n, tuple) and n and n[0] == "triples":
            items = list(n[1])
            rng.shuffle(items)
            return ("triples", items)
        if isinstance(n, tuple) and n and n[0] == "group" and isinstance(n[1], list):
            filters = [e for e in n[1] if isinstance(e, tuple) and e and e[0] == "filter"]
            others = [e for e in n[1] if not (isinstance(e, tuple) and e and e[0] == "filter")]
            # merge adjacent triples blocks so that triples can move across filters
            merged: list = []
            for e in others:
                if merged and e[0] == "triples" and merged[-1][0] == "triples":
                    merged[-1] = ("triples", merged[-1][1] + e[1])
                else:
                    merged.append(e)
            return ("group", merged + filters)
        return n

    shuffled = map_nodes(tree, fn)  # shuffles blocks, then merges neighbours
    return map_nodes(shuffled, lambda n: ("triples", rng.sample(n[1], len(n[1])))
                     if isinstance(n, tuple) and n and n[0] == "triples" else n)


# --------------------------------------------------------------------------------------------
# Meaning-preserving and meaning-changing variants (equivalence tests, benchmark building)
# --------------------------------------------------------------------------------------------

LABEL_VERBS = frozenset({"rdfs:label", "skos:altLabel", "skos:prefLabel", "schema:description",
                         "schema:name"})


_LABEL_SUFFIXES = ("AltLabel", "Label", "Description")


def renamed_and_shuffled(tree: tuple, rng: random.Random) -> tuple:
    """Same meaning: every variable renamed, triples reordered, filters moved.

    The label service binds ``?xLabel`` (``AltLabel``, ``Description``) from ``?x``, so such a
    variable is renamed to the new name of ``?x`` plus the same suffix.
    """
    names = [v.name for v in variables(tree)]
    fresh = {n: f"r{i}_{n[::-1]}" for i, n in enumerate(names)}
    present = set(names)
    for i, n in enumerate(names):
        for suffix in _LABEL_SUFFIXES:
            base = n[: -len(suffix)]
            if n.endswith(suffix) and base:
                fresh[n] = (fresh[base] if base in present else f"r{i}_{base[::-1]}") + suffix
                break
    return shuffle_triples(rename_variables(normalize(tree), fresh), rng)


def _meaningful_sites(tree: tuple) -> list[TripleSite]:
    sites = []
    for s in triple_sites(tree, required_only=True):
        verb = s.verb
        if isinstance(verb, tuple) and verb and verb[0] == "iri" and str(verb[1]) in LABEL_VERBS:
            continue
        if isinstance(verb, tuple) and verb and verb[0] == "iri" and str(verb[1]).startswith(("hint:", "bd:", "wikibase:")):
            continue
        sites.append(s)
    return sites


def swapped_direction(tree: tuple, rng: random.Random) -> tuple | None:
    """One required triple with subject and object swapped (None when there is none with
    distinct ends)."""
    t = normalize(tree)
    sites = [s for s in _meaningful_sites(t) if s.subject != s.object]
    if not sites:
        return None
    return swap_triple(t, rng.choice(sites))


def replaced_property(tree: tuple, rng: random.Random, properties: list[str]) -> tuple | None:
    """One required triple's IRI property replaced by another one from ``properties``."""
    t = normalize(tree)
    sites = [s for s in _meaningful_sites(t) if isinstance(s.verb, tuple) and s.verb[0] == "iri"]
    if not sites:
        return None
    site = rng.choice(sites)
    current = str(site.verb[1])
    prefix = current.partition(":")[0] + ":" if ":" in current and not current.startswith("<") else "wdt:"
    options = [p for p in properties if prefix + p != current and p != current]
    if not options:
        return None
    return replace_in_triple(t, site, verb=iri_token(prefix + rng.choice(options)))


def dropped_triple(tree: tuple, rng: random.Random) -> tuple | None:
    """One required triple removed (None when the query has a single one)."""
    t = normalize(tree)
    sites = _meaningful_sites(t)
    if len(sites) < 2:
        return None
    return drop_triple(t, rng.choice(sites))


def query_form(tree: tuple) -> str:
    """``select`` or ``ask``."""
    return tree[1][1]


def with_form(tree: tuple, form: str, items: Any = None) -> tuple:
    """The same query as ``ask`` or ``select`` (``items``: projection for select)."""
    sel = list(tree[1])
    sel[1] = form
    if form == "ask":
        sel[2], sel[3] = None, []
    elif items is not None:
        sel[3] = items
    return (tree[0], tuple(sel), tree[2])


# --------------------------------------------------------------------------------------------
# Additions for the benchmark builder (verifier/benchmark/perturb.py): generic node search,
# IRI / literal / comparison replacement, adding a triple, changing solution modifiers.
# --------------------------------------------------------------------------------------------

__all__ += [
    "find_nodes", "meaningful_sites", "replace_iris", "literal_sites", "COMPARISON_OPS",
    "comparison_sites", "replace_comparison", "add_triple", "with_solution_modifiers",
]

_KEEP = object()

#: Binary comparison operators of the ``("rel", op, a, b)`` expression node.
COMPARISON_OPS = ("=", "!=", "<", "<=", ">", ">=")


def find_nodes(tree: Any, predicate: Callable[[Any], bool]) -> list[tuple[tuple[int, ...], Any]]:
    """``(path, node)`` of every node for which ``predicate(node)`` is true, in document order
    (pre-order; the search continues inside matched nodes).  Tuples and lists are searched;
    IRI leaves ``("iri", token)`` and named subqueries (dicts) are not entered.  Every path
    can be given to :func:`get_at` and :func:`replace_at`."""
    out: list[tuple[tuple[int, ...], Any]] = []

    def walk(node: Any, path: tuple[int, ...]) -> None:
        if predicate(node):
            out.append((path, node))
        if isinstance(node, tuple) and node and node[0] == "iri":
            return
        if isinstance(node, (tuple, list)):
            for i, child in enumerate(node):
                walk(child, path + (i,))

    walk(tree, ())
    return out


def meaningful_sites(tree: tuple) -> list[TripleSite]:
    """Required triples of a normalised tree that carry meaning: label triples
    (``rdfs:label`` ...) and ``hint:`` / ``bd:`` / ``wikibase:`` triples are left out (the
    sites :func:`swapped_direction` and :func:`dropped_triple` choose from)."""
    return _meaningful_sites(tree)


def replace_iris(tree: tuple, fn: Callable[[str], str | None]) -> tuple:
    """Replace every IRI leaf whose text (``wd:Q42``, ``<http://...>``) ``fn`` maps to a new
    text; ``fn`` returns ``None`` to keep an IRI.  The prologue is not changed, so the new
    text must use a declared or implicit prefix (e.g. keep the old one)."""

    def visit(n: Any) -> Any:
        if isinstance(n, tuple) and len(n) == 2 and n[0] == "iri":
            new = fn(str(n[1]))
            if new is not None and new != str(n[1]):
                return iri_token(new)
        return n

    return (tree[0], map_nodes(tree[1], visit),
            None if tree[2] is None else map_nodes(tree[2], visit))


def _is_literal_node(n: Any) -> bool:
    return isinstance(n, Literal) or (isinstance(n, tuple) and len(n) == 3 and n[0] == "typed")


def literal_sites(tree: tuple) -> list[tuple[tuple[int, ...], Any]]:
    """``(path, literal)`` of every literal of the query (triples, FILTER, BIND, VALUES,
    HAVING ...), in document order; a literal is a :class:`~verifier.logic.Literal` or a
    ``("typed", lexical, datatype_iri)`` node.  Replace one with :func:`replace_at`."""
    return find_nodes(tree, _is_literal_node)


def comparison_sites(tree: tuple) -> list[tuple[tuple[int, ...], str]]:
    """``(path, operator)`` of every binary comparison ``("rel", op, a, b)`` (in FILTER,
    HAVING, BIND ...), in document order."""
    return [(p, n[1]) for p, n in find_nodes(
        tree, lambda n: isinstance(n, tuple) and len(n) == 4 and n[0] == "rel")]


def replace_comparison(tree: tuple, path: tuple[int, ...], op: str) -> tuple:
    """The comparison at ``path`` (from :func:`comparison_sites`) with operator ``op``."""
    if op not in COMPARISON_OPS:
        raise ValueError(f"not a comparison operator: {op!r} (one of {COMPARISON_OPS})")
    node = get_at(tree, path)
    if not (isinstance(node, tuple) and len(node) == 4 and node[0] == "rel"):
        raise ValueError(f"no comparison at {path}: {node!r}")
    return replace_at(tree, path, ("rel", op, node[2], node[3]))


def add_triple(tree: tuple, subject: Any, verb: Any, object: Any) -> tuple:
    """Add the triple ``subject verb object`` (tree terms, e.g. ``Var("x")`` or
    :func:`iri_token` nodes) to the top-level WHERE group, after its last triples block
    (first when it has none).  Raises ``ValueError`` when the WHERE clause is a bare
    subquery."""
    where = tree[1][4]
    if not (isinstance(where, tuple) and where and where[0] == "group"):
        raise ValueError("the WHERE clause is not a group pattern")
    elements = list(where[1])
    last = max((i for i, e in enumerate(elements) if e[0] == "triples"), default=-1)
    elements.insert(last + 1, ("triples", [(subject, [(verb, [object])])]))
    return replace_at(tree, (1, 4), ("group", elements))


def with_solution_modifiers(tree: tuple, *, group_by: Any = _KEEP, having: Any = _KEEP,
                            order_by: Any = _KEEP, limit: Any = _KEEP,
                            offset: Any = _KEEP) -> tuple:
    """The same query with some top-level solution modifiers replaced: ``order_by`` is a list
    of ``(descending, expression)``, ``limit`` / ``offset`` an int or ``None``, ``group_by``
    and ``having`` lists of expressions (empty to remove).  Unnamed ones are kept."""
    old = tree[1][5]
    new = tuple(old[i] if v is _KEEP else v
                for i, v in enumerate((group_by, having, order_by, limit, offset)))
    return replace_at(tree, (1, 5), new)
