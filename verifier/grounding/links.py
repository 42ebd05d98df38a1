"""Links of question units to query symbols, the axioms they instantiate, and the grounding
of one reading to one query (:class:`Grounding`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from verifier.axioms.model import LexiconEntry, Template
from verifier.grounding.symbols import SymbolUse
from verifier.grounding.units import Unit
from verifier.grounding.words import POSSESSIVE_PRONOUNS
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, IRI, Iff, Implies, Literal, Not, Or,
    Term, Var, atoms, disj, iter_terms, map_atoms,
)
from verifier.identity import Same, per_pair
from verifier.namespaces import wikidata_id

__all__ = ["Axiom", "Link", "Grounding", "LINK_SOURCES", "instantiate", "without_superseded",
           "bound_possessives"]

#: Where a link comes from (:attr:`Link.source`): a curated lexicon entry; a KG label or an
#: alias of the symbol; a name reached through WordNet's synonyms and derivations; a name
#: close to the question's words by string similarity (an item written in part, or near it);
#: a name one edit from a misspelt word; a literal the question writes; a pronoun referring
#: to a linked item; a word that goes with the symbol in paired training data (learned
#: associations, :mod:`verifier.grounding.associations`).
LINK_SOURCES = ("lexicon", "label", "alias", "wordnet", "similarity", "spelling", "literal",
                "coreference", "association")


@dataclass(frozen=True)
class Axiom:
    """An instantiated axiom with its provenance."""

    name: str
    formula: Formula
    template: str
    source: str  # "label 'mass' of P2067", "lexicon chemistry: toxicity", "background"


@dataclass(frozen=True)
class Link:
    """A question unit linked to a query symbol."""

    unit: Unit
    symbol: SymbolUse
    name: str
    shape: str
    score: float
    coverage: float
    reason: str
    entry: LexiconEntry | None = None
    axioms: tuple[Axiom, ...] = ()
    #: where the link comes from (one of :data:`LINK_SOURCES`)
    source: str = "label"
    #: how sure the source is that the words name the symbol, in [0, 1]: 1 for a lexicon
    #: entry, a literal and a name the words say in full; the share of the name's words the
    #: question says (WordNet's relations counting 0.6) for a partial name; the string
    #: similarity for a name written in part
    confidence: float = 1.0

    def describe(self, label: str | None = None) -> str:
        """The link said to people, with the symbol's ``label`` (else the name matched), its
        source and confidence: "'wealthy' -> net worth (P2218), similarity 0.61"."""
        return (f"'{self.unit.text or self.unit.lemma}' -> {label or self.name} ({self.symbol.id}), "
                f"{self.source} {self.confidence:.2f}")

    @property
    def names_item(self) -> bool:
        """Whether the unit names an item, the thing it refers to: not a word that gives its
        referent the item as a property's value ("daughter": sex or gender female, through
        a lexicon entry with ``via``)."""
        return self.symbol.kind == "item" and not (self.entry is not None and self.entry.via)


@dataclass
class Grounding:
    """All links of one reading to one query, plus diagnostics."""

    links: list[Link] = field(default_factory=list)
    unsupported: list[SymbolUse] = field(default_factory=list)
    dominated: list[tuple[SymbolUse, Unit, str, float, str, float]] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)

    @property
    def axioms(self) -> list[Axiom]:
        """The axioms of every link, each formula once, in link order."""
        out, seen = [], set()
        for l in self.links:
            for a in l.axioms:
                if a.formula not in seen:
                    seen.add(a.formula)
                    out.append(a)
        return out


def instantiate(template: Template, unit: Unit, bindings: dict[str, str | Term]) -> Formula:
    """The template's axiom with ``$pred`` bound to the unit's predicate (padded with fresh
    universally quantified variables up to the unit's arity, and with the unit's CARG for
    names) and the other placeholders bound to KG symbols; raises ValueError when a
    placeholder has no binding.

    The axiom depends on the template, the unit's predicate, arity and CARG and the bindings
    only: it is made once for them (the readings of a question link the same words to the
    same symbols again and again) and the same formula object is returned each time."""
    carg = unit.atom.args[-1] if unit.kind in ("named", "number") and isinstance(unit.atom.args[-1], Literal) else None
    try:
        made = _instantiated(Same(template), unit.pred, unit.arity, carg, tuple(bindings.items()))
    except TypeError:  # a binding that is no key (not hashable): made for this call only
        made = _instantiate(template, unit.pred, unit.arity, carg, bindings)
    if isinstance(made, str):
        raise ValueError(made)
    return made


@per_pair(maxsize=16384)
def _instantiated(key: Same, pred: str, arity: int, carg: Literal | None,
                  bindings: tuple[tuple[str, str | Term | tuple[str, ...]], ...]) -> Formula | str:
    """:func:`instantiate` of ``key.obj`` (the template) for a unit of ``pred``, ``arity``
    and ``carg``: the axiom, or why a placeholder has no binding."""
    try:
        return _instantiate(key.obj, pred, arity, carg, dict(bindings))
    except ValueError as e:
        return str(e)


def _instantiate(template: Template, pred: str, arity: int, carg: Literal | None,
                 bindings: dict[str, str | Term]) -> Formula:
    extra: list[Var] = []

    def fix_atom(a: Atom) -> Formula:
        if a.pred == "$pred":
            args = list(a.args)
            want = arity - 1 if carg is not None else arity
            while len(args) < want:
                v = Var(f"_pad{len(extra)}")
                extra.append(v)
                args.append(v)
            if carg is not None and len(args) == arity - 1:
                args.append(carg)
            return Atom(pred, tuple(args))
        if a.pred.startswith("$"):
            # "$prop+" / "$prop*": the property's transitive (reflexive) closure, a path
            name, closure = (a.pred[:-1], a.pred[-1]) if a.pred.endswith(("+", "*")) else (a.pred, "")
            val = bindings.get(name)
            if isinstance(val, tuple) and val and all(isinstance(v, str) for v in val):
                return disj(Atom(v + closure, a.args) for v in val)  # any of these predicates
            if not isinstance(val, str):
                raise ValueError(f"template {template.name}: no binding for {a.pred}")
            return Atom(val + closure, a.args)
        return a

    f = map_atoms(template.axiom, fix_atom)
    consts = {k: (IRI(v) if isinstance(v, str) else v) for k, v in bindings.items()
              if k in ("$item", "$class", "$value", "$name")}
    if consts:
        f = _replace_placeholders(f, consts)
    for t in iter_terms(f):
        if isinstance(t, IRI) and t.is_placeholder:
            raise ValueError(f"template {template.name}: no binding for {t.value}")
    if extra:
        f = _add_to_outer_forall(f, extra)
    return f


def _replace_placeholders(f: Formula, consts: dict[str, Term]) -> Formula:
    def term(t: Term) -> Term:
        if isinstance(t, IRI) and t.value in consts:
            return consts[t.value]
        if isinstance(t, Func):
            return Func(t.name, tuple(term(a) for a in t.args))
        return t

    def go(g: Formula) -> Formula:
        if isinstance(g, Atom):
            return Atom(g.pred, tuple(term(a) for a in g.args))
        if isinstance(g, Eq):
            return Eq(term(g.left), term(g.right))
        if isinstance(g, Compare):
            return Compare(g.op, term(g.left), term(g.right))
        if isinstance(g, (And, Or)):
            return type(g)(tuple(go(a) for a in g.args))
        if isinstance(g, Not):
            return Not(go(g.arg))
        if isinstance(g, (Implies, Iff)):
            return type(g)(go(g.left), go(g.right))
        if isinstance(g, (Exists, Forall)):
            return type(g)(g.vars, go(g.body))
        return g

    return go(f)


def _add_to_outer_forall(f: Formula, extra: list[Var]) -> Formula:
    if isinstance(f, Forall):
        return Forall(f.vars + tuple(extra), f.body)
    return Forall(tuple(extra), f)




def without_superseded(links: list[Link]) -> list[Link]:
    """The links without those that an exclusive lexicon entry's link of the same word
    supersedes: its axioms name properties of their own ("When did the Orioles win the
    World Series?": the season template says that the Orioles are the *winner* of a season, so
    the word's other link to *winner*, which would make them the winner of the World Series
    itself, is not a second reading of the word)."""
    named: dict[int, set[str]] = {}
    for l in links:
        if l.entry is not None and l.entry.exclusive:
            props = {wikidata_id(a.pred) for ax in l.axioms for a in atoms(ax.formula)}
            # ... and, when its axioms take the entry's own property as a chain (twice), the
            # same word's links to that property ("grand-children" is child twice, not the
            # label *child* once)
            chain = any(sum(1 for a in atoms(ax.formula) if wikidata_id(a.pred) == l.symbol.id) > 1
                        for ax in l.axioms)
            named.setdefault(id(l.unit), set()).update(p for p in props if p and (chain or p != l.symbol.id))
    if not named:
        return links
    return [l for l in links if not (l.symbol.id in named.get(id(l.unit), ()) and not (
        l.entry is not None and l.entry.exclusive))]


#: Third-person pronouns, and those of them that are possessives.


def bound_possessives(pronouns: list[Unit], units: list[Unit], g: Grounding) -> dict[int, Link]:
    """Possessive pronouns that refer to the subject of the question's verb when that subject
    is a named item: "When did Lindsey Vonn end *her* marriage with Thomas Vonn?" (her =
    Lindsey Vonn, though the question names two items).  Only when every verb with a named
    subject has the same one.  Keyed by ``id`` of the pronoun's unit."""
    named = {l.unit.var: l for l in g.links if l.symbol.kind == "item" and l.unit.kind == "named"}
    subjects = {named[v.atom.args[1]].symbol.symbol: named[v.atom.args[1]] for v in units
                if v.kind == "verb" and len(v.atom.args) > 1 and v.atom.args[1] in named}
    if len(subjects) != 1:
        return {}
    (link,) = subjects.values()
    return {id(p): link for p in pronouns if p.text.casefold() in POSSESSIVE_PRONOUNS}

