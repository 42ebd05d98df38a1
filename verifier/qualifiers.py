"""Statement qualifiers: ``p:P`` / ``ps:P`` / ``pq:Q`` patterns read as statements.

:func:`normalize_statements` turns a query's statement patterns into ``wdt:P`` atoms plus
:class:`Qualifier` records; each qualifier is then checked lexically against the question
(:func:`qualifier_supported`: its property named by the question's words, its value an answer,
an item or a value the question states; start / end words, "for what", the voice of
"replaced by").  Used by :mod:`verifier.deductive`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import AbstractSet, Mapping, Sequence

from verifier.grounding import CHARACTER_ROLE, Axiom, Grounder, Grounding, SymbolUse, Unit, number_in_text
from verifier.grounding.words import PREPOSITION_ROLES
from verifier.vocabulary import vocabulary
from verifier.logic import (
    And, Atom, Compare, Eq, Exists, Forall, Formula, Func, IRI, Implies, Literal, Term, Var, atoms,
    conj, exists, free_vars,
)
from verifier.lexical import STOPWORDS, stem, words_of
from verifier.namespaces import wikidata_id
from verifier.query import OrderKey, Query
from verifier.filters import literals_of, value_in_text

_WORDS = vocabulary("qualifiers")
#: Auxiliaries (and modals), as a regular expression (:data:`verifier.intent.AUX`).
_AUX = vocabulary("intent").alternation("auxiliaries") + r"\b"
#: the prepositions of a passive's agent ("replaced by", "replaced with")
_PASSIVE_AGENTS = _WORDS.alternation("passive_agents")

__all__ = ["CONTEXT_QUALIFIERS", "TIME_QUALIFIERS", "Qualifier", "normalize_statements",
           "qualifier_supported", "reification_axioms"]


@dataclass(frozen=True)
class Qualifier:
    """A statement qualifier of the query: ``pq:Q(statement, value)`` and the filters on the
    value."""

    prop: str
    value: Term
    atom: Formula
    filters: tuple[Formula, ...]
    #: the property of the statement it qualifies
    statement: str = ""
    #: the subject of the statement it qualifies
    subject: Term | None = None


def normalize_statements(f: Formula) -> tuple[Formula, list[Qualifier]]:
    """Rewrite Wikidata statement patterns ``p:P(s, st) & ps:P(st, o)`` as ``wdt:P(s, o)`` and
    take out the qualifiers ``pq:Q(st, v)`` (with the filters that only concern ``v``)."""
    bound: tuple[Var, ...] = ()
    body = f
    if isinstance(f, Exists):
        bound, body = f.vars, f.body
    parts = list(body.args) if isinstance(body, And) else [body]
    subj: dict[Var, tuple[str, Term]] = {}
    vals: dict[Var, list[tuple[str, Term]]] = {}
    for a in parts:
        if isinstance(a, Atom) and len(a.args) == 2:
            pfx, _, local = a.pred.partition(":")
            if pfx == "p" and isinstance(a.args[1], Var):
                subj[a.args[1]] = (local, a.args[0])
            elif pfx == "ps" and isinstance(a.args[0], Var):
                vals.setdefault(a.args[0], []).append((local, a.args[1]))
    stmts = {st for st in subj if st in vals}
    if not stmts:
        return f, []
    out: list[Formula] = []
    quals_raw: list[Atom] = []
    for a in parts:
        if isinstance(a, Atom) and len(a.args) == 2:
            pfx, _, local = a.pred.partition(":")
            if pfx == "p" and a.args[1] in stmts:
                prop, s_ = subj[a.args[1]]
                for p2, o in vals[a.args[1]]:
                    out.append(Atom(f"wdt:{p2}", (s_, o)))
                    if p2 != prop:  # p:P1411 with ps:P166 claims both (Wikidata has neither)
                        out.append(Atom(f"wdt:{prop}", (s_, o)))
                continue
            if pfx == "ps" and a.args[0] in stmts:
                continue
            if pfx == "pq" and a.args[0] in stmts:
                quals_raw.append(a)
                continue
        out.append(a)
    used_elsewhere = set()
    for a in out:
        if not (isinstance(a, (Compare, Eq)) or (isinstance(a, Atom) and ":" not in a.pred)):
            used_elsewhere |= free_vars(a)
    quals: list[Qualifier] = []
    taken: set[int] = set()
    for q in quals_raw:
        v = q.args[1]
        filters = []
        if isinstance(v, Var) and v not in used_elsewhere:
            for i, a in enumerate(out):
                if i not in taken and not isinstance(a, Atom) or (isinstance(a, Atom) and ":" not in a.pred):
                    if i not in taken and free_vars(a) and free_vars(a) <= {v}:
                        filters.append(a)
                        taken.add(i)
        quals.append(Qualifier(q.pred.partition(":")[2], v, q, tuple(filters), *subj[q.args[0]]))
    rest = [a for i, a in enumerate(out) if i not in taken]
    new_body = conj(rest)
    keep = [v for v in bound if v not in stmts]
    return exists(keep, new_body), quals


#: Qualifiers that only place a statement in a context (an event, a work, a part, a term):
#: "statement is subject of" (P805), "for work" (P1686), "applies to part" (P518), "of" (P642),
#: "parliamentary term" (P2937).  The question need not name the qualifier when it names its
#: value ("the position of Goh Chok Tong in the 13th Parliament of Singapore").
CONTEXT_QUALIFIERS = frozenset({"P805", "P1686", "P518", "P642", "P2937"})
#: *statement is subject of*: the item about the statement (an event, a relation between two
#: parties: *Kyrgyzstan–Saudi Arabia relations* for a *diplomatic relation* statement).
_SUBJECT_OF = "P805"
#: The template of a noun that names a relation between two parties ("the partnership between
#: X and Y"), whose referent is the relation itself.
_RELATION_NOUN_TEMPLATE = "noun_relation_between"
#: The casting statements (*cast member*, *voice actor*) that *character role* qualifies.
_CAST_PROPERTIES = frozenset({"P161", "P725"})


def qualifier_supported(q: Qualifier, grounder: Grounder, grounding: Grounding, units: list[Unit],
                         question: str, answers: set[Var], siblings: Sequence[Qualifier] = (),
                         order: Sequence[OrderKey] = (),
                         answer_terms: Mapping[Var, AbstractSet[Term]] | None = None) -> tuple[bool, str]:
    """Qualifiers are checked lexically: their property must be named by the question, and
    their value be an answer, an item or literal of the question, or filtered by values the
    question states.  ``siblings``: the query's other qualifiers (a start and an end time that
    bound the statement's time together); ``order``: the query's ORDER BY keys when it has a
    LIMIT (a time qualifier that only orders the statements is named by "first" / "last");
    ``answer_terms``: for each of the query's answer variables, the question's terms that its
    answer is (the aligned variable and what a copula or an apposition identifies with it)."""
    label = grounder.label(q.prop)
    if q.prop == q.statement:
        return False, f"qualifier {q.prop} ({label}) repeats the property of the statement it qualifies"
    if _answered_twice(q, siblings, answers):
        return False, f"qualifier {q.prop} ({label}) gives two of the query's answers, which would be the same"
    if (year := _year_within(q, siblings, question, answers)) is not None:
        # "who was the leader of the soviet union in 1945?", "who is the governor of oregon
        # 2012?": the statement's start is at or before that year and its end at or after it
        return True, (f"qualifier {q.prop} ({label}) with the other bound of the statement's time "
                      f"says it held in {year}, which the question states")
    qsym = SymbolUse(f"pq:{q.prop}", q.prop, "property")
    sup = grounder.lexical_support(qsym, units)
    words = [w.strip() for w in sup[2].split(",")] if sup is not None and sup[2] else []
    if words and all(w in _PREPOSITIONS for w in words) and not (
            q.prop in TIME_QUALIFIERS and any(_before_a_time(w, question) for w in words)):
        # a preposition alone names no property: "in" is not *work location*, "from" not
        # *has effect*, "by" not *author*; it names a time only before one ("on 19 December
        # 1967", "from 1990"; not "graduate from Howard University")
        sup = None
    if sup is None and isinstance(q.value, IRI) and (
            listed := [w for _, _, w in grounder.listed_prepositions(qsym, units, qualifier=True)]):
        # unless a lexicon entry lets it stand for the property and the value is an item
        # ("What position did X hold after Y?": the statement *replaces* Y; not "in 1932")
        sup = (1.0, label, listed[0])
    if (sup is None and q.prop in TIME_QUALIFIERS and isinstance(q.value, Var) and q.value in answers
            and (asks := _asks_for_time(units))):
        # "When was X a member of Y?", "In which year ...": the question asks for the time of
        # a state, which its start and its end time answer (a clash with "start" / "end"
        # words is checked below)
        sup = (1.0, label, asks)
    if (sup is None and q.prop in TIME_QUALIFIERS and isinstance(q.value, Var) and q.value not in answers
            and len(order) == 1 and order[0].expr == q.value
            and (ordinal := (_LATEST if order[0].descending else _EARLIEST).search(question))):
        # "who was johnny cash's first wife?": the statements ordered by their start time,
        # the earliest kept (the latest for "last")
        sup = (1.0, label, ordinal.group(0))
    if (sup is None and q.prop == "P1534" and isinstance(q.value, Var) and q.value in answers
            and (why := _WHY_ENDED.search(question))):
        # "... and why did he resign?", "... and what ceased the position?": the question asks
        # for the cause of the end of the statement
        sup = (1.0, label, why.group(0))
    if (sup is None and q.prop in _EDGE_WORDS and isinstance(q.value, Var) and q.value not in answers
            and q.filters and (edge := _EDGE_WORDS[q.prop].search(question))):
        # "Where did X finish his education in 1736?": the end of the statement is in 1736
        # (the filter's values must be the question's, checked below)
        sup = (1.0, label, edge.group(0))
    if (sup is None and q.prop in CONTEXT_QUALIFIERS and isinstance(q.value, Var) and q.value in answers
            and (lead := _FOR_WHAT.match(question))
            and any(_PURPOSE & set(words_of(n.name)) for n in grounder.names_of(qsym))):
        # "For what film did Clark Gable receive the Academy Award?": the answer is what the
        # statement is for, which a qualifier named with "for" (*for work*) gives
        sup = (1.0, label, lead.group(0).strip())
    if (sup is None and q.prop == _SUBJECT_OF and isinstance(q.value, Var) and q.value in answers
            and (noun := _relation_noun(q, grounding, (answer_terms or {}).get(q.value, frozenset())))):
        # "What is the diplomatic relationship between Saudi Arabia and Kyrgyzstan?": the
        # answer is the relation itself, which the item the statement is the subject of
        # describes (*Kyrgyzstan–Saudi Arabia relations*)
        sup = (1.0, label, noun)
    if (sup is None and q.prop == CHARACTER_ROLE and q.statement in _CAST_PROPERTIES
            and (isinstance(q.value, IRI) or q.value in answers)):
        # "Who does the voice of Lois in Family Guy?", "What characters does Seth MacFarlane
        # voice?": the word that names the casting (*voice actor*, *cast member*) names the
        # role it is of, the character
        words = [l.unit.text or l.unit.lemma for l in grounding.links if l.symbol.id == q.statement]
        if words:
            sup = (1.0, label, words[0])
    linked_items = {l.symbol.symbol for l in grounding.links}
    if sup is None and q.prop in CONTEXT_QUALIFIERS and isinstance(q.value, IRI) and q.value.value in linked_items:
        # "What was Morgan Freeman nominated for in the 32nd Tony Awards?": the query places the
        # statement in the context of an item the question names
        value = grounder.label(wikidata_id(q.value.value) or q.value.value)
        return True, f"qualifier {q.prop} ({label}) places the statement in '{value}', which the question names"
    if sup is None:
        return False, f"qualifier {q.prop} ({label}) is not supported: no word of the question names it"
    clash = _time_qualifier_clash(q.prop, question)
    if clash:
        return False, f"qualifier {q.prop} ({label}) is not supported: the question asks when something {clash}"
    answer_value = isinstance(q.value, Var) and q.value in answers
    objects = _objects_statement(q, units, grounding)
    voice = _voice_clash(qsym, sup[2], question, grounder, answer_value=answer_value, objects=objects)
    if voice:
        # another of its names that the question says may read in the question's direction:
        # "Who preceded and who succeeded Clovis I ...?" names *followed by* by "succeeded"
        # (its alias "succeeded by"), not by "preceded" (its alias "precedes")
        other = next((alt for alt in grounder.lexical_supports(qsym, units)
                      if alt[2] != sup[2] and not _voice_clash(qsym, alt[2], question, grounder,
                                                                answer_value=answer_value, objects=objects)),
                     None)
        if other is None:
            return False, f"qualifier {q.prop} ({label}) is not supported: {voice}"
        sup = other
    v = q.value
    if isinstance(v, IRI):
        if v.value not in linked_items:
            return False, f"the value {v.value} ({grounder.label(wikidata_id(v.value) or v.value)}) of qualifier {q.prop} is not in the question"
    elif isinstance(v, Literal):
        if not number_in_text(v.lexical, question):
            return False, f"the value {v.lexical} of qualifier {q.prop} is not in the question"
    elif isinstance(v, Var) and v not in answers:
        for flt in q.filters:
            for t in literals_of(flt):
                if not value_in_text(t.lexical, question):
                    return False, f"the filter value {t.lexical} on qualifier {q.prop} is not in the question"
    return True, f"qualifier {q.prop} ({label}) named by '{sup[2]}'"


def _relation_noun(q: Qualifier, grounding: Grounding, terms: AbstractSet[Term]) -> str | None:
    """The word of a noun that is the question's answer (one of ``terms``) and names the
    qualified statement's property as a relation between two parties (template
    ``noun_relation_between``: "the diplomatic relationship between Saudi Arabia and
    Kyrgyzstan", "the marriage of X and Y"); None when there is none."""
    for link in grounding.links:
        if (link.symbol.id == q.statement and link.unit.var in terms
                and any(a.template == _RELATION_NOUN_TEMPLATE for a in link.axioms)):
            return link.unit.text or link.unit.lemma
    return None


