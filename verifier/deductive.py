"""The deductive check ``axioms, T(question) |= G(sparql)`` and its verdict.

For each translated reading of the question (up to a cap):

* **soundness**: the instantiated axioms and ``T`` entail ``G`` with the question's answer
  variable aligned to the query's (for COUNT the counted variable, for superlatives the
  ordered one);
* **completeness**: ``G`` entails ``T_kg``, the KG consequences of ``T`` (computed by matching
  the axioms' antecedents against ``T``): a query that silently drops a constraint is
  ``weaker``;
* **intent**: yes/no <-> ASK, how many <-> COUNT, superlative <-> ORDER BY + LIMIT,
  comparative <-> a FILTER comparison.

Verdicts: ``faithful``, ``weaker``, ``unsupported`` (the query asserts what the question does
not support; the atoms are listed), ``intent_mismatch``, ``unknown`` (no parse, timeout,
unsupported construct).  A query faithful to one reading of an ambiguous question is faithful;
the result says which reading.
"""

from __future__ import annotations

import itertools
import logging
import re
import time
from dataclasses import dataclass
from typing import Collection, Sequence

from verifier.axioms.model import Pack
from verifier.grounding import (
    Axiom, Grounder, Grounding, Link, SymbolUse, Unit, instantiate, number_in_text, query_symbols,
    question_units, reading_verbs,
)
from verifier.logic import (
    FALSE, TRUE, And, Atom, Compare, Eq, Exists, Forall, Formula, IRI, Implies, Literal, Not, Or,
    Term, Truth, Var, atoms, conj, exists, free_vars, map_atoms, substitute, subformulas,
)
from parsers.mrs import predicate_info
from parsers.mrs.patterns import NAME_OF_DESCRIPTION
from parsers.mrs.question import REQUEST_VERBS
from verifier.lexical import STOPWORDS, LabelIndex, NameEntry, base_forms, content_keys, stem, words_beyond, words_of
from verifier.namespaces import wikidata_id
from verifier.prover import (
    Premise, ProofResult, ProverContext, entails, entails_each, solver_budget,
)
from verifier.query import Query
from verifier.filters import (
    STRING_TESTS, label_tests, label_vars, literals_of, take_compared_values,
    take_lexical_filters,
)
from verifier.intent import (
    answers_a_number_of, intent_check, intent_premises, superlative_in_linked_name,
)
from verifier.qualifiers import (
    TIME_QUALIFIERS, Qualifier, normalize_statements, qualifier_supported, reification_axioms,
)

__all__ = ["DeductiveResult", "ReadingResult", "AtomDiagnosis", "check_readings", "VERDICT_ORDER"]

log = logging.getLogger(__name__)

#: Preference between readings (first is best).
VERDICT_ORDER = ("faithful", "weaker", "intent_mismatch", "unsupported", "unknown")


@dataclass(frozen=True)
class AtomDiagnosis:
    """Whether one atom of the query follows from the question."""

    atom: str
    entailed: bool
    symbols: tuple[str, ...]
    explanation: str


@dataclass(frozen=True)
class ReadingResult:
    """The check of one reading."""

    reading_index: int
    verdict: str
    reason: str
    question_formula: str
    soundness: ProofResult | None
    completeness: ProofResult | None
    intent: str
    intent_ok: bool
    links: tuple[Link, ...]
    axioms_used: tuple[str, ...]
    diagnosis: tuple[AtomDiagnosis, ...] = ()
    missing: tuple[str, ...] = ()
    grounded_share: float = 0.0
    #: the solver work of this reading's checks (Z3 resource units, :attr:`ProofResult.work`)
    work: int = 0


@dataclass(frozen=True)
class DeductiveResult:
    """The deductive verdict of one (question, query) pair."""

    verdict: str
    reason: str
    explanation: str
    best: ReadingResult | None
    readings: tuple[ReadingResult, ...] = ()
    time_ms: float = 0.0

    @property
    def unsupported_atoms(self) -> tuple[str, ...]:
        if self.best is None:
            return ()
        return tuple(d.atom for d in self.best.diagnosis if not d.entailed)


# --------------------------------------------------------------------------------------------
# Alignment
# --------------------------------------------------------------------------------------------


def _open_vars(t: Formula, vs: set[Var]) -> tuple[Formula, set[Var]]:
    """Take ``vs`` out of the top-level existential prefix of ``t`` (they become free, to be
    aligned with query variables); returns the new formula and the variables opened."""
    if not vs or not isinstance(t, Exists):
        return t, set()
    opened = {v for v in t.vars if v in vs}
    rest = tuple(v for v in t.vars if v not in vs)
    return (Exists(rest, t.body) if rest else t.body), opened


#: The predicate by which the lexicon's graded-adjective templates say which value a
#: superlative grades ("the highest mountain": some elevation v of it, ``superl_value(v)``);
#: a query's ORDER BY key left unaligned must be such a value.
SUPERLATIVE_VALUE = "superl_value"


def _alignment(reading, query: Query, order: Sequence[int] | None = None, *,
               order_key: bool = True) -> tuple[dict[Var, Term], list[Var]]:
    """Substitution mapping the query's key variables to the reading's, and the query key
    variables left unaligned (to be existentially closed).  ``order`` permutes the query's
    answer variables (a question does not fix the order of the query's columns).  A
    superlative's ORDER BY key is aligned with the noun the superlative grades ("the lowest
    boiling point"); with ``order_key=False`` it is left unaligned, for a superlative that grades
    a thing through one of its properties ("the highest mountain": some elevation of it, which
    :func:`_aligned_pattern` asks to be a :data:`SUPERLATIVE_VALUE`)."""
    intent = reading.intent
    mapping: dict[Var, Term] = {}
    t_answers = list(reading.answer_vars)
    if query.form == "ask":
        return {}, []
    q_answers = list(query.answer_vars)
    if order is not None:
        q_answers = [q_answers[i] for i in order]
    if query.is_count:
        agg = query.projection[0].aggregate
        target = intent.var if intent.kind == "count" and intent.var is not None else (t_answers[0] if t_answers else None)
        if agg is not None and isinstance(agg.arg, Var) and target is not None:
            mapping[agg.arg] = target
    else:
        for qv, tv in zip(q_answers, t_answers):
            mapping[qv] = tv
        if order_key and query.order_by and intent.kind == "superlative" and intent.var is not None:
            key = query.order_by[0].expr
            if isinstance(key, Var) and key not in mapping:
                mapping[key] = _compound_head(reading.formula, intent.var)
    unaligned = [v for v in query.key_vars if v not in mapping]
    return mapping, unaligned


#: At most this many nouns of a reading are tried as the first column's (one proof each).
_MAX_COLUMN_NOUNS = 4


def _column_alignments(reading, query: Query):
    """Other alignments of the query's answer columns, tried when the first does not prove
    the query: (reading or a view of it, column order) pairs.  A question does not fix the
    order of the query's columns: with several answers ("Where was X born, and where did he
    die?") any order (up to three columns); with one answer and two columns besides name
    columns (``rdfs:label``), the answer may be the second when the first is something else
    the question names ("the capitals of all countries in Africa" answered with each country
    and its capital): that noun's variable, opened, is aligned with the first.  A name column
    never answers alone."""
    cols = len(query.answer_vars)
    if query.form != "select" or cols < 2 or not reading.answer_vars:
        return
    n_ans = min(cols, len(reading.answer_vars))
    if n_ans > 1:
        if cols > 3:
            return
        tried = {tuple(range(n_ans))}
        for order in itertools.permutations(range(cols)):
            if order[:n_ans] not in tried:
                tried.add(order[:n_ans])
                yield reading, order
        return
    labels = label_vars([a for part in (query.pattern, *query.optional_parts) for a in atoms(part)])
    plain = [i for i, v in enumerate(query.answer_vars) if v not in labels]
    if len(plain) != 2 or query.is_count or not isinstance(reading.formula, Exists):
        return
    order = (plain[1], plain[0]) + tuple(i for i in range(cols) if i not in plain)
    answer = reading.answer_vars[0]
    nouns = {a.args[0] for a in atoms(reading.formula)
             if a.args and isinstance(a.args[0], Var) and a.args[0].name.startswith("x")
             and (info := predicate_info(a.pred)).pos == "n" and not info.is_abstract}
    for v in [v for v in reading.formula.vars if v in nouns and v != answer][:_MAX_COLUMN_NOUNS]:
        t, opened = _open_vars(reading.formula, {v})
        if opened:
            view = _ReadingView(reading, t, getattr(reading, "not_alignable", set()))
            view.answer_vars = (answer, v)
            yield view, order


def _other_alignments(reading, query: Query):
    """Alignments tried when the first does not prove the query: (reading or view, column
    order or None, whether a superlative's ORDER BY key is aligned) triples; the column orders
    of :func:`_column_alignments`, then the ORDER BY key left unaligned."""
    for view, order in _column_alignments(reading, query):
        yield view, order, True
    if query.order_by and reading.intent.kind == "superlative" and reading.intent.var is not None:
        yield reading, None, False


def _compound_head(f: Formula, v: Var) -> Var:
    """The head noun of a compound when ``v`` is its modifier ("the lowest boiling point":
    the superlative grades "boiling" but the value is the point)."""
    for a in atoms(f):
        if a.pred == "compound" and len(a.args) == 3 and a.args[2] == v and isinstance(a.args[1], Var) \
                and a.args[1].name.startswith("x"):
            return a.args[1]
    return v


def _identified(facts: Sequence[Formula], x: Var) -> set[Var]:
    """``x`` and what a copula or an apposition among ``facts`` (:func:`_facts`) identifies
    with it."""
    same = {x}
    for a in facts:
        if isinstance(a, Atom) and a.pred in ("_be_v_id", "appos") and len(a.args) == 3:
            if a.args[1] in same or a.args[2] in same:
                same |= {t for t in a.args[1:] if isinstance(t, Var)}
    return same


def _expand_coordinated_answer(reading, query: Query):
    """When the query has more answer columns than the reading and the reading's answer is a
    coordination ``_and_c(x, a, b)``, answer with the conjuncts instead."""
    if len(query.answer_vars) <= len(reading.answer_vars) or len(reading.answer_vars) != 1:
        return reading
    same = _identified(_facts(reading.formula), reading.answer_vars[0])
    for a in atoms(reading.formula):
        if a.pred == "_and_c" and len(a.args) == 3 and a.args[0] in same \
                and all(isinstance(t, Var) and t.name.startswith("x") for t in a.args[1:]):
            parts = tuple(a.args[1:])
            t, _ = _open_vars(reading.formula, set(parts))
            if not set(parts) <= free_vars(t):
                return reading
            view = _ReadingView(reading, t, set())
            view.answer_vars = parts
            return view
    return reading


_NAME_NOUNS = frozenset({"_name_n_of", "_name_n_1", "_name/nn_u_unknown"})
#: What may be said of the name itself besides that it is the answer.
_NAME_ANSWER_PREDS = frozenset({"_be_v_id", "appos", "thing", "generic_entity"})


def _name_of_answer(reading):
    """"What is the name of the video game published by Nintendo?" (a question that
    :data:`parsers.mrs.patterns.NAME_OF_DESCRIPTION` matches) asks for the game, as a
    KG query answers it (an item, whose label is the name): a view of the reading in which
    the name is the thing it names.  Only for the name of a description (not of a proper
    name: "What is the name of Paris?") and only when nothing else is said of the name ("the
    official name of X" is a property of X).  ``None`` when this does not apply."""
    if len(reading.answer_vars) != 1:
        return None
    facts = [f for f in _facts(reading.formula) if isinstance(f, Atom)]
    same = _identified(facts, reading.answer_vars[0])
    for name in facts:
        if name.pred not in _NAME_NOUNS or not name.args or name.args[0] not in same:
            continue
        n = name.args[0]
        of = [f for f in facts if f.pred == "_of_p" and len(f.args) == 3 and f.args[1] == n]
        if name.pred == "_name_n_of" and len(name.args) == 2 and isinstance(name.args[1], Var) \
                and name.args[1].name.startswith("x"):
            named, dropped = name.args[1], {name}
        elif len(of) == 1 and isinstance(of[0].args[2], Var):
            named, dropped = of[0].args[2], {name, of[0]}
        else:
            continue
        others = [f for f in facts if f not in dropped and n in f.args and f.pred not in _NAME_ANSWER_PREDS]
        if others or any(f.pred in ("named", "named_n") and f.args[0] == named for f in facts):
            continue
        formula = map_atoms(reading.formula, lambda a: Eq(n, named) if a == name else TRUE if a in dropped else a)
        return _ReadingView(reading, formula, set())
    return None


#: "Who is|was NAME?" (nothing else asked of the person): the questions
#: :func:`_who_is_view` reads as what NAME does.
_WHO_IS = re.compile(r"^\s*who\s+(?:is|was)\s+[^?,]+?\s*[?.!]*\s*$", re.IGNORECASE)
#: What the name of "Who is NAME?" may carry besides its words ("the real Erin Brockovich").
_NAME_PARTS = frozenset({"named", "compound", "_real_a_1"})


def _who_is_view(reading):
    """"Who is Esther Hicks?" asks what she is, not which item she is: read literally (the
    answer is the person named, an identity copula) the reading proves every direction and
    nothing is decided.  The KG answers it with what the person does, as in "What does Esther
    Hicks do?": a view of the reading in which the copula ``_be_v_id(e, who, NAME)`` becomes
    ``_do_v_1(e, NAME, who)`` and the answer a thing, so that the lexicon's word for what
    someone does (*activity*: occupation) links it (template ``activity_of``).  Only for a
    reading that says nothing else of the answer and nothing of the name but its words (see
    :data:`_WHO_IS`).  When a second question follows ("Who was Joseph Pulitzer and what did
    he do?", "Who is Galileo and what is he famous for?"), it says what is asked of the
    person: the view drops the copula and answers the second question alone.  ``None`` when
    this does not apply."""
    if not reading.answer_vars:
        return None
    answer = reading.answer_vars[0]
    facts = _facts(reading.formula)
    if any(not isinstance(f, Atom) for f in facts):
        return None
    copulas = [f for f in facts if f.pred == "_be_v_id" and len(f.args) == 3 and answer in f.args[1:]]
    if len(copulas) != 1:
        return None
    be = copulas[0]
    name = be.args[2] if be.args[1] == answer else be.args[1]
    if not isinstance(name, Var) or name == answer:
        return None
    who = Atom("person", (answer,))
    if who not in facts:
        return None

    def name_word(f: Atom) -> bool:
        return f.pred in _NAME_PARTS or predicate_info(f.pred).is_unknown_word or f.pred.endswith("_n_1")

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
    if second and not any(f.pred == "_and_c" and event in f.args[1:] for f in facts):
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
        view = _ReadingView(reading, formula, set())
        view.answer_vars = tuple(reading.answer_vars[1:])
        view.note = "'who is NAME and ...?' read as its second question"
        return view
    do = Atom("_do_v_1", (be.args[0], name, answer))
    formula = map_atoms(reading.formula, lambda a: do if a == be else Atom("thing", (answer,)) if a == who else a)
    view = _ReadingView(reading, formula, set())
    view.note = "'who is NAME?' read as what NAME does"
    return view


