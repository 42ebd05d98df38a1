"""The question side of grounding: the predications of a reading that can name something.

:func:`question_units` lists the nouns, verbs, adjectives, names (with the surface text of
their noun phrase), numbers and wh-words (``where`` -> place, ``when`` -> time, ``who`` ->
person) of one translated reading as :class:`Unit` records; :func:`np_spans` gives the
character span of each noun phrase (from the MRS character offsets).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from verifier.grounding.words import (
    ABSTRACT_WORDS, COMPOUND, COPULA_PREFIX, NAME_PREDICATES, NOUN_LIKE, NUMBER_PREDICATES,
    PREFIXED_WORD, PREPOSITION_ROLES, SKIP_ABSTRACT, YEAR_KEYS, YEAR_PREDICATE,
)
from verifier.lexical import content_keys, irregular_base, lemma_keys
from verifier.logic import Atom, Literal, Term, Var, atoms

__all__ = ["Unit", "reading_verbs", "np_spans", "prefixed_words", "question_units"]



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
        """The unit's predicate."""
        return self.atom.pred

    @property
    def arity(self) -> int:
        """The number of the unit's arguments."""
        return len(self.atom.args)


def reading_verbs(units: Iterable[Unit]) -> frozenset[str]:
    """The verbs of a reading other than the copula (what ``match.verbs`` of a template
    restricts)."""
    return frozenset(u.pred for u in units if u.kind == "verb" and not u.pred.startswith(COPULA_PREFIX))


def np_spans(mrs, question: str) -> dict[str, tuple[int, int]]:
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
        if ep.pred == COMPOUND and "ARG1" in args and "ARG2" in args:
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


def prefixed_words(mrs, question: str) -> dict[str, str]:
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
        m = PREFIXED_WORD.fullmatch(ep.pred)
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
    spans = np_spans(mrs, question)
    prefixes = prefixed_words(mrs, question)

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
        if pred in NAME_PREDICATES:  # named_n: a name used as a noun ("the Olympics"); holiday: "Christmas"
            name = a.args[-1].lexical if isinstance(a.args[-1], Literal) else ""
            text = text_of(var) or name
            units.append(Unit(a, "named", name.casefold(), "n", content_keys(name), content_keys(text), text, var))
            continue
        if pred in NUMBER_PREDICATES:
            lit = a.args[-1]
            if isinstance(lit, Literal):
                keys = (lit.lexical,)
                if re.fullmatch(r"1\d{3}|20\d{2}", lit.lexical) or pred == YEAR_PREDICATE:
                    keys += YEAR_KEYS
                units.append(Unit(a, "number", lit.lexical, None, keys, (), lit.lexical, a.args[0]))
            continue
        if pred in ABSTRACT_WORDS:
            words = ABSTRACT_WORDS[pred]
            if words:
                keys = tuple(dict.fromkeys(k for w in words for k in content_keys(w)))
                units.append(Unit(a, "abstract", words[0], "n", keys, keys, "", var))
            elif pred == "pron":
                units.append(Unit(a, "pronoun", "pron", None, (), (), text_of(var), var))
            continue
        if pred in SKIP_ABSTRACT or pred.endswith("_q"):
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
        if prefix and keys and not PREFIXED_WORD.fullmatch(pred):
            keys = tuple(dict.fromkeys(lemma_keys(prefix + lemma) + keys))
        if pos == "p":  # prepositions name nothing themselves but structure the question
            head = lemma.split()[0] if lemma else lemma
            roles = tuple(dict.fromkeys([head] + [k for w in PREPOSITION_ROLES.get(head, ()) for k in content_keys(w)]
                                        # a preposition of several words names by its content words,
                                        # as a property's name does ("together with")
                                        + (list(content_keys(lemma)) if " " in lemma else [])))
            units.append(Unit(a, "preposition", lemma, pos, roles, roles, lemma, var))
            continue
        if not keys:
            continue
        if pos in NOUN_LIKE:
            kind = "relational_noun" if len(a.args) >= 2 else "noun"
            text = text_of(var) or lemma
            units.append(Unit(a, kind, lemma, pos, keys, content_keys(text) or keys, text, var))
        elif pos == "v":
            units.append(Unit(a, "verb", lemma, pos, keys, keys, lemma, var))
        elif pos == "a":
            units.append(Unit(a, "adjective", lemma, pos, keys, keys, lemma, var))
    return units


