"""Corpus statistics that make perturbations plausible.

Built once from the gold queries (every triple of every parsed gold query) and the label file
``wikidata/labels.tsv``.  The heuristics (documented in ``docs/benchmark.md``):

* **wrong property** candidates for ``P`` in a query, structural first:
  ``class`` (properties used in gold queries with subjects/objects of the same class as the
  triple's subject, the class read from ``?x wdt:P31 wd:C`` in the query), ``entity``
  (properties used with the same item in other gold queries), ``cooccurrence`` (properties
  that co-occur in gold queries with the query's other properties: a proxy for "same
  domain"); and ``near_label`` (the properties of the gold vocabulary whose labels are
  nearest to ``P``'s label under the PGMR hashed n-gram encoder, cosine >= 0.3).
* **wrong entity** candidates for ``Q``: ``class`` (items known, from gold ``wd:X wdt:P31
  wd:C`` triples, to share a class with ``Q``), ``role`` (items that fill the same role,
  subject or object, of the same property in other gold queries, ranked by the number of
  shared (property, role) contexts), and ``near_label`` (nearest item labels).
* **added triple** candidates ``(P, O)`` for a subject: properties of the subject's class or
  co-occurring with the query's properties, each with its most frequent gold object items.

Every ranking is deterministic: counts descending, then the numeric id.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from verifier.benchmark.ids import prefix_map, wikidata_ref
from verifier.logic import Literal, Var

__all__ = ["CorpusStats", "build_stats", "id_key", "ranked", "TripleFacts", "query_facts",
           "NEAR_MIN_COSINE", "NEAR_K"]

log = logging.getLogger(__name__)

NEAR_MIN_COSINE = 0.3
NEAR_K = 12
INSTANCE_OF = "P31"


def id_key(ident: str) -> tuple[str, int]:
    """Sort key of a Wikidata id: letter, then number (``Q5`` before ``Q42``)."""
    try:
        return (ident[0], int(ident[1:]))
    except (ValueError, IndexError):
        return (ident, 0)


def ranked(counts: Mapping[str, int], exclude: Iterable[str] = ()) -> list[str]:
    """Keys by count descending, then id; ``exclude`` removed."""
    ex = set(exclude)
    return [k for k, _ in sorted(counts.items(), key=lambda kv: (-kv[1], id_key(kv[0])))
            if k not in ex]


class _Candidates:
    """Replacement candidates ``(id, via)`` in order of discovery, each once, never one of
    ``exclude``."""

    def __init__(self, exclude: set[str]) -> None:
        self.exclude = exclude
        self.items: list[tuple[str, str]] = []
        self._seen: set[str] = set()

    def add(self, ids: Iterable[str], via: str) -> None:
        for i in ids:
            if i not in self._seen and i not in self.exclude:
                self._seen.add(i)
                self.items.append((i, via))


@dataclass(frozen=True)
class TripleFacts:
    """What one query says, for the statistics and the perturbation context.

    ``triples``: ``(subject, property id, object)`` where subject/object are an item id
    (``Q42``), ``?name`` for a variable, or ``None`` (literal, blank node, path end);
    ``classes``: subject key -> class items (from ``wdt:P31`` triples, also through
    ``wdt:P31/wdt:P279*``); ``properties`` / ``items``: every Wikidata id in the query.
    """

    triples: tuple[tuple[str | None, str, str | None], ...]
    classes: Mapping[str, frozenset[str]]
    properties: frozenset[str]
    items: frozenset[str]
    strings: tuple[tuple[str, str], ...] = ()


def _term_key(t: Any, prefixes: Mapping[str, str]) -> str | None:
    if isinstance(t, Var):
        return "?" + t.name
    ref = wikidata_ref(t, prefixes)
    if ref is not None and ref.is_item:
        return ref.id
    return None


def _verb_property(v: Any, prefixes: Mapping[str, str]) -> str | None:
    ref = wikidata_ref(v, prefixes)
    if ref is not None and ref.is_property:
        return ref.id
    if isinstance(v, tuple) and v and v[0] == "seq" and v[1]:
        first = wikidata_ref(v[1][0], prefixes)
        if first is not None and first.id == INSTANCE_OF:
            return INSTANCE_OF  # wdt:P31/wdt:P279*: still "is a"
    return None


def query_facts(tree: tuple) -> TripleFacts:
    """:class:`TripleFacts` of a parsed (any, not necessarily normalised) syntax tree."""
    from parsers.sparql_transform import find_nodes, normalize, triple_sites

    t = normalize(tree)
    prefixes = prefix_map(t)
    triples = []
    classes: dict[str, set[str]] = defaultdict(set)
    for site in triple_sites(t):
        p = _verb_property(site.verb, prefixes)
        if p is None:
            continue
        s, o = _term_key(site.subject, prefixes), _term_key(site.object, prefixes)
        triples.append((s, p, o))
        if p == INSTANCE_OF and s is not None and o is not None and not o.startswith("?"):
            classes[s].add(o)
    props, items = set(), set()
    for _, node in find_nodes(t, lambda n: isinstance(n, tuple) and len(n) == 2 and n[0] == "iri"):
        ref = wikidata_ref(node, prefixes)
        if ref is not None:
            (props if ref.is_property else items).add(ref.id)
    strings = []
    for _, node in find_nodes(t, lambda n: isinstance(n, Literal)):
        if node.datatype is None and 3 <= len(node.lexical) <= 80:
            strings.append((node.lang or "", node.lexical))
    return TripleFacts(tuple(triples), {k: frozenset(v) for k, v in classes.items()},
                       frozenset(props), frozenset(items), tuple(strings))


@dataclass(frozen=True)
class CorpusStats:
    """Co-occurrence statistics of the gold queries plus label neighbours (module docstring).

    Plain dicts inside; treat as read-only.
    """

    prop_count: Mapping[str, int] = field(default_factory=dict)
    class_props: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    entity_props: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    role_entities: Mapping[tuple[str, str], Mapping[str, int]] = field(default_factory=dict)
    entity_roles: Mapping[str, Mapping[tuple[str, str], int]] = field(default_factory=dict)
    entity_classes: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    class_members: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    prop_cooc: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    strings: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    near: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)
    known_ids: frozenset[str] = frozenset()

    # -- candidates ------------------------------------------------------------------------

    def property_candidates(self, prop: str, facts: TripleFacts, subject: str | None = None,
                            obj: str | None = None) -> tuple[list[tuple[str, str]],
                                                             list[tuple[str, str]]]:
        """``(structural, near_label)`` replacement candidates for ``prop`` (each a list of
        ``(property id, via)``), excluding the properties of the query."""
        exclude = set(facts.properties) | {prop}
        cands = _Candidates(exclude)
        add = cands.add

        cls = Counter()
        for key in (subject, obj):
            for c in facts.classes.get(key or "", ()):
                cls.update(self.class_props.get(c, {}))
        add(ranked(cls), "class")
        ent = Counter()
        for key in (subject, obj):
            if key and not key.startswith("?"):
                ent.update(self.entity_props.get(key, {}))
        add(ranked(ent), "entity")
        others = [o for o in facts.properties if o != prop] or [prop]
        add(self.cooccurring(others), "cooccurrence")
        near = [(i, "near_label") for i in self.near.get(prop, ()) if i not in exclude]
        return cands.items, near

    def cooccurring(self, props: Iterable[str]) -> list[str]:
        """Properties co-occurring in gold queries with ``props``, ranked by
        ``sum cooc(p, x) / sqrt(count(x))`` (damped so that ubiquitous properties such as
        P31 do not come first everywhere), then id."""
        score: dict[str, float] = defaultdict(float)
        for p in props:
            for x, c in self.prop_cooc.get(p, {}).items():
                score[x] += c / max(self.prop_count.get(x, 1), 1) ** 0.5
        return [k for k, _ in sorted(score.items(), key=lambda kv: (-round(kv[1], 9),
                                                                     id_key(kv[0])))]

    def entity_candidates(self, item: str, facts: TripleFacts) -> tuple[list[tuple[str, str]],
                                                                         list[tuple[str, str]]]:
        """``(structural, near_label)`` replacement candidates for ``item`` (``(id, via)``),
        excluding the items of the query."""
        exclude = set(facts.items) | {item}
        cands = _Candidates(exclude)
        add = cands.add

        members = Counter()
        for c in self.entity_classes.get(item, {}):
            members.update(self.class_members.get(c, {}))
        add(ranked(members), "class")
        roles = Counter()
        contexts = {(p, "subject") for s, p, o in facts.triples if s == item} | \
                   {(p, "object") for s, p, o in facts.triples if o == item}
        for ctx in sorted(contexts):
            for e in self.role_entities.get(ctx, {}):
                roles[e] += 1  # number of shared contexts
        # ties: the more frequent filler of those contexts first
        freq = Counter()
        for ctx in contexts:
            freq.update(self.role_entities.get(ctx, {}))
        add([k for k, _ in sorted(roles.items(),
                                  key=lambda kv: (-kv[1], -freq[kv[0]], id_key(kv[0])))], "role")
        near = [(i, "near_label") for i in self.near.get(item, ()) if i not in exclude]
        return cands.items, near

    def added_triple_candidates(self, subject: str, facts: TripleFacts, per_property: int = 2
                                ) -> list[tuple[str, str | None, str]]:
        """``(property, object item or None for a fresh variable, via)`` for a triple to add
        on ``subject`` (an item id or ``?var``), properties not yet used on it."""
        used = {p for s, p, o in facts.triples if s == subject}
        props = Counter()
        via = "class"
        for c in facts.classes.get(subject, ()):
            props.update(self.class_props.get(c, {}))
        order = ranked(props, exclude=used)
        if not order:
            via = "cooccurrence"
            order = [p for p in self.cooccurring(sorted(facts.properties)) if p not in used]
        out = []
        for p in order[:25]:
            objs = [o for o in ranked(self.role_entities.get((p, "object"), {}))
                    if o not in facts.items and o != subject][:per_property]
            out.extend((p, o, via) for o in objs)
            out.append((p, None, via))
        return out


def build_stats(trees: Sequence[tuple], labels: Mapping[str, str] | None = None,
                known_ids: Iterable[str] = (), *, near_k: int = NEAR_K,
                near_min: float = NEAR_MIN_COSINE) -> CorpusStats:
    """Statistics of the gold query trees (see the module docstring).  ``labels`` (id ->
    label) enables the near-label neighbours; ``known_ids`` are all ids of the label file."""
    prop_count: Counter = Counter()
    class_props: dict[str, Counter] = defaultdict(Counter)
    entity_props: dict[str, Counter] = defaultdict(Counter)
    role_entities: dict[tuple[str, str], Counter] = defaultdict(Counter)
    entity_roles: dict[str, Counter] = defaultdict(Counter)
    entity_classes: dict[str, Counter] = defaultdict(Counter)
    class_members: dict[str, Counter] = defaultdict(Counter)
    prop_cooc: dict[str, Counter] = defaultdict(Counter)
    strings: dict[str, set[str]] = defaultdict(set)
    vocab: set[str] = set()
    for tree in trees:
        f = query_facts(tree)
        vocab |= f.properties | f.items
        prop_count.update(f.properties)
        for p in f.properties:
            for q in f.properties:
                if p != q:
                    prop_cooc[p][q] += 1
        for s, p, o in f.triples:
            if p != INSTANCE_OF:
                for key in (s, o):
                    for c in f.classes.get(key or "", ()):
                        class_props[c][p] += 1
            elif s is not None and o is not None and not s.startswith("?") and not o.startswith("?"):
                entity_classes[s][o] += 1
                class_members[o][s] += 1
            for key, role in ((s, "subject"), (o, "object")):
                if key is not None and not key.startswith("?"):
                    role_entities[(p, role)][key] += 1
                    entity_roles[key][(p, role)] += 1
                    entity_props[key][p] += 1
        for lang, text in f.strings:
            strings[lang].add(text)
    near: dict[str, tuple[str, ...]] = {}
    if labels:
        for letter in ("P", "Q"):
            ids = sorted((i for i in vocab if i[0] == letter and i in labels), key=id_key)
            near.update(_label_neighbours(ids, [labels[i] for i in ids], near_k, near_min))
    freeze = lambda d: {k: dict(v) for k, v in d.items()}  # noqa: E731
    return CorpusStats(
        prop_count=dict(prop_count), class_props=freeze(class_props),
        entity_props=freeze(entity_props), role_entities=freeze(role_entities),
        entity_roles=freeze(entity_roles), entity_classes=freeze(entity_classes),
        class_members=freeze(class_members), prop_cooc=freeze(prop_cooc),
        strings={k: tuple(sorted(v)) for k, v in sorted(strings.items())}, near=near,
        labels=dict(labels or {}), known_ids=frozenset(known_ids))


def _label_neighbours(ids: Sequence[str], names: Sequence[str], k: int, min_cos: float,
                      chunk: int = 512) -> dict[str, tuple[str, ...]]:
    """Top-``k`` label neighbours per id (cosine rounded to 4 decimals, ties by id)."""
    from verifier.pgmr.encoders import HashedNgramEncoder

    if len(ids) < 2:
        return {}
    vecs = HashedNgramEncoder().encode(list(names))
    out: dict[str, tuple[str, ...]] = {}
    keys = [id_key(i) for i in ids]
    for start in range(0, len(ids), chunk):
        sims = np.round(vecs[start:start + chunk] @ vecs.T, 4)
        for r in range(sims.shape[0]):
            i = start + r
            row = sims[r]
            row[i] = -1.0
            cand = np.nonzero(row >= min_cos)[0]
            if not len(cand):
                continue
            best = sorted(cand.tolist(), key=lambda j: (-float(row[j]), keys[j]))[:k]
            same = names[i].casefold()
            out[ids[i]] = tuple(ids[j] for j in best if names[j].casefold() != same)
    return out


def read_labels(path: str | Path) -> dict[str, str]:
    """``{id: label}`` of a labels TSV file (header ``id\\tlabel\\t...``)."""
    out: dict[str, str] = {}
    with Path(path).open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            parts = line.rstrip("\n").split("\t")
            if n == 0 and parts[0] == "id":
                continue
            if len(parts) >= 2 and parts[0] and parts[1]:
                out.setdefault(parts[0], parts[1])
    return out


__all__ += ["read_labels"]
