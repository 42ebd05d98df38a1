"""Label variables of a SPARQL query: variables that only ever hold names or descriptions
(objects of label predicates, or names bound by the wikibase:label service) used nowhere but
in the projection and in language filters.  They carry no meaning; the patterns and filters
that bind them are left out of the translation (:mod:`parsers.sparql_translate`).
"""

from __future__ import annotations

from typing import Any

from verifier.logic import Atom, Formula, Var

from parsers.sparql_errors import SparqlSyntaxError
from parsers.sparql_terms import TranslationContext, simple_predicate

__all__ = ["LABEL_PREDICATES", "label_hint", "find_label_vars", "is_label_atom", "is_label_filter"]

#: Predicates whose objects are names / descriptions only.
LABEL_PREDICATES = frozenset({
    "rdfs:label", "skos:altLabel", "skos:prefLabel", "schema:description", "schema:name",
})
_LANG_FILTER_FUNCS = frozenset({"LANG", "LANGMATCHES"})
# quick test whether a query can mention a label predicate at all
_LABEL_HINTS = ("label", "description", "name", "rdf-schema", "skos", "schema.org")


def label_hint(text: str) -> bool:
    """Whether the query text may mention labels (a cheap pre-check; substring tests are
    much faster than a case-insensitive regex alternation)."""
    low = text.lower()
    return any(h in low for h in _LABEL_HINTS)


def find_label_vars(ctx: TranslationContext, where: Any, projected: list[Var], modifiers: tuple) -> frozenset[Var]:
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


def _simple_pred_safe(ctx: TranslationContext, verb: Any) -> str | None:
    try:
        return simple_predicate(ctx, verb)
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


def is_label_atom(f: Formula, label_vars: frozenset[Var]) -> bool:
    """An atom binding a label variable (left out of the translation)."""
    return (isinstance(f, Atom) and f.pred in LABEL_PREDICATES and len(f.args) == 2
            and f.args[1] in label_vars)


def _expr_vars(e: Any, out: set[Var]) -> None:
    if isinstance(e, Var):
        out.add(e)
    elif isinstance(e, (tuple, list)):
        for x in e:
            _expr_vars(x, out)


def is_label_filter(e: Any, label_vars: frozenset[Var]) -> bool:
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
