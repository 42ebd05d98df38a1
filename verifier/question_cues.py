"""Cues of the question's surface that stages before the intent check read: whether the
question restricts the answer's name ("whose name has the word W", "starts with the letter
L"), :func:`surface_name_test`.  Grounding reads it (a pronoun is then the answer's name,
not the named item) and so does :mod:`verifier.intent`."""

from __future__ import annotations

from verifier.vocabulary import vocabulary

__all__ = ["surface_name_test"]


#: "whose name has the word W", "starts with the letter L", "contains the word W in their
#: name": the question restricts the answer's name, which a query tests with a string function
_NAME_TEST = vocabulary("intent").pattern("name_test")


def surface_name_test(question: str) -> str | None:
    """The phrase by which a question restricts the answer's name ("starts with the letter
    t", "whose name has the word bayesian"), or None."""
    m = _NAME_TEST.search(question)
    return m.group(0) if m else None
