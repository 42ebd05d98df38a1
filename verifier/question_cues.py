"""Cues of the question's surface that stages before the intent check read: whether the
question restricts the answer's name ("whose name has the word W", "starts with the letter
L"), :func:`surface_name_test`.  Grounding reads it (a pronoun is then the answer's name,
not the named item) and so does :mod:`verifier.intent`."""

from __future__ import annotations

import re

__all__ = ["surface_name_test"]


# "whose name has the word W", "starts with the letter L", "contains the word W in their
# name": the question restricts the answer's name, which a query tests with a string function
_NAME_TEST = re.compile(
    r"\b(?:(?:start|starts|started|begin|begins|end|ends)\s+with\s+(?:(?:the|a|an)\s+)?"
    r"(?:(?:letter|alphabet|word|character)s?\b|[\"'“‘][^\W\d_][\"'”’]"
    r"|[^\W\d_](?=\s*(?:[?.!,]|$|\s(?:and|or)\b)))"
    r"|(?:contain|contains)\s+(?:(?:the|a|an)\s+)?words?\b"
    r"|(?:has|have|had|with)\s+(?:(?:the|a|an)\s+)?words?\s+\S+\s+in\s+(?:it|its|it's|their|the|his|her)\b"
    r"|name\s+(?:has|contains|have|includes?)\s+(?:(?:the|a|an)\s+)?(?:word|letter)s?\b)",
    re.I)


def surface_name_test(question: str) -> str | None:
    """The phrase by which a question restricts the answer's name ("starts with the letter
    t", "whose name has the word bayesian"), or None."""
    m = _NAME_TEST.search(question)
    return m.group(0) if m else None
