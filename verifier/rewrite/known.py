"""The predicates the axioms name, by lemma: what the rewrite rules' ``known`` conditions read
(an unknown word read as the known predicate of its lemma: ``_use/vb_u_unknown`` as
``_use_v_1``).

A :class:`Known` holds the predicates by lemma and the numbers of arguments the axioms give
each; a word is known by its lemma or, when that is no lemma of a known predicate, by the
first of its base forms that is (a past form stands for its verb: "grew" is *grow*,
:func:`verifier.lexical.base_forms`).  The deductive stage makes one from the axiom pack's
template verbs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from verifier.lexical import base_forms

__all__ = ["Known", "NOTHING_KNOWN"]


@dataclass(frozen=True)
class Known:
    """Known predicates by lemma (``{"use": "_use_v_1"}``) and their arities."""

    by_lemma: Mapping[str, str] = field(default_factory=dict)
    arities: Mapping[str, frozenset[int]] = field(default_factory=dict)

    def predicate(self, lemma: str | None) -> str | None:
        """The known predicate of ``lemma`` or of its first base form that has one (None)."""
        if not lemma:
            return None
        w = next((w for w in (lemma, *base_forms(lemma)) if w in self.by_lemma), None)
        return None if w is None else self.by_lemma[w]

    def takes(self, pred: str, n: int) -> bool:
        """Whether the axioms give the known predicate ``pred`` ``n`` arguments."""
        return n in self.arities.get(pred, ())


#: No predicate is known.
NOTHING_KNOWN = Known()
