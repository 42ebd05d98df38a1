"""Run the examples of the rewrite rules: each example's reading, given to its rule alone,
must come out as the example says (``expect``: that formula and answers; ``unchanged``).

How a rule is applied (a declarative rule by the engine, a builtin by its Python function,
with the axiom pack and labels it may read) is the caller's: ``apply(rule, reading)``
returns what the rule made of the reading (the reading itself or None when nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from verifier.logic import Formula, Var, atoms
from verifier.rewrite.model import Rule, RuleExample, RuleSet
from verifier.rewrite.surface import NO_SURFACE, Surface, example_surface

__all__ = ["ExampleReading", "ExampleResult", "example_reading", "run_example", "run_examples"]


@dataclass(frozen=True)
class ExampleReading:
    """The reading of an example: its formula and answers (no MRS, no intent), its question
    and where the example says its EPs are written."""

    formula: Formula
    answer_vars: tuple[Var, ...]
    intent: Any = None
    mrs: Any = None
    note: str = ""
    reading_index: int = 0
    not_alignable: frozenset = field(default_factory=frozenset)
    question: str = ""
    surface: Surface = NO_SURFACE


@dataclass(frozen=True)
class ExampleResult:
    """The outcome of one example: ``ok``, or what differed (``message``)."""

    rule: str
    file: str
    line: int
    ok: bool
    message: str = ""

    def __str__(self) -> str:
        return f"{'ok' if self.ok else 'FAIL'} rule {self.rule} ({self.file}:{self.line}){': ' + self.message if self.message else ''}"


def example_reading(ex: RuleExample) -> ExampleReading:
    """The reading an example gives its rule."""
    from verifier.notation import parse_formula

    formula = parse_formula(ex.formula)
    surface = example_surface(ex.question, atoms(formula), ex.written) if ex.written else Surface(ex.question)
    return ExampleReading(formula, tuple(Var(a) for a in ex.answers), question=ex.question, surface=surface)


def _text(formula_text: str) -> str:
    from verifier.notation import LogicSyntaxError, parse_formula

    try:
        return str(parse_formula(formula_text))
    except LogicSyntaxError:
        return " ".join(formula_text.split())


def run_example(rule: Rule, ex: RuleExample, apply: Callable[[Rule, Any], Any]) -> ExampleResult:
    """Run one example of ``rule``."""
    try:
        reading = example_reading(ex)
        got = apply(rule, reading)
    except Exception as e:  # a rule's bug fails its example, not the run
        return ExampleResult(rule.name, rule.file, ex.line, False, f"raised {type(e).__name__}: {e}")
    changed = got is not None and (got.formula != reading.formula
                                   or tuple(got.answer_vars) != tuple(reading.answer_vars))
    if ex.unchanged:
        if changed:
            return ExampleResult(rule.name, rule.file, ex.line, False, f"expected no change, got {got.formula}")
        return ExampleResult(rule.name, rule.file, ex.line, True)
    if not changed:
        return ExampleResult(rule.name, rule.file, ex.line, False, "the rule changed nothing")
    if str(got.formula) != _text(str(ex.expect)):
        return ExampleResult(rule.name, rule.file, ex.line, False,
                             f"expected {_text(str(ex.expect))}\n       got {got.formula}")
    if ex.expect_answers is not None and tuple(v.name for v in got.answer_vars) != tuple(ex.expect_answers):
        return ExampleResult(rule.name, rule.file, ex.line, False,
                             f"expected answers {list(ex.expect_answers)}, got {[v.name for v in got.answer_vars]}")
    return ExampleResult(rule.name, rule.file, ex.line, True)


def run_examples(rules: RuleSet, apply: Callable[[Rule, Any], Any]) -> list[ExampleResult]:
    """Run every example of every rule of ``rules``."""
    return [run_example(r, ex, apply) for r in rules.rules for ex in r.examples]
