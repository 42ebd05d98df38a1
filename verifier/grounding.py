"""Lexical grounding: link the predicates of a question reading to the KG symbols of a query.

For one reading ``T`` of the question (a :class:`parsers.mrs.QuestionLogic`) and one query
(:class:`verifier.query.Query`):

1. :func:`question_units` lists the predications that can name something: nouns, verbs,
   adjectives, names (with the surface text of their noun phrase), numbers, and the
   wh-words (``where`` -> place, ``when`` -> time, ``who`` -> person).
2. :class:`Grounder` scores every symbol of the query against every unit, from the domain
   lexicons (``axioms/lexicons``), the KG labels and aliases (:class:`~verifier.lexical.LabelIndex`)
   and, when built, WordNet synonyms and derivations.  Each accepted link records why it was
   made and its score, and the best alternative symbols for the same words (for diagnosis:
   a query symbol beaten by an alternative is reported, not linked).
3. Templates are chosen from the pack by the unit's kind, the symbol's kind and the shape of
   the matched name (which fixes the direction of a property); each instantiated axiom is
   named and traceable to its template and its lexicon entry or label.
"""

from __future__ import annotations

import itertools
import logging
import re
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Collection, Iterable, Sequence

from verifier.axioms.model import LexiconEntry, Pack, Template
from verifier.lexical import (
    PREPOSITIONS, STOPWORDS, TITLES, LabelIndex, NameEntry, WordNetRelations, content_keys, fold, initials,
    irregular_base, is_agentive, label_shape, lemma_keys, stem, within_edits, without_possessive, words_beyond, words_of,
)
from verifier.logic import (
    Atom, Eq, Formula, Forall, IRI, Literal, Term, Var, atoms, disj, iter_terms, map_atoms,
    subformulas,
)
from verifier.namespaces import wikidata_id
from verifier.query import Query

__all__ = ["Unit", "Link", "Axiom", "Grounding", "Grounder", "question_units", "query_symbols",
           "reading_verbs", "SymbolUse", "instantiate"]

log = logging.getLogger(__name__)

# Wh-words and other abstract predicates that carry matching words.
_ABSTRACT_WORDS = {
    "place_n": ("place", "location"), "time_n": ("time", "date", "year", "period"),
    "person": ("person", "human", "people"), "thing": (), "manner": (), "reason": ("reason", "cause"),
    "pron": (),
    # a stop word, so no word of its own: "What did Einstein do?" asks for an activity, which
    # lexicon entries for "activity" may name (occupation)
    "_do_v_1": ("activity",),
}
# Semantic roles that prepositions contribute as context words ("die from" -> cause).
_PREPOSITION_ROLES = {
    "from": ("cause", "source", "origin"), "in": ("place", "location"),
    "at": ("place", "location"), "on": ("date", "day"), "during": ("time", "period"),
    "by": ("author", "creator"), "to": ("destination",), "for": ("purpose",),
    "since": ("start", "date"), "until": ("end", "date"), "after": ("follow",), "before": ("precede",),
}
_NOUN_LIKE = {"n"}
_SKIP_ABSTRACT = {"compound", "poss", "appos", "nominalization", "loc_nonsp", "card",
                  "yofc", "named", "generic_entity", "pron", "superl", "comp", "measure", "unknown",
                  "neg", "subord", "parg_d", "focus_d", "id", "ellipsis_ref", "mofy", "dofw", "dofm"}
_MIN_COVERAGE = 0.66
_DOMINANCE_MARGIN = 0.02
#: Keys of property names that count as said by the question (weight 0.9) without a word.
_IMPLIED_KEYS = frozenset({"id", "identifi"})


# --------------------------------------------------------------------------------------------
# Question side
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Unit:
    """A predication of the question that may name a KG symbol.

    ``kind`` is the template match kind (noun, relational_noun, verb, adjective, preposition,
    named, abstract, number); ``keys`` the matching keys of the word itself; ``np_keys`` those
    of its whole noun phrase (names: "andrew johnson"); ``text`` the surface text.
    """

    atom: Atom
    kind: str
    lemma: str
    pos: str | None
    keys: tuple[str, ...]
    np_keys: tuple[str, ...]
    text: str
    var: Term | None

    @property
    def pred(self) -> str:
        return self.atom.pred

    @property
    def arity(self) -> int:
        return len(self.atom.args)


def reading_verbs(units: Iterable[Unit]) -> frozenset[str]:
    """The verbs of a reading other than the copula (what ``match.verbs`` of a template
    restricts)."""
    return frozenset(u.pred for u in units if u.kind == "verb" and not u.pred.startswith("_be_v"))


def _np_spans(mrs, question: str) -> dict[str, tuple[int, int]]:
    """Character span of the noun phrase of each x-variable: its own nominal predications,
    compound non-heads and modifiers (recursively), from the MRS character offsets."""
    spans: dict[str, list[int]] = {}
    heads: dict[str, list[str]] = {}
    ordinals: list[tuple[str, int, int]] = []
    if mrs is None:
        return {}
    for ep in mrs.eps:
        if ep.cfrom < 0:
            continue
        iv = ep.iv
        args = dict(ep.args)
        if ep.pred == "compound" and "ARG1" in args and "ARG2" in args:
            heads.setdefault(args["ARG1"], []).append(args["ARG2"])
        if iv and iv.startswith("x") and not ep.pred.endswith("_q"):
            s = spans.setdefault(iv, [ep.cfrom, ep.cto])
            s[0], s[1] = min(s[0], ep.cfrom), max(s[1], ep.cto)
        elif iv and iv.startswith("e") and "ARG1" in args and args["ARG1"].startswith("x") \
                and ep.pred.split("_")[-2:-1] == ["a"]:
            s = spans.setdefault(args["ARG1"], [ep.cfrom, ep.cto])
            s[0], s[1] = min(s[0], ep.cfrom), max(s[1], ep.cto)
        elif ep.pred == "ord" and args.get("ARG1", "").startswith("x"):
            ordinals.append((args["ARG1"], ep.cfrom, ep.cto))
    for x, a, z in ordinals:
        # an ordinal before its noun modifies the noun phrase ("the *first* performance"),
        # not one after it (a date: "August 31st")
        s = spans.get(x)
        if s is not None and z <= s[0]:
            s[0] = min(s[0], a)

    def full(x: str, seen: set[str]) -> list[int] | None:
        s = spans.get(x)
        if s is None or x in seen:
            return s
        seen.add(x)
        lo, hi = s
        for y in heads.get(x, ()):
            t = full(y, seen)
            if t:
                lo, hi = min(lo, t[0]), max(hi, t[1])
        return [lo, hi]

    out = {}
    for x in spans:
        s = full(x, set())
        if s and 0 <= s[0] < s[1] <= len(question) + 1:
            out[x] = (s[0], s[1])
    return out


_PREFIX = re.compile(r"_([a-z]+)-_a_\w+")


def _prefixed_words(mrs, question: str) -> dict[str, str]:
    """The ERG writes a word with a prefix as two predications: ``_co-_a_with(i, e)`` about
    ``_extensive_a_1(e, x)`` for "coextensive", ``_un-_a_rvrs`` about ``_finish_v_1`` for
    "unfinished".  Maps the modified predication's variable to the prefix joined to nothing
    (``"co"``) when the question writes the word solid (a hyphenated "co-founded" already
    has the word "founded" in it).  Labels name the whole word ("coextensive with",
    "coordinate location", "territory overlaps")."""
    out: dict[str, str] = {}
    if mrs is None or not question:
        return out
    for ep in mrs.eps:
        m = _PREFIX.fullmatch(ep.pred)
        target = ep.arg("ARG1")
        if m and target and 0 <= ep.cfrom < ep.cto <= len(question):
            word = question[ep.cfrom:ep.cto]
            if "-" not in word and word.casefold().startswith(m.group(1)):
                out[target] = m.group(1)
    return out


def question_units(reading, question: str = "") -> list[Unit]:
    """The units of one translated reading (see :class:`Unit`)."""
    from parsers.mrs import predicate_info

    mrs = getattr(reading, "mrs", None)
    spans = _np_spans(mrs, question)
    prefixes = _prefixed_words(mrs, question)

    def text_of(t: Term) -> str:
        if isinstance(t, Var) and t.name in spans:
            a, b = spans[t.name]
            return question[a:b]
        return ""

    units: list[Unit] = []
    seen: set[Atom] = set()
    for a in atoms(reading.formula):
        if a in seen or not a.args:
            continue
        seen.add(a)
        pred = a.pred
        var = a.args[0]
        if pred in ("named", "named_n", "holiday"):  # named_n: a name used as a noun ("the Olympics"); holiday: "Christmas"
            name = a.args[-1].lexical if isinstance(a.args[-1], Literal) else ""
            text = text_of(var) or name
            units.append(Unit(a, "named", name.casefold(), "n", content_keys(name), content_keys(text), text, var))
            continue
        if pred in ("card", "yofc"):
            lit = a.args[-1]
            if isinstance(lit, Literal):
                keys = (lit.lexical,)
                if re.fullmatch(r"1\d{3}|20\d{2}", lit.lexical) or pred == "yofc":
                    keys += ("year", "time", "date", "point")
                units.append(Unit(a, "number", lit.lexical, None, keys, (), lit.lexical, a.args[0]))
            continue
        if pred in _ABSTRACT_WORDS:
            words = _ABSTRACT_WORDS[pred]
            if words:
                keys = tuple(dict.fromkeys(k for w in words for k in content_keys(w)))
                units.append(Unit(a, "abstract", words[0], "n", keys, keys, "", var))
            elif pred == "pron":
                units.append(Unit(a, "pronoun", "pron", None, (), (), text_of(var), var))
            continue
        if pred in _SKIP_ABSTRACT or pred.endswith("_q"):
            continue
        info = predicate_info(pred.partition("~")[0])  # _year_n_1~2: a repeated predicate's copy
        if info.is_abstract or info.is_quantifier:
            continue
        pos = info.pos
        if info.is_unknown_word and isinstance(var, Var) and var.name.startswith("x"):
            pos = "n"  # the tagger's guess may be wrong ("ether/CC"); an x-instance is a noun
        lemma = info.lemma
        if info.is_unknown_word and pos == "v" and (base := irregular_base(lemma)):
            lemma = base  # "where did X grew up?": the grammar does not know "grew" after "did"
        keys = lemma_keys(lemma)
        prefix = prefixes.get(var.name) if isinstance(var, Var) else None
        if prefix and keys and not _PREFIX.fullmatch(pred):
            keys = tuple(dict.fromkeys(lemma_keys(prefix + lemma) + keys))
        if pos == "p":  # prepositions name nothing themselves but structure the question
            head = lemma.split()[0] if lemma else lemma
            roles = tuple(dict.fromkeys([head] + [k for w in _PREPOSITION_ROLES.get(head, ()) for k in content_keys(w)]
                                        # a preposition of several words names by its content words,
                                        # as a property's name does ("together with")
                                        + (list(content_keys(lemma)) if " " in lemma else [])))
            units.append(Unit(a, "preposition", lemma, pos, roles, roles, lemma, var))
            continue
        if not keys:
            continue
        if pos in _NOUN_LIKE:
            kind = "relational_noun" if len(a.args) >= 2 else "noun"
            text = text_of(var) or lemma
            units.append(Unit(a, kind, lemma, pos, keys, content_keys(text) or keys, text, var))
        elif pos == "v":
            units.append(Unit(a, "verb", lemma, pos, keys, keys, lemma, var))
        elif pos == "a":
            units.append(Unit(a, "adjective", lemma, pos, keys, keys, lemma, var))
    return units


# --------------------------------------------------------------------------------------------
# Query side
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SymbolUse:
    """A KG symbol of the query: ``symbol`` as written (``wdt:P2067``), ``id`` (``P2067``),
    ``kind`` (property / item / class / literal)."""

    symbol: str
    id: str
    kind: str
    term: Term | None = None
    #: for a class: the query property it is the object of (``wdt:P31``, ``wdt:P106``)
    via: str | None = None


_PROPERTY_PREFIXES = ("wdt", "p", "ps", "pq", "psv", "pqv", "wdtn", "psn", "pqn", "pr", "prv")
_STRUCTURAL = {"rdf:type", "rdfs:label", "triple", "rdf:first", "rdf:rest"}
_CLASS_PROPS = {"P31", "P279"}