#: "what kind / type / sort / style of N", "a list of N": the questions :func:`_kind_of_view`
#: reads ("form" is left out: "the legal form of X" is a property of X).
_KIND_OF = re.compile(r"\b(?:kinds?|types?|sorts?|styles?|list)\s+of\b", re.IGNORECASE)
_KIND_NOUNS = frozenset({"kind", "type", "sort", "style", "list"})
#: The abstract predicate of :func:`_kind_of_view`: ``kind_of(y)``, the question asked for a
#: kind of the N that ``y`` is.
KIND_OF = "kind_of"


def _named_vars(facts: Sequence[Atom]) -> set[Term]:
    """The variables that ``named`` / ``named_n`` facts give a name."""
    return {f.args[0] for f in facts if f.pred in ("named", "named_n") and f.args}


def _kind_of_view(reading):
    """"What kind of money do they use in Aruba?", "What type of currency is used in the
    UK?": a question about a kind of N is answered, as KG queries answer it, with the N
    itself (the currency, not a kind of currency); so is a request for a list of N ("Give me
    a list of all lakes in Denmark": the lakes, not a list).  A view of the reading in which
    the kind noun is identified with its N: ``_type_n_of-n(x, y)``, or ``_type_n_1(x)`` with
    ``_of_p(e, x, y)``, becomes ``x = y & kind_of(y)``; a kind noun that modifies N in a
    compound (``_kind/nn_u_unknown(k) & compound(e, y, k)``, as pattern readings write "kind
    of music") becomes ``kind_of(y)``.  The abstract ``kind_of(y)`` keeps what the question
    said of N, for the templates that read a kind of N as a genre ("What kind of music did Lou
    Reed play?").  The copula between the kind and a name ("What type of government is the
    Philippines?") becomes ``_of_p``: the kind of N a named thing is, is its N.  Only for an
    N that is a common noun (no name: "the type of the Eiffel Tower" asks for a class of the
    tower); ``None`` when no kind noun of that shape is found."""
    facts = [f for f in _facts(reading.formula) if isinstance(f, Atom)]
    named = _named_vars(facts)

    def common_noun(y) -> bool:
        return isinstance(y, Var) and y.name.startswith("x") and y not in named and any(
            f.args and f.args[0] == y and predicate_info(f.pred).pos == "n"
            and not predicate_info(f.pred).is_abstract and predicate_info(f.pred).lemma not in _KIND_NOUNS
            for f in facts)

    replace: dict[Atom, Formula] = {}
    lemmas: list[str] = []
    for f in facts:
        info = predicate_info(f.pred)
        if info.pos != "n" or info.lemma not in _KIND_NOUNS or not f.args or not isinstance(f.args[0], Var):
            continue
        lemmas.append(info.lemma)
        x = f.args[0]
        if len(f.args) == 2 and common_noun(f.args[1]):  # _type_n_of-n(x, y)
            replace[f] = conj(Eq(x, f.args[1]), Atom(KIND_OF, (f.args[1],)))
            continue
        of = [g for g in facts if g.pred == "_of_p" and len(g.args) == 3 and g.args[1] == x and common_noun(g.args[2])]
        if len(of) == 1:  # _type_n_1(x) & _of_p(e, x, y)
            replace[f], replace[of[0]] = conj(Eq(x, of[0].args[2]), Atom(KIND_OF, (of[0].args[2],))), TRUE
            continue
        mods = [g for g in facts if g.pred == "compound" and len(g.args) == 3 and g.args[2] == x
                and common_noun(g.args[1])]
        if len(f.args) == 1 and len(mods) == 1:  # _kind/nn_u_unknown(x) & compound(e, y, x)
            replace[f], replace[mods[0]] = Atom(KIND_OF, (mods[0].args[1],)), TRUE
    if not replace:
        return None
    # "What type of government is the Philippines?": the kind of N that a named thing is, is
    # its N ("the government of the Philippines"), not the thing itself
    kinds = {f.args[0] for f in replace if predicate_info(f.pred).lemma in _KIND_NOUNS}
    kinds |= {t for r in replace.values() for a in atoms(r) if a.pred == KIND_OF for t in a.args}
    for f in facts:
        if f.pred == "_be_v_id" and len(f.args) == 3 and f not in replace:
            e, a, b = f.args
            for k, z in ((a, b), (b, a)):
                if k in kinds and z in named:
                    replace[f] = Atom("_of_p", (e, k, z))
                    break
    view = _ReadingView(reading, map_atoms(reading.formula, lambda a: replace.get(a, a)),
                        getattr(reading, "not_alignable", set()))
    view.note = f"'{lemmas[0] if len(set(lemmas)) == 1 else 'kind'} of N' read as N"
    return view


def _attachment_view(reading):
    """"Give me all cities in New Jersey with more than 100000 inhabitants.": the grammar's
    readings (at most five, unranked) may all attach a prepositional phrase where the
    question does not: "in New Jersey" to the request verb *give*, "with more than 100000
    inhabitants" to *New Jersey*.  A view of the reading in which such a phrase modifies the
    noun phrase instead: a phrase on a request verb's event (``_give_v_1``, ``_list_v_1``
    ...) modifies the thing requested (the answer), and a phrase on a name that is itself
    the object of a phrase on a noun modifies that noun (a proper name takes no restrictive
    modifier: "cities in [New Jersey] with ...").  ``None`` when no phrase is attached that
    way."""
    facts = [f for f in _facts(reading.formula) if isinstance(f, Atom)]
    named = _named_vars(facts)
    requests = {f.args[0] for f in facts if f.pred in REQUEST_VERBS and f.args}
    answer = reading.answer_vars[0] if len(reading.answer_vars) == 1 else None

    def noun(t) -> bool:
        return isinstance(t, Var) and t.name.startswith("x") and t not in named

    def prep(f: Atom) -> bool:
        info = predicate_info(f.pred)
        return len(f.args) == 3 and info.pos == "p" and not info.is_abstract

    host: dict[Atom, Term] = {}
    if noun(answer):
        for f in facts:  # not "by" (a passive's doer: :func:`_passive_agents`)
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
    view = _ReadingView(reading, map_atoms(reading.formula, lambda a: replace.get(a, a)),
                        getattr(reading, "not_alignable", set()))
    view.note = "a prepositional phrase read as a modifier of the noun phrase"
    return view


class _ReadingView:
    """A reading with some intent variables opened (free) and others not alignable."""

    def __init__(self, reading, formula: Formula, not_alignable: set[Var]) -> None:
        self.intent = reading.intent
        self.answer_vars = reading.answer_vars
        self.formula = formula
        self.not_alignable = not_alignable
        self.reading_index = getattr(reading, "reading_index", 0)
        self.sentence_force = getattr(reading, "sentence_force", None)
        self.mrs = getattr(reading, "mrs", None)
        #: how the view reads the question, said in a faithful verdict's reason
        self.note = getattr(reading, "note", "")


def _mended(reading, formula: Formula):
    """A view of ``reading`` whose formula a parser correction mended to ``formula`` (its
    unalignable variables kept), or the reading itself when the correction changed nothing or
    left a variable outside its scope."""
    if formula == reading.formula or free_vars(formula) - free_vars(reading.formula):
        return reading
    return _ReadingView(reading, formula, getattr(reading, "not_alignable", set()))


def _with_asked_optionals(g: Formula, query: Query, mapping: dict[Var, Term]) -> Formula:
    """``g`` with the ``OPTIONAL`` groups that bind an answer column the question asks for
    (an aligned answer variable that ``g`` does not bind): "Get the country and the number of
    deaths" answered by ``OPTIONAL { wd:Q84104992 wdt:P1120 ?deaths }`` must say the number of
    deaths.  Columns beyond the question's answers stay extra information."""
    unbound = [v for v in query.answer_vars if v in mapping and v not in free_vars(g)]
    parts = [p for p in query.optional_parts if free_vars(p) & set(unbound)]
    if not parts:
        return g
    keep = free_vars(g) | set(query.key_vars)
    return conj(g, *[exists(sorted(free_vars(p) - keep, key=lambda v: v.name), p) for p in parts])


def _aligned_pattern(reading, query: Query, pattern: Formula | None = None,
                     order: Sequence[int] | None = None, *, order_key: bool = True) -> Formula:
    mapping, unaligned = _alignment(reading, query, order, order_key=order_key)
    blocked = getattr(reading, "not_alignable", set())
    if blocked:  # bound deep inside the reading: leave those query variables unaligned
        for k in [k for k, v in mapping.items() if v in blocked]:
            del mapping[k]
            unaligned.append(k)
    g = query.pattern if pattern is None else pattern
    g = _with_asked_optionals(g, query, mapping)
    if not order_key and query.order_by and isinstance(key := query.order_by[0].expr, Var) and key in free_vars(g):
        # the key is the value the superlative grades: only its axioms state superl_value
        g = conj(g, Atom(SUPERLATIVE_VALUE, (key,)))
    # move the query's own variables out of the way of the reading's names
    t_vars = {v.name for v in free_vars(reading.formula)} | {v.name for f in subformulas(reading.formula)
                                                             if isinstance(f, (Exists, Forall)) for v in f.vars}
    rename = {v: Var(f"q_{v.name}") for v in free_vars(g) if v not in mapping and v.name in t_vars}
    g = substitute(g, rename)
    unaligned = [rename.get(v, v) for v in unaligned]
    g = substitute(g, mapping)
    return exists([v for v in unaligned if v in free_vars(g)], g)


# --------------------------------------------------------------------------------------------
# Intent
# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# Forward consequences of T (for completeness)
# --------------------------------------------------------------------------------------------


def _facts(f: Formula) -> list[Formula]:
    """Positive conjunctive core of a formula: atoms and equalities not under negation,
    disjunction or implication (existential quantifiers are opened)."""
    out: list[Formula] = []

    def go(g: Formula) -> None:
        if isinstance(g, (Atom, Eq)):
            out.append(g)
        elif isinstance(g, And):
            for a in g.args:
                go(a)
        elif isinstance(g, Exists):
            go(g.body)

    go(f)
    return out


def _dnf(f: Formula) -> list[list[Formula]]:
    """Disjunctive normal form of a small antecedent made of atoms, =, & and |."""
    if isinstance(f, And):
        parts = [_dnf(a) for a in f.args]
        return [sum(combo, []) for combo in itertools.product(*parts)]
    if isinstance(f, Or):
        return [c for a in f.args for c in _dnf(a)]
    return [[f]]


def _match_term(p: Term, t: Term, env: dict[Var, Term], pvars: frozenset[Var]) -> dict[Var, Term] | None:
    if isinstance(p, Var) and p in pvars:
        bound = env.get(p)
        if bound is None:
            new = dict(env)
            new[p] = t
            return new
        return env if bound == t else None
    return env if p == t else None


def _match_all(pattern: list[Formula], facts: list[Formula], env: dict[Var, Term], pvars: frozenset[Var]):
    if not pattern:
        yield env
        return
    first, rest = pattern[0], pattern[1:]
    for fact in facts:
        if type(fact) is not type(first):
            continue
        if isinstance(first, Atom):
            if fact.pred != first.pred or len(fact.args) != len(first.args):
                continue
            e: dict[Var, Term] | None = env
            for pa, ta in zip(first.args, fact.args):
                e = _match_term(pa, ta, e, pvars)
                if e is None:
                    break
            if e is not None:
                yield from _match_all(rest, facts, e, pvars)
        elif isinstance(first, Eq):
            for (pl, pr) in ((first.left, first.right), (first.right, first.left)):
                e = _match_term(pl, fact.left, env, pvars)
                e = _match_term(pr, fact.right, e, pvars) if e is not None else None
                if e is not None:
                    yield from _match_all(rest, facts, e, pvars)


def kg_consequences(t: Formula, axioms: Sequence[Formula], max_rounds: int = 3) -> list[Formula]:
    """KG facts that follow from ``t`` by the axioms (``forall v. A -> C`` with ``A`` made of
    atoms, equalities, conjunctions and disjunctions), by forward matching."""
    facts = _facts(t)
    derived: list[Formula] = []
    seen = set(facts)
    for _ in range(max_rounds):
        new = []
        for ax in axioms:
            body, pvars = ax, frozenset()
            if isinstance(ax, Forall):
                body, pvars = ax.body, frozenset(ax.vars)
            if not isinstance(body, Implies):
                continue
            for conjunction in _dnf(body.left):
                for env in _match_all(conjunction, facts, {}, pvars):
                    cons = substitute(body.right, env)
                    if free_vars(cons) & pvars:
                        cons = exists(sorted(free_vars(cons) & pvars, key=lambda v: v.name), cons)
                    for c in _facts(cons) if isinstance(cons, (And, Atom, Eq)) else [cons]:
                        if c not in seen:
                            seen.add(c)
                            new.append(c)
        if not new:
            break
        facts.extend(f for f in new if isinstance(f, (Atom, Eq)))
        derived.extend(new)
    return derived


def _is_kg_fact(f: Formula) -> bool:
    if isinstance(f, Atom):
        return ":" in f.pred or f.pred.startswith("<")
    if isinstance(f, Eq):
        return isinstance(f.left, (IRI, Literal)) or isinstance(f.right, (IRI, Literal))
    if isinstance(f, Exists):
        return _is_kg_fact(f.body)
    if isinstance(f, And):
        return all(_is_kg_fact(a) for a in f.args)
    return False


def _about_expressed_terms(f: Formula, answers: set[Var]) -> bool:
    """False for facts about unexpressed MRS arguments (``i``/``u``/``e``/``h`` variables:
    "born" has an unexpressed agent), which the question does not state."""
    for v in free_vars(f):
        if v not in answers and not v.name.startswith("x"):
            return False
    return True


#: Predicates of the time a question asks about: "when" (``time_n``), "what time", "what
#: year", "what date".
_TIME_NOUNS = frozenset({"time_n", "_time_n_of", "_time_n_1", "_year_n_1", "_date_n_1"})


def _timed_statements(qualifiers: Sequence[Qualifier], query: Query) -> frozenset[str]:
    """Properties whose statements give the time a question asks for: those the query
    qualifies with a time, and those whose qualifier's value the query answers with ("When
    was John Hume elected as Member of the 49th Parliament ...?" answered by the statement's
    *elected in*, the election: the qualifier check says whether it names the time)."""
    answers = set(query.answer_vars)
    return frozenset(q.statement for q in qualifiers if q.prop in TIME_QUALIFIERS or q.value in answers)


