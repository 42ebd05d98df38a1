"""Axiom templates and lexicons: the data model of ``axioms/templates/*.yaml`` and
``axioms/lexicons/*.yaml``.

A **template** says how a kind of question predicate links to a kind of KG symbol, and the
axiom (in the notation of ``grammar/logic.lark``) that the link licenses, with placeholders::

    - name: relational_noun
      doc: A relational noun names a property; its of-complement is the subject.
      match: {kind: relational_noun, arity: 2}
      links: property
      label_shapes: [noun]
      axiom: "forall x y. $pred(x, y) -> $prop(y, x)"

A **lexicon** maps words to KG symbols through a template (``toxicity -> wdt:P2240`` via
``noun_of``).  Both carry ``examples:`` (question, sparql, expected verdict) that
``verifier axioms test`` runs.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Iterable, Sequence

from verifier.logic import Atom, Forall, Formula, Implies, atoms

__all__ = [
    "MATCH_KINDS", "LINK_KINDS", "LABEL_SHAPES", "PLACEHOLDERS", "VERDICTS",
    "Example", "Match", "Template", "LexiconEntry", "Lexicon", "Source", "Pack",
]

#: Kinds of question predicates a template can match.
MATCH_KINDS = ("noun", "relational_noun", "verb", "adjective", "preposition", "named", "number",
               "abstract", "comparative", "superlative", "any")
#: Kinds of KG symbols a template links to.
LINK_KINDS = ("item", "class", "property", "inverse_property", "path", "literal", "none")
#: Shapes of property labels (see ``verifier.grounding.label_shape``): they fix the direction.
#: ``lexicon``: the template applies only through lexicon entries that name it (e.g. one
#: that is right for symmetric properties only).
LABEL_SHAPES = ("noun", "agent", "of", "by", "prep", "verb", "any", "lexicon")
#: Placeholders allowed in axioms, by link kind ($pred is always allowed).
PLACEHOLDERS = {
    "item": ("$item", "$prop"), "class": ("$class", "$prop"), "property": ("$prop", "$value", "$nameprep"),
    "inverse_property": ("$prop",), "path": ("$prop", "$prop2"), "literal": ("$value",),
    "none": (),
}
#: Verdicts an example may expect.
VERDICTS = ("faithful", "weaker", "unsupported", "intent_mismatch", "unknown", "accept", "reject")


@dataclass(frozen=True)
class Source:
    """Where a definition came from (file and 1-based line) for messages and provenance."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass(frozen=True)
class Example:
    """A question/query pair with the verdict the pack should produce."""

    question: str
    sparql: str
    verdict: str
    source: Source | None = None
    note: str = ""


@dataclass(frozen=True)
class Match:
    """What a template applies to: the kind of question predicate, its minimum arity (number
    of arguments in the IR: ARG0 first, CARG last), and for ``abstract`` predicates their
    names.  In the axiom ``$pred`` may omit trailing arguments: they are filled with fresh
    universally quantified variables, and a name's or number's string (CARG) comes last."""

    kind: str
    arity: int | None = None
    preds: tuple[str, ...] = ()
    #: argument positions (0 = ARG0) that must be absent or unexpressed (neither an instance
    #: variable ``x…`` nor a clause ``e…``): ``[2]`` is a verb used without an object ("What
    #: did X die from?", not "When did X receive the award?", whose "when" is not the award)
    unexpressed: tuple[int, ...] = ()
    #: argument positions that must be expressed (an instance variable ``x…``): a passive's
    #: subject ("Which people were born in X?"), without which the axiom says only that
    #: something unnamed has the property
    expressed: tuple[int, ...] = ()
    #: when given, the template applies only to readings whose verbs (other than the copula)
    #: are among these: ``[]`` for "Where is Mount Whitney?" and not "Where was Bach born?",
    #: which some readings split into "where was Bach" and a "born" attached to nothing;
    #: ``[_locate_v_1]`` also admits "Where is Somalia located?"
    verbs: tuple[str, ...] | None = None
    #: predicates the template never applies to, by name or pattern as in :attr:`preds`
    #: ("_be_v_*": a template about what a verb does to its object leaves the copula alone)
    except_preds: tuple[str, ...] = ()

    def names(self, pred: str) -> bool:
        """Whether :attr:`preds` (when given) lists ``pred`` and :attr:`except_preds` does
        not: by its name, or by a pattern whose ``*`` stands for any characters
        ("*/jj_u_unknown": an unknown word that the grammar took for an adjective)."""
        if any(_pred_fits(pred, p) for p in self.except_preds):
            return False
        if not self.preds:
            return True
        return any(_pred_fits(pred, p) for p in self.preds)

    def admits(self, args: Sequence[object]) -> bool:
        """Whether a predication with these arguments has the minimum arity, leaves the
        :attr:`unexpressed` positions unexpressed and fills the :attr:`expressed` ones."""
        if self.arity is not None and len(args) < self.arity:
            return False
        for i in self.unexpressed:
            if i < len(args) and (_instance(args[i]) or _clausal(args[i])):
                return False
        return all(i < len(args) and _instance(args[i]) for i in self.expressed)

    def admits_verbs(self, verbs: Iterable[str]) -> bool:
        """Whether a reading with these verbs (the copula left out) is one the template
        applies to (:attr:`verbs`)."""
        return self.verbs is None or all(v in self.verbs for v in verbs)


