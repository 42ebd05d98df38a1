"""Rewrite rules as data: frozen records of what ``axioms/rewrites/*.yaml`` hold.

A :class:`Rule` rewrites the elementary predications (EPs) of a question's reading, in the
spirit of DELPH-IN transfer rules: its ``input`` EPs are replaced by its ``output`` EPs where
its ``context`` EPs are present (and its ``unless`` EPs absent).  A rule that cannot be
written that way names a Python function of the one registry (``builtin``); order,
enabling, the grammars it applies to and its examples are data for both kinds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Mapping

from verifier.datafiles import FileIssue, FileIssuesError

__all__ = [
    "STAGES", "GRAMMARS", "SORTS", "ArgPattern", "EpPattern", "EpOutput", "Case", "RuleExample",
    "QuestionTest", "Rule", "RuleIssue", "RuleError", "RuleSet",
]

#: The stages a rule file belongs to: ``corrections`` (applied to every reading, in order) and
#: ``views`` (alternative views of a reading, tried while it proves nothing).
STAGES = ("corrections", "views")

#: ``standin``: a repair of a defect of the stand-in ERG image (``../shared/tools/ace``:
#: an old lexicon, no parse ranking), applied per ``[rewrite] standin_repairs``;
#: ``any``: applied to the readings of any grammar.
GRAMMARS = ("any", "standin")

#: Variable sorts an argument may be restricted to (``$x:x``): the first letter of the
#: variable's name; ``var``: a variable of any sort.
SORTS = ("e", "x", "i", "h", "u", "p", "var")


@dataclass(frozen=True)
class ArgPattern:
    """One argument of an EP pattern: ``$name`` (bound where it first occurs, the same term
    everywhere else) or ``_`` (anything, ``var`` None); ``$name:s`` / ``_:s`` restricts it to
    a variable of sort ``s`` (:data:`SORTS`); ``=TEXT``: a constant written TEXT (``value``)."""

    var: str | None = None
    sort: str | None = None
    value: str | None = None


@dataclass(frozen=True)
class EpPattern:
    """An EP to find: its predicate (``pred``: one of these names; ``pred_re``: a regular
    expression it matches whole; ``pos`` / ``lemma``: parts of it, see
    :func:`parsers.mrs.predicate_info`; ``not_pred`` / ``not_lemma``: names / lemmas it is
    not; ``unknown_word``; ``abstract``), its arguments (``rest``: more may follow),
    ``name``, by which outputs refer to it, ``last``, ``only``, and where it is written in
    the question (``written``: as one of these texts; ``after``: the first so written after
    the input EP of that name)."""

    args: tuple[ArgPattern, ...] = ()
    rest: bool = False
    pred: tuple[str, ...] = ()
    pred_re: str | None = None
    pos: tuple[str, ...] = ()
    lemma: tuple[str, ...] = ()
    not_pred: tuple[str, ...] = ()
    unknown_word: bool | None = None
    name: str | None = None
    #: take the last EP that fits, in the reading's order, instead of the first (for an EP
    #: other than the first input)
    last: bool = False
    not_lemma: tuple[str, ...] = ()
    abstract: bool | None = None
    written: tuple[str, ...] = ()
    #: the EP (of those that fit) written first after the EP of this name, and no other
    after: str | None = None
    #: exactly one EP fits (with the variables bound so far)
    only: bool = False
    #: its lemma (or a base form of it) is that of a known predicate (True), or not (False)
    known: bool | None = None
    #: the numbers of arguments the known predicate of its lemma takes / does not take
    known_arities: tuple[int, ...] = ()
    known_not_arities: tuple[int, ...] = ()

    @cached_property
    def pred_memo(self) -> dict[str, bool]:
        """Whether a predicate name passes this pattern's tests of the name, by name (filled
        by :func:`verifier.rewrite.engine.ep_matches`: the tests depend on the name alone)."""
        return {}


@dataclass(frozen=True)
class EpOutput:
    """An EP a rule writes: its predicate (``pred``, or ``like``: the predicate of the input
    EP of that name), its arguments (``$name`` of a bound or fresh variable, or a literal
    predicate name / constant) and ``at``: the input EP whose place it takes (the first
    input's when not given).  ``pred: "="`` writes an equality of its two arguments;
    ``{known:NAME}`` in ``pred`` the known predicate of the lemma of input EP NAME."""

    args: tuple[str, ...]
    pred: str | None = None
    like: str | None = None
    at: str | None = None


@dataclass(frozen=True)
class Case:
    """One way a declarative rule matches: input EPs (rewritten), context EPs (kept), EPs that
    must be absent, conditions on bound variables, fresh variables and the output EPs."""

    input: tuple[EpPattern, ...]
    context: tuple[EpPattern, ...] = ()
    unless: tuple[EpPattern, ...] = ()
    where: tuple[Mapping[str, object], ...] = ()
    #: fresh variable -> its name, ``{v}`` standing for the name of bound variable ``v``
    fresh: Mapping[str, str] = field(default_factory=dict)
    output: tuple[EpOutput, ...] = ()
    #: bound variables that are no longer answers: dropped from the answers and quantified
    #: over the whole formula
    unanswer: tuple[str, ...] = ()
    #: the case's matches are left out (the other cases' made) when the rewrite with them
    #: would take a variable out of its quantifier's scope
    optional: bool = False
    #: the EPs that may make up a phrase (``parts``), for the conditions ``closed`` and
    #: ``covered``
    parts: tuple[EpPattern, ...] = ()
    #: the EPs that may stand around a phrase (``covered``); their variables first bound in
    #: them are what the phrase's parts may touch besides the phrase
    around: tuple[EpPattern, ...] = ()
    #: a view's note when this case made the view (else the rule's)
    note: str = ""


@dataclass(frozen=True)
class RuleExample:
    """A reading in the text notation (``formula``; ``answers``: its answer variables; the
    question when the rule reads it, ``written``: the text of the question each variable's
    EPs are written as, for the surface conditions) and what the rule makes of it: ``expect``
    (a formula; ``expect_answers`` its answers) or ``unchanged``."""

    formula: str
    answers: tuple[str, ...] = ("x1",)
    question: str = ""
    expect: str | None = None
    expect_answers: tuple[str, ...] | None = None
    unchanged: bool = False
    line: int = 0
    written: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class QuestionTest:
    """Which questions a view is tried for: a regex that ``match``-es the start of the
    question or is ``search``-ed in it (case-insensitive), or (``shape_pattern``) the name of
    a pattern of the question shapes (``axioms/shapes``) that matches it."""

    regex: str
    how: str = "search"


@dataclass(frozen=True)
class Rule:
    """One rewrite rule of a rule file (declarative: ``cases``; else ``builtin``)."""

    name: str
    doc: str
    stage: str
    grammars: str
    file: str
    line: int = 0
    cases: tuple[Case, ...] = ()
    builtin: str | None = None
    examples: tuple[RuleExample, ...] = ()
    #: views only: the questions it is tried for, the reason it is tried after, its note
    question: QuestionTest | None = None
    after_reason: str | None = None
    note: str = ""
    #: further steps: each a pass of its cases over what the step before made
    then: tuple[tuple[Case, ...], ...] = ()
    #: only the EPs of the formula's positive conjunctive core are matched (none under a
    #: negation, a disjunction, an implication or a universal quantifier)
    positive_core: bool = False

    @property
    def declarative(self) -> bool:
        """Whether the rule is written as EPs (not a Python builtin)."""
        return self.builtin is None


#: A problem found in a rewrite rule file (:class:`verifier.datafiles.FileIssue`).
RuleIssue = FileIssue


class RuleError(FileIssuesError):
    """Rewrite rule files have errors; ``issues`` lists them all."""

    what = "rewrite rule files"


@dataclass(frozen=True)
class RuleSet:
    """The rules loaded from rule files, per stage in their order."""

    rules: tuple[Rule, ...]
    files: tuple[str, ...] = ()

    def stage(self, stage: str) -> tuple[Rule, ...]:
        """The rules of one stage, in order."""
        return tuple(r for r in self.rules if r.stage == stage)

    def rule(self, name: str) -> Rule | None:
        """The rule called ``name`` (None when there is none)."""
        return next((r for r in self.rules if r.name == name), None)

    @property
    def names(self) -> tuple[str, ...]:
        """The names of the rules, in order."""
        return tuple(r.name for r in self.rules)

    def active(self, standin: bool, disabled: frozenset[str] | set[str] = frozenset()) -> "RuleSet":
        """The rules that apply: not ``disabled`` by name, and the stand-in repairs only when
        ``standin``."""
        if standin and not disabled:  # all of them: this rule set itself (what is cached on it kept)
            return self
        return RuleSet(tuple(r for r in self.rules if r.name not in disabled
                             and (standin or r.grammars != "standin")), self.files)
