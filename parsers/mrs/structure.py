"""A light, immutable MRS structure and its conversion from and to PyDelphin.

The translator works on :class:`Mrs`, a small read-only view of a Minimal Recursion
Semantics: elementary predications (:class:`EP`) with normalised predicate strings, handle
constraints, variable properties.  It is built either by the fast one-line SimpleMRS reader
(:mod:`parsers.mrs.simplemrs`) or from a PyDelphin ``delphin.mrs.MRS`` object
(:func:`from_pydelphin`); :func:`parsers.mrs.simplemrs.coerce_mrs` accepts either, or a
SimpleMRS string.

Arguments of an EP are kept in *role order* (:func:`role_order`): ``ARG0``, ``ARG``,
``ARG1`` ... ``ARGn``, then the quantifier roles ``RSTR``, ``BODY``, then any other role in
alphabetical order.  The constant argument ``CARG`` is kept apart (:attr:`EP.carg`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, NamedTuple

__all__ = ["EP", "HCons", "Mrs", "MrsError", "from_pydelphin", "to_pydelphin",
           "role_order", "var_type", "normalize_predicate"]


class MrsError(ValueError):
    """An MRS could not be read or is structurally unusable (documented failure, never a
    crash: the translator turns it into a failed result with a reason)."""


_ROLE_RANK = {"ARG0": 0, "ARG": 1}
_ARGN_RE = re.compile(r"ARG(\d+)$")


def role_order(role: str) -> tuple[int, int, str]:
    """Sort key of a role: ``ARG0``, ``ARG``, ``ARG1``..``ARGn``, ``RSTR``, ``BODY``, others."""
    r = _ROLE_RANK.get(role)
    if r is not None:
        return (r, 0, "")
    m = _ARGN_RE.match(role)
    if m:
        return (2, int(m.group(1)), "")
    if role == "RSTR":
        return (3, 0, "")
    if role == "BODY":
        return (4, 0, "")
    return (5, 0, role)


@lru_cache(maxsize=1 << 16)
def var_type(v: str) -> str:
    """The sort of a variable from its name: ``x``, ``e``, ``i``, ``u``, ``h`` or ``p``...
    (the leading letters); ``""`` when the value is not a variable."""
    i = 0
    while i < len(v) and v[i].isalpha():
        i += 1
    if i == 0 or i == len(v) or not v[i:].isdigit():
        return ""
    return v[:i]


def normalize_predicate(s: str) -> str:
    """PyDelphin's ``delphin.predicate.normalize`` (quotes and ``_rel`` removed, lower case),
    re-implemented for speed; results are identical."""
    if s.startswith('"') and s.endswith('"') and len(s) >= 2:
        s = s[1:-1]
    elif s.startswith("'"):
        s = s[1:]
    if s[-4:].lower() == "_rel":
        s = s[:-4]
    return s.lower()


class EP(NamedTuple):
    """An elementary predication (an immutable record; a ``NamedTuple`` because readers
    create hundreds of thousands of them and tuples are built several times faster than
    frozen dataclasses).

    ``args`` holds ``(role, value)`` pairs in role order (``ARG0`` first, no ``CARG``);
    values are variable names (``x3``, ``e2``, ``h7``) or, rarely, constants.  ``quant``
    caches whether the EP is a quantifier (``None``: computed from the roles).
    """

    pred: str
    label: str
    args: tuple[tuple[str, str], ...]
    carg: str | None = None
    cfrom: int = -1
    cto: int = -1
    quant: bool | None = None

    @property
    def is_quantifier(self) -> bool:
        """True for generalised quantifiers (EPs with a ``RSTR`` role)."""
        q = self.quant
        if q is None:
            return any(r == "RSTR" for r, _ in self.args)
        return q

    @property
    def iv(self) -> str | None:
        """The intrinsic variable (``ARG0``), or ``None``."""
        args = self.args
        if args and args[0][0] == "ARG0":
            return args[0][1]
        for role, value in args:
            if role == "ARG0":
                return value
        return None

    def arg(self, role: str) -> str | None:
        """Value of ``role`` (``None`` when absent)."""
        for r, value in self.args:
            if r == role:
                return value
        return None


class HCons(NamedTuple):
    """A handle constraint ``hi rel lo`` (``rel`` is ``qeq`` in ERG output)."""

    hi: str
    rel: str
    lo: str


@dataclass(frozen=True, slots=True, eq=False)
class Mrs:
    """A read-only MRS.  ``variables`` maps a variable to its properties (``SF``, ``NUM``...);
    ``source`` keeps the SimpleMRS text when the MRS was read from one."""

    top: str | None
    index: str | None
    eps: tuple[EP, ...]
    hcons: tuple[HCons, ...] = ()
    variables: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    icons: tuple[tuple[str, str, str], ...] = ()
    source: str | None = None

    def properties(self, var: str | None) -> Mapping[str, str]:
        """Properties of a variable (empty mapping when unknown)."""
        if var is None:
            return {}
        return self.variables.get(var, {})

    @property
    def sentence_force(self) -> str | None:
        """``SF`` of the INDEX (``ques``, ``prop``, ``comm``, ``prop-or-ques``) or ``None``."""
        return self.properties(self.index).get("SF")

    def to_simplemrs(self) -> str:
        """One-line SimpleMRS text (the source text when there is one)."""
        if self.source is not None:
            return self.source
        from delphin.codecs import simplemrs

        return simplemrs.encode(to_pydelphin(self))


def _sorted_args(items: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(items, key=lambda kv: role_order(kv[0])))


def from_pydelphin(m: Any) -> Mrs:
    """Convert a PyDelphin ``delphin.mrs.MRS`` into :class:`Mrs`.

    Raises :class:`MrsError` when the object does not look like an MRS.
    """
    try:
        eps = []
        for ep in m.rels:
            args = {str(k).upper(): str(v) for k, v in ep.args.items()}
            carg = args.pop("CARG", None)
            if carg is None and getattr(ep, "carg", None) is not None:
                carg = str(ep.carg)
            cfrom = ep.cfrom if ep.cfrom is not None else -1
            cto = ep.cto if ep.cto is not None else -1
            eps.append(EP(normalize_predicate(str(ep.predicate)), str(ep.label),
                          _sorted_args(args.items()), carg, int(cfrom), int(cto),
                          "RSTR" in args))
        hcons = tuple(HCons(str(h.hi), str(h.relation), str(h.lo)) for h in m.hcons)
        variables = {str(v): {str(k).upper(): str(val) for k, val in props.items()}
                     for v, props in (m.variables or {}).items()}
        icons = tuple((str(i.left), str(i.relation), str(i.right)) for i in (m.icons or ()))
        top = str(m.top) if m.top is not None else None
        index = str(m.index) if m.index is not None else None
    except (AttributeError, TypeError) as e:
        raise MrsError(f"not an MRS object: {e}") from None
    return Mrs(top, index, tuple(eps), hcons, variables, icons)


def to_pydelphin(m: Mrs) -> Any:
    """Convert :class:`Mrs` back into a PyDelphin ``delphin.mrs.MRS``."""
    from delphin import mrs as dmrs_mod  # local import: pydelphin is only needed here
    from delphin.lnk import Lnk

    rels = []
    for ep in m.eps:
        args = dict(ep.args)
        if ep.carg is not None:
            args["CARG"] = ep.carg
        lnk = Lnk.charspan(ep.cfrom, ep.cto) if ep.cfrom >= 0 else None
        rels.append(dmrs_mod.EP(ep.pred, ep.label, args=args, lnk=lnk))
    hcons = [dmrs_mod.HCons(h.hi, h.rel, h.lo) for h in m.hcons]
    icons = [dmrs_mod.ICons(a, r, b) for a, r, b in m.icons]
    variables = {v: dict(p) for v, p in m.variables.items()}
    return dmrs_mod.MRS(top=m.top, index=m.index, rels=rels, hcons=hcons, icons=icons,
                        variables=variables)
