"""Question semantics read off an MRS: sentence force, answer variables, intent.

Everything here looks at predications and variables only (it does not depend on the scoped
reading), so it is computed once per MRS.

* **Sentence force**: ``SF`` of the INDEX (``ques``, ``prop-or-ques``, ``comm`` for
  imperatives such as "Give me ...", ``prop``), ``None`` for fragments.
* **Answer variables**: the variables of interrogative quantifiers (``which_q``,
  ``_which_q``: who, what, which, where, when...).  "How many N" counts N: the answer is the
  counted variable.  Without a wh-word, a command's answer is what is requested (the first
  non-pronoun argument among ``ARG2``/``ARG3`` of the main verb, following scopal and
  coordinated arguments: "Give me X", "Tell me X", "Let me know X"); so is that of a
  :data:`REQUEST_VERBS` verb without a subject whose question mark made the sentence force
  ``ques`` ("Name the substance ... ?"); a question with a free
  relative ("What X ...") answers with the free relative's variable; an NP fragment with
  its ``unknown`` argument.  Yes/no questions have none.
* **Intent**: ``count`` > ``superlative`` > ``comparative`` > ``select``/``ask``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from verifier.logic import Literal, Term, Var
from verifier.vocabulary import vocabulary

from parsers.mrs.predicates import (
    FREE_RELATIVE_QUANTIFIERS, WH_QUANTIFIERS, predicate_info, scale_direction,
)
from parsers.mrs.structure import EP, Mrs, var_type

__all__ = ["Intent", "QuestionAnalysis", "analyse_question", "number_literal"]

INTENT_KINDS = ("select", "ask", "count", "superlative", "comparative")


@dataclass(frozen=True, slots=True)
class Intent:
    """What the question asks for.

    ``kind``: ``select`` (wh-question or request), ``ask`` (yes/no), ``count`` ("how
    many"), ``superlative`` or ``comparative``.  ``base`` is ``select`` when the question
    has answer variables and ``ask`` otherwise (so "Is X the highest ...?" is a superlative
    with base ``ask``).  ``var`` is the variable concerned: the answer variable (select),
    the counted variable (count), the argument of the graded adjective (superlative,
    comparative).  ``direction`` (``max``/``min``) and ``predicate`` (the adjective, e.g.
    ``_high_a_1``) describe a superlative or comparative; ``op`` (``<``, ``>``, ``=``) and
    ``value`` (a numeric :class:`Literal` for "less than 0.07", a :class:`Var` for "more
    toxic than benzene", ``None`` when unknown) and ``unit`` (the measure noun predicate,
    e.g. ``_kilogram_n_1``) a comparative.
    """

    kind: str
    base: str
    var: Var | None = None
    direction: str | None = None
    predicate: str | None = None
    op: str | None = None
    value: Term | None = None
    unit: str | None = None


@dataclass(frozen=True, slots=True)
class QuestionAnalysis:
    """Scope-independent facts of one MRS used by the translator."""

    sentence_force: str | None
    answer_vars: tuple[str, ...]
    closed_wh_vars: tuple[str, ...]
    intent: Intent
    fragment: bool


#: the English words of this module (``axioms/words/question.yaml``)
_WORDS = vocabulary("question")
_NON_QUANTITY = _WORDS.word_set("non_quantity_lemmas")
_EQUALITY_PREDS = _WORDS.word_set("equality_predicates")
_SUPERLATIVE_MARKERS = _WORDS.lemmas("superlative_markers")
_NUMBER_PREDS = frozenset({"card", "fraction", "yofc", "ord", "numbered_hour",
                           "basic_numbered_hour"})
_COMP_PREDS = _WORDS.lemmas("comparative_predicates")
_THAN_PREDS = _WORDS.word_set("than_predicates")


def number_literal(carg: str, pred: str = "card") -> Literal:
    """The literal of a number constant (``card``'s CARG ``"0.07"`` -> ``0.07``
    ``xsd:decimal``; ``yofc`` ``"2013"`` -> ``"2013"^^xsd:gYear``; anything unreadable as a
    number stays a plain string)."""
    text = carg.strip().replace(",", "")
    if pred == "yofc" and text.isdigit():
        return Literal(text, "xsd:gYear")
    try:
        d = Decimal(text)
    except (InvalidOperation, ValueError):
        return Literal(carg)
    if not d.is_finite():
        return Literal(carg)
    if "e" in text.lower():
        return Literal(text, "xsd:double")
    if "." in text:
        return Literal(text, "xsd:decimal")
    return Literal(text, "xsd:integer")


class _Index:
    """Lookups over the EPs of one MRS."""

    def __init__(self, m: Mrs) -> None:
        self.m = m
        self.by_iv: dict[str, list[EP]] = {}
        self.binder: dict[str, EP] = {}
        self.by_label: dict[str, list[EP]] = {}
        for ep in m.eps:
            self.by_label.setdefault(ep.label, []).append(ep)
            if ep.is_quantifier:
                v = ep.iv
                if v is not None and v not in self.binder:
                    self.binder[v] = ep
            elif ep.iv is not None:
                self.by_iv.setdefault(ep.iv, []).append(ep)
        self.qeq = {h.hi: h.lo for h in m.hcons}

    def head(self, handle: str) -> EP | None:
        """The representative EP of the label a handle leads to."""
        label = self.qeq.get(handle, handle)
        eps = [e for e in self.by_label.get(label, ()) if not e.is_quantifier]
        if not eps:
            return None
        ivs = {e.iv for e in eps}
        cands = [e for e in eps if not any(v in ivs and v != e.iv for _, v in e.args)]
        return (cands or eps)[0]

    def is_pronoun(self, x: str) -> bool:
        q = self.binder.get(x)
        if q is not None and q.pred == "pronoun_q":
            return True
        return any(e.pred == "pron" for e in self.by_iv.get(x, ()))


def _main_eps(ix: _Index) -> list[EP]:
    index = ix.m.index
    if index is None:
        return []
    eps = ix.by_iv.get(index, [])
    # prefer verbs, then anything
    return sorted(eps, key=lambda e: 0 if predicate_info(e.pred).pos == "v" else 1)


#: Verbs of requests ("Name X", "Tell me X", "List X"): without a subject they ask for their
#: object even when the sentence force says otherwise (a question mark after a command).
REQUEST_VERBS = _WORDS.word_set("request_verbs")


def _no_subject(ix: _Index, ep: EP) -> bool:
    """The verb has no subject of its own (an unexpressed one; "Did you name ...?" has)."""
    v = ep.arg("ARG1")
    return v is None or var_type(v) != "x"


def _request_target(ix: _Index, ep: EP, depth: int = 0) -> str | None:
    if depth > 6:
        return None
    for role in ("ARG2", "ARG3"):
        v = ep.arg(role)
        if v is not None and var_type(v) == "x" and not ix.is_pronoun(v):
            return v
    for role, v in ep.args:
        if role != "ARG0" and var_type(v) == "h":
            head = ix.head(v)
            if head is not None and head is not ep:
                t = _request_target(ix, head, depth + 1)
                if t is not None:
                    return t
    for role in ("ARG1", "ARG2"):
        v = ep.arg(role)
        if v is not None and var_type(v) == "e":
            for nxt in ix.by_iv.get(v, ()):
                if nxt is not ep:
                    t = _request_target(ix, nxt, depth + 1)
                    if t is not None:
                        return t
    return None


def _adjective_of(ix: _Index, e: str | None) -> EP | None:
    if e is None:
        return None
    for cand in ix.by_iv.get(e, ()):
        if cand.pred not in _COMP_PREDS and cand.pred != "superl":
            return cand
    return None


def _arg1_var(ix: _Index, ep: EP) -> str | None:
    v = ep.arg("ARG1")
    if v is None:
        return None
    if var_type(v) == "e":  # a degree modifier of an adjective: take the adjective's ARG1
        adj = _adjective_of(ix, v)
        if adj is not None and adj is not ep:
            w = adj.arg("ARG1")
            return w if w is not None and var_type(w) in ("x", "i", "u") else None
        return None
    return v


def _superlative(ix: _Index) -> Intent | None:
    m = ix.m
    for ep in sorted((e for e in m.eps if e.pred == "superl"), key=lambda e: e.cfrom):
        adj = _adjective_of(ix, ep.arg("ARG1"))
        if adj is None:
            continue
        v = adj.arg("ARG1")
        return Intent("superlative", "", Var(v) if v and var_type(v) else None,
                      scale_direction(adj.pred), adj.pred)
    for ep in sorted(m.eps, key=lambda e: e.cfrom):
        if ep.is_quantifier:
            continue
        info = predicate_info(ep.pred)
        direction = _SUPERLATIVE_MARKERS.get(info.lemma)
        if direction is None or info.pos not in ("a", "n", "p"):
            continue
        if _number_of_event(ix, ep.arg("ARG1")) is not None:
            continue  # "at least 6 days": a comparison, not a superlative
        if info.pos == "n":
            v = ep.iv
            for c in m.eps:  # "the maximum boiling point": the compound's head
                if c.pred == "compound" and c.arg("ARG2") == v and c.arg("ARG1"):
                    v = c.arg("ARG1")
                    break
        else:
            v = _arg1_var(ix, ep)
        return Intent("superlative", "", Var(v) if v and var_type(v) else None, direction,
                      ep.pred)
    return None


_TEMPORAL = _WORDS.word_set("temporal_lemmas")
#: Prepositions that compare with a number: "above 100 degrees", "less than 0.07".
_COMPARATIVE_PREPS = _WORDS.lemmas("comparative_prepositions")


def _value_of(ix: _Index, x: str, lemma: str = "") -> tuple[Term | None, str | None]:
    """The number a variable stands for (``card``, ``yofc``...) and its unit noun."""
    unit = None
    value: Term | None = None
    if _heads_a_name(ix, x):
        return None, None  # "after The Jazz Giants '56": a title with a number, not a value
    for ep in ix.m.eps:
        if ep.pred in _NUMBER_PREDS and ep.carg is not None and x in (ep.arg("ARG1"), ep.iv):
            pred = ep.pred if lemma in _TEMPORAL else "card"
            value = number_literal(ep.carg, pred)
        elif ep.iv == x and not ep.is_quantifier and ep.carg is None:
            info = predicate_info(ep.pred)
            if info.pos == "n" and not info.is_abstract:
                unit = ep.pred
    return value, unit


def _heads_a_name(ix: _Index, x: str) -> bool:
    """Whether ``x`` heads a compound that (through further compounds) contains a proper
    name: the number of "The Jazz Giants '56" is part of a title."""
    seen, todo = {x}, [x]
    while todo:
        v = todo.pop()
        for ep in ix.m.eps:
            if ep.pred == "compound" and ep.arg("ARG1") == v:
                y = ep.arg("ARG2")
                if y is None or y in seen:
                    continue
                if any(e.pred == "named" for e in ix.by_iv.get(y, ())):
                    return True
                seen.add(y)
                todo.append(y)
    return False


def _number_of_event(ix: _Index, e: str | None) -> EP | None:
    """The number predication (``card``...) whose ``ARG0`` is ``e``."""
    if e is None or var_type(e) != "e":
        return None
    for ep in ix.by_iv.get(e, ()):
        if ep.pred in _NUMBER_PREDS and ep.carg is not None:
            return ep
    return None


_AT_LEAST = _WORDS.lemmas("at_least_lemmas")


def _at_least(ix: _Index, ep: EP) -> Intent | None:
    """"at least N" / "at most N": ``_least_a_1(e, e_card)`` or ``_at+least_a_1``."""
    info = predicate_info(ep.pred)
    op = _AT_LEAST.get(info.lemma)
    if op is None or info.pos != "a":
        return None
    num = _number_of_event(ix, ep.arg("ARG1"))
    if num is None and " " in info.lemma:  # _at+least_a_1: the next number in the sentence
        after = [e for e in ix.m.eps if e.pred in _NUMBER_PREDS and e.carg is not None
                 and e.cfrom >= ep.cto]
        num = min(after, key=lambda e: e.cfrom) if after else None
    if num is None:
        return None
    x = num.arg("ARG1") if num.iv is not None and var_type(num.iv) == "e" else num.iv
    unit = None
    if x is not None:
        _, unit = _value_of(ix, x)
    return Intent("comparative", "", Var(x) if x and var_type(x) else None,
                  "max" if op == ">=" else "min", ep.pred, op, number_literal(num.carg or "", "card"),
                  unit)


def _than_arg(ix: _Index, than: str | None) -> str | None:
    """The compared term: ``ARG2`` of the comparative, else of ``_than_p_ind``
    (:data:`_THAN_PREDS`)."""
    if than is not None and var_type(than) == "x":
        return than
    if than is not None and var_type(than) == "e":  # "higher than [the point of water]"
        for ep in ix.by_iv.get(than, ()):
            xs = [a for r, a in ep.args if r != "ARG0" and var_type(a) == "x"]
            if xs:
                return xs[-1]
    for ep in ix.m.eps:
        t = ep.arg("ARG2")
        if ep.pred in _THAN_PREDS and t is not None and var_type(t) == "x":
            return t
    return None


def _comparative(ix: _Index) -> Intent | None:
    m = ix.m
    for ep in sorted(m.eps, key=lambda e: e.cfrom):
        if ep.pred in _COMP_PREDS:
            adj = _adjective_of(ix, ep.arg("ARG1"))
            if adj is None:
                continue
            than = _than_arg(ix, ep.arg("ARG2"))
            if than is None:
                continue
            info = predicate_info(adj.pred)
            if info.lemma in _NON_QUANTITY:
                continue
            base_op = _COMP_PREDS[ep.pred]
            direction = scale_direction(adj.pred)
            if base_op == "=":
                op = "="
            elif direction == "max":
                op = base_op
            else:
                op = "<" if base_op == ">" else ">"
            value, unit = _value_of(ix, than, info.lemma)
            v = adj.arg("ARG1")
            if value is None:  # compared with an entity: no unit
                value, unit = Var(than), None
            return Intent("comparative", "", Var(v) if v and var_type(v) else None,
                          direction, adj.pred, op, value, unit)
        if ep.pred in _EQUALITY_PREDS:
            than = ep.arg("ARG2")
            v = ep.arg("ARG1")
            if than is None or var_type(than) != "x":
                continue
            value, unit = _value_of(ix, than)
            if value is None:
                value, unit = Var(than), None
            return Intent("comparative", "", Var(v) if v and var_type(v) else None, None,
                          ep.pred, "=", value, unit)
        at_least = _at_least(ix, ep)
        if at_least is not None:
            return at_least
        info = predicate_info(ep.pred)
        if info.pos == "p" and info.lemma in _COMPARATIVE_PREPS:
            than = ep.arg("ARG2")
            if than is None or var_type(than) != "x":
                continue
            value, unit = _value_of(ix, than, info.lemma)
            if value is None:  # "after the war": not a comparison with a number
                continue
            v = ep.arg("ARG1")
            if v is not None and var_type(v) == "e":
                # a modified event: compare its object ("have a boiling point above 100")
                ev = next((e for e in ix.by_iv.get(v, ()) if not e.is_quantifier), None)
                xs = [a for r, a in ev.args if r != "ARG0" and var_type(a) == "x"] if ev else []
                v = xs[-1] if xs else None
            op = _COMPARATIVE_PREPS[info.lemma]
            return Intent("comparative", "", Var(v) if v and var_type(v) else None,
                          "max" if op in (">", ">=") else "min", ep.pred, op, value, unit)
    return None


def analyse_question(m: Mrs) -> QuestionAnalysis:
    """Sentence force, answer variables and intent of one MRS (never raises on odd MRSs)."""
    ix = _Index(m)
    sf = m.sentence_force
    if m.index is not None and var_type(m.index) != "e":
        sf = None
    fragment = any(e.pred == "unknown" for e in m.eps)
    wh = sorted((q for q in ix.binder.values() if q.pred in WH_QUANTIFIERS),
                key=lambda q: (q.cfrom, q.iv or ""))
    wh_vars = [q.iv for q in wh if q.iv]

    # how many: a degree ("how": abstr_deg or manner, bound by a wh or free-relative
    # quantifier) right before much-many_a(e, x) counts x.  The ERG links them through
    # measure(e2, e, x_deg); the link is not required because analyses made with a
    # mismatched lexicon (the shared corpus) often lose it.
    counted: str | None = None
    closed: list[str] = []
    how_binders = {q.iv: q for q in ix.binder.values()
                   if q.pred in WH_QUANTIFIERS or q.pred in FREE_RELATIVE_QUANTIFIERS}
    degrees = [e for e in m.eps if e.pred in ("abstr_deg", "manner") and e.iv in how_binders]
    if degrees:
        for many in sorted((e for e in m.eps if e.pred == "much-many_a"), key=lambda e: e.cfrom):
            x = many.arg("ARG1")
            if x is None or var_type(x) != "x" or m.properties(x).get("NUM") == "sg":
                continue
            linked = [d for d in degrees if any(
                e.pred == "measure" and e.arg("ARG2") == d.iv and e.arg("ARG1") == many.iv
                for e in m.eps)]
            near = [d for d in degrees if d.cto >= 0 and 0 <= many.cfrom - d.cto <= 2]
            hit = linked or near
            if hit:
                counted = x
                closed.extend(d.iv for d in hit if d.iv)
                break

    answer: list[str] = []
    if counted is not None:
        answer = [counted] + [w for w in wh_vars if w not in closed and w != counted]
        closed = [c for c in closed if c != counted]
    elif wh_vars:
        answer = list(wh_vars)
    else:
        free_rel = sorted((q for q in ix.binder.values() if q.pred in FREE_RELATIVE_QUANTIFIERS),
                          key=lambda q: q.cfrom)
        for main in _main_eps(ix):
            # a command, or a request verb without a subject that a question mark made a
            # question ("Name the chemical substance with the lowest flash point ?")
            if sf == "comm" or (main.pred in REQUEST_VERBS and _no_subject(ix, main)):
                t = _request_target(ix, main)
                if t is not None:
                    answer = [t]
                    break
        if not answer and free_rel and sf in ("ques", "prop-or-ques", "comm", None):
            answer = [q.iv for q in free_rel[:1] if q.iv]
        if not answer and fragment and sf is None:
            for e in m.eps:
                a = e.arg("ARG")
                if e.pred == "unknown" and a is not None and var_type(a) == "x":
                    answer = [a]
                    break
    base = "select" if answer else "ask"
    intent: Intent | None = None
    if counted is not None:
        intent = Intent("count", base, Var(counted))
    if intent is None:
        sup = _superlative(ix)
        if sup is not None:
            intent = Intent(sup.kind, base, sup.var, sup.direction, sup.predicate)
    if intent is None:
        comp = _comparative(ix)
        if comp is not None:
            intent = Intent(comp.kind, base, comp.var, comp.direction, comp.predicate, comp.op,
                            comp.value, comp.unit)
    if intent is None:
        intent = Intent(base, base, Var(answer[0]) if answer else None)
    return QuestionAnalysis(sf, tuple(answer), tuple(closed), intent, fragment)