def _answered_twice(q: Qualifier, siblings: Sequence[Qualifier], answers: set[Var]) -> bool:
    """Whether the query answers two of its columns with the same qualifier of the same
    statement (``?s pq:P2715 ?a . ?s pq:P2715 ?b``): the two columns would hold the same
    values, where a question with two answers asks for two things ("When was X elected ...
    and what ceased the position?")."""
    if not (isinstance(q.value, Var) and q.value in answers and isinstance(q.atom, Atom)):
        return False
    return any(s.prop == q.prop and s.value != q.value and isinstance(s.value, Var) and s.value in answers
               and isinstance(s.atom, Atom) and s.atom.args[0] == q.atom.args[0] for s in siblings)


def _bound_year(q: Qualifier, lower: bool) -> int | None:
    """The year that the filters of a time qualifier bound its value by: for a start time
    (``lower``) a filter ``start <= Y`` (or ``< Y+1-01-01``), for an end time ``end >= Y`` (or
    ``> Y-01-01``); None when the filters say anything else."""
    year = None
    for flt in q.filters:
        if not isinstance(flt, Compare):
            return None
        op, left, right = flt.op, flt.left, flt.right
        if isinstance(left, Literal):  # "Y > start" is "start < Y"
            op, left, right = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}[op], right, left
        if isinstance(left, Func) and left.name == "year" and len(left.args) == 1:
            left = left.args[0]
        if left != q.value or not isinstance(right, Literal):
            return None
        m = re.fullmatch(r"(-?\d{1,4})(?:-(\d\d)-(\d\d)(?:T00:00:00(?:\.0+)?Z?)?)?", right.lexical.strip())
        if m is None:
            return None
        y = int(m.group(1))
        jan1 = m.group(2) == "01" and m.group(3) == "01"
        if lower:
            if op == "<" and (jan1 or m.group(2) is None):
                y -= 1  # before 2013-01-01: in 2012 at the latest
            elif op != "<=" or (m.group(2) is not None and not (m.group(2) == "12" and m.group(3) == "31")):
                return None
        else:
            if op not in (">=", ">") or (m.group(2) is not None and not jan1):
                return None
            if op == ">" and m.group(2) is None:
                y += 1  # year(end) > 2010: 2011 at the earliest
        if year is not None and y != year:
            return None
        year = y
    return year


