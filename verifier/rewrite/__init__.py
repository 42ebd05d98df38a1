"""Rewrite rules as data: MRS-to-MRS rules over the EPs of a question's reading, in the spirit
of DELPH-IN transfer rules (``axioms/rewrites/*.yaml``, ``docs/axioms.md`` "Rewrite rules").

* :mod:`.model`: the frozen records of a rule (:class:`Rule`, :class:`Case`, EP patterns);
* :mod:`.loader`: loading and checking rule files (:func:`load_rules`, :func:`check_rules`);
* :mod:`.engine`: applying a declarative rule to a formula, its answers and where its EPs are
  written (:func:`rewrite_formula`, :func:`verifier.rewrite.engine.rewrite`);
* :mod:`.surface`: where the EPs of a reading are written in the question;
* :mod:`.examples`: running the rules' examples.

The deductive check applies the rules (:mod:`verifier.deductive.rules`: the registry of the
rules still written in Python, the corrections loop and the views).
"""

from __future__ import annotations

from verifier.rewrite.engine import rewrite_formula
from verifier.rewrite.loader import check_rules, default_rule_dirs, load_rules, rule_files
from verifier.rewrite.model import GRAMMARS, STAGES, Case, Rule, RuleError, RuleIssue, RuleSet

__all__ = [
    "rewrite_formula", "check_rules", "default_rule_dirs", "load_rules", "rule_files", "GRAMMARS", "STAGES",
    "Case", "Rule", "RuleError", "RuleIssue", "RuleSet",
]
