"""Simple, deterministic perturbations of gold queries for the grounding-signal benchmark.

For one gold (question, SPARQL) pair, :meth:`Perturber.perturb` gives the gold pair itself
(category ``gold``, label 0) and, when applicable, one pair per category (label 1):

* ``wrong_entity``: one item id (every occurrence of it) replaced by another item of the
  memory that the query does not use;
* ``wrong_property``: the same for a property id (``p:P1082`` and ``ps:P1082`` change
  together);
* ``nonexistent_id``: one Wikidata id replaced by an id of the same letter that the memory
  does not contain.

Choices come from :func:`verifier.pgmr.degrade.rng_for` (seed, record id, category), so they
do not depend on the order of the records.

:func:`plausible_replacements` draws harder replacements for *training* pairs (used by
:func:`verifier.pgmr.estimate.estimate_priors` to fit the grounding model): besides a random
id of the same kind, the same-kind id with the nearest label, and an id that occurs in the
same context in the other training pairs (a property that co-occurs with the query's other
properties; an item used with one of the query's properties).  :func:`given_replacements`
turns wrong queries written for the training questions (e.g. the benchmark's train-split
``wrong_entity`` / ``wrong_property`` records) into the same :class:`Replacement` form.

The benchmark builder of the project (``verifier.benchmark``) provides harder perturbations
of the test split in the same JSONL shape (``question``, ``sparql``, ``category``,
``label``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import asdict, dataclass
from typing import Sequence

from verifier.pgmr.degrade import rng_for
from verifier.pgmr.memory import Memory
from verifier.pgmr.symbols import Kind, kind_of_wikidata_id
from verifier.pgmr.tokenizer import Identifier, identifiers

__all__ = ["Perturbation", "Perturber", "Replacement", "replace_identifier",
           "plausible_replacements", "given_replacements", "CATEGORIES"]

CATEGORIES = ("wrong_entity", "wrong_property", "nonexistent_id")


@dataclass(frozen=True, slots=True)
class Perturbation:
    """One (question, sparql) pair with its category and label (1 = wrong query)."""

    question: str
    sparql: str
    category: str
    label: int
    source: str = ""
    original: str | None = None
    replacement: str | None = None

    def to_dict(self) -> dict:
        return asdict(self)


def replace_identifier(sparql: str, old: str, new: str,
                       idents: list[Identifier] | None = None) -> str:
    """``sparql`` with every occurrence of identifier ``old`` (any namespace) written as
    ``new`` (Wikidata ids; the token keeps its prefix or IRI form)."""
    idents = identifiers(sparql) if idents is None else idents
    out, pos = [], 0
    for ident in idents:
        if ident.id != old:
            continue
        tok = ident.token
        text = tok.text
        core = text[1:-1] if text.startswith("<") else text
        if not core.endswith(old):
            continue
        core = core[: len(core) - len(old)] + new
        out.append(sparql[pos:tok.start])
        out.append(f"<{core}>" if text.startswith("<") else core)
        pos = tok.end
    out.append(sparql[pos:])
    return "".join(out)


@dataclass(frozen=True)
class Perturber:
    """Draws replacement ids from a memory (see the module docstring)."""

    items: tuple[str, ...]
    properties: tuple[str, ...]
    known: frozenset[str]
    seed: int = 0

    @classmethod
    def for_memory(cls, memory: Memory, seed: int = 0) -> "Perturber":
        """Pools of Wikidata item and property ids of ``memory``."""
        items, props = [], []
        for s in memory.table:
            k = kind_of_wikidata_id(s.id)
            if k is Kind.PROPERTY:
                props.append(s.id)
            elif k is Kind.ITEM and s.id.startswith("Q"):
                items.append(s.id)
        return cls(tuple(items), tuple(props), frozenset(s.id for s in memory.table), seed)

    def _absent(self, letter: str, rng) -> str:
        while True:
            cand = f"{letter}{rng.randint(1, 10**8 if letter == 'Q' else 20_000)}"
            if cand not in self.known:
                return cand

    def perturb(self, question: str, sparql: str, source: str = "") -> list[Perturbation]:
        """The gold pair and one perturbation per applicable category."""
        out = [Perturbation(question, sparql, "gold", 0, source)]
        idents = identifiers(sparql)
        used = {i.id for i in idents}
        q_ids = sorted({i.id for i in idents if i.id.startswith("Q")})
        p_ids = sorted({i.id for i in idents if i.id.startswith("P")})
        for cat, pool_ids, pool in (("wrong_entity", q_ids, self.items),
                                    ("wrong_property", p_ids, self.properties)):
            if not pool_ids or not pool:
                continue
            rng = rng_for(self.seed, source or sparql, cat)
            old = rng.choice(pool_ids)
            new = rng.choice(pool)
            while new in used:
                new = rng.choice(pool)
            out.append(Perturbation(question, replace_identifier(sparql, old, new, idents), cat,
                                    1, source, old, new))
        wd_ids = sorted(i for i in used if kind_of_wikidata_id(i) is not None and i[0] in "QP")
        if wd_ids:
            rng = rng_for(self.seed, source or sparql, "nonexistent_id")
            old = rng.choice(wd_ids)
            new = self._absent(old[0], rng)
            out.append(Perturbation(question, replace_identifier(sparql, old, new, idents),
                                    "nonexistent_id", 1, source, old, new))
        return out


@dataclass(frozen=True, slots=True)
class Replacement:
    """Identifier ``old`` of training pair ``pair`` replaced by ``new`` (``via``: ``random``,
    ``near`` or ``context``); ``sparql`` is the changed query."""

    pair: int
    old: str
    new: str
    via: str
    sparql: str


def plausible_replacements(pairs: Sequence[tuple[str, str]], memory: Memory, *,
                           seed: int = 0) -> list[Replacement]:
    """For each pair and each kind group (item, property) of its identifiers: one identifier
    (drawn with :func:`~verifier.pgmr.degrade.rng_for`) replaced by a random id of the memory,
    by the same-kind id with the nearest label, and by a context id (module docstring).  The
    replacement is never an id of the query.  Deterministic for a given seed."""
    parsed = [[i for i in identifiers(s, known=memory.__contains__) if i.id in memory]
              for _, s in pairs]
    groups: list[dict[str, list[str]]] = []
    for idents in parsed:
        by: dict[str, set[str]] = defaultdict(set)
        for i in idents:
            sym = memory.get(i.id)
            if sym is not None and (i.kind is None or i.kind.group == sym.kind.group):
                by[sym.kind.group].add(i.id)
        groups.append({g: sorted(v) for g, v in by.items()})
    pools = {g: sorted(s.id for s in memory.table if s.kind.group == g)
             for g in ("item", "property")}
    # contexts from the training pairs themselves
    prop_cooc: dict[str, Counter] = defaultdict(Counter)
    items_by_prop: dict[str, Counter] = defaultdict(Counter)
    for by in groups:
        props = by.get("property", [])
        for a in props:
            for b in props:
                if a != b:
                    prop_cooc[a][b] += 1
            for it in by.get("item", []):
                items_by_prop[a][it] += 1
    chosen: list[tuple[int, str, str]] = []
    for n, by in enumerate(groups):
        for g in ("item", "property"):
            if by.get(g):
                chosen.append((n, g, rng_for(seed, n, g, "old").choice(by[g])))
    near: dict[tuple[int, str], str | None] = {}
    for g in ("item", "property"):
        sel = [(n, old) for n, gg, old in chosen if gg == g]
        labels = [memory.get(old).label for _, old in sel]  # type: ignore[union-attr]
        for (n, old), cands in zip(sel, memory.search(labels, kind=g, k=8) if sel else []):
            used = {i.id for i in parsed[n]}
            near[(n, old)] = next((c.id for c in cands if c.id not in used), None)
    out: list[Replacement] = []
    for n, g, old in chosen:
        used = {i.id for i in parsed[n]}
        rng = rng_for(seed, n, g, "new")
        picks: list[tuple[str, str]] = []
        pool = pools[g]
        for _ in range(20):
            cand = rng.choice(pool)
            if cand not in used:
                picks.append((cand, "random"))
                break
        if near.get((n, old)):
            picks.append((near[(n, old)], "near"))  # type: ignore[arg-type]
        ctx: Counter = Counter()
        if g == "property":
            for p in groups[n].get("property", []):
                if p != old:
                    ctx.update(prop_cooc[p])
        else:
            for p in groups[n].get("property", []):
                ctx.update(items_by_prop[p])
        top = sorted((c for c in ctx if c not in used and c in memory),
                     key=lambda c: (-ctx[c], c))[:10]
        if top:
            picks.append((rng.choice(top), "context"))
        seen: set[str] = set()
        for new, via in picks:
            if new in seen:
                continue
            seen.add(new)
            out.append(Replacement(n, old, new, via,
                                   replace_identifier(pairs[n][1], old, new, parsed[n])))
    return out


def given_replacements(pairs: Sequence[tuple[str, str]], wrong: Sequence[tuple[str, str]],
                       memory: Memory, *, via: str = "given") -> tuple[list[Replacement], int]:
    """Wrong queries for the questions of correct ``pairs`` as :class:`Replacement` records.

    Each wrong ``(question, sparql)`` is matched to the correct pairs with the same question;
    it is kept for the first of them from which it differs by exactly one identifier of the
    memory (one id of the correct query absent from the wrong one, one new id absent from the
    correct one; every occurrence may change).  Returns the replacements and the number of
    wrong queries that matched no correct pair that way."""
    def ids(sparql: str) -> set[str]:
        return {i.id for i in identifiers(sparql, known=memory.__contains__)}

    by_question: dict[str, list[int]] = defaultdict(list)
    for n, (q, _) in enumerate(pairs):
        by_question[q].append(n)
    gold_ids: dict[int, set[str]] = {}
    out: list[Replacement] = []
    skipped = 0
    for q, sparql in wrong:
        new_ids = ids(sparql)
        for n in by_question.get(q, ()):
            if n not in gold_ids:
                gold_ids[n] = ids(pairs[n][1])
            gone, added = gold_ids[n] - new_ids, new_ids - gold_ids[n]
            if len(gone) == 1 and len(added) == 1 and all(i in memory for i in gone | added):
                out.append(Replacement(n, gone.pop(), added.pop(), via, sparql))
                break
        else:
            skipped += 1
    return out, skipped