def _pred_fits(pred: str, pattern: str) -> bool:
    """Whether ``pred`` is ``pattern``, or fits it when it has a ``*``."""
    return pred == pattern or ("*" in pattern and fnmatch.fnmatchcase(pred, pattern))


def _instance(term: object) -> bool:
    """An instance variable of the ERG (``x3``): an argument the sentence expresses."""
    return str(getattr(term, "name", "")).startswith("x")


def _clausal(term: object) -> bool:
    """An event variable in an argument slot (``e15``): a clause the sentence expresses as the
    verb's complement ("which states share borders" read as "which [thing] states [that] ...
    share borders"), not a left-out object."""
    return str(getattr(term, "name", "")).startswith("e")


@dataclass(frozen=True)
class Template:
    """An axiom template (see the module docstring)."""

    name: str
    doc: str
    match: Match
    links: str
    axiom_text: str
    axiom: Formula
    label_shapes: tuple[str, ...] = ("any",)
    priority: int = 0
    examples: tuple[Example, ...] = ()
    source: Source | None = None
    #: for ``links: class``: the query properties whose object the template reads as a class
    #: (``$prop`` is bound to the one the query uses); empty means instance of / subclass of
    properties: tuple[str, ...] = ()
    #: the noun a link through this template reads still says what kind of thing its
    #: referent is ("What movies is X in?": cast member, and a film): a query must say that
    #: too (``verifier.deductive`` reports the class as dropped otherwise)
    keeps_class: bool = False
    #: false: the template reads only the names of labels and aliases, never a word that a
    #: lexicon entry links (the entry says how its word reads: "music" -> genre reads "What
    #: music did X compose?" as works, not as a genre of X)
    through_lexicon: bool = True


@dataclass(frozen=True)
class LexiconEntry:
    """Words (lemmas or multi-word phrases) that name a KG symbol through a template.

    ``symbol`` is a compact IRI (``wdt:P2240``, ``wd:Q2270``); ``symbols`` lists several for
    ANY/ALL super-properties (e.g. "location" -> P131 | P159 | P551); ``pos`` restricts the
    part of speech (``n``, ``v``, ``a``, ``p``); ``via`` names the property of an item used as
    a value ("female" -> wd:Q6581072 via wdt:P21), or several that may each carry it (ANY:
    "Danish" -> wd:Q35 via country, country of origin, country of citizenship ...; the
    template is instantiated with those the query uses); ``exclusive``: the word links through this
    entry's template (and its sibling entries') only, not also through the templates that fit
    the word's shape ("celebrated in X" is public holiday(X, ...), never (..., X)).
    ``support`` and ``examples``: see ``verifier axioms induce`` (an entry of a list of
    templates carries the examples on its first template's entry only).
    """

    words: tuple[str, ...]
    template: str
    symbols: tuple[str, ...]
    pos: str | None = None
    via: tuple[str, ...] = ()
    mode: str = "any"
    doc: str = ""
    source: Source | None = None
    exclusive: bool = False
    #: how many training pairs supported the entry (``verifier axioms induce`` writes it)
    support: int | None = None
    #: the entry's own examples (run by ``verifier axioms test`` like the lexicon's)
    examples: tuple[Example, ...] = ()


