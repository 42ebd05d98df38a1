"""Perturbations of gold pairs, one hallucination category each (label 0), plus the gold pair
itself (category ``gold``, label 1).

Everything happens on the syntax tree (:mod:`parsers.sparql_transform`) and is written back
with :func:`parsers.sparql_generate.generate`; the gold record's ``sparql`` is the gold tree
regenerated the same way (checked equivalent to the original), so that correct and
perturbed queries share one layout and a detector cannot tell them apart by formatting.

For every category a generator proposes candidates in order of preference (see
:mod:`verifier.benchmark.plausible` for the plausibility heuristics); the first candidate that
parses and that :func:`verifier.prover.equivalent` proves *not* equivalent to the gold query
is kept.  Candidates that are equivalent, undecided (solver timeout) or do not parse are
dropped and counted; at most ``max_attempts`` candidates are tried per category.

Random choices come from ``random.Random(f"{seed}:{gold id}:{category}")``, so a pair's
perturbations do not depend on the other pairs, on the order of processing or on the number
of worker processes.

Categories:

* ``wrong_property``: one property id replaced everywhere (``p:``/``ps:``/``wdt:`` together);
* ``wrong_entity``: one item id replaced everywhere;
* ``swapped_direction``: subject and object of one required triple swapped (no literals; not
  a ``wdt:`` property that the shipped axioms' background makes symmetric, such as sibling,
  whose swap means the same);
* ``dropped_triple``: one required triple removed (never leaving a variable used elsewhere
  unbound, and only when at least two meaningful triples exist);
* ``added_triple``: one constraint triple added on a query variable or item;
* ``wrong_literal``: a number, date, string or boolean literal changed (language tags of
  ``LANG`` filters, the label service and ``REGEX`` flags are left alone);
* ``wrong_operator``: a comparison operator changed (``<`` / ``>`` / ``<=`` / ``>=`` / ``=`` /
  ``!=``) or ``IN`` / ``NOT IN`` swapped;
* ``wrong_form``: SELECT <-> ASK, SELECT -> COUNT, COUNT -> SELECT, ORDER BY direction
  flipped, or ORDER BY + LIMIT removed (superlative -> list);
* ``nonexistent_id``: one id replaced by a typo-like id of the same letter that is absent from
  ``wikidata/labels.tsv``.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping, Sequence

from verifier.benchmark.gold import GoldPair
from verifier.benchmark.ids import compact, prefix_map, refs_in_tree, wikidata_ref, with_id
from verifier.benchmark.plausible import CorpusStats, TripleFacts, query_facts
from verifier.benchmark.records import BenchRecord
from verifier.logic import Literal, Var
from verifier.prover import RLIMIT_PER_MS

__all__ = ["CATEGORIES", "PERTURBATION_CATEGORIES", "PerturbConfig", "Candidate", "PairOutcome",
           "perturb_pair", "propose", "regenerated_gold", "decide_equivalence", "symmetric_verb",
           "DROP_REASONS"]

PERTURBATION_CATEGORIES: tuple[str, ...] = (
    "wrong_property", "wrong_entity", "swapped_direction", "dropped_triple", "added_triple",
    "wrong_literal", "wrong_operator", "wrong_form", "nonexistent_id")
#: all categories of the perturbation dataset, ``gold`` first
CATEGORIES: tuple[str, ...] = ("gold",) + PERTURBATION_CATEGORIES
DROP_REASONS = ("equivalent", "undecided", "unparseable", "no_candidate")


@dataclass(frozen=True)
class PerturbConfig:
    """How to perturb.

    Attributes:
        seed: seeds every random choice (with the gold id and the category).
        max_attempts: candidates tried per category before giving up.
        timeout_ms: Z3 budget of each equivalence check (per direction), in milliseconds of
            solving on a typical CPU; converted to a deterministic resource limit, see
            :func:`decide_equivalence`.
        retry_timeout_ms: an undecided check is retried once with this larger budget;
            0 disables the retry.
        categories: the categories to build.
    """

    seed: int = 0
    max_attempts: int = 8
    timeout_ms: int = 4000
    retry_timeout_ms: int = 30000
    categories: tuple[str, ...] = PERTURBATION_CATEGORIES

    def __post_init__(self) -> None:
        bad = set(self.categories) - set(PERTURBATION_CATEGORIES)
        if bad:
            raise ValueError(f"unknown categories {sorted(bad)}; choose from "
                             f"{PERTURBATION_CATEGORIES}")
        if self.max_attempts < 1 or self.timeout_ms < 1:
            raise ValueError("max_attempts and timeout_ms must be positive")


@dataclass(frozen=True)
class Candidate:
    """A proposed perturbation: the new tree and what was changed."""

    tree: tuple
    detail: Mapping[str, Any]


@dataclass(frozen=True)
class PairOutcome:
    """The records built from one gold pair and the candidates dropped per category."""

    gold_id: str
    status: str  # ok | gold_unparseable | gold_regeneration_failed
    records: tuple[BenchRecord, ...] = ()
    dropped: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    reason: str = ""


# --------------------------------------------------------------------------------------------
# Rendering (for ``detail``)
# --------------------------------------------------------------------------------------------


def _show(node: Any) -> str:
    if isinstance(node, Var):
        return "?" + node.name
    if isinstance(node, Literal):
        s = '"' + node.lexical + '"'
        if node.lang:
            return s + "@" + node.lang
        if node.datatype:
            return node.lexical if node.kind == "number" else s + "^^" + node.datatype
        return s
    if isinstance(node, tuple) and node:
        tag = node[0]
        if tag == "iri":
            return str(node[1])
        if tag == "typed":
            return f'"{node[1]}"^^{node[2][1]}'
        if tag == "a":
            return "a"
        if tag in ("seq", "alt"):
            return ("/" if tag == "seq" else "|").join(_show(x) for x in node[1])
        if tag in ("star", "plus", "opt"):
            return _show(node[1]) + {"star": "*", "plus": "+", "opt": "?"}[tag]
        if tag == "inv":
            return "^" + _show(node[1])
        if tag == "bnode":
            return "[]" if node[1] is None else "_:" + node[1]
    return "[...]"


def _show_triple(s: Any, v: Any, o: Any) -> str:
    return f"{_show(s)} {_show(v)} {_show(o)}"


# --------------------------------------------------------------------------------------------
# Candidate generators, one per category: (tree, facts, stats, rng) -> candidates
# --------------------------------------------------------------------------------------------

Proposer = Callable[[tuple, TripleFacts, CorpusStats, random.Random], Iterator[Candidate]]


def _ids_in_order(tree: tuple, want_item: bool) -> list[str]:
    return [r.id for r in refs_in_tree(tree) if r.is_item == want_item]


def _replace_id(tree: tuple, old: str, new: str) -> tuple[tuple, list[str], list[str]]:
    """Every IRI naming ``old`` (any family / spelling) renamed to ``new``; returns the tree
    and the old / new texts."""
    from parsers.sparql_transform import replace_iris

    prefixes = prefix_map(tree)
    olds: list[str] = []
    news: list[str] = []

    def fn(text: str) -> str | None:
        ref = wikidata_ref(text, prefixes)
        if ref is None or ref.id != old:
            return None
        new_text = with_id(text, new)
        if text not in olds:
            olds.append(text)
            news.append(new_text)
        return new_text

    return replace_iris(tree, fn), olds, news


def _prefer(rng: random.Random, structural: Sequence[tuple[str, str]],
            near: Sequence[tuple[str, str]], top: int = 4) -> list[tuple[str, str]]:
    """Structural candidates first or near-label candidates first (a coin flip), the head of
    the preferred list shuffled, duplicates removed."""
    first, second = (structural, near) if rng.random() < 0.5 else (near, structural)
    if not first:
        first, second = second, first
    head = list(first[:top])
    rng.shuffle(head)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for ident, via in head + list(first[top:]) + list(second):
        if ident not in seen:
            seen.add(ident)
            out.append((ident, via))
    return out


def _subject_object_of(facts: TripleFacts, prop: str) -> tuple[str | None, str | None]:
    for s, p, o in facts.triples:
        if p == prop:
            return s, o
    return None, None


def _wrong_property(tree, facts, stats, rng) -> Iterator[Candidate]:
    ids = _ids_in_order(tree, want_item=False)
    rng.shuffle(ids)
    for old in ids:
        s, o = _subject_object_of(facts, old)
        structural, near = stats.property_candidates(old, facts, s, o)
        for new, via in _prefer(rng, structural, near)[:4]:
            t, olds, news = _replace_id(tree, old, new)
            yield Candidate(t, {"from": olds[0], "to": news[0], "from_id": old, "to_id": new,
                                "from_label": stats.labels.get(old),
                                "to_label": stats.labels.get(new), "via": via})


def _wrong_entity(tree, facts, stats, rng) -> Iterator[Candidate]:
    ids = _ids_in_order(tree, want_item=True)
    rng.shuffle(ids)
    for old in ids:
        structural, near = stats.entity_candidates(old, facts)
        for new, via in _prefer(rng, structural, near)[:4]:
            t, olds, news = _replace_id(tree, old, new)
            yield Candidate(t, {"from": olds[0], "to": news[0], "from_id": old, "to_id": new,
                                "from_label": stats.labels.get(old),
                                "to_label": stats.labels.get(new), "via": via})


def _is_literal(n: Any) -> bool:
    return isinstance(n, Literal) or (isinstance(n, tuple) and bool(n) and n[0] == "typed")


@lru_cache(maxsize=1)
def _symmetric_properties() -> frozenset[str]:
    """The ``wdt:`` properties the shipped axioms' background makes symmetric (sibling,
    spouse, shares border with ...)."""
    from verifier.axioms.loader import load_pack

    return load_pack().symmetric_properties


def symmetric_verb(verb: Any, prefixes: Mapping[str, str]) -> bool:
    """Whether a triple's verb node is a ``wdt:`` property that the shipped axioms'
    background makes symmetric, so that swapping the triple keeps the query's meaning
    (``prefixes``: :func:`verifier.benchmark.ids.prefix_map` of the query)."""
    ref = wikidata_ref(verb, prefixes)
    return ref is not None and ref.family == "wdt" and f"wdt:{ref.id}" in _symmetric_properties()


def _swapped_direction(tree, facts, stats, rng) -> Iterator[Candidate]:
    from parsers.sparql_transform import meaningful_sites, swap_triple

    prefixes = prefix_map(tree)
    sites = [s for s in meaningful_sites(tree)
             if s.subject != s.object and not _is_literal(s.subject) and not _is_literal(s.object)
             and not symmetric_verb(s.verb, prefixes)]
    rng.shuffle(sites)
    for site in sites:
        yield Candidate(swap_triple(tree, site),
                        {"from": _show_triple(site.subject, site.verb, site.object),
                         "to": _show_triple(site.object, site.verb, site.subject)})


def _bound_vars(tree: tuple) -> set[Var]:
    """Variables bound by a triple, BIND or VALUES anywhere in the tree."""
    from parsers.sparql_transform import find_nodes, triple_sites

    out: set[Var] = set()
    for s in triple_sites(tree):
        for part in (s.subject, s.verb, s.object):
            if isinstance(part, Var):
                out.add(part)
    for _, n in find_nodes(tree, lambda n: isinstance(n, tuple) and len(n) >= 3
                           and n[0] in ("bind", "values")):
        if n[0] == "bind" and isinstance(n[2], Var):
            out.add(n[2])
        elif n[0] == "values" and isinstance(n[1], list):
            out.update(v for v in n[1] if isinstance(v, Var))
    if tree[2] is not None:
        out.update(v for v in tree[2][1] if isinstance(v, Var))
    return out


def _dropped_triple(tree, facts, stats, rng) -> Iterator[Candidate]:
    from parsers.sparql_transform import drop_triple, meaningful_sites, variables

    sites = meaningful_sites(tree)
    if len(sites) < 2:
        return
    rng.shuffle(sites)
    for site in sites:
        t = drop_triple(tree, site)
        mine = {x for x in (site.subject, site.verb, site.object) if isinstance(x, Var)}
        dangling = (mine & set(variables(t[1:]))) - _bound_vars(t)
        if dangling:
            continue
        yield Candidate(t, {"from": _show_triple(site.subject, site.verb, site.object)})


def _added_triple(tree, facts, stats, rng) -> Iterator[Candidate]:
    from parsers.sparql_transform import add_triple, iri_token, meaningful_sites, variables

    prefixes = prefix_map(tree)
    answer = [v for v in tree[1][3] if isinstance(v, Var)] if isinstance(tree[1][3], list) else []
    subjects: dict[str, Any] = {}
    for site in meaningful_sites(tree):
        for node in (site.subject, site.object):
            if isinstance(node, Var):
                subjects.setdefault("?" + node.name, node)
            else:
                ref = wikidata_ref(node, prefixes)
                if ref is not None and ref.is_item:
                    subjects.setdefault(ref.id, node)
    if not subjects:
        return
    keys = sorted(subjects, key=lambda k: (0 if k[1:] in {v.name for v in answer} else
                                           1 if k.startswith("?") else 2))
    if keys[0].startswith("?"):  # constrain variables, not constants, when there are any
        keys = [k for k in keys if k.startswith("?")]
    head = keys[:2]
    rng.shuffle(head)
    taken = {v.name for v in variables(tree)}
    fresh = next(f"added{i}" for i in range(1, 1000) if f"added{i}" not in taken)
    for key in head + keys[2:4]:
        cands = stats.added_triple_candidates(key, facts)
        top = cands[:4]
        rng.shuffle(top)
        for prop, obj, via in top + cands[4:8]:
            o_node = iri_token("wd:" + obj) if obj else Var(fresh)
            v_node = iri_token("wdt:" + prop)
            s_node = subjects[key]
            yield Candidate(add_triple(tree, s_node, v_node, o_node),
                            {"to": _show_triple(s_node, v_node, o_node), "property": prop,
                             "object": obj, "property_label": stats.labels.get(prop),
                             "object_label": stats.labels.get(obj) if obj else None,
                             "via": via})


# -- literals ----------------------------------------------------------------------------------

_LANG_FUNCS = frozenset({"LANG", "LANGMATCHES"})
_DATE_TYPES = frozenset({"xsd:dateTime", "xsd:date", "xsd:gYear", "xsd:gYearMonth"})
_NUM_TYPES = frozenset({"xsd:integer", "xsd:decimal", "xsd:double", "xsd:float", "xsd:int",
                        "xsd:long", "xsd:nonNegativeInteger", "xsd:positiveInteger"})
_YEAR_START = re.compile(r"^(-?)(\d{1,4})(?=$|-)")
_DIGITS = re.compile(r"^\d{1,9}$")


def _protected(tree: tuple, path: tuple[int, ...]) -> bool:
    """The literal at ``path`` is a language tag of a LANG filter, a label-service parameter
    or a REGEX flag."""
    node: Any = tree
    for depth, i in enumerate(path):
        if isinstance(node, tuple) and node:
            tag = node[0]
            if tag == "service":
                return True
            if tag == "call" and str(node[1]).upper() in _LANG_FUNCS:
                return True
            if tag == "call" and str(node[1]).upper() == "REGEX" and depth + 2 <= len(path) \
                    and path[depth] == 2 and path[depth + 1] == 2:
                return True
            if tag == "rel" and any(isinstance(x, tuple) and x and x[0] == "call"
                                    and str(x[1]).upper() in _LANG_FUNCS for x in node[2:4]):
                return True
        node = node[i]
    return False


def _number_alternatives(lex: str, rng: random.Random) -> list[str]:
    try:
        d = Decimal(lex)
    except InvalidOperation:
        return []
    out: list[str] = []
    if d == d.to_integral_value() and "." not in lex and "e" not in lex.lower():
        n = int(d)
        if 1000 <= n <= 2100:
            deltas = [1, 2, 3, 5, 10, -1, -2, -3, -5, -10]
            rng.shuffle(deltas)
            out = [str(n + x) for x in deltas[:3]]
        elif abs(n) < 10:
            out = [str(x) for x in (n + 1, n - 1, n + 2, n * 10) if x != n and (n < 0 or x >= 0)]
            rng.shuffle(out)
        else:
            facs = [Decimal(2), Decimal("0.5"), Decimal(10), Decimal("1.5")]
            rng.shuffle(facs)
            out = [str(int((d * f).to_integral_value())) for f in facs]
    else:
        facs = [Decimal(2), Decimal("0.5"), Decimal(10), Decimal("0.1")]
        rng.shuffle(facs)
        places = -d.as_tuple().exponent if isinstance(d.as_tuple().exponent, int) else 2
        for f in facs:
            v = d * f
            s = f"{v:.{max(places, 1)}f}" if "e" not in lex.lower() else f"{v:E}"
            out.append(s)
    return [x for x in dict.fromkeys(out) if x != lex]


def _year_shift(lex: str, rng: random.Random) -> list[str]:
    m = _YEAR_START.match(lex)
    if not m:
        return []
    y = int(m.group(2)) * (-1 if m.group(1) else 1)
    deltas = [1, 2, 5, 10, -1, -2, -5, -10]
    rng.shuffle(deltas)
    out = []
    for dlt in deltas[:3]:
        ny = y + dlt
        ys = ("-" if ny < 0 else "") + str(abs(ny)).zfill(len(m.group(2)))
        out.append(ys + lex[m.end():])
    return out


def _literal_alternatives(node: Any, prefixes: Mapping[str, str], stats: CorpusStats,
                          rng: random.Random) -> list[tuple[Any, str]]:
    """``(new literal node, kind)`` options for one literal."""
    if isinstance(node, Literal):
        kind = node.kind
        if kind == "number":
            return [(Literal(x, node.datatype), "number")
                    for x in _number_alternatives(node.lexical, rng)]
        if kind == "boolean":
            flip = "false" if node.lexical == "true" else "true"
            return [(Literal(flip, node.datatype), "boolean")]
        if kind == "date":
            return [(Literal(x, node.datatype), "date") for x in _year_shift(node.lexical, rng)]
        if kind != "string":
            return []
        lex = node.lexical
        if not lex.strip():
            return []
        if _DIGITS.match(lex):
            return [(Literal(x, node.datatype, node.lang), "number")
                    for x in _number_alternatives(lex, rng)]
        if _YEAR_START.match(lex) and re.match(r"^-?\d{3,4}-", lex):
            return [(Literal(x, node.datatype, node.lang), "date") for x in _year_shift(lex, rng)]
        if len(lex) == 1 and lex.isalpha():  # STRSTARTS(?label, "u"): another letter
            letters = [c for c in "abcdefghijklmnopqrstuvwxyz" if c != lex.lower()]
            picks = rng.sample(letters, 3)
            return [(Literal(c.upper() if lex.isupper() else c, node.datatype, node.lang),
                     "string") for c in picks]
        has_digit = any(c.isdigit() for c in lex)
        pool = [s for s in stats.strings.get(node.lang or "", ())
                if s.casefold() != lex.casefold() and any(c.isdigit() for c in s) == has_digit]
        if not pool:
            return []
        picks = rng.sample(pool, min(3, len(pool)))
        return [(Literal(x, node.datatype, node.lang), "string") for x in picks]
    _, lex, dt_node = node
    dt = compact(str(dt_node[1]), prefixes)
    if dt in _DATE_TYPES:
        return [(("typed", x, dt_node), "date") for x in _year_shift(lex, rng)]
    if dt in _NUM_TYPES:
        return [(("typed", x, dt_node), "number") for x in _number_alternatives(lex, rng)]
    return []


def _wrong_literal(tree, facts, stats, rng) -> Iterator[Candidate]:
    from parsers.sparql_transform import literal_sites, replace_at

    prefixes = prefix_map(tree)
    sites = [(p, n) for p, n in literal_sites(tree) if p[0] != 0 and not _protected(tree, p)]
    rng.shuffle(sites)
    for path, node in sites:
        for new, kind in _literal_alternatives(node, prefixes, stats, rng)[:3]:
            yield Candidate(replace_at(tree, path, new),
                            {"from": _show(node), "to": _show(new), "kind": kind})


# -- operators ---------------------------------------------------------------------------------

_OP_ALTERNATIVES = {"<": (">", "<=", ">="), ">": ("<", ">=", "<="), "<=": (">=", "<", ">"),
                    ">=": ("<=", ">", "<"), "=": ("!=",), "!=": ("=",)}


def _wrong_operator(tree, facts, stats, rng) -> Iterator[Candidate]:
    from parsers.sparql_transform import (comparison_sites, find_nodes, get_at, replace_at,
                                          replace_comparison)

    sites: list[tuple[tuple[int, ...], str]] = [
        (p, op) for p, op in comparison_sites(tree) if not _protected(tree, p + (2,))]
    sites += [(p, n[0]) for p, n in find_nodes(
        tree, lambda n: isinstance(n, tuple) and len(n) == 3 and n[0] in ("in", "notin")
        and isinstance(n[2], list))]
    rng.shuffle(sites)
    for path, op in sites:
        if op in ("in", "notin"):
            swapped = ("notin" if op == "in" else "in",) + tuple(get_at(tree, path)[1:])
            yield Candidate(replace_at(tree, path, swapped), {"from": "IN" if op == "in" else "NOT IN",
                                   "to": "NOT IN" if op == "in" else "IN"})
            continue
        alts = list(_OP_ALTERNATIVES[op])
        # the direction flip is the most common confusion: keep it first half of the time
        if len(alts) > 1 and rng.random() >= 0.5:
            rest = alts[1:]
            rng.shuffle(rest)
            alts = rest + alts[:1]
        for new in alts:
            yield Candidate(replace_comparison(tree, path, new), {"from": op, "to": new})


# -- form --------------------------------------------------------------------------------------


def _wrong_form(tree, facts, stats, rng) -> Iterator[Candidate]:
    from parsers.sparql_transform import query_form, variables, with_form, with_solution_modifiers

    sel = tree[1]
    form, items = query_form(tree), sel[3]
    group_by, having, order, limit, offset = sel[5]
    names = {v.name for v in variables(tree)}
    count_name = next(n for n in ("count", "count1", "count2", "n_count") if n not in names)
    options: list[tuple[Callable[[], tuple], dict]] = []
    plain = isinstance(items, list) and items and all(isinstance(i, Var) for i in items)
    single_count = (isinstance(items, list) and len(items) == 1 and isinstance(items[0], tuple)
                    and items[0][0] == "as" and isinstance(items[0][1], tuple)
                    and items[0][1][0] == "agg" and items[0][1][1] == "count")
    where_vars = [v for v in variables(sel[4])]
    if form == "select":
        options.append((lambda: with_solution_modifiers(with_form(tree, "ask"), order_by=(),
                                                        limit=None, offset=None),
                        {"from": "select", "to": "ask"}))
        if (plain or items == "*") and not group_by and where_vars:
            arg = items[0] if plain else where_vars[0]
            proj = [("as", ("agg", "count", True, arg, None), Var(count_name))]
            options.append((lambda: with_solution_modifiers(with_form(tree, "select", proj),
                                                            order_by=(), limit=None, offset=None),
                            {"from": "select", "to": "count"}))
        if single_count and not group_by:
            arg = items[0][1][3]
            proj = [arg] if isinstance(arg, Var) else where_vars[:1]
            if proj:
                options.append((lambda: with_form(tree, "select", proj),
                                {"from": "count", "to": "select"}))
        if order:
            desc, expr = order[0]
            flipped = [(not desc, expr)] + list(order[1:])
            options.append((lambda: with_solution_modifiers(tree, order_by=flipped),
                            {"from": "order " + ("desc" if desc else "asc"),
                             "to": "order " + ("asc" if desc else "desc")}))
            if limit is not None:
                options.append((lambda: with_solution_modifiers(tree, order_by=(), limit=None,
                                                                offset=None),
                                {"from": f"order by + limit {limit}", "to": "no order, no limit"}))
    else:
        if where_vars:
            options.append((lambda: with_form(tree, "select", list(where_vars)),
                            {"from": "ask", "to": "select"}))
        else:
            proj = [("as", ("agg", "count", False, "*", None), Var(count_name))]
            options.append((lambda: with_form(tree, "select", proj),
                            {"from": "ask", "to": "count"}))
    rng.shuffle(options)
    for make, detail in options:
        yield Candidate(make(), detail)


# -- non-existent identifiers ------------------------------------------------------------------


def _typo_ids(ident: str, rng: random.Random, known: frozenset[str], n: int = 3) -> list[str]:
    letter, digits = ident[0], ident[1:]
    out: list[str] = []
    for _ in range(40):
        d = list(digits)
        op = rng.choice(("replace", "swap", "insert", "delete") if len(d) > 1
                        else ("replace", "insert"))
        i = rng.randrange(len(d))
        if op == "replace":
            d[i] = rng.choice("0123456789".replace(d[i], ""))
        elif op == "swap" and i + 1 < len(d):
            d[i], d[i + 1] = d[i + 1], d[i]
        elif op == "insert":
            d.insert(i, rng.choice("0123456789"))
        elif op == "delete":
            del d[i]
        cand = letter + "".join(d)
        if (len(cand) > 1 and cand[1] != "0" and cand != ident and cand not in known
                and cand not in out):
            out.append(cand)
            if len(out) >= n:
                break
    return out


def _nonexistent_id(tree, facts, stats, rng) -> Iterator[Candidate]:
    ids = _ids_in_order(tree, True) + _ids_in_order(tree, False)
    rng.shuffle(ids)
    for old in ids:
        for new in _typo_ids(old, rng, stats.known_ids, n=2):
            t, olds, news = _replace_id(tree, old, new)
            yield Candidate(t, {"from": olds[0], "to": news[0], "from_id": old, "to_id": new,
                                "kind": "item" if old[0] == "Q" else "property"})


_PROPOSERS: Mapping[str, Proposer] = {
    "wrong_property": _wrong_property, "wrong_entity": _wrong_entity,
    "swapped_direction": _swapped_direction, "dropped_triple": _dropped_triple,
    "added_triple": _added_triple, "wrong_literal": _wrong_literal,
    "wrong_operator": _wrong_operator, "wrong_form": _wrong_form,
    "nonexistent_id": _nonexistent_id,
}


def propose(category: str, tree: tuple, stats: CorpusStats, rng: random.Random,
            facts: TripleFacts | None = None) -> Iterator[Candidate]:
    """Candidates of one category for a normalised gold tree, most plausible first (not yet
    checked for parsing or equivalence)."""
    if category not in _PROPOSERS:
        raise ValueError(f"unknown category {category!r}")
    return _PROPOSERS[category](tree, facts or query_facts(tree), stats, rng)


# --------------------------------------------------------------------------------------------
# Checking and records
# --------------------------------------------------------------------------------------------


def decide_equivalence(a: Any, b: Any, timeout_ms: int = 4000,
                       retry_timeout_ms: int = 30000) -> Any:
    """:func:`verifier.prover.equivalent` of two parsed queries, reproducibly: checks are
    bounded by Z3's resource counter (``timeout_ms * RLIMIT_PER_MS`` units), so the machine's
    load cannot change an outcome; the wall clock only stops a check at ten times its budget.
    An undecided result is retried once with the ``retry_timeout_ms`` budget in a fresh Z3
    context, where not even the terms earlier checks left in the process's context can steer
    the search.  A decided result is a proof either way (the two runs cannot disagree on it),
    so the outcome is the same on every run unless a check is decided in one run's shared
    context and not even the fresh retry decides it in the other's."""
    from verifier.prover import equivalent

    def check(budget_ms: int, fresh: bool) -> Any:
        return equivalent(a, b, timeout_ms=10 * budget_ms, rlimit=budget_ms * RLIMIT_PER_MS,
                          fresh_context=fresh)

    res = check(timeout_ms, False)
    if res.equivalent is None and retry_timeout_ms > timeout_ms:
        res = check(retry_timeout_ms, True)
    return res