def _prop_id(pred: str) -> str:
    """The property id of a KG predicate (``wdt:P39`` -> ``P39``)."""
    return wikidata_id(pred) or pred.rpartition(":")[2]


def _verb_objects(f: Formula) -> set[Term]:
    """The objects (ARG2) of the verbs of a formula."""
    return {a.args[2] for a in atoms(f) if "_v_" in a.pred and len(a.args) >= 3}


def _answered_statements(qualifiers: Sequence[Qualifier], query: Query, column: int, reading,
                         units: Sequence[Unit], grounder: Grounder) -> frozenset[str]:
    """Properties whose statement's qualifier gives the query's answer in ``column`` (the one
    the question's answer is aligned with) and is named by a noun of the question's answer:
    "Which monetary prize amount was received by Theodor Mommsen?" answered by the *prize
    money* of his *award received* statements (not "Where did X study?" answered by the
    *location* of the statements, "where" naming no qualifier as a noun)."""
    if column >= len(query.answer_vars) or len(reading.answer_vars) != 1:
        return frozenset()
    nouns = [u for u in units if u.var in reading.answer_vars and u.kind in ("noun", "relational_noun")]
    return frozenset(q.statement for q in qualifiers if q.value == query.answer_vars[column] and nouns
                     and grounder.lexical_support(SymbolUse(f"pq:{q.prop}", q.prop, "property"), nouns))


def _t_kg(reading, axioms: Sequence[Formula], event_times: frozenset[str] = frozenset(),
          answered: frozenset[str] = frozenset()) -> Formula | None:
    """KG facts the question states about anchored terms: its answer variables and the
    variables that name linked items (facts about other, intermediate variables come from
    over-general templates as often as from the question, and are left to soundness).

    ``event_times``: properties whose statements give the time (:func:`_timed_statements`).
    "When was X nominated for Y?" makes the verb's templates read the time as a value too
    (``P(X, when)``); for such a property the time is the statement's qualifier, so that fact
    is not asked of the query.  ``answered``: properties whose statement's qualifier is the
    answer, named by its noun (:func:`_answered_statements`); when the answer is the object
    of the statement's verb ("the amount received by X": *award received*(X, amount)), it is
    the qualifier's value, not the property's, so that fact is not asked of the query either."""
    answers = set(reading.answer_vars)
    derived = kg_consequences(reading.formula, axioms)
    # "when", and "what time" / "what year" / "what date" (the noun as the time asked)
    times = {a.args[0] for a in atoms(reading.formula) if a.pred in _TIME_NOUNS and a.args} if event_times else set()
    asked = set(reading.answer_vars) & _verb_objects(reading.formula) if answered else set()
    if times or asked:
        derived = [f for f in derived if not (
            isinstance(f, Atom) and len(f.args) == 2
            and ((f.args[1] in times and _prop_id(f.pred) in event_times)
                 or (f.args[1] in asked and _prop_id(f.pred) in answered)))]
    anchored = set(answers)
    for f in derived:
        if isinstance(f, Eq) and isinstance(f.left, Var) and isinstance(f.right, (IRI, Literal)):
            anchored.add(f.left)
        elif isinstance(f, Eq) and isinstance(f.right, Var) and isinstance(f.left, (IRI, Literal)):
            anchored.add(f.right)
    facts = [f for f in derived if _is_kg_fact(f) and _about_expressed_terms(f, answers)
             and free_vars(f) <= anchored and not isinstance(f, Eq)]
    if not facts:
        return None
    body = conj(facts)
    keep = set(reading.answer_vars)
    return exists(sorted(free_vars(body) - keep, key=lambda v: v.name), body)


#: Verbs that name no KG symbol of their own inside a negation ("do not have an English
#: label", "is not specified").
_NEGATION_LIGHT_VERBS = frozenset({"have", "be", "do", "get", "specify", "exist", "include"})


def _negated(f: Formula) -> list[Not]:
    """The negations among the top-level conjuncts of ``f`` (under its existential prefix)."""
    if isinstance(f, Exists):
        return _negated(f.body)
    if isinstance(f, And):
        return [n for a in f.args for n in _negated(a)]
    return [f] if isinstance(f, Not) else []


def negation_kg_readings(reading, axioms: Sequence[Formula], units: Sequence[Unit]) -> dict[Not, Formula]:
    """The KG reading ``exists locals. K`` of each negation of the question whose content
    words all add to its KG facts ("do not have an English label": ``exists l.
    rdfs:label(x, l) & lang(l) = "en"``): the KG facts its content adds, by the axioms, to
    those of the rest of the question.

    The axioms go from the question's words to the KG, so alone they cannot carry a negation
    over (``~Phi`` does not follow from ``~K`` nor ``~K`` from ``~Phi``).  Taking the links
    as meanings, as the positive part of the check does, the question's ``~Phi`` says ``~K``;
    a negation with a word that adds nothing to ``K`` says more than ``~K`` and gets no
    reading."""
    negations = _negated(reading.formula)
    if not negations:
        return {}
    base_facts = _facts(reading.formula)
    base = set(kg_consequences(conj(base_facts), axioms))
    anchors = {f.left: f.right for f in base if isinstance(f, Eq) and isinstance(f.left, Var)
               and isinstance(f.right, (IRI, Literal))}

    def added(inner: list[Formula]) -> list[Formula]:
        return [f for f in kg_consequences(conj(base_facts + inner), axioms)
                if f not in base and _is_kg_fact(f)]

    out: dict[Not, Formula] = {}
    for n in negations:
        inner = _facts(n.arg)
        content = [u for u in units if u.atom in inner and u.kind not in ("abstract", "number")
                   and not (u.kind == "verb" and u.lemma in _NEGATION_LIGHT_VERBS)]
        new = added(inner)
        # a KG statement about something outside the negation, to which every content word
        # of the negation contributes (else the negation says more than its KG reading)
        if not content or not any(isinstance(f, Atom) and set(f.args) & free_vars(n) for f in new):
            continue
        if any(set(added([f for f in inner if f != u.atom])) == set(new) for u in content):
            continue
        # a variable outside that names an item is that item ("citizens of Belgium")
        body = substitute(conj(new), {v: t for v, t in anchors.items() if v in free_vars(n)})
        out[n] = exists(sorted(free_vars(body) - free_vars(n), key=lambda v: v.name), body)
    return out


def _with_negation_readings(f: Formula, readings: dict[Not, Formula]) -> Formula:
    """``f`` with each negation ``~Phi`` of ``readings`` as ``~Phi & ~K``."""
    if not readings:
        return f
    if isinstance(f, Exists):
        return Exists(f.vars, _with_negation_readings(f.body, readings))
    if isinstance(f, And):
        return conj(*[_with_negation_readings(a, readings) for a in f.args])
    if isinstance(f, Not) and f in readings:
        return conj(f, Not(readings[f]))
    return f


# --------------------------------------------------------------------------------------------
# Check
# --------------------------------------------------------------------------------------------


def _structural_axioms(pack: Pack, units: list[Unit]) -> list[Axiom]:
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
            if t.match.preds and not t.match.names(u.pred):
                continue
            if not t.match.admits(u.atom.args):
                continue
            try:
                f = instantiate(t, u, {})
            except ValueError:
                continue
            out.append(Axiom(f"{t.name}: {u.pred}", f, t.name, "structure"))
    return _dedupe_axioms(out)


def _abstract_units(reading) -> list[Unit]:
    """Units for abstract predicates that structural templates may match (loc_nonsp ...)."""
    out = []
    seen = set()
    for a in atoms(reading.formula):
        if a.pred in ("loc_nonsp", "_of_p", "poss", "compound", "_and_c") and a not in seen:
            seen.add(a)
            out.append(Unit(a, "abstract", a.pred, None, (), (), "", a.args[0] if a.args else None))
    return out


def _dedupe_axioms(axioms: list[Axiom]) -> list[Axiom]:
    out, seen = [], set()
    for a in axioms:
        if a.formula not in seen:
            seen.add(a.formula)
            out.append(a)
    return out


_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")
_DATE_WITH_MONTH = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<a>%s)|(?P<b>%s)\s+(?:the\s+)?(?:of\s+)?\d)"
    % ("|".join(_MONTHS), "|".join(_MONTHS)), re.IGNORECASE)


# the words of a name restriction, with the word or letter it spells (see :data:`_NAME_TEST`)
_SPELLING = re.compile(r"\b(?:start|starts|starting|begin|begins|beginning|end|ends|ending)\s+with\s+"
                       r"(?:the\s+|an?\s+)?(?:letter|alphabet|word)?\s*\S+"
                       r"|\b(?:contain|contains|containing|has|have|with)\s+the\s+word\s+\S+(?:\s+in\s+(?:its|their|the)\s+name)?"
                       r"|\b(?:in|of)\s+(?:its|their|his|her)\s+name\b", re.I)
_REQUEST_WORDS = frozenset(p.split("_")[1] for p in REQUEST_VERBS)  # name, tell, give, ...


def _letters(text: str) -> str:
    """The letters and digits of ``text``, lower case ("U.S." -> "us")."""
    return re.sub(r"[^0-9a-z]", "", text.casefold())


#: Words that questions typed into a search engine end with ("what language do they speak in
#: iceland wikipedia?"): no part of a name before them.
_SEARCH_NOISE = frozenset({"wikipedia", "wiki", "yahoo", "google"})


def _ignored_names(grounder: Grounder, grounding: Grounding, units: list[Unit],
                   question: str = "", explained: Collection[str] = ()) -> list[str]:
    """Proper names of the question that name a KG item exactly but that no link of the query
    uses: the query drops what the question says about them.  Also a name's last words after a
    title ("emperor palpatine": *Palpatine*), and an unknown word that a preposition relates
    written as an item's capitalised label ("in london": *London*).  A month in a date ("on
    December 12, 1991", "in December of 1981") is part of a value, not a name; ``explained``
    names are accounted for otherwise ("English" in "no English label", by the negation's KG
    reading)."""
    if question and not any(c.islower() for c in question):
        return []  # in a question written in capitals every word may be parsed as a name
    in_dates, in_filters, first = _not_names(question)
    linked = {id(l.unit) for l in grounding.links}
    linked_vars = {l.unit.var for l in grounding.links}
    covered = _covered_mentions(grounder, grounding)
    out = []
    seen_text: set[str] = set()
    # what prepositions relate things to ("in london"): an unknown word there is a place's name
    prep_objects = {u.atom.args[2] for u in units if u.kind == "preposition" and len(u.atom.args) >= 3}
    for u in units:
        # an unknown word heading a phrase of several words is read like a name ("emperor
        # palpatine" as the noun "palpatine" with the compound "emperor"), for its last words
        unknown = u.kind == "noun" and "_u_unknown" in u.pred
        unknown_head = (unknown and len((u.text or "").split()) >= 2
                        and words_of(u.text or "")[-1:] == words_of(u.lemma)[-1:])
        unknown_object = unknown and not unknown_head and u.var in prep_objects and u.lemma.isalpha()
        if (u.kind != "named" and not unknown_head and not unknown_object) or id(u) in linked \
                or u.var in linked_vars or u.lemma.casefold() in explained:
            continue
        text = (u.text or u.lemma).strip()
        if not text or text.casefold() in seen_text or len(text) < 3 or text.casefold() in in_dates:
            continue
        if text.casefold() in in_filters or (text.casefold() == first and first in _REQUEST_WORDS):
            continue
        if any(text.casefold() in c for c in covered):
            continue  # part of a linked mention ("Andrew" in "Andrew Johnson")
        if _after_linked_item(text, question, grounding):
            continue  # the region after a place, which it only disambiguates ("miami florida")
        if not unknown_head:  # its words stay for the labels written across words, below
            seen_text.add(text.casefold())
        if unknown_object:
            exact = _capitalised_labels(grounder, text)
        elif unknown_head:
            exact = []
        else:
            exact = [n for n in grounder.labels.candidates(set(u.np_keys), kind="item")
                     if set(n.keys) == set(u.np_keys) and n.is_label
                     # an abbreviation names what it spells letter for letter: "U.S." is not
                     # "A.U.S.A." (whose "a" is a stop word)
                     and ("." not in text or _letters(n.name) == _letters(text))]
        if not exact and len(words := text.split()) >= 2:
            # a title or a description before a name ("emperor palpatine"): the last word, or
            # words, written as a capitalised label of an item
            for k in range(1, len(words)):
                tail = " ".join(words[k:])
                if len(_letters(tail)) < 5:
                    break
                if words[k].casefold() in STOPWORDS or tail.casefold() in _SEARCH_NOISE:
                    continue
                exact = _capitalised_labels(grounder, tail)
                if exact:
                    text = tail
                    break
        if exact:
            out.append(_named_item(text, exact, grounder))
    return out + _ignored_written_labels(grounder, units, question, linked, covered, seen_text)


def _after_linked_item(text: str, question: str, grounding: Grounding) -> bool:
    """Whether the question writes the name ``text`` right after the words of a linked item,
    with nothing or a comma between ("what to do in miami florida?", "the highest mountain in
    Saxony, Germany"): a region written to say which place is meant, not a further
    constraint."""
    q = " ".join(question.casefold().split())
    t = text.casefold()
    for l in grounding.links:
        if l.symbol.kind != "item" or not l.unit.text:
            continue
        w = " ".join(l.unit.text.casefold().split())
        if len(w) >= 3 and w != t and re.search(re.escape(w) + r",?\s+" + re.escape(t) + r"\b", q):
            return True
    return False


def _not_names(question: str) -> tuple[set[str], str, str]:
    """What a question writes that a parser may read as a name but that names nothing: the
    months of its dates ("on December 12, 1991"), the words that say how a label is spelt
    ("starts with the letter S", "contains the word war in their name", joined in one string)
    and its first word (an imperative such as "Name the ..." when in :data:`_REQUEST_WORDS`)."""
    in_dates = {(m.group("a") or m.group("b")).casefold() for m in _DATE_WITH_MONTH.finditer(question)}
    in_filters = " ".join(m.group(0).casefold() for m in _SPELLING.finditer(question))
    first = question.split()[0].strip(",:;").casefold() if question.split() else ""
    return in_dates, in_filters, first


def _name_inside(name: str, text: str) -> bool:
    """Whether the noun phrase ``text`` writes all of ``name`` and more words than it and its
    titles ("indianapolis indiana" for *Indiana*; not "sir isaac newton" for *Isaac Newton*,
    nor "Christopher A. Pissarides" for *Christophoros A. Pissarides*, a near spelling)."""
    keys = set(content_keys(name))
    return bool(keys) and keys <= set(content_keys(text)) and bool(words_beyond(text, keys))


