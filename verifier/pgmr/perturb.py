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
do not depend on the order of the records.  The benchmark builder of the project will later
provide harder perturbations in the same JSONL shape (``question``, ``sparql``, ``category``,
``label``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from verifier.pgmr.degrade import rng_for
from verifier.pgmr.memory import Memory
from verifier.pgmr.symbols import Kind, kind_of_wikidata_id
from verifier.pgmr.tokenizer import Identifier, identifiers

__all__ = ["Perturbation", "Perturber", "replace_identifier", "CATEGORIES"]

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
