"""Bounded work whatever the input: the size limits of a pair and its deadline.

:class:`Limits` holds the ``[limits]`` section of the configuration (``docs/configuration.md``):
the largest question and query a pair may have (characters, triple patterns), how many MRS
readings of a question are read, and the deadline of one pair (``deadline_s`` seconds of the
``deadline_clock``, ``"wall"`` or ``"cpu"``).  An input over a size limit is refused before it
is parsed (:meth:`Limits.input_problem`); a pair whose deadline passes stops at the next stage
or loop boundary that checks its :class:`Deadline` (the pipeline passes one down explicitly:
readings and views, grounding, the proofs, the chase) with :class:`DeadlineExceeded`, which
:mod:`verifier.api` turns into ``abstain`` with the reason.

>>> lim = Limits(query_triples=2)
>>> lim.input_problem("Who?", "SELECT ?x WHERE { ?x wdt:P1 ?y . ?y wdt:P2 ?z . ?z wdt:P3 ?w }")
'query over limits: 3 triples > 2'
>>> d = Deadline(0.0)
>>> try:
...     d.check("grounding")
... except DeadlineExceeded as e:
...     print(e)
deadline: 0 s spent (stage grounding)
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, fields
from typing import Any, Callable

__all__ = ["Limits", "Deadline", "DeadlineExceeded", "CLOCKS", "WIND_UP_S", "count_triples"]

#: The clocks a deadline may run on: wall-clock time, or the process's CPU time (a loaded
#: machine then makes a pair slower without making it abstain).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


class DeadlineExceeded(Exception):
    """A pair's deadline passed (``stage``: the stage that was running)."""

    def __init__(self, seconds: float, stage: str, clock: str = "wall") -> None:
        self.seconds = seconds
        self.stage = stage
        self.clock = clock
        cpu = " of CPU time" if clock == "cpu" else ""
        super().__init__(f"deadline: {_figure(seconds)} s{cpu} spent (stage {stage})")

    @property
    def reason(self) -> str:
        """The reason given with the abstention."""
        return str(self)


def _figure(x: float) -> str:
    """A number of seconds as written in a reason: ``10``, ``2.5``, ``0.001``."""
    return f"{x:,.0f}" if x >= 10 or x == int(x) else f"{x:.3g}"


#: Seconds of a deadline kept back from a solver call cut to it, for the pair to wind up
#: (the abstention, its explanation) before the deadline: a pair stopped in a proof ends
#: within its deadline, not just after it.
WIND_UP_S = 0.1


class Deadline:
    """The deadline of one pair: made when its verification starts, passed down explicitly
    and checked at stage and loop boundaries (:meth:`check`).  ``seconds`` ``None`` never
    passes.  It also records the time spent per checked stage (:attr:`spent`: the time since
    the previous check is counted for the stage named by this one), which the benches read
    to say where a pair's time went.  One object per pair, never shared between pairs."""

    def __init__(self, seconds: float | None, clock: str = "wall") -> None:
        if clock not in CLOCKS:
            raise ValueError(f"[limits] deadline_clock: {clock!r} is not one of {sorted(CLOCKS)}")
        self.seconds = seconds
        self.clock = clock
        self._now = CLOCKS[clock]
        self.start = self._now()
        self._last = self.start
        #: seconds per stage, in the order the stages were first checked
        self.spent: dict[str, float] = {}

    @classmethod
    def never(cls) -> "Deadline":
        """A deadline that never passes (still records :attr:`spent`)."""
        return cls(None)

    def elapsed(self) -> float:
        """Seconds spent since the deadline was made (on its clock)."""
        return self._now() - self.start

    def remaining(self) -> float | None:
        """Seconds left (``None``: no deadline; never below 0)."""
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - self.elapsed())

    def passed(self) -> bool:
        """Whether the deadline has passed (without raising)."""
        return self.seconds is not None and self.elapsed() >= self.seconds

    def check(self, stage: str, *, expired: bool = False) -> None:
        """Count the time since the previous check for ``stage``; raise
        :class:`DeadlineExceeded` when the deadline has passed (or ``expired`` says a step cut
        short by :meth:`solver_ms` stopped for it)."""
        now = self._now()
        self.spent[stage] = self.spent.get(stage, 0.0) + (now - self._last)
        self._last = now
        if self.seconds is not None and (expired or now - self.start >= self.seconds):
            raise DeadlineExceeded(self.seconds, stage, self.clock)

    def solver_ms(self, timeout_ms: int) -> int:
        """A solver call's (wall-clock) timeout: no longer than what is left of the deadline
        less :data:`WIND_UP_S` (at least 1 ms), on either clock (a single-threaded solver's
        wall time is at least the CPU time it uses, so on the CPU clock the cap can only stop
        it earlier); ``timeout_ms`` itself without a deadline."""
        left = self.remaining()
        if left is None:
            return timeout_ms
        return max(1, min(timeout_ms, int((left - min(WIND_UP_S, left)) * 1000) + 1))