def _year_within(q: Qualifier, siblings: Sequence[Qualifier], question: str, answers: set[Var]) -> int | None:
    """The year the question states in which the query's statement held, when the query bounds
    the statement by its start time (at or before the year) and its end time (at or after it)
    and the question writes that year."""
    if q.prop not in ("P580", "P582") or not isinstance(q.value, Var) or q.value in answers or not q.filters:
        return None
    other = "P582" if q.prop == "P580" else "P580"
    mine = _bound_year(q, lower=q.prop == "P580")
    if mine is None or not number_in_text(str(mine), question):
        return None
    statement = q.atom.args[0] if isinstance(q.atom, Atom) else None
    for s in siblings:
        if (s.prop == other and isinstance(s.value, Var) and s.value not in answers and s.filters
                and isinstance(s.atom, Atom) and s.atom.args[0] == statement
                and _bound_year(s, lower=other == "P580") == mine):
            return mine
    return None


def _voice_clash(sym, words: str, question: str, grounder: Grounder, *, answer_value: bool = False,
                 objects: frozenset[str] = frozenset()) -> str | None:
    """Why a qualifier named by a verb reads the other way: "was *replaced by* Hans Ehard"
    names *replaced by* (P1366), not *replaces* (P1365), although both share the word; and
    "when he *replaced* Y" names *replaces*, not *replaced by*.  The names of the property
    that contain the question's word must say "by" (or "with": *replaced with*) exactly when
    the question does; except when the qualifier's value is the item that the verb's subject
    names and the statement is another's (the verb in ``objects``, :func:`_objects_statement`),
    or the qualifier's value is the answer and the wh-phrase is the verb's subject ("*Who*
    replaced Viktor Orbán as Prime Minister?"): the statement is the replaced one's, so its
    qualifier is *replaced by*."""
    for w in (x.strip() for x in words.split(",")):
        if not w or " " in w or not w.isalpha() or w.casefold() in STOPWORDS or w.casefold() in _PREPOSITIONS:
            continue  # "together *with* whom": the preposition is no verb
        key = stem(w.casefold())
        with_word = [n for n in grounder.names_of(sym) if key in n.keys]
        if not with_word:
            continue
        by_names = [n for n in with_word if re.search(rf"\b{_PASSIVE_AGENTS}\b", n.name, re.I)]
        passive = re.search(rf"\b{re.escape(w)}\s+{_PASSIVE_AGENTS}\b", question, re.I) is not None
        if (w.casefold() in objects and not passive) or (
                answer_value and not passive and _wh_subject_of(w).match(question)):
            if not by_names:
                return (f"the question says who {w} the statement's subject, "
                        f"the other direction of '{with_word[0].name}'")
            continue
        if passive and not by_names:
            return f"the question says '{w} by', the other direction of '{with_word[0].name}'"
        if not passive and len(by_names) == len(with_word):
            return f"the question says '{w}' without 'by', the other direction of '{by_names[0].name}'"
    return None