def regenerated_gold(sparql: str, timeout_ms: int = 4000,
                     retry_timeout_ms: int = 30000) -> str | None:
    """The gold query written by :func:`~parsers.sparql_generate.generate` from its
    normalised tree, or ``None`` when it does not parse or is not proved equivalent to the
    original."""
    from parsers.sparql import SparqlError, parse_query, parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import normalize

    try:
        text = generate(normalize(parse_tree(sparql)))
        return text if decide_equivalence(parse_query(sparql), parse_query(text), timeout_ms,
                                          retry_timeout_ms).equivalent is True else None
    except SparqlError:
        return None


def perturb_pair(pair: GoldPair, stats: CorpusStats, config: PerturbConfig = PerturbConfig(), *,
                 has_mrs: bool = False, extra: Mapping[str, Any] | None = None) -> PairOutcome:
    """The gold record and one checked perturbation per applicable category for ``pair``.

    ``extra`` fields (e.g. ``chemistry``) are added to every record.
    """
    from parsers.sparql import SparqlError, parse_query, parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import normalize

    def check(a: Any, b: Any) -> Any:
        return decide_equivalence(a, b, config.timeout_ms, config.retry_timeout_ms)

    try:
        gold_q = parse_query(pair.sparql)
        base = normalize(parse_tree(pair.sparql))
    except SparqlError as e:
        return PairOutcome(pair.id, "gold_unparseable", reason=str(e).splitlines()[0][:200])
    gold_text = generate(base)
    try:
        regen = check(gold_q, parse_query(gold_text))
    except SparqlError as e:
        return PairOutcome(pair.id, "gold_regeneration_failed", reason=str(e)[:200])
    if regen.equivalent is not True:
        return PairOutcome(pair.id, "gold_regeneration_failed", reason=regen.reason[:200])
    common = {"gold_id": pair.id, "dataset": pair.dataset, "split": pair.split}
    common.update(extra or {})

    def record(category: str, sparql: str, label: int, detail: Mapping[str, Any]) -> BenchRecord:
        rid = pair.id if category == "gold" else f"{pair.id}/{category}"
        return BenchRecord(id=rid, question=pair.question, sparql=sparql,
                           gold_sparql=pair.sparql, label=label, category=category,
                           source=pair.source, detail=dict(detail), has_mrs=has_mrs,
                           extra=dict(common))

    records = [record("gold", gold_text, 1, {})]
    facts = query_facts(base)
    dropped: dict[str, dict[str, int]] = {}
    for category in config.categories:
        rng = random.Random(f"{config.seed}:{pair.id}:{category}")
        drops: Counter = Counter()
        tried: set[str] = set()
        attempts = 0
        found = None
        for cand in propose(category, base, stats, rng, facts):
            text = generate(cand.tree)
            if text in tried or text == gold_text:
                continue
            tried.add(text)
            attempts += 1
            try:
                q = parse_query(text)
                eq = check(gold_q, q)
            except SparqlError:
                drops["unparseable"] += 1
            else:
                if eq.equivalent is False:
                    found = (text, cand.detail)
                    break
                drops["equivalent" if eq.equivalent else "undecided"] += 1
            if attempts >= config.max_attempts:
                break
        if found is None and not drops:
            drops["no_candidate"] += 1
        if found is not None:
            records.append(record(category, found[0], 0, found[1]))
        if drops:
            dropped[category] = dict(drops)
    return PairOutcome(pair.id, "ok", tuple(records), dropped)
