"""Premises of the proof problem besides the question: structural axioms, link axioms, background."""

from __future__ import annotations

from typing import Iterable

from verifier.axioms.model import Pack
from verifier.grounding import Axiom, Grounder, Grounding, Link, Unit, instantiate, reading_verbs
from verifier.identity import Same, per_pair
from verifier.logic import Atom, Eq, Exists, Forall, Formula, IRI, Implies, Term, Var, atoms, conj, predicates
from verifier.lexical import content_keys
from verifier.namespaces import wikidata_id
from verifier.prover import Premise
from verifier.deductive.reading import conjuncts

__all__ = [
    "structural_axioms", "abstract_units", "dedupe_axioms", "disambiguate_shared_names",
    "label_noun_values", "kg_rule", "closures_state_their_property", "is_relevant_background",
    "predicates_used",
]


def structural_axioms(pack: Pack, units: list[Unit]) -> list[Axiom]:
    """Axioms of ``links: none`` templates for every unit they match (e.g. prepositions as
    modifiers)."""
    out = []
    verbs = reading_verbs(units)
    for t in pack.templates.values():
        if t.links != "none" or not t.match.admits_verbs(verbs):
            continue
        for u in units:
            if t.match.kind not in (u.kind, "any") and not (t.match.kind == "abstract" and t.match.preds
                                                            and t.match.names(u.pred)):
                continue
            if not t.match.names(u.pred):
                continue
            if not t.match.admits(u.atom.args):
                continue
            try:
                f = instantiate(t, u, {})
            except ValueError:
                continue
            out.append(Axiom(f"{t.name}: {u.pred}", f, t.name, "structure"))
    return dedupe_axioms(out)


def abstract_units(reading) -> list[Unit]:
    """Units for abstract predicates that structural templates may match (loc_nonsp ...)."""
    out = []
    seen = set()
    for a in atoms(reading.formula):
        if a.pred in ("loc_nonsp", "_of_p", "poss", "compound", "_and_c") and a not in seen:
            seen.add(a)
            out.append(Unit(a, "abstract", a.pred, None, (), (), "", a.args[0] if a.args else None))
    return out


def dedupe_axioms(axioms: list[Axiom]) -> list[Axiom]:
    """``axioms`` without repeated formulas (the first kept)."""
    out, seen = [], set()
    for a in axioms:
        if a.formula not in seen:
            seen.add(a.formula)
            out.append(a)
    return out


def disambiguate_shared_names(grounding: Grounding, reading) -> list[Axiom]:
    """The grounding's axioms, with names that two items share made specific.

    A name axiom says that whatever bears the name is the item (``forall x. named(x, "Dutt")
    -> x = wd:Q470416``).  When a word of two names links to two items ("Geeta *Dutt* and Guru
    *Dutt*"), the two axioms contradict each other and prove anything.  Each is restricted to
    the bearer that its own name phrase modifies (``named(x, "Dutt") & compound(e, x, y) &
    named(y, "Geeta") -> x = wd:Q470416``); where the reading gives no such modifier the axiom
    is left out."""
    axioms = grounding.axioms
    heads = [_name_axiom(ax.formula) for ax in axioms]
    by_head: dict[Formula, set[str]] = {}
    for head in heads:
        if head is not None:
            by_head.setdefault(head[0], set()).add(head[1])
    shared = {h for h, items in by_head.items() if len(items) > 1}
    if not shared:
        return axioms
    facts = [f for f in conjuncts(reading.formula) if isinstance(f, Atom)]
    names = {f.args[0]: f.args[1] for f in facts if f.pred == "named" and len(f.args) == 2}
    out: list[Axiom] = []
    for ax, head in zip(axioms, heads):
        if head is None or head[0] not in shared:
            out.append(ax)
            continue
        antecedent, item = head
        carg = antecedent.args[1]
        for link in grounding.links:
            if ax not in link.axioms or not isinstance(link.unit.var, Var):
                continue
            mods = sorted({names[f.args[2]] for f in facts if f.pred == "compound" and len(f.args) == 3
                           and f.args[1] == link.unit.var and f.args[2] in names}, key=str)
            if not mods:
                continue
            x, e, y = Var("x"), Var("_e"), Var("_y")
            cond = conj(Atom("named", (x, carg)),
                        *[Exists((e, y), conj(Atom("compound", (e, x, y)), Atom("named", (y, m))))
                          for m in mods])
            specific = Axiom(ax.name + " (in its own name)",
                             Forall((x,), Implies(cond, Eq(x, IRI(item)))), ax.template, ax.source)
            if specific not in out:
                out.append(specific)
    return out