def _covered_mentions(grounder: Grounder, grounding: Grounding) -> list[str]:
    """What the links account for, casefolded: the linked words (of an item, those its name
    has) and the names they matched, and every name of a linked class (the name "United
    States" in the alias "United States states" of *U.S. state*: "the largest state in the
    United States")."""
    covered = [t.casefold() for l in grounding.links for t in (l.unit.text, l.name) if t
               # an item accounts for the words of its noun phrase that its name has, not for
               # another name compounded with it ("indianapolis" in "indianapolis indiana"
               # linked to *Indiana*, "jordan" in "the jordan river" linked to *river*)
               and not (t is l.unit.text and l.symbol.kind == "item" and _name_inside(l.name or "", t))]
    return covered + [n.name.casefold() for l in grounding.links if l.symbol.kind == "class"
                      for n in grounder.names_of(l.symbol)]


#: A year the question states as the time of what it asks about: after a temporal preposition,
#: alone or in a date ("in 1916", "at 1916-1-1", "until 1975", "on December 12, 1991"), and
#: not followed by a word, which may make it part of a name ("in 2004 Summer Olympics", "in the
#: 2014 and 2006 Winter Olympics").
_STATED_YEAR = re.compile(
    r"\b(?:in|on|at|during|since|until|till|before|after)\s+(?:the\s+year\s+(?:of\s+)?)?(?:[a-z]+\.?\s+)?"
    r"(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?(?:of\s+)?(1\d{3}|20\d{2})(?:-\d{1,2}-\d{1,2})?(?!\s*[A-Za-z\d])", re.I)


#: A participle right after a quoted title in a wh-question, which the time after it describes
#: ('What are the main subjects of the paper titled "Neue Cyclocephalen" published in 1923?'):
#: the query names that item itself.
_DESCRIBES_NAME = re.compile(r"^\W*(?:what|which|who|whom|where|when|how|name|list|give|tell|show)\b.*"
                             r"[\"”’')]\s+(?-i:[a-z]+(?:ed|en|wn|lt|de))\s*$", re.I)


def _ignored_times(question: str, query: Query, grounding: Grounding, grounder: Grounder) -> list[str]:
    """Times the question states (:data:`_STATED_YEAR`) that the query does not use: no value
    or filter of the query writes the year (or the next one, which bounds "in 1945" as
    ``< 1946-01-01``), and no item the query names has it in its label ("the FA Cup in 2008":
    *2008 FA Cup Final*), nor a time that describes a named item (:data:`_DESCRIBES_NAME`).  The
    query then drops a constraint ("What award did X receive in 1916?" answered with all of X's
    awards)."""
    stated = [m for m in _STATED_YEAR.finditer(question)
              if not _DESCRIBES_NAME.search(question[:m.start()])]  # 'the paper titled "X" published in 1923'
    if not stated:  # most questions: nothing to look up
        return []
    text = getattr(query, "text", "") or ""
    labels = [grounder.label(l.symbol.id) for l in grounding.links if l.symbol.kind in ("item", "class")]
    out = []
    for m in stated:
        year = int(m.group(1))
        if any(re.search(rf"(?<![\dQP]){y}(?!\d)", text) for y in (year, year + 1)):
            continue
        if any(str(year) in lab for lab in labels):
            continue
        out.append(m.group(0))
    return out


def _unlinked_names(grounder: Grounder, grounding: Grounding, units: list[Unit], query: Query,
                    question: str, explained: Collection[str] = ()) -> list[str]:
    """Proper names of the question that no link uses, though no item label is written
    exactly as the question writes them (which :func:`_ignored_names` needs): any such name
    when the query names no item at all, only classes, properties and values ("what countries
    do people speak portuguese?" answered with every country, ``?x wdt:P31 wd:Q6256``), and
    names of two words or more when it names items ("who plays riley finn on buffy the
    vampire slayer?" answered with the whole cast).  A name that a link uses, or names in
    part, does not count (a string the query tests, a class, "antietam creek" where *Battle
    of Antietam* is linked)."""
    if not question or not any(c.islower() for c in question):
        return []
    linked = {id(l.unit) for l in grounding.links}
    linked_vars = {l.unit.var for l in grounding.links}
    names = [u for u in units if u.kind == "named" and id(u) not in linked and u.var not in linked_vars]
    if not names:
        return []
    # with items in the query one word may be a part of a name the parser split, or a word
    # it took for a name
    min_words = 2 if any(s.kind == "item" for s in query_symbols(query)) else 1
    names = [u for u in names if len((u.text or u.lemma).split()) >= min_words]
    if not names:
        return []
    in_dates, in_filters, first = _not_names(question)
    covered = _covered_mentions(grounder, grounding)
    # ... and the words of the linked properties' names ("URL", an alias of *official
    # website*, is no name of an item: "items with an official website URL that ...")
    covered += [n.name.casefold() for l in grounding.links if l.symbol.kind == "property"
                for n in grounder.names_of(l.symbol)]
    covered_words = {w for c in covered for w in words_of(c) if w not in STOPWORDS}
    out: list[str] = []
    for u in names:
        text = (u.text or u.lemma).strip()
        low = text.casefold()
        if (len(_letters(text)) < 3 or any(ch.isdigit() for ch in text)  # a value ("100 degrees Celsius")
                or low in explained or low in in_dates or low in in_filters
                or (low == first and first in _REQUEST_WORDS) or any(low in c for c in covered)
                or set(words_of(text)) & covered_words):
            continue
        if f"'{text}'" not in out:
            out.append(f"'{text}'")
    return out


def _unlinked_doers(grounder: Grounder, grounding: Grounding, units: list[Unit]) -> list[str]:
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
                or u.lemma in _GENERIC_NOUNS):
            continue
        # the word as written ends the label ("giants": *San Francisco Giants*), not its stem
        if any(len(e.keys) >= 2 and grounder.labels.kinds.get(e.symbol) == "item"
               for e in grounder.labels.proper_names_ending(words[0])):
            out.append(f"'{text}'")
    return out


def _capitalised_labels(grounder: Grounder, text: str) -> list[NameEntry]:
    """Items whose label, capitalised, ``text`` writes letter for letter ("london": *London*)."""
    keys = set(content_keys(text))
    return [n for n in grounder.labels.candidates(keys, kind="item")
            if n.is_label and set(n.keys) == keys and n.name[:1].isupper() and _letters(n.name) == _letters(text)]


#: Longest item label (in words) looked for in the question's text.
_MAX_LABEL_WORDS = 5


def _ignored_written_labels(grounder: Grounder, units: list[Unit], question: str, linked: set[int],
                            covered: list[str], seen: set[str]) -> list[str]:
    """Item labels of two or more words written in the question around a name or an unknown
    word that no link of the query uses: the reading split the name ("what movies is molly
    ringwald in?": "Molly" a name, "ringwald" an unknown adjective), so no unit names the
    item, yet the question does.  Only spans of such words count: a phrase with a known word
    ("public library", "first-class city") is a description the query may express otherwise."""
    namey = {w for u in units if id(u) not in linked and (u.kind == "named" or "_u_unknown" in u.pred)
             for w in words_of(u.text or u.lemma)}
    covered = [" ".join(words_of(c)) for c in covered]
    words = words_of(question)
    out = []
    for n in range(_MAX_LABEL_WORDS, 1, -1):
        for i in range(len(words) - n + 1):
            span = words[i:i + n]
            text = " ".join(span)
            if not namey.issuperset(span) or span[0] in STOPWORDS or span[-1] in STOPWORDS or text in seen \
                    or any(text in c or c in text for c in covered if c):
                continue
            exact = [e for e in grounder.labels.labels_written_as(text)
                     if grounder.labels.kinds.get(e.symbol) in ("item", "class")]
            if exact:
                seen.add(text)
                out.append(_named_item(text, exact, grounder))
    return out


def _named_item(text: str, entries: Sequence[NameEntry], grounder: Grounder) -> str:
    """``'text' (Q.. label)`` for the item a question's text names exactly (the shortest,
    then lowest, identifier when several share the label)."""
    sid = sorted({e.symbol for e in entries}, key=lambda x: (len(x), x))[0]
    return f"'{text}' ({sid} {grounder.label(sid)})"


#: Nouns that say nothing about what kind of thing the answer is, or that name a value (a
#: date, a number) rather than a class of items.
_GENERIC_NOUNS = frozenset({"thing", "one", "person", "people", "individual", "someone", "somebody",
                            "something", "entity", "item", "name", "example", "kind", "type", "sort",
                            "instance", "object", "answer", "all", "everything", "anything", "year", "date",
                            "time", "day", "month", "century", "decade", "period", "number",
                            "amount", "value", "count", "quantity", "total"})
_GENERIC_KEYS = frozenset(stem(w) for w in _GENERIC_NOUNS)


def _dropped_answer_class(reading, grounding: Grounding, units: list[Unit], query: Query,
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
                  and u.var not in linked_vars and u.keys and u.lemma.casefold() not in _GENERIC_NOUNS
                  and not set(u.keys) & _GENERIC_KEYS]
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


_TIME_NAME = re.compile(
    r"\b(?:date|dates|time|year|years|day|month|inception|founded|established|start|started|end|"
    r"ended|begin|began|dissolved|abolished|demolished|died|born|period|century|era|age|launch|"
    r"opening|premiere|retired|retirement|entry|flight|floruit|active|since|until|debut|"
    r"introduced|released|created|completed|built)\b", re.I)