@dataclass(frozen=True)
class Lexicon:
    """One lexicon file (a domain pack such as ``chemistry``)."""

    name: str
    doc: str
    entries: tuple[LexiconEntry, ...]
    examples: tuple[Example, ...] = ()
    source: Source | None = None


#: A grammar verb predicate of sense 1 (``_use_v_1``; not an unknown word ``_use/vb_u_unknown``).
_VERB_SENSE_1 = re.compile(r"_([a-z][a-z-]*)_v_1")


@dataclass(frozen=True)
class Pack:
    """Templates, lexicons and background axioms loaded from one or more folders."""

    templates: dict[str, Template] = field(default_factory=dict)
    lexicons: tuple[Lexicon, ...] = ()
    background: tuple[tuple[str, Formula, Source | None], ...] = ()
    folders: tuple[Path, ...] = ()

    def entries_for(self, word: str) -> list[LexiconEntry]:
        """Lexicon entries whose words include ``word`` (case-insensitive)."""
        w = word.casefold()
        return [e for lex in self.lexicons for e in lex.entries if w in e.words]

    @cached_property
    def template_verbs(self) -> dict[str, str]:
        """The grammar's verb predicates of sense 1 that the template and background axioms
        name, by lemma (``{"use": "_use_v_1", ...}``): what an unknown-word verb of that lemma
        stands for (the rewrite rule ``known_verbs``, :mod:`verifier.rewrite.known`).  Computed once per pack."""
        out: dict[str, str] = {}
        for a in self._axiom_verbs():
            out.setdefault(_VERB_SENSE_1.fullmatch(a.pred).group(1), a.pred)
        return out

    @cached_property
    def class_keeping_templates(self) -> frozenset[str]:
        """The names of the templates that keep their noun's class (:attr:`Template.keeps_class`).
        Computed once per pack."""
        return frozenset(name for name, t in self.templates.items() if t.keeps_class)

    @cached_property
    def template_verb_arities(self) -> dict[str, frozenset[int]]:
        """How many arguments the template and background axioms give each verb predicate of
        :attr:`template_verbs` (``{"_go_v_1": frozenset({2}), ...}``: "go" has no object).
        Computed once per pack."""
        out: dict[str, set[int]] = {}
        for a in self._axiom_verbs():
            out.setdefault(a.pred, set()).add(len(a.args))
        return {p: frozenset(n) for p, n in out.items()}

    def _axiom_verbs(self):
        """The atoms of verb predicates of sense 1 in the template axioms, then the background's."""
        for f in [t.axiom for t in self.templates.values()] + [f for _, f, _ in self.background]:
            for a in atoms(f):
                if _VERB_SENSE_1.fullmatch(a.pred):
                    yield a

    @property
    def symmetric_properties(self) -> frozenset[str]:
        """KG properties that a background axiom makes symmetric
        (``forall x y. P(x, y) -> P(y, x)``): swapping the subject and object of such a
        triple does not change what a query means."""
        out = set()
        for _, f, _ in self.background:
            if (isinstance(f, Forall) and len(f.vars) == 2 and isinstance(f.body, Implies)
                    and isinstance(f.body.left, Atom) and isinstance(f.body.right, Atom)
                    and f.body.left.pred == f.body.right.pred
                    and f.body.left.args == f.vars and f.body.right.args == f.vars[::-1]):
                out.add(f.body.left.pred)
        return frozenset(out)

    @property
    def examples(self) -> list[tuple[str, Example]]:
        """Every example with the name of the template or lexicon that carries it."""
        out = [(f"template {t.name}", ex) for t in self.templates.values() for ex in t.examples]
        out += [(f"lexicon {lex.name}", ex) for lex in self.lexicons for ex in lex.examples]
        out += [(f"lexicon {lex.name} entry {e.words[0]!r}", ex) for lex in self.lexicons
                for e in lex.entries for ex in e.examples]
        return out
