"""Check: a "when" question answered with something that is not a time."""

from __future__ import annotations

import re
from typing import Sequence

from verifier.grounding import Grounder
from verifier.logic import Formula, atoms
from verifier.namespaces import wikidata_id
from verifier.query import Query
from verifier.qualifiers import Qualifier
from verifier.deductive.checks.context import CheckContext

__all__ = ["check", "when_answer_not_a_time"]


_TIME_NAME = re.compile(
    r"\b(?:date|dates|time|year|years|day|month|inception|founded|established|start|started|end|"
    r"ended|begin|began|dissolved|abolished|demolished|died|born|period|century|era|age|launch|"
    r"opening|premiere|retired|retirement|entry|flight|floruit|active|since|until|debut|"
    r"introduced|released|created|completed|built)\b", re.I)


def when_answer_not_a_time(reading, query: Query, pattern: Formula, qualifiers: Sequence[Qualifier],
                            grounder: Grounder) -> str | None:
    """Why the query's answer is no time although the question asks when: "When was Tiger
    Woods nominated for a Best Male Golfer ESPY Award?" answered by the awards he was
    nominated for (``wd:Q10993 wdt:P1411 ?t``).  The answer is a time when a time qualifier
    gives it or when some name of the property whose value it is speaks of a time (*date* of
    death, *inception* or its alias "founded", *start* time ...); otherwise the templates that
    read "when" as a modifier have made the time a value of a property that has none."""
    if len(reading.answer_vars) != 1 or len(query.answer_vars) != 1 or query.form != "select":
        return None
    (t,) = reading.answer_vars
    if not any(a.pred == "time_n" and a.args and a.args[0] == t for a in atoms(reading.formula)):
        return None
    (v,) = query.answer_vars
    if any(q.value == v for q in qualifiers):
        return None  # a qualifier's value: the qualifier check says whether it is a time
    props = [a for a in atoms(pattern) if len(a.args) == 2 and a.args[1] == v and wikidata_id(a.pred)]
    if not props or any(a.args[0] == v for a in atoms(pattern)):
        return None
    for a in props:
        pid = wikidata_id(a.pred)
        names = [grounder.label(pid)] + [n.name for n in grounder.labels.names.get(pid, ())]
        if any(_TIME_NAME.search(n) for n in names) or grounder.label(pid) == pid:
            return None
    pid = wikidata_id(props[0].pred)
    return (f"the question asks when, but the query's answer is the {grounder.label(pid)} "
            f"({pid}) of something, not a time")


def check(ctx: CheckContext) -> str | None:
    """A "when" question answered with something that is not a time (an intent failure)."""
    return when_answer_not_a_time(ctx.reading, ctx.query, ctx.pattern, ctx.qualifiers, ctx.grounder)
