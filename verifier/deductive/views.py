"""Alternative views of a reading, tried while the reading proves nothing.

:data:`VIEWS` declares them, in the order they are tried.  Stage: question side, after the
corrections (imports only :mod:`results` and :mod:`reading`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from verifier.logic import Atom, Term, Var, map_atoms
from parsers.mrs import predicate_info
from parsers.mrs.question import REQUEST_VERBS
from verifier.deductive.reading import ReadingView, conjuncts, named_vars

__all__ = ["View", "VIEWS", "views_for", "attachment_view"]


def attachment_view(reading):
    """"Give me all cities in New Jersey with more than 100000 inhabitants.": the grammar's
    readings (at most five, unranked) may all attach a prepositional phrase where the
    question does not: "in New Jersey" to the request verb *give*, "with more than 100000
    inhabitants" to *New Jersey*.  A view of the reading in which such a phrase modifies the
    noun phrase instead: a phrase on a request verb's event (``_give_v_1``, ``_list_v_1``
    ...) modifies the thing requested (the answer), and a phrase on a name that is itself
    the object of a phrase on a noun modifies that noun (a proper name takes no restrictive
    modifier: "cities in [New Jersey] with ...").  ``None`` when no phrase is attached that
    way."""
    facts = [f for f in conjuncts(reading.formula) if isinstance(f, Atom)]
    named = named_vars(facts)
    requests = {f.args[0] for f in facts if f.pred in REQUEST_VERBS and f.args}
    answer = reading.answer_vars[0] if len(reading.answer_vars) == 1 else None

    def noun(t) -> bool:
        return isinstance(t, Var) and t.name.startswith("x") and t not in named

    def prep(f: Atom) -> bool:
        info = predicate_info(f.pred)
        return len(f.args) == 3 and info.pos == "p" and not info.is_abstract

    host: dict[Atom, Term] = {}
    if noun(answer):
        for f in facts:  # not "by" (a passive's doer: :func:`passive_agents`)
            if prep(f) and f.args[1] in requests and predicate_info(f.pred).lemma != "by":
                host[f] = answer
    for f in facts:
        if prep(f) and f.args[1] in named:
            outer = [g for g in facts if prep(g) and g is not f and g.args[2] == f.args[1]
                     and noun(host.get(g, g.args[1]))]
            if len(outer) == 1:
                host[f] = host.get(outer[0], outer[0].args[1])
    if not host:
        return None
    replace = {f: Atom(f.pred, (f.args[0], new, f.args[2])) for f, new in host.items()}
    view = ReadingView.of(reading, map_atoms(reading.formula, lambda a: replace.get(a, a)),
                          getattr(reading, "not_alignable", set()),
                          note="a prepositional phrase read as a modifier of the noun phrase")
    return view


@dataclass(frozen=True)
class View:
    """An alternative view of a reading: ``make(reading)`` gives the view or None; it is tried
    for a question that ``applies`` to, and (``after_reason``) only when the reason of the
    reading's last result says so."""

    name: str
    make: Callable[[Any], Any]
    applies: Callable[[str], bool]
    after_reason: str | None = None


def _always(question: str) -> bool:
    return True


#: The views, in the order they are tried, while a reading proves nothing: a phrase on a
#: request verb or a name as the noun phrase's.  (``name_of_description``, ``who_is``,
#: ``kind_of`` and ``predicative_prepositions`` were deleted: they won nothing off the sample,
#: docs/deductive.md "Rules that earn their place".)
VIEWS: tuple[View, ...] = (
    View("attachment", attachment_view, _always),
)


def views_for(question: str) -> tuple[tuple[View, bool], ...]:
    """Each view of :data:`VIEWS` with whether it applies to ``question`` (decided once per pair)."""
    return tuple((v, v.applies(question)) for v in VIEWS)