def _objects_statement(q: Qualifier, units: Sequence[Unit], grounding: Grounding) -> frozenset[str]:
    """The verbs (their lemmas and words) whose subject (the doer, also of a passive) the
    question names by the qualifier's value, an item, and not by the statement's subject:
    the statement is another's, on which the value acted.  "What position did Edgar of
    England succeed Eadwig in?" is answered by Eadwig's statement *replaced by* Edgar, "What
    position that Kurt Georg Kiesinger held was replaced by Hans Ehard?" by Kiesinger's."""
    if not isinstance(q.value, IRI):
        return frozenset()
    linked: dict[str, set[Term]] = {}
    for link in grounding.links:
        if link.unit.var is not None:
            linked.setdefault(link.symbol.symbol, set()).add(link.unit.var)
    value = linked.get(q.value.value, set())
    subj = linked.get(q.subject.value, set()) if isinstance(q.subject, IRI) else set()
    return frozenset(w.casefold() for u in units if u.kind == "verb" and len(u.atom.args) >= 3
                     and u.atom.args[1] in value and u.atom.args[1] not in subj
                     for w in (u.lemma, u.text) if w)


#: a verb written in a finite form ("replaced", "follows")
_FINITE_VERB = _WORDS.pattern("finite_verb_form")
#: the endings of a lemma's finite forms, and of a lemma whose silent ending they drop
_FINITE_ENDINGS = _WORDS.alternation("finite_endings")
_SILENT_ENDINGS = _WORDS.words("silent_endings")
_FINITE_ENDINGS_AFTER_SILENT = _WORDS.alternation("finite_endings_after_silent")