@dataclass(frozen=True)
class Limits:
    """The ``[limits]`` of a verifier: input sizes refused up front and the pair's deadline
    (see the module docstring).  A size limit of 0 turns that limit off; ``deadline_s`` 0 runs
    without a deadline."""

    question_chars: int = 2_000
    query_chars: int = 100_000
    query_triples: int = 500
    readings: int = 100
    deadline_s: float = 10.0
    deadline_clock: str = "wall"

    def __post_init__(self) -> None:
        if self.deadline_clock not in CLOCKS:
            raise ValueError(f"[limits] deadline_clock: {self.deadline_clock!r} is not one of {sorted(CLOCKS)}")
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name != "deadline_clock" and (not isinstance(v, (int, float)) or isinstance(v, bool) or v < 0):
                raise ValueError(f"[limits] {f.name}: {v!r} is not a number >= 0")

    @classmethod
    def from_config(cls, config: Any) -> "Limits":
        """The ``[limits]`` section of a :class:`~verifier.config.Config` (defaults for the
        settings it does not give; an unknown setting raises ``ValueError``).  The clock of a
        configuration that does not name one (also one built in code) is
        ``$VERIFIER_DEADLINE_CLOCK`` when set (the test suite runs on the CPU clock, so that a
        loaded machine does not turn its verdicts into deadline abstentions), else wall."""
        section = dict(config.section("limits")) if config is not None else {}
        known = {f.name: f for f in fields(cls)}
        unknown = sorted(set(section) - set(known))
        if unknown:
            raise ValueError(f"[limits]: unknown setting(s) {', '.join(unknown)} (known: {', '.join(known)})")
        values: dict[str, Any] = {}
        for k, v in section.items():
            if k == "deadline_clock":
                values[k] = str(v)
            elif k == "deadline_s":
                values[k] = float(v)
            else:
                values[k] = int(v)
        if "deadline_clock" not in values and os.environ.get("VERIFIER_DEADLINE_CLOCK"):
            values["deadline_clock"] = os.environ["VERIFIER_DEADLINE_CLOCK"]
        return cls(**values)

    def deadline(self) -> Deadline:
        """A new deadline for one pair, started now."""
        return Deadline(self.deadline_s if self.deadline_s > 0 else None, self.deadline_clock)

    def input_problem(self, question: str, sparql: str) -> str | None:
        """Why a pair is over the size limits (``None`` when it is not), found without
        parsing: characters first, then the triple patterns counted by :func:`count_triples`."""
        if self.question_chars and len(question) > self.question_chars:
            return f"question over limits: {len(question):,} characters > {self.question_chars:,}"
        if self.query_chars and len(sparql) > self.query_chars:
            return f"query over limits: {len(sparql):,} characters > {self.query_chars:,}"
        if self.query_triples:
            n = count_triples(sparql)  # the whole text: query_chars bounds it
            if n > self.query_triples:
                return f"query over limits: {n:,} triples > {self.query_triples:,}"
        return None

    def kept_readings(self, readings: list | None) -> list | None:
        """The readings of a question that are read: the first :attr:`readings` (all with 0)."""
        if readings is None or not self.readings or len(readings) <= self.readings:
            return readings
        return list(readings)[: self.readings]


def count_triples(sparql: str, stop: int | None = None) -> int:
    """The number of triple patterns of a query, counted on its text without parsing it:
    the ``.``, ``;`` and ``,`` that end or continue a triple inside braces, outside strings,
    IRIs, comments, numbers and parentheses, plus the last triple of each group left
    without one.  Stops counting at ``stop``.  Exact on the usual queries; an estimate (never
    far off) on odd ones, enough to refuse queries far over a limit.

    >>> count_triples("SELECT * WHERE { ?s ?p ?o ; ?q ?r , ?t . ?a ?b 1.5 FILTER(?a IN (1, 2)) }")
    4
    """
    n = 0
    depth = parens = 0
    pending = False  # a term was written since the last separator in this group
    i, size = 0, len(sparql)
    while i < size:
        c = sparql[i]
        if c in "\"'":
            j = sparql.find(c, i + 1)
            while j > 0 and sparql[j - 1] == "\\":
                j = sparql.find(c, j + 1)
            i = size if j < 0 else j + 1
            pending = pending or depth > 0
            continue
        if c == "#":
            j = sparql.find("\n", i)
            i = size if j < 0 else j + 1
            continue
        if c == "<":
            j = i + 1
            while j < size and sparql[j] not in "<>\"{}|^`\\ \t\r\n":
                j += 1
            if j < size and sparql[j] == ">":  # an IRI (else a comparison)
                i = j + 1
                pending = pending or depth > 0
                continue
        if c == "{":
            depth += 1
            pending = False
        elif c == "}":
            if pending and depth > 0:
                n += 1
            depth = max(0, depth - 1)
            pending = False
        elif c == "(":
            parens += 1
        elif c == ")":
            parens = max(0, parens - 1)
        elif depth > 0 and parens == 0:
            if c in ";,":
                n += 1
                pending = False
            elif c == "." and not (i + 1 < size and sparql[i + 1].isdigit()
                                   and i > 0 and sparql[i - 1].isdigit()):
                if pending:
                    n += 1
                pending = False
            elif not c.isspace():
                pending = True
        if stop is not None and n >= stop:
            return n
        i += 1
    return n
