"""Intent: what the question asks for against the form of the query.

Yes/no <-> ASK, how many <-> COUNT (or one "number of" value), superlative <-> ORDER BY with
LIMIT, comparative <-> a FILTER comparison, "all" <-> no LIMIT that cuts the answers off
(:func:`intent_check`), read from the reading's intent and the question's surface
(:func:`_surface_force`).  Used by :mod:`verifier.deductive`.
"""

from __future__ import annotations

import re
from types import MappingProxyType
from typing import TYPE_CHECKING, Sequence

from verifier.grounding import CLASS_PROPS, Grounder, Grounding, number_in_text, number_value
from verifier.logic import Atom, Compare, Eq, Formula, Func, Literal, Term, Var, atoms, subformulas
from parsers.mrs import predicate_info
from verifier.namespaces import wikidata_id
from verifier.prover import Premise
from verifier.query import Query
from verifier.filters import FLIPPED, NAME_EDGE, STRING_TESTS, label_tests, surface_comparisons
from verifier.question_cues import surface_name_test
from verifier.vocabulary import vocabulary

if TYPE_CHECKING:
    from verifier.qualifiers import Qualifier

__all__ = ["NUMBER_OF", "AUX", "answers_a_number_of", "intent_check", "intent_premises",
           "superlative_in_linked_name", "surface_name_test"]


def intent_premises(reading) -> list[Premise]:
    """What the question's comparison says: "greater than 19848" -> ``x > 19848`` for the
    compared variable (the MRS front end finds the variable, operator and value)."""
    it = reading.intent
    if it.kind != "comparative" or it.var is None or it.op is None or not isinstance(it.value, (Literal, Var)):
        return []
    if it.op == "=":
        f: Formula = Eq(it.var, it.value)
    elif it.op in ("<", "<=", ">", ">="):
        f = Compare(it.op, it.var, it.value)
    else:
        return []
    return [Premise(f"comparison in the question: {f}", f)]


_WORDS = vocabulary("intent")

#: a question that starts with a wh-word or a request verb
_WH_START = _WORDS.pattern("wh_start")


#: Auxiliaries (and modals) that open a yes/no question or stand between a wh-word and a verb
#: (a regular expression).
AUX = _WORDS.alternation("auxiliaries") + r"\b"


_YN_START = _WORDS.pattern("yn_start")


# a request for values that starts otherwise: "Please tell me ...", "I need to know ..."
_REQUEST_START = _WORDS.pattern("request_start")


# "On February 8, 1974, what position did Harold Wilson hold?": a wh-word right after a
# fronted phrase set off by a comma
_WH_AFTER_FRONTED = _WORDS.pattern("wh_after_fronted")


# "The ISOCAT id of morpheme is?", "Binary Star with maximum luminosity is?": a value to fill in
_CLOZE = _WORDS.pattern("cloze")


def _surface_force(question: str) -> str | None:
    """``select`` for questions that start with a wh-word or a request ("Please tell me",
    "I need to know"), ``ask`` for those that start with an auxiliary, else None (the reading
    decides).  A wh-word later in the question ("Robert Hooke attended which university
    ...?") is left to the reading: forcing ``select`` there let a garbled fragment reading
    without an answer variable accept a swapped-direction query on the bench and gained no
    gold pair.  Two later places are clear enough: right after a fronted phrase and its comma
    ("On February 8, 1974, what position ...?"), and a question that ends in the copula ("The
    ISOCAT id of morpheme is?"), which asks for the value."""
    if _WH_START.match(question) or _REQUEST_START.match(question):
        return "select"
    if _YN_START.match(question):
        return "ask"
    if _WH_AFTER_FRONTED.match(question) or _CLOZE.search(question):
        return "select"
    return None


# Superlatives whose direction depends on the property ordered by ("the oldest person": the
# highest age, or the earliest date of birth): their ORDER BY direction is not checked.
_UNDIRECTED_SUPERLATIVES = _WORDS.word_set("undirected_superlatives")


def _order_against_superlative(intent, query: Query) -> str | None:
    """Why the query's ORDER BY sorts the other way from the question's superlative ("the
    lowest flash point" with ``ORDER BY DESC``), or None."""
    if intent.direction not in ("max", "min") or not query.order_by or not intent.predicate:
        return None
    lemma = predicate_info(intent.predicate).lemma.casefold()
    if lemma in _UNDIRECTED_SUPERLATIVES:
        return None
    descending = query.order_by[0].descending
    if descending == (intent.direction == "max"):
        return None
    word = {"max": "the highest", "min": "the lowest"}[intent.direction]
    return (f"the question asks for {word} value ('{lemma}') but the query orders "
            f"{'descending' if descending else 'ascending'}")