def _wh_subject_of(verb: str) -> re.Pattern:
    """A question whose wh-phrase is the subject of the finite ``verb`` (a word in -ed or
    -s, or a lemma, written in either form) and its object follows ("Who replaced Viktor
    Orbán ...", "Which king succeeded X", "What precedes and follows Jeremiah ..."; not "Who
    did X replace?", nor a noun such as "What degree did ...")."""
    if _FINITE_VERB.fullmatch(verb):
        finite = re.escape(verb)
    elif re.fullmatch(r"[a-z]+", verb, re.I):
        # a lemma ("follow" for "What precedes and follows Jeremiah ..."): its finite forms
        finite = _inflected(verb)
    else:
        return re.compile(r"(?!)")
    agents = "|".join(w + r"\b" for w in _WORDS.words("passive_agents"))
    return re.compile(rf"^\W*{_WORDS.alternation('subject_wh_words')}\b(?:\s+(?!{_AUX})[\w'-]+){{0,3}}?\s+{finite}"
                      rf"\s+(?!{_AUX}|{agents})\w", re.I)


def _inflected(lemma: str) -> str:
    """A pattern of the forms in -s and -ed of a verb's lemma ("replace": "replaces",
    "replaced")."""
    for silent in _SILENT_ENDINGS:
        if lemma.endswith(silent):
            return re.escape(lemma[:-len(silent)]) + _FINITE_ENDINGS_AFTER_SILENT
    return re.escape(lemma) + _FINITE_ENDINGS


