"""Numbers written in a text: whether a question writes a query's number, and the minus sign
the parser dropped."""

from __future__ import annotations

import re

from verifier.logic import Literal

__all__ = ["number_value", "number_in_text", "with_written_sign"]


def number_value(text: str) -> float | None:
    """The number a question or query writes ("45,709", "45709.0", ".1"), else None."""
    t = text.strip().replace(",", "").replace(" ", "").replace(" ", "")
    try:
        return float(t)
    except ValueError:
        return None


def number_in_text(value: str, text: str) -> bool:
    """Whether the number ``value`` (or the string itself) is written in ``text``.  Numbers
    are compared as numbers, token by token: 166 is not written in "-166", nor 16 in "166"; a
    sign counts only where it cannot be a dash ("1947-48" writes 48)."""
    v = number_value(value)
    if v is None:
        return value.casefold() in text.casefold()
    if re.search(r"(?<![\w.+\-])" + re.escape(value) + r"(?![\w.]*\d)", text):
        return True  # written as such ("1.15e+11")
    for m in re.finditer(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?|(?<![\w.])[-+]?\.\d+", text):
        w = number_value(m.group(0))
        if w is not None and abs(w - v) < 1e-9 * max(1.0, abs(v)):
            return True
    return False


def with_written_sign(lit: Literal, text: str) -> Literal:
    """The number ``lit`` with the minus sign the question writes and the parser dropped
    ("equal to -166" is read as 166); ``lit`` itself otherwise."""
    if text and not lit.lexical.startswith("-") and not number_in_text(lit.lexical, text) \
            and number_in_text("-" + lit.lexical, text):
        return Literal("-" + lit.lexical, lit.datatype)
    return lit