def superlative_in_linked_name(reading, grounding: Grounding, grounder: Grounder,
                               question: str) -> bool:
    """Whether the question's superlative word is part of a name of a linked query symbol:
    "nominated for a *Best* Male Golfer ESPY Award" (an item's label), "the *highest* peak of
    Kebnekaise" with *highest point* (a property's label).  Such a word names the symbol; it
    asks for no ordering."""
    intent = reading.intent
    mrs = getattr(reading, "mrs", None)
    if intent.kind != "superlative" or not intent.predicate or mrs is None:
        return False
    eps = [ep for ep in mrs.eps if ep.pred == intent.predicate and ep.cfrom is not None
           and 0 <= ep.cfrom < ep.cto <= len(question)]
    if not eps:
        return False
    word = question[eps[0].cfrom:eps[0].cto].strip().lower()
    if not word:
        return False
    for link in grounding.links:
        for name in grounder.names_of(link.symbol):
            if word in re.findall(r"[\w-]+", name.name.lower()):
                return True
    return False


def _orders_by_class(query: Query) -> str | None:
    """Why the query's ORDER BY sorts by a class: its key is only ever the object of
    *instance of* / *subclass of* ("the ship class with the slowest speed" answered by
    ``?ent wdt:P31 ?obj ... ORDER BY ?obj``), which no superlative grades."""
    key = query.order_by[0].expr if query.order_by else None
    if not isinstance(key, Var):
        return None
    uses = [a for a in atoms(query.pattern) if isinstance(a, Atom) and key in a.args]
    if uses and all(wikidata_id(a.pred) in CLASS_PROPS and len(a.args) == 2 and a.args[1] == key
                    for a in uses):
        return f"the query sorts by the class of ?{key.name} ({uses[0].pred}), which no superlative grades"
    return None


def _having_states_count(query: Query, reading, question: str) -> bool | None:
    """Whether the query's HAVING compares a COUNT (or a projected COUNT's variable) with a
    number with the operator and value the question states ("more than two" -> ``> 2``, or
    ``>= 3``): ``True``; ``False`` when it compares a count otherwise; ``None`` when it
    compares no count with a number."""
    stated: list[tuple[str, Literal]] = list(surface_comparisons(question))
    it = reading.intent
    if it.op is not None and isinstance(it.value, Literal):
        stated.append((it.op, it.value))
    counts = {p.var for p in query.projection if p.aggregate is not None and p.aggregate.func == "count"}

    def is_count(t: Term) -> bool:
        return (isinstance(t, Func) and t.name in ("agg_count", "agg_count_distinct")) or (
            isinstance(t, Var) and t in counts)

    found: bool | None = None
    for f in subformulas(query.having):
        if not isinstance(f, Compare):
            continue
        if is_count(f.left) and isinstance(f.right, Literal):
            op, lit = f.op, f.right
        elif is_count(f.right) and isinstance(f.left, Literal):
            op, lit = FLIPPED[f.op], f.left
        else:
            continue
        n = lit.numeric_value
        found = False
        for wop, w in stated:
            v = w.numeric_value
            if n is None or v is None:
                continue
            # counts are whole numbers: "more than 2" is "> 2" or ">= 3"
            if (op == wop and n == v) or (wop == ">" and op == ">=" and n == v + 1) or (
                    wop == "<" and op == "<=" and n == v - 1):
                return True
    return found


#: Words that bound a time ("married to until 1975", "the spouse since 1928", "located in X
#: before 2007-7-14"), and the year of the time they bound.
_TIME_BOUND = _WORDS.pattern("time_bound")
#: Time qualifiers: start time, end time, point in time.
_TIME_QUALIFIER_PREDS = frozenset({"pq:P580", "pq:P582", "pq:P585"})


