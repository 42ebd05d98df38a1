"""Check: the query does not restrict its answer to the kind of thing asked for."""

from __future__ import annotations

from verifier.grounding import Grounder, Grounding, Unit
from verifier.logic import IRI, atoms
from verifier.lexical import content_keys
from verifier.namespaces import wikidata_id
from verifier.query import Query
from verifier.deductive.checks.mentions import GENERIC_KEYS, GENERIC_NOUNS
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "dropped_answer_class"]


def dropped_answer_class(reading, grounding: Grounding, units: list[Unit], query: Query,
                          grounder: Grounder) -> str | None:
    """A noun that the question says its answer is ("Give me all *books* written by Danielle
    Steel") which the query ignores: no link of the query's symbols uses the noun, and no
    label of those symbols contains its words ("What languages does X speak?" is answered by
    *languages* spoken, written or signed, which says what "languages" says).  Then the query
    returns any thing written by her, not only books."""
    answers = set(reading.answer_vars)
    if not answers:
        return None
    for a in atoms(reading.formula):  # "Which is the book that ...": the answer is the NP
        if a.pred in ("_be_v_id", "appos") and len(a.args) == 3:
            if a.args[1] in answers:
                answers.add(a.args[2])
            elif a.args[2] in answers:
                answers.add(a.args[1])
    # a link through a template that keeps the noun's class ("movies" as the film someone is
    # in) does not say the class, even for a relational noun (``_movie_n_of``)
    keeps = grounder.pack.class_keeping_templates
    # nor does an item reached through a word of the noun's phrase, not the noun itself
    # ("Danish films": the films' country of origin; "films" still says what they are)
    naming = [l for l in grounding.links if not (l.axioms and all(a.template in keeps for a in l.axioms))
              and not (l.symbol.kind == "item" and l.entry is not None and l.unit.kind == "noun"
                       and not set(content_keys(l.name)) & set(l.unit.keys))]
    linked = {id(l.unit) for l in naming}
    linked_vars = {l.unit.var for l in naming}
    kept = {id(l.unit) for l in grounding.links} - linked
    candidates = [u for u in units if (u.kind == "noun" or (u.kind == "relational_noun" and id(u) in kept))
                  and u.var in answers and id(u) not in linked
                  and u.var not in linked_vars and u.keys and u.lemma.casefold() not in GENERIC_NOUNS
                  and not set(u.keys) & GENERIC_KEYS]
    if not candidates:
        return None
    named: set[str] = set()
    for a in atoms(query.pattern):
        named.add(a.pred.split(":", 1)[-1].rstrip("*+"))
        named |= {t.value for t in a.args if isinstance(t, IRI)}
    label_keys: set[str] = set()
    for sym in named:
        sid = wikidata_id(sym) or sym
        label_keys |= set(content_keys(grounder.label(sid)))
        if grounder.labels.kinds.get(sid) != "property":
            # an item's or class's aliases too ("individual" for *human*), not a property's:
            # cast member's alias "film starring" does not say that its subject is a film
            for n in grounder.labels.names.get(sid, ()):
                label_keys |= set(n.keys)
    for u in candidates:
        if not set(u.keys) & label_keys:
            return u.text or u.lemma
    return None


def check(ctx: CheckContext) -> str | None:
    """The kind of thing the question asks for, when the query does not restrict its answer to it."""
    dropped = dropped_answer_class(ctx.reading, ctx.grounding, list(ctx.units), ctx.query, ctx.grounder)
    if not dropped:
        return None
    return (f"the query does not restrict its answer to what the question asks for "
            f"('{dropped}'): no type constraint or property of the query says so")
