"""Deterministic label degradations for robustness benchmarks: a typo, an alias instead of
the label, a different word order.

Each function takes the label (or symbol) and a ``random.Random``; :func:`rng_for` derives an
independent generator from a seed and a key so results do not depend on processing order.
A degradation that does not apply (no alias, a one-word label, nothing to edit) returns the
label unchanged; callers count how many labels were actually changed.
"""

from __future__ import annotations

import random
import string
from typing import Callable

from verifier.pgmr.symbols import Symbol, surface_key

__all__ = ["rng_for", "typo", "alias_instead", "word_order", "DEGRADATIONS"]

_LETTERS = string.ascii_lowercase


def rng_for(seed: int, *key: object) -> random.Random:
    """A generator seeded from ``seed`` and ``key`` (string seeding is stable across runs)."""
    return random.Random(f"{seed}|" + "|".join(map(str, key)))


def typo(label: str, rng: random.Random) -> str:
    """One random edit (swap of adjacent letters, deletion, insertion or substitution) at a
    letter position of a word of three letters or more (any letter if there is none)."""
    words = label.split(" ")
    spans = []
    pos = 0
    for w in words:
        if sum(c.isalpha() for c in w) >= 3:
            spans.extend(pos + i for i, c in enumerate(w) if c.isalpha())
        pos += len(w) + 1
    if not spans:
        spans = [i for i, c in enumerate(label) if c.isalnum()]
    if not spans:
        return label
    i = rng.choice(spans)
    op = rng.choice(("swap", "delete", "insert", "substitute"))
    if op == "swap" and i + 1 < len(label) and label[i + 1].isalpha() and label[i + 1] != label[i]:
        return label[:i] + label[i + 1] + label[i] + label[i + 2:]
    if op == "delete" and len(label) > 1:
        return label[:i] + label[i + 1:]
    if op == "insert":
        return label[:i] + rng.choice(_LETTERS) + label[i:]
    c = rng.choice([x for x in _LETTERS if x != label[i].lower()])
    return label[:i] + c + label[i + 1:]


def alias_instead(symbol: Symbol, rng: random.Random) -> str:
    """A random alias of ``symbol`` that differs from its label (the label if none)."""
    key = surface_key(symbol.label)
    choices = [a for a in symbol.aliases if surface_key(a) != key]
    return rng.choice(choices) if choices else symbol.label


def word_order(label: str, rng: random.Random) -> str:
    """The words of ``label`` in a different order (two words are swapped)."""
    words = label.split()
    if len(words) < 2 or len(set(words)) < 2:
        return label
    for _ in range(10):
        perm = words[:]
        rng.shuffle(perm)
        if perm != words:
            return " ".join(perm)
    return " ".join(words[::-1])


#: name -> function of (symbol, rng) giving the degraded label.
DEGRADATIONS: dict[str, Callable[[Symbol, random.Random], str]] = {
    "typo": lambda s, r: typo(s.label, r),
    "alias": alias_instead,
    "word_order": lambda s, r: word_order(s.label, r),
}
