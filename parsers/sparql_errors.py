"""The errors of the SPARQL front end (:mod:`parsers.sparql`): every failure to read a query
is a :class:`SparqlError`, either :class:`SparqlSyntaxError` (malformed text) or
:class:`UnsupportedFeature` (valid SPARQL outside the documented semantics;
:class:`TranslationError` for an internal failure)."""

from __future__ import annotations

__all__ = ["SparqlError", "SparqlSyntaxError", "UnsupportedFeature", "TranslationError"]


class SparqlError(ValueError):
    """Base class of the two errors the SPARQL front end raises."""


class SparqlSyntaxError(SparqlError):
    """Malformed SPARQL.  ``line`` and ``column`` are 1-based; ``expected`` lists the tokens
    the parser would have accepted; ``snippet`` shows the line with a caret."""

    def __init__(self, message: str, line: int = 0, column: int = 0,
                 expected: tuple[str, ...] = (), snippet: str = "") -> None:
        self.reason = message
        self.line, self.column, self.expected, self.snippet = line, column, expected, snippet
        text = message
        if line:
            text += f" at line {line}, column {column}"
        if expected:
            shown = ", ".join(expected[:12]) + (", ..." if len(expected) > 12 else "")
            text += f"; expected one of: {shown}"
        if snippet:
            text += "\n" + snippet
        super().__init__(text)


class UnsupportedFeature(SparqlError):
    """Valid SPARQL using a construct outside the translation's semantics; ``feature``
    names it."""

    def __init__(self, feature: str, detail: str = "") -> None:
        self.feature = feature
        super().__init__(f"unsupported SPARQL feature: {feature}" + (f" ({detail})" if detail else ""))


class TranslationError(UnsupportedFeature):
    """An unexpected internal failure while translating a valid query (a bug: please
    report it with the query).  Raised instead of leaking a raw Python exception."""