#: A question that asks what something is for: "For what film ...", "For which work ...".
_FOR_WHAT = _WORDS.pattern("for_what")
#: the preposition of a qualifier's name that says what a statement is for (*for work*)
_PURPOSE = _WORDS.word_set("purpose_prepositions")


#: Qualifiers for a time, which a preposition with a date names ("on 1 January 2002").
TIME_QUALIFIERS = frozenset({"P580", "P582", "P585"})
#: ordinal words that keep the earliest / the latest statement by time
_EARLIEST = _WORDS.pattern("earliest")
_LATEST = _WORDS.pattern("latest")


#: Prepositions whose roles ("in": place, "by": author ...) the grounding adds to their keys.
_PREPOSITIONS = frozenset(PREPOSITION_ROLES)


# "When did X become / leave ...": the start or the end of a statement.  A start time is not
# supported by a question that only speaks of an ending, nor an end time by one that only
# speaks of a beginning ("when" itself names both).
_STARTS = _WORDS.pattern("starts")


_ENDS = _WORDS.pattern("ends")


#: A question for the cause of an end (end cause, P1534): "why did he resign", "how did
#: their marriage end", "what ceased the position".
_WHY_ENDED = _WORDS.pattern("why_ended")


#: Start and end time qualifiers and the words that name them.
_EDGE_WORDS = {"P580": _STARTS, "P582": _ENDS}