def query_symbols(query: Query, class_props: Collection[str] = _CLASS_PROPS) -> list[SymbolUse]:
    """Properties, items, classes and literals of a query (its pattern and its ``OPTIONAL``
    groups), each once.  The named objects of ``class_props`` (Wikidata ids: instance of,
    subclass of, and the classifying properties of class templates such as occupation) are
    classes, supported by the class link."""
    out: dict[tuple[str, str], SymbolUse] = {}
    for g in itertools.chain(subformulas(query.pattern), *map(subformulas, query.optional_parts)):
        if isinstance(g, Atom):
            base = g.pred.rstrip("*+")
            pfx = base.partition(":")[0]
            wid = wikidata_id(base)
            if wid and pfx in ("pq", "pqv", "pqn", "pr", "prv"):
                out.setdefault(("qualifier", wid), SymbolUse(base, wid, "qualifier"))
            elif wid and pfx in _PROPERTY_PREFIXES:
                if wid in class_props and len(g.args) == 2 and isinstance(g.args[1], IRI):
                    pass  # instance of / occupation ... a named class: supported by the class link
                else:
                    out.setdefault(("property", wid), SymbolUse(base, wid, "property"))
            for i, t in enumerate(g.args):
                _term_symbol(t, out, is_class=(wid in class_props and i == 1),
                             via=f"wdt:{wid}" if wid else None)
        elif hasattr(g, "left"):
            for t in (g.left, g.right):
                if isinstance(t, (IRI, Literal)):
                    _term_symbol(t, out, False)
    return list(out.values())


def _term_symbol(t: Term, out: dict, is_class: bool, via: str | None = None) -> None:
    if isinstance(t, IRI):
        wid = wikidata_id(t.value)
        if wid and t.value.startswith("wd:"):
            kind = "class" if is_class else "item"
            key = (kind, wid)
            if ("item", wid) in out and kind == "class":
                del out[("item", wid)]
            if ("class", wid) not in out:
                out.setdefault(key, SymbolUse(t.value, wid, kind, t, via if is_class else None))
    elif isinstance(t, Literal):
        out.setdefault(("literal", t.lexical), SymbolUse(t.lexical, t.lexical, "literal", t))


# --------------------------------------------------------------------------------------------
# Links and axioms
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Axiom:
    """An instantiated axiom with its provenance."""

    name: str
    formula: Formula
    template: str
    source: str  # "label 'mass' of P2067", "lexicon chemistry: toxicity", "background"


@dataclass(frozen=True)
class Link:
    """A question unit linked to a query symbol."""

    unit: Unit
    symbol: SymbolUse
    name: str
    shape: str
    score: float
    coverage: float
    reason: str
    entry: LexiconEntry | None = None
    axioms: tuple[Axiom, ...] = ()

    @property
    def names_item(self) -> bool:
        """Whether the unit names an item, the thing it refers to: not a word that gives its
        referent the item as a property's value ("daughter": sex or gender female, through
        a lexicon entry with ``via``)."""
        return self.symbol.kind == "item" and not (self.entry is not None and self.entry.via)


@dataclass
class Grounding:
    """All links of one reading to one query, plus diagnostics."""

    links: list[Link] = field(default_factory=list)
    unsupported: list[SymbolUse] = field(default_factory=list)
    dominated: list[tuple[SymbolUse, Unit, str, float, str, float]] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)

    @property
    def axioms(self) -> list[Axiom]:
        out, seen = [], set()
        for l in self.links:
            for a in l.axioms:
                if a.formula not in seen:
                    seen.add(a.formula)
                    out.append(a)
        return out


def instantiate(template: Template, unit: Unit, bindings: dict[str, str | Term]) -> Formula:
    """The template's axiom with ``$pred`` bound to the unit's predicate (padded with fresh
    universally quantified variables up to the unit's arity, and with the unit's CARG for
    names) and the other placeholders bound to KG symbols."""
    pred, arity = unit.pred, unit.arity
    carg = unit.atom.args[-1] if unit.kind in ("named", "number") and isinstance(unit.atom.args[-1], Literal) else None
    extra: list[Var] = []

    def fix_atom(a: Atom) -> Formula:
        if a.pred == "$pred":
            args = list(a.args)
            want = arity - 1 if carg is not None else arity
            while len(args) < want:
                v = Var(f"_pad{len(extra)}")
                extra.append(v)
                args.append(v)
            if carg is not None and len(args) == arity - 1:
                args.append(carg)
            return Atom(pred, tuple(args))
        if a.pred.startswith("$"):
            # "$prop+" / "$prop*": the property's transitive (reflexive) closure, a path
            name, closure = (a.pred[:-1], a.pred[-1]) if a.pred.endswith(("+", "*")) else (a.pred, "")
            val = bindings.get(name)
            if isinstance(val, tuple) and val and all(isinstance(v, str) for v in val):
                return disj(Atom(v + closure, a.args) for v in val)  # any of these predicates
            if not isinstance(val, str):
                raise ValueError(f"template {template.name}: no binding for {a.pred}")
            return Atom(val + closure, a.args)
        return a

    f = map_atoms(template.axiom, fix_atom)
    consts = {k: (IRI(v) if isinstance(v, str) else v) for k, v in bindings.items()
              if k in ("$item", "$class", "$value", "$name")}
    if consts:
        f = _replace_placeholders(f, consts)
    for t in iter_terms(f):
        if isinstance(t, IRI) and t.is_placeholder:
            raise ValueError(f"template {template.name}: no binding for {t.value}")
    if extra:
        f = _add_to_outer_forall(f, extra)
    return f


def _replace_placeholders(f: Formula, consts: dict[str, Term]) -> Formula:
    from verifier.logic import Compare, Func

    def term(t: Term) -> Term:
        if isinstance(t, IRI) and t.value in consts:
            return consts[t.value]
        if isinstance(t, Func):
            return Func(t.name, tuple(term(a) for a in t.args))
        return t

    def go(g: Formula) -> Formula:
        from verifier.logic import And, Exists, Iff, Implies, Not, Or

        if isinstance(g, Atom):
            return Atom(g.pred, tuple(term(a) for a in g.args))
        if isinstance(g, Eq):
            return Eq(term(g.left), term(g.right))
        if isinstance(g, Compare):
            return Compare(g.op, term(g.left), term(g.right))
        if isinstance(g, (And, Or)):
            return type(g)(tuple(go(a) for a in g.args))
        if isinstance(g, Not):
            return Not(go(g.arg))
        if isinstance(g, (Implies, Iff)):
            return type(g)(go(g.left), go(g.right))
        if isinstance(g, (Exists, Forall)):
            return type(g)(g.vars, go(g.body))
        return g

    return go(f)


def _add_to_outer_forall(f: Formula, extra: list[Var]) -> Formula:
    if isinstance(f, Forall):
        return Forall(f.vars + tuple(extra), f.body)
    return Forall(tuple(extra), f)


# --------------------------------------------------------------------------------------------
# Grounder
# --------------------------------------------------------------------------------------------


_TOKEN_RE = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


def _tokens(text: str) -> list[tuple[str, int, int]]:
    """Lower-cased word tokens of a text without accents and without a possessive "'s" (as
    :func:`words_of`) with their character offsets in the text."""
    out = []
    for m in _TOKEN_RE.finditer(text):
        folded = fold(m.group(0))
        w = without_possessive(folded)
        out.append((w, m.start(), m.end() - (len(folded) - len(w))))
    return out


#: Words of rank or office written before a surname ("President Lincoln", "pres clinton"):
#: the titles of names (:data:`verifier.lexical.TITLES`) but those written after one, and
#: offices and their abbreviations.
_NAME_TITLES = (TITLES - {"christ", "jr", "sr"}) | frozenset("""pres doctor gen governor gov senator sen
captain capt lt lieutenant colonel admiral tsar czar chancellor mayor judge justice professor prof
miss""".split())


@lru_cache(maxsize=4096)
def _question_tokens(question: str) -> tuple[tuple[str, int, int], ...]:
    """:func:`_tokens` of a question, computed once: the names of every symbol of every
    reading are looked up in them."""
    return tuple(_tokens(question))


_DIGITS = re.compile(r"\d+")
_DETERMINERS = frozenset({"the", "a", "an"})
_ROMAN = {r: str(i) for i, r in enumerate(
    "i ii iii iv v vi vii viii ix x xi xii xiii xiv xv xvi xvii xviii xix xx".split(), start=1)}


def _numeral(word: str) -> str:
    """A Roman numeral as its number ("ii" -> "2"); any other word as it is."""
    return _ROMAN.get(word, word)


#: *character role* (P453), the qualifier that names the character someone plays.
CHARACTER_ROLE = "P453"


#: Similarity of a link by a surname or nickname that other items' names end with too, made to
#: the best known of them (:meth:`Grounder._sole_bearer_tail`).
PROMINENT_TAIL = 0.75


def _best_known(sid: str, bearers: set[str]) -> bool:
    """Whether ``sid`` has the smallest numeric Wikidata id of ``bearers`` (which it is one
    of): older items are, as a rule, the better known ones (*Abraham Lincoln* is Q91, the city
    of Lincoln Q28260), the prior PGMR uses for label collisions too."""
    def num(s: str) -> int:
        return int(s[1:]) if s[:1] in "QP" and s[1:].isdigit() else 1 << 62
    return sid in bearers and num(sid) < (1 << 62) and all(num(sid) < num(b) for b in bearers if b != sid)


def _around_another_name(labels: LabelIndex, sid: str, toks: Sequence[tuple[str, int, int]], i: int, k: int,
                         question: str) -> bool:
    """Whether the tokens ``i..k`` together with up to two tokens before or after them are
    written as the label of another item than ``sid`` (a part of a longer name: "ingalls" in
    "laura ingalls wilder" is not *Dan Ingalls*, "richard" in "richard pryor" not *Richard
    Wagner*)."""
    return any(e.symbol != sid for a in range(max(0, i - 2), i + 1) for b in range(k, min(len(toks), k + 3))
               if (a, b) != (i, k) for e in labels.labels_written_as(question[toks[a][1]:toks[b][2]]))


def _character_part(toks: Sequence[tuple[str, int, int]], words: list[str], name: str
                    ) -> tuple[float, int, int] | None:
    """A character's first or last name written alone ("meg" for *Meg Griffin*, "giles" for
    *Rupert Giles*), as questions about a work name its characters.  Only for the value of a
    *character role* qualifier (the query says which work and which role, so a first name
    does not have to tell the character from every other bearer of it); the label is a
    capitalised name of two or three words without a comma, and the word is alphabetic, of
    three letters or more, and written as a word of the question.  Similarity 0.8."""
    if not name[:1].isupper() or "," in name or not 2 <= len(words) <= 3:
        return None
    for part in (words[:1], words[-1:]):
        w = part[0]
        if len(w) < 3 or not w.isalpha() or not content_keys(w):
            continue
        for t in toks:
            if t[0] == w:
                return (0.8, t[1], t[2])
    return None


def _find_words(toks: Sequence[tuple[str, int, int]], words: list[str]) -> tuple[float, int, int] | None:
    """Where ``words`` occur in order in ``toks`` (exactly, by stem, or, for names of five
    letters or more, with a near spelling that writes the same numbers): (similarity, start
    offset, end offset)."""
    import difflib

    n = len(words)
    if n == 0 or n > len(toks):
        return None
    target = " ".join(words)
    stems = [stem(w) for w in words]
    # "Grade 1 listed building" writes the label "Grade I listed building"
    numerals = [_numeral(w) for w in words] if any(w in _ROMAN for w in words) else None
    digits = _DIGITS.findall(target)
    best = None
    for i in range(len(toks) - n + 1):
        window = toks[i:i + n]
        ws = [t[0] for t in window]
        if ws == words or [stem(w) for w in ws] == stems or (
                numerals and [_numeral(w) for w in ws] == numerals):
            return (1.0, window[0][1], window[-1][2])
        if len(target) >= 5:
            for m in (n - 1, n, n + 1):
                if m < 1 or i + m > len(toks):
                    continue
                w2 = toks[i:i + m]
                written = " ".join(t[0] for t in w2)
                if _DIGITS.findall(written) != digits:
                    continue  # "aluminium-36" is not a near spelling of "aluminium-26"
                sm = difflib.SequenceMatcher(None, target, written, autojunk=False)
                if sm.real_quick_ratio() < 0.88 or sm.quick_ratio() < 0.88:
                    continue
                ratio = sm.ratio()
                if ratio >= 0.88 and (best is None or ratio > best[0]):
                    best = (ratio, w2[0][1], w2[-1][2])
    return best


def _capitalised_words(units: Sequence["Unit"], question: str) -> dict[int, str]:
    """The units whose word the question writes in capitals, two to six letters (a possible
    acronym: "the IDLH of graphite"), by ``id``: the word in capitals."""
    out: dict[int, str] = {}
    for u in units:
        w = u.lemma.upper()
        if 2 <= len(w) <= 6 and w.isalpha() and re.search(r"\b" + w + r"\b", question):
            out[id(u)] = w
    return out


#: Similarity of a name written as its acronym (:func:`_acronym_match`).
ACRONYM = 0.95


def _acronym_match(toks: Sequence[tuple[str, int, int]], question: str, name: str) -> tuple[float, int, int] | None:
    """Where the question writes the acronym of ``name`` in capitals ("the USA", "the IDLH of
    graphite"), or in lower case in a question without capitals ("the nba"): (similarity
    0.95, start, end)."""
    letters = initials(name)
    if len(letters) < 2:
        return None
    # a question written all in lower case writes acronyms so too ("who does X play for in
    # the nba?"); three letters or more, and not a word of its own ("who")
    lowercase = question == question.casefold() and len(letters) >= 3
    for w, a, b in toks:
        if question[a:b] == letters or (lowercase and question[a:b].upper() == letters and w not in STOPWORDS):
            return (ACRONYM, a, b)
    return None


