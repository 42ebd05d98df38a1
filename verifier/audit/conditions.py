"""``--fail-on`` conditions: ``'reject_rate>0.05'``, ``'errors>=1,abstain_rate>0.3'``.

A condition is ``METRIC OP NUMBER`` with ``OP`` one of ``> >= < <= == !=``; several
conditions separated by commas (or ``or``) fail the audit when *any* holds.  A number may
end in ``%`` (``reject_rate>5%`` is ``reject_rate>0.05``).  Metrics are those of
:func:`verifier.audit.summary.metrics` (counts such as ``reject``, ``errors``,
``input_errors``, ``records``; rates such as ``reject_rate``, ``abstain_rate``,
``error_rate``; ``verdict_<name>`` counts).
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Callable, Mapping

__all__ = ["Condition", "parse_conditions", "failing", "ConditionError"]

_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, "<=": operator.le, "==": operator.eq, "!=": operator.ne, ">": operator.gt,
    "<": operator.lt}
_RE = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(>=|<=|==|!=|>|<)\s*(-?\d+(?:\.\d*)?|-?\.\d+)\s*(%?)\s*$")


class ConditionError(ValueError):
    """A condition that cannot be parsed or names an unknown metric."""


@dataclass(frozen=True)
class Condition:
    """One ``METRIC OP NUMBER`` test."""

    metric: str
    op: str
    value: float
    text: str

    def holds(self, metrics: Mapping[str, float]) -> bool:
        """Whether the condition holds (an unknown ``verdict_*`` metric counts as 0)."""
        if self.metric not in metrics and not self.metric.startswith("verdict_"):
            raise ConditionError(f"unknown metric {self.metric!r} in {self.text!r} "
                                 f"(known: {', '.join(sorted(metrics))})")
        return _OPS[self.op](float(metrics.get(self.metric, 0)), self.value)


def parse_conditions(text: str) -> tuple[Condition, ...]:
    """Parse ``--fail-on``; raises :class:`ConditionError` with the offending part."""
    parts = [p for p in re.split(r",|\bor\b", text) if p.strip()]
    if not parts:
        raise ConditionError("empty condition")
    out = []
    for p in parts:
        m = _RE.match(p)
        if not m:
            raise ConditionError(f"cannot read condition {p.strip()!r}: expected METRIC OP NUMBER, "
                                 "e.g. 'reject_rate>0.05'")
        value = float(m.group(3)) / (100 if m.group(4) else 1)
        out.append(Condition(m.group(1), m.group(2), value, p.strip()))
    return tuple(out)


def failing(conditions: tuple[Condition, ...], metrics: Mapping[str, float]) -> list[Condition]:
    """The conditions that hold."""
    return [c for c in conditions if c.holds(metrics)]