def _time_bound_as_year(question: str, query: Query) -> bool:
    """Whether the question bounds a time ("Who was Robert Shaw married to until 1975?") that
    the query writes, as LC-QuAD 2.0 does, as the year of a statement's time qualifier
    (``?s pq:P582 ?x FILTER(CONTAINS(YEAR(?x), '1975'))``).  Which qualifier the bound names
    (an end time for "until", a start time for "since") is the qualifier check's business."""
    years = {m.group(1) for m in _TIME_BOUND.finditer(question)}
    if not years:
        return False
    times = {a.args[1] for a in atoms(query.pattern)
             if isinstance(a, Atom) and a.pred in _TIME_QUALIFIER_PREDS and len(a.args) == 2}
    for a in atoms(query.pattern):
        if not (isinstance(a, Atom) and a.pred == "contains" and len(a.args) == 2
                and isinstance(a.args[1], Literal)):
            continue
        arg = a.args[0]
        if isinstance(arg, Func) and arg.name == "year" and len(arg.args) == 1:
            arg = arg.args[0]
        m = re.fullmatch(r"(\d{4})(?:-\d{1,2}-\d{1,2})?", a.args[1].lexical.strip())
        if arg in times and m and m.group(1) in years:
            return True
    return False


#: "How much was solved by Leonhard Euler?", "How much has been proved by X?": "how much" of
#: what a passive verb says was done asks how many things were (a measure would need a noun or
#: a measuring verb: "how much did it cost")
_HOW_MUCH_DONE = _WORDS.pattern("how_much_done")


def intent_check(reading, query: Query, question: str = "", *, superlative_named: bool = False,
                  counted_value: bool = False) -> tuple[bool, str]:
    """Whether the query's form answers what the question asks for (yes/no, how many, a
    superlative, a comparison, a name test), and why not.  ``counted_value``: the query's
    answer is the value of a "number of ..." property, which answers "how many" as a COUNT
    does ("How many matches did Zico play for Flamengo?" with *number of matches played*)."""
    kind = reading.intent.kind
    if kind == "superlative" and superlative_named:
        kind = reading.intent.base  # the superlative word is part of a linked name
    base = reading.intent.base
    surface = _surface_force(question)
    if surface == "select" and base == "ask":
        base = "select"  # "Give me ...", "Which ..." parsed without an answer variable
    shape = query.shape
    stated = surface_comparisons(question)
    if kind != "comparative" and stated:
        kind = "comparative" if reading.intent.kind == "select" else kind
    has_compare = any(isinstance(f, Compare) or (isinstance(f, Eq) and (
        isinstance(f.left, Literal) or isinstance(f.right, Literal))) for f in subformulas(query.pattern))
    if not has_compare and kind == "comparative":
        # "... whose population is 30257.0?" answered by CONTAINS(?x, "30257.0"): LC-QuAD
        # 2.0's way of writing that a value equals the number the question states
        equal = {number_value(v.lexical) for op, v in stated if op == "="}
        has_compare = any(a.pred == "contains" and len(a.args) == 2 and isinstance(a.args[1], Literal)
                          and number_value(a.args[1].lexical) in equal
                          for a in atoms(query.pattern) if isinstance(a, Atom))
    if not has_compare and kind == "comparative" and _time_bound_as_year(question, query):
        has_compare = True
    if not has_compare and kind == "comparative" and query.having is not None:
        # "Which countries have more than two official languages?" answered by GROUP BY
        # ?country HAVING (COUNT(?language) > 2): the count is compared with the stated value
        having = _having_states_count(query, reading, question)
        if having is False:
            return False, ("the query's HAVING compares a count, but not with the operator and value "
                           "the question states")
        has_compare = bool(having)
    if base == "ask" and getattr(reading, "sentence_force", None) == "comm":
        base = "select"  # "Tell me ...", "Give me ...": a request for values
    if base == "ask" and query.form != "ask" and kind not in ("count",):
        return False, "the question asks yes or no but the query is not an ASK query"
    if query.form == "ask" and base != "ask":
        return False, f"the query is an ASK query but the question asks for {('a count' if kind == 'count' else 'values')}"
    name_test = surface_name_test(question)
    tests = {a.pred for a in atoms(query.pattern) if isinstance(a, Atom) and a.pred in STRING_TESTS}
    if name_test and not tests:
        return False, f"the question restricts the name ('{name_test}') but the query tests no name"
    if name_test and tests == {"contains"} and (edge := NAME_EDGE.search(name_test)):
        # "starts with the letter m" answered by CONTAINS: every name with an m passes
        return False, (f"the question says how the name {edge.group(1).lower()}s ('{name_test}') "
                       f"but the query only tests that it contains the string")
    if query.form != "ask" and shape != "count" and query.limit is not None and not query.order_by \
            and not name_test and not label_tests(list(atoms(query.pattern))) \
            and (cut := _truncates_all(question, query.limit)):
        return False, cut
    # "how many items of each type": a COUNT per group (GROUP BY ?type) answers it too
    counts_groups = bool(query.group_by) and any(
        p.aggregate is not None and p.aggregate.func == "count" for p in query.projection)
    if kind == "count" and shape != "count" and not counted_value and not counts_groups:
        return False, "the question asks how many but the query does not COUNT"
    if shape == "count" and kind == "select" and _HOW_MUCH_DONE.match(question):
        kind = "count"  # "how much was solved by leonhard euler?": how many things were
    if shape == "count" and kind != "count":
        return False, "the query COUNTs but the question does not ask how many"
    if kind == "superlative" and shape != "superlative" and query.form != "ask":
        return False, "the question asks for a superlative but the query has no ORDER BY with LIMIT"
    if kind == "superlative" and shape == "superlative":
        wrong_order = _order_against_superlative(reading.intent, query)
        if wrong_order:
            return False, wrong_order
    if shape == "superlative" and (by_class := _orders_by_class(query)):
        return False, by_class
    if kind == "comparative" and not has_compare:
        return False, "the question compares with a value but the query has no comparison"
    return True, ""