def label_noun_values(grounding: Grounding, grounder: Grounder, reading) -> list[Axiom]:
    """"N of Y" is Y itself when N is the noun of a property name that a verb or preposition
    of the question also names, and the noun phrase is that word's object: "located in the
    administrative territorial entity of Nicaragua" (P131, whose name ends in the noun) is
    located in Nicaragua; "contains settlement of Amsterdam" (P1383) contains Amsterdam.  The
    noun restates the property's name; its "of" introduces the value, not an owner.  One
    axiom per such noun and word: ``forall x n y e m. w(m, x, n) & N(n) & _of_p(e, n, y) -> n = y``."""
    by_prop: dict[str, list[Link]] = {}
    for l in grounding.links:
        if l.symbol.kind == "property":
            by_prop.setdefault(l.symbol.symbol, []).append(l)
    pairs = []  # (property, its verb / preposition links, its noun links)
    for sym, links in by_prop.items():
        heads = [l for l in links if l.unit.kind in ("verb", "preposition")]
        nouns = [l for l in links if l.unit.kind in ("noun", "relational_noun") and isinstance(l.unit.var, Var)]
        if heads and nouns:
            pairs.append((sym, heads, nouns))
    if not pairs:  # most readings
        return []
    facts = [f for f in conjuncts(reading.formula) if isinstance(f, Atom)]
    ofs = [f for f in facts if f.pred == "_of_p" and len(f.args) == 3]
    named = {f.args[0] for f in facts if f.pred in ("named", "named_n") and len(f.args) == 2}
    out: list[Axiom] = []
    for sym, heads, nouns in pairs:
        phrase_words = set()
        for n in grounder.names_of(nouns[0].symbol):
            if n.shape in ("verb", "prep"):
                phrase_words |= set(content_keys(n.name)[1:])
        for nl in nouns:
            n = nl.unit.var
            if not set(nl.unit.keys) & phrase_words:
                continue
            relational = len(nl.unit.atom.args) == 2  # "settlement of": _settlement_n_of(n, y)
            if not (nl.unit.atom.args[-1] in named if relational
                    else any(f.args[1] == n and f.args[2] in named for f in ofs)):
                continue
            for hl in heads:
                h = hl.unit.atom
                if not h.args or h.args[-1] != n:
                    continue
                vs = [Var(f"_a{i}") for i in range(len(h.args) - 1)]
                nv, y, e = Var("_n"), Var("_y"), Var("_e")
                noun = (Atom(nl.unit.pred, (nv, y)),) if relational else\
                    (Atom(nl.unit.pred, (nv,)), Atom("_of_p", (e, nv, y)))
                f = Forall(tuple(vs) + (nv, y) + (() if relational else (e,)), Implies(
                    conj(Atom(h.pred, tuple(vs) + (nv,)), *noun), Eq(nv, y)))
                ax = Axiom(f"label noun value: {nl.unit.pred} of -> {sym}", f, "label_noun_value",
                           f"'{nl.unit.text}' restates the name of {sym} after '{hl.unit.text}'")
                if ax not in out:
                    out.append(ax)
    return out


def _name_axiom(f: Formula) -> tuple[Atom, str] | None:
    """(``named(x, C)``, item) of an axiom ``forall x. named(x, C) -> x = item``."""
    if isinstance(f, Forall) and len(f.vars) == 1 and isinstance(f.body, Implies):
        a, c = f.body.left, f.body.right
        if (isinstance(a, Atom) and a.pred == "named" and len(a.args) == 2 and a.args[0] == f.vars[0]
                and isinstance(c, Eq) and c.left == f.vars[0] and isinstance(c.right, IRI)):
            return Atom("named", (Var("x"), a.args[1])), c.right.value
    return None


def _antecedent_preds(f: Formula) -> frozenset[str]:
    """Predicates of the antecedent of a background axiom ``forall ... A -> B`` (read once
    per formula object: the background is the same for every reading)."""
    return _antecedent_preds_of(Same(f))


@per_pair(maxsize=8192)
def _antecedent_preds_of(key: Same) -> frozenset[str]:
    f = key.obj
    body = f.body if isinstance(f, Forall) else f
    ante = body.left if isinstance(body, Implies) else body
    return frozenset(a.pred for a in atoms(ante))


def predicates_used(formulas: Iterable[Formula]) -> set[str]:
    """The predicates of ``formulas`` (those of each formula object read once: the axioms of
    a question's readings are mostly the same objects, :func:`verifier.grounding.instantiate`)."""
    out: set[str] = set()
    for f in formulas:
        out |= _predicates_of(Same(f))
    return out


@per_pair(maxsize=8192)
def _predicates_of(key: Same) -> frozenset[str]:
    return predicates(key.obj)


def kg_rule(f: Formula) -> bool:
    """A background axiom about KG predicates only (``wdt:P26(x, y) -> wdt:P31(y, wd:Q5)``)."""
    preds = _antecedent_preds(f)
    return bool(preds) and all(wikidata_id(p) for p in preds)


def closures_state_their_property(g: Formula) -> list[Premise]:
    """For the completeness check only: a query that relates two things by a property's
    closure (``wdt:P131+``, "located in, at any depth") states that relation as the question
    does ("What state is Toronto in?": *located in*(Toronto, the state)); without this the
    question's direct *located in* would count as a constraint the query drops.  Only when
    the query says what the far end is (an item, or a variable it constrains otherwise: "?x
    wdt:P31 wd:Q107390"): a closure to anything reaches every level above."""
    x, y = Var("cx"), Var("cy")
    out = []
    parts = list(atoms(g))

    def pinned(a: Atom, t: Term) -> bool:  # an item, or a variable the query constrains otherwise
        return not isinstance(t, Var) or any(b is not a and t in b.args for b in parts)

    for name in sorted({a.pred for a in parts if a.pred.endswith("+") and len(a.args) == 2
                        and all(pinned(a, t) for t in a.args)}):
        base = name[:-1]
        out.append(Premise(f"{name} states {base}",
                           Forall((x, y), Implies(Atom(name, (x, y)), Atom(base, (x, y))))))
    return out


def is_relevant_background(f: Formula, preds: set[str]) -> bool:
    """A background axiom matters when the predicates of its antecedent occur in the problem."""
    return _antecedent_preds(f) <= preds