#: What follows a preposition that names a time: a number (a year, a date), a month, or a
#: time noun ("from 1990", "on 19 December 1967", "since the year 2001", "in May").
_TIME_AFTER = _WORDS.pattern("time_after").pattern


def _before_a_time(word: str, question: str) -> bool:
    """Whether the question writes ``word`` (a preposition) right before a time."""
    return re.search(r"\b" + re.escape(word) + _TIME_AFTER, question, re.I) is not None


#: A time span asked for as a whole ("In which year range ..."): both its ends answer it.
_SPANS = _WORDS.pattern("spans")


#: Nouns for a time that a question asks for ("In which year ...", "On what date ...").
_TIME_NOUNS = _WORDS.word_set("time_nouns")


#: matching keys of the abstract unit of a time question, to the word that names it ("when")
_TIME_QUESTION_KEYS = _WORDS.mapping("time_question_keys")


def _asks_for_time(units: Sequence[Unit]) -> str | None:
    """The word by which a question asks for a time: "when", or a time noun ("year",
    "date", ...); None when it asks for none."""
    for u in units:
        if u.kind == "abstract":
            for key, (word, *_) in _TIME_QUESTION_KEYS.items():
                if key in u.keys:
                    return word
    for u in units:
        if u.kind in ("noun", "relational_noun") and u.lemma in _TIME_NOUNS:
            return u.lemma
    return None


#: start words that start a time only before one ("from 1990"; not "graduate from X")
_PLACE_OR_TIME = _WORDS.word_set("place_or_time")


def _time_qualifier_clash(prop: str, question: str) -> str | None:
    """Why a start-time (P580) or end-time (P582) qualifier contradicts the question."""
    if _SPANS.search(question):
        return None
    # "from" starts a time only before one ("from 1990"; not "graduate from Howard University")
    starts = any(m.group(0).casefold() not in _PLACE_OR_TIME or _before_a_time(m.group(0).casefold(), question)
                 for m in _STARTS.finditer(question))
    ends = bool(_ENDS.search(question))
    # a bound before a time says which end it is, whatever the verb ("married to until 1975"
    # is the end of the marriage, "spouse since 1928" its start), unless both bounds are given
    until = any(_before_a_time(w, question) for w in _WORDS.words("end_bounds"))
    since = any(_before_a_time(w, question) for w in _WORDS.words("start_bounds"))
    if until != since:
        starts, ends = since, until
    if prop == "P580" and ends and not starts:
        return "ended"
    if prop == "P582" and starts and not ends:
        return "began"
    return None


def reification_axioms(query: Query) -> list[Axiom]:
    """``wdt:P(s, o) -> exists st. p:P(s, st) & ps:P(st, o)`` for properties the query uses in
    statement form (truthy statements exist as statement nodes)."""
    props = set()
    for a in atoms(query.pattern):
        pfx, _, local = a.pred.partition(":")
        if pfx in ("p", "ps") and wikidata_id(a.pred):
            props.add(local)
    out = []
    s, o, st = Var("s"), Var("o"), Var("st")
    for p in sorted(props):
        f = Forall((s, o), Implies(Atom(f"wdt:{p}", (s, o)),
                                   Exists((st,), And((Atom(f"p:{p}", (s, st)), Atom(f"ps:{p}", (st, o)))))))
        out.append(Axiom(f"statement form of {p}", f, "statement", "Wikidata statements"))
    return out