def _when_answer_not_a_time(reading, query: Query, pattern: Formula, qualifiers: Sequence[Qualifier],
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


def _disambiguate_shared_names(grounding: Grounding, reading) -> list[Axiom]:
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
    facts = [f for f in _facts(reading.formula) if isinstance(f, Atom)]
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


def _label_noun_values(grounding: Grounding, grounder: Grounder, reading) -> list[Axiom]:
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
    facts = [f for f in _facts(reading.formula) if isinstance(f, Atom)]
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
                noun = (Atom(nl.unit.pred, (nv, y)),) if relational else \
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


def _mentioned(f: Formula, out: set[str]) -> None:
    for a in atoms(f):
        out.add(a.pred)
        for t in a.args:
            if isinstance(t, IRI):
                out.add(t.value)
    for h in subformulas(f):
        if isinstance(h, (Eq, Compare)):
            for t in (h.left, h.right):
                if isinstance(t, IRI):
                    out.add(t.value)


def _unmentioned_symbols(g: Formula, premises: list[Premise]) -> set[str]:
    """KG predicates and constants of required (top-level, positive) conjuncts of ``g`` that
    no premise mentions: then ``g`` cannot follow, and Z3 is not needed."""
    mentioned: set[str] = set()
    for p in premises:
        _mentioned(p.formula, mentioned)
    body = g.body if isinstance(g, Exists) else g
    parts = body.args if isinstance(body, And) else (body,)
    missing: set[str] = set()
    for part in parts:
        if isinstance(part, Atom):
            base = part.pred.rstrip("*+")
            if (":" in base or base.startswith("<")) and part.pred not in mentioned and base not in mentioned \
                    and base + "+" not in mentioned and not part.pred.endswith("*"):
                # a path: its base, or its closure; p* holds of any thing and itself
                missing.add(part.pred)
            for t in part.args:
                if isinstance(t, IRI) and t.value not in mentioned:
                    missing.add(t.value)
    return missing


def _diagnose(premises: list[Premise], g: Formula, grounder: Grounder, grounding: Grounding,
              timeout_ms: int, question: str = "", context: ProverContext | None = None
              ) -> tuple[AtomDiagnosis, ...]:
    """Which atoms of the (aligned) query do not follow, with readable reasons (a test of how a
    string is written first: it says most about what the query adds)."""
    body, bound = g, ()
    if isinstance(g, Exists):
        body, bound = g.body, g.vars
    parts = list(body.args) if isinstance(body, And) else [body]
    out = []
    unsupported_ids = {s.id for s in grounding.unsupported}
    dominated = {d[0].id: d for d in grounding.dominated}
    goals = [exists([v for v in bound if v in free_vars(part)], part) for part in parts]
    name_tests = label_tests(parts)
    to_prove = [g_part for g_part in goals if not _unmentioned_symbols(g_part, premises)]
    proofs = dict(zip(to_prove, entails_each(premises, to_prove, **solver_budget(timeout_ms), context=context)))
    first: list[AtomDiagnosis] = []  # string tests the question does not state: said first
    for part, g_part in zip(parts, goals):
        r = proofs.get(g_part) or ProofResult("refuted", "symbol not mentioned")
        syms = _symbols_of(part)
        ok = r.status == "proved"
        expl = ""
        spelling = False
        if not ok:
            bits = []
            for sid in syms:
                lab = grounder.label(sid)
                if sid in dominated:
                    _, u, name, sc, alt, asc = dominated[sid]
                    bits.append(f"{sid} ({lab}) is not supported: the question asks for "
                                f"'{grounder.label(alt)}' ({alt}) rather than '{lab}' (words '{u.text or u.lemma}')")
                elif sid in unsupported_ids:
                    bits.append(f"{sid} ({lab}) is not supported: no word of the question names it")
            if not bits and isinstance(part, Atom) and part.pred in STRING_TESTS and literals_of(part):
                lit = literals_of(part)[0].lexical
                if not number_in_text(lit, question):
                    bits.append(f"the string '{lit}' is not written in the question")
                elif part in name_tests:
                    bits.append(f"the query tests how a name is written ('{lit}') but the question "
                                f"does not speak of the name")
                spelling = bool(bits)
            if not bits:
                bits.append("the question does not relate these terms this way"
                            + (f" ({r.reason})" if r.status == "unknown" else ""))
            expl = "; ".join(bits)
        (first if spelling else out).append(AtomDiagnosis(str(part), ok, tuple(syms), expl))
    return tuple(first + out)


def _unsupported_alternatives(g: Formula, grounding: Grounding, grounder: Grounder) -> list[str]:
    """The alternatives of the query's property alternations (``wdt:P22|wdt:P25``: a
    disjunction of atoms over the same terms) that no word of the question names.  The
    question entails the alternation when it entails one alternative, but an alternative the
    question does not speak of adds answers it does not ask for ("X's parents" answered with
    ``wdt:P22|wdt:P1451``, father or motto)."""
    unsupported = {s.id for s in grounding.unsupported if s.kind == "property"}
    if not unsupported:
        return []
    out = []
    for f in subformulas(g):
        if not isinstance(f, Or) or not all(isinstance(a, Atom) for a in f.args):
            continue
        if len({a.args for a in f.args}) != 1:
            continue  # a union of different triples, not one triple's alternative properties
        for a in f.args:
            wid = wikidata_id(a.pred)
            if wid in unsupported:
                out.append(f"{a.pred} ({grounder.label(wid)}), an alternative of "
                           f"{'|'.join(b.pred for b in f.args)}, is not supported: no word of "
                           "the question names it")
    return list(dict.fromkeys(out))


def _backwards_alternatives(g: Formula, entailed, grounder: Grounder) -> list[str]:
    """The alternatives of the query's property alternations that the question supports only
    the other way round: "X's parents" answered with ``wd:X wdt:P22|wdt:P40 ?p`` (father or
    *child*) is entailed through father, while the question links *child* from the parent
    to X (``wdt:P40(?p, wd:X)``), so the second alternative adds X's children.  An
    alternative is flagged when ``entailed`` (a formula -> bool test against the question's
    premises) holds for its swapped atom but not for the atom itself, so that symmetric
    properties (spouse) and alternatives of an ANY word (father or mother) are left alone.
    Only alternations over terms the proof aligned (no variable of the query's own)."""
    out = []
    aligned = free_vars(g)
    for f in subformulas(g):
        if not isinstance(f, Or) or not all(isinstance(a, Atom) and len(a.args) == 2 for a in f.args):
            continue
        if len({a.args for a in f.args}) != 1 or not all(
                not isinstance(t, Var) or t in aligned for t in f.args[0].args):
            continue
        for a in f.args:
            swapped = Atom(a.pred, (a.args[1], a.args[0]))
            if a.args[0] != a.args[1] and not entailed(a) and entailed(swapped):
                out.append(f"{a.pred} ({grounder.label(wikidata_id(a.pred) or a.pred)}), an alternative of "
                           f"{'|'.join(b.pred for b in f.args)}, is not supported: the question relates "
                           "these terms the other way round")
    return list(dict.fromkeys(out))


def _symbols_of(f: Formula) -> list[str]:
    out: dict[str, None] = {}
    for a in atoms(f):
        wid = wikidata_id(a.pred.rstrip("*+"))
        if wid:
            out.setdefault(wid, None)
        for t in a.args:
            if isinstance(t, IRI) and wikidata_id(t.value):
                out.setdefault(wikidata_id(t.value), None)
    for g in subformulas(f):
        if isinstance(g, (Eq, Compare)):
            for t in (g.left, g.right):
                if isinstance(t, IRI) and wikidata_id(t.value):
                    out.setdefault(wikidata_id(t.value), None)
    return list(out)


def _antecedent_preds(f: Formula) -> set[str]:
    """Predicates of the antecedent of a background axiom ``forall ... A -> B``."""
    body = f.body if isinstance(f, Forall) else f
    ante = body.left if isinstance(body, Implies) else body
    return {a.pred for a in atoms(ante)}


def _kg_rule(f: Formula) -> bool:
    """A background axiom about KG predicates only (``wdt:P26(x, y) -> wdt:P31(y, wd:Q5)``)."""
    preds = _antecedent_preds(f)
    return bool(preds) and all(wikidata_id(p) for p in preds)


def _closures_state_their_property(g: Formula) -> list[Premise]:
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


def _relevant_background(f: Formula, preds: set[str]) -> bool:
    """A background axiom matters when the predicates of its antecedent occur in the problem."""
    return _antecedent_preds(f) <= preds


class _Identities:
    """Which variables the identities among ``facts`` (copula, "become", apposition,
    equality; those in ``dropped`` left out) make one thing: a union-find.  ``related`` holds
    the variables a copula or an apposition relates (either side may be a coordination)."""

    def __init__(self, facts: Sequence[Formula], dropped: Collection[Formula] = ()) -> None:
        self.parent: dict[Var, Var] = {}
        self.related: set[Var] = set()
        for f in facts:
            if f in dropped:
                continue
            if isinstance(f, Atom) and f.pred in ("_be_v_id", "_become_v_id", "appos") and len(f.args) == 3:
                a, b = f.args[1], f.args[2]
                if isinstance(a, Var) and isinstance(b, Var):
                    self.union(a, b)
                    self.related |= {a, b}
            elif isinstance(f, Eq) and isinstance(f.left, Var) and isinstance(f.right, Var):
                self.union(f.left, f.right)

    def find(self, v: Var) -> Var:
        while self.parent.get(v, v) != v:
            v = self.parent[v]
        return v

    def union(self, a: Var, b: Var) -> None:
        self.parent[self.find(a)] = self.find(b)


#: Why a reading whose answer is a named item decides nothing (:func:`_degenerate`).
_DEGENERATE_ANSWER = "one of the items the question names"


def _degenerate(reading, grounding: Grounding) -> str | None:
    """A reading whose identities (copula, "become", apposition) make an answer variable one of the
    items the question names ("the Goratings ID ... Seigen" read as an apposition) proves
    too much: every direction follows.  Returns why, or None."""
    facts = list(_facts(reading.formula))
    ids = _Identities(facts)
    find = ids.find
    for f in facts:  # "X is a Y and a Z": X is each conjunct (background axiom)
        if isinstance(f, Atom) and f.pred == "_and_c" and len(f.args) == 3 and f.args[0] in ids.related:
            for c in f.args[1:]:
                if isinstance(c, Var):
                    ids.union(c, f.args[0])
    item_vars = {find(l.unit.var) for l in grounding.links if l.names_item and isinstance(l.unit.var, Var)}
    for v in reading.answer_vars:
        if find(v) in item_vars:
            return f"the reading makes the answer {v.name} {_DEGENERATE_ANSWER}"
    # "Is the gross tonnage of the MV Loch Ranza less than 164.8?" read with "tonnage" and
    # "Loch Ranza" as an apposition: the number is compared with the ship itself
    it = getattr(reading, "intent", None)
    cv = getattr(it, "var", None)
    cval = getattr(it, "value", None)
    if getattr(it, "kind", None) == "comparative" and isinstance(cv, Var) and find(cv) in item_vars \
            and not (isinstance(cval, Var) and find(cval) in item_vars):  # not "Is X bigger than Y?"
        return f"the reading compares one of the items the question names ({cv.name}) with a value"
    # two different named things (items, numbers) made one ("Is the age of Belgium 67?" read
    # with "Belgium 67" as an apposition): the premises contradict unique names and prove anything
    named: dict[Var, set[str]] = {}
    for l in grounding.links:
        if isinstance(l.unit.var, Var) and (l.symbol.kind == "item" or l.unit.kind == "number"):
            named.setdefault(find(l.unit.var), set()).add(l.symbol.symbol)
    for syms in named.values():
        if len(syms) > 1:
            return "the reading identifies different things the question names: " + " = ".join(sorted(syms))
    # a noun made its own complement ("The writers of The Large Scale Structure of Space-Time"
    # read with "writers" in apposition to the title's words: the book's writer is the book):
    # either direction of the noun's property follows
    property_nouns = {l.unit.var for l in grounding.links
                      if l.symbol.kind == "property" and l.unit.kind in ("noun", "relational_noun")}
    for f in facts:
        if not isinstance(f, Atom):
            continue
        if len(f.args) == 2 and f.pred.endswith("_n_of"):
            pair = f.args
        elif f.pred in ("_of_p", "poss") and len(f.args) == 3:
            pair = f.args[1:]
        else:
            continue
        if pair[0] in property_nouns and isinstance(pair[1], Var) and find(pair[0]) != find(pair[1]):
            own, of = named.get(find(pair[0])), named.get(find(pair[1]))
            if own and of and own & of:
                return "the reading makes a noun of an item that item itself"
    return None


# Names the ERG gives to an all-capital abbreviation that KG questions use as a common noun:
# (name, written form) -> the noun predicate read instead ("What is the KMDb person ID for
# Jeff Bridges?": the ERG reads "ID" as the state of Idaho).
_ABBREVIATED_NOUNS = {("Idaho", "ID"): "_id_n_of"}
# The possessive "'s" read as an unknown verb ("Jupiter's magnitude": the tagger took "'s" for
# "is"; parses with an older lexicon do this): ARG1 is the possessor, ARG2 the possessed.
_UNKNOWN_POSSESSIVE = re.compile(r"_['’]s/vbz_u_unknown")


def _known_verbs(reading, pack: Pack):
    """The reading with an unknown-word verb whose word is the lemma of a verb the templates
    of ``pack`` name (``_use/vb_u_unknown``, as pattern readings and lexicon-less parses write
    "use") read as that verb (``_use_v_1``), so that the templates that name it apply; the
    reading itself when there is none.  A past form stands for its verb ("where did X grew
    up?": ``_grew/vb_u_unknown`` is *grow*, :func:`verifier.lexical.base_forms`)."""
    if not any((i := predicate_info(a.pred)).is_unknown_word and i.pos == "v" for a in atoms(reading.formula)):
        return reading
    verbs = pack.template_verbs
    arities = pack.template_verb_arities

    def known(a: Atom) -> Formula:
        info = predicate_info(a.pred)
        if not (info.is_unknown_word and info.pos == "v"):
            return a
        # the word itself, or the first of its base forms that the axioms name
        lemma = next((w for w in (info.lemma, *base_forms(info.lemma)) if w in verbs), None)
        if lemma is not None:
            pred = verbs[lemma]
            if len(a.args) == 3:
                # a verb without an object in the grammar ("go": _go_v_1(e, x)) drops the
                # unexpressed object the unknown word was given ("What school did X go to?")
                if 3 not in arities.get(pred, ()) and 2 in arities.get(pred, ()) \
                        and isinstance(a.args[2], Var) and a.args[2].name.startswith("i"):
                    return Atom(pred, a.args[:2])
                return Atom(pred, a.args)
            if len(a.args) == 2 and 2 in arities.get(pred, ()):  # "Where did X come from?"
                return Atom(pred, a.args)
        return a

    formula = map_atoms(reading.formula, known)
    if formula == reading.formula:
        return reading
    return _ReadingView(reading, formula, getattr(reading, "not_alignable", set()))


def _correct_parser_defects(reading, question: str):
    """Replace ``named(x, "Idaho")`` written as "ID" (see :data:`_ABBREVIATED_NOUNS`) by the
    noun ``_id_n_of(x, i)``, and the possessive "'s" parsed as an unknown verb
    (:data:`_UNKNOWN_POSSESSIVE`) by ``poss``.  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None or not question:
        return reading
    nouns: dict[tuple[str, str], str] = {}
    for ep in m.eps:
        if ep.pred == "named" and ep.carg and 0 <= ep.cfrom < ep.cto <= len(question):
            written = question[ep.cfrom:ep.cto].strip(" \t?.,;:!'\"")
            noun = _ABBREVIATED_NOUNS.get((ep.carg, written))
            arg0 = dict(ep.args).get("ARG0")
            if noun and arg0:
                nouns[(arg0, ep.carg)] = noun
    possessive = any(_UNKNOWN_POSSESSIVE.fullmatch(ep.pred) for ep in m.eps)
    if not nouns and not possessive:
        return reading
    after = _possessed_after(m) if possessive else {}
    # "What is X's Z?": the copula's non-verbal complement is that possessive's event; what is
    # asked for is the possessed Z (an identity copula with it)
    possessed: dict[str, Term] = {}
    if possessive:
        for a in atoms(reading.formula):
            if (len(a.args) == 3 and _UNKNOWN_POSSESSIVE.fullmatch(a.pred)
                    and isinstance(a.args[0], Var)):
                possessed[a.args[0].name] = a.args[2]

    def swap(a: Atom) -> Formula:
        if a.pred == "named" and len(a.args) == 2 and isinstance(a.args[0], Var) \
                and isinstance(a.args[1], Literal):
            noun = nouns.get((a.args[0].name, a.args[1].lexical))
            if noun:
                i = Var(f"i_{a.args[0].name}_abbr")
                return exists([i], Atom(noun, (a.args[0], i)))
        if (possessive and len(a.args) == 3 and _UNKNOWN_POSSESSIVE.fullmatch(a.pred)
                and all(isinstance(t, Var) and t.name.startswith("x") for t in a.args[1:])):
            return Atom("poss", (a.args[0], a.args[2], a.args[1]))  # possessed, possessor
        if (after and len(a.args) == 3 and _UNKNOWN_POSSESSIVE.fullmatch(a.pred)
                and isinstance(a.args[0], Var) and a.args[0].name in after
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("i")):
            return Atom("poss", (a.args[0], Var(after[a.args[0].name]), a.args[1]))
        if (possessed and a.pred == "_be_v_nv" and len(a.args) == 3
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")
                and isinstance(a.args[2], Var) and a.args[2].name in possessed):
            return Atom("_be_v_id", (a.args[0], a.args[1], possessed[a.args[2].name]))
        return a

    formula = map_atoms(reading.formula, swap)
    if after and free_vars(formula) - free_vars(reading.formula):
        after = {}  # the possessed noun is out of the possessive's scope: left as it is
        formula = map_atoms(reading.formula, swap)
    return _ReadingView(reading, formula, set())


def _possessed_after(m) -> dict[str, str]:
    """The possessive "'s" parsed as an unknown verb without its possessed noun
    (``_'s/vbz_u_unknown(e, X, i)``: "What space agency's official language is Hebrew?"), by
    its event: the noun written after it, the head of its compound ("language"; in "X's film
    director", "director")."""
    nouns = sorted((ep for ep in m.eps if not ep.is_quantifier and ep.iv and ep.iv.startswith("x")
                    and ep.cfrom >= 0 and (info := predicate_info(ep.pred)).pos == "n"
                    and not info.is_abstract), key=lambda ep: ep.cfrom)
    heads = {ep.arg("ARG2"): ep.arg("ARG1") for ep in m.eps if ep.pred == "compound"}
    out: dict[str, str] = {}
    for ep in m.eps:
        if not (_UNKNOWN_POSSESSIVE.fullmatch(ep.pred) and (ep.arg("ARG2") or "").startswith("i")):
            continue
        first = next((n for n in nouns if n.cfrom >= ep.cto), None)
        if first is None or ep.iv is None:
            continue
        head, seen = first.iv, set()
        while head in heads and head not in seen:
            seen.add(head)
            head = heads[head]
        out[ep.iv] = head
    return out


#: Kin nouns that "grand" in front of them makes one word ("grand-children": grandchildren).
_GRAND_KIN = {"child": "grandchild", "children": "grandchildren", "son": "grandson", "sons": "grandsons",
              "daughter": "granddaughter", "daughters": "granddaughters"}


def _grand_kin(reading):
    """"grand-children" parsed as two words, the noun "child" with "grand" as an adjective
    (``_grand_a_1(e, x) & _child_n_1(x)``) or as a compound modifier (``_children/nn_u_unknown(x)
    & _grand/nn_u_unknown(y) & compound(e, x, y)``), is the one noun *grandchildren*
    (``_grandchildren/nn_u_unknown(x)``), which the lexicon reads as child twice; read as
    "child" it would name child once.  Returns the reading or a view of it."""
    by_var: dict[Var, Atom] = {}
    grand: dict[Var, Atom] = {}  # the variable of "grand" (a noun's x, an adjective's ARG1)
    for a in atoms(reading.formula):
        if not a.args or not isinstance(a.args[0], Var):
            continue
        info = predicate_info(a.pred)
        if info.lemma == "grand" and info.pos == "a" and len(a.args) == 2 and isinstance(a.args[1], Var):
            grand[a.args[1]] = a
        elif info.lemma == "grand" and info.pos == "n" and len(a.args) == 1:
            grand[a.args[0]] = a
        elif info.pos == "n" and info.lemma in _GRAND_KIN:
            by_var[a.args[0]] = a
    if not grand or not by_var:
        return reading
    drop: set[Atom] = set()
    merged: dict[Var, str] = {}
    for a in atoms(reading.formula):
        if a.pred == "compound" and len(a.args) == 3 and a.args[1] in by_var and a.args[2] in grand:
            drop |= {a, grand[a.args[2]]}
            merged[a.args[1]] = _GRAND_KIN[predicate_info(by_var[a.args[1]].pred).lemma]
    for x, a in grand.items():
        if predicate_info(a.pred).pos == "a" and x in by_var:
            drop.add(a)
            merged[x] = _GRAND_KIN[predicate_info(by_var[x].pred).lemma]
    if not merged:
        return reading

    def swap(a: Atom) -> Formula:
        if a in drop:
            return TRUE
        if a.args and a.args[0] in merged and by_var.get(a.args[0]) is a:
            return Atom(f"_{merged[a.args[0]]}/nn_u_unknown", (a.args[0],))
        return a

    return _ReadingView(reading, map_atoms(reading.formula, swap), set())


def _adjective_compounds(reading):
    """A compound modifier written before an adjective and its noun ("a *feminine*
    grammatical gender", "the *child* astronomical body", "fossil taxon") that the parse
    attaches to the adjective's event (``compound(e, e2, y) & _grammatical_a_1(e2, x)``, as
    the shared corpus's parses give "N ADJ N") modifies the adjective's noun:
    ``compound(e, x, y)``, as the ERG gives it for "N N".  Returns the reading or a view of
    it."""
    nouns: dict[Var, Term] = {}  # an adjective's event -> the noun it modifies
    for a in atoms(reading.formula):
        if (len(a.args) >= 2 and isinstance(a.args[0], Var) and a.args[0].name.startswith("e")
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")
                and predicate_info(a.pred).pos == "a"):
            nouns.setdefault(a.args[0], a.args[1])
    if not nouns:
        return reading

    def fix(a: Atom) -> Formula:
        if a.pred == "compound" and len(a.args) == 3 and a.args[1] in nouns:
            return Atom("compound", (a.args[0], nouns[a.args[1]], a.args[2]))
        return a

    return _mended(reading, map_atoms(reading.formula, fix))


def _predicative_prepositions(reading):
    """A view of a reading in which a verb whose complement the corpus parses as a
    prepositional phrase predicated of the verb's subject ("the team that Willie Williams
    played *for*": ``_play_v_1(e, w, e2) & _for_p(e2, w, team)``, as "play" with a scopal
    complement) is a verb modified by that phrase, as the ERG gives "played for the team":
    ``_play_v_1(e, w, i) & _for_p(e2, e, team)``; ``None`` when there is no such verb.  A view,
    since the predicated phrase says something too ("what division did the baltimore colts
    play in?": the Colts are in the division)."""
    preps: dict[Var, Atom] = {}
    for a in atoms(reading.formula):
        if (len(a.args) == 3 and isinstance(a.args[0], Var) and a.args[0].name.startswith("e")
                and predicate_info(a.pred).pos == "p"):
            preps.setdefault(a.args[0], a)
    if not preps:
        return None
    verbs: dict[Atom, Atom] = {}  # verb -> its predicated preposition
    for a in atoms(reading.formula):
        if (len(a.args) == 3 and a.args[2] in preps and predicate_info(a.pred).pos == "v"
                and preps[a.args[2]].args[1] == a.args[1]):
            verbs[a] = preps[a.args[2]]
    if not verbs:
        return None
    moved = {p: v.args[0] for v, p in verbs.items()}

    def fix(a: Atom) -> Formula:
        if a in verbs:
            i = Var(f"i_{a.args[0].name}_pp")
            return exists([i], Atom(a.pred, (a.args[0], a.args[1], i)))
        if a in moved:
            return Atom(a.pred, (a.args[0], moved[a], a.args[2]))
        return a

    formula = map_atoms(reading.formula, fix)
    if free_vars(formula) - free_vars(reading.formula):
        return None  # the verb's event is out of the phrase's scope
    view = _ReadingView(reading, formula, getattr(reading, "not_alignable", set()))
    view.note = "a prepositional phrase predicated of a verb's subject read as the verb's modifier"
    return view


def _absolute_with(reading):
    """"with" parsed as the subordinator of an absolute clause whose predicate takes the
    phrase's noun ("the SoC *with minimum clock speed manufactured by Qualcomm*":
    ``_with_x_subord(e, e1, e2) & _manufacture_v_1(e2, q, speed)``; "the lake with the
    smallest surface area *in* X": ``_in_p_loc(e2, area, x)``) is the preposition on the main
    clause's noun (its object, else its subject): ``_with_p(e, soc, speed)``; a participle
    there modifies that noun too (``_manufacture_v_1(e2, q, soc)``), a preposition stays on
    the phrase's noun.  Returns the reading or a view of it."""
    by_event: dict[Var, Atom] = {}
    for a in atoms(reading.formula):
        if a.args and isinstance(a.args[0], Var) and a.args[0].name.startswith("e"):
            by_event.setdefault(a.args[0], a)
    withs: dict[Atom, tuple[Term, Term]] = {}  # the subordinator -> (noun, the phrase's noun)
    participles: dict[Atom, Term] = {}  # a participle -> the noun it modifies
    for a in atoms(reading.formula):
        if a.pred != "_with_x_subord" or len(a.args) != 3:
            continue
        main, sub = by_event.get(a.args[1]), by_event.get(a.args[2])
        if main is None or sub is None or len(main.args) < 2:
            continue
        nouns = [t for t in main.args[2:3] + main.args[1:2] if isinstance(t, Var) and t.name.startswith("x")]
        if not nouns:
            continue
        pos = predicate_info(sub.pred).pos
        if pos == "p" and len(sub.args) == 3 and isinstance(sub.args[1], Var) and sub.args[1].name.startswith("x"):
            withs[a] = (nouns[0], sub.args[1])
        elif pos == "v" and len(sub.args) == 3 and isinstance(sub.args[2], Var) and sub.args[2].name.startswith("x"):
            withs[a] = (nouns[0], sub.args[2])
            participles[sub] = nouns[0]
    if not withs:
        return reading

    def fix(a: Atom) -> Formula:
        if a in withs:
            return Atom("_with_p", (a.args[0], *withs[a]))
        if a in participles:
            return Atom(a.pred, (a.args[0], a.args[1], participles[a]))
        return a

    return _mended(reading, map_atoms(reading.formula, fix))


def _pied_piped_relatives(reading):
    """A relative clause after a preposition and "which" whose subject is a name ("the film
    *for which Akira Kurosawa was a film editor*", "the country *in which Oslo is located*")
    that the parse reads as an embedded question, "which" a determiner of the name ("which
    Kurosawa was a film editor", a nominalized clause under the preposition:
    ``_for_p(m, film, z) & nominalization(z, e) & _be_v_id(e, kurosawa, editor)``, the name an
    answer) says what the clause says of the noun the preposition follows: the preposition
    relates the clause to that noun (``_for_p(m, editor, film)`` on a copula's noun, as in
    "Kurosawa was a film editor for the film", else on the clause's event: "Oslo is located
    in the country"), and the name is no answer.  Returns the reading or a view of it."""
    named = {a.args[0] for a in atoms(reading.formula) if a.pred == "named" and a.args}
    asked = [v for v in reading.answer_vars if v in named]
    if not asked or len(reading.answer_vars) < 2:
        return reading  # another answer must remain: the noun the relative clause is on
    facts = list(atoms(reading.formula))
    clauses = {a.args[0]: a.args[1] for a in facts if a.pred == "nominalization" and len(a.args) == 2}
    for a in facts:
        if not (len(a.args) == 3 and predicate_info(a.pred).pos == "p" and a.args[2] in clauses
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("x")):
            continue
        event, head = clauses[a.args[2]], a.args[1]
        verbs = [f for f in facts if len(f.args) >= 2 and f.args[0] == event and f.args[1] in asked
                 and predicate_info(f.pred).pos == "v"]
        if len(verbs) != 1:
            continue
        verb, name = verbs[0], verbs[0].args[1]
        target = verb.args[2] if (verb.pred == "_be_v_id" and len(verb.args) == 3 and isinstance(verb.args[2], Var)
                                  and verb.args[2].name.startswith("x")) else event
        moved = Atom(a.pred, (a.args[0], target, head))
        gone = Atom("nominalization", (a.args[2], event))
        formula = map_atoms(reading.formula, lambda f: moved if f == a else TRUE if f == gone else f)
        view = _ReadingView(reading, exists([name], formula), getattr(reading, "not_alignable", set()))
        view.answer_vars = tuple(v for v in reading.answer_vars if v != name)
        return view
    return reading


def _relative_participles(reading):
    """A relative clause "that is VERBed ..." that the parse gives as a relative whose copula
    is elided and a participle subordinated to it ("Where does Shirley Chisholm work *that is
    bordered by Arlington County*?": ``relative_mod(i, x, e) & subord(e2, i, e3) &
    _border_v_1(e3, i2, i3) & _by_p_means(e4, e3, a)``) says the participle of the relative's
    head: the head is the participle's unexpressed object (``_border_v_1(e3, i2, x)``, whose
    "by" phrase :func:`_passive_agents` then reads as its doer).  Returns the reading or a
    view of it."""
    heads: dict[Term, Term] = {}  # the relative's event -> its head
    for a in atoms(reading.formula):
        if a.pred == "relative_mod" and len(a.args) == 3 and isinstance(a.args[1], Var) \
                and a.args[1].name.startswith("x"):
            heads[a.args[0]] = a.args[1]
    if not heads:
        return reading
    clauses = {a.args[2]: heads[a.args[1]] for a in atoms(reading.formula)
               if a.pred == "subord" and len(a.args) == 3 and a.args[1] in heads}
    if not clauses:
        return reading

    def fix(a: Atom) -> Formula:
        if (a.args and a.args[0] in clauses and len(a.args) == 3 and predicate_info(a.pred).pos == "v"
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("i")):
            return Atom(a.pred, (a.args[0], a.args[1], clauses[a.args[0]]))
        return a

    return _mended(reading, map_atoms(reading.formula, fix))


#: At most this many words on each side of a coordinating "and" are looked up as one label.
_LABEL_WINDOW = 4


def _and_inside_label(question: str, span: tuple[int, int] | None, labels: LabelIndex) -> bool:
    """Whether the coordinating word at ``span`` of ``question`` is written inside a label of
    an item or a class ("Astronomy *and* Astrophysics", "Pride *and* Prejudice"): then the
    words around it name one thing, not two."""
    if span is None or not 0 <= span[0] < span[1] <= len(question):
        return False
    before, after = question[:span[0]].split(), question[span[1]:].split()
    word = question[span[0]:span[1]]
    for i in range(1, min(_LABEL_WINDOW, len(before)) + 1):
        for j in range(1, min(_LABEL_WINDOW, len(after)) + 1):
            text = " ".join(before[-i:] + [word] + after[:j])
            if any(labels.kinds.get(e.symbol) in ("item", "class") for e in labels.labels_written_as(text)):
                return True
    return False


#: Prepositions whose object may be a group as a whole ("between A and B").
_COLLECTIVE = frozenset({"_between_p", "_among_p", "_amongst_p"})


def _coordinated_objects(reading, question: str, labels: LabelIndex):
    """A verb or a preposition whose object is a coordination holds of each conjunct ("a state
    that celebrates *Christmas and other holidays*", "Did X receive *A and B*?", "Is X a
    twinned administrative body with *A and B*?": ``V(e, x, c) & _and_c(c, a, b)`` also says
    ``V(e, x, a) & V(e, x, b)``), as a modifier of a coordination modifies each conjunct
    (template ``coordination_distributes``).  Objects only: coordinated subjects may act
    together ("X and Y met"), and so may the objects of "between" / "among"
    (:data:`_COLLECTIVE`).  Not over coordinated answers, which
    :func:`_expand_coordinated_answer` aligns with the query's columns one by one ("Naomi
    Campbell has what eye color and hair color?").  Not over an "and" written inside an item's
    label ("the ERA Journal ID of Astronomy and Astrophysics": one journal, which a garbled
    reading coordinates with "ID").  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None:
        return reading
    spans = {dict(ep.args).get("ARG0"): (ep.cfrom, ep.cto) for ep in m.eps if ep.pred == "_and_c"}
    answers = free_vars(reading.formula)
    coordinations: dict[Var, tuple[Term, Term]] = {}
    for a in atoms(reading.formula):
        if (a.pred == "_and_c" and len(a.args) == 3
                and all(isinstance(t, Var) and t.name.startswith("x") and t not in answers for t in a.args)
                and not _and_inside_label(question, spans.get(a.args[0].name), labels)):
            coordinations[a.args[0]] = (a.args[1], a.args[2])
    if not coordinations:
        return reading

    def conjuncts(c: Term, depth: int = 0) -> list[Term]:  # "A, B and C": nested coordinations
        if c not in coordinations or depth > 3:
            return []
        return [t for part in coordinations[c] for t in [part, *conjuncts(part, depth + 1)]]

    def fix(a: Atom) -> Formula:
        pos = predicate_info(a.pred).pos
        if (len(a.args) == 3 and a.args[2] in coordinations and isinstance(a.args[1], Var)
                and ((pos == "v" and a.args[1].name.startswith("x"))
                     or (pos == "p" and a.pred not in _COLLECTIVE))):
            return conj(a, *(Atom(a.pred, (a.args[0], a.args[1], c)) for c in conjuncts(a.args[2])))
        return a

    return _mended(reading, map_atoms(reading.formula, fix))


_BY = re.compile(r"_by_p(?:_.*)?")


def _passive_agents(reading):
    """A passive verb whose doer is a "by" phrase parsed as a modifier of the verb ("the
    position held by Warren G. Harding": ``_hold_v_1(e, i, x) & _by_p_state(e2, e, y)``, as the
    shared corpus's parses give it) or of the noun the participle modifies ("a movie directed
    by X": ``_direct_v_to(e, i, x) & _by_p_loc(e2, x, y)``) gets the doer as its first
    argument, as the ERG's passive rule gives it (``_hold_v_1(e, y, x)``), and the modifier is
    dropped.  Only where the doer stays in the scope of its quantifier.  Returns the reading or
    a view of it."""
    verbs: dict[Var, Atom] = {}
    bys: dict[Var, Atom] = {}
    for a in atoms(reading.formula):
        if (len(a.args) == 3 and "_v_" in a.pred and isinstance(a.args[0], Var)
                and isinstance(a.args[1], Var) and a.args[1].name.startswith("i")
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("x")):
            verbs[a.args[0]] = a
        elif (_BY.fullmatch(a.pred) and len(a.args) == 3 and isinstance(a.args[1], Var)
              and isinstance(a.args[2], Var) and a.args[2].name.startswith("x")):
            bys.setdefault(a.args[1], a)
    # "a movie directed by X" may also attach "by" to the noun the participle modifies
    objects = {v.args[2]: v for v in verbs.values()}
    doers: dict[Atom, Term] = {}
    dropped: set[Atom] = set()
    for target, by in bys.items():
        verb = verbs.get(target) or objects.get(target)
        if verb is not None and verb not in doers:
            doers[verb] = by.args[2]
            dropped.add(by)
    if not doers:
        return reading

    def fix(a: Atom) -> Formula:
        if a in dropped:
            return Truth(True)
        if a in doers:
            return Atom(a.pred, (a.args[0], doers[a], a.args[2]))
        return a

    formula = map_atoms(reading.formula, fix)
    if free_vars(formula) - free_vars(reading.formula):
        return reading
    return _ReadingView(reading, formula, set())


def _identified_with_a_name(reading, dropped: Collection[Atom] = ()) -> bool:
    """Whether the reading's identities (copula, "become", apposition, equality), without the
    atoms ``dropped``, make an answer variable a variable that a ``named`` predication
    describes (what :func:`_degenerate` refuses once the names are linked)."""
    facts = list(_facts(reading.formula))
    ids = _Identities(facts, dropped)
    roots = {ids.find(f.args[0]) for f in facts
             if isinstance(f, Atom) and f.pred == "named" and f.args and isinstance(f.args[0], Var)}
    return any(ids.find(v) in roots for v in reading.answer_vars)


def _split_name_appositions(reading, question: str):
    """A name the parse splits into two names written next to each other ("Hillary Clinton"
    as ``named(x, "Hillary")`` and ``named(y, "Clinton")``), one of which it puts in
    apposition to a noun ("the blood group of the person married to Hillary, Clinton":
    ``appos(e, group, y)``), says nothing of that noun when the apposition is what makes the
    answer the named item (a reading :func:`_degenerate` refuses): the apposition is dropped.
    Readings whose answer stays apart from the names keep their appositions ("Was the
    dictator, Fidel Castro, ...?").  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None or not question or not reading.answer_vars \
            or not any(a.pred == "appos" for a in atoms(reading.formula)):
        return reading
    spans = sorted((ep.cfrom, ep.cto, dict(ep.args).get("ARG0")) for ep in m.eps
                   if ep.pred == "named" and 0 <= ep.cfrom < ep.cto <= len(question))
    parts: set[str] = set()
    for (f1, t1, v1), (f2, t2, v2) in zip(spans, spans[1:]):
        if v1 and v2 and v1 != v2 and f2 > t1 and not question[t1:f2].strip() \
                and question[f1:t1][:1].isupper() and question[f2:t2][:1].isupper():
            parts |= {v1, v2}
    if not parts or not _identified_with_a_name(reading):
        return reading
    named = {a.args[0] for a in atoms(reading.formula)
             if a.pred == "named" and a.args and isinstance(a.args[0], Var)}
    dropped = {a for a in atoms(reading.formula)
               if a.pred == "appos" and len(a.args) == 3
               and any(isinstance(t, Var) and t.name in parts for t in a.args[1:])
               and not all(t in named for t in a.args[1:])}
    if not dropped or _identified_with_a_name(reading, dropped):
        return reading
    # ... and only when no other apposition makes the answer another noun as well ("Which is
    # the ESPN.com NFL player ID for Kurt Warner?" read as "the player, ID for Kurt, Warner":
    # the ID would lose the words that say whose ID it is)
    ids = _Identities([f for f in _facts(reading.formula) if f not in dropped])
    answers = {ids.find(v) for v in reading.answer_vars}
    if any(a.pred == "appos" and a not in dropped and len(a.args) == 3
           and isinstance(a.args[1], Var) and ids.find(a.args[1]) in answers
           for a in atoms(reading.formula)):
        return reading
    formula = map_atoms(reading.formula, lambda a: TRUE if a in dropped else a)
    return _ReadingView(reading, formula, set())


#: Prepositions through which a titled name ("illustrator Beatrix Potter") is related to the
#: noun it is of, for, by or from: :func:`_role_titles`.
_TITLE_PREPOSITIONS = frozenset({"of", "for", "by", "from"})


def _role_titles(reading, question: str):
    """A name with a noun before it as its title ("the translation for *illustrator Beatrix
    Potter*": ``compound(c, n, r) & _illustrator_n_of(r) & named(n, ...)``) that an "of",
    "for", "by" or "from" relates to a noun (``_for_p(m, w, n)``, ``w`` the translation) gets
    ``title_of(m, w, n)`` next to the preposition: template ``noun_title_of`` reads the title
    as the role in which the name is related to ``w`` (illustrator(w, n)).  Only a noun's
    variable is ``w``: a preposition attached to an event or to another preposition relates
    no noun; and the title is a bare noun written in lower case before the name ("Park" in
    "Park Geun-hye" is part of the name).  Returns the reading or a view of it."""
    m = getattr(reading, "mrs", None)
    if m is None or not question:
        return reading
    facts = list(atoms(reading.formula))
    named = {a.args[0] for a in facts if a.pred == "named" and a.args and isinstance(a.args[0], Var)}
    if not any(a.pred == "compound" and len(a.args) == 3 and a.args[1] in named for a in facts):
        return reading  # most readings: no name in a compound, nothing to read as a title
    starts: dict[str, int] = {}  # where the noun or name of each instance variable begins
    lower: set[str] = set()  # nouns written in lower case ("illustrator", not "Park" Geun-hye)
    for ep in m.eps:
        arg0 = dict(ep.args).get("ARG0")
        if arg0 and arg0.startswith("x") and (ep.pred == "named" or predicate_info(ep.pred).pos == "n"):
            starts.setdefault(arg0, ep.cfrom)
            if ep.pred != "named" and 0 <= ep.cfrom < len(question) and question[ep.cfrom].islower():
                lower.add(arg0)
    titled: set[Var] = set()
    uses: dict[Var, int] = {}  # how many predications each variable takes part in
    for a in facts:
        for t in set(a.args):
            if isinstance(t, Var):
                uses[t] = uses.get(t, 0) + 1
    for a in facts:
        # the title is written before the name ("Wembley Stadium" is a name, not a title) and
        # is a bare noun: its own predication and the compound, no modifier of its own
        # ("what type of political system does russia have?" parsed with the noun "doe",
        # modified by "political system", in a compound with Russia)
        if (a.pred == "compound" and len(a.args) == 3 and a.args[1] in named
                and isinstance(a.args[2], Var) and a.args[2].name.startswith("x")
                and a.args[2] not in named and uses.get(a.args[2]) == 2 and a.args[2].name in lower
                and starts.get(a.args[2].name, -1) >= 0
                and starts[a.args[2].name] < starts.get(a.args[1].name, -1)):
            titled.add(a.args[1])
    if not titled:
        return reading
    added: dict[Atom, Atom] = {}
    for a in facts:
        if (len(a.args) == 3 and a.args[2] in titled and isinstance(a.args[1], Var)
                and a.args[1].name.startswith("x") and a.args[1] != a.args[2]):
            info = predicate_info(a.pred)
            if info.pos == "p" and info.lemma in _TITLE_PREPOSITIONS:
                added[a] = Atom("title_of", a.args)
    if not added:
        return reading
    formula = map_atoms(reading.formula, lambda a: And((a, added[a])) if a in added else a)
    return _ReadingView(reading, formula, set())


def _distinguish_repeated(reading):
    """A noun predicate that holds of two different instances ("In which *year* ... the
    Grammy Award for Album of the *Year*") gets a numbered copy for every instance but the
    first (``_year_n_1~2``), so that an axiom linking one occurrence (the year inside a name)
    does not apply to the other (the year asked for).  Returns the reading or a view of it."""
    intent = getattr(reading, "intent", None)
    keep = {getattr(intent, "predicate", None), getattr(intent, "unit", None)}
    first: dict[str, object] = {}
    rename: dict[tuple[str, object], str] = {}
    count: dict[str, int] = {}
    for a in atoms(reading.formula):
        p = a.pred
        if not p.startswith("_") or not a.args or p in keep:
            continue
        v = a.args[0]
        if not (isinstance(v, Var) and v.name.startswith("x")):
            continue  # nouns only: prepositions and verbs are matched by structure templates
        if first.setdefault(p, v) != v and (p, v) not in rename:
            count[p] = count.get(p, 1) + 1
            rename[(p, v)] = f"{p}~{count[p]}"
    if not rename:
        return reading
    formula = map_atoms(reading.formula, lambda a: Atom(rename[(a.pred, a.args[0])], a.args)
                        if a.args and (a.pred, a.args[0]) in rename else a)
    return _ReadingView(reading, formula, set())


def _check_one(question: str, reading, query: Query, pack: Pack, grounder: Grounder,
               background: list[Premise], timeout_ms: int, diagnose: bool,
               context: ProverContext | None = None) -> ReadingResult:
    from verifier.grounding import np_spans as _np_spans

    budget = solver_budget(timeout_ms)
    spent: list[int] = []  # the solver work of each check (ProofResult.work)

    def prove(premises: Sequence[Premise], conclusion: Formula, **kwargs) -> ProofResult:
        r = entails(premises, conclusion, **budget, **kwargs, context=context)
        spent.append(r.work)
        return r

    reading = _pied_piped_relatives(_correct_parser_defects(reading, question))
    reading = _split_name_appositions(_grand_kin(_relative_participles(_absolute_with(
        _adjective_compounds(reading)))), question)
    reading = _distinguish_repeated(_role_titles(_passive_agents(_known_verbs(reading, pack)), question))
    reading = _coordinated_objects(reading, question, grounder.labels)
    units = question_units(reading, question)
    grounding = grounder.ground(units, query, question, _np_spans(getattr(reading, "mrs", None), question))
    structural = _structural_axioms(pack, units + _abstract_units(reading))
    link_axioms = _disambiguate_shared_names(grounding, reading) + _label_noun_values(grounding, grounder, reading)
    reif = reification_axioms(query)
    all_axioms = _dedupe_axioms(structural + link_axioms + reif)
    used_preds = {a.pred for a in atoms(reading.formula)} | {a.pred for a in atoms(query.pattern)}
    for ax in all_axioms:
        used_preds |= {a.pred for a in atoms(ax.formula)}
    relevant_background = [p for p in background if _relevant_background(p.formula, used_preds)]
    premises = list(relevant_background)
    premises += [Premise(a.name, a.formula) for a in all_axioms]
    premises += [Premise(f"query definition {i}", f) for i, f in enumerate(query.axioms)]
    # a negation whose content words all add to its KG reading ("do not have an English
    # label") says what that reading says: T gets ~K next to ~Phi (soundness), and the query
    # must imply ~K (completeness)
    def kg_axioms() -> list[Formula]:  # built only when needed (not on most readings)
        return ([a.formula for a in structural + link_axioms]
                + [p.formula for p in background if not _kg_rule(p.formula)])

    negations = negation_kg_readings(reading, kg_axioms(), units) if _negated(reading.formula) else {}
    if negations:
        reading = _ReadingView(reading, _with_negation_readings(reading.formula, negations),
                               getattr(reading, "not_alignable", set()))
    # a coordinated answer ("the sex and the occupation") answers several columns
    reading = _expand_coordinated_answer(reading, query)
    premises.append(Premise("T(question)", reading.formula))
    t_index = len(premises) - 1
    premises += intent_premises(reading)
    # intent variables (counted, ordered) that the reading binds are opened for alignment
    mapping, _ = _alignment(reading, query)
    wanted = {v for v in mapping.values() if isinstance(v, Var)} - free_vars(reading.formula)
    t_open, opened = _open_vars(reading.formula, wanted)
    if opened:
        premises[t_index] = Premise("T(question)", t_open)
    reading_view = _ReadingView(reading, t_open, wanted - opened)
    pattern, qualifiers = normalize_statements(query.pattern)
    pattern, filter_notes = take_lexical_filters(pattern, question)
    pattern, compare_notes = take_compared_values(pattern, reading, question)
    filter_notes += compare_notes
    answers = set(query.answer_vars)
    qual_notes: list[str] = list(filter_notes)
    answer_terms: dict = {}
    if qualifiers:  # what the answers are, for a statement the answer is the subject of
        facts = _facts(reading.formula)
        answer_terms = {qv: _identified(facts, tv) for qv, tv in mapping.items()
                        if qv in answers and isinstance(tv, Var)}
    for q in qualifiers:
        ok, note = qualifier_supported(q, grounder, grounding, units, question, answers, qualifiers,
                                       query.order_by if query.limit is not None else (),
                                       answer_terms=answer_terms)
        qual_notes.append(note)
        if not ok:  # keep it in G: it will fail and be diagnosed
            pattern = conj(pattern, q.atom, *q.filters) if not isinstance(pattern, Exists) else \
                Exists(pattern.vars + tuple(v for v in free_vars(q.atom) | set().union(*[free_vars(f) for f in q.filters])
                                            if v not in pattern.vars and v not in query.key_vars),
                       conj(pattern.body, q.atom, *q.filters))
    g = _aligned_pattern(reading_view, query, pattern)
    stated = reading  # what completeness asks of the query: the reading, or the view that proved it
    nameless = [s_.id for s_ in grounding.unsupported if s_.kind != "literal" and not grounder.names_of(s_)]
    missing_symbols = _unmentioned_symbols(g, premises)
    degenerate = _degenerate(reading, grounding)
    answer_col = 0  # the query's column that the question's (first) answer is aligned with
    if nameless and len(grounder.labels) == 0:
        sound = ProofResult("unknown", "no KG labels are configured for " + ", ".join(nameless)
                            + " ([grounding] labels in verifier.toml, or --labels)")
    elif missing_symbols:
        sound = ProofResult("refuted", "query symbols no premise mentions: " + ", ".join(sorted(missing_symbols)))
    elif degenerate:
        sound = ProofResult("unknown", degenerate)
    else:
        sound = prove(premises, g, countermodel=False)
        proof_premises = premises  # the premises of the proof that counts
        for view, order, order_key in (_other_alignments(reading_view, query) if not sound.proved else ()):
            prem2 = premises if view is reading_view else (
                premises[:t_index] + [Premise("T(question)", view.formula)] + premises[t_index + 1:])
            g2 = _aligned_pattern(view, query, pattern, order, order_key=order_key)
            r2 = prove(prem2, g2, countermodel=False)
            if r2.proved:
                sound, g, proof_premises = r2, g2, prem2
                if view is not reading_view:  # the aligned noun is now an answer: its facts are asked
                    stated = view
                answer_col = order[0] if order else 0
                break
    # the intent, once the proof has aligned the question's answer with a column: "How many
    # people live in the capital of Australia?" answered with each capital and its population
    # asks for the number in the aligned column
    aligned = query.answer_vars[answer_col] if sound.proved and len(query.answer_vars) > 1 else None
    intent_ok, intent_reason = intent_check(
        reading, query, question,
        superlative_named=superlative_in_linked_name(reading, grounding, grounder, question),
        counted_value=answers_a_number_of(query, pattern, qualifiers, grounder, aligned))
    if intent_ok and (not_a_time := _when_answer_not_a_time(reading, query, pattern, qualifiers, grounder)):
        intent_ok, intent_reason = False, not_a_time
    if sound.status == "proved":
        # premises that contradict each other prove anything ("Edward VI of England ... Mary I
        # of England": the name "England" linked to both items); such a proof says nothing
        inconsistent = prove(premises, FALSE, countermodel=False)
        if inconsistent.status == "proved":
            sound = ProofResult("unknown", "the reading's premises contradict each other ("
                                + ", ".join(inconsistent.used) + ")")
    n_units = sum(1 for u in units if u.kind not in ("abstract", "number"))
    linked_units = {id(l.unit) for l in grounding.links}
    share = (len({id(u) for u in units if id(u) in linked_units}) / n_units) if n_units else 0.0
    complete = None
    missing: tuple[str, ...] = ()
    diag: tuple[AtomDiagnosis, ...] = ()
    if sound.status == "proved":
        # KG knowledge (symmetric properties, value types) is not something the question states:
        # it stays off the question's side ("X and Y divorced" does not state that Y is human)
        t_kg = _t_kg(stated, kg_axioms(), _timed_statements(qualifiers, query),
                     _answered_statements(qualifiers, query, answer_col, stated, units, grounder))
        stated_negations = [Not(k) for k in negations.values() if free_vars(k) <= set(reading.answer_vars)]
        if stated_negations:
            t_kg = conj(t_kg or TRUE, *stated_negations)
        if t_kg is not None:
            t_kg_aligned = t_kg

            def g_side_of(g_: Formula) -> list[Premise]:
                # the query's side: G, its definitions, and KG background (symmetric properties)
                return ([Premise("G(query)", g_)] + [Premise(f"query definition {i}", f) for i, f in enumerate(query.axioms)]
                        + [Premise(a.name, a.formula) for a in reif] + relevant_background
                        + _closures_state_their_property(g_))

            g_side = g_side_of(g)
            complete = prove(g_side, t_kg_aligned)
            if complete.status == "refuted" and stated is reading and len(reading.answer_vars) > 1:
                # several answers: another column order may prove the query too and state all
                # the question does ("Where and what time did X work?" answered with the
                # start time first and the place second)
                for view, order, order_key in _other_alignments(reading_view, query):
                    if view is not reading_view or order is None:
                        continue
                    g2 = _aligned_pattern(view, query, pattern, order, order_key=order_key)
                    if not prove(premises, g2, countermodel=False).proved:
                        continue
                    side2 = g_side_of(g2)
                    c2 = prove(side2, t_kg_aligned)
                    if c2.status != "refuted":
                        g, g_side, complete, answer_col = g2, side2, c2, order[0]
                        break
            dropped_negations = [str(n) for n in stated_negations if complete.status == "refuted"
                                 and prove(g_side, n, countermodel=False).status != "proved"]
            if dropped_negations:
                missing = tuple(dropped_negations)
            elif complete.status == "refuted":
                missing = tuple(str(f) for f in _facts(t_kg.body if isinstance(t_kg, Exists) else t_kg)
                                if prove(g_side, exists(sorted(free_vars(f) - set(reading.answer_vars), key=lambda v: v.name), f),
                                         countermodel=False).status != "proved")
        # names a negation's KG reading accounts for ("English" in "no English label")
        explained = {str(a.args[1].lexical).casefold() for n in negations for a in atoms(n)
                     if a.pred == "named" and len(a.args) == 2 and isinstance(a.args[1], Literal)}
        ignored = _ignored_names(grounder, grounding, units, question, explained)
        unnamed = [] if ignored else (_unlinked_names(grounder, grounding, units, query, question, explained)
                                      or _unlinked_doers(grounder, grounding, units))
        odd = _unsupported_alternatives(g, grounding, grounder) or _backwards_alternatives(
            g, lambda f: prove(proof_premises, f, countermodel=False).proved, grounder)
        if not intent_ok:
            verdict, reason = "intent_mismatch", intent_reason
        elif odd:
            verdict, reason = "unsupported", "; ".join(odd)
        elif ignored:
            verdict = "weaker"
            reason = "the query ignores what the question names: " + "; ".join(ignored)
        elif (times := _ignored_times(question, query, grounding, grounder)):
            verdict = "weaker"
            reason = "the query ignores the time the question states: " + "; ".join(f"'{t}'" for t in times)
        elif unnamed:
            verdict = "weaker"
            reason = "the query uses no item for what the question names: " + ", ".join(unnamed)
        elif (dropped := _dropped_answer_class(reading, grounding, units, query, grounder)):
            verdict = "weaker"
            reason = (f"the query does not restrict its answer to what the question asks for "
                      f"('{dropped}'): no type constraint or property of the query says so")
        elif complete is not None and complete.status == "refuted":
            verdict = "weaker"
            reason = ("the query drops constraints the question states: " + "; ".join(missing[:4])
                      if missing else "the query does not imply what the question states (each "
                      "statement alone is implied, not all of them together)")
        else:
            verdict, reason = "faithful", "the question entails the query" + (
                "" if complete is None or complete.proved else " (completeness undecided)")
            if getattr(reading, "note", ""):
                reason += "; " + reading.note
            if qual_notes:
                reason += "; " + "; ".join(qual_notes)
    elif sound.status == "refuted":
        verdict = "unsupported" if intent_ok else "intent_mismatch"
        reason = intent_reason if not intent_ok else "the query asserts what the question does not support"
        if diagnose:
            diag = _diagnose(premises, g, grounder, grounding, timeout_ms, question, context)
            bad = [d for d in diag if not d.entailed]
            if bad and intent_ok:
                reason = "; ".join(f"{d.atom}: {d.explanation}" for d in bad[:3])
    else:
        verdict, reason = "unknown", f"the prover could not decide: {sound.reason}"
    return ReadingResult(
        reading_index=getattr(reading, "reading_index", 0), verdict=verdict, reason=reason,
        question_formula=str(reading.formula), soundness=sound, completeness=complete,
        intent=reading.intent.kind, intent_ok=intent_ok, links=tuple(grounding.links),
        axioms_used=sound.used, diagnosis=diag, missing=missing, grounded_share=share, work=sum(spent),
    )


def check_readings(question: str, query: Query, readings: Sequence, pack: Pack, grounder: Grounder,
                   *, max_readings: int = 5, timeout_ms: int = 2000,
                   budget_ms: float | None = 30000, first: Sequence = ()) -> DeductiveResult:
    """Run the deductive check over the translated readings of a question.

    ``readings`` are the results of :func:`parsers.mrs.translate_readings` (translated
    readings and failures); at most ``max_readings`` distinct formulas of them are tried, in
    the order of :func:`parsers.mrs.rank_translations`.  ``first`` are further translated
    readings tried before them and not counted (the pattern readings of
    :mod:`parsers.mrs.patterns`).  The best reading's verdict is the pair's verdict.
    ``timeout_ms`` bounds each solver call, in milliseconds of solving on an idle machine
    (:func:`verifier.prover.solver_budget`: counted by Z3's resource counter, so the verdict
    does not depend on the machine's load); ``budget_ms`` the whole pair the same way, as the
    solver work of its readings (:attr:`ReadingResult.work`): once spent, no further reading
    is tried (and no diagnosis is made), so that one pathological pair cannot stall an
    audit.  Only ``WALL_FACTOR`` times ``budget_ms`` of wall-clock time also stops it (work
    that Z3 does not count); a loaded machine makes a pair slower, not different.  The pair's
    checks run in a Z3 context of their own (:class:`verifier.prover.ProverContext`), so its
    verdict does not depend on which pairs the process checked before either.
    """
    from parsers.mrs import rank_translations

    t0 = time.perf_counter()
    priority = [r for r in first if getattr(r, "ok", False)]
    ok = priority + [r for r in rank_translations(readings) if getattr(r, "ok", False)]
    readings = list(first) + list(readings)
    if not ok:
        reasons = sorted({getattr(r, "reason", "no reading") or "no reading" for r in readings}) or ["no reading"]
        return DeductiveResult("unknown", "no translated reading of the question (" + "; ".join(reasons[:3]) + ")",
                               "The question could not be turned into logic, so nothing can be proved.",
                               None, (), (time.perf_counter() - t0) * 1000)
    background = [Premise(name, f) for name, f, _ in pack.background]
    results: list[tuple[ReadingResult, object]] = []
    # the pair's own Z3 context: its checks do the same work whatever the process checked before
    context = ProverContext()
    limit = solver_budget(int(budget_ms)) if budget_ms is not None else None  # each call's measure

    def over_budget(done: list[tuple[ReadingResult, object]]) -> bool:
        """Whether the pair's budget is spent: its solver work, or (a safety net for work Z3
        does not count) many times its wall-clock time."""
        if limit is None:
            return False
        return (sum(r.work for r, _ in done) > limit["rlimit"]
                or (time.perf_counter() - t0) * 1000 > limit["timeout_ms"])
    # several scopes of one reading usually give the same formula: check each formula once
    seen: set[str] = set()
    name_of_description = NAME_OF_DESCRIPTION.match(question) is not None
    who_is = _WHO_IS.match(question) is not None
    kind_of = _KIND_OF.search(question) is not None
    for r in ok:
        key = str(r.formula)
        if key in seen:
            continue
        seen.add(key)
        results.append((_check_one(question, r, query, pack, grounder, background, timeout_ms, diagnose=False,
                                   context=context), r))
        # views of this reading, not counted, while it proves nothing: "the name of NP" read as
        # the NP itself, "Who is NAME?" (when the reading makes the answer the name) as what
        # NAME does, "what kind of money" as "what money", a phrase on a request verb or a name
        # as the noun phrase's, a phrase predicated of a verb's subject as the verb's modifier
        for wanted, make in ((name_of_description, _name_of_answer), (who_is, _who_is_view),
                             (kind_of, _kind_of_view), (True, _attachment_view),
                             (True, _predicative_prepositions)):
            last = results[-1][0]
            if not wanted or last.verdict == "faithful" or (
                    make is _who_is_view and _DEGENERATE_ANSWER not in last.reason):
                continue
            view = make(r)
            if view is not None:
                results.append((_check_one(question, view, query, pack, grounder, background, timeout_ms,
                                           diagnose=False, context=context), view))
        if results[-1][0].verdict == "faithful" or len(seen) >= max_readings + len(priority):
            break
        if over_budget(results):
            log.warning("solver budget of %.0f ms spent after %d reading(s) of %r", budget_ms, len(seen), question[:80])
            break
    best_i = min(range(len(results)), key=lambda i: (VERDICT_ORDER.index(results[i][0].verdict),
                                                      -results[i][0].grounded_share))
    best, source = results[best_i]
    if best.verdict in ("unsupported", "intent_mismatch") and not over_budget(results):
        # diagnose the best failing reading atom by atom
        best = _check_one(question, source, query, pack, grounder, background, timeout_ms, diagnose=True,
                          context=context)
        results[best_i] = (best, source)
    expl = _explain(best, query, grounder)
    return DeductiveResult(best.verdict, best.reason, expl, best, tuple(r for r, _ in results),
                           (time.perf_counter() - t0) * 1000)


def _explain(best: ReadingResult, query: Query, grounder: Grounder) -> str:
    lines = []
    v = best.verdict
    head = {
        "faithful": "The query follows from the question",
        "weaker": "The query is weaker than the question",
        "unsupported": "The query says something the question does not support",
        "intent_mismatch": "The query does not answer the kind of question asked",
        "unknown": "No decision",
    }[v]
    lines.append(f"{head} (reading {best.reading_index}).")
    if best.links:
        linked = sorted({f"'{l.unit.text or l.unit.lemma}' -> {l.symbol.symbol} ({grounder.label(l.symbol.id)})"
                         for l in best.links})
        lines.append("Links: " + "; ".join(linked[:8]))
        lines += _homonym_notes(best.links, grounder)
    if v in ("unsupported", "intent_mismatch", "weaker", "unknown"):
        lines.append(best.reason)
    elif "; " in best.reason:  # how a view read the question, how qualifiers are named
        lines.append("Notes: " + best.reason.split("; ", 1)[1])
    return "\n".join(lines)


def _qid_number(symbol: str) -> int | None:
    """The number of a Wikidata item id (``Q1486`` -> 1486), None for anything else."""
    m = re.fullmatch(r"Q(\d+)", symbol)
    return int(m.group(1)) if m else None


def _homonym_notes(links: Sequence[Link], grounder: Grounder, *, per_item: int = 2,
                   max_lines: int = 3) -> list[str]:
    """A line per linked Wikidata item whose name, as matched in the question, is the label of
    older described items too: the proof cannot tell homonyms apart, a reader can ("'Buenos
    Aires' is also a name of wd:Q1486 (Buenos Aires: capital and largest city of Argentina)"
    when the query uses the district in Costa Rica).  At most ``per_item`` others per item and
    ``max_lines`` lines."""
    index = grounder.labels
    out: list[str] = []
    seen: set[tuple[str, str]] = set()
    for link in sorted(links, key=lambda l: (l.symbol.id, l.name)):
        if link.symbol.kind != "item" or not link.name or (link.symbol.id, link.name) in seen:
            continue
        seen.add((link.symbol.id, link.name))
        own = _qid_number(link.symbol.id)
        if own is None:
            continue
        # only described items that are older than the linked one (a lower Wikidata number:
        # usually the better known bearer of the name, "Buenos Aires" the capital before the
        # district of Costa Rica) are worth a reader's look; not the bands and films named
        # after a country
        others = sorted({e.symbol for e in index.labels_written_as(link.name)
                         if e.symbol != link.symbol.id and index.kinds.get(e.symbol) == "item"
                         and index.descriptions.get(e.symbol) and (_qid_number(e.symbol) or own) < own},
                        key=_qid_number)
        if not others:
            continue
        described = [f"wd:{o} ({index.label(o) or o}: {index.descriptions[o]})" for o in others[:per_item]]
        more = f" and {len(others) - per_item} more" if len(others) > per_item else ""
        out.append(f"'{link.name}' is also a name of " + "; ".join(described) + more)
        if len(out) >= max_lines:
            break
    return out
