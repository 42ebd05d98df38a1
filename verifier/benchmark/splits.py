"""Generalisation splits of Reyd and Zouaq (background doc section 5) over the gold pairs.

* **Unknown-URI split**: a URI (Wikidata ``P``/``Q`` id) is *rare* when fewer than
  ``rare_below`` (5) pairs use it.  Pairs sharing a rare URI form connected components; whole
  components are assigned, seeded-shuffled, to ``test`` and then ``dev`` until each reaches
  its target size (a component larger than the remaining room is skipped), everything else
  is ``train``.  So every dev/test pair holds a URI never seen in ``train``, and dev and test
  share no rare URI.
* **Unknown-template split**: no template field exists in the staged data, so the template is
  the query *skeleton*: the normalised syntax tree without prologue, variables renamed in
  order of appearance, Wikidata ids abstracted to their family (``wd:ENT``, ``wdt:PROP``,
  ``p:PROP`` ...; ``P31``/``P279`` are kept because class constraints are part of a
  template), other IRIs compacted, literals replaced by their kind (``STR``, ``NUM``,
  ``DATE`` ...).  Whole templates go to ``test`` / ``dev``, so no dev/test skeleton occurs in
  ``train``.

Records: the gold pairs (label 1, ``sparql`` = ``gold_sparql`` = the gold text) with
``split`` (train / dev / test), ``category`` ``in_distribution`` (train) or ``unknown_uri`` /
``unknown_template`` (dev, test), and ``detail`` naming the unseen URIs or the template.
:func:`check_unknown_uri_split` and :func:`check_unknown_template_split` verify the defining
properties from the records alone and raise :class:`SplitPropertyError`.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from verifier.benchmark.gold import GoldPair
from verifier.benchmark.ids import compact, prefix_map, wikidata_ref
from verifier.benchmark.records import BenchRecord
from verifier.benchmark.unionfind import UnionFind
from verifier.logic import Literal

__all__ = ["SplitSizes", "SplitPropertyError", "skeleton", "template_id",
           "build_unknown_uri_split", "build_unknown_template_split",
           "check_unknown_uri_split", "check_unknown_template_split", "SPLIT_NAMES",
           "KEPT_PROPERTIES"]

SPLIT_NAMES = ("train", "dev", "test")
#: property ids kept verbatim in skeletons (class constraints)
KEPT_PROPERTIES = frozenset({"P31", "P279"})


class SplitPropertyError(ValueError):
    """A split violates its defining property (all violations in the message)."""


@dataclass(frozen=True)
class SplitSizes:
    """Target sizes as fractions of all pairs (the rest is ``train``)."""

    dev: float = 0.1
    test: float = 0.2

    def __post_init__(self) -> None:
        if not (0 <= self.dev < 1 and 0 <= self.test < 1 and self.dev + self.test < 1):
            raise ValueError("dev and test fractions must be in [0, 1) and sum below 1")


def _assign_groups(groups: Sequence[Sequence[int]], n_total: int, sizes: SplitSizes,
                   rng: random.Random) -> dict[int, str]:
    """Whole groups to test, then dev (seeded order, a group only when it fits)."""
    order = list(range(len(groups)))
    rng.shuffle(order)
    targets = {"test": round(sizes.test * n_total), "dev": round(sizes.dev * n_total)}
    filled = {"test": 0, "dev": 0}
    out: dict[int, str] = {}
    for split in ("test", "dev"):
        for g in order:
            if g in out:
                continue
            room = targets[split] - filled[split]
            if room <= 0:
                break
            if len(groups[g]) <= room:
                out[g] = split
                filled[split] += len(groups[g])
    return out


def _record(p: GoldPair, split: str, category: str, detail: Mapping[str, Any], has_mrs: bool,
            extra: Mapping[str, Any]) -> BenchRecord:
    return BenchRecord(id=p.id, question=p.question, sparql=p.sparql, gold_sparql=p.sparql,
                       label=1, category=category, source=p.source, detail=dict(detail),
                       has_mrs=has_mrs, extra={"split": split, "dataset": p.dataset,
                                               "symbols": sorted(p.symbols), **extra})


# --------------------------------------------------------------------------------------------
# Unknown-URI split
# --------------------------------------------------------------------------------------------


def build_unknown_uri_split(pairs: Sequence[GoldPair], *, seed: int = 0, rare_below: int = 5,
                            sizes: SplitSizes = SplitSizes(),
                            has_mrs: Mapping[str, bool] | None = None
                            ) -> tuple[list[BenchRecord], dict[str, Any]]:
    """Records of the unknown-URI split (module docstring) in pair order, and statistics."""
    counts = Counter(s for p in pairs for s in p.symbols)
    rare = {s for s, c in counts.items() if c < rare_below}
    uf = UnionFind(len(pairs))
    first: dict[str, int] = {}
    for i, p in enumerate(pairs):
        for s in sorted(p.symbols & rare):
            if s in first:
                uf.union(first[s], i)
            else:
                first[s] = i
    comp_members: dict[int, list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        if p.symbols & rare:
            comp_members[uf.find(i)].append(i)
    comps = [comp_members[k] for k in sorted(comp_members)]
    assigned = _assign_groups(comps, len(pairs), sizes, random.Random(f"{seed}:unknown_uri"))
    split_of = ["train"] * len(pairs)
    comp_of: dict[int, int] = {}
    for g, members in enumerate(comps):
        for i in members:
            comp_of[i] = g
            split_of[i] = assigned.get(g, "train")
    train_syms = {s for i, p in enumerate(pairs) if split_of[i] == "train" for s in p.symbols}
    mrs = has_mrs or {}
    records = []
    for i, p in enumerate(pairs):
        sp = split_of[i]
        unseen = sorted(p.symbols - train_syms) if sp != "train" else []
        records.append(_record(
            p, sp, "in_distribution" if sp == "train" else "unknown_uri",
            {"unknown_uris": unseen, "component": comp_of.get(i)}, mrs.get(p.id, False),
            {"rare_uris": sorted(p.symbols & rare)}))
    stats = {"pairs": len(pairs), "uris": len(counts), "rare_uris": len(rare),
             "pairs_with_rare_uri": sum(len(c) for c in comps), "components": len(comps),
             "largest_component": max((len(c) for c in comps), default=0),
             "rare_below": rare_below}
    return records, stats


def check_unknown_uri_split(records: Iterable[BenchRecord]) -> None:
    """Raise :class:`SplitPropertyError` unless: every record is in train/dev/test; every
    dev/test pair uses a URI that no train pair uses and ``unknown_uris`` lists exactly
    those; categories are ``in_distribution`` (train) / ``unknown_uri``; no rare URI of a dev/test pair occurs in train; dev and test share no rare URI;
    a component never spans two splits."""
    recs = list(records)
    errors: list[str] = []
    syms_by = {s: set() for s in SPLIT_NAMES}
    rare_by = {s: set() for s in SPLIT_NAMES}
    comp_split: dict[Any, set[str]] = defaultdict(set)
    for r in recs:
        sp = r.get("split")
        if sp not in SPLIT_NAMES:
            errors.append(f"{r.id}: split {sp!r}")
            continue
        syms_by[sp] |= set(r.get("symbols", ()))
        rare_by[sp] |= set(r.get("rare_uris", ()))
        if r.detail.get("component") is not None:
            comp_split[r.detail["component"]].add(sp)
    train = syms_by["train"]
    for r in recs:
        sp = r.get("split")
        if sp in ("dev", "test"):
            unseen = set(r.get("symbols", ())) - train
            if not unseen:
                errors.append(f"{r.id} ({sp}): every URI also occurs in train")
            if sorted(unseen) != list(r.detail.get("unknown_uris", [])):
                errors.append(f"{r.id}: unknown_uris {r.detail.get('unknown_uris')} should be "
                              f"{sorted(unseen)}")
            if r.category != "unknown_uri":
                errors.append(f"{r.id}: category {r.category!r} in {sp}")
        elif sp == "train" and r.category != "in_distribution":
            errors.append(f"{r.id}: category {r.category!r} in train")
    for sp in ("dev", "test"):
        leak = rare_by[sp] & train
        if leak:
            errors.append(f"rare URIs of {sp} occur in train: {sorted(leak)[:5]}")
    both = rare_by["dev"] & rare_by["test"]
    if both:
        errors.append(f"dev and test share rare URIs {sorted(both)[:5]}")
    for c, sps in comp_split.items():
        if len(sps) > 1:
            errors.append(f"component {c} spans {sorted(sps)}")
    if errors:
        raise SplitPropertyError(f"{len(errors)} unknown-URI split violation(s):\n"
                                 + "\n".join(errors[:20]))


# --------------------------------------------------------------------------------------------
# Unknown-template split
# --------------------------------------------------------------------------------------------


def _literal_kind(node: Any) -> str:
    if isinstance(node, Literal):
        return {"number": "NUM", "date": "DATE", "boolean": "BOOL", "string": "STR"}.get(
            node.kind, "LIT")
    return "TYPED"


def skeleton(sparql: str) -> str:
    """The template skeleton of a query (module docstring).  Raises
    :class:`parsers.sparql.SparqlError` for queries that do not parse."""
    from parsers.sparql import parse_tree
    from parsers.sparql_generate import generate
    from parsers.sparql_transform import (iri_token, map_nodes, normalize, rename_variables,
                                          variables)

    tree = normalize(parse_tree(sparql))
    prefixes = prefix_map(tree)

    def abstract(n: Any) -> Any:
        if isinstance(n, tuple) and len(n) == 2 and n[0] == "iri":
            text = str(n[1])
            ref = wikidata_ref(text, prefixes)
            if ref is not None:
                if ref.id in KEPT_PROPERTIES:
                    return iri_token(f"{ref.family}:{ref.id}")
                return iri_token(f"{ref.family}:{'ENT' if ref.is_item else 'PROP'}")
            return iri_token(compact(text, prefixes))
        if isinstance(n, Literal):
            return Literal(_literal_kind(n))
        if isinstance(n, tuple) and len(n) == 3 and n[0] == "typed":
            return Literal(_literal_kind(n))
        return n

    body = map_nodes((tree[1], tree[2]), abstract)
    t = ((), body[0], body[1])
    names = {v.name: f"v{i}" for i, v in enumerate(variables(t))}
    return generate(rename_variables(t, names))


def template_id(skel: str) -> str:
    """Short stable id of a skeleton."""
    return "t" + hashlib.sha1(skel.encode("utf-8")).hexdigest()[:12]


def build_unknown_template_split(pairs: Sequence[GoldPair], *, seed: int = 0,
                                 sizes: SplitSizes = SplitSizes(),
                                 has_mrs: Mapping[str, bool] | None = None
                                 ) -> tuple[list[BenchRecord], dict[str, Any]]:
    """Records of the unknown-template split (module docstring) in pair order, and
    statistics.  Pairs whose query does not parse have no skeleton and are left out."""
    from parsers.sparql import SparqlError

    skels: list[tuple[int, str]] = []
    skipped = 0
    for i, p in enumerate(pairs):
        try:
            skels.append((i, skeleton(p.sparql)))
        except SparqlError:
            skipped += 1
    by_template: dict[str, list[int]] = defaultdict(list)
    skel_of: dict[int, str] = {}
    for i, s in skels:
        by_template[template_id(s)].append(i)
        skel_of[i] = s
    keys = sorted(by_template)
    groups = [by_template[k] for k in keys]
    assigned = _assign_groups(groups, len(skels), sizes, random.Random(f"{seed}:unknown_template"))
    split_of: dict[int, str] = {}
    for g, members in enumerate(groups):
        for i in members:
            split_of[i] = assigned.get(g, "train")
    mrs = has_mrs or {}
    records = []
    for i, p in enumerate(pairs):
        if i not in skel_of:
            continue
        sp = split_of[i]
        tid = template_id(skel_of[i])
        records.append(_record(p, sp, "in_distribution" if sp == "train" else "unknown_template",
                               {"template": tid}, mrs.get(p.id, False),
                               {"template": tid, "skeleton": skel_of[i]}))
    sizes_ = sorted((len(g) for g in groups), reverse=True)
    stats = {"pairs": len(skels), "unparseable_skipped": skipped, "templates": len(groups),
             "singleton_templates": sum(1 for g in groups if len(g) == 1),
             "largest_templates": sizes_[:5],
             "templates_per_split": dict(Counter(assigned.get(g, "train")
                                                 for g in range(len(groups))))}
    return records, stats


def check_unknown_template_split(records: Iterable[BenchRecord], *, recompute: bool = True) -> None:
    """Raise :class:`SplitPropertyError` unless: every record is in train/dev/test; no
    template occurs in two splits; every record's template is the id of its skeleton and,
    with ``recompute``, that skeleton is the one of its query."""
    errors: list[str] = []
    where: dict[str, set[str]] = defaultdict(set)
    for r in records:
        sp = r.get("split")
        if sp not in SPLIT_NAMES:
            errors.append(f"{r.id}: split {sp!r}")
            continue
        tid, skel = r.get("template"), r.get("skeleton")
        where[tid].add(sp)
        if template_id(skel or "") != tid:
            errors.append(f"{r.id}: template {tid} is not the id of its skeleton")
        elif recompute and skeleton(r.sparql or "") != skel:
            errors.append(f"{r.id}: stored skeleton differs from the query's")
        want = "in_distribution" if sp == "train" else "unknown_template"
        if r.category != want:
            errors.append(f"{r.id}: category {r.category!r} in {sp}")
    for tid, sps in where.items():
        if len(sps) > 1:
            errors.append(f"template {tid} occurs in {sorted(sps)}")
    if errors:
        raise SplitPropertyError(f"{len(errors)} unknown-template split violation(s):\n"
                                 + "\n".join(errors[:20]))
