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
from typing import Any, Callable, Iterator

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

    def fn(n):
        if isinstance(n, tuple) and n and n[0] == "triples":
            out = []
            for subj, plist in n[1]:
                if not plist:
                    out.append((subj, plist))
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


def renamed_and_shuffled(tree: tuple, rng: random.Random) -> tuple:
    """Same meaning: every variable renamed, triples reordered, filters moved."""
    names = [v.name for v in variables(tree)]
    fresh = {n: f"r{i}_{n[::-1]}" for i, n in enumerate(names)}
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