def _split_name(u: Unit, name: str) -> bool:
    """Whether ``u`` is a word the parser does not know that is one word of a longer proper
    ``name`` (every word capitalised): in "who is chelsea kane?" ``_kane/nn_u_unknown`` is
    part of a person's name, which names no class of the answer ("governor of texas" may:
    *Governor of Texas*)."""
    words = name.split()
    keys = set(content_keys(name))
    return (u.kind == "noun" and "_u_unknown" in u.pred and len(words) >= 2
            and all(w[:1].isupper() for w in words)
            and not keys <= set(u.keys) and set(u.keys) <= keys)


def _head_elsewhere(u: Unit, n: NameEntry, units: Sequence[Unit]) -> bool:
    """Whether an adjective or a passive verb matches only a modifier of a noun-shaped name
    whose head noun is the question's noun (or in its noun phrase: "the name of the money")
    for the adjective's (the passive's) subject ("used" of the alias *used money* of
    *currency* in "What money is used in Ukraine?"): the name speaks of that noun, the
    property's value, so the subject is no subject of the property (the active "What money
    does Ukraine use?" keeps the verb's subject as the subject; in "What city was X twinned
    with?" the subject X is no city)."""
    passive = (u.kind == "verb" and len(u.atom.args) > 2
               and not str(getattr(u.atom.args[1], "name", "")).startswith("x"))
    if not (u.kind == "adjective" or passive) or n.shape != "noun" or len(u.atom.args) < 2:
        return False
    ws = [w for w in words_of(n.name) if w not in STOPWORDS]
    if len(ws) < 2:
        return False
    head = set(content_keys(ws[-1]))
    subject = u.atom.args[2] if passive else u.atom.args[1]
    return (bool(head) and not head & set(u.keys)
            and any(v.kind in ("noun", "relational_noun") and v.var == subject
                    and head & (set(v.keys) | set(v.np_keys)) for v in units))


def _preposition_elsewhere(u: Unit, n: NameEntry, names: Sequence[NameEntry],
                           question: str) -> bool:
    """Whether a verb that selects a preposition (``_die_v_of``) matches a name without one
    ("died", "dead") whose symbol writes that verb with another preposition ("died in") and
    never with the verb's: *place of death* says "died in", so "What did X die of?" does not
    ask for it (*cause of death*, "died of", does).  Only for a preposition the question
    writes, and not for "by" (*directed by* is the passive of *director*)."""
    if u.kind != "verb":
        return False
    from parsers.mrs import predicate_info

    prep = predicate_info(u.pred).sense
    ws = words_of(n.name)
    if (prep not in PREPOSITIONS or not ws or ws[-1] in PREPOSITIONS
            or prep not in words_of(question)):
        return False
    verb = stem(u.lemma)
    others = set()
    for m in names:
        mw = words_of(m.name)
        if len(mw) == 2 and stem(mw[0]) == verb and mw[1] in PREPOSITIONS and mw[1] != "by":
            if mw[1] == prep:
                return False
            others.add(mw[1])
    return bool(others)


_ABSTRACT_SUFFIXES = ("ment", "tion", "sion", "ance", "ence", "ship", "ism", "ity")
_DOER_SUFFIXES = ("or", "er", "ist", "ant", "ent")


#: Properties whose value contains their subject (located in the administrative territorial
#: entity, location, located in/on physical feature, country, continent): their aliases
#: "city", "state", "region" ... name the container, which "cities in X" does not
#: (:meth:`Grounder._without_class_word_aliases`).
_CONTAINERS = frozenset({"P131", "P276", "P706", "P17", "P30"})


def _doer_of_abstract(u: Unit, n: NameEntry) -> bool:
    """Whether a noun for an abstract thing (a "-ment", "-tion" ... noun), or a noun whose
    noun phrase has one ("government system"), matches a one-word name for its doer by their
    shared stem ("government" and *head of government*'s alias "governor"): the doer is not
    the thing."""
    ws = words_of(n.name)
    if u.kind not in ("noun", "relational_noun") or len(ws) != 1:
        return False
    doer = ws[0].casefold()
    if doer.endswith(_ABSTRACT_SUFFIXES) or not doer.endswith(_DOER_SUFFIXES):
        return False
    # the noun itself, or a word of its noun phrase through which the name matched ("system"
    # in "government system")
    written = {u.lemma.casefold()} | {w.casefold() for w in words_of(u.text)}
    if doer in written or doer + "s" in written or doer.rstrip("s") in written:
        return False
    base = _agent_base(stem(doer))
    return any(w.endswith(_ABSTRACT_SUFFIXES) and stem(w) in (base, stem(doer)) for w in written)


def _tightest_occurrence(toks: Sequence[tuple[str, int, int]], question: str, a: int, b: int,
                         spans: dict[str, tuple[int, int]], headed: set[str]) -> tuple[int, int]:
    """Of the places where the words of ``question[a:b]`` occur, the one that a noun phrase of
    its own covers most tightly: in "Is Morgan Freeman's family name Freeman?" the family
    name *Freeman* is the last word, not the end of the person's name."""
    words = [t[0] for t in toks if t[1] >= a and t[2] <= b]
    n = len(words)
    if not n:
        return a, b

    def slack(sa: int, sb: int) -> int:
        cover = [qb - qa for v, (qa, qb) in spans.items()
                 if v in headed and qa <= sa + 1 and qb >= sb - 1]
        return min(cover) - (sb - sa) if cover else len(question)

    def alone(i: int) -> bool:  # not part of a longer name ("Western Roman Empire")
        around = ([toks[i - 1]] if i > 0 else []) + ([toks[i + n]] if i + n < len(toks) else [])
        return not any(question[t[1]:t[1] + 1].isupper() for t in around)

    places = [(toks[i][1], toks[i + n - 1][2]) for i in range(len(toks) - n + 1)
              if [t[0] for t in toks[i:i + n]] == words and (toks[i][1] == a or alone(i))]
    if len(places) < 2:
        return a, b
    return min(places, key=lambda p: (slack(*p), p != (a, b)))


def _of_inversion(toks: Sequence[tuple[str, int, int]], words: list[str]) -> tuple[float, int, int] | None:
    """A two-word name "M H" written "H of|for [the] M" ("series of films" for *film series*,
    "cirrhosis of the liver" for *liver cirrhosis*, "the vaccine for influenza"): (similarity
    0.9, start, end), words compared by stem; the match starts at the head H."""
    if len(words) != 2 or any(len(w) < 3 for w in words):
        return None
    m_, h_ = stem(words[0]), stem(words[1])
    for i in range(len(toks) - 2):
        if stem(toks[i][0]) != h_ or toks[i + 1][0] not in ("of", "for"):
            continue
        j = i + 2 + (toks[i + 2][0] == "the")
        if j < len(toks) and stem(toks[j][0]) == m_:
            return (0.9, toks[i][1], toks[j][2])
    return None


def _by_score_then_id(c: tuple) -> tuple[float, int, str]:
    """Sort key of scored candidates (id, score, name): best first, ties in id order."""
    return (-c[1], len(c[0]), c[0])


def _label_written(question: str, label: str) -> bool:
    """Whether the question writes the label word for word (exactly or by stems), articles
    aside ("the work present in the work of Confucius" writes *present in work*); a "number
    of" label also without those words, which "how many" or a stated number say ("When did
    Latvia have 10,293 out of school children?" writes *number of out-of-school children*)."""
    if not question:
        return False
    words = [w for w in words_of(label) if w not in _DETERMINERS]
    if words[:2] == ["number", "of"] and len(words) > 3:
        words = words[2:]
    found = _find_words(_tokens_without_articles(question), words)
    return found is not None and found[0] >= 0.999


@lru_cache(maxsize=4096)
def _tokens_without_articles(question: str) -> tuple[tuple[str, int, int], ...]:
    """:func:`_question_tokens` without "the", "a", "an", computed once per question."""
    return tuple(t for t in _question_tokens(question) if t[0] not in _DETERMINERS)


def _distinctive_part(toks: Sequence[tuple[str, int, int]], words: list[str], question: str,
                      tail: bool = False) -> tuple[float, int, int] | None:
    """The longest prefix (``tail``: suffix) of a name's words that the question writes word
    for word, when it has two content words or more and is most of the name (60 %); a
    suffix must be written capitalised.  Similarity 0.9."""
    for n in range(len(words) - 1, 1, -1):
        part = words[-n:] if tail else words[:n]
        if n / len(words) < 0.6 or len(content_keys(" ".join(part))) < 2:
            break
        f2 = _find_words(toks, part)
        if f2 is not None and f2[0] >= 0.999 and (not tail or question[f2[1]:f2[1] + 1].isupper()):
            return (0.9, f2[1], f2[2])
    return None


def _middle_name_match(toks: Sequence[tuple[str, int, int]], words: list[str], name: str,
                       question: str) -> tuple[float, int, int] | None:
    """A person's name written with or without its middle names: the label "Mikhail
    Vassilyevich Lomonosov" for "Mikhail Lomonosov", "Carl Jung" for "Carl Gustav Jung", or
    with initials for them: "Gordon Stanley Clinton" for "Gordon S. Clinton".  Only for
    capitalised labels of two to five words, and only the first and the last word may frame
    the difference (one or two middle words); a two-word label's first name may be written
    short, as its first three letters or more ("Ray Kurzweil").  Similarity 0.9."""
    parts = name.split()
    if not 2 <= len(words) <= 5 or len(parts) != len(words) or not all(p[:1].isupper() for p in parts):
        return None
    first, last = words[0], words[-1]
    for i, (w, a, _) in enumerate(toks):
        if w != first:
            # the question writes the first name short ("Ray Kurzweil" for "Raymond Kurzweil")
            if (len(words) == 2 and 3 <= len(w) < len(first) and first.startswith(w)
                    and question[a:a + 1].isupper() and i + 1 < len(toks) and toks[i + 1][0] == last):
                return (0.9, a, toks[i + 1][2])
            continue
        # the label has middle words the question leaves out
        if len(words) >= 3 and i + 1 < len(toks) and toks[i + 1][0] == last:
            return (0.9, a, toks[i + 1][2])
        # ... or writes as initials
        k = len(words) - 1
        if k >= 2 and i + k < len(toks) and toks[i + k][0] == last and all(
                len(t[0]) == 1 and t[0] == m[0] and question[t[1]:t[1] + 1].isupper()
                for t, m in zip(toks[i + 1:i + k], words[1:-1])):
            return (0.9, a, toks[i + k][2])
        # the question has one or two middle words (capitalised) the label leaves out
        if len(words) == 2:
            for k in (2, 3):
                if i + k < len(toks) and toks[i + k][0] == last and all(
                        question[t[1]:t[1] + 1].isupper() for t in toks[i + 1:i + k]):
                    return (0.9, a, toks[i + k][2])
    return None


def _number_value(text: str) -> float | None:
    """The number a question or query writes ("45,709", "45709.0", ".1"), else None."""
    t = text.strip().replace(",", "").replace(" ", "").replace(" ", "")
    try:
        return float(t)
    except ValueError:
        return None


