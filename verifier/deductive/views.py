"""Alternative views of a reading, tried while the reading proves nothing: those still
written in Python.

Which views are tried, in which order and for which questions is data: the rule file
``axioms/rewrites/views.yaml``, whose ``builtin:`` rules name these functions through the
registry :data:`verifier.deductive.rules.BUILTINS`.  Stage: question side, after the
corrections (imports only :mod:`reading`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from verifier.logic import (
    TRUE, Atom, Term, Var, map_atoms,
)
from parsers.mrs import predicate_info
from parsers.mrs.question import REQUEST_VERBS
from verifier.deductive.reading import ReadingView, conjuncts, named_vars
from verifier.grounding.words import AGENT_PREPOSITION
from verifier.vocabulary import vocabulary

__all__ = [
    "View", "who_is_view", "KIND_OF", "attachment_view",
]


#: The predicates these views look for, from ``axioms/words/views.yaml`` (each list
#: documented and with examples there).
_WORDS = vocabulary("views")
(_COPULA,) = _WORDS.words("identity_copula")
(_PERSON,) = _WORDS.words("person")
(_DO,) = _WORDS.words("activity_verb")
(_THING,) = _WORDS.words("thing")
(_AND,) = _WORDS.words("coordination")
(_NAME_NOUN_ENDING,) = _WORDS.words("name_noun_ending")


#: What the name of "Who is NAME?" may carry besides its words ("the real Erin Brockovich").
_NAME_PARTS = _WORDS.word_set("name_parts")


def who_is_view(reading):
    """"Who is Esther Hicks?" asks what she is, not which item she is: read literally (the
    answer is the person named, an identity copula) the reading proves every direction and
    nothing is decided.  The KG answers it with what the person does, as in "What does Esther
    Hicks do?": a view of the reading in which the copula ``_be_v_id(e, who, NAME)`` becomes
    ``_do_v_1(e, NAME, who)`` and the answer a thing, so that the lexicon's word for what
    someone does (*activity*: occupation) links it (template ``activity_of``).  Only for a
    reading that says nothing else of the answer and nothing of the name but its words (see
    its question test in ``axioms/rewrites/views.yaml``).  When a second question follows ("Who was Joseph Pulitzer and what did
    he do?", "Who is Galileo and what is he famous for?"), it says what is asked of the
    person: the view drops the copula and answers the second question alone.  ``None`` when
    this does not apply."""
    if not reading.answer_vars:
        return None
    answer = reading.answer_vars[0]
    facts = conjuncts(reading.formula)
    if any(not isinstance(f, Atom) for f in facts):
        return None
    copulas = [f for f in facts if f.pred == _COPULA and len(f.args) == 3 and answer in f.args[1:]]
    if len(copulas) != 1:
        return None
    be = copulas[0]
    name = be.args[2] if be.args[1] == answer else be.args[1]
    if not isinstance(name, Var) or name == answer:
        return None
    who = Atom(_PERSON, (answer,))
    if who not in facts:
        return None

    def name_word(f: Atom) -> bool:
        return f.pred in _NAME_PARTS or predicate_info(f.pred).is_unknown_word or f.pred.endswith(_NAME_NOUN_ENDING)

    # the name's words: what name words connect to it ("louis" of "louis riel", the unknown
    # adjective "albertini" of "ellen albertini dow" and the compound on its event)
    parts = {name}
    while True:
        more = {t for f in facts if name_word(f) and answer not in f.args and parts & set(f.args)
                for t in f.args if isinstance(t, Var)} - parts
        if not more:
            break
        parts |= more
    event = be.args[0]
    second = len(reading.answer_vars) > 1
    if second and not any(f.pred == _AND and event in f.args[1:] for f in facts):
        return None  # two answers, but not two coordinated questions
    # without a second question, only a place on the copula ("who is daniel in the bible?")
    where = {f.args[2] for f in facts if not second and len(f.args) == 3 and f.args[1] == event
             and predicate_info(f.pred).pos == "p" and isinstance(f.args[2], Var)}
    for f in facts:
        if f in (be, who):
            continue
        if answer in f.args:
            return None
        if parts & set(f.args) and not name_word(f):
            return None
        if not second and not (name_word(f) and set(f.args) & (parts | where)
                               or len(f.args) == 3 and f.args[1] == event and f.args[2] in where):
            return None  # something else is said: not a plain "who is NAME?"
    if second:
        # "Who was Joseph Pulitzer and what did he do?": the second question says what is asked
        formula = map_atoms(reading.formula, lambda a: TRUE if a in (be, who) else a)
        view = ReadingView.of(reading, formula, set(), answer_vars=tuple(reading.answer_vars[1:]),
                              note="'who is NAME and ...?' read as its second question")
        return view
    do = Atom(_DO, (be.args[0], name, answer))
    formula = map_atoms(reading.formula, lambda a: do if a == be else Atom(_THING, (answer,)) if a == who else a)
    view = ReadingView.of(reading, formula, set(), note="'who is NAME?' read as what NAME does")
    return view


#: The abstract predicate the view ``kind_of`` (``axioms/rewrites/views.yaml``) writes:
#: ``kind_of(y)``, the question asked for a kind of the N that ``y`` is.
KIND_OF = "kind_of"


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
        for f in facts:  # not "by" (a passive's doer: rule passive_agents)
            if prep(f) and f.args[1] in requests and predicate_info(f.pred).lemma != AGENT_PREPOSITION:
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
    """An alternative view of a reading: ``make(reading, question)`` gives the view or None
    (``question``: where the reading's EPs are written, for the rule's surface conditions;
    may be left out); it is tried
    for a question that ``applies`` to, and (``after_reason``) only when the reason of the
    reading's last result says so.  The views and their order are data
    (``axioms/rewrites/views.yaml``, :func:`verifier.deductive.rules.views_for`)."""

    name: str
    make: Callable[[Any], Any]
    applies: Callable[[str], bool]
    after_reason: str | None = None