#: A question that asks for all the things it describes: a plural answer ("Which actors ...",
#: "What are the ...", "Who were ..."), or "all", "every", "list".
_ASKS_FOR_ALL = _WORDS.pattern("asks_for_all")


#: A question that asks for some of them: "Name a ...", "Give me an example", "some", "a few".
_ASKS_FOR_SOME = _WORDS.pattern("asks_for_some")


#: Numbers written as words ("What are the four nations of the UK?" states the number).
_NUMBER_WORDS = MappingProxyType(dict(enumerate(_WORDS.words("number_words"))))


def _states_number(question: str, n: int) -> bool:
    """Whether ``question`` writes the number ``n``, in digits or as a word."""
    word = _NUMBER_WORDS.get(n)
    return number_in_text(str(n), question) or (
        word is not None and re.search(rf"\b{word}\b", question, re.I) is not None)


def _truncates_all(question: str, limit: int) -> str:
    """Why a ``LIMIT`` without ``ORDER BY`` cuts off answers the question asks for (an empty
    string when it does not): "Which actors were born in Germany?" with ``LIMIT 100`` returns
    some of them.  A question that asks for some ("Name a film ...") or states the number
    ("Give me 5 ...", "What are the four nations of the UK?") is answered by any ``limit`` of
    them; a question that restricts the name ("... which start with the letter v"), or a query
    that tests a label, is left alone (LC-QuAD 2.0 writes those with ``LIMIT 25``)."""
    if not _ASKS_FOR_ALL.search(question) or _ASKS_FOR_SOME.search(question) \
            or _states_number(question, limit):
        return ""
    return (f"the query returns at most {limit} answers (LIMIT {limit} without ORDER BY), but the "
            f"question asks for all of them")


#: The name of a property whose value counts things ("number of matches played", "number
#: of episodes", "population", "female population", "member count"): a value that answers
#: "how many" ("How many people live in the capital of Australia?" with *population*, "How
#: many females ... are there?" with *female population*).
NUMBER_OF = _WORDS.pattern("number_of")


def answers_a_number_of(query: Query, pattern: Formula, qualifiers: Sequence[Qualifier],
                         grounder: Grounder, answer: Var | None = None) -> bool:
    """Whether the query's one answer (or ``answer``, the column the question's answer was
    aligned with) is the value of a "number of ..." property (in the pattern or a
    qualifier)."""
    if query.shape == "count" or (answer is None and len(query.answer_vars) != 1):
        return False
    v = answer if answer is not None else query.answer_vars[0]
    props = [q.prop for q in qualifiers if q.value == v]
    props += [wikidata_id(a.pred) for a in atoms(pattern)
              if isinstance(a, Atom) and len(a.args) == 2 and a.args[1] == v and ":" in a.pred]
    return bool(props) and all(p and NUMBER_OF.match(grounder.label(p)) for p in props)
