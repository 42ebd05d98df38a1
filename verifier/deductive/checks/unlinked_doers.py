"""Check: doers ("who" of a verb with a named subject) the query uses no item for."""

from __future__ import annotations

from verifier.grounding import Grounder, Grounding, Unit
from verifier.lexical import words_of
from verifier.deductive.checks.mentions import GENERIC_NOUNS
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "unlinked_doers"]


def unlinked_doers(grounder: Grounder, grounding: Grounding, units: list[Unit]) -> list[str]:
    """The subject of a linked verb, one word written in lower case that no link uses and
    that ends capitalised item labels: "when did the giants win the world series?"
    (``_giant_n_1``; "yankees" as a name), a team's nickname (*San Francisco Giants*, *New
    York Giants*).  A query that names no such item answers for any winner."""
    linked = {id(l.unit) for l in grounding.links}
    linked_vars = {l.unit.var for l in grounding.links}
    subjects = {l.unit.atom.args[1] for l in grounding.links
                if l.unit.kind == "verb" and len(l.unit.atom.args) >= 2}
    out: list[str] = []
    for u in units:
        if u.kind not in ("noun", "named") or u.var not in subjects or id(u) in linked or u.var in linked_vars:
            continue
        text = (u.text or u.lemma).strip()
        words = words_of(text)
        # a plural, as teams' nicknames are ("giants"; not "work", "people")
        if (len(words) != 1 or not text.islower() or len(words[0]) < 4 or not words[0].endswith("s")
                or u.lemma in GENERIC_NOUNS):
            continue
        # the word as written ends the label ("giants": *San Francisco Giants*), not its stem
        if any(len(e.keys) >= 2 and grounder.labels.kinds.get(e.symbol) == "item"
               for e in grounder.labels.proper_names_ending(words[0])):
            out.append(f"'{text}'")
    return out


def check(ctx: CheckContext) -> str | None:
    """Doers the question names that the query uses no item for."""
    unnamed = unlinked_doers(ctx.grounder, ctx.grounding, list(ctx.units))
    return ("the query uses no item for what the question names: " + ", ".join(unnamed)) if unnamed else None