def number_in_text(value: str, text: str) -> bool:
    """Whether the number ``value`` (or the string itself) is written in ``text``.  Numbers
    are compared as numbers, token by token: 166 is not written in "-166", nor 16 in "166"; a
    sign counts only where it cannot be a dash ("1947-48" writes 48)."""
    v = _number_value(value)
    if v is None:
        return value.casefold() in text.casefold()
    if re.search(r"(?<![\w.+\-])" + re.escape(value) + r"(?![\w.]*\d)", text):
        return True  # written as such ("1.15e+11")
    for m in re.finditer(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?|(?<![\w.])[-+]?\.\d+", text):
        w = _number_value(m.group(0))
        if w is not None and abs(w - v) < 1e-9 * max(1.0, abs(v)):
            return True
    return False


def with_written_sign(lit: Literal, text: str) -> Literal:
    """The number ``lit`` with the minus sign the question writes and the parser dropped
    ("equal to -166" is read as 166); ``lit`` itself otherwise."""
    if text and not lit.lexical.startswith("-") and not number_in_text(lit.lexical, text) \
            and number_in_text("-" + lit.lexical, text):
        return Literal("-" + lit.lexical, lit.datatype)
    return lit


def _coverage(name_keys: Sequence[str], keys: set[str]) -> tuple[float, int]:
    if not name_keys:
        return 0.0, 0
    hit = sum(1 for k in name_keys if k in keys or _agent_base(k) in keys)
    return hit / len(name_keys), hit


@lru_cache(maxsize=1 << 16)
def _agent_base(k: str) -> str:
    """developer -> develop, inventor -> invent, director -> direct (matching only)."""
    for suf in ("er", "or", "ist", "ee", "e"):
        if k.endswith(suf) and len(k) > len(suf) + 3:
            return stem(k[: -len(suf)])
    return k


@lru_cache(maxsize=1 << 16)
def _doer_keys(name: str) -> frozenset[str]:
    """The keys of a name's words that name a doer ("winner", "developer": :func:`is_agentive`),
    which a word of their verb may say ("won", "developed")."""
    return frozenset(stem(w) for w in words_of(name) if is_agentive(w))


def _anchored_keys(n: NameEntry, direct: set[str]) -> frozenset[str]:
    """The keys of name ``n`` that a unit's own words say (or as the agent noun of a word:
    develop -> developer); not WordNet's relations ("number" is related to "phone")."""
    return frozenset(k for k in n.keys if k in direct or _agent_base(k) in direct)


class Grounder:
    """Links question units to query symbols (see the module docstring).

    ``labels``: KG labels and aliases (optional; without them only the lexicons ground);
    ``wordnet``: precomputed WordNet relations (optional).
    """

    def __init__(self, pack: Pack, labels: LabelIndex | None = None,
                 wordnet: WordNetRelations | None = None, alternatives: int = 3) -> None:
        self.pack = pack
        self.labels = labels or LabelIndex()
        self.wordnet = wordnet
        self.n_alternatives = alternatives
        self._alt_cache: dict = {}
        self._fixes: dict[str, set[str]] = {}  # misspelt key -> name keys (per grounding)
        self._lexicon_keys: frozenset[str] | None = None  # keys of every lexicon word
        self._demonyms: dict[str, frozenset[str]] | None = None  # see _demonym_keys
        self._valued: dict[str, frozenset[str]] | None = None  # see _valued_items
        #: lexicon names per (symbol id, symbol, part of speech): scanning every lexicon entry
        #: for each symbol of each reading was a tenth of the verification time
        self._lex_names: dict[tuple[str, str, str | None], tuple[NameEntry, ...]] = {}
        self._values: dict[str, list[Literal]] = {}
        self._query_props: set[str] = set()
        self._modifiers: set[tuple[str, Term]] = set()
        self._verbs: frozenset[str] = frozenset()
        self._roles: set[str] = set()  # items the query names as a character role
        #: properties whose named objects are classes (instance of, and those of class templates)
        self.class_props: frozenset[str] = frozenset(_CLASS_PROPS) | {
            wikidata_id(p) or p for t in pack.templates.values() for p in t.properties}
        self._lex_by_key: dict[str, list[tuple[LexiconEntry, str, tuple[str, ...]]]] = {}
        for lex in pack.lexicons:
            for e in lex.entries:
                for w in e.words:
                    keys = content_keys(w)
                    for k in keys[:1]:
                        self._lex_by_key.setdefault(k, []).append((e, w, keys))

    # ---- names of a symbol
    def names_of(self, sym: SymbolUse, pos: str | None = None) -> list[NameEntry]:
        """KG labels and aliases of a symbol and the lexicon words for it (only the entries
        for part of speech ``pos`` when it is given: "record" the verb, not the noun)."""
        return list(self.labels.names.get(sym.id, ())) + list(self._lexicon_names(sym.id, sym.symbol, pos))

    def _lexicon_names(self, sym_id: str, symbol: str, pos: str | None) -> tuple[NameEntry, ...]:
        key = (sym_id, symbol, pos)
        got = self._lex_names.get(key)
        if got is None:
            out = []
            for lex in self.pack.lexicons:
                for e in lex.entries:
                    if pos is not None and e.pos is not None and e.pos != pos:
                        continue
                    if any(wikidata_id(s) == sym_id or s == symbol for s in e.symbols):
                        for w in e.words:
                            keys = content_keys(w)
                            if keys:
                                out.append(NameEntry(sym_id, w, keys, label_shape(w), False))
            if len(self._lex_names) > 200_000:  # bounded on audits of millions of queries
                self._lex_names.clear()
            got = self._lex_names[key] = tuple(out)
        return got

    def label(self, sym_id: str) -> str:
        return self.labels.label(sym_id) or self._lexicon_label(sym_id) or sym_id

    def _lexicon_label(self, sym_id: str) -> str | None:
        for lex in self.pack.lexicons:
            for e in lex.entries:
                if any(wikidata_id(s) == sym_id for s in e.symbols):
                    return e.words[0]
        return None

    def unit_keys(self, u: Unit) -> set[str]:
        keys = set(u.keys)
        if self.wordnet is not None and u.kind not in ("named", "number"):
            keys |= self.wordnet.keys_for(u.lemma, u.pos if u.pos in ("n", "v", "a") else None)
        return keys

    def lexical_support(self, sym: SymbolUse, units: list[Unit]) -> tuple[float, str, str] | None:
        """How well the question's words name a property, whatever their syntax (used for
        statement qualifiers): (coverage, matched name, the question words)."""
        supports = self.lexical_supports(sym, units)
        return supports[0] if supports else None

    def lexical_supports(self, sym: SymbolUse, units: list[Unit]) -> list[tuple[float, str, str]]:
        """Every name of a property that the question's words say (:meth:`lexical_support`),
        best covered first (the first found among equals)."""
        keys: set[str] = set()
        for u in units:
            keys |= set(u.keys) | set(u.np_keys)
        found: list[tuple[float, str, str]] = []
        for n in self.names_of(sym):
            # a name word matches the question's word, or its verb when it names the doer
            # ("winner" for "won"); not a stem that only looks like a doer ("electoral" ->
            # "elector" is no name for "elected")
            agents = _doer_keys(n.name)
            matched = {k: {k} | ({_agent_base(k)} if k in agents else set()) for k in n.keys}
            hit = sum(1 for k in n.keys if matched[k] & keys)
            cov = hit / len(n.keys) if n.keys else 0.0
            if cov >= _MIN_COVERAGE:
                said = set().union(*matched.values())
                words = [u.text or u.lemma for u in units if said & (set(u.keys) | set(u.np_keys))]
                found.append((cov, n.name, ", ".join(dict.fromkeys(words))))
        return sorted(found, key=lambda f: -f[0])

    # ---- items by their names in the question text
    def _best_known_first_word(self, sym: SymbolUse, toks: Sequence[tuple[str, int, int]], words: list[str],
                               n: NameEntry, question: str) -> tuple[float, int, int] | None:
        """A capitalised label of two words written by its first word alone ("tupac" for
        *Tupac Shakur*, "leia" for *Leia Organa*, "galileo" for *Galileo Galilei*), when the
        item is the best known (the smallest Wikidata id) of the items whose name begins with
        that word or is that word ("apple" is the fruit's before *Apple Inc.*'s, "ellen"
        *Ellen Burstyn*'s before *Ellen DeGeneres*'s).  A first word of four letters or more,
        written as a word of the question; similarity :data:`PROMINENT_TAIL`, and the caller's
        checks of a shared last word apply (it must end its phrase)."""
        name = n.name
        if (not n.is_label or len(words) != 2 or "," in name or not all(w[:1].isupper() for w in name.split())
                or len(name.split()) != 2):
            return None
        first = words[0]
        keys = content_keys(first)
        if len(first) < 4 or not first.isalpha() or len(keys) != 1 or first.casefold() in _NAME_TITLES:
            return None
        found = _find_words(toks, [first])
        if found is None or found[0] < 0.999:
            return None
        i = next((i for i, t in enumerate(toks) if t[1] == found[1]), None)
        if i is None:
            return None
        if question != question.casefold():
            # in a question that writes capitals, not next to a capitalised word the name
            # lacks ("Teutonic Knights" is not *Teutonic Order*)
            after = toks[i + 1] if i + 1 < len(toks) else None
            before = toks[i - 1] if i > 0 else None
            if (after is not None and question[after[1]:after[1] + 1].isupper()) or (
                    before is not None and i - 1 > 0 and question[before[1]:before[1] + 1].isupper()
                    and before[0] not in _NAME_TITLES):
                return None
        if _around_another_name(self.labels, sym.id, toks, i, i, question):
            return None  # the words around it write another item's name ("richard pryor")
        key = keys[0]
        rivals = {e.symbol for e in self.labels.by_key.get(key, ())
                  if self.labels.kinds.get(e.symbol) in ("item", "class")
                  and ((e.name[:1].isupper() and e.keys[:1] == (key,)) or e.keys == (key,))}
        if not _best_known(sym.id, rivals | {sym.id}):
            return None
        return (PROMINENT_TAIL, found[1], found[2])

    def _sole_bearer_tail(self, sym: SymbolUse, toks: Sequence[tuple[str, int, int]], words: list[str],
                          n: NameEntry, question: str) -> tuple[float, int, int] | None:
        """A proper name of two or three content words written by its last one or two words
        alone: a surname ("tchaikovsky" for *Pyotr Ilyich Tchaikovsky*), a team's nickname
        ("the steelers" for *Pittsburgh Steelers*), when no other item of the memory has a
        name that ends with those words ("lincoln" is *Abraham Lincoln*'s and the city's,
        "obama" Barack's and Michelle's: neither names anything).  Longer names need most of
        their words (:func:`_distinctive_part`: "Fighting Falcon" is too little of *General
        Dynamics F-16 Fighting Falcon*).  The label is capitalised, has no comma (a
        title after it, "Diana, Princess of Wales", is no surname), and each content word of
        the part is capitalised in it ("Roman emperor" is not *emperor*); in a question that
        writes capitals, the part is not next to a capitalised word the name lacks ("Mary
        Lincoln", "Lincoln Center") other than a title ("President Lincoln"), and in any
        question the words around it do not make another item's label ("laura ingalls
        wilder" is not *Dan Ingalls*).  Similarity 0.8."""
        name = n.name
        if not name[:1].isupper() or "," in name or not 2 <= len(words) <= 8 or not 2 <= len(n.keys) <= 3:
            return None
        lowercase_question = question == question.casefold()
        for j in range(min(len(words) - 1, 6), 0, -1):
            part = words[-j:]
            keys = content_keys(" ".join(part))
            if not keys or len(keys) > 3 or tuple(n.keys[-len(keys):]) != tuple(keys) or len(keys) == len(n.keys):
                continue
            if len(keys) == 1 and (len(part[-1]) < 4 or not part[-1].isalpha()):
                continue
            written = name.split()[-j:] if len(name.split()) >= j else []
            if len(written) != j or not all(w[:1].isupper() for w, p in zip(written, part)
                                             if content_keys(p)):
                continue
            found = _find_words(toks, part)
            if found is None or found[0] < 0.999:
                continue
            i = next((i for i, t in enumerate(toks) if t[1] == found[1]), None)
            k = next((k for k, t in enumerate(toks) if t[2] == found[2]), None)
            if i is None or k is None:
                continue
            # the words around it complete another item's name ("laura ingalls wilder" is not
            # *Dan Ingalls*)
            if _around_another_name(self.labels, sym.id, toks, i, k, question):
                return None
            if not lowercase_question:
                before = toks[i - 1] if i > 0 else None
                after = toks[k + 1] if k + 1 < len(toks) else None
                if (before is not None and question[before[1]:before[1] + 1].isupper()
                        and before[0] not in _NAME_TITLES and before[0] not in words) or (
                        after is not None and question[after[1]:after[1] + 1].isupper()):
                    continue
            bearers = {e.symbol for e in self.labels.by_key.get(keys[-1], ())
                       if tuple(e.keys[-len(keys):]) == tuple(keys)
                       and self.labels.kinds.get(e.symbol) in ("item", "class")}
            if bearers == {sym.id}:
                return (0.8, found[1], found[2])
            namesakes = {e.symbol for e in self.labels.proper_names_ending(toks[k][0]) if e.symbol in bearers}
            if len(keys) == 1 and _best_known(sym.id, namesakes):
                # the best known of the proper names that end with the word as written (the
                # smallest Wikidata id): "lincoln" for *Abraham Lincoln*, "obama" for *Barack
                # Obama*, "the giants" for *New York Giants* (not *gas giant*, and "raiders" is
                # not *Tomb Raider*); a lower similarity says that the name is shared
                return (PROMINENT_TAIL, found[1], found[2])
            return None  # a shorter part is shared at least as widely
        return None

    def _span_links(self, sym: SymbolUse, units: list[Unit], question: str,
                    spans: dict[str, tuple[int, int]]) -> list[Link]:
        """Find a name of the item in the question (exact words, stems, or a near spelling for
        typos) and link the noun phrase whose span covers it."""
        if not question or not spans:
            return []
        toks = _question_tokens(question)
        best: tuple[float, int, int, str] | None = None
        head_only = False  # "H of M" for the name "M H": the phrase headed by H is the item
        tail_only = False  # the name's last words, which no other item's name ends with
        role_only = False  # a character's first or last name (:func:`_character_part`)
        first_only = False  # a label's first word, the whole of its phrase (:meth:`_best_known_first_word`)
        for n in self.names_of(sym):
            words = words_of(n.name)
            if not words or len(" ".join(words)) < 2:
                continue
            found = _find_words(toks, words)
            if found is None and len(words) >= 3:
                # a distinctive prefix of a long name ("National Autonomous University" for
                # "... of Mexico"): two content words or more and most of the name ("battle
                # of" is no prefix of *Battle of Yarmouk* that names it)
                found = _distinctive_part(toks, words, question)
            if found is None and len(words) >= 3 and n.name[:1].isupper() and "," not in n.name:
                # ... or a distinctive suffix of a long name, written capitalised ("F-16
                # Fighting Falcon" for *General Dynamics F-16 Fighting Falcon*); not a title
                # after a comma ("Duke of Cambridge" is no name of *Prince William, Duke of
                # Cambridge*)
                found = _distinctive_part(toks, words, question, tail=True)
            if found is None:
                found = _middle_name_match(toks, words, n.name, question)
            if found is None:
                found = _acronym_match(toks, question, n.name)
            by_tail = by_role = False
            if found is None:
                found = self._sole_bearer_tail(sym, toks, words, n, question)
                by_tail = found is not None
            if found is None and sym.id in self._roles:
                found = _character_part(toks, words, n.name)
                by_role = found is not None
            by_first = False
            if found is None:
                found = self._best_known_first_word(sym, toks, words, n, question)
                by_tail = by_first = found is not None  # the same checks as a shared last word
            inverted = False
            if found is None and not n.name[:1].isupper():  # common nouns only, not names
                found = _of_inversion(toks, words)
                inverted = found is not None
            if found is not None and (best is None or found[0] > best[0]):
                best = (found[0], found[1], found[2], n.name)
                head_only, tail_only, role_only, first_only = inverted, by_tail, by_role, by_first
        if best is None:
            best = self._name_inside_label(sym, units, question, toks, spans)
        if best is None:
            return []
        sim, a, b = best[0], best[1], best[2]
        headed = {u.var.name for u in units if isinstance(u.var, Var)
                  and u.kind in ("named", "noun", "relational_noun", "abstract")}
        if sim >= 0.999 and not head_only:
            a, b = _tightest_occurrence(toks, question, a, b, spans, headed)
        if sim < 0.999 and not (tail_only and sim == PROMINENT_TAIL):
            # a near spelling: not if the question names another item exactly (a surname that
            # is also a place's name is left to the best known bearer, above)
            written = question[a:b]
            keys = set(content_keys(written))
            exact = {n.symbol for n in self.labels.candidates(keys, kind="item")
                     if n.symbol != sym.id and set(n.keys) == keys and words_of(n.name) == words_of(written)}
            # an acronym of the item that other items are named by outright ("USA", a film)
            # is still the best known one's ("the usa": *United States of America*, Q30)
            if exact and not (sim == ACRONYM and _best_known(
                    sym.id, exact | self.labels.acronym_bearers(written.upper()) | {sym.id})):
                return []
        # the noun phrase that covers the match most tightly; when the parse split the name
        # over several noun phrases ("Go" + "Seigen"), every phrase inside the match
        covering = [(v, sa, sb) for v, (sa, sb) in spans.items()
                    if sa <= a + 1 and sb >= b - 1 and v in headed]
        if head_only:
            chosen = [v for v, (sa, sb) in spans.items() if abs(sa - a) <= 1 and v in headed][:1]
        elif covering:
            v, sa, sb = min(covering, key=lambda c: c[2] - c[1])
            if tail_only and sim == PROMINENT_TAIL and question[b:sb].strip(" '’s"):
                return []  # a shared surname must end its phrase ("luther" in "dr luther king jr")
            if first_only and any(w not in _NAME_TITLES and w not in ("the", "a", "an")
                                  for w in words_of(question[sa:a])):
                return []  # a first name must be the whole phrase ("richard" in "richard pryor")
            if sym.kind == "item" and self._other_items_name(sym, question[sa:sb], content_keys(question[a:b])):
                return []
            if (sym.kind == "item" and not best[3][:1].isupper() and words_beyond(question[sa:sb], content_keys(question[a:b]))
                    and any(u.kind == "named" and isinstance(u.var, Var) and u.var.name == v for u in units)):
                # a common noun inside a longer proper name ("lake" in "lake havasu city") is
                # part of that name, not the thing it names elsewhere
                return []
            chosen = [v]
        elif tail_only and sim == PROMINENT_TAIL:
            return []  # no phrase of the reading is headed by it
        else:
            chosen = [v for v, (sa, sb) in spans.items() if sa >= a - 1 and sb <= b + 1]
            if not chosen:
                over = [(v, sa, sb) for v, (sa, sb) in spans.items() if min(sb, b) - max(sa, a) > 0]
                chosen = [max(over, key=lambda c: min(c[2], b) - max(c[1], a))[0]] if over else []
        text = question[a:b]
        why = (f"'{best[3]}' ({sym.id}) is written in the question as '{text}'" if sim >= 0.999 else
               f"'{best[3]}' ({sym.id}) is written in the question by its first word, '{text}'; it is the best"
               f" known of the items whose name begins so (the smallest Wikidata id; similarity {sim:.2f})"
               if first_only else
               f"'{best[3]}' ({sym.id}) is written in the question by its last word, '{text}', which ends"
               f" other items' names too; it is the best known of them, the one with the smallest Wikidata"
               f" id (similarity {sim:.2f})" if tail_only and sim == PROMINENT_TAIL else
               f"'{best[3]}' ({sym.id}) is written in the question by its last words, '{text}', with which"
               f" no other item's name ends (similarity {sim:.2f})" if tail_only else
               f"'{best[3]}' ({sym.id}), the character the query names as a role, is written in the question"
               f" by one of its names, '{text}' (similarity {sim:.2f})" if role_only else
               f"'{best[3]}' ({sym.id}) is close to '{text}' in the question (similarity {sim:.2f})")
        out = []
        for var in chosen:
            heads = [u for u in units if isinstance(u.var, Var) and u.var.name == var
                     and u.kind in ("named", "noun", "relational_noun", "abstract")]
            if not heads:
                continue
            # a name is the best head for an item; a noun for a class
            heads.sort(key=lambda u: (u.kind != ("noun" if sym.kind == "class" else "named"), u.kind == "abstract", u.kind))
            if sym.kind == "class" and _split_name(heads[0], best[3]):
                continue
            link = self._make(heads[0], sym, best[3], "noun", sim, sim, why, self._entry_for(best[3], sym))
            if link is not None:
                out.append(link)
        return out

    def _name_inside_label(self, sym: SymbolUse, units: list[Unit], question: str,
                           toks: Sequence[tuple[str, int, int]], spans: dict[str, tuple[int, int]]
                           ) -> tuple[float, int, int, str] | None:
        """A proper name of the question written, whole, inside a longer label of the item:
        "Moldavia" in "Principality of Moldavia", "The Daily Show" in "The Daily Show with
        Trevor Noah", "Shivaji" in "Shivaji Bhonsle I".  The question's name must be a named
        noun phrase, capitalised, and all of it must occur as consecutive words of the label
        (so "Jimmy Carter" is not inside "Jimmy Wales"); at least a third of the label's
        content words.  Similarity 0.85, and, like a near spelling, refused when another item's
        label is exactly the question's name."""
        named = {u.var.name for u in units if u.kind == "named" and isinstance(u.var, Var)}
        best = None
        # the item's names without leading determiners, once for all the question's names
        names = []
        for n in self.names_of(sym):
            words = words_of(n.name)
            while words and words[0] in _DETERMINERS:
                words = words[1:]
            names.append((n, words))
        for var in named:
            if var not in spans:
                continue
            sa, sb = spans[var]
            inner = [t for t in toks if t[1] >= sa and t[2] <= sb]
            whole = inner
            while inner and inner[0][0] in _DETERMINERS:
                inner = inner[1:]
            if not inner or not question[inner[0][1]:inner[0][1] + 1].isupper():
                continue
            q_words = [t[0] for t in inner]
            if len(" ".join(q_words)) < 4:
                continue
            # the whole name as the question writes it: no capitalised word or number right
            # before or after ("Teutonic" of "Teutonic Knights", "Tony Awards" of "the 32nd
            # Tony Awards" are parts of longer names)
            i = toks.index(whole[0])
            j = toks.index(whole[-1])
            around = ([toks[i - 1]] if i > 1 else []) + ([toks[j + 1]] if j + 1 < len(toks) else [])
            if any(question[t[1]:t[1] + 1].isupper() or _DIGITS.search(t[0]) for t in around):
                continue
            for n, words in names:
                k = len(q_words)
                at = next((w for w in range(len(words) - k + 1) if words[w:w + k] == q_words), None)
                if k >= len(words) or at is None or _DIGITS.search(" ".join(words[:at] + words[at + k:])):
                    continue  # not inside, or the label's other words number it ("33rd Tony Awards")
                keys = content_keys(n.name)
                if not keys or len(set(content_keys(" ".join(q_words))) & set(keys)) < len(keys) / 3:
                    continue
                a, b = inner[0][1], inner[-1][2]
                if best is None or b - a > best[2] - best[1]:
                    best = (0.85, a, b, n.name)
        return best

    # ---- main entry
    def ground(self, units: list[Unit], query: Query, question: str = "",
               spans: dict[str, tuple[int, int]] | None = None) -> Grounding:
        g = Grounding(units=units)
        if len(self._alt_cache) > 5000:  # alternatives are reused across readings and queries
            self._alt_cache.clear()
        # literal objects of each property that the question writes (for $value templates)
        self._values: dict[str, list[Literal]] = {}
        # prepositions and the word each modifies (for $nameprep templates)
        self._modifiers: set[tuple[str, Term]] = {(u.pred, u.atom.args[1]) for u in units
                                                  if u.kind == "preposition" and len(u.atom.args) > 1}
        self._verbs = reading_verbs(units)  # for ``match.verbs``
        # the query's properties, as written in lexicon entries (for entries with several ``via``)
        self._query_props = set()
        for a in atoms(query.pattern):
            wid = wikidata_id(a.pred)
            self._query_props.add(f"wdt:{wid}" if wid else a.pred)
            if wid and len(a.args) == 2 and isinstance(a.args[1], Literal) and question \
                    and a.args[1].lexical.casefold() in question.casefold():
                self._values.setdefault(wid, []).append(a.args[1])
        # characters the query names as a role (*character role*): a character is often written
        # by one of its names alone ("who plays meg in family guy?")
        self._roles = {wikidata_id(a.args[1].value) for a in atoms(query.pattern)
                       if wikidata_id(a.pred) == CHARACTER_ROLE and len(a.args) == 2 and isinstance(a.args[1], IRI)}
        question_keys: set[str] = set()
        ukeys = {id(u): self.unit_keys(u) for u in units}
        syms = sorted(query_symbols(query, self.class_props), key=lambda s_: s_.kind == "property")
        near = self._misspelt_keys(units, syms)
        acronyms = _capitalised_words(units, question)
        for u in units:
            question_keys |= set(u.keys) | set(u.np_keys)
        # a noun counted by a number ("Does X have 3.2 masts?") says "number" ("number of masts")
        counted = {u.atom.args[1] for u in units if u.pred == "card" and len(u.atom.args) > 1}
        if any(u.kind in ("noun", "relational_noun") and u.var in counted for u in units):
            question_keys.add("number")
        # items, classes and literals first: a word written as part of an item's name
        # ("... Second Edition on CD-ROM, Version 4.0") does not also name a property
        in_names: set[int] = set()
        for sym in syms:
            if sym.kind == "qualifier":
                continue  # qualifiers are checked lexically by the deductive layer
            if sym.kind == "literal":
                links = self._literal_links(sym, units, question, spans)
            elif sym.kind in ("item", "class"):
                links = self._span_links(sym, units, question, spans or {})
                if sym.kind == "item":
                    in_names |= {id(l.unit) for l in links if l.names_item}
                if not links:
                    links = self._symbol_links(sym, units, ukeys, question_keys, g, question, near, acronyms)
                elif sym.kind == "item" and self._valued_items().get(sym.id):
                    # the question names the item and a word elsewhere gives something it as a
                    # value through an entry of template noun_of_item_value ("the NFPA Health
                    # for DDT ... as NFPA 704: ...": the rating belongs to DDT's NFPA 704
                    # classification)
                    named = {id(l.unit) for l in links}
                    rest = [u for u in units if id(u) not in named and u.kind in ("noun", "relational_noun")
                            and set(u.keys) & self._valued_items()[sym.id]]
                    links += [l for l in self._symbol_links(sym, rest, ukeys, question_keys, g, question,
                                                            near, acronyms)
                              if l.entry is not None and l.entry.template == "noun_of_item_value"]
            else:
                heads = self._value_heads(sym, g.links, query)
                free = [u for u in units if id(u) not in in_names or id(u) in heads]
                links = self._symbol_links(sym, free, ukeys, question_keys, g, question, near, acronyms)
                links += self._preposition_links(sym, free)
            if not links:
                g.unsupported.append(sym)
            g.links.extend(links)
        self._pronoun_links(units, g, question)
        g.links = _without_superseded(self._without_class_word_aliases(g.links))
        return g

    def _value_heads(self, sym: SymbolUse, links: Sequence[Link], query: Query) -> set[int]:
        """The noun units that head a name of an item the query gives as a value of the
        property ``sym``, whose word is the last word of that name (and of the property's
        label or of one of its aliases: Wikidata names such values after the property,
        "King James Version" is a *version*, "weak interaction" an *interaction*).  Such a
        noun names the property as well as the item ("What written work has a King James
        version?": has edition or translation(x, King James Version)), although a word written
        as part of an item's name names no property otherwise.  Only when no other word names
        the item (the property would relate it to itself: "a mythological Greek character"
        read with "Greek" as the item too)."""
        pid = wikidata_id(sym.symbol)
        if pid is None:
            return set()
        values = {a.args[1].value for a in atoms(query.pattern)
                  if wikidata_id(a.pred) == pid and len(a.args) == 2 and isinstance(a.args[1], IRI)}
        if not values:
            return set()
        prop_heads = {n.keys[-1] for n in self.labels.names.get(pid, ()) if n.keys}
        naming: dict[str, set[int]] = {}  # item -> the units that name it
        for l in links:
            if l.names_item:
                naming.setdefault(l.symbol.symbol, set()).add(id(l.unit))
        out: set[int] = set()
        for l in links:
            if not (l.names_item and l.symbol.symbol in values and l.unit.kind in ("noun", "relational_noun")):
                continue
            if len(naming[l.symbol.symbol]) > 1:
                continue  # another word names the item too ("Greek" of "a mythological Greek character")
            keys = content_keys(l.name)
            if keys and keys[-1] in l.unit.keys and keys[-1] in prop_heads:
                out.add(id(l.unit))
        return out

    def _without_class_word_aliases(self, links: list[Link]) -> list[Link]:
        """The links without those to a property of containment (:data:`_CONTAINERS`) made
        through a one-word alias that is a noun itself, when the noun also names a class the
        query uses: "cities" in "Give me all cities in New Jersey" names the class *city*;
        that "city" is also an alias of *located in the administrative territorial entity*
        would make the noun templates read "cities in New Jersey" as New Jersey located in the
        cities (and "what cities are in Oakland County" prove Oakland County located in the
        cities).  Other properties keep such links ("the home stadium for the Chicago Bears"
        is *home venue* through its alias "stadium"); so do a name reached through the noun's
        phrase (in "the capital city of X", "city" links *capital*), the property's label
        ("Which countries have more than ten caves?": *country* is the label of P17, and the
        caves' country is what is asked) and lexicon entries."""
        class_units = {id(l.unit) for l in links if l.symbol.kind == "class"}
        return [l for l in links if not (
            l.symbol.kind == "property" and l.entry is None and wikidata_id(l.symbol.symbol) in _CONTAINERS
            and l.unit.kind in ("noun", "relational_noun") and id(l.unit) in class_units
            and len(words_of(l.name)) == 1 and set(content_keys(l.name)) <= set(l.unit.keys)
            and l.name.casefold() != self.label(l.symbol.id).casefold())]

    def _misspelt_keys(self, units: list[Unit], syms: Sequence[SymbolUse]) -> dict[int, set[str]]:
        """Name keys of the query's properties and classes that a word of the question
        misspells: a word the grammar does not know (an unknown-word predicate such as
        ``_subsidary/nn_u_unknown``) and WordNet does not list either, one edit away from a
        name word of at least five letters ("subsidary" for *subsidiary*, "bominated" for
        *nominated*; two edits from one of nine letters or more).  Without WordNet there is no
        dictionary to tell a typo from a rare word, and nothing is read as misspelt.

        An item's name may be misspelt the same way ("lroquois" for *Iroquois*, "Toranto" for
        *Toronto*, "Eduador" for *Ecuador*): a word of a name or of an unknown noun that no
        label or alias in the KG's labels has, WordNet does not list and no lexicon entry
        uses ("pakistani" is a demonym, not a slip for *Pakistan*), one edit from a
        name word of one of the query's items.  ``self._fixes`` keeps, per misspelt key, the
        name keys it stands for (an item's name must cover the whole name phrase)."""
        self._fixes = {}
        if self.wordnet is None:
            return {}
        unknown = [u for u in units
                   if u.kind in ("noun", "relational_noun", "verb", "adjective") and "_u_unknown" in u.pred
                   and len(u.lemma) >= 6 and u.lemma.casefold() not in self.wordnet.related]
        # name words of no KG name at all: the query's items are the only candidates
        unknown_ids = {id(u) for u in unknown}
        if self._lexicon_keys is None:  # lexicon words are known words ("pakistani")
            self._lexicon_keys = frozenset(k for lex in self.pack.lexicons for e in lex.entries
                                           for w in e.words for k in content_keys(w))
        strange = {id(u): {k for k in u.keys if len(k) >= 5 and k not in self.labels.by_key
                           and k not in self.wordnet.related and k not in self._lexicon_keys}
                   for u in units if u.kind == "named" or id(u) in unknown_ids}
        strange = {i: ks for i, ks in strange.items() if ks}
        if not unknown and not strange:  # most readings: no name keys to collect
            return {}
        name_keys = {k for s_ in syms if s_.kind in ("property", "class")
                     for n in self.names_of(s_) for k in n.keys if len(k) >= 5}
        item_keys = {k for s_ in syms if s_.kind == "item"
                     for n in self.names_of(s_) for k in n.keys if len(k) >= 5}
        misspelt: dict[str, set[str]] = {}
        for u in units:
            for k in u.keys:
                pools = ([name_keys] if id(u) in unknown_ids and k not in name_keys else []) + \
                    ([item_keys] if k in strange.get(id(u), ()) else [])
                near = {m for pool in pools for m in pool
                        if within_edits(k, m, 2 if min(len(k), len(m)) >= 9 else 1)}
                if near:
                    misspelt[k] = near
        self._fixes = misspelt
        # the word itself, and the head of its noun phrase ("the elCinaema ID": "ID" stands for
        # the phrase, whose words must name *elCinema person ID*)
        out: dict[int, set[str]] = {}
        for u in units:
            for k in set(u.keys) | set(u.np_keys):
                if k in misspelt:
                    out.setdefault(id(u), set()).update(misspelt[k])
        return out

    def listed_prepositions(self, sym: SymbolUse, units: Iterable[Unit], *,
                            qualifier: bool = False) -> list[tuple[LexiconEntry, Unit, str]]:
        """(entry, unit, word) for each preposition among ``units`` whose word a lexicon entry
        for prepositions (``pos: p``) lets stand for ``sym`` ("in" -> country | continent |
        located in ...; "after" -> replaces); for a statement's ``qualifier``, which qualifies
        what a verb says, not the entries for a preposition on a thing only."""
        out = []
        for lex in self.pack.lexicons:
            for e in lex.entries:
                if e.pos != "p" or not any(wikidata_id(s) == sym.id or s == sym.symbol for s in e.symbols):
                    continue
                if qualifier and self._relates_things_only(e):
                    continue  # "Jeremiah in the Nevi'im" (part of the series) qualifies no statement
                for u in units:
                    word = (u.lemma.split() or [""])[0]
                    if u.kind == "preposition" and word in e.words:
                        out.append((e, u, word))
        return out

    def _relates_things_only(self, e: LexiconEntry) -> bool:
        """Whether a preposition entry's template applies only to a preposition on a thing
        (its first argument an instance, ``match.expressed: [1]``), never on a verb's event
        (``preposition_relation_sequence``)."""
        template = self.pack.templates.get(e.template)
        return template is not None and 1 in template.match.expressed

    def _preposition_links(self, sym: SymbolUse, units: list[Unit]) -> list[Link]:
        """Prepositions that a lexicon entry (``pos: p``) lets stand for ``sym``: one link per
        preposition of the question whose word the entry lists.  Prepositions never link
        through KG labels."""
        out: list[Link] = []
        for e, u, word in self.listed_prepositions(sym, units):
            reason = (f"lexicon {e.source.file.rsplit('/', 1)[-1] if e.source else ''}: "
                      f"'{word}' may stand for {sym.symbol}")
            link = self._make(u, sym, word, "prep", 1.0, 1.0, reason, e)
            if link is not None:
                out.append(link)
        return out

    def _pronoun_links(self, units: list[Unit], g: Grounding, question: str = "") -> None:
        """Third-person pronouns ("he", "it") corefer with the question's only named item, or,
        when it names none, with the only item a noun of it names ("What is the drug treatment
        for anxiety and how is it measured?": *anxiety*), unless the question tests a name
        ("... whose name has the word war in it": the pronoun is the answer's name)."""
        from verifier.intent import surface_name_test  # intent imports this module

        pronouns = [u for u in units if u.kind == "pronoun" and u.text.casefold() in _THIRD_PERSON]
        t = self.pack.templates.get("pronoun_reference")
        if not pronouns or t is None:
            return
        items = {l.symbol.symbol: l for l in g.links if l.symbol.kind == "item" and l.unit.kind == "named"}
        if not items and not surface_name_test(question):
            nouns = {l.symbol.symbol: l for l in g.links if l.symbol.kind == "item" and l.unit.kind == "noun"}
            items = nouns if len(nouns) == 1 else {}
        if not items:
            return
        antecedents = {id(u): next(iter(items.values())) for u in pronouns} if len(items) == 1 else \
            _bound_possessives(pronouns, units, g)
        for u in pronouns:
            item_link = antecedents.get(id(u))
            if item_link is None:
                continue
            f = instantiate(t, u, {"$item": item_link.symbol.symbol})
            g.links.append(Link(u, item_link.symbol, item_link.name, "noun", 1.0, 1.0,
                                f"'{u.text}' refers to '{item_link.unit.text}'", None,
                                (Axiom(f"pronoun_reference: {u.text} -> {item_link.symbol.symbol}", f,
                                       "pronoun_reference", "coreference"),)))

    def _literal_links(self, sym: SymbolUse, units: list[Unit], question: str = "",
                       spans: dict[str, tuple[int, int]] | None = None) -> list[Link]:
        out = []
        lit = sym.term
        if isinstance(lit, Literal) and lit.kind == "string" and len(lit.lexical) >= 2 and question and spans:
            found = _find_words(_question_tokens(question), words_of(lit.lexical))
            if found is not None and found[0] >= 0.999:
                a, b = found[1], found[2]
                for var, (sa, sb) in spans.items():
                    if min(sb, b) - max(sa, a) <= 0:
                        continue
                    for u in units:
                        if isinstance(u.var, Var) and u.var.name == var and u.kind in ("noun", "named", "relational_noun"):
                            out.append(self._make(u, sym, lit.lexical, "any", 1.0, 1.0,
                                                  f"the string '{lit.lexical}' is written in the question"))
                            break
            return [l for l in out if l is not None]
        for u in units:
            if u.kind == "number" and isinstance(lit, Literal):
                stated = with_written_sign(Literal(u.lemma), question).lexical
                a, b = _number_value(stated), _number_value(lit.lexical)
                same = (a == b) if a is not None and b is not None else u.lemma == lit.lexical
                if same:
                    out.append(self._make(u, sym, u.lemma, "any", 1.0, 1.0, f"the number {u.lemma} is in the question"))
        return [l for l in out if l is not None]

    def _score(self, names: Iterable[NameEntry], direct: set[str], wn: set[str],
               context: set[str], wn_weight: float = 0.6,
               thing_noun: bool = False) -> tuple[float, float, NameEntry | None]:
        """Best (score, coverage, name) of a symbol's names for one unit.

        A name word counts 1.0 when the unit itself says it (or its agent noun: develop ->
        developer), 0.9 when another word of the question does, 0.6 through WordNet; a name
        needs at least one word from the unit.  The score adds 0.05 per question word that
        any of the symbol's names explains, so that "place of birth" beats "date of birth"
        for "where ... born" although both have the alias "born ...".  With ``thing_noun``
        (a noun that does not name a doer) neither its verb stem nor WordNet's relations reach
        a name's doer word: "inventions" (stem "invent") is related to "inventor", but an
        invention is what the inventor makes, so the noun does not stand for the inventor's
        role.
        """
        best: tuple[float, float, NameEntry | None] = (0.0, 0.0, None)
        explained: set[str] = set()
        for n in names:
            total, anchored = 0.0, False
            hits = []
            doers = _doer_keys(n.name) if thing_noun else frozenset()
            for k in n.keys:
                if k in direct or (_agent_base(k) in direct and k not in doers):
                    w, anchored = 1.0, True
                elif k in wn and k not in doers:
                    w, anchored = wn_weight, True
                elif k in context:
                    w = 0.9
                else:
                    continue
                total += w
                if k in context or k in direct:
                    hits.append(k)
            if not anchored:
                continue
            explained.update(hits)  # only names that the unit itself anchors explain words
            cov = total / len(n.keys)
            # among equally good names prefer the label, then names shaped like the label
            # (Wikidata aliases are sometimes phrased in the inverse direction)
            if best[2] is None or (cov, self._name_rank(n)) > (best[1], self._name_rank(best[2])):
                best = (cov, cov, n)
        if best[2] is None:
            return best
        return (best[1] + 0.05 * len(explained), best[1], best[2])

    def _name_rank(self, n: NameEntry) -> tuple[int, int]:
        label = self.labels.label(n.symbol)
        return (1 if n.is_label else 0, 1 if label and label_shape(label) == n.shape else 0)

    def _valued_items(self) -> dict[str, frozenset[str]]:
        """Item id -> keys of the nouns that lexicon entries of template
        ``noun_of_item_value`` link to it (a part of a classification: "health" -> NFPA 704
        via safety classification and labelling)."""
        if self._valued is None:
            out: dict[str, set[str]] = {}
            for lex in self.pack.lexicons:
                for e in lex.entries:
                    if e.template == "noun_of_item_value" and e.via:
                        for sym in e.symbols:
                            wid = wikidata_id(sym)
                            if wid:
                                out.setdefault(wid, set()).update(k for w in e.words for k in content_keys(w))
            self._valued = {k: frozenset(v) for k, v in out.items()}
        return self._valued

    def _demonym_keys(self) -> dict[str, frozenset[str]]:
        """Matching key of each word that a lexicon entry reads as "of COUNTRY" (template
        ``adjective_item_of``: "the French president" is the president of France) -> the keys
        of the country's label: "the Australian Senate" writes the name *Senate of Australia*,
        "the Brazilian national soccer team" *Brazil national football team*."""
        if self._demonyms is None:
            out: dict[str, set[str]] = {}
            for lex in self.pack.lexicons:
                for e in lex.entries:
                    if e.template != "adjective_item_of":
                        continue
                    for sym in e.symbols:
                        label = self.labels.label(wikidata_id(sym) or sym)
                        if not label:
                            continue
                        for w in e.words:
                            for k in content_keys(w):
                                out.setdefault(k, set()).update(content_keys(label))
            self._demonyms = {k: frozenset(v) for k, v in out.items()}
        return self._demonyms

    def _symbol_links(self, sym: SymbolUse, units: list[Unit], ukeys: dict, question_keys: set[str],
                      g: Grounding, question: str = "", near: dict[int, set[str]] | None = None,
                      acronyms: dict[int, str] | None = None) -> list[Link]:
        """Links of ``sym`` from the words of ``units``; ``near`` holds, per unit, the name keys
        its misspelt words stand for (:meth:`_misspelt_keys`), ``acronyms`` the units the
        question writes in capitals (:func:`_capitalised_words`)."""
        names_by_pos = {p_: self.names_of(sym, p_) for p_ in {u.pos for u in units}}
        kind = sym.kind
        # an identifier's name may be written without "ID" ("What is Museofile of X?" for P539
        # "Museofile ID"); not for the alternatives that could overrule it
        context = question_keys | _IMPLIED_KEYS
        out: list[Link] = []
        for u in units:
            names = names_by_pos[u.pos]
            if kind == "property" and (u.kind in ("number", "preposition")
                                       or (u.kind == "named" and sym.id not in self._values)):
                continue  # a name names a property only next to a value ("InChIKey K")
            if kind in ("item", "class") and u.kind in ("verb", "preposition", "number"):
                if kind == "item" or u.kind != "verb":
                    continue
                # a verb names a class only through a lexicon entry that says so ("What should
                # you see in London?": a tourist attraction there)
                names = list(self._lexicon_names(sym.id, sym.symbol, u.pos))
                if not names:
                    continue
            direct = set(u.keys) | set(u.np_keys) | (near or {}).get(id(u), set())
            acronym = (acronyms or {}).get(id(u))
            if acronym:  # the question writes the word in capitals as the acronym of a name ("IDLH")
                direct |= {k for n in names if initials(n.name) == acronym for k in n.keys}
            wn = ukeys[id(u)] - direct
            thing = u.kind in ("noun", "relational_noun") and not is_agentive(u.lemma)
            if kind == "property":
                score, cov, n = self._score(names, direct, wn, context, thing_noun=thing)
                if n is None or cov < _MIN_COVERAGE:
                    continue
            else:
                # a class may be named by a synonym ("Roman god" for *Roman deity*); an item
                # by its own name only
                score, cov, n = self._score(names, direct, wn if kind == "class" else set(), set(), 1.0)
                if (n is None or cov < 0.99) and u.np_keys:
                    # a demonym in the noun phrase writes its country's name inside a name of
                    # several words ("the Brazilian national soccer team": *Brazil national
                    # football team*); never the country alone ("russian people" is no Russia)
                    demonyms = self._demonym_keys()
                    dem = {k for d in u.np_keys for k in demonyms.get(d, ())} - direct
                    several = [m for m in names if set(m.keys) & dem and set(m.keys) - dem]
                    if several:
                        score, cov, n = self._score(several, direct | dem,
                                                    wn if kind == "class" else set(), set(), 1.0)
                if n is None or cov < 0.99 or (kind == "class" and _split_name(u, n.name)):
                    continue
                if u.kind == "named":  # the whole name must be in the noun phrase and vice versa
                    cov2, _ = _coverage(u.np_keys or u.keys, set(n.keys) | {
                        k for k in (u.np_keys or u.keys) if self._fixes.get(k, set()) & set(n.keys)})
                    if cov2 < 0.5:
                        continue
                    # ... and a part of it names no item when the whole noun phrase is another
                    # item's label ("Bart Simpson" is not *The Simpsons*)
                    if cov2 < 1.0 and u.text and self._other_items_name(sym, u.text, n.keys):
                        continue
                elif kind == "item" and u.kind == "noun" and "_u_unknown" in u.pred and u.text and \
                        self._other_items_name(sym, u.text, n.keys):
                    continue  # an unknown word heading another item's name ("new york mets")
            # a lexicon entry says outright that the word names the symbol: another symbol's
            # label or alias does not overrule it ("position" -> position held, although
            # "position" is an alias of location)
            # nor does it overrule a label that the word's own phrase writes in full ("What
            # business publishes X": P123 publisher, although "publish" also names
            # publication date)
            entry = self._entry_for(n.name, sym, u.pos)
            if entry is not None and (meant := self._sibling_written(entry, sym, question)):
                g.dominated.append((sym, u, n.name, score, meant, 1.0))
                continue
            if entry is None or entry.pos != u.pos:
                # the word itself is a lexicon word of the symbol for a template that only
                # lexicon entries use: that reading of the word is linked too, even when a
                # label or alias names the symbol better ("time" for *point in time* in "When
                # was the Battle of Gettysburg?", "lyrics" for *lyrics by* alias "lyricist"),
                # or when the better name has an entry of its own for no part of speech in
                # particular ("place" for *location*, whose label is a word of the entry
                # "location, place" for noun_of)
                own = next((m for m in names if m.name == u.lemma and not m.is_label), None)
                own_entry = self._entry_for(own.name, sym, u.pos) if own is not None else None
                template = self.pack.templates.get(own_entry.template) if own_entry is not None else None
                if (template is not None and template.label_shapes == ("lexicon",)
                        and own_entry is not entry):
                    extra = self._link_with_name(u, sym, own, score, cov, own_entry, only_entry=True)
                    if extra is not None:
                        out.append(extra)
            written = n.is_label and bool(n.keys) and (
                all(k in direct for k in n.keys)
                # ... or that the question writes word for word around the unit's words when
                # the reading splits it ("coat of arms" as "coat" and "arms"): "arms" alone is
                # an alias of *coat of arms image*, which must not overrule *coat of arms*
                or (len(n.keys) >= 2 and set(u.keys) <= set(n.keys)
                    and _label_written(question, n.name)))
            # ... also when the unit's best name is an alias ("from work" for *present in
            # work*, in "the work present in the work of Confucius")
            if not written and entry is None and not n.is_label:
                label = self.labels.label(sym.id) or ""
                lkeys = content_keys(label)
                written = (len(lkeys) >= 2 and set(u.keys) <= set(lkeys)
                           and _label_written(question, label))
            alt = (None if entry is not None or written
                   else self._dominating_alternative(sym, u, n, score, direct, wn, question_keys,
                                                     names))
            if alt is not None:
                g.dominated.append((sym, u, n.name, score, alt[0], alt[1]))
                continue
            if kind == "property" and entry is None and (_head_elsewhere(u, n, units)
                                                         or _preposition_elsewhere(u, n, names, question)
                                                         or _doer_of_abstract(u, n)):
                continue
            link = self._link_with_name(u, sym, n, score, cov, entry)
            if link is None and kind == "property":
                # no template fits the best name's shape for this kind of word ("educated at"
                # for the noun "education"): the best name of another shape may ("education")
                failed = {n.shape}
                while link is None:
                    rest = [m for m in names if m.shape not in failed]
                    score, cov, n = self._score(rest, direct, wn, question_keys, thing_noun=thing)
                    if n is None or cov < _MIN_COVERAGE:
                        break
                    failed.add(n.shape)
                    link = self._link_with_name(u, sym, n, score, cov)
            if link is not None:
                out.append(link)
        return out

    def _other_items_name(self, sym: SymbolUse, phrase: str, own_keys: Sequence[str]) -> bool:
        """Whether ``phrase``, which writes more than the words ``own_keys`` of a name of
        ``sym`` (titles aside), is another item's label: a name that is part of a longer
        proper name ("Mexico" in "new mexico", "Simpson" in "Bart Simpson") does not name
        ``sym`` there ("sir isaac newton" still names *Isaac Newton*)."""
        if not words_beyond(phrase, own_keys):
            return False
        phrases = [phrase]
        if phrase == phrase.casefold():
            # in lower case, also without an article: "the new york mets" is the Mets' name
            # (with capitals the article is no part of a name, and "the Japanese language"
            # still names *Japanese* although an obscure item is labelled "Japanese Language")
            phrases.append(re.sub(r"^\s*(?:the|a|an)\s+", "", phrase, flags=re.I))
        return any(e.symbol != sym.id for p in dict.fromkeys(phrases)
                   for e in self.labels.labels_written_as(p))

    def _sibling_written(self, entry: LexiconEntry, sym: SymbolUse, question: str) -> str | None:
        """Another symbol of a lexicon entry of several (ANY) that links ``sym``, when the
        question writes that one by its whole label and not ``sym``'s, both labels ending in
        the same word ("the official language of X" for the entry "language" -> official
        language, native language ...): it is meant."""
        if len(entry.symbols) < 2 or not question:
            return None
        label = self.labels.label(sym.id) or ""
        if _label_written(question, label) or not words_of(label):
            return None
        for other in entry.symbols:
            wid = wikidata_id(other)
            if wid and wid != sym.id:
                olabel = self.labels.label(wid) or ""
                if (len(content_keys(olabel)) >= 2 and words_of(olabel)[-1] == words_of(label)[-1]
                        and _label_written(question, olabel)):
                    return wid
        return None

    def _link_with_name(self, u: Unit, sym: SymbolUse, n: NameEntry, score: float,
                        cov: float, entry: LexiconEntry | None = None, only_entry: bool = False) -> Link | None:
        """The link of a unit to a symbol through one of its names (None: no template fits);
        ``entry``: the lexicon entry of that name, when the caller has looked it up;
        ``only_entry``: through that entry's templates only."""
        if entry is None:
            entry = self._entry_for(n.name, sym)
        reason = (f"lexicon {entry.source.file.rsplit('/', 1)[-1] if entry and entry.source else ''}: "
                  f"'{n.name}' -> {sym.symbol}" if entry else
                  f"{'label' if n.is_label else 'alias'} '{n.name}' of {sym.id} matches '{u.text or u.lemma}'")
        return self._make(u, sym, n.name, n.shape, score, cov, reason, entry, only_entry)

    def _siblings(self, entry: LexiconEntry | None) -> list[LexiconEntry]:
        """``entry`` and the other entries for the same words, part of speech and symbols
        (a word may name a symbol through several templates: "marry" -> spouse as a
        transitive verb and, with a coordinated subject, reciprocally)."""
        if entry is None:
            return []
        out = [entry]
        for lex in self.pack.lexicons:
            for e in lex.entries:
                if (e is not entry and e.symbols == entry.symbols and e.pos == entry.pos
                        and set(e.words) & set(entry.words)):
                    out.append(e)
        return out

    def _entry_for(self, name: str, sym: SymbolUse, pos: str | None = None) -> LexiconEntry | None:
        """The lexicon entry that gives ``sym`` the name ``name``; with ``pos``, an entry for
        that part of speech whose word is the name or has its stem wins ("married" found for
        the verb "marry": the verb's entries, not the adjective's)."""
        keys = content_keys(name) if pos is not None else ()
        fallback = None
        for lex in self.pack.lexicons:
            for e in lex.entries:
                same_pos = pos is not None and e.pos == pos
                named = name in e.words
                if not (named or (same_pos and any(content_keys(w) == keys for w in e.words))):
                    continue  # the cheap test first: most entries have other words
                if not any(wikidata_id(s) == sym.id or s == sym.symbol for s in e.symbols):
                    continue
                if same_pos:
                    return e
                if fallback is None and named:
                    fallback = e
        return fallback

    def _dominating_alternative(self, sym: SymbolUse, u: Unit, n: NameEntry, score: float,
                                direct: set[str], wn: set[str], question_keys: set[str],
                                names: Iterable[NameEntry] = ()) -> tuple[str, float, str, frozenset[str]] | None:
        """Another symbol that the unit's words name better than ``sym`` (through its name
        ``n`` with ``score``), or None.  The best other symbol overrules it when it scores
        higher, unless its name accounts for only some of the unit's words that a name of
        ``sym`` (``n`` or one of ``names``) accounts for ("the highest Strahler number":
        *issue*, alias "number", does not overrule *maximum Strahler number*); and for a
        property named by some of the unit's own words (not only through WordNet), any other
        property whose name accounts for all of them and more does ("number" does not name
        *issue* there)."""
        alts = [a for a in self._alternatives_for(sym, u, direct, wn, question_keys) if a[0] != sym.id]
        if not alts:
            return None
        # the most of the unit's words that any name of ``sym`` says: *located in the
        # administrative territorial entity* is best named "territory" for the noun phrase
        # "administrative territorial entity", but its alias of those three words says as much
        # as *located in the present-day administrative territorial entity* does
        own = max((_anchored_keys(m, direct) for m in (n, *names)), key=len)
        best = alts[0]
        if best[1] > score + _DOMINANCE_MARGIN and not best[3] < own:
            return best
        if sym.kind == "property" and own:
            return next((a for a in alts if a[3] > own), None)
        return None

    def _alternatives_for(self, sym: SymbolUse, u: Unit, direct: set[str], wn: set[str],
                          question_keys: set[str]) -> list[tuple[str, float, str, frozenset[str]]]:
        """The symbols of ``sym``'s kind that the unit's words name, best first (id, score,
        name, and the keys of that name that the unit's words say: :func:`_anchored_keys`)."""
        kind = "property" if sym.kind == "property" else "item"
        # what the scores depend on: ``direct`` also holds the keys a misspelt word stands for,
        # which depend on the query's symbols, not on the unit alone
        cache_key = (u.pred, frozenset(direct), frozenset(wn), kind, frozenset(question_keys))
        per_symbol = self._alt_cache.get(cache_key)
        if per_symbol is None:
            by_symbol: dict[str, list[NameEntry]] = {}
            for n in self.labels.candidates(direct, kind=kind, limit=400):
                by_symbol.setdefault(n.symbol, []).append(n)
            per_symbol = []
            for sid in by_symbol:
                ns = self.labels.names.get(sid, by_symbol[sid])  # all its names, not only the ones found
                if kind == "property":
                    score, cov, best = self._score(ns, direct, wn, question_keys)
                    ok = best is not None and cov >= _MIN_COVERAGE
                else:
                    score, cov, best = self._score(ns, direct, set(), set())
                    ok = best is not None and cov >= 0.99
                if ok:
                    per_symbol.append((sid, score, best.name, _anchored_keys(best, direct)))
            # ties in id order (P131 before P13802): the candidates come in hash order, and the
            # explanation must not name a different alternative from one run to the next
            per_symbol.sort(key=_by_score_then_id)
            self._alt_cache[cache_key] = per_symbol
        return per_symbol

    def alternatives(self, u: Unit, kind: str = "property", k: int = 3) -> list[tuple[str, float, str]]:
        """The best ``k`` symbols of a kind for a unit (for explanations)."""
        keys = self.unit_keys(u)
        scored = {}
        for n in self.labels.candidates(keys, kind=kind):
            cov, hit = _coverage(n.keys, keys | set(u.np_keys))
            if cov >= _MIN_COVERAGE:
                s = cov + 0.1 * hit
                if s > scored.get(n.symbol, (0, ""))[0]:
                    scored[n.symbol] = (s, n.name)
        return sorted(((sid, s, nm) for sid, (s, nm) in scored.items()), key=_by_score_then_id)[:k]

    # ---- templates
    def _make(self, u: Unit, sym: SymbolUse, name: str, shape: str, score: float, cov: float,
              reason: str, entry: LexiconEntry | None = None, only_entry: bool = False) -> Link | None:
        if sym.kind == "property" and shape == "prep" and u.kind == "verb" \
                and _other_preposition(name, u, self._modifiers):
            return None  # "flow through X" is not "flows into" (mouth of the watercourse)
        templates = self._templates_for(u, sym, shape, entry, only_entry)
        # an entry's value properties: the one it names, or of several (ANY) those that the
        # query uses (a property the query does not use has nothing to prove); all of them
        # when it uses none (``verifier axioms show``, which grounds no query)
        vias: tuple[str | None, ...] = (None,)
        if entry is not None and entry.via:
            vias = tuple(v for v in entry.via if v in self._query_props) or entry.via
        axioms = []
        for t, via in ((t, v) for t in templates for v in vias):
            bindings: dict[str, str | Term] = {}
            if sym.kind == "property":
                bindings["$prop"] = f"wdt:{sym.id}" if wikidata_id(sym.symbol) else sym.symbol
            elif sym.kind == "item":
                bindings["$item"] = f"wd:{sym.id}"
            elif sym.kind == "class":
                bindings["$class"] = f"wd:{sym.id}"
                if sym.via:
                    bindings["$prop"] = sym.via
            elif sym.kind == "literal" and sym.term is not None:
                bindings["$value"] = sym.term
            if via is not None:
                bindings["$prop"] = via
            if sym.kind == "property" and self._values.get(sym.id):
                bindings["$value"] = self._values[sym.id][0]
            if sym.kind == "property" and shape == "prep":
                # only when the question puts that preposition on this word ("the enclave
                # within X"): else the word's other names may fit ("the equivalent of X")
                bindings["$nameprep"] = tuple(p for p in _preposition_preds(name, u.lemma)
                                              if (p, u.var) in self._modifiers)
            try:
                f = instantiate(t, u, bindings)
            except ValueError as e:
                log.debug("template %s not applicable: %s", t.name, e)
                continue
            axioms.append(Axiom(f"{t.name}: {u.pred} -> {sym.symbol}" + (f" via {via}" if len(vias) > 1 else ""),
                                f, t.name, reason))
        if not axioms:
            return None
        return Link(u, sym, name, shape, score, cov, reason, entry, tuple(axioms))

    def _admits(self, t: Template, u: Unit) -> bool:
        """Whether the template's match admits the unit's arguments and the verbs of its
        reading (``match.verbs``)."""
        return t.match.admits(u.atom.args) and t.match.admits_verbs(self._verbs)

    def _templates_for(self, u: Unit, sym: SymbolUse, shape: str, entry: LexiconEntry | None,
                       only_entry: bool = False) -> list[Template]:
        """The entry's template (when a lexicon made the link) and every template that fits
        the unit's kind, the symbol's kind and the name's shape (not with ``only_entry``)."""
        first: list[Template] = []
        shape_from_entry = False
        siblings = self._siblings(entry)
        for e in siblings:
            t = self.pack.templates.get(e.template)
            if t is not None and t not in first and _kind_ok(t, u) and self._admits(t, u):
                shapes = [s_ for s_ in t.label_shapes if s_ not in ("any", "lexicon")]
                if shapes and not shape_from_entry:  # the entry's template fixes the shape
                    shape, shape_from_entry = shapes[0], True
                first.append(t)
        if only_entry or any(e.exclusive for e in siblings):
            return first  # possibly none: this use of the word does not fit the entry
        links = {"property": ("property", "inverse_property"), "item": ("item",),
                 "class": ("class",), "literal": ("literal",)}[sym.kind]
        out = []
        for t in self.pack.templates.values():
            if t.links not in links:
                continue
            if t.links == "class" and not _class_via_ok(t, sym):
                continue
            if not _kind_ok(t, u):
                continue
            if "any" not in t.label_shapes and shape not in t.label_shapes:
                continue
            if t.match.preds and not t.match.names(u.pred):
                continue
            if not self._admits(t, u):
                continue
            if t not in first:
                out.append(t)
        return first + sorted(out, key=lambda t: -t.priority)


def _without_superseded(links: list[Link]) -> list[Link]:
    """The links without those that an exclusive lexicon entry's link of the same word
    supersedes: its axioms name properties of their own ("When did the Orioles win the
    World Series?": the season template says that the Orioles are the *winner* of a season, so
    the word's other link to *winner*, which would make them the winner of the World Series
    itself, is not a second reading of the word)."""
    named: dict[int, set[str]] = {}
    for l in links:
        if l.entry is not None and l.entry.exclusive:
            props = {wikidata_id(a.pred) for ax in l.axioms for a in atoms(ax.formula)}
            # ... and, when its axioms take the entry's own property as a chain (twice), the
            # same word's links to that property ("grand-children" is child twice, not the
            # label *child* once)
            chain = any(sum(1 for a in atoms(ax.formula) if wikidata_id(a.pred) == l.symbol.id) > 1
                        for ax in l.axioms)
            named.setdefault(id(l.unit), set()).update(p for p in props if p and (chain or p != l.symbol.id))
    if not named:
        return links
    return [l for l in links if not (l.symbol.id in named.get(id(l.unit), ()) and not (
        l.entry is not None and l.entry.exclusive))]


#: Third-person pronouns, and those of them that are possessives.
_POSSESSIVE_PRONOUNS = frozenset({"his", "her", "its", "their"})
_THIRD_PERSON = frozenset({"he", "she", "it", "they", "him", "them"}) | _POSSESSIVE_PRONOUNS


def _bound_possessives(pronouns: list[Unit], units: list[Unit], g: Grounding) -> dict[int, Link]:
    """Possessive pronouns that refer to the subject of the question's verb when that subject
    is a named item: "When did Lindsey Vonn end *her* marriage with Thomas Vonn?" (her =
    Lindsey Vonn, though the question names two items).  Only when every verb with a named
    subject has the same one.  Keyed by ``id`` of the pronoun's unit."""
    named = {l.unit.var: l for l in g.links if l.symbol.kind == "item" and l.unit.kind == "named"}
    subjects = {named[v.atom.args[1]].symbol.symbol: named[v.atom.args[1]] for v in units
                if v.kind == "verb" and len(v.atom.args) > 1 and v.atom.args[1] in named}
    if len(subjects) != 1:
        return {}
    (link,) = subjects.values()
    return {id(p): link for p in pronouns if p.text.casefold() in _POSSESSIVE_PRONOUNS}


def _preposition_preds(name: str, word: str) -> tuple[str, ...]:
    """The ERG predicates of the preposition that ends a property name right after ``word``
    ("enclave *within*" for "enclave": ``_within_p``, and the senses ``_within_p_loc`` /
    ``_state`` / ``_temp`` / ``_dir``), the binding of a template's ``$nameprep``; empty when
    the name ends otherwise or its word before the preposition is another ("educated at" for
    the noun "education", which is no educated-at thing)."""
    ws = words_of(name)
    w = word.casefold()
    # the word itself, or the end of a prefixed word the grammar splits ("extensive" in
    # "coextensive with")
    if len(ws) < 2 or ws[-1] not in PREPOSITIONS or not (
            ws[-2] in (w, w[:-1] if w.endswith("s") else w) or (len(w) >= 5 and ws[-2].endswith(w))):
        return ()
    base = f"_{ws[-1]}_p"
    return (base, base + "_loc", base + "_state", base + "_temp", base + "_dir")


#: Prepositions of a path ("flow through X"): a verb with one of them is not read through a
#: property name that ends in another preposition ("flows into", the mouth of a river)
_PATH_PREPOSITIONS = frozenset({"through", "across", "along", "throughout", "via"})


def _other_preposition(name: str, u: Unit, modifiers: set[tuple[str, Term]]) -> bool:
    """Whether the question puts a path preposition on the verb ``u`` ("Through which
    countries does the Yenisei flow?") while the property name ends in another preposition
    (*flows into*).  Other prepositions may paraphrase the name's ("built with" for *built
    from*)."""
    ws = words_of(name)
    if len(ws) < 2 or ws[-1] not in PREPOSITIONS:
        return False
    from parsers.mrs import predicate_info

    attached = {predicate_info(p).lemma for p, v in modifiers if v == u.var}
    return bool(attached & _PATH_PREPOSITIONS) and ws[-1] not in attached


def _class_via_ok(t: Template, sym: SymbolUse) -> bool:
    """A class template with ``properties`` reads objects of those properties; one without
    reads objects of instance of / subclass of."""
    via = wikidata_id(sym.via) if sym.via else None
    if t.properties:
        return via is not None and via in {wikidata_id(p) for p in t.properties}
    return via is None or via in _CLASS_PROPS


def _kind_ok(t: Template, u: Unit) -> bool:
    """Whether a template applies to a unit's kind (a relational noun is a noun)."""
    return t.match.kind in (u.kind, "any") or (t.match.kind == "noun" and u.kind == "relational_noun")

